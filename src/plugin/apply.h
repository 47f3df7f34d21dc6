/* Rendering a procedure into a drawable: OK and batch runs (the dialog's preview is
 * preview-render.c). */
#ifndef TERRAIN_APPLY_H
#define TERRAIN_APPLY_H

#include <libgimp/gimp.h>

#include "arg-values.h"

/* Renders into the drawable (selection honoured, alpha kept, one undo step): in GIMP's
 * process through the procedure's GEGL operation when GIMP has this build's, merged or,
 * with non_destructive, as an editable layer effect; else in this process, writing the
 * pixels through the pipe (the same bytes, always merged). config holds the arguments
 * that values were read from. The drawable is untouched unless the result is SUCCESS. */
GimpPDBStatusType terrain_apply (const TerrainProcedureInfo *info, GimpProcedureConfig *config,
                                 const TerrainArgValues *values, GimpDrawable *drawable,
                                 gboolean non_destructive, GError **error);

#endif
