/* The landscape's detail noise (spline-noise.h): the same bits however the rows are cut,
 * zero mean and the spread it promises, rougher with a smaller H, and no lattice: its local
 * minima do not gather on any grid of its octaves' spacings, where the infinite field's
 * gather on its coarse nodes (the presets' dimples). */
#include "check.h"
#include "field-stats.h"

#include "field.h"
#include "heightmap.h"
#include "spline-noise.h"
#include "terrain-common.h"

#include <stdio.h>
#include <stdlib.h>

#define SIDE 512

static float *
noise (uint32_t seed, int levels, double roughness, int w, int h)
{
  float *out = malloc ((size_t) w * h * sizeof (float));
  const TerrainStatus s = terrain_spline_noise (seed, levels, roughness, out, w, h, NULL);
  CHECK (s == TERRAIN_OK, "status %d at %dx%d", s, w, h);
  return out;
}

static void
test_strips_and_runs (void)
{
  static const int sizes[][2] = { { 1, 1 }, { 1, 77 }, { 77, 1 }, { 300, 211 } };
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    {
      const int w = sizes[i][0], h = sizes[i][1];
      terrain_set_cells_per_strip (0);
      float *whole = noise (7, 5, 0.8, w, h);
      terrain_set_cells_per_strip (1);
      float *strips = noise (7, 5, 0.8, w, h);
      float *again = noise (7, 5, 0.8, w, h);
      terrain_set_cells_per_strip (0);
      CHECK (fields_equal (whole, strips, (size_t) w * h), "%dx%d: strips differ", w, h);
      CHECK (fields_equal (strips, again, (size_t) w * h), "%dx%d: runs differ", w, h);
      CHECK (! terrain_has_non_finite (whole, (size_t) w * h), "%dx%d: not finite", w, h);
      free (whole), free (strips), free (again);
    }
  float *a = noise (1, 4, 1.0, 64, 64), *b = noise (2, 4, 1.0, 64, 64);
  CHECK (! fields_equal (a, b, 64 * 64), "seeds 1 and 2 give the same noise");
  free (a), free (b);
}

/* Over 8 seeds of 512 x 512 with the coarsest spacing 32 (N = 5): the mean within 0.01 of 0
 * and the standard deviation within 10 % of 1/6. */
static void
test_spread (void)
{
  for (int r = 0; r < 3; r++)
    {
      const double roughness = (double[]){ 0.3, 0.8, 1.5 }[r];
      double sum = 0.0, squares = 0.0;
      const size_t n = (size_t) SIDE * SIDE;
      for (uint32_t seed = 0; seed < 8; seed++)
        {
          float *f = noise (seed, 5, roughness, SIDE, SIDE);
          for (size_t i = 0; i < n; i++)
            sum += f[i], squares += (double) f[i] * f[i];
          free (f);
        }
      const double mean = sum / (8.0 * n), sd = sqrt (squares / (8.0 * n) - mean * mean);
      CHECK (fabs (mean) < 0.01, "H %.1f: mean %.4f", roughness, mean);
      CHECK (fabs (sd * 6.0 - 1.0) < 0.1, "H %.1f: standard deviation %.4f, not 1/6",
             roughness, sd);
    }
}

/* A smaller H keeps more of the spread at short lags: the one-pixel structure function over
 * the 16-pixel one grows as H falls. */
static void
test_roughness (void)
{
  double previous = 0.0;
  for (int r = 0; r < 3; r++)
    {
      const double roughness = (double[]){ 1.5, 0.8, 0.3 }[r];
      float *f = noise (3, 5, roughness, SIDE, SIDE);
      const double ratio = structure_function (f, SIDE, SIDE, 1)
                           / structure_function (f, SIDE, SIDE, 16);
      CHECK (ratio > previous * 1.3, "H %.1f: short-lag share %.3f, not above %.3f", roughness,
             ratio, previous * 1.3);
      previous = ratio;
      free (f);
    }
}

/* The strict local minima (below all 8 neighbours) counted by residue class (x mod p,
 * y mod p): their index of dispersion, the variance of the classes' counts over their mean,
 * is about 1 where the minima fall anywhere, and large where a grid holds more of them. */
static double
minima_dispersion (const float *f, int w, int h, int p)
{
  int *count = calloc ((size_t) p * p, sizeof (int)), total = 0;
  for (int y = 1; y + 1 < h; y++)
    for (int x = 1; x + 1 < w; x++)
      {
        const float v = f[(size_t) y * w + x];
        int lowest = 1;
        for (int dy = -1; dy <= 1; dy++)
          for (int dx = -1; dx <= 1; dx++)
            lowest &= (dx == 0 && dy == 0) || v < f[(size_t) (y + dy) * w + x + dx];
        count[(y % p) * p + x % p] += lowest, total += lowest;
      }
  const double mean = (double) total / (p * p);
  double squares = 0.0;
  for (int c = 0; c < p * p; c++)
    squares += (count[c] - mean) * (count[c] - mean);
  free (count);
  return mean > 0.0 ? squares / (p * p - 1) / mean : 0.0;
}

/* With H as the presets' detail and the coarsest spacing 32 (N = 5): on grids of spacing 4,
 * 8 and 16 the minima's dispersion is below 10 and a quarter of the infinite field's with
 * the same coarsest spacing (5 iterations), whose coarse nodes hold many of them. */
static void
test_no_lattice (void)
{
  float *f = noise (11, 5, 0.8, SIDE, SIDE);
  TerrainField field;
  terrain_field_defaults (&field);
  field.seed = 11, field.iterations = 5, field.roughness = 0.8;
  float *midpoint = malloc ((size_t) SIDE * SIDE * sizeof (float));
  CHECK (terrain_field (&field, midpoint, SIDE, SIDE, NULL) == TERRAIN_OK, "the field");
  for (int p = 4; p <= 16; p *= 2)
    {
      const double d = minima_dispersion (f, SIDE, SIDE, p);
      const double field_d = minima_dispersion (midpoint, SIDE, SIDE, p);
      CHECK (d < 10.0 && d < field_d / 4.0,
             "grid %d: the minima's dispersion %.1f (the field's %.1f)", p, d, field_d);
      printf ("grid %d: the minima's dispersion %.1f, the infinite field's %.1f\n", p, d,
              field_d);
    }
  free (f), free (midpoint);
}

static void
test_invalid (void)
{
  float out[4] = { -7.0f, -7.0f, -7.0f, -7.0f };
  CHECK (terrain_spline_noise (0, -1, 1.0, out, 2, 2, NULL) == TERRAIN_ERROR_INVALID, "N -1");
  CHECK (terrain_spline_noise (0, TERRAIN_SPLINE_NOISE_MAX_LEVELS + 1, 1.0, out, 2, 2, NULL)
           == TERRAIN_ERROR_INVALID, "N too large");
  CHECK (terrain_spline_noise (0, 3, NAN, out, 2, 2, NULL) == TERRAIN_ERROR_INVALID, "H NaN");
  CHECK (terrain_spline_noise (0, 3, 2.5, out, 2, 2, NULL) == TERRAIN_ERROR_INVALID, "H 2.5");
  CHECK (terrain_spline_noise (0, 3, 1.0, out, 0, 2, NULL) == TERRAIN_ERROR_INVALID, "width 0");
  CHECK (out[0] == -7.0f && out[3] == -7.0f, "output written on an error");
}

int
main (void)
{
  test_strips_and_runs ();
  test_spread ();
  test_roughness ();
  test_no_lattice ();
  test_invalid ();
  return CHECK_DONE ("spline-noise");
}
