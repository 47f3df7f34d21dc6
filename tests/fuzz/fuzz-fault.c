/* libFuzzer harness: terrain_fault over its whole parameter space: 1..100000 iterations
 * (the time budget cancels long runs through the progress callback), the three profiles,
 * wave sizes from just above 0 to TERRAIN_MAX_SIDE, displacements 0..1e6 in any order,
 * decay 0..100000. Iterations are scaled down to the work budget on large layers, except
 * in heavy executions (fuzz-common.h).
 *
 * Checks: the status promises; on TERRAIN_OK every pixel in [0, 1]; and fault.h's "a field
 * with no relief (every line missed the image, or 1x1) is 0.5 everywhere", for 1x1 layers
 * and for zero displacements. */
#include "fuzz-common.h"

#include "fault.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  FuzzInput in = { data, size, 0 };
  FuzzSize  sz = fuzz_size (&in, FUZZ_MAX_PIXELS, 1);
  const int heavy = fuzz_heavy (&in);
  /* A report comes every 65536 units of work (rows x lines + band pixels). */
  const unsigned long cancel_after = fuzz_cancel_after (&in, heavy ? 3 : 1000);

  TerrainFault p;
  terrain_fault_defaults (&p);
  int valid = sz.valid;
  p.seed = fuzz_u32 (&in);
  p.iterations = fuzz_int (&in, 1, TERRAIN_DISPLACEMENT_MAX_ITERATIONS, 1000, 1, &valid);
  p.profile = (TerrainFaultProfile) fuzz_enum (&in, 3, 1, &valid);
  p.wave_size = fuzz_double (&in, 0.0, TERRAIN_MAX_SIDE, 3.0, FUZZ_LOW_OPEN, 1, &valid);
  p.displacement_start = fuzz_double (&in, 0.0, TERRAIN_DISPLACEMENT_MAX, 1.0, FUZZ_CLOSED, 1, &valid);
  p.displacement_end = fuzz_double (&in, 0.0, TERRAIN_DISPLACEMENT_MAX, 0.1, FUZZ_CLOSED, 1, &valid);
  p.decay_iterations = fuzz_int (&in, 0, TERRAIN_DISPLACEMENT_MAX_ITERATIONS, 100, 1, &valid);

  /* Nanoseconds: a line costs about 150 to draw, then per row 25 plus 10 per band pixel. */
  if (sz.valid)
    {
      const double band = p.profile == TERRAIN_FAULT_STEP ? 2.0 : fmin (sz.w, 6.3 * p.wave_size + 3.0);
      const double cost = 150.0 + sz.h * (25.0 + 10.0 * (isnan (band) ? sz.w : band));
      p.iterations = fuzz_fit (p.iterations, TERRAIN_DISPLACEMENT_MAX_ITERATIONS, cost, heavy);
    }

  FUZZ_DESCRIBE ("%dx%d seed %u iterations %d profile %d wave_size %.17g displacement %.17g "
                 "-> %.17g over %d", sz.w, sz.h, p.seed, p.iterations, (int) p.profile,
                 p.wave_size, p.displacement_start, p.displacement_end, p.decay_iterations);
  float *out = fuzz_alloc_floats (sz.n);
  FuzzProgress prog;
  fuzz_progress_start (&prog, cancel_after);
  const TerrainProgress progress = { fuzz_report, &prog };
  const TerrainStatus status = terrain_fault (&p, out, sz.w, sz.h, &progress);

  fuzz_check_status (status, &prog, valid);
  if (status == TERRAIN_OK)
    {
      fuzz_check_unit (out, sz.n);
      if (sz.n == 1 || (p.displacement_start == 0.0 && p.displacement_end == 0.0))
        fuzz_check_all_equal (out, sz.n, 0.5f);
    }
  free (out);
  return 0;
}
