#include "heightmap.h"

#include "terrain-common.h"

#include <math.h>
#include <string.h>

/* Both passes of terrain_normalize run in parts on the threads there are (terrain-common.h),
 * with the same result as one pass: see terrain_min_max. */
typedef struct
{
  float *data;
  size_t n;
  int    parts;
  float *lo, *hi; /* per part: its min and max */
  float  min, range; /* the scaling: (v - min) / range */
} Pass;

static size_t
part_start (const Pass *p, int part)
{
  return (size_t) ((double) p->n * part / p->parts);
}

/* Part `part`'s range, started from data[0] like the whole pass. */
static void
min_max_part (void *user, int part)
{
  const Pass  *p = user;
  const float *data = p->data;
  float        lo = data[0], hi = data[0];
  for (size_t i = part_start (p, part), end = part_start (p, part + 1); i < end; i++)
    {
      lo = data[i] < lo ? data[i] : lo;
      hi = data[i] > hi ? data[i] : hi;
    }
  p->lo[part] = lo;
  p->hi[part] = hi;
}

static void
scale_part (void *user, int part)
{
  const Pass *p = user;
  /* Divide rather than multiply by a reciprocal: (hi - lo) / (hi - lo) is exactly 1. */
  const float lo = p->min, range = p->range;
  for (size_t i = part_start (p, part), end = part_start (p, part + 1); i < end; i++)
    {
      const float v = (p->data[i] - lo) / range;
      p->data[i] = v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
    }
}

#define MAX_PARTS 64

/* One part per thread on large maps (terrain_parallel_strips), at most MAX_PARTS. */
static Pass
pass_for (float *data, size_t n, float lo[MAX_PARTS], float hi[MAX_PARTS])
{
  int parts = terrain_parallel_strips (n < MAX_PARTS ? (int) n : MAX_PARTS, n);
  return (Pass) { data, n, parts, lo, hi, 0.0f, 0.0f };
}

/* Each part's minimum is the first of its smallest values not above data[0] (or data[0]),
 * and the parts are merged in order with the same comparison: so the result is the one
 * pass's, bit for bit, whatever the parts (the sign of a zero minimum and NaNs included:
 * a NaN never wins a comparison). */
static void
min_max (Pass *p, float *min, float *max)
{
  terrain_parallel_for (p->parts, min_max_part, p);
  float lo = p->lo[0], hi = p->hi[0];
  for (int k = 1; k < p->parts; k++)
    {
      lo = p->lo[k] < lo ? p->lo[k] : lo;
      hi = p->hi[k] > hi ? p->hi[k] : hi;
    }
  *min = lo;
  *max = hi;
}

void
terrain_min_max (const float *data, size_t n, float *min, float *max)
{
  float lo[MAX_PARTS], hi[MAX_PARTS];
  Pass  p = pass_for ((float *) data, n, lo, hi); /* min_max_part only reads data */
  min_max (&p, min, max);
}

void
terrain_normalize (float *data, size_t n)
{
  float lo[MAX_PARTS], hi[MAX_PARTS], min, max;
  Pass  p = pass_for (data, n, lo, hi);
  min_max (&p, &min, &max);
  if (! (max > min))
    {
      for (size_t i = 0; i < n; i++)
        data[i] = 0.5f;
      return;
    }
  p.min = min;
  p.range = max - min;
  terrain_parallel_for (p.parts, scale_part, &p);
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

/* The source pixels [*first, *end) that destination pixel i of n covers along a side of
 * `side` source pixels. */
static void
covered (int i, int n, int side, int *first, int *end)
{
  *first = (int) ((long long) i * side / n);
  *end = (int) ((long long) (i + 1) * side / n);
  if (*end <= *first)
    *end = *first + 1;
}

void
terrain_sample_mean (const float *src, int src_w, int src_h, float *dst, int dst_w, int dst_h)
{
  for (int y = 0; y < dst_h; y++)
    {
      int y0, y1;
      covered (y, dst_h, src_h, &y0, &y1);
      for (int x = 0; x < dst_w; x++)
        {
          int x0, x1;
          covered (x, dst_w, src_w, &x0, &x1);
          double sum = 0.0;
          for (int sy = y0; sy < y1; sy++)
            for (int sx = x0; sx < x1; sx++)
              sum += src[(size_t) sy * src_w + sx];
          dst[(size_t) y * dst_w + x] = (float) (sum / ((double) (y1 - y0) * (x1 - x0)));
        }
    }
}

void
terrain_reduce_mean (const float *src, int width, int height, int factor, float *dst)
{
  const int dw = (width + factor - 1) / factor, dh = (height + factor - 1) / factor;
  if (factor == 1)
    {
      /* The mean of one value is that value: a copy (a paint look's whole layer, at 4096 x
       * 4096 25 ms against 0.12-0.17 s for the loop below). */
      memcpy (dst, src, (size_t) width * height * sizeof *dst);
      return;
    }
  for (int y = 0; y < dh; y++)
    for (int x = 0; x < dw; x++)
      {
        const int y_end = y * factor + factor < height ? y * factor + factor : height;
        const int x_end = x * factor + factor < width ? x * factor + factor : width;
        double    sum = 0.0;
        for (int sy = y * factor; sy < y_end; sy++)
          for (int sx = x * factor; sx < x_end; sx++)
            sum += src[(size_t) sy * width + sx];
        dst[(size_t) y * dw + x] =
          (float) (sum / ((double) (y_end - y * factor) * (x_end - x * factor)));
      }
}

/* Where the centre of pixel p lies between pixels *low and *high of a reduced side of
 * `cells`, *f of the way from *low: clamped to the outermost centres, or wrapped. */
static void
between (int p, int factor, int cells, int wrap, int *low, int *high, float *f)
{
  double u = (p + 0.5) / factor - 0.5;
  if (! wrap)
    u = u < 0.0 ? 0.0 : u > cells - 1 ? cells - 1 : u;
  const double l = floor (u);
  *f = (float) (u - l);
  *low = (int) l;
  *high = *low + 1;
  if (wrap)
    {
      *low = (*low + cells) % cells;
      *high %= cells;
    }
  else if (*high >= cells)
    *high = *low;
}

/* A column's place between source pixels, found once for all rows (at 1024 x 1024 this
 * took a stretch at factor 2 from 9 ms to 1.7 ms); for each pixel when there is no room. */
typedef struct
{
  int   low, high;
  float f;
} Between;

void
terrain_stretch_bilinear (const float *src, int factor, int wrap, float *dst, int width,
                          int height)
{
  const int sw = (width + factor - 1) / factor, sh = (height + factor - 1) / factor;
  Between  *column = terrain_alloc ((size_t) width * sizeof *column);
  for (int x = 0; column && x < width; x++)
    between (x, factor, sw, wrap, &column[x].low, &column[x].high, &column[x].f);
  for (int y = 0; y < height; y++)
    {
      int   y0, y1;
      float fy;
      between (y, factor, sh, wrap, &y0, &y1, &fy);
      const float *r0 = src + (size_t) y0 * sw, *r1 = src + (size_t) y1 * sw;
      float       *row = dst + (size_t) y * width;
      for (int x = 0; x < width; x++)
        {
          Between c;
          if (column)
            c = column[x];
          else
            between (x, factor, sw, wrap, &c.low, &c.high, &c.f);
          const float top = r0[c.low] + c.f * (r0[c.high] - r0[c.low]);
          const float bottom = r1[c.low] + c.f * (r1[c.high] - r1[c.low]);
          row[x] = top + fy * (bottom - top);
        }
    }
  terrain_free (column);
}

int
terrain_has_non_finite (const float *data, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (! isfinite (data[i]))
      return 1;
  return 0;
}

size_t
terrain_count_non_finite (const float *data, size_t n, size_t *first)
{
  size_t count = 0;
  for (size_t i = n; i-- > 0;)
    if (! isfinite (data[i]))
      {
        count++;
        *first = i;
      }
  return count;
}
