/* Heights to and from a drawable's own pixels without babl, where that can be exact.
 *
 * babl picks its conversion paths by timing them and accepts paths within a tolerance of
 * the exact result, and each process chooses anew: the same float height written into a
 * u16 layer came out one step apart in about 12 % of the pixels from one GIMP session to
 * the next (tests/gimp/test-determinism.py). For the formats whose curve is the one heights
 * are computed in (the drawable's own perceptual "Y'"/"R'G'B'" models, with or without
 * alpha, at u8, u16, u32 and float), a height is stored by plain rounding, so the same
 * parameters give the same bits in every process. Other formats (linear or "~" perceptual
 * models, half floats) need the drawable's curve: their heights go through one babl fish. */
#ifndef TERRAIN_PIXEL_CODEC_H
#define TERRAIN_PIXEL_CODEC_H

#include <babl/babl.h>
#include <glib.h>

typedef enum { TERRAIN_CODEC_U8, TERRAIN_CODEC_U16, TERRAIN_CODEC_U32, TERRAIN_CODEC_FLOAT } TerrainCodecType;

typedef struct
{
  int              components; /* per pixel, alpha included */
  int              colours;    /* 1 (gray) or 3 (RGB): each gets the height */
  TerrainCodecType type;
  const Babl      *fish;       /* NULL when exact; else "Y' float" -> the format, by babl */
} TerrainPixelCodec;

/* Sets codec up for format; returns TRUE when the conversions are exact (fish NULL). */
gboolean terrain_pixel_codec (const Babl *format, TerrainPixelCodec *codec);

/* n heights into n pixels: every colour gets the height, rounded to the nearest step and
 * clamped to the type's range (floats are stored as they are); alpha is set opaque. Formats
 * that are not exact go through codec->fish. */
void     terrain_heights_to_pixels (const TerrainPixelCodec *codec, const float *heights,
                                    void *pixels, gsize n);

/* n gray pixels of an exact codec (codec->colours == 1) into n heights. */
void     terrain_pixels_to_heights (const TerrainPixelCodec *codec, const void *pixels,
                                    float *heights, gsize n);

#endif
