#include "reduced.h"

#include "heightmap.h"

#include <stdlib.h>
#include <string.h>

int
terrain_reduced_side (int side, int factor)
{
  return (side + factor - 1) / factor;
}

int
terrain_look_factor (const TerrainProcedureInfo *info, int width, int height)
{
  if (info->kind != TERRAIN_FILTER)
    return 0;
  if (info->reduce != NULL)
    {
      const int factor = terrain_reduced_factor (width, height);
      if (factor == 1)
        return 0;
      if (factor <= TERRAIN_REDUCED_MAX_FACTOR)
        return factor;
    }
  const size_t cells = (size_t) width * height;
  return info->look_paint && cells > info->look_paint_above && cells <= TERRAIN_PAINT_LOOK_CELLS
           ? 1 : 0;
}

int
terrain_reduced_factor (int width, int height)
{
  int factor = 1;
  while ((size_t) terrain_reduced_side (width, factor) * terrain_reduced_side (height, factor) >
         TERRAIN_REDUCED_CELLS)
    factor++;
  return factor;
}

/* The filter on a reduced layer, with the values reduce() makes for it. */
static TerrainStatus
filter_reduced (const TerrainProcedureInfo *info, const TerrainArgValue *values, float *reduced,
                int width, int height, int factor, const TerrainProgress *progress, char *why,
                size_t why_size)
{
  const int        count = terrain_arg_count (info);
  TerrainArgValue *reduced_values = malloc ((size_t) count * sizeof *reduced_values);
  if (reduced_values == NULL)
    return TERRAIN_ERROR_NO_MEMORY;
  memcpy (reduced_values, values, (size_t) count * sizeof *reduced_values);
  info->reduce (info, reduced_values, factor);
  const TerrainStatus status =
    terrain_procedure_render (info, reduced_values, reduced, terrain_reduced_side (width, factor),
                              terrain_reduced_side (height, factor), progress, why, why_size);
  free (reduced_values);
  return status;
}

TerrainStatus
terrain_filter_look (const TerrainProcedureInfo *info, const TerrainArgValue *values,
                     float *reduced, int width, int height, int factor,
                     const TerrainProgress *progress, char *why, size_t why_size)
{
  if (factor == 1)
    return TERRAIN_OK;
  return filter_reduced (info, values, reduced, width, height, factor, progress, why, why_size);
}

void
terrain_stretch_look (float *look, const float *base_look, const float *base, int factor,
                      float *heights, int width, int height)
{
  const size_t cells = (size_t) terrain_reduced_side (width, factor) *
                       terrain_reduced_side (height, factor);
  for (size_t i = 0; base_look && i < cells; i++)
    look[i] -= base_look[i];
  terrain_stretch_bilinear (look, factor, 0, heights, width, height);
  for (size_t i = 0; base && i < (size_t) width * height; i++)
    heights[i] += base[i];
}

void
terrain_paint_look (const float *base, const float *base_layer, size_t first, int width,
                    float *heights, int columns, int rows)
{
  for (int y = 0; y < rows; y++)
    {
      const size_t j = first + (size_t) y * width;
      float       *row = heights + (size_t) y * columns;
      for (int x = 0; x < columns; x++)
        row[x] = base[j + x] + (row[x] - base_layer[j + x]);
    }
}

TerrainStatus
terrain_procedure_render_reduced (const TerrainProcedureInfo *info,
                                  const TerrainArgValue *values, float *heights, int width,
                                  int height, int factor, const TerrainProgress *progress,
                                  char *why, size_t why_size)
{
  float *look = malloc ((size_t) terrain_reduced_side (width, factor) *
                        terrain_reduced_side (height, factor) * sizeof *look);
  if (look == NULL)
    return TERRAIN_ERROR_NO_MEMORY;
  terrain_reduce_mean (heights, width, height, factor, look);
  const TerrainStatus status =
    filter_reduced (info, values, look, width, height, factor, progress, why, why_size);
  if (status == TERRAIN_OK)
    terrain_stretch_look (look, NULL, NULL, factor, heights, width, height);
  free (look);
  return status;
}

void
terrain_reduce_in_layer_units (const TerrainProcedureInfo *info, TerrainArgValue *values,
                               int factor)
{
  (void) info;
  (void) values;
  (void) factor;
}
