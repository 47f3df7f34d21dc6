/* One GEGL filter operation per procedure descriptor: "terrain:" + the procedure's name
 * without "plug-in-terrain-", its arguments as properties, its render as process(). */
#ifndef TERRAIN_OPERATION_H
#define TERRAIN_OPERATION_H

#include <gegl-plugin.h>

#include "procedure-info.h"

/* Registers the operation of `info` with the module (once: a second copy of the module
 * registers nothing). Titles and labels are in the user's language (terrain_text). */
void terrain_operation_register (GTypeModule *module, const TerrainProcedureInfo *info);

#endif
