/* libFuzzer harness: terrain_thermal_erosion over heightmaps of any finite values
 * (constant, noise, +-FLT_MAX checkerboards, subnormals, raw bit patterns) and every size
 * down to 1x1 and 1xN, 1..10000 iterations (scaled down to the work budget on large layers,
 * except in heavy executions, which the progress callback stops after a few reports),
 * talus and strength over [0, 1] and beyond, both neighbourhoods and invalid ones.
 *
 * Checks (thermal-erosion.h):
 *  - status: parameters in range are accepted, others give TERRAIN_ERROR_INVALID, and then
 *    "every parameter is checked before data is touched": the data is bit-identical.
 *  - "finite input always gives finite output", also when cancelled part way.
 *  - The total height is conserved (up to float rounding), also when cancelled: the data
 *    then holds whole iterations.
 *  - "the map's minimum never falls and its maximum never rises" (up to rounding).
 *  - sum h^2 never rises (the stability argument of the header), up to rounding.
 *  - On small layers: a second run gives the same bits, and the map turned by 90 degrees
 *    gives the turned result bit for bit (no dependence on the order cells are visited in). */
#include "fuzz-common.h"

#include "thermal-erosion.h"

typedef struct
{
  double sum, squares, lo, hi, max_abs;
} Totals;

static Totals
totals (const float *h, size_t n)
{
  Totals t = { 0.0, 0.0, INFINITY, -INFINITY, 0.0 };
  for (size_t i = 0; i < n; i++)
    {
      t.sum += h[i];
      t.squares += (double) h[i] * h[i];
      t.lo = h[i] < t.lo ? h[i] : t.lo;
      t.hi = h[i] > t.hi ? h[i] : t.hi;
    }
  t.max_abs = fmax (fabs (t.lo), fabs (t.hi));
  return t;
}

/* out (x', y') = in (y', h - 1 - x'): w x h -> h x w. */
static float *
rotated (const float *f, int w, int h)
{
  float *r = fuzz_alloc_floats ((size_t) w * h);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      r[(size_t) x * h + (h - 1 - y)] = f[(size_t) y * w + x];
  return r;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  FuzzInput in = { data, size, 0 };
  FuzzSize  sz = fuzz_size (&in, FUZZ_MAX_PIXELS, 1);
  const uint8_t cancel_sel = fuzz_u8 (&in);
  const int heavy = fuzz_heavy (&in);

  TerrainThermalErosion p;
  terrain_thermal_erosion_defaults (&p);
  int valid = sz.valid;
  p.iterations = fuzz_int (&in, 1, TERRAIN_THERMAL_MAX_ITERATIONS, 50, 1, &valid);
  p.talus = fuzz_double (&in, 0.0, 1.0, 0.01, FUZZ_CLOSED, 1, &valid);
  p.strength = fuzz_double (&in, 0.0, 1.0, 0.5, FUZZ_CLOSED, 1, &valid);
  p.neighbourhood = (TerrainNeighbourhood) fuzz_enum (&in, 2, 1, &valid);

  float *h = fuzz_alloc_floats (sz.n);
  fuzz_heights (&in, h, sz.n, 0);

  /* The work budget: about 30 ns a pixel and iteration under the sanitizers. */
  if (sz.valid)
    p.iterations = fuzz_fit (p.iterations, TERRAIN_THERMAL_MAX_ITERATIONS, 30.0 * (double) sz.n,
                             heavy);
  const unsigned long cap = fuzz_cancel_at (cancel_sel, heavy ? 3 : 100000);

  FUZZ_DESCRIBE ("%dx%d iterations %d talus %.17g strength %.17g neighbourhood %d h[0] %.9g "
                 "cap %lu", sz.w, sz.h, p.iterations, p.talus, p.strength,
                 (int) p.neighbourhood, sz.n ? h[0] : 0.0, cap);
  float *before = fuzz_alloc_floats (sz.n);
  memcpy (before, h, sz.n * sizeof (float));
  const Totals was = totals (h, sz.n);

  FuzzProgress prog;
  fuzz_progress_start (&prog, cap);
  const TerrainProgress progress = { fuzz_report, &prog };
  const TerrainStatus status = terrain_thermal_erosion (&p, h, sz.w, sz.h, &progress);

  fuzz_check_status (status, &prog, valid);
  if (status == TERRAIN_ERROR_INVALID)
    FUZZ_CHECK (memcmp (before, h, sz.n * sizeof (float)) == 0);
  if (status == TERRAIN_OK || status == TERRAIN_CANCELLED)
    {
      fuzz_check_finite (h, sz.n);
      const Totals now = totals (h, sz.n);
      /* Each iteration rounds every pixel's update (a handful of operations, each within
       * 2^-24 of the largest magnitude, which never grows); subnormals and halving the
       * scale lose at most 2^-149 a pixel. */
      const double ulps = 16.0 * p.iterations * (double) sz.n;
      FUZZ_CHECK (fabs (now.sum - was.sum) <= ulps * (0x1p-24 * was.max_abs + 0x1p-149));
      /* A pixel's update is within rounding of a mean of its neighbourhood: it may pass the
       * largest height by the rounding of one update, which then never rises again. */
      const double step = 16.0 * p.iterations * (0x1p-24 * was.max_abs + 0x1p-149);
      FUZZ_CHECK (now.lo >= was.lo - step);
      FUZZ_CHECK (now.hi <= was.hi + step);
      FUZZ_CHECK (now.squares <= was.squares + ulps * 0x1p-22 * was.max_abs * was.max_abs
                                  + ulps * 0x1p-140);
    }
  if (status == TERRAIN_OK && sz.n <= 4096 && ! heavy)
    {
      /* Same input, same bits; the turned input, the turned result. */
      float *again = fuzz_alloc_floats (sz.n), *turned = rotated (before, sz.w, sz.h);
      memcpy (again, before, sz.n * sizeof (float));
      FUZZ_CHECK (terrain_thermal_erosion (&p, again, sz.w, sz.h, NULL) == TERRAIN_OK);
      FUZZ_CHECK (memcmp (again, h, sz.n * sizeof (float)) == 0);
      FUZZ_CHECK (terrain_thermal_erosion (&p, turned, sz.h, sz.w, NULL) == TERRAIN_OK);
      float *want = rotated (h, sz.w, sz.h);
      FUZZ_CHECK (memcmp (turned, want, sz.n * sizeof (float)) == 0);
      free (again);
      free (turned);
      free (want);
    }
  free (before);
  free (h);
  return 0;
}
