/* run(): check the target, show the dialog when interactive, render, write. */
#include "run.h"

#include "apply.h"
#include "arg-values.h"
#include "dialog.h"
#include "huge-pages.h"
#include "layer-io.h"
#include "register.h"
#include "thread-pool.h"

#include <glib/gi18n-lib.h>
#include <libgimp/gimpui.h>

/* The one drawable of the call, or NULL with the error. */
static GimpDrawable *
one_drawable (GimpDrawable **drawables, GError **error)
{
  gsize n = gimp_core_object_array_get_length ((GObject **) drawables);
  if (n == 1)
    return drawables[0];
  if (n == 0)
    g_set_error (error, GIMP_PLUG_IN_ERROR, 0,
                 _("Terrain procedures work on exactly one drawable; the call gave none that "
                   "exists (an ID that is no drawable, or of a deleted one, counts as none)."));
  else
    g_set_error (error, GIMP_PLUG_IN_ERROR, 0,
                 _("Terrain procedures work on exactly one drawable, got %d."), (int) n);
  return NULL;
}

/* Whether GIMP would refuse to write the drawable: it is not in the call's image (never
 * added, removed, or of another image), or its pixels are locked, or a group's above it
 * are. Checked before any work, since GIMP only says so after a write (to stderr). */
static gboolean
writable (GimpImage *image, GimpDrawable *drawable, GError **error)
{
  GimpPlugIn *plug_in = gimp_get_plug_in ();
  gimp_plug_in_set_pdb_error_handler (plug_in, GIMP_PDB_ERROR_HANDLER_PLUGIN);
  const gboolean in_image = gimp_image_get_item_position (image, GIMP_ITEM (drawable)) >= 0 &&
                            gimp_pdb_get_last_status (gimp_get_pdb ()) == GIMP_PDB_SUCCESS;
  gimp_plug_in_set_pdb_error_handler (plug_in, GIMP_PDB_ERROR_HANDLER_INTERNAL);
  if (! in_image)
    {
      g_set_error (error, GIMP_PLUG_IN_ERROR, 0,
                   _("The drawable is not in the image: it was never added to it, was removed, "
                     "or belongs to another image."));
      return FALSE;
    }
  for (GimpItem *item = GIMP_ITEM (drawable); item; item = gimp_item_get_parent (item))
    if (gimp_item_get_lock_content (item))
      {
        gchar *name = gimp_item_get_name (item);
        g_set_error (error, GIMP_PLUG_IN_ERROR, 0,
                     item == GIMP_ITEM (drawable)
                       ? _("The pixels of \"%s\" are locked: unlock them (Lock pixels) first.")
                       : _("The group \"%s\" locks the pixels of the layers in it: unlock it "
                           "(Lock pixels) first."),
                     name);
        g_free (name);
        return FALSE;
      }
  return TRUE;
}

/* A drawable the terrain procedures can write: one gray or RGB drawable of the image, not
 * a group, not locked. */
static GimpDrawable *
target_drawable (GimpImage *image, GimpDrawable **drawables, GError **error)
{
  GimpDrawable *drawable = one_drawable (drawables, error);
  if (drawable == NULL)
    return NULL;
  if (GIMP_IS_LAYER (drawable) && gimp_item_is_group (GIMP_ITEM (drawable)))
    {
      g_set_error (error, GIMP_PLUG_IN_ERROR, 0,
                   _("Cannot render into a layer group: pick a layer inside it."));
      return NULL;
    }
  if (gimp_drawable_is_indexed (drawable))
    {
      g_set_error (error, GIMP_PLUG_IN_ERROR, 0,
                   _("Heightmaps need a grayscale (or RGB) image; this one is indexed. "
                     "Use Image > Mode > Grayscale first."));
      return NULL;
    }
  return writable (image, drawable, error) ? drawable : NULL;
}

GimpValueArray *
terrain_run (GimpProcedure *procedure, GimpRunMode run_mode, GimpImage *image,
             GimpDrawable **drawables, GimpProcedureConfig *config, gpointer run_data)
{
  const TerrainProcedureInfo *info = run_data;
  GError *error = NULL;

  GimpDrawable *drawable = target_drawable (image, drawables, &error);
  if (drawable == NULL)
    return gimp_procedure_new_return_values (procedure, GIMP_PDB_CALLING_ERROR, error);

  /* Before the dialog: its preview renders on all threads too (only one render at a time:
   * the preview's worker has stopped before OK renders). */
  terrain_use_threads (terrain_thread_count ());
  terrain_use_huge_pages ();
  if (run_mode == GIMP_RUN_INTERACTIVE)
    {
      gimp_ui_init (PLUG_IN_BINARY);
      if (! terrain_dialog_run (info, procedure, config, drawable))
        return gimp_procedure_new_return_values (procedure, GIMP_PDB_CANCEL, NULL);
    }

  gboolean non_destructive;
  g_object_get (config, TERRAIN_ARG_NON_DESTRUCTIVE, &non_destructive, NULL);
  TerrainArgValues *values = terrain_arg_values_from_config (info, config);
  GimpPDBStatusType status = terrain_apply (info, config, values, drawable, non_destructive,
                                            &error);
  terrain_arg_values_free (values);

  if (status == GIMP_PDB_SUCCESS && run_mode != GIMP_RUN_NONINTERACTIVE)
    gimp_displays_flush ();
  return gimp_procedure_new_return_values (procedure, status, error);
}
