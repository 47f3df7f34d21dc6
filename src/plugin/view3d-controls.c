/* The 3D view's controls (view3d-area.h): sliders of the sun, the exaggeration and the sea,
 * and the colours' check box, each changing the area's parameters and redrawing it. */
#include "view3d-area.h"

static void
slider_changed (GtkRange *range, double *value)
{
  *value = gtk_range_get_value (range);
  terrain_view3d_area_redraw (g_object_get_data (G_OBJECT (range), "terrain-view3d-area"));
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
  TerrainView3DParams *p = terrain_view3d_area_params (area);
  p->sea_level = gtk_range_get_value (range);
  p->sea = p->sea_level > 0.0;
  terrain_view3d_area_redraw (area);
}

static void
colours_toggled (GtkToggleButton *toggle, TerrainView3DArea *area)
{
  terrain_view3d_area_params (area)->colours = gtk_toggle_button_get_active (toggle)
                                                 ? TERRAIN_VIEW3D_COLOURS_TERRAIN
                                                 : TERRAIN_VIEW3D_COLOURS_GRAY;
  terrain_view3d_area_redraw (area);
}

void
terrain_view3d_area_add_sliders (TerrainView3DArea *area, GtkGrid *grid,
                                 const char *const labels[3])
{
  TerrainView3DParams *p = terrain_view3d_area_params (area);
  add_slider (area, grid, 0, labels[0], 0, 360, &p->light_azimuth);
  add_slider (area, grid, 1, labels[1], 0, 90, &p->light_elevation);
  add_slider (area, grid, 2, labels[2], 0, 10, &p->exaggeration);
}

void
terrain_view3d_area_add_scene (TerrainView3DArea *area, GtkGrid *grid,
                               const char *const labels[2])
{
  const TerrainView3DParams *p = terrain_view3d_area_params (area);
  GtkWidget *sea = attach_slider (area, grid, 3, labels[0], 0.0, 1.0,
                                  p->sea ? p->sea_level : 0.0);
  GtkWidget *colours = gtk_check_button_new_with_mnemonic (labels[1]);
  g_signal_connect (sea, "value-changed", G_CALLBACK (sea_changed), area);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (colours),
                                p->colours == TERRAIN_VIEW3D_COLOURS_TERRAIN);
  g_signal_connect (colours, "toggled", G_CALLBACK (colours_toggled), area);
  gtk_grid_attach (grid, colours, 0, 4, 2, 1);
}

