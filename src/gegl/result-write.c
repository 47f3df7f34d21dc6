#include "result-write.h"

#include "huge-pages.h"

/* Tile by tile in the output's own memory (the canvas's chunks, results not kept). */
static void
write_heights (GeglBuffer *output, GeglBuffer *input, const GeglRectangle *roi,
               const float *heights, const GeglRectangle *area, const TerrainPixelCodec *codec,
               gboolean keep)
{
  const int           pixel_bytes = babl_format_get_bytes_per_pixel (codec->format);
  GeglBufferIterator *it = gegl_buffer_iterator_new (output, roi, 0, codec->format,
                                                     GEGL_ACCESS_WRITE, GEGL_ABYSS_NONE, 2);
  if (keep)
    gegl_buffer_iterator_add (it, input, roi, 0, codec->format, GEGL_ACCESS_READ,
                              GEGL_ABYSS_NONE);
  while (gegl_buffer_iterator_next (it))
    {
      const GeglRectangle *tile = &it->items[0].roi;
      for (int row = 0; row < tile->height; row++)
        {
          const gsize offset = (gsize) row * tile->width * pixel_bytes;
          terrain_heights_to_pixels (codec,
                                     heights + (gsize) (tile->y - area->y + row) * area->width +
                                       (tile->x - area->x),
                                     keep ? (const guchar *) it->items[1].data + offset : NULL,
                                     (guchar *) it->items[0].data + offset, tile->width);
        }
    }
}

typedef struct
{
  const TerrainPixelCodec *codec;
  const float             *heights;
  const guchar            *original;
  guchar                  *pixels;
  int                      pixel_bytes;
} Encoding;

static void
encode_range (gsize offset, gsize size, gpointer data)
{
  const Encoding *e = data;
  const gsize     at = offset * e->pixel_bytes;
  terrain_heights_to_pixels (e->codec, e->heights + offset, e->original ? e->original + at : NULL,
                             e->pixels + at, size);
}

/* The whole area's pixels, on GEGL's threads (each pixel alone: any split gives the same
 * bytes), into a new block of terrain_pages_alloc; NULL when there is no room. */
static guchar *
encode_whole (GeglBuffer *input, const GeglRectangle *area, const float *heights,
              const TerrainPixelCodec *codec, gboolean keep)
{
  const int   pixel_bytes = babl_format_get_bytes_per_pixel (codec->format);
  const gsize n = (gsize) area->width * area->height;
  guchar     *pixels = terrain_pages_alloc (n * pixel_bytes);
  guchar     *original = keep && pixels ? terrain_pages_alloc (n * pixel_bytes) : NULL;
  if (pixels == NULL || (keep && original == NULL))
    {
      terrain_pages_free (pixels);
      return NULL;
    }
  if (original)
    gegl_buffer_get (input, area, 1.0, codec->format, original, GEGL_AUTO_ROWSTRIDE,
                     GEGL_ABYSS_NONE);
  Encoding e = { codec, heights, original, pixels, pixel_bytes };
  gegl_parallel_distribute_range (n, 64.0, encode_range, &e);
  terrain_pages_free (original);
  return pixels;
}

void
terrain_write_result (GeglBuffer *output, GeglBuffer *input, const GeglRectangle *roi,
                      TerrainResult *result, const GeglRectangle *area,
                      const TerrainPixelCodec *codec, gboolean keep, gboolean key_has_layer)
{
  const int     pixel_bytes = babl_format_get_bytes_per_pixel (codec->format);
  const guchar *kept = terrain_result_pixels (result, codec->format);
  guchar       *whole = NULL;
  if (kept == NULL && (key_has_layer || ! codec->has_alpha) && gegl_rectangle_equal (roi, area) &&
      terrain_result_wants_pixels (result))
    kept = whole = encode_whole (input, area, terrain_result_heights (result), codec, keep);
  if (kept == NULL)
    {
      write_heights (output, input, roi, terrain_result_heights (result), area, codec, keep);
      return;
    }
  const gsize start = (gsize) (roi->y - area->y) * area->width + (roi->x - area->x);
  gegl_buffer_set (output, roi, 0, codec->format, kept + start * pixel_bytes,
                   area->width * pixel_bytes);
  if (whole)
    terrain_result_keep_pixels (result, codec->format, whole, (gsize) area->width * area->height *
                                                                pixel_bytes);
}
