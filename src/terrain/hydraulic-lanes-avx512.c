/* Droplets in the lanes of AVX-512 vectors: 2 x 8 doubles (hydraulic-lanes.h). Never with
 * FMA: a fused multiply-add would round differently from the two-stream code. */
#include "hydraulic-internal.h"

#if HYDRAULIC_LANES
#include <immintrin.h>

#ifdef __clang__
/* Clang's AVX-512 brings FMA: no multiply and add fused, here or in what is inlined. */
#pragma STDC FP_CONTRACT OFF
#endif

#define LANES_TARGET __attribute__ ((target ("avx512f,avx512dq,avx512vl,avx512bw")))
#define LANES_ENTRY  hydraulic_lanes_avx512
#define PART         8
#define PARTS        2
#define MM(name)     _mm512_##name
#define MH(name)     _mm256_##name

typedef __m512d PartD;
typedef __m256  PartF;

/* The lanes where a and b compare as `predicate`, as bits. */
#define PART_BITS(a, b, predicate) ((unsigned) _mm512_cmp_pd_mask (a, b, predicate))

LANES_TARGET static inline PartD
part_select (unsigned lanes, PartD a, PartD b)
{
  return _mm512_mask_blend_pd ((__mmask8) lanes, a, b);
}

/* Each lane's pixel pairs nw, ne and sw, se as 64-bit elements, gathered in the lanes of
 * `live` (0 in the others): the low half is the first pixel (x86 is little-endian). */
LANES_TARGET static inline void
part_pixels (const Run *r, const double *nw, unsigned live, PartF c[4], const float *parking)
{
  const __m512i index = _mm512_cvttpd_epi64 (_mm512_load_pd (nw));
  const __m512i zero = _mm512_setzero_si512 ();
  const __m512i top = _mm512_mask_i64gather_epi64 (zero, (__mmask8) live, index, r->data, 4);
  const __m512i bottom =
    _mm512_mask_i64gather_epi64 (zero, (__mmask8) live, index, r->data + r->width, 4);
  (void) parking;
  c[0] = _mm256_castsi256_ps (_mm512_cvtepi64_epi32 (top));
  c[1] = _mm256_castsi256_ps (_mm512_cvtepi64_epi32 (_mm512_srli_epi64 (top, 32)));
  c[2] = _mm256_castsi256_ps (_mm512_cvtepi64_epi32 (bottom));
  c[3] = _mm256_castsi256_ps (_mm512_cvtepi64_epi32 (_mm512_srli_epi64 (bottom, 32)));
}

#include "hydraulic-lanes.h"
_Static_assert (LANES == HYDRAULIC_LANES_AVX512, "hydraulic-internal.h says how many lanes");
#endif
