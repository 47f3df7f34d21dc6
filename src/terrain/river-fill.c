/* River erosion: depression filling by priority-flood with epsilon (Barnes, Lehman & Mulla
 * 2014, "Priority-flood: An optimal depression-filling and watershed-labeling algorithm",
 * Computers & Geosciences 62).
 *
 * The flood grows from the outlets, always from the lowest cell reached so far (ties of
 * height by cell index); a cell is reached from a flooded neighbour, and a cell not above
 * that one is raised above it: to the next float, plus 0 to RAISE_JITTER more floats (a
 * fixed pseudo-random number per cell). Every non-outlet cell so ends strictly above the
 * cell it was reached from, a neighbour: water never stops. The jitter is for the shape of
 * the filled flats: with the next float alone their heights grow with the Chebyshev
 * distance from the spill point, in square rings, which drain along straight parallel
 * lines that later erode into grooves; with it the rings are rounder and the flats drain
 * along branching lines. A map that already drains is left as it is: a cell with a
 * strictly descending path is always reached from a lower cell first. */
#include "random.h"
#include "river-internal.h"

#include <stdlib.h>

/* Cells flooded between two progress reports. */
#define CELLS_PER_REPORT (1 << 16)
/* A raised cell goes this many floats above the next one at most. */
#define RAISE_JITTER 7

/* A float's bits as an unsigned key in the float's order (-0 just below +0). */
static uint32_t
ordered_bits (float v)
{
  uint32_t bits;
  memcpy (&bits, &v, sizeof bits);
  return bits & 0x80000000u ? ~bits : bits | 0x80000000u;
}

/* Heap entries: height in the high half, cell index in the low half. */
static uint64_t
entry (float height, size_t cell)
{
  return (uint64_t) ordered_bits (height) << 32 | (uint64_t) cell;
}

typedef struct
{
  uint64_t *item;
  size_t    size;
} Heap;

static void
sift_down (Heap *q, size_t at)
{
  const uint64_t moving = q->item[at];
  for (;;)
    {
      size_t child = 2 * at + 1;
      if (child >= q->size)
        break;
      if (child + 1 < q->size && q->item[child + 1] < q->item[child])
        child++;
      if (q->item[child] >= moving)
        break;
      q->item[at] = q->item[child];
      at = child;
    }
  q->item[at] = moving;
}

static void
push (Heap *q, uint64_t e)
{
  size_t at = q->size++;
  while (at > 0 && q->item[(at - 1) / 2] > e)
    {
      q->item[at] = q->item[(at - 1) / 2];
      at = (at - 1) / 2;
    }
  q->item[at] = e;
}

static uint64_t
pop (Heap *q)
{
  const uint64_t top = q->item[0];
  q->item[0] = q->item[--q->size];
  if (q->size > 0)
    sift_down (q, 0);
  return top;
}

/* The outlets, flooded first; `closed` marks the cells reached. */
static void
seed_outlets (const RiverGrid *g, Heap *q, uint8_t *closed)
{
  q->size = 0;
  for (size_t i = 0; i < g->cells; i++)
    {
      closed[i] = g->outlet[i];
      if (closed[i])
        q->item[q->size++] = entry (g->h[i], i);
    }
  for (size_t at = q->size / 2; at-- > 0;)
    sift_down (q, at);
}

/* The height a cell j reached from a cell at `from`, and not above it, is raised to. */
static float
raised_height (float from, size_t j)
{
  float h = river_float_above (from);
  for (uint32_t more = terrain_mix32 ((uint32_t) j) % (RAISE_JITTER + 1); more > 0; more--)
    h = river_float_above (h);
  return h;
}

/* Reaches the neighbours of cell c not reached yet. */
static void
flood_from (const RiverGrid *g, Heap *q, uint8_t *closed, size_t c, float *raised)
{
  const int x = (int) (c % g->width), y = (int) (c / g->width);
  for (int k = 0; k < RIVER_NEIGHBOURS; k++)
    {
      const ptrdiff_t j = river_neighbour (g, x, y, k);
      if (j < 0 || closed[j])
        continue;
      closed[j] = 1;
      if (g->h[j] <= g->h[c])
        {
          const float h = raised_height (g->h[c], (size_t) j);
          if (raised)
            raised[j] += h - g->h[j];
          g->h[j] = h;
        }
      push (q, entry (g->h[j], (size_t) j));
    }
}

TerrainStatus
river_fill (RiverGrid *g, float *raised, const TerrainProgress *progress, double from,
            double to)
{
  /* The heap lives in the area and sorted arrays (adjacent: 8 bytes a cell), which the
   * fill does not need. */
  Heap     q = { (uint64_t *) (void *) g->area, 0 };
  uint8_t *closed = (uint8_t *) g->donors;
  size_t   done = 0;
  seed_outlets (g, &q, closed);
  while (q.size > 0)
    {
      const double share = (double) done / (double) g->cells;
      if (done++ % CELLS_PER_REPORT == 0 &&
          terrain_progress_report (progress, from + (to - from) * share))
        return TERRAIN_CANCELLED;
      flood_from (g, &q, closed, (size_t) (pop (&q) & 0xffffffffu), raised);
    }
  return TERRAIN_OK;
}
