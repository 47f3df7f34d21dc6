/* Hydraulic erosion's brush (hydraulic-internal.h): the pixels around a droplet it takes
 * sediment from and drops it on, and the kernels that change them, for each instruction set
 * with the same bits. */
#include "hydraulic-internal.h"

#include <float.h>
#include <math.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if HYDRAULIC_LANES
#include <immintrin.h>
#endif

void
hydraulic_brush_init (Brush *b, int radius, int width)
{
  double total = 0.0;
  b->reach = radius - 1;
  b->width = width;
  b->count = 0;
  for (int dy = -b->reach; dy <= b->reach; dy++)
    for (int dx = -b->reach; dx <= b->reach; dx++)
      if (dx * dx + dy * dy < radius * radius)
        {
          const int k = b->count++;
          b->dx[k] = dx;
          b->dy[k] = dy;
          b->weight[k] = 1.0 - sqrt ((double) (dx * dx + dy * dy)) / radius;
          total += b->weight[k];
        }
  /* A new group at a row's first pixel, and at every GROUP_WIDTH-th pixel of the row after
   * it. */
  b->groups = 0;
  int group_dx = 0;
  for (int k = 0; k < b->count; k++)
    {
      if (k == 0 || b->dy[k] != b->dy[k - 1] || b->dx[k] - group_dx >= GROUP_WIDTH)
        {
          group_dx = b->dx[k];
          b->group_offset[b->groups] = (ptrdiff_t) b->dy[k] * width + group_dx;
          for (int l = 0; l < GROUP_WIDTH; l++)
            b->group_share[b->groups][l] = 0.0f;
          b->groups++;
        }
      b->group_share[b->groups - 1][b->dx[k] - group_dx] = (float) (b->weight[k] / total);
    }
}

/* ---- Changing pixels ----
 * Each returns what the pixel really gained or lost: its float value after minus before,
 * exact in double (up to the rare double rounding of floats of very different size). */

/* Takes up to amount >= 0 from a pixel, never below floor >= 0: a pixel at or below floor
 * gives nothing. In float, the brush loop being the hot spot. What it gave, before - after,
 * is exact in float (after = before - take rounded, with 0 <= take <= before, floor being
 * >= 0: Dekker's Fast2Sum, whose s - a is exact), so the double difference needs no
 * conversion of both. */
static inline double
take_from (float *pixel, float amount, float floor)
{
  const float before = *pixel, room = before - floor;
  const float take = room < amount ? room : amount;
  const float after = before - (take > 0.0f ? take : 0.0f);
  *pixel = after;
  return before - after;
}

/* Adds up to amount >= 0 to a pixel, never above ceiling, nor FLT_MAX: a pixel at or above
 * ceiling takes nothing. */
static inline double
give_to (float *pixel, float amount, float ceiling)
{
  const float before = *pixel, room = ceiling - before;
  const float give = room < amount ? room : amount;
  const float sum = before + (give > 0.0f ? give : 0.0f);
  *pixel = sum < FLT_MAX ? sum : FLT_MAX;
  return (double) *pixel - before;
}

/* Takes a * share from the brush's groups around `centre`, none below limit, or gives it,
 * none above limit: a sum per lane of the groups, so the lanes' additions are independent
 * chains. The portable code, for any CPU. */
static inline double
groups_portable (const Brush *b, float *centre, float a, float limit, int deposit)
{
  double lane[GROUP_WIDTH] = { 0.0 };
  for (int g = 0; g < b->groups; g++)
    for (int l = 0; l < GROUP_WIDTH; l++)
      {
        float      *pixel = centre + b->group_offset[g] + l;
        const float want = a * b->group_share[g][l];
        lane[l] += deposit ? give_to (pixel, want, limit) : take_from (pixel, want, limit);
      }
  return (lane[0] + lane[1]) + (lane[2] + lane[3]);
}

static double
erode_groups_portable (const Brush *b, float *centre, float a, float floor)
{
  return groups_portable (b, centre, a, floor, 0);
}

static double
deposit_groups_portable (const Brush *b, float *centre, float a, float ceiling)
{
  return groups_portable (b, centre, a, ceiling, 1);
}

#if defined(__SSE2__)
/* take_from on the 4 pixels of a vector, with the same operations lane for lane (so the same
 * bits): the pixels' new values. minps (x, y) is x < y ? x : y, maxps (x, 0) is x > 0 ? x :
 * 0: take_from's rule. */
static inline __m128
taken_sse2 (__m128 before, __m128 want, __m128 floor)
{
  return _mm_sub_ps (before, _mm_max_ps (_mm_min_ps (_mm_sub_ps (before, floor), want),
                                         _mm_setzero_ps ()));
}

/* give_to on the 4 pixels of a vector, the same way. */
static inline __m128
given_sse2 (__m128 before, __m128 want, __m128 ceiling)
{
  const __m128 give = _mm_max_ps (_mm_min_ps (_mm_sub_ps (ceiling, before), want),
                                  _mm_setzero_ps ());
  return _mm_min_ps (_mm_add_ps (before, give), _mm_set1_ps (FLT_MAX));
}

/* What the 4 pixels of a vector moved, in double, added to the lanes' sums low (0, 1) and
 * high (2, 3): before - after, exact in float, for erosion (take_from's); after - before for
 * a deposit (give_to's). */
static inline void
add_moved_sse2 (__m128 before, __m128 after, int deposit, __m128d *low, __m128d *high)
{
  if (deposit)
    {
      *low = _mm_add_pd (*low, _mm_sub_pd (_mm_cvtps_pd (after), _mm_cvtps_pd (before)));
      *high = _mm_add_pd (*high, _mm_sub_pd (_mm_cvtps_pd (_mm_movehl_ps (after, after)),
                                             _mm_cvtps_pd (_mm_movehl_ps (before, before))));
      return;
    }
  const __m128 taken = _mm_sub_ps (before, after);
  *low = _mm_add_pd (*low, _mm_cvtps_pd (taken));
  *high = _mm_add_pd (*high, _mm_cvtps_pd (_mm_movehl_ps (taken, taken)));
}

/* With SSE2 a group is a vector. */
static inline double
groups_sse2 (const Brush *b, float *centre, float a, float limit, int deposit)
{
  const __m128 amount = _mm_set1_ps (a), bound = _mm_set1_ps (limit);
  __m128d      low = _mm_setzero_pd (), high = _mm_setzero_pd ();
  for (int g = 0; g < b->groups; g++)
    {
      float       *pixel = centre + b->group_offset[g];
      const __m128 before = _mm_loadu_ps (pixel);
      const __m128 want = _mm_mul_ps (amount, _mm_loadu_ps (b->group_share[g]));
      const __m128 after = deposit ? given_sse2 (before, want, bound)
                                   : taken_sse2 (before, want, bound);
      _mm_storeu_ps (pixel, after);
      add_moved_sse2 (before, after, deposit, &low, &high);
    }
  double lane[GROUP_WIDTH];
  _mm_storeu_pd (lane, low);
  _mm_storeu_pd (lane + 2, high);
  return (lane[0] + lane[1]) + (lane[2] + lane[3]);
}

static double
erode_groups_sse2 (const Brush *b, float *centre, float a, float floor)
{
  return groups_sse2 (b, centre, a, floor, 0);
}

static double
deposit_groups_sse2 (const Brush *b, float *centre, float a, float ceiling)
{
  return groups_sse2 (b, centre, a, ceiling, 1);
}
#endif

#if HYDRAULIC_LANES
#define AVX2 __attribute__ ((target ("avx2")))

/* taken_sse2's or given_sse2's operations on 8 pixels: the pixels' new values. */
AVX2 static inline __m256
changed_avx2 (__m256 before, __m256 want, float limit, const int deposit)
{
  const __m256 zero = _mm256_setzero_ps (), bound = _mm256_set1_ps (limit);
  if (deposit)
    {
      const __m256 give = _mm256_max_ps (_mm256_min_ps (_mm256_sub_ps (bound, before), want), zero);
      return _mm256_min_ps (_mm256_add_ps (before, give), _mm256_set1_ps (FLT_MAX));
    }
  return _mm256_sub_ps (before, _mm256_max_ps (_mm256_min_ps (_mm256_sub_ps (before, bound), want),
                                               zero));
}

/* What 4 pixels moved, in double: as add_moved_sse2. */
AVX2 static inline __m256d
moved_avx2 (__m128 before, __m128 after, const int deposit)
{
  if (deposit)
    return _mm256_sub_pd (_mm256_cvtps_pd (after), _mm256_cvtps_pd (before));
  return _mm256_cvtps_pd (_mm_sub_ps (before, after));
}

/* Adds to the lanes' sums what one group moved: as groups_sse2. */
AVX2 static inline __m256d
group_avx2 (float *pixel, const float *share, float a, float limit, __m256d sum,
            const int deposit)
{
  const __m128 before = _mm_loadu_ps (pixel);
  const __m128 want = _mm_mul_ps (_mm_set1_ps (a), _mm_loadu_ps (share));
  const __m128 after = deposit ? given_sse2 (before, want, _mm_set1_ps (limit))
                               : taken_sse2 (before, want, _mm_set1_ps (limit));
  _mm_storeu_ps (pixel, after);
  return _mm256_add_pd (sum, moved_avx2 (before, after, deposit));
}

/* The same for two consecutive groups of a row in one vector of 8: the first group's
 * values, then the second's, as the SSE2 kernels add them. */
AVX2 static inline __m256d
pair_avx2 (float *pixel, const float *share, float a, float limit, __m256d sum,
           const int deposit)
{
  const __m256 before = _mm256_loadu_ps (pixel);
  const __m256 after = changed_avx2 (before, _mm256_mul_ps (_mm256_set1_ps (a),
                                                            _mm256_loadu_ps (share)),
                                     limit, deposit);
  _mm256_storeu_ps (pixel, after);
  sum = _mm256_add_pd (sum, moved_avx2 (_mm256_castps256_ps128 (before),
                                        _mm256_castps256_ps128 (after), deposit));
  return _mm256_add_pd (sum, moved_avx2 (_mm256_extractf128_ps (before, 1),
                                         _mm256_extractf128_ps (after, 1), deposit));
}

/* The last dx of the brush's row dy: hydraulic_brush_init's pixels less than `radius` from
 * the centre. */
static inline int
brush_half_width (int radius, int dy)
{
  int half = 0;
  while ((half + 1) * (half + 1) + dy * dy < radius * radius)
    half++;
  return half;
}

/* BrushGroups with AVX2 for a brush of a constant radius: its rows and groups unroll (no
 * loop, no offsets read), a pair of groups in one vector, the 4 lane sums in one vector of
 * doubles. Each lane adds its groups' values in hydraulic_brush_init's order: the same
 * bits. */
__attribute__ ((always_inline)) AVX2 static inline double
rows_avx2 (const Brush *b, float *centre, float a, float limit, const int radius,
           const int deposit)
{
  const float *share = b->group_share[0];
  float       *row = centre - (radius - 1) * b->width;
  __m256d      sum = _mm256_setzero_pd ();
#pragma GCC unroll 16
  for (int dy = 1 - radius; dy < radius; dy++, row += b->width)
    {
      const int half = brush_half_width (radius, dy);
      const int groups = (2 * half + GROUP_WIDTH) / GROUP_WIDTH;
#pragma GCC unroll 4
      for (int g = 0; g < groups; g += 2)
        if (g + 1 < groups)
          sum = pair_avx2 (row - half + g * GROUP_WIDTH, share + g * GROUP_WIDTH, a, limit, sum,
                           deposit);
        else
          sum = group_avx2 (row - half + g * GROUP_WIDTH, share + g * GROUP_WIDTH, a, limit,
                            sum, deposit);
      share += groups * GROUP_WIDTH;
    }
  double lane[GROUP_WIDTH];
  _mm256_storeu_pd (lane, sum);
  return (lane[0] + lane[1]) + (lane[2] + lane[3]);
}

#define ROWS_AVX2(radius)                                                                     \
  AVX2 static double erode_rows_##radius##_avx2 (const Brush *b, float *centre, float a,      \
                                                 float floor)                                 \
  {                                                                                           \
    return rows_avx2 (b, centre, a, floor, radius, 0);                                       \
  }                                                                                           \
  AVX2 static double deposit_rows_##radius##_avx2 (const Brush *b, float *centre, float a,    \
                                                   float ceiling)                             \
  {                                                                                           \
    return rows_avx2 (b, centre, a, ceiling, radius, 1);                                     \
  }
ROWS_AVX2 (1)
ROWS_AVX2 (2)
ROWS_AVX2 (3)
ROWS_AVX2 (4)
ROWS_AVX2 (5)
ROWS_AVX2 (6)
ROWS_AVX2 (7)
ROWS_AVX2 (8)
#endif

/* The brush kernels for this radius: with AVX2, or SSE2, when allowed (each the same bits). */
void
hydraulic_brush_kernels (Run *r, int radius, int avx2, int sse2)
{
#if HYDRAULIC_LANES
  static const BrushGroups erode[TERRAIN_HYDRAULIC_MAX_RADIUS] = {
    erode_rows_1_avx2, erode_rows_2_avx2, erode_rows_3_avx2, erode_rows_4_avx2,
    erode_rows_5_avx2, erode_rows_6_avx2, erode_rows_7_avx2, erode_rows_8_avx2
  };
  static const BrushGroups deposit[TERRAIN_HYDRAULIC_MAX_RADIUS] = {
    deposit_rows_1_avx2, deposit_rows_2_avx2, deposit_rows_3_avx2, deposit_rows_4_avx2,
    deposit_rows_5_avx2, deposit_rows_6_avx2, deposit_rows_7_avx2, deposit_rows_8_avx2
  };
  if (avx2)
    {
      r->erode_groups = erode[radius - 1];
      r->deposit_groups = deposit[radius - 1];
      return;
    }
#else
  (void) avx2;
#endif
#if defined(__SSE2__)
  if (sse2)
    {
      r->erode_groups = erode_groups_sse2;
      r->deposit_groups = deposit_groups_sse2;
      return;
    }
#else
  (void) sse2;
#endif
  r->erode_groups = erode_groups_portable;
  r->deposit_groups = deposit_groups_portable;
}

/* The brush's pixels around pixel (nx, ny) on the map, each with its weight normalised over
 * them, to `deposit` (give_to, up to limit) or to take from (take_from, down to limit), in
 * hydraulic_brush_init's order: what they gained or gave. */
static double
brush_clipped (const Run *r, int nx, int ny, float a, float limit, int deposit)
{
  const Brush *b = &r->brush;
  float       *centre = r->data + (size_t) ny * r->width + nx;
  double       total = 0.0, moved = 0.0;
  for (int k = 0; k < b->count; k++)
    {
      const int x = nx + b->dx[k], y = ny + b->dy[k];
      if (x >= 0 && x < r->width && y >= 0 && y < r->height)
        total += b->weight[k];
    }
  for (int k = 0; k < b->count; k++)
    {
      const int x = nx + b->dx[k], y = ny + b->dy[k];
      if (x >= 0 && x < r->width && y >= 0 && y < r->height)
        {
          float      *pixel = centre + (ptrdiff_t) b->dy[k] * r->width + b->dx[k];
          const float want = (float) (a * (b->weight[k] / total));
          moved += deposit ? give_to (pixel, want, limit) : take_from (pixel, want, limit);
        }
    }
  return moved;
}

/* Takes amount >= 0 from the brush around pixel (nx, ny), none below floor nor 0 (amounts
 * beyond FLT_MAX are FLT_MAX: no pixel holds more). */
double
hydraulic_erode (const Run *r, int nx, int ny, double amount, double floor)
{
  const float a = (float) min_d (amount, FLT_MAX), bound = (float) max_d (floor, 0.0);
  if (hydraulic_brush_inside (r, nx, ny))
    return r->erode_groups (&r->brush, r->data + (size_t) ny * r->width + nx, a, bound);
  /* Clipped by the border: the centre (weight 1) is always in. */
  return brush_clipped (r, nx, ny, a, bound, 0);
}

/* Gives amount >= 0 to the brush around pixel (nx, ny), none above ceiling (nor FLT_MAX);
 * returns what it gave. */
double
hydraulic_deposit (const Run *r, int nx, int ny, double amount, double ceiling)
{
  const float a = (float) min_d (max_d (amount, 0.0), FLT_MAX);
  const float top = (float) min_d (ceiling, FLT_MAX);
  if (hydraulic_brush_inside (r, nx, ny))
    return r->deposit_groups (&r->brush, r->data + (size_t) ny * r->width + nx, a, top);
  return brush_clipped (r, nx, ny, a, top, 1);
}
