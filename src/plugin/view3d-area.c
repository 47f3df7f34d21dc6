#include "view3d-area.h"

#include <math.h>
#include <stdio.h>
#include <unistd.h>

typedef struct
{
  TerrainView3DArea *area;
  TerrainView3DParams params;
  const TerrainView3DMesh *mesh;
  int                 width, height;
  guchar             *rgb;
  gint64              took;    /* µs the render took */
  gboolean            on_main; /* rendered on the main thread: never, the log says */
} Job;

struct TerrainView3DArea
{
  gint                refs;    /* the owner's, and one per render on its way */
  TerrainView3DParams params;
  GtkWidget          *widget;
  cairo_surface_t    *picture;
  TerrainView3DMesh  *mesh;    /* what the running render reads, else the newest */
  TerrainView3DMesh  *next;    /* a newer mesh, given while a render read mesh */
  gboolean            busy, wanted, closed;
  GThread            *thread, *main_thread;
  gboolean            dragging, panning;
  double              x, y;
};

static void start_render (TerrainView3DArea *area);

static void
area_unref (TerrainView3DArea *area)
{
  if (--area->refs == 0)
    g_free (area);
}

/* With $TERRAIN_VIEW3D_LOG naming a file, one line a frame: how long it took, on which
 * thread, and whether it was shown (the GUI test and the benchmarks read it). */
static void
log_frame (const Job *job, gboolean shown)
{
  static FILE *log;
  const char  *path = g_getenv ("TERRAIN_VIEW3D_LOG");
  int          cols, rows;
  if (path == NULL || *path == '\0' || (log == NULL && (log = fopen (path, "a")) == NULL))
    return;
  terrain_view3d_mesh_size (job->mesh, &cols, &rows);
  fprintf (log, "%.6f pid %d frame %dx%d mesh %dx%d %.1f ms in %s, %s\n",
           g_get_monotonic_time () / 1e6, (int) getpid (), job->width, job->height, cols, rows,
           job->took / 1000.0, job->on_main ? "the main thread" : "another thread",
           shown ? "shown" : "dropped");
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

/* Back on the main thread: the frame is shown unless its mesh was replaced meanwhile (it
 * would show a terrain that is no longer there; the next frame, started here, shows it). */
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
      const gboolean stale = area->next != NULL;
      log_frame (job, ! stale);
      if (! stale)
        {
          if (area->picture)
            cairo_surface_destroy (area->picture);
          area->picture = surface_from (job->rgb, job->width, job->height);
          gtk_widget_queue_draw (area->widget);
        }
      if (area->wanted)
        start_render (area);
    }
  g_free (job->rgb);
  g_free (job);
  area_unref (area);
  return G_SOURCE_REMOVE;
}

/* The render thread: its job back to the main thread when done. */
static gpointer
render_and_report (gpointer data)
{
  Job         *job = data;
  const gint64 start = g_get_monotonic_time ();
  job->on_main = g_thread_self () == job->area->main_thread;
  terrain_view3d_render_mesh (job->mesh, &job->params, job->rgb, job->width, job->height);
  job->took = g_get_monotonic_time () - start;
  g_idle_add (render_done, job);
  return NULL;
}

/* A render of the newest mesh and parameters at the widget's size, unless one runs (then
 * one more when it ends) or the widget is not on screen (then one when it is sized). */
static void
start_render (TerrainView3DArea *area)
{
  const int width = gtk_widget_get_allocated_width (area->widget);
  const int height = gtk_widget_get_allocated_height (area->widget);
  area->wanted = TRUE;
  if (area->busy || area->closed || ! gtk_widget_is_visible (area->widget) || width < 2 ||
      height < 2 || (area->mesh == NULL && area->next == NULL))
    return;
  if (area->next) /* no render reads mesh now */
    {
      terrain_view3d_mesh_free (area->mesh);
      area->mesh = area->next;
      area->next = NULL;
    }
  Job *job = g_new0 (Job, 1);
  job->area = area;
  job->params = area->params;
  job->mesh = area->mesh;
  job->width = width;
  job->height = height;
  job->rgb = g_malloc ((gsize) width * height * 3);
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

TerrainView3DArea *
terrain_view3d_area_new (const TerrainView3DParams *params)
{
  TerrainView3DArea *area = g_new0 (TerrainView3DArea, 1);
  area->refs = 1;
  area->params = *params;
  area->main_thread = g_thread_self ();
  /* Kept until freed: the window's area is destroyed with it before the render ends. */
  area->widget = g_object_ref_sink (gtk_drawing_area_new ());
  gtk_widget_add_events (area->widget, GDK_BUTTON_PRESS_MASK | GDK_BUTTON_RELEASE_MASK |
                                         GDK_POINTER_MOTION_MASK | GDK_SCROLL_MASK |
                                         GDK_SMOOTH_SCROLL_MASK);
  g_signal_connect (area->widget, "draw", G_CALLBACK (draw), area);
  g_signal_connect (area->widget, "button-press-event", G_CALLBACK (pressed), area);
  g_signal_connect (area->widget, "button-release-event", G_CALLBACK (pressed), area);
  g_signal_connect (area->widget, "motion-notify-event", G_CALLBACK (moved), area);
  g_signal_connect (area->widget, "scroll-event", G_CALLBACK (scrolled), area);
  g_signal_connect (area->widget, "size-allocate", G_CALLBACK (resized), area);
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

static void
slider_changed (GtkRange *range, double *value)
{
  *value = gtk_range_get_value (range);
  start_render (g_object_get_data (G_OBJECT (range), "terrain-view3d-area"));
}

/* A labelled slider from lo to hi at `value`, in row `row` of grid; the area's. */
static GtkWidget *
attach_slider (TerrainView3DArea *area, GtkGrid *grid, int row, const char *label, double lo,
               double hi, double value)
{
  GtkWidget *name = gtk_label_new_with_mnemonic (label);
  GtkWidget *scale = gtk_scale_new_with_range (GTK_ORIENTATION_HORIZONTAL, lo, hi, 1.0);
  const int  digits = hi - lo <= 2.0 ? 2 : hi - lo <= 20.0 ? 1 : 0;
  if (digits > 0)
    gtk_range_set_increments (GTK_RANGE (scale), digits == 2 ? 0.01 : 0.1, 1.0);
  gtk_scale_set_digits (GTK_SCALE (scale), digits);
  gtk_scale_set_value_pos (GTK_SCALE (scale), GTK_POS_RIGHT); /* one line a slider */
  gtk_range_set_value (GTK_RANGE (scale), value);
  gtk_widget_set_hexpand (scale, TRUE);
  gtk_label_set_mnemonic_widget (GTK_LABEL (name), scale);
  gtk_label_set_xalign (GTK_LABEL (name), 0.0);
  g_object_set_data (G_OBJECT (scale), "terrain-view3d-area", area);
  gtk_grid_attach (grid, name, 0, row, 1, 1);
  gtk_grid_attach (grid, scale, 1, row, 1, 1);
  return scale;
}

static void
add_slider (TerrainView3DArea *area, GtkGrid *grid, int row, const char *label, double lo,
            double hi, double *value)
{
  GtkWidget *scale = attach_slider (area, grid, row, label, lo, hi, *value);
  g_signal_connect (scale, "value-changed", G_CALLBACK (slider_changed), value);
}

/* A sea level of 0 is no sea: the layer's lowest height, where a sea would not show. */
static void
sea_changed (GtkRange *range, TerrainView3DArea *area)
{
  area->params.sea_level = gtk_range_get_value (range);
  area->params.sea = area->params.sea_level > 0.0;
  start_render (area);
}

static void
colours_toggled (GtkToggleButton *toggle, TerrainView3DArea *area)
{
  area->params.colours = gtk_toggle_button_get_active (toggle) ? TERRAIN_VIEW3D_COLOURS_TERRAIN
                                                               : TERRAIN_VIEW3D_COLOURS_GRAY;
  start_render (area);
}

void
terrain_view3d_area_add_sliders (TerrainView3DArea *area, GtkGrid *grid,
                                 const char *const labels[3])
{
  TerrainView3DParams *p = &area->params;
  add_slider (area, grid, 0, labels[0], 0, 360, &p->light_azimuth);
  add_slider (area, grid, 1, labels[1], 0, 90, &p->light_elevation);
  add_slider (area, grid, 2, labels[2], 0, 10, &p->exaggeration);
}

void
terrain_view3d_area_add_scene (TerrainView3DArea *area, GtkGrid *grid,
                               const char *const labels[2])
{
  const TerrainView3DParams *p = &area->params;
  GtkWidget *sea = attach_slider (area, grid, 3, labels[0], 0.0, 1.0,
                                  p->sea ? p->sea_level : 0.0);
  GtkWidget *colours = gtk_check_button_new_with_mnemonic (labels[1]);
  g_signal_connect (sea, "value-changed", G_CALLBACK (sea_changed), area);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (colours),
                                p->colours == TERRAIN_VIEW3D_COLOURS_TERRAIN);
  g_signal_connect (colours, "toggled", G_CALLBACK (colours_toggled), area);
  gtk_grid_attach (grid, colours, 0, 4, 2, 1);
}

void
terrain_view3d_area_free (TerrainView3DArea *area)
{
  if (area->thread) /* its report, queued, finds the area closed */
    g_thread_join (area->thread);
  area->thread = NULL;
  area->closed = TRUE;
  g_signal_handlers_disconnect_by_data (area->widget, area);
  g_object_unref (area->widget);
  if (area->picture)
    cairo_surface_destroy (area->picture);
  terrain_view3d_mesh_free (area->mesh);
  terrain_view3d_mesh_free (area->next);
  area_unref (area);
}
