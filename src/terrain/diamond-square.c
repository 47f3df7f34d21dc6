/* Diamond-square and its square-square sibling (conventions in diamond-square.h). The
 * vectorised row kernels live in diamond-square-rows.h, compiled once per instruction set
 * (see "Whole rows" below). */

#include "diamond-square.h"

#include "heightmap.h"
#include "lattice.h"
#include "square-square.h"
#include "terrain-common.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- Diamond-square, one level at a time ----
 *
 * The classic algorithm works in place on the whole lattice: at every level, a diamond step
 * (the centre of every cell of side 2h gets the mean of its 4 corners plus an offset), then
 * a square step (every edge midpoint gets the mean of its 4 diamond neighbours plus an
 * offset; next to the border of the lattice, border_mean decides). Each new node only
 * reads nodes of the level before or diamonds of its own level, so the order nodes are
 * computed in does not matter.
 *
 * Here every level is stored compactly: the level of spacing h holds the lattice nodes at
 * multiples of h, its node (c, r) being lattice node (c h, r h). A level is made from the one
 * before (spacing 2h, its "parent") row by row: even rows interleave the parent's nodes
 * with squares, odd rows interleave squares with diamonds, and a row reads three parent
 * rows at most. So the levels are made together, each pulling rows from its parent as it
 * needs them ("streams", below), in a few rows of memory per level; the last level goes
 * straight into the layer when the layer is a crop of the lattice, and finds the output's
 * range on the way. Only a periodic lattice is made level after level in whole buffers
 * (its rows read across the seam), and stored whole when it must be resampled.
 *
 * The values are the classic algorithm's, bit for bit: every node is the same expression,
 * summed in the same order, with the same offset (terrain_hash split as in random.h: one
 * mix round per node). Vectorised loops cover the nodes whose 4 neighbours all exist;
 * nodes at the lattice's border (and the periodic seam) go through level_node, which
 * computes any node of a level from the parent alone. */

typedef struct
{
  /* The parent: pw x ph nodes of spacing 2h; its row b is at parent + (b % pring) * pstride
   * (a ring of rows when the parent is made row by row too). */
  const float *parent;
  size_t       pstride;
  int          pring;
  int          pw, ph;
  int          cw, ch; /* this level's nodes, spacing h */
  int          h;
  int          periodic;
  TerrainEdges edges;
  uint32_t     seed;
  float        amp_diamond, amp_square;
  uint32_t    *col_even, *col_odd; /* terrain_hash_column of columns 2a and 2a + 1 */
  float       *diamonds[2];        /* two rows of diamonds */
} Level;

/* Nodes per axis of the compact level of spacing s on a lattice of `nodes` nodes. */
static inline int
level_nodes (int nodes, int s, int periodic)
{
  return periodic ? nodes / s : (nodes - 1) / s + 1;
}

static inline float
node_offset (uint32_t column, uint32_t row_key, float amplitude)
{
  return amplitude * terrain_hash_to_signed (terrain_hash_finish (column, row_key));
}

/* ---- Any single node, from the parent alone (borders, seams, ragged ends) ---- */

static inline const float *
parent_row (const Level *l, int b)
{
  return l->parent + (size_t) (b % l->pring) * l->pstride;
}

static inline float
parent_node (const Level *l, int a, int b)
{
  return parent_row (l, b)[a];
}

/* Node (c, r), c and r odd: the centre of parent cell (c / 2, r / 2). */
static float
diamond_node (const Level *l, int c, int r)
{
  const int    a = c / 2, b = r / 2;
  const int    right = a + 1 == l->pw ? 0 : a + 1, below = b + 1 == l->ph ? 0 : b + 1;
  const float *up = parent_row (l, b), *down = parent_row (l, below);
  return 0.25f * (up[a] + up[right] + down[a] + down[right])
         + lattice_offset (l->seed, c * l->h, r * l->h, 0, l->amp_diamond);
}

/* A node a square node reads: a parent node or a diamond. */
static float
known_node (const Level *l, int c, int r)
{
  return c % 2 == 0 && r % 2 == 0 ? parent_node (l, c / 2, r / 2) : diamond_node (l, c, r);
}

/* A square node next to the lattice border: neighbours wrap on a periodic lattice; on a
 * bounded one the edge mode decides what replaces the missing neighbour. */
static float
border_mean (const Level *l, int c, int r)
{
  static const int dc[4] = { -1, 1, 0, 0 };
  static const int dr[4] = { 0, 0, -1, 1 };
  float sum = 0.0f;
  int   count = 0;
  for (int k = 0; k < 4; k++)
    {
      int x = c + dc[k], y = r + dr[k];
      if (l->periodic)
        {
          x = (x + l->cw) % l->cw;
          y = (y + l->ch) % l->ch;
        }
      else if (x < 0 || x >= l->cw || y < 0 || y >= l->ch)
        {
          if (l->edges != TERRAIN_EDGES_MIRROR)
            continue;
          x = c - dc[k];
          y = r - dr[k];
        }
      sum += known_node (l, x, y);
      count++;
    }
  return sum / (float) count;
}

/* Node (c, r) of the level, whatever its kind. */
static float
level_node (const Level *l, int c, int r)
{
  if (c % 2 == 0 && r % 2 == 0)
    return parent_node (l, c / 2, r / 2);
  if (c % 2 == 1 && r % 2 == 1)
    return diamond_node (l, c, r);
  const float offset = lattice_offset (l->seed, c * l->h, r * l->h, 0, l->amp_square);
  if (r >= 1 && r + 1 < l->ch && c >= 1 && c + 1 < l->cw)
    return 0.25f * (known_node (l, c - 1, r) + known_node (l, c + 1, r) + known_node (l, c, r - 1)
                    + known_node (l, c, r + 1))
           + offset;
  return border_mean (l, c, r) + offset;
}

/* ---- Whole rows: branch-free, vectorised ----
 *
 * The row kernels (at the end of this file) cover the nodes whose 4 neighbours all exist.
 * With GCC or Clang they use generic vectors of VL lanes, which the compiler maps onto the
 * target's SIMD, so they are vectorised at -O2 too; scalar loops finish each row, and are
 * all there is with other compilers. They are compiled for the baseline (VL = 4: one SSE
 * register on x86-64) and, on x86, for SSE4.1 (whose 32-bit vector multiply SSE2 lacks)
 * and AVX2 (VL = 8), the best one the CPU has being chosen at run time. Never for FMA: a
 * fused multiply-add would round differently.
 *
 * Lane for lane the arithmetic is the scalar expression's, bit for bit. The one rewrite is
 * the offset: amplitude * terrain_hash_to_signed (h) is amplitude * ((N - 2^23) * 2^-23)
 * with N = h >> 8, as N * 2^-23 - 1 is exact; scaling by a power of two is exact too (the
 * amplitude, at least 2^-40, is far above the subnormals), so it equals
 * (amplitude * 2^-23) * (N - 2^23), rounded once, and N - 2^23 is (int32_t) (h ^ 2^31) >> 8
 * (arithmetic shift). */

/* The running range of the values made: lo[k], hi[k] for lane k of the vector loops
 * (independent lanes; the scalar code uses lane 0), reduced by range_get. */
#define RANGE_LANES 8 /* >= VL */

typedef struct
{
  float lo[RANGE_LANES], hi[RANGE_LANES];
} Range;

static void
range_start (Range *range)
{
  for (int k = 0; k < RANGE_LANES; k++)
    {
      range->lo[k] = INFINITY;
      range->hi[k] = -INFINITY;
    }
}

static inline void
range_add (Range *range, float v)
{
  range->lo[0] = v < range->lo[0] ? v : range->lo[0];
  range->hi[0] = v > range->hi[0] ? v : range->hi[0];
}

static void
range_get (const Range *range, float *lo, float *hi)
{
  *lo = range->lo[0];
  *hi = range->hi[0];
  for (int k = 1; k < RANGE_LANES; k++)
    {
      *lo = range->lo[k] < *lo ? range->lo[k] : *lo;
      *hi = range->hi[k] > *hi ? range->hi[k] : *hi;
    }
}

typedef struct
{
  /* Diamonds a = 0 .. n-1 of the row between parent rows up and down. */
  void (*diamonds) (float *restrict d, const float *restrict up, const float *restrict down,
                    const uint32_t *restrict column, uint32_t key, float amplitude, int n);
  /* An even row, columns 0 .. 2n-1: parent nodes p[a] and the squares between p[a], p[a+1]
   * (left, right) and the diamonds above and below. The values written join range. */
  void (*even) (float *restrict out, const float *restrict p, const float *restrict above,
                const float *restrict below, const uint32_t *restrict column, uint32_t key,
                float amplitude, int n, Range *restrict range);
  /* An odd row, columns 2 .. 2n-1: the squares between diamonds d[a-1], d[a] (left, right)
   * and the parent nodes above and below, and the diamonds. The values written join range. */
  void (*odd) (float *restrict out, const float *restrict d, const float *restrict up,
               const float *restrict down, const uint32_t *restrict column, uint32_t key,
               float amplitude, int n, Range *restrict range);
  /* terrain_normalize, and the fixed corners' normalisation, with the range known. */
  void (*normalize) (float *data, size_t n, float lo, float hi);
  void (*normalize_keeping_corners) (float *data, size_t n, float corner_height, float lo,
                                     float hi);
} Kernels;

#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 9)
#define DS_VECTORS 1
#if defined(__x86_64__) || (defined(__i386__) && defined(__SSE__))
#include <immintrin.h>
#define DS_X86_INTRINSICS 1
#define DS_X86_DISPATCH   1
#endif
#endif

#define ROWS(name) name##_base
#define VL         4
#define ROWS_TARGET
#include "diamond-square-rows.h"
#undef ROWS
#undef VL
#undef ROWS_TARGET
#ifdef DS_X86_DISPATCH
#define ROWS(name) name##_sse41
#define VL         4
#define ROWS_TARGET __attribute__ ((target ("sse4.1")))
#include "diamond-square-rows.h"
#undef ROWS
#undef VL
#undef ROWS_TARGET
#define ROWS(name) name##_avx2
#define VL         8
#define ROWS_TARGET __attribute__ ((target ("avx2")))
#include "diamond-square-rows.h"
#undef ROWS
#undef VL
#undef ROWS_TARGET
#endif

static const Kernels *
kernels (void)
{
  static const Kernels base = { diamond_run_base, even_run_base, odd_run_base,
                                normalize_base, normalize_keeping_corners_base };
#ifdef DS_X86_DISPATCH
  static const Kernels sse41 = { diamond_run_sse41, even_run_sse41, odd_run_sse41,
                                 normalize_sse41, normalize_keeping_corners_sse41 };
  static const Kernels avx2 = { diamond_run_avx2, even_run_avx2, odd_run_avx2,
                                normalize_avx2, normalize_keeping_corners_avx2 };
  if (__builtin_cpu_supports ("avx2"))
    return &avx2;
  if (__builtin_cpu_supports ("sse4.1"))
    return &sse41;
#endif
  return &base;
}

/* ---- Levels made row by row ----
 *
 * A stream makes the rows of one level in order, pulling the rows of its parent from the
 * parent's stream as it needs them: row r reads parent rows r/2 - 1 .. r/2 + 1 only, so on
 * a bounded lattice every level but the last keeps just a ring of 4 rows, and all levels
 * advance together through the cache. Only the part of a level that the next one reads is
 * made (the last level's is the layer's crop of the lattice). A periodic lattice reads
 * across its seam (row 0 needs the last row's diamonds): its levels are made whole, one
 * after the other. */
typedef struct Stream
{
  Level          lv;
  struct Stream *source; /* the stream of lv's parent, or NULL when that is made already */
  float         *rows;   /* row r at rows + (r % ring) * stride */
  size_t         stride;
  int            ring;
  int            ow, oh; /* the part made: columns [0, ow), rows [0, oh) */
  int            next;   /* the next row to make */
  const float   *above;  /* the diamonds row `next` reads: of row next - 1 (next even, a
                          * row of parents and squares) or of row next itself (odd) */
  Range          range;  /* of the rows made */
} Stream;

/* Row r's diamonds (r odd) that columns 0 .. ow-1 need, into d. */
static void
make_diamonds (const Level *l, const Kernels *k, int r, int ow, float *d)
{
  const int    b = r / 2, below = b + 1 == l->ph ? 0 : b + 1;
  const int    wanted = ow / 2 + 1 < l->cw / 2 ? ow / 2 + 1 : l->cw / 2;
  const int    inner = wanted < l->pw - 1 ? wanted : l->pw - 1; /* no wrap */
  k->diamonds (d, parent_row (l, b), parent_row (l, below), l->col_odd,
               terrain_hash_row_key (r * l->h), l->amp_diamond, inner);
  for (int a = inner; a < wanted; a++)
    d[a] = diamond_node (l, 2 * a + 1, r);
}

static void stream_until (Stream *s, const Kernels *k, int row);

/* Makes the parent's rows up to b (or all it makes), when the stream pulls them. */
static void
pull_parent (Stream *s, const Kernels *k, int b)
{
  if (s->source)
    stream_until (s->source, k, b < s->source->oh ? b : s->source->oh - 1);
}

/* Makes the stream's next row. */
static void
stream_row (Stream *s, const Kernels *k)
{
  const Level *l = &s->lv;
  const int    r = s->next, ow = s->ow, b = r / 2, inner = r >= 1 && r + 1 < l->ch;
  pull_parent (s, k, b + 1);
  float         *row = s->rows + (size_t) (r % s->ring) * s->stride;
  const uint32_t key = terrain_hash_row_key (r * l->h);
  int            c = 0, from = 0, to = 0; /* the kernels write [from, to) */
  if (r % 2 == 0)
    {
      float *below = NULL;
      if (r + 1 < l->ch)
        {
          below = l->diamonds[b % 2];
          make_diamonds (l, k, r + 1, ow, below);
        }
      if (inner)
        {
          /* Squares at c = 2a + 1 < ow whose right neighbour exists (c + 1 < cw). */
          const int n = ow / 2 < (l->cw - 1) / 2 ? ow / 2 : (l->cw - 1) / 2;
          k->even (row, parent_row (l, b), s->above, below, l->col_odd, key, l->amp_square, n,
                   &s->range);
          c = to = 2 * n;
        }
      s->above = below;
    }
  else if (inner)
    {
      /* Squares at c = 2a >= 2 with c + 1 < ow and c + 1 < cw, diamonds at c + 1. */
      const int n = ow / 2 < l->cw / 2 ? ow / 2 : l->cw / 2;
      if (n > 1)
        {
          row[0] = level_node (l, 0, r);
          row[1] = s->above[0];
          k->odd (row, s->above, parent_row (l, b), parent_row (l, b + 1), l->col_even, key,
                  l->amp_square, n, &s->range);
          from = 2;
          c = to = 2 * n;
        }
    }
  for (; c < ow; c++)
    row[c] = level_node (l, c, r);
  for (c = 0; c < from; c++)
    range_add (&s->range, row[c]);
  for (c = to; c < ow; c++)
    range_add (&s->range, row[c]);
  s->next++;
}

/* Makes the stream's rows up to `row`. */
static void
stream_until (Stream *s, const Kernels *k, int row)
{
  while (s->next <= row)
    stream_row (s, k);
}

/* Makes the stream (and its sources) ready to make `row` next, as if it had made the rows
 * before: row r reads parent rows from (r - 1) / 2 on, and the diamonds of row r - 1 (r
 * even) or r (odd), which the row before made. */
static void
stream_seek (Stream *s, const Kernels *k, int row)
{
  const Level *l = &s->lv;
  const int    d = row % 2 ? row : row - 1; /* the diamonds' row; -1: none */
  if (s->source)
    stream_seek (s->source, k, row > 0 ? (row - 1) / 2 : 0);
  s->next = row;
  s->above = NULL;
  if (d > 0)
    {
      pull_parent (s, k, d / 2 + 1);
      s->above = l->diamonds[d / 2 % 2]; /* where row d - 1 would have put them */
      make_diamonds (l, k, d, s->ow, l->diamonds[d / 2 % 2]);
    }
}

/* ---- Setting the coarsest nodes ---- */

static void
set_corners (float *v, int w, int hgt, int cell, const TerrainDiamondSquare *p)
{
  for (int b = 0; b < hgt; b++)
    for (int a = 0; a < w; a++)
      v[(size_t) b * w + a] = p->corners == TERRAIN_CORNERS_FIXED
                                ? 0.0f
                                : lattice_offset (p->seed, a * cell, b * cell, 0, 1.0f);
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
  double *sat = terrain_calloc ((size_t) (w + 1) * (h + 1), sizeof (double));
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

/* Sets the w x hgt nodes every `spacing` (stored compactly in v) from the guide; returns 0
 * when out of memory. */
static int
set_guided_nodes (const Lattice *l, float *v, int w, int hgt, const float *guide, int width,
                  int height, int spacing)
{
  double *sat = summed_area_table (guide, width, height);
  if (sat == NULL)
    return 0;
  for (int b = 0; b < hgt; b++)
    for (int a = 0; a < w; a++)
      {
        const int x = node_pixel (l, a * spacing, l->nodes_x, width);
        const int y = node_pixel (l, b * spacing, l->nodes_y, height);
        v[(size_t) b * w + a] = (float) (2.0 * box_mean (sat, width, height, x, y, spacing) - 1.0);
      }
  terrain_free (sat);
  return 1;
}

/* w x h floats, or NULL when the size overflows or memory is short. */
static float *
alloc_floats (size_t w, size_t h)
{
  if (h != 0 && w > SIZE_MAX / sizeof (float) / h)
    return NULL;
  return terrain_alloc ((w * h > 0 ? w * h : 1) * sizeof (float));
}

/* Rows of the last level per progress report (and cancellation check) with one thread. */
#define BAND_ROWS 64

/* ---- Strips: a level's rows on several threads ----
 *
 * Every node is a pure function of its parent level, so the rows of a level can be cut into
 * strips (terrain_parallel_rows) that are made apart, on any threads, with the same values
 * bit for bit. Each strip has its own streams (a StreamSet): copies of the plan's levels with
 * their own rings of rows and their own diamonds, sharing the plan's column hashes and the
 * rows the plan keeps whole (a periodic level, the layer). A strip's first call seeks them to
 * its first row (stream_seek), so each coarser level remakes the two or three of its rows
 * that the strip above makes too: a few layer rows' worth of extra work per strip. The
 * strips' ranges are merged lane by lane: min and max do not depend on the order, and the
 * two zeros they cannot tell apart are settled by the exact scan, as with one thread.
 *
 * A bounded lattice is one job, the last level's rows cut into strips, each strip streaming
 * all the levels. A periodic lattice is made level after level, each level cut into strips
 * whose one stream reads the whole parent. With one thread there is one strip, made BAND_ROWS
 * rows at a time: the single-threaded algorithm. */
typedef struct
{
  Stream streams[32]; /* levels first .. level of the job */
  float *memory;      /* their own rings and diamonds */
} StreamSet;

typedef struct
{
  const Stream  *plan;         /* levels 1 .. last: sizes, hashes, rows kept whole */
  int            first, level; /* the levels streamed; first's parent is made already */
  const Kernels *kern;
  StreamSet     *sets;         /* one per strip */
} StripJob;

/* Columns of a level whose hashes and diamonds are kept: the ones made and one beyond. */
static int
level_columns (const Stream *s)
{
  return s->ow + 2 < s->lv.cw ? s->ow + 2 : s->lv.cw;
}

/* One strip's streams; 0 when out of memory. */
static int
stream_set_init (StreamSet *set, const StripJob *job)
{
  size_t floats = 0;
  for (int k = job->first; k <= job->level; k++)
    {
      const Stream *plan = &job->plan[k];
      floats += 2 * ((size_t) level_columns (plan) / 2 + 1);
      if (plan->rows == NULL)
        floats += (size_t) plan->ring * plan->stride;
    }
  if ((set->memory = alloc_floats (floats, 1)) == NULL)
    return 0;
  float *unused = set->memory;
  for (int k = job->first; k <= job->level; k++)
    {
      Stream   *s = &set->streams[k];
      const int diamonds = level_columns (&job->plan[k]) / 2 + 1;
      *s = job->plan[k];
      s->lv.diamonds[0] = unused;
      s->lv.diamonds[1] = unused + diamonds;
      unused += 2 * (size_t) diamonds;
      if (s->rows == NULL)
        {
          s->rows = unused;
          unused += (size_t) s->ring * s->stride;
        }
      s->source = k > job->first ? &set->streams[k - 1] : NULL;
      if (s->source)
        {
          s->lv.parent = s->source->rows;
          s->lv.pstride = s->source->stride;
          s->lv.pring = s->source->ring;
        }
      s->next = -1; /* the strip's first call seeks */
      s->above = NULL;
      range_start (&s->range);
    }
  return 1;
}

static void
range_merge (Range *range, const Range *part)
{
  for (int k = 0; k < RANGE_LANES; k++)
    {
      range->lo[k] = part->lo[k] < range->lo[k] ? part->lo[k] : range->lo[k];
      range->hi[k] = part->hi[k] > range->hi[k] ? part->hi[k] : range->hi[k];
    }
}

/* TerrainRowsTask: rows [first, end) of the job's level, in strip `strip`. */
static void
make_strip_rows (void *user, int strip, int first, int end)
{
  const StripJob *job = user;
  Stream         *s = &job->sets[strip].streams[job->level];
  if (s->next != first)
    stream_seek (s, job->kern, first);
  while (s->next < end)
    stream_row (s, job->kern);
}

/* Makes the rows of plan[level] in strips, streaming levels first .. level (first's parent
 * is made already), with progress from `from` to `to`; merges their range into range
 * unless it is NULL. */
static TerrainStatus
make_level (const Stream *plan, int first, int level, const Kernels *kern,
            const TerrainProgress *progress, double from, double to, Range *range)
{
  const int     rows = plan[level].oh, strips = terrain_map_strips (rows, plan[level].ow);
  StripJob      job = { plan, first, level, kern, terrain_calloc ((size_t) strips, sizeof (StreamSet)) };
  TerrainStatus status = TERRAIN_ERROR_NO_MEMORY;
  int           ready = 0;
  if (job.sets == NULL)
    return status;
  while (ready < strips && stream_set_init (&job.sets[ready], &job))
    ready++;
  if (ready == strips)
    status = terrain_parallel_rows (rows, strips, BAND_ROWS, make_strip_rows, &job, progress,
                                    from, to);
  for (int s = 0; s < ready; s++)
    {
      if (status == TERRAIN_OK && range)
        range_merge (range, &job.sets[s].streams[level].range);
      terrain_free (job.sets[s].memory);
    }
  terrain_free (job.sets);
  return status;
}

/* ---- One render: the levels' plan and buffers ---- */

typedef struct
{
  Lattice l;
  int     top;    /* spacing of the coarsest nodes set directly */
  int     last;   /* the levels made are 1 .. last; level k has spacing top >> k */
  int     levels; /* of the whole lattice, for progress: the guide stands for the coarsest */
  int     direct; /* the last level goes straight into the layer, not resampled */
  /* The plan of levels 1 .. last (last <= log2 (TERRAIN_MAX_SIDE) + 1): what each makes,
   * its column hashes, and its rows when they are kept whole; the strips copy it. */
  Stream  plan[32];
  float  *top_nodes; /* level 0: the nodes of spacing top */
  float  *whole;     /* the last level, when it must be resampled */
} Render;

static inline int
render_level_w (const Render *r, int k)
{
  return level_nodes (r->l.nodes_x, r->top >> k, r->l.periodic);
}

static inline int
render_level_h (const Render *r, int k)
{
  return level_nodes (r->l.nodes_y, r->top >> k, r->l.periodic);
}

/* The lattice and which of its levels are made; every pointer NULL. */
static void
render_start (Render *r, const TerrainDiamondSquare *p, int width, int height)
{
  memset (r, 0, sizeof *r);
  lattice_plan (&r->l, width, height, p->edges == TERRAIN_EDGES_WRAP);
  r->top = r->l.cell;
  if (p->guide)
    while (r->top > 1 && r->top > p->guide_scale)
      r->top /= 2;
  while ((r->top >> r->last) > 1)
    r->last++;
  for (int half = r->l.cell / 2; half >= 1; half /= 2)
    r->levels++;
  r->direct = r->last > 0
              && (! r->l.periodic || (r->l.nodes_x == width && r->l.nodes_y == height));
}

/* Each level's size, spacing and offset amplitudes. */
static void
render_amplitudes (Render *r, const TerrainDiamondSquare *p)
{
  const float decay = (float) pow (2.0, -p->roughness);
  /* Square-step points lie 1/sqrt(2) as far from their parents as diamond-step points
   * do: their offsets get the half-level factor 2^(-H/2) (Voss's successive random
   * additions), which keeps the structure-function slope at 2H. */
  const float square_factor = p->square_half_step ? (float) pow (2.0, -0.5 * p->roughness) : 1.0f;
  float amplitude = decay; /* of level 1 of the whole lattice, then times decay per level */
  for (int k = r->levels - r->last; k > 0; k--)
    amplitude *= decay;
  for (int k = 1; k <= r->last; k++, amplitude *= decay)
    {
      Level *lv = &r->plan[k].lv;
      lv->pw = render_level_w (r, k - 1), lv->ph = render_level_h (r, k - 1);
      lv->cw = render_level_w (r, k), lv->ch = render_level_h (r, k);
      lv->h = r->top >> k;
      lv->periodic = r->l.periodic;
      lv->edges = p->edges;
      lv->seed = p->seed;
      lv->amp_diamond = amplitude;
      lv->amp_square = amplitude * square_factor;
      lv->diamonds[0] = lv->diamonds[1] = NULL; /* each strip's own */
      r->plan[k].source = NULL;
    }
}

/* Where level k's rows go: the layer or the whole lattice for the last level, else the part
 * the next level reads. Levels are placed from the last one up, each making what the next
 * reads. 0 when out of memory. */
static int
render_level_rows (Render *r, int k, float *out, int width, int height)
{
  Stream *s = &r->plan[k];
  if (k == r->last && r->direct)
    {
      s->rows = out, s->stride = (size_t) width, s->ring = height;
      s->ow = width, s->oh = height;
      return 1;
    }
  if (k == r->last)
    {
      s->rows = r->whole, s->stride = (size_t) r->l.nodes_x, s->ring = r->l.nodes_y;
      s->ow = r->l.nodes_x, s->oh = r->l.nodes_y;
      return 1;
    }
  const Stream *next = &r->plan[k + 1];
  const int     periodic = r->l.periodic;
  s->ow = periodic || next->ow / 2 + 2 > s->lv.cw ? s->lv.cw : next->ow / 2 + 2;
  s->oh = periodic || (next->oh - 1) / 2 + 2 > s->lv.ch ? s->lv.ch : (next->oh - 1) / 2 + 2;
  s->ring = periodic ? s->oh : 4;
  s->stride = (size_t) s->ow;
  /* A periodic level is kept whole for the next; a bounded one is a ring of each strip's
   * own. */
  return ! periodic || (s->rows = alloc_floats (s->stride, (size_t) s->ring)) != NULL;
}

/* Column hashes for the columns the level makes (and one beyond); 0 when out of memory. */
static int
level_column_hashes (Stream *s, uint32_t seed)
{
  const int columns = level_columns (s);
  s->lv.col_even = terrain_alloc (((size_t) columns + 2) * sizeof (uint32_t));
  if (s->lv.col_even == NULL)
    return 0;
  s->lv.col_odd = s->lv.col_even + columns / 2 + 1;
  for (int a = 0; 2 * a < columns; a++)
    s->lv.col_even[a] = terrain_hash_column (seed, 2 * a * s->lv.h, 0);
  for (int a = 0; 2 * a + 1 < columns; a++)
    s->lv.col_odd[a] = terrain_hash_column (seed, (2 * a + 1) * s->lv.h, 0);
  return 1;
}

/* Each level's parent: the top nodes, or the level before when it is kept whole (else each
 * strip's ring of it). */
static void
render_parents (Render *r)
{
  for (int k = 1; k <= r->last; k++)
    {
      Level *lv = &r->plan[k].lv;
      lv->parent = k > 1 ? r->plan[k - 1].rows : r->top_nodes;
      lv->pstride = k > 1 ? r->plan[k - 1].stride : (size_t) render_level_w (r, 0);
      lv->pring = k > 1 ? r->plan[k - 1].ring : render_level_h (r, 0);
    }
}

/* The plan and its buffers, and the top nodes set (from the guide, or the corners); 0 when
 * out of memory. */
static int
render_prepare (Render *r, const TerrainDiamondSquare *p, float *out, int width, int height)
{
  const int top_w = render_level_w (r, 0), top_h = render_level_h (r, 0);
  if ((r->top_nodes = alloc_floats (top_w, top_h)) == NULL)
    return 0;
  if (! r->direct && r->last > 0
      && (r->whole = alloc_floats (r->l.nodes_x, r->l.nodes_y)) == NULL)
    return 0;
  render_amplitudes (r, p);
  for (int k = r->last; k >= 1; k--)
    if (! render_level_rows (r, k, out, width, height)
        || ! level_column_hashes (&r->plan[k], p->seed))
      return 0;
  render_parents (r);
  if (p->guide)
    return set_guided_nodes (&r->l, r->top_nodes, top_w, top_h, p->guide, width, height, r->top);
  set_corners (r->top_nodes, top_w, top_h, r->top, p);
  return 1;
}

/* Makes levels 1 .. last, progress running up to `made`, and the last one's range. */
static TerrainStatus
render_levels (const Render *r, const Kernels *kern, const TerrainProgress *progress,
               double made, Range *range)
{
  if (! r->l.periodic)
    return make_level (r->plan, 1, r->last, kern, progress, 0.0, made, range);
  /* Level by level, progress in proportion to the nodes made. */
  double nodes = 0.0, done = 0.0;
  for (int k = 1; k <= r->last; k++)
    nodes += (double) r->plan[k].ow * r->plan[k].oh;
  TerrainStatus status = TERRAIN_OK;
  for (int k = 1; k <= r->last && status == TERRAIN_OK; k++)
    {
      const double share = (double) r->plan[k].ow * r->plan[k].oh / nodes * made;
      status = make_level (r->plan, k, k, kern, progress, done, done + share,
                           k == r->last ? range : NULL);
      done += share;
    }
  return status;
}

/* Makes the levels into the layer (resampled from the whole lattice unless direct) and
 * finds its range. */
static TerrainStatus
render_heights (Render *r, const Kernels *kern, const TerrainProgress *progress, float *out,
                int width, int height, float *lo, float *hi)
{
  if (r->last > 0)
    {
      const double  made = (double) r->levels / (r->levels + 1); /* the rest: normalisation */
      Range         range;
      range_start (&range);
      TerrainStatus status = render_levels (r, kern, progress, made, &range);
      if (status != TERRAIN_OK)
        return status;
      range_get (&range, lo, hi);
    }
  if (! r->direct)
    {
      r->l.v = r->last > 0 ? r->whole : r->top_nodes;
      lattice_to_layer (&r->l, out, width, height);
      terrain_min_max (out, (size_t) width * height, lo, hi);
    }
  /* The lane-wise range may hold either zero where the output has both: the exact scan
   * decides which one, as the normalisation's arithmetic can tell them apart. */
  if (*lo == 0.0f || *hi == 0.0f)
    terrain_min_max (out, (size_t) width * height, lo, hi);
  return TERRAIN_OK;
}

static void
render_free (Render *r)
{
  for (int k = 1; k <= r->last; k++)
    {
      if (k < r->last)
        terrain_free (r->plan[k].rows);
      terrain_free (r->plan[k].lv.col_even);
    }
  terrain_free (r->top_nodes);
  terrain_free (r->whole);
}

/* Renders diamond-square heights (corners at 0 when fixed; from the guide's nodes down when
 * there is a guide) into out, not yet normalised, and their range into lo, hi. */
static TerrainStatus
diamond_square_render (const TerrainDiamondSquare *p, float *out, int width, int height,
                       const TerrainProgress *progress, const Kernels *kern, float *lo,
                       float *hi)
{
  Render        r;
  TerrainStatus status = TERRAIN_ERROR_NO_MEMORY;
  render_start (&r, p, width, height);
  if (render_prepare (&r, p, out, width, height))
    status = render_heights (&r, kern, progress, out, width, height, lo, hi);
  render_free (&r);
  return status;
}

/* ---- Normalisation, in chunks on several threads ---- */

typedef struct
{
  const Kernels *kern;
  float         *data;
  size_t         n;
  int            chunks, keep_corners;
  float          corner_height, lo, hi;
} Normalization;

/* Chunk c's first value: a multiple of 16 floats (64 bytes, a cache line when the map is
 * line-aligned). */
static size_t
chunk_start (const Normalization *job, int c)
{
  return c == job->chunks ? job->n : job->n / (size_t) job->chunks * (size_t) c / 16 * 16;
}

static void
normalize_chunk (void *user, int index)
{
  const Normalization *job = user;
  const size_t         first = chunk_start (job, index);
  const size_t         n = chunk_start (job, index + 1) - first;
  if (job->keep_corners)
    job->kern->normalize_keeping_corners (job->data + first, n, job->corner_height, job->lo,
                                          job->hi);
  else
    job->kern->normalize (job->data + first, n, job->lo, job->hi);
}

/* The kernels' normalisations are value by value, so chunks give the same values. */
static void
normalize (const Kernels *kern, float *data, size_t n, int keep_corners, float corner_height,
           float lo, float hi)
{
  const int     threads = terrain_parallel_threads ();
  const size_t  lines = n / 16 + 1;
  Normalization job = { kern, data, n, 1, keep_corners, corner_height, lo, hi };
  if (threads > 1)
    job.chunks = lines < (size_t) threads * 4 ? (int) lines : threads * 4;
  terrain_parallel_for (job.chunks, normalize_chunk, &job);
}

/* Shared edge: the period block rendered as a wrapped map into the start of out (whose
 * room it fits in), with the guide's period block, then spread out (terrain-common.h). */
static TerrainStatus
diamond_square_shared_edge (const TerrainDiamondSquare *p, float *out, int width, int height,
                            const TerrainProgress *progress)
{
  const int            pw = terrain_shared_edge_period (width);
  const int            ph = terrain_shared_edge_period (height);
  TerrainDiamondSquare wrapped = *p;
  float               *guide = NULL;
  wrapped.edges = TERRAIN_EDGES_WRAP;
  if (p->guide)
    {
      if ((guide = alloc_floats (width, height)) == NULL)
        return TERRAIN_ERROR_NO_MEMORY;
      memcpy (guide, p->guide, (size_t) width * height * sizeof (float));
      terrain_shared_edge_pack (guide, width, height);
      wrapped.guide = guide;
    }
  TerrainStatus status = terrain_diamond_square (&wrapped, out, pw, ph, progress);
  terrain_free (guide);
  if (status == TERRAIN_OK)
    terrain_shared_edge_spread (out, width, height);
  return status;
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
      (unsigned) p->edges > TERRAIN_EDGES_SHARED_EDGE || (unsigned) p->corners > TERRAIN_CORNERS_FIXED ||
      (unsigned) p->subdivision > TERRAIN_SUBDIVISION_SQUARE_SQUARE ||
      (p->guide && (p->guide_scale < 1 || p->subdivision != TERRAIN_SUBDIVISION_DIAMOND_SQUARE)))
    return TERRAIN_ERROR_INVALID;
  if (p->edges == TERRAIN_EDGES_SHARED_EDGE)
    return diamond_square_shared_edge (p, out, width, height, progress);

  const size_t   n = (size_t) width * height;
  const Kernels *kern = kernels ();
  float          lo, hi;
  if (p->subdivision == TERRAIN_SUBDIVISION_SQUARE_SQUARE)
    {
      Lattice l;
      status = terrain_square_square_lattice (&l, width, height, p->edges == TERRAIN_EDGES_WRAP,
                                              p, progress);
      if (status == TERRAIN_OK)
        lattice_to_layer (&l, out, width, height);
      terrain_free (l.v);
      if (status != TERRAIN_OK)
        return status;
      terrain_min_max (out, n, &lo, &hi);
    }
  else
    {
      status = diamond_square_render (p, out, width, height, progress, kern, &lo, &hi);
      if (status != TERRAIN_OK)
        return status;
    }

  normalize (kern, out, n, p->corners == TERRAIN_CORNERS_FIXED && p->guide == NULL,
             (float) p->corner_height, lo, hi);
  return terrain_progress_report (progress, 1.0) ? TERRAIN_CANCELLED : TERRAIN_OK;
}
