/* Circles: determinism, range, the raw bump's footprint and profile, directions, the
 * displacement schedule, cancellation and invalid parameters. */
#include "check.h"
#include "field-stats.h"
#include "progress-log.h"

#include "circles.h"
#include "displacement-schedule.h"
#include "heightmap.h"

#include <stdlib.h>

static float *
render (const TerrainCircles *p, int w, int h, int raw)
{
  float *out = malloc ((size_t) w * h * sizeof (float));
  TerrainStatus s = raw ? terrain_circles_raw (p, out, w, h, NULL)
                        : terrain_circles (p, out, w, h, NULL);
  CHECK (s == TERRAIN_OK, "status %d for %dx%d", s, w, h);
  return out;
}

static void
test_determinism_and_range (void)
{
  const int sizes[][2] = { { 1, 1 }, { 1, 37 }, { 37, 1 }, { 2, 2 }, { 129, 65 },
                           { 255, 257 }, { 300, 200 }, { 1000, 3 } };
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (int d = TERRAIN_CIRCLES_RANDOM; d <= TERRAIN_CIRCLES_LOWER; d++)
      {
        TerrainCircles p;
        terrain_circles_defaults (&p);
        p.seed = 99;
        p.iterations = 300;
        p.diameter = 21.0;
        p.direction = (TerrainCirclesDirection) d;
        int w = sizes[s][0], h = sizes[s][1];
        float *a = render (&p, w, h, 0), *b = render (&p, w, h, 0);
        size_t n = (size_t) w * h;
        CHECK (fields_equal (a, b, n), "same seed differs at %dx%d direction %d", w, h, d);
        CHECK (! terrain_has_non_finite (a, n), "NaN/Inf at %dx%d direction %d", w, h, d);
        float lo, hi;
        terrain_min_max (a, n, &lo, &hi);
        if (n == 1)
          CHECK (lo == 0.5f, "1x1 is flat: %g", lo);
        else
          CHECK (lo == 0.0f && hi == 1.0f, "range [%g, %g] at %dx%d direction %d", lo, hi, w, h, d);
        free (a);
        free (b);
      }
}

static void
test_seed_sensitivity (void)
{
  TerrainCircles p;
  terrain_circles_defaults (&p);
  p.iterations = 200;
  float *a = render (&p, 129, 129, 0);
  p.seed = 1;
  float *b = render (&p, 129, 129, 0);
  size_t differ = count_differing (a, b, 129 * 129);
  CHECK (differ > 129 * 129 * 9 / 10, "seeds 0 and 1 differ in only %zu pixels", differ);
  free (a);
  free (b);
}

/* One raw circle: its extreme pixel is the centre, at exactly +-disp; every pixel equals
 * disp/2 + cos(pi * 2r/D) * disp/2 within D/2 of it and is untouched beyond. */
static void
test_one_circle_profile (void)
{
  const double diameters[] = { 64.0, 21.0, 7.5, 1.0, 300.0 };
  const int w = 150, h = 110;
  const size_t n = (size_t) w * h;
  for (size_t k = 0; k < sizeof diameters / sizeof diameters[0]; k++)
    for (uint32_t seed = 0; seed < 6; seed++)
      for (int d = TERRAIN_CIRCLES_RAISE; d <= TERRAIN_CIRCLES_LOWER; d++)
        {
          TerrainCircles p;
          terrain_circles_defaults (&p);
          p.seed = seed;
          p.iterations = 1;
          p.diameter = diameters[k];
          p.direction = (TerrainCirclesDirection) d;
          p.displacement_start = 2.5;
          const double sign = d == TERRAIN_CIRCLES_RAISE ? 1.0 : -1.0;
          float *a = render (&p, w, h, 1);
          size_t centre = 0;
          for (size_t i = 1; i < n; i++)
            if (sign * a[i] > sign * a[centre])
              centre = i;
          const int cx = (int) (centre % w), cy = (int) (centre / w);
          CHECK (a[centre] == (float) (sign * 2.5), "peak %g, want %g", a[centre], sign * 2.5);
          double worst = 0.0;
          size_t outside_changed = 0, inside = 0;
          for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
              {
                double r = hypot (x - cx, y - cy), value = a[(size_t) y * w + x];
                if (r > 0.5 * p.diameter)
                  {
                    outside_changed += value != 0.0;
                    continue;
                  }
                double want = sign * (1.25 + cos (TERRAIN_PI * 2.0 * r / p.diameter) * 1.25);
                worst = fabs (value - want) > worst ? fabs (value - want) : worst;
                inside++;
              }
          CHECK (outside_changed == 0, "D=%g: %zu pixels beyond D/2 changed", p.diameter, outside_changed);
          CHECK (worst <= 1e-6, "D=%g: profile off by %g", p.diameter, worst);
          CHECK (inside >= 1, "D=%g: no pixel inside", p.diameter);
          free (a);
        }
}

/* n+1 raw iterations add one circle to n: with RAISE no pixel ever goes down, with LOWER
 * none goes up, with RANDOM both happen. */
static void
test_directions (void)
{
  const int w = 90, h = 70;
  const size_t n = (size_t) w * h;
  for (int d = TERRAIN_CIRCLES_RANDOM; d <= TERRAIN_CIRCLES_LOWER; d++)
    {
      TerrainCircles p;
      terrain_circles_defaults (&p);
      p.seed = 7;
      p.diameter = 30.0;
      p.direction = (TerrainCirclesDirection) d;
      p.iterations = 1;
      float *previous = render (&p, w, h, 1);
      int went_up = 0, went_down = 0;
      for (int it = 2; it <= 40; it++)
        {
          p.iterations = it;
          float *a = render (&p, w, h, 1);
          for (size_t i = 0; i < n; i++)
            {
              went_up |= a[i] > previous[i];
              went_down |= a[i] < previous[i];
            }
          free (previous);
          previous = a;
        }
      float lo, hi;
      terrain_min_max (previous, n, &lo, &hi);
      if (d == TERRAIN_CIRCLES_RAISE)
        CHECK (! went_down && went_up && lo >= 0.0f, "RAISE lowered a pixel (min %g)", lo);
      else if (d == TERRAIN_CIRCLES_LOWER)
        CHECK (! went_up && went_down && hi <= 0.0f, "LOWER raised a pixel (max %g)", hi);
      else
        CHECK (went_up && went_down, "RANDOM went up %d, down %d", went_up, went_down);
      free (previous);
    }

  /* One seed places the same circles whatever the direction. */
  TerrainCircles p;
  terrain_circles_defaults (&p);
  p.iterations = 25;
  p.direction = TERRAIN_CIRCLES_RAISE;
  float *up = render (&p, w, h, 1);
  p.direction = TERRAIN_CIRCLES_LOWER;
  float *down = render (&p, w, h, 1);
  int mirrored = 1;
  for (size_t i = 0; i < n; i++)
    mirrored &= up[i] == -down[i];
  CHECK (mirrored, "LOWER is not RAISE mirrored");
  free (up);
  free (down);
}

/* Iteration k's circle peaks at the schedule's disp: start, falling linearly over
 * decay_iterations, then end. */
static void
test_schedule (void)
{
  const int w = 64, h = 64;
  const size_t n = (size_t) w * h;
  TerrainCircles p;
  terrain_circles_defaults (&p);
  p.direction = TERRAIN_CIRCLES_RAISE;
  p.diameter = 9.0;
  p.displacement_start = 2.0;
  p.displacement_end = 0.5;
  p.decay_iterations = 10;
  float *previous = NULL;
  for (int it = 1; it <= 14; it++)
    {
      p.iterations = it;
      float *a = render (&p, w, h, 1);
      double added = 0.0;
      for (size_t i = 0; i < n; i++)
        {
          double step = a[i] - (previous ? previous[i] : 0.0f);
          added = step > added ? step : added;
        }
      const int    k = it - 1;
      const double want = k < 10 ? 2.0 + (0.5 - 2.0) * k / 10.0 : 0.5;
      CHECK (fabs (added - want) < 1e-5, "iteration %d adds %g, want %g", k, added, want);
      free (previous);
      previous = a;
    }
  free (previous);
}

static void
test_invalid_parameters (void)
{
  TerrainCircles p;
  float out[4];
  terrain_circles_defaults (&p);
  p.iterations = 0;
  CHECK (terrain_circles (&p, out, 2, 2, NULL) == TERRAIN_ERROR_INVALID, "0 iterations");
  p.iterations = TERRAIN_DISPLACEMENT_MAX_ITERATIONS + 1;
  CHECK (terrain_circles (&p, out, 2, 2, NULL) == TERRAIN_ERROR_INVALID, "too many iterations");
  terrain_circles_defaults (&p);
  p.diameter = 0.0;
  CHECK (terrain_circles (&p, out, 2, 2, NULL) == TERRAIN_ERROR_INVALID, "diameter 0");
  p.diameter = NAN;
  CHECK (terrain_circles_raw (&p, out, 2, 2, NULL) == TERRAIN_ERROR_INVALID, "diameter NaN");
  terrain_circles_defaults (&p);
  p.direction = (TerrainCirclesDirection) 3;
  CHECK (terrain_circles (&p, out, 2, 2, NULL) == TERRAIN_ERROR_INVALID, "direction 3");
  terrain_circles_defaults (&p);
  p.displacement_start = -0.5;
  CHECK (terrain_circles (&p, out, 2, 2, NULL) == TERRAIN_ERROR_INVALID, "negative displacement");
  terrain_circles_defaults (&p);
  p.decay_iterations = TERRAIN_DISPLACEMENT_MAX_ITERATIONS + 1;
  CHECK (terrain_circles (&p, out, 2, 2, NULL) == TERRAIN_ERROR_INVALID, "decay too long");
  terrain_circles_defaults (&p);
  CHECK (terrain_circles (&p, out, 2, 0, NULL) == TERRAIN_ERROR_INVALID, "height 0");
  p.diameter = 2.0 * TERRAIN_MAX_SIDE;
  CHECK (terrain_circles (&p, out, 2, 2, NULL) == TERRAIN_OK, "largest diameter");
}

static void
test_progress_and_cancel (void)
{
  TerrainCircles p;
  terrain_circles_defaults (&p);
  float *out = malloc (512 * 512 * sizeof (float));
  ProgressLog log = progress_log (2.0);
  TerrainProgress progress = { log_progress, &log };
  CHECK (terrain_circles (&p, out, 512, 512, &progress) == TERRAIN_OK, "not finished");
  CHECK (log.calls > 2 && log.monotone && log.last == 1.0,
         "%d reports, monotone %d, last %g", log.calls, log.monotone, log.last);

  ProgressLog cancel = progress_log (0.0);
  progress.user = &cancel;
  CHECK (terrain_circles (&p, out, 512, 512, &progress) == TERRAIN_CANCELLED, "not cancelled");
  CHECK (cancel.calls == 1, "went on after cancel: %d reports", cancel.calls);
  cancel.calls = 0;
  CHECK (terrain_circles_raw (&p, out, 512, 512, &progress) == TERRAIN_CANCELLED, "raw not cancelled");
  free (out);
}

int
main (void)
{
  test_determinism_and_range ();
  test_seed_sensitivity ();
  test_one_circle_profile ();
  test_directions ();
  test_schedule ();
  test_invalid_parameters ();
  test_progress_and_cancel ();
  return CHECK_DONE ("circles");
}
