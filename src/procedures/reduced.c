#include "reduced.h"

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
  return info->look_paint && (size_t) width * height <= TERRAIN_PAINT_LOOK_CELLS ? 1 : 0;
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

void
terrain_reduce_layer (const float *heights, int width, int height, int factor, float *reduced)
{
  const int rw = terrain_reduced_side (width, factor), rh = terrain_reduced_side (height, factor);
  for (int ry = 0; ry < rh; ry++)
    for (int rx = 0; rx < rw; rx++)
      {
        const int y_end = ry * factor + factor < height ? ry * factor + factor : height;
        const int x_end = rx * factor + factor < width ? rx * factor + factor : width;
        double    sum = 0.0;
        for (int y = ry * factor; y < y_end; y++)
          for (int x = rx * factor; x < x_end; x++)
            sum += heights[(size_t) y * width + x];
        reduced[(size_t) ry * rw + rx] =
          (float) (sum / ((double) (y_end - ry * factor) * (x_end - rx * factor)));
      }
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

/* Where the centre of pixel p of a side lies between reduced pixels *low and *high, *f of
 * the way (clamped to the reduced side's first and last centres). */
static void
between (int p, int factor, int reduced_side, int *low, int *high, float *f)
{
  double u = (p + 0.5) / factor - 0.5;
  u = u < 0.0 ? 0.0 : u > reduced_side - 1 ? reduced_side - 1 : u;
  *low = (int) u;
  *high = *low + 1 < reduced_side ? *low + 1 : *low;
  *f = (float) (u - *low);
}

/* look - base_look at reduced pixel i (base_look NULL: 0). */
static inline float
change (const float *look, const float *base_look, size_t i)
{
  return base_look ? look[i] - base_look[i] : look[i];
}

void
terrain_stretch_look (const float *look, const float *base_look, const float *base, int factor,
                      float *heights, int width, int height)
{
  const int rw = terrain_reduced_side (width, factor), rh = terrain_reduced_side (height, factor);
  for (int y = 0; y < height; y++)
    {
      int   y0, y1;
      float fy;
      between (y, factor, rh, &y0, &y1, &fy);
      for (int x = 0; x < width; x++)
        {
          int   x0, x1;
          float fx;
          between (x, factor, rw, &x0, &x1, &fx);
          const size_t top = (size_t) y0 * rw, bottom = (size_t) y1 * rw;
          const float  a = change (look, base_look, top + x0), b = change (look, base_look, top + x1);
          const float  c = change (look, base_look, bottom + x0);
          const float  d = change (look, base_look, bottom + x1);
          const float  upper = a + fx * (b - a), lower = c + fx * (d - c);
          const size_t i = (size_t) y * width + x;
          heights[i] = (base ? base[i] : 0.0f) + upper + fy * (lower - upper);
        }
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
  terrain_reduce_layer (heights, width, height, factor, look);
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
