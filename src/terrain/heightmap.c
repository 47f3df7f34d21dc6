#include "heightmap.h"

#include <math.h>

void
terrain_min_max (const float *data, size_t n, float *min, float *max)
{
  float lo = data[0], hi = data[0];
  for (size_t i = 1; i < n; i++)
    {
      lo = data[i] < lo ? data[i] : lo;
      hi = data[i] > hi ? data[i] : hi;
    }
  *min = lo;
  *max = hi;
}

void
terrain_normalize (float *data, size_t n)
{
  float lo, hi;
  terrain_min_max (data, n, &lo, &hi);
  if (! (hi > lo))
    {
      for (size_t i = 0; i < n; i++)
        data[i] = 0.5f;
      return;
    }
  /* Divide rather than multiply by a reciprocal: (hi - lo) / (hi - lo) is exactly 1. */
  const float range = hi - lo;
  for (size_t i = 0; i < n; i++)
    {
      float v = (data[i] - lo) / range;
      data[i] = v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
    }
}

void
terrain_sample_nearest (const float *src, int src_w, int src_h,
                        float *dst, int dst_w, int dst_h)
{
  for (int y = 0; y < dst_h; y++)
    {
      int sy = (int) (((long long) y * 2 + 1) * src_h / (2LL * dst_h));
      const float *row = src + (size_t) sy * src_w;
      for (int x = 0; x < dst_w; x++)
        dst[(size_t) y * dst_w + x] = row[((long long) x * 2 + 1) * src_w / (2LL * dst_w)];
    }
}

int
terrain_has_non_finite (const float *data, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (! isfinite (data[i]))
      return 1;
  return 0;
}
