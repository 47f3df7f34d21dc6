/* libFuzzer harness: terrain_circles and terrain_circles_raw over their whole parameter
 * space: 1..100000 circles (cancelled by the time budget when long), diameters from just
 * above 0 to 2 * TERRAIN_MAX_SIDE, the three directions, displacements 0..1e6, decay
 * 0..100000. Iterations are scaled down to the work budget on large layers or with large
 * circles, except in heavy executions (fuzz-common.h).
 *
 * Checks: the status promises; normalised: every pixel in [0, 1], a 1x1 layer or zero
 * displacements give 0.5 everywhere ("a field with no relief is 0.5 everywhere"); raw:
 * every value finite, RAISE never below 0 and LOWER never above ("RAISE gives values
 * >= 0"), and "a single RAISE circle peaks at exactly displacement_start" (displacement_end
 * with decay_iterations 0, where the schedule starts at its end). */
#include "fuzz-common.h"

#include "circles.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  FuzzInput in = { data, size, 0 };
  FuzzSize  sz = fuzz_size (&in, FUZZ_MAX_PIXELS, 1);
  const int heavy = fuzz_heavy (&in);
  /* A report comes every 2^18 pixel updates. */
  const unsigned long cancel_after = fuzz_cancel_after (&in, heavy ? 2 : 1000);
  const int raw = fuzz_u8 (&in) & 1;

  TerrainCircles p;
  terrain_circles_defaults (&p);
  int valid = sz.valid;
  p.seed = fuzz_u32 (&in);
  p.iterations = fuzz_int (&in, 1, TERRAIN_DISPLACEMENT_MAX_ITERATIONS, 1000, 1, &valid);
  p.diameter = fuzz_double (&in, 0.0, 2.0 * TERRAIN_MAX_SIDE, 64.0, FUZZ_LOW_OPEN, 1, &valid);
  p.direction = (TerrainCirclesDirection) fuzz_enum (&in, 3, 1, &valid);
  p.displacement_start = fuzz_double (&in, 0.0, TERRAIN_DISPLACEMENT_MAX, 1.0, FUZZ_CLOSED, 1, &valid);
  p.displacement_end = fuzz_double (&in, 0.0, TERRAIN_DISPLACEMENT_MAX, 0.1, FUZZ_CLOSED, 1, &valid);
  p.decay_iterations = fuzz_int (&in, 0, TERRAIN_DISPLACEMENT_MAX_ITERATIONS, 100, 1, &valid);

  /* Nanoseconds: a circle costs about 100 to draw plus 40 per pixel it covers. */
  if (sz.valid)
    {
      const double area = 0.8 * p.diameter * p.diameter + 2.0 * p.diameter + 1.0;
      const double cost = 100.0 + 40.0 * (area < (double) sz.n ? area : (double) sz.n);
      p.iterations = fuzz_fit (p.iterations, TERRAIN_DISPLACEMENT_MAX_ITERATIONS, cost, heavy);
    }

  FUZZ_DESCRIBE ("%dx%d %s seed %u iterations %d diameter %.17g direction %d displacement "
                 "%.17g -> %.17g over %d", sz.w, sz.h, raw ? "raw" : "normalised", p.seed,
                 p.iterations, p.diameter, (int) p.direction, p.displacement_start,
                 p.displacement_end, p.decay_iterations);
  float *out = fuzz_alloc_floats (sz.n);
  FuzzProgress prog;
  fuzz_progress_start (&prog, cancel_after);
  const TerrainProgress progress = { fuzz_report, &prog };
  const TerrainStatus status = raw ? terrain_circles_raw (&p, out, sz.w, sz.h, &progress)
                                   : terrain_circles (&p, out, sz.w, sz.h, &progress);

  fuzz_check_status (status, &prog, valid);
  if (status == TERRAIN_OK && ! raw)
    {
      fuzz_check_unit (out, sz.n);
      if (sz.n == 1 || (p.displacement_start == 0.0 && p.displacement_end == 0.0))
        fuzz_check_all_equal (out, sz.n, 0.5f);
    }
  if (status == TERRAIN_OK && raw)
    {
      fuzz_check_finite (out, sz.n);
      float peak = -INFINITY;
      for (size_t i = 0; i < sz.n; i++)
        {
          if (p.direction == TERRAIN_CIRCLES_RAISE)
            FUZZ_CHECK (out[i] >= 0.0f);
          if (p.direction == TERRAIN_CIRCLES_LOWER)
            FUZZ_CHECK (out[i] <= 0.0f);
          peak = out[i] > peak ? out[i] : peak;
        }
      /* The first circle gets displacement_start, or displacement_end at once when there
       * is no decay (decay_iterations 0). */
      const double first = p.decay_iterations > 0 ? p.displacement_start : p.displacement_end;
      if (p.direction == TERRAIN_CIRCLES_RAISE && p.iterations == 1)
        FUZZ_CHECK (peak == (float) first);
    }
  free (out);
  return 0;
}
