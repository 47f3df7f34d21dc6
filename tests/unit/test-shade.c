/* Hillshade: light direction conventions, flat maps, output range. */
#include "check.h"

#include "diamond-square.h"

#include "heightmap.h"
#include "random.h"
#include "shade.h"
#include "timing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { W = 64, H = 48 };

/* A plane h = a * x / W + b * y / H + 0.5 (x right, y down). */
static void
plane (float *h, double a, double b)
{
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      h[y * W + x] = (float) (a * x / W + b * y / H + 0.5);
}

/* Every pixel of the plane facing the light is brighter than every pixel of the one
 * facing away. */
static void
check_faces_light (double azimuth, double toward_a, double toward_b, const char *what)
{
  float h[W * H], toward[W * H], away[W * H];
  const double z = terrain_hillshade_z_scale (W, H);
  plane (h, toward_a, toward_b);
  terrain_hillshade (h, W, H, azimuth, 45.0, z, toward);
  plane (h, -toward_a, -toward_b);
  terrain_hillshade (h, W, H, azimuth, 45.0, z, away);
  float lo_toward, hi_toward, lo_away, hi_away;
  terrain_min_max (toward, W * H, &lo_toward, &hi_toward);
  terrain_min_max (away, W * H, &lo_away, &hi_away);
  CHECK (lo_toward > hi_away, "%s: toward the light [%g, %g], away [%g, %g]", what,
         lo_toward, hi_toward, lo_away, hi_away);
  CHECK (lo_toward > sinf (45.0f * 3.14159265f / 180.0f),
         "%s: a slope facing the light (%g) is brighter than flat ground", what, lo_toward);
}

static void
test_tilted_planes (void)
{
  /* Light from the east (90): the plane falling towards the east (rising to the west)
   * faces it. Light from the north (0 = up): the plane falling towards the top faces it. */
  check_faces_light (90.0, -0.3, 0.0, "east light");
  check_faces_light (270.0, 0.3, 0.0, "west light");
  check_faces_light (0.0, 0.0, 0.3, "north light");
  check_faces_light (180.0, 0.0, -0.3, "south light");
  check_faces_light (TERRAIN_HILLSHADE_AZIMUTH, 0.2, 0.2, "default north-west light");
}

static void
test_flat_is_uniform (void)
{
  const double elevations[] = { 10.0, 30.0, 45.0, 90.0 };
  float h[W * H], out[W * H];
  for (int i = 0; i < W * H; i++)
    h[i] = 0.3f;
  for (int e = 0; e < 4; e++)
    {
      terrain_hillshade (h, W, H, 123.0, elevations[e], 100.0, out);
      int same = 1;
      for (int i = 1; i < W * H; i++)
        same &= out[i] == out[0];
      const double want = sin (elevations[e] * 3.14159265358979323846 / 180.0);
      CHECK (same, "elevation %g: flat map not uniform", elevations[e]);
      CHECK (fabs (out[0] - want) < 1e-6, "elevation %g: %g, want sin = %g", elevations[e],
             out[0], want);
    }
  /* One-pixel-wide maps have no slope across, and a 1x1 map none at all. */
  float one = 0.7f, shade;
  terrain_hillshade (&one, 1, 1, 0.0, 30.0, 100.0, &shade);
  CHECK (fabsf (shade - 0.5f) < 1e-6f, "1x1: %g", shade);
}

static void
test_range (void)
{
  float *h = malloc (W * H * sizeof (float)), *out = malloc (W * H * sizeof (float));
  for (int i = 0; i < W * H; i++)
    h[i] = terrain_hash_to_unit (terrain_hash (7, i % W, i / W, 0));
  const double zs[] = { 0.0, 1.0, 16.0, 1e6, 1e300 };
  for (int a = 0; a < 360; a += 45)
    for (int z = 0; z < 5; z++)
      for (int e = 0; e <= 90; e += 30)
        {
          terrain_hillshade (h, W, H, a, e, zs[z], out);
          float lo, hi;
          terrain_min_max (out, W * H, &lo, &hi);
          CHECK (! terrain_has_non_finite (out, W * H) && lo >= 0.0f && hi <= 1.0f,
                 "azimuth %d elevation %d z %g: [%g, %g]", a, e, zs[z], lo, hi);
        }
  CHECK (terrain_hillshade_z_scale (512, 256) == 128.0, "default z scale %g",
         terrain_hillshade_z_scale (512, 256));
  free (h);
  free (out);
}

/* The spread of a shading: the distance between its 10th and 90th percentile greys. */
static double
spread (const float *shade, int n)
{
  float *sorted = malloc ((size_t) n * sizeof (float));
  memcpy (sorted, shade, (size_t) n * sizeof (float));
  for (int i = 1; i < n; i++) /* insertion sort: small maps only */
    for (int j = i; j > 0 && sorted[j - 1] > sorted[j]; j--)
      {
        const float t = sorted[j];
        sorted[j] = sorted[j - 1];
        sorted[j - 1] = t;
      }
  const double d = sorted[n * 9 / 10] - sorted[n / 10];
  free (sorted);
  return d;
}

enum { S = 129 };

static void
diamond_square (float *h, double roughness)
{
  TerrainDiamondSquare p;
  terrain_diamond_square_defaults (&p);
  p.seed = 77;
  p.roughness = roughness;
  CHECK (terrain_diamond_square (&p, h, S, S, NULL) == TERRAIN_OK, "diamond-square H=%g", roughness);
}

/* The spread of the relief of h with the normalised contrast (and with the fixed one). */
static double
normal_spread (const float *h, double *fixed_spread)
{
  static float out[S * S];
  terrain_hillshade (h, S, S, TERRAIN_HILLSHADE_AZIMUTH, TERRAIN_HILLSHADE_ELEVATION,
                     terrain_hillshade_z_scale (S, S), out);
  *fixed_spread = spread (out, S * S);
  terrain_hillshade (h, S, S, TERRAIN_HILLSHADE_AZIMUTH, TERRAIN_HILLSHADE_ELEVATION,
                     terrain_hillshade_contrast_z_scale (h, S, S), out);
  return spread (out, S * S);
}

/* The normalised relief reads the same whatever the map's height scale or roughness,
 * where the fixed z_scale swings from noise to flat. */
static void
test_contrast_normalised (void)
{
  static float rough[S * S], smooth[S * S], tall[S * S];
  double fixed_rough, fixed_smooth, fixed_tall;
  diamond_square (rough, 0.3);
  diamond_square (smooth, 1.2);
  for (int i = 0; i < S * S; i++)
    tall[i] = 10.0f * smooth[i];
  const double r = normal_spread (rough, &fixed_rough);
  const double s = normal_spread (smooth, &fixed_smooth);
  const double t = normal_spread (tall, &fixed_tall);
  printf ("  relief spread (10th..90th percentile grey), normalised / fixed z_scale:\n"
          "    H=0.3 %.3f / %.3f, H=1.2 %.3f / %.3f, H=1.2 x10 %.3f / %.3f\n",
          r, fixed_rough, s, fixed_smooth, t, fixed_tall);
  CHECK (fabs (t - s) < 1e-3, "ten times as tall: spread %g, was %g", t, s);
  CHECK (r / s < 1.5 && s / r < 1.5, "rough %g and smooth %g spreads differ", r, s);
  CHECK (s > 0.2 && s < 0.8, "spread %g: neither flat nor black and white", s);
  /* A flat map: the default scale, and a uniform shade. */
  float flat[S * S];
  for (int i = 0; i < S * S; i++)
    flat[i] = 0.25f;
  CHECK (terrain_hillshade_contrast_z_scale (flat, S, S) == terrain_hillshade_z_scale (S, S),
         "a flat map's scale");
  CHECK (terrain_hillshade_contrast_z_scale (rough, 1, 1) > 0.0, "one pixel");
  /* Sparse spikes of the smallest subnormal: the slopes beside them (half of it) are 0 as
   * floats; the scale must stay finite (an infinite one shades the relief black). */
  for (int i = 0; i < S * S; i++)
    flat[i] = i % 61 == 0 ? 1e-45f : 0.0f;
  const double z = terrain_hillshade_contrast_z_scale (flat, S, S);
  CHECK (isfinite (z) && z > 0.0, "subnormal spikes: z_scale %g", z);
}

/* Mean of |a - b| over horizontally neighbouring pixels: how grainy a picture is. */
static double
grain (const float *a, int w, int h)
{
  double sum = 0.0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x + 1 < w; x++)
      sum += fabs (a[y * w + x + 1] - a[y * w + x]);
  return sum / ((double) (w - 1) * h);
}

/* The relief preview's downscale: exact means (a 2x reduction, a constant, upscaling to
 * the pixel under), and, on a rough map shown 5 times smaller, a shading less grainy than
 * that of nearest samples. */
static void
test_mean_sampling (void)
{
  static float src[S * S], dst[S * S], near[S * S];
  for (int i = 0; i < 8 * 6; i++)
    src[i] = terrain_hash_to_unit (terrain_hash (5, i, 0, 0));
  terrain_sample_mean (src, 8, 6, dst, 4, 3);
  int exact = 1;
  for (int y = 0; y < 3; y++)
    for (int x = 0; x < 4; x++)
      {
        const float *p = src + y * 2 * 8 + x * 2;
        exact &= fabsf (dst[y * 4 + x] - (p[0] + p[1] + p[8] + p[9]) / 4.0f) < 1e-6f;
      }
  CHECK (exact, "2x reduction: not the means of 2x2 blocks");
  for (int i = 0; i < 7 * 5; i++)
    src[i] = 0.375f;
  terrain_sample_mean (src, 7, 5, dst, 3, 2);
  CHECK (dst[0] == 0.375f && dst[5] == 0.375f, "a constant: %g %g", dst[0], dst[5]);
  for (int i = 0; i < 3 * 2; i++)
    src[i] = (float) i;
  terrain_sample_mean (src, 3, 2, dst, 6, 4);
  terrain_sample_nearest (src, 3, 2, near, 6, 4);
  CHECK (memcmp (dst, near, 6 * 4 * sizeof (float)) == 0, "upscaling: not the pixel under");

  static float rough[S * S], small[26 * 26], lit[26 * 26];
  diamond_square (rough, 0.3);
  terrain_sample_nearest (rough, S, S, small, 26, 26);
  terrain_hillshade (small, 26, 26, TERRAIN_HILLSHADE_AZIMUTH, TERRAIN_HILLSHADE_ELEVATION,
                     terrain_hillshade_contrast_z_scale (small, 26, 26), lit);
  const double nearest_grain = grain (lit, 26, 26);
  terrain_sample_mean (rough, S, S, small, 26, 26);
  terrain_hillshade (small, 26, 26, TERRAIN_HILLSHADE_AZIMUTH, TERRAIN_HILLSHADE_ELEVATION,
                     terrain_hillshade_contrast_z_scale (small, 26, 26), lit);
  const double mean_grain = grain (lit, 26, 26);
  printf ("  relief of a rough map shown 5x smaller, grain: nearest %.3f, mean %.3f\n",
          nearest_grain, mean_grain);
  CHECK (mean_grain < nearest_grain, "means shade as grainy (%g) as nearest samples (%g)",
         mean_grain, nearest_grain);
}

/* Reduction by a whole factor and the bilinear way back (River Erosion's coarse grid, a
 * filter's look): block means, ragged blocks at the ends; a plane comes back as itself
 * between the outermost centres and flat past them; wrapped, shifting the reduced map by a
 * pixel shifts the stretched one by the factor, across the edges too. */
static void
test_reduce_and_stretch (void)
{
  static float src[8 * 8], dst[16 * 16], shifted[8 * 8], moved[16 * 16];
  for (int i = 0; i < 7 * 5; i++)
    src[i] = terrain_hash_to_unit (terrain_hash (6, i, 0, 0));
  terrain_reduce_mean (src, 7, 5, 3, dst);
  double block = 0.0, corner = (src[4 * 7 + 6] + (double) src[3 * 7 + 6]) / 2.0;
  for (int y = 0; y < 3; y++)
    for (int x = 0; x < 3; x++)
      block += src[y * 7 + x] / 9.0;
  CHECK (fabs (dst[0] - block) < 1e-6 && fabs (dst[3 * 1 + 2] - corner) < 1e-6,
         "reduced 3x: %g, %g (block means %g, %g)", dst[0], dst[5], block, corner);
  terrain_reduce_mean (src, 7, 5, 1, dst);
  CHECK (memcmp (dst, src, 7 * 5 * sizeof (float)) == 0, "reduced 1x: not the map itself");

  for (int y = 0; y < 4; y++)
    for (int x = 0; x < 4; x++)
      src[y * 4 + x] = 2.0f * x + 3.0f * y;
  terrain_stretch_bilinear (src, 4, 0, dst, 16, 16);
  int plane = 1;
  for (int y = 0; y < 16; y++)
    for (int x = 0; x < 16; x++)
      {
        const double u = fmin (fmax ((x + 0.5) / 4 - 0.5, 0.0), 3.0);
        const double v = fmin (fmax ((y + 0.5) / 4 - 0.5, 0.0), 3.0);
        plane &= fabs (dst[y * 16 + x] - (2.0 * u + 3.0 * v)) < 1e-5;
      }
  CHECK (plane, "a plane stretched 4x is no plane, or not flat past the outer centres");

  for (int i = 0; i < 4 * 4; i++)
    src[i] = terrain_hash_to_unit (terrain_hash (7, i, 0, 0));
  for (int y = 0; y < 4; y++)
    for (int x = 0; x < 4; x++)
      shifted[y * 4 + (x + 1) % 4] = src[y * 4 + x];
  terrain_stretch_bilinear (src, 2, 1, dst, 8, 8);
  terrain_stretch_bilinear (shifted, 2, 1, moved, 8, 8);
  int wraps = 1;
  for (int y = 0; y < 8; y++)
    for (int x = 0; x < 8; x++)
      wraps &= moved[y * 8 + (x + 2) % 8] == dst[y * 8 + x];
  CHECK (wraps, "wrapped, a shift of the reduced map is not a shift of the stretched one");
}

static void
print_timing (void)
{
  const int side = 1024;
  float *h = malloc ((size_t) side * side * sizeof (float));
  float *out = malloc ((size_t) side * side * sizeof (float));
  for (int i = 0; i < side * side; i++)
    h[i] = terrain_hash_to_unit (terrain_hash (8, i % side, i / side, 0));
  const double t0 = seconds ();
  terrain_hillshade (h, side, side, TERRAIN_HILLSHADE_AZIMUTH, TERRAIN_HILLSHADE_ELEVATION,
                     terrain_hillshade_z_scale (side, side), out);
  const double t = seconds () - t0;
  printf ("  hillshade %dx%d: %.1f ms, %.2f ns/pixel\n", side, side, t * 1e3,
          t * 1e9 / (side * side));
  free (h);
  free (out);
}

int
main (void)
{
  test_tilted_planes ();
  test_flat_is_uniform ();
  test_range ();
  test_contrast_normalised ();
  test_mean_sampling ();
  test_reduce_and_stretch ();
  print_timing ();
  return CHECK_DONE ("shade");
}
