/* Rendering a procedure for a drawable: shared by OK/batch runs and the preview. */
#ifndef TERRAIN_APPLY_H
#define TERRAIN_APPLY_H

#include <libgimp/gimp.h>

#include "arg-values.h"

/* Renders the whole layer's heights into `heights` (layer-sized), reading the layer first
 * when the procedure is a filter. On failure sets `error` (translated, user-facing). */
TerrainStatus     terrain_render_layer (const TerrainProcedureInfo *info,
                                        const TerrainArgValues *values, GimpDrawable *drawable,
                                        float *heights, const TerrainProgress *progress,
                                        GError **error);

/* Renders and writes into the drawable (selection honoured, alpha kept, one undo step).
 * The drawable is untouched unless the result is SUCCESS. */
GimpPDBStatusType terrain_apply (const TerrainProcedureInfo *info,
                                 const TerrainArgValues *values, GimpDrawable *drawable,
                                 GError **error);

#endif
