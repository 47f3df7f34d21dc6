/* Landscape presets: determinism, range, and a property per preset that a wrong recipe would
 * break (alpine skewed towards the valleys; rolling hills gentle and within their band;
 * islands with sea at the border and land in the middle; mesa on terrace levels with flat
 * and steep slopes only; river valleys draining everywhere through branching rivers), progress and cancellation, invalid parameters, and a timing print. */
#include "check.h"
#include "drainage.h"
#include "field-stats.h"
#include "progress-log.h"
#include "timing.h"

#include "field.h"
#include "heightmap.h"
#include "landscape.h"

#include <stdlib.h>

static const char *const preset_names[] = { "alpine", "rolling-hills", "islands", "mesa",
                                             "river-valleys" };
#define PRESETS ((int) (sizeof preset_names / sizeof preset_names[0]))

static float *
render (TerrainLandscapePreset preset, uint32_t seed, int feature_size, int w, int h)
{
  TerrainLandscape p;
  terrain_landscape_defaults (&p);
  p.preset = preset;
  p.seed = seed;
  p.feature_size = feature_size;
  float *out = malloc ((size_t) w * h * sizeof (float));
  TerrainStatus s = terrain_landscape (&p, out, w, h, NULL);
  CHECK (s == TERRAIN_OK, "%s: status %d at %dx%d", preset_names[preset], s, w, h);
  return out;
}

static double
skewness (const float *a, size_t n)
{
  const double m = field_mean (a, n);
  double v = 0.0, s = 0.0;
  for (size_t i = 0; i < n; i++)
    {
      const double d = a[i] - m;
      v += d * d;
      s += d * d * d;
    }
  v /= (double) n;
  s /= (double) n;
  return v > 0.0 ? s / pow (v, 1.5) : 0.0;
}

/* Share of pixels within 0.01 of one of the mesa's levels k / steps. */
static double
near_levels (const float *a, size_t n)
{
  const int steps = TERRAIN_LANDSCAPE_MESA_STEPS;
  size_t near = 0;
  for (size_t i = 0; i < n; i++)
    {
      const double t = a[i] * steps;
      near += fabs (t - floor (t + 0.5)) / steps <= 0.01;
    }
  return (double) near / (double) n;
}

/* Shares of pixels whose steepest forward difference max (|dx|, |dy|), in units of
 * 1 / feature size, is flat (< 0.001), in between (0.01 .. 2) or steep (>= 4). */
static void
slope_classes (const float *a, int w, int h, int feature_size, double *flat, double *middle,
               double *steep)
{
  size_t f = 0, m = 0, s = 0, n = 0;
  for (int y = 0; y + 1 < h; y++)
    for (int x = 0; x + 1 < w; x++)
      {
        const float *p = a + (size_t) y * w + x;
        const double slope = fmax (fabs (p[1] - p[0]), fabs (p[w] - p[0])) * feature_size;
        f += slope < 0.001;
        m += slope >= 0.01 && slope < 2.0;
        s += slope >= 4.0;
        n++;
      }
  *flat = (double) f / n;
  *middle = (double) m / n;
  *steep = (double) s / n;
}

static void
test_iterations (void)
{
  static const int sizes[][2] = { { 16, 4 }, { 22, 4 }, { 23, 5 }, { 181, 7 }, { 182, 8 },
                                  { 256, 8 }, { 362, 8 }, { 363, 9 }, { 65536, 16 } };
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    CHECK (terrain_landscape_iterations (sizes[i][0]) == sizes[i][1],
           "feature size %d: %d iterations, not %d", sizes[i][0],
           terrain_landscape_iterations (sizes[i][0]), sizes[i][1]);
}

static void
test_determinism_and_range (void)
{
  static const int sizes[][2] = { { 1, 1 }, { 1, 300 }, { 300, 1 }, { 2, 2 }, { 257, 129 },
                                  { 512, 512 } };
  for (int preset = 0; preset < PRESETS; preset++)
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
      {
        const int w = sizes[s][0], h = sizes[s][1];
        const size_t n = (size_t) w * h;
        float *a = render (preset, 1234, 256, w, h), *b = render (preset, 1234, 256, w, h);
        CHECK (fields_equal (a, b, n), "%s: two runs differ at %dx%d", preset_names[preset], w, h);
        CHECK (! terrain_has_non_finite (a, n), "%s: NaN/Inf at %dx%d", preset_names[preset], w, h);
        float lo, hi;
        terrain_min_max (a, n, &lo, &hi);
        CHECK (lo >= 0.0f && hi <= 1.0f, "%s: range [%g, %g] at %dx%d", preset_names[preset],
               lo, hi, w, h);
        free (a);
        free (b);
      }

  /* The smallest and largest feature sizes. */
  for (int preset = 0; preset < PRESETS; preset++)
    for (int fs = TERRAIN_LANDSCAPE_MIN_FEATURE_SIZE; fs <= TERRAIN_LANDSCAPE_MAX_FEATURE_SIZE;
         fs *= 4096)
      {
        float *a = render (preset, 7, fs, 257, 129);
        float lo, hi;
        terrain_min_max (a, 257 * 129, &lo, &hi);
        CHECK (! terrain_has_non_finite (a, 257 * 129) && lo >= 0.0f && hi <= 1.0f && hi > lo,
               "%s, feature size %d: range [%g, %g]", preset_names[preset], fs, lo, hi);
        free (a);
      }
}

static void
test_seeds_differ (void)
{
  for (int preset = 0; preset < PRESETS; preset++)
    {
      const size_t n = 257 * 129;
      float *a = render (preset, 0, 64, 257, 129), *b = render (preset, 1, 64, 257, 129);
      const size_t differ = count_differing (a, b, n);
      /* Islands share their flat sea floor, mesas their flat levels: fewer pixels differ. */
      CHECK (differ > n / 3, "%s: seeds 0 and 1 differ in only %zu of %zu pixels",
             preset_names[preset], differ, n);
      free (a);
      free (b);
    }
}

/* Alpine: the peaked curve and the ridges leave most of the map low and a few summits high:
 * skewed heights (without the curve b^1.5 the mean skewness over these seeds is about 0.6,
 * without the ridges some seeds fall below 0.3). */
static void
test_alpine_skewed (void)
{
  double mean = 0.0;
  for (uint32_t seed = 0; seed < 6; seed++)
    {
      float *a = render (TERRAIN_LANDSCAPE_ALPINE, seed, 256, 512, 512);
      const double skew = skewness (a, 512 * 512);
      mean += skew / 6.0;
      CHECK (skew > 0.3, "alpine seed %u: skewness %.3f, valleys not broad", seed, skew);
      float lo, hi;
      terrain_min_max (a, 512 * 512, &lo, &hi);
      CHECK (lo == 0.0f && hi == 1.0f, "alpine seed %u: not stretched, [%g, %g]", seed, lo, hi);
      free (a);
    }
  printf ("alpine: mean skewness %.3f over 6 seeds\n", mean);
  CHECK (mean > 0.75, "alpine: mean skewness %.3f", mean);
}

/* Rolling hills: heights within the band, slopes far gentler than alpine's. */
static void
test_hills_gentle (void)
{
  for (uint32_t seed = 0; seed < 4; seed++)
    {
      const size_t n = 512 * 512;
      float *hills = render (TERRAIN_LANDSCAPE_ROLLING_HILLS, seed, 256, 512, 512);
      float *alpine = render (TERRAIN_LANDSCAPE_ALPINE, seed, 256, 512, 512);
      float lo, hi;
      terrain_min_max (hills, n, &lo, &hi);
      CHECK (lo >= (float) TERRAIN_LANDSCAPE_HILLS_LOW && hi <= (float) TERRAIN_LANDSCAPE_HILLS_HIGH,
             "hills seed %u: range [%g, %g] leaves the band", seed, lo, hi);
      CHECK (hi - lo > 0.1f, "hills seed %u: flat, range [%g, %g]", seed, lo, hi);
      const double gh = mean_abs_gradient (hills, 512, 512);
      const double ga = mean_abs_gradient (alpine, 512, 512);
      CHECK (gh * 5.0 < ga, "seed %u: hills' mean |slope| %.6f not 5x below alpine's %.6f",
             seed, gh, ga);
      free (hills);
      free (alpine);
    }
}

/* Islands: the border ring is sea floor, the middle is land. */
static void
test_islands_sea_at_border (void)
{
  static const int sizes[][2] = { { 512, 512 }, { 257, 129 } };
  const float sea_floor = (float) TERRAIN_LANDSCAPE_SEA_FLOOR;
  for (size_t s = 0; s < 2; s++)
    {
      const int w = sizes[s][0], h = sizes[s][1];
      double contrast = 0.0;
      for (uint32_t seed = 0; seed < 6; seed++)
        {
          float *a = render (TERRAIN_LANDSCAPE_ISLANDS, seed, w / 2, w, h);
          double ring = 0.0, centre = 0.0;
          size_t ring_n = 0, centre_n = 0, on_floor = 0, land = 0, below_floor = 0;
          for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
              {
                const double u = (x + 0.5 - w / 2.0) / (w / 2.0);
                const double v = (y + 0.5 - h / 2.0) / (h / 2.0);
                const float  z = a[(size_t) y * w + x];
                land += z > (float) TERRAIN_LANDSCAPE_COAST;
                below_floor += z < sea_floor;
                if (fmax (fabs (u), fabs (v)) >= 0.9) /* the outer 5% on every side */
                  {
                    ring += z;
                    ring_n++;
                    on_floor += z == sea_floor;
                  }
                if (fmax (fabs (u), fabs (v)) < 0.5) /* the middle quarter */
                  {
                    centre += z;
                    centre_n++;
                  }
              }
          ring /= ring_n;
          centre /= centre_n;
          contrast += (centre - ring) / 6.0;
          CHECK (centre - ring > 0.1, "islands %dx%d seed %u: ring mean %.3f, centre mean %.3f",
                 w, h, seed, ring, centre);
          CHECK (on_floor >= ring_n * 95 / 100, "islands %dx%d seed %u: %zu of %zu ring pixels "
                 "at the sea floor", w, h, seed, on_floor, ring_n);
          CHECK (below_floor == 0, "islands seed %u: %zu pixels below the sea floor", seed,
                 below_floor);
          const double share = (double) land / ((size_t) w * h);
          CHECK (share > 0.05 && share < 0.4, "islands %dx%d seed %u: land share %.3f", w, h,
                 seed, share);
          free (a);
        }
      printf ("islands %dx%d: centre mean - ring mean %.3f over 6 seeds\n", w, h, contrast);
      CHECK (contrast > 0.2, "islands %dx%d: centre only %.3f above the ring on average", w, h,
             contrast);
    }
}

/* Mesa: most pixels on the terrace levels (against the plain field at its roughness), and
 * slopes either flat or steep, hardly anything in between. */
static void
test_mesa_terraces (void)
{
  const int w = 512, h = 512, fs = 256;
  const size_t n = (size_t) w * h;
  for (uint32_t seed = 0; seed < 4; seed++)
    {
      float *mesa = render (TERRAIN_LANDSCAPE_MESA, seed, fs, w, h);
      TerrainField f;
      terrain_field_defaults (&f);
      f.seed = seed;
      f.iterations = terrain_landscape_iterations (fs);
      f.roughness = 1.4;
      float *field = malloc (n * sizeof (float));
      CHECK (terrain_field (&f, field, w, h, NULL) == TERRAIN_OK, "field");
      terrain_normalize (field, n);

      const double on_mesa = near_levels (mesa, n), on_field = near_levels (field, n);
      CHECK (on_mesa > 0.8 && on_mesa > 4.0 * on_field,
             "mesa seed %u: %.3f of pixels on the levels, plain field %.3f", seed, on_mesa,
             on_field);

      double flat, middle, steep, field_flat, field_middle, field_steep;
      slope_classes (mesa, w, h, fs, &flat, &middle, &steep);
      slope_classes (field, w, h, fs, &field_flat, &field_middle, &field_steep);
      CHECK (flat > 0.6 && steep > 0.01 && middle < 0.25 * steep,
             "mesa seed %u: slopes flat %.3f, in between %.3f, steep %.3f: not bimodal", seed,
             flat, middle, steep);
      CHECK (field_middle > 0.5, "plain field seed %u: only %.3f of slopes in between (the "
             "measure does not tell)", seed, field_middle);
      free (mesa);
      free (field);
    }
}

/* Counts reports after the one that cancelled. */
typedef struct
{
  double at;
  int    cancelled, after, calls;
  double last;
  int    monotone;
} CancelLog;

static int
cancel_log (void *user, double fraction)
{
  CancelLog *log = user;
  log->after += log->cancelled;
  log->monotone &= fraction >= log->last && fraction <= 1.0;
  log->last = fraction;
  log->calls++;
  log->cancelled |= fraction >= log->at;
  return log->cancelled;
}

/* The largest share of the layer that drains through one cell. */
static double
largest_basin (const float *a, int w, int h)
{
  long   *r = drainage_receivers (a, w, h, 0);
  double *area = drainage_area (a, r, w, h);
  double  largest = 0.0;
  for (size_t i = 0; i < (size_t) w * h; i++)
    largest = area[i] > largest ? area[i] : largest;
  free (r);
  free (area);
  return largest / ((double) w * h);
}

/* River valleys: where alpine (a field through curves and thermal erosion) leaves closed
 * pits, every interior cell drains, and the water gathers into rivers: some cell carries
 * a large share of the layer. */
static void
test_river_valleys_drain (void)
{
  const int w = 240, h = 160;
  float *alpine = render (TERRAIN_LANDSCAPE_ALPINE, 5, 64, w, h);
  float *rivers = render (TERRAIN_LANDSCAPE_RIVER_VALLEYS, 5, 64, w, h);
  const long alpine_pits = drainage_pits (alpine, w, h, 0, -1.0f, -1);
  const long river_pits = drainage_pits (rivers, w, h, 0, -1.0f, -1);
  const double basin = largest_basin (rivers, w, h);
  printf ("river-valleys %dx%d: %ld pits (alpine %ld), largest basin %.1f%% of the layer\n", w,
          h, river_pits, alpine_pits, 100.0 * basin);
  CHECK (alpine_pits > 0, "alpine has no pit: the check cannot tell");
  CHECK (river_pits == 0, "river-valleys: %ld pits", river_pits);
  CHECK (basin > 0.02, "river-valleys: the largest basin drains only %.2f%%", 100.0 * basin);
  free (alpine);
  free (rivers);
}

static void
test_progress_and_cancel (void)
{
  const int w = 700, h = 400; /* alpine's ridge field in two bands */
  float *out = malloc ((size_t) w * h * sizeof (float));
  for (int preset = 0; preset < PRESETS; preset++)
    {
      TerrainLandscape p;
      terrain_landscape_defaults (&p);
      p.preset = preset;
      p.feature_size = 64;
      CancelLog log = { 2.0, 0, 0, 0, 0.0, 1 };
      TerrainProgress progress = { cancel_log, &log };
      CHECK (terrain_landscape (&p, out, w, h, &progress) == TERRAIN_OK, "%s: not finished",
             preset_names[preset]);
      CHECK (log.calls > 3 && log.monotone && log.last == 1.0, "%s: %d reports, monotone %d, "
             "last %g", preset_names[preset], log.calls, log.monotone, log.last);

      static const double at[] = { 0.0, 0.2, 0.5, 0.9, 1.0 };
      for (size_t i = 0; i < sizeof at / sizeof at[0]; i++)
        {
          CancelLog c = { at[i], 0, 0, 0, 0.0, 1 };
          progress.user = &c;
          const TerrainStatus s = terrain_landscape (&p, out, w, h, &progress);
          CHECK (s == TERRAIN_CANCELLED && c.after == 0,
                 "%s: cancel at %g gave status %d with %d reports after it",
                 preset_names[preset], at[i], s, c.after);
        }
    }
  free (out);
}

static void
test_invalid_parameters (void)
{
  float out[6];
  struct
  {
    int preset, feature_size, w, h;
  } cases[] = {
    { PRESETS, 256, 2, 3 }, { -1, 256, 2, 3 }, { 0, 15, 2, 3 }, { 0, 65537, 2, 3 }, { 1, 0, 2, 3 },
    { 2, -256, 2, 3 }, { 0, 256, 0, 3 }, { 3, 256, 2, -1 }, { 0, 256, TERRAIN_MAX_SIDE + 1, 1 },
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
      TerrainLandscape p;
      terrain_landscape_defaults (&p);
      p.preset = (TerrainLandscapePreset) cases[i].preset;
      p.feature_size = cases[i].feature_size;
      for (int k = 0; k < 6; k++)
        out[k] = -7.0f;
      CHECK (terrain_landscape (&p, out, cases[i].w, cases[i].h, NULL) == TERRAIN_ERROR_INVALID,
             "case %zu (preset %d, feature size %d, %dx%d) accepted", i, cases[i].preset,
             cases[i].feature_size, cases[i].w, cases[i].h);
      int untouched = 1;
      for (int k = 0; k < 6; k++)
        untouched &= out[k] == -7.0f;
      CHECK (untouched, "case %zu: output written", i);
    }
}

static void
print_timing (void)
{
  const int side = 1024;
  float *out = malloc ((size_t) side * side * sizeof (float));
  for (int preset = 0; preset < PRESETS; preset++)
    {
      TerrainLandscape p;
      terrain_landscape_defaults (&p);
      p.preset = preset;
      double best = 1e9;
      int runs = 0;
      for (; runs < 3 && (runs == 0 || best < 1.0); runs++) /* a slow preset: once */
        {
          const double t0 = seconds ();
          terrain_landscape (&p, out, side, side, NULL);
          const double t = seconds () - t0;
          best = t < best ? t : best;
        }
      printf ("timing: landscape %s, feature size 256, %dx%d: %.1f ms (best of %d)\n",
              preset_names[preset], side, side, best * 1e3, runs);
    }
  free (out);
}

int
main (void)
{
  test_iterations ();
  test_determinism_and_range ();
  test_seeds_differ ();
  test_alpine_skewed ();
  test_hills_gentle ();
  test_islands_sea_at_border ();
  test_mesa_terraces ();
  test_river_valleys_drain ();
  test_progress_and_cancel ();
  test_invalid_parameters ();
  print_timing ();
  return CHECK_DONE ("landscape");
}
