/* Statistics and comparisons of heightmaps that unit tests assert on (header-only, test code). */
#ifndef TERRAIN_FIELD_STATS_H
#define TERRAIN_FIELD_STATS_H

#include <math.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

/* A malloc'ed copy of a w x h field. */
static inline float *
copy_field (const float *src, int w, int h)
{
  float *f = malloc ((size_t) w * h * sizeof (float));
  memcpy (f, src, (size_t) w * h * sizeof (float));
  return f;
}

/* Mean |h(x+1,y) - h(x,y)| and |h(x,y+1) - h(x,y)| over the interior. */
static inline double
mean_abs_gradient (const float *h, int w, int ht)
{
  double sum = 0.0;
  size_t n = 0;
  for (int y = 0; y + 1 < ht; y++)
    for (int x = 0; x + 1 < w; x++)
      {
        sum += fabs (h[(size_t) y * w + x + 1] - h[(size_t) y * w + x]);
        sum += fabs (h[(size_t) (y + 1) * w + x] - h[(size_t) y * w + x]);
        n += 2;
      }
  return n ? sum / n : 0.0;
}

/* E[(h(x+d,y) - h(x,y))^2], averaged over both axes, for a lag d. */
static inline double
structure_function (const float *h, int w, int ht, int d)
{
  double sum = 0.0;
  size_t n = 0;
  for (int y = 0; y < ht; y++)
    for (int x = 0; x + d < w; x++)
      {
        double a = h[(size_t) y * w + x + d] - h[(size_t) y * w + x];
        sum += a * a;
        n++;
      }
  for (int y = 0; y + d < ht; y++)
    for (int x = 0; x < w; x++)
      {
        double a = h[(size_t) (y + d) * w + x] - h[(size_t) y * w + x];
        sum += a * a;
        n++;
      }
  return n ? sum / n : 0.0;
}

/* Least-squares slope of log S(d) against log d over lags d0, 2*d0, ... <= d1. */
static inline double
structure_slope (const float *h, int w, int ht, int d0, int d1)
{
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int n = 0;
  for (int d = d0; d <= d1; d *= 2)
    {
      double x = log ((double) d), y = log (structure_function (h, w, ht, d));
      sx += x; sy += y; sxx += x * x; sxy += x * y;
      n++;
    }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

static inline double
field_mean (const float *h, size_t n)
{
  double s = 0.0;
  for (size_t i = 0; i < n; i++)
    s += h[i];
  return s / (double) n;
}

static inline double
field_variance (const float *h, size_t n)
{
  double m = field_mean (h, n), s = 0.0;
  for (size_t i = 0; i < n; i++)
    s += (h[i] - m) * (h[i] - m);
  return s / (double) n;
}

static inline int
fields_equal (const float *a, const float *b, size_t n)
{
  return memcmp (a, b, n * sizeof (float)) == 0;
}

/* Shared-edge maps (terrain-common.h): the last column and row of a w x h map are its first,
 * bit for bit. */
static inline int
shared_edges_equal (const float *v, int w, int h)
{
  for (int y = 0; y < h; y++)
    if (memcmp (v + (size_t) y * w + w - 1, v + (size_t) y * w, sizeof (float)) != 0)
      return 0;
  return memcmp (v + (size_t) (h - 1) * w, v, (size_t) w * sizeof (float)) == 0;
}

/* A new copy of the period block of a shared-edge w x h map: (w - 1) x (h - 1), a side of 1
 * staying 1. */
static inline float *
period_block (const float *v, int w, int h, int *pw, int *ph)
{
  *pw = w > 1 ? w - 1 : 1;
  *ph = h > 1 ? h - 1 : 1;
  float *block = malloc ((size_t) *pw * *ph * sizeof (float));
  for (int y = 0; y < *ph; y++)
    memcpy (block + (size_t) y * *pw, v + (size_t) y * w, (size_t) *pw * sizeof (float));
  return block;
}

/* Pixels where a and b differ (a NaN counts as differing). */
static inline size_t
count_differing (const float *a, const float *b, size_t n)
{
  size_t differ = 0;
  for (size_t i = 0; i < n; i++)
    differ += a[i] != b[i];
  return differ;
}

/* Box blur of radius r (mean over the (2r+1)^2 window, clipped at the borders), separable. */
static inline void
box_blur (const float *h, int w, int ht, int r, float *out)
{
  double *tmp = malloc ((size_t) w * ht * sizeof (double));
  for (int y = 0; y < ht; y++)
    for (int x = 0; x < w; x++)
      {
        double sum = 0.0;
        int    n = 0;
        for (int d = -r; d <= r; d++)
          if (x + d >= 0 && x + d < w)
            sum += h[(size_t) y * w + x + d], n++;
        tmp[(size_t) y * w + x] = sum / n;
      }
  for (int y = 0; y < ht; y++)
    for (int x = 0; x < w; x++)
      {
        double sum = 0.0;
        int    n = 0;
        for (int d = -r; d <= r; d++)
          if (y + d >= 0 && y + d < ht)
            sum += tmp[(size_t) (y + d) * w + x], n++;
        out[(size_t) y * w + x] = (float) (sum / n);
      }
  free (tmp);
}

/* A smooth Gaussian bump (peak 0.9 over a base of 0.2, standard radius `radius`) centred
 * at (cx, cy) of a w x h guide. */
static inline float *
gaussian_blob (int w, int h, double cx, double cy, double radius)
{
  float *g = malloc ((size_t) w * h * sizeof (float));
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        const double d2 = (x - cx) * (x - cx) + (y - cy) * (y - cy);
        g[(size_t) y * w + x] = (float) (0.2 + 0.7 * exp (-d2 / (2.0 * radius * radius)));
      }
  return g;
}

/* Pearson correlation of two maps of n values. */
static inline double
correlation (const float *a, const float *b, size_t n)
{
  double ma = field_mean (a, n), mb = field_mean (b, n), sab = 0, saa = 0, sbb = 0;
  for (size_t i = 0; i < n; i++)
    {
      sab += (a[i] - ma) * (b[i] - mb);
      saa += (a[i] - ma) * (a[i] - ma);
      sbb += (b[i] - mb) * (b[i] - mb);
    }
  return sab / sqrt (saa * sbb);
}

/* Mean |gradient| of what a box blur of radius r leaves: the fine-scale roughness. */
static inline double
fine_roughness (const float *h, int w, int ht, int r)
{
  float *low = malloc ((size_t) w * ht * sizeof (float));
  box_blur (h, w, ht, r, low);
  for (size_t i = 0; i < (size_t) w * ht; i++)
    low[i] = h[i] - low[i];
  double g = mean_abs_gradient (low, w, ht);
  free (low);
  return g;
}

/* E[(h(p + (dx, dy)) - h(p))^2] over every p where both points are inside. */
static inline double
lag_energy (const float *h, int w, int ht, int dx, int dy)
{
  double sum = 0.0;
  size_t n = 0;
  for (int y = dy < 0 ? -dy : 0; y < ht && y + dy < ht; y++)
    for (int x = 0; x + dx < w; x++)
      {
        const double d = h[(size_t) (y + dy) * w + x + dx] - h[(size_t) y * w + x];
        sum += d * d;
        n++;
      }
  return n ? sum / n : 0.0;
}

/* Crease measure: the energy of height differences along the axes over that along the
 * diagonals, at equal distances (axis lags 7, 17, 41 against diagonal lags 5, 12, 29:
 * lengths within 1%), so the answer is 1 for any isotropic field whatever its roughness.
 * Diamond-square's axis-aligned creases (Miller 1986) push it away from 1. */
static inline double
axis_to_diagonal_energy (const float *h, int w, int ht)
{
  static const int axis[3] = { 7, 17, 41 }, diagonal[3] = { 5, 12, 29 };
  double axes = 0.0, diagonals = 0.0;
  for (int k = 0; k < 3; k++)
    {
      axes += lag_energy (h, w, ht, axis[k], 0) + lag_energy (h, w, ht, 0, axis[k]);
      diagonals += lag_energy (h, w, ht, diagonal[k], diagonal[k]) +
                   lag_energy (h, w, ht, diagonal[k], -diagonal[k]);
    }
  return axes / diagonals;
}

#endif
