/* Erosion: thermal erosion against a plain restatement of its rule, conservation, the
 * talus reached, a spike collapsing into a cone, order and thread independence (rotations,
 * mirrors, task splits), refusals and cancellation; hydraulic erosion's conservation after
 * every droplet step, a channel cut below a bump, determinism, more droplets changing
 * more, refusals, extremes. */
#include "check.h"
#include "field-stats.h"
#include "progress-log.h"

#include "heightmap.h"
#include "hydraulic-observer.h"
#include "random.h"
#include "thermal-erosion.h"
#include "timing.h"

#include <float.h>
#include <stdlib.h>

static float *
random_field (int w, int h, uint32_t seed)
{
  float *f = malloc ((size_t) w * h * sizeof (float));
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      f[(size_t) y * w + x] = terrain_hash_to_unit (terrain_hash (seed, x, y, 0));
  return f;
}

static double
field_sum (const float *f, size_t n)
{
  double s = 0.0;
  for (size_t i = 0; i < n; i++)
    s += f[i];
  return s;
}

/* The map turned by 90 degrees (w x h -> h x w): out (x', y') = in (y', h - 1 - x'). */
static float *
rotated (const float *f, int w, int h)
{
  float *r = malloc ((size_t) w * h * sizeof (float));
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      r[(size_t) x * h + (h - 1 - y)] = f[(size_t) y * w + x];
  return r;
}

static float *
mirrored (const float *f, int w, int h)
{
  float *m = malloc ((size_t) w * h * sizeof (float));
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      m[(size_t) y * w + (w - 1 - x)] = f[(size_t) y * w + x];
  return m;
}

/* ---- Thermal erosion ---- */

static TerrainThermalErosion
thermal (TerrainNeighbourhood nb, int iterations, double talus, double strength)
{
  TerrainThermalErosion p;
  terrain_thermal_erosion_defaults (&p);
  p.neighbourhood = nb;
  p.iterations = iterations;
  p.talus = talus;
  p.strength = strength;
  return p;
}

static void
thermal_ok (const TerrainThermalErosion *p, float *f, int w, int h)
{
  TerrainStatus s = terrain_thermal_erosion (p, f, w, h, NULL);
  CHECK (s == TERRAIN_OK, "status %d, %dx%d", s, w, h);
}

/* The rule of thermal-erosion.h, written out cell by cell in float with the same order of
 * operations: the library must give these bits. */
static void
thermal_by_the_rule (const TerrainThermalErosion *p, float *h, int w, int ht)
{
  static const int dx[8] = { 0, 0, -1, 1, -1, 1, 1, -1 }; /* N S W E NW SE NE SW */
  static const int dy[8] = { -1, 1, 0, 0, -1, 1, -1, 1 };
  const int   count = p->neighbourhood == TERRAIN_NEIGHBOURHOOD_8 ? 8 : 4;
  const float t[2] = { (float) p->talus, (float) (p->talus * sqrt (2.0)) };
  const float half = (float) (p->strength / 2.0);
  const size_t n = (size_t) w * ht;
  float *rate = malloc (n * sizeof (float)), *next = malloc (n * sizeof (float));
  for (int it = 0; it < p->iterations; it++)
    {
      for (int y = 0; y < ht; y++)
        for (int x = 0; x < w; x++)
          {
            int steep = 0;
            for (int k = 0; k < count; k++)
              {
                const int nx = x + dx[k], ny = y + dy[k];
                if (nx >= 0 && nx < w && ny >= 0 && ny < ht)
                  steep += fabsf (h[y * w + x] - h[ny * w + nx]) > t[k / 4];
              }
            rate[y * w + x] = half / (float) (steep > 1 ? steep : 1);
          }
      for (int y = 0; y < ht; y++)
        for (int x = 0; x < w; x++)
          {
            float given[8] = { 0 };
            for (int k = 0; k < count; k++)
              {
                const int nx = x + dx[k], ny = y + dy[k];
                if (nx < 0 || nx >= w || ny < 0 || ny >= ht)
                  continue;
                const float e = h[y * w + x] - h[ny * w + nx];
                float clamp = e < t[k / 4] ? e : t[k / 4];
                clamp = clamp > -t[k / 4] ? clamp : -t[k / 4];
                const float r = rate[y * w + x], rn = rate[ny * w + nx];
                given[k] = (r < rn ? r : rn) * (e - clamp);
              }
            const float axial = (given[0] + given[1]) + (given[2] + given[3]);
            const float total = count == 8 ? axial + ((given[4] + given[5]) + (given[6] + given[7]))
                                           : axial;
            next[y * w + x] = h[y * w + x] - total;
          }
      memcpy (h, next, n * sizeof (float));
    }
  free (rate);
  free (next);
}

static void
test_thermal_follows_rule (void)
{
  const int sizes[][2] = { { 1, 1 }, { 1, 9 }, { 9, 1 }, { 2, 2 }, { 3, 3 }, { 5, 4 },
                           { 10, 10 }, { 11, 7 }, { 40, 33 }, { 67, 3 }, { 3, 67 } };
  const double params[][3] = { { 7, 0.02, 0.5 }, { 20, 0.0, 1.0 }, { 1, 0.3, 0.1 }, { 13, 0.05, 1.0 } };
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (int nb = 0; nb < 2; nb++)
      for (size_t k = 0; k < sizeof params / sizeof params[0]; k++)
        {
          const int w = sizes[s][0], h = sizes[s][1];
          const TerrainThermalErosion p = thermal ((TerrainNeighbourhood) nb, (int) params[k][0],
                                                   params[k][1], params[k][2]);
          float *f = random_field (w, h, 100 + (uint32_t) s), *g = copy_field (f, w, h);
          thermal_ok (&p, f, w, h);
          thermal_by_the_rule (&p, g, w, h);
          CHECK (fields_equal (f, g, (size_t) w * h), "%dx%d, %d neighbours, params %zu: %zu pixels "
                 "differ from the rule", w, h, nb ? 8 : 4, k, count_differing (f, g, (size_t) w * h));
          free (f);
          free (g);
        }
}

/* A lone steep pair swaps strength / 2 of its excess each way: strength 1 lands on the
 * talus in one iteration, 0.5 halves the excess. */
static void
test_thermal_lone_pair (void)
{
  const double strengths[] = { 1.0, 0.5 };
  for (int i = 0; i < 2; i++)
    {
      float f[2] = { 1.0f, 0.0f };
      const TerrainThermalErosion p = thermal (TERRAIN_NEIGHBOURHOOD_8, 1, 0.1, strengths[i]);
      thermal_ok (&p, f, 2, 1);
      const double want = 0.1 + (1.0 - strengths[i]) * 0.9;
      CHECK (fabs ((f[0] - f[1]) - want) < 1e-6, "strength %g: difference %.9g, want %g",
             strengths[i], f[0] - f[1], want);
      CHECK (f[0] + f[1] == 1.0f, "strength %g: sum %.9g", strengths[i], f[0] + f[1]);
    }
}

/* A pit under 8 high neighbours takes at most half the excess: it never overshoots them,
 * and the 3x3 block ends level. */
static void
test_thermal_pit (void)
{
  for (int nb = 0; nb < 2; nb++)
    {
      float f[9] = { 1, 1, 1, 1, 0, 1, 1, 1, 1 };
      TerrainThermalErosion p = thermal ((TerrainNeighbourhood) nb, 1, 0.0, 1.0);
      thermal_ok (&p, f, 3, 3);
      int below = 1;
      for (int i = 0; i < 9; i++)
        below &= i == 4 || f[4] <= f[i];
      CHECK (below && f[4] > 0.0f, "%d neighbours: pit %g after one iteration", nb ? 8 : 4, f[4]);
      p.iterations = 500;
      thermal_ok (&p, f, 3, 3);
      double spread = 0.0;
      for (int i = 0; i < 9; i++)
        spread = fmax (spread, fabs (f[i] - 8.0 / 9.0));
      CHECK (spread < 1e-5, "%d neighbours: 3x3 not level, off by %g", nb ? 8 : 4, spread);
    }
}

static void
test_thermal_conserves (void)
{
  const int w = 150, h = 100;
  const size_t n = (size_t) w * h;
  for (int nb = 0; nb < 2; nb++)
    {
      float *f = random_field (w, h, 7);
      float lo, hi, lo2, hi2;
      terrain_min_max (f, n, &lo, &hi);
      const double before = field_sum (f, n);
      const TerrainThermalErosion p = thermal ((TerrainNeighbourhood) nb, 300, 0.01, 0.5);
      thermal_ok (&p, f, w, h);
      const double after = field_sum (f, n);
      terrain_min_max (f, n, &lo2, &hi2);
      CHECK (fabs (after - before) <= 1e-5 * fabs (before), "%d neighbours: sum %.9g, was %.9g",
             nb ? 8 : 4, after, before);
      CHECK (lo2 >= lo && hi2 <= hi, "%d neighbours: range [%g, %g] left [%g, %g]", nb ? 8 : 4,
             lo2, hi2, lo, hi);
      free (f);
    }
}

/* The largest amount by which a pair of neighbours is steeper than the talus. */
static double
worst_excess (const float *f, int w, int h, double talus, int eight)
{
  static const int dx[4] = { 1, 0, 1, -1 }, dy[4] = { 0, 1, 1, 1 };
  double worst = 0.0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      for (int k = 0; k < (eight ? 4 : 2); k++)
        {
          const int nx = x + dx[k], ny = y + dy[k];
          if (nx < 0 || nx >= w || ny >= h)
            continue;
          const double e = fabs ((double) f[y * w + x] - f[ny * w + nx])
                           - talus * (k < 2 ? 1.0 : sqrt (2.0));
          worst = fmax (worst, e);
        }
  return worst;
}

static void
test_thermal_reaches_talus (void)
{
  const int w = 48, h = 40;
  const double strengths[] = { 0.5, 1.0 };
  for (int nb = 0; nb < 2; nb++)
    for (int s = 0; s < 2; s++)
      {
        float *f = random_field (w, h, 8);
        CHECK (worst_excess (f, w, h, 0.05, nb) > 0.5, "the test map is not steep");
        const TerrainThermalErosion p = thermal ((TerrainNeighbourhood) nb, 2000, 0.05, strengths[s]);
        thermal_ok (&p, f, w, h);
        const double worst = worst_excess (f, w, h, 0.05, nb);
        CHECK (worst < 1e-5, "%d neighbours, strength %g: slopes exceed the talus by %g",
               nb ? 8 : 4, strengths[s], worst);
        free (f);
      }
}

/* A unit spike on a flat map spreads into a cone of slope talus: with 8 neighbours round
 * (the axial and diagonal slopes are both talus per pixel), with 4 a square pyramid turned
 * 45 degrees; both symmetric under every rotation and mirror of the square, bit for bit. */
static void
test_thermal_spike_to_cone (void)
{
  const int n = 41, c = 20;
  const double talus = 0.01;
  for (int nb = 0; nb < 2; nb++)
    {
      float *f = calloc ((size_t) n * n, sizeof (float));
      f[c * n + c] = 1.0f;
      const TerrainThermalErosion p = thermal ((TerrainNeighbourhood) nb, 5000, talus, 0.5);
      thermal_ok (&p, f, n, n);
      int symmetric = 1;
      for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++)
          symmetric &= f[y * n + x] == f[x * n + y] && f[y * n + x] == f[y * n + n - 1 - x] &&
                       f[y * n + x] == f[(n - 1 - y) * n + x];
      CHECK (symmetric, "%d neighbours: the pile is not symmetric", nb ? 8 : 4);
      CHECK (fabs (field_sum (f, (size_t) n * n) - 1.0) < 1e-5, "%d neighbours: volume %.9g",
             nb ? 8 : 4, field_sum (f, (size_t) n * n));
      CHECK (worst_excess (f, n, n, talus, nb) < 1e-6, "%d neighbours: steeper than the talus by %g",
             nb ? 8 : 4, worst_excess (f, n, n, talus, nb));
      /* Volume 1 and slope t: a cone of peak (3 t^2 / pi)^(1/3), a pyramid |x| + |y| of
       * peak (3 t^2 / 2)^(1/3). */
      const double peak = f[c * n + c];
      const double want = nb ? cbrt (3.0 * talus * talus / acos (-1.0)) : cbrt (1.5 * talus * talus);
      CHECK (fabs (peak - want) < 0.05 * want, "%d neighbours: peak %g, a %s of volume 1 has %g",
             nb ? 8 : 4, peak, nb ? "cone" : "pyramid", want);
      CHECK (peak - f[c * n + c + 1] > 0.9 * talus && peak - f[c * n + c + 1] < 1.0001 * talus,
             "%d neighbours: slope %g next to the peak", nb ? 8 : 4, peak - f[c * n + c + 1]);
      if (nb)
        {
          /* Round: inside the cone, height falls with the distance from the centre. */
          double off = 0.0;
          for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++)
              if (f[y * n + x] > talus)
                off = fmax (off, fabs (f[y * n + x] - (peak - talus * hypot (x - c, y - c))));
          CHECK (off < 0.2 * talus, "cone: a height %g talus from peak - talus * distance",
                 off / talus);
        }
      free (f);
    }
}

static void
reverse_order (void *user, int count, TerrainTask task, void *task_user)
{
  (void) user;
  for (int i = count - 1; i >= 0; i--)
    task (task_user, i);
}

/* Every cell is computed from the heights before the iteration: the same input gives the
 * same bits, a rotated or mirrored map the rotated or mirrored result (an in-place sweep
 * would not), and splitting the rows into tasks run in any order changes nothing. */
static void
test_thermal_order_independent (void)
{
  const int w = 37, h = 23;
  for (int nb = 0; nb < 2; nb++)
    {
      const TerrainThermalErosion p = thermal ((TerrainNeighbourhood) nb, 40, 0.02, 1.0);
      float *original = random_field (w, h, 9);
      float *f = copy_field (original, w, h), *again = copy_field (original, w, h);
      float *turned = rotated (original, w, h), *flipped = mirrored (original, w, h);
      thermal_ok (&p, f, w, h);
      thermal_ok (&p, again, w, h);
      thermal_ok (&p, turned, h, w);
      thermal_ok (&p, flipped, w, h);
      float *want_turned = rotated (f, w, h), *want_flipped = mirrored (f, w, h);
      CHECK (fields_equal (f, again, (size_t) w * h), "%d neighbours: not deterministic", nb ? 8 : 4);
      CHECK (fields_equal (turned, want_turned, (size_t) w * h), "%d neighbours: rotation changes "
             "%zu pixels", nb ? 8 : 4, count_differing (turned, want_turned, (size_t) w * h));
      CHECK (fields_equal (flipped, want_flipped, (size_t) w * h), "%d neighbours: mirror changes "
             "%zu pixels", nb ? 8 : 4, count_differing (flipped, want_flipped, (size_t) w * h));

      const TerrainParallel split = { reverse_order, NULL, 3 };
      float *tasks = copy_field (original, w, h);
      terrain_set_parallel (&split);
      thermal_ok (&p, tasks, w, h);
      terrain_set_parallel (NULL);
      CHECK (fields_equal (f, tasks, (size_t) w * h), "%d neighbours: 3 tasks in reverse order "
             "change %zu pixels", nb ? 8 : 4, count_differing (f, tasks, (size_t) w * h));
      free (original);
      free (f);
      free (again);
      free (turned);
      free (flipped);
      free (want_turned);
      free (want_flipped);
      free (tasks);
    }
}

static void
test_thermal_unchanged (void)
{
  /* A constant map, strength 0, and a map with no pair steeper than the talus. */
  float *flat = malloc (64 * 48 * sizeof (float));
  for (int i = 0; i < 64 * 48; i++)
    flat[i] = 0.37f;
  float *noise = random_field (64, 48, 10);
  float *gentle = random_field (64, 48, 11);
  for (int i = 0; i < 64 * 48; i++)
    gentle[i] *= 0.5f;
  const struct { const char *what; float *f; TerrainThermalErosion p; } cases[] = {
    { "constant", flat, thermal (TERRAIN_NEIGHBOURHOOD_8, 50, 0.0, 1.0) },
    { "strength 0", noise, thermal (TERRAIN_NEIGHBOURHOOD_8, 50, 0.01, 0.0) },
    { "talus 1", gentle, thermal (TERRAIN_NEIGHBOURHOOD_4, 50, 1.0, 1.0) },
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
      float *g = copy_field (cases[i].f, 64, 48);
      thermal_ok (&cases[i].p, g, 64, 48);
      CHECK (fields_equal (g, cases[i].f, 64 * 48), "%s: the map changed", cases[i].what);
      free (g);
    }
  free (flat);
  free (noise);
  free (gentle);
}

/* Values near FLT_MAX (worked on at half scale), subnormals, thin maps: finite, and the
 * total kept relative to the largest magnitude. */
static void
test_thermal_extremes (void)
{
  const int sizes[][2] = { { 33, 17 }, { 1, 40 }, { 40, 1 }, { 2, 3 } };
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (int kind = 0; kind < 3; kind++)
      for (int nb = 0; nb < 2; nb++)
        {
          const int w = sizes[s][0], h = sizes[s][1];
          const size_t n = (size_t) w * h;
          float *f = random_field (w, h, 12);
          double magnitude = 1.0;
          for (size_t i = 0; i < n; i++)
            {
              if (kind == 0) /* a checkerboard of +-FLT_MAX-ish */
                f[i] = ((i + i / w) % 2 ? -FLT_MAX : FLT_MAX) * (0.9f + 0.1f * f[i]);
              else if (kind == 1) /* subnormals */
                f[i] *= 1e-40f;
              else /* huge, all positive */
                f[i] = 3e38f * f[i];
            }
          magnitude = kind == 0 ? FLT_MAX : kind == 1 ? 1e-40 : 3e38;
          const double before = field_sum (f, n);
          const TerrainThermalErosion p = thermal ((TerrainNeighbourhood) nb, 60, 0.0, 1.0);
          thermal_ok (&p, f, w, h);
          CHECK (! terrain_has_non_finite (f, n), "%dx%d kind %d: NaN/inf", w, h, kind);
          const double after = field_sum (f, n);
          CHECK (fabs (after - before) <= 1e-5 * magnitude * (double) n,
                 "%dx%d kind %d, %d neighbours: sum %g, was %g", w, h, kind, nb ? 8 : 4, after, before);
          free (f);
        }
}

static void
test_thermal_invalid (void)
{
  float f[6] = { 0.1f, 0.9f, 0.3f, 0.4f, 0.0f, 1.0f }, g[6];
  memcpy (g, f, sizeof f);
  TerrainThermalErosion p = thermal (TERRAIN_NEIGHBOURHOOD_8, 10, 0.01, 0.5);
  CHECK (terrain_thermal_erosion (&p, f, 0, 2, NULL) == TERRAIN_ERROR_INVALID, "width 0");
  CHECK (terrain_thermal_erosion (&p, f, 3, -1, NULL) == TERRAIN_ERROR_INVALID, "height -1");
  const int iterations[] = { 0, -1, TERRAIN_THERMAL_MAX_ITERATIONS + 1 };
  for (int i = 0; i < 3; i++)
    {
      p = thermal (TERRAIN_NEIGHBOURHOOD_8, iterations[i], 0.01, 0.5);
      CHECK (terrain_thermal_erosion (&p, f, 3, 2, NULL) == TERRAIN_ERROR_INVALID, "iterations %d",
             iterations[i]);
    }
  const double bad[] = { -0.1, 1.1, -1e-300, NAN, INFINITY, -INFINITY };
  for (int i = 0; i < 6; i++)
    {
      p = thermal (TERRAIN_NEIGHBOURHOOD_8, 10, bad[i], 0.5);
      CHECK (terrain_thermal_erosion (&p, f, 3, 2, NULL) == TERRAIN_ERROR_INVALID, "talus %g", bad[i]);
      p = thermal (TERRAIN_NEIGHBOURHOOD_8, 10, 0.01, bad[i]);
      CHECK (terrain_thermal_erosion (&p, f, 3, 2, NULL) == TERRAIN_ERROR_INVALID, "strength %g",
             bad[i]);
    }
  const int neighbourhoods[] = { 2, -1, 8 };
  for (int i = 0; i < 3; i++)
    {
      p = thermal ((TerrainNeighbourhood) neighbourhoods[i], 10, 0.01, 0.5);
      CHECK (terrain_thermal_erosion (&p, f, 3, 2, NULL) == TERRAIN_ERROR_INVALID,
             "neighbourhood %d", neighbourhoods[i]);
    }
  CHECK (memcmp (f, g, sizeof f) == 0, "refused parameters touched the data");
}

static void
test_thermal_progress_and_cancel (void)
{
  const int w = 300, h = 300;
  const TerrainThermalErosion p = thermal (TERRAIN_NEIGHBOURHOOD_8, 200, 0.001, 0.5);
  float *f = random_field (w, h, 13);
  const double before = field_sum (f, (size_t) w * h);
  ProgressLog log = progress_log (0.5);
  TerrainProgress cancel = { log_progress, &log };
  CHECK (terrain_thermal_erosion (&p, f, w, h, &cancel) == TERRAIN_CANCELLED, "not cancelled");
  CHECK (log.last >= 0.5 && log.last < 0.51 && log.monotone, "cancelled at %g (monotone %d)",
         log.last, log.monotone);
  /* The data holds whole iterations: the total is kept. */
  CHECK (fabs (field_sum (f, (size_t) w * h) - before) < 1e-5 * before, "cancelled run lost height");
  log = progress_log (2.0);
  TerrainProgress traced = { log_progress, &log };
  CHECK (terrain_thermal_erosion (&p, f, w, h, &traced) == TERRAIN_OK, "traced run failed");
  CHECK (log.monotone && log.last == 1.0 && log.calls > 200, "progress went back or ended at %g "
         "after %d calls", log.last, log.calls);
  free (f);
}

/* ---- Hydraulic erosion ---- */

static TerrainHydraulicErosion
hydraulic (int droplets, uint32_t seed)
{
  TerrainHydraulicErosion p;
  terrain_hydraulic_erosion_defaults (&p);
  p.droplets = droplets;
  p.seed = seed;
  return p;
}

static void
hydraulic_ok (const TerrainHydraulicErosion *p, float *f, int w, int h)
{
  TerrainStatus s = terrain_hydraulic_erosion (p, f, w, h, NULL);
  CHECK (s == TERRAIN_OK, "status %d, %dx%d", s, w, h);
}

/* Smooth hills with a little noise: something for droplets to run down. */
static float *
hills (int w, int h, uint32_t seed)
{
  float *f = malloc ((size_t) w * h * sizeof (float));
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      f[(size_t) y * w + x] = (float) (0.5 + 0.25 * sin (x * 0.11) * cos (y * 0.07 + 0.3)
                                       + 0.1 * sin ((x + 2 * y) * 0.05)
                                       + 0.02 * terrain_hash_to_unit (terrain_hash (seed, x, y, 1)));
  return f;
}

/* What the observer sees: the map's sum plus the sediment carried plus what was lost must
 * stay the sum before the run, after every step. */
typedef struct
{
  const float *data;
  size_t       n;
  double       start;      /* the sum before the run */
  double       worst;      /* largest |sum + sediment + lost - start| seen */
  double       eroded, deposited, lost; /* the totals at the last call */
  int          calls, alive_steps, stops, max_steps, protocol_errors;
  int          droplet;    /* the droplet of the last call (-1 before the first) */
  int          width, height;
  int          stopped;    /* the last call was a stop (1 before the first) */
  long long    stopped_sum; /* the sum of the droplets that stopped */
} Ledger;

static void
ledger_step (void *user, const TerrainDropletStep *s)
{
  Ledger *l = user;
  const double now = field_sum (l->data, l->n) + s->sediment + s->lost;
  l->worst = fmax (l->worst, fabs (now - l->start));
  l->calls++;
  l->alive_steps += s->alive;
  l->stops += ! s->alive;
  /* A droplet's calls one after the other, a new droplet only once the last one stopped (in
   * the schedule's order, not the droplets'); steps 1 .. max_steps; nothing carried once
   * stopped; on the map. */
  l->protocol_errors += s->droplet != l->droplet ? ! l->stopped : l->stopped;
  l->stopped = ! s->alive;
  l->stopped_sum += s->alive ? 0 : s->droplet;
  l->protocol_errors += s->steps > l->max_steps || (s->alive && s->steps < 1);
  l->protocol_errors += ! s->alive && s->sediment != 0.0;
  l->protocol_errors += ! (s->x >= 0 && s->x <= l->width - 1 && s->y >= 0 && s->y <= l->height - 1);
  l->protocol_errors += s->eroded < l->eroded || s->deposited < l->deposited;
  l->droplet = s->droplet;
  l->eroded = s->eroded;
  l->deposited = s->deposited;
  l->lost = s->lost;
}

/* The same, with every droplet step going to a Ledger. */
static void
hydraulic_watched_ok (const TerrainHydraulicErosion *p, Ledger *l, float *f, int w, int h)
{
  TerrainStatus s = terrain_hydraulic_erosion_observed (p, ledger_step, l, f, w, h, NULL);
  CHECK (s == TERRAIN_OK, "status %d, %dx%d", s, w, h);
}

static void
test_hydraulic_conserves (void)
{
  /* 240 x 160: tiles (75 pixels at 30 steps) in 4 phases. */
  const int sizes[][2] = { { 64, 48 }, { 1, 50 }, { 50, 1 }, { 7, 5 }, { 240, 160 } };
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    {
      const int w = sizes[s][0], h = sizes[s][1];
      const size_t n = (size_t) w * h;
      float *f = hills (w, h, 20);
      TerrainHydraulicErosion p = hydraulic (400, 21);
      p.max_steps = 30;
      Ledger l = { f, n, field_sum (f, n), 0, 0, 0, 0, 0, 0, 0, p.max_steps, 0, -1, w, h, 1, 0 };
      hydraulic_watched_ok (&p, &l, f, w, h);
      const double scale = l.start;
      CHECK (l.worst <= 1e-12 * scale * 100, "%dx%d: sum + carried + lost drifts by %g per step",
             w, h, l.worst);
      /* Every droplet once: as many stops as droplets, and their sum. */
      CHECK (l.stops == p.droplets && l.calls == l.alive_steps + l.stops &&
             l.protocol_errors == 0 && l.stopped_sum == (long long) p.droplets * (p.droplets - 1) / 2,
             "%dx%d: %d calls, %d steps, %d stops, %d protocol errors", w, h, l.calls,
             l.alive_steps, l.stops, l.protocol_errors);
      /* The whole run: what the map lost is what left it; taken = given + lost. */
      const double change = l.start - field_sum (f, n);
      CHECK (fabs (change - l.lost) <= 1e-12 * scale * 100 && l.lost > -1e-9,
             "%dx%d: the map lost %.12g, droplets carried off %.12g", w, h, change, l.lost);
      CHECK (fabs (l.eroded - l.deposited - l.lost) <= 1e-12 * scale * 100,
             "%dx%d: eroded %.12g, deposited %.12g, lost %.12g", w, h, l.eroded, l.deposited, l.lost);
      if (w == 64)
        CHECK (l.eroded > 0.01 && l.lost > 0.0, "64x48: eroded %g, lost %g", l.eroded, l.lost);
      free (f);
    }
}

/* In a bowl no droplet leaves the map: whatever they take, they put back, and nothing is
 * lost (a droplet that stops drops its load where it stands) but the float rounding of
 * those last drops: one pixel's a droplet. */
static void
test_hydraulic_bowl_keeps_everything (void)
{
  const int w = 64, h = 64;
  const size_t n = (size_t) w * h;
  float *f = malloc (n * sizeof (float));
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      f[y * w + x] = (float) (((x - 31.5) * (x - 31.5) + (y - 31.5) * (y - 31.5)) / 2048.0
                              + 0.01 * terrain_hash_to_unit (terrain_hash (22, x, y, 0)));
  TerrainHydraulicErosion p = hydraulic (2000, 23);
  Ledger l = { f, n, field_sum (f, n), 0, 0, 0, 0, 0, 0, 0, p.max_steps, 0, -1, w, h, 1, 0 };
  hydraulic_watched_ok (&p, &l, f, w, h);
  /* A stopping droplet loses at most the rounding of one pixel below 1: half its ulp. */
  const double rounding = p.droplets * 0x1p-25;
  CHECK (l.eroded > 50.0 && fabs (l.lost) < rounding && fabs (field_sum (f, n) - l.start) < rounding,
         "bowl: eroded %g, lost %g, sum %.12g, was %.12g", l.eroded, l.lost, field_sum (f, n),
         l.start);
  free (f);
}

/* A slope falling along +y with a bump: the water coming off the bump runs down the fall
 * line below it and cuts into the slope there, more than beside it and more than the
 * same droplets do on the slope without the bump. */
static double
mean_change (const float *after, const float *before, int w, int x0, int x1, int y0, int y1)
{
  double sum = 0.0;
  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++)
      sum += after[y * w + x] - before[y * w + x];
  return sum / ((x1 - x0) * (y1 - y0));
}

static void
test_hydraulic_channel_below_bump (void)
{
  const int w = 96, h = 128, cx = 48, cy = 30;
  const double sigma = 8.0;
  float *bump = malloc ((size_t) w * h * sizeof (float));
  float *plain = malloc ((size_t) w * h * sizeof (float));
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        const double d2 = (x - cx) * (x - cx) + (y - cy) * (y - cy);
        plain[y * w + x] = (float) (0.9 - 0.8 * y / (h - 1.0));
        bump[y * w + x] = (float) (plain[y * w + x] + 0.3 * exp (-d2 / (2 * sigma * sigma)));
      }
  /* Below: the fall line 3 to 5 sigma under the bump's centre (the bump is 1% of its height
   * there; further down, what the channel took is laid down again); beside: the same rows,
   * 26 pixels to either side. Evaporation 0.01 (Lague's): at the defaults' 0.05 the water
   * off the bump has dried enough by 3 sigma to begin its fan there, which is
   * test_hydraulic_sediment_downhill's matter. */
  const int y0 = cy + 3 * (int) sigma, y1 = cy + 5 * (int) sigma;
  for (uint32_t seed = 0; seed < 3; seed++)
    {
      TerrainHydraulicErosion p = hydraulic (20000, seed);
      p.evaporation = 0.01;
      float *a = copy_field (bump, w, h), *b = copy_field (plain, w, h);
      hydraulic_ok (&p, a, w, h);
      hydraulic_ok (&p, b, w, h);
      const double below = mean_change (a, bump, w, cx - 4, cx + 4, y0, y1);
      const double left = mean_change (a, bump, w, cx - 30, cx - 22, y0, y1);
      const double right = mean_change (a, bump, w, cx + 22, cx + 30, y0, y1);
      const double without = mean_change (b, plain, w, cx - 4, cx + 4, y0, y1);
      CHECK (below < -0.002 && below < left - 0.002 && below < right - 0.002 &&
             below < without - 0.002, "seed %u: mean change below the bump %g, beside %g %g, "
             "without the bump %g", seed, below, left, right, without);
      free (a);
      free (b);
    }
  free (bump);
  free (plain);
}

/* A rough map for the look tests: a slope down to the south with valleys, and noise of
 * every scale (midpoint displacement, as Diamond-Square's grain).  w and h are 2^n + 1. */
static float *
rough_slope (int w, int h, uint32_t seed)
{
  float *f = calloc ((size_t) w * h, sizeof (float));
  for (int step = w - 1; step > 1; step /= 2)
    for (int y = 0; y < h; y += step / 2)
      for (int x = (y % step == 0) ? step / 2 : 0; x < w; x += (y % step == 0) ? step : step / 2)
        {
          const int x0 = x - x % step, y0 = y - y % step;
          const int x1 = x0 + step < w ? x0 + step : x0, y1 = y0 + step < h ? y0 + step : y0;
          const double mean = 0.25 * (f[y0 * w + x0] + f[y0 * w + x1] + f[y1 * w + x0] +
                                      f[y1 * w + x1]);
          f[y * w + x] = (float) (mean + 0.6 * step / (w - 1.0) *
                                           (terrain_hash_to_unit (terrain_hash (seed, x, y, 2)) - 0.5));
        }
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      f[y * w + x] = (float) (0.3 + 0.35 * f[y * w + x] + 0.6 * (1.0 - (double) y / (h - 1))
                              + 0.05 * cos (x * 0.15));
  return f;
}

/* Grain at the pixel scale (the "speckle" of the project's look figures): the rms of the
 * 5-point Laplacian over that of the map averaged in 4 x 4 blocks, divided by 16. */
static double
speckle (const float *f, int w, int h)
{
  const int bw = w / 4, bh = h / 4;
  float    *blocks = calloc ((size_t) bw * bh, sizeof (float));
  for (int y = 0; y < bh * 4; y++)
    for (int x = 0; x < bw * 4; x++)
      blocks[(y / 4) * bw + x / 4] += f[y * w + x] / 16.0f;
  double fine = 0.0, coarse = 0.0;
  int    nf = 0, nc = 0;
  for (int y = 1; y < h - 1; y++)
    for (int x = 1; x < w - 1; x++, nf++)
      fine += pow (f[(y - 1) * w + x] + f[(y + 1) * w + x] + f[y * w + x - 1] + f[y * w + x + 1]
                     - 4.0 * f[y * w + x], 2);
  for (int y = 1; y < bh - 1; y++)
    for (int x = 1; x < bw - 1; x++, nc++)
      coarse += pow (blocks[(y - 1) * bw + x] + blocks[(y + 1) * bw + x] + blocks[y * bw + x - 1]
                       + blocks[y * bw + x + 1] - 4.0 * blocks[y * bw + x], 2);
  free (blocks);
  return sqrt (fine / nf) / (sqrt (coarse / nc) / 16.0);
}

/* Closed pits: inner pixels with no strictly lower neighbour of 8. */
static int
pits (const float *f, int w, int h)
{
  int count = 0;
  for (int y = 1; y < h - 1; y++)
    for (int x = 1; x < w - 1; x++)
      {
        int lower = 0;
        for (int dy = -1; dy <= 1; dy++)
          for (int dx = -1; dx <= 1; dx++)
            lower += f[(y + dy) * w + x + dx] < f[y * w + x];
        count += lower == 0;
      }
  return count;
}

/* Droplets at about one a pixel wear the map smoother, not grainier: the pixel-scale grain
 * does not rise (droplets that dug pits and dropped heaps on single pixels quadrupled it),
 * and they fill more pits than they dig. */
static void
test_hydraulic_no_grain_no_pits (void)
{
  const int w = 129, h = 129;
  for (uint32_t seed = 0; seed < 3; seed++)
    {
      float                        *before = rough_slope (w, h, 100 + seed);
      float                        *f = copy_field (before, w, h);
      const TerrainHydraulicErosion p = hydraulic (w * h, seed);
      hydraulic_ok (&p, f, w, h);
      const double grain0 = speckle (before, w, h), grain1 = speckle (f, w, h);
      const int    pits0 = pits (before, w, h), pits1 = pits (f, w, h);
      CHECK (grain1 <= grain0, "seed %u: speckle %.2f -> %.2f", seed, grain0, grain1);
      CHECK (pits1 <= pits0, "seed %u: closed pits %d -> %d", seed, pits0, pits1);
      CHECK (count_differing (before, f, (size_t) w * h) > (size_t) w * h / 2,
             "seed %u: %zu pixels changed", seed, count_differing (before, f, (size_t) w * h));
      free (before);
      free (f);
    }
}

/* rough_slope with its pixel grain worn down: the 3 x 3 mean of every pixel inside the
 * border (the border kept). Speckle 2.1 to 2.4, finer than the real DEMs of the look figures
 * (2.5 to 4.6). */
static float *
worn_slope (int w, int h, uint32_t seed)
{
  float *rough = rough_slope (w, h, seed);
  float *worn = copy_field (rough, w, h);
  for (int y = 1; y < h - 1; y++)
    for (int x = 1; x < w - 1; x++)
      {
        double sum = 0.0;
        for (int dy = -1; dy <= 1; dy++)
          for (int dx = -1; dx <= 1; dx++)
            sum += rough[(y + dy) * w + x + dx];
        worn[y * w + x] = (float) (sum / 9.0);
      }
  free (rough);
  return worn;
}

/* On a map as fine-grained as real land (speckle 2.1 to 2.4 here), the grain droplets
 * leave is their brush's, within the real DEMs' (speckle 2.5 to 4.6), and they leave
 * hardly a closed pit: here speckle 2.9 to 3.2 and 1 to 4 closed pits in 16641 pixels
 * (0.03 % at most; the real DEMs have 0.4 % to 1.7 %), from 0, 1 and 9 before. Sediment
 * dropped on the 4 pixels around a droplet (Lague's rule, deposition 0.3) left heaps a pixel
 * wide: speckle 3.5 to 3.8 and 3 to 7 closed pits between them. */
static void
test_hydraulic_brush_grain (void)
{
  const int w = 129, h = 129;
  for (uint32_t seed = 0; seed < 3; seed++)
    {
      float                        *f = worn_slope (w, h, 110 + seed);
      const TerrainHydraulicErosion p = hydraulic (w * h, seed);
      hydraulic_ok (&p, f, w, h);
      CHECK (speckle (f, w, h) <= 3.4, "seed %u: speckle %.2f", seed, speckle (f, w, h));
      CHECK (pits (f, w, h) <= 4, "seed %u: %d closed pits", seed, pits (f, w, h));
      free (f);
    }
}

/* What droplets carry ends lower than where they took it, and in valleys: weighted by what
 * each pixel lost or gained, the heights before the run where sediment was laid down are
 * well below those it came from, and there the map was concave (its Laplacian positive). */
static void
test_hydraulic_sediment_downhill (void)
{
  const int w = 129, h = 129;
  for (uint32_t seed = 0; seed < 3; seed++)
    {
      float                        *before = rough_slope (w, h, 110 + seed);
      float                        *f = copy_field (before, w, h);
      const TerrainHydraulicErosion p = hydraulic (w * h, seed);
      hydraulic_ok (&p, f, w, h);
      double taken = 0.0, laid = 0.0, from = 0.0, to = 0.0, concave_taken = 0.0, concave_laid = 0.0;
      for (int y = 1; y < h - 1; y++)
        for (int x = 1; x < w - 1; x++)
          {
            const int    i = y * w + x;
            const double change = (double) f[i] - before[i];
            const double laplacian = (double) before[i - 1] + before[i + 1] + before[i - w] +
                                     before[i + w] - 4.0 * before[i];
            if (change < 0.0)
              {
                taken -= change;
                from -= change * before[i];
                concave_taken -= change * laplacian;
              }
            else
              {
                laid += change;
                to += change * before[i];
                concave_laid += change * laplacian;
              }
          }
      from /= taken;
      to /= laid;
      CHECK (taken > 0.0 && laid > 0.0 && to < from - 0.02, "seed %u: sediment taken at mean "
             "height %.4f, laid at %.4f", seed, from, to);
      CHECK (concave_laid / laid > 0.0 && concave_laid / laid > concave_taken / taken,
             "seed %u: mean Laplacian where laid %.3g, where taken %.3g", seed,
             concave_laid / laid, concave_taken / taken);
      free (before);
      free (f);
    }
}

static void
test_hydraulic_deterministic (void)
{
  const int w = 80, h = 60;
  float *original = hills (w, h, 30);
  float *a = copy_field (original, w, h), *b = copy_field (original, w, h);
  float *c = copy_field (original, w, h);
  const TerrainHydraulicErosion p = hydraulic (3000, 31), q = hydraulic (3000, 32);
  hydraulic_ok (&p, a, w, h);
  hydraulic_ok (&p, b, w, h);
  hydraulic_ok (&q, c, w, h);
  CHECK (fields_equal (a, b, (size_t) w * h), "the same seed gave different maps");
  CHECK (count_differing (a, c, (size_t) w * h) > (size_t) w * h / 4, "seeds 31 and 32 differ in "
         "only %zu pixels", count_differing (a, c, (size_t) w * h));
  free (original);
  free (a);
  free (b);
  free (c);
}

/* Ten times the droplets change the map clearly more: they go on carving, they do not
 * stop at the first valleys. (At ten droplets a pixel the change grows more slowly: the
 * valleys drain; droplets that dropped heaps on single pixels grew it faster, with grain.) */
static void
test_hydraulic_more_droplets (void)
{
  const int w = 96, h = 96, counts[] = { 1000, 10000, 100000 };
  float *original = hills (w, h, 40);
  double previous = 0.0;
  for (int i = 0; i < 3; i++)
    {
      float *f = copy_field (original, w, h);
      const TerrainHydraulicErosion p = hydraulic (counts[i], 41);
      hydraulic_ok (&p, f, w, h);
      double change = 0.0;
      for (int k = 0; k < w * h; k++)
        change += fabs (f[k] - original[k]);
      CHECK (change > 1.5 * previous, "%d droplets: total change %g, not 1.5 times %g",
             counts[i], change, previous);
      previous = change;
      free (f);
    }
  free (original);
}

/* Pixels never go below 0, and pixels at or below 0 give nothing: they only gain. */
static void
test_hydraulic_floor (void)
{
  const int w = 64, h = 64;
  float *f = hills (w, h, 50);
  for (int i = 0; i < w * h; i++)
    f[i] = f[i] * 0.05f - (i % 7 == 0 ? 0.01f : 0.0f); /* low, some pixels below 0 */
  float *before = copy_field (f, w, h);
  TerrainHydraulicErosion p = hydraulic (5000, 51);
  p.erosion = 1.0;
  p.capacity = TERRAIN_HYDRAULIC_MAX_CAPACITY;
  hydraulic_ok (&p, f, w, h);
  int wrong = 0;
  for (int i = 0; i < w * h; i++)
    wrong += before[i] >= 0.0f ? f[i] < 0.0f : f[i] < before[i];
  CHECK (wrong == 0, "%d pixels went below 0 or lost height below 0", wrong);
  free (f);
  free (before);
}

static void
test_hydraulic_zero_droplets (void)
{
  float *f = hills (30, 20, 60), *g = copy_field (f, 30, 20);
  const TerrainHydraulicErosion p = hydraulic (0, 61);
  hydraulic_ok (&p, f, 30, 20);
  CHECK (fields_equal (f, g, 30 * 20), "0 droplets changed the map");
  free (f);
  free (g);
}

static void
test_hydraulic_extremes (void)
{
  const int sizes[][2] = { { 40, 30 }, { 1, 1 }, { 1, 30 }, { 30, 1 }, { 2, 2 } };
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (int kind = 0; kind < 4; kind++)
      for (int variant = 0; variant < 4; variant++)
        {
          const int w = sizes[s][0], h = sizes[s][1];
          const size_t n = (size_t) w * h;
          float *f = hills (w, h, 70);
          for (size_t i = 0; i < n; i++)
            if (kind == 1) /* +-FLT_MAX checkerboard */
              f[i] = (i + i / w) % 2 ? FLT_MAX : -FLT_MAX;
            else if (kind == 2) /* huge slopes */
              f[i] *= 1e38f;
            else if (kind == 3) /* negative and tiny */
              f[i] = -f[i] * 1e-30f;
          TerrainHydraulicErosion p = hydraulic (300, 71);
          if (variant == 0)
            {
              p.inertia = 1.0;
              p.evaporation = 1.0;
              p.radius = TERRAIN_HYDRAULIC_MAX_RADIUS;
            }
          else if (variant == 1)
            {
              p.inertia = 0.0;
              p.capacity = TERRAIN_HYDRAULIC_MAX_CAPACITY;
              p.erosion = 1.0;
              p.deposition = 1.0;
              p.evaporation = 0.0;
              p.max_steps = TERRAIN_HYDRAULIC_MAX_STEPS;
            }
          else if (variant == 2)
            {
              p.capacity = 0.0;
              p.erosion = 0.0;
              p.deposition = 0.0;
              p.radius = 1;
              p.max_steps = 1;
            }
          const double start = field_sum (f, n);
          double magnitude = 0.0;
          for (size_t i = 0; i < n; i++)
            magnitude += fabs (f[i]);
          Ledger l = { f, n, start, 0, 0, 0, 0, 0, 0, 0, p.max_steps, 0, -1, w, h, 1, 0 };
          if (variant == 3)
            hydraulic_watched_ok (&p, &l, f, w, h);
          else
            hydraulic_ok (&p, f, w, h);
          CHECK (! terrain_has_non_finite (f, n), "%dx%d kind %d variant %d: NaN/inf", w, h, kind,
                 variant);
          if (variant == 3)
            CHECK (l.protocol_errors == 0 &&
                   fabs (field_sum (f, n) + l.lost - start) <= 1e-12 * (magnitude + l.eroded),
                   "%dx%d kind %d: %d protocol errors, sum %g + lost %g, was %g", w, h, kind,
                   l.protocol_errors, field_sum (f, n), l.lost, start);
          free (f);
        }
}

static void
test_hydraulic_invalid (void)
{
  float f[6] = { 0.1f, 0.9f, 0.3f, 0.4f, 0.0f, 1.0f }, g[6];
  memcpy (g, f, sizeof f);
  TerrainHydraulicErosion p = hydraulic (10, 1);
  CHECK (terrain_hydraulic_erosion (&p, f, 0, 2, NULL) == TERRAIN_ERROR_INVALID, "width 0");
  CHECK (terrain_hydraulic_erosion (&p, f, 2, TERRAIN_MAX_SIDE + 1, NULL) == TERRAIN_ERROR_INVALID,
         "height too large");
  const int droplets[] = { -1, TERRAIN_HYDRAULIC_MAX_DROPLETS + 1 };
  for (int i = 0; i < 2; i++)
    {
      p = hydraulic (droplets[i], 1);
      CHECK (terrain_hydraulic_erosion (&p, f, 3, 2, NULL) == TERRAIN_ERROR_INVALID, "droplets %d",
             droplets[i]);
    }
  const double bad[] = { -0.1, 1.1, NAN, INFINITY, -INFINITY };
  for (int i = 0; i < 5; i++)
    for (int field = 0; field < 5; field++)
      {
        p = hydraulic (10, 1);
        double *target[] = { &p.inertia, &p.capacity, &p.erosion, &p.deposition, &p.evaporation };
        *target[field] = field == 1 && bad[i] == 1.1 ? TERRAIN_HYDRAULIC_MAX_CAPACITY + 0.1 : bad[i];
        CHECK (terrain_hydraulic_erosion (&p, f, 3, 2, NULL) == TERRAIN_ERROR_INVALID,
               "parameter %d = %g", field, *target[field]);
      }
  const int radii[] = { 0, TERRAIN_HYDRAULIC_MAX_RADIUS + 1 };
  const int steps[] = { 0, TERRAIN_HYDRAULIC_MAX_STEPS + 1 };
  for (int i = 0; i < 2; i++)
    {
      p = hydraulic (10, 1);
      p.radius = radii[i];
      CHECK (terrain_hydraulic_erosion (&p, f, 3, 2, NULL) == TERRAIN_ERROR_INVALID, "radius %d",
             radii[i]);
      p = hydraulic (10, 1);
      p.max_steps = steps[i];
      CHECK (terrain_hydraulic_erosion (&p, f, 3, 2, NULL) == TERRAIN_ERROR_INVALID, "max_steps %d",
             steps[i]);
    }
  CHECK (memcmp (f, g, sizeof f) == 0, "refused parameters touched the data");
}

static void
test_hydraulic_progress_and_cancel (void)
{
  const int w = 128, h = 128;
  float *f = hills (w, h, 80);
  const TerrainHydraulicErosion p = hydraulic (40000, 81);
  ProgressLog log = progress_log (0.5);
  TerrainProgress cancel = { log_progress, &log };
  CHECK (terrain_hydraulic_erosion (&p, f, w, h, &cancel) == TERRAIN_CANCELLED, "not cancelled");
  CHECK (log.last >= 0.5 && log.last < 0.6 && log.monotone, "cancelled at %g", log.last);
  log = progress_log (2.0);
  TerrainProgress traced = { log_progress, &log };
  CHECK (terrain_hydraulic_erosion (&p, f, w, h, &traced) == TERRAIN_OK, "traced run failed");
  CHECK (log.monotone && log.last == 1.0 && log.calls >= 40000 / 4096, "progress went back or "
         "ended at %g after %d calls", log.last, log.calls);
  CHECK (! terrain_has_non_finite (f, (size_t) w * h), "NaN/inf");
  free (f);
}

/* Informational only. */
static void
print_timings (void)
{
  const int side = 512;
  float *f = random_field (side, side, 90);
  for (int nb = 0; nb < 2; nb++)
    {
      const TerrainThermalErosion p = thermal ((TerrainNeighbourhood) nb, 50, 0.001, 0.5);
      const double t0 = seconds ();
      thermal_ok (&p, f, side, side);
      const double t = seconds () - t0;
      printf ("  thermal, %d neighbours, %dx%d, 50 iterations: %7.1f ms, %5.2f ns/pixel/iteration\n",
              nb ? 8 : 4, side, side, t * 1e3, t * 1e9 / ((double) side * side * 50));
    }
  free (f);
  f = hills (side, side, 91);
  const TerrainHydraulicErosion p = hydraulic (50000, 92);
  const double t0 = seconds ();
  hydraulic_ok (&p, f, side, side);
  const double t = seconds () - t0;
  printf ("  hydraulic, %dx%d, 50000 droplets (defaults): %7.1f ms, %5.0f ns/droplet\n", side, side,
          t * 1e3, t * 1e9 / 50000);
  free (f);
}

int
main (void)
{
  test_thermal_follows_rule ();
  test_thermal_lone_pair ();
  test_thermal_pit ();
  test_thermal_conserves ();
  test_thermal_reaches_talus ();
  test_thermal_spike_to_cone ();
  test_thermal_order_independent ();
  test_thermal_unchanged ();
  test_thermal_extremes ();
  test_thermal_invalid ();
  test_thermal_progress_and_cancel ();
  test_hydraulic_conserves ();
  test_hydraulic_bowl_keeps_everything ();
  test_hydraulic_brush_grain ();
  test_hydraulic_channel_below_bump ();
  test_hydraulic_no_grain_no_pits ();
  test_hydraulic_sediment_downhill ();
  test_hydraulic_deterministic ();
  test_hydraulic_more_droplets ();
  test_hydraulic_floor ();
  test_hydraulic_zero_droplets ();
  test_hydraulic_extremes ();
  test_hydraulic_invalid ();
  test_hydraulic_progress_and_cancel ();
  print_timings ();
  return CHECK_DONE ("erosion");
}
