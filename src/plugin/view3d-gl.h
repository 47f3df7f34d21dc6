/* The 3D view drawn with OpenGL 3.3 (core profile): the picture terrain_view3d_render_mesh
 * draws on the CPU (view3d.h), from the same scene, camera and palette (view3d-scene.h) and
 * the same shading, on the GPU. The mesh's heights, normals and horizons are textures; the
 * surface is drawn as one triangle strip a row of cells, its vertices read from the heights
 * texture, so a 1024² mesh costs its textures (28 MiB) and no vertex buffer. Cast shadows
 * are the CPU's horizon test (exact along the sun's azimuth), sampled per pixel: the same
 * shadows as the CPU render, which a shadow map would only approximate.
 *
 * Every function needs the OpenGL context it was made in to be current. */
#ifndef TERRAIN_VIEW3D_GL_H
#define TERRAIN_VIEW3D_GL_H

#include <glib.h>

#include "view3d-scene.h"

typedef struct TerrainView3DGL TerrainView3DGL;

/* NULL, with *error set (English, g_free it), when the context is older than OpenGL 3.3 or
 * the shaders do not build. */
TerrainView3DGL *terrain_view3d_gl_new (char **error);
/* Takes scene (frees the one before) and uploads it; FALSE with *error set when the GPU
 * cannot hold it or scene is NULL (the scene is then freed and nothing is drawn). */
gboolean         terrain_view3d_gl_set_scene (TerrainView3DGL *gl, TerrainView3DScene *scene,
                                              char **error);
const TerrainView3DScene *terrain_view3d_gl_scene (const TerrainView3DGL *gl);
/* Draws the scene with params' camera, colours and sea into the bound framebuffer, of
 * width x height pixels (with a depth buffer); the sky alone without a scene. */
void             terrain_view3d_gl_draw (TerrainView3DGL *gl, const TerrainView3DParams *params,
                                         int width, int height);
/* The same into a framebuffer of its own, read back into rgb (width * height * 3 bytes, rows
 * from the top, as terrain_view3d_render_mesh writes them); FALSE with *error set when
 * OpenGL fails (for the tests, the benchmark and renders without a window). */
gboolean         terrain_view3d_gl_picture (TerrainView3DGL *gl, const TerrainView3DParams *params,
                                            guchar *rgb, int width, int height, char **error);
/* The first OpenGL error since the last call, or NULL (for the tests and the log). */
const char      *terrain_view3d_gl_error (void);
void             terrain_view3d_gl_free (TerrainView3DGL *gl);

#endif
