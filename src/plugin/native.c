#include "native.h"

#include "layer-io.h"
#include "pixel-codec.h"
#include "render-errors.h"
#include "terrain-build-id.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#define BUILD_PROPERTY "terrain-build" /* src/gegl/op-properties.h */

static gchar *
operation_name (const TerrainProcedureInfo *info)
{
  return g_strconcat ("terrain:", info->name + strlen ("plug-in-terrain-"), NULL);
}

/* The build the operation comes from: its hidden property's default. */
static gchar *
operation_build (GimpDrawableFilter *filter)
{
  GObject    *config = G_OBJECT (gimp_drawable_filter_get_config (filter));
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (config), BUILD_PROPERTY);
  return pspec && G_IS_PARAM_SPEC_STRING (pspec)
           ? g_strdup (G_PARAM_SPEC_STRING (pspec)->default_value) : NULL;
}

GimpDrawableFilter *
terrain_native_filter_new (const TerrainProcedureInfo *info, GimpDrawable *drawable,
                           gchar **why_not)
{
  GimpPlugIn *plug_in = gimp_get_plug_in ();
  gchar      *name = operation_name (info);
  gchar      *title = terrain_label (_(info->menu_label), g_malloc (256), 256);
  if (g_str_has_suffix (title, "..."))
    title[strlen (title) - 3] = '\0';

  /* A missing operation is an answer, not an error to show the user. */
  gimp_plug_in_set_pdb_error_handler (plug_in, GIMP_PDB_ERROR_HANDLER_PLUGIN);
  GimpDrawableFilter *filter = gimp_drawable_filter_new (drawable, name, title);
  gimp_plug_in_set_pdb_error_handler (plug_in, GIMP_PDB_ERROR_HANDLER_INTERNAL);

  gchar *build = filter ? operation_build (filter) : NULL;
  if (filter == NULL)
    *why_not = g_strdup_printf (_("GIMP has no operation %s: gimp-terrain's GEGL module is "
                                  "not installed"), name);
  else if (g_strcmp0 (build, TERRAIN_BUILD_ID) != 0)
    {
      *why_not = g_strdup_printf (_("gimp-terrain's GEGL module is build %s, the plug-in "
                                    "build %s"), build ? build : "?", TERRAIN_BUILD_ID);
      gimp_drawable_filter_delete (filter);
      filter = NULL;
    }
  g_free (build);
  g_free (title);
  g_free (name);
  return filter;
}

void
terrain_native_filter_configure (GimpDrawableFilter *filter, const TerrainProcedureInfo *info,
                                 GimpProcedureConfig *config)
{
  GObject *filter_config = G_OBJECT (gimp_drawable_filter_get_config (filter));
  for (const TerrainArg *arg = info->args; arg->name; arg++)
    {
      GValue value = G_VALUE_INIT; /* choices are their nicks on both sides */
      g_object_get_property (G_OBJECT (config), arg->name, &value);
      g_object_set_property (filter_config, arg->name, &value);
      g_value_unset (&value);
    }
}

gboolean
terrain_shows_effects (GimpDrawable *drawable)
{
  /* A floating selection is a filter on the stack of the drawable it is attached to, but
   * not one libgimp can pass (GIMP warns "unsupported type 'GimpFilter'"): that stack is
   * left alone. */
  GimpDrawable *floating_on =
    gimp_image_floating_sel_attached_to (gimp_item_get_image (GIMP_ITEM (drawable)));
  if (floating_on && gimp_item_get_id (GIMP_ITEM (floating_on)) ==
                     gimp_item_get_id (GIMP_ITEM (drawable)))
    return FALSE;
  GimpDrawableFilter **filters = gimp_drawable_get_filters (drawable);
  gboolean             visible = FALSE;
  for (GimpDrawableFilter **f = filters; f && *f && ! visible; f++)
    visible = gimp_drawable_filter_get_visible (*f);
  g_free (filters); /* transfer container: GIMP's objects stay */
  return visible;
}

void
terrain_merge_effects (GimpDrawable *drawable, GimpDrawableFilter *on_top)
{
  gimp_image_undo_group_start (gimp_item_get_image (GIMP_ITEM (drawable)));
  if (on_top)
    gimp_drawable_append_filter (drawable, on_top);
  gimp_drawable_merge_filters (drawable);
}

/* A session parasite (not saved): the note is printed for the first call only. */
void
terrain_native_say_once (const gchar *why_not)
{
  const gchar  *key = "gimp-terrain-renders-in-plug-in";
  GimpParasite *said = gimp_get_parasite (key);
  if (said)
    {
      gimp_parasite_free (said);
      return;
    }
  g_printerr (_("gimp-terrain renders in the plug-in, without in-process speed or editable "
                "effects: %s.\n"), why_not);
  said = gimp_parasite_new (key, 0, 0, NULL);
  gimp_attach_parasite (said);
  gimp_parasite_free (said);
}

/* Whether the machine has room for the whole-layer maps the procedure works on in GIMP's
 * process (which cannot report running out): the plug-in reserves as much itself, for a
 * moment, on the same machine. 12 bytes a pixel: the map and the core's working copies. */
static gboolean
room_for_layer (const TerrainProcedureInfo *info, const TerrainArgValues *values,
                GimpDrawable *drawable)
{
  const int width = gimp_drawable_get_width (drawable);
  const int height = gimp_drawable_get_height (drawable);
  if (info->render_rect && ! terrain_reads_layer (info, values->values))
    return TRUE; /* rendered tile by tile */
  if (terrain_check_size (width, height) != TERRAIN_OK ||
      (gsize) width * height > G_MAXSIZE / 12)
    return FALSE;
  gpointer reserved = g_try_malloc ((gsize) width * height * 12);
  g_free (reserved);
  return reserved != NULL;
}

GimpPDBStatusType
terrain_check_heights (const TerrainProcedureInfo *info, const TerrainArgValues *values,
                       GimpDrawable *drawable, GError **error)
{
  if (! terrain_reads_layer (info, values->values) || ! terrain_holds_non_numbers (drawable))
    return GIMP_PDB_SUCCESS;
  const int width = gimp_drawable_get_width (drawable);
  const int height = gimp_drawable_get_height (drawable);
  float    *heights = g_try_new (float, (gsize) width * height);
  if (heights == NULL)
    return GIMP_PDB_EXECUTION_ERROR;
  terrain_read_heights (drawable, heights);
  const gboolean usable = terrain_heightmap_usable (info, heights, width, height, error);
  g_free (heights);
  return usable ? GIMP_PDB_SUCCESS : GIMP_PDB_CALLING_ERROR;
}

GimpPDBStatusType
terrain_native_apply (const TerrainProcedureInfo *info, GimpProcedureConfig *config,
                      const TerrainArgValues *values, GimpDrawable *drawable,
                      GimpDrawableFilter *filter, gboolean non_destructive, GError **error)
{
  GimpPDBStatusType status = GIMP_PDB_SUCCESS;
  if (! room_for_layer (info, values, drawable))
    status = terrain_pdb_status (terrain_render_error (info, TERRAIN_ERROR_NO_MEMORY, "", NULL, 0,
                                                       gimp_drawable_get_width (drawable),
                                                       gimp_drawable_get_height (drawable),
                                                       error));
  else
    status = terrain_check_heights (info, values, drawable, error);
  if (status != GIMP_PDB_SUCCESS)
    {
      gimp_drawable_filter_delete (filter);
      return status;
    }
  terrain_progress_init (info);
  terrain_native_filter_configure (filter, info, config);
  if (non_destructive)
    gimp_drawable_append_filter (drawable, filter);
  else if (terrain_shows_effects (drawable))
    {
      /* On top of the effects, as the effect would be, then all merged at once (GIMP
       * converts to the layer's precision once): the bytes of a non-destructive call and
       * Layer > Merge Filters, as the dialog's canvas showed them. */
      terrain_merge_effects (drawable, filter);
      gimp_image_undo_group_end (gimp_item_get_image (GIMP_ITEM (drawable)));
    }
  else
    gimp_drawable_merge_filter (drawable, filter);
  gimp_progress_end ();
  return GIMP_PDB_SUCCESS;
}
