/* River erosion's hillslope diffusion (river-diffusion.c) against a dense solve in long
 * double of the same split implicit step, on open and wrapped maps, for coefficients from
 * below a pixel's to those the analytical method reaches at its longest ages (10^13 at
 * 8192 x 8192): the same heights, finite, no new maximum or minimum, the mean kept on a
 * wrapped map (no roots), and a wrapped map flattened to its mean by a huge coefficient. */
#include "check.h"

#include "river-internal.h"

#include <math.h>
#include <stdlib.h>

/* The heights, in [0, 1) times `scale`, from a fixed LCG. */
static void
fill (float *h, size_t n, float scale, uint32_t seed)
{
  for (size_t i = 0; i < n; i++)
    {
      seed = seed * 1664525u + 1013904223u;
      h[i] = scale * (float) (seed >> 8) / 16777216.0f;
    }
}

/* Solves the n x n system of one line, in place, by Gaussian elimination with partial
 * pivoting in long double (the rings of the largest coefficients have condition numbers
 * near 4 k): (1 + 2k) x_i - k (x_(i-1) + x_(i+1)) = d_i, neighbours around the ring when
 * `ring`, else the ends fixed (x = d). */
static void
dense_line (long double *d, int n, double k, int ring)
{
  long double *m = calloc ((size_t) n * n, sizeof (long double));
  for (int i = 0; i < n; i++)
    {
      if (! ring && (i == 0 || i == n - 1))
        {
          m[(size_t) i * n + i] = 1.0L;
          continue;
        }
      m[(size_t) i * n + i] += 1.0L + 2.0L * k;
      m[(size_t) i * n + (i + n - 1) % n] -= k;
      m[(size_t) i * n + (i + 1) % n] -= k;
    }
  for (int c = 0; c < n; c++)
    {
      int best = c;
      for (int r = c + 1; r < n; r++)
        best = fabsl (m[(size_t) r * n + c]) > fabsl (m[(size_t) best * n + c]) ? r : best;
      for (int j = 0; j < n; j++)
        {
          const long double t = m[(size_t) c * n + j];
          m[(size_t) c * n + j] = m[(size_t) best * n + j];
          m[(size_t) best * n + j] = t;
        }
      const long double t = d[c];
      d[c] = d[best];
      d[best] = t;
      for (int r = c + 1; r < n; r++)
        {
          const long double f = m[(size_t) r * n + c] / m[(size_t) c * n + c];
          for (int j = c; j < n; j++)
            m[(size_t) r * n + j] -= f * m[(size_t) c * n + j];
          d[r] -= f * d[c];
        }
    }
  for (int r = n - 1; r >= 0; r--)
    {
      for (int j = r + 1; j < n; j++)
        d[r] -= m[(size_t) r * n + j] * d[j];
      d[r] /= m[(size_t) r * n + r];
    }
  free (m);
}

/* Every line of one direction of a map of n cells: `lines` lines of `length` cells, line l's
 * cell i at l * line_step + i * cell_step (lines under 3 cells left as they are); then the
 * roots (`root`) get their heights back. */
static void
dense_direction (long double *h, const uint8_t *root, size_t n, int lines, int length,
                 size_t line_step, size_t cell_step, double k, int ring)
{
  long double *line = malloc ((size_t) length * sizeof (long double));
  long double *before = malloc (n * sizeof (long double));
  memcpy (before, h, n * sizeof (long double));
  for (int l = 0; l < lines && length >= 3; l++)
    {
      for (int i = 0; i < length; i++)
        line[i] = h[l * line_step + i * cell_step];
      dense_line (line, length, k, ring);
      for (int i = 0; i < length; i++)
        h[l * line_step + i * cell_step] = line[i];
    }
  for (size_t i = 0; i < n; i++)
    h[i] = root[i] ? before[i] : h[i];
  free (before);
  free (line);
}

/* The step in long double: every row's line, then every column's. */
static void
dense_step (long double *h, const uint8_t *root, int w, int hgt, double k, int ring)
{
  const size_t n = (size_t) w * hgt;
  dense_direction (h, root, n, hgt, w, (size_t) w, 1, k, ring);
  dense_direction (h, root, n, w, hgt, 1, (size_t) w, k, ring);
}

/* One step on a w x hgt map of heights up to `scale`; the dense reference when `dense`. */
static void
check_step (int w, int hgt, int wrap, double k, float scale, int dense)
{
  const size_t n = (size_t) w * hgt;
  RiverGrid    g;
  memset (&g, 0, sizeof g);
  river_grid_init (&g, w, hgt, wrap);
  g.strips = hgt < 4 ? hgt : 4;
  g.h = malloc (n * sizeof (float));
  g.direction = malloc (n);
  float  *input = malloc (n * sizeof (float));
  long double *expected = malloc (n * sizeof (long double));
  uint8_t     *root = malloc (n);
  fill (input, n, scale, (uint32_t) (w * 131 + hgt));
  memcpy (g.h, input, n * sizeof (float));
  double lo = INFINITY, hi = -INFINITY, mean = 0.0;
  for (size_t i = 0; i < n; i++)
    {
      const int x = (int) (i % w), y = (int) (i / w);
      const int border = x == 0 || y == 0 || x == w - 1 || y == hgt - 1;
      root[i] = ! wrap && border; /* an open map's border: outlets */
      g.direction[i] = root[i] ? RIVER_NONE : 0;
      expected[i] = input[i];
      lo = fmin (lo, input[i]);
      hi = fmax (hi, input[i]);
      mean += input[i];
    }
  mean /= (double) n;

  RiverDiffusion d;
  CHECK (river_diffusion_init (&d, &g, k) == TERRAIN_OK, "init %dx%d", w, hgt);
  river_diffuse (&d, &g, NULL);
  if (dense)
    dense_step (expected, root, w, hgt, k, wrap);

  size_t bad = 0, outside = 0;
  double worst = 0.0, after = 0.0, flat_lo = INFINITY, flat_hi = -INFINITY;
  const double slack = 1e-6 * scale;
  for (size_t i = 0; i < n; i++)
    {
      const double v = g.h[i];
      bad += ! isfinite (v);
      outside += v < lo - slack || v > hi + slack;
      worst = fmax (worst, fabs (v - (double) expected[i]));
      after += v;
      flat_lo = fmin (flat_lo, v);
      flat_hi = fmax (flat_hi, v);
    }
  after /= (double) n;
  const char *edges = wrap ? "wrapped" : "open";
  CHECK (bad == 0, "%s %dx%d k %g: %zu heights not finite", edges, w, hgt, k, bad);
  CHECK (outside == 0, "%s %dx%d k %g: %zu heights outside the input's range", edges, w, hgt, k,
         outside);
  if (dense)
    CHECK (worst <= 1e-5 * scale, "%s %dx%d k %g: off the dense solve by %g (of %g)", edges, w,
           hgt, k, worst, (double) scale);
  if (wrap)
    {
      CHECK (fabs (after - mean) <= 1e-5 * scale, "wrapped %dx%d k %g: mean %.9g, was %.9g", w,
             hgt, k, after, mean);
      /* The slowest pattern keeps 1 / (1 + 4 k sin^2 (pi / side)) of itself. */
      const int    side = w > hgt ? w : hgt;
      const double keeps = 1.0 / (1.0 + 4.0 * k * pow (sin (acos (-1.0) / side), 2.0));
      if (keeps < 1e-7 && w >= 3 && hgt >= 3)
        CHECK (flat_hi - flat_lo <= 1e-5 * scale, "wrapped %dx%d k %g: not flat: %.9g..%.9g", w,
               hgt, k, flat_lo, flat_hi);
    }
  river_diffusion_free (&d);
  free (g.h);
  free (g.direction);
  free (input);
  free (expected);
  free (root);
}

int
main (void)
{
  static const double k[] = { 0.3, 1.0, 100.0, 1e4, 1e6, 1e8, 1e9, 1e11, 1e13 };
  static const int    sizes[][2] = { { 3, 3 }, { 7, 5 }, { 64, 9 }, { 4, 61 }, { 2, 17 } };
  for (int wrap = 0; wrap < 2; wrap++)
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
      for (size_t c = 0; c < sizeof k / sizeof k[0]; c++)
        {
          check_step (sizes[s][0], sizes[s][1], wrap, k[c], 1.0f, 1);
          /* The largest heights a run works on (river-erosion.c scales larger maps down). */
          check_step (sizes[s][0], sizes[s][1], wrap, k[c], 0x1p64f, 1);
        }
  /* The fuzzer's shape: long rows over few (it found infinite heights at 1793 x 4). */
  for (size_t c = 0; c < sizeof k / sizeof k[0]; c++)
    for (int wrap = 0; wrap < 2; wrap++)
      check_step (1793, 4, wrap, k[c], 1.0f, 0);
  return CHECK_DONE ("river-diffusion");
}
