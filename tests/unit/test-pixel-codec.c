/* The pixel codec (src/pixels) at every format a gray or RGB layer can have: every sample
 * type, every model (perceptual, linear, "~"; gray and RGB; with and without alpha) and
 * spaces with the sRGB curve, a linear curve, a gamma curve (Apple's 1.8) and curves the
 * codec leaves to babl (a space whose channels each have a gamma of their own).
 *
 *  - batching: a pixel's height, and the bytes written for a height (with and without the
 *    original), are the same whether one call converts the whole run, one pixel, or runs
 *    of 255, 256, 257 or 1000 from any start: babl 0.1.128 converts the same pixel to
 *    values one float step apart depending on where it falls in a call, which must never
 *    reach a layer (a filter reads and writes a layer in different runs);
 *  - round trip: any stored pixels (random bytes for integer types; for half, float and
 *    double random finite values, in and far out of [0, 1], subnormal and -0, and RGB
 *    colours whose channels differ) read as heights and written back with the original
 *    give every byte as it was;
 *  - what is stored is always finite and within the type's range, whatever the heights
 *    (NaN, infinities, huge values), and for half, float and double within the limit whose
 *    linear light GIMP can mix into a selection (half of float's range); the pixels counted
 *    as unmixable are the non-finite ones and those beyond that limit;
 *  - reading: a double beyond float range is the largest float of its sign; NaN and
 *    infinities stay what they are;
 *  - the value stored for a height is the one babl computes (within one step, or within
 *    float rounding, which for u32 is thousands of steps), so the curves and luminance
 *    weights are the right ones;
 *  - integer types store the nearest step of a perceptual height; alpha is copied from the
 *    original, or opaque without one;
 *  - a codec rounding to the integer format the result is stored in (GIMP's float between
 *    effects above a 16- or 8-bit layer) writes pixels that babl brings to the bytes the
 *    stored format's own codec writes, also for heights half a step from two steps;
 *  - such a float codec's table of steps (pixel-steps.h) writes and reads the bits the codec
 *    computes without it: every step's height, heights between and beyond them, every
 *    step's colour and babl's, the floats up to 4 and 1024 from it, other colours, RGB
 *    colours whose channels differ, -0, negatives and values beyond the last step, with
 *    and without the original; and the dip of the sRGB curve's reading it relies on is where the codec's
 *    reading falls back. */
#include "check.h"

#include "pixel-codec.h"
#include "pixel-steps.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define N 4096

static const char *const types[] = { "u8", "u16", "u32", "half", "float", "double" };
static const char *const models[] = { "Y'", "Y", "Y~", "Y'A", "YA", "Y~A",
                                      "R'G'B'", "RGB", "R~G~B~", "R'G'B'A", "RGBA", "R~G~B~A" };
static const char *const spaces[] = { "sRGB", "scRGB", "Rec2020", "Apple", "mixed" };
enum { FIRST_GAMMA_SPACE = 3 }; /* Apple and mixed: their curves are gammas */

/* A space whose channels have curves of their own: no single curve, so babl converts. */
static const Babl *
space_named (const char *name)
{
  if (strcmp (name, "mixed") != 0)
    return babl_space (name);
  return babl_space_from_chromaticities ("terrain test: mixed curves", 0.3127, 0.3290, 0.64, 0.33,
                                         0.30, 0.60, 0.15, 0.06, babl_trc_gamma (1.8),
                                         babl_trc_gamma (2.2), babl_trc_gamma (2.6),
                                         BABL_SPACE_FLAG_NONE);
}

/* A small fixed-seed generator: the tests see the same pixels on every run. */
static uint64_t
next_random (uint64_t *state)
{
  *state += 0x9e3779b97f4a7c15u;
  uint64_t z = *state;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

/* A finite sample value of the kinds a float layer may hold. */
static double
finite_sample (uint64_t *state)
{
  static const double specials[] = { 0.0, -0.0, 1.0, 0.5, -1.0, 1e-40, -3e-39, 65504.0,
                                     1e30, -1e30, 3.4e38, -3.4e38, 1e-8, 2.0, 70000.0 };
  const uint64_t r = next_random (state);
  if (r % 4 == 0)
    return specials[(r >> 8) % (sizeof specials / sizeof specials[0])];
  return ((double) (r >> 11) / 9007199254740992.0) * 3.0 - 1.0;
}

static uint16_t
half_of (double v)
{
  /* Finite halves only: round by the codec's own writer through a 1-pixel gray format. */
  static TerrainPixelCodec c;
  if (c.format == NULL)
    terrain_pixel_codec (babl_format ("Y' half"), &c);
  const float h = (float) v;
  uint16_t    out;
  terrain_heights_to_pixels (&c, &h, NULL, &out, 1);
  return out;
}

/* n pixels of codec's format: random bytes, or random finite values for float types; RGB
 * pixels differ per channel in half of them. */
static void
random_pixels (const TerrainPixelCodec *c, void *pixels, int n, uint64_t *state)
{
  guchar *bytes = pixels;
  for (int i = 0; i < n * c->components; i++)
    {
      guchar *p = bytes + (size_t) i * c->sample_bytes;
      if (c->type == TERRAIN_SAMPLE_FLOAT)
        {
          const float v = (float) finite_sample (state);
          memcpy (p, &v, 4);
        }
      else if (c->type == TERRAIN_SAMPLE_DOUBLE)
        {
          double v = finite_sample (state);
          if (next_random (state) % 16 == 0)
            v = v < 0 ? -1e300 : 1e300; /* beyond float */
          memcpy (p, &v, 8);
        }
      else if (c->type == TERRAIN_SAMPLE_HALF)
        {
          const uint16_t v = half_of (fmax (-65504.0, fmin (65504.0, finite_sample (state))));
          memcpy (p, &v, 2);
        }
      else
        for (int b = 0; b < c->sample_bytes; b++)
          p[b] = (guchar) next_random (state);
    }
  /* Gray colours (R = G = B) in every other RGB pixel: the common case. */
  if (c->colours == 3)
    for (int i = 0; i < n; i += 2)
      for (int k = 1; k < 3; k++)
        memcpy (bytes + ((size_t) i * c->components + k) * c->sample_bytes,
                bytes + (size_t) i * c->components * c->sample_bytes, c->sample_bytes);
}

/* Sample s of a pixel run as a double (integer types as stored, not scaled). */
static double
sample (const TerrainPixelCodec *c, const void *pixels, size_t s)
{
  const guchar *p = (const guchar *) pixels + s * c->sample_bytes;
  switch (c->type)
    {
    case TERRAIN_SAMPLE_U8:  return *p;
    case TERRAIN_SAMPLE_U16: { uint16_t v; memcpy (&v, p, 2); return v; }
    case TERRAIN_SAMPLE_U32: { uint32_t v; memcpy (&v, p, 4); return v; }
    case TERRAIN_SAMPLE_HALF:
      {
        uint16_t v;
        memcpy (&v, p, 2);
        if (((v >> 10) & 0x1f) == 0x1f)
          return (v & 0x3ff) ? NAN : (v & 0x8000) ? -INFINITY : INFINITY;
        return 0.0; /* finite: the value does not matter here */
      }
    case TERRAIN_SAMPLE_FLOAT: { float v; memcpy (&v, p, 4); return v; }
    default:                   { double v; memcpy (&v, p, 8); return v; }
    }
}

static void
test_round_trip (const TerrainPixelCodec *c, const char *name, uint64_t *state)
{
  static guchar original[N * 4 * 8], written[N * 4 * 8];
  static float  heights[N];
  const size_t  bytes = (size_t) N * c->components * c->sample_bytes;
  random_pixels (c, original, N, state);
  terrain_pixels_to_heights (c, original, heights, N);
  memset (written, 0xa5, bytes);
  terrain_heights_to_pixels (c, heights, original, written, N);
  size_t differ = 0, first = 0;
  for (size_t i = 0; i < bytes; i++)
    if (original[i] != written[i] && differ++ == 0)
      first = i;
  CHECK (differ == 0, "%s: round trip changed %zu bytes, the first in pixel %zu", name, differ,
         first / (c->components * c->sample_bytes));

  size_t non_finite = 0;
  for (int i = 0; i < N; i++)
    non_finite += ! isfinite (heights[i]);
  CHECK (non_finite == 0, "%s: %zu heights of finite pixels are not finite", name, non_finite);
}

/* Every value of a grey 8- or 16-bit format is written back as itself from the height it
 * reads as (the codec keeps such a layer's unchanged pixels by that alone), and with the
 * original every pixel is the original again. */
static void
test_every_value (const TerrainPixelCodec *c, const char *name, uint64_t *state)
{
  if (c->colours != 1 || c->curve == TERRAIN_CURVE_BABL ||
      (c->type != TERRAIN_SAMPLE_U8 && c->type != TERRAIN_SAMPLE_U16))
    return;
  const int     values = c->type == TERRAIN_SAMPLE_U8 ? 256 : 65536;
  const size_t  pixel = (size_t) c->components * c->sample_bytes;
  guchar       *original = g_malloc (values * pixel), *written = g_malloc (values * pixel);
  float        *heights = g_new (float, values);
  random_pixels (c, original, values, state);
  for (int v = 0; v < values; v++)
    if (c->type == TERRAIN_SAMPLE_U8)
      original[v * pixel] = (guchar) v;
    else
      memcpy (original + v * pixel, &(uint16_t) { (uint16_t) v }, 2);
  terrain_pixels_to_heights (c, original, heights, values);
  terrain_heights_to_pixels (c, heights, NULL, written, values);
  int apart = 0, first = -1;
  for (int v = 0; v < values; v++)
    if (memcmp (written + v * pixel, original + v * pixel, c->sample_bytes) != 0 && apart++ == 0)
      first = v;
  CHECK (apart == 0, "%s: %d values not written back as themselves, the first %d", name, apart,
         first);
  terrain_heights_to_pixels (c, heights, original, written, values);
  CHECK (memcmp (written, original, values * pixel) == 0, "%s: every value with its original "
         "not the original", name);
  g_free (original);
  g_free (written);
  g_free (heights);
}

/* The runs of one batching: a first run of `lead` pixels (none when 0), then runs of
 * `length`; *count the pixels of the run that starts at `start`. */
typedef struct { gsize lead, length; } Batching;

static gsize
run_at (const Batching *b, gsize start)
{
  const gsize end = start < b->lead ? b->lead : start + b->length;
  return MIN (end, (gsize) N) - start;
}

/* Decoding, encoding and keeping unchanged pixels, run by run, against the whole run at
 * once: the same heights and bytes at every batching. */
static void
test_batching (const TerrainPixelCodec *c, const char *name, uint64_t *state)
{
  static const Batching batchings[] = { { 0, 1 }, { 0, 255 }, { 0, 256 }, { 0, 257 },
                                        { 5, 256 }, { 3, 1000 } };
  static guchar original[N * 4 * 8], whole[N * 4 * 8], runs[N * 4 * 8];
  static float  heights[N], again[N];
  const gsize   pixel = (gsize) c->components * c->sample_bytes, bytes = N * pixel;
  random_pixels (c, original, N, state);
  terrain_pixels_to_heights (c, original, heights, N);
  terrain_heights_to_pixels (c, heights, NULL, whole, N);
  for (gsize b = 0; b < sizeof batchings / sizeof batchings[0]; b++)
    {
      const Batching *batching = &batchings[b];
      gsize           read_differ = 0, kept_differ = 0, written_differ = 0;
      for (gsize start = 0, n; start < N; start += n)
        {
          n = run_at (batching, start);
          terrain_pixels_to_heights (c, original + start * pixel, again + start, n);
        }
      for (gsize i = 0; i < N; i++)
        read_differ += memcmp (&again[i], &heights[i], sizeof (float)) != 0;
      for (gsize start = 0, n; start < N; start += n)
        {
          n = run_at (batching, start);
          terrain_heights_to_pixels (c, heights + start, original + start * pixel,
                                     runs + start * pixel, n);
        }
      for (gsize i = 0; i < bytes; i++)
        kept_differ += runs[i] != original[i];
      for (gsize start = 0, n; start < N; start += n)
        {
          n = run_at (batching, start);
          terrain_heights_to_pixels (c, heights + start, NULL, runs + start * pixel, n);
        }
      for (gsize i = 0; i < bytes; i++)
        written_differ += runs[i] != whole[i];
      CHECK (read_differ == 0 && kept_differ == 0 && written_differ == 0,
             "%s, runs of %zu after %zu: %zu heights read differently, %zu bytes of the "
             "original not kept, %zu bytes written differently", name, batching->length,
             batching->lead, read_differ, kept_differ, written_differ);
    }
}

/* Heights no layer can hold: whatever is stored is finite and in the type's range. */
static void
test_storage_range (const TerrainPixelCodec *c, const char *name)
{
  const float odd[] = { NAN, -NAN, INFINITY, -INFINITY, FLT_MAX, -FLT_MAX, 1e30f, -1e30f,
                        65504.0f, 65520.0f, 70000.0f, -70000.0f, 2.0f, -0.5f, 1e-45f, -0.0f };
  const int n = (int) (sizeof odd / sizeof odd[0]);
  guchar    pixels[16 * 4 * 8];
  terrain_heights_to_pixels (c, odd, NULL, pixels, n);
  int bad = 0;
  for (int s = 0; s < n * c->components; s++)
    {
      const double v = sample (c, pixels, s);
      if (! isfinite (v) || (c->type >= TERRAIN_SAMPLE_HALF && fabs (v) > c->limit))
        bad++;
    }
  CHECK (bad == 0, "%s: %d stored samples not finite or beyond the limit %g", name, bad, c->limit);
}

/* What babl stores for heights in [0, 1], against the codec. */
static void
test_against_babl (const TerrainPixelCodec *c, const char *name, gboolean gamma_curves)
{
  enum { M = 257 };
  float  heights[M];
  static guchar ours[M * 4 * 8], theirs[M * 4 * 8];
  for (int i = 0; i < M; i++)
    heights[i] = (float) i / (M - 1);
  terrain_heights_to_pixels (c, heights, NULL, ours, M);
  babl_process (babl_fish (babl_format_with_space ("Y' float", c->format), c->format), heights,
                theirs, M);
  double worst = 0.0;
  for (int s = 0; s < M * c->components; s++)
    {
      const double a = sample (c, ours, s), b = sample (c, theirs, s);
      double err = fabs (a - b);
      if (c->type == TERRAIN_SAMPLE_HALF)
        {
          uint16_t x, y;
          memcpy (&x, ours + (size_t) s * 2, 2);
          memcpy (&y, theirs + (size_t) s * 2, 2);
          err = abs ((int) x - (int) y); /* steps (ulps) of positive halves */
        }
      else if (c->type >= TERRAIN_SAMPLE_FLOAT)
        err /= 1e-6; /* in units of float rounding near 1 */
      else if (c->type == TERRAIN_SAMPLE_U32)
        err /= 4294967295.0 * 1e-6; /* babl computes u32 in float: within its rounding */
      worst = fmax (worst, err);
    }
  /* babl computes a gamma curve by polynomials, up to 3.4e-4 from exact (at h = 1/256 for
   * Apple's 1.8, measured with babl 0.1.114 and 0.1.128), where the codec is exact
   * (test_gamma), and babl's "Y' float" to "Y'A u16" goes through linear light where the
   * codec copies: within 5e-4 there, still far from any other curve (1.8 and 2.2 are 0.07
   * apart at 0.5). */
  const double allowed = gamma_curves ? 5e-4 / (c->type == TERRAIN_SAMPLE_U16 ? 1.0 / 65535 : 1e-6)
                                      : 1.0;
  CHECK (worst <= allowed, "%s: %g steps from babl's own conversion", name, worst);
}

/* A perceptual integer layer stores the nearest step; reading it back is within half a
 * step. */
static void
test_nearest_step (const TerrainPixelCodec *c, const char *name)
{
  if (c->type > TERRAIN_SAMPLE_U16 || c->curve != TERRAIN_CURVE_NONE)
    return;
  const double max = c->type == TERRAIN_SAMPLE_U8 ? 255.0 : 65535.0;
  int          bad = 0;
  for (int i = 0; i <= 1000; i++)
    {
      const float h = (float) i / 1000.0f;
      guchar      pixel[4 * 8];
      float       back;
      terrain_heights_to_pixels (c, &h, NULL, pixel, 1);
      terrain_pixels_to_heights (c, pixel, &back, 1);
      bad += fabs (back - h) > 0.5 / max + 1e-7 || sample (c, pixel, 0) != floor (h * max + 0.5);
    }
  CHECK (bad == 0, "%s: %d heights not stored at the nearest step", name, bad);
}

static void
test_alpha (const TerrainPixelCodec *c, const char *name, uint64_t *state)
{
  if (! c->has_alpha)
    return;
  guchar original[64 * 4 * 8], written[64 * 4 * 8];
  float  heights[64];
  random_pixels (c, original, 64, state);
  for (int i = 0; i < 64; i++)
    heights[i] = 0.25f + i / 256.0f; /* new heights: every pixel changes */
  terrain_heights_to_pixels (c, heights, original, written, 64);
  const size_t pixel = (size_t) c->components * c->sample_bytes;
  const size_t alpha = (size_t) c->colours * c->sample_bytes;
  int kept = 0, opaque = 0;
  for (int i = 0; i < 64; i++)
    kept += memcmp (written + i * pixel + alpha, original + i * pixel + alpha, c->sample_bytes) == 0;
  terrain_heights_to_pixels (c, heights, NULL, written, 64);
  for (int i = 0; i < 64; i++)
    {
      /* Opaque: the alpha sample is the type's 1. */
      const double a = sample (c, written, (size_t) i * c->components + c->colours);
      const double one = c->type == TERRAIN_SAMPLE_U8 ? 255.0 : c->type == TERRAIN_SAMPLE_U16 ? 65535.0
                       : c->type == TERRAIN_SAMPLE_U32 ? 4294967295.0 : 1.0;
      opaque += c->type == TERRAIN_SAMPLE_HALF ? ! memcmp (written + i * pixel + alpha, "\0\x3c", 2)
                                               : a == one;
    }
  CHECK (kept == 64, "%s: alpha kept in %d of 64 pixels", name, kept);
  CHECK (opaque == 64, "%s: %d of 64 pixels opaque without an original", name, opaque);
}

/* The limit: linear light within half of float's range; pixels beyond it, or not finite,
 * counted where covered. */
static void
test_mixable (void)
{
  TerrainPixelCodec c;
  CHECK (terrain_pixel_codec (babl_format ("Y' float"), &c) && fabs (c.limit - 9.0e15) < 0.1e15,
         "Y' float limit %g", c.limit);
  CHECK (terrain_pixel_codec (babl_format ("Y float"), &c) && c.limit == FLT_MAX / 2,
         "Y float limit %g", c.limit);
  CHECK (terrain_pixel_codec (babl_format ("Y' half"), &c) && c.limit == 65504.0,
         "Y' half limit %g", c.limit);
  CHECK (terrain_pixel_codec (babl_format ("Y' u16"), &c) && c.limit == 1.0, "u16 limit %g", c.limit);

  terrain_pixel_codec (babl_format ("R'G'B'A float"), &c);
  const float pixels[6][4] = { { 0.5f, 0.5f, 0.5f, 1 },  { 1e20f, 0, 0, 1 }, { 0, NAN, 0, 1 },
                               { 1, 1, 1, NAN },         { -1e16f, 0, 0, 1 }, { 8e15f, 8e15f, 8e15f, 1 } };
  const float covered[6] = { 1, 1, 1, 1, 0, 0.5f };
  gsize first = 99;
  const gsize count = terrain_pixels_count_unmixable (&c, pixels, covered, 6, &first);
  CHECK (count == 2 && first == 1, "unmixable: %zu, the first %zu (alpha does not count, "
         "uncovered pixels neither)", count, first);

  /* What the limit means: babl's own curve takes it to a finite linear value, with room. */
  float linear[1];
  const float at_limit[1] = { (float) c.limit };
  babl_process (babl_fish (babl_format ("Y' float"), babl_format ("Y float")), at_limit, linear, 1);
  CHECK (isfinite (linear[0]) && linear[0] <= FLT_MAX / 1.5f, "linear light at the limit %g",
         linear[0]);
}

/* A gamma space's curve, exactly: linear light is the height to the gamma, mirrored below
 * 0 as the sRGB curve is. */
static void
test_gamma (void)
{
  TerrainPixelCodec c;
  CHECK (terrain_pixel_codec (babl_format_with_space ("Y float", babl_space ("Apple")), &c) &&
           c.space_curve == TERRAIN_SPACE_GAMMA && c.gamma == 1.8,
         "Apple's curve: gamma %g", c.gamma);
  int bad = 0;
  for (int i = -100; i <= 100; i++)
    {
      const float  h = (float) i / 37.0f;
      const double y = pow (fabs (h), 1.8);
      float        stored;
      terrain_heights_to_pixels (&c, &h, NULL, &stored, 1);
      bad += stored != (float) (h < 0 ? -y : y);
    }
  CHECK (bad == 0, "Y float (Apple): %d of 201 heights not stored as height ^ 1.8", bad);
}

/* Double beyond float range, NaN and infinities, read. */
static void
test_reading_extremes (void)
{
  TerrainPixelCodec c;
  CHECK (terrain_pixel_codec (babl_format ("Y' double"), &c), "Y' double");
  const double in[] = { 1e300, -1e300, NAN, INFINITY, -INFINITY, 0.25 };
  float out[6];
  terrain_pixels_to_heights (&c, in, out, 6);
  CHECK (out[0] == FLT_MAX && out[1] == -FLT_MAX, "beyond float: %g %g", out[0], out[1]);
  CHECK (isnan (out[2]) && out[3] == INFINITY && out[4] == -INFINITY && out[5] == 0.25f,
         "NaN and infinities: %g %g %g %g", out[2], out[3], out[4], out[5]);

  CHECK (terrain_pixel_codec (babl_format ("Y' half"), &c), "Y' half");
  const uint16_t halves[] = { 0x7c00, 0xfc00, 0x7e00, 0x7bff };
  terrain_pixels_to_heights (&c, halves, out, 4);
  CHECK (out[0] == INFINITY && out[1] == -INFINITY && isnan (out[2]) && out[3] == 65504.0f,
         "half: %g %g %g %g", out[0], out[1], out[2], out[3]);
}

#define HEIGHTS 20000

/* Heights written in `format`, rounded to `stored`, then converted to `stored` by babl, give
 * the bytes stored's own codec writes: 20000 heights, half of them within float rounding of
 * the middle between two steps (there a float, without the rounding, goes either way). */
static void
test_stored_in (const char *format, const char *stored, double steps)
{
  TerrainPixelCodec through, own;
  CHECK (terrain_pixel_codec (babl_format (format), &through) &&
           terrain_pixel_codec (babl_format (stored), &own), "%s, %s", format, stored);
  terrain_pixel_codec_store_in (&through, babl_format (stored));
  CHECK (through.storage != NULL, "%s: not rounded to %s", format, stored);
  uint64_t state = 20261128;
  float   *heights = g_new (float, HEIGHTS);
  for (int i = 0; i < HEIGHTS; i++)
    {
      const double step = (double) (next_random (&state) % (uint64_t) steps);
      const double off = (double) (next_random (&state) % 2001) / 1000.0 - 1.0;
      heights[i] = (float) (i % 2 ? (step + 0.5 + 1e-4 * off) / steps : (step + off) / steps);
    }
  const int bytes = babl_format_get_bytes_per_pixel (babl_format (stored));
  guchar   *pixels = g_malloc ((gsize) HEIGHTS * babl_format_get_bytes_per_pixel (through.format));
  guchar   *converted = g_malloc ((gsize) HEIGHTS * bytes), *expected = g_malloc ((gsize) HEIGHTS * bytes);
  terrain_heights_to_pixels (&through, heights, NULL, pixels, HEIGHTS);
  babl_process (babl_fish (through.format, own.format), pixels, converted, HEIGHTS);
  terrain_heights_to_pixels (&own, heights, NULL, expected, HEIGHTS);
  int differ = 0;
  for (int i = 0; i < HEIGHTS; i++)
    differ += memcmp (converted + i * bytes, expected + i * bytes, bytes) != 0;
  CHECK (differ == 0, "%s rounded to %s: %d of %d pixels babl stores apart", format, stored,
         differ, HEIGHTS);
  g_free (heights);
  g_free (pixels);
  g_free (converted);
  g_free (expected);
}

/* Pixels of each step in the steps test, and pixels beyond them. */
#define STEP_COLOURS 12
#define STEPS_BEYOND 4096

/* Heights for the steps test: by step, its level, mostly, and the floats next to it; then
 * random ones in and beyond [0, 1]. */
static gsize
steps_heights (const TerrainPixelCodec *c, float *heights, uint64_t *state)
{
  const guint count = c->storage->type == TERRAIN_SAMPLE_U8 ? 256 : 65536;
  gsize       n = 0;
  for (guint k = 0; k < count; k++)
    for (int j = 0; j < STEP_COLOURS; j++)
      {
        const float level = terrain_pixel_steps_level (c->steps, k);
        heights[n++] = j == 5 ? nextafterf (level, -1.0f) : j == 10 ? nextafterf (level, 2.0f)
                                                                    : level;
      }
  for (int i = 0; i < STEPS_BEYOND; i++)
    heights[n++] = (float) finite_sample (state);
  return n;
}

/* The colours babl converts the steps of `stored` into, in c's format. */
static float *
steps_by_babl (const TerrainPixelCodec *c, const char *stored, guint count)
{
  const Babl *from = babl_format (stored);
  const int   components = babl_format_get_n_components (from);
  guint16    *steps16 = g_new (guint16, (gsize) count * components);
  guint8     *steps8 = (guint8 *) steps16;
  float      *converted = g_new (float, (gsize) count * c->components), *colours = g_new (float, count);
  for (guint k = 0; k < count; k++)
    for (int s = 0; s < components; s++)
      {
        const guint value = s < c->storage->colours ? k : count - 1;
        if (count == 256)
          steps8[(gsize) k * components + s] = (guint8) value;
        else
          steps16[(gsize) k * components + s] = (guint16) value;
      }
  babl_process (babl_fish (from, c->format), steps16, converted, count);
  for (guint k = 0; k < count; k++)
    colours[k] = converted[(gsize) k * c->components];
  g_free (steps16);
  g_free (converted);
  return colours;
}

/* Colours for the steps test, as float pixels of c: every step's colour, the floats up to
 * 4 apart and one up to 1024 apart, and babl's colour of it from the stored format (what
 * GIMP hands an effect above another), grey; then random ones, some with channels apart,
 * -0 and beyond. */
static void
steps_colours (const TerrainPixelCodec *c, const char *stored, float *pixels, gsize n,
               uint64_t *state)
{
  const guint count = c->storage->type == TERRAIN_SAMPLE_U8 ? 256 : 65536;
  float      *by_babl = steps_by_babl (c, stored, count);
  for (gsize i = 0; i < n; i++)
    {
      const guint k = (guint) (i / STEP_COLOURS) % count, j = (guint) (i % STEP_COLOURS);
      float       v = j == 0 ? by_babl[k] : terrain_pixel_steps_colour (c->steps, k);
      for (guint apart = j < 9 ? (j + 1) / 2 : 1 + next_random (state) % 1024; j > 0 && apart;
           apart--)
        v = nextafterf (v, j % 2 ? -1.0f : 2.0f);
      if (i >= STEP_COLOURS * (gsize) count)
        v = i % 5 == 0 ? -0.0f : (float) finite_sample (state);
      for (int s = 0; s < c->components; s++)
        pixels[i * c->components + s] = s < c->colours ? v : 1.0f;
      if (c->colours == 3 && i % 7 == 0)
        pixels[i * c->components + 1] = nextafterf (v, 2.0f);
    }
  g_free (by_babl);
}

/* A float codec stored in `stored` writes and reads by its steps the bits it computes
 * without them. */
static void
test_steps (const char *format, const char *stored, uint64_t *state)
{
  TerrainPixelCodec c;
  CHECK (terrain_pixel_codec (babl_format (format), &c), "%s", format);
  terrain_pixel_codec_store_in (&c, babl_format (stored));
  CHECK (c.steps != NULL, "%s stored in %s: no steps", format, stored);
  if (c.steps == NULL)
    return;
  const guint count_steps = strstr (stored, "u8") ? 256 : 65536;
  TerrainPixelCodec plain = c;
  plain.steps = NULL;
  /* Found: every step's colour that reads as its level, but step 0's (0 reads as -0 from
   * some colours) and those the sRGB curve's dip holds. */
  guint found = 0, reading_level = 0;
  for (guint k = 1; k < count_steps; k++)
    {
      const float colour = terrain_pixel_steps_colour (c.steps, k);
      float       pixel[4] = { colour, colour, colour, 1.0f }, height, read;
      terrain_pixels_to_heights (&plain, pixel, &read, 1);
      reading_level += read == terrain_pixel_steps_level (c.steps, k);
      found += terrain_pixel_steps_read (c.steps, colour, &height) == 1;
    }
  CHECK (found <= reading_level && found + 2 >= reading_level && found > count_steps / 2,
         "%s in %s: %u of %u steps' colours found, %u read as their level", format, stored,
         found, count_steps, reading_level);
  const gsize n = STEP_COLOURS * 65536 + STEPS_BEYOND, bytes = n * c.components * sizeof (float);
  float      *heights = g_new (float, n), *read = g_new (float, n), *expected = g_new (float, n);
  float      *original = g_malloc (bytes), *pixels = g_malloc (bytes), *want = g_malloc (bytes);
  const gsize count = steps_heights (&c, heights, state);
  steps_colours (&c, stored, original, count, state);
  terrain_pixels_to_heights (&c, original, read, count);
  terrain_pixels_to_heights (&plain, original, expected, count);
  CHECK (memcmp (read, expected, count * sizeof (float)) == 0, "%s in %s: heights read apart",
         format, stored);
  for (int with_original = 0; with_original < 2; with_original++)
    {
      terrain_heights_to_pixels (&c, heights, with_original ? original : NULL, pixels, count);
      terrain_heights_to_pixels (&plain, heights, with_original ? original : NULL, want, count);
      CHECK (memcmp (pixels, want, count * c.components * sizeof (float)) == 0,
             "%s in %s: pixels written apart (original %d)", format, stored, with_original);
    }
  g_free (heights);
  g_free (read);
  g_free (expected);
  g_free (original);
  g_free (pixels);
  g_free (want);
}

/* The dip the codec reports is where its reading of linear light falls back: the last
 * float on the sRGB curve's linear piece reads above the first on its power piece, both
 * within the dip; and a codec with no curve has none. */
static void
test_dip (void)
{
  TerrainPixelCodec c;
  float             from = 0.0f, to = 0.0f;
  terrain_pixel_codec (babl_format ("YA float"), &c);
  CHECK (terrain_pixel_codec_dip (&c, &from, &to) && from < to, "YA float: no dip");
  float last_linear = (float) 0.0031308;
  if ((double) last_linear > 0.0031308)
    last_linear = nextafterf (last_linear, 0.0f);
  float pixels[4] = { last_linear, 1.0f, nextafterf (last_linear, 1.0f), 1.0f }, heights[2];
  terrain_pixels_to_heights (&c, pixels, heights, 2);
  CHECK (heights[1] < heights[0] && heights[0] <= to && heights[1] >= from,
         "YA float: %.9g then %.9g, the dip %.9g to %.9g", heights[0], heights[1], from, to);
  terrain_pixel_codec (babl_format ("Y'A float"), &c);
  CHECK (! terrain_pixel_codec_dip (&c, &from, &to), "Y'A float: a dip");
}

int
main (void)
{
  babl_init ();
  uint64_t state = 20261123;
  int      curves[4] = { 0 }, space_curves[3] = { 0 };
  for (size_t s = 0; s < sizeof spaces / sizeof spaces[0]; s++)
    for (size_t m = 0; m < sizeof models / sizeof models[0]; m++)
      for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
        {
          char name[64];
          snprintf (name, sizeof name, "%s %s", models[m], types[t]);
          const Babl *format = babl_format_with_space (name, space_named (spaces[s]));
          TerrainPixelCodec c;
          CHECK (terrain_pixel_codec (format, &c), "%s (%s) not taken", name, spaces[s]);
          snprintf (name + strlen (name), sizeof name - strlen (name), " (%s)", spaces[s]);
          curves[c.curve]++;
          if (c.curve != TERRAIN_CURVE_BABL)
            space_curves[c.space_curve]++;
          test_round_trip (&c, name, &state);
          test_every_value (&c, name, &state);
          test_batching (&c, name, &state);
          test_storage_range (&c, name);
          /* Curves and weights do not depend on the type, and a babl fish takes babl
           * tens of milliseconds to choose: against babl in u16 and float only. */
          if (c.type == TERRAIN_SAMPLE_U16 || c.type == TERRAIN_SAMPLE_FLOAT)
            test_against_babl (&c, name, s >= FIRST_GAMMA_SPACE);
          test_nearest_step (&c, name);
          test_alpha (&c, name, &state);
        }
  printf ("formats by curve: none %d, linear %d, sRGB %d, babl %d; by the space's curve "
          "(not babl's): linear %d, sRGB %d, gamma %d\n", curves[0], curves[1], curves[2],
          curves[3], space_curves[0], space_curves[1], space_curves[2]);
  CHECK (curves[TERRAIN_CURVE_NONE] && curves[TERRAIN_CURVE_LINEAR] && curves[TERRAIN_CURVE_SRGB] &&
           curves[TERRAIN_CURVE_BABL] && space_curves[TERRAIN_SPACE_LINEAR] &&
           space_curves[TERRAIN_SPACE_SRGB] && space_curves[TERRAIN_SPACE_GAMMA],
         "every curve is tested");
  test_gamma ();
  test_reading_extremes ();
  test_mixable ();
  test_stored_in ("RGBA float", "Y' u16", 65535.0);
  test_stored_in ("RGBA float", "Y'A u8", 255.0);
  test_stored_in ("Y'A float", "Y u16", 65535.0);
  static const char *const step_formats[][2] = {
    { "RGBA float", "Y' u16" }, { "RGBA float", "Y'A u8" }, { "Y'A float", "Y u16" },
    { "RGB float", "R'G'B'A u16" }, { "YA float", "Y~ u8" }, { "R~G~B~A float", "Y' u16" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (step_formats); i++)
    test_steps (step_formats[i][0], step_formats[i][1], &state);
  test_dip ();

  TerrainPixelCodec c;
  CHECK (! terrain_pixel_codec (babl_format ("CMYK u8"), &c), "CMYK taken");
  CHECK (! terrain_pixel_codec (babl_format ("RaGaBaA float"), &c), "premultiplied taken");
  return CHECK_DONE ("pixel-codec");
}
