/* Droplets in the lanes of AVX2 vectors: 2 x 4 doubles (hydraulic-lanes.h). */
#include "hydraulic-internal.h"

#if HYDRAULIC_LANES
#include <immintrin.h>

#define LANES_TARGET __attribute__ ((target ("avx2")))
#define LANES_ENTRY  hydraulic_lanes_avx2
#define PART         4
#define PARTS        2
#define MM(name)     _mm256_##name
#define MH(name)     _mm_##name

typedef __m256d PartD;
typedef __m128  PartF;

/* The lanes where a and b compare as `predicate`, as bits. */
#define PART_BITS(a, b, predicate) ((unsigned) _mm256_movemask_pd (_mm256_cmp_pd (a, b, predicate)))

LANES_TARGET static inline PartD
part_select (unsigned lanes, PartD a, PartD b)
{
  const __m256i bit = _mm256_set_epi64x (8, 4, 2, 1);
  const __m256i in = _mm256_and_si256 (_mm256_set1_epi64x (lanes), bit);
  return _mm256_blendv_pd (a, b, _mm256_castsi256_pd (_mm256_cmpeq_epi64 (in, bit)));
}

LANES_TARGET static inline __m128
pair_at (const float *pixel)
{
  return _mm_castpd_ps (_mm_load_sd ((const double *) pixel));
}

/* The pixel pairs of the lanes of `live`; the others read parking. */
LANES_TARGET static inline void
part_pixels (const Run *r, const double *nw, unsigned live, PartF c[4], const float *parking)
{
  const float *top[PART], *bottom[PART];
#pragma GCC unroll 4
  for (int l = 0; l < PART; l++)
    {
      const int in = (live >> l) & 1;
      top[l] = in ? r->data + (ptrdiff_t) nw[l] : parking;
      bottom[l] = in ? top[l] + r->width : parking;
    }
  const __m128 top01 = _mm_movelh_ps (pair_at (top[0]), pair_at (top[1]));
  const __m128 top23 = _mm_movelh_ps (pair_at (top[2]), pair_at (top[3]));
  const __m128 bottom01 = _mm_movelh_ps (pair_at (bottom[0]), pair_at (bottom[1]));
  const __m128 bottom23 = _mm_movelh_ps (pair_at (bottom[2]), pair_at (bottom[3]));
  c[0] = _mm_shuffle_ps (top01, top23, _MM_SHUFFLE (2, 0, 2, 0));
  c[1] = _mm_shuffle_ps (top01, top23, _MM_SHUFFLE (3, 1, 3, 1));
  c[2] = _mm_shuffle_ps (bottom01, bottom23, _MM_SHUFFLE (2, 0, 2, 0));
  c[3] = _mm_shuffle_ps (bottom01, bottom23, _MM_SHUFFLE (3, 1, 3, 1));
}

#include "hydraulic-lanes.h"
_Static_assert (LANES == HYDRAULIC_LANES_AVX2, "hydraulic-internal.h says how many lanes");
#endif
