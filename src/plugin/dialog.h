#ifndef TERRAIN_DIALOG_H
#define TERRAIN_DIALOG_H

#include <glib/gi18n-lib.h>
#include <libgimp/gimp.h>

#include "procedure-info.h"

/* Shows the procedure's dialog with a live preview; TRUE when the user pressed OK. */
gboolean terrain_dialog_run (const TerrainProcedureInfo *info, GimpProcedure *procedure,
                             GimpProcedureConfig *config, GimpDrawable *drawable);

#endif
