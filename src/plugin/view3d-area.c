/* The 3D view area (view3d-area.h): its jobs, which build a picture on the CPU or a scene for
 * OpenGL on a thread of their own; the CPU's canvas; the mouse. */
#include "view3d-area-private.h"

#include <glib/gi18n-lib.h>

#include <math.h>
#include <stdio.h>
#include <unistd.h>

typedef struct
{
  TerrainView3DArea  *area;
  TerrainView3DParams params;
  const TerrainView3DMesh *mesh;
  gboolean            for_gl;  /* a scene for OpenGL, else a picture */
  int                 width, height;
  guchar             *rgb;
  TerrainView3DScene *scene;
  gint64              took;    /* µs the job took */
  gboolean            on_main; /* ran on the main thread: never, the log says */
} Job;

static void start_render (TerrainView3DArea *area);

void
view3d_area_unref (TerrainView3DArea *area)
{
  if (--area->refs == 0)
    g_free (area);
}

/* With $TERRAIN_VIEW3D_LOG naming a file, one line a frame: how long it took, how (on the
 * CPU in another thread, or with OpenGL on the main thread), and whether it was shown (the
 * GUI tests and the benchmarks read it). */
void
view3d_area_log (int width, int height, int cols, int rows, gint64 took, const char *how,
                 gboolean shown)
{
  static FILE *log;
  const char  *path = g_getenv ("TERRAIN_VIEW3D_LOG");
  if (path == NULL || *path == '\0' || (log == NULL && (log = fopen (path, "a")) == NULL))
    return;
  fprintf (log, "%.6f pid %d frame %dx%d mesh %dx%d %.1f ms %s, %s\n",
           g_get_monotonic_time () / 1e6, (int) getpid (), width, height, cols, rows,
           took / 1000.0, how, shown ? "shown" : "dropped");
  fflush (log);
}

/* The picture as a cairo surface (RGB24: one 32-bit word a pixel). */
static cairo_surface_t *
surface_from (const guchar *rgb, int width, int height)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, width, height);
  const int        stride = cairo_image_surface_get_stride (s);
  guchar          *data = cairo_image_surface_get_data (s);
  cairo_surface_flush (s);
  for (int j = 0; j < height; j++)
    for (int i = 0; i < width; i++)
      {
        const guchar *p = rgb + 3 * ((gsize) j * width + i);
        ((guint32 *) (data + (gsize) j * stride))[i] = (guint32) p[0] << 16 | p[1] << 8 | p[2];
      }
  cairo_surface_mark_dirty (s);
  return s;
}

static void
log_job (const Job *job, gboolean shown)
{
  int cols, rows;
  terrain_view3d_mesh_size (job->mesh, &cols, &rows);
  view3d_area_log (job->width, job->height, cols, rows, job->took,
                   job->on_main ? "in the main thread" : "in another thread", shown);
}

/* Back on the main thread: the frame (or the scene) is shown unless its mesh was replaced
 * meanwhile (it would show a terrain that is no longer there; the next job, started here,
 * shows it), or the canvas is no longer the one it was made for. */
static gboolean
render_done (gpointer data)
{
  Job               *job = data;
  TerrainView3DArea *area = job->area;
  if (area->thread)
    g_thread_join (area->thread);
  area->thread = NULL;
  area->busy = FALSE;
  if (! area->closed)
    {
      const gboolean stale = area->next != NULL || job->for_gl != GTK_IS_GL_AREA (area->canvas);
      if (job->for_gl && ! stale && job->scene)
        {
          terrain_view3d_scene_free (area->scene);
          area->scene = g_steal_pointer (&job->scene);
          area->scene_params = job->params;
          area->has_scene = TRUE;
          gtk_gl_area_queue_render (GTK_GL_AREA (area->canvas));
        }
      else if (! job->for_gl)
        {
          log_job (job, ! stale);
          if (! stale)
            {
              if (area->picture)
                cairo_surface_destroy (area->picture);
              area->picture = surface_from (job->rgb, job->width, job->height);
              gtk_widget_queue_draw (area->canvas);
            }
        }
      if (area->wanted || stale)
        start_render (area);
    }
  terrain_view3d_scene_free (job->scene);
  g_free (job->rgb);
  g_free (job);
  view3d_area_unref (area);
  return G_SOURCE_REMOVE;
}

/* The job's thread: its result back to the main thread when done. */
static gpointer
render_and_report (gpointer data)
{
  Job         *job = data;
  const gint64 start = g_get_monotonic_time ();
  job->on_main = g_thread_self () == job->area->main_thread;
  if (job->for_gl)
    job->scene = terrain_view3d_scene_new (job->mesh, &job->params);
  else
    terrain_view3d_render_mesh (job->mesh, &job->params, job->rgb, job->width, job->height);
  job->took = g_get_monotonic_time () - start;
  g_idle_add (render_done, job);
  return NULL;
}

/* Whether a scene built with a shows what b asks for (the camera and the colours are
 * OpenGL's uniforms, drawn without a new scene). */
static gboolean
same_scene (const TerrainView3DParams *a, const TerrainView3DParams *b)
{
  return a->light_azimuth == b->light_azimuth && a->light_elevation == b->light_elevation &&
         a->shadows == b->shadows && a->exaggeration == b->exaggeration && a->sea == b->sea &&
         a->sea_level == b->sea_level;
}

/* A job for the newest mesh and parameters at the canvas's size, unless one runs (then one
 * more when it ends) or the canvas is not on screen (then one when it is sized). With
 * OpenGL, a change of the camera or the colours only draws again. */
static void
start_render (TerrainView3DArea *area)
{
  const int      width = gtk_widget_get_allocated_width (area->canvas);
  const int      height = gtk_widget_get_allocated_height (area->canvas);
  const gboolean gl = GTK_IS_GL_AREA (area->canvas);
  area->wanted = TRUE;
  if (area->busy || area->closed || ! gtk_widget_is_visible (area->canvas) || width < 2 ||
      height < 2 || (area->mesh == NULL && area->next == NULL))
    return;
  if (gl && area->next == NULL && area->has_scene &&
      same_scene (&area->scene_params, &area->params))
    {
      area->wanted = FALSE;
      gtk_gl_area_queue_render (GTK_GL_AREA (area->canvas));
      return;
    }
  if (area->next) /* no job reads mesh now */
    {
      terrain_view3d_mesh_free (area->mesh);
      area->mesh = area->next;
      area->next = NULL;
    }
  Job *job = g_new0 (Job, 1);
  job->area = area;
  job->params = area->params;
  job->mesh = area->mesh;
  job->for_gl = gl;
  job->width = width;
  job->height = height;
  job->rgb = gl ? NULL : g_malloc ((gsize) width * height * 3);
  area->busy = TRUE;
  area->wanted = FALSE;
  area->refs++;
  area->thread = g_thread_new ("terrain-view3d", render_and_report, job);
}

static gboolean
draw (GtkWidget *widget, cairo_t *cr, TerrainView3DArea *area)
{
  (void) widget;
  if (area->picture == NULL)
    return FALSE;
  cairo_set_source_surface (cr, area->picture, 0, 0);
  cairo_paint (cr);
  return TRUE;
}

static gboolean
pressed (GtkWidget *widget, GdkEventButton *event, TerrainView3DArea *area)
{
  const gboolean down = event->type == GDK_BUTTON_PRESS;
  (void) widget;
  area->panning = down && (event->button == 2 ||
                           (event->button == 1 && (event->state & GDK_SHIFT_MASK)));
  area->dragging = down && event->button == 1 && ! area->panning;
  area->x = event->x;
  area->y = event->y;
  return TRUE;
}

/* Dragging orbits: sideways turns the camera around the map, up and down tilts it; with
 * Shift or the middle button it moves the picture along with the pointer. */
static gboolean
moved (GtkWidget *widget, GdkEventMotion *event, TerrainView3DArea *area)
{
  TerrainView3DParams *p = &area->params;
  const double         dx = event->x - area->x, dy = event->y - area->y;
  if (! (area->dragging || area->panning) ||
      ! (event->state & (GDK_BUTTON1_MASK | GDK_BUTTON2_MASK)))
    return FALSE;
  if (area->panning)
    {
      p->pan_x += dx / MAX (gtk_widget_get_allocated_width (widget), 1);
      p->pan_y += dy / MAX (gtk_widget_get_allocated_height (widget), 1);
    }
  else
    {
      p->view_azimuth = fmod (p->view_azimuth - 0.5 * dx + 360.0, 360.0);
      p->view_elevation = CLAMP (p->view_elevation + 0.3 * dy, 0.0, 90.0);
    }
  area->x = event->x;
  area->y = event->y;
  start_render (area);
  return TRUE;
}

static gboolean
scrolled (GtkWidget *widget, GdkEventScroll *event, TerrainView3DArea *area)
{
  double dx = 0.0, dy = 0.0;
  (void) widget;
  if (event->direction == GDK_SCROLL_UP)
    dy = -1.0;
  else if (event->direction == GDK_SCROLL_DOWN)
    dy = 1.0;
  else if (event->direction == GDK_SCROLL_SMOOTH)
    gdk_event_get_scroll_deltas ((GdkEvent *) event, &dx, &dy);
  area->params.zoom = CLAMP (area->params.zoom * pow (1.15, -dy), 0.2, 20.0);
  start_render (area);
  return TRUE;
}

static void
resized (GtkWidget *widget, GdkRectangle *allocation, TerrainView3DArea *area)
{
  (void) widget;
  (void) allocation;
  start_render (area);
}

void
view3d_area_take_input (TerrainView3DArea *area, GtkWidget *canvas)
{
  gtk_widget_add_events (canvas, GDK_BUTTON_PRESS_MASK | GDK_BUTTON_RELEASE_MASK |
                                   GDK_POINTER_MOTION_MASK | GDK_SCROLL_MASK |
                                   GDK_SMOOTH_SCROLL_MASK);
  g_signal_connect (canvas, "button-press-event", G_CALLBACK (pressed), area);
  g_signal_connect (canvas, "button-release-event", G_CALLBACK (pressed), area);
  g_signal_connect (canvas, "motion-notify-event", G_CALLBACK (moved), area);
  g_signal_connect (canvas, "scroll-event", G_CALLBACK (scrolled), area);
  g_signal_connect (canvas, "size-allocate", G_CALLBACK (resized), area);
  gtk_widget_set_hexpand (canvas, TRUE);
  gtk_widget_set_vexpand (canvas, TRUE);
  gtk_container_add (GTK_CONTAINER (area->widget), canvas); /* the overlay's main child */
  gtk_widget_show (canvas);
  area->canvas = g_object_ref (canvas); /* the window may go before the last job ends */
}

void
view3d_area_use_cpu (TerrainView3DArea *area, const char *why)
{
  GtkWidget *canvas = gtk_drawing_area_new ();
  if (area->canvas)
    {
      gtk_widget_destroy (area->canvas);
      g_signal_handlers_disconnect_by_data (area->canvas, area);
      g_clear_object (&area->canvas);
    }
  area->has_scene = FALSE;
  g_signal_connect (canvas, "draw", G_CALLBACK (draw), area);
  view3d_area_take_input (area, canvas);
  if (why)
    {
      /* Translators: the reason is ours, or OpenGL's or the driver's in English */
      gchar *line = g_strdup_printf (_("3D drawn on the CPU: %s"), why);
      gtk_label_set_text (GTK_LABEL (area->note), line);
      gtk_widget_show (area->note);
      g_printerr ("gimp-terrain: %s\n", line);
      g_free (line);
    }
  start_render (area);
}

TerrainView3DArea *
terrain_view3d_area_new (const TerrainView3DParams *params)
{
  TerrainView3DArea *area = g_new0 (TerrainView3DArea, 1);
  area->refs = 1;
  area->params = *params;
  area->main_thread = g_thread_self ();
  /* Kept until freed: the window's area is destroyed with it before the job ends. */
  area->widget = g_object_ref_sink (gtk_overlay_new ());
  /* Over the picture's sky, so that the controls stay where they were. */
  area->note = gtk_label_new (NULL);
  gtk_label_set_line_wrap (GTK_LABEL (area->note), TRUE);
  gtk_label_set_xalign (GTK_LABEL (area->note), 0.0);
  gtk_widget_set_halign (area->note, GTK_ALIGN_START);
  gtk_widget_set_valign (area->note, GTK_ALIGN_START);
  gtk_widget_set_margin_start (area->note, 6);
  gtk_widget_set_margin_end (area->note, 6);
  gtk_widget_set_margin_top (area->note, 4);
  gtk_widget_set_no_show_all (area->note, TRUE);
  GtkCssProvider *css = gtk_css_provider_new (); /* readable on the sky, in any theme */
  gtk_css_provider_load_from_data (css, "label { background-color: rgba(0, 0, 0, 0.6); "
                                        "color: white; padding: 2px 6px; }", -1, NULL);
  gtk_style_context_add_provider (gtk_widget_get_style_context (area->note),
                                  GTK_STYLE_PROVIDER (css),
                                  GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  g_object_unref (css);
  gtk_overlay_add_overlay (GTK_OVERLAY (area->widget), area->note);
  gtk_overlay_set_overlay_pass_through (GTK_OVERLAY (area->widget), area->note, TRUE);
  const char *why;
  if (view3d_area_gl_canvas (area, &why) == NULL)
    view3d_area_use_cpu (area, why);
  return area;
}

GtkWidget *
terrain_view3d_area_widget (TerrainView3DArea *area)
{
  return area->widget;
}

TerrainView3DParams *
terrain_view3d_area_params (TerrainView3DArea *area)
{
  return &area->params;
}

void
terrain_view3d_area_redraw (TerrainView3DArea *area)
{
  start_render (area);
}

void
terrain_view3d_area_set_mesh (TerrainView3DArea *area, TerrainView3DMesh *mesh)
{
  terrain_view3d_mesh_free (area->next);
  area->next = mesh;
  start_render (area);
}

const TerrainView3DMesh *
terrain_view3d_area_mesh (TerrainView3DArea *area)
{
  return area->next ? area->next : area->mesh;
}

gboolean
terrain_view3d_area_busy (TerrainView3DArea *area)
{
  return area->busy;
}

void
terrain_view3d_area_free (TerrainView3DArea *area)
{
  if (area->thread) /* its report, queued, finds the area closed */
    g_thread_join (area->thread);
  area->thread = NULL;
  area->closed = TRUE;
  g_signal_handlers_disconnect_by_data (area->canvas, area);
  view3d_area_gl_free (area);
  g_object_unref (area->canvas);
  g_object_unref (area->widget);
  if (area->picture)
    cairo_surface_destroy (area->picture);
  terrain_view3d_mesh_free (area->mesh);
  terrain_view3d_mesh_free (area->next);
  view3d_area_unref (area);
}
