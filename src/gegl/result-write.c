#include "result-write.h"

/* What is encoded into a part of a buffer: the result's heights over `area`. */
typedef struct
{
  GeglBuffer              *buffer, *input;
  const float             *heights; /* the area's, row after row */
  const guchar            *layer;   /* the input over the area, read already, or NULL */
  const GeglRectangle     *area;
  const TerrainPixelCodec *codec;
  int                      pixel_bytes;
  gboolean                 keep;
} Encoding;

/* The heights of a part of the area encoded into the buffer, tile by tile in the buffer's
 * own memory (each pixel alone: any split gives the same bytes). With `keep`, the input's
 * pixels there come from the layer as read already, else from the input. */
static void
encode_part (const GeglRectangle *roi, gpointer data)
{
  const Encoding          *e = data;
  const TerrainPixelCodec *codec = e->codec;
  const gboolean           reads_input = e->keep && e->layer == NULL;
  GeglBufferIterator *it = gegl_buffer_iterator_new (e->buffer, roi, 0, codec->format,
                                                     GEGL_ACCESS_WRITE, GEGL_ABYSS_NONE, 2);
  if (reads_input)
    gegl_buffer_iterator_add (it, e->input, roi, 0, codec->format, GEGL_ACCESS_READ,
                              GEGL_ABYSS_NONE);
  while (gegl_buffer_iterator_next (it))
    {
      const GeglRectangle *tile = &it->items[0].roi;
      for (int row = 0; row < tile->height; row++)
        {
          const gsize   offset = (gsize) row * tile->width * e->pixel_bytes;
          const gsize   at = (gsize) (tile->y - e->area->y + row) * e->area->width +
                             (tile->x - e->area->x);
          const guchar *original = ! e->keep     ? NULL
                                   : reads_input ? (const guchar *) it->items[1].data + offset
                                                 : e->layer + at * e->pixel_bytes;
          terrain_heights_to_pixels (codec, e->heights + at, original,
                                     (guchar *) it->items[0].data + offset, tile->width);
        }
    }
}

/* The kept pixels' rectangle roi of the area into the output's: the same bytes, and for
 * whole tiles no copy at all (GEGL shares them until either is written), wherever the kept
 * pixels' area lies (the key holds the layer's size, not its offset). */
static void
copy_kept (GeglBuffer *kept, const GeglRectangle *area, GeglBuffer *output,
           const GeglRectangle *roi)
{
  const GeglRectangle *kept_area = gegl_buffer_get_extent (kept);
  const GeglRectangle  from = { roi->x - area->x + kept_area->x, roi->y - area->y + kept_area->y,
                                roi->width, roi->height };
  gegl_buffer_copy (kept, &from, GEGL_ABYSS_NONE, output, roi);
}

void
terrain_write_result (GeglBuffer *output, GeglBuffer *input, const GeglRectangle *roi,
                      TerrainResult *result, const GeglRectangle *area,
                      const TerrainPixelCodec *codec, const guchar *layer_pixels,
                      gboolean keep, gboolean key_has_layer)
{
  Encoding       e = { output, input, terrain_result_heights (result), layer_pixels, area, codec,
                       babl_format_get_bytes_per_pixel (codec->format), keep };
  const gboolean whole = gegl_rectangle_equal (roi, area);
  GeglBuffer    *kept = terrain_result_pixels (result, codec->format);
  if (kept == NULL && whole && (key_has_layer || ! codec->has_alpha) &&
      e.pixel_bytes <= (int) sizeof (float) && terrain_result_wants_pixels (result))
    {
      /* Encoded once into a buffer of their own, which the output then shares: the same
       * merge again copies no pixel (at 1024 x 1024, 16 bits, writing the kept pixels into
       * the output took 0.7 ms, fresh memory faulted in page by page: half of such a merge
       * in GIMP's process, and four times a merge's floor's writing). Not where they are
       * larger than the heights: an effect above another's RGBA float pixels, 256 MB at
       * 4096 x 4096, pushed out of the cache the results an undo asks for. */
      GeglBuffer *pixels = gegl_buffer_new (area, codec->format);
      e.buffer = pixels;
      gegl_parallel_distribute_area (area, 64.0, GEGL_SPLIT_STRATEGY_AUTO, encode_part, &e);
      copy_kept (pixels, area, output, roi);
      terrain_result_keep_pixels (result, codec->format, pixels,
                                  (gsize) area->width * area->height * e.pixel_bytes,
                                  g_object_unref);
    }
  else if (kept)
    copy_kept (kept, area, output, roi);
  /* A merge's whole layer on GEGL's threads; the canvas's chunks on the calling thread
   * alone, leaving the other cores to a result being made (later.h): written on them, the
   * chunks made no stall after a stroke measurably shorter at 4096 x 4096, and its result
   * came 5-10 % later (one session each way). */
  else if (whole)
    gegl_parallel_distribute_area (roi, 64.0, GEGL_SPLIT_STRATEGY_AUTO, encode_part, &e);
  else
    encode_part (roi, &e);
}
