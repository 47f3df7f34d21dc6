/* libFuzzer harness: terrain_smooth, the three methods over heightmaps of any finite values
 * (constant, noise, +-FLT_MAX checkerboards, subnormals, raw bit patterns), 1..1000
 * iterations (scaled down to the work budget on large layers, except in heavy executions,
 * which the progress callback stops after a few reports), k in [0, 1] and beyond, every named
 * kernel, and custom kernels: parsed from the input's tail with terrain_kernel_parse (as
 * the plug-in does), raw float weights (NaN, inf, huge, subnormal), or small integers
 * whose sums often vanish at the border (edge detectors).
 *
 * Checks (smooth.h):
 *  - status: parameters in range are accepted; out of range, a custom size other than 3
 *    or 5, a non-finite weight, or used weights that sum to (nearly) zero at some point of
 *    the map give TERRAIN_ERROR_INVALID. The harness recomputes the kernel verdict itself
 *    and only leaves sums within a factor 3 of smooth.c's 1e-6 threshold undecided.
 *  - "Every parameter, and the custom kernel when it is used, is checked before data is
 *    touched": on TERRAIN_ERROR_INVALID the data is bit-identical.
 *  - "finite input always gives finite output", also when cancelled part way.
 *  - Laplacian: "the mean height of the map never changes" (up to float rounding), and each
 *    point is an average, so the map stays within its min..max (up to rounding).
 *  - FIR: "k = 1 leaves the map unchanged".
 *  - Matrix with weights >= 0: every point is a weighted mean of old values, so the map
 *    stays within its min..max exactly (rounding to float is monotonic). */
#include "fuzz-common.h"

#include "smooth.h"

/* 1 when the custom kernel is usable on a width x height map, 0 when smooth.h says it must
 * be refused, -1 when a border sum is too close to the 1e-6 threshold to call. */
static int
kernel_verdict (const float *w, int size, int width, int height)
{
  for (int i = 0; i < size * size; i++)
    if (! isfinite (w[i]))
      return 0;
  const int r = size / 2, span = 2 * r + 2;
  int undecided = 0;
  /* Every distinct set of taps on the map shows up within span of a border. */
  for (int y = 0; y < height; y = (y + 1 == span && height - span > y + 1) ? height - span : y + 1)
    for (int x = 0; x < width; x = (x + 1 == span && width - span > x + 1) ? width - span : x + 1)
      {
        double sum = 0.0, mag = 0.0;
        for (int dy = -r; dy <= r; dy++)
          for (int dx = -r; dx <= r; dx++)
            if (x + dx >= 0 && x + dx < width && y + dy >= 0 && y + dy < height)
              {
                sum += w[(dy + r) * size + dx + r];
                mag += fabs (w[(dy + r) * size + dx + r]);
              }
        if (fabs (sum) <= 0.33e-6 * mag)
          return 0;
        if (fabs (sum) <= 3e-6 * mag)
          undecided = 1;
      }
  return undecided ? -1 : 1;
}

static void
min_max_abs (const float *h, size_t n, double *lo, double *hi, double *max_abs)
{
  *lo = INFINITY;
  *hi = -INFINITY;
  for (size_t i = 0; i < n; i++)
    {
      *lo = h[i] < *lo ? h[i] : *lo;
      *hi = h[i] > *hi ? h[i] : *hi;
    }
  *max_abs = fmax (fabs (*lo), fabs (*hi));
}

static double
mean (const float *h, size_t n)
{
  double s = 0.0;
  for (size_t i = 0; i < n; i++)
    s += h[i];
  return s / (double) n;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  FuzzInput in = { data, size, 0 };
  FuzzSize  sz = fuzz_size (&in, FUZZ_MAX_PIXELS, 1);
  const uint8_t cancel_sel = fuzz_u8 (&in);
  const int heavy = fuzz_heavy (&in);

  TerrainSmooth p;
  terrain_smooth_defaults (&p);
  int valid = sz.valid;
  p.method = (TerrainSmoothMethod) fuzz_enum (&in, 3, 1, &valid);
  p.iterations = fuzz_int (&in, 1, TERRAIN_SMOOTH_MAX_ITERATIONS, 16, 1, &valid);
  p.k = fuzz_double (&in, 0.0, 1.0, 0.5, FUZZ_CLOSED, 1, &valid);
  p.kernel = (TerrainKernel) fuzz_enum (&in, 5, 1, &valid);

  /* Where the custom kernel comes from. */
  const uint8_t source = fuzz_u8 (&in) % 4;
  int custom_ok = 1; /* the custom kernel's verdict; only matters with MATRIX + CUSTOM */
  if (source == 1 || source == 2)
    {
      const uint8_t size_sel = fuzz_u8 (&in);
      static const int bad_sizes[] = { 0, 1, 4, 25, -1, INT_MIN };
      p.custom_size = size_sel < 0xf0 ? (size_sel & 1 ? 5 : 3) : bad_sizes[size_sel % 6];
      for (int i = 0; i < 25; i++)
        p.custom[i] = source == 1 ? fuzz_bits_float (fuzz_u32 (&in))
                                  : (float) ((int) (fuzz_u8 (&in) % 9) - 4);
    }

  float *h = fuzz_alloc_floats (sz.n);
  fuzz_heights (&in, h, sz.n, 0);

  if (source == 0 || source == 3)
    {
      /* The rest of the input is the text the user typed (the defaults stay on failure). */
      char *text = fuzz_rest_string (&in);
      terrain_kernel_parse (text, p.custom, &p.custom_size, NULL);
      free (text);
    }
  if (p.custom_size != 3 && p.custom_size != 5)
    custom_ok = 0;
  else if (sz.valid)
    custom_ok = kernel_verdict (p.custom, p.custom_size, sz.w, sz.h);
  const int uses_custom = p.method == TERRAIN_SMOOTH_MATRIX && p.kernel == TERRAIN_KERNEL_CUSTOM;
  if (uses_custom && custom_ok == 0)
    valid = 0;
  const int undecided = valid && uses_custom && custom_ok < 0;

  /* The work budget: iterations scaled down on large layers, except in heavy executions,
   * which the progress callback stops after a few reports. */
  const double taps = p.method == TERRAIN_SMOOTH_LAPLACIAN ? 5.0
                      : p.method == TERRAIN_SMOOTH_FIR ? 8.0
                      : (p.kernel == TERRAIN_KERNEL_BOX_5 || p.kernel == TERRAIN_KERNEL_GAUSS_5 ||
                         (uses_custom && p.custom_size == 5)) ? 25.0 : 9.0;
  if (sz.valid) /* nanoseconds: about 10 a tap */
    p.iterations = fuzz_fit (p.iterations, TERRAIN_SMOOTH_MAX_ITERATIONS,
                             10.0 * (double) sz.n * taps, heavy);
  const unsigned long cap = fuzz_cancel_at (cancel_sel, heavy ? 3 : 100000);

  {
    int len = snprintf (fuzz_context, sizeof fuzz_context,
                        "%dx%d method %d iterations %d k %.17g kernel %d custom_size %d "
                        "verdict %d h[0] %.9g custom", sz.w, sz.h, (int) p.method, p.iterations,
                        p.k, (int) p.kernel, p.custom_size, custom_ok, sz.n ? h[0] : 0.0);
    for (int i = 0; i < 25 && len > 0 && (size_t) len < sizeof fuzz_context; i++)
      len += snprintf (fuzz_context + len, sizeof fuzz_context - len, " %.9g", p.custom[i]);
    fuzz_context_done ();
  }
  float *before = fuzz_alloc_floats (sz.n);
  memcpy (before, h, sz.n * sizeof (float));
  double lo = 0.0, hi = 0.0, max_abs = 0.0;
  if (sz.n)
    min_max_abs (h, sz.n, &lo, &hi, &max_abs);

  FuzzProgress prog;
  fuzz_progress_start (&prog, cap);
  const TerrainProgress progress = { fuzz_report, &prog };
  const TerrainStatus status = terrain_smooth (&p, h, sz.w, sz.h, &progress);

  if (! (undecided && status == TERRAIN_ERROR_INVALID))
    fuzz_check_status (status, &prog, valid);
  if (status == TERRAIN_ERROR_INVALID)
    FUZZ_CHECK (memcmp (before, h, sz.n * sizeof (float)) == 0);
  if (status == TERRAIN_OK || status == TERRAIN_CANCELLED)
    fuzz_check_finite (h, sz.n);
  if (status == TERRAIN_OK)
    {
      if (p.method == TERRAIN_SMOOTH_LAPLACIAN)
        {
          /* Each update rounds 3 times (by <= 2^-24 of max_abs each); subnormal scaling by
           * 1/8 rounds by <= 2^-150 per term. */
          const double tol = p.iterations * (4e-7 * max_abs + 1e-44);
          FUZZ_CHECK (fabs (mean (h, sz.n) - mean (before, sz.n)) <= tol);
          for (size_t i = 0; i < sz.n; i++)
            FUZZ_CHECK (h[i] >= lo - tol && h[i] <= hi + tol);
        }
      if (p.method == TERRAIN_SMOOTH_FIR && p.k == 1.0)
        for (size_t i = 0; i < sz.n; i++)
          FUZZ_CHECK (h[i] == before[i]);
      if (p.method == TERRAIN_SMOOTH_MATRIX)
        {
          int non_negative = 1;
          if (p.kernel == TERRAIN_KERNEL_CUSTOM)
            for (int i = 0; i < p.custom_size * p.custom_size; i++)
              non_negative &= p.custom[i] >= 0.0f;
          if (non_negative)
            for (size_t i = 0; i < sz.n; i++)
              FUZZ_CHECK (h[i] >= lo && h[i] <= hi);
        }
    }
  free (before);
  free (h);
  return 0;
}
