/* Heights in and out of a drawable, in the drawable's own space with the perceptual
 * ("Y'") curve, so a stored value is proportional to height at 8, 16 and 32 bits. */
#ifndef TERRAIN_LAYER_IO_H
#define TERRAIN_LAYER_IO_H

#include "procedure-info.h"

#include <libgimp/gimp.h>

/* gimp_progress_update, at most once per 2 % of progress (and at 0 and 1): each update is a
 * round trip to GIMP, and the core may report hundreds of times. */
void        terrain_progress_update (double fraction);
/* gimp_progress_init with the procedure's menu label, without its mnemonic. */
void        terrain_progress_init (const TerrainProcedureInfo *info);

/* "Y' float" / "Y'A float" for gray drawables, "R'G'B'(A) float" for RGB, in the
 * drawable's space; with_alpha follows the drawable. */
const Babl *terrain_float_format (GimpDrawable *drawable);
/* The same layout at 8 bits, as previews draw it. */
const Babl *terrain_preview_format (GimpDrawable *drawable);

/* Writes width x height heights into the whole of a drawable no undo step needs to keep
 * (a layer this run made), straight into its buffer. */
void     terrain_write_layer (GimpDrawable *drawable, const float *heights);

/* Whether the drawable's storage can hold values that are no numbers (half, float, double,
 * or a format the codec leaves to babl). */
gboolean terrain_holds_non_numbers (GimpDrawable *drawable);

/* How many pixels of the rectangle x, y, w, h of the drawable that the selection covers at
 * all GIMP cannot mix a result into (pixel-codec.h: not finite, or beyond *limit); the
 * first (in rows) in *first_x, *first_y. */
gsize    terrain_count_selected_unmixable (GimpDrawable *drawable, int x, int y, int w, int h,
                                           int *first_x, int *first_y, double *limit);

/* Reads the drawable's heights (its gray value) into width x height floats. */
void     terrain_read_heights (GimpDrawable *drawable, float *heights);

/* Receives `count` rows of heights (the drawable's width each) from row y on. */
typedef void (*TerrainRowSink) (gpointer user, const float *rows, int y, int count);
/* Reads the drawable's heights band by band (a tile high), from the top, handing each band
 * to `sink`: a layer of any size in a band's memory. */
void     terrain_read_height_bands (GimpDrawable *drawable, TerrainRowSink sink, gpointer user);

/* Fills `heights` (w x h floats, stride w) with the layer rectangle x, y, w, h; returns
 * FALSE to abandon the write (a failed or cancelled render). Called from a worker thread,
 * band after band in order: it must not call libgimp (progress included) or touch GEGL
 * buffers. */
typedef gboolean (*TerrainBandSource) (gpointer user, float *heights, int x, int y, int w, int h);

/* Writes the rectangle x, y, w, h of the drawable through its shadow buffer in
 * tile-aligned bands, each filled by `source` while the band before is transferred,
 * keeping alpha and, with keep_unchanged, the bytes of every pixel whose height the
 * source left as the layer had it (pixel-codec.h); moves the progress bar from progress_from to 1 as bands are written; then
 * merges the shadow (one undo step, selection applied) and updates the display. When the
 * source gives up, nothing is merged and the drawable is untouched: returns FALSE. */
gboolean terrain_write_heights (GimpDrawable *drawable, int x, int y, int w, int h,
                                gboolean keep_unchanged, TerrainBandSource source, gpointer user,
                                double progress_from);

#endif
