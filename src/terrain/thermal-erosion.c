#include "thermal-erosion.h"

#include "terrain-common.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Cells between two progress reports (and cancellation checks). */
#define CELLS_PER_REPORT (1 << 20)
/* Cells the row kernels take at a time; a whole number of vectors on every target. */
#define BLOCK 8

#if defined(__GNUC__) || defined(__clang__)
#define ALWAYS_INLINE static inline __attribute__ ((always_inline))
#else
#define ALWAYS_INLINE static inline
#endif
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#define THERMAL_X86_DISPATCH 1
#endif
/* Clang's cost model declines the block loops (GCC's takes them): asked, it vectorises them
 * as GCC does. Below -O2 it has no vectoriser to ask, which is no reason for a warning. */
#ifdef __clang__
#pragma clang diagnostic ignored "-Wpass-failed"
#define VECTORISE _Pragma ("clang loop vectorize(enable)")
#else
#define VECTORISE
#endif

/* ---- One pair of neighbours ----
 * Every value below is computed by the same expression for every cell, in the interior
 * kernels and at the border alike, so a cell's result depends on its neighbourhood only. */

static inline float
min_f (float a, float b)
{
  return a < b ? a : b;
}

static inline float
max_f (float a, float b)
{
  return a > b ? a : b;
}

/* What a difference e exceeds the threshold t >= 0 by: e - clamp (e, -t, t). 0 exactly when
 * |e| <= t, and excess (-e, t) == -excess (e, t) bit for bit. */
static inline float
excess (float e, float t)
{
  return e - max_f (min_f (e, t), -t);
}

static inline uint32_t
magnitude_bits (float v)
{
  uint32_t bits;
  memcpy (&bits, &v, sizeof bits);
  return bits & 0x7fffffffu;
}

/* 1 when |e| > t, else 0; t_bits = magnitude_bits (t). The bits of non-negative floats
 * order like the floats, so this is t_bits < |e|'s bits, written as the sign of their
 * difference: plain arithmetic, which compilers vectorise (a comparison here they turn
 * into a branch). Agrees with excess (e, t) != 0. */
static inline int
steep (float e, uint32_t t_bits)
{
  return (int) ((t_bits - magnitude_bits (e)) >> 31);
}

/* strength / 2 / max (n, 1) for a cell in n steep pairs: n + 1 when n == 0, n otherwise,
 * again without a comparison. */
static inline float
rate_for (float half_strength, int n)
{
  return half_strength / (float) (n + (int) ((uint32_t) (n - 1) >> 31));
}

/* What the cell at height `here` gives its neighbour at `there` (negative: takes):
 * eta x = min (rate here, rate there) * excess. */
static inline float
transfer (float here, float there, float rate_here, float rate_there, float t)
{
  return min_f (rate_here, rate_there) * excess (here - there, t);
}

/* The new height from the transfers to N S W E (and NW SE NE SW), summed in pairs of
 * opposite neighbours so that rotating or mirroring the map only permutes the operands of
 * each addition. */
static inline float
lowered (float here, int eight, float n, float s, float w, float e, float nw, float se,
         float ne, float sw)
{
  const float axial = (n + s) + (w + e);
  return here - (eight ? axial + ((nw + se) + (ne + sw)) : axial);
}

/* ---- One iteration ---- */

typedef struct
{
  const float *old;     /* heights before the iteration */
  float       *next;    /* heights after it */
  float       *rates;   /* per task: 3 rows of rates, row y at (y % 3) */
  int         *changed; /* per task: some height of its rows changed */
  int          width, height, eight;
  float        talus, diagonal_talus; /* thresholds of axial and diagonal pairs */
  uint32_t     talus_bits, diagonal_bits;
  float        half_strength;
  int          band_rows, tasks;  /* rows per run, tasks per run */
  int          band_start, band_end, rows_per_task; /* the rows of the current run */
  const struct RowKernels *kernels;
} Iteration;

/* Neighbours in the order lowered() takes them: N S W E, then NW SE NE SW. */
static const int neighbour_dx[8] = { 0, 0, -1, 1, -1, 1, 1, -1 };
static const int neighbour_dy[8] = { -1, 1, 0, 0, -1, 1, -1, 1 };

static int
inside (const Iteration *it, int x, int y)
{
  return x >= 0 && x < it->width && y >= 0 && y < it->height;
}

/* The rate of any cell, neighbours outside the map left out. */
static float
cell_rate (const Iteration *it, int x, int y)
{
  const float here = it->old[(size_t) y * it->width + x];
  int n = 0;
  for (int k = 0; k < (it->eight ? 8 : 4); k++)
    {
      const int nx = x + neighbour_dx[k], ny = y + neighbour_dy[k];
      if (inside (it, nx, ny))
        n += steep (here - it->old[(size_t) ny * it->width + nx],
                    k < 4 ? it->talus_bits : it->diagonal_bits);
    }
  return rate_for (it->half_strength, n);
}

/* The new height of any cell; rate_rows[0..2] are the rates of rows y - 1 .. y + 1 (NULL
 * outside the map). A neighbour outside the map transfers nothing. */
static float
cell_height (const Iteration *it, const float *const rate_rows[3], int x, int y)
{
  const float here = it->old[(size_t) y * it->width + x];
  const float rate = rate_rows[1][x];
  float t[8] = { 0 };
  for (int k = 0; k < (it->eight ? 8 : 4); k++)
    {
      const int nx = x + neighbour_dx[k], ny = y + neighbour_dy[k];
      if (inside (it, nx, ny))
        t[k] = transfer (here, it->old[(size_t) ny * it->width + nx], rate,
                         rate_rows[1 + neighbour_dy[k]][nx],
                         k < 4 ? it->talus : it->diagonal_talus);
    }
  return lowered (here, it->eight, t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7]);
}

/* ---- Interior kernels ----
 * BLOCK cells whose neighbours all exist, written as scalar loops of a constant trip count
 * with no branch, which GCC (even at -O2) and Clang vectorise; compiled once for the
 * baseline and, on x86, once more for AVX2, chosen at run time. Lane for lane the
 * arithmetic is the scalar expression's, so every target gives the same bits as
 * cell_rate() and cell_height(). Never for a target with FMA (AVX-512F brings it with
 * it): a fused multiply-add would round differently. */

ALWAYS_INLINE void
rate_block (float *restrict rate, const float *restrict up, const float *restrict c,
            const float *restrict down, const Iteration *it, int eight)
{
  const uint32_t t = it->talus_bits, td = it->diagonal_bits;
  const float    half_strength = it->half_strength;
  VECTORISE
  for (int x = 0; x < BLOCK; x++)
    {
      const float here = c[x];
      int n = steep (here - up[x], t) + steep (here - down[x], t) + steep (here - c[x - 1], t)
              + steep (here - c[x + 1], t);
      if (eight)
        n += steep (here - up[x - 1], td) + steep (here - down[x + 1], td)
             + steep (here - up[x + 1], td) + steep (here - down[x - 1], td);
      rate[x] = rate_for (half_strength, n);
    }
}

ALWAYS_INLINE void
height_block (float *restrict out, const float *restrict up, const float *restrict c,
              const float *restrict down, const float *restrict rate_up,
              const float *restrict rate, const float *restrict rate_down,
              const Iteration *it, int eight)
{
  const float t = it->talus, td = it->diagonal_talus;
  VECTORISE
  for (int x = 0; x < BLOCK; x++)
    {
      const float here = c[x], r = rate[x];
      out[x] = lowered (here, eight,
                        transfer (here, up[x], r, rate_up[x], t),
                        transfer (here, down[x], r, rate_down[x], t),
                        transfer (here, c[x - 1], r, rate[x - 1], t),
                        transfer (here, c[x + 1], r, rate[x + 1], t),
                        transfer (here, up[x - 1], r, rate_up[x - 1], td),
                        transfer (here, down[x + 1], r, rate_down[x + 1], td),
                        transfer (here, up[x + 1], r, rate_up[x + 1], td),
                        transfer (here, down[x - 1], r, rate_down[x - 1], td));
    }
}

/* The blocks that cover columns 1 .. end - 1: one every BLOCK columns, the last one moved
 * back to end at end - 1, overlapping its predecessor (whose cells it computes again, to
 * the same bits), so no column is left to the slow per-cell code. None when the row is
 * shorter than a block: first_block returns end. */
ALWAYS_INLINE int
first_block (int end)
{
  return end - 1 >= BLOCK ? 1 : end;
}

ALWAYS_INLINE int
next_block (int x, int end)
{
  return x + BLOCK >= end ? end : x + 2 * BLOCK <= end ? x + BLOCK : end - BLOCK;
}

/* Columns 1 .. `end` - 1 of an interior row go through the kernels; returns the first column
 * they did not do. */
ALWAYS_INLINE int
rate_run (const Iteration *it, int y, float *rate, int end)
{
  const size_t w = it->width;
  const float *c = it->old + y * w;
  for (int x = first_block (end); x < end; x = next_block (x, end))
    if (it->eight)
      rate_block (rate + x, c + x - w, c + x, c + x + w, it, 1);
    else
      rate_block (rate + x, c + x - w, c + x, c + x + w, it, 0);
  return first_block (end) < end ? end : 1;
}

ALWAYS_INLINE int
height_run (const Iteration *it, int y, const float *const r[3], float *out, int end)
{
  const size_t w = it->width;
  const float *c = it->old + y * w;
  for (int x = first_block (end); x < end; x = next_block (x, end))
    if (it->eight)
      height_block (out + x, c + x - w, c + x, c + x + w, r[0] + x, r[1] + x, r[2] + x, it, 1);
    else
      height_block (out + x, c + x - w, c + x, c + x + w, r[0] + x, r[1] + x, r[2] + x, it, 0);
  return first_block (end) < end ? end : 1;
}

static int
rate_run_base (const Iteration *it, int y, float *rate, int end)
{
  return rate_run (it, y, rate, end);
}

static int
height_run_base (const Iteration *it, int y, const float *const r[3], float *out, int end)
{
  return height_run (it, y, r, out, end);
}

#ifdef THERMAL_X86_DISPATCH
__attribute__ ((target ("avx2"))) static int
rate_run_avx2 (const Iteration *it, int y, float *rate, int end)
{
  return rate_run (it, y, rate, end);
}

__attribute__ ((target ("avx2"))) static int
height_run_avx2 (const Iteration *it, int y, const float *const r[3], float *out, int end)
{
  return height_run (it, y, r, out, end);
}
#endif

typedef struct RowKernels
{
  int (*rates) (const Iteration *it, int y, float *rate, int end);
  int (*heights) (const Iteration *it, int y, const float *const r[3], float *out, int end);
} RowKernels;

static const RowKernels *
row_kernels (void)
{
  static const RowKernels base = { rate_run_base, height_run_base };
#ifdef THERMAL_X86_DISPATCH
  static const RowKernels avx2 = { rate_run_avx2, height_run_avx2 };
  if (__builtin_cpu_supports ("avx2"))
    return &avx2;
#endif
  return &base;
}

/* ---- Rows ---- */

static int
interior_row (const Iteration *it, int y)
{
  return y > 0 && y < it->height - 1 && it->width > 2;
}

static void
rate_row (const Iteration *it, int y, float *rate)
{
  const int w = it->width;
  int x = 0;
  if (interior_row (it, y))
    {
      rate[0] = cell_rate (it, 0, y);
      x = it->kernels->rates (it, y, rate, w - 1);
    }
  for (; x < w; x++)
    rate[x] = cell_rate (it, x, y);
}

static void
height_row (const Iteration *it, int y, const float *const r[3], float *out)
{
  const int w = it->width;
  int x = 0;
  if (interior_row (it, y))
    {
      out[0] = cell_height (it, r, 0, y);
      x = it->kernels->heights (it, y, r, out, w - 1);
    }
  for (; x < w; x++)
    out[x] = cell_height (it, r, x, y);
}

/* Task `index` of a run: its share of the rows [band_start, band_end). The rates of the rows
 * just above and below its share are computed again here (also by the neighbouring task),
 * so tasks share nothing but the old heights. */
static void
iterate_rows (void *user, int index)
{
  const Iteration *it = user;
  const int    w = it->width, h = it->height;
  const int    y0 = it->band_start + index * it->rows_per_task;
  const int    y1 = y0 + it->rows_per_task < it->band_end ? y0 + it->rows_per_task : it->band_end;
  float *const ring = it->rates + (size_t) index * 3 * w;
  int changed = 0;
  it->changed[index] = 0;
  if (y0 >= y1) /* the last run of an iteration may have fewer rows than tasks */
    return;
#define RATES_OF(row) (ring + (size_t) ((row) % 3) * w)
  if (y0 > 0)
    rate_row (it, y0 - 1, RATES_OF (y0 - 1));
  rate_row (it, y0, RATES_OF (y0));
  for (int y = y0; y < y1; y++)
    {
      if (y + 1 < h)
        rate_row (it, y + 1, RATES_OF (y + 1));
      const float *const r[3] = { y > 0 ? RATES_OF (y - 1) : NULL, RATES_OF (y),
                                  y + 1 < h ? RATES_OF (y + 1) : NULL };
      float *out = it->next + (size_t) y * w;
      height_row (it, y, r, out);
      changed |= memcmp (out, it->old + (size_t) y * w, (size_t) w * sizeof (float)) != 0;
    }
#undef RATES_OF
  it->changed[index] = changed;
}

/* ---- Scale ---- */

/* Differences of heights beyond FLT_MAX / 2 would overflow: such maps are halved first. */
static int
needs_halving (const float *data, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (fabsf (data[i]) > FLT_MAX / 2)
      return 1;
  return 0;
}

static void
scale (float *data, size_t n, float factor)
{
  for (size_t i = 0; i < n; i++)
    {
      const float v = data[i] * factor;
      data[i] = v > FLT_MAX ? FLT_MAX : v < -FLT_MAX ? -FLT_MAX : v;
    }
}

/* ---- Iterations ---- */

/* The iterations' constants: thresholds in units of `unit` (the map's scale), runs of
 * band_rows rows cut into `tasks` tasks. The buffers are the caller's. */
static void
iteration_init (Iteration *it, const TerrainThermalErosion *p, int width, int height,
                float unit, int band_rows, int tasks)
{
  it->width = width;
  it->height = height;
  it->eight = p->neighbourhood == TERRAIN_NEIGHBOURHOOD_8;
  it->talus = (float) p->talus * unit;
  it->diagonal_talus = (float) (p->talus * sqrt (2.0)) * unit;
  it->talus_bits = magnitude_bits (it->talus);
  it->diagonal_bits = magnitude_bits (it->diagonal_talus);
  it->half_strength = (float) (p->strength / 2.0);
  it->band_rows = band_rows;
  it->tasks = tasks;
  it->rows_per_task = (band_rows + tasks - 1) / tasks;
  it->kernels = row_kernels ();
}

/* Iteration i of `iterations`, from it->old into it->next, run by run, reporting progress
 * before each run; *changed_any: some height changed. */
static TerrainStatus
iterate (Iteration *it, int i, int iterations, const TerrainProgress *progress, int *changed_any)
{
  *changed_any = 0;
  for (int y = 0; y < it->height; y += it->band_rows)
    {
      if (terrain_progress_report (progress, (i + (double) y / it->height) / iterations))
        return TERRAIN_CANCELLED;
      it->band_start = y;
      it->band_end = y + it->band_rows < it->height ? y + it->band_rows : it->height;
      terrain_parallel_for (it->tasks, iterate_rows, it);
      for (int t = 0; t < it->tasks; t++)
        *changed_any |= it->changed[t];
    }
  return TERRAIN_OK;
}

/* Runs the iterations on data, stopping early at a fixed point. Heights go from `current`
 * to the other buffer (data or spare) and back: `current` always holds the result of whole
 * iterations, and ends in data, cancelled or not. */
static TerrainStatus
iterate_all (Iteration *it, float *data, float *spare, int iterations,
             const TerrainProgress *progress)
{
  TerrainStatus status = TERRAIN_OK;
  float        *current = data;
  for (int i = 0; i < iterations; i++)
    {
      int changed_any;
      it->old = current;
      it->next = current == data ? spare : data;
      status = iterate (it, i, iterations, progress, &changed_any);
      if (status != TERRAIN_OK)
        break;
      current = it->next;
      if (! changed_any) /* a fixed point: every further iteration gives the same */
        break;
    }
  if (current != data)
    memcpy (data, current, (size_t) it->width * it->height * sizeof (float));
  return status;
}

/* Erodes data with the scratch given, halving a map too large for its differences first
 * (and restoring its scale after). */
static TerrainStatus
erode (const TerrainThermalErosion *p, float *data, int width, int height, float *spare,
       float *rates, int *changed, int band_rows, int tasks, const TerrainProgress *progress)
{
  const size_t n = (size_t) width * height;
  const int    halved = needs_halving (data, n);
  const float  unit = halved ? 0.5f : 1.0f;
  if (halved)
    scale (data, n, unit);
  Iteration it;
  iteration_init (&it, p, width, height, unit, band_rows, tasks);
  it.rates = rates;
  it.changed = changed;
  const TerrainStatus status = iterate_all (&it, data, spare, p->iterations, progress);
  if (halved)
    scale (data, n, 1.0f / unit);
  return status;
}

/* ---- Public entry points ---- */

void
terrain_thermal_erosion_defaults (TerrainThermalErosion *params)
{
  params->iterations = 50;
  params->talus = 0.01;
  params->strength = 0.5;
  params->neighbourhood = TERRAIN_NEIGHBOURHOOD_8;
}

TerrainStatus
terrain_thermal_erosion (const TerrainThermalErosion *p, float *data, int width, int height,
                         const TerrainProgress *progress)
{
  TerrainStatus status = terrain_check_size (width, height);
  if (status != TERRAIN_OK)
    return status;
  if (p->iterations < 1 || p->iterations > TERRAIN_THERMAL_MAX_ITERATIONS ||
      ! (p->talus >= 0.0 && p->talus <= 1.0) || ! (p->strength >= 0.0 && p->strength <= 1.0) ||
      (unsigned) p->neighbourhood > TERRAIN_NEIGHBOURHOOD_8)
    return TERRAIN_ERROR_INVALID;

  const size_t n = (size_t) width * height;
  const int    band_rows = width >= CELLS_PER_REPORT ? 1
                           : CELLS_PER_REPORT / width < height ? CELLS_PER_REPORT / width : height;
  int tasks = terrain_parallel_threads ();
  tasks = tasks < band_rows ? tasks : band_rows;
  float *spare = terrain_alloc (n * sizeof (float));
  float *rates = terrain_alloc ((size_t) tasks * 3 * width * sizeof (float));
  int   *changed = terrain_alloc ((size_t) tasks * sizeof (int));
  status = spare && rates && changed
             ? erode (p, data, width, height, spare, rates, changed, band_rows, tasks, progress)
             : TERRAIN_ERROR_NO_MEMORY;
  terrain_free (spare);
  terrain_free (rates);
  terrain_free (changed);
  if (status == TERRAIN_OK && terrain_progress_report (progress, 1.0))
    status = TERRAIN_CANCELLED;
  return status;
}
