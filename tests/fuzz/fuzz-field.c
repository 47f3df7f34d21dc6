/* libFuzzer harness: terrain_field with every iteration count (1..30 and beyond), roughness
 * 0..2, offsets anywhere in the 32-bit world (near 0, +-2^30, and at the edges where the
 * rectangle just fits or just leaves [INT32_MIN, INT32_MAX]).
 *
 * Checks: the status promises (an out-of-world rectangle is TERRAIN_ERROR_INVALID); on
 * TERRAIN_OK every pixel in [0, 1]; and field.h's central promise: a pixel's value depends
 * only on its world position, "bit-identical whatever rectangle contains it", tested by
 * rendering a sub-rectangle at the shifted offset and comparing bits (in one execution in
 * four: each call computes the field's sigma, a fixed cost of about half a millisecond
 * under the sanitizers). Guided generation: guides of any size, position, scale and
 * values (NaN, inf, beyond [0, 1]), sizes or scales below 1 refused, the same
 * bit-identical sub-rectangles, and "guide_scale 1 returns the guide itself". */
#include "fuzz-common.h"

#include "field.h"

/* A world offset for a layer `side` pixels long: the interesting places in the 32-bit
 * world. Clears *valid when the layer leaves it. */
static int32_t
fuzz_offset (FuzzInput *in, int side, int *valid)
{
  const uint8_t sel = fuzz_u8 (in);
  const int64_t small = (int64_t) fuzz_u16 (in) - 32768;
  int64_t v;
  switch (sel % 12)
    {
    case 0: v = 0; break;
    case 1: v = small; break;
    case 2: v = INT32_MIN; break;
    case 3: v = (int64_t) INT32_MIN + (small & 0xff); break;
    case 4: v = (int64_t) INT32_MAX - side + 1; break;          /* last that fits */
    case 5: v = (int64_t) INT32_MAX - side + 2; break;          /* first that does not */
    case 6: v = (int64_t) INT32_MAX - side + 1 - (small & 0xff); break;
    case 7: v = (int64_t) INT32_MAX - (small & 0xff); break;
    case 8: v = (1 << 30) + small; break;
    case 9: v = -(1 << 30) + small; break;
    case 10: v = (int32_t) fuzz_u32 (in); break;
    default: v = small * 4099; break;
    }
  if (v > INT32_MAX)
    v = INT32_MAX;
  if (v + side - 1 > INT32_MAX)
    *valid = 0;
  return (int32_t) v;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  FuzzInput in = { data, size, 0 };
  FuzzSize  sz = fuzz_size (&in, FUZZ_MAX_PIXELS, 1);
  const unsigned long cancel_after = fuzz_cancel_after (&in, 1000);

  TerrainField p;
  terrain_field_defaults (&p);
  int valid = sz.valid;
  p.seed = fuzz_u32 (&in);
  p.iterations = fuzz_int (&in, 1, TERRAIN_FIELD_MAX_ITERATIONS, 8, 1, &valid);
  p.roughness = fuzz_double (&in, 0.0, 2.0, 1.0, FUZZ_CLOSED, 1, &valid);
  p.offset_x = fuzz_offset (&in, sz.valid ? sz.w : 1, &valid);
  p.offset_y = fuzz_offset (&in, sz.valid ? sz.h : 1, &valid);

  float *guide = NULL;
  /* One in four: a guide of any size near the layer, at any world position, with any
   * values (field.h: clamped into [0, 1] when read, NaN reads as 0). */
  if (fuzz_u8 (&in) % 4 == 3)
    {
      const uint8_t gsel = fuzz_u8 (&in);
      static const int bad[] = { 0, -1, INT_MIN };
      p.guide_width = gsel < 0xf8 ? 1 + fuzz_u8 (&in) % (gsel < 0xe0 ? 64 : 256) : bad[gsel % 3];
      p.guide_height = 1 + fuzz_u8 (&in) % (gsel < 0xe0 ? 64 : 256);
      const int32_t near[] = { p.offset_x, p.offset_y };
      int32_t *pos[] = { &p.guide_x, &p.guide_y };
      for (int a = 0; a < 2; a++)
        {
          const uint8_t psel = fuzz_u8 (&in);
          const int64_t small = (int64_t) (int8_t) fuzz_u8 (&in);
          int64_t v = psel % 4 == 0 ? (int64_t) near[a] + small * 16
                      : psel % 4 == 1 ? (int64_t) near[a] + small
                      : psel % 4 == 2 ? (int32_t) fuzz_u32 (&in)
                                      : (psel & 4 ? INT32_MAX : INT32_MIN);
          *pos[a] = (int32_t) (v < INT32_MIN ? INT32_MIN : v > INT32_MAX ? INT32_MAX : v);
        }
      p.guide_scale = fuzz_int (&in, 1, INT_MAX, 32, 1, &valid);
      if (p.guide_width < 1)
        valid = 0;
      const size_t gn = p.guide_width >= 1 ? (size_t) p.guide_width * p.guide_height : 1;
      guide = fuzz_alloc_floats (gn);
      const uint8_t gmode = fuzz_u8 (&in);
      fuzz_heights (&in, guide, gn, gmode % 2 == 0);
      if (gmode % 4 == 1) /* a sprinkle of NaN and infinities */
        for (size_t i = gmode % 7; i < gn; i += 5 + gmode % 11)
          guide[i] = i % 3 == 0 ? NAN : i % 3 == 1 ? INFINITY : -INFINITY;
      p.guide = guide;
    }

  FUZZ_DESCRIBE ("%dx%d seed %u iterations %d roughness %.17g offset (%d, %d)%s", sz.w, sz.h,
                 p.seed, p.iterations, p.roughness, (int) p.offset_x, (int) p.offset_y,
                 guide ? " guided" : "");
  float *out = fuzz_alloc_floats (sz.n);
  FuzzProgress prog;
  fuzz_progress_start (&prog, cancel_after);
  const TerrainProgress progress = { fuzz_report, &prog };
  const TerrainStatus status = terrain_field (&p, out, sz.w, sz.h, &progress);

  fuzz_check_status (status, &prog, valid);
  const int compare = fuzz_u8 (&in) % 4 == 0; /* a second render costs: one in four */
  if (status == TERRAIN_OK)
    fuzz_check_unit (out, sz.n);
  /* "guide_scale 1 returns the guide itself": the guide at each pixel's world position
   * (nearest edge pixel outside it), clamped into [0, 1], NaN as 0, quantised to 2^-24. */
  if (status == TERRAIN_OK && guide && p.guide_scale == 1)
    for (int y = 0; y < sz.h; y++)
      for (int x = 0; x < sz.w; x++)
        {
          int64_t gx = (int64_t) p.offset_x + x - p.guide_x, gy = (int64_t) p.offset_y + y - p.guide_y;
          gx = gx < 0 ? 0 : gx >= p.guide_width ? p.guide_width - 1 : gx;
          gy = gy < 0 ? 0 : gy >= p.guide_height ? p.guide_height - 1 : gy;
          const float g = guide[(size_t) gy * p.guide_width + (size_t) gx];
          const double want = g >= 0.0f ? (g <= 1.0f ? g : 1.0) : 0.0; /* NaN: 0 */
          FUZZ_CHECK (fabs (out[(size_t) y * sz.w + x] - want) <= 1e-5);
        }
  if (status == TERRAIN_OK && compare)
    {
      /* A sub-rectangle rendered on its own is bit-identical to the same pixels here. */
      const int x0 = fuzz_u16 (&in) % sz.w, y0 = fuzz_u16 (&in) % sz.h;
      const int w2 = 1 + fuzz_u16 (&in) % (sz.w - x0), h2 = 1 + fuzz_u16 (&in) % (sz.h - y0);
      TerrainField q = p;
      q.offset_x = p.offset_x + x0;
      q.offset_y = p.offset_y + y0;
      float *sub = fuzz_alloc_floats ((size_t) w2 * h2);
      fuzz_progress_start (&prog, 1000);
      const TerrainStatus sub_status = terrain_field (&q, sub, w2, h2, &progress);
      fuzz_check_status (sub_status, &prog, 1);
      if (sub_status == TERRAIN_OK)
        for (int y = 0; y < h2; y++)
          FUZZ_CHECK (memcmp (sub + (size_t) y * w2, out + (size_t) (y0 + y) * sz.w + x0,
                              (size_t) w2 * sizeof (float)) == 0);
      free (sub);
    }
  free (guide);
  free (out);
  return 0;
}
