#include "render-errors.h"

#include "heightmap.h"
#include "layer-io.h"

#include <glib/gi18n-lib.h>

/* The core's status messages in the user's language (src/terrain has no translations). */
static const char *
status_text (TerrainStatus status)
{
  switch (status)
    {
    case TERRAIN_ERROR_INVALID:   return _("a parameter is out of range");
    case TERRAIN_ERROR_NO_MEMORY: return _("not enough memory for a heightmap of this size");
    case TERRAIN_CANCELLED:       return _("cancelled");
    default:                      return terrain_status_message (status);
    }
}

TerrainStatus
terrain_render_error (const TerrainProcedureInfo *info, TerrainStatus status, const char *why,
                      const float *heights, gsize n, int width, int height, GError **error)
{
  if (status == TERRAIN_OK && terrain_has_non_finite (heights, n))
    {
      g_set_error (error, GIMP_PLUG_IN_ERROR, 0,
                   _("%s produced an invalid height; nothing was written."), info->name);
      return TERRAIN_ERROR_INVALID;
    }
  if (status == TERRAIN_ERROR_INVALID)
    g_set_error (error, GIMP_PLUG_IN_ERROR, 0, _("%s: invalid argument: %s"), info->name,
                 why[0] ? why : status_text (status));
  else if (status == TERRAIN_ERROR_NO_MEMORY)
    g_set_error (error, GIMP_PLUG_IN_ERROR, 0,
                 _("%s: not enough memory for a %d x %d heightmap."), info->name, width, height);
  else if (status == TERRAIN_CANCELLED)
    g_set_error (error, GIMP_PLUG_IN_ERROR, 0, _("%s: cancelled."), info->name);
  return status;
}

gboolean
terrain_heightmap_usable (const TerrainProcedureInfo *info, const float *heights, int width,
                          int height, GError **error)
{
  size_t first = 0;
  size_t count = terrain_count_non_finite (heights, (size_t) width * height, &first);
  if (count == 0)
    return TRUE;
  g_set_error (error, GIMP_PLUG_IN_ERROR, 0,
               _("%s: the layer holds pixels that are not finite numbers (NaN or infinity), "
                 "%lu in all, the first at x = %d, y = %d; nothing was changed."),
               info->name, (unsigned long) count, (int) (first % width), (int) (first / width));
  return FALSE;
}

gboolean
terrain_selection_usable (const TerrainProcedureInfo *info, GimpDrawable *drawable, int x, int y,
                          int w, int h, GError **error)
{
  int         first_x = 0, first_y = 0;
  double      limit = 0.0;
  const gsize count = terrain_count_selected_unmixable (drawable, x, y, w, h, &first_x, &first_y,
                                                        &limit);
  if (count == 0)
    return TRUE;
  g_set_error (error, GIMP_PLUG_IN_ERROR, 0,
               _("%s: the selection covers pixels that are not finite numbers (NaN or "
                 "infinity) or beyond %g, %lu in all, the first at x = %d, y = %d. GIMP mixes a "
                 "result into a selection with the pixels there, and these would become NaN. "
                 "Nothing was changed: select none, or fix those pixels first."),
               info->name, limit, (unsigned long) count, first_x, first_y);
  return FALSE;
}

GimpPDBStatusType
terrain_pdb_status (TerrainStatus status)
{
  switch (status)
    {
    case TERRAIN_OK:            return GIMP_PDB_SUCCESS;
    case TERRAIN_CANCELLED:     return GIMP_PDB_CANCEL;
    case TERRAIN_ERROR_INVALID: return GIMP_PDB_CALLING_ERROR;
    default:                    return GIMP_PDB_EXECUTION_ERROR;
    }
}
