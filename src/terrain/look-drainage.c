/* The look's slope-area exponent theta (look.h), defined as the project's drainage tests
 * define it (tests/unit/drainage.c): receivers by steepest descent to one of 8 neighbours
 * (diagonals at sqrt 2, a strictly lower one only), the border draining off the map, the
 * drainage area in cells, the channel cells those of area at least a thousandth of the map.
 * Before that the map is filled by priority-flood with epsilon (Barnes, Lehman & Mulla
 * 2014), so that water passes through a closed pit, as a river through a lake: without it
 * a map of many small pits (noise, droplets) has no cell of a thousandth of a 4096^2 map's
 * area, and no figure. The slope of a cell the fill raised, or that drains into one, is
 * the fill's and not the land's, and a drop too small for 16 bits is a flat's: such cells
 * pass their water on but are left out of the fit. */
#include "cell-heap.h"
#include "look-internal.h"
#include "terrain-common.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* Channel cells drain at least cells / CHANNEL_AREA_DIVISOR cells. */
#define CHANNEL_AREA_DIVISOR 1000.0
#define NONE                 UINT32_MAX

/* Priority-flood+epsilon from the border (Barnes et al.'s algorithm 3): a cell reached from
 * one not below it is raised to the next float above that one and flooded from next, first
 * in first out, before the heap's lowest. `state` (w * h bytes, zeroed) ends RAISED for the
 * raised cells, 1 for the others; `heap` (w * h entries) and `pit` (w * h cells) are
 * scratch. */
#define RAISED 2

static void
fill (float *h, int w, int hh, uint8_t *state, CellHeapEntry *heap, uint32_t *pit)
{
  CellHeap q = { heap, 0 };
  size_t pit_first = 0, pit_end = 0;
  cell_heap_push_border (&q, h, w, hh);
  for (size_t k = 0; k < q.size; k++)
    state[q.entry[k].cell] = 1;
  while (q.size > 0 || pit_first < pit_end)
    {
      const uint32_t c = pit_first < pit_end ? pit[pit_first++] : cell_heap_pop (&q);
      const int      x = (int) (c % (uint32_t) w), y = (int) (c / (uint32_t) w);
      if (pit_first == pit_end)
        pit_first = pit_end = 0;
      for (int k = 0; k < 8; k++)
        {
          const int nx = x + CELL_NEIGHBOUR_DX[k], ny = y + CELL_NEIGHBOUR_DY[k];
          if (nx < 0 || ny < 0 || nx >= w || ny >= hh || state[(size_t) ny * w + nx])
            continue;
          const uint32_t j = (uint32_t) ((size_t) ny * w + nx);
          state[j] = 1;
          if (h[j] <= h[c])
            h[j] = nextafterf (h[c], INFINITY), state[j] = RAISED, pit[pit_end++] = j;
          else
            cell_heap_push (&q, h[j], j);
        }
    }
}

/* The slopes that are not the land's to 0: not fitted. The fill's own (a raised cell's, a
 * cell's into a raised one), and a flat's: a drop to the receiver of less than `level`, one
 * level of the map's relief in 16 bits. A 16-bit layer holds such a cell level with its
 * receiver, and the hillshade shows it flat. River Erosion drains a lake by a few floats a
 * pixel (river-flats.c); fitted, those slopes, a million times below the valley's, made
 * theta a figure of float's last bits, far from what the same map saved in 16 bits gave
 * (tests/bench/README.md, "How terrain looks"). */
static void
drop_filled_and_flat (const float *h, const uint32_t *r, const uint8_t *state, size_t n,
                      double level, float *slope)
{
  for (size_t i = 0; i < n; i++)
    if (r[i] != NONE &&
        (state[i] == RAISED || state[r[i]] == RAISED || (double) h[i] - h[r[i]] < level))
      slope[i] = 0.0f;
}

/* Steepest-descent receivers of the inner cells (NONE: the border, or no lower neighbour),
 * and the slope to each. */
static void
receivers (const float *h, int w, int hh, uint32_t *r, float *slope)
{
  for (int y = 0; y < hh; y++)
    for (int x = 0; x < w; x++)
      {
        const size_t i = (size_t) y * w + x;
        double       best = 0.0;
        r[i] = NONE;
        if (x == 0 || y == 0 || x == w - 1 || y == hh - 1)
          continue;
        for (int k = 0; k < 8; k++)
          {
            const size_t j = (size_t) (y + CELL_NEIGHBOUR_DY[k]) * w + x + CELL_NEIGHBOUR_DX[k];
            const double s = ((double) h[i] - h[j]) / (k < 4 ? 1.0 : sqrt (2.0));
            if (s > best)
              best = s, r[i] = (uint32_t) j;
          }
        slope[i] = (float) best;
      }
}

/* Drainage area in cells: donors before receivers (a cell goes when all its donors have). */
static void
areas (const uint32_t *r, size_t n, uint32_t *area, uint8_t *donors, uint32_t *queue)
{
  size_t end = 0;
  memset (donors, 0, n);
  for (size_t i = 0; i < n; i++)
    {
      area[i] = 1;
      if (r[i] != NONE)
        donors[r[i]]++;
    }
  for (size_t i = 0; i < n; i++)
    if (donors[i] == 0)
      queue[end++] = (uint32_t) i;
  for (size_t s = 0; s < end; s++)
    {
      const uint32_t c = queue[s], j = r[c];
      if (j != NONE)
        {
          area[j] += area[c];
          if (--donors[j] == 0)
            queue[end++] = j;
        }
    }
}

/* Channel areas run from a thousandth of the map to all of it: three decades, binned in
 * tenths of a decade. A bin is fitted when it holds at least BIN_MIN_CELLS cells. */
#define BINS_PER_DECADE 10
#define BINS            (3 * BINS_PER_DECADE + 1)
#define BIN_MIN_CELLS   3

/* theta = minus the least-squares slope of log S on log A over the bins of drainage area
 * (each bin's mean log A and mean log S, over its channel cells with a slope of their
 * own), and r^2. Binned, as slope-area plots are read (TopoToolbox's slopearea; Wobus et
 * al. 2006, "Tectonics from topography"): a fit over the cells themselves weighs the many
 * small channels' scatter, and gives real DEMs an r^2 of 0.1-0.3. */
static void
regress (const uint32_t *r, const uint32_t *area, const float *slope, size_t n, double *theta,
         double *r2)
{
  const double min_area = (double) n / CHANNEL_AREA_DIVISOR;
  double       bin_x[BINS] = { 0 }, bin_y[BINS] = { 0 }, bin_n[BINS] = { 0 };
  for (size_t i = 0; i < n; i++)
    if (r[i] != NONE && area[i] >= min_area && slope[i] > 0.0f)
      {
        const double lx = log ((double) area[i]);
        const int    b = (int) (BINS_PER_DECADE * log10 (area[i] / min_area));
        const int    k = b < BINS ? b : BINS - 1;
        bin_x[k] += lx, bin_y[k] += log ((double) slope[i]), bin_n[k] += 1.0;
      }
  double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0, m = 0;
  for (int k = 0; k < BINS; k++)
    if (bin_n[k] >= BIN_MIN_CELLS)
      {
        const double lx = bin_x[k] / bin_n[k], ly = bin_y[k] / bin_n[k];
        sx += lx, sy += ly, sxx += lx * lx, syy += ly * ly, sxy += lx * ly, m += 1.0;
      }
  const double vx = m * sxx - sx * sx, vy = m * syy - sy * sy, cxy = m * sxy - sx * sy;
  *theta = m >= 2.0 && vx > 0.0 ? -cxy / vx : 0.0;
  *r2 = m >= 2.0 && vx > 0.0 && vy > 0.0 ? cxy * cxy / (vx * vy) : 0.0;
}

TerrainStatus
look_slope_area (const float *heights, int width, int height, const LookRelief *relief,
                 double *theta, double *r2)
{
  const size_t n = (size_t) width * height;
  float       *h = terrain_alloc (n * sizeof (float));
  float       *slope = terrain_alloc (n * sizeof (float));
  uint32_t    *r = terrain_alloc (n * sizeof (uint32_t));
  uint32_t    *queue = terrain_alloc (n * sizeof (uint32_t));
  uint32_t    *area = terrain_alloc (n * sizeof (uint32_t));
  CellHeapEntry *heap = terrain_alloc (n * sizeof (CellHeapEntry));
  uint8_t     *scratch = terrain_calloc (n, 1);
  TerrainStatus status =
    h && slope && r && queue && area && heap && scratch ? TERRAIN_OK : TERRAIN_ERROR_NO_MEMORY;
  if (status == TERRAIN_OK)
    {
      for (size_t i = 0; i < n; i++)
        h[i] = (float) (relief->scale * (heights[i] - relief->lowest));
      fill (h, width, height, scratch, heap, queue);
      receivers (h, width, height, r, slope);
      drop_filled_and_flat (h, r, scratch, n, LOOK_RELIEF_PER_WIDTH * width / 65535.0, slope);
      areas (r, n, area, scratch, queue);
      regress (r, area, slope, n, theta, r2);
    }
  terrain_free (h);
  terrain_free (slope);
  terrain_free (r);
  terrain_free (queue);
  terrain_free (area);
  terrain_free (heap);
  terrain_free (scratch);
  return status;
}
