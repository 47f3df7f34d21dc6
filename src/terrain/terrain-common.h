/* gimp-terrain core: what every generator and filter shares.
 *
 * The core is plain C11 on float buffers: no GIMP, GTK, GLib or GEGL include. A heightmap
 * is `width * height` floats, row-major, row stride = width, values in [0, 1] on output.
 * Every entry point is a plain function of its parameters (a params struct with a
 * `*_defaults()` initialiser) and returns a TerrainStatus.
 */
#ifndef TERRAIN_COMMON_H
#define TERRAIN_COMMON_H

#include <stddef.h>
#include <stdint.h>

typedef enum
{
  TERRAIN_OK = 0,
  TERRAIN_ERROR_INVALID,   /* a parameter is out of its documented range */
  TERRAIN_ERROR_NO_MEMORY, /* a buffer could not be allocated (or its size overflows) */
  TERRAIN_CANCELLED        /* the progress callback asked to stop */
} TerrainStatus;

const char *terrain_status_message (TerrainStatus status);

/* Largest width or height the core accepts; width * height must also fit in size_t. */
#define TERRAIN_MAX_SIDE 524288

/* Progress and cancellation. `report` gets the fraction done in [0, 1] and returns
 * non-zero to cancel; the generator then returns TERRAIN_CANCELLED promptly and the output
 * buffer's content is unspecified (callers write nothing from it). A NULL progress, or a
 * NULL report, means "never cancel". */
typedef struct
{
  int  (*report) (void *user, double fraction);
  void  *user;
} TerrainProgress;

/* Calls progress->report; returns non-zero when the caller must stop. */
int terrain_progress_report (const TerrainProgress *progress, double fraction);

/* TERRAIN_OK when width x height is a size the core can work on, else INVALID/NO_MEMORY. */
TerrainStatus terrain_check_size (int width, int height);

#endif
