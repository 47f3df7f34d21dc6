#include "field.h"

#include "random.h"
#include "terrain-common.h"

#include <math.h>
#include <stdlib.h>

/* Nodes [x0, x1] x [y0, y1] of one level, in that level's node coordinates (node (i, j) of
 * level k is world pixel (i, j) * 2^(N-k)). int64 so that padding and doubling near the
 * int32 limits cannot overflow. */
typedef struct
{
  int64_t x0, x1, y0, y1;
} Rect;

/* Floor and ceiling of v / 2 for negative v too (C division truncates towards zero).
 * int64_t is two's complement, so v & 1 is the parity. */
static inline int64_t floor_half (int64_t v) { return (v - (v & 1)) / 2; }
static inline int64_t ceil_half (int64_t v) { return (v + (v & 1)) / 2; }

static inline int rect_width (Rect r) { return (int) (r.x1 - r.x0 + 1); }
static inline int rect_height (Rect r) { return (int) (r.y1 - r.y0 + 1); }

/* The parent-level nodes a child rectangle needs. An even child node copies parent i/2; a
 * diamond (odd, odd) averages parents floor(i/2) and floor(i/2)+1; a square node at even i
 * averages the diamonds at i-1 and i+1, i.e. parents i/2-1 .. i/2+1. Over [x0, x1] that is
 * [ceil(x0/2) - 1, floor(x1/2) + 1]: every diamond of every parent cell is then usable. */
static Rect
parent_rect (Rect c)
{
  Rect p = { ceil_half (c.x0) - 1, floor_half (c.x1) + 1,
             ceil_half (c.y0) - 1, floor_half (c.y1) + 1 };
  return p;
}

/* One refinement: level `level` on rectangle cr from level-1 on pr = parent_rect (cr). */
typedef struct
{
  const float *parent;      /* pw x ph */
  Rect         pr;
  float       *child;       /* cw x ch */
  Rect         cr;
  float       *diamonds;    /* (pw-1) x (ph-1): the centre of every parent cell */
  uint32_t    *column_hash; /* 2*pw - 1 entries: child columns 2*pr.x0 .. 2*pr.x1 */
  uint32_t     seed;
  int          level;
  float        amp_diamond, amp_square;
  float        output_scale; /* last level: map each row to [0, 1] while it is in cache */
} Level;

/* terrain_hash (seed, x, y, level) is mix(mix(mix(seed ^ level*K) ^ x) ^ y*K'): the first
 * two rounds depend on the column only, so they are computed once per column and a node
 * costs one mix32. The result is bit-identical to terrain_hash. */
static inline uint32_t
row_key (int64_t y)
{
  return (uint32_t) y * 0x85ebca6bU;
}

static inline float
offset (float amplitude, uint32_t column_hash, uint32_t row_key)
{
  return amplitude * terrain_hash_to_signed (terrain_mix32 (column_hash ^ row_key));
}

/* A raw field value mapped to the output's [0, 1]. */
static inline float
output_value (float v, float scale)
{
  const float o = 0.5f + v * scale;
  return o < 0.0f ? 0.0f : o > 1.0f ? 1.0f : o;
}

/* Every averaged node uses this one expression, so a node's value never depends on which
 * loop computed it. */
static inline float
mean4 (float a, float b, float c, float d)
{
  return 0.25f * ((a + b) + (c + d));
}

static void
level_hashes (const Level *l)
{
  const int      pw = rect_width (l->pr);
  const int64_t  hx0 = 2 * l->pr.x0;
  const uint32_t h0 = terrain_mix32 (l->seed ^ ((uint32_t) l->level * 0x9e3779b9U));
  uint32_t      *column_hash = l->column_hash;
  for (int i = 0; i < 2 * pw - 1; i++)
    column_hash[i] = terrain_mix32 (h0 ^ (uint32_t) (hx0 + i));
}

/* Diamond step for the diamond rows [first, end) (parent cells' rows), after level_hashes:
 * the diamond of parent cell (a, b) is child node (2a+1, 2b+1). A TerrainRowsTask. */
static void
level_diamonds (void *user, int strip, int first, int end)
{
  const Level    *l = user;
  const int       pw = rect_width (l->pr), dw = pw - 1;
  /* Locals, not l->...: stores through float pointers could alias the struct's fields. */
  const uint32_t *column_hash = l->column_hash;
  const float     amp = l->amp_diamond;
  (void) strip;
  for (int b = first; b < end; b++)
    {
      const float   *p0 = l->parent + (size_t) b * pw, *p1 = p0 + pw;
      float         *d = l->diamonds + (size_t) b * dw;
      const uint32_t key = row_key (2 * (l->pr.y0 + b) + 1);
      for (int a = 0; a < dw; a++)
        d[a] = mean4 (p0[a], p0[a + 1], p1[a], p1[a + 1])
               + offset (amp, column_hash[2 * a + 1], key);
    }
}

/* Square step and copies for child rows [row_begin, row_end) (relative to cr.y0). A
 * TerrainRowsTask: rows are independent, so strips of them run on any threads. */
static void
level_rows (void *user, int strip, int row_begin, int row_end)
{
  const Level *l = user;
  (void) strip;
  const int     pw = rect_width (l->pr), dw = pw - 1, cw = rect_width (l->cr);
  const int64_t hx0 = 2 * l->pr.x0;
  /* First even and first odd child column, their offsets in the child row, and the
   * parent (or diamond) column to their left. */
  const int64_t even_x = l->cr.x0 + (l->cr.x0 & 1), odd_x = l->cr.x0 + 1 - (l->cr.x0 & 1);
  const int     even_o = (int) (even_x - l->cr.x0), odd_o = (int) (odd_x - l->cr.x0);
  const int     even_a = (int) (even_x / 2 - l->pr.x0);
  const int     odd_a = (int) (floor_half (odd_x) - l->pr.x0);
  const int     odd_h = (int) (odd_x - hx0), even_h = (int) (even_x - hx0);
  const uint32_t *column_hash = l->column_hash;
  const float     amp = l->amp_square, scale = l->output_scale;

  for (int r = row_begin; r < row_end; r++)
    {
      const int64_t  y = l->cr.y0 + r;
      const uint32_t key = row_key (y);
      float         *row = l->child + (size_t) r * cw;
      if ((y & 1) == 0)
        {
          /* Parent row: even columns are parent nodes, odd ones squares between two
           * parent nodes (left, right) and two diamonds (up, down). */
          const int    b = (int) (y / 2 - l->pr.y0);
          const float *p = l->parent + (size_t) b * pw;
          const float *up = l->diamonds + (size_t) (b - 1) * dw, *down = up + dw;
          for (int o = even_o, a = even_a; o < cw; o += 2, a++)
            row[o] = p[a];
          for (int o = odd_o, a = odd_a, h = odd_h; o < cw; o += 2, a++, h += 2)
            row[o] = mean4 (p[a], p[a + 1], up[a], down[a])
                     + offset (amp, column_hash[h], key);
        }
      else
        {
          /* Diamond row: odd columns are diamonds, even ones squares between two diamonds
           * (left, right) and two parent nodes (up, down). */
          const int    b = (int) (floor_half (y) - l->pr.y0);
          const float *d = l->diamonds + (size_t) b * dw;
          const float *up = l->parent + (size_t) b * pw, *down = up + pw;
          for (int o = odd_o, a = odd_a; o < cw; o += 2, a++)
            row[o] = d[a];
          for (int o = even_o, a = even_a, h = even_h; o < cw; o += 2, a++, h += 2)
            row[o] = mean4 (d[a - 1], d[a], up[a], down[a])
                     + offset (amp, column_hash[h], key);
        }
      if (scale > 0.0f)
        for (int o = 0; o < cw; o++)
          row[o] = output_value (row[o], scale);
    }
}

/* Level 0: white noise, uniform in [-1, 1). Its coordinates are about world / 2^N, so
 * they fit in int32. */
static void
level_zero (float *v, Rect r, uint32_t seed)
{
  const int w = rect_width (r), h = rect_height (r);
  for (int j = 0; j < h; j++)
    for (int i = 0; i < w; i++)
      v[(size_t) j * w + i] = terrain_hash_to_signed (
        terrain_hash (seed, (int32_t) (r.x0 + i), (int32_t) (r.y0 + j), 0));
}

/* Scratch for computing levels first .. levels-1 of rects (first is 0, or the guided level;
 * level k lives in buffer[k & 1], the next level is written by the caller), plus the
 * diamonds and column hashes of one refinement. Each buffer is sized for its own levels,
 * so level N-1 (a quarter of the output) dominates: about half the output's size in all. */
typedef struct
{
  float    *buffer[2];
  float    *diamonds;
  uint32_t *column_hash;
} Scratch;

static void
scratch_free (Scratch *s)
{
  terrain_free (s->buffer[0]);
  terrain_free (s->buffer[1]);
  terrain_free (s->diamonds);
  terrain_free (s->column_hash);
}

static TerrainStatus
scratch_alloc (Scratch *s, const Rect *rects, int first, int levels)
{
  size_t nodes[2] = { 1, 1 }, diamonds = 1, columns = 1;
  for (int k = first; k < levels; k++)
    {
      const size_t w = (size_t) rect_width (rects[k]), h = (size_t) rect_height (rects[k]);
      if (w > SIZE_MAX / sizeof (float) / h)
        return TERRAIN_ERROR_NO_MEMORY;
      nodes[k & 1] = w * h > nodes[k & 1] ? w * h : nodes[k & 1];
      diamonds = (w - 1) * (h - 1) > diamonds ? (w - 1) * (h - 1) : diamonds;
      columns = 2 * w - 1 > columns ? 2 * w - 1 : columns;
    }
  s->buffer[0] = terrain_alloc (nodes[0] * sizeof (float));
  s->buffer[1] = terrain_alloc (nodes[1] * sizeof (float));
  s->diamonds = terrain_alloc (diamonds * sizeof (float));
  s->column_hash = terrain_alloc (columns * sizeof (uint32_t));
  if (! s->buffer[0] || ! s->buffer[1] || ! s->diamonds || ! s->column_hash)
    {
      scratch_free (s);
      return TERRAIN_ERROR_NO_MEMORY;
    }
  return TERRAIN_OK;
}

/* Noise-free refinement weights, for the output scale. The value of a node, refined m more
 * levels without noise, spreads over a footprint of weights w (the value itself stays at
 * the node); e(m) = sum(w^2) / 4^m is the mean squared weight per pixel. A diamond offset
 * is first spread by its own level's square step (weight 1/4 on the 4 squares around it),
 * so its footprint starts as that 5-node cross: f(m). Both tend to constants (the
 * integrals of the squared limit functions, e = 0.32813...) as m grows. They are computed
 * with the renderer's own refinement, pushing each pattern through WEIGHT_LEVELS levels;
 * a footprint of radius r grows to 2r + 2, so radius 1 stays within 3 * 2^m. */
#define WEIGHT_LEVELS 3

static void
impulse_energy (const Scratch *s, const Rect *rects, float side, double e[WEIGHT_LEVELS + 1])
{
  const int w0 = rect_width (rects[0]), h0 = rect_height (rects[0]);
  float    *centre = s->buffer[0] + (size_t) (-rects[0].y0) * w0 + (size_t) (-rects[0].x0);
  for (int i = 0; i < w0 * h0; i++)
    s->buffer[0][i] = 0.0f;
  centre[0] = 1.0f;
  centre[-1] = centre[1] = centre[-w0] = centre[w0] = side;
  e[0] = 1.0 + 4.0 * side * side;
  for (int k = 1; k <= WEIGHT_LEVELS; k++)
    {
      Level l = { s->buffer[(k - 1) & 1], rects[k - 1], s->buffer[k & 1], rects[k],
                  s->diamonds, s->column_hash, 0, k, 0.0f, 0.0f, 0.0f };
      level_hashes (&l);
      level_diamonds (&l, 0, 0, rect_height (rects[k - 1]) - 1);
      level_rows (&l, 0, 0, rect_height (rects[k]));
      double sum = 0.0;
      for (int i = 0; i < rect_width (rects[k]) * rect_height (rects[k]); i++)
        sum += (double) l.child[i] * l.child[i];
      e[k] = sum / ldexp (1.0, 2 * k);
    }
}

/* e(m) for any m: e(m) - e(m+1) shrinks by a factor tending to 4 (4.6 at m = 3, 4.1 at
 * m = 5), so beyond the computed levels a geometric tail of ratio 1/4 is added. That
 * underestimates e by at most 0.2% (sigma by 0.1%), which is nothing for a contrast
 * scale, and keeps this part of every call at a few tens of microseconds. */
static double
energy_at (const double e[WEIGHT_LEVELS + 1], int m)
{
  if (m <= WEIGHT_LEVELS)
    return e[m];
  const double tail = (e[WEIGHT_LEVELS] - e[WEIGHT_LEVELS - 1]) / 3.0;
  return e[WEIGHT_LEVELS] + tail * (1.0 - ldexp (1.0, 2 * (WEIGHT_LEVELS - m)));
}

/* Standard deviation of the raw field over seeds and positions (nodes of different levels
 * sit at different places of the 2^N period, so the pointwise variance varies; this is
 * its average). The value is a linear sum of independent offsets: per 4^N pixels one
 * level-0 node (variance 1/3); per 4^(N-k) pixels one level-k diamond (variance r^2/3,
 * footprint f) and two squares (variance r^2 2^-H / 3, footprint e). */
static TerrainStatus
field_sigma (const TerrainField *p, double *sigma)
{
  Rect          rects[WEIGHT_LEVELS + 1];
  const int64_t radius = (int64_t) 3 << WEIGHT_LEVELS;
  rects[WEIGHT_LEVELS] = (Rect) { -radius, radius, -radius, radius };
  for (int k = WEIGHT_LEVELS; k > 0; k--)
    rects[k - 1] = parent_rect (rects[k]);
  Scratch       s;
  TerrainStatus status = scratch_alloc (&s, rects, 0, WEIGHT_LEVELS + 1);
  if (status != TERRAIN_OK)
    return status;
  double e[WEIGHT_LEVELS + 1], f[WEIGHT_LEVELS + 1];
  impulse_energy (&s, rects, 0.0f, e);
  impulse_energy (&s, rects, 0.25f, f);
  scratch_free (&s);

  const int    n = p->iterations;
  const double square = 2.0 * pow (2.0, -p->roughness);
  double       variance = energy_at (e, n) / 3.0;
  for (int k = 1; k <= n; k++)
    {
      const double r2 = pow (2.0, -2.0 * p->roughness * k);
      variance += r2 / 12.0 * (energy_at (f, n - k) + square * energy_at (e, n - k));
    }
  *sigma = sqrt (variance);
  return TERRAIN_OK;
}

/* Output mapping: this many standard deviations either side of 0 fill [0, 1]. */
#define OUTPUT_SIGMAS 3.0

/* Rows per progress report (and per cancellation check) on the last level, on the guided
 * level and on the guide's integral image. */
#define BAND_ROWS 64

/* ---- Guided generation ----
 *
 * The guided level (node spacing s = 2^shift) takes, at node world (X, Y), the mean of the
 * guide over the s x s box centred on the node. For s >= 2 a box of even side has no pixel
 * at its centre: "centred" is taken literally, the continuous box [X - s/2, X + s/2] which
 * covers the pixels X - s/2 and X + s/2 by half. Its weights, (1/2, 1, ..., 1, 1/2) along
 * each axis, are the mean of the two pixel boxes [X - s/2, X + s/2 - 1] and
 * [X - s/2 + 1, X + s/2], so the node value is the mean of four s x s pixel-box means. For
 * s = 1 it is the pixel itself. Positions outside the guide read its nearest edge pixel.
 *
 * Guide values are clamped into [0, 1] when read (NaN reads as 0) and quantised to
 * multiples of 2^-24 (below float resolution near 1), and the integral image holds exact
 * int64 sums of those integers: any rectangle's sum is exact whatever part of the guide
 * the table was built over, so a node's value does not depend on the rendered rectangle
 * and bands stay bit-identical. (A double table would round differently with a different
 * origin.) Sums stay below 2^24 x guide pixels, exact for guides below 2^39 pixels. */
#define GUIDE_ONE ((int64_t) 1 << 24)

static inline int64_t
guide_quantise (float v)
{
  if (! (v > 0.0f))
    return 0; /* also NaN and -inf */
  if (v >= 1.0f)
    return GUIDE_ONE;
  return (int64_t) ((double) v * (double) GUIDE_ONE + 0.5);
}

/* Integral image of guide pixels [gx0, gx0 + w) x [gy0, gy0 + h) (guide coordinates). */
typedef struct
{
  int64_t *sum; /* (w + 1) x (h + 1); sum[(j) * (w + 1) + i] = pixels left of i, above j */
  int64_t  gx0, gy0;
  int      w, h;
} GuideTable;

/* Sum of table pixels [c0, c1] x [r0, r1] (table coordinates), exact. */
static inline int64_t
guide_rect_sum (const GuideTable *t, int c0, int c1, int r0, int r1)
{
  const size_t  stride = (size_t) t->w + 1;
  const int64_t *top = t->sum + (size_t) r0 * stride;
  const int64_t *bottom = t->sum + (size_t) (r1 + 1) * stride;
  return (bottom[c1 + 1] - bottom[c0]) - (top[c1 + 1] - top[c0]);
}

/* A run of table columns (or rows) [c0, c1], each counted `weight` times. */
typedef struct
{
  int    c0, c1;
  double weight;
} GuideRun;

/* Guide positions [a, b] (guide coordinates, a <= b) clamped into [0, n - 1], as at most 3
 * runs in table coordinates (table origin `origin`): the part before the guide piles onto
 * its first pixel, the part after it onto its last. */
static int
guide_runs (int64_t a, int64_t b, int64_t n, int64_t origin, GuideRun runs[3])
{
  int count = 0;
  if (a < 0)
    runs[count++] = (GuideRun) { (int) (0 - origin), (int) (0 - origin),
                                 (double) ((b < -1 ? b : -1) - a + 1) };
  const int64_t lo = a > 0 ? a : 0, hi = b < n - 1 ? b : n - 1;
  if (lo <= hi)
    runs[count++] = (GuideRun) { (int) (lo - origin), (int) (hi - origin), 1.0 };
  if (b > n - 1)
    runs[count++] = (GuideRun) { (int) (n - 1 - origin), (int) (n - 1 - origin),
                                 (double) (b - (a > n ? a : n) + 1) };
  return count;
}

static inline int64_t
clamp64 (int64_t v, int64_t lo, int64_t hi)
{
  return v < lo ? lo : v > hi ? hi : v;
}

/* Runs of the two pixel boxes of every node of one axis (shift >= 1): node i of
 * [i0, i0 + count) sits at guide position i * s - world_origin; its boxes are
 * [x - s/2, x + s/2 - 1] and [x - s/2 + 1, x + s/2]. runs[(i * 2 + box) * 3 ..] holds
 * nruns[i * 2 + box] runs. */
static void
guide_axis (int64_t i0, int count, int shift, int64_t world_origin, int64_t n,
            int64_t origin, GuideRun *runs, int *nruns)
{
  const int64_t s = (int64_t) 1 << shift, h = s / 2;
  for (int i = 0; i < count; i++)
    {
      const int64_t x = (i0 + i) * s - world_origin;
      for (int box = 0; box < 2; box++)
        nruns[i * 2 + box] = guide_runs (x - h + box, x + h - 1 + box, n, origin,
                                         runs + (size_t) (i * 2 + box) * 3);
    }
}

/* The part of the guide that the boxes of the guided level's nodes r read: from the first
 * node's box to the last one's, clamped to the guide. At most the guide, and at most the
 * rendered rectangle plus a margin of about 2.5 x 2^shift on each side (for shift 0 no
 * table is built). */
static GuideTable
guide_extent (const TerrainField *p, int shift, Rect r)
{
  const int64_t s = (int64_t) 1 << shift, h = shift > 0 ? s / 2 : 0;
  const int64_t gw = p->guide_width, gh = p->guide_height;
  GuideTable    t;
  t.sum = NULL;
  t.gx0 = clamp64 (r.x0 * s - p->guide_x - h, 0, gw - 1);
  t.gy0 = clamp64 (r.y0 * s - p->guide_y - h, 0, gh - 1);
  t.w = (int) (clamp64 (r.x1 * s - p->guide_x + h, 0, gw - 1) - t.gx0 + 1);
  t.h = (int) (clamp64 (r.y1 * s - p->guide_y + h, 0, gh - 1) - t.gy0 + 1);
  return t;
}

/* Spacing 1: each node is its own pixel (the same value the table would give, with no
 * table). */
static TerrainStatus
guide_pixels (const TerrainField *p, Rect r, float *v, double six_sigma,
              const TerrainProgress *progress, double *done, double total)
{
  const int64_t gw = p->guide_width, gh = p->guide_height;
  const int     rw = rect_width (r), rh = rect_height (r);
  for (int j = 0; j < rh; j++)
    {
      if (j % BAND_ROWS == 0 && terrain_progress_report (progress, *done / total))
        return TERRAIN_CANCELLED;
      const int64_t gy = clamp64 (r.y0 + j - p->guide_y, 0, gh - 1);
      const float  *g = p->guide + (size_t) gy * (size_t) gw;
      for (int i = 0; i < rw; i++)
        {
          const int64_t gx = clamp64 (r.x0 + i - p->guide_x, 0, gw - 1);
          const double  mean = (double) guide_quantise (g[gx]) * (1.0 / (double) GUIDE_ONE);
          v[(size_t) j * rw + i] = (float) ((mean - 0.5) * six_sigma);
        }
      *done += rw;
    }
  return TERRAIN_OK;
}

/* The two pixel boxes of every node along each axis, as guide_axis () gives them. */
typedef struct
{
  GuideRun *xruns, *yruns;
  int      *xn, *yn;
} GuideBoxes;

static void
guide_free (GuideTable *t, GuideBoxes *b)
{
  terrain_free (t->sum);
  terrain_free (b->xruns);
  terrain_free (b->yruns);
  terrain_free (b->xn);
  terrain_free (b->yn);
}

/* The integral image of t's extent and the boxes of rw x rh nodes; on failure nothing is
 * left allocated. */
static TerrainStatus
guide_alloc (GuideTable *t, GuideBoxes *b, int rw, int rh)
{
  const size_t stride = (size_t) t->w + 1;
  if (stride > SIZE_MAX / sizeof (int64_t) / ((size_t) t->h + 1) ||
      (size_t) rw > SIZE_MAX / 6 / sizeof (GuideRun) ||
      (size_t) rh > SIZE_MAX / 6 / sizeof (GuideRun))
    return TERRAIN_ERROR_NO_MEMORY;
  t->sum = terrain_alloc (stride * ((size_t) t->h + 1) * sizeof (int64_t));
  b->xruns = terrain_alloc ((size_t) rw * 6 * sizeof (GuideRun));
  b->yruns = terrain_alloc ((size_t) rh * 6 * sizeof (GuideRun));
  b->xn = terrain_alloc ((size_t) rw * 2 * sizeof (int));
  b->yn = terrain_alloc ((size_t) rh * 2 * sizeof (int));
  if (t->sum && b->xruns && b->yruns && b->xn && b->yn)
    return TERRAIN_OK;
  guide_free (t, b);
  return TERRAIN_ERROR_NO_MEMORY;
}

/* Sums the quantised guide pixels of t's extent into its integral image. */
static TerrainStatus
guide_table_fill (const TerrainField *p, GuideTable *t, const TerrainProgress *progress,
                  double *done, double total)
{
  const size_t stride = (size_t) t->w + 1;
  for (size_t i = 0; i < stride; i++)
    t->sum[i] = 0;
  for (int j = 0; j < t->h; j++)
    {
      if (j % BAND_ROWS == 0 && terrain_progress_report (progress, *done / total))
        return TERRAIN_CANCELLED;
      const float   *g =
        p->guide + (size_t) (t->gy0 + j) * (size_t) p->guide_width + (size_t) t->gx0;
      const int64_t *above = t->sum + (size_t) j * stride;
      int64_t       *row = t->sum + (size_t) (j + 1) * stride, run = 0;
      row[0] = 0;
      for (int i = 0; i < t->w; i++)
        {
          run += guide_quantise (g[i]);
          row[i + 1] = above[i + 1] + run;
        }
      *done += t->w;
    }
  return TERRAIN_OK;
}

/* Node (i, j)'s 2 x 2 box sums, each run weighted by how often it counts. */
static double
guide_node_sum (const GuideTable *t, const GuideBoxes *b, int i, int j)
{
  double sum = 0.0;
  for (int by = 0; by < 2; by++)
    for (int bx = 0; bx < 2; bx++)
      {
        const GuideRun *ys = b->yruns + (size_t) (j * 2 + by) * 3;
        const GuideRun *xs = b->xruns + (size_t) (i * 2 + bx) * 3;
        for (int m = 0; m < b->yn[j * 2 + by]; m++)
          for (int k = 0; k < b->xn[i * 2 + bx]; k++)
            sum += ys[m].weight * xs[k].weight *
                   (double) guide_rect_sum (t, xs[k].c0, xs[k].c1, ys[m].c0, ys[m].c1);
      }
  return sum;
}

/* The nodes of r from the integral image and the boxes. */
static TerrainStatus
guide_nodes (const GuideTable *t, const GuideBoxes *b, int shift, Rect r, float *v,
             double six_sigma, const TerrainProgress *progress, double *done, double total)
{
  const int64_t s = (int64_t) 1 << shift;
  const int     rw = rect_width (r), rh = rect_height (r);
  /* Mean of 2 x 2 box sums of s x s pixels of values scaled by GUIDE_ONE (a power of two:
   * exact). */
  const double norm = 1.0 / (4.0 * (double) s * (double) s * (double) GUIDE_ONE);
  for (int j = 0; j < rh; j++)
    {
      if (j % BAND_ROWS == 0 && terrain_progress_report (progress, *done / total))
        return TERRAIN_CANCELLED;
      for (int i = 0; i < rw; i++)
        v[(size_t) j * rw + i] = (float) ((guide_node_sum (t, b, i, j) * norm - 0.5) * six_sigma);
      *done += rw;
    }
  return TERRAIN_OK;
}

/* Computes the guided level on r (node coordinates of spacing 2^shift) into v, in raw
 * field units: (box mean - 0.5) * six_sigma. The integral image covers only
 * guide_extent (). Progress runs from *done towards total. */
static TerrainStatus
guide_level (const TerrainField *p, int shift, Rect r, float *v, double six_sigma,
             const TerrainProgress *progress, double *done, double total)
{
  if (shift == 0)
    return guide_pixels (p, r, v, six_sigma, progress, done, total);

  GuideTable    t = guide_extent (p, shift, r);
  GuideBoxes    b = { NULL, NULL, NULL, NULL };
  TerrainStatus status = guide_alloc (&t, &b, rect_width (r), rect_height (r));
  if (status != TERRAIN_OK)
    return status;
  status = guide_table_fill (p, &t, progress, done, total);
  if (status == TERRAIN_OK)
    {
      guide_axis (r.x0, rect_width (r), shift, p->guide_x, p->guide_width, t.gx0, b.xruns, b.xn);
      guide_axis (r.y0, rect_height (r), shift, p->guide_y, p->guide_height, t.gy0, b.yruns,
                  b.yn);
      status = guide_nodes (&t, &b, shift, r, v, six_sigma, progress, done, total);
    }
  guide_free (&t, &b);
  return status;
}
void
terrain_field_defaults (TerrainField *params)
{
  params->seed = 0;
  params->iterations = 8;
  params->roughness = 1.0;
  params->offset_x = 0;
  params->offset_y = 0;
  params->guide = NULL;
  params->guide_width = 0;
  params->guide_height = 0;
  params->guide_x = 0;
  params->guide_y = 0;
  params->guide_scale = 32;
}

/* Every parameter and the size, before anything is touched. */
static TerrainStatus
field_check (const TerrainField *p, int width, int height)
{
  TerrainStatus status = terrain_check_size (width, height);
  if (status != TERRAIN_OK)
    return status;
  if (p->iterations < 1 || p->iterations > TERRAIN_FIELD_MAX_ITERATIONS ||
      ! (p->roughness >= 0.0 && p->roughness <= 2.0) ||
      (int64_t) p->offset_x + width - 1 > INT32_MAX ||
      (int64_t) p->offset_y + height - 1 > INT32_MAX)
    return TERRAIN_ERROR_INVALID;
  if (p->guide && (p->guide_width < 1 || p->guide_height < 1 || p->guide_scale < 1))
    return TERRAIN_ERROR_INVALID;
  return TERRAIN_OK;
}

/* One render: its levels, scratch and progress. */
typedef struct
{
  const TerrainField    *p;
  float                 *out;
  size_t                 n;        /* output pixels */
  Rect                   rects[TERRAIN_FIELD_MAX_ITERATIONS + 1]; /* of levels 0 .. levels */
  int                    levels;
  int                    first;    /* the first level computed: 0, or the guided level */
  int                    shift;    /* guided: the guided level's spacing is 2^shift */
  double                 sigma;
  float                  scale;    /* raw field to output: 0.5 + v * scale, clamped */
  Scratch                s;
  const TerrainProgress *progress;
  double                 done, total; /* progress: nodes and guide pixels made, of total */
} FieldRun;

/* The levels' rectangles, the levels computed and the work to do. */
static void
field_plan (FieldRun *f, int width, int height)
{
  const TerrainField *p = f->p;
  const int           levels = f->levels;
  f->rects[levels] = (Rect) { p->offset_x, (int64_t) p->offset_x + width - 1,
                              p->offset_y, (int64_t) p->offset_y + height - 1 };
  for (int k = levels; k > 0; k--)
    f->rects[k - 1] = parent_rect (f->rects[k]);

  /* Guided: level `first` (spacing 2^shift, the largest power of two <= guide_scale and
   * <= 2^N) comes from the guide; the levels above it are not computed. */
  f->first = 0;
  f->shift = 0;
  if (p->guide)
    {
      while (f->shift < levels && ((int64_t) 2 << f->shift) <= p->guide_scale)
        f->shift++;
      f->first = levels - f->shift;
    }

  /* Progress counts refined nodes (and, guided, guide nodes and integral-image pixels, at
   * most about the rectangle's size); the last level is most of them. */
  f->total = 0.0;
  f->done = 0.0;
  for (int k = f->first + 1; k <= levels; k++)
    f->total += (double) rect_width (f->rects[k]) * rect_height (f->rects[k]);
  if (p->guide)
    {
      const Rect       r = f->rects[f->first];
      const GuideTable t = guide_extent (p, f->shift, r);
      f->total += (double) rect_width (r) * rect_height (r) +
                  (f->shift > 0 ? (double) t.w * t.h : 0.0);
    }
}

/* The first level computed: white noise, or the guided level (written into the output and
 * mapped to [0, 1] when it is the last level). */
static TerrainStatus
field_first_level (FieldRun *f)
{
  const TerrainField *p = f->p;
  if (! p->guide)
    {
      level_zero (f->s.buffer[0], f->rects[0], p->seed);
      return TERRAIN_OK;
    }
  const int     last = f->first == f->levels;
  float        *v = last ? f->out : f->s.buffer[f->first & 1];
  TerrainStatus status = guide_level (p, f->shift, f->rects[f->first], v,
                                      2.0 * OUTPUT_SIGMAS * f->sigma, f->progress, &f->done,
                                      f->total);
  if (status == TERRAIN_OK && last)
    for (size_t i = 0; i < f->n; i++)
      v[i] = output_value (v[i], f->scale);
  return status;
}

/* Level k from level k - 1: the diamonds, then the rows (mapped to the output on the
 * last level). */
static TerrainStatus
field_refine (FieldRun *f, int k)
{
  const TerrainField *p = f->p;
  const Rect         *rects = f->rects;
  const int           last = k == f->levels;
  const int           ch = rect_height (rects[k]), cw = rect_width (rects[k]);
  Level l = { f->s.buffer[(k - 1) & 1], rects[k - 1], last ? f->out : f->s.buffer[k & 1],
              rects[k], f->s.diamonds, f->s.column_hash, p->seed, k,
              (float) pow (2.0, -p->roughness * k),
              (float) pow (2.0, -p->roughness * (k + 0.5)), last ? f->scale : 0.0f };
  const int dh = rect_height (rects[k - 1]) - 1; /* rows of diamonds */
  level_hashes (&l);
  terrain_parallel_rows (dh, terrain_map_strips (dh, cw), dh, level_diamonds,
                         &l, NULL, 0.0, 0.0);
  const TerrainStatus status =
    terrain_parallel_rows (ch, terrain_map_strips (ch, cw), BAND_ROWS,
                           level_rows, &l, f->progress, f->done / f->total,
                           (f->done + (double) cw * ch) / f->total);
  f->done += (double) cw * ch;
  return status;
}

TerrainStatus
terrain_field (const TerrainField *p, float *out, int width, int height,
               const TerrainProgress *progress)
{
  TerrainStatus status = field_check (p, width, height);
  if (status != TERRAIN_OK)
    return status;

  FieldRun f = { .p = p, .out = out, .n = (size_t) width * height, .levels = p->iterations,
                 .progress = progress };
  status = field_sigma (p, &f.sigma);
  if (status != TERRAIN_OK)
    return status;
  f.scale = (float) (0.5 / (OUTPUT_SIGMAS * f.sigma));
  field_plan (&f, width, height);
  status = scratch_alloc (&f.s, f.rects, f.first, f.levels);
  if (status != TERRAIN_OK)
    return status;

  status = field_first_level (&f);
  for (int k = f.first + 1; k <= f.levels && status == TERRAIN_OK; k++)
    status = field_refine (&f, k);
  scratch_free (&f.s);
  if (status == TERRAIN_OK && terrain_progress_report (progress, 1.0))
    status = TERRAIN_CANCELLED;
  return status;
}
