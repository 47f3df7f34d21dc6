/* The 3D view area's parts (view3d-area.h): the area itself, and its OpenGL canvas
 * (view3d-area-gl.c). Main thread only, but for what a Job's thread reads. */
#ifndef TERRAIN_VIEW3D_AREA_PRIVATE_H
#define TERRAIN_VIEW3D_AREA_PRIVATE_H

#include "view3d-area.h"
#include "view3d-gl.h"

struct TerrainView3DArea
{
  gint                refs;    /* the owner's, and one per job on its way */
  TerrainView3DParams params;
  GtkWidget          *widget;  /* what the owner packs: the canvas, the note over it */
  GtkWidget          *canvas;  /* a GtkGLArea, or a GtkDrawingArea the CPU draws into */
  GtkWidget          *note;    /* one line: why the view is drawn on the CPU */
  cairo_surface_t    *picture; /* the CPU's last frame */
  TerrainView3DGL    *gl;      /* with OpenGL, once realized */
  TerrainView3DScene *scene;   /* with OpenGL: built, not uploaded yet */
  TerrainView3DParams scene_params; /* what the uploaded or waiting scene was built with */
  gboolean            has_scene;
  TerrainView3DMesh  *mesh;    /* what the running job reads, else the newest */
  TerrainView3DMesh  *next;    /* a newer mesh, given while a job read mesh */
  gboolean            busy, wanted, closed;
  GThread            *thread, *main_thread;
  gboolean            dragging, panning;
  double              x, y;
};

/* A line of $TERRAIN_VIEW3D_LOG (view3d-area.c). */
void      view3d_area_log (int width, int height, int cols, int rows, gint64 took,
                           const char *how, gboolean shown);
/* Drops a reference (the owner's or a job's); the last frees the area. */
void      view3d_area_unref (TerrainView3DArea *area);
/* Input handlers for a canvas (view3d-area.c). */
void      view3d_area_take_input (TerrainView3DArea *area, GtkWidget *canvas);

/* The canvas: a GtkGLArea drawing the area's scene; NULL where OpenGL is not wanted
 * ($TERRAIN_VIEW3D_GL=0) or is a software renderer (unless $TERRAIN_VIEW3D_GL=1), *why then
 * saying so for the note (or NULL). Should OpenGL fail once the GtkGLArea is made (no
 * context, too old, a shader or an upload), it is replaced by the CPU's canvas, and the note
 * says why (view3d-area-gl.c). */
GtkWidget *view3d_area_gl_canvas (TerrainView3DArea *area, const char **why);
/* The CPU's canvas, with the note when why is not NULL (view3d-area.c). */
void      view3d_area_use_cpu (TerrainView3DArea *area, const char *why);
void      view3d_area_gl_free (TerrainView3DArea *area);

#endif
