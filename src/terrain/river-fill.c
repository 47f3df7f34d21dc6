/* River erosion: depression filling by priority-flood (Barnes, Lehman & Mulla 2014,
 * "Priority-flood: An optimal depression-filling and watershed-labeling algorithm",
 * Computers & Geosciences 62).
 *
 * The flood grows from the outlets, always from the lowest cell reached so far (ties of
 * height by cell index); a cell is reached from a flooded neighbour, and a cell not above
 * that one is raised. RIVER_FILL_PITS_FIRST (the analytical method's) raises it to that
 * one's height: a depression fills to its spill level, a flat, and the flats are then
 * drained towards their outlets and away from higher land (river-flats.c). RIVER_FILL_BY_
 * HEIGHT (the simulation's, as it has always been) raises it a few floats above that one
 * (the epsilon variant): to the next float, plus 0 to RAISE_JITTER more floats (a fixed
 * pseudo-random number per cell). Its flats' heights grow with the step count from the
 * spill, in rings (rounder with the jitter) down which the water runs in straight parallel
 * lines, which the analytical method carved into 45-degree streaks; the simulation's
 * diffusion at every step hides them. Either way every non-outlet cell ends strictly above
 * a neighbour: water never stops. A map that already drains is left as it is: a cell with a
 * strictly descending path is always reached from a lower cell first.
 *
 * RIVER_FILL_BY_HEIGHT keeps every cell reached in the heap, in that order. The heap is
 * most of the fill's time, and RIVER_FILL_PITS_FIRST keeps two kinds of cell out of it:
 * a raised cell is flooded from next, first in first out (Barnes et al.'s "improved"
 * variant: everything in the heap is at least as high as the pit), and so is a cell up a
 * slope whose neighbours not reached yet are all higher: they drain through it whenever
 * they are reached (Zhou, Sun & Fu 2016, "An efficient variant of the Priority-Flood
 * algorithm for filling depressions in raster digital elevation models", Computers &
 * Geosciences 90). A cell up a slope with a neighbour not higher waits in the heap for its
 * turn, so a depression is still entered at its spill point, and every cell gets its spill
 * level, as by height; pits first is about twice as fast. */
#include "random.h"
#include "river-internal.h"

#include <stdlib.h>

/* Cells flooded between two progress reports. */
#define CELLS_PER_REPORT (1 << 16)
/* The flood's share of the fill's progress where flats are drained (on a map of lakes the
 * drainage takes about as long). */
#define FLOOD_SHARE 0.5
/* A raised cell goes this many floats above the next one at most (RIVER_FILL_BY_HEIGHT). */
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

/* A 4-ary heap (half the levels of a binary one) whose HEAP_ARITY - 1 items past the last
 * are always HEAP_EMPTY (the arrays have spare places), so that the sift-down picks the
 * least child by comparisons, not branches: which child is least is a toss, mispredicted
 * most of the time, and a third of a Diamond-Square map's cells pass through the heap.
 * Keys are unique (the cell index is in them): any heap pops the same order. */
#define HEAP_ARITY 4
#define HEAP_EMPTY UINT64_MAX

typedef struct
{
  uint64_t *item;
  size_t    size;
} Heap;

/* The place of the least of the HEAP_ARITY items from place `first` on. */
static size_t
least_child (const uint64_t *item, size_t first)
{
  const size_t   a = first + (item[first + 1] < item[first]);
  const size_t   b = first + 2 + (item[first + 3] < item[first + 2]);
  return item[b] < item[a] ? b : a;
}

static void
sift_down (Heap *q, size_t at)
{
  uint64_t *restrict item = q->item;
  const uint64_t     moving = item[at];
  for (;;)
    {
      const size_t first = HEAP_ARITY * at + 1;
      if (first >= q->size)
        break;
      const size_t child = least_child (item, first);
      if (item[child] >= moving)
        break;
      item[at] = item[child];
      at = child;
    }
  item[at] = moving;
}

static void
push (Heap *q, uint64_t e)
{
  size_t at = q->size++;
  q->item[q->size + HEAP_ARITY - 2] = HEAP_EMPTY;
  while (at > 0 && q->item[(at - 1) / HEAP_ARITY] > e)
    {
      q->item[at] = q->item[(at - 1) / HEAP_ARITY];
      at = (at - 1) / HEAP_ARITY;
    }
  q->item[at] = e;
}

static uint64_t
pop (Heap *q)
{
  const uint64_t top = q->item[0];
  q->item[0] = q->item[--q->size];
  q->item[q->size] = HEAP_EMPTY;
  if (q->size > 0)
    sift_down (q, 0);
  return top;
}

/* A cell's flags in the fill (river-internal.h); the border bit spares the flood a
 * division to find every cell's row. */
enum { REACHED = RIVER_FILL_REACHED, BORDER = RIVER_FILL_BORDER, RAISED = RIVER_FILL_RAISED };

/* The outlets, flooded first; `state` marks the cells reached and the border. */
static void
seed_outlets (const RiverGrid *g, Heap *q, uint8_t *state)
{
  q->size = 0;
  for (size_t i = 0; i < g->cells; i++)
    {
      state[i] = g->outlet[i] ? REACHED : 0;
      if (g->outlet[i])
        q->item[q->size++] = entry (g->h[i], i);
    }
  for (int k = 0; k < HEAP_ARITY - 1; k++)
    q->item[q->size + k] = HEAP_EMPTY;
  for (size_t at = (q->size + HEAP_ARITY - 2) / HEAP_ARITY; at-- > 0;)
    sift_down (q, at);
  const size_t w = (size_t) g->width, last_row = g->cells - w;
  for (size_t x = 0; x < w; x++)
    state[x] |= BORDER, state[last_row + x] |= BORDER;
  for (size_t row = 0; row < g->cells; row += w)
    state[row] |= BORDER, state[row + w - 1] |= BORDER;
}

float
river_raised_height (float from, size_t j)
{
  float h = river_float_above (from);
  for (uint32_t more = terrain_mix32 ((uint32_t) j) % (RAISE_JITTER + 1); more > 0; more--)
    h = river_float_above (h);
  return h;
}

/* A first-in first-out queue of cells. */
typedef struct
{
  int32_t *cell;
  size_t   head, tail;
} Fifo;

/* The flood: the heap, and when pits go first, the cells raised and the cells up a slope
 * not flooded from yet. */
typedef struct
{
  Heap heap;
  int  pits_first;
  Fifo pits, slopes;
  int  flat_lakes; /* lakes raised flat, then drained (river-flats.c), else a float a cell */
} Flood;

/* A cell's neighbourhood in the flood: cell[k] is the index of neighbour k (c's own off
 * an open map); bit k of `open` is set when that neighbour is on the map and not reached
 * yet, of `not_higher` when it is on the map and not higher than the cell. An interior cell
 * reads its 8 neighbours without a branch or a loop: the flood's tests are on these bits,
 * not one neighbour at a time. On a wrapped map 1 or 2 cells across, several directions
 * lead to one cell, so the loops that reach the neighbours check each one again before
 * they mark it. */
typedef struct
{
  size_t   cell[RIVER_NEIGHBOURS];
  unsigned open, not_higher;
} Neighbourhood;

/* neighbourhood () of a cell on the map's edge, found by its position. */
static void
edge_neighbourhood (const RiverGrid *g, const uint8_t *state, size_t c, Neighbourhood *n)
{
  const float here = g->h[c];
  n->open = n->not_higher = 0;
  for (int k = 0; k < RIVER_NEIGHBOURS; k++)
    {
      const ptrdiff_t j = river_neighbour (g, (int) (c % g->width), (int) (c / g->width), k);
      n->cell[k] = j < 0 ? c : (size_t) j;
      n->open |= j < 0 ? 0u : (unsigned) (~state[j] & REACHED) << k;
      n->not_higher |= j < 0 ? 0u : (unsigned) (g->h[j] <= here) << k;
    }
}

static void
neighbourhood (const RiverGrid *g, const uint8_t *state, size_t c, Neighbourhood *n)
{
  if (state[c] & BORDER)
    {
      edge_neighbourhood (g, state, c, n);
      return;
    }
  const float here = g->h[c];
  unsigned    open = 0, not_higher = 0;
#define NEIGHBOUR(k)                                                                          \
  n->cell[k] = c + (size_t) g->offset[k];                                                    \
  open |= (unsigned) (~state[n->cell[k]] & REACHED) << (k);                                  \
  not_higher |= (unsigned) (g->h[n->cell[k]] <= here) << (k);
  NEIGHBOUR (0) NEIGHBOUR (1) NEIGHBOUR (2) NEIGHBOUR (3)
  NEIGHBOUR (4) NEIGHBOUR (5) NEIGHBOUR (6) NEIGHBOUR (7)
#undef NEIGHBOUR
  n->open = open;
  n->not_higher = not_higher;
}

/* Reaches the neighbours of cell c not reached yet. */
static void
flood_from (const RiverGrid *g, Flood *f, uint8_t *state, size_t c, float *raised)
{
  Neighbourhood n;
  neighbourhood (g, state, c, &n);
  while (n.open)
    {
      const int    k = river_take_lowest (&n.open);
      const size_t j = n.cell[k];
      if (state[j] & REACHED)
        continue;
      state[j] |= REACHED;
      Fifo *fifo = &f->slopes;
      if (n.not_higher >> k & 1)
        {
          const float h = f->flat_lakes ? g->h[c] : river_raised_height (g->h[c], j);
          if (raised)
            raised[j] += h - g->h[j];
          g->h[j] = h;
          state[j] |= RAISED;
          fifo = &f->pits;
        }
      if (f->pits_first)
        fifo->cell[fifo->tail++] = (int32_t) j;
      else
        push (&f->heap, entry (g->h[j], j));
    }
}

/* A cell up a slope whose neighbours not reached yet are all higher reaches them now: they
 * drain through it whenever they are reached. One with a neighbour not higher waits in the
 * heap for its height's turn, as the flood by height would have it. */
static void
climb_from (const RiverGrid *g, Flood *f, uint8_t *state, size_t c)
{
  Neighbourhood n;
  neighbourhood (g, state, c, &n);
  if (n.open & n.not_higher)
    {
      push (&f->heap, entry (g->h[c], c));
      return;
    }
  while (n.open)
    {
      const size_t j = n.cell[river_take_lowest (&n.open)];
      if (state[j] & REACHED)
        continue;
      state[j] |= REACHED;
      f->slopes.cell[f->slopes.tail++] = (int32_t) j;
    }
}

/* ---- Cells the flats' drainage left without a lower neighbour ----
 * A flat cell raised to or above a neighbour of higher land that drained into it alone
 * (river-flats.c) leaves that one a pit: it is raised to the float above the cell, and so
 * on, as the fill would raise it, always from the lowest cell raised so far. A raised
 * cell's neighbours not above it are looked at when it is taken: those with no lower
 * neighbour left are raised in turn. Every other cell still drains as it did.
 *
 * A cell waits in the heap once at most, marked by its REACHED bit cleared (every cell is
 * reached by then): a cell raised again while it waits is looked at when taken, at its
 * height then. Queued once a raise, a 32 x 16 lake's cells took 662 places of the heap's
 * 512 and wrote past it (the fuzzer). */

/* neighbourhood () for a cell found by its position, not by the border bit: after the
 * flats' drainage (river-flats.c, which shares the fill's memory) the fuzzer found a cell of
 * an 8192 x 1 map read as an inner one here (a pointer before the map). Taken only for the
 * few cells the drainage leaves to raise. */
static void
neighbourhood_at (const RiverGrid *g, const uint8_t *state, size_t c, Neighbourhood *n)
{
  const size_t w = (size_t) g->width, x = c % w;
  if (x > 0 && x + 1 < w && c >= w && c + w < g->cells)
    neighbourhood (g, state, c, n);
  else
    edge_neighbourhood (g, state, c, n);
}

/* Whether cell c has a strictly lower neighbour. */
static int
has_lower (const RiverGrid *g, const uint8_t *state, size_t c)
{
  Neighbourhood n;
  neighbourhood_at (g, state, c, &n);
  for (int k = 0; k < RIVER_NEIGHBOURS; k++)
    if (n.cell[k] != c && (g->h[c] - g->h[n.cell[k]]) * g->inverse_distance[k] > 0.0f)
      return 1;
  return 0;
}

/* Queues cell j unless it waits already. */
static void
queue_raised (const RiverGrid *g, Heap *q, uint8_t *state, size_t j)
{
  if (! (state[j] & REACHED))
    return;
  state[j] &= (uint8_t) ~REACHED;
  push (q, entry (g->h[j], j));
}

static void
raise_from (const RiverGrid *g, Heap *q, uint8_t *state, size_t c, float *raised)
{
  Neighbourhood n;
  neighbourhood_at (g, state, c, &n);
  unsigned reach = n.not_higher;
  while (reach)
    {
      const size_t j = n.cell[river_take_lowest (&reach)];
      if (g->outlet[j] || has_lower (g, state, j))
        continue;
      const float h = river_float_above (g->h[c]);
      if (raised)
        raised[j] += h - g->h[j];
      g->h[j] = h;
      queue_raised (g, q, state, j);
    }
}

/* From the `count` flat cells first in g->stack that came to or above a neighbour, with the
 * heap. */
static void
raise_overtaken (const RiverGrid *g, Heap *q, uint8_t *state, size_t count, float *raised)
{
  q->size = 0;
  for (int k = 0; k < HEAP_ARITY - 1; k++)
    q->item[k] = HEAP_EMPTY;
  for (size_t s = 0; s < count; s++)
    queue_raised (g, q, state, (size_t) g->stack[s]);
  while (q->size > 0)
    {
      const size_t c = (size_t) (pop (q) & 0xffffffffu);
      state[c] |= REACHED;
      raise_from (g, q, state, c, raised);
    }
}

/* The share of the fill's work done after `done` cells. */
static double
fill_share (const RiverGrid *g, size_t done)
{
  return done < g->cells ? (double) done / (double) g->cells : 1.0;
}

TerrainStatus
river_fill (RiverGrid *g, RiverFillOrder order, float *raised, const TerrainProgress *progress,
            double from, double to)
{
  /* The heap lives in the area and sorted arrays (adjacent: 8 bytes a cell), the queues in
   * the stack and parent: the fill needs none of them. */
  Flood    f = { { (uint64_t *) (void *) g->area, 0 }, order == RIVER_FILL_PITS_FIRST,
                 { g->stack, 0, 0 }, { g->parent, 0, 0 }, 0 };
  /* On maps less than 3 cells across the flats' drainage left pits (the fuzzer's 8192 x 1
   * and 1 x 300): their lakes are raised a float a cell, as the simulation's are. */
  f.flat_lakes = f.pits_first && g->width >= 3 && g->cells / (size_t) g->width >= 3;
  uint8_t *state = (uint8_t *) g->donors;
  size_t   done = 0;
  /* The flood's share of [from, to]; the flats' drainage has the rest. */
  const double flooded = f.flat_lakes ? from + FLOOD_SHARE * (to - from) : to;
  seed_outlets (g, &f.heap, state);
  while (f.heap.size > 0 || f.pits.head < f.pits.tail || f.slopes.head < f.slopes.tail)
    {
      /* A cell up a slope that waits in the heap is taken twice. */
      if (done++ % CELLS_PER_REPORT == 0 &&
          terrain_progress_report (progress, from + (flooded - from) * fill_share (g, done - 1)))
        return TERRAIN_CANCELLED;
      if (f.slopes.head < f.slopes.tail)
        climb_from (g, &f, state, (size_t) f.slopes.cell[f.slopes.head++]);
      else
        flood_from (g, &f, state,
                    f.pits.head < f.pits.tail ? (size_t) f.pits.cell[f.pits.head++]
                                              : (size_t) (pop (&f.heap) & 0xffffffffu),
                    raised);
    }
  if (! f.flat_lakes)
    return TERRAIN_OK;
  TerrainProgressStage flats_part;
  size_t               overtook;
  if (river_drain_flats (g, state, raised,
                         terrain_progress_stage (&flats_part, progress, flooded, to), &overtook)
      != TERRAIN_OK)
    return TERRAIN_CANCELLED;
  if (overtook > 0)
    raise_overtaken (g, &f.heap, state, overtook, raised);
  return TERRAIN_OK;
}
