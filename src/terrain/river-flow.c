/* River erosion: D8 receivers, the receiver order ("stack") and drainage area (Braun &
 * Willett 2013), and the pit count. */
#include "random.h"
#include "river-internal.h"

#include <math.h>
#include <stdatomic.h>

const int RIVER_DX[RIVER_NEIGHBOURS] = { 0, 0, -1, 1, -1, 1, 1, -1 };
const int RIVER_DY[RIVER_NEIGHBOURS] = { -1, 1, 0, 0, -1, 1, -1, 1 };

/* Cells between two progress reports with one strip: a few milliseconds of work. */
#define CELLS_PER_REPORT (1 << 18)

void
river_grid_init (RiverGrid *g, int width, int height, int wrap)
{
  g->width = width;
  g->height = height;
  g->cells = (size_t) width * height;
  g->wrap = wrap;
  g->largest_root = -1;
  for (int k = 0; k < RIVER_NEIGHBOURS; k++)
    {
      g->offset[k] = (ptrdiff_t) RIVER_DY[k] * width + RIVER_DX[k];
      g->inverse_distance[k] = k < 4 ? 1.0f : (float) (1.0 / sqrt (2.0));
    }
}

/* Among neighbours of equal slope, cell i prefers those whose bit is set in prefer[i]: a
 * fixed pseudo-random choice, so that flats do not drain in parallel lines as a fixed
 * order of directions would make them (layers of 8 or 16 bits have many equal steps). */
static void
preferences_rows (void *user, int strip, int first, int end)
{
  RiverGrid *g = user;
  (void) strip;
  for (size_t i = (size_t) first * g->width; i < (size_t) end * g->width; i++)
    g->prefer[i] = (uint8_t) (terrain_mix32 ((uint32_t) i) >> 24);
}

void
river_set_preferences (RiverGrid *g)
{
  terrain_parallel_rows (g->height, g->strips, g->height, preferences_rows, g, NULL, 0.0, 0.0);
}

static int
report_rows (const RiverGrid *g)
{
  const int rows = CELLS_PER_REPORT / g->width;
  return rows > 1 ? rows : 1;
}

/* ---- Receivers ---- */

/* Outlets of row y from the heights: the border when open, cells at or below the sea, and
 * the lowest cell. */
static void
row_outlets (RiverGrid *g, int y)
{
  const size_t row = (size_t) y * g->width, w = (size_t) g->width;
  const float  sea = g->sea;
  const float *restrict h = g->h + row;
  uint8_t *restrict     outlet = g->outlet + row;
  for (size_t x = 0; x < w; x++)
    outlet[x] = h[x] <= sea;
  if (! g->wrap && (y == 0 || y == g->height - 1))
    memset (g->outlet + row, 1, w);
  else if (! g->wrap)
    g->outlet[row] = g->outlet[row + w - 1] = 1;
  if (g->lowest >= (ptrdiff_t) row && g->lowest < (ptrdiff_t) (row + w))
    g->outlet[g->lowest] = 1;
}

/* ---- Row kernels ----
 * Interior cells go BLOCK at a time through loops of a constant trip count with no branch,
 * which GCC (even at -O2) vectorises; the last block of a row is moved back to end at the
 * row's last interior cell, computing a few cells again to the same bits. Border cells and
 * short rows take the same inline functions through a copy of their neighbourhood, so a
 * cell's result depends on its neighbourhood only. */

#define BLOCK 16

#if defined(__GNUC__) || defined(__clang__)
#define ALWAYS_INLINE static inline __attribute__ ((always_inline))
#else
#define ALWAYS_INLINE static inline
#endif

ALWAYS_INLINE uint32_t
float_bits (float v)
{
  uint32_t bits;
  memcpy (&bits, &v, sizeof bits);
  return bits;
}

/* Keeps direction k when the slope from `here` to `there` is the largest > 0 so far, or
 * equal to it and preferred. The tests are on the bits of best - slope: comparisons here
 * become branches. */
ALWAYS_INLINE void
consider (float here, float there, uint32_t k, float inverse_distance, uint32_t prefer,
          float *best, uint32_t *best_k)
{
  const float    slope = (here - there) * inverse_distance;
  const uint32_t difference = float_bits (*best - slope);
  const uint32_t steeper = 0u - (difference >> 31);
  const uint32_t tied = 0u - (uint32_t) ((difference << 1) == 0 && float_bits (*best) != 0);
  const uint32_t take = steeper | (tied & (0u - (prefer >> k & 1)));
  *best_k ^= (*best_k ^ k) & take;
  *best = slope > *best ? slope : *best;
}

/* The direction of the receiver of the cell at h[0] (RIVER_NONE for an outlet): its
 * neighbour of steepest descent; among equal slopes, one whose bit is set in `prefer`. */
ALWAYS_INLINE uint8_t
steepest (const float *h, const ptrdiff_t *offset, const float *inverse_distance,
          uint32_t prefer, uint8_t outlet)
{
  const float    here = h[0];
  float          best = 0.0f;
  uint32_t       k = RIVER_NONE;
  consider (here, h[offset[0]], 0, inverse_distance[0], prefer, &best, &k);
  consider (here, h[offset[1]], 1, inverse_distance[1], prefer, &best, &k);
  consider (here, h[offset[2]], 2, inverse_distance[2], prefer, &best, &k);
  consider (here, h[offset[3]], 3, inverse_distance[3], prefer, &best, &k);
  consider (here, h[offset[4]], 4, inverse_distance[4], prefer, &best, &k);
  consider (here, h[offset[5]], 5, inverse_distance[5], prefer, &best, &k);
  consider (here, h[offset[6]], 6, inverse_distance[6], prefer, &best, &k);
  consider (here, h[offset[7]], 7, inverse_distance[7], prefer, &best, &k);
  const uint32_t is_outlet = 0u - (uint32_t) (outlet != 0);
  return (uint8_t) ((k & ~is_outlet) | (RIVER_NONE & is_outlet));
}

/* Bit k when neighbour k (direction[offset[k]]) drains into the cell at direction[0]. */
ALWAYS_INLINE uint16_t
donor_bits (const uint8_t *d, const ptrdiff_t *offset)
{
  return (uint16_t) ((d[offset[0]] == 1) | (d[offset[1]] == 0) << 1 | (d[offset[2]] == 3) << 2 |
                     (d[offset[3]] == 2) << 3 | (d[offset[4]] == 5) << 4 |
                     (d[offset[5]] == 4) << 5 | (d[offset[6]] == 7) << 6 |
                     (d[offset[7]] == 6) << 7);
}

ALWAYS_INLINE void
receivers_block (const float *restrict h, const uint8_t *restrict outlet,
                 const uint8_t *restrict prefer, uint8_t *restrict direction,
                 const ptrdiff_t *restrict offset, const float *restrict inverse_distance)
{
  for (int x = 0; x < BLOCK; x++)
    direction[x] = steepest (h + x, offset, inverse_distance, prefer[x], outlet[x]);
}

ALWAYS_INLINE void
donors_block (const uint8_t *restrict direction, uint16_t *restrict donors,
              const ptrdiff_t *restrict offset)
{
  for (int x = 0; x < BLOCK; x++)
    donors[x] = donor_bits (direction + x, offset);
}

/* The first block of the interior columns [1, end), and the one after the block at x;
 * -1 when there is none (rows shorter than a block go cell by cell). */
static int
first_block (int end)
{
  return end - 1 >= BLOCK ? 1 : -1;
}

static int
next_block (int x, int end)
{
  return x + BLOCK >= end ? -1 : x + 2 * BLOCK <= end ? x + BLOCK : end - BLOCK;
}

/* The receivers, then the donor bits, of the interior cells of the row at `row`, of a
 * width of at least BLOCK + 2. */
ALWAYS_INLINE void
receivers_interior_cells (RiverGrid *g, size_t row)
{
  const int w = g->width;
  for (int x = first_block (w - 1); x > 0; x = next_block (x, w - 1))
    receivers_block (g->h + row + x, g->outlet + row + x, g->prefer + row + x,
                     g->direction + row + x, g->offset, g->inverse_distance);
}

ALWAYS_INLINE void
donors_interior_cells (RiverGrid *g, size_t row)
{
  const int w = g->width;
  for (int x = first_block (w - 1); x > 0; x = next_block (x, w - 1))
    donors_block (g->direction + row + x, g->donors + row + x, g->offset);
}

static void
receivers_interior (RiverGrid *g, size_t row)
{
  receivers_interior_cells (g, row);
}

static void
donors_interior (RiverGrid *g, size_t row)
{
  donors_interior_cells (g, row);
}

/* The same compiled for AVX2 where the processor has it (chosen at run time, as Hydraulic
 * Erosion's brush): the same operations on each cell, 8 cells a vector instead of 4, so the
 * same bits. */
#if defined(__GNUC__) && defined(__x86_64__)
#define RIVER_AVX2 1
__attribute__ ((target ("avx2"))) static void
receivers_interior_avx2 (RiverGrid *g, size_t row)
{
  receivers_interior_cells (g, row);
}

__attribute__ ((target ("avx2"))) static void
donors_interior_avx2 (RiverGrid *g, size_t row)
{
  donors_interior_cells (g, row);
}
#endif

typedef void (*RowKernel) (RiverGrid *g, size_t row);

/* The row kernels for this processor: receivers, then donors. */
static void
row_kernels (RowKernel kernel[2])
{
  kernel[0] = receivers_interior;
  kernel[1] = donors_interior;
#if RIVER_AVX2
  if (__builtin_cpu_supports ("avx2"))
    {
      kernel[0] = receivers_interior_avx2;
      kernel[1] = donors_interior_avx2;
    }
#endif
}

/* Where the neighbours of a cell are in a copy of its neighbourhood: the cell first, then
 * its neighbours in direction order. */
static const ptrdiff_t copied_offset[RIVER_NEIGHBOURS] = { 1, 2, 3, 4, 5, 6, 7, 8 };

static void
border_receiver (RiverGrid *g, int x, int y)
{
  const size_t i = (size_t) y * g->width + x;
  float        h[1 + RIVER_NEIGHBOURS];
  if (g->outlet[i]) /* every border cell of an open map */
    {
      g->direction[i] = RIVER_NONE;
      return;
    }
  h[0] = g->h[i];
  for (int k = 0; k < RIVER_NEIGHBOURS; k++)
    {
      const ptrdiff_t j = river_neighbour (g, x, y, k);
      h[1 + k] = j >= 0 ? g->h[j] : h[0]; /* level: never a receiver */
    }
  g->direction[i] = steepest (h, copied_offset, g->inverse_distance, g->prefer[i], 0);
}

static void
border_donors (RiverGrid *g, int x, int y)
{
  uint8_t d[1 + RIVER_NEIGHBOURS];
  d[0] = RIVER_NONE;
  for (int k = 0; k < RIVER_NEIGHBOURS; k++)
    {
      const ptrdiff_t j = river_neighbour (g, x, y, k);
      d[1 + k] = j >= 0 ? g->direction[j] : RIVER_NONE;
    }
  g->donors[(size_t) y * g->width + x] =
    (uint16_t) (donor_bits (d, copied_offset) | (g->wrap ? RIVER_WRAPS : 0));
}

/* Rho8 (Fairfield & Leymarie 1991, Water Resources Research 27(5)): steepest descent on 8
 * neighbours sends every cell of a plane along one of 8 directions, so rivers run in
 * straight lines along the grid and the simulation's valleys line up with it. So a cell
 * may drain instead to the steeper of the two neighbours beside its steepest one (45
 * degrees either side), when that is lower too, by a fixed pseudo-random choice of the cell
 * whose odds grow from 0, where the gradient points at the steepest neighbour (the other
 * is then cos 45 as steep; within a degree of it), to 1/2, where it points between them (as steep): on average
 * the receivers follow the gradient. Each step's receivers are written over g->previous's after it (river-step.c). */
#define STRAIGHT 0.7194 /* the odds' 0: the gradient within 1 degree of the steepest
                          * neighbour (cos 44 / cos 1), where a straight line is right; a
                          * ramp's columns stay the simulation's 1D rivers */
/* The directions 45 degrees clockwise and anticlockwise of each direction. */
static const uint8_t CLOCKWISE[RIVER_NEIGHBOURS] = { 6, 7, 4, 5, 0, 1, 3, 2 };
static const uint8_t ANTICLOCKWISE[RIVER_NEIGHBOURS] = { 4, 5, 7, 6, 2, 3, 0, 1 };

/* The choice for cell i, whose neighbour in direction k is at neighbour[k] (-1: off the
 * map; only those of k and the two beside it are read). */
ALWAYS_INLINE void
randomise_receiver (RiverGrid *g, size_t i, const ptrdiff_t *neighbour)
{
  const int k = g->direction[i];
  if (k == RIVER_NONE)
    return;
  const int   k1 = CLOCKWISE[k], k2 = ANTICLOCKWISE[k];
  const float here = g->h[i];
  const float slope = (here - g->h[neighbour[k]]) * g->inverse_distance[k];
  const float s1 = neighbour[k1] >= 0 ? (here - g->h[neighbour[k1]]) * g->inverse_distance[k1]
                                      : -1.0f;
  const float s2 = neighbour[k2] >= 0 ? (here - g->h[neighbour[k2]]) * g->inverse_distance[k2]
                                      : -1.0f;
  const int   before = g->previous[i];
  if (before != RIVER_NONE
      && (before == k || ((before == k1 || before == k2) && (before == k1 ? s1 : s2) > 0.0f)))
    {
      /* The receiver of the step before, while still one of the three and lower: a choice
       * that flipped with every small change of the slopes would never let the simulation
       * settle (its steady state). */
      g->direction[i] = (uint8_t) before;
      return;
    }
  const float  beside = s1 >= s2 ? s1 : s2;
  const double odds = 0.5 * ((double) beside / slope - STRAIGHT) / (1.0 - STRAIGHT);
  const double draw = (terrain_mix32 ((uint32_t) i ^ 0x6a09e667u) >> 8) * (1.0 / 16777216.0);
  g->direction[i] = (uint8_t) (draw < odds ? (s1 >= s2 ? k1 : k2) : k);
}

static void
randomise_row (RiverGrid *g, int y)
{
  const size_t row = (size_t) y * g->width;
  ptrdiff_t    neighbour[RIVER_NEIGHBOURS];
  const int    inner = y > 0 && y < g->height - 1;
  for (int x = 0; x < g->width; x += inner && x == 0 && g->width > 2 ? g->width - 1 : 1)
    {
      for (int k = 0; k < RIVER_NEIGHBOURS; k++)
        neighbour[k] = river_neighbour (g, x, y, k);
      randomise_receiver (g, row + x, neighbour);
    }
  for (int x = 1; inner && x < g->width - 1; x++)
    {
      for (int k = 0; k < RIVER_NEIGHBOURS; k++)
        neighbour[k] = (ptrdiff_t) (row + x) + g->offset[k];
      randomise_receiver (g, row + x, neighbour);
    }
}

/* A cell of g->keep keeps its receiver of g->kept_direction while that is still strictly
 * lower (heights that changed since, by diffusion, could make it a cycle). */
static void
keep_receiver (RiverGrid *g, int x, int y)
{
  const size_t i = (size_t) y * g->width + x;
  const int    k = g->kept_direction[i];
  if (! g->keep[i] || k == RIVER_NONE || g->direction[i] == RIVER_NONE)
    return;
  const ptrdiff_t j = river_neighbour (g, x, y, k);
  if (j >= 0 && g->h[j] < g->h[i])
    g->direction[i] = (uint8_t) k;
}

static void
receivers_rows (void *user, int strip, int first, int end)
{
  RiverGrid *g = user;
  const int  w = g->width;
  RowKernel  kernel[2];
  (void) strip;
  row_kernels (kernel);
  for (int y = first; y < end; y++)
    {
      const size_t row = (size_t) y * w;
      const int    inner = y > 0 && y < g->height - 1 && w > 2;
      if (! g->outlet_fixed)
        row_outlets (g, y);
      if (inner && first_block (w - 1) > 0)
        kernel[0] (g, row);
      else if (inner)
        for (size_t i = row + 1; i < row + w - 1; i++)
          g->direction[i] =
            steepest (g->h + i, g->offset, g->inverse_distance, g->prefer[i], g->outlet[i]);
      for (int x = 0; x < w; x += inner && x == 0 ? w - 1 : 1)
        border_receiver (g, x, y);
      if (g->previous)
        randomise_row (g, y);
      for (int x = 0; g->keep && x < w; x++)
        keep_receiver (g, x, y);
    }
}

/* Donor bits of every cell, gathered from the neighbours' directions, so each cell's are
 * written by its own strip. */
static void
donors_rows (void *user, int strip, int first, int end)
{
  RiverGrid *g = user;
  const int  w = g->width;
  RowKernel  kernel[2];
  (void) strip;
  row_kernels (kernel);
  for (int y = first; y < end; y++)
    {
      const size_t row = (size_t) y * w;
      const int    inner = y > 0 && y < g->height - 1 && w > 2;
      if (inner && first_block (w - 1) > 0)
        kernel[1] (g, row);
      else if (inner)
        for (size_t i = row + 1; i < row + w - 1; i++)
          g->donors[i] = donor_bits (g->direction + i, g->offset);
      for (int x = 0; x < w; x += inner && x == 0 ? w - 1 : 1)
        border_donors (g, x, y);
    }
}

static void
outlets_rows (void *user, int strip, int first, int end)
{
  (void) strip;
  for (int y = first; y < end; y++)
    row_outlets (user, y);
}

void
river_find_outlets (RiverGrid *g)
{
  if (! g->outlet_fixed)
    terrain_parallel_rows (g->height, g->strips, g->height, outlets_rows, g, NULL, 0.0, 0.0);
}

TerrainStatus
river_find_receivers (RiverGrid *g, const TerrainProgress *progress, double from, double to)
{
  const double middle = from + (to - from) * 0.6;
  if (terrain_parallel_rows (g->height, g->strips, report_rows (g), receivers_rows, g, progress,
                             from, middle) != TERRAIN_OK)
    return TERRAIN_CANCELLED;
  return terrain_parallel_rows (g->height, g->strips, report_rows (g), donors_rows, g, progress,
                                middle, to);
}

void
river_find_donors (RiverGrid *g)
{
  terrain_parallel_rows (g->height, g->strips, g->height, donors_rows, g, NULL, 0.0, 0.0);
}

/* ---- Receiver order and area ---- */

/* Places the donors of the cell at place `head` after `top`; returns the new top. A cell
 * whose donors are not at fixed offsets (on the border of a wrapped map) takes them one by
 * one; any other writes all 8 candidates and keeps the donors, without a branch on the
 * donor bits (the arrays have RIVER_NEIGHBOURS spare places at their end for this). */
static size_t
place_donors (RiverGrid *g, size_t head, size_t top)
{
  const size_t   i = (size_t) g->stack[head];
  const unsigned bits = g->donors[i];
  if (bits & RIVER_WRAPS)
    {
      for (int k = 0; k < RIVER_NEIGHBOURS; k++)
        if (bits & (1u << k))
          {
            g->stack[top] = (int32_t) river_neighbour (g, (int) (i % g->width),
                                                       (int) (i / g->width), k);
            g->parent[top++] = (int32_t) head;
          }
      return top;
    }
  int32_t *restrict stack = g->stack, *restrict parent = g->parent;
  const int32_t     from = (int32_t) head;
#define PLACE(k)                                                                              \
  stack[top] = (int32_t) (i + g->offset[k]);                                                \
  parent[top] = from;                                                                         \
  top += bits >> (k) & 1;
  PLACE (0) PLACE (1) PLACE (2) PLACE (3) PLACE (4) PLACE (5) PLACE (6) PLACE (7)
#undef PLACE
  return top;
}

/* Breadth first over each root's tree in turn: every cell comes after its receiver, and a
 * tree's cells are together. The order doubles as the queue: the cells to place next are
 * known well ahead, so their donor bits are fetched while others are placed (depth first,
 * every fetch would wait for the one before, along each river). */
static void
build_stack (RiverGrid *g)
{
  size_t top = 0;
  for (size_t root = 0; root < g->cells; root++)
    {
      if (g->direction[root] != RIVER_NONE)
        continue;
      size_t head = top;
      g->stack[top] = (int32_t) root;
      g->parent[top] = (int32_t) top;
      for (top++; head < top; head++)
        top = place_donors (g, head, top);
    }
}

static size_t
chunk_size (const RiverGrid *g, int c)
{
  return g->chunk_start[c + 1] - g->chunk_start[c];
}

/* The chunks largest first (chunk_order). */
static void
order_chunks (RiverGrid *g)
{
  for (int c = 0; c < g->chunks; c++) /* insertion sort: at most RIVER_MAX_CHUNKS */
    {
      int at = c;
      for (; at > 0 && chunk_size (g, g->chunk_order[at - 1]) < chunk_size (g, c); at--)
        g->chunk_order[at] = g->chunk_order[at - 1];
      g->chunk_order[at] = c;
    }
}

/* Chunks of whole trees of about equal size: RIVER_CHUNK_BATCHES per thread; a tree larger
 * than that is a chunk of its own. They run largest first (chunk_order): on a filled
 * Diamond-Square map one tree is half of the map, and taken last it would run alone while
 * the other threads wait. */
static void
cut_chunks (RiverGrid *g)
{
  int wanted = RIVER_CHUNK_BATCHES * terrain_parallel_threads ();
  wanted = wanted < RIVER_MAX_CHUNKS ? wanted : RIVER_MAX_CHUNKS;
  g->chunks = 0;
  g->chunk_start[0] = 0;
  for (int c = 1; c <= wanted; c++)
    {
      size_t s = (size_t) ((double) g->cells * c / wanted);
      while (s < g->cells && g->parent[s] != (int32_t) s)
        s++; /* to the next tree */
      if (s > g->chunk_start[g->chunks])
        g->chunk_start[++g->chunks] = s;
    }
  order_chunks (g);
}

typedef struct
{
  const RiverGrid *g;
  void (*task) (void *user, size_t first, size_t end);
  void *user;
  int   first; /* the batch's first place in chunk_order */
} AlongStack;

static void
run_chunk (void *user, int index)
{
  const AlongStack *a = user;
  const int         chunk = a->g->chunk_order[a->first + index];
  a->task (a->user, a->g->chunk_start[chunk], a->g->chunk_start[chunk + 1]);
}

/* The chunks from place `first` of chunk_order that run between two progress reports: as
 * many as keep every thread busy for about as long as the batch's largest one, or for a
 * RIVER_CHUNK_BATCHES-th of the map. */
static int
batch_end (const RiverGrid *g, int first, int threads)
{
  const size_t largest = chunk_size (g, g->chunk_order[first]);
  const size_t share = g->cells / ((size_t) RIVER_CHUNK_BATCHES * threads);
  const size_t room = (size_t) threads * (largest > share ? largest : share);
  size_t       taken = 0;
  int          end = first;
  while (end < g->chunks && taken + chunk_size (g, g->chunk_order[end]) <= room)
    taken += chunk_size (g, g->chunk_order[end++]);
  return end > first ? end : first + 1;
}

TerrainStatus
river_along_stack (const RiverGrid *g, void (*task) (void *user, size_t first, size_t end),
                   void *user, const TerrainProgress *progress, double from, double to)
{
  const int  threads = terrain_parallel_threads ();
  AlongStack a = { g, task, user, 0 };
  size_t     done = 0;
  while (a.first < g->chunks)
    {
      if (terrain_progress_report (progress, from + (to - from) * done / g->cells))
        return TERRAIN_CANCELLED;
      const int end = progress ? batch_end (g, a.first, threads) : g->chunks;
      for (int c = a.first; c < end; c++)
        done += chunk_size (g, g->chunk_order[c]);
      terrain_parallel_for (end - a.first, run_chunk, &a);
      a.first = end;
    }
  return TERRAIN_OK;
}

/* Sources first: every cell passes its area on to its receiver. */
static void
accumulate_area (void *user, size_t first, size_t end)
{
  const RiverGrid *g = user;
  for (size_t s = first; s < end; s++)
    g->area[s] = 1.0f;
  for (size_t s = end; s-- > first;)
    if (g->parent[s] != (int32_t) s)
      g->area[g->parent[s]] += g->area[s];
}

void
river_order_and_area (RiverGrid *g)
{
  build_stack (g);
  cut_chunks (g);
  river_along_stack (g, accumulate_area, g, NULL, 0.0, 0.0);
}

/* ---- Depth-first order ---- */

/* The donors of `cell` (at `place`) go on the to-do stack `pending`, each with that place in
 * the high half, the last direction first so that the first comes out first: the
 * breadth-first order's order of siblings. As in place_donors, a cell with donors at fixed
 * offsets writes all 8 candidates and keeps its donors, without a branch on the donor bits
 * (a branch on them would be mispredicted at every turn of the walk). */
static size_t
pend_donors (const RiverGrid *g, uint64_t *restrict pending, size_t top, int32_t cell,
             size_t place)
{
  const unsigned bits = g->donors[cell];
  const uint64_t from = (uint64_t) place << 32;
  if (bits & RIVER_WRAPS)
    {
      for (int k = RIVER_NEIGHBOURS; k-- > 0;)
        if (bits & (1u << k))
          pending[top++] =
            from | (uint32_t) river_neighbour (g, cell % g->width, cell / g->width, k);
      return top;
    }
  /* The neighbour's index is the cell's plus an offset, and stays in [0, cells): added to
   * the entry whole, it carries nothing into the place's half. */
  const uint64_t   entry = from | (uint32_t) cell;
  const ptrdiff_t *offset = g->offset;
#define PEND(k)                                                                               \
  pending[top] = entry + (uint64_t) offset[k];                                               \
  top += bits >> (k) & 1;
  PEND (7) PEND (6) PEND (5) PEND (4) PEND (3) PEND (2) PEND (1) PEND (0)
#undef PEND
  return top;
}

/* The order is walked from both ends of the places at once, by two tasks: the front takes
 * roots from the first cells on and places their trees from place 0 up, the back takes
 * roots from the last cells on and places their trees from the last place down, until they
 * meet (place g->back_from). Each walks a tree in the same order (depth first, a cell's
 * donors in direction order), the front in increasing places, the back in decreasing ones:
 * a pass along the order reads the back's places from the last one down. The cells are
 * taken in blocks of CLAIM_CELLS. A walker counts a tree's upstream cells right after it
 * walked it, while its places are still in the cache.
 *
 * One tree can be half of the map (a filled Diamond-Square map's): the walker that met it
 * late walked alone for most of the time (at 1024 x 1024 the back walked 75 % of the cells
 * when it met that tree last). So one root (first_root: the previous pass's largest tree's)
 * is taken first, by the back, and the others go round it; the front walks it if the back
 * never began. Where a tree is placed changes
 * nothing of a pass along the order, so the result is the same whoever walks what. */
#define CLAIM_CELLS 4096

typedef struct
{
  RiverGrid       *g;
  int32_t         *depth;
  uint64_t        *pending;  /* the to-do stacks: `capacity` entries each, the front's first */
  size_t           capacity;
  int32_t          deepest[2]; /* the front's and the back's deepest place */
  size_t           largest[2]; /* the cells of each one's largest tree... */
  int32_t          largest_root[2]; /* ... and its root */
  int32_t          first_root; /* walked first (-1: none), by whoever takes it */
  atomic_flag      first_taken;
  _Atomic uint64_t ends;     /* blocks taken: the front's next (low half), the back's end */
  atomic_int       overflow; /* a to-do stack would have outgrown its capacity */
} Walk;

/* The next block of cells for the front or the back; 0 when they have met. */
static int
claim (Walk *w, int back, size_t *block)
{
  uint64_t ends = atomic_load (&w->ends);
  for (;;)
    {
      const uint64_t front = ends & 0xffffffffu, end = ends >> 32;
      if (front >= end)
        return 0;
      const uint64_t taken = back ? front | (end - 1) << 32 : (front + 1) | end << 32;
      if (atomic_compare_exchange_weak (&w->ends, &ends, taken))
        {
          *block = back ? end - 1 : front;
          return 1;
        }
    }
}

/* The tree of `root` depth first, its t-th cell at place `at` + t (front) or `at` - t
 * (back); the number of its cells, or 0 when the to-do stack would outgrow its capacity. */
static size_t
walk_tree (Walk *w, int back, uint64_t *pending, size_t root, size_t at)
{
  RiverGrid *g = w->g;
  int32_t *restrict stack = g->stack, *restrict parent = g->parent, *restrict depth = w->depth;
  const ptrdiff_t   step = back ? -1 : 1;
  size_t            place = at, count = 1, top = 0;
  int32_t           cell = (int32_t) root, deepest = w->deepest[back];
  stack[place] = cell;
  parent[place] = (int32_t) place;
  depth[place] = 0;
  for (;;)
    {
      if (top + RIVER_NEIGHBOURS > w->capacity)
        return 0;
      top = pend_donors (g, pending, top, cell, place);
      if (top == 0)
        break;
      const uint64_t next = pending[--top];
      const int32_t  from = (int32_t) (next >> 32);
      cell = (int32_t) (uint32_t) next;
      place += step;
      count++;
      stack[place] = cell;
      parent[place] = from;
      depth[place] = depth[from] + 1;
      deepest = depth[place] > deepest ? depth[place] : deepest;
    }
  w->deepest[back] = deepest;
  return count;
}

/* Sources first: every place of a tree walked from `first` on (count places up, or down for
 * the back) passes its upstream cells on to its receiver's. */
static void
count_upstream (RiverGrid *g, int back, size_t first, size_t count)
{
  const int32_t *restrict parent = g->parent;
  uint32_t *restrict      upstream = g->upstream;
  for (size_t s = back ? first + 1 - count : first; s < (back ? first + 1 : first + count); s++)
    upstream[s] = 1;
  if (back)
    for (size_t s = first + 1 - count; s < first; s++)
      upstream[parent[s]] += upstream[s];
  else
    for (size_t s = first + count - 1; s > first; s--)
      upstream[parent[s]] += upstream[s];
}

/* Walks the tree of `root` from place *at on and counts its upstream cells; moves *at to
 * the next place. 0 on overflow. */
static int
walk_and_count (Walk *w, int back, size_t root, size_t *at)
{
  uint64_t    *pending = w->pending + (back ? w->capacity : 0);
  const size_t count = walk_tree (w, back, pending, root, *at);
  if (count == 0 || atomic_load_explicit (&w->overflow, memory_order_relaxed))
    {
      atomic_store (&w->overflow, 1);
      return 0;
    }
  count_upstream (w->g, back, *at, count);
  if (count > w->largest[back])
    {
      w->largest[back] = count;
      w->largest_root[back] = (int32_t) root;
    }
  *at = back ? *at - count : *at + count;
  return 1;
}

/* The tree walked first, by whichever walker comes first: 1 when it is this one's. */
static int
take_first (Walk *w)
{
  return w->first_root >= 0 && ! atomic_flag_test_and_set (&w->first_taken);
}

static void
walk_task (void *user, int back)
{
  Walk      *w = user;
  RiverGrid *g = w->g;
  size_t     at = back ? g->cells - 1 : 0, block;
  int        ok = 1;
  if (back && take_first (w))
    ok = walk_and_count (w, back, (size_t) w->first_root, &at);
  while (ok && claim (w, back, &block))
    {
      const size_t first = block * CLAIM_CELLS;
      const size_t end = first + CLAIM_CELLS < g->cells ? first + CLAIM_CELLS : g->cells;
      for (size_t k = 0; k < end - first && ok; k++)
        {
          const size_t root = back ? end - 1 - k : first + k;
          if (g->direction[root] == RIVER_NONE && (int32_t) root != w->first_root)
            ok = walk_and_count (w, back, root, &at);
        }
    }
  if (ok && ! back && take_first (w))
    ok = walk_and_count (w, back, (size_t) w->first_root, &at);
  if (back)
    g->back_from = at + 1;
}

void
river_depth_first_chunks (RiverGrid *g, int wanted)
{
  wanted = wanted < RIVER_MAX_CHUNKS ? wanted : RIVER_MAX_CHUNKS;
  g->chunks = 0;
  g->chunk_start[0] = 0;
  for (int c = 1; c <= wanted; c++)
    {
      const size_t s = (size_t) ((double) g->cells * c / wanted);
      const size_t previous = (size_t) ((double) g->cells * (c - 1) / wanted);
      if (previous < g->back_from && s > g->back_from)
        g->chunk_start[++g->chunks] = g->back_from;
      if (s > g->chunk_start[g->chunks])
        g->chunk_start[++g->chunks] = s;
    }
  order_chunks (g);
}

/* The root walked first: the previous walk's largest tree's, if it is still a root; else
 * (the first walk) the root of the tree that holds the map's middle cell, the likeliest to
 * be large (it is the half-map tree of a filled Diamond-Square map). */
static int32_t
first_root (const RiverGrid *g)
{
  if (g->largest_root >= 0)
    return g->direction[g->largest_root] == RIVER_NONE ? g->largest_root : -1;
  int x = g->width / 2, y = g->height / 2;
  for (size_t steps = 0; steps < g->cells; steps++)
    {
      const int k = g->direction[(size_t) y * g->width + x];
      if (k == RIVER_NONE)
        return (int32_t) ((size_t) y * g->width + x);
      const ptrdiff_t j = river_neighbour (g, x, y, k);
      x = (int) (j % g->width);
      y = (int) (j / g->width);
    }
  return -1; /* a cycle: receivers that do not drain */
}

/* Depth first over each root's tree (preorder): a cell's whole subtree comes right after it
 * in the walk's order, so that a pass along the order finds the cell's path to its root as
 * the last cell seen at each smaller depth; and each place's upstream cells. The to-do
 * stacks live in the sorted array (free until the solution: an 8-byte entry every two
 * cells), a quarter of the cells each when two tasks walk; a to-do stack holds cells of its
 * tree not placed yet, so a walk in the area and sorted arrays together (one entry a cell,
 * and spare ones after them) never outgrows them: two walks whose stack would outgrow its
 * quarter give way to one there, which counts the upstream cells after it. */
void
river_order_depth_first (RiverGrid *g, int32_t *depth)
{
  const uint64_t blocks = (g->cells + CLAIM_CELLS - 1) / CLAIM_CELLS;
  /* sorted begins 4 bytes into an 8-byte word when the map has an odd number of cells (it
   * follows area); it has spare places after its end. */
  float *const   aligned = g->sorted + ((uintptr_t) (void *) g->sorted % sizeof (uint64_t) != 0);
  const int32_t  first = first_root (g);
  Walk           w = { .g = g, .depth = depth, .pending = (uint64_t *) (void *) aligned,
                       .capacity = g->cells / 4, .largest_root = { -1, -1 },
                       .first_root = first, .first_taken = ATOMIC_FLAG_INIT };
  atomic_init (&w.ends, blocks << 32);
  atomic_init (&w.overflow, 0);
  g->back_from = g->cells;
  if (terrain_parallel_threads () > 1)
    terrain_parallel_for (2, walk_task, &w);
  else
    walk_task (&w, 0);
  if (atomic_load (&w.overflow))
    {
      w.pending = (uint64_t *) (void *) g->area;
      w.capacity = g->cells + RIVER_NEIGHBOURS;
      w.deepest[0] = 0;
      g->back_from = g->cells;
      for (size_t root = 0, at = 0; root < g->cells; root++)
        if (g->direction[root] == RIVER_NONE)
          at += walk_tree (&w, 0, w.pending, root, at);
      count_upstream (g, 0, 0, g->cells);
    }
  else /* the largest tree (the first root among the largest), for the next pass */
    g->largest_root = w.largest[1] > w.largest[0] || (w.largest[1] == w.largest[0]
                                                      && w.largest_root[1] < w.largest_root[0])
                        ? w.largest_root[1] : w.largest_root[0];
  g->deepest[0] = w.deepest[0];
  g->deepest[1] = w.deepest[1];
  river_depth_first_chunks (g, RIVER_CHUNK_BATCHES * terrain_parallel_threads ());
}

/* Whether the cell at h[0] has a receiver: a neighbour with a slope > 0, as steepest()
 * finds it (the slope, not the heights: a difference of a few subnormals can round to 0). */
ALWAYS_INLINE int
drains (const float *h, const ptrdiff_t *offset, const float *inverse_distance)
{
#define LOWER(k) ((h[0] - h[offset[k]]) * inverse_distance[k] > 0.0f)
  return LOWER (0) | LOWER (1) | LOWER (2) | LOWER (3) | LOWER (4) | LOWER (5) | LOWER (6)
         | LOWER (7);
#undef LOWER
}

/* Pits among BLOCK interior cells, as receivers_block. */
static size_t
pits_block (const float *restrict h, const uint8_t *restrict outlet,
            const ptrdiff_t *restrict offset, const float *restrict inverse_distance)
{
  size_t pits = 0;
  for (int x = 0; x < BLOCK; x++)
    pits += (size_t) ((outlet[x] == 0) & ! drains (h + x, offset, inverse_distance));
  return pits;
}

typedef struct
{
  RiverGrid     *g;
  _Atomic size_t pits;
} PitCount;

static void
pits_rows (void *user, int strip, int first, int end)
{
  PitCount  *p = user;
  RiverGrid *g = p->g;
  const int  w = g->width;
  size_t     pits = 0;
  (void) strip;
  for (int y = first; y < end; y++)
    {
      const size_t row = (size_t) y * w;
      const int    inner = y > 0 && y < g->height - 1;
      if (! g->outlet_fixed)
        row_outlets (g, y);
      int x = 1; /* whole blocks, then cell by cell (a block moved back would count twice) */
      for (; inner && x + BLOCK <= w - 1; x += BLOCK)
        pits += pits_block (g->h + row + x, g->outlet + row + x, g->offset, g->inverse_distance);
      for (; inner && x < w - 1; x++)
        pits += (size_t) ((g->outlet[row + x] == 0)
                          & ! drains (g->h + row + x, g->offset, g->inverse_distance));
      for (int x = 0; x < w; x += inner && x == 0 && w > 2 ? w - 1 : 1)
        {
          const size_t i = row + x;
          float        h[1 + RIVER_NEIGHBOURS];
          if (g->outlet[i])
            continue;
          h[0] = g->h[i];
          for (int k = 0; k < RIVER_NEIGHBOURS; k++)
            {
              const ptrdiff_t j = river_neighbour (g, x, y, k);
              h[1 + k] = j >= 0 ? g->h[j] : h[0];
            }
          pits += ! drains (h, copied_offset, g->inverse_distance);
        }
    }
  atomic_fetch_add (&p->pits, pits);
}

size_t
river_count_pits (RiverGrid *g)
{
  PitCount p = { .g = g };
  atomic_init (&p.pits, 0);
  terrain_parallel_rows (g->height, g->strips, g->height, pits_rows, &p, NULL, 0.0, 0.0);
  return atomic_load (&p.pits);
}
