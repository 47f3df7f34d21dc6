#include "preview.h"

#include "heightmap.h"

#include <stdlib.h>

TerrainStatus
terrain_preview_rows (const TerrainProcedureInfo *info, const TerrainArgValue *values,
                      int width, int height, float *samples, int pw, int ph,
                      const TerrainProgress *progress, char *why, size_t why_size)
{
  float *row = malloc ((size_t) width * sizeof (float));
  TerrainStatus status = row ? TERRAIN_OK : TERRAIN_ERROR_NO_MEMORY;
  for (int py = 0; py < ph && status == TERRAIN_OK; py++)
    {
      /* The layer row under the centre of preview row py. */
      const int sy = (int) (((int64_t) py * 2 + 1) * height / (2 * (int64_t) ph));
      status = terrain_procedure_render_rect (info, values, row, 0, sy, width, 1, NULL, why,
                                              why_size);
      if (status == TERRAIN_OK)
        terrain_sample_nearest (row, width, 1, samples + (size_t) py * pw, pw, 1);
      if (status == TERRAIN_OK && progress && progress->report &&
          progress->report (progress->user, (double) (py + 1) / ph))
        status = TERRAIN_CANCELLED;
    }
  free (row);
  return status;
}

TerrainStatus
terrain_preview_samples (const TerrainProcedureInfo *info, const TerrainArgValue *values,
                         int width, int height, float **scratch, float *samples, int pw, int ph,
                         const TerrainProgress *progress, char *why, size_t why_size)
{
  if (info->render_rect)
    return terrain_preview_rows (info, values, width, height, samples, pw, ph, progress, why,
                                 why_size);
  if (*scratch == NULL)
    *scratch = malloc ((size_t) width * height * sizeof (float));
  if (*scratch == NULL)
    return TERRAIN_ERROR_NO_MEMORY;
  TerrainStatus status = terrain_procedure_render (info, values, *scratch, width, height,
                                                   progress, why, why_size);
  if (status == TERRAIN_OK)
    terrain_sample_nearest (*scratch, width, height, samples, pw, ph);
  return status;
}
