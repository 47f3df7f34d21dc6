/* libFuzzer harness: terrain_field with every iteration count (1..30 and beyond), roughness
 * 0..2, offsets anywhere in the 32-bit world (near 0, +-2^30, and at the edges where the
 * rectangle just fits or just leaves [INT32_MIN, INT32_MAX]).
 *
 * Checks: the status promises (an out-of-world rectangle is TERRAIN_ERROR_INVALID); on
 * TERRAIN_OK every pixel in [0, 1]; and field.h's central promise: a pixel's value depends
 * only on its world position, "bit-identical whatever rectangle contains it", tested by
 * rendering a sub-rectangle at the shifted offset and comparing bits. */
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

  float *out = fuzz_alloc_floats (sz.n);
  FuzzProgress prog;
  fuzz_progress_start (&prog, cancel_after);
  const TerrainProgress progress = { fuzz_report, &prog };
  const TerrainStatus status = terrain_field (&p, out, sz.w, sz.h, &progress);

  fuzz_check_status (status, &prog, valid);
  if (status == TERRAIN_OK)
    {
      fuzz_check_unit (out, sz.n);

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
  free (out);
  return 0;
}
