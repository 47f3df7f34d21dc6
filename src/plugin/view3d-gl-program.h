/* The 3D view's OpenGL program (view3d-gl-program.c): the CPU renderer's shading in GLSL
 * 3.30. Uniforms and the one attribute ("position", location 0) are view3d-gl.c's to set. */
#ifndef TERRAIN_VIEW3D_GL_PROGRAM_H
#define TERRAIN_VIEW3D_GL_PROGRAM_H

#include <epoxy/gl.h>
#include <glib.h>

/* The linked program with a current context; 0 with *error set (g_free it). */
GLuint terrain_view3d_gl_program (char **error);

#endif
