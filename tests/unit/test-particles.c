/* Particle deposition: determinism, range, sizes, mass conservation, roll stability, sites,
 * roll without drift, caldera, cancel, invalid parameters; prints timings. */
#include "check.h"
#include "field-stats.h"
#include "progress-log.h"

#include "heightmap.h"
#include "particles.h"

#include <stdlib.h>
#include <time.h>

static float *
render (const TerrainParticles *p, int w, int h)
{
  float *out = malloc ((size_t) w * h * sizeof (float));
  TerrainStatus s = terrain_particles (p, out, w, h, NULL);
  CHECK (s == TERRAIN_OK, "status %d for %dx%d", s, w, h);
  return out;
}

static TerrainParticles
raw_params (TerrainParticleMode mode, int particles)
{
  TerrainParticles p;
  terrain_particles_defaults (&p);
  p.mode = mode;
  p.particles = particles;
  p.normalize = 0;
  return p;
}

/* Lowest of the 8 torus neighbours of (x, y): the neighbourhood the roll uses. */
static float
lowest_neighbour (const float *a, int w, int h, int x, int y)
{
  float lowest = INFINITY;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++)
      if (dx || dy)
        {
          float v = a[(size_t) ((y + dy + h) % h) * w + (x + dx + w) % w];
          lowest = v < lowest ? v : lowest;
        }
  return lowest;
}

/* Cells more than `step` above their lowest neighbour. */
static size_t
count_steep (const float *a, int w, int h, float step)
{
  size_t steep = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      steep += a[(size_t) y * w + x] - lowest_neighbour (a, w, h, x, y) > step;
  return steep;
}

/* Connected groups of non-zero cells, 8-connected on the torus (a roll can move a particle
 * diagonally off the walk). */
static int
count_blobs (const float *a, int w, int h)
{
  const size_t n = (size_t) w * h;
  unsigned char *seen = calloc (n, 1);
  size_t *stack = malloc (n * sizeof *stack);
  int blobs = 0;
  for (size_t start = 0; start < n; start++)
    {
      if (seen[start] || a[start] == 0.0f)
        continue;
      blobs++;
      size_t top = 0;
      stack[top++] = start;
      seen[start] = 1;
      while (top > 0)
        {
          size_t i = stack[--top];
          int x = (int) (i % w), y = (int) (i / w);
          for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
              {
                size_t j = (size_t) ((y + dy + h) % h) * w + (x + dx + w) % w;
                if (! seen[j] && a[j] != 0.0f)
                  {
                    seen[j] = 1;
                    stack[top++] = j;
                  }
              }
        }
    }
  free (seen);
  free (stack);
  return blobs;
}

static void
test_determinism_and_range (void)
{
  const int sizes[][2] = { { 1, 1 }, { 1, 37 }, { 37, 1 }, { 2, 2 }, { 31, 17 },
                           { 257, 129 }, { 100, 100 } };
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (int m = TERRAIN_PARTICLES_ROLL; m <= TERRAIN_PARTICLES_STICK; m++)
      for (int c = 0; c < 2; c++)
        {
          int w = sizes[s][0], h = sizes[s][1];
          TerrainParticles p;
          terrain_particles_defaults (&p);
          p.seed = 1234;
          p.particles = 20000;
          p.sites = 3;
          p.mode = (TerrainParticleMode) m;
          p.caldera = c ? 0.6 : 0.0;
          float *a = render (&p, w, h), *b = render (&p, w, h);
          size_t n = (size_t) w * h;
          CHECK (fields_equal (a, b, n), "same seed differs at %dx%d mode %d", w, h, m);
          CHECK (! terrain_has_non_finite (a, n), "NaN/Inf at %dx%d", w, h);
          float lo, hi;
          terrain_min_max (a, n, &lo, &hi);
          CHECK (lo >= 0.0f && hi <= 1.0f, "range [%g, %g] at %dx%d", lo, hi, w, h);
          /* Stretched onto [0, 1] (the top may round to 1 - 2^-24 in terrain_normalize), or a
           * constant field (1x1; 2x2 rolls to an even spread). */
          CHECK ((lo == 0.0f && hi >= 1.0f - 1e-6f) || (lo == 0.5f && hi == 0.5f),
                 "fills [0,1]: [%g, %g] at %dx%d mode %d caldera %d", lo, hi, w, h, m, c);
          if (n == 1)
            CHECK (a[0] == 0.5f, "1x1 is a constant field: %g", a[0]);
          free (a);
          free (b);
        }
}

static void
test_seed_sensitivity (void)
{
  TerrainParticles p;
  terrain_particles_defaults (&p);
  p.particles = 200000;
  float *a = render (&p, 128, 128);
  p.seed = 1;
  float *b = render (&p, 128, 128);
  size_t differ = count_differing (a, b, 128 * 128);
  CHECK (differ > 128 * 128 / 2, "seeds 0 and 1 differ in only %zu pixels", differ);
  free (a);
  free (b);
}

/* The raw relief holds exactly particles * particle_height: nothing lost at the torus
 * seams or in rolls, nothing counted twice. */
static void
test_mass_conservation (void)
{
  const int sizes[][2] = { { 1, 1 }, { 1, 50 }, { 3, 2 }, { 64, 64 }, { 257, 129 } };
  const double heights[] = { 1.0, 0.25, 0.3 };
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (size_t k = 0; k < 3; k++)
      for (int m = TERRAIN_PARTICLES_ROLL; m <= TERRAIN_PARTICLES_STICK; m++)
        {
          int w = sizes[s][0], h = sizes[s][1];
          TerrainParticles p = raw_params ((TerrainParticleMode) m, 123457);
          p.particle_height = heights[k];
          p.sites = 5;
          float *a = render (&p, w, h);
          double sum = 0.0, particles = 0.0;
          int whole = 1;
          for (size_t i = 0; i < (size_t) w * h; i++)
            {
              double c = a[i] / p.particle_height; /* particles in the cell */
              whole &= fabs (c - nearbyint (c)) < 1e-3;
              particles += nearbyint (c);
              sum += a[i];
            }
          const double want = p.particles * p.particle_height;
          /* 1.0 and 0.25 are exact in float for these counts: the cells hold whole
           * particles and the sum is exact; 0.3 rounds once per cell. */
          if (heights[k] != 0.3)
            {
              CHECK (whole, "%dx%d: a cell holds a fraction of a particle", w, h);
              CHECK (particles == p.particles, "%dx%d mode %d: %.0f particles, want %d",
                     w, h, m, particles, p.particles);
              CHECK (sum == want, "%dx%d height %g: sum %.17g, want %.17g", w, h, heights[k], sum, want);
            }
          else
            CHECK (fabs (sum - want) <= 1e-6 * want, "%dx%d: sum %.17g, want %.17g", w, h, sum, want);
          free (a);
        }
}

/* Roll leaves no cell more than one particle above its lowest (torus) neighbour; stick
 * does (or the check would prove nothing). */
static void
test_roll_is_stable (void)
{
  const int sizes[][2] = { { 128, 128 }, { 33, 65 }, { 1, 40 }, { 40, 1 }, { 2, 3 } };
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    {
      int w = sizes[s][0], h = sizes[s][1];
      TerrainParticles p = raw_params (TERRAIN_PARTICLES_ROLL, 300000);
      p.particle_height = 0.5;
      p.sites = 2;
      float *a = render (&p, w, h);
      size_t steep = count_steep (a, w, h, 0.5f);
      CHECK (steep == 0, "roll %dx%d: %zu cells over one particle above a neighbour", w, h, steep);
      free (a);
    }
  TerrainParticles p = raw_params (TERRAIN_PARTICLES_STICK, 300000);
  float *a = render (&p, 128, 128);
  CHECK (count_steep (a, 128, 128, 1.0f) > 100, "stick should leave steep cells");
  free (a);
}

static void
test_stick_is_rougher (void)
{
  for (uint32_t seed = 0; seed < 3; seed++)
    {
      TerrainParticles p = raw_params (TERRAIN_PARTICLES_ROLL, 500000);
      p.seed = seed;
      float *roll = render (&p, 256, 256);
      p.mode = TERRAIN_PARTICLES_STICK;
      float *stick = render (&p, 256, 256);
      double gr = mean_abs_gradient (roll, 256, 256), gs = mean_abs_gradient (stick, 256, 256);
      CHECK (gs > 1.5 * gr, "seed %u: stick |gradient| %g not well above roll %g", seed, gs, gr);
      /* Same for the normalised output, which is what the user sees. */
      p.normalize = 1;
      p.mode = TERRAIN_PARTICLES_ROLL;
      float *nroll = render (&p, 256, 256);
      p.mode = TERRAIN_PARTICLES_STICK;
      float *nstick = render (&p, 256, 256);
      gr = mean_abs_gradient (nroll, 256, 256);
      gs = mean_abs_gradient (nstick, 256, 256);
      CHECK (gs > gr, "seed %u: normalised stick |gradient| %g not above roll %g", seed, gs, gr);
      free (roll);
      free (stick);
      free (nroll);
      free (nstick);
    }
}

/* Centre of mass along both axes of the torus (circular mean, in cells). */
static void
circular_centre (const float *a, int w, int h, double *cx, double *cy)
{
  const double tau = 6.283185307179586;
  double xc = 0, xs = 0, yc = 0, ys = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        double v = a[(size_t) y * w + x];
        xc += v * cos (tau * x / w);
        xs += v * sin (tau * x / w);
        yc += v * cos (tau * y / h);
        ys += v * sin (tau * y / h);
      }
  *cx = atan2 (xs, xc) * w / tau;
  *cy = atan2 (ys, yc) * h / tau;
}

/* Both modes drop on the same cells, so rolling must not move the pile's centre of mass
 * on average. A fixed tie-break order, or the tutorial's "last lower neighbour in scan
 * order", drifts every pile the same way (about 0.3 cells here). */
static void
test_roll_has_no_drift (void)
{
  const int w = 256, h = 256, seeds = 6;
  double drift_x = 0.0, drift_y = 0.0;
  for (uint32_t seed = 0; seed < (uint32_t) seeds; seed++)
    {
      TerrainParticles p = raw_params (TERRAIN_PARTICLES_ROLL, 200000);
      p.seed = seed;
      float *roll = render (&p, w, h);
      p.mode = TERRAIN_PARTICLES_STICK;
      float *stick = render (&p, w, h);
      double rx, ry, sx, sy;
      circular_centre (roll, w, h, &rx, &ry);
      circular_centre (stick, w, h, &sx, &sy);
      drift_x += remainder (rx - sx, w) / seeds;
      drift_y += remainder (ry - sy, h) / seeds;
      free (roll);
      free (stick);
    }
  CHECK (fabs (drift_x) < 0.15 && fabs (drift_y) < 0.15, "roll drifts the pile by (%g, %g) cells",
         drift_x, drift_y);
}

/* Few particles on a large map: each site's walk is a separate blob. */
static void
test_sites_make_islands (void)
{
  for (int m = TERRAIN_PARTICLES_ROLL; m <= TERRAIN_PARTICLES_STICK; m++)
    for (uint32_t seed = 0; seed < 4; seed++)
      {
        TerrainParticles p = raw_params ((TerrainParticleMode) m, 2000);
        p.seed = seed;
        float *one = render (&p, 512, 512);
        p.sites = 4;
        float *four = render (&p, 512, 512);
        int b1 = count_blobs (one, 512, 512), b4 = count_blobs (four, 512, 512);
        /* A walk is a chain of 4-neighbour steps and a roll moves to an 8-neighbour, so
         * one site is one blob. */
        CHECK (b1 == 1, "mode %d seed %u: one site gives %d blobs", m, seed, b1);
        CHECK (b4 >= 2 && b4 <= 4, "mode %d seed %u: four sites give %d blobs", m, seed, b4);
        free (one);
        free (four);
      }
}

/* The caldera turns the summit into a crater: the old peak cell drops to (1 - c) * peak,
 * the new maximum is the rim around it, and cells below the rim are untouched. */
static void
test_caldera (void)
{
  const int w = 128, h = 128;
  TerrainParticles p = raw_params (TERRAIN_PARTICLES_ROLL, 400000);
  p.seed = 7;
  float *cone = render (&p, w, h);
  p.caldera = 0.5;
  float *crater = render (&p, w, h);

  size_t top = 0;
  for (size_t i = 1; i < (size_t) w * h; i++)
    top = cone[i] > cone[top] ? i : top;
  const float peak = cone[top], rim = 0.75f * peak;
  float lo, hi;
  terrain_min_max (crater, (size_t) w * h, &lo, &hi);
  CHECK (crater[top] == 0.5f * peak, "old summit %g, want floor %g", crater[top], 0.5f * peak);
  CHECK (hi > crater[top] && hi <= rim, "crater max %g should be the rim (<= %g) above floor %g",
         hi, rim, crater[top]);

  /* A ring around the summit stands higher than the centre. */
  int tx = (int) (top % w), ty = (int) (top / w);
  double ring = 0.0;
  int ring_n = 0;
  for (int dy = -8; dy <= 8; dy++)
    for (int dx = -8; dx <= 8; dx++)
      if (dx * dx + dy * dy >= 16 && dx * dx + dy * dy <= 64)
        {
          ring += crater[(size_t) ((ty + dy + h) % h) * w + (tx + dx + w) % w];
          ring_n++;
        }
  CHECK (ring / ring_n > crater[top], "ring mean %g not above the centre %g", ring / ring_n, crater[top]);

  size_t changed_below = 0;
  for (size_t i = 0; i < (size_t) w * h; i++)
    changed_below += cone[i] <= rim && crater[i] != cone[i];
  CHECK (changed_below == 0, "%zu cells below the rim changed", changed_below);
  free (cone);
  free (crater);
}

static int
cancel_always (void *user, double fraction)
{
  (void) user;
  (void) fraction;
  return 1;
}

static int
count_calls (void *user, double fraction)
{
  double *last = user;
  CHECK (fraction >= *last && fraction <= 1.0, "progress %g after %g", fraction, *last);
  *last = fraction;
  return 0;
}

static void
test_progress_and_cancel (void)
{
  TerrainParticles p;
  terrain_particles_defaults (&p);
  float *out = malloc (256 * 256 * sizeof (float));
  TerrainProgress always = { cancel_always, NULL };
  CHECK (terrain_particles (&p, out, 256, 256, &always) == TERRAIN_CANCELLED, "not cancelled");
  ProgressLog log = progress_log (0.5);
  TerrainProgress half = { log_progress, &log };
  CHECK (terrain_particles (&p, out, 256, 256, &half) == TERRAIN_CANCELLED, "not cancelled at half");
  CHECK (log.calls > 2, "only %d progress calls before half", log.calls);
  double last = 0.0;
  TerrainProgress watch = { count_calls, &last };
  CHECK (terrain_particles (&p, out, 256, 256, &watch) == TERRAIN_OK, "watched run failed");
  CHECK (last == 1.0, "last progress %g", last);
  free (out);
}

static void
test_invalid_parameters (void)
{
  TerrainParticles p;
  float out[4];
#define EXPECT_INVALID(field, value)                                                   \
  do                                                                                   \
    {                                                                                  \
      terrain_particles_defaults (&p);                                                 \
      p.field = value;                                                                 \
      CHECK (terrain_particles (&p, out, 2, 2, NULL) == TERRAIN_ERROR_INVALID,         \
             #field " = " #value);                                                     \
    }                                                                                  \
  while (0)
  EXPECT_INVALID (particles, 0);
  EXPECT_INVALID (particles, -5);
  EXPECT_INVALID (particles, TERRAIN_PARTICLES_MAX_PARTICLES + 1);
  EXPECT_INVALID (sites, 0);
  EXPECT_INVALID (sites, TERRAIN_PARTICLES_MAX_SITES + 1);
  EXPECT_INVALID (particle_height, 0.0);
  EXPECT_INVALID (particle_height, -1.0);
  EXPECT_INVALID (particle_height, NAN);
  EXPECT_INVALID (particle_height, INFINITY);
  EXPECT_INVALID (caldera, -0.1);
  EXPECT_INVALID (caldera, 1.5);
  EXPECT_INVALID (caldera, NAN);
  EXPECT_INVALID (mode, (TerrainParticleMode) 2);
#undef EXPECT_INVALID
  terrain_particles_defaults (&p);
  CHECK (terrain_particles (&p, out, 0, 2, NULL) == TERRAIN_ERROR_INVALID, "width 0");
  CHECK (terrain_particles (&p, out, 2, -1, NULL) == TERRAIN_ERROR_INVALID, "height -1");
  /* The edges of the ranges are valid. */
  p.particles = 1;
  p.sites = 7; /* more sites than particles: the extra ones stay empty */
  p.caldera = 1.0;
  CHECK (terrain_particles (&p, out, 2, 2, NULL) == TERRAIN_OK, "1 particle, 7 sites, caldera 1");
}

/* Processor time: portable, and the generator is single-threaded. */
static double
now (void)
{
  return (double) clock () / CLOCKS_PER_SEC;
}

static void
print_timings (void)
{
  float *out = malloc (512 * 512 * sizeof (float));
  const int counts[] = { 1000000, 10000000 };
  for (int m = TERRAIN_PARTICLES_ROLL; m <= TERRAIN_PARTICLES_STICK; m++)
    for (size_t k = 0; k < 2; k++)
      {
        TerrainParticles p;
        terrain_particles_defaults (&p);
        p.mode = (TerrainParticleMode) m;
        p.particles = counts[k];
        double t0 = now ();
        TerrainStatus s = terrain_particles (&p, out, 512, 512, NULL);
        printf ("  %s %d particles on 512x512: %.3f s (status %d)\n",
                m == TERRAIN_PARTICLES_ROLL ? "roll " : "stick", counts[k], now () - t0, s);
      }
  free (out);
}

int
main (void)
{
  test_determinism_and_range ();
  test_seed_sensitivity ();
  test_mass_conservation ();
  test_roll_is_stable ();
  test_roll_has_no_drift ();
  test_stick_is_rougher ();
  test_sites_make_islands ();
  test_caldera ();
  test_progress_and_cancel ();
  test_invalid_parameters ();
  print_timings ();
  return CHECK_DONE ("particles");
}
