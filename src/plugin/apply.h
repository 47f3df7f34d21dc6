/* Rendering a procedure into a drawable: OK and batch runs (the dialog's preview is
 * preview-render.c). */
#ifndef TERRAIN_APPLY_H
#define TERRAIN_APPLY_H

#include <libgimp/gimp.h>

#include "arg-values.h"

/* Renders into the drawable (selection honoured, alpha kept, one undo step): in GIMP's
 * process through the procedure's GEGL operation when GIMP has this build's, merged or,
 * with non_destructive, as an editable layer effect; else in this process, writing the
 * pixels through the pipe (the same bytes, always merged). Merged, the result goes on top
 * of the effects the layer shows, as the effect would and the dialog's preview does, and
 * those effects are merged with it (terrain_native_apply, terrain_merge_effects).
 * config holds the arguments that values were read from. The drawable is untouched unless
 * the result is SUCCESS; but in this process, when a render fails after the effects were
 * merged (running out of memory, or effects that make no heightmap), the layer keeps them
 * merged: it shows what it showed, and one undo step restores them. */
GimpPDBStatusType terrain_apply (const TerrainProcedureInfo *info, GimpProcedureConfig *config,
                                 const TerrainArgValues *values, GimpDrawable *drawable,
                                 gboolean non_destructive, GError **error);

#endif
