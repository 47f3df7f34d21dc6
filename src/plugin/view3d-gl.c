/* The 3D view drawn with OpenGL (view3d-gl.h): the scene as textures and a small vertex
 * buffer (walls and sea), drawn in the CPU renderer's order (surface, walls, sea: the first
 * drawn wins a tie in depth, as there). */
#include "view3d-gl.h"

#include "view3d-gl-program.h"

#include <string.h>

struct TerrainView3DGL
{
  GLuint              program, vao, buffer;
  GLuint              surface, normals; /* textures */
  TerrainView3DScene *scene;
  int                 wall_vertices;    /* a side; the sea's 6 follow the 4 sides */
};

const char *
terrain_view3d_gl_error (void)
{
  switch (glGetError ())
    {
    case GL_NO_ERROR: return NULL;
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    default: return "an OpenGL error";
    }
}

static GLuint
texture_new (void)
{
  GLuint t;
  glGenTextures (1, &t);
  glBindTexture (GL_TEXTURE_2D, t);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  return t;
}

/* The palette: constant, so set once in the program, which keeps its uniforms. */
static void
set_palette (GLuint program)
{
  const TerrainView3DPalette *p = terrain_view3d_palette ();
  glUniform1fv (glGetUniformLocation (program, "stop_height"), TERRAIN_VIEW3D_STOPS,
                p->stop_height);
  glUniform3fv (glGetUniformLocation (program, "stops"), TERRAIN_VIEW3D_STOPS, p->stop[0]);
  const struct
  {
    const char  *name;
    const float *rgb;
  } named[] = { { "rock", p->rock }, { "sand", p->sand }, { "water", p->water },
                { "wall", p->wall }, { "plain", p->gray }, { "sky_top", p->sky_top },
                { "sky_low", p->sky_low } };
  for (size_t k = 0; k < G_N_ELEMENTS (named); k++)
    glUniform3fv (glGetUniformLocation (program, named[k].name), 1, named[k].rgb);
}

TerrainView3DGL *
terrain_view3d_gl_new (char **error)
{
  if (epoxy_gl_version () < 33)
    {
      *error = g_strdup_printf ("OpenGL %d.%d is older than 3.3", epoxy_gl_version () / 10,
                                epoxy_gl_version () % 10);
      return NULL;
    }
  GLuint program = terrain_view3d_gl_program (error);
  if (program == 0)
    return NULL;
  TerrainView3DGL *gl = g_new0 (TerrainView3DGL, 1);
  gl->program = program;
  glUseProgram (program);
  set_palette (program);
  glUniform1i (glGetUniformLocation (program, "surface"), 0); /* texture units */
  glUniform1i (glGetUniformLocation (program, "normals"), 1);
  glUseProgram (0);
  glGenVertexArrays (1, &gl->vao);
  glGenBuffers (1, &gl->buffer);
  gl->surface = texture_new ();
  gl->normals = texture_new ();
  return gl;
}

/* One side's wall, two triangles a segment, from the surface (or the sea above it) down to
 * the base: side 0..3 = north, east, south, west, as the CPU draws them. */
static void
add_wall (float *out, const TerrainView3DScene *s, int side)
{
  const int along_x = side == 0 || side == 2;
  const int n = along_x ? s->cols : s->rows;
  const int fixed = side == 1 ? s->cols - 1 : side == 2 ? s->rows - 1 : 0;
  for (int k = 0; k + 1 < n; k++)
    {
      float corner[4][3];
      for (int e = 0; e < 2; e++)
        {
          const int c = along_x ? k + e : fixed, r = along_x ? fixed : k + e;
          float     top = s->z[(size_t) r * s->cols + c];
          if (s->sea && s->zsea > top)
            top = s->zsea;
          for (int b = 0; b < 2; b++)
            {
              corner[2 * e + b][0] = (float) terrain_view3d_scene_x (s, c);
              corner[2 * e + b][1] = (float) terrain_view3d_scene_y (s, r);
              corner[2 * e + b][2] = b ? s->zbase : top;
            }
        }
      static const int ORDER[6] = { 0, 2, 3, 0, 3, 1 };
      for (int v = 0; v < 6; v++, out += 3)
        memcpy (out, corner[ORDER[v]], sizeof corner[0]);
    }
}

static void
upload_geometry (TerrainView3DGL *gl, const TerrainView3DScene *s)
{
  const int longer = s->cols > s->rows ? s->cols : s->rows;
  gl->wall_vertices = 6 * (longer - 1);
  float *v = g_new0 (float, 3 * (4 * gl->wall_vertices + 6));
  for (int side = 0; side < 4; side++) /* a shorter side's rest: empty triangles at 0 */
    add_wall (v + 3 * side * gl->wall_vertices, s, side);
  float *end = v + 3 * 4 * gl->wall_vertices;
  const double x0 = terrain_view3d_scene_x (s, 0), x1 = terrain_view3d_scene_x (s, s->cols - 1);
  const double y0 = terrain_view3d_scene_y (s, 0), y1 = terrain_view3d_scene_y (s, s->rows - 1);
  const double sea[6][2] = { { x0, y0 }, { x1, y0 }, { x1, y1 },
                             { x0, y0 }, { x1, y1 }, { x0, y1 } };
  for (int k = 0; k < 6; k++)
    {
      end[3 * k] = (float) sea[k][0];
      end[3 * k + 1] = (float) sea[k][1];
      end[3 * k + 2] = s->zsea;
    }
  glBindVertexArray (gl->vao);
  glBindBuffer (GL_ARRAY_BUFFER, gl->buffer);
  glBufferData (GL_ARRAY_BUFFER, sizeof (float) * 3 * (4 * gl->wall_vertices + 6), v,
                GL_STATIC_DRAW);
  glVertexAttribPointer (0, 3, GL_FLOAT, GL_FALSE, 0, NULL);
  glEnableVertexAttribArray (0);
  g_free (v);
}

/* Heights and horizons in one texture (bilinear, as the CPU samples them; texelFetch gives
 * the vertices), normals in another. */
static void
upload_textures (TerrainView3DGL *gl, const TerrainView3DScene *s)
{
  const size_t n = (size_t) s->cols * s->rows;
  float       *pairs = g_new (float, 2 * n);
  for (size_t i = 0; i < n; i++)
    {
      pairs[2 * i] = s->h[i];
      pairs[2 * i + 1] = s->horizon[i];
    }
  glPixelStorei (GL_UNPACK_ALIGNMENT, 4);
  glBindTexture (GL_TEXTURE_2D, gl->surface);
  glTexImage2D (GL_TEXTURE_2D, 0, GL_RG32F, s->cols, s->rows, 0, GL_RG, GL_FLOAT, pairs);
  glBindTexture (GL_TEXTURE_2D, gl->normals);
  glTexImage2D (GL_TEXTURE_2D, 0, GL_RGB32F, s->cols, s->rows, 0, GL_RGB, GL_FLOAT, s->normal);
  g_free (pairs);
}

gboolean
terrain_view3d_gl_set_scene (TerrainView3DGL *gl, TerrainView3DScene *scene, char **error)
{
  GLint largest = 0;
  terrain_view3d_scene_free (gl->scene);
  gl->scene = NULL;
  if (scene == NULL)
    {
      *error = g_strdup ("not enough memory for the scene");
      return FALSE;
    }
  glGetIntegerv (GL_MAX_TEXTURE_SIZE, &largest);
  if (scene->cols > largest || scene->rows > largest)
    {
      *error = g_strdup_printf ("a mesh of %d x %d vertices is larger than OpenGL's textures "
                                "(%d a side)", scene->cols, scene->rows, largest);
      terrain_view3d_scene_free (scene);
      return FALSE;
    }
  terrain_view3d_gl_error (); /* an error before is not this upload's */
  upload_textures (gl, scene);
  upload_geometry (gl, scene);
  const char *failed = terrain_view3d_gl_error ();
  if (failed)
    {
      *error = g_strdup_printf ("OpenGL could not take the mesh (%s)", failed);
      terrain_view3d_scene_free (scene);
      return FALSE;
    }
  gl->scene = scene;
  return TRUE;
}

const TerrainView3DScene *
terrain_view3d_gl_scene (const TerrainView3DGL *gl)
{
  return gl->scene;
}

static void
set_vec3 (GLuint program, const char *name, const double v[3])
{
  glUniform3f (glGetUniformLocation (program, name), (float) v[0], (float) v[1], (float) v[2]);
}

/* The camera, fitted to the picture, and what the shading reads. */
static void
set_uniforms (const TerrainView3DGL *gl, const TerrainView3DParams *p, int width, int height)
{
  const GLuint              prog = gl->program;
  const TerrainView3DScene *s = gl->scene;
  TerrainView3DCamera       cam;
  terrain_view3d_camera_fit (&cam, s, p, width, height);
  set_vec3 (prog, "eye", cam.eye);
  set_vec3 (prog, "forward", cam.forward);
  set_vec3 (prog, "right", cam.right);
  set_vec3 (prog, "up", cam.up);
  set_vec3 (prog, "sun", s->sun);
  glUniform4f (glGetUniformLocation (prog, "screen"), (float) cam.centre_x,
               (float) cam.centre_y, (float) (2.0 * cam.scale / width),
               (float) (2.0 * cam.scale / height));
  glUniform2f (glGetUniformLocation (prog, "depth_range"), (float) cam.near_depth,
               (float) cam.far_depth);
  glUniform2i (glGetUniformLocation (prog, "grid"), s->cols, s->rows);
  glUniform1f (glGetUniformLocation (prog, "zscale"), (float) s->zscale);
  glUniform1i (glGetUniformLocation (prog, "gray"), p->colours == TERRAIN_VIEW3D_COLOURS_GRAY);
  glUniform1i (glGetUniformLocation (prog, "sea"), p->sea);
  glUniform1f (glGetUniformLocation (prog, "sea_level"), (float) p->sea_level);
  glActiveTexture (GL_TEXTURE0);
  glBindTexture (GL_TEXTURE_2D, gl->surface);
  glActiveTexture (GL_TEXTURE1);
  glBindTexture (GL_TEXTURE_2D, gl->normals);
}

/* What the next draw is: the sky, the surface, the sea or a wall (view3d-gl-program.c). */
static void
set_kind (const TerrainView3DGL *gl, int kind)
{
  glUniform1i (glGetUniformLocation (gl->program, "kind"), kind);
}

void
terrain_view3d_gl_draw (TerrainView3DGL *gl, const TerrainView3DParams *params, int width,
                        int height)
{
  glViewport (0, 0, width, height);
  glUseProgram (gl->program);
  glBindVertexArray (gl->vao);
  glUniform2f (glGetUniformLocation (gl->program, "picture"), (float) width, (float) height);
  glDisable (GL_BLEND);
  glDisable (GL_DEPTH_TEST);
  glDepthMask (GL_TRUE);
  glClearDepth (1.0);
  glClear (GL_DEPTH_BUFFER_BIT);
  set_kind (gl, 0);
  glDrawArrays (GL_TRIANGLES, 0, 3);
  if (gl->scene)
    {
      const TerrainView3DScene *s = gl->scene;
      set_uniforms (gl, params, width, height);
      glEnable (GL_DEPTH_TEST);
      glDepthFunc (GL_LESS);
      set_kind (gl, 1);
      glDrawArraysInstanced (GL_TRIANGLE_STRIP, 0, 2 * s->cols, s->rows - 1);
      for (int side = 0; side < 4; side++)
        {
          set_kind (gl, 3 + side);
          glDrawArrays (GL_TRIANGLES, side * gl->wall_vertices, gl->wall_vertices);
        }
      if (s->sea)
        {
          set_kind (gl, 2);
          glDrawArrays (GL_TRIANGLES, 4 * gl->wall_vertices, 6);
        }
      glDisable (GL_DEPTH_TEST);
    }
  glBindVertexArray (0);
  glUseProgram (0);
}

static GLuint
renderbuffer (GLenum format, GLenum attachment, int width, int height)
{
  GLuint buffer;
  glGenRenderbuffers (1, &buffer);
  glBindRenderbuffer (GL_RENDERBUFFER, buffer);
  glRenderbufferStorage (GL_RENDERBUFFER, format, width, height);
  glFramebufferRenderbuffer (GL_FRAMEBUFFER, attachment, GL_RENDERBUFFER, buffer);
  return buffer;
}

gboolean
terrain_view3d_gl_picture (TerrainView3DGL *gl, const TerrainView3DParams *params, guchar *rgb,
                           int width, int height, char **error)
{
  GLuint fbo;
  GLint  before = 0;
  glGetIntegerv (GL_DRAW_FRAMEBUFFER_BINDING, &before);
  glGenFramebuffers (1, &fbo);
  glBindFramebuffer (GL_FRAMEBUFFER, fbo);
  const GLuint colour = renderbuffer (GL_RGBA8, GL_COLOR_ATTACHMENT0, width, height);
  const GLuint depth = renderbuffer (GL_DEPTH_COMPONENT24, GL_DEPTH_ATTACHMENT, width, height);
  gboolean     ok = glCheckFramebufferStatus (GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
  guchar      *rgba = ok ? g_malloc ((gsize) width * height * 4) : NULL;
  if (ok)
    {
      terrain_view3d_gl_draw (gl, params, width, height);
      glPixelStorei (GL_PACK_ALIGNMENT, 1);
      glReadPixels (0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
      for (int j = 0; j < height; j++) /* OpenGL's rows go up */
        for (int i = 0; i < width; i++)
          memcpy (rgb + 3 * ((gsize) j * width + i),
                  rgba + 4 * ((gsize) (height - 1 - j) * width + i), 3);
    }
  const char *failed = terrain_view3d_gl_error ();
  if (! ok || failed)
    *error = g_strdup_printf ("OpenGL could not draw a %d x %d picture (%s)", width, height,
                              failed ? failed : "incomplete framebuffer");
  glBindFramebuffer (GL_FRAMEBUFFER, (GLuint) before);
  glDeleteRenderbuffers (1, &colour);
  glDeleteRenderbuffers (1, &depth);
  glDeleteFramebuffers (1, &fbo);
  g_free (rgba);
  return ok && ! failed;
}

void
terrain_view3d_gl_free (TerrainView3DGL *gl)
{
  if (gl == NULL)
    return;
  glDeleteTextures (1, &gl->surface);
  glDeleteTextures (1, &gl->normals);
  glDeleteBuffers (1, &gl->buffer);
  glDeleteVertexArrays (1, &gl->vao);
  glDeleteProgram (gl->program);
  terrain_view3d_scene_free (gl->scene);
  g_free (gl);
}
