/* River erosion: the drainage of the flats a fill leaves, towards lower terrain and away
 * from higher terrain (Garbrecht & Martz 1997, "The assignment of drainage direction over
 * flat surfaces in raster digital elevation models", J. Hydrology 193; Barnes, Lehman &
 * Mulla 2014, "An efficient assignment of drainage direction over flat surfaces in raster
 * digital elevation models", Computers & Geosciences 62).
 *
 * The fill (river-fill.c) raises a depression to its spill level: a lake becomes a flat,
 * cells with no lower neighbour. Barnes et al. give every flat cell two distances: to the
 * flat's low edge (its cells beside a draining cell of its level) and from its high edge
 * (its cells beside higher land), and drain it down twice the first plus the second's
 * largest value less the second (here with other weights: TOWARDS_WEIGHT, EDGE_VALUE). The
 * water so leaves the shores for the middle of the lake and runs down that to the outlet,
 * converging like a valley floor's. (The analytical method's fill once raised each cell a
 * few floats above the cell it was reached from instead, as the simulation's still does:
 * heights that grow with the step count from the spill, in rings down which the water runs
 * in straight parallel lines, along the axes and the diagonals, which the incision carved
 * into 45-degree streaks.)
 *
 * Barnes et al. count the distances in grid steps, whose rings are squares too. Here a
 * distance is Euclidean, to a source found by the breadth-first walk: every cell keeps its
 * offset from its source, the nearest of those its walked neighbours offer (Danielsson's
 * propagation of the nearest point), so the lines of equal distance are round and the
 * slopes across a flat point every way, not only along the 8 grid directions.
 *
 * The value becomes height as the walk towards the low edge goes: the flat's level plus
 * FLOATS_PER_PIXEL floats for each pixel of it, but at least the float above the cell's
 * parent in the walk (walked before it: every flat cell then drains, whatever the rounding),
 * and below each neighbour of higher land, which may have drained into the flat alone.
 * Where a cell cannot be both, that neighbour is overtaken, and the fill raises it
 * (river-fill.c: raise_overtaken). One thread; the walks go in the order of the cells, so
 * the result is the same on every run. */
#include "river-internal.h"

#include <float.h>
#include <math.h>

/* Floats of height a pixel of the combined value: the slopes across a flat are told apart
 * to about a tenth, which is what the receivers' choice reads of them. */
#define FLOATS_PER_PIXEL 8

/* Barnes et al. weigh the distance to the low edge twice the distance from higher land, so
 * that every flat cell has a lower neighbour; here the parent in the walk sees to that, and
 * equal weights take the water to the middle of a lake sooner: on the bench's
 * Diamond-Square map at 1024 x 1024 the eroded lakes' aniso45 was 1.77 with 2, 1.58 with
 * 1.2 and 1.50 with 1 (the channels then wind down the valley floors instead of running
 * down them side by side). */
#define TOWARDS_WEIGHT 1.0
/* Barnes et al. also add the flat's largest distance from higher land, so that no value is
 * below the low edge's; but a lake is then raised by that much even at its outlet, above
 * the land beside it there. The distance from higher land is at most about the distance to
 * the low edge (which lies by the spill, between higher land) plus this: the values are
 * then positive where it matters, and are kept at least 1 (the parent keeps the drainage). */
#define EDGE_VALUE 2.0

/* The bits of a cell's state here, above the fill's (river-internal.h). */
enum
{
  FLAT = RIVER_FILL_FLAT,
  AWAY_QUEUED = 1 << 4,
  AWAY_DONE = 1 << 5,
  TOWARDS_QUEUED = 1 << 6,
  TOWARDS_DONE = 1 << 7
};

/* `count` floats above v (finite v; stops at FLT_MAX): -0 and +0 are one step. */
static float
floats_above (float v, uint32_t count)
{
  uint32_t bits;
  memcpy (&bits, &v, sizeof bits);
  int64_t step = bits & 0x80000000u ? -(int64_t) (bits & 0x7fffffffu) : (int64_t) bits;
  step += count;
  step = step < 0x7f7fffff ? step : 0x7f7fffff;
  bits = step < 0 ? 0x80000000u | (uint32_t) -step : (uint32_t) step;
  memcpy (&v, &bits, sizeof v);
  return v;
}

/* The neighbours of cell c (-1: off an open map). */
static void
neighbours (const RiverGrid *g, const uint8_t *state, size_t c, ptrdiff_t cell[RIVER_NEIGHBOURS])
{
  if (! (state[c] & RIVER_FILL_BORDER))
    for (int k = 0; k < RIVER_NEIGHBOURS; k++)
      cell[k] = (ptrdiff_t) c + g->offset[k];
  else
    for (int k = 0; k < RIVER_NEIGHBOURS; k++)
      cell[k] = river_neighbour (g, (int) (c % g->width), (int) (c / g->width), k);
}

/* A breadth-first walk over the flat cells: its queue, each cell's offset from its source,
 * and with `parent` the direction of the neighbour whose source it took (or of the low
 * edge's cell it was seeded from). */
typedef struct
{
  const RiverGrid *g;
  uint8_t         *state;
  int32_t         *queue;
  size_t           head, tail;
  int32_t         *dx, *dy;
  uint8_t         *parent;
  uint8_t          queued, done;
  /* Reports on [from, to] as it walks the `flats` cells. */
  const TerrainProgress *progress;
  double           from, to;
  size_t           flats;
} Walk;

/* Cells walked between two progress reports: on a map of lakes the two walks are a third
 * of a run, too long to go without one (a cancel waits for the next report). */
#define CELLS_PER_REPORT (1 << 16)

/* Reports the walk's progress every CELLS_PER_REPORT cells; 1 when cancelled. */
static int
walk_cancelled (const Walk *w)
{
  return w->head % CELLS_PER_REPORT == 0
         && terrain_progress_report (w->progress,
                                     w->from + (w->to - w->from) * w->head / w->flats);
}

static int64_t
squared (int32_t dx, int32_t dy)
{
  return (int64_t) dx * dx + (int64_t) dy * dy;
}

/* Offers cell n the offset (dx, dy) from a source, through its neighbour in direction k: it
 * takes the first one offered, then any nearer one until it is walked. */
static void
offer (Walk *w, size_t n, int32_t dx, int32_t dy, int k)
{
  const uint8_t s = w->state[n];
  if (s & w->done)
    return;
  if (s & w->queued && squared (dx, dy) >= squared (w->dx[n], w->dy[n]))
    return;
  if (! (s & w->queued))
    {
      w->state[n] = s | w->queued;
      w->queue[w->tail++] = (int32_t) n;
    }
  w->dx[n] = dx;
  w->dy[n] = dy;
  if (w->parent)
    w->parent[n] = (uint8_t) k;
}

/* Takes the next cell of the walk (the queue must not be empty) and offers its flat
 * neighbours its source; returns the cell, its neighbours and its distance from its
 * source. */
static size_t
walk_next (Walk *w, ptrdiff_t cell[RIVER_NEIGHBOURS], double *distance)
{
  const size_t c = (size_t) w->queue[w->head++];
  w->state[c] |= w->done;
  neighbours (w->g, w->state, c, cell);
  for (int k = 0; k < RIVER_NEIGHBOURS; k++)
    if (cell[k] >= 0 && w->state[cell[k]] & FLAT)
      offer (w, (size_t) cell[k], w->dx[c] + RIVER_DX[k], w->dy[c] + RIVER_DY[k], k ^ 1);
  *distance = sqrt ((double) squared (w->dx[c], w->dy[c]));
  return c;
}

/* Offers flat cell c as a source's neighbour: the nearest of its neighbours that `is_edge`
 * says are (higher ones, or draining ones of its level), axial before diagonal. */
static void
seed (Walk *w, size_t c, unsigned is_edge)
{
  for (int pass = 0; pass < 2 && is_edge; pass++)
    for (int k = pass * 4; k < pass * 4 + 4; k++)
      if (is_edge >> k & 1)
        {
          offer (w, c, -RIVER_DX[k], -RIVER_DY[k], k);
          return;
        }
}

/* Marks the flat cells among those the fill raised (none lower among its neighbours, not
 * an outlet), and queues those beside higher land as the walk away's first. The number of
 * flat cells. */
static size_t
mark_flats (const RiverGrid *g, uint8_t *state, Walk *away)
{
  size_t flats = 0;
  for (size_t c = 0; c < g->cells; c++)
    {
      if (! (state[c] & RIVER_FILL_RAISED) || g->outlet[c])
        continue;
      ptrdiff_t cell[RIVER_NEIGHBOURS];
      unsigned  lower = 0, higher = 0;
      const float here = g->h[c];
      neighbours (g, state, c, cell);
      for (int k = 0; k < RIVER_NEIGHBOURS; k++)
        if (cell[k] >= 0)
          {
            lower |= (unsigned) ((here - g->h[cell[k]]) * g->inverse_distance[k] > 0.0f) << k;
            higher |= (unsigned) (g->h[cell[k]] > here) << k;
          }
      if (lower)
        continue;
      state[c] |= FLAT;
      flats++;
      seed (away, c, higher);
    }
  return flats;
}

/* The walk away from higher land: every flat cell's distance from it, in `distance` (0 on
 * a flat that no higher land borders). */
static TerrainStatus
walk_away (Walk *w, float *distance)
{
  while (w->head < w->tail)
    {
      if (walk_cancelled (w))
        return TERRAIN_CANCELLED;
      double       d;
      ptrdiff_t    cell[RIVER_NEIGHBOURS];
      const size_t c = walk_next (w, cell, &d);
      distance[c] = (float) d;
    }
  for (size_t c = 0; c < w->g->cells; c++)
    if ((w->state[c] & (FLAT | AWAY_DONE)) == FLAT)
      distance[c] = 0.0f;
  return TERRAIN_OK;
}

/* Queues the flat cells beside a draining cell of their level (the low edge), as the walk
 * towards it begins. */
static void
seed_low_edge (const RiverGrid *g, uint8_t *state, Walk *towards)
{
  for (size_t c = 0; c < g->cells; c++)
    {
      if (! (state[c] & FLAT))
        continue;
      ptrdiff_t cell[RIVER_NEIGHBOURS];
      unsigned  drains = 0;
      neighbours (g, state, c, cell);
      for (int k = 0; k < RIVER_NEIGHBOURS; k++)
        if (cell[k] >= 0)
          drains |= (unsigned) (! (state[cell[k]] & FLAT) && g->h[cell[k]] == g->h[c]) << k;
      seed (towards, c, drains);
    }
}

/* The height of flat cell c at `level` (its neighbours in `cell`, its parent in direction
 * `parent`): its target, but below every neighbour of higher land, which may drain into it
 * alone, and above its parent, whose height is final. 1 in *overtaken when it cannot be
 * both: a neighbour of higher land then drains no more, unless raised. */
static float
flat_height (const RiverGrid *g, const uint8_t *state, const ptrdiff_t *cell, int parent,
             float level, float target, int *overtaken)
{
  float lowest = FLT_MAX;
  for (int k = 0; k < RIVER_NEIGHBOURS; k++)
    if (cell[k] >= 0 && ! (state[cell[k]] & FLAT) && g->h[cell[k]] > level)
      lowest = g->h[cell[k]] < lowest ? g->h[cell[k]] : lowest;
  const float below = nextafterf (lowest, -FLT_MAX);
  const float above = river_float_above (g->h[cell[parent]]);
  float       h = target < below ? target : below;
  h = h > above ? h : above;
  *overtaken = h >= lowest;
  return h;
}

/* The walk towards the low edge, which raises each flat cell as it goes to TOWARDS_WEIGHT x
 * its distance from the low edge - its distance from higher land (`away`) + EDGE_VALUE,
 * FLOATS_PER_PIXEL floats a pixel above its level (flat_height). Leaves the cells that
 * overtook a neighbour first in the queue, and how many in *overtook. */
static TerrainStatus
walk_towards (Walk *w, const float *away, float *raised, size_t *overtook)
{
  const RiverGrid *g = w->g;
  *overtook = 0;
  while (w->head < w->tail)
    {
      if (walk_cancelled (w))
        return TERRAIN_CANCELLED;
      double       d;
      ptrdiff_t    cell[RIVER_NEIGHBOURS];
      const size_t c = walk_next (w, cell, &d);
      const double value = fmax (TOWARDS_WEIGHT * d - away[c] + EDGE_VALUE, 1.0);
      const float  level = g->h[c];
      const float  target = floats_above (level, (uint32_t) lrint (FLOATS_PER_PIXEL * value));
      int          overtaken;
      const float  h = flat_height (g, w->state, cell, w->parent[c], level, target, &overtaken);
      if (overtaken) /* the queue's places up to the head are free */
        w->queue[(*overtook)++] = (int32_t) c;
      if (raised)
        raised[c] += h - level;
      g->h[c] = h;
    }
  return TERRAIN_OK;
}

TerrainStatus
river_drain_flats (RiverGrid *g, uint8_t *state, float *raised,
                   const TerrainProgress *progress, size_t *overtook)
{
  /* The queue in stack, the offsets in area and sorted, the distances from higher land in
   * parent, the parents in direction. */
  float *away_distance = (float *) (void *) g->parent;
  Walk away = { g, state, g->stack, 0, 0, (int32_t *) (void *) g->area,
                (int32_t *) (void *) g->sorted, NULL, AWAY_QUEUED, AWAY_DONE,
                progress, 0.0, 0.5, 0 };
  *overtook = 0;
  away.flats = mark_flats (g, state, &away);
  if (away.flats == 0)
    return TERRAIN_OK;
  if (walk_away (&away, away_distance) != TERRAIN_OK)
    return TERRAIN_CANCELLED;
  Walk towards = away;
  towards.head = towards.tail = 0;
  towards.parent = g->direction;
  towards.queued = TOWARDS_QUEUED;
  towards.done = TOWARDS_DONE;
  towards.from = 0.5;
  towards.to = 1.0;
  seed_low_edge (g, state, &towards);
  return walk_towards (&towards, away_distance, raised, overtook);
}
