#include "diamond-square.h"

#include "heightmap.h"
#include "random.h"

#include <math.h>
#include <stdlib.h>

/* The lattice: cells_x x cells_y square cells of side `cell` (a power of two); node (i, j)
 * is v[j * nodes_x + i]. A periodic lattice has cells * cell nodes per axis (node n wraps
 * to node 0); a bounded one has one more. */
typedef struct
{
  int    cell, cells_x, cells_y;
  int    nodes_x, nodes_y;
  int    periodic;
  float *v;
} Lattice;

/* At most this many lattice nodes per layer pixel along an axis: larger coarse cells would
 * waste memory (bounded) or smear the finest detail when resampling (wrap). */
#define MAX_NODES_PER_PIXEL 1.5
/* With wrap, a cell that divides both sides exactly is preferred while the coarse grid
 * stays at most this many cells across the shorter side. */
#define MAX_EXACT_CELLS 8

static int
largest_power_of_two_at_most (int n)
{
  int p = 1;
  while (p <= n / 2)
    p *= 2;
  return p;
}

static int
cells_for (int span, int cell)
{
  return span > 0 ? (span + cell - 1) / cell : 1;
}

static void
plan_lattice (Lattice *l, int width, int height, int periodic)
{
  /* Bounded lattices need width-1 x height-1 cells' worth of span, periodic ones width x height. */
  const int span_x = periodic ? width : width - 1;
  const int span_y = periodic ? height : height - 1;
  const int shorter = span_x < span_y ? span_x : span_y;
  /* A periodic lattice of one cell has a single corner node: its largest scale would have
   * almost no random freedom (too little large-scale relief). Two cells across at least. */
  const int widest_cell = periodic ? shorter / 2 : shorter;
  int cell = largest_power_of_two_at_most (widest_cell > 1 ? widest_cell : 1);

  if (periodic)
    for (int c = cell; c >= 1 && shorter / c <= MAX_EXACT_CELLS; c /= 2)
      if (width % c == 0 && height % c == 0)
        {
          cell = c;
          goto planned;
        }
  while (cell > 1 && (cells_for (span_x, cell) * cell > MAX_NODES_PER_PIXEL * span_x ||
                      cells_for (span_y, cell) * cell > MAX_NODES_PER_PIXEL * span_y))
    cell /= 2;

planned:
  l->cell = cell;
  l->periodic = periodic;
  l->cells_x = cells_for (span_x, cell);
  l->cells_y = cells_for (span_y, cell);
  l->nodes_x = l->cells_x * cell + (periodic ? 0 : 1);
  l->nodes_y = l->cells_y * cell + (periodic ? 0 : 1);
}

static inline float
random_offset (uint32_t seed, int i, int j, float amplitude)
{
  return amplitude * terrain_hash_to_signed (terrain_hash (seed, i, j, 0));
}

static inline float *
row_of (const Lattice *l, int j)
{
  return l->v + (size_t) j * l->nodes_x;
}

/* Diamond step: the centre of every cell of side 2*half gets the mean of its 4 corners. */
static void
diamond_step (Lattice *l, int half, uint32_t seed, float amplitude)
{
  const int step = 2 * half;
  const int end_x = l->periodic ? l->nodes_x : l->nodes_x - 1;
  const int end_y = l->periodic ? l->nodes_y : l->nodes_y - 1;
  for (int j = half; j < end_y; j += step)
    {
      float       *row = row_of (l, j);
      const float *up = row_of (l, j - half);
      const float *down = row_of (l, j + half == l->nodes_y ? 0 : j + half);
      for (int i = half; i < end_x; i += step)
        {
          const int right = i + half == l->nodes_x ? 0 : i + half;
          row[i] = 0.25f * (up[i - half] + up[right] + down[i - half] + down[right])
                   + random_offset (seed, i, j, amplitude);
        }
    }
}

/* A square-step node next to the lattice border: neighbours wrap on a periodic lattice;
 * on a bounded one the edge mode decides what replaces the missing neighbour. */
static float
border_mean (const Lattice *l, int i, int j, int half, TerrainEdges edges)
{
  static const int di[4] = { -1, 1, 0, 0 };
  static const int dj[4] = { 0, 0, -1, 1 };
  float sum = 0.0f;
  int   count = 0;
  for (int k = 0; k < 4; k++)
    {
      int x = i + di[k] * half, y = j + dj[k] * half;
      if (l->periodic)
        {
          x = (x + l->nodes_x) % l->nodes_x;
          y = (y + l->nodes_y) % l->nodes_y;
        }
      else if (x < 0 || x >= l->nodes_x || y < 0 || y >= l->nodes_y)
        {
          if (edges != TERRAIN_EDGES_MIRROR)
            continue;
          x = i - di[k] * half;
          y = j - dj[k] * half;
        }
      sum += row_of (l, y)[x];
      count++;
    }
  return sum / (float) count;
}

/* Square step: every edge midpoint gets the mean of its 4 diamond neighbours. The rows
 * and columns at the border go through border_mean; the rest is a branch-free loop. */
static void
square_step (Lattice *l, int half, uint32_t seed, float amplitude, TerrainEdges edges)
{
  const int nx = l->nodes_x, ny = l->nodes_y, step = 2 * half;
  for (int j = 0; j < ny; j += half)
    {
      float *row = row_of (l, j);
      int    i = (j / half) % 2 ? 0 : half;
      if (j - half >= 0 && j + half < ny)
        {
          const float *up = row_of (l, j - half);
          const float *down = row_of (l, j + half);
          if (i == 0)
            {
              row[0] = border_mean (l, 0, j, half, edges) + random_offset (seed, 0, j, amplitude);
              i = step;
            }
          for (; i + half < nx; i += step)
            row[i] = 0.25f * (row[i - half] + row[i + half] + up[i] + down[i])
                     + random_offset (seed, i, j, amplitude);
        }
      for (; i < nx; i += step)
        row[i] = border_mean (l, i, j, half, edges) + random_offset (seed, i, j, amplitude);
    }
}

static void
set_corners (Lattice *l, const TerrainDiamondSquare *p)
{
  for (int j = 0; j < l->nodes_y; j += l->cell)
    for (int i = 0; i < l->nodes_x; i += l->cell)
      row_of (l, j)[i] = p->corners == TERRAIN_CORNERS_FIXED
                           ? 0.0f
                           : random_offset (p->seed, i, j, 1.0f);
}

/* Copies the lattice onto the layer: a crop for bounded lattices and exact periodic ones,
 * a periodic bilinear resample when the period differs from the layer size. */
static void
lattice_to_layer (const Lattice *l, float *out, int width, int height)
{
  if (! l->periodic || (l->nodes_x == width && l->nodes_y == height))
    {
      for (int y = 0; y < height; y++)
        {
          const float *src = row_of (l, y);
          for (int x = 0; x < width; x++)
            out[(size_t) y * width + x] = src[x];
        }
      return;
    }
  const double sx = (double) l->nodes_x / width, sy = (double) l->nodes_y / height;
  for (int y = 0; y < height; y++)
    {
      const double v = y * sy;
      const int    j0 = (int) v, j1 = (j0 + 1) % l->nodes_y;
      const float  fy = (float) (v - j0);
      const float *r0 = row_of (l, j0), *r1 = row_of (l, j1);
      for (int x = 0; x < width; x++)
        {
          const double u = x * sx;
          const int    i0 = (int) u, i1 = (i0 + 1) % l->nodes_x;
          const float  fx = (float) (u - i0);
          const float  top = r0[i0] + fx * (r0[i1] - r0[i0]);
          const float  bottom = r1[i0] + fx * (r1[i1] - r1[i0]);
          out[(size_t) y * width + x] = top + fy * (bottom - top);
        }
    }
}

/* Fixed corners: scale like min-max normalisation, then shift so the corners (height 0
 * before scaling) land exactly on corner_height; clamp what leaves [0, 1]. */
static void
normalize_keeping_corners (float *out, size_t n, float corner_height)
{
  float lo, hi;
  terrain_min_max (out, n, &lo, &hi);
  const float scale = hi > lo ? 1.0f / (hi - lo) : 0.0f;
  for (size_t k = 0; k < n; k++)
    {
      float v = corner_height + out[k] * scale;
      out[k] = v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
    }
}

void
terrain_diamond_square_defaults (TerrainDiamondSquare *params)
{
  params->seed = 0;
  params->roughness = 1.0;
  params->edges = TERRAIN_EDGES_AVERAGE;
  params->corners = TERRAIN_CORNERS_RANDOM;
  params->corner_height = 0.5;
}

TerrainStatus
terrain_diamond_square (const TerrainDiamondSquare *p, float *out, int width, int height,
                        const TerrainProgress *progress)
{
  TerrainStatus status = terrain_check_size (width, height);
  if (status != TERRAIN_OK)
    return status;
  if (! (p->roughness >= 0.0 && p->roughness <= 2.0) ||
      ! (p->corner_height >= 0.0 && p->corner_height <= 1.0) ||
      (unsigned) p->edges > TERRAIN_EDGES_MIRROR || (unsigned) p->corners > TERRAIN_CORNERS_FIXED)
    return TERRAIN_ERROR_INVALID;

  Lattice l;
  plan_lattice (&l, width, height, p->edges == TERRAIN_EDGES_WRAP);
  if ((size_t) l.nodes_x > SIZE_MAX / sizeof (float) / (size_t) l.nodes_y)
    return TERRAIN_ERROR_NO_MEMORY;
  l.v = malloc ((size_t) l.nodes_x * l.nodes_y * sizeof (float));
  if (l.v == NULL)
    return TERRAIN_ERROR_NO_MEMORY;

  set_corners (&l, p);
  const float decay = (float) pow (2.0, -p->roughness);
  const float half_decay = (float) pow (2.0, -0.5 * p->roughness);
  float amplitude = decay;
  int levels = 0, level = 0;
  for (int half = l.cell / 2; half >= 1; half /= 2)
    levels++;
  for (int half = l.cell / 2; half >= 1; half /= 2, amplitude *= decay)
    {
      if (terrain_progress_report (progress, (double) level++ / (levels + 1)))
        {
          free (l.v);
          return TERRAIN_CANCELLED;
        }
      /* Square-step points lie 1/sqrt(2) as far from their parents as diamond-step
       * points do: their offsets get the half-level factor 2^(-H/2) (Voss's successive
       * random additions), which keeps the structure-function slope at 2H. */
      diamond_step (&l, half, p->seed, amplitude);
      square_step (&l, half, p->seed, amplitude * half_decay, p->edges);
    }

  lattice_to_layer (&l, out, width, height);
  free (l.v);

  const size_t n = (size_t) width * height;
  if (p->corners == TERRAIN_CORNERS_FIXED)
    normalize_keeping_corners (out, n, (float) p->corner_height);
  else
    terrain_normalize (out, n);
  return terrain_progress_report (progress, 1.0) ? TERRAIN_CANCELLED : TERRAIN_OK;
}
