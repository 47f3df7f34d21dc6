#include "diamond-square.h"

#include "heightmap.h"
#include "lattice.h"
#include "square-square.h"

#include <math.h>
#include <stdlib.h>

/* Diamond step: the centre of every cell of side 2*half gets the mean of its 4 corners. */
static void
diamond_step (Lattice *l, int half, uint32_t seed, float amplitude)
{
  const int step = 2 * half;
  const int end_x = l->periodic ? l->nodes_x : l->nodes_x - 1;
  const int end_y = l->periodic ? l->nodes_y : l->nodes_y - 1;
  for (int j = half; j < end_y; j += step)
    {
      float       *row = lattice_row (l, j);
      const float *up = lattice_row (l, j - half);
      const float *down = lattice_row (l, j + half == l->nodes_y ? 0 : j + half);
      for (int i = half; i < end_x; i += step)
        {
          const int right = i + half == l->nodes_x ? 0 : i + half;
          row[i] = 0.25f * (up[i - half] + up[right] + down[i - half] + down[right])
                   + lattice_offset (seed, i, j, 0, amplitude);
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
      sum += lattice_row (l, y)[x];
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
      float *row = lattice_row (l, j);
      int    i = (j / half) % 2 ? 0 : half;
      if (j - half >= 0 && j + half < ny)
        {
          const float *up = lattice_row (l, j - half);
          const float *down = lattice_row (l, j + half);
          if (i == 0)
            {
              row[0] = border_mean (l, 0, j, half, edges) + lattice_offset (seed, 0, j, 0, amplitude);
              i = step;
            }
          for (; i + half < nx; i += step)
            row[i] = 0.25f * (row[i - half] + row[i + half] + up[i] + down[i])
                     + lattice_offset (seed, i, j, 0, amplitude);
        }
      for (; i < nx; i += step)
        row[i] = border_mean (l, i, j, half, edges) + lattice_offset (seed, i, j, 0, amplitude);
    }
}

static void
set_corners (Lattice *l, const TerrainDiamondSquare *p)
{
  for (int j = 0; j < l->nodes_y; j += l->cell)
    for (int i = 0; i < l->nodes_x; i += l->cell)
      lattice_row (l, j)[i] = p->corners == TERRAIN_CORNERS_FIXED
                           ? 0.0f
                           : lattice_offset (p->seed, i, j, 0, 1.0f);
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
  params->subdivision = TERRAIN_SUBDIVISION_DIAMOND_SQUARE;
  params->square_half_step = 1;
  params->guide = NULL;
  params->guide_scale = 32;
}

/* Box means of the guide from a summed-area table: sat[(y) * (w + 1) + x] is the sum over
 * [0, x) x [0, y). */
static double *
summed_area_table (const float *guide, int w, int h)
{
  double *sat = calloc ((size_t) (w + 1) * (h + 1), sizeof (double));
  if (sat == NULL)
    return NULL;
  for (int y = 0; y < h; y++)
    {
      double row = 0.0;
      for (int x = 0; x < w; x++)
        {
          float g = guide[(size_t) y * w + x];
          row += g >= 0.0f ? (g <= 1.0f ? g : 1.0f) : 0.0f; /* NaN counts as 0 */
          sat[(size_t) (y + 1) * (w + 1) + x + 1] = sat[(size_t) y * (w + 1) + x + 1] + row;
        }
    }
  return sat;
}

static double
box_mean (const double *sat, int w, int h, int cx, int cy, int size)
{
  int x0 = cx - size / 2, y0 = cy - size / 2, x1 = x0 + size, y1 = y0 + size;
  x0 = x0 < 0 ? 0 : x0;
  y0 = y0 < 0 ? 0 : y0;
  x1 = x1 > w ? w : x1;
  y1 = y1 > h ? h : y1;
  const size_t s = (size_t) w + 1;
  double sum = sat[y1 * s + x1] - sat[y0 * s + x1] - sat[y1 * s + x0] + sat[y0 * s + x0];
  return sum / ((double) (x1 - x0) * (y1 - y0));
}

/* The layer pixel a lattice node lands on (the inverse of lattice_to_layer's mapping). */
static int
node_pixel (const Lattice *l, int i, int nodes, int pixels)
{
  if (l->periodic)
    return (int) ((long long) i * pixels / nodes);
  return i < pixels ? i : pixels - 1;
}

/* Sets the nodes every `spacing` from the guide; returns 0 when out of memory. */
static int
set_guided_nodes (Lattice *l, const float *guide, int width, int height, int spacing)
{
  double *sat = summed_area_table (guide, width, height);
  if (sat == NULL)
    return 0;
  for (int j = 0; j < l->nodes_y; j += spacing)
    for (int i = 0; i < l->nodes_x; i += spacing)
      {
        const int x = node_pixel (l, i, l->nodes_x, width), y = node_pixel (l, j, l->nodes_y, height);
        lattice_row (l, j)[i] = (float) (2.0 * box_mean (sat, width, height, x, y, spacing) - 1.0);
      }
  free (sat);
  return 1;
}

/* Fills a planned, allocated lattice with diamond-square heights (corners at 0 when fixed),
 * from the guide's nodes down when there is a guide. */
static TerrainStatus
diamond_square_lattice (Lattice *l, const TerrainDiamondSquare *p, int width, int height,
                        const TerrainProgress *progress)
{
  int top = l->cell; /* spacing of the coarsest nodes already set */
  if (p->guide)
    {
      while (top > 1 && top > p->guide_scale)
        top /= 2;
      if (! set_guided_nodes (l, p->guide, width, height, top))
        return TERRAIN_ERROR_NO_MEMORY;
    }
  else
    set_corners (l, p);

  const float decay = (float) pow (2.0, -p->roughness);
  /* Square-step points lie 1/sqrt(2) as far from their parents as diamond-step points
   * do: their offsets get the half-level factor 2^(-H/2) (Voss's successive random
   * additions), which keeps the structure-function slope at 2H. */
  const float square_factor = p->square_half_step ? (float) pow (2.0, -0.5 * p->roughness) : 1.0f;
  float amplitude = decay;
  int levels = 0, level = 0;
  for (int half = l->cell / 2; half >= 1; half /= 2)
    levels++;
  for (int half = l->cell / 2; half >= 1; half /= 2, amplitude *= decay)
    {
      if (terrain_progress_report (progress, (double) level++ / (levels + 1)))
        return TERRAIN_CANCELLED;
      if (2 * half > top)
        continue; /* these nodes came from the guide */
      diamond_step (l, half, p->seed, amplitude);
      square_step (l, half, p->seed, amplitude * square_factor, p->edges);
    }
  return TERRAIN_OK;
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
      (unsigned) p->edges > TERRAIN_EDGES_MIRROR || (unsigned) p->corners > TERRAIN_CORNERS_FIXED ||
      (unsigned) p->subdivision > TERRAIN_SUBDIVISION_SQUARE_SQUARE ||
      (p->guide && (p->guide_scale < 1 || p->subdivision != TERRAIN_SUBDIVISION_DIAMOND_SQUARE)))
    return TERRAIN_ERROR_INVALID;

  const int periodic = p->edges == TERRAIN_EDGES_WRAP;
  Lattice l;
  if (p->subdivision == TERRAIN_SUBDIVISION_SQUARE_SQUARE)
    status = terrain_square_square_lattice (&l, width, height, periodic, p, progress);
  else
    {
      lattice_plan (&l, width, height, periodic);
      status = lattice_alloc (&l) ? diamond_square_lattice (&l, p, width, height, progress)
                                  : TERRAIN_ERROR_NO_MEMORY;
    }
  if (status == TERRAIN_OK)
    lattice_to_layer (&l, out, width, height);
  free (l.v);
  if (status != TERRAIN_OK)
    return status;

  const size_t n = (size_t) width * height;
  if (p->corners == TERRAIN_CORNERS_FIXED && p->guide == NULL)
    normalize_keeping_corners (out, n, (float) p->corner_height);
  else
    terrain_normalize (out, n);
  return terrain_progress_report (progress, 1.0) ? TERRAIN_CANCELLED : TERRAIN_OK;
}
