#include "render-errors.h"

#include "heightmap.h"

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
               _("%s: the layer holds %lu pixels that are not finite numbers (NaN or "
                 "infinity), the first at x = %d, y = %d; nothing was changed."),
               info->name, (unsigned long) count, (int) (first % width), (int) (first / width));
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
