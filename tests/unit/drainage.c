/* Drainage recomputed from heights, independently of the library's river code: for the
 * river and landscape tests and the benchmark's quality figures. */
#include "drainage.h"

#include <math.h>
#include <stdlib.h>

static const int DX[8] = { 0, 0, -1, 1, -1, 1, 1, -1 };
static const int DY[8] = { -1, 1, 0, 0, -1, 1, -1, 1 };

/* The index of neighbour k of (x, y), or -1 off an open map. */
long
drainage_neighbour (int w, int h, int wrap, int x, int y, int k)
{
  int nx = x + DX[k], ny = y + DY[k];
  if (wrap)
    nx = (nx + w) % w, ny = (ny + h) % h;
  else if (nx < 0 || nx >= w || ny < 0 || ny >= h)
    return -1;
  return (long) ny * w + nx;
}

/* Outlets as river-erosion.h defines them, from the result (uplift none). */
int
drainage_is_outlet (const float *f, int w, int h, int wrap, float sea, long lowest, int x, int y)
{
  const long i = (long) y * w + x;
  return (! wrap && (x == 0 || y == 0 || x == w - 1 || y == h - 1)) || f[i] <= sea ||
         i == lowest;
}

/* Non-outlet cells with no strictly lower neighbour. */
long
drainage_pits (const float *f, int w, int h, int wrap, float sea, long lowest)
{
  long pits = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        if (drainage_is_outlet (f, w, h, wrap, sea, lowest, x, y))
          continue;
        int lower = 0;
        for (int k = 0; k < 8; k++)
          {
            const long j = drainage_neighbour (w, h, wrap, x, y, k);
            lower |= j >= 0 && f[j] < f[(long) y * w + x];
          }
        pits += ! lower;
      }
  return pits;
}

/* Steepest-descent receivers (-1: none) of the non-outlets of an open map, or of every
 * cell of a wrapped one. */
long *
drainage_receivers (const float *f, int w, int h, int wrap)
{
  long *r = calloc ((size_t) w * h, sizeof (long));
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        const long i = (long) y * w + x;
        double best = 0.0;
        r[i] = -1;
        if (! wrap && (x == 0 || y == 0 || x == w - 1 || y == h - 1))
          continue;
        for (int k = 0; k < 8; k++)
          {
            const long j = drainage_neighbour (w, h, wrap, x, y, k);
            const double slope = j < 0 ? 0.0 : (f[i] - f[j]) / (k < 4 ? 1.0 : sqrt (2.0));
            if (slope > best)
              best = slope, r[i] = j;
          }
      }
  return r;
}

static const float *sort_heights;

static int
higher_first (const void *a, const void *b)
{
  const float x = sort_heights[*(const long *) a], y = sort_heights[*(const long *) b];
  return (x < y) - (x > y);
}

/* Drainage area in cells: every cell passes its area on to its receiver, highest first. */
double *
drainage_area (const float *f, const long *r, int w, int h)
{
  const size_t n = (size_t) w * h;
  long   *order = malloc (n * sizeof (long));
  double *a = malloc (n * sizeof (double));
  for (size_t i = 0; i < n; i++)
    order[i] = (long) i, a[i] = 1.0;
  sort_heights = f;
  qsort (order, n, sizeof (long), higher_first);
  for (size_t s = 0; s < n; s++)
    if (r[order[s]] >= 0)
      a[r[order[s]]] += a[order[s]];
  free (order);
  return a;
}

/* Least-squares slope of log S against log A over the channel cells (area >= min_area). */
double
drainage_slope_area_exponent (const float *f, int w, int h, double min_area, int *cells)
{
  long   *r = drainage_receivers (f, w, h, 0);
  double *a = drainage_area (f, r, w, h);
  double  sx = 0, sy = 0, sxx = 0, sxy = 0;
  int     n = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        const long i = (long) y * w + x, j = r[i];
        if (j < 0 || a[i] < min_area)
          continue;
        const int    diagonal = labs (j - i) != 1 && labs (j - i) != w;
        const double s = (f[i] - f[j]) / (diagonal ? sqrt (2.0) : 1.0);
        const double lx = log (a[i]), ly = log (s);
        sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly;
        n++;
      }
  free (r);
  free (a);
  *cells = n;
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}
