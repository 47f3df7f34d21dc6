/* Rendering a procedure for a drawable: shared by OK/batch runs and the preview. */
#ifndef TERRAIN_APPLY_H
#define TERRAIN_APPLY_H

#include <libgimp/gimp.h>

#include "arg-values.h"

/* Renders the procedure for the drawable and samples it onto a pw x ph grid (the sample
 * under each grid cell's centre: exact pixels of what OK writes). Procedures that render
 * rectangles render only the sampled rows; the others render the whole layer into
 * *scratch (layer-sized, allocated on first use, reused by later calls, caller frees with
 * g_free) after reading the layer when they need it. */
TerrainStatus     terrain_render_samples (const TerrainProcedureInfo *info,
                                          const TerrainArgValues *values, GimpDrawable *drawable,
                                          float **scratch, float *samples, int pw, int ph,
                                          GError **error);

/* Renders the procedure for the drawable into *scratch (layer-sized, allocated on first
 * use, reused, caller frees) and copies the layer rectangle x, y, w, h into out: what a
 * 1:1 preview of that region shows, exactly what OK writes there. */
TerrainStatus     terrain_render_region (const TerrainProcedureInfo *info,
                                         const TerrainArgValues *values, GimpDrawable *drawable,
                                         float **scratch, float *out, int x, int y, int w, int h,
                                         GError **error);

/* Renders into the drawable (selection honoured, alpha kept, one undo step): in GIMP's
 * process through the procedure's GEGL operation when GIMP has this build's, merged or,
 * with non_destructive, as an editable layer effect; else in this process, writing the
 * pixels through the pipe (the same bytes, always merged). config holds the arguments
 * that values were read from. The drawable is untouched unless the result is SUCCESS. */
GimpPDBStatusType terrain_apply (const TerrainProcedureInfo *info, GimpProcedureConfig *config,
                                 const TerrainArgValues *values, GimpDrawable *drawable,
                                 gboolean non_destructive, GError **error);

#endif
