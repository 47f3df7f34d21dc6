/* run(): check the target, show the dialog when interactive, render, write. */
#include "run.h"

#include "apply.h"
#include "arg-values.h"
#include "dialog.h"
#include "layer-io.h"
#include "register.h"
#include "thread-pool.h"

#include <glib/gi18n-lib.h>
#include <libgimp/gimpui.h>

/* A drawable the terrain procedures can write: one gray or RGB drawable, not a group. */
static GimpDrawable *
target_drawable (GimpDrawable **drawables, GError **error)
{
  gsize n = gimp_core_object_array_get_length ((GObject **) drawables);
  if (n != 1)
    {
      g_set_error (error, GIMP_PLUG_IN_ERROR, 0,
                   _("Terrain procedures work on exactly one drawable, got %d."), (int) n);
      return NULL;
    }
  GimpDrawable *drawable = drawables[0];
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
  return drawable;
}

GimpValueArray *
terrain_run (GimpProcedure *procedure, GimpRunMode run_mode, GimpImage *image,
             GimpDrawable **drawables, GimpProcedureConfig *config, gpointer run_data)
{
  const TerrainProcedureInfo *info = run_data;
  GError *error = NULL;
  (void) image;

  GimpDrawable *drawable = target_drawable (drawables, &error);
  if (drawable == NULL)
    return gimp_procedure_new_return_values (procedure, GIMP_PDB_CALLING_ERROR, error);

  if (run_mode == GIMP_RUN_INTERACTIVE)
    {
      gimp_ui_init (PLUG_IN_BINARY);
      if (! terrain_dialog_run (info, procedure, config, drawable))
        return gimp_procedure_new_return_values (procedure, GIMP_PDB_CANCEL, NULL);
    }
  terrain_use_threads (terrain_thread_count ());

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
