/* A procedure's maps (river erosion's flow, erosion and deposition) as new layers. */
#ifndef TERRAIN_MAP_LAYERS_H
#define TERRAIN_MAP_LAYERS_H

#include <libgimp/gimp.h>

#include "procedure-info.h"

/* Adds one layer per map of info->map_names above the drawable (the first map on top),
 * each of the drawable's size and offsets, in the image's precision, named after its map
 * and holding it whole (the selection masks the procedure's result, not its maps). Call it
 * inside the procedure's undo group. */
void terrain_add_map_layers (const TerrainProcedureInfo *info, GimpDrawable *drawable,
                             float *const *maps);

#endif
