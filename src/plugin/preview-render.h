/* What a dialog's preview shows, computed from a snapshot: the argument values and, for
 * procedures that read the layer, the layer's heights, both taken on the main thread. No
 * libgimp call here, so it runs on the preview's worker thread (preview-worker.c). */
#ifndef TERRAIN_PREVIEW_RENDER_H
#define TERRAIN_PREVIEW_RENDER_H

#include "arg-values.h"

typedef struct
{
  const TerrainProcedureInfo *info;
  TerrainArgValues           *values;  /* owned */
  int                         width, height; /* the layer's */
  const float                *layer;   /* width x height heights when the procedure reads
                                          the layer, else NULL; not the job's: the dialog
                                          keeps them until the worker has stopped */
  gboolean                    one_to_one; /* the layer rectangle x, y, w, h at 1:1; else the
                                             whole layer sampled onto w x h */
  int                         x, y, w, h;
  gboolean                    relief;  /* a hillshade instead of heights */
  double                      azimuth, elevation;
} TerrainPreviewJob;

/* Fills heights (w x h) with exactly the heights OK writes there (the sample under each
 * cell's centre when scaled), and out (w x h) with what the preview draws: the same heights,
 * or their hillshade with its contrast normalised to the map's slopes (shade.h); the 3D view
 * shows the heights either way. *scratch: a layer-sized buffer for procedures that render
 * the whole layer (filters copy the layer there first), allocated on first use and reused by
 * later jobs (caller frees). progress cancels: TERRAIN_CANCELLED, out unspecified. */
TerrainStatus terrain_preview_job_run (TerrainPreviewJob *job, float **scratch,
                                       const TerrainProgress *progress, float *heights,
                                       float *out);

void          terrain_preview_job_free (TerrainPreviewJob *job);

#endif
