/* River erosion: the slope-area law at steady state (concavity m / n), every cell
 * draining, wrapped maps tiling with rivers across the borders, determinism over thread
 * splits, cancellation and report intervals, the maps, refusals and extremes, and the
 * depression filling against a plain restatement of its rule.
 *
 * Receivers, drainage areas and pits are recomputed here from the heights, independently
 * of the library's code. */
#include "check.h"
#include "drainage.h"
#include "field-stats.h"
#include "progress-log.h"

#include "diamond-square.h"
#include "heightmap.h"
#include "random.h"
#include "river-erosion.h"
#include "terrain-common.h"
#include "timing.h"

#include <float.h>
#include <stdint.h>
#include <stdlib.h>

static TerrainRiverErosion
river (int iterations, double erosion, double diffusion, TerrainRiverUplift uplift,
       TerrainRiverEdges edges)
{
  TerrainRiverErosion p;
  terrain_river_erosion_defaults (&p);
  p.method = TERRAIN_RIVER_METHOD_SIMULATE;
  p.iterations = iterations;
  p.erosion = erosion;
  p.diffusion = diffusion;
  p.uplift = uplift;
  p.edges = edges;
  return p;
}

static void
river_ok (const TerrainRiverErosion *p, float *f, int w, int h, TerrainRiverMaps *maps)
{
  const TerrainStatus s = terrain_river_erosion (p, f, w, h, maps, NULL);
  CHECK (s == TERRAIN_OK, "status %s, %dx%d", terrain_status_message (s), w, h);
}

static float *
hash_noise (int w, int h, uint32_t seed)
{
  float *f = malloc ((size_t) w * h * sizeof (float));
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      f[(size_t) y * w + x] = terrain_hash_to_unit (terrain_hash (seed, x, y, 0));
  return f;
}

static float *
ds_noise (int w, int h, uint32_t seed, int wrap)
{
  TerrainDiamondSquare p;
  terrain_diamond_square_defaults (&p);
  p.seed = seed;
  p.edges = wrap ? TERRAIN_EDGES_WRAP : TERRAIN_EDGES_AVERAGE;
  float *f = malloc ((size_t) w * h * sizeof (float));
  CHECK (terrain_diamond_square (&p, f, w, h, NULL) == TERRAIN_OK, "diamond-square %dx%d", w, h);
  return f;
}

/* ---- 1. The slope-area law at steady state ---- */

/* Uniform uplift until the landscape stops changing: along the channels the slope is
 * (U / K)^(1/n) A^(-m/n), so log S against log A has the slope -m / n (two m with n = 1,
 * and n = 2, which the Newton-Raphson solve makes). */
static void
test_steady_state_concavity (void)
{
  const int    side = 128;
  const double exponents[][2] = { { 0.4, 1.0 }, { 0.6, 1.0 }, { 0.5, 2.0 } }; /* m, n */
  for (int k = 0; k < 3; k++)
    {
      const double m = exponents[k][0], n = exponents[k][1];
      TerrainRiverErosion p = river (500, 2.0, 0.0, TERRAIN_RIVER_UPLIFT_LAYER,
                                     TERRAIN_RIVER_EDGES_OPEN);
      p.area_exponent = m;
      p.slope_exponent = n;
      float *f = malloc ((size_t) side * side * sizeof (float));
      for (int i = 0; i < side * side; i++)
        f[i] = 0.5f;
      float *longer = copy_field (f, side, side);
      river_ok (&p, f, side, side, NULL);
      p.iterations += 100;
      river_ok (&p, longer, side, side, NULL);
      double change = 0.0;
      for (int i = 0; i < side * side; i++)
        change = fmax (change, fabs (f[i] - longer[i]));
      int cells;
      const double exponent = drainage_slope_area_exponent (f, side, side, 20.0, &cells);
      printf ("steady state, m = %.1f, n = %.0f: log S / log A slope %.4f (want %.4f) over %d "
              "channel cells (100 more steps change heights by %.2g)\n", m, n, exponent, -m / n,
              cells, change);
      CHECK (change < 1e-3, "m = %g, n = %g: not steady, 100 more steps change %g", m, n,
             change);
      CHECK (cells > 500, "m = %g, n = %g: only %d channel cells", m, n, cells);
      CHECK (fabs (exponent + m / n) < 0.05, "m = %g, n = %g: slope-area exponent %g, want %g",
             m, n, exponent, -m / n);
      free (f);
      free (longer);
    }
}

/* ---- 2. Every cell drains ---- */

static void
test_every_cell_drains (void)
{
  const int w = 200, h = 150;
  const struct { const char *what; TerrainRiverErosion p; float sea; } cases[] = {
    { "defaults", river (30, 0.1, 1.0, TERRAIN_RIVER_UPLIFT_NONE, TERRAIN_RIVER_EDGES_OPEN), 0 },
    { "no erosion", river (3, 0.0, 0.0, TERRAIN_RIVER_UPLIFT_NONE, TERRAIN_RIVER_EDGES_OPEN), 0 },
    { "strong diffusion", river (10, 0.05, 50.0, TERRAIN_RIVER_UPLIFT_NONE,
                                 TERRAIN_RIVER_EDGES_OPEN), 0 },
    { "sea 0.3", river (20, 0.1, 1.0, TERRAIN_RIVER_UPLIFT_NONE, TERRAIN_RIVER_EDGES_OPEN),
      0.3f },
    { "wrap", river (20, 0.1, 1.0, TERRAIN_RIVER_UPLIFT_NONE, TERRAIN_RIVER_EDGES_WRAP), 0 },
    { "analytical", river (20, 0.1, 1.0, TERRAIN_RIVER_UPLIFT_NONE, TERRAIN_RIVER_EDGES_OPEN), 0 },
    { "analytical, sea 0.3", river (20, 0.1, 1.0, TERRAIN_RIVER_UPLIFT_NONE,
                                    TERRAIN_RIVER_EDGES_OPEN), 0.3f },
    { "analytical, wrap", river (20, 0.1, 3.0, TERRAIN_RIVER_UPLIFT_NONE,
                                 TERRAIN_RIVER_EDGES_WRAP), 0 },
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    {
      TerrainRiverErosion p = cases[c].p;
      p.sea_level = cases[c].sea;
      p.method = c >= 5 ? TERRAIN_RIVER_METHOD_ANALYTICAL : p.method;
      float *f = hash_noise (w, h, 21 + (uint32_t) c);
      long   lowest = -1;
      if (p.edges == TERRAIN_RIVER_EDGES_WRAP && cases[c].sea == 0.0f)
        {
          lowest = 0;
          for (long i = 1; i < w * h; i++)
            lowest = f[i] < f[lowest] ? i : lowest;
        }
      const long before = drainage_pits (f, w, h, p.edges, 0.0f, lowest);
      river_ok (&p, f, w, h, NULL);
      const long after = drainage_pits (f, w, h, p.edges, cases[c].sea, lowest);
      printf ("%s: pits %ld (%.1f%%) before, %ld after\n", cases[c].what, before,
              100.0 * before / (w * h), after);
      CHECK (before > w * h / 20, "%s: only %ld pits in the noise", cases[c].what, before);
      CHECK (after == 0, "%s: %ld pits left", cases[c].what, after);
      free (f);
    }
}

/* Uplift from the layer: the normalised result drains too (normalising may merge heights a
 * float apart; they are taken apart again). */
static void
test_uplift_drains (void)
{
  const int w = 160, h = 120;
  const TerrainRiverEdges edges[] = { TERRAIN_RIVER_EDGES_OPEN, TERRAIN_RIVER_EDGES_WRAP };
  for (int e = 0; e < 2; e++)
    {
      const TerrainRiverErosion p = river (40, 0.1, 1.0, TERRAIN_RIVER_UPLIFT_LAYER, edges[e]);
      float *f = ds_noise (w, h, 5, 0);
      long   lowest = 0;
      for (long i = 1; i < w * h; i++)
        lowest = f[i] < f[lowest] ? i : lowest;
      river_ok (&p, f, w, h, NULL);
      float lo, hi;
      terrain_min_max (f, (size_t) w * h, &lo, &hi);
      const long pits = drainage_pits (f, w, h, edges[e], 0.0f, edges[e] ? lowest : -1);
      printf ("uplift from the layer, %s: range [%g, %g], %ld pits (%.3f%%)\n",
              e ? "wrap" : "open", lo, hi, pits, 100.0 * pits / (w * h));
      CHECK (lo == 0.0f && hi == 1.0f, "range [%g, %g]", lo, hi);
      CHECK (pits * 1000 < w * h, "%ld pits", pits);
      free (f);
    }
}

/* ---- 3. Wrapped maps tile ---- */

/* Mean step across the seams (last column to first, last row to first) over the mean step
 * between the neighbouring columns and rows next to them, inside the map (the 3 on each
 * side: terrain varies over a map, so the comparison is with the same places). */
static double
seam_ratio (const float *f, int w, int h)
{
  double seam = 0.0, inside = 0.0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        const float here = f[(size_t) y * w + x];
        const float right = f[(size_t) y * w + (x + 1) % w];
        const float down = f[(size_t) ((y + 1) % h) * w + x];
        seam += (x == w - 1 ? fabs (right - here) : 0.0) + (y == h - 1 ? fabs (down - here) : 0.0);
        inside += (x < 3 || (x >= w - 4 && x < w - 1) ? fabs (right - here) / 6 : 0.0) +
                  (y < 3 || (y >= h - 4 && y < h - 1) ? fabs (down - here) / 6 : 0.0);
      }
  return seam / inside;
}

/* The map moved by (dx, dy), wrapping around. */
static float *
rolled (const float *f, int w, int h, int dx, int dy)
{
  float *r = malloc ((size_t) w * h * sizeof (float));
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      r[(size_t) ((y + dy) % h) * w + (x + dx) % w] = f[(size_t) y * w + x];
  return r;
}

/* Cells whose receiver is across a border of the wrapped map, and whether the flow map
 * grows along each such step that carries water from upstream; the largest area (in cells)
 * that crosses. A cell that gathers none may fall to two neighbours alike, a float or two
 * apart (here a double's steepest descent, the flow map's a float's): on smooth hillsides
 * the two choose differently, and the flow map's receiver of such a cell need not grow. */
static int
count_crossings (const float *f, const float *flow, int w, int h, int *continuous,
                 double *largest)
{
  long   *r = drainage_receivers (f, w, h, 1);
  double *a = drainage_area (f, r, w, h);
  int     crossings = 0;
  *continuous = 1;
  *largest = 0.0;
  for (long i = 0; i < (long) w * h; i++)
    {
      if (r[i] < 0)
        continue;
      const long dx = labs (r[i] % w - i % w), dy = labs (r[i] / w - i / w);
      if (dx <= 1 && dy <= 1)
        continue;
      crossings++;
      *continuous &= a[i] < 2.0 || flow[r[i]] > flow[i];
      *largest = fmax (*largest, a[i]);
    }
  free (r);
  free (a);
  return crossings;
}

/* A wrapped map tiles: its seams look like the steps next to them, the land changes across
 * them as it does inside (an open map keeps its border), moving the input moves the
 * result, and rivers cross the borders. */
static void
test_wrap_tiles (void)
{
  const int w = 256, h = 192;
  const size_t n = (size_t) w * h;
  float *input = ds_noise (w, h, 11, 1);
  float *wrapped = copy_field (input, w, h), *open = copy_field (input, w, h);
  float *moved = rolled (input, w, h, w / 2, h / 3);
  float *flow = malloc (n * sizeof (float));
  float *change_wrapped = malloc (n * sizeof (float)), *change_open = malloc (n * sizeof (float));
  TerrainRiverMaps maps = { flow, NULL, NULL };
  TerrainRiverErosion p = river (30, 0.1, 1.0, TERRAIN_RIVER_UPLIFT_NONE, TERRAIN_RIVER_EDGES_WRAP);
  river_ok (&p, wrapped, w, h, &maps);
  river_ok (&p, moved, w, h, NULL);
  p.edges = TERRAIN_RIVER_EDGES_OPEN;
  river_ok (&p, open, w, h, NULL);
  for (size_t i = 0; i < n; i++)
    {
      change_wrapped[i] = wrapped[i] - input[i];
      change_open[i] = open[i] - input[i];
    }
  float *moved_back = rolled (moved, w, h, w - w / 2, h - h / 3);
  const double ratio = seam_ratio (wrapped, w, h), change_ratio = seam_ratio (change_wrapped, w, h);
  const double open_change_ratio = seam_ratio (change_open, w, h);
  const double same = correlation (wrapped, moved_back, n);
  printf ("wrap: seam step / steps next to it %.3f (input %.3f, open %.3f); of the change made: "
          "wrap %.3f, open %.3f; moved input, moved back: correlation %.4f\n", ratio,
          seam_ratio (input, w, h), seam_ratio (open, w, h), change_ratio, open_change_ratio,
          same);
  CHECK (ratio > 0.67 && ratio < 1.5, "wrapped seam ratio %g", ratio);
  CHECK (change_ratio > 0.67 && change_ratio < 1.5, "wrapped change seam ratio %g", change_ratio);
  CHECK (open_change_ratio < 0.2, "open: the fixed borders should not change, ratio %g",
         open_change_ratio);
  CHECK (same > 0.98, "moving the input changes the result: correlation %g", same);

  int    continuous;
  double largest;
  const int crossings = count_crossings (wrapped, flow, w, h, &continuous, &largest);
  printf ("wrap: %d cells drain across a border, the largest carrying %.0f cells\n", crossings,
          largest);
  CHECK (crossings >= 20, "only %d cells drain across a border", crossings);
  CHECK (continuous, "the flow map does not grow across a border");
  CHECK (largest >= 100, "no river crosses a border: largest %g cells", largest);
  free (input);
  free (wrapped);
  free (open);
  free (moved);
  free (moved_back);
  free (flow);
  free (change_wrapped);
  free (change_open);
}

/* Shared edge at engine sizes (Unity 513, Unreal 1009) and a non-square odd size: the
 * heights' and the maps' last column and row are their first, bit for bit; the period block
 * is the wrapped run of the input's period block (the input's last column and row are not
 * read); 2 x 2 copies of the block join seamlessly, with rivers across its borders. */
static void
test_shared_edge_tiles (void)
{
  const int sizes[][3] = { { 513, 513, 10 }, { 1009, 1009, 5 }, { 257, 193, 30 } };
  for (int s = 0; s < 3; s++)
    {
      const int w = sizes[s][0], h = sizes[s][1];
      const size_t n = (size_t) w * h;
      int pw, ph;
      float *input = hash_noise (w, h, 5), *block_input;
      float *shared_wrap = ds_noise (w - 1, h - 1, 11, 1);
      for (int y = 0; y < h; y++) /* a tiling input, but for noise in what is not read */
        for (int x = 0; x < w - 1 && y < h - 1; x++)
          input[(size_t) y * w + x] = shared_wrap[(size_t) y * (w - 1) + x];
      block_input = period_block (input, w, h, &pw, &ph);
      float *maps = malloc (3 * n * sizeof (float)), *flow = malloc ((size_t) pw * ph * sizeof (float));
      TerrainRiverMaps m = { maps, maps + n, maps + 2 * n }, block_maps = { flow, NULL, NULL };
      TerrainRiverErosion p = river (sizes[s][2], 0.1, 1.0, TERRAIN_RIVER_UPLIFT_NONE,
                                     TERRAIN_RIVER_EDGES_SHARED_EDGE);
      river_ok (&p, input, w, h, &m);
      p.edges = TERRAIN_RIVER_EDGES_WRAP;
      river_ok (&p, block_input, pw, ph, &block_maps);
      CHECK (shared_edges_equal (input, w, h) && shared_edges_equal (m.flow, w, h)
               && shared_edges_equal (m.erosion, w, h) && shared_edges_equal (m.deposition, w, h),
             "%dx%d: the last row/column differ from the first", w, h);
      float *block = period_block (input, w, h, &pw, &ph), *block_flow = period_block (m.flow, w, h, &pw, &ph);
      CHECK (fields_equal (block, block_input, (size_t) pw * ph)
               && fields_equal (block_flow, flow, (size_t) pw * ph),
             "%dx%d: the period block is not the wrapped run's", w, h);
      int    continuous;
      double largest;
      const double ratio = seam_ratio (block, pw, ph);
      const int crossings = count_crossings (block, block_flow, pw, ph, &continuous, &largest);
      printf ("shared edge %dx%d: seam ratio of the period block %.3f; %d cells drain across a "
              "border, the largest carrying %.0f cells\n", w, h, ratio, crossings, largest);
      CHECK (ratio > 0.67 && ratio < 1.5, "%dx%d: shared-edge seam ratio %g", w, h, ratio);
      CHECK (crossings >= 20 && continuous && largest >= 100,
             "%dx%d: rivers do not cross the borders (%d, largest %g)", w, h, crossings, largest);
      free (input);
      free (shared_wrap);
      free (block_input);
      free (maps);
      free (flow);
      free (block);
      free (block_flow);
    }
}

/* Shared edge at every tiny size (a side of 1 has period 1), and with uplift from the
 * layer: the edges are shared. */
static void
test_shared_edge_small (void)
{
  for (int w = 1; w <= 4; w++)
    for (int h = 1; h <= 4; h++)
      for (int uplift = 0; uplift < 2; uplift++)
        {
          float *f = hash_noise (w, h, 3 + w * h);
          const TerrainRiverErosion p = river (5, 0.1, 1.0, (TerrainRiverUplift) uplift,
                                               TERRAIN_RIVER_EDGES_SHARED_EDGE);
          river_ok (&p, f, w, h, NULL);
          CHECK (shared_edges_equal (f, w, h), "%dx%d uplift %d: edges not shared", w, h, uplift);
          CHECK (! terrain_has_non_finite (f, (size_t) w * h), "%dx%d: not finite", w, h);
          free (f);
        }
}

/* ---- 4. Determinism ---- */

/* A TerrainParallel that runs the tasks on this thread, in a shuffled order. */
typedef struct
{
  TerrainRng rng;
} Shuffler;

static void
shuffled_run (void *user, int count, TerrainTask task, void *task_user)
{
  Shuffler *s = user;
  int      *order = malloc ((size_t) count * sizeof (int));
  for (int i = 0; i < count; i++)
    order[i] = i;
  for (int i = count - 1; i > 0; i--)
    {
      const int j = (int) terrain_rng_below (&s->rng, (uint32_t) i + 1), t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
  for (int i = 0; i < count; i++)
    task (task_user, order[i]);
  free (order);
}

/* Heights and maps of a run with `threads` tasks at once (1: no TerrainParallel). */
static float *
run_with_threads (const TerrainRiverErosion *p, const float *input, int w, int h, int threads)
{
  const size_t n = (size_t) w * h;
  float *out = malloc (4 * n * sizeof (float));
  memcpy (out, input, n * sizeof (float));
  TerrainRiverMaps maps = { out + n, out + 2 * n, out + 3 * n };
  Shuffler shuffler;
  terrain_rng_init (&shuffler.rng, 99, (uint32_t) threads);
  const TerrainParallel parallel = { shuffled_run, &shuffler, threads };
  terrain_set_parallel (threads > 1 ? &parallel : NULL);
  terrain_set_cells_per_strip (1);
  river_ok (p, out, w, h, &maps);
  terrain_set_parallel (NULL);
  terrain_set_cells_per_strip (0);
  return out;
}

static void
test_deterministic (void)
{
  const int w = 150, h = 97;
  const size_t n = (size_t) w * h;
  TerrainRiverErosion cases[8];
  cases[0] = river (20, 0.1, 1.0, TERRAIN_RIVER_UPLIFT_NONE, TERRAIN_RIVER_EDGES_OPEN);
  cases[1] = river (20, 0.1, 3.0, TERRAIN_RIVER_UPLIFT_NONE, TERRAIN_RIVER_EDGES_WRAP);
  cases[2] = river (20, 0.1, 1.0, TERRAIN_RIVER_UPLIFT_LAYER, TERRAIN_RIVER_EDGES_OPEN);
  cases[3] = river (15, 0.3, 0.5, TERRAIN_RIVER_UPLIFT_LAYER, TERRAIN_RIVER_EDGES_WRAP);
  cases[3].slope_exponent = 1.7;
  cases[3].sea_level = 0.2;
  /* The analytical method, with every stage and pass; grown from a coarser grid (cases 6
   * and 7, open and wrapped with a sea), at an age whose estimate drains along the coarser
   * grid's order (river-estimate.c). */
  for (int c = 4; c < 8; c++)
    {
      cases[c] = cases[c - 4];
      cases[c].method = TERRAIN_RIVER_METHOD_ANALYTICAL;
      cases[c].age = c >= 6 ? 50.0 : 3.0;
    }
  float *input = ds_noise (w, h, 3, 0);
  for (int c = 0; c < 8; c++)
    {
      float *one = run_with_threads (&cases[c], input, w, h, 1);
      float *again = run_with_threads (&cases[c], input, w, h, 1);
      CHECK (fields_equal (one, again, 4 * n), "case %d: two runs differ in %zu values", c,
             count_differing (one, again, 4 * n));
      for (int threads = 2; threads <= 3; threads++)
        {
          float *many = run_with_threads (&cases[c], input, w, h, threads);
          CHECK (fields_equal (one, many, 4 * n), "case %d, %d threads: %zu values differ", c,
                 threads, count_differing (one, many, 4 * n));
          free (many);
        }
      CHECK (! terrain_has_non_finite (one, 4 * n), "case %d: NaN or inf", c);
      free (one);
      free (again);
    }
  free (input);
}

/* ---- 5. Cancellation and report intervals ---- */

typedef struct
{
  int    calls;
  double last, longest;
  double before, after; /* the fractions reported around the longest gap */
  double fraction;
} Gaps;

static int
time_gaps (void *user, double fraction)
{
  Gaps        *g = user;
  const double t = seconds ();
  if (g->calls++ > 0 && t - g->last > g->longest)
    {
      g->longest = t - g->last;
      g->before = g->fraction;
      g->after = fraction;
    }
  g->last = t;
  g->fraction = fraction;
  return 0;
}

static void
test_cancel_and_reports (void)
{
  const int side = 1024;
  float *input = ds_noise (side, side, 1, 0);
  float *f = copy_field (input, side, side);
  TerrainRiverErosion p;
  terrain_river_erosion_defaults (&p);

  /* Times are wall-clock times on a shared machine: a run that the scheduler held up
   * proves nothing, so each timing is the best of up to three runs. */
  const double limit = 0.25 * TIMING_SLOWDOWN;
  ProgressLog     log;
  TerrainProgress progress;
  TerrainStatus   s = TERRAIN_OK;
  double          first = 1e9;
  for (int run = 0; run < 3 && first >= limit; run++)
    {
      memcpy (f, input, (size_t) side * side * sizeof (float));
      log = progress_log (0.0);
      progress = (TerrainProgress) { log_progress, &log };
      const double t0 = seconds ();
      s = terrain_river_erosion (&p, f, side, side, NULL, &progress);
      first = fmin (first, seconds () - t0);
      CHECK (s == TERRAIN_CANCELLED && log.calls == 1, "cancel at the first report: status %d "
             "after %d reports", s, log.calls);
    }
  CHECK (first < limit, "cancelling at the first report took %.3f s", first);

  memcpy (f, input, (size_t) side * side * sizeof (float));
  progress = (TerrainProgress) { cancel_at_half, NULL };
  s = terrain_river_erosion (&p, f, side, side, NULL, &progress);
  CHECK (s == TERRAIN_CANCELLED, "cancel at half: status %d", s);

  double longest = 1e9;
  for (int run = 0; run < 3 && longest >= limit; run++)
    {
      memcpy (f, input, (size_t) side * side * sizeof (float));
      Gaps gaps = { 0 };
      progress = (TerrainProgress) { time_gaps, &gaps };
      const double t0 = seconds ();
      s = terrain_river_erosion (&p, f, side, side, NULL, &progress);
      printf ("1024x1024 at the defaults: %.2f s, %d reports, longest between two %.1f ms "
              "(from %.3f to %.3f)\n", seconds () - t0, gaps.calls, gaps.longest * 1e3,
              gaps.before, gaps.after);
      CHECK (s == TERRAIN_OK, "status %d", s);
      longest = fmin (longest, gaps.longest);
    }
  CHECK (longest < limit, "%.3f s between two reports", longest);

  /* The defaults, the simulation (its last step in parts) and growing ranges (ending on
   * steps of the simulation): the bar never goes back. */
  for (int run = 0; run < 3; run++)
    {
      p.method = run == 1 ? TERRAIN_RIVER_METHOD_SIMULATE : TERRAIN_RIVER_METHOD_ANALYTICAL;
      p.uplift = run == 2 ? TERRAIN_RIVER_UPLIFT_LAYER : TERRAIN_RIVER_UPLIFT_NONE;
      memcpy (f, input, 64 * 64 * sizeof (float));
      log = progress_log (2.0);
      progress = (TerrainProgress) { log_progress, &log };
      s = terrain_river_erosion (&p, f, 64, 64, NULL, &progress);
      CHECK (s == TERRAIN_OK && log.monotone && log.last == 1.0, "run %d: reports not "
             "monotone up to 1: status %d, last %g", run, s, log.last);
    }
  free (input);
  free (f);
}

/* ---- 6. Maps ---- */

/* The maps of an open map f (sea level 0): finite, in range, the most flow on an outlet
 * (the border, or a cell at 0), channels eroded more than the cells nothing drains into. */
static void
check_maps (const char *what, const float *f, const TerrainRiverMaps *m, int w, int h)
{
  const size_t n = (size_t) w * h;
  size_t top = 0;
  int    in_range = 1;
  double channel = 0.0, ridge = 0.0;
  size_t channels = 0, ridges = 0;
  for (size_t i = 0; i < n; i++)
    {
      in_range &= m->flow[i] >= 0.0f && m->flow[i] <= 1.0f && m->erosion[i] >= 0.0f &&
                  m->deposition[i] >= 0.0f;
      top = m->flow[i] > m->flow[top] ? i : top;
      if (m->flow[i] > 0.5f)
        channel += m->erosion[i], channels++;
      else if (m->flow[i] == 0.0f)
        ridge += m->erosion[i], ridges++;
    }
  const int x = (int) (top % w), y = (int) (top / w);
  CHECK (! terrain_has_non_finite (m->flow, n) && ! terrain_has_non_finite (m->erosion, n) &&
         ! terrain_has_non_finite (m->deposition, n), "%s: NaN or inf in a map", what);
  CHECK (in_range, "%s: a map out of range", what);
  CHECK (drainage_is_outlet (f, w, h, 0, 0.0f, -1, x, y),
         "%s: the most flow (%g) is at (%d, %d), not on an outlet", what, m->flow[top], x, y);
  printf ("%s: most flow %.3f at (%d, %d); mean erosion %.4g on channels (%zu cells), %.4g on "
          "ridges (%zu)\n", what, m->flow[top], x, y, channel / channels, channels,
          ridges ? ridge / ridges : 0.0, ridges);
  CHECK (channels > 0 && channel / channels > 0.0, "%s: no erosion along the channels", what);
  CHECK (channel / channels > 1.5 * ridge / ridges, "%s: channels not eroded more than ridges",
         what);
}

static void
test_maps (void)
{
  const int w = 256, h = 200;
  const size_t n = (size_t) w * h;
  float *maps_buffer = malloc (3 * n * sizeof (float));
  TerrainRiverMaps m = { maps_buffer, maps_buffer + n, maps_buffer + 2 * n };
  for (int uplift = 0; uplift < 2; uplift++)
    {
      float *f = ds_noise (w, h, 8, 0);
      const TerrainRiverErosion p = river (30, 0.1, 1.0, (TerrainRiverUplift) uplift,
                                           TERRAIN_RIVER_EDGES_OPEN);
      river_ok (&p, f, w, h, &m);
      check_maps (uplift ? "maps, uplift from the layer" : "maps, uplift none", f, &m, w, h);
      free (f);
    }
  /* A wrapped map's most flow is at its outlet, the lowest cell. */
  float *f = ds_noise (w, h, 8, 1);
  size_t lowest = 0;
  for (size_t i = 1; i < n; i++)
    lowest = f[i] < f[lowest] ? i : lowest;
  const TerrainRiverErosion p = river (30, 0.1, 1.0, TERRAIN_RIVER_UPLIFT_NONE,
                                       TERRAIN_RIVER_EDGES_WRAP);
  river_ok (&p, f, w, h, &m);
  CHECK (m.flow[lowest] == 1.0f, "wrap without sea: flow at the outlet %g, want 1",
         m.flow[lowest]);
  free (f);
  free (maps_buffer);
}

/* ---- 7. Refusals and extremes ---- */

static void
test_invalid (void)
{
  const int w = 20, h = 15;
  const size_t n = (size_t) w * h;
  TerrainRiverErosion bad[21];
  int k = 0;
  for (; k < 21; k++)
    terrain_river_erosion_defaults (&bad[k]);
  k = 0;
  bad[k++].iterations = 0;
  bad[k++].iterations = TERRAIN_RIVER_MAX_ITERATIONS + 1;
  bad[k++].erosion = -0.1;
  bad[k++].erosion = TERRAIN_RIVER_MAX_EROSION * 1.01;
  bad[k++].erosion = NAN;
  bad[k++].area_exponent = TERRAIN_RIVER_MIN_AREA_EXPONENT - 0.1;
  bad[k++].area_exponent = TERRAIN_RIVER_MAX_AREA_EXPONENT + 0.1;
  bad[k++].slope_exponent = TERRAIN_RIVER_MIN_SLOPE_EXPONENT - 0.1;
  bad[k++].slope_exponent = TERRAIN_RIVER_MAX_SLOPE_EXPONENT + 0.1;
  bad[k++].slope_exponent = NAN;
  bad[k++].diffusion = -1.0;
  bad[k++].diffusion = TERRAIN_RIVER_MAX_DIFFUSION + 1.0;
  bad[k++].sea_level = -0.01;
  bad[k++].sea_level = 1.01;
  bad[k++].sea_level = NAN;
  bad[k++].uplift = (TerrainRiverUplift) 2;
  bad[k++].edges = (TerrainRiverEdges) 3;
  bad[k++].area_exponent = INFINITY;
  bad[k++].age = -0.1;
  bad[k++].age = TERRAIN_RIVER_MAX_AGE * 1.01;
  bad[k++].method = (TerrainRiverMethod) 2;
  float *f = hash_noise (w, h, 4), *original = copy_field (f, w, h);
  float *maps_buffer = malloc (3 * n * sizeof (float));
  for (size_t i = 0; i < 3 * n; i++)
    maps_buffer[i] = 7.0f;
  TerrainRiverMaps m = { maps_buffer, maps_buffer + n, maps_buffer + 2 * n };
  for (int i = 0; i < k; i++)
    {
      const TerrainStatus s = terrain_river_erosion (&bad[i], f, w, h, &m, NULL);
      CHECK (s == TERRAIN_ERROR_INVALID, "parameters %d: status %d", i, s);
    }
  TerrainRiverErosion p;
  terrain_river_erosion_defaults (&p);
  CHECK (terrain_river_erosion (&p, f, 0, h, &m, NULL) == TERRAIN_ERROR_INVALID, "width 0");
  CHECK (terrain_river_erosion (&p, f, w, -1, &m, NULL) == TERRAIN_ERROR_INVALID, "height -1");
  const float bad_values[] = { NAN, INFINITY, -INFINITY };
  for (int v = 0; v < 3; v++)
    {
      float *g = copy_field (original, w, h), *kept = copy_field (original, w, h);
      g[37] = kept[37] = bad_values[v];
      CHECK (terrain_river_erosion (&p, g, w, h, &m, NULL) == TERRAIN_ERROR_INVALID,
             "input %g accepted", bad_values[v]);
      CHECK (memcmp (g, kept, n * sizeof (float)) == 0, "input %g: the data changed",
             bad_values[v]);
      free (g);
      free (kept);
    }
  CHECK (fields_equal (f, original, n), "a refused call changed the heights");
  int untouched = 1;
  for (size_t i = 0; i < 3 * n; i++)
    untouched &= maps_buffer[i] == 7.0f;
  CHECK (untouched, "a refused call wrote a map");
  free (f);
  free (original);
  free (maps_buffer);
}

/* Every parameter at the ends of its range, tiny and thin maps, huge values: finite. */
static void
test_extremes (void)
{
  const int sizes[][2] = { { 1, 1 }, { 1, 9 }, { 9, 1 }, { 2, 2 }, { 3, 3 }, { 2, 7 }, { 33, 17 } };
  TerrainRiverErosion cases[6];
  cases[0] = river (5, TERRAIN_RIVER_MAX_EROSION, 0.0, TERRAIN_RIVER_UPLIFT_NONE, 0);
  cases[1] = river (5, TERRAIN_RIVER_MAX_EROSION, TERRAIN_RIVER_MAX_DIFFUSION,
                    TERRAIN_RIVER_UPLIFT_LAYER, 0);
  cases[1].slope_exponent = TERRAIN_RIVER_MAX_SLOPE_EXPONENT;
  cases[1].area_exponent = TERRAIN_RIVER_MAX_AREA_EXPONENT;
  cases[2] = river (5, TERRAIN_RIVER_MAX_EROSION, 0.0, TERRAIN_RIVER_UPLIFT_NONE, 1);
  cases[2].slope_exponent = TERRAIN_RIVER_MIN_SLOPE_EXPONENT;
  cases[2].area_exponent = TERRAIN_RIVER_MIN_AREA_EXPONENT;
  cases[3] = river (5, 1e-9, TERRAIN_RIVER_MAX_DIFFUSION, TERRAIN_RIVER_UPLIFT_LAYER, 1);
  cases[3].slope_exponent = TERRAIN_RIVER_MIN_SLOPE_EXPONENT;
  cases[3].sea_level = TERRAIN_RIVER_MAX_SEA_LEVEL;
  cases[4] = river (5, 0.1, 1.0, TERRAIN_RIVER_UPLIFT_NONE, 1);
  cases[4].slope_exponent = TERRAIN_RIVER_MAX_SLOPE_EXPONENT;
  cases[5] = river (5, 0.1, TERRAIN_RIVER_MAX_DIFFUSION, TERRAIN_RIVER_UPLIFT_NONE, 0);
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (int c = 0; c < 6; c++)
      for (int kind = 0; kind < 2; kind++)
        {
          const int    w = sizes[s][0], h = sizes[s][1];
          const size_t n = (size_t) w * h;
          float *f = hash_noise (w, h, 40 + (uint32_t) s);
          float *maps_buffer = malloc (3 * n * sizeof (float));
          TerrainRiverMaps m = { maps_buffer, maps_buffer + n, maps_buffer + 2 * n };
          for (size_t i = 0; kind == 1 && i < n; i++) /* huge, of both signs */
            f[i] = (float) ((f[i] - 0.5) * 6e38);
          river_ok (&cases[c], f, w, h, &m);
          CHECK (! terrain_has_non_finite (f, n) && ! terrain_has_non_finite (maps_buffer, 3 * n),
                 "%dx%d, case %d, kind %d: NaN or inf", w, h, c, kind);
          free (f);
          free (maps_buffer);
        }
}

/* ---- 8. Filling, and erosion never raising the land ---- */

/* A float's bits as an unsigned number in the float's order. */
static uint32_t
ordered (float v)
{
  uint32_t b;
  memcpy (&b, &v, sizeof b);
  return b & 0x80000000u ? ~b : b | 0x80000000u;
}

/* Min-heap of (height, index) keys: moves heap[at] down to its place. */
static void
sift (uint64_t *heap, size_t size, size_t at)
{
  for (size_t child; (child = 2 * at + 1) < size; at = child)
    {
      child += child + 1 < size && heap[child + 1] < heap[child];
      if (heap[child] >= heap[at])
        break;
      const uint64_t t = heap[at];
      heap[at] = heap[child];
      heap[child] = t;
    }
}

/* The priority-flood of river-fill.c, restated: from the outlets (the border), always the
 * lowest (then first) reached cell; a neighbour not above it is raised, with `epsilon` (the
 * fill by height) to the next float plus terrain_mix32 (index) % 8 more, without (the
 * pits-first fill, before its flats' drainage) to its height, the spill level. */
static void
reference_fill (float *f, int w, int h, int epsilon)
{
  const size_t n = (size_t) w * h;
  uint64_t *heap = malloc (n * sizeof (uint64_t));
  uint8_t  *closed = calloc (n, 1);
  size_t    size = 0;
  for (size_t i = 0; i < n; i++)
    {
      const int x = (int) (i % w), y = (int) (i / w);
      if (x == 0 || y == 0 || x == w - 1 || y == h - 1)
        closed[i] = 1, heap[size++] = ((uint64_t) ordered (f[i]) << 32) | i;
    }
  for (size_t at = size / 2; at-- > 0;)
    sift (heap, size, at);
  while (size > 0)
    {
      const uint64_t top = heap[0];
      heap[0] = heap[--size];
      sift (heap, size, 0);
      const size_t c = (size_t) (top & 0xffffffffu);
      const int    x = (int) (c % w), y = (int) (c / w);
      for (int k = 0; k < 8; k++)
        {
          const long j = drainage_neighbour (w, h, 0, x, y, k);
          if (j < 0 || closed[j])
            continue;
          closed[j] = 1;
          if (f[j] <= f[c] && epsilon)
            {
              float v = nextafterf (f[c], INFINITY);
              for (uint32_t more = terrain_mix32 ((uint32_t) j) % 8; more > 0; more--)
                v = nextafterf (v, INFINITY);
              f[j] = v;
            }
          else if (f[j] <= f[c])
            f[j] = f[c];
          size_t at = size++;
          const uint64_t e = ((uint64_t) ordered (f[j]) << 32) | (uint64_t) j;
          while (at > 0 && heap[(at - 1) / 2] > e)
            heap[at] = heap[(at - 1) / 2], at = (at - 1) / 2;
          heap[at] = e;
        }
    }
  free (heap);
  free (closed);
}

/* The fill tests' maps, w x h: input 0 hash noise, 1 Diamond-Square, of `seed`; the
 * reference fill of it (with `epsilon` or without), and a copy to run on. */
typedef struct
{
  float *original, *filled, *f;
} FillCase;

static FillCase
fill_case (int input, uint32_t seed, int w, int h, int epsilon)
{
  FillCase c;
  c.original = input ? ds_noise (w, h, seed, 0) : hash_noise (w, h, seed);
  c.filled = copy_field (c.original, w, h);
  c.f = copy_field (c.original, w, h);
  reference_fill (c.filled, w, h, epsilon);
  return c;
}

/* Floats between a and b (finite, of one sign or zero). */
static uint32_t
floats_apart (float a, float b)
{
  const uint32_t x = ordered (a), y = ordered (b);
  return x > y ? x - y : y - x;
}

/* A map the run filled (f) against the reference fill: the cells the reference raised end
 * above their spill level, by the flats' drainage (river-flats.c: 8 floats a pixel of at
 * most 3 x the map's width and height), and the cells it leaves are left, but for a few
 * beside a flat that the drainage may raise as far. Returns the number of those. */
static size_t
check_filled (const char *what, const FillCase *c, int w, int h)
{
  const size_t   n = (size_t) w * h;
  const uint32_t bound = 8u * 3u * (uint32_t) (w + h);
  size_t         below = 0, too_far = 0, moved = 0;
  for (size_t i = 0; i < n; i++)
    {
      below += c->f[i] < c->filled[i] || (c->filled[i] != c->original[i] && c->f[i] == c->filled[i]);
      too_far += floats_apart (c->f[i], c->filled[i]) > bound;
      moved += c->filled[i] == c->original[i] && c->f[i] != c->original[i];
    }
  CHECK (below == 0, "%s: %zu cells not above their spill level", what, below);
  CHECK (too_far == 0, "%s: %zu cells more than %u floats above it", what, too_far, bound);
  CHECK (moved <= n / 1000, "%s: %zu draining cells moved", what, moved);
  CHECK (drainage_pits (c->f, w, h, 0, 0.0f, -1) == 0, "%s: pits", what);
  return moved;
}

static void
test_fill_and_no_raising (void)
{
  const int w = 120, h = 90;
  const size_t n = (size_t) w * h;
  for (int input = 0; input < 2; input++)
    {
      const FillCase c = fill_case (input, 2, w, h, 1);
      float *original = c.original, *filled = c.filled, *f = c.f;
      const TerrainRiverErosion none = river (10, 0.0, 0.0, TERRAIN_RIVER_UPLIFT_NONE,
                                              TERRAIN_RIVER_EDGES_OPEN);
      river_ok (&none, f, w, h, NULL);
      size_t raised = 0;
      for (size_t i = 0; i < n; i++)
        raised += filled[i] != original[i];
      CHECK (fields_equal (f, filled, n), "input %d, no erosion: %zu cells differ from the "
             "filled input", input, count_differing (f, filled, n));
      CHECK (raised > 0, "input %d: the fill raised nothing: a test of nothing", input);

      memcpy (f, original, n * sizeof (float));
      const TerrainRiverErosion eroding = river (30, 0.5, 0.0, TERRAIN_RIVER_UPLIFT_NONE,
                                                 TERRAIN_RIVER_EDGES_OPEN);
      river_ok (&eroding, f, w, h, NULL);
      size_t above = 0, lowered = 0;
      for (size_t i = 0; i < n; i++)
        {
          above += f[i] > filled[i];
          lowered += f[i] < filled[i];
        }
      printf ("fill: input %d: %zu of %zu cells raised; erosion 0.5 then lowers %zu, raises %zu\n",
              input, raised, n, lowered, above);
      CHECK (above == 0, "input %d: erosion raised %zu cells above the filled input", input,
             above);
      CHECK (lowered > n / 4, "input %d: erosion lowered only %zu cells", input, lowered);
      free (original);
      free (filled);
      free (f);
    }
}

/* The analytical method's fill floods a pit's neighbours and the slopes first, not every
 * cell by height, to the spill level, then drains the flats (river-fill.c, river-flats.c).
 * At an age too small to erode, without diffusion, its result is the reference fill without
 * epsilon plus that drainage (check_filled). A pits-first flood that reached a cell from a
 * higher pit than the height order would is off by far more (the depth of a depression:
 * thousands of floats), and one that raised a draining cell moves a cell the reference
 * leaves as it is. */
static void
test_pits_first_fill (void)
{
  const int w = 120, h = 90;
  const size_t n = (size_t) w * h;
  for (int input = 0; input < 2; input++)
    {
      const FillCase c = fill_case (input, 3, w, h, 0);
      TerrainRiverErosion p;
      terrain_river_erosion_defaults (&p);
      p.age = 1e-30;
      p.diffusion = 0.0;
      river_ok (&p, c.f, w, h, NULL);
      size_t raised = 0;
      for (size_t i = 0; i < n; i++)
        raised += c.filled[i] != c.original[i];
      const size_t moved = check_filled (input ? "pits first, Diamond-Square" : "pits first, noise",
                                         &c, w, h);
      printf ("pits-first fill: input %d: %zu cells raised, %zu beside them\n", input, raised,
              moved);
      CHECK (raised > n / 20, "input %d: the fill raised only %zu cells: a test of little",
             input, raised);
      free (c.original);
      free (c.filled);
      free (c.f);
    }
}

int
main (void)
{
  test_steady_state_concavity ();
  test_every_cell_drains ();
  test_uplift_drains ();
  test_wrap_tiles ();
  test_shared_edge_tiles ();
  test_shared_edge_small ();
  test_deterministic ();
  test_cancel_and_reports ();
  test_maps ();
  test_invalid ();
  test_extremes ();
  test_fill_and_no_raising ();
  test_pits_first_fill ();
  return CHECK_DONE ("river-erosion");
}
