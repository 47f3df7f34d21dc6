#include "pixel-codec.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define HALF_MAX 65504.0

/* ---- Curves, in double: the constants are babl's (and IEC 61966-2-1's). ---- */

static double
srgb_to_linear (double v)
{
  const double a = fabs (v);
  const double y = a <= 0.04045 ? a / 12.92 : pow ((a + 0.055) / 1.055, 2.4);
  return v < 0.0 ? -y : y;
}

static double
srgb_from_linear (double y)
{
  const double a = fabs (y);
  const double v = a <= 0.0031308 ? a * 12.92 : 1.055 * pow (a, 1.0 / 2.4) - 0.055;
  return y < 0.0 ? -v : v;
}

/* Linear light from a height (the space's perceptual value), and back. */
static double
space_to_linear (const TerrainPixelCodec *c, double h)
{
  return c->srgb_space ? srgb_to_linear (h) : h;
}

static double
space_from_linear (const TerrainPixelCodec *c, double y)
{
  return c->srgb_space ? srgb_from_linear (y) : y;
}

/* A stored colour value as linear light, and back. */
static double
stored_to_linear (const TerrainPixelCodec *c, double s)
{
  switch (c->curve)
    {
    case TERRAIN_CURVE_LINEAR: return s;
    case TERRAIN_CURVE_SRGB:   return srgb_to_linear (s);
    default:                   return space_to_linear (c, s);
    }
}

static double
stored_from_height (const TerrainPixelCodec *c, double h)
{
  switch (c->curve)
    {
    case TERRAIN_CURVE_LINEAR: return space_to_linear (c, h);
    case TERRAIN_CURVE_SRGB:   return srgb_from_linear (space_to_linear (c, h));
    default:                   return h;
    }
}

/* ---- Samples ---- */

static float
half_to_float (guint16 h)
{
  const guint32 sign = (guint32) (h & 0x8000) << 16;
  const guint32 exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  union { guint32 u; float f; } v;
  if (exponent == 0) /* zero or subnormal: mantissa x 2^-24 */
    return (h & 0x8000 ? -1.0f : 1.0f) * (float) mantissa / 16777216.0f;
  v.u = sign | ((exponent == 31 ? 255 : exponent + 112) << 23) | (mantissa << 13);
  return v.f;
}

/* Round to nearest even; |f| <= HALF_MAX (the caller clamps). */
static guint16
half_from_float (float f)
{
  union { float f; guint32 u; } v = { f };
  const guint32 sign = (v.u >> 16) & 0x8000, x = v.u & 0x7fffffff;
  if (x < 0x38800000) /* below 2^-14: a subnormal half, in units of 2^-24 (1024 = 2^-14) */
    return (guint16) (sign | (guint32) rintf (fabsf (f) * 16777216.0f));
  guint32 h = ((((x >> 23) - 112) << 10) | ((x & 0x7fffff) >> 13));
  const guint32 rest = x & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
    h++;
  return (guint16) (sign | h);
}

/* The step of an integer type nearest to v (clamped to [0, 1]; NaN: 0) times its maximum. */
static inline double
quantise (double v, double max)
{
  const double s = v * max + 0.5;
  return ! (s > 0.0) ? 0.0 : s >= max ? max : floor (s);
}

/* v within +-limit; NaN (which callers never pass) gives 0, so nothing non-finite is
 * ever stored. */
static inline double
clamp (double v, double limit)
{
  return v < -limit ? -limit : v > limit ? limit : v == v ? v : 0.0;
}

/* ---- Runs of pixels, one loop per sample type ---- */

/* The value stored for a height: the height itself on the layer's own curve. */
static inline double
stored (const TerrainPixelCodec *c, float height)
{
  return c->curve == TERRAIN_CURVE_NONE ? height : stored_from_height (c, height);
}

/* Every colour of pixel i gets the stored value of heights[i] as a T, alpha OPAQUE. */
#define ENCODE(T, CONVERT, OPAQUE)                                               \
  for (gsize i = 0; i < n; i++)                                                  \
    {                                                                            \
      const double s = stored (c, heights[i]);                                   \
      const T      v = CONVERT;                                                  \
      T           *p = (T *) pixels + i * c->components;                         \
      for (int k = 0; k < c->colours; k++)                                       \
        p[k] = v;                                                                \
      if (c->has_alpha)                                                          \
        p[c->colours] = OPAQUE;                                                  \
    }

static void
encode (const TerrainPixelCodec *c, const float *heights, void *pixels, gsize n)
{
  switch (c->type)
    {
    case TERRAIN_SAMPLE_U8:    ENCODE (guint8, (guint8) quantise (s, 255.0), 255); break;
    case TERRAIN_SAMPLE_U16:   ENCODE (guint16, (guint16) quantise (s, 65535.0), 65535); break;
    case TERRAIN_SAMPLE_U32:   ENCODE (guint32, (guint32) quantise (s, 4294967295.0), G_MAXUINT32); break;
    case TERRAIN_SAMPLE_HALF:  ENCODE (guint16, half_from_float ((float) clamp (s, c->limit)), 0x3c00); break;
    case TERRAIN_SAMPLE_FLOAT: ENCODE (float, (float) clamp (s, c->limit), 1.0f); break;
    case TERRAIN_SAMPLE_DOUBLE: ENCODE (double, clamp (s, c->limit), 1.0); break;
    }
}

/* A height as a float: finite values beyond float range (a double layer's) become the
 * largest float of their sign; NaN and infinities stay what they are, for the caller to
 * refuse. */
static inline float
float_height (double h)
{
  return h > FLT_MAX && h < INFINITY ? FLT_MAX : h < -FLT_MAX && h > -INFINITY ? -FLT_MAX : (float) h;
}

/* A pixel's height from its colour samples r (and g, b for RGB) as stored. */
static inline float
height_of (const TerrainPixelCodec *c, double r, double g, double b)
{
  if (c->colours == 1 || (r == g && g == b))
    return float_height (c->curve == TERRAIN_CURVE_NONE
                           ? r
                           : space_from_linear (c, stored_to_linear (c, r)));
  return float_height (space_from_linear (c, c->luminance[0] * stored_to_linear (c, r) +
                                               c->luminance[1] * stored_to_linear (c, g) +
                                               c->luminance[2] * stored_to_linear (c, b)));
}

/* heights[i] from pixel i, each sample read as LOAD (x) of its T. */
#define DECODE(T, LOAD)                                                          \
  for (gsize i = 0; i < n; i++)                                                  \
    {                                                                            \
      const T *p = (const T *) pixels + i * c->components;                       \
      const double r = LOAD (p[0]);                                              \
      heights[i] = c->colours == 1 ? height_of (c, r, r, r)                      \
                                   : height_of (c, r, LOAD (p[1]), LOAD (p[2])); \
    }
#define U8(x)   ((x) / 255.0)
#define U16(x)  ((x) / 65535.0)
#define U32(x)  ((x) / 4294967295.0)
#define HALF(x) ((double) half_to_float (x))
#define AS_IS(x) ((double) (x))
/* Finite doubles beyond float range as the largest float: no curve then overflows. */
#define WITHIN_FLOAT(x) \
  ((x) > FLT_MAX && (x) < INFINITY ? FLT_MAX : (x) < -FLT_MAX && (x) > -INFINITY ? -FLT_MAX : (x))

static void
decode (const TerrainPixelCodec *c, const void *pixels, float *heights, gsize n)
{
  switch (c->type)
    {
    case TERRAIN_SAMPLE_U8:     DECODE (guint8, U8); break;
    case TERRAIN_SAMPLE_U16:    DECODE (guint16, U16); break;
    case TERRAIN_SAMPLE_U32:    DECODE (guint32, U32); break;
    case TERRAIN_SAMPLE_HALF:   DECODE (guint16, HALF); break;
    case TERRAIN_SAMPLE_FLOAT:  DECODE (float, AS_IS); break;
    case TERRAIN_SAMPLE_DOUBLE: DECODE (double, WITHIN_FLOAT); break;
    }
}

/* ---- Formats ---- */

static gboolean
parse_model (const char *model, TerrainPixelCodec *c)
{
  static const struct { const char *name; int colours; gboolean alpha; TerrainCurve curve; } models[] = {
    { "Y'", 1, FALSE, TERRAIN_CURVE_NONE },        { "Y'A", 1, TRUE, TERRAIN_CURVE_NONE },
    { "Y", 1, FALSE, TERRAIN_CURVE_LINEAR },       { "YA", 1, TRUE, TERRAIN_CURVE_LINEAR },
    { "Y~", 1, FALSE, TERRAIN_CURVE_SRGB },        { "Y~A", 1, TRUE, TERRAIN_CURVE_SRGB },
    { "R'G'B'", 3, FALSE, TERRAIN_CURVE_NONE },    { "R'G'B'A", 3, TRUE, TERRAIN_CURVE_NONE },
    { "RGB", 3, FALSE, TERRAIN_CURVE_LINEAR },     { "RGBA", 3, TRUE, TERRAIN_CURVE_LINEAR },
    { "R~G~B~", 3, FALSE, TERRAIN_CURVE_SRGB },    { "R~G~B~A", 3, TRUE, TERRAIN_CURVE_SRGB },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (models); i++)
    if (strcmp (model, models[i].name) == 0)
      {
        c->colours = models[i].colours;
        c->has_alpha = models[i].alpha;
        c->curve = models[i].curve;
        return TRUE;
      }
  return FALSE;
}

static gboolean
parse_type (const char *type, TerrainPixelCodec *c)
{
  static const struct { const char *name; TerrainSampleType type; int bytes; } types[] = {
    { "u8", TERRAIN_SAMPLE_U8, 1 },       { "u16", TERRAIN_SAMPLE_U16, 2 },
    { "u32", TERRAIN_SAMPLE_U32, 4 },     { "half", TERRAIN_SAMPLE_HALF, 2 },
    { "float", TERRAIN_SAMPLE_FLOAT, 4 }, { "double", TERRAIN_SAMPLE_DOUBLE, 8 },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (types); i++)
    if (strcmp (type, types[i].name) == 0)
      {
        c->type = types[i].type;
        c->sample_bytes = types[i].bytes;
        return TRUE;
      }
  return FALSE;
}

/* The space's own curve: the identity, sRGB's, or another (FALSE). babl's own curves are
 * known by name; a curve from an ICC profile by what babl computes for it within [0, 1],
 * where any of babl's conversion paths is within 1e-4 of exact while the sRGB curve and
 * its neighbours (gamma 2.2: 0.0036 apart at 0.5) are far apart. */
static gboolean
recognise_space_curve (const Babl *format, gboolean *srgb)
{
  static const float heights[] = { 0.002f, 0.03f, 0.2f, 0.5f, 0.9f, 1.0f };
  float       linear[G_N_ELEMENTS (heights)];
  const Babl *trc[3] = { NULL, NULL, NULL };
  babl_space_get (babl_format_get_space (format), NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                  NULL, &trc[0], &trc[1], &trc[2]);
  if (trc[0] && (trc[1] == NULL || trc[1] == trc[0]) && (trc[2] == NULL || trc[2] == trc[0]) &&
      (trc[0] == babl_trc ("sRGB") || trc[0] == babl_trc ("linear")))
    {
      *srgb = trc[0] == babl_trc ("sRGB");
      return TRUE;
    }
  babl_process (babl_fish (babl_format_with_space ("Y' float", format),
                           babl_format_with_space ("Y float", format)),
                heights, linear, G_N_ELEMENTS (heights));
  gboolean identity = TRUE, srgb_curve = TRUE;
  for (gsize i = 0; i < G_N_ELEMENTS (heights); i++)
    {
      identity &= fabs (linear[i] - heights[i]) < 1e-3;
      srgb_curve &= fabs (linear[i] - srgb_to_linear (heights[i])) < 1e-3;
    }
  *srgb = srgb_curve;
  return identity || srgb_curve;
}

/* The largest stored magnitude GIMP can mix (see limit in pixel-codec.h): half of float's
 * range in linear light, which the sRGB curve reaches from about 9e15. */
static double
mixable_limit (const TerrainPixelCodec *c)
{
  const gboolean stored_linear = c->curve == TERRAIN_CURVE_LINEAR ||
                                 (c->curve == TERRAIN_CURVE_NONE && ! c->srgb_space);
  switch (c->type)
    {
    case TERRAIN_SAMPLE_HALF:
      return HALF_MAX;
    case TERRAIN_SAMPLE_FLOAT:
    case TERRAIN_SAMPLE_DOUBLE:
      if (c->curve == TERRAIN_CURVE_BABL)
        return HALF_MAX; /* an unknown curve: the range babl_decode reads */
      {
        /* A float, so that a float layer holds the limit itself. */
        const double limit = stored_linear ? FLT_MAX / 2 : srgb_from_linear (FLT_MAX / 2);
        const float  f = (float) limit;
        return f > limit ? nextafterf (f, 0.0f) : f;
      }
    default:
      return 1.0;
    }
}

static gboolean
set_up (const Babl *format, TerrainPixelCodec *codec)
{
  memset (codec, 0, sizeof *codec);
  codec->format = format;
  if (format == NULL || ! parse_model (babl_get_name (babl_format_get_model (format)), codec) ||
      ! parse_type (babl_get_name (babl_format_get_type (format, 0)), codec))
    return FALSE;
  codec->components = babl_format_get_n_components (format);
  if (codec->colours == 3)
    babl_space_get_rgb_luminance (babl_format_get_space (format), &codec->luminance[0],
                                  &codec->luminance[1], &codec->luminance[2]);
  if (! recognise_space_curve (format, &codec->srgb_space))
    {
      codec->curve = TERRAIN_CURVE_BABL;
      codec->to_format = babl_fish (babl_format_with_space ("Y' float", format), format);
      codec->from_format = babl_fish (format, babl_format_with_space ("Y' float", format));
    }
  else if (codec->curve == TERRAIN_CURVE_SRGB && codec->srgb_space)
    codec->curve = TERRAIN_CURVE_NONE; /* "~" is the space's own curve */
  else if (codec->curve == TERRAIN_CURVE_LINEAR && ! codec->srgb_space)
    codec->curve = TERRAIN_CURVE_NONE; /* a linear space stores heights as they are */
  codec->limit = mixable_limit (codec);
  return TRUE;
}

/* Setting a codec up costs babl fishes, which for a space with a curve of its own (an ICC
 * profile's) take babl 0.1 s or more each time: the codecs made so far are kept, by format
 * (babl's formats live as long as the process). Operations set codecs up from GEGL's
 * threads. */
gboolean
terrain_pixel_codec (const Babl *format, TerrainPixelCodec *codec)
{
  static GMutex      lock;
  static GHashTable *made; /* format -> TerrainPixelCodec, or NULL for one that is not taken */
  g_mutex_lock (&lock);
  if (made == NULL)
    made = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  gpointer known;
  gboolean taken;
  if (g_hash_table_lookup_extended (made, format, NULL, &known))
    {
      taken = known != NULL;
      if (taken)
        *codec = *(TerrainPixelCodec *) known;
      else
        memset (codec, 0, sizeof *codec);
    }
  else
    {
      taken = set_up (format, codec);
      g_hash_table_insert (made, (gpointer) format, taken ? g_memdup2 (codec, sizeof *codec) : NULL);
    }
  g_mutex_unlock (&lock);
  if (! taken)
    codec->format = format;
  return taken;
}

const Babl *
terrain_pixel_codec_format (const Babl *format)
{
  TerrainPixelCodec codec;
  if (terrain_pixel_codec (format, &codec))
    return format;
  return babl_format_with_space ("Y'A float", format);
}

/* ---- Runs of pixels ---- */

/* Every sample of n pixels (of a half, float or double type) within +-limit, NaN as 0:
 * what babl's curves may overflow from, or what they overflowed to. */
static void
limit_samples (const TerrainPixelCodec *c, void *pixels, gsize n, double limit)
{
  const gsize count = n * c->components;
  for (gsize i = 0; i < count; i++)
    switch (c->type)
      {
      case TERRAIN_SAMPLE_HALF:
        {
          guint16   *h = (guint16 *) pixels + i;
          const float v = half_to_float (*h);
          if (fabs (v) > limit || v != v)
            *h = half_from_float ((float) clamp (v, MIN (limit, HALF_MAX)));
          break;
        }
      case TERRAIN_SAMPLE_FLOAT:
        {
          float *f = (float *) pixels + i;
          *f = (float) clamp (*f, limit);
          break;
        }
      case TERRAIN_SAMPLE_DOUBLE:
        {
          double *d = (double *) pixels + i;
          *d = clamp (*d, limit);
          break;
        }
      default:
        return; /* integer samples are always in range */
      }
}

/* Through babl: samples beyond the half range read as its ends (a curve of babl's could
 * take them beyond float range); NaN and infinities as they are. */
static void
babl_decode (const TerrainPixelCodec *codec, const void *pixels, float *heights, gsize n)
{
  if (codec->type < TERRAIN_SAMPLE_HALF)
    {
      babl_process (codec->from_format, pixels, heights, (long) n);
      return;
    }
  const gsize bytes = n * codec->components * codec->sample_bytes;
  void       *limited = g_memdup2 (pixels, bytes);
  limit_samples (codec, limited, n, HALF_MAX);
  babl_process (codec->from_format, limited, heights, (long) n);
  /* A non-finite sample stays so: the caller refuses it, never a stand-in. */
  for (gsize i = 0; i < n; i++)
    for (int k = 0; k < codec->colours; k++)
      {
        const gsize s = i * codec->components + k;
        const double v = codec->type == TERRAIN_SAMPLE_HALF ? half_to_float (((const guint16 *) pixels)[s])
                       : codec->type == TERRAIN_SAMPLE_FLOAT ? ((const float *) pixels)[s]
                                                             : ((const double *) pixels)[s];
        if (! isfinite (v))
          heights[i] = (float) v;
      }
  g_free (limited);
}

void
terrain_pixels_to_heights (const TerrainPixelCodec *codec, const void *pixels, float *heights,
                           gsize n)
{
  if (codec->curve == TERRAIN_CURVE_BABL)
    babl_decode (codec, pixels, heights, n);
  else
    decode (codec, pixels, heights, n);
}

/* The colours through babl from "Y' float" (heights clamped to the half range, and what
 * babl's curve made of them to the type's finite range; babl makes alpha opaque). */
static void
babl_encode (const TerrainPixelCodec *codec, const float *heights, void *pixels, gsize n)
{
  float *clamped = g_new (float, n);
  for (gsize i = 0; i < n; i++)
    clamped[i] = (float) clamp (heights[i], HALF_MAX);
  babl_process (codec->to_format, clamped, pixels, (long) n);
  limit_samples (codec, pixels, n, codec->limit);
  g_free (clamped);
}

gsize
terrain_pixels_count_unmixable (const TerrainPixelCodec *codec, const void *pixels,
                                const float *coverage, gsize n, gsize *first)
{
  gsize count = 0;
  if (codec->type < TERRAIN_SAMPLE_HALF)
    return 0;
  for (gsize i = 0; i < n; i++)
    {
      if (! (coverage[i] > 0.0f))
        continue;
      gboolean mixable = TRUE;
      for (int k = 0; k < codec->colours; k++)
        {
          const gsize  at = i * codec->components + k;
          const double v = codec->type == TERRAIN_SAMPLE_HALF
                             ? half_to_float (((const guint16 *) pixels)[at])
                             : codec->type == TERRAIN_SAMPLE_FLOAT ? ((const float *) pixels)[at]
                                                                   : ((const double *) pixels)[at];
          mixable &= fabs (v) <= codec->limit; /* false for NaN too */
        }
      if (! mixable && count++ == 0)
        *first = i;
    }
  return count;
}

/* Pixels whose height is the one `original` holds take its bytes; the others its alpha. */
static void
keep_unchanged (const TerrainPixelCodec *codec, const float *heights, const guchar *original,
                guchar *pixels, gsize n)
{
  const int pixel_bytes = codec->components * codec->sample_bytes;
  const int alpha_offset = codec->colours * codec->sample_bytes;
  float     was[256];
  for (gsize start = 0; start < n; start += G_N_ELEMENTS (was))
    {
      const gsize count = MIN (G_N_ELEMENTS (was), n - start);
      terrain_pixels_to_heights (codec, original + start * pixel_bytes, was, count);
      for (gsize i = 0; i < count; i++)
        {
          const guchar *from = original + (start + i) * pixel_bytes;
          guchar       *to = pixels + (start + i) * pixel_bytes;
          if (was[i] == heights[start + i]) /* the same height: -0 and +0 too */
            memcpy (to, from, pixel_bytes);
          else if (codec->has_alpha)
            memcpy (to + alpha_offset, from + alpha_offset, codec->sample_bytes);
        }
    }
}

void
terrain_heights_to_pixels (const TerrainPixelCodec *codec, const float *heights,
                           const void *original, void *pixels, gsize n)
{
  if (codec->curve == TERRAIN_CURVE_BABL)
    babl_encode (codec, heights, pixels, n);
  else
    encode (codec, heights, pixels, n);
  if (original)
    keep_unchanged (codec, heights, original, pixels, n);
}
