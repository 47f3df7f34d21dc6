#include "square-square.h"

#include "terrain-common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One axis of a refinement: n parents become 2n - 2 children (bounded: only whole parent
 * cells) or 2n (periodic). Child c sits in parent cell c/2 at 1/4 (even c) or 3/4 (odd c):
 * 3/4 of the nearer parent plus 1/4 of the farther. Applied along x then y, this gives
 * Miller's 9/16, 3/16, 3/16, 1/16. */
static inline int
children (int n, int periodic)
{
  return periodic ? 2 * n : 2 * n - 2;
}

/* Rows [first, end) of src (nx wide) refined along x into dst. */
static void
refine_rows (const float *src, int nx, float *dst, int periodic, int first, int end)
{
  const int mx = children (nx, periodic);
  for (int j = first; j < end; j++)
    {
      const float *s = src + (size_t) j * nx;
      float       *d = dst + (size_t) j * mx;
      for (int c = 0; c < mx; c++)
        {
          const int   i = c / 2, next = i + 1 == nx ? 0 : i + 1;
          const float near = c % 2 ? s[next] : s[i], far = c % 2 ? s[i] : s[next];
          d[c] = 0.75f * near + 0.25f * far;
        }
    }
}

/* Rows [first, end) of dst: src (nx x ny) refined along y (row ny wraps to row 0). */
static void
refine_columns (const float *src, int nx, int ny, float *dst, int first, int end)
{
  for (int c = first; c < end; c++)
    {
      const int    j = c / 2, next = j + 1 == ny ? 0 : j + 1;
      const float *near = src + (size_t) (c % 2 ? next : j) * nx;
      const float *far = src + (size_t) (c % 2 ? j : next) * nx;
      float       *d = dst + (size_t) c * nx;
      for (int i = 0; i < nx; i++)
        d[i] = 0.75f * near[i] + 0.25f * far[i];
    }
}

/* One level's refinement, in row strips on several threads: every row of each step below
 * reads the step before only, so the strips give the same values in any order. */
typedef struct
{
  float   *v, *scratch;
  int      nx, ny, periodic; /* the parent grid */
  uint32_t seed, level;
  float    amplitude;
} Refinement;

/* Parent rows refined along x, into scratch. */
static void
refine_rows_task (void *user, int strip, int first, int end)
{
  const Refinement *r = user;
  (void) strip;
  refine_rows (r->v, r->nx, r->scratch, r->periodic, first, end);
}

/* Child rows: scratch refined along y, into v, plus this level's offsets. */
static void
refine_columns_task (void *user, int strip, int first, int end)
{
  const Refinement *r = user;
  const int         mx = children (r->nx, r->periodic);
  (void) strip;
  refine_columns (r->scratch, mx, r->ny, r->v, first, end);
  for (int j = first; j < end; j++)
    for (int i = 0; i < mx; i++)
      r->v[(size_t) j * mx + i] += lattice_offset (r->seed, i, j, r->level, r->amplitude);
}

/* Runs task over rows [0, rows) of `columns` cells, in strips on the threads there are. */
static void
for_rows (int rows, int columns, TerrainRowsTask task, void *user)
{
  terrain_parallel_rows (rows, terrain_map_strips (rows, columns), rows,
                         task, user, NULL, 0.0, 0.0);
}

TerrainStatus
terrain_square_square_lattice (Lattice *l, int width, int height, int periodic,
                               const TerrainDiamondSquare *p, const TerrainProgress *progress)
{
  lattice_plan (l, width, height, periodic);
  int levels = 0;
  for (int c = l->cell; c > 1; c /= 2)
    levels++;
  /* Bounded grids lose a point per side per level: n0 base points per axis end as
   * cell * (n0 - 2) + 2 >= the layer's side. */
  int nx = periodic ? l->cells_x : (width > 2 ? (width - 2 + l->cell - 1) / l->cell : 0) + 2;
  int ny = periodic ? l->cells_y : (height > 2 ? (height - 2 + l->cell - 1) / l->cell : 0) + 2;
  l->nodes_x = periodic ? nx * l->cell : l->cell * (nx - 2) + 2;
  l->nodes_y = periodic ? ny * l->cell : l->cell * (ny - 2) + 2;
  l->v = NULL;
  if (! lattice_alloc (l))
    return TERRAIN_ERROR_NO_MEMORY;
  float *scratch = terrain_alloc ((size_t) l->nodes_x * l->nodes_y * sizeof (float));
  if (scratch == NULL)
    return TERRAIN_ERROR_NO_MEMORY;

  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++)
      l->v[(size_t) j * nx + i] = p->corners == TERRAIN_CORNERS_FIXED
                                    ? 0.0f : lattice_offset (p->seed, i, j, 0, 1.0f);

  const float decay = (float) pow (2.0, -p->roughness);
  float amplitude = 1.0f;
  for (int level = 1; level <= levels; level++)
    {
      if (terrain_progress_report (progress, (double) (level - 1) / (levels + 1)))
        {
          terrain_free (scratch);
          return TERRAIN_CANCELLED;
        }
      amplitude *= decay;
      Refinement r = { l->v, scratch, nx, ny, periodic, p->seed, (uint32_t) level, amplitude };
      for_rows (ny, children (nx, periodic), refine_rows_task, &r);
      for_rows (children (ny, periodic), children (nx, periodic), refine_columns_task, &r);
      nx = children (nx, periodic);
      ny = children (ny, periodic);
    }
  terrain_free (scratch);
  return TERRAIN_OK;
}
