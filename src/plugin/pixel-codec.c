#include "pixel-codec.h"

#include <string.h>

gboolean
terrain_pixel_codec (const Babl *format, TerrainPixelCodec *codec)
{
  static const char *const models[] = { "Y'", "Y'A", "R'G'B'", "R'G'B'A" };
  static const char *const types[] = { "u8", "u16", "u32", "float" };
  const char *model = babl_get_name (babl_format_get_model (format));
  const char *type = babl_get_name (babl_format_get_type (format, 0));
  int m = -1, t = -1;
  for (int i = 0; i < 4; i++)
    {
      m = strcmp (model, models[i]) == 0 ? i : m;
      t = strcmp (type, types[i]) == 0 ? i : t;
    }
  codec->components = babl_format_get_n_components (format);
  codec->colours = m < 2 ? 1 : 3;
  codec->type = (TerrainCodecType) (t < 0 ? 0 : t);
  codec->fish = m < 0 || t < 0 ? babl_fish (babl_format_with_space ("Y' float", format), format)
                               : NULL;
  return codec->fish == NULL;
}

/* The integer step nearest to height * max, within [0, max]. */
static inline double
quantise (float height, double max)
{
  const double v = height * max + 0.5;
  return v <= 0.0 ? 0.0 : v >= max ? max : (double) (guint64) v;
}

/* Each colour of pixel i gets heights[i] as a T in [0, MAX], alpha gets MAX (opaque). */
#define STORE_PIXELS(T, MAX)                                                     \
  for (gsize i = 0; i < n; i++)                                                  \
    for (int k = 0; k < c; k++)                                                  \
      ((T *) pixels)[i * c + k] = k < codec->colours ? (T) quantise (heights[i], MAX) : (MAX)

void
terrain_heights_to_pixels (const TerrainPixelCodec *codec, const float *heights, void *pixels,
                           gsize n)
{
  const int c = codec->components;
  if (codec->fish)
    {
      babl_process (codec->fish, heights, pixels, (long) n);
      return;
    }
  switch (codec->type)
    {
    case TERRAIN_CODEC_U8:  STORE_PIXELS (guint8, G_MAXUINT8); break;
    case TERRAIN_CODEC_U16: STORE_PIXELS (guint16, G_MAXUINT16); break;
    case TERRAIN_CODEC_U32: STORE_PIXELS (guint32, G_MAXUINT32); break;
    case TERRAIN_CODEC_FLOAT:
      for (gsize i = 0; i < n; i++)
        for (int k = 0; k < c; k++)
          ((float *) pixels)[i * c + k] = k < codec->colours ? heights[i] : 1.0f;
      break;
    }
}

/* Pixel i's first component as a height: its step over MAX. */
#define LOAD_PIXELS(T, MAX)                                                      \
  for (gsize i = 0; i < n; i++)                                                  \
    heights[i] = (float) (((const T *) pixels)[i * c] / (double) (MAX))

void
terrain_pixels_to_heights (const TerrainPixelCodec *codec, const void *pixels, float *heights,
                           gsize n)
{
  const int c = codec->components;
  switch (codec->type)
    {
    case TERRAIN_CODEC_U8:    LOAD_PIXELS (guint8, G_MAXUINT8); break;
    case TERRAIN_CODEC_U16:   LOAD_PIXELS (guint16, G_MAXUINT16); break;
    case TERRAIN_CODEC_U32:   LOAD_PIXELS (guint32, G_MAXUINT32); break;
    case TERRAIN_CODEC_FLOAT: LOAD_PIXELS (float, 1.0); break;
    }
}
