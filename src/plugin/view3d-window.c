/* The 3D View window. Renders run on a thread of their own, one at a time: a change while
 * one runs (a slider, the mouse, the layer) asks for one more when it ends, so the window
 * never waits for a render and never queues more than one. The layer is read again every
 * POLL_MS on GTK's main thread (libgimp is not thread-safe), only while no render runs, and
 * a new render starts when its mesh differs from the last. */
#include "view3d-window.h"

#include "view3d-procedure.h"

#include <glib/gi18n-lib.h>
#include <libgimp/gimpui.h>
#include <math.h>

/* 512 vertices a side: a quarter of the triangles of the procedure's 1024, so that a render
 * in the window takes less than half the time (tests/bench/README.md) while the mouse
 * orbits. */
#define WINDOW_MESH_SIDE 512
#define POLL_MS          300
#define HINT             N_("Drag to orbit, wheel to zoom, Escape to close.")

typedef struct View View;

typedef struct
{
  View               *view;
  TerrainView3DParams params;
  int                 width, height;
  guchar             *rgb;
} Job;

struct View
{
  GimpDrawable       *drawable;
  TerrainView3DParams params;
  GtkWidget          *area, *status;
  cairo_surface_t    *picture;
  TerrainView3DMesh  *mesh;        /* the layer as last read; a running job reads it */
  gboolean            busy, wanted, closed;
  GThread            *thread;
  guint               poll;
  gboolean            dragging;
  double              x, y;
  GMainLoop          *loop;
};

static void start_render (View *view);

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

static gboolean
render_done (gpointer data)
{
  View *view = data;
  Job  *job = g_thread_join (view->thread);
  view->busy = FALSE;
  if (! view->closed)
    {
      if (view->picture)
        cairo_surface_destroy (view->picture);
      view->picture = surface_from (job->rgb, job->width, job->height);
      gtk_widget_queue_draw (view->area);
      if (view->wanted)
        start_render (view);
    }
  g_free (job->rgb);
  g_free (job);
  return G_SOURCE_REMOVE;
}

/* The render thread: its job back to GTK's main thread when done. */
static gpointer
render_and_report (gpointer data)
{
  Job *job = data;
  terrain_view3d_render_mesh (job->view->mesh, &job->params, job->rgb, job->width, job->height);
  g_idle_add (render_done, job->view);
  return job;
}

static void
start_render (View *view)
{
  if (view->busy || view->mesh == NULL || view->closed)
    {
      view->wanted = TRUE;
      return;
    }
  Job *job = g_new0 (Job, 1);
  job->view = view;
  job->params = view->params;
  job->width = MAX (gtk_widget_get_allocated_width (view->area), 1);
  job->height = MAX (gtk_widget_get_allocated_height (view->area), 1);
  job->rgb = g_malloc ((gsize) job->width * job->height * 3);
  view->busy = TRUE;
  view->wanted = FALSE;
  view->thread = g_thread_new ("terrain-view3d", render_and_report, job);
}

/* Reads the layer again; a new render when it changed. */
static gboolean
poll_layer (gpointer data)
{
  View   *view = data;
  GError *error = NULL;
  if (view->busy)
    return G_SOURCE_CONTINUE;
  if (! gimp_item_is_valid (GIMP_ITEM (view->drawable)))
    {
      gtk_label_set_text (GTK_LABEL (view->status),
                          _("The layer is gone: the view stays as it was."));
      view->poll = 0;
      return G_SOURCE_REMOVE;
    }
  TerrainView3DMesh *mesh = terrain_view3d_read_mesh (view->drawable, WINDOW_MESH_SIDE, &error);
  gtk_label_set_text (GTK_LABEL (view->status), error ? error->message : _(HINT));
  g_clear_error (&error);
  if (mesh == NULL || terrain_view3d_mesh_same (mesh, view->mesh))
    {
      terrain_view3d_mesh_free (mesh);
      return G_SOURCE_CONTINUE;
    }
  terrain_view3d_mesh_free (view->mesh);
  view->mesh = mesh;
  start_render (view);
  return G_SOURCE_CONTINUE;
}

static gboolean
draw (GtkWidget *area, cairo_t *cr, View *view)
{
  (void) area;
  if (view->picture == NULL)
    return FALSE;
  cairo_set_source_surface (cr, view->picture, 0, 0);
  cairo_paint (cr);
  return TRUE;
}

static gboolean
pressed (GtkWidget *area, GdkEventButton *event, View *view)
{
  (void) area;
  view->dragging = event->type == GDK_BUTTON_PRESS && event->button == 1;
  view->x = event->x;
  view->y = event->y;
  return TRUE;
}

/* Dragging orbits: sideways turns the camera around the map, up and down tilts it. */
static gboolean
moved (GtkWidget *area, GdkEventMotion *event, View *view)
{
  (void) area;
  if (! view->dragging || ! (event->state & GDK_BUTTON1_MASK))
    return FALSE;
  const double turned = view->params.view_azimuth - 0.5 * (event->x - view->x);
  view->params.view_azimuth = fmod (turned + 360.0, 360.0);
  view->params.view_elevation = CLAMP (view->params.view_elevation + 0.3 * (event->y - view->y),
                                       0.0, 90.0);
  view->x = event->x;
  view->y = event->y;
  start_render (view);
  return TRUE;
}

static gboolean
scrolled (GtkWidget *area, GdkEventScroll *event, View *view)
{
  double dx = 0.0, dy = 0.0;
  (void) area;
  if (event->direction == GDK_SCROLL_UP)
    dy = -1.0;
  else if (event->direction == GDK_SCROLL_DOWN)
    dy = 1.0;
  else if (event->direction == GDK_SCROLL_SMOOTH)
    gdk_event_get_scroll_deltas ((GdkEvent *) event, &dx, &dy);
  view->params.zoom = CLAMP (view->params.zoom * pow (1.15, -dy), 0.2, 20.0);
  start_render (view);
  return TRUE;
}

static void
resized (GtkWidget *area, GdkRectangle *allocation, View *view)
{
  (void) area;
  (void) allocation;
  start_render (view);
}

static void
slider_changed (GtkRange *range, double *value)
{
  *value = gtk_range_get_value (range);
  start_render (g_object_get_data (G_OBJECT (range), "view"));
}

static void
add_slider (GtkGrid *grid, int row, const char *label, double lo, double hi, double *value,
            View *view)
{
  GtkWidget *name = gtk_label_new_with_mnemonic (label);
  GtkWidget *scale = gtk_scale_new_with_range (GTK_ORIENTATION_HORIZONTAL, lo, hi, 1.0);
  if (hi - lo <= 20.0)
    gtk_range_set_increments (GTK_RANGE (scale), 0.1, 1.0);
  gtk_scale_set_digits (GTK_SCALE (scale), hi - lo <= 20.0 ? 1 : 0);
  gtk_range_set_value (GTK_RANGE (scale), *value);
  gtk_widget_set_hexpand (scale, TRUE);
  gtk_label_set_mnemonic_widget (GTK_LABEL (name), scale);
  gtk_label_set_xalign (GTK_LABEL (name), 0.0);
  g_object_set_data (G_OBJECT (scale), "view", view);
  g_signal_connect (scale, "value-changed", G_CALLBACK (slider_changed), value);
  gtk_grid_attach (grid, name, 0, row, 1, 1);
  gtk_grid_attach (grid, scale, 1, row, 1, 1);
}

static GtkWidget *
build_window (View *view)
{
  GtkWidget *window = gtk_window_new (GTK_WINDOW_TOPLEVEL);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *grid = gtk_grid_new ();
  gtk_window_set_title (GTK_WINDOW (window), _("3D View"));
  gtk_container_set_border_width (GTK_CONTAINER (box), 6);
  gtk_container_add (GTK_CONTAINER (window), box);

  view->area = gtk_drawing_area_new ();
  gtk_widget_set_size_request (view->area, 640, 400);
  gtk_widget_set_vexpand (view->area, TRUE);
  gtk_widget_add_events (view->area, GDK_BUTTON_PRESS_MASK | GDK_BUTTON_RELEASE_MASK |
                                       GDK_POINTER_MOTION_MASK | GDK_SCROLL_MASK |
                                       GDK_SMOOTH_SCROLL_MASK);
  g_signal_connect (view->area, "draw", G_CALLBACK (draw), view);
  g_signal_connect (view->area, "button-press-event", G_CALLBACK (pressed), view);
  g_signal_connect (view->area, "button-release-event", G_CALLBACK (pressed), view);
  g_signal_connect (view->area, "motion-notify-event", G_CALLBACK (moved), view);
  g_signal_connect (view->area, "scroll-event", G_CALLBACK (scrolled), view);
  g_signal_connect (view->area, "size-allocate", G_CALLBACK (resized), view);
  gtk_box_pack_start (GTK_BOX (box), view->area, TRUE, TRUE, 0);

  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  add_slider (GTK_GRID (grid), 0, _("Light a_zimuth"), 0, 360, &view->params.light_azimuth,
              view);
  add_slider (GTK_GRID (grid), 1, _("Li_ght elevation"), 0, 90, &view->params.light_elevation,
              view);
  add_slider (GTK_GRID (grid), 2, _("E_xaggeration"), 0, 10, &view->params.exaggeration, view);
  gtk_box_pack_start (GTK_BOX (box), grid, FALSE, FALSE, 0);
  view->status = gtk_label_new (_(HINT));
  gtk_label_set_xalign (GTK_LABEL (view->status), 0.0);
  gtk_box_pack_start (GTK_BOX (box), view->status, FALSE, FALSE, 0);
  return window;
}

static gboolean
key_pressed (GtkWidget *window, GdkEventKey *event, View *view)
{
  (void) view;
  if (event->keyval != GDK_KEY_Escape)
    return FALSE;
  gtk_widget_destroy (window);
  return TRUE;
}

static void
closed (GtkWidget *window, View *view)
{
  (void) window;
  view->closed = TRUE;
  g_main_loop_quit (view->loop);
}

GimpValueArray *
terrain_view3d_window_run (GimpProcedure *procedure, GimpDrawable *drawable,
                           const TerrainView3DParams *params)
{
  View view = { 0 };
  view.drawable = drawable;
  view.params = *params;
  view.loop = g_main_loop_new (NULL, FALSE);
  GtkWidget *window = build_window (&view);
  g_signal_connect (window, "destroy", G_CALLBACK (closed), &view);
  g_signal_connect (window, "key-press-event", G_CALLBACK (key_pressed), &view);
  poll_layer (&view);
  view.poll = g_timeout_add (POLL_MS, poll_layer, &view);
  gtk_widget_show_all (window);
  g_main_loop_run (view.loop);

  if (view.poll)
    g_source_remove (view.poll);
  while (view.busy) /* the last render's report (render_done) ends it */
    g_main_context_iteration (NULL, TRUE);
  if (view.picture)
    cairo_surface_destroy (view.picture);
  terrain_view3d_mesh_free (view.mesh);
  g_main_loop_unref (view.loop);
  return gimp_procedure_new_return_values (procedure, GIMP_PDB_SUCCESS, NULL);
}
