#include "pixel-codec.h"

#include "pixel-steps.h"

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

/* |v| ^ e with v's sign: a gamma curve mirrored below 0, as the sRGB curve is. */
static double
signed_pow (double v, double e)
{
  const double y = pow (fabs (v), e);
  return v < 0.0 ? -y : y;
}

/* Linear light from a height (the space's perceptual value), and back. */
static double
space_to_linear (const TerrainPixelCodec *c, double h)
{
  switch (c->space_curve)
    {
    case TERRAIN_SPACE_SRGB:  return srgb_to_linear (h);
    case TERRAIN_SPACE_GAMMA: return signed_pow (h, c->gamma);
    default:                  return h;
    }
}

static double
space_from_linear (const TerrainPixelCodec *c, double y)
{
  switch (c->space_curve)
    {
    case TERRAIN_SPACE_SRGB:  return srgb_from_linear (y);
    case TERRAIN_SPACE_GAMMA: return signed_pow (y, 1.0 / c->gamma);
    default:                  return y;
    }
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
stored_from_linear (const TerrainPixelCodec *c, double y)
{
  switch (c->curve)
    {
    case TERRAIN_CURVE_LINEAR: return y;
    case TERRAIN_CURVE_SRGB:   return srgb_from_linear (y);
    default:                   return space_from_linear (c, y);
    }
}

static double
stored_from_height (const TerrainPixelCodec *c, double h)
{
  return c->curve == TERRAIN_CURVE_NONE ? h : stored_from_linear (c, space_to_linear (c, h));
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

/* The step of an integer type nearest to v (clamped to [0, 1]; NaN: 0) times its maximum.
 * Between 0 and max, floor is the conversion's truncation, without a call to floor. */
static inline double
quantise (double v, double max)
{
  const double s = v * max + 0.5;
  return ! (s > 0.0) ? 0.0 : s >= max ? max : (double) (guint64) s;
}

/* v within +-limit; NaN (which callers never pass) gives 0, so nothing non-finite is
 * ever stored. */
static inline double
clamp (double v, double limit)
{
  return v < -limit ? -limit : v > limit ? limit : v == v ? v : 0.0;
}

/* A stored value as each sample type holds it: integers the nearest step, the others
 * within +-limit. */
static inline guint8  u8_sample (double s)  { return (guint8) quantise (s, 255.0); }
static inline guint16 u16_sample (double s) { return (guint16) quantise (s, 65535.0); }
static inline guint32 u32_sample (double s) { return (guint32) quantise (s, 4294967295.0); }
static inline guint16 half_sample (double s, double limit) { return half_from_float ((float) clamp (s, limit)); }

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
    case TERRAIN_SAMPLE_U8:    ENCODE (guint8, u8_sample (s), 255); break;
    case TERRAIN_SAMPLE_U16:   ENCODE (guint16, u16_sample (s), 65535); break;
    case TERRAIN_SAMPLE_U32:   ENCODE (guint32, u32_sample (s), G_MAXUINT32); break;
    case TERRAIN_SAMPLE_HALF:  ENCODE (guint16, half_sample (s, c->limit), 0x3c00); break;
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

/* Colour or alpha sample k of one pixel as a stored value (integers scaled to [0, 1]),
 * and back. */
static double
load_sample (const TerrainPixelCodec *c, const guchar *pixel, int k)
{
  switch (c->type)
    {
    case TERRAIN_SAMPLE_U8:    return U8 (((const guint8 *) pixel)[k]);
    case TERRAIN_SAMPLE_U16:   return U16 (((const guint16 *) pixel)[k]);
    case TERRAIN_SAMPLE_U32:   return U32 (((const guint32 *) pixel)[k]);
    case TERRAIN_SAMPLE_HALF:  return HALF (((const guint16 *) pixel)[k]);
    case TERRAIN_SAMPLE_FLOAT: return AS_IS (((const float *) pixel)[k]);
    default:                   return AS_IS (((const double *) pixel)[k]);
    }
}

static void
store_sample (const TerrainPixelCodec *c, guchar *pixel, int k, double s)
{
  switch (c->type)
    {
    case TERRAIN_SAMPLE_U8:    ((guint8 *) pixel)[k] = u8_sample (s); break;
    case TERRAIN_SAMPLE_U16:   ((guint16 *) pixel)[k] = u16_sample (s); break;
    case TERRAIN_SAMPLE_U32:   ((guint32 *) pixel)[k] = u32_sample (s); break;
    case TERRAIN_SAMPLE_HALF:  ((guint16 *) pixel)[k] = half_sample (s, c->limit); break;
    case TERRAIN_SAMPLE_FLOAT: ((float *) pixel)[k] = (float) clamp (s, c->limit); break;
    case TERRAIN_SAMPLE_DOUBLE: ((double *) pixel)[k] = clamp (s, c->limit); break;
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

/* The space's own curve into c: the identity, sRGB's, one gamma, or another (FALSE).
 * babl's own curves are known by name, a plain gamma by babl_space_get_gamma, and a curve
 * from an ICC profile by what babl computes for it within [0, 1], where any of babl's
 * conversion paths is within 1e-4 of exact while the sRGB curve and its neighbours
 * (gamma 2.2: 0.0036 apart at 0.5) are far apart. */
static gboolean
recognise_space_curve (const Babl *format, TerrainPixelCodec *c)
{
  static const float heights[] = { 0.002f, 0.03f, 0.2f, 0.5f, 0.9f, 1.0f };
  float       linear[G_N_ELEMENTS (heights)];
  const Babl *trc[3] = { NULL, NULL, NULL };
  babl_space_get (babl_format_get_space (format), NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                  NULL, &trc[0], &trc[1], &trc[2]);
  if (trc[0] && (trc[1] == NULL || trc[1] == trc[0]) && (trc[2] == NULL || trc[2] == trc[0]) &&
      (trc[0] == babl_trc ("sRGB") || trc[0] == babl_trc ("linear")))
    {
      c->space_curve = trc[0] == babl_trc ("sRGB") ? TERRAIN_SPACE_SRGB : TERRAIN_SPACE_LINEAR;
      return TRUE;
    }
  c->gamma = babl_space_get_gamma (babl_format_get_space (format));
  if (c->gamma > 0.0)
    {
      c->space_curve = c->gamma == 1.0 ? TERRAIN_SPACE_LINEAR : TERRAIN_SPACE_GAMMA;
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
  c->space_curve = srgb_curve ? TERRAIN_SPACE_SRGB : TERRAIN_SPACE_LINEAR;
  return identity || srgb_curve;
}

/* The largest stored magnitude GIMP can mix (see limit in pixel-codec.h): half of float's
 * range in linear light, which the sRGB curve reaches from about 9e15. */
static double
mixable_limit (const TerrainPixelCodec *c)
{
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
        const double limit = stored_from_linear (c, FLT_MAX / 2);
        const float  f = (float) limit;
        return f > limit ? nextafterf (f, 0.0f) : f;
      }
    default:
      return 1.0;
    }
}

/* The format's colours without alpha, as floats, in its space: what babl converts
 * (the model's name less its "A"). */
static const Babl *
colours_format (const Babl *format, const TerrainPixelCodec *c)
{
  const char *model = babl_get_name (babl_format_get_model (format));
  gchar      *name = g_strdup_printf ("%.*s float", (int) strlen (model) - (c->has_alpha ? 1 : 0),
                                      model);
  const Babl *colours = babl_format_with_space (name, format);
  g_free (name);
  return colours;
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
  if (! recognise_space_curve (format, codec))
    {
      codec->curve = TERRAIN_CURVE_BABL;
      codec->to_colours = babl_fish (babl_format_with_space ("Y' float", format),
                                     colours_format (format, codec));
      codec->from_colours = babl_fish (colours_format (format, codec),
                                       babl_format_with_space ("Y' float", format));
    }
  else if (codec->curve == TERRAIN_CURVE_SRGB && codec->space_curve == TERRAIN_SPACE_SRGB)
    codec->curve = TERRAIN_CURVE_NONE; /* "~" is the space's own curve */
  else if (codec->curve == TERRAIN_CURVE_LINEAR && codec->space_curve == TERRAIN_SPACE_LINEAR)
    codec->curve = TERRAIN_CURVE_NONE; /* a linear space stores heights as they are */
  codec->limit = mixable_limit (codec);
  return TRUE;
}

/* The codec of format, NULL for a format that is not taken. Setting a codec up costs babl
 * fishes, which for a space with a curve of its own (an ICC profile's) take babl 0.1 s or
 * more each time: the codecs made so far are kept, by format, for the life of the process
 * (as babl's formats). Operations set codecs up from GEGL's threads. */
static const TerrainPixelCodec *
kept_codec (const Babl *format)
{
  static GMutex      lock;
  static GHashTable *made; /* format -> TerrainPixelCodec, or NULL for one that is not taken */
  g_mutex_lock (&lock);
  if (made == NULL)
    made = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  gpointer known;
  if (! g_hash_table_lookup_extended (made, format, NULL, &known))
    {
      TerrainPixelCodec codec;
      known = set_up (format, &codec) ? g_memdup2 (&codec, sizeof codec) : NULL;
      g_hash_table_insert (made, (gpointer) format, known);
    }
  g_mutex_unlock (&lock);
  return known;
}

gboolean
terrain_pixel_codec (const Babl *format, TerrainPixelCodec *codec)
{
  const TerrainPixelCodec *known = kept_codec (format);
  if (known)
    *codec = *known;
  else
    {
      memset (codec, 0, sizeof *codec);
      codec->format = format;
    }
  return known != NULL;
}

void
terrain_pixel_codec_store_in (TerrainPixelCodec *codec, const Babl *storage)
{
  const TerrainPixelCodec *known = storage && storage != codec->format ? kept_codec (storage)
                                                                         : NULL;
  codec->storage = known && known->type <= TERRAIN_SAMPLE_U32 ? known : NULL;
  codec->steps = NULL;
  if (codec->storage)
    {
      TerrainPixelCodec plain = *codec;
      plain.storage = NULL;
      codec->steps = terrain_pixel_steps (&plain, codec->storage);
    }
}

const Babl *
terrain_pixel_codec_format (const Babl *format)
{
  TerrainPixelCodec codec;
  if (terrain_pixel_codec (format, &codec))
    return format;
  return babl_format_with_space ("Y'A float", format);
}

gboolean
terrain_pixel_codec_dip (const TerrainPixelCodec *codec, float *from, float *to)
{
  if (codec->curve == TERRAIN_CURVE_NONE || codec->curve == TERRAIN_CURVE_BABL ||
      codec->space_curve != TERRAIN_SPACE_SRGB)
    return FALSE;
  *from = (float) srgb_from_linear (nextafter (0.0031308, 1.0));
  *to = (float) srgb_from_linear (0.0031308);
  return TRUE;
}

/* ---- Runs of pixels ---- */

/* Through babl, one pixel a call (pixel-codec.h), its colours as floats: samples beyond
 * the half range read as its ends (a curve of babl's could take them beyond float range);
 * a sample that is not finite is the height, for the caller to refuse. */
static void
babl_decode (const TerrainPixelCodec *c, const void *pixels, float *heights, gsize n)
{
  const gsize pixel_bytes = (gsize) c->components * c->sample_bytes;
  for (gsize i = 0; i < n; i++)
    {
      const guchar *pixel = (const guchar *) pixels + i * pixel_bytes;
      float         colours[3];
      gboolean      finite = TRUE;
      for (int k = 0; k < c->colours; k++)
        {
          const double v = load_sample (c, pixel, k);
          if (! isfinite (v))
            {
              heights[i] = (float) v;
              finite = FALSE;
            }
          colours[k] = (float) clamp (v, HALF_MAX);
        }
      if (finite)
        babl_process (c->from_colours, colours, &heights[i], 1);
    }
}

/* Whether a float pixel is grey: its colours the same bits. */
static inline gboolean
grey_float (const TerrainPixelCodec *c, const float *p)
{
  return c->colours == 1 ||
         (memcmp (&p[0], &p[1], sizeof *p) == 0 && memcmp (&p[1], &p[2], sizeof *p) == 0);
}

/* Float pixels of a codec with steps (pixel-steps.h): a grey colour in a step's range, or
 * babl's colour of a step, read as the table has it; any other as decode reads it. */
static void
steps_decode (const TerrainPixelCodec *c, const float *pixels, float *heights, gsize n)
{
  for (gsize i = 0; i < n; i++)
    {
      const float *p = pixels + i * c->components;
      if (! grey_float (c, p) || terrain_pixel_steps_read (c->steps, p[0], &heights[i]) <= 0)
        decode (c, p, &heights[i], 1);
    }
}

void
terrain_pixels_to_heights (const TerrainPixelCodec *codec, const void *pixels, float *heights,
                           gsize n)
{
  if (codec->curve == TERRAIN_CURVE_BABL)
    babl_decode (codec, pixels, heights, n);
  else if (codec->steps)
    steps_decode (codec, pixels, heights, n);
  else
    decode (codec, pixels, heights, n);
}

/* Through babl, one pixel a call: each height clamped to the half range, its colours
 * stored as the type holds them (what babl's curve made of them within the type's range),
 * alpha opaque. */
static void
babl_encode (const TerrainPixelCodec *c, const float *heights, void *pixels, gsize n)
{
  const gsize pixel_bytes = (gsize) c->components * c->sample_bytes;
  for (gsize i = 0; i < n; i++)
    {
      guchar     *pixel = (guchar *) pixels + i * pixel_bytes;
      const float height = (float) clamp (heights[i], HALF_MAX);
      float       colours[3];
      babl_process (c->to_colours, &height, colours, 1);
      for (int k = 0; k < c->colours; k++)
        store_sample (c, pixel, k, colours[k]);
      if (c->has_alpha)
        store_sample (c, pixel, c->colours, 1.0);
    }
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
          const guchar *pixel = (const guchar *) pixels + i * codec->components * codec->sample_bytes;
          mixable &= fabs (load_sample (codec, pixel, k)) <= codec->limit; /* false for NaN too */
        }
      if (! mixable && count++ == 0)
        *first = i;
    }
  return count;
}

/* n bytes of a pixel or sample, copied inline for the sizes pixels have: a call to memcpy
 * for each pixel was about an eighth of writing a layer's pixels with their originals. */
static inline void
copy_bytes (guchar *to, const guchar *from, int n)
{
  switch (n)
    {
    case 1:  memcpy (to, from, 1); break;
    case 2:  memcpy (to, from, 2); break;
    case 4:  memcpy (to, from, 4); break;
    case 8:  memcpy (to, from, 8); break;
    case 16: memcpy (to, from, 16); break;
    default: memcpy (to, from, n); break;
    }
}

/* Pixel i takes original's bytes when it reads as heights[i], else original's alpha. */
static inline void
keep_pixel (const TerrainPixelCodec *codec, gboolean same, const guchar *original,
            guchar *pixels, gsize i)
{
  const int pixel_bytes = codec->components * codec->sample_bytes;
  const int alpha_offset = codec->colours * codec->sample_bytes;
  const guchar *from = original + i * pixel_bytes;
  guchar       *to = pixels + i * pixel_bytes;
  if (same)
    copy_bytes (to, from, pixel_bytes);
  else if (codec->has_alpha)
    copy_bytes (to + alpha_offset, from + alpha_offset, codec->sample_bytes);
}

/* Whether each value of the codec's format is written back as itself from the height it
 * reads as: one colour in 8 or 16 bits, on a curve the codec computes (test-pixel-codec
 * checks every value of every such format). Then a pixel that reads as its height is
 * written with its own colour bytes already. */
static gboolean
writes_back_its_values (const TerrainPixelCodec *codec)
{
  return codec->colours == 1 && codec->curve != TERRAIN_CURVE_BABL &&
         (codec->type == TERRAIN_SAMPLE_U8 || codec->type == TERRAIN_SAMPLE_U16);
}

/* Pixels whose height is the one `original` holds take its bytes; the others its alpha.
 * (A codec with steps keeps them as it writes them: write_steps.) Where the codec writes
 * back its values, that is every pixel taking the original's alpha: no reading needed. */
static void
keep_unchanged (const TerrainPixelCodec *codec, const float *heights, const guchar *original,
                guchar *pixels, gsize n)
{
  const int pixel_bytes = codec->components * codec->sample_bytes;
  if (writes_back_its_values (codec))
    {
      for (gsize i = 0; codec->has_alpha && i < n; i++)
        keep_pixel (codec, FALSE, original, pixels, i);
      return;
    }
  float     was[256];
  for (gsize start = 0; start < n; start += G_N_ELEMENTS (was))
    {
      const gsize count = MIN (G_N_ELEMENTS (was), n - start);
      terrain_pixels_to_heights (codec, original + start * pixel_bytes, was, count);
      for (gsize i = start; i < start + count; i++)
        keep_pixel (codec, was[i - start] == heights[i], original, pixels, i); /* -0 and +0 too */
    }
}

/* Whether an original float pixel of a codec with steps reads as step k's level: for a grey
 * colour, whether it lies in the step's range (pixel-steps.h), the step being known from
 * what is written; any other as decode reads it. */
static gboolean
reads_as_step (const TerrainPixelCodec *c, const float *original, guint k)
{
  const int in_range = grey_float (c, original)
                         ? terrain_pixel_steps_reads_as (c->steps, original[0], k) : -1;
  if (in_range >= 0)
    return in_range;
  float was;
  decode (c, original, &was, 1);
  return was == terrain_pixel_steps_level (c->steps, k); /* -0 and +0 too */
}

static void
encode_heights (const TerrainPixelCodec *codec, const float *heights, void *pixels, gsize n)
{
  if (codec->curve == TERRAIN_CURVE_BABL)
    babl_encode (codec, heights, pixels, n);
  else
    encode (codec, heights, pixels, n);
}

/* A float pixel of `components` floats copied, or one float of it: as memcpy, bits and
 * all, inline. */
static inline void
copy_floats (float *to, const float *from, int components)
{
  for (int j = 0; j < components; j++)
    memcpy (to + j, from + j, sizeof (float));
}

/* n steps of codec->storage (`stored`, as it holds them) into their heights and, into
 * `pixels`, the codec's colours of them, alpha opaque: what reading the storage back and
 * encoding gives, by table. With `original` (n pixels), those that read as their step keep
 * its bytes, the others its alpha: keep_unchanged's bytes, with no step searched for. The
 * codec's fields are read once: the pixels' bytes copied may alias them, which made the
 * compiler read them again for each pixel. */
static void
write_steps (const TerrainPixelCodec *c, const guchar *stored, float *rounded,
             const float *original, float *pixels, gsize n)
{
  const TerrainPixelSteps *steps = c->steps;
  const int                colours = c->colours, components = c->components;
  const int                stride = c->storage->components;
  const gboolean           u8 = c->storage->type == TERRAIN_SAMPLE_U8, alpha = c->has_alpha;
  for (gsize i = 0; i < n; i++)
    {
      const guint  k = u8 ? stored[i * stride] : ((const guint16 *) stored)[i * stride];
      float       *p = pixels + i * components;
      const float *o = original ? original + i * components : NULL;
      rounded[i] = terrain_pixel_steps_level (steps, k);
      if (o && reads_as_step (c, o, k))
        {
          copy_floats (p, o, components);
          continue;
        }
      const float colour = terrain_pixel_steps_colour (steps, k);
      for (int j = 0; j < colours; j++)
        p[j] = colour;
      if (alpha && o)
        copy_floats (p + colours, o + colours, 1);
      else if (alpha)
        p[colours] = 1.0f;
    }
}

/* n heights rounded to what codec->storage holds (terrain_pixel_codec_store_in); with
 * steps, their pixels written too, and the original's kept. */
static void
round_to_storage (const TerrainPixelCodec *codec, const float *heights, float *rounded,
                  const void *original, void *pixels, gsize n)
{
  enum { RUN = 256 };
  guchar stored[RUN * 4 * sizeof (guint32)];
  for (gsize at = 0; at < n; at += RUN)
    {
      const gsize run = MIN ((gsize) RUN, n - at);
      const gsize first = at * codec->components;
      encode_heights (codec->storage, heights + at, stored, run);
      if (codec->steps)
        write_steps (codec, stored, rounded + at,
                     original ? (const float *) original + first : NULL,
                     (float *) pixels + first, run);
      else
        terrain_pixels_to_heights (codec->storage, stored, rounded + at, run);
    }
}

void
terrain_heights_to_pixels (const TerrainPixelCodec *codec, const float *heights,
                           const void *original, void *pixels, gsize n)
{
  float *rounded = NULL;
  if (codec->storage)
    {
      rounded = g_new (float, n);
      round_to_storage (codec, heights, rounded, original, pixels, n);
      heights = rounded;
    }
  /* With steps, round_to_storage wrote the pixels and kept the originals' already. */
  if (codec->steps == NULL)
    {
      encode_heights (codec, heights, pixels, n);
      if (original)
        keep_unchanged (codec, heights, original, pixels, n);
    }
  g_free (rounded);
}
