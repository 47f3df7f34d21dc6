#include "dialog-view3d.h"

#include "view3d-area.h"

#include <glib/gi18n-lib.h>
#include <libgimp/gimpui.h>

/* The preview is a few hundred pixels a side: a mesh of its own samples, up to 256 a side,
 * keeps a frame at tens of milliseconds (the 3D View window's 512 take several times that). */
#define DIALOG_MESH_SIDE 256
/* A little larger than the 2D preview beside it: a landscape seen at a slant needs more
 * pixels than the map seen from above. */
#define AREA_WIDTH  280
#define AREA_HEIGHT 210
/* The settings file, in the profile's plug-in-settings folder beside GIMP's own .last files
 * of the procedures (gimp_procedure_config_save_last): "Reset" leaves it, as it leaves the
 * preview's own "Preview" check box. */
#define SETTINGS_FILE  "gimp-terrain-dialog-3d-view"
#define SETTINGS_GROUP "3d-view"

struct TerrainDialogView3D
{
  TerrainView3DArea *area;
  GtkWidget         *toggle, *box;
};

static gchar *
settings_path (void)
{
  return g_build_filename (gimp_directory (), "plug-in-settings", SETTINGS_FILE, NULL);
}

/* The remembered value of key, kept in lo..hi, or fallback. */
static double
remembered (GKeyFile *file, const char *key, double lo, double hi, double fallback)
{
  GError      *error = NULL;
  const double value = g_key_file_get_double (file, SETTINGS_GROUP, key, &error);
  const gboolean got = error == NULL && value >= lo && value <= hi;
  g_clear_error (&error);
  return got ? value : fallback;
}

/* The view's parameters and whether it was shown, as the last dialog left them. */
static gboolean
load_settings (TerrainView3DParams *p)
{
  GKeyFile *file = g_key_file_new ();
  gchar    *path = settings_path ();
  terrain_view3d_defaults (p);
  const gboolean read = g_key_file_load_from_file (file, path, G_KEY_FILE_NONE, NULL);
  const gboolean shown = read && g_key_file_get_boolean (file, SETTINGS_GROUP, "shown", NULL);
  p->light_azimuth = remembered (file, "light-azimuth", 0.0, 360.0, p->light_azimuth);
  p->light_elevation = remembered (file, "light-elevation", 0.0, 90.0, p->light_elevation);
  p->exaggeration = remembered (file, "exaggeration", 0.0, 10.0, p->exaggeration);
  p->view_azimuth = remembered (file, "view-azimuth", 0.0, 360.0, p->view_azimuth);
  p->view_elevation = remembered (file, "view-elevation", 0.0, 90.0, p->view_elevation);
  p->zoom = remembered (file, "zoom", 0.2, 20.0, p->zoom);
  p->sea_level = remembered (file, "sea-level", 0.0, 1.0, p->sea_level);
  p->sea = p->sea_level > 0.0;
  if (read && g_key_file_has_key (file, SETTINGS_GROUP, "colours", NULL))
    p->colours = g_key_file_get_boolean (file, SETTINGS_GROUP, "colours", NULL)
                   ? TERRAIN_VIEW3D_COLOURS_TERRAIN : TERRAIN_VIEW3D_COLOURS_GRAY;
  g_free (path);
  g_key_file_free (file);
  return shown;
}

/* Best effort: a profile that cannot be written only forgets the settings. */
static void
save_settings (TerrainDialogView3D *view)
{
  const TerrainView3DParams *p = terrain_view3d_area_params (view->area);
  GKeyFile                  *file = g_key_file_new ();
  gchar                     *path = settings_path ();
  gchar                     *folder = g_path_get_dirname (path);
  g_key_file_set_boolean (file, SETTINGS_GROUP, "shown",
                          gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (view->toggle)));
  g_key_file_set_double (file, SETTINGS_GROUP, "light-azimuth", p->light_azimuth);
  g_key_file_set_double (file, SETTINGS_GROUP, "light-elevation", p->light_elevation);
  g_key_file_set_double (file, SETTINGS_GROUP, "exaggeration", p->exaggeration);
  g_key_file_set_double (file, SETTINGS_GROUP, "view-azimuth", p->view_azimuth);
  g_key_file_set_double (file, SETTINGS_GROUP, "view-elevation", p->view_elevation);
  g_key_file_set_double (file, SETTINGS_GROUP, "zoom", p->zoom);
  g_key_file_set_double (file, SETTINGS_GROUP, "sea-level", p->sea ? p->sea_level : 0.0);
  g_key_file_set_boolean (file, SETTINGS_GROUP, "colours",
                          p->colours == TERRAIN_VIEW3D_COLOURS_TERRAIN);
  if (g_mkdir_with_parents (folder, 0755) == 0)
    g_key_file_save_to_file (file, path, NULL);
  g_free (folder);
  g_free (path);
  g_key_file_free (file);
}

static void
toggled (GtkToggleButton *toggle, TerrainDialogView3D *view)
{
  gtk_widget_set_visible (view->box, gtk_toggle_button_get_active (toggle));
  terrain_view3d_area_redraw (view->area);
}

/* The view above its small sliders and its colours' check box; angles as in the 3D View
 * window (the sun's azimuth a compass bearing, clockwise from north, the layer's top). */
static GtkWidget *
view_box (TerrainDialogView3D *view)
{
  GtkWidget           *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget           *grid = gtk_grid_new ();
  GtkWidget           *area = terrain_view3d_area_widget (view->area);
  gtk_widget_set_size_request (area, AREA_WIDTH, AREA_HEIGHT);
  gtk_widget_set_tooltip_text (area, _("Drag to orbit, Shift+drag to pan, wheel to zoom"));
  gtk_box_pack_start (GTK_BOX (box), area, FALSE, FALSE, 0);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 6);
  /* No mnemonics: the dialog's letters belong to the procedure's arguments. */
  const char *const labels[3] = { _("Sun azimuth"), _("Sun elevation"), _("Exaggeration") };
  terrain_view3d_area_add_sliders (view->area, GTK_GRID (grid), labels);
  const char *const scene[2] = { _("Sea level"), _("Colours by height and slope") };
  terrain_view3d_area_add_scene (view->area, GTK_GRID (grid), scene);
  gtk_box_pack_start (GTK_BOX (box), grid, FALSE, FALSE, 0);
  gtk_widget_show_all (box);
  return box;
}

TerrainDialogView3D *
terrain_dialog_view3d_new (void)
{
  TerrainDialogView3D *view = g_new0 (TerrainDialogView3D, 1);
  TerrainView3DParams  params;
  const gboolean       shown = load_settings (&params);
  view->area = terrain_view3d_area_new (&params);
  view->box = view_box (view);
  gtk_widget_set_visible (view->box, shown);
  view->toggle = gtk_check_button_new_with_mnemonic (_("_3D view"));
  gtk_widget_set_tooltip_text (view->toggle,
                               _("Show the preview's result as a lit landscape beside it"));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (view->toggle), shown);
  g_signal_connect (view->toggle, "toggled", G_CALLBACK (toggled), view);
  gtk_widget_show (view->toggle);
  return view;
}

GtkWidget *
terrain_dialog_view3d_toggle (TerrainDialogView3D *view)
{
  return view->toggle;
}

GtkWidget *
terrain_dialog_view3d_widget (TerrainDialogView3D *view)
{
  return view->box;
}

void
terrain_dialog_view3d_show (TerrainDialogView3D *view, const float *heights, int w, int h)
{
  TerrainView3DMesh *mesh = terrain_view3d_mesh_new (w, h, DIALOG_MESH_SIDE);
  if (mesh)
    terrain_view3d_mesh_add_rows (mesh, heights, h);
  if (mesh && terrain_view3d_mesh_ready (mesh))
    terrain_view3d_area_set_mesh (view->area, mesh);
  else /* no memory, or heights OK would refuse: the view keeps its last picture */
    terrain_view3d_mesh_free (mesh);
}

void
terrain_dialog_view3d_free (TerrainDialogView3D *view)
{
  save_settings (view);
  g_signal_handlers_disconnect_by_data (view->toggle, view);
  terrain_view3d_area_free (view->area);
  g_free (view);
}
