/* Heights to and from a layer's own pixels, exactly and the same in every process.
 *
 * A height is a layer's gray value on its own perceptual curve ("Y'" of the layer's space),
 * so a stored value is proportional to height at every precision. babl could convert, but
 * it picks its conversion paths per process by timing them and accepts paths within a
 * tolerance of the exact result: the same float height came out one step apart in about
 * 12 % of the pixels of a u16 layer from one GIMP session to the next. The plug-in and the
 * GEGL operations (which run inside GIMP) must store the same bytes, so this codec does the
 * arithmetic itself, in double precision, for every format a gray or RGB layer can have:
 *
 *  - samples u8, u16, u32 (rounded to the nearest step, clamped to [0, 1]), half (rounded to
 *    nearest even, clamped to +-65504), float and double (clamped to +-limit, below; a NaN
 *    height is stored as 0): nothing non-finite and nothing outside the type's range is
 *    ever stored. Read, a double beyond float range is the largest float of its sign
 *    (heights are floats); NaN and infinities read as themselves, for the caller to refuse;
 *  - GIMP mixes a result into a selection in linear light, in float, as old + (new - old) x
 *    coverage: a stored value whose linear light is beyond half of float's range (about
 *    1.7e38, or 9e15 on the sRGB curve) would overflow there and come out NaN, even with
 *    coverage 1. So float and double layers get at most that (`limit`), and callers refuse
 *    to write into a selection over pixels beyond it (terrain_pixels_count_unmixable);
 *  - models Y', Y, Y~ (and their RGB and alpha forms): the perceptual model stores the
 *    height; the linear one stores it through the space's curve; "~" through the sRGB curve.
 *    The space's curve is computed here when it is the identity, the sRGB curve (every
 *    built-in GIMP space; recognised by name or by what babl computes for it) or one gamma
 *    for every channel (babl_space_get_gamma: Apple's 1.8, an ICC profile's plain gamma;
 *    mirrored below 0 like the sRGB curve). Any other curve (an ICC profile's table, a
 *    gamma per channel) is babl's: curve TERRAIN_CURVE_BABL, the only inexact path. babl
 *    converts such pixels one at a time, because babl 0.1.128 converts the same pixel to
 *    values a float step apart depending on how many pixels one call holds and where the
 *    pixel falls in it (and, for 8- and 16-bit sources, on a table it builds after a fish
 *    has converted enough pixels): here every sample goes to babl as a float, one pixel a
 *    call, so a pixel's height, and the bytes of a height, never depend on the batch;
 *  - RGB: every colour gets the height (through babl: each channel's curve of it); a
 *    pixel's height is the Y' of its colour (the space's luminance weights on linear
 *    light), exactly its value when R' = G' = B'.
 *
 * A filter keeps the bytes of every pixel whose height it did not change (heights_to_pixels
 * with `original`): reading a layer and writing the same heights back leaves every byte as
 * it was, at every precision, even where a height cannot hold every stored value (u32 and
 * double samples hold more than a float). That needs a pixel's height to depend on its
 * bytes alone, never on the call that read it: the plug-in reads whole bands of a layer and
 * writes the selection's, GEGL reads and writes rectangles of its own, and the original is
 * read again to compare. GIMP-free: babl and GLib only. */
#ifndef TERRAIN_PIXEL_CODEC_H
#define TERRAIN_PIXEL_CODEC_H

#include <babl/babl.h>
#include <glib.h>

typedef enum
{
  TERRAIN_SAMPLE_U8,
  TERRAIN_SAMPLE_U16,
  TERRAIN_SAMPLE_U32,
  TERRAIN_SAMPLE_HALF,
  TERRAIN_SAMPLE_FLOAT,
  TERRAIN_SAMPLE_DOUBLE
} TerrainSampleType;

typedef enum
{
  TERRAIN_CURVE_NONE,   /* stored value = height */
  TERRAIN_CURVE_LINEAR, /* stored value = the space's linear light */
  TERRAIN_CURVE_SRGB,   /* stored value = the sRGB curve of linear light ("~" models) */
  TERRAIN_CURVE_BABL    /* a curve this codec does not know: babl converts */
} TerrainCurve;

typedef enum
{
  TERRAIN_SPACE_LINEAR, /* the space's curve is the identity */
  TERRAIN_SPACE_SRGB,   /* the sRGB curve */
  TERRAIN_SPACE_GAMMA   /* linear light = value ^ gamma */
} TerrainSpaceCurve;

typedef struct TerrainPixelCodec TerrainPixelCodec;
typedef struct TerrainPixelSteps TerrainPixelSteps;

struct TerrainPixelCodec
{
  const Babl       *format;
  TerrainSampleType type;
  int               sample_bytes;
  int               components; /* per pixel, alpha included */
  int               colours;    /* 1 (gray) or 3 (RGB) */
  gboolean          has_alpha;
  TerrainCurve      curve;      /* how a stored colour relates to light */
  TerrainSpaceCurve space_curve; /* the space's own curve, when the codec computes it */
  double            gamma;       /* of TERRAIN_SPACE_GAMMA */
  double            luminance[3];
  double            limit;      /* the largest stored magnitude written: GIMP can mix it */
  /* For TERRAIN_CURVE_BABL: "Y' float" <-> the format's colours as floats, one pixel a call. */
  const Babl       *to_colours, *from_colours;
  /* The codec of the integer format the heights end in when that is not this one
   * (terrain_pixel_codec_store_in), or NULL. */
  const TerrainPixelCodec *storage;
  /* A float codec's with 8- or 16-bit storage: its colours by table (pixel-steps.h), or
   * NULL. */
  const TerrainPixelSteps *steps;
};

/* Sets codec up for a gray or RGB format (any type, curve and alpha); FALSE for any other
 * (indexed, CMYK, premultiplied), with codec unusable. */
gboolean terrain_pixel_codec (const Babl *format, TerrainPixelCodec *codec);

/* Heights written with codec are first rounded to what `storage` holds (encoded into it and
 * read back) when `storage` is an integer format the codec takes other than codec's own:
 * the format the result ends in, where codec's is one a pixel only passes through. GIMP
 * composites a filter above another in float; the canvas and a merge then convert that
 * float to the layer's integers by babl fishes of their own, picked per process by timing,
 * and a height between two steps came out one step apart in one of them (0.04 % of a u16
 * layer's pixels, in some sessions). Rounded already, a height is a step's float, which
 * every conversion within babl's tolerance brings back to that step. */
void     terrain_pixel_codec_store_in (TerrainPixelCodec *codec, const Babl *storage);

/* n pixels into their n heights. */
void     terrain_pixels_to_heights (const TerrainPixelCodec *codec, const void *pixels,
                                    float *heights, gsize n);

/* n heights into n pixels (every colour gets the height, clamped into the type's range).
 * With `original` (the same n pixels as the layer holds them): alpha is copied from it,
 * and a pixel whose height equals the original's height keeps its original bytes. Without
 * (NULL): alpha is opaque. */
void     terrain_heights_to_pixels (const TerrainPixelCodec *codec, const float *heights,
                                    const void *original, void *pixels, gsize n);

/* How many of n pixels that `coverage` (n floats, a selection's) covers at all hold a colour
 * sample that is not finite or beyond the codec's limit: GIMP cannot mix a result into
 * them. The first such pixel's index in *first. 0 for integer samples. */
gsize    terrain_pixels_count_unmixable (const TerrainPixelCodec *codec, const void *pixels,
                                         const float *coverage, gsize n, gsize *first);

/* The format a procedure outputs for a layer in `format`: itself when the codec takes it,
 * else "Y'A float" in its space (what GIMP then converts). */
const Babl *terrain_pixel_codec_format (const Babl *format);

/* The heights a grey pixel's reading reaches twice as its colour rises, from *from to *to;
 * FALSE where readings only rise. The sRGB curve's two pieces do not quite meet: from
 * linear light, its power piece starts 3e-8 below where its linear piece ends (at
 * 0.0031308), so readings just past the joint fall back (pixel-steps.c needs readings
 * that rise). */
gboolean terrain_pixel_codec_dip (const TerrainPixelCodec *codec, float *from, float *to);

#endif
