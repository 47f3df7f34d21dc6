#include "shade.h"

#include "terrain-common.h"


#include <math.h>
#include <stddef.h>
#include <stdlib.h>

/* Height change per pixel at index i of a line of n samples `step` floats apart: central
 * difference inside, one-sided at the ends, 0 on a line of one sample. In double: the
 * difference of two finite floats cannot overflow there. */
static double
slope (const float *p, ptrdiff_t step, int i, int n)
{
  if (n < 2)
    return 0.0;
  if (i == 0)
    return (double) p[step] - p[0];
  if (i == n - 1)
    return (double) p[0] - p[-step];
  return 0.5 * ((double) p[step] - p[-step]);
}

double
terrain_hillshade_z_scale (int width, int height)
{
  return (width > height ? width : height) / 4.0;
}

static int
compare_float (const void *a, const void *b)
{
  const float x = *(const float *) a, y = *(const float *) b;
  return (x > y) - (x < y);
}

/* At most this many pixels decide the contrast: a percentile needs no more, and a preview's
 * shading stays cheap next to its render. */
#define CONTRAST_SAMPLES (1 << 16)

double
terrain_hillshade_contrast_z_scale (const float *h, int width, int height)
{
  const size_t n = (size_t) (width > 0 ? width : 0) * (size_t) (height > 0 ? height : 0);
  const size_t stride = n > CONTRAST_SAMPLES ? (n + CONTRAST_SAMPLES - 1) / CONTRAST_SAMPLES : 1;
  float       *slopes = terrain_alloc ((n / stride + 1) * sizeof (float));
  size_t       count = 0;
  if (slopes == NULL)
    return -1.0;
  for (size_t i = 0; i < n; i += stride)
    {
      const int    x = (int) (i % (size_t) width), y = (int) (i / (size_t) width);
      const double gx = slope (h + i, 1, x, width), gy = slope (h + i, width, y, height);
      /* Judged as stored: a slope below half the smallest float (between subnormal
       * heights) is 0 as a float, and a 0 percentile would make z_scale infinite. */
      const float g = (float) sqrt (gx * gx + gy * gy);
      if (g > 0.0f && g < 1e30f) /* a height jump beyond any float's range says nothing */
        slopes[count++] = g;
    }
  double z = terrain_hillshade_z_scale (width, height);
  if (count > 0)
    {
      qsort (slopes, count, sizeof (float), compare_float);
      const double steep = slopes[count - 1 - count / 10];
      z = tan (TERRAIN_HILLSHADE_STEEP_SLOPE * 3.14159265358979323846 / 180.0) / steep;
    }
  terrain_free (slopes);
  return z;
}

/* Rows of the shading: each shade reads the heights only, so strips of rows run on any
 * threads. */
typedef struct
{
  const float *h;
  float       *out;
  int          width, height;
  double       lx, ly, lz, z_scale;
} Shading;

static void
shade_rows (void *user, int strip, int first, int end)
{
  const Shading *s = user;
  const int      width = s->width, height = s->height;
  (void) strip;
  for (int y = first; y < end; y++)
    for (int x = 0; x < width; x++)
      {
        const size_t i = (size_t) y * width + x;
        /* The surface z = z_scale * h has the (unnormalised) normal (-gx, -gy, 1). */
        const double gx = s->z_scale * slope (s->h + i, 1, x, width);
        const double gy = s->z_scale * slope (s->h + i, width, y, height);
        const double shade = (s->lz - gx * s->lx - gy * s->ly) / sqrt (gx * gx + gy * gy + 1.0);
        /* Also maps NaN (inf / inf for absurd z_scale) to 0. */
        s->out[i] = shade > 0.0 ? (shade < 1.0 ? (float) shade : 1.0f) : 0.0f;
      }
}

void
terrain_hillshade (const float *h, int width, int height, double azimuth_deg,
                   double elevation_deg, double z_scale, float *out)
{
  if (width < 1 || height < 1)
    return;
  const double deg = 3.14159265358979323846 / 180.0;
  const double az = azimuth_deg * deg, el = elevation_deg * deg;
  /* Unit vector towards the light in (x right, y down, z up): azimuth 0 points up the
   * image, i.e. towards -y. */
  Shading s = { h, out, width, height, sin (az) * cos (el), -cos (az) * cos (el), sin (el),
                z_scale };
  terrain_parallel_rows (height, terrain_map_strips (height, width), height, shade_rows, &s, NULL,
                         0.0, 0.0);
}
