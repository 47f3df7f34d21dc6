/* Smoothing: Laplacian conservation and monotone smoothing, FIR directions and identity,
 * matrix kernels and border renormalisation, kernel parsing, robustness, cancel. */
#include "check.h"
#include "field-stats.h"
#include "progress-log.h"

#include "heightmap.h"
#include "random.h"
#include "smooth.h"
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

static float *
constant_field (int w, int h, float value)
{
  float *f = malloc ((size_t) w * h * sizeof (float));
  for (size_t i = 0; i < (size_t) w * h; i++)
    f[i] = value;
  return f;
}

static TerrainSmooth
params_for (TerrainSmoothMethod method, int iterations)
{
  TerrainSmooth p;
  terrain_smooth_defaults (&p);
  p.method = method;
  p.iterations = iterations;
  return p;
}

static TerrainSmooth
matrix_params (TerrainKernel kernel, int iterations)
{
  TerrainSmooth p = params_for (TERRAIN_SMOOTH_MATRIX, iterations);
  p.kernel = kernel;
  return p;
}

static TerrainSmooth
custom_params (const char *text, int iterations)
{
  TerrainSmooth p = matrix_params (TERRAIN_KERNEL_CUSTOM, iterations);
  TerrainStatus s = terrain_kernel_parse (text, p.custom, &p.custom_size, NULL);
  CHECK (s == TERRAIN_OK, "kernel \"%s\" does not parse", text);
  return p;
}

static void
smooth_ok (const TerrainSmooth *p, float *data, int w, int h)
{
  TerrainStatus s = terrain_smooth (p, data, w, h, NULL);
  CHECK (s == TERRAIN_OK, "status %d, method %d, %dx%d", s, p->method, w, h);
}

/* ---- Laplacian ---- */

static void
test_laplacian_conserves_and_smooths (void)
{
  const int w = 203, h = 150, counts[] = { 1, 4, 16 };
  const size_t n = (size_t) w * h;
  float *original = random_field (w, h, 11);
  const double mean = field_mean (original, n);
  double variance = field_variance (original, n), gradient = mean_abs_gradient (original, w, h);
  for (int c = 0; c < 3; c++)
    {
      TerrainSmooth p = params_for (TERRAIN_SMOOTH_LAPLACIAN, counts[c]);
      float *f = copy_field (original, w, h);
      smooth_ok (&p, f, w, h);
      const double m = field_mean (f, n), v = field_variance (f, n), g = mean_abs_gradient (f, w, h);
      CHECK (fabs (m - mean) < 1e-5 * fabs (mean), "%d iterations: mean %.9g, was %.9g", counts[c], m, mean);
      CHECK (v < variance, "%d iterations: variance %g not below %g", counts[c], v, variance);
      CHECK (g < gradient, "%d iterations: gradient %g not below %g", counts[c], g, gradient);
      variance = v;
      gradient = g;
      free (f);
    }
  /* The border rule conserves too, also after many iterations and on thin maps. */
  const int sizes[][2] = { { 203, 150 }, { 1, 1 }, { 1, 57 }, { 57, 1 }, { 2, 2 }, { 3, 5 } };
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    {
      const int sw = sizes[s][0], sh = sizes[s][1];
      float *f = random_field (sw, sh, 12);
      const double before = field_mean (f, (size_t) sw * sh);
      TerrainSmooth p = params_for (TERRAIN_SMOOTH_LAPLACIAN, TERRAIN_SMOOTH_MAX_ITERATIONS);
      smooth_ok (&p, f, sw, sh);
      const double after = field_mean (f, (size_t) sw * sh);
      CHECK (fabs (after - before) < 1e-5 * fabs (before), "%dx%d: mean %.9g, was %.9g", sw, sh, after, before);
      free (f);
    }
  free (original);
}

static void
test_laplacian_keeps_constant (void)
{
  const float values[] = { 0.37f, 0.0f, -12.5f, 1e30f };
  for (size_t v = 0; v < 4; v++)
    {
      float *f = constant_field (64, 48, values[v]), *g = constant_field (64, 48, values[v]);
      TerrainSmooth p = params_for (TERRAIN_SMOOTH_LAPLACIAN, 16);
      smooth_ok (&p, f, 64, 48);
      CHECK (fields_equal (f, g, 64 * 48), "constant %g changed", values[v]);
      free (f);
      free (g);
    }
}

/* ---- FIR ---- */

static void
test_fir_identity_at_k1 (void)
{
  float *f = random_field (97, 61, 21), *g = copy_field (f, 97, 61);
  TerrainSmooth p = params_for (TERRAIN_SMOOTH_FIR, 16);
  p.k = 1.0;
  smooth_ok (&p, f, 97, 61);
  CHECK (fields_equal (f, g, 97 * 61), "k = 1 changed the map");
  free (f);
  free (g);
}

static void
test_fir_smaller_k_smooths_more (void)
{
  const double ks[] = { 0.9, 0.5, 0.2 };
  float *original = random_field (160, 120, 22);
  double previous = mean_abs_gradient (original, 160, 120);
  for (int i = 0; i < 3; i++)
    {
      TerrainSmooth p = params_for (TERRAIN_SMOOTH_FIR, 4);
      p.k = ks[i];
      float *f = copy_field (original, 160, 120);
      smooth_ok (&p, f, 160, 120);
      const double g = mean_abs_gradient (f, 160, 120);
      CHECK (g < previous, "k = %g: gradient %g not below %g", ks[i], g, previous);
      previous = g;
      free (f);
    }
  free (original);
}

/* All four sweeps run: a spike spreads left, right, up and down (the tutorial's code
 * skipped the bottom-to-top sweep, so nothing would reach the pixel above). */
static void
test_fir_spike_spreads_four_ways (void)
{
  const int w = 33, h = 33, c = 16 * 33 + 16;
  float *f = constant_field (w, h, 0.0f);
  f[c] = 1.0f;
  TerrainSmooth p = params_for (TERRAIN_SMOOTH_FIR, 1);
  smooth_ok (&p, f, w, h);
  CHECK (f[c - 1] > 0.0f, "left %g", f[c - 1]);
  CHECK (f[c + 1] > 0.0f, "right %g", f[c + 1]);
  CHECK (f[c - w] > 0.0f, "above %g", f[c - w]);
  CHECK (f[c + w] > 0.0f, "below %g", f[c + w]);
  free (f);
}

/* ---- Matrix ---- */

static void
test_matrix_identity_kernels (void)
{
  const char *identities[] = {
    "0 0 0  0 1 0  0 0 0",
    "0 0 0 0 0  0 0 0 0 0  0 0 1 0 0  0 0 0 0 0  0 0 0 0 0",
  };
  for (int i = 0; i < 2; i++)
    {
      float *f = random_field (45, 38, 31), *g = copy_field (f, 45, 38);
      TerrainSmooth p = custom_params (identities[i], 16);
      smooth_ok (&p, f, 45, 38);
      CHECK (fields_equal (f, g, 45 * 38), "identity kernel %d changed the map", i);
      free (f);
      free (g);
    }
}

static void
test_matrix_box_on_spike (void)
{
  const int w = 15, h = 15;
  float *f = constant_field (w, h, 0.0f);
  f[7 * w + 7] = 1.0f;
  TerrainSmooth p = matrix_params (TERRAIN_KERNEL_BOX_3, 1);
  smooth_ok (&p, f, w, h);
  int wrong = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        const int   inside = abs (x - 7) <= 1 && abs (y - 7) <= 1;
        const float v = f[y * w + x];
        wrong += inside ? fabsf (v - 1.0f / 9.0f) > 1e-6f : v != 0.0f;
      }
  CHECK (wrong == 0, "%d pixels differ from 1/9 in the 3x3 block and 0 outside", wrong);
  free (f);
}

/* Only in-map taps, divided by their weights: constants stay constant at every border,
 * and a corner is the mean of the in-map part of its neighbourhood. */
static void
test_matrix_border_renormalises (void)
{
  const int sizes[][2] = { { 1, 1 }, { 2, 3 }, { 4, 4 }, { 1, 9 }, { 40, 30 } };
  for (int k = TERRAIN_KERNEL_BOX_3; k <= TERRAIN_KERNEL_GAUSS_5; k++)
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
      {
        const int w = sizes[s][0], h = sizes[s][1];
        float *f = constant_field (w, h, 0.7f), *g = constant_field (w, h, 0.7f);
        TerrainSmooth p = matrix_params ((TerrainKernel) k, 3);
        smooth_ok (&p, f, w, h);
        CHECK (fields_equal (f, g, (size_t) w * h), "kernel %d, %dx%d: constant changed", k, w, h);
        free (f);
        free (g);
      }
  float *f = random_field (6, 5, 32);
  const double corner = (f[0] + f[1] + f[6] + f[7]) / 4.0;
  const double edge = (f[1] + f[2] + f[3] + f[7] + f[8] + f[9]) / 6.0;
  TerrainSmooth p = matrix_params (TERRAIN_KERNEL_BOX_3, 1);
  smooth_ok (&p, f, 6, 5);
  CHECK (fabs (f[0] - corner) < 1e-6, "corner %g, want %g", f[0], corner);
  CHECK (fabs (f[2] - edge) < 1e-6, "edge %g, want %g", f[2], edge);
  free (f);
}

/* "All ones" and "all 1/9" are the same filter. */
static void
test_matrix_scale_free (void)
{
  float *a = random_field (50, 40, 33), *b = copy_field (a, 50, 40);
  TerrainSmooth ones = custom_params ("1 1 1 1 1 1 1 1 1", 4);
  TerrainSmooth ninths = custom_params ("0.1111111 0.1111111 0.1111111 0.1111111 0.1111111 "
                                        "0.1111111 0.1111111 0.1111111 0.1111111", 4);
  smooth_ok (&ones, a, 50, 40);
  smooth_ok (&ninths, b, 50, 40);
  double worst = 0.0;
  for (int i = 0; i < 50 * 40; i++)
    worst = fmax (worst, fabs (a[i] - b[i]));
  CHECK (worst < 1e-6, "all ones vs all 1/9 differ by %g", worst);
  free (a);
  free (b);
}

static void
test_kernel_parse (void)
{
  const float gauss[9] = { 1, 2, 1, 2, 4, 2, 1, 2, 1 };
  const char *good3[] = { "1 2 1 2 4 2 1 2 1", "1,2,1,2,4,2,1,2,1", " 1, 2 ,1\n2\t4 2\n1 2 1 \n",
                          "1.0 2e0 +1 .2e1 4. 20e-1 1 2 1", "1, 2, 1, 2, 4, 2, 1, 2, 1,",
                          "1 2 1 2 4 2 1 2 1 , " };
  for (size_t i = 0; i < sizeof good3 / sizeof good3[0]; i++)
    {
      float k[25];
      int   size = 0;
      CHECK (terrain_kernel_parse (good3[i], k, &size, NULL) == TERRAIN_OK, "\"%s\" rejected", good3[i]);
      int same = size == 3;
      for (int j = 0; j < 25; j++)
        same &= k[j] == (j < 9 ? gauss[j] : 0.0f);
      CHECK (same, "\"%s\": size %d or weights wrong", good3[i], size);
    }

  float k[25], named[25];
  int   size = 0, named_size = 0;
  CHECK (terrain_kernel_parse ("1 4 6 4 1, 4 16 24 16 4, 6 24 36 24 6, 4 16 24 16 4, 1 4 6 4 1",
                               k, &size, NULL) == TERRAIN_OK && size == 5, "25 numbers: size %d", size);
  terrain_kernel_named (TERRAIN_KERNEL_GAUSS_5, named, &named_size);
  CHECK (named_size == 5 && memcmp (k, named, sizeof k) == 0, "25 numbers != gauss 5");
  CHECK (terrain_kernel_parse ("-0.5 1e-3 -1e+2 0.25 9 1 1 1 1", k, &size, NULL) == TERRAIN_OK &&
         k[0] == -0.5f && k[1] == 1e-3f && k[2] == -100.0f && k[3] == 0.25f, "signs and exponents");

  /* Long inputs: padding, a long zero fraction, a 100000-digit integer (beyond float). */
  const size_t long_n = 200000;
  char *text = malloc (long_n + 64);
  memset (text, ' ', long_n);
  strcpy (text + long_n, "1 2 1 2 4 2 1 2 1");
  CHECK (terrain_kernel_parse (text, k, &size, NULL) == TERRAIN_OK && size == 3, "padded kernel");
  strcpy (text, "0.");
  memset (text + 2, '0', long_n);
  strcpy (text + 2 + long_n, "1 1 1 1 1 1 1 1 1");
  CHECK (terrain_kernel_parse (text, k, &size, NULL) == TERRAIN_OK && k[0] == 0.0f && k[1] == 1.0f,
         "long zero fraction gives %g", k[0]);
  memset (text, '1', long_n);
  strcpy (text + long_n, " 1 1 1 1 1 1 1 1");
  CHECK (terrain_kernel_parse (text, k, &size, NULL) == TERRAIN_ERROR_INVALID, "100000-digit weight");
  free (text);

  /* Refused texts, with the problem the fault names, the number concerned and where. */
  const struct
  {
    const char          *text;
    TerrainKernelProblem problem;
    int                  item;
    size_t               offset;
  } bad[] = {
    { "", TERRAIN_KERNEL_EMPTY, 0, 0 },
    { "   ", TERRAIN_KERNEL_EMPTY, 0, 3 },
    { "1 2 3", TERRAIN_KERNEL_COUNT, 3, 5 },
    { "1 2 x 4 5 6 7 8 9", TERRAIN_KERNEL_NOT_A_NUMBER, 3, 4 },
    { "1 2 3 4 5 6 7 8 9 10", TERRAIN_KERNEL_COUNT, 10, 20 },
    { "nan 1 1 1 1 1 1 1 1", TERRAIN_KERNEL_NOT_A_NUMBER, 1, 0 },
    { "inf 1 1 1 1 1 1 1 1", TERRAIN_KERNEL_NOT_A_NUMBER, 1, 0 },
    { "1 1e39 1 1 1 1 1 1 1", TERRAIN_KERNEL_OUT_OF_RANGE, 2, 2 },
    { "0 1 0 1 -4 1 0 1 0", TERRAIN_KERNEL_SUM, 9, 18 },
    { "0 0 0 0 0 0 0 0 0", TERRAIN_KERNEL_SUM, 9, 17 },
    { "1e-9 1 1 1 -7 1 1 1 1", TERRAIN_KERNEL_SUM, 9, 21 }, /* tiny, not zero: still noise */
    { "1,,2,1,2,4,2,1,2,1", TERRAIN_KERNEL_SEPARATOR, 1, 2 },
    { ",1 2 1 2 4 2 1 2 1", TERRAIN_KERNEL_SEPARATOR, 0, 0 },
    { "1 2 1 2 4 2 1 2 1,,", TERRAIN_KERNEL_SEPARATOR, 9, 18 },
    { "1-2 1 2 4 2 1 2 1 1", TERRAIN_KERNEL_SEPARATOR, 1, 1 },
    { "1 2 1 2 4 2 1 2 1e", TERRAIN_KERNEL_NOT_A_NUMBER, 9, 16 },
    { "0x10 1 1 1 1 1 1 1 1", TERRAIN_KERNEL_NOT_A_NUMBER, 1, 0 },
    { "1;2;1;2;4;2;1;2;1", TERRAIN_KERNEL_NOT_A_NUMBER, 1, 0 },
    { "- 1 1 1 1 1 1 1 1", TERRAIN_KERNEL_NOT_A_NUMBER, 1, 0 },
    { ". 1 1 1 1 1 1 1 1", TERRAIN_KERNEL_NOT_A_NUMBER, 1, 0 },
    { "1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1", TERRAIN_KERNEL_COUNT, 26, 50 },
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
      float              untouched[25];
      int                untouched_size = 42;
      TerrainKernelFault fault;
      memset (untouched, 0x5a, sizeof untouched);
      memcpy (k, untouched, sizeof k);
      size = untouched_size;
      CHECK (terrain_kernel_parse (bad[i].text, k, &size, &fault) == TERRAIN_ERROR_INVALID,
             "\"%s\" accepted", bad[i].text);
      CHECK (size == untouched_size && memcmp (k, untouched, sizeof k) == 0, "\"%s\" wrote output",
             bad[i].text);
      CHECK (fault.problem == bad[i].problem && fault.item == bad[i].item &&
               fault.offset == bad[i].offset,
             "\"%s\": problem %d, item %d, offset %zu; want %d, %d, %zu", bad[i].text,
             fault.problem, fault.item, fault.offset, bad[i].problem, bad[i].item, bad[i].offset);
    }
  TerrainKernelFault fault;
  CHECK (terrain_kernel_parse ("1e-9 1 1 1 -7 1 1 1 1", k, &size, &fault) == TERRAIN_ERROR_INVALID &&
           fabs (fault.sum - 1e-9) < 1e-12 && fault.magnitude > 13.0,
         "tiny sum: sum %g, magnitude %g", fault.sum, fault.magnitude);
  CHECK (terrain_kernel_parse (NULL, k, &size, &fault) == TERRAIN_ERROR_INVALID &&
           fault.problem == TERRAIN_KERNEL_EMPTY, "NULL accepted");
  CHECK (terrain_kernel_named (TERRAIN_KERNEL_CUSTOM, k, &size) == TERRAIN_ERROR_INVALID,
         "CUSTOM has no named weights");
}

/* Rejected kernels leave the data alone: zero sum, zero sum at the border only, NaN. */
static void
test_matrix_rejects_kernels_untouched (void)
{
  float *f = random_field (30, 20, 34), *g = copy_field (f, 30, 20);
  TerrainSmooth p = matrix_params (TERRAIN_KERNEL_CUSTOM, 16);
  const float laplace[9] = { 0, 1, 0, 1, -4, 1, 0, 1, 0 };
  memcpy (p.custom, laplace, sizeof laplace);
  p.custom_size = 3;
  CHECK (terrain_smooth (&p, f, 30, 20, NULL) == TERRAIN_ERROR_INVALID, "zero-sum kernel accepted");
  /* Sums to 1, but along the right column only the left taps remain: -1 + 1 = 0. */
  TerrainSmooth q = custom_params ("0 0 0  -1 1 0  0 0 1", 16);
  CHECK (terrain_smooth (&q, f, 30, 20, NULL) == TERRAIN_ERROR_INVALID, "border zero sum accepted");
  /* A zero centre cannot smooth a single pixel. */
  TerrainSmooth ring = custom_params ("1 1 1 1 0 1 1 1 1", 1);
  float one = 0.5f;
  CHECK (terrain_smooth (&ring, &one, 1, 1, NULL) == TERRAIN_ERROR_INVALID && one == 0.5f,
         "zero-centre kernel on 1x1");
  p.custom[4] = NAN;
  CHECK (terrain_smooth (&p, f, 30, 20, NULL) == TERRAIN_ERROR_INVALID, "NaN weight accepted");
  p.custom[4] = INFINITY;
  CHECK (terrain_smooth (&p, f, 30, 20, NULL) == TERRAIN_ERROR_INVALID, "inf weight accepted");
  CHECK (fields_equal (f, g, 30 * 20), "rejected kernel touched the data");
  free (f);
  free (g);
}

/* ---- All methods ---- */

static void
test_no_nan (void)
{
  TerrainSmooth ps[8];
  int n = 0;
  ps[n++] = params_for (TERRAIN_SMOOTH_LAPLACIAN, 50);
  ps[n++] = params_for (TERRAIN_SMOOTH_FIR, 50);
  ps[n] = params_for (TERRAIN_SMOOTH_FIR, 50);
  ps[n++].k = 0.0;
  for (int k = TERRAIN_KERNEL_BOX_3; k <= TERRAIN_KERNEL_GAUSS_5; k++)
    ps[n++] = matrix_params ((TerrainKernel) k, 50);
  /* A sharpening kernel amplifies without bound: it must saturate, not overflow to NaN. */
  ps[n++] = custom_params ("-1 -1 -1 -1 9 -1 -1 -1 -1", 200);

  const int sizes[][2] = { { 64, 48 }, { 1, 1 }, { 1, 20 }, { 20, 1 }, { 3, 2 } };
  for (int i = 0; i < n; i++)
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
      for (int huge = 0; huge < 2; huge++)
        {
          const int w = sizes[s][0], h = sizes[s][1];
          float *f = random_field (w, h, 40 + (uint32_t) s);
          /* Values of either sign near FLT_MAX: differences and sums would overflow. */
          if (huge)
            for (int j = 0; j < w * h; j++)
              f[j] = (f[j] < 0.5f ? -FLT_MAX : FLT_MAX) * (0.9f + 0.1f * f[j]);
          smooth_ok (&ps[i], f, w, h);
          CHECK (! terrain_has_non_finite (f, (size_t) w * h),
                 "method %d kernel %d %dx%d huge %d: NaN/inf", ps[i].method, ps[i].kernel, w, h, huge);
          free (f);
        }
}

static void
test_invalid_parameters (void)
{
  float f[4] = { 0.1f, 0.2f, 0.3f, 0.4f }, g[4];
  memcpy (g, f, sizeof f);
  TerrainSmooth p;
  terrain_smooth_defaults (&p);
  CHECK (terrain_smooth (&p, f, 0, 2, NULL) == TERRAIN_ERROR_INVALID, "width 0");
  CHECK (terrain_smooth (&p, f, 2, -1, NULL) == TERRAIN_ERROR_INVALID, "height -1");
  const int iterations[] = { 0, -1, TERRAIN_SMOOTH_MAX_ITERATIONS + 1 };
  for (int i = 0; i < 3; i++)
    {
      terrain_smooth_defaults (&p);
      p.iterations = iterations[i];
      CHECK (terrain_smooth (&p, f, 2, 2, NULL) == TERRAIN_ERROR_INVALID, "iterations %d", iterations[i]);
    }
  const double ks[] = { -0.1, 1.1, NAN, INFINITY };
  for (int i = 0; i < 4; i++)
    {
      p = params_for (TERRAIN_SMOOTH_FIR, 1);
      p.k = ks[i];
      CHECK (terrain_smooth (&p, f, 2, 2, NULL) == TERRAIN_ERROR_INVALID, "k %g", ks[i]);
    }
  p = params_for ((TerrainSmoothMethod) 3, 1);
  CHECK (terrain_smooth (&p, f, 2, 2, NULL) == TERRAIN_ERROR_INVALID, "method 3");
  p = matrix_params ((TerrainKernel) 5, 1);
  CHECK (terrain_smooth (&p, f, 2, 2, NULL) == TERRAIN_ERROR_INVALID, "kernel 5");
  p = matrix_params (TERRAIN_KERNEL_CUSTOM, 1);
  p.custom_size = 4;
  CHECK (terrain_smooth (&p, f, 2, 2, NULL) == TERRAIN_ERROR_INVALID, "custom size 4");
  CHECK (memcmp (f, g, sizeof f) == 0, "invalid parameters touched the data");
}

typedef struct
{
  double last;
  int    backwards, calls;
} Trace;

static int
trace (void *user, double fraction)
{
  Trace *t = user;
  t->backwards += fraction < t->last || fraction > 1.0;
  t->last = fraction;
  t->calls++;
  return 0;
}

static void
test_progress_and_cancel (void)
{
  const TerrainSmooth ps[] = { params_for (TERRAIN_SMOOTH_LAPLACIAN, 16),
                               params_for (TERRAIN_SMOOTH_FIR, 16),
                               matrix_params (TERRAIN_KERNEL_GAUSS_5, 16) };
  for (int i = 0; i < 3; i++)
    {
      float *f = random_field (300, 300, 50);
      TerrainProgress cancel = { cancel_at_half, NULL };
      CHECK (terrain_smooth (&ps[i], f, 300, 300, &cancel) == TERRAIN_CANCELLED,
             "method %d not cancelled", ps[i].method);
      Trace t = { 0.0, 0, 0 };
      TerrainProgress traced = { trace, &t };
      CHECK (terrain_smooth (&ps[i], f, 300, 300, &traced) == TERRAIN_OK, "method %d", ps[i].method);
      CHECK (t.backwards == 0 && t.last == 1.0 && t.calls > 16,
             "method %d: progress went back %d times, ended at %g after %d calls",
             ps[i].method, t.backwards, t.last, t.calls);
      free (f);
    }
}

/* Informational only: ns per pixel for a whole call with the default 16 iterations. */
static void
print_timings (void)
{
  const int side = 1024;
  struct { const char *name; TerrainSmooth p; } runs[] = {
    { "laplacian", params_for (TERRAIN_SMOOTH_LAPLACIAN, 16) },
    { "fir k=0.5", params_for (TERRAIN_SMOOTH_FIR, 16) },
    { "matrix box3", matrix_params (TERRAIN_KERNEL_BOX_3, 16) },
    { "matrix gauss3", matrix_params (TERRAIN_KERNEL_GAUSS_3, 16) },
    { "matrix box5", matrix_params (TERRAIN_KERNEL_BOX_5, 16) },
    { "matrix gauss5", matrix_params (TERRAIN_KERNEL_GAUSS_5, 16) },
  };
  float *f = random_field (side, side, 60);
  for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++)
    {
      const double t0 = seconds ();
      smooth_ok (&runs[i].p, f, side, side);
      const double t = seconds () - t0;
      printf ("  %-14s %4dx%d, 16 iterations: %7.1f ms, %6.2f ns/pixel (%5.2f per iteration)\n",
              runs[i].name, side, side, t * 1e3, t * 1e9 / (side * side),
              t * 1e9 / (side * side) / 16);
    }
  free (f);
}

int
main (void)
{
  test_laplacian_conserves_and_smooths ();
  test_laplacian_keeps_constant ();
  test_fir_identity_at_k1 ();
  test_fir_smaller_k_smooths_more ();
  test_fir_spike_spreads_four_ways ();
  test_matrix_identity_kernels ();
  test_matrix_box_on_spike ();
  test_matrix_border_renormalises ();
  test_matrix_scale_free ();
  test_kernel_parse ();
  test_matrix_rejects_kernels_untouched ();
  test_no_nan ();
  test_invalid_parameters ();
  test_progress_and_cancel ();
  print_timings ();
  return CHECK_DONE ("smooth");
}
