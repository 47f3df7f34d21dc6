/* The 3D view's reduced mesh: box averages of factor x factor pixels, summed row by row in
 * the map's order (so the same map gives the same averages however its rows are handed
 * in), at most mesh_side vertices a side. */
#include "view3d-internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

TerrainView3DMesh *
terrain_view3d_mesh_new (int width, int height, int mesh_side)
{
  if (width < 1 || height < 1 || width > TERRAIN_MAX_SIDE || height > TERRAIN_MAX_SIDE ||
      mesh_side < 2 || mesh_side > 8192)
    return NULL;
  TerrainView3DMesh *mesh = calloc (1, sizeof *mesh);
  if (mesh == NULL)
    return NULL;
  const int side = width > height ? width : height;
  mesh->width = width;
  mesh->height = height;
  mesh->factor = (side + mesh_side - 1) / mesh_side;
  mesh->cols = (width + mesh->factor - 1) / mesh->factor;
  mesh->rows = (height + mesh->factor - 1) / mesh->factor;
  mesh->finite = 1;
  mesh->sums = calloc ((size_t) mesh->cols * mesh->rows, sizeof *mesh->sums);
  mesh->heights = malloc ((size_t) mesh->cols * mesh->rows * sizeof *mesh->heights);
  if (mesh->sums == NULL || mesh->heights == NULL)
    {
      terrain_view3d_mesh_free (mesh);
      return NULL;
    }
  return mesh;
}

void
terrain_view3d_mesh_free (TerrainView3DMesh *mesh)
{
  if (mesh == NULL)
    return;
  free (mesh->sums);
  free (mesh->heights);
  free (mesh);
}

/* The averages, once the last row is in; heights clamped to what the view draws. */
static void
finish (TerrainView3DMesh *mesh)
{
  const int f = mesh->factor;
  for (int r = 0; r < mesh->rows; r++)
    for (int c = 0; c < mesh->cols; c++)
      {
        const int    bw = (c + 1) * f <= mesh->width ? f : mesh->width - c * f;
        const int    bh = (r + 1) * f <= mesh->height ? f : mesh->height - r * f;
        double       v = mesh->sums[(size_t) r * mesh->cols + c] / ((double) bw * bh);
        if (v > TERRAIN_VIEW3D_MAX_HEIGHT)
          v = TERRAIN_VIEW3D_MAX_HEIGHT;
        if (v < -TERRAIN_VIEW3D_MAX_HEIGHT)
          v = -TERRAIN_VIEW3D_MAX_HEIGHT;
        mesh->heights[(size_t) r * mesh->cols + c] = (float) v;
      }
}

void
terrain_view3d_mesh_add_rows (TerrainView3DMesh *mesh, const float *rows, int count)
{
  const int f = mesh->factor;
  for (int k = 0; k < count && mesh->rows_added < mesh->height; k++, mesh->rows_added++)
    {
      const float *row = rows + (size_t) k * mesh->width;
      double      *sums = mesh->sums + (size_t) (mesh->rows_added / f) * mesh->cols;
      for (int c = 0, x = 0; c < mesh->cols; c++)
        {
          double sum = 0.0;
          for (const int end = x + f < mesh->width ? x + f : mesh->width; x < end; x++)
            {
              if (! isfinite (row[x]))
                mesh->finite = 0;
              else
                sum += row[x];
            }
          sums[c] += sum;
        }
    }
  if (mesh->rows_added == mesh->height && mesh->finite)
    finish (mesh);
}

int
terrain_view3d_mesh_ready (const TerrainView3DMesh *mesh)
{
  return mesh != NULL && mesh->rows_added == mesh->height && mesh->finite;
}

int
terrain_view3d_mesh_same (const TerrainView3DMesh *a, const TerrainView3DMesh *b)
{
  return terrain_view3d_mesh_ready (a) && terrain_view3d_mesh_ready (b) &&
         a->width == b->width && a->height == b->height && a->cols == b->cols &&
         a->rows == b->rows &&
         memcmp (a->heights, b->heights, (size_t) a->cols * a->rows * sizeof *a->heights) == 0;
}

void
terrain_view3d_mesh_size (const TerrainView3DMesh *mesh, int *cols, int *rows)
{
  *cols = mesh->cols;
  *rows = mesh->rows;
}
