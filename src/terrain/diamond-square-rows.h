/* The row kernels of diamond-square for one instruction set: diamond-square.c includes this
 * file once per set, with ROWS (name suffixer), VL (vector lanes) and ROWS_TARGET (the
 * target attribute) defined. No include guard on purpose. */
#if defined(__GNUC__) || defined(__clang__)
#define ROWS_INLINE ROWS_TARGET static inline __attribute__ ((always_inline))
#else
#define ROWS_INLINE static inline
#endif

#ifdef DS_VECTORS
#define VFloat ROWS (VFloat)
#define VInt   ROWS (VInt)
#define VUint  ROWS (VUint)
typedef float    VFloat __attribute__ ((vector_size (VL * sizeof (float))));
typedef int32_t  VInt __attribute__ ((vector_size (VL * sizeof (int32_t))));
typedef uint32_t VUint __attribute__ ((vector_size (VL * sizeof (uint32_t))));

ROWS_INLINE VFloat
ROWS (vload) (const float *p)
{
  VFloat v;
  memcpy (&v, p, sizeof v);
  return v;
}

ROWS_INLINE VUint
ROWS (vload_u) (const uint32_t *p)
{
  VUint v;
  memcpy (&v, p, sizeof v);
  return v;
}

ROWS_INLINE void
ROWS (vstore) (float *p, VFloat v)
{
  memcpy (p, &v, sizeof v);
}

/* node_offset lane by lane; scaled is amplitude * 2^-23 (see above). */
ROWS_INLINE VFloat
ROWS (voffset) (VUint column, uint32_t row_key, float scaled)
{
  VUint x = column ^ row_key;
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return scaled * __builtin_convertvector ((VInt) (x ^ 0x80000000U) >> 8, VFloat);
}

/* Lanes a0 a1 .. and b0 b1 .. stored as a0 b0 a1 b1 .. in out[0 .. 2 VL). */
#if VL == 4 && (defined(__clang__) || __GNUC__ >= 12)
#define ROWS_INTERLEAVE(out, a, b)                                                        \
  (ROWS (vstore) ((out), __builtin_shufflevector ((a), (b), 0, 4, 1, 5)),                 \
   ROWS (vstore) ((out) + VL, __builtin_shufflevector ((a), (b), 2, 6, 3, 7)))
#elif VL == 4
#define ROWS_INTERLEAVE(out, a, b)                                                        \
  (ROWS (vstore) ((out), __builtin_shuffle ((a), (b), (VInt) { 0, 4, 1, 5 })),           \
   ROWS (vstore) ((out) + VL, __builtin_shuffle ((a), (b), (VInt) { 2, 6, 3, 7 })))
#elif defined(__clang__) || __GNUC__ >= 12
#define ROWS_INTERLEAVE(out, a, b)                                                        \
  (ROWS (vstore) ((out), __builtin_shufflevector ((a), (b), 0, 8, 1, 9, 2, 10, 3, 11)),   \
   ROWS (vstore) ((out) + VL, __builtin_shufflevector ((a), (b), 4, 12, 5, 13, 6, 14, 7, 15)))
#else
#define ROWS_INTERLEAVE(out, a, b)                                                        \
  (ROWS (vstore) ((out), __builtin_shuffle ((a), (b), (VInt) { 0, 8, 1, 9, 2, 10, 3, 11 })), \
   ROWS (vstore) ((out) + VL,                                                             \
                  __builtin_shuffle ((a), (b), (VInt) { 4, 12, 5, 13, 6, 14, 7, 15 })))
#endif

/* x < y ? x : y and x > y ? x : y, lane by lane (SSE's and AVX's min and max are exactly
 * these expressions, for zeros and NaN too). */
ROWS_INLINE VFloat
ROWS (vmin) (VFloat x, VFloat y)
{
#if defined(DS_X86_INTRINSICS) && VL == 4
  return (VFloat) _mm_min_ps ((__m128) x, (__m128) y);
#elif defined(DS_X86_INTRINSICS) && VL == 8
  return (VFloat) _mm256_min_ps ((__m256) x, (__m256) y);
#else
  const VInt mask = x < y;
  return (VFloat) (((VInt) x & mask) | ((VInt) y & ~mask));
#endif
}

ROWS_INLINE VFloat
ROWS (vmax) (VFloat x, VFloat y)
{
#if defined(DS_X86_INTRINSICS) && VL == 4
  return (VFloat) _mm_max_ps ((__m128) x, (__m128) y);
#elif defined(DS_X86_INTRINSICS) && VL == 8
  return (VFloat) _mm256_max_ps ((__m256) x, (__m256) y);
#else
  const VInt mask = x > y;
  return (VFloat) (((VInt) x & mask) | ((VInt) y & ~mask));
#endif
}
#endif

ROWS_TARGET static void
ROWS (diamond_run) (float *restrict d, const float *restrict up, const float *restrict down,
                    const uint32_t *restrict column, uint32_t key, float amplitude, int n)
{
  int a = 0;
#ifdef DS_VECTORS
  const float scaled = amplitude * (1.0f / 8388608.0f);
  for (; a + VL <= n; a += VL)
    ROWS (vstore) (d + a, 0.25f * (ROWS (vload) (up + a) + ROWS (vload) (up + a + 1)
                                   + ROWS (vload) (down + a) + ROWS (vload) (down + a + 1))
                          + ROWS (voffset) (ROWS (vload_u) (column + a), key, scaled));
#endif
  for (; a < n; a++)
    d[a] = 0.25f * (up[a] + up[a + 1] + down[a] + down[a + 1])
           + node_offset (column[a], key, amplitude);
}

ROWS_TARGET static void
ROWS (even_run) (float *restrict out, const float *restrict p, const float *restrict above,
                 const float *restrict below, const uint32_t *restrict column, uint32_t key,
                 float amplitude, int n, Range *restrict range)
{
  int a = 0;
#ifdef DS_VECTORS
  const float scaled = amplitude * (1.0f / 8388608.0f);
  VFloat      lo = ROWS (vload) (range->lo), hi = ROWS (vload) (range->hi);
  for (; a + VL <= n; a += VL)
    {
      const VFloat left = ROWS (vload) (p + a);
      const VFloat square = 0.25f * (left + ROWS (vload) (p + a + 1) + ROWS (vload) (above + a)
                                     + ROWS (vload) (below + a))
                            + ROWS (voffset) (ROWS (vload_u) (column + a), key, scaled);
      ROWS_INTERLEAVE (out + 2 * a, left, square);
      lo = ROWS (vmin) (square, ROWS (vmin) (left, lo));
      hi = ROWS (vmax) (square, ROWS (vmax) (left, hi));
    }
  ROWS (vstore) (range->lo, lo);
  ROWS (vstore) (range->hi, hi);
#endif
  for (; a < n; a++)
    {
      out[2 * a] = p[a];
      out[2 * a + 1] = 0.25f * (p[a] + p[a + 1] + above[a] + below[a])
                       + node_offset (column[a], key, amplitude);
      range_add (range, out[2 * a]);
      range_add (range, out[2 * a + 1]);
    }
}

ROWS_TARGET static void
ROWS (odd_run) (float *restrict out, const float *restrict d, const float *restrict up,
                const float *restrict down, const uint32_t *restrict column, uint32_t key,
                float amplitude, int n, Range *restrict range)
{
  int a = 1;
#ifdef DS_VECTORS
  const float scaled = amplitude * (1.0f / 8388608.0f);
  VFloat      lo = ROWS (vload) (range->lo), hi = ROWS (vload) (range->hi);
  for (; a + VL <= n; a += VL)
    {
      const VFloat right = ROWS (vload) (d + a);
      const VFloat square = 0.25f * (ROWS (vload) (d + a - 1) + right + ROWS (vload) (up + a)
                                     + ROWS (vload) (down + a))
                            + ROWS (voffset) (ROWS (vload_u) (column + a), key, scaled);
      ROWS_INTERLEAVE (out + 2 * a, square, right);
      lo = ROWS (vmin) (right, ROWS (vmin) (square, lo));
      hi = ROWS (vmax) (right, ROWS (vmax) (square, hi));
    }
  ROWS (vstore) (range->lo, lo);
  ROWS (vstore) (range->hi, hi);
#endif
  for (; a < n; a++)
    {
      out[2 * a] = 0.25f * (d[a - 1] + d[a] + up[a] + down[a])
                   + node_offset (column[a], key, amplitude);
      out[2 * a + 1] = d[a];
      range_add (range, out[2 * a]);
      range_add (range, out[2 * a + 1]);
    }
}

ROWS_TARGET static void
ROWS (normalize) (float *data, size_t n, float lo, float hi)
{
  if (! (hi > lo))
    {
      for (size_t i = 0; i < n; i++)
        data[i] = 0.5f;
      return;
    }
  /* Divide rather than multiply by a reciprocal, as terrain_normalize does. */
  const float range = hi - lo;
  size_t      i = 0;
#ifdef DS_VECTORS
  const VFloat zero = { 0 }, one = zero + 1.0f;
  for (; i + VL <= n; i += VL)
    {
      /* max (0, v) is 0 > v ? 0 : v, min (1, w) is 1 < w ? 1 : w: the clamp below. */
      const VFloat v = (ROWS (vload) (data + i) - lo) / range;
      ROWS (vstore) (data + i, ROWS (vmin) (one, ROWS (vmax) (zero, v)));
    }
#endif
  for (; i < n; i++)
    {
      float v = (data[i] - lo) / range;
      data[i] = v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
    }
}

/* Fixed corners: scale like min-max normalisation, then shift so the corners (height 0
 * before scaling) land exactly on corner_height; clamp what leaves [0, 1]. */
ROWS_TARGET static void
ROWS (normalize_keeping_corners) (float *data, size_t n, float corner_height, float lo,
                                  float hi)
{
  const float scale = hi > lo ? 1.0f / (hi - lo) : 0.0f;
  size_t      k = 0;
#ifdef DS_VECTORS
  const VFloat zero = { 0 }, one = zero + 1.0f;
  for (; k + VL <= n; k += VL)
    {
      const VFloat v = corner_height + ROWS (vload) (data + k) * scale;
      ROWS (vstore) (data + k, ROWS (vmin) (one, ROWS (vmax) (zero, v)));
    }
#endif
  for (; k < n; k++)
    {
      float v = corner_height + data[k] * scale;
      data[k] = v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
    }
}

#ifdef DS_VECTORS
#undef VFloat
#undef VInt
#undef VUint
#undef ROWS_INTERLEAVE
#endif
#undef ROWS_INLINE

