/* The look figures (look.h): the checks and the rescaling every figure shares, aniso45,
 * speckle, pits, the standard hillshade, and all of them at once. beta is in
 * look-spectrum.c, theta in look-drainage.c. */
#include "look-internal.h"
#include "shade.h"
#include "terrain-common.h"

#include <math.h>
#include <stdint.h>

/* The share of directions within 1.5 degrees of a grid direction if they were uniform. */
#define ISOTROPIC_SHARE (3.0 / 45.0)
#define ALIGNED_DEGREES 1.5
/* Speckle of a map whose blocks have no curvature at all, while its pixels have. */
#define SPECKLE_MAX 1e6

TerrainStatus
look_check (const float *heights, int width, int height, int min_side, LookRelief *relief)
{
  if (heights == NULL || width < min_side || height < min_side ||
      terrain_check_size (width, height) != TERRAIN_OK ||
      (double) width * height > (double) UINT32_MAX)
    return TERRAIN_ERROR_INVALID;
  const size_t n = (size_t) width * height;
  float        lo = heights[0], hi = heights[0];
  for (size_t i = 0; i < n; i++)
    {
      if (! isfinite (heights[i]))
        return TERRAIN_ERROR_INVALID;
      lo = heights[i] < lo ? heights[i] : lo;
      hi = heights[i] > hi ? heights[i] : hi;
    }
  relief->lowest = lo;
  relief->scale = hi > lo ? LOOK_RELIEF_PER_WIDTH * width / ((double) hi - lo) : 0.0;
  return TERRAIN_OK;
}

/* The difference quotient along a line at i, of step `step`, from 0 to n - 1: central
 * inside, one-sided at either end (as numpy's gradient takes it). */
static double
derivative (const float *h, size_t i, int at, int n, size_t step)
{
  const size_t before = at > 0 ? i - step : i, after = at < n - 1 ? i + step : i;
  const int    run = (at > 0) + (at < n - 1);
  return run ? ((double) h[after] - h[before]) / run : 0.0;
}

/* A direction is within ALIGNED_DEGREES of a grid direction when the smaller of its
 * components over the larger is below the tangent of ALIGNED_DEGREES (an axis) or above the
 * tangent of 45 degrees less it (a diagonal): the angle's own test, without an arctangent. */
static double
aniso45 (const float *h, int w, int hh, double scale)
{
  const double axis = tan (ALIGNED_DEGREES * LOOK_PI / 180.0);
  const double diagonal = tan ((45.0 - ALIGNED_DEGREES) * LOOK_PI / 180.0);
  double       aligned = 0.0, all = 0.0;
  for (int y = 0; y < hh; y++)
    for (int x = 0; x < w; x++)
      {
        const size_t i = (size_t) y * w + x;
        const double gx = fabs (scale * derivative (h, i, x, w, 1));
        const double gy = fabs (scale * derivative (h, i, y, hh, (size_t) w));
        const double slope = sqrt (gx * gx + gy * gy);
        if (slope == 0.0)
          continue;
        const double ratio = gx < gy ? gx / gy : gy / gx;
        all += slope;
        if (ratio < axis || ratio > diagonal)
          aligned += slope;
      }
  return all > 0.0 ? aligned / all / ISOTROPIC_SHARE : 1.0;
}

/* The rms of the 5-point Laplacian over a w x h map: with `edges`, over every cell, an edge
 * cell counting as its own neighbour off the map; else over the inner cells. */
static double
laplacian_rms (const double *m, int w, int h, int edges)
{
  const int e = ! edges;
  double    sum = 0.0;
  for (int y = e; y < h - e; y++)
    for (int x = e; x < w - e; x++)
      {
        const size_t i = (size_t) y * w + x;
        const double l = m[x > 0 ? i - 1 : i] + m[x < w - 1 ? i + 1 : i] +
                         m[y > 0 ? i - w : i] + m[y < h - 1 ? i + w : i] - 4.0 * m[i];
        sum += l * l;
      }
  return sqrt (sum / ((double) (w - 2 * e) * (h - 2 * e)));
}

/* The map's pixels (blocks 1) or its means over blocks of 4 x 4, rescaled. */
static double *
block_means (const float *h, int w, int hh, int block, double scale, int *bw, int *bh)
{
  *bw = w / block, *bh = hh / block;
  double *m = terrain_calloc ((size_t) *bw * *bh, sizeof (double));
  if (m == NULL)
    return NULL;
  const double weight = scale / (block * block);
  for (int y = 0; y < *bh * block; y++)
    for (int x = 0; x < *bw * block; x++)
      m[(size_t) (y / block) * *bw + x / block] += weight * h[(size_t) y * w + x];
  return m;
}

static TerrainStatus
speckle (const float *h, int w, int hh, double scale, double *out)
{
  double rms[2];
  for (int level = 0; level < 2; level++)
    {
      int     bw, bh;
      double *m = block_means (h, w, hh, level ? 4 : 1, scale, &bw, &bh);
      if (m == NULL)
        return TERRAIN_ERROR_NO_MEMORY;
      rms[level] = laplacian_rms (m, bw, bh, ! level) / (level ? 16.0 : 1.0);
      terrain_free (m);
    }
  *out = rms[0] == 0.0 ? 1.0 : rms[0] / fmax (rms[1], rms[0] / SPECKLE_MAX);
  return TERRAIN_OK;
}

/* Inner cells with no strictly lower neighbour, but for those at the map's lowest height
 * (a sea, which drains like the border), in percent of the inner cells. */
static double
pits (const float *h, int w, int hh, float lowest)
{
  static const int dx[8] = { -1, 0, 1, -1, 1, -1, 0, 1 }, dy[8] = { -1, -1, -1, 0, 0, 1, 1, 1 };
  size_t closed = 0;
  for (int y = 1; y < hh - 1; y++)
    for (int x = 1; x < w - 1; x++)
      {
        const size_t i = (size_t) y * w + x;
        int          lower = h[i] == lowest;
        for (int k = 0; k < 8; k++)
          lower |= h[(size_t) (y + dy[k]) * w + x + dx[k]] < h[i];
        closed += ! lower;
      }
  return 100.0 * closed / ((double) (w - 2) * (hh - 2));
}

TerrainStatus
terrain_look_aniso45 (const float *heights, int width, int height, double *out)
{
  LookRelief    r;
  TerrainStatus status = look_check (heights, width, height, TERRAIN_LOOK_MIN_SIDE, &r);
  if (status == TERRAIN_OK)
    *out = aniso45 (heights, width, height, r.scale);
  return status;
}

TerrainStatus
terrain_look_speckle (const float *heights, int width, int height, double *out)
{
  LookRelief    r;
  TerrainStatus status = look_check (heights, width, height, TERRAIN_LOOK_MIN_SIDE, &r);
  return status == TERRAIN_OK ? speckle (heights, width, height, r.scale, out) : status;
}

TerrainStatus
terrain_look_beta (const float *heights, int width, int height, double *beta)
{
  LookRelief    r;
  TerrainStatus status = look_check (heights, width, height, TERRAIN_LOOK_MIN_SIDE, &r);
  return status == TERRAIN_OK ? look_beta (heights, width, height, &r, beta) : status;
}

TerrainStatus
terrain_look_pits (const float *heights, int width, int height, double *out)
{
  LookRelief    r;
  TerrainStatus status = look_check (heights, width, height, TERRAIN_LOOK_MIN_SIDE, &r);
  if (status == TERRAIN_OK)
    *out = pits (heights, width, height, (float) r.lowest);
  return status;
}

TerrainStatus
terrain_look_slope_area (const float *heights, int width, int height, double *theta,
                         double *r2)
{
  LookRelief    r;
  TerrainStatus status = look_check (heights, width, height, TERRAIN_LOOK_MIN_SIDE, &r);
  return status == TERRAIN_OK ? look_slope_area (heights, width, height, &r, theta, r2)
                              : status;
}

TerrainStatus
terrain_look_measure (const float *heights, int width, int height, TerrainLook *look)
{
  LookRelief    r;
  TerrainLook   l;
  TerrainStatus status = look_check (heights, width, height, TERRAIN_LOOK_MIN_SIDE, &r);
  if (status != TERRAIN_OK)
    return status;
  l.aniso45 = aniso45 (heights, width, height, r.scale);
  l.pits = pits (heights, width, height, (float) r.lowest);
  status = speckle (heights, width, height, r.scale, &l.speckle);
  if (status == TERRAIN_OK)
    status = look_beta (heights, width, height, &r, &l.beta);
  if (status == TERRAIN_OK)
    status = look_slope_area (heights, width, height, &r, &l.theta, &l.theta_r2);
  if (status == TERRAIN_OK)
    *look = l;
  return status;
}

TerrainStatus
terrain_look_hillshade (const float *heights, int width, int height, float *out)
{
  LookRelief    r;
  TerrainStatus status = look_check (heights, width, height, 1, &r);
  if (status == TERRAIN_OK)
    terrain_hillshade (heights, width, height, TERRAIN_HILLSHADE_AZIMUTH,
                       TERRAIN_HILLSHADE_ELEVATION, r.scale > 0.0 ? r.scale : 1.0, out);
  return status;
}
