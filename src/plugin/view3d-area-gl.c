/* The 3D view area's OpenGL canvas (view3d-area-private.h): a GtkGLArea that draws the
 * scene a job built (view3d-gl.h). Drawing is OpenGL's work on the main thread; what takes
 * time on the CPU (normals, the sun's horizon) is the job's, on its thread. Any failure
 * hands the area to the CPU's canvas with one line saying why. */
#include "view3d-area-private.h"

#include <epoxy/gl.h>
#include <glib/gi18n-lib.h>
#include <string.h>

/* Once the main loop is free (not inside the canvas's own signal): the CPU's canvas. */
typedef struct
{
  TerrainView3DArea *area;
  char              *why;
} Failure;

static gboolean
fall_back (gpointer data)
{
  Failure *f = data;
  if (! f->area->closed && GTK_IS_GL_AREA (f->area->canvas))
    view3d_area_use_cpu (f->area, f->why);
  view3d_area_unref (f->area);
  g_free (f->why);
  g_free (f);
  return G_SOURCE_REMOVE;
}

static void
fail (TerrainView3DArea *area, const char *why)
{
  Failure *f = g_new (Failure, 1);
  f->area = area;
  f->why = g_strdup (why);
  area->refs++;
  g_idle_add (fall_back, f);
}

/* OpenGL's objects go with the context: a new realize needs a new scene. */
static void
unrealized (GtkGLArea *canvas, TerrainView3DArea *area)
{
  gtk_gl_area_make_current (canvas);
  if (gtk_gl_area_get_error (canvas) == NULL)
    terrain_view3d_gl_free (area->gl);
  area->gl = NULL;
  area->has_scene = FALSE;
}

/* Mesa's and Windows' renderers without a GPU. llvmpipe draws a frame in about the CPU
 * renderer's time (tests/bench/README.md), but on the main thread, where the CPU's frames are
 * drawn on a thread of their own: the dialog would wait for every frame, and for the shaders'
 * first compile (0.5-0.8 s). */
static const char *
software (const char *renderer)
{
  static const char *const NAMES[] = { "llvmpipe", "softpipe", "swrast", "Software Rasterizer",
                                       "GDI Generic" };
  for (size_t k = 0; renderer && k < G_N_ELEMENTS (NAMES); k++)
    if (strstr (renderer, NAMES[k]))
      return NAMES[k];
  return NULL;
}

/* Why not to draw with OpenGL on this display, or NULL: asked once a process, in a context of
 * its own, before any canvas is made (the view then starts on the CPU's). */
static const char *
software_here (void)
{
  static gsize  asked;
  static char  *why;
  if (g_once_init_enter (&asked))
    {
      GdkWindow    *root = gdk_screen_get_root_window (gdk_screen_get_default ());
      GdkGLContext *context = root ? gdk_window_create_gl_context (root, NULL) : NULL;
      if (context && gdk_gl_context_realize (context, NULL))
        {
          gdk_gl_context_make_current (context);
          const char *name = software ((const char *) glGetString (GL_RENDERER));
          if (name)
            /* Translators: %s names the renderer, such as llvmpipe */
            why = g_strdup_printf (_("OpenGL is %s, a software renderer"), name);
          gdk_gl_context_clear_current ();
        }
      g_clear_object (&context);
      g_once_init_leave (&asked, 1);
    }
  return why;
}

static void
realized (GtkGLArea *canvas, TerrainView3DArea *area)
{
  char *why = NULL;
  gtk_gl_area_make_current (canvas);
  if (gtk_gl_area_get_error (canvas))
    why = g_strdup (gtk_gl_area_get_error (canvas)->message);
  else
    area->gl = terrain_view3d_gl_new (&why);
  if (area->gl == NULL)
    fail (area, why);
  g_free (why);
}

static gboolean
render (GtkGLArea *canvas, GdkGLContext *context, TerrainView3DArea *area)
{
  char *why = NULL;
  (void) context;
  if (area->gl == NULL)
    return FALSE;
  if (area->scene && ! terrain_view3d_gl_set_scene (area->gl, g_steal_pointer (&area->scene), &why))
    {
      fail (area, why);
      g_free (why);
      return FALSE;
    }
  const TerrainView3DScene *scene = terrain_view3d_gl_scene (area->gl);
  const int    scale = gtk_widget_get_scale_factor (GTK_WIDGET (canvas));
  const int    width = gtk_widget_get_allocated_width (GTK_WIDGET (canvas)) * scale;
  const int    height = gtk_widget_get_allocated_height (GTK_WIDGET (canvas)) * scale;
  const gint64 start = g_get_monotonic_time ();
  terrain_view3d_gl_draw (area->gl, &area->params, width, height);
  glFinish (); /* the frame's time is the main thread's: llvmpipe draws here */
  const char *error = terrain_view3d_gl_error ();
  if (error)
    {
      fail (area, error);
      return FALSE;
    }
  if (scene)
    view3d_area_log (width, height, scene->cols, scene->rows,
                     g_get_monotonic_time () - start, "with OpenGL in the main thread", TRUE);
  return TRUE;
}

GtkWidget *
view3d_area_gl_canvas (TerrainView3DArea *area, const char **why)
{
  const char *wanted = g_getenv ("TERRAIN_VIEW3D_GL");
  *why = NULL;
  if (g_strcmp0 (wanted, "0") == 0)
    return NULL;
  if (g_strcmp0 (wanted, "1") != 0 && (*why = software_here ()) != NULL)
    return NULL;
  GtkWidget *canvas = gtk_gl_area_new ();
  gtk_gl_area_set_required_version (GTK_GL_AREA (canvas), 3, 3);
  gtk_gl_area_set_has_depth_buffer (GTK_GL_AREA (canvas), TRUE);
  g_signal_connect (canvas, "realize", G_CALLBACK (realized), area);
  g_signal_connect (canvas, "unrealize", G_CALLBACK (unrealized), area);
  g_signal_connect (canvas, "render", G_CALLBACK (render), area);
  view3d_area_take_input (area, canvas);
  return canvas;
}

void
view3d_area_gl_free (TerrainView3DArea *area)
{
  if (area->gl && GTK_IS_GL_AREA (area->canvas))
    unrealized (GTK_GL_AREA (area->canvas), area);
  terrain_view3d_scene_free (g_steal_pointer (&area->scene));
}
