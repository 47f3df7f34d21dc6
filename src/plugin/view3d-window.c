/* The 3D View window: the layer in a 3D view (view3d-area.h, which renders on a thread of
 * its own) with sliders for the sun and the exaggeration. Every POLL_MS, on GTK's main
 * thread (libgimp is not thread-safe) and only while no render runs, the layer is read
 * again when it may have changed, and a new render starts when its mesh differs from the
 * last. GIMP sends a layer's tiles from its own main thread: read whole at every poll, a
 * 4096 x 4096 16-bit layer (32 MiB) kept GIMP busy most of the time. So a layer without
 * effects is read again only when its thumbnail changed, which GIMP makes from its reduced
 * copy of the layer. A layer with effects is read at every poll: its thumbnail shows the
 * effects, which GIMP would compute for it on its main thread (a script's exact read). */
#include "view3d-window.h"

#include "view3d-area.h"
#include "view3d-procedure.h"

#include <glib/gi18n-lib.h>
#include <libgimp/gimpui.h>

/* 512 vertices a side: a quarter of the triangles of the procedure's 1024, so that a render
 * in the window takes less than half the time (tests/bench/README.md) while the mouse
 * orbits. */
#define WINDOW_MESH_SIDE 512
#define POLL_MS          300
#define THUMBNAIL_SIDE   256
#define HINT             N_("Drag to orbit, Shift+drag to pan, wheel to zoom, Escape to close.")

typedef struct
{
  GimpDrawable      *drawable;
  TerrainView3DArea *area;
  GtkWidget         *status;
  guint              poll;
  GMainLoop         *loop;
  GBytes            *thumbnail; /* the layer's when it was last read */
} View;

static gboolean
has_effects (GimpDrawable *drawable)
{
  GimpDrawableFilter **filters = gimp_drawable_get_filters (drawable);
  const gboolean       some = filters && filters[0];
  g_free (filters); /* transfer container: GIMP's objects stay */
  return some;
}

/* Whether the layer may have changed since it was last read: it has effects, or its
 * thumbnail differs from the one then (or there was none); the new one is kept. */
static gboolean
layer_changed (View *view)
{
  if (has_effects (view->drawable))
    {
      g_clear_pointer (&view->thumbnail, g_bytes_unref);
      return TRUE;
    }
  gint    width, height, bpp;
  GBytes *now = gimp_drawable_get_thumbnail_data (view->drawable, THUMBNAIL_SIDE,
                                                  THUMBNAIL_SIDE, &width, &height, &bpp);
  const gboolean changed = now == NULL || view->thumbnail == NULL ||
                           ! g_bytes_equal (now, view->thumbnail);
  g_clear_pointer (&view->thumbnail, g_bytes_unref);
  view->thumbnail = now;
  return changed;
}

/* Reads the layer again; a new render when it changed. */
static gboolean
poll_layer (gpointer data)
{
  View   *view = data;
  GError *error = NULL;
  if (terrain_view3d_area_busy (view->area))
    return G_SOURCE_CONTINUE;
  if (! gimp_item_is_valid (GIMP_ITEM (view->drawable)))
    {
      gtk_label_set_text (GTK_LABEL (view->status),
                          _("The layer is gone: the view stays as it was."));
      view->poll = 0;
      return G_SOURCE_REMOVE;
    }
  if (! layer_changed (view))
    return G_SOURCE_CONTINUE;
  TerrainView3DMesh *mesh = terrain_view3d_read_mesh (view->drawable, WINDOW_MESH_SIDE, &error);
  gtk_label_set_text (GTK_LABEL (view->status), error ? error->message : _(HINT));
  g_clear_error (&error);
  if (mesh == NULL || terrain_view3d_mesh_same (mesh, terrain_view3d_area_mesh (view->area)))
    terrain_view3d_mesh_free (mesh);
  else
    terrain_view3d_area_set_mesh (view->area, mesh);
  return G_SOURCE_CONTINUE;
}

static GtkWidget *
build_window (View *view)
{
  GtkWidget           *window = gtk_window_new (GTK_WINDOW_TOPLEVEL);
  GtkWidget           *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget           *grid = gtk_grid_new ();
  GtkWidget           *area = terrain_view3d_area_widget (view->area);
  gtk_window_set_title (GTK_WINDOW (window), _("3D View"));
  gtk_container_set_border_width (GTK_CONTAINER (box), 6);
  gtk_container_add (GTK_CONTAINER (window), box);

  gtk_widget_set_size_request (area, 640, 400);
  gtk_widget_set_vexpand (area, TRUE);
  gtk_box_pack_start (GTK_BOX (box), area, TRUE, TRUE, 0);

  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  const char *const labels[3] = { _("Light a_zimuth"), _("Li_ght elevation"),
                                  _("E_xaggeration") };
  terrain_view3d_area_add_sliders (view->area, GTK_GRID (grid), labels);
  const char *const scene[2] = { _("_Sea level"), _("_Colours by height and slope") };
  terrain_view3d_area_add_scene (view->area, GTK_GRID (grid), scene);
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
  g_main_loop_quit (view->loop);
}

GimpValueArray *
terrain_view3d_window_run (GimpProcedure *procedure, GimpDrawable *drawable,
                           const TerrainView3DParams *params)
{
  View view = { 0 };
  view.drawable = drawable;
  view.area = terrain_view3d_area_new (params);
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
  terrain_view3d_area_free (view.area); /* waits for the last render */
  g_clear_pointer (&view.thumbnail, g_bytes_unref);
  g_main_loop_unref (view.loop);
  return gimp_procedure_new_return_values (procedure, GIMP_PDB_SUCCESS, NULL);
}
