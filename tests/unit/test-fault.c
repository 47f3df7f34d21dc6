/* Fault formation: determinism, range, the step's straight line, profiles, schedule-free
 * invariants, cancellation, invalid parameters, and a timing print. */
#include "check.h"
#include "field-stats.h"
#include "progress-log.h"
#include "timing.h"

#include "displacement-schedule.h"
#include "fault.h"
#include "heightmap.h"

#include <stdlib.h>

static float *
render (const TerrainFault *p, int w, int h)
{
  float *out = malloc ((size_t) w * h * sizeof (float));
  TerrainStatus s = terrain_fault (p, out, w, h, NULL);
  CHECK (s == TERRAIN_OK, "status %d for %dx%d", s, w, h);
  return out;
}

static int
compare_floats (const void *a, const void *b)
{
  float x = *(const float *) a, y = *(const float *) b;
  return (x > y) - (x < y);
}

static size_t
distinct_values (const float *a, size_t n)
{
  float *sorted = malloc (n * sizeof (float));
  memcpy (sorted, a, n * sizeof (float));
  qsort (sorted, n, sizeof (float), compare_floats);
  size_t count = 1;
  for (size_t i = 1; i < n; i++)
    count += sorted[i] != sorted[i - 1];
  free (sorted);
  return count;
}

static double
ridge (double v)
{
  return 1.0 + cos (TERRAIN_PI * (2.0 * v - 1.0));
}

static double
ramp (double v)
{
  return sin (0.5 * TERRAIN_PI * v) - 0.5;
}

/* The sampled profiles fault.h documents: the cosine ridge within 3e-7 of disp, the sine
 * ramp within 2e-8, the ends exact (they are the constants outside the band). */
static void
test_profile_tables (void)
{
  static TerrainProfileTable table;
  double (*const f[2]) (double) = { ridge, ramp };
  const double bound[2] = { 3e-7, 2e-8 };
  for (int k = 0; k < 2; k++)
    {
      terrain_profile_table_fill (&table, f[k]);
      double worst = 0.0;
      for (int i = 0; i <= 1000000; i++)
        {
          double v = i / 1000000.0;
          double e = fabs (terrain_profile_table_at (&table, v * TERRAIN_PROFILE_SEGMENTS) - f[k] (v));
          worst = e > worst ? e : worst;
        }
      printf ("profile table %s: max error %.2g\n", k ? "sine" : "cosine", worst);
      CHECK (worst <= bound[k], "profile %d: table error %g", k, worst);
      CHECK (terrain_profile_table_at (&table, -5.0) == f[k] (0.0) &&
             terrain_profile_table_at (&table, 1e9) == f[k] (1.0) &&
             terrain_profile_table_at (&table, TERRAIN_PROFILE_SEGMENTS) == f[k] (1.0),
             "profile %d: ends not exact", k);
    }
}

static void
test_determinism_and_range (void)
{
  const int sizes[][2] = { { 1, 1 }, { 1, 37 }, { 37, 1 }, { 2, 2 }, { 129, 65 },
                           { 255, 257 }, { 300, 200 }, { 1000, 3 } };
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (int f = TERRAIN_FAULT_STEP; f <= TERRAIN_FAULT_COSINE; f++)
      {
        TerrainFault p;
        terrain_fault_defaults (&p);
        p.seed = 4321;
        p.iterations = 200;
        p.profile = (TerrainFaultProfile) f;
        int w = sizes[s][0], h = sizes[s][1];
        float *a = render (&p, w, h), *b = render (&p, w, h);
        size_t n = (size_t) w * h;
        CHECK (fields_equal (a, b, n), "same seed differs at %dx%d profile %d", w, h, f);
        CHECK (! terrain_has_non_finite (a, n), "NaN/Inf at %dx%d profile %d", w, h, f);
        float lo, hi;
        terrain_min_max (a, n, &lo, &hi);
        if (n == 1)
          CHECK (lo == 0.5f, "1x1 is flat: %g", lo);
        else
          CHECK (lo == 0.0f && hi == 1.0f, "range [%g, %g] at %dx%d profile %d", lo, hi, w, h, f);
        free (a);
        free (b);
      }
}

static void
test_seed_sensitivity (void)
{
  TerrainFault p;
  terrain_fault_defaults (&p);
  p.iterations = 100;
  float *a = render (&p, 129, 129);
  p.seed = 1;
  float *b = render (&p, 129, 129);
  size_t differ = count_differing (a, b, 129 * 129);
  CHECK (differ > 129 * 129 * 9 / 10, "seeds 0 and 1 differ in only %zu pixels", differ);
  free (a);
  free (b);
}

/* Checks that the 1-pixels of a 0/1 field are a half-plane: along every line of pixels
 * (rows, or columns when `transpose`), the 1s form one run touching the same end on every
 * crossed line, and the crossing positions lie on a straight line within 1 pixel. */
static int
is_half_plane (const float *a, int w, int h, int transpose)
{
  const int lines = transpose ? w : h, len = transpose ? h : w;
  int    end = -1, crossed = 0;
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int   *boundary = malloc ((size_t) lines * sizeof (int));
  for (int l = 0; l < lines; l++)
    {
      boundary[l] = -1;
      int changes = 0;
      for (int i = 0; i < len; i++)
        {
          float v = transpose ? a[(size_t) i * w + l] : a[(size_t) l * w + i];
          float prev = i ? (transpose ? a[(size_t) (i - 1) * w + l] : a[(size_t) l * w + i - 1]) : v;
          if (v != prev)
            {
              changes++;
              boundary[l] = i;
            }
        }
      if (changes > 1)
        return free (boundary), 0;
      if (changes == 1)
        {
          int this_end = (transpose ? a[l] : a[(size_t) l * w]) == 1.0f; /* 1s touch the start */
          if (end >= 0 && this_end != end)
            return free (boundary), 0;
          end = this_end;
          sx += l; sy += boundary[l]; sxx += (double) l * l; sxy += (double) l * boundary[l];
          crossed++;
        }
    }
  int ok = 1;
  if (crossed >= 3)
    {
      double slope = (crossed * sxy - sx * sy) / (crossed * sxx - sx * sx);
      double offset = (sy - slope * sx) / crossed;
      for (int l = 0; l < lines; l++)
        if (boundary[l] >= 0 && fabs (boundary[l] - (slope * l + offset)) > 1.0)
          ok = 0;
    }
  free (boundary);
  return ok;
}

static void
test_one_step_is_a_straight_cut (void)
{
  const int sizes[][2] = { { 200, 150 }, { 97, 301 }, { 64, 64 } };
  int cuts = 0;
  for (size_t s = 0; s < 3; s++)
    for (uint32_t seed = 0; seed < 40; seed++)
      {
        TerrainFault p;
        terrain_fault_defaults (&p);
        p.seed = seed;
        p.iterations = 1;
        int w = sizes[s][0], h = sizes[s][1];
        size_t n = (size_t) w * h;
        float *a = render (&p, w, h);
        size_t k = distinct_values (a, n);
        if (k == 1) /* the line missed the image */
          {
            CHECK (a[0] == 0.5f, "flat field is %g", a[0]);
            free (a);
            continue;
          }
        cuts++;
        float lo, hi;
        terrain_min_max (a, n, &lo, &hi);
        CHECK (k == 2 && lo == 0.0f && hi == 1.0f, "one step fault: %zu values in [%g, %g]", k, lo, hi);
        CHECK (is_half_plane (a, w, h, 0), "rows of seed %u %dx%d are not a straight cut", seed, w, h);
        CHECK (is_half_plane (a, w, h, 1), "columns of seed %u %dx%d are not a straight cut", seed, w, h);
        free (a);
      }
  CHECK (cuts > 60, "only %d of 120 single faults crossed the image", cuts);
}

static void
test_more_iterations_more_levels (void)
{
  TerrainFault p;
  terrain_fault_defaults (&p);
  for (p.seed = 0; p.seed < 100; p.seed++)
    {
      p.iterations = 1;
      float *a = render (&p, 128, 128);
      size_t k = distinct_values (a, 128 * 128);
      free (a);
      if (k == 2)
        break;
    }
  size_t previous = 0;
  const int its[] = { 1, 4, 16 };
  for (int i = 0; i < 3; i++)
    {
      p.iterations = its[i];
      float *a = render (&p, 128, 128);
      size_t k = distinct_values (a, 128 * 128);
      CHECK (k > previous, "%d iterations give %zu levels, not more than %zu", its[i], k, previous);
      previous = k;
      free (a);
    }
}

/* With one fault the sine profile is monotone along every row (a ramp across the line),
 * the cosine profile rises then falls (a ridge); both differ from the step, and a wider
 * wave makes more in-between pixels. */
static void
test_profiles (void)
{
  const int w = 160, h = 120;
  const size_t n = (size_t) w * h;
  TerrainFault p;
  terrain_fault_defaults (&p);
  for (p.seed = 0; p.seed < 100; p.seed++)
    {
      p.iterations = 1;
      p.profile = TERRAIN_FAULT_STEP;
      float *step = render (&p, w, h);
      size_t k = distinct_values (step, n), high = 0;
      for (size_t i = 0; i < n; i++)
        high += step[i] == 1.0f;
      if (k != 2 || high < n * 3 / 10 || high > n * 7 / 10) /* the line crosses mid-image */
        {
          free (step);
          continue;
        }
      p.profile = TERRAIN_FAULT_SINE;
      float *sine = render (&p, w, h);
      p.profile = TERRAIN_FAULT_COSINE;
      float *cosine = render (&p, w, h);
      CHECK (! fields_equal (sine, step, n), "sine equals step");
      CHECK (! fields_equal (cosine, step, n), "cosine equals step");
      int sine_monotone = 1, cosine_ridge = 1, direction = 0;
      for (int y = 0; y < h; y++)
        {
          int falling = 0;
          for (int x = 1; x < w; x++)
            {
              float d = sine[(size_t) y * w + x] - sine[(size_t) y * w + x - 1];
              int sign = (d > 0) - (d < 0);
              if (sign && direction && sign != direction)
                sine_monotone = 0;
              direction = sign ? sign : direction;
              float e = cosine[(size_t) y * w + x] - cosine[(size_t) y * w + x - 1];
              falling |= e < 0;
              if (falling && e > 0)
                cosine_ridge = 0;
            }
        }
      CHECK (sine_monotone, "seed %u: one sine fault is not a monotone ramp", p.seed);
      CHECK (cosine_ridge, "seed %u: one cosine fault is not a single ridge", p.seed);
      size_t flat = 0;
      for (size_t i = 0; i < n; i++)
        flat += cosine[i] == 0.0f;
      CHECK (flat > n / 4, "cosine: only %zu of %zu pixels far from the ridge", flat, n);

      size_t between_narrow = 0, between_wide = 0;
      for (size_t i = 0; i < n; i++)
        between_narrow += sine[i] > 0.0f && sine[i] < 1.0f;
      p.profile = TERRAIN_FAULT_SINE;
      p.wave_size = 12.0;
      float *wide = render (&p, w, h);
      for (size_t i = 0; i < n; i++)
        between_wide += wide[i] > 0.0f && wide[i] < 1.0f;
      CHECK (between_wide > 2 * between_narrow, "wave 12 ramp %zu px, wave 3 ramp %zu px",
             between_wide, between_narrow);
      p.wave_size = 3.0;
      free (step);
      free (sine);
      free (cosine);
      free (wide);
      if (p.seed > 10)
        break;
    }

  p.iterations = 16;
  p.profile = TERRAIN_FAULT_STEP;
  float *step = render (&p, w, h);
  p.profile = TERRAIN_FAULT_SINE;
  float *sine = render (&p, w, h);
  p.profile = TERRAIN_FAULT_COSINE;
  float *cosine = render (&p, w, h);
  CHECK (! fields_equal (step, sine, n) && ! fields_equal (step, cosine, n) &&
         ! fields_equal (sine, cosine, n), "16 faults: profiles do not differ");
  free (step);
  free (sine);
  free (cosine);
}

static void
test_invalid_parameters (void)
{
  TerrainFault p;
  float out[4];
  terrain_fault_defaults (&p);
  p.iterations = 0;
  CHECK (terrain_fault (&p, out, 2, 2, NULL) == TERRAIN_ERROR_INVALID, "0 iterations");
  p.iterations = TERRAIN_DISPLACEMENT_MAX_ITERATIONS + 1;
  CHECK (terrain_fault (&p, out, 2, 2, NULL) == TERRAIN_ERROR_INVALID, "too many iterations");
  terrain_fault_defaults (&p);
  p.wave_size = 0.0;
  CHECK (terrain_fault (&p, out, 2, 2, NULL) == TERRAIN_ERROR_INVALID, "wave size 0");
  p.wave_size = NAN;
  CHECK (terrain_fault (&p, out, 2, 2, NULL) == TERRAIN_ERROR_INVALID, "wave size NaN");
  terrain_fault_defaults (&p);
  p.profile = (TerrainFaultProfile) 3;
  CHECK (terrain_fault (&p, out, 2, 2, NULL) == TERRAIN_ERROR_INVALID, "profile 3");
  terrain_fault_defaults (&p);
  p.displacement_start = -1.0;
  CHECK (terrain_fault (&p, out, 2, 2, NULL) == TERRAIN_ERROR_INVALID, "negative displacement");
  terrain_fault_defaults (&p);
  p.displacement_end = NAN;
  CHECK (terrain_fault (&p, out, 2, 2, NULL) == TERRAIN_ERROR_INVALID, "NaN displacement");
  terrain_fault_defaults (&p);
  p.decay_iterations = -1;
  CHECK (terrain_fault (&p, out, 2, 2, NULL) == TERRAIN_ERROR_INVALID, "negative decay");
  terrain_fault_defaults (&p);
  CHECK (terrain_fault (&p, out, 0, 2, NULL) == TERRAIN_ERROR_INVALID, "width 0");
  p.decay_iterations = 0;
  p.displacement_start = p.displacement_end = 0.0;
  CHECK (terrain_fault (&p, out, 2, 2, NULL) == TERRAIN_OK && out[0] == 0.5f,
         "zero displacement is a valid flat field");
}

static void
test_progress_and_cancel (void)
{
  TerrainFault p;
  terrain_fault_defaults (&p);
  p.iterations = 50000; /* several progress chunks (a few milliseconds of work each) */
  float *out = malloc (256 * 256 * sizeof (float));
  ProgressLog log = progress_log (2.0);
  TerrainProgress progress = { log_progress, &log };
  CHECK (terrain_fault (&p, out, 256, 256, &progress) == TERRAIN_OK, "not finished");
  CHECK (log.calls > 2 && log.monotone && log.last == 1.0,
         "%d reports, monotone %d, last %g", log.calls, log.monotone, log.last);

  ProgressLog cancel = progress_log (0.0);
  progress.user = &cancel;
  CHECK (terrain_fault (&p, out, 256, 256, &progress) == TERRAIN_CANCELLED, "not cancelled");
  CHECK (cancel.calls == 1, "went on after cancel: %d reports", cancel.calls);
  free (out);
}

static void
print_timing (void)
{
  static const char *names[] = { "step", "sine", "cosine" };
  float *out = malloc (1024 * 1024 * sizeof (float));
  for (int f = TERRAIN_FAULT_STEP; f <= TERRAIN_FAULT_COSINE; f++)
    {
      TerrainFault p;
      terrain_fault_defaults (&p);
      p.iterations = 1000;
      p.profile = (TerrainFaultProfile) f;
      double best = 1e9;
      for (int run = 0; run < 3; run++)
        {
          double t0 = seconds ();
          terrain_fault (&p, out, 1024, 1024, NULL);
          double t = seconds () - t0;
          best = t < best ? t : best;
        }
      printf ("timing: fault %s, 1000 iterations, 1024x1024: %.1f ms (best of 3)\n",
              names[f], best * 1e3);
    }
  free (out);
}

int
main (void)
{
  test_profile_tables ();
  test_determinism_and_range ();
  test_seed_sensitivity ();
  test_one_step_is_a_straight_cut ();
  test_more_iterations_more_levels ();
  test_profiles ();
  test_invalid_parameters ();
  test_progress_and_cancel ();
  print_timing ();
  return CHECK_DONE ("fault");
}
