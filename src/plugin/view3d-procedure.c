/* plug-in-terrain-3d-view: registration and the run: the 3D View window when interactive
 * (view3d-window.h), else the view of the active layer rendered into a new RGB image, which
 * it returns (and shows, run with the last values).
 * The layer's height is what every terrain procedure reads (layer-io.h): a gray layer's
 * value, an RGB layer's luminance (Y' of its colour), at any precision; alpha is ignored. */
#include "view3d-procedure.h"

#include "arg-values.h"
#include "layer-io.h"
#include "register.h"
#include "thread-pool.h"
#include "view3d-window.h"

#include <glib/gi18n-lib.h>
#include <libgimp/gimpui.h>

static void
add_rows (gpointer user, const float *rows, int y, int count)
{
  (void) y;
  terrain_view3d_mesh_add_rows (user, rows, count);
}

TerrainView3DMesh *
terrain_view3d_read_mesh (GimpDrawable *drawable, int mesh_side, GError **error)
{
  TerrainView3DMesh *mesh = terrain_view3d_mesh_new (gimp_drawable_get_width (drawable),
                                                     gimp_drawable_get_height (drawable),
                                                     mesh_side);
  if (mesh == NULL)
    {
      g_set_error (error, GIMP_PLUG_IN_ERROR, 0, _("Not enough memory for the 3D view."));
      return NULL;
    }
  terrain_read_height_bands (drawable, add_rows, mesh);
  if (! terrain_view3d_mesh_ready (mesh))
    {
      g_set_error (error, GIMP_PLUG_IN_ERROR, 0,
                   _("The layer holds values that are no numbers (NaN or infinite): the 3D "
                     "view cannot show it."));
      terrain_view3d_mesh_free (mesh);
      return NULL;
    }
  return mesh;
}

/* The parameters of the call (the PDB has checked their ranges). */
static void
params_from_config (GimpProcedureConfig *config, TerrainView3DParams *p, int *width, int *height)
{
  gboolean shadows;
  terrain_view3d_defaults (p);
  g_object_get (config, "width", width, "height", height, "light-azimuth", &p->light_azimuth,
                "light-elevation", &p->light_elevation, "view-azimuth", &p->view_azimuth,
                "view-elevation", &p->view_elevation, "exaggeration", &p->exaggeration,
                "shadows", &shadows, NULL);
  p->shadows = shadows;
}

/* A new RGB image holding the picture, in one layer. */
static GimpImage *
picture_image (const unsigned char *rgb, int width, int height)
{
  GimpImage *image = gimp_image_new (width, height, GIMP_RGB);
  GimpLayer *layer = gimp_layer_new (image, _("3D View"), width, height, GIMP_RGB_IMAGE, 100.0,
                                     GIMP_LAYER_MODE_NORMAL);
  gimp_image_insert_layer (image, layer, NULL, 0);
  GeglBuffer         *buffer = gimp_drawable_get_buffer (GIMP_DRAWABLE (layer));
  const GeglRectangle rect = { 0, 0, width, height };
  const Babl         *format = babl_format_with_space ("R'G'B' u8",
                                                            gegl_buffer_get_format (buffer));
  gegl_buffer_set (buffer, &rect, 0, format, rgb, GEGL_AUTO_ROWSTRIDE);
  g_object_unref (buffer);
  gimp_image_clean_all (image);
  return image;
}

/* Renders the view into a new image; NULL with the error. */
static GimpImage *
render_image (GimpDrawable *drawable, const TerrainView3DParams *p, int width, int height,
              GError **error)
{
  TerrainView3DMesh *mesh = terrain_view3d_read_mesh (drawable, TERRAIN_VIEW3D_MESH_SIDE,
                                                      error);
  if (mesh == NULL)
    return NULL;
  guchar       *rgb = g_try_malloc ((gsize) width * height * 3);
  TerrainStatus status = rgb ? terrain_view3d_render_mesh (mesh, p, rgb, width, height)
                             : TERRAIN_ERROR_NO_MEMORY;
  GimpImage    *image = NULL;
  if (status == TERRAIN_OK)
    image = picture_image (rgb, width, height);
  else
    g_set_error (error, GIMP_PLUG_IN_ERROR, 0, _("The 3D view could not be rendered: %s"),
                 terrain_view3d_check (p) ? terrain_view3d_check (p)
                                          : terrain_status_message (status));
  g_free (rgb);
  terrain_view3d_mesh_free (mesh);
  return image;
}

/* The one drawable of the call, a layer's pixels (no group, not indexed); NULL with the
 * error. */
static GimpDrawable *
source_drawable (GimpDrawable **drawables, GError **error)
{
  const gsize n = gimp_core_object_array_get_length ((GObject **) drawables);
  if (n != 1)
    g_set_error (error, GIMP_PLUG_IN_ERROR, 0,
                 _("The 3D view shows exactly one drawable, got %d."), (int) n);
  else if (GIMP_IS_LAYER (drawables[0]) && gimp_item_is_group (GIMP_ITEM (drawables[0])))
    g_set_error (error, GIMP_PLUG_IN_ERROR, 0,
                 _("The 3D view cannot show a layer group: pick a layer inside it."));
  else if (gimp_drawable_is_indexed (drawables[0]))
    g_set_error (error, GIMP_PLUG_IN_ERROR, 0,
                 _("Heightmaps need a grayscale (or RGB) image; this one is indexed. "
                   "Use Image > Mode > Grayscale first."));
  else
    return drawables[0];
  return NULL;
}

static GimpValueArray *
run (GimpProcedure *procedure, GimpRunMode run_mode, GimpImage *image,
     GimpDrawable **drawables, GimpProcedureConfig *config, gpointer run_data)
{
  GError             *error = NULL;
  TerrainView3DParams p;
  int                 width, height;
  (void) image;
  (void) run_data;

  GimpDrawable *drawable = source_drawable (drawables, &error);
  if (drawable == NULL)
    return gimp_procedure_new_return_values (procedure, GIMP_PDB_CALLING_ERROR, error);
  params_from_config (config, &p, &width, &height);
  terrain_use_threads (terrain_thread_count ());
  if (run_mode == GIMP_RUN_INTERACTIVE)
    {
      gimp_ui_init (PLUG_IN_BINARY);
      return terrain_view3d_window_run (procedure, drawable, &p);
    }
  GimpImage *view = render_image (drawable, &p, width, height, &error);
  if (view == NULL)
    return gimp_procedure_new_return_values (procedure, GIMP_PDB_EXECUTION_ERROR, error);
  if (run_mode != GIMP_RUN_NONINTERACTIVE)
    {
      gimp_display_new (view);
      gimp_displays_flush ();
    }
  GimpValueArray *values = gimp_procedure_new_return_values (procedure, GIMP_PDB_SUCCESS, NULL);
  GIMP_VALUES_SET_IMAGE (values, 1, view);
  return values;
}

static void
add_arguments (GimpProcedure *procedure)
{
  gimp_procedure_add_int_argument (procedure, "width", _("_Width"),
                                   _("Width of the picture, pixels"), 1,
                                   TERRAIN_VIEW3D_MAX_PICTURE, 800, G_PARAM_READWRITE);
  gimp_procedure_add_int_argument (procedure, "height", _("_Height"),
                                   _("Height of the picture, pixels"), 1,
                                   TERRAIN_VIEW3D_MAX_PICTURE, 600, G_PARAM_READWRITE);
  gimp_procedure_add_double_argument (procedure, "light-azimuth", _("Light a_zimuth"),
                                      _("Where the sun stands, degrees clockwise from north "
                                        "(the layer's top): 270 lights the terrain from the west"),
                                      0.0, 360.0, 270.0, G_PARAM_READWRITE);
  gimp_procedure_add_double_argument (procedure, "light-elevation", _("Li_ght elevation"),
                                      _("Height of the sun above the horizon, degrees"),
                                      0.0, 90.0, 35.0, G_PARAM_READWRITE);
  gimp_procedure_add_double_argument (procedure, "view-azimuth", _("_View azimuth"),
                                      _("Where the camera looks, degrees clockwise from north: "
                                        "0 looks from the layer's bottom towards its top"),
                                      0.0, 360.0, 0.0, G_PARAM_READWRITE);
  gimp_procedure_add_double_argument (procedure, "view-elevation", _("View _elevation"),
                                      _("How far the camera looks down, degrees: 90 straight "
                                        "down on the whole layer, 0 from the horizon"),
                                      0.0, 90.0, 35.0, G_PARAM_READWRITE);
  gimp_procedure_add_double_argument (procedure, "exaggeration", _("E_xaggeration"),
                                      _("Multiplies the heights: at 1 the layer's full range "
                                        "stands an eighth of its larger side tall"),
                                      0.0, 100.0, 1.0, G_PARAM_READWRITE);
  gimp_procedure_add_boolean_argument (procedure, "shadows", _("_Shadows"),
                                       _("Cast shadows from the sun"), TRUE, G_PARAM_READWRITE);
  gimp_procedure_add_image_return_value (procedure, "image", _("Image"),
                                         _("A new RGB image holding the view"), FALSE,
                                         G_PARAM_READWRITE);
}

GimpProcedure *
terrain_view3d_procedure_new (GimpPlugIn *plug_in)
{
  GimpProcedure *procedure = gimp_image_procedure_new (plug_in, TERRAIN_VIEW3D_PROCEDURE,
                                                       GIMP_PDB_PROC_TYPE_PLUGIN, run, NULL,
                                                       NULL);
  gimp_procedure_set_image_types (procedure, "GRAY*, RGB*");
  gimp_procedure_set_sensitivity_mask (procedure, GIMP_PROCEDURE_SENSITIVE_DRAWABLE);
  gimp_procedure_set_menu_label (procedure, _("3D _View..."));
  gimp_procedure_add_menu_path (procedure, TERRAIN_MENU_PATH);
  gimp_procedure_set_documentation (
    procedure, _("See the layer's terrain in 3D"),
    _("Shows the active layer as a lit 3D landscape: its gray value (an RGB layer's "
      "luminance; alpha is ignored) as heights, lit by a sun with cast shadows, coloured by "
      "height and slope. Run from a script it renders the view into a new RGB image and "
      "returns it; from the menu it opens a window that follows the layer as it is painted, "
      "where the mouse orbits (drag) and zooms (wheel) and sliders move the sun. Layers "
      "above 1024 pixels a side are shown through a mesh of their box averages, at most "
      "1024 vertices a side (512 in the window)."),
    TERRAIN_VIEW3D_PROCEDURE);
  gimp_procedure_set_attribution (procedure, "gimp-terrain developers",
                                  "gimp-terrain developers", "2026");
  add_arguments (procedure);
  return procedure;
}
