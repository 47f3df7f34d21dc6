#include "terrain-common.h"

const char *
terrain_status_message (TerrainStatus status)
{
  switch (status)
    {
    case TERRAIN_OK:              return "success";
    case TERRAIN_ERROR_INVALID:   return "a parameter is out of range";
    case TERRAIN_ERROR_NO_MEMORY: return "not enough memory for a heightmap of this size";
    case TERRAIN_CANCELLED:       return "cancelled";
    }
  return "unknown status";
}

int
terrain_progress_report (const TerrainProgress *progress, double fraction)
{
  if (progress == NULL || progress->report == NULL)
    return 0;
  return progress->report (progress->user, fraction);
}

TerrainStatus
terrain_check_size (int width, int height)
{
  if (width < 1 || height < 1 || width > TERRAIN_MAX_SIDE || height > TERRAIN_MAX_SIDE)
    return TERRAIN_ERROR_INVALID;
  if ((size_t) width > SIZE_MAX / sizeof (float) / (size_t) height)
    return TERRAIN_ERROR_NO_MEMORY;
  return TERRAIN_OK;
}
