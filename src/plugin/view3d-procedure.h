/* plug-in-terrain-3d-view (Filters > Render > Terrain > 3D View...): the active layer seen in
 * 3D (src/terrain/include/view3d.h). Not a heightmap filter, so it stands beside the
 * descriptor table's procedures rather than in it. */
#ifndef TERRAIN_VIEW3D_PROCEDURE_H
#define TERRAIN_VIEW3D_PROCEDURE_H

#include <libgimp/gimp.h>

#include "view3d.h"

#define TERRAIN_VIEW3D_PROCEDURE "plug-in-terrain-3d-view"

GimpProcedure     *terrain_view3d_procedure_new (GimpPlugIn *plug_in);

/* The drawable's heights as a reduced mesh of at most mesh_side vertices a side (read band
 * by band); NULL with the error when the layer holds values that are no numbers. */
TerrainView3DMesh *terrain_view3d_read_mesh (GimpDrawable *drawable, int mesh_side,
                                             GError **error);

#endif
