/* A widget that shows a heightmap's mesh in 3D (view3d.h), shared by the 3D View window and
 * the procedure dialogs' 3D view. It draws with OpenGL (view3d-gl.h) where the display has a
 * GPU driver, else on the CPU, saying why over the picture (view3d-area-gl.c). Jobs run on a
 * thread of their own, one at a time: the CPU's picture, or OpenGL's scene (normals and the
 * sun's horizon), which the main thread then draws, and draws again with no job when only
 * the camera or the colours change. A change while a job runs (the mouse, a slider, a new
 * mesh) asks for one more when it ends, so the main loop never waits for a job and never
 * queues more than one; a result made from a mesh that has been replaced meanwhile is
 * dropped, one that only lags the camera is shown (it follows the mouse). The mouse orbits (drag), pans (Shift+drag or the middle
 * button) and zooms (wheel). Every function here is for the main thread. */
#ifndef TERRAIN_VIEW3D_AREA_H
#define TERRAIN_VIEW3D_AREA_H

#include <gtk/gtk.h>

#include "view3d.h"

typedef struct TerrainView3DArea TerrainView3DArea;

/* Starts with params and no mesh (an empty area). */
TerrainView3DArea   *terrain_view3d_area_new (const TerrainView3DParams *params);
GtkWidget           *terrain_view3d_area_widget (TerrainView3DArea *area);
/* The parameters the next render uses; after changing them, terrain_view3d_area_redraw. */
TerrainView3DParams *terrain_view3d_area_params (TerrainView3DArea *area);
void                 terrain_view3d_area_redraw (TerrainView3DArea *area);
/* Takes mesh (ready) and renders it as soon as the running render, if any, is done. */
void                 terrain_view3d_area_set_mesh (TerrainView3DArea *area,
                                                   TerrainView3DMesh *mesh);
/* The newest mesh given, or NULL. */
const TerrainView3DMesh *terrain_view3d_area_mesh (TerrainView3DArea *area);
gboolean             terrain_view3d_area_busy (TerrainView3DArea *area);
/* Rows 0-2 of grid: sliders of the sun's azimuth (0-360), its elevation (0-90) and the
 * exaggeration (0-10) of the area's parameters, which redraw it; labels[3] may hold
 * mnemonics. */
void                 terrain_view3d_area_add_sliders (TerrainView3DArea *area, GtkGrid *grid,
                                                      const char *const labels[3]);
/* Rows 3-4 of grid: a slider of the sea level (0-1 of the layer's range; 0: no sea) and a
 * check box of the colours (by height and slope, else plain gray); labels may hold
 * mnemonics. */
void                 terrain_view3d_area_add_scene (TerrainView3DArea *area, GtkGrid *grid,
                                                    const char *const labels[2]);
/* Waits for the running render (it is short), drops what is on its way, frees. */
void                 terrain_view3d_area_free (TerrainView3DArea *area);

#endif
