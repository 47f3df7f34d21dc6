/* libFuzzer harness: terrain_hillshade on heightmaps of any finite values (+-FLT_MAX
 * checkerboards, subnormals, raw bit patterns), any light direction and z_scale (including
 * NaN, inf, 0, negative and huge), and sizes from 1x1 up, plus sizes below 1.
 *
 * Checks (shade.h): every shade in [0, 1] (NaN fails), whatever the angles and z_scale;
 * width or height < 1 writes nothing; "a flat map is uniformly sin(elevation)" (clamped to
 * [0, 1]) for finite angles and z_scale; terrain_hillshade_z_scale is max(w, h) / 4.
 * The relief preview's helpers on the same map: terrain_hillshade_contrast_z_scale is
 * finite and positive (the relief it gives in [0, 1]); terrain_sample_mean and
 * terrain_sample_nearest to any size up to twice the map's keep every value within the
 * map's range, nearest gives values of the map, and both are the identity at its own size. */
#include "fuzz-common.h"

#include "heightmap.h"
#include "shade.h"

static double
fuzz_any_double (FuzzInput *in, double typical_lo, double typical_hi, double def)
{
  const uint8_t sel = fuzz_u8 (in);
  static const double special[] = { 0.0, -0.0, NAN, INFINITY, -INFINITY, DBL_MAX, -DBL_MAX,
                                    DBL_MIN, 1e300, -1e300, 90.0, 360.0, -90.0, 1e-300 };
  switch (sel % 8)
    {
    case 0: return def;
    case 1: return special[(sel >> 3) % 14];
    case 2: return fuzz_bits_double (fuzz_u64 (in));
    default: return typical_lo + (typical_hi - typical_lo) * fuzz_unit (in);
    }
}

static int
compare_floats (const void *a, const void *b)
{
  const float x = *(const float *) a, y = *(const float *) b;
  return (x > y) - (x < y);
}

/* The preview's downscales (heightmap.h) of h to a size read from the input. */
static void
check_samples (FuzzInput *in, const float *h, int w, int hgt, size_t n)
{
  const int dw = 1 + fuzz_u16 (in) % (2 * w), dh = 1 + fuzz_u16 (in) % (2 * hgt);
  const size_t dn = (size_t) dw * dh;
  float *sorted = fuzz_alloc_floats (n), *mean = fuzz_alloc_floats (dn),
        *nearest = fuzz_alloc_floats (dn);
  memcpy (sorted, h, n * sizeof (float));
  qsort (sorted, n, sizeof (float), compare_floats);
  terrain_sample_mean (h, w, hgt, mean, dw, dh);
  terrain_sample_nearest (h, w, hgt, nearest, dw, dh);
  for (size_t i = 0; i < dn; i++)
    {
      FUZZ_CHECK (mean[i] >= sorted[0] && mean[i] <= sorted[n - 1]);
      FUZZ_CHECK (bsearch (&nearest[i], sorted, n, sizeof (float), compare_floats) != NULL);
    }
  if (dw == w && dh == hgt)
    for (size_t i = 0; i < n; i++)
      FUZZ_CHECK (mean[i] == h[i] && nearest[i] == h[i]);
  free (nearest);
  free (mean);
  free (sorted);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  FuzzInput in = { data, size, 0 };
  FuzzSize  sz = fuzz_size (&in, FUZZ_MAX_PIXELS, 1);
  const int zdefault = sz.valid ? 1 : 0;
  const double azimuth = fuzz_any_double (&in, -720.0, 720.0, TERRAIN_HILLSHADE_AZIMUTH);
  const double elevation = fuzz_any_double (&in, -90.0, 180.0, TERRAIN_HILLSHADE_ELEVATION);
  const double z_scale = fuzz_any_double (&in, -1e4, 1e4,
                                          zdefault ? terrain_hillshade_z_scale (sz.w, sz.h) : 1.0);
  const int flat = (fuzz_u8 (&in) & 3) == 0;

  if (! sz.valid)
    {
      /* "width, height >= 1 (nothing is written otherwise)": only sizes below 1 promise it. */
      if (sz.w < 1 || sz.h < 1)
        {
          float h[8] = { 0 }, out[8];
          for (int i = 0; i < 8; i++)
            out[i] = -5.0f;
          terrain_hillshade (h, sz.w, sz.h, azimuth, elevation, z_scale, out);
          for (int i = 0; i < 8; i++)
            FUZZ_CHECK (out[i] == -5.0f);
        }
      return 0;
    }

  FUZZ_CHECK (terrain_hillshade_z_scale (sz.w, sz.h) == (sz.w > sz.h ? sz.w : sz.h) / 4.0);

  FUZZ_DESCRIBE ("%dx%d azimuth %.17g elevation %.17g z_scale %.17g%s", sz.w, sz.h, azimuth,
                 elevation, z_scale, flat ? " flat" : "");
  float *h = fuzz_alloc_floats (sz.n);
  fuzz_heights (&in, h, sz.n, 0);
  if (flat)
    for (size_t i = 1; i < sz.n; i++)
      h[i] = h[0];
  float *out = fuzz_alloc_floats (sz.n);
  terrain_hillshade (h, sz.w, sz.h, azimuth, elevation, z_scale, out);

  fuzz_check_unit (out, sz.n);
  if (flat && isfinite (azimuth) && isfinite (elevation) && isfinite (z_scale) &&
      fabs (elevation) < 1e15)
    {
      const double s = sin (elevation * (3.14159265358979323846 / 180.0));
      const double want = s > 0.0 ? (s < 1.0 ? s : 1.0) : 0.0;
      for (size_t i = 0; i < sz.n; i++)
        FUZZ_CHECK (fabs (out[i] - want) <= 1e-6);
    }

  const double contrast = terrain_hillshade_contrast_z_scale (h, sz.w, sz.h);
  FUZZ_CHECK (isfinite (contrast) && contrast > 0.0);
  terrain_hillshade (h, sz.w, sz.h, azimuth, elevation, contrast, out);
  fuzz_check_unit (out, sz.n);
  check_samples (&in, h, sz.w, sz.h, sz.n);
  free (out);
  free (h);
  return 0;
}
