/* The look's slope-area exponent theta (look.h), defined as the project's drainage tests
 * define it (tests/unit/drainage.c): receivers by steepest descent to one of 8 neighbours
 * (diagonals at sqrt 2, a strictly lower one only), the border draining off the map, the
 * drainage area in cells, the channel cells those of area at least a thousandth of the map.
 * Before that the map is filled by priority-flood with epsilon (Barnes, Lehman & Mulla
 * 2014), so that water passes through a closed pit, as a river through a lake: without it
 * a map of many small pits (noise, droplets) has no cell of a thousandth of a 4096^2 map's
 * area, and no figure. The slope of a cell the fill raised, or that drains into one, is
 * the fill's and not the land's: such cells pass their water on but are left out of the
 * fit. */
#include "look-internal.h"
#include "terrain-common.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* Channel cells drain at least cells / CHANNEL_AREA_DIVISOR cells. */
#define CHANNEL_AREA_DIVISOR 1000.0
#define NONE                 UINT32_MAX

static const int DX[8] = { 0, 0, -1, 1, -1, 1, 1, -1 };
static const int DY[8] = { -1, 1, 0, 0, -1, 1, -1, 1 };

/* A binary min-heap of cells by height, ties by index (so the fill is the same every run). */
typedef struct
{
  uint32_t    *cell;
  size_t       size;
  const float *h;
} Heap;

static int
heap_less (const Heap *q, uint32_t a, uint32_t b)
{
  return q->h[a] < q->h[b] || (q->h[a] == q->h[b] && a < b);
}

static void
heap_push (Heap *q, uint32_t c)
{
  size_t i = q->size++;
  for (; i > 0 && heap_less (q, c, q->cell[(i - 1) / 2]); i = (i - 1) / 2)
    q->cell[i] = q->cell[(i - 1) / 2];
  q->cell[i] = c;
}

static uint32_t
heap_pop (Heap *q)
{
  const uint32_t top = q->cell[0], last = q->cell[--q->size];
  size_t         i = 0;
  for (size_t child; (child = 2 * i + 1) < q->size; i = child)
    {
      if (child + 1 < q->size && heap_less (q, q->cell[child + 1], q->cell[child]))
        child++;
      if (! heap_less (q, q->cell[child], last))
        break;
      q->cell[i] = q->cell[child];
    }
  if (q->size > 0)
    q->cell[i] = last;
  return top;
}

/* Priority-flood+epsilon from the border: a cell reached from one not below it is raised to
 * the next float above that one. `state` (w * h bytes, zeroed) ends RAISED for the raised
 * cells, 1 for the others; `queue` (w * h cells) is the heap. */
#define RAISED 2

static void
fill (float *h, int w, int hh, uint8_t *state, uint32_t *queue)
{
  Heap q = { queue, 0, h };
  for (int y = 0; y < hh; y++)
    for (int x = 0; x < w; x++)
      if (x == 0 || y == 0 || x == w - 1 || y == hh - 1)
        state[(size_t) y * w + x] = 1, heap_push (&q, (uint32_t) ((size_t) y * w + x));
  while (q.size > 0)
    {
      const uint32_t c = heap_pop (&q);
      const int      x = (int) (c % (uint32_t) w), y = (int) (c / (uint32_t) w);
      for (int k = 0; k < 8; k++)
        {
          const int nx = x + DX[k], ny = y + DY[k];
          if (nx < 0 || ny < 0 || nx >= w || ny >= hh || state[(size_t) ny * w + nx])
            continue;
          const uint32_t j = (uint32_t) ((size_t) ny * w + nx);
          state[j] = 1;
          if (h[j] <= h[c])
            h[j] = nextafterf (h[c], INFINITY), state[j] = RAISED;
          heap_push (&q, j);
        }
    }
}

/* The fill's own slopes (a raised cell's, a cell's into a raised one) to 0: not fitted. */
static void
drop_filled (const uint32_t *r, const uint8_t *state, size_t n, float *slope)
{
  for (size_t i = 0; i < n; i++)
    if (r[i] != NONE && (state[i] == RAISED || state[r[i]] == RAISED))
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
            const size_t j = (size_t) (y + DY[k]) * w + x + DX[k];
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

/* theta = minus the least-squares slope of log S on log A over the channel cells with a
 * slope of their own, and r^2. */
static void
regress (const uint32_t *r, const uint32_t *area, const float *slope, size_t n, double *theta,
         double *r2)
{
  const double min_area = (double) n / CHANNEL_AREA_DIVISOR;
  double       sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0, m = 0;
  for (size_t i = 0; i < n; i++)
    if (r[i] != NONE && area[i] >= min_area && slope[i] > 0.0f)
      {
        const double lx = log ((double) area[i]), ly = log ((double) slope[i]);
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
  uint8_t     *scratch = terrain_calloc (n, 1);
  TerrainStatus status =
    h && slope && r && queue && area && scratch ? TERRAIN_OK : TERRAIN_ERROR_NO_MEMORY;
  if (status == TERRAIN_OK)
    {
      for (size_t i = 0; i < n; i++)
        h[i] = (float) (relief->scale * (heights[i] - relief->lowest));
      fill (h, width, height, scratch, queue);
      receivers (h, width, height, r, slope);
      drop_filled (r, scratch, n, slope);
      areas (r, n, area, scratch, queue);
      regress (r, area, slope, n, theta, r2);
    }
  terrain_free (h);
  terrain_free (slope);
  terrain_free (r);
  terrain_free (queue);
  terrain_free (area);
  terrain_free (scratch);
  return status;
}
