/* The 3D View window (plug-in-terrain-3d-view run interactively): the active layer's CPU
 * render, orbited by dragging, zoomed by the wheel, the sun and the exaggeration on sliders;
 * it follows the layer as it is painted. */
#ifndef TERRAIN_VIEW3D_WINDOW_H
#define TERRAIN_VIEW3D_WINDOW_H

#include <libgimp/gimp.h>

#include "view3d.h"

/* Shows the window until it is closed; the procedure's return values. */
GimpValueArray *terrain_view3d_window_run (GimpProcedure *procedure, GimpDrawable *drawable,
                                           const TerrainView3DParams *params);

#endif
