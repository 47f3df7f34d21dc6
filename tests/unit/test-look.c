/* The look figures (look.h) on maps whose figures are known by construction: a round bump
 * is isotropic and smooth, 45-degree grooves are aligned with the grid, noise is grain, a
 * surface synthesised with a power spectrum k^-beta has that beta (on a power-of-two side,
 * through the radix-2 FFT, and on other sides, through Bluestein's), a cone has no pit and
 * holes dug in it are pits, and rivers at the steady state of the stream power law with
 * m = 0.5, n = 1 have theta 0.5. */
#include "check.h"
#include "look.h"
#include "random.h"
#include "river-erosion.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

static float *
map (int w, int h)
{
  return malloc ((size_t) w * h * sizeof (float));
}

/* A round Gaussian bump of radius w / 6 in the middle. */
static float *
bump (int w, int h)
{
  float *f = map (w, h);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        const double dx = x - 0.5 * (w - 1), dy = y - 0.5 * (h - 1), s = w / 6.0;
        f[(size_t) y * w + x] = (float) exp (-(dx * dx + dy * dy) / (2.0 * s * s));
      }
  return f;
}

static TerrainLook
measure (const float *f, int w, int h)
{
  TerrainLook l = { 0 };
  CHECK (terrain_look_measure (f, w, h, &l) == TERRAIN_OK, "measure %dx%d", w, h);
  CHECK (isfinite (l.aniso45) && isfinite (l.speckle) && isfinite (l.beta) &&
         isfinite (l.theta) && isfinite (l.theta_r2) && isfinite (l.pits), "finite figures");
  return l;
}

static void
test_alignment (void)
{
  const int w = 128, h = 128;
  float    *round = bump (w, h), *grooves = map (w, h), *axis = map (w, h);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        grooves[(size_t) y * w + x] = (float) sin (2.0 * PI * (x + y) / 16.0);
        axis[(size_t) y * w + x] = (float) sin (2.0 * PI * x / 16.0);
      }
  const TerrainLook b = measure (round, w, h), g = measure (grooves, w, h);
  const TerrainLook a = measure (axis, w, h);
  printf ("aniso45: round bump %.3f, 45-degree grooves %.3f, grooves along x %.3f\n",
          b.aniso45, g.aniso45, a.aniso45);
  CHECK (fabs (b.aniso45 - 1.0) < 0.1, "a round bump is isotropic: %g", b.aniso45);
  CHECK (g.aniso45 > 10.0, "45-degree grooves are aligned: %g", g.aniso45);
  CHECK (a.aniso45 > 10.0, "grooves along x are aligned: %g", a.aniso45);
  free (round), free (grooves), free (axis);
}

static void
test_speckle (void)
{
  const int   w = 128, h = 128;
  float      *f = bump (w, h);
  TerrainRng  rng;
  const TerrainLook smooth = measure (f, w, h);
  terrain_rng_init (&rng, 7, 0);
  for (size_t i = 0; i < (size_t) w * h; i++)
    f[i] += (float) (0.01 * (terrain_rng_unit (&rng) - 0.5));
  const TerrainLook noisy = measure (f, w, h);
  printf ("speckle: round bump %.2f, with 1 %% white noise %.2f\n", smooth.speckle,
          noisy.speckle);
  CHECK (smooth.speckle > 0.8 && smooth.speckle < 1.5, "a smooth bump has no grain: %g",
         smooth.speckle);
  CHECK (noisy.speckle > 3.0 * smooth.speckle, "noise is grain: %g", noisy.speckle);
  free (f);
}

/* A w x h surface whose power falls as k^-beta (random phases, modes up to k = 48, k in
 * cycles across the map), made as a sum of waves one row table at a time. */
static float *
power_law (int w, int h, double beta, uint32_t seed)
{
  enum { K = 48 };
  float     *f = map (w, h);
  double    *c = malloc ((size_t) w * sizeof (double)), *s = malloc ((size_t) w * sizeof (double));
  TerrainRng rng;
  terrain_rng_init (&rng, seed, 0);
  for (size_t i = 0; i < (size_t) w * h; i++)
    f[i] = 0.0f;
  for (int ky = -K; ky <= K; ky++)
    for (int kx = 0; kx <= K; kx++)
      {
        const double k = hypot (kx, ky), phase = 2.0 * PI * terrain_rng_unit (&rng);
        if (k < 1.0 || k > K || (kx == 0 && ky < 0))
          continue;
        const double a = pow (k, -0.5 * beta);
        for (int x = 0; x < w; x++)
          {
            const double t = 2.0 * PI * kx * x / w + phase;
            c[x] = a * cos (t), s[x] = a * sin (t);
          }
        for (int y = 0; y < h; y++)
          {
            const double cy = cos (2.0 * PI * ky * y / h), sy = sin (2.0 * PI * ky * y / h);
            for (int x = 0; x < w; x++)
              f[(size_t) y * w + x] += (float) (c[x] * cy - s[x] * sy);
          }
      }
  free (c), free (s);
  return f;
}

static void
test_beta (void)
{
  static const int    sizes[][2] = { { 128, 128 }, { 150, 131 }, { 200, 128 } };
  static const double betas[] = { 2.0, 3.0, 4.0 };
  for (int s = 0; s < 3; s++)
    for (int b = 0; b < 3; b++)
      {
        const int w = sizes[s][0], h = sizes[s][1];
        float    *f = power_law (w, h, betas[b], (uint32_t) (10 * s + b));
        double    beta = 0.0;
        CHECK (terrain_look_beta (f, w, h, &beta) == TERRAIN_OK, "beta %dx%d", w, h);
        printf ("beta: surface of beta %.1f at %dx%d: %.3f\n", betas[b], w, h, beta);
        CHECK (fabs (beta - betas[b]) < 0.2, "%dx%d: beta %g, made with %g", w, h, beta,
               betas[b]);
        free (f);
      }
}

static void
test_pits (void)
{
  const int w = 64, h = 48;
  float    *f = map (w, h);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      f[(size_t) y * w + x] = (float) (1.0 - 0.01 * hypot (x - 31.3, y - 22.7));
  double pits = -1.0;
  CHECK (terrain_look_pits (f, w, h, &pits) == TERRAIN_OK && pits == 0.0, "a cone: %g", pits);
  static const int holes[][2] = { { 5, 5 }, { 40, 10 }, { 20, 30 }, { 50, 40 }, { 31, 22 } };
  for (int k = 0; k < 5; k++)
    f[(size_t) holes[k][1] * w + holes[k][0]] -= 0.05f;
  const double want = 100.0 * 5 / ((w - 2) * (h - 2));
  CHECK (terrain_look_pits (f, w, h, &pits) == TERRAIN_OK && fabs (pits - want) < 1e-9,
         "5 holes: %g %%, want %g", pits, want);
  /* A hole on the border drains off the map: no pit. */
  f[3] -= 0.5f;
  CHECK (terrain_look_pits (f, w, h, &pits) == TERRAIN_OK && fabs (pits - want) < 1e-9,
         "a hole on the border: %g %%", pits);
  /* A flat sea at the lowest height drains like the border: its cells are no pits. */
  for (int y = 30; y < h; y++)
    for (int x = 0; x < w; x++)
      f[(size_t) y * w + x] = -1.0f;
  const double above = 100.0 * 3 / ((w - 2) * (h - 2)); /* the holes left above the sea */
  CHECK (terrain_look_pits (f, w, h, &pits) == TERRAIN_OK && fabs (pits - above) < 1e-9,
         "a sea: %g %%, want %g", pits, above);
  free (f);
}

/* A lake of radius r around (cx, cy) drained as River Erosion drains one: level with its
 * lowest shore cell, plus `step` for each pixel of distance to it. */
static void
drain_lake (float *f, int side, int cx, int cy, int r, float step)
{
  int ox = cx + r, oy = cy;
  for (int y = cy - r - 1; y <= cy + r + 1; y++)
    for (int x = cx - r - 1; x <= cx + r + 1; x++)
      {
        const double d = hypot (x - cx, y - cy);
        if (d >= r && d < r + 1 && f[(size_t) y * side + x] < f[(size_t) oy * side + ox])
          ox = x, oy = y;
      }
  const float shore = f[(size_t) oy * side + ox];
  for (int y = cy - r; y <= cy + r; y++)
    for (int x = cx - r; x <= cx + r; x++)
      if (hypot (x - cx, y - cy) < r)
        f[(size_t) y * side + x] = shore + step * (float) (1.0 + hypot (x - ox, y - oy));
}

/* Uniform uplift on an open map until the landscape stops changing: along the channels
 * S = (U / K) A^-m, so theta = m. */
static void
test_theta (void)
{
  const int side = 128;
  float    *f = map (side, side);
  for (int i = 0; i < side * side; i++)
    f[i] = 0.5f;
  TerrainRiverErosion p;
  terrain_river_erosion_defaults (&p);
  p.method = TERRAIN_RIVER_METHOD_SIMULATE;
  p.iterations = 500, p.erosion = 2.0, p.diffusion = 0.0;
  p.area_exponent = 0.5, p.slope_exponent = 1.0;
  p.uplift = TERRAIN_RIVER_UPLIFT_LAYER;
  CHECK (terrain_river_erosion (&p, f, side, side, NULL, NULL) == TERRAIN_OK, "river erosion");
  const TerrainLook l = measure (f, side, side);
  printf ("theta: steady state of m = 0.5, n = 1: %.3f (r^2 %.3f), pits %.2f %%\n", l.theta,
          l.theta_r2, l.pits);
  CHECK (fabs (l.theta - 0.5) < 0.05, "theta %g, want 0.5", l.theta);
  CHECK (l.theta_r2 > 0.9, "r^2 %g", l.theta_r2);
  CHECK (l.pits == 0.0, "pits %g", l.pits);
  /* Lakes drained by a tenth of a 16-bit level of the relief a pixel: flats, which a 16-bit
   * layer holds level, left out of the fit like the fill's. */
  float *lakes = map (side, side);
  memcpy (lakes, f, (size_t) side * side * sizeof *f);
  float lo = f[0], hi = f[0];
  for (int i = 0; i < side * side; i++)
    lo = fminf (lo, f[i]), hi = fmaxf (hi, f[i]);
  for (int k = 0; k < 9; k++)
    drain_lake (lakes, side, 24 + 40 * (k % 3), 24 + 40 * (k / 3), 8, (hi - lo) / 655350.0f);
  const TerrainLook drained = measure (lakes, side, side);
  printf ("theta: the same with 9 lakes drained in float %.3f (r^2 %.3f), pits %.2f %%\n",
          drained.theta, drained.theta_r2, drained.pits);
  CHECK (fabs (drained.theta - 0.5) < 0.05 && drained.theta_r2 > 0.9 && drained.pits == 0.0,
         "lakes: theta %g (r^2 %g), pits %g", drained.theta, drained.theta_r2, drained.pits);
  free (lakes);
  /* Holes dug along the rivers: water passes through them as through lakes, the law holds. */
  for (int k = 0; k < 20; k++)
    f[(size_t) (20 + 4 * k) * side + 20 + 4 * k] -= 0.2f;
  const TerrainLook dug = measure (f, side, side);
  printf ("theta: the same with 20 holes dug %.3f (r^2 %.3f), pits %.2f %%\n", dug.theta,
          dug.theta_r2, dug.pits);
  CHECK (fabs (dug.theta - 0.5) < 0.05 && dug.theta_r2 > 0.9, "holes: theta %g (r^2 %g)",
         dug.theta, dug.theta_r2);
  CHECK (dug.pits > 0.0, "holes: pits %g", dug.pits);
  /* The same with a noise of pixel size: theta is not the law's. */
  TerrainRng rng;
  terrain_rng_init (&rng, 3, 0);
  for (int i = 0; i < side * side; i++)
    f[i] = (float) terrain_rng_unit (&rng);
  const TerrainLook noise = measure (f, side, side);
  printf ("theta: white noise %.3f (r^2 %.3f), pits %.2f %%\n", noise.theta, noise.theta_r2,
          noise.pits);
  CHECK (fabs (noise.theta - 0.5) > 0.2 || noise.theta_r2 < 0.5, "noise: theta %g (r^2 %g)",
         noise.theta, noise.theta_r2);
  CHECK (noise.pits > 5.0, "noise has pits: %g", noise.pits);
  free (f);
}

static void
test_bad_input (void)
{
  float      *f = bump (64, 64);
  TerrainLook l = { .aniso45 = -7.0 };
  CHECK (terrain_look_measure (f, 64, 16, &l) == TERRAIN_ERROR_INVALID && l.aniso45 == -7.0,
         "too small");
  CHECK (terrain_look_measure (NULL, 64, 64, &l) == TERRAIN_ERROR_INVALID, "no map");
  f[100] = NAN;
  CHECK (terrain_look_measure (f, 64, 64, &l) == TERRAIN_ERROR_INVALID && l.aniso45 == -7.0,
         "NaN");
  f[100] = INFINITY;
  CHECK (terrain_look_measure (f, 64, 64, &l) == TERRAIN_ERROR_INVALID, "infinite");
  for (int i = 0; i < 64 * 64; i++)
    f[i] = 0.25f;
  CHECK (terrain_look_measure (f, 64, 64, &l) == TERRAIN_OK && l.aniso45 == 1.0 &&
         l.speckle == 1.0 && l.beta == 0.0 && l.theta == 0.0 && l.theta_r2 == 0.0 &&
         l.pits == 0.0, "a flat map: %g %g %g %g %g %g", l.aniso45, l.speckle, l.beta,
         l.theta, l.theta_r2, l.pits);
  float *shade = map (64, 64);
  CHECK (terrain_look_hillshade (f, 64, 64, shade) == TERRAIN_OK &&
         fabs (shade[0] - sin (PI / 4.0)) < 1e-6, "a flat map shades as the light's sine");
  free (f), free (shade);
}

/* The figures do not depend on the heights' units: a map and the same map 1000 times as
 * tall, raised by 5, measure the same. */
static void
test_units (void)
{
  float *f = power_law (96, 80, 3.0, 99), *g = map (96, 80);
  for (int i = 0; i < 96 * 80; i++)
    g[i] = 1000.0f * f[i] + 5.0f;
  const TerrainLook a = measure (f, 96, 80), b = measure (g, 96, 80);
  CHECK (fabs (a.aniso45 - b.aniso45) < 1e-3 && fabs (a.speckle - b.speckle) < 1e-3 &&
         fabs (a.beta - b.beta) < 1e-3 && fabs (a.theta - b.theta) < 0.02,
         "units: %g %g %g %g against %g %g %g %g", a.aniso45, a.speckle, a.beta, a.theta,
         b.aniso45, b.speckle, b.beta, b.theta);
  free (f), free (g);
}

int
main (void)
{
  test_alignment ();
  test_speckle ();
  test_beta ();
  test_pits ();
  test_theta ();
  test_bad_input ();
  test_units ();
  return CHECK_DONE ("look");
}
