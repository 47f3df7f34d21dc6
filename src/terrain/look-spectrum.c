/* The look's spectral slope beta (look.h): the radially averaged power spectrum of the map,
 * its mean taken out, under a Hann window, and the fit of log P against log k.
 *
 * The 2D transform is a 1D transform of every row, then of every column. A side that is a
 * power of two is transformed by an iterative radix-2 FFT; any other side by Bluestein's
 * chirp z-transform (the DFT of n points as a convolution, made by radix-2 FFTs of a power of
 * two at least 2n - 1), so a 647 x 647 DEM costs about what a 2048 x 2048 map does. */
#include "look-internal.h"
#include "terrain-common.h"

#include <math.h>
#include <string.h>

/* beta's fit: 4 <= k <= min (width, height) / BETA_K_DIVISOR. */
#define BETA_K_FIRST   4
#define BETA_K_DIVISOR 4

/* A transform of n points: m = n when n is a power of two, else Bluestein's length, with its
 * twiddles (m / 2), the chirp (n) and the transformed conjugate chirp (m). */
typedef struct
{
  size_t  n, m;
  double *cos_t, *sin_t;
  double *chirp_re, *chirp_im, *kernel_re, *kernel_im;
  double *re, *im; /* scratch of m */
} Fft;

/* In-place radix-2 FFT of m points (a power of two), forward, or inverse without 1/m. */
static void
fft_radix2 (const Fft *f, double *re, double *im, int inverse)
{
  const size_t m = f->m;
  for (size_t i = 1, j = 0; i < m; i++)
    {
      size_t bit = m >> 1;
      for (; j & bit; bit >>= 1)
        j ^= bit;
      j ^= bit;
      if (i < j)
        {
          double t = re[i]; re[i] = re[j]; re[j] = t;
          t = im[i]; im[i] = im[j]; im[j] = t;
        }
    }
  for (size_t len = 2; len <= m; len <<= 1)
    for (size_t start = 0; start < m; start += len)
      for (size_t k = 0; k < len / 2; k++)
        {
          const size_t t = k * (m / len), a = start + k, b = a + len / 2;
          const double wr = f->cos_t[t], wi = inverse ? f->sin_t[t] : -f->sin_t[t];
          const double xr = re[b] * wr - im[b] * wi, xi = re[b] * wi + im[b] * wr;
          re[b] = re[a] - xr, im[b] = im[a] - xi;
          re[a] += xr, im[a] += xi;
        }
}

static void
fft_free (Fft *f)
{
  terrain_free (f->cos_t);
  memset (f, 0, sizeof *f);
}

/* Bluestein's chirp exp (-i pi k^2 / n), and its conjugate wrapped around m, transformed. */
static void
fft_chirp (Fft *f)
{
  const size_t n = f->n, m = f->m;
  memset (f->kernel_re, 0, 2 * m * sizeof (double));
  for (size_t k = 0; k < n; k++)
    {
      const double a = LOOK_PI * (double) ((k * k) % (2 * n)) / (double) n;
      f->chirp_re[k] = cos (a), f->chirp_im[k] = -sin (a);
      f->kernel_re[k] = cos (a), f->kernel_im[k] = sin (a);
      if (k > 0)
        f->kernel_re[m - k] = cos (a), f->kernel_im[m - k] = sin (a);
    }
  fft_radix2 (f, f->kernel_re, f->kernel_im, 0);
}

static TerrainStatus
fft_plan (Fft *f, size_t n)
{
  size_t m = 1;
  memset (f, 0, sizeof *f);
  while (m < n)
    m <<= 1;
  if (m != n)
    while (m < 2 * n - 1)
      m <<= 1;
  /* One block: twiddles (m), chirp (2n), kernel (2m), scratch (2m). */
  double *block = terrain_calloc (5 * m + 2 * n, sizeof (double));
  if (block == NULL)
    return TERRAIN_ERROR_NO_MEMORY;
  *f = (Fft) { .n = n, .m = m, .cos_t = block, .sin_t = block + m / 2,
               .chirp_re = block + m, .chirp_im = block + m + n,
               .kernel_re = block + m + 2 * n, .kernel_im = block + 2 * m + 2 * n,
               .re = block + 3 * m + 2 * n, .im = block + 4 * m + 2 * n };
  for (size_t t = 0; t < m / 2; t++)
    f->cos_t[t] = cos (2.0 * LOOK_PI * t / m), f->sin_t[t] = sin (2.0 * LOOK_PI * t / m);
  if (m != n)
    fft_chirp (f);
  return TERRAIN_OK;
}

/* The forward DFT of the n points re, im, in place. */
static void
fft_line (const Fft *f, double *re, double *im)
{
  const size_t n = f->n, m = f->m;
  double      *a = f->re, *b = f->im;
  memset (a, 0, m * sizeof (double));
  memset (b, 0, m * sizeof (double));
  for (size_t k = 0; k < n; k++)
    if (m == n)
      a[k] = re[k], b[k] = im[k];
    else
      {
        const double cr = f->chirp_re[k], ci = f->chirp_im[k];
        const double xr = re[k], xi = im[k];
        a[k] = xr * cr - xi * ci, b[k] = xr * ci + xi * cr;
      }
  fft_radix2 (f, a, b, 0);
  if (m != n)
    {
      for (size_t k = 0; k < m; k++)
        {
          const double xr = a[k] * f->kernel_re[k] - b[k] * f->kernel_im[k];
          b[k] = a[k] * f->kernel_im[k] + b[k] * f->kernel_re[k];
          a[k] = xr;
        }
      fft_radix2 (f, a, b, 1);
    }
  for (size_t k = 0; k < n; k++)
    {
      const double scale = m == n ? 1.0 : 1.0 / (double) m;
      const double cr = m == n ? 1.0 : f->chirp_re[k], ci = m == n ? 0.0 : f->chirp_im[k];
      re[k] = scale * (a[k] * cr - b[k] * ci);
      im[k] = scale * (a[k] * ci + b[k] * cr);
    }
}

/* Columns are transformed this many at a time, copied out row by row into lines of their
 * own: read one by one down the map, each would load a cache line for every height. */
#define COLUMN_BLOCK 8

/* The forward DFT of every column of a w x hh map; block holds 2 * COLUMN_BLOCK * hh. */
static void
fft_columns (const Fft *f, double *re, double *im, int w, int hh, double *block)
{
  double *bre = block, *bim = block + (size_t) COLUMN_BLOCK * hh;
  for (int x0 = 0; x0 < w; x0 += COLUMN_BLOCK)
    {
      const int cols = w - x0 < COLUMN_BLOCK ? w - x0 : COLUMN_BLOCK;
      for (int pass = 0; pass < 2; pass++)
        {
          for (int y = 0; y < hh; y++)
            for (int c = 0; c < cols; c++)
              {
                const size_t i = (size_t) y * w + x0 + c, b = (size_t) c * hh + y;
                if (pass)
                  re[i] = bre[b], im[i] = bim[b];
                else
                  bre[b] = re[i], bim[b] = im[i];
              }
          for (int c = 0; ! pass && c < cols; c++)
            fft_line (f, bre + (size_t) c * hh, bim + (size_t) c * hh);
        }
    }
}

/* The Hann window of n points (zero at both ends). */
static double
hann (size_t i, size_t n)
{
  return 0.5 - 0.5 * cos (2.0 * LOOK_PI * (double) i / (double) (n - 1));
}

/* The map rescaled, its mean taken out, windowed, transformed: power into re. */
static TerrainStatus
power_spectrum (const float *h, int w, int hh, const LookRelief *r, double *re, double *im)
{
  const size_t n = (size_t) w * hh;
  double       mean = 0.0;
  for (size_t i = 0; i < n; i++)
    mean += h[i];
  mean /= (double) n;
  for (int y = 0; y < hh; y++)
    for (int x = 0; x < w; x++)
      {
        const size_t i = (size_t) y * w + x;
        re[i] = r->scale * (h[i] - mean) * hann ((size_t) x, (size_t) w) *
                hann ((size_t) y, (size_t) hh);
        im[i] = 0.0;
      }
  Fft     f;
  double *block = terrain_alloc (2 * COLUMN_BLOCK * (size_t) hh * sizeof (double));
  if (block == NULL || fft_plan (&f, (size_t) w) != TERRAIN_OK)
    return terrain_free (block), TERRAIN_ERROR_NO_MEMORY;
  for (int y = 0; y < hh; y++)
    fft_line (&f, re + (size_t) y * w, im + (size_t) y * w);
  fft_free (&f);
  const TerrainStatus status = fft_plan (&f, (size_t) hh);
  if (status == TERRAIN_OK)
    fft_columns (&f, re, im, w, hh, block);
  fft_free (&f);
  terrain_free (block);
  if (status != TERRAIN_OK)
    return status;
  for (size_t i = 0; i < n; i++)
    re[i] = re[i] * re[i] + im[i] * im[i];
  return TERRAIN_OK;
}

/* The fit of log P = c - beta log k over the radial bins k (cycles across the map, rounded),
 * BETA_K_FIRST <= k <= min (w, h) / BETA_K_DIVISOR; power in p, bins' sums in sum/count. */
static double
fit_beta (const double *p, int w, int hh, double *sum, double *count)
{
  const int last = (w < hh ? w : hh) / BETA_K_DIVISOR;
  for (int y = 0; y < hh; y++)
    for (int x = 0; x < w; x++)
      {
        const int    kx = x <= w / 2 ? x : x - w, ky = y <= hh / 2 ? y : y - hh;
        const double k = sqrt ((double) kx * kx + (double) ky * ky);
        const int    bin = (int) k;
        if (bin >= BETA_K_FIRST && bin <= last)
          sum[bin] += p[(size_t) y * w + x], count[bin] += 1.0;
      }
  double sx = 0, sy = 0, sxx = 0, sxy = 0, n = 0;
  for (int k = BETA_K_FIRST; k <= last; k++)
    if (count[k] > 0.0 && sum[k] > 0.0)
      {
        const double lx = log ((double) k), ly = log (sum[k] / count[k]);
        sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly, n += 1.0;
      }
  const double d = n * sxx - sx * sx;
  return n >= 2.0 && d > 0.0 ? -(n * sxy - sx * sy) / d : 0.0;
}

TerrainStatus
look_beta (const float *heights, int width, int height, const LookRelief *relief, double *beta)
{
  if (relief->scale == 0.0)
    return *beta = 0.0, TERRAIN_OK;
  const size_t n = (size_t) width * height;
  const int    bins = (width < height ? width : height) / BETA_K_DIVISOR + 1;
  double      *re = terrain_alloc (n * sizeof (double));
  double      *im = terrain_alloc (n * sizeof (double));
  double      *sums = terrain_calloc (2 * (size_t) bins, sizeof (double));
  TerrainStatus status = re && im && sums ? TERRAIN_OK : TERRAIN_ERROR_NO_MEMORY;
  if (status == TERRAIN_OK)
    status = power_spectrum (heights, width, height, relief, re, im);
  if (status == TERRAIN_OK)
    *beta = fit_beta (re, width, height, sums, sums + bins);
  terrain_free (re);
  terrain_free (im);
  terrain_free (sums);
  return status;
}
