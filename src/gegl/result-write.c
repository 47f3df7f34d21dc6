#include "result-write.h"

#include "huge-pages.h"

/* What is written into a part of the output: the result's heights, encoded there, or the
 * pixels it was written as once. */
typedef struct
{
  GeglBuffer              *output, *input;
  const float             *heights; /* the area's, row after row */
  const guchar            *pixels;  /* the same, written once; NULL: encode the heights */
  const guchar            *layer;   /* the input over the area, read already, or NULL */
  const GeglRectangle     *area;
  const TerrainPixelCodec *codec;
  int                      pixel_bytes;
  gboolean                 keep;
} Writing;

/* A part of the output, on one of GEGL's threads (each pixel alone: any split gives the
 * same bytes). Heights are encoded tile by tile in the output's own memory. */
static void
write_part (const GeglRectangle *roi, gpointer data)
{
  const Writing           *w = data;
  const TerrainPixelCodec *codec = w->codec;
  const gsize              start = (gsize) (roi->y - w->area->y) * w->area->width +
                                   (roi->x - w->area->x);
  if (w->pixels)
    {
      gegl_buffer_set (w->output, roi, 0, codec->format, w->pixels + start * w->pixel_bytes,
                       (gsize) w->area->width * w->pixel_bytes);
      return;
    }
  GeglBufferIterator *it = gegl_buffer_iterator_new (w->output, roi, 0, codec->format,
                                                     GEGL_ACCESS_WRITE, GEGL_ABYSS_NONE, 2);
  if (w->keep)
    gegl_buffer_iterator_add (it, w->input, roi, 0, codec->format, GEGL_ACCESS_READ,
                              GEGL_ABYSS_NONE);
  while (gegl_buffer_iterator_next (it))
    {
      const GeglRectangle *tile = &it->items[0].roi;
      for (int row = 0; row < tile->height; row++)
        {
          const gsize offset = (gsize) row * tile->width * w->pixel_bytes;
          terrain_heights_to_pixels (codec,
                                     w->heights +
                                       (gsize) (tile->y - w->area->y + row) * w->area->width +
                                       (tile->x - w->area->x),
                                     w->keep ? (const guchar *) it->items[1].data + offset : NULL,
                                     (guchar *) it->items[0].data + offset, tile->width);
        }
    }
}

typedef struct
{
  const Writing *w;
  const guchar  *original;
  guchar        *pixels;
} Encoding;

static void
encode_range (gsize offset, gsize size, gpointer data)
{
  const Encoding *e = data;
  const gsize     at = offset * e->w->pixel_bytes;
  terrain_heights_to_pixels (e->w->codec, e->w->heights + offset,
                             e->original ? e->original + at : NULL, e->pixels + at, size);
}

/* The whole area's pixels, on GEGL's threads, into a new block of terrain_pages_alloc; NULL
 * when there is no room. With `keep`, the input over the area: the layer as read already,
 * else read here. */
static guchar *
encode_whole (const Writing *w)
{
  const gsize n = (gsize) w->area->width * w->area->height;
  guchar     *pixels = terrain_pages_alloc (n * w->pixel_bytes);
  guchar     *read = w->keep && ! w->layer && pixels ? terrain_pages_alloc (n * w->pixel_bytes)
                                                     : NULL;
  if (pixels == NULL || (w->keep && ! w->layer && read == NULL))
    {
      terrain_pages_free (pixels);
      return NULL;
    }
  if (read)
    gegl_buffer_get (w->input, w->area, 1.0, w->codec->format, read, GEGL_AUTO_ROWSTRIDE,
                     GEGL_ABYSS_NONE);
  Encoding e = { w, ! w->keep ? NULL : read ? read : w->layer, pixels };
  gegl_parallel_distribute_range (n, 64.0, encode_range, &e);
  terrain_pages_free (read);
  return pixels;
}

void
terrain_write_result (GeglBuffer *output, GeglBuffer *input, const GeglRectangle *roi,
                      TerrainResult *result, const GeglRectangle *area,
                      const TerrainPixelCodec *codec, const guchar *layer_pixels,
                      gboolean keep, gboolean key_has_layer)
{
  Writing w = { output, input, terrain_result_heights (result),
                terrain_result_pixels (result, codec->format), layer_pixels, area, codec,
                babl_format_get_bytes_per_pixel (codec->format), keep };
  guchar *whole = NULL;
  if (w.pixels == NULL && (key_has_layer || ! codec->has_alpha) &&
      gegl_rectangle_equal (roi, area) && terrain_result_wants_pixels (result))
    w.pixels = whole = encode_whole (&w);
  /* A merge's whole layer on GEGL's threads; the canvas's chunks on the calling thread
   * alone, leaving GEGL's threads to a result being made (later.h): written on them, the
   * chunks made no stall after a stroke measurably shorter at 4096 x 4096, and its result
   * came 5-10 % later (one session each way). */
  if (gegl_rectangle_equal (roi, area))
    gegl_parallel_distribute_area (roi, w.pixels ? 16.0 : 64.0, GEGL_SPLIT_STRATEGY_AUTO,
                                   write_part, &w);
  else
    write_part (roi, &w);
  if (whole)
    terrain_result_keep_pixels (result, codec->format, whole,
                                (gsize) area->width * area->height * w.pixel_bytes);
}
