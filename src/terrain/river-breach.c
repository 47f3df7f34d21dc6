/* Breaching (Lindsay 2016, "Efficient hybrid breaching-filling sink removal methods for
 * flow path enforcement in digital elevation models", Hydrological Processes 30(6)): a pit
 * drains by lowering the cells on its way down to the first cell below it, not by raising
 * it and all around it to its spill level, as a fill does. The way is found by flooding
 * from the pit, lowest cell first, as the fill floods: it crosses the rim where it is
 * lowest, and the pits of one depression drain into each other rather than each through
 * the rim on a way of its own (along the network's receivers, they cut parallel trenches).
 *
 * The analytical method's last diffusion (river-analytical.c: last_half_diffusion) raises
 * each one-pixel channel bed by what its banks pour in, which varies along the channel: the
 * beds are left with bumps and a pit behind each, and at 4096 x 4096, where a stage's
 * diffusion spans tens of pixels, with dams that hold lakes hundreds of pixels long. Filled,
 * every one became a lake level to a few floats along its valley: grey strips in the
 * hillshade, and a slope-area exponent far above a river's (tests/bench/README.md, "How
 * terrain looks"). Breached, the beds fall through. A cut is a trench of a pixel, zigzag
 * where the way does: its banks are lowered by half the cut as it is made, and after all the
 * cuts the land around them is rounded by a few steps of diffusion, as each step of the
 * simulation diffuses what the one before cut; the pits that leaves are breached in turn,
 * unrounded. */
#include "cell-heap.h"
#include "river-internal.h"

#include <stdlib.h>

/* A pit whose flood reaches no lower cell within this many cells is left to the fill. */
#define SEARCH_CELLS 65536
/* Progress is reported (and a cancel heard) after floods that saw this many cells in all:
 * pits with no way each flood up to SEARCH_CELLS cells, and a map of such pits (a line of
 * 8192 cells, heights a few floats apart, found by fuzzing) took seconds. */
#define REPORT_CELLS (1u << 20)

/* The land within ROUND_REACH cells of a cut is rounded by ROUND_STEPS explicit steps of
 * diffusion (round_cuts). Unrounded, the default Diamond-Square's speckle at 4096 x 4096
 * was 6.8 after the cuts (2.1 filled; 3.5 rounded), and 21 with its banks not lowered
 * either. */
#define ROUND_REACH 2
#define ROUND_STEPS 6

/* A cell's state: a pit before the cuts, seen by the flood at hand, near a cut (to be
 * rounded), and the direction of the cell the flood reached it from (in the bits from
 * FROM_SHIFT). */
enum
{
  PIT = 1,
  SEEN = 2,
  NEAR_CUT = 4,
  FROM_SHIFT = 4
};

typedef struct
{
  RiverGrid *g;
  float      lowest;     /* no cell is lowered below it */
  uint8_t   *state;      /* per cell */
  CellHeap   heap;       /* the flood's, SEARCH_CELLS entries */
  uint32_t  *seen;       /* the cells the flood has seen, SEARCH_CELLS */
  size_t     seen_count;
  size_t    *way;        /* the cells below the pit at hand, SEARCH_CELLS, */
  float     *line;       /* and the heights they are cut to */
  uint32_t  *near;       /* the cells NEAR_CUT (growing), */
  float     *rounded;    /* and their heights in a rounding step */
  size_t     near_count, near_room;
  int        listing;    /* cuts list the cells near them (the first breach) */
  int        failed;     /* no memory for the list */
  const TerrainProgress *progress;
  double     at;         /* the fraction reported */
  size_t     flooded;    /* cells seen by floods since the last report */
  int        cancelled;
} Breach;

static float
float_below (float v)
{
  return -river_float_above (-v);
}

/* The floats from a up to b (a <= b, both finite): their order is that of their bits read
 * as sign and magnitude. */
static int64_t
floats_between (float a, float b)
{
  int32_t ia, ib;
  memcpy (&ia, &a, sizeof ia);
  memcpy (&ib, &b, sizeof ib);
  const int64_t oa = ia < 0 ? -(int64_t) (ia & INT32_MAX) : ia;
  const int64_t ob = ib < 0 ? -(int64_t) (ib & INT32_MAX) : ib;
  return ob - oa;
}

static ptrdiff_t
neighbour (const RiverGrid *g, size_t i, int k)
{
  return river_neighbour (g, (int) (i % (size_t) g->width), (int) (i / (size_t) g->width), k);
}

/* A non-outlet cell with no neighbour strictly below it. */
static int
is_pit (const RiverGrid *g, size_t i)
{
  if (g->outlet[i])
    return 0;
  for (int k = 0; k < RIVER_NEIGHBOURS; k++)
    {
      const ptrdiff_t j = neighbour (g, i, k);
      if (j >= 0 && g->h[j] < g->h[i])
        return 0;
    }
  return 1;
}

/* Marks cell j seen, reached from direction `from` (RIVER_NONE: the pit), and queues it;
 * 0 when the flood has seen SEARCH_CELLS cells. */
static int
see (Breach *b, size_t j, int from)
{
  if (b->seen_count == SEARCH_CELLS)
    return 0;
  b->state[j] = (uint8_t) ((b->state[j] & (PIT | NEAR_CUT)) | SEEN | from << FROM_SHIFT);
  b->seen[b->seen_count++] = (uint32_t) j;
  cell_heap_push (&b->heap, b->g->h[j], (uint32_t) j);
  return 1;
}

/* Floods from the pit at cell i, lowest cell first, to the first cell below it: that cell,
 * or -1 when there is none within SEARCH_CELLS. The flood does not cross an outlet: it
 * cannot be cut. */
static ptrdiff_t
flood (Breach *b, size_t i)
{
  const RiverGrid *g = b->g;
  const float      top = g->h[i];
  b->heap.size = b->seen_count = 0;
  see (b, i, RIVER_NONE);
  while (b->heap.size > 0)
    {
      const size_t c = cell_heap_pop (&b->heap);
      if (g->h[c] < top)
        return (ptrdiff_t) c;
      for (int k = 0; k < RIVER_NEIGHBOURS; k++)
        {
          const ptrdiff_t j = neighbour (g, c, k);
          /* An outlet keeps its height: the way ends at one below the pit, or passes by. */
          if (j < 0 || (b->state[j] & SEEN) || (g->outlet[j] && ! (g->h[j] < top)))
            continue;
          if (! see (b, (size_t) j, k ^ 1))
            return -1;
        }
    }
  return -1;
}

/* The way from the pit to cell `end` the flood found, pit side first, without either: its
 * length. */
static size_t
trace_way (Breach *b, size_t end)
{
  size_t n = 0;
  for (size_t c = (size_t) neighbour (b->g, end, b->state[end] >> FROM_SHIFT);
       (b->state[c] >> FROM_SHIFT) != RIVER_NONE;
       c = (size_t) neighbour (b->g, c, b->state[c] >> FROM_SHIFT))
    b->way[n++] = c;
  for (size_t k = 0; k < n / 2; k++)
    {
      const size_t t = b->way[k];
      b->way[k] = b->way[n - 1 - k];
      b->way[n - 1 - k] = t;
    }
  return n;
}

static void
forget_seen (Breach *b)
{
  for (size_t k = 0; k < b->seen_count; k++)
    b->state[b->seen[k]] &= PIT | NEAR_CUT;
}

/* The heights of the cells way[0 .. n - 1] below a pit at `top`, down to a cell at
 * `bottom` (every one of them at or above top): on the straight line between the two, each
 * at least a float below the one before, none below b->lowest. 0 where there are not floats
 * enough between. */
static int
plan_cut (Breach *b, size_t n, float top, float bottom)
{
  const float end = bottom >= b->lowest ? bottom : float_below (b->lowest);
  if (end >= top || floats_between (end, top) <= (int64_t) n)
    return 0;
  float last = top;
  for (size_t k = 0; k < n; k++)
    {
      const float v = (float) (top + ((double) end - top) * (double) (k + 1) / (double) (n + 1));
      last = v < last ? v : float_below (last);
      b->line[k] = last;
    }
  return 1;
}

/* Lowers the neighbours of cut cell i by up to `by`, each staying above it (so that it
 * drains into i) and above b->lowest. */
static void
lower_banks (Breach *b, size_t i, double by)
{
  RiverGrid   *g = b->g;
  const float  above = river_float_above (g->h[i]);
  const double bound = above > b->lowest ? above : b->lowest;
  for (int k = 0; k < RIVER_NEIGHBOURS; k++)
    {
      const ptrdiff_t j = neighbour (g, i, k);
      if (j < 0 || g->outlet[j])
        continue;
      const double v = g->h[j] - by > bound ? g->h[j] - by : bound;
      g->h[j] = v < g->h[j] ? (float) v : g->h[j];
    }
}

/* Room for one more cell in the list. */
static int
near_room (Breach *b)
{
  if (b->near_count < b->near_room)
    return 1;
  const size_t room = b->near_room ? 2 * b->near_room : 4096;
  uint32_t    *near = realloc (b->near, room * sizeof *near);
  if (near != NULL)
    b->near = near;
  float *rounded = near != NULL ? realloc (b->rounded, room * sizeof *rounded) : NULL;
  if (rounded == NULL)
    return ! (b->failed = 1);
  b->rounded = rounded;
  b->near_room = room;
  return 1;
}

/* Marks the non-outlet cells within ROUND_REACH of cut cell i NEAR_CUT, and lists them. */
static void
mark_near (Breach *b, size_t i)
{
  const RiverGrid *g = b->g;
  const int        x = (int) (i % (size_t) g->width), y = (int) (i / (size_t) g->width);
  for (int dy = -ROUND_REACH; dy <= ROUND_REACH && b->listing && ! b->failed; dy++)
    for (int dx = -ROUND_REACH; dx <= ROUND_REACH; dx++)
      {
        int nx = x + dx, ny = y + dy;
        if (g->wrap)
          {
            nx = (nx + g->width) % g->width;
            ny = (ny + g->height) % g->height;
          }
        else if (nx < 0 || ny < 0 || nx >= g->width || ny >= g->height)
          continue;
        const size_t j = (size_t) ny * g->width + nx;
        if ((b->state[j] & NEAR_CUT) || g->outlet[j] || ! near_room (b))
          continue;
        b->state[j] |= NEAR_CUT;
        b->near[b->near_count++] = (uint32_t) j;
      }
}

/* Lowers the way onto its planned heights, and the banks of each cell by half its cut. */
static void
cut (Breach *b, size_t n)
{
  for (size_t k = 0; k < n; k++)
    {
      const float old = b->g->h[b->way[k]];
      b->g->h[b->way[k]] = b->line[k];
      lower_banks (b, b->way[k], 0.5 * ((double) old - b->line[k]));
      mark_near (b, b->way[k]);
    }
}

/* Inner cells by their neighbours' fixed offsets, the border's by river_neighbour. */
static void
mark_pits_rows (void *user, int strip, int first, int end)
{
  Breach          *b = user;
  const RiverGrid *g = b->g;
  (void) strip;
  for (int y = first; y < end; y++)
    for (int x = 0; x < g->width; x++)
      {
        const size_t i = (size_t) y * g->width + x;
        int          pit = ! g->outlet[i];
        if (x == 0 || y == 0 || x == g->width - 1 || y == g->height - 1)
          pit = is_pit (g, i);
        else
          for (int k = 0; k < RIVER_NEIGHBOURS && pit; k++)
            pit = ! (g->h[(ptrdiff_t) i + g->offset[k]] < g->h[i]);
        b->state[i] = (uint8_t) pit;
      }
}

/* Breaches the pit at cell i, if it still is one. */
static void
breach_pit (Breach *b, size_t i)
{
  const RiverGrid *g = b->g;
  if (! is_pit (g, i))
    return;
  const ptrdiff_t end = flood (b, i);
  const size_t    n = end >= 0 ? trace_way (b, (size_t) end) : 0;
  if (end >= 0 && plan_cut (b, n, g->h[i], g->h[end]))
    cut (b, n);
  forget_seen (b);
  b->flooded += b->seen_count;
  if (b->flooded >= REPORT_CELLS)
    {
      b->flooded = 0;
      b->cancelled = terrain_progress_report (b->progress, b->at);
    }
}

/* Breaches the pits of g->h. They are found in parallel and cut one after the other in
 * the order of the cells, so the result is the same for any thread count: a cut lowers,
 * and keeps each cell above the next, so it makes no new pit (a pit it drains is passed
 * over). The pits with no way, or too few floats for it, stay. */
static void
breach_pits (Breach *b)
{
  RiverGrid *g = b->g;
  terrain_parallel_rows (g->height, g->strips, g->height, mark_pits_rows, b, NULL, 0.0, 0.0);
  for (size_t i = 0; i < g->cells && ! b->cancelled; i++)
    if (b->state[i] & PIT)
      breach_pit (b, i);
}

/* Breaches the pits the rounding made: only a rounded cell, or a neighbour of one, can be
 * one. In the order of the list, so the same for any thread count. */
static void
breach_rounded (Breach *b)
{
  const RiverGrid *g = b->g;
  b->listing = 0;
  for (size_t k = 0; k < b->near_count && ! b->cancelled; k++)
    {
      breach_pit (b, b->near[k]);
      for (int d = 0; d < RIVER_NEIGHBOURS; d++)
        {
          const ptrdiff_t j = neighbour (g, b->near[k], d);
          if (j >= 0 && ! (b->state[j] & NEAR_CUT))
            breach_pit (b, (size_t) j);
        }
    }
}

/* ROUND_STEPS steps of diffusion on the cells NEAR_CUT, each step from the heights before
 * it: a cell gains an eighth of its difference from each of its four neighbours. The land
 * around stays as it is and feeds the rounded land, as banks feed a channel: kept from
 * flowing across the edge instead, the rounded land sank at its edge, a step that the
 * hillshade shows (speckle at the defaults on the default Diamond-Square 4.2 at 512 x 512
 * and 3.3 at 1024 x 1024, against 3.5 and 2.4). None goes below b->lowest unless it was
 * already. */
static void
round_cuts (Breach *b)
{
  RiverGrid *g = b->g;
  for (int step = 0; step < ROUND_STEPS; step++)
    {
      for (size_t k = 0; k < b->near_count; k++)
        {
          const size_t i = b->near[k];
          double       flow = 0.0;
          for (int d = 0; d < 4; d++)
            {
              const ptrdiff_t j = neighbour (g, i, d);
              flow += j >= 0 ? (double) g->h[j] - g->h[i] : 0.0;
            }
          const double v = g->h[i] + 0.125 * flow;
          const double floor = g->h[i] < b->lowest ? g->h[i] : b->lowest;
          b->rounded[k] = (float) (v > floor ? v : floor);
        }
      for (size_t k = 0; k < b->near_count; k++)
        g->h[b->near[k]] = b->rounded[k];
    }
}

TerrainStatus
river_breach (RiverGrid *g, float lowest, const TerrainProgress *progress, double at)
{
  Breach b = { .g = g, .lowest = lowest, .listing = 1, .progress = progress, .at = at };
  b.state = terrain_alloc (g->cells);
  b.heap.entry = malloc (SEARCH_CELLS * (sizeof *b.heap.entry + sizeof *b.way + sizeof *b.seen
                                         + sizeof *b.line));
  TerrainStatus status = TERRAIN_ERROR_NO_MEMORY;
  if (b.state != NULL && b.heap.entry != NULL)
    {
      b.way = (size_t *) (void *) (b.heap.entry + SEARCH_CELLS);
      b.seen = (uint32_t *) (void *) (b.way + SEARCH_CELLS);
      b.line = (float *) (void *) (b.seen + SEARCH_CELLS);
      breach_pits (&b);
      round_cuts (&b);
      breach_rounded (&b);
      status = b.cancelled ? TERRAIN_CANCELLED : b.failed ? TERRAIN_ERROR_NO_MEMORY : TERRAIN_OK;
    }
  terrain_free (b.state);
  free (b.heap.entry);
  free (b.near);
  free (b.rounded);
  return status;
}
