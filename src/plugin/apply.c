#include "apply.h"

#include "heightmap.h"
#include "layer-io.h"

#include <glib/gi18n.h>

TerrainStatus
terrain_render_layer (const TerrainProcedureInfo *info, const TerrainArgValues *values,
                      GimpDrawable *drawable, float *heights, const TerrainProgress *progress,
                      GError **error)
{
  const int width = gimp_drawable_get_width (drawable);
  const int height = gimp_drawable_get_height (drawable);
  char why[256] = "";

  if (info->kind == TERRAIN_FILTER)
    terrain_read_heights (drawable, heights);
  TerrainStatus status = info->render (values->values, heights, width, height, progress,
                                       why, sizeof why);
  if (status == TERRAIN_OK && terrain_has_non_finite (heights, (size_t) width * height))
    {
      g_set_error (error, GIMP_PLUG_IN_ERROR, 0,
                   _("%s produced an invalid height; nothing was written."), info->name);
      return TERRAIN_ERROR_INVALID;
    }
  if (status == TERRAIN_ERROR_INVALID)
    g_set_error (error, GIMP_PLUG_IN_ERROR, 0, _("%s: invalid argument: %s"), info->name,
                 why[0] ? why : _(terrain_status_message (status)));
  else if (status == TERRAIN_ERROR_NO_MEMORY)
    g_set_error (error, GIMP_PLUG_IN_ERROR, 0, _("%s: not enough memory for a %d x %d heightmap."),
                 info->name, width, height);
  return status;
}

/* Rendering is the first half of the progress bar, writing the second. */
static int
report_render (void *user, double fraction)
{
  (void) user;
  gimp_progress_update (0.5 * fraction);
  return 0;
}

static gboolean
report_band (gpointer user, double fraction)
{
  (void) user;
  return gimp_progress_update (0.5 + 0.5 * fraction);
}

GimpPDBStatusType
terrain_apply (const TerrainProcedureInfo *info, const TerrainArgValues *values,
               GimpDrawable *drawable, GError **error)
{
  const int width = gimp_drawable_get_width (drawable);
  const int height = gimp_drawable_get_height (drawable);
  int x, y, w, h;

  if (! gimp_drawable_mask_intersect (drawable, &x, &y, &w, &h))
    return GIMP_PDB_SUCCESS; /* the selection misses this layer: nothing to do */

  if (terrain_check_size (width, height) != TERRAIN_OK)
    {
      g_set_error (error, GIMP_PLUG_IN_ERROR, 0, _("%s: a %d x %d layer is too large."),
                   info->name, width, height);
      return GIMP_PDB_EXECUTION_ERROR;
    }
  float *heights = g_try_malloc ((gsize) width * height * sizeof (float));
  if (heights == NULL)
    {
      g_set_error (error, GIMP_PLUG_IN_ERROR, 0, _("%s: not enough memory for a %d x %d heightmap."),
                   info->name, width, height);
      return GIMP_PDB_EXECUTION_ERROR;
    }

  gimp_progress_init (_(info->menu_label));
  TerrainProgress progress = { report_render, NULL };
  TerrainStatus status = terrain_render_layer (info, values, drawable, heights, &progress, error);
  if (status != TERRAIN_OK)
    {
      g_free (heights);
      return status == TERRAIN_CANCELLED ? GIMP_PDB_CANCEL
             : status == TERRAIN_ERROR_INVALID ? GIMP_PDB_CALLING_ERROR
                                               : GIMP_PDB_EXECUTION_ERROR;
    }

  GimpImage *image = gimp_item_get_image (GIMP_ITEM (drawable));
  gimp_image_undo_group_start (image);
  terrain_write_heights (drawable, heights, x, y, w, h, report_band, NULL);
  gimp_image_undo_group_end (image);
  gimp_progress_end ();
  g_free (heights);
  return GIMP_PDB_SUCCESS;
}
