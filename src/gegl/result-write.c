#include "result-write.h"

#include "huge-pages.h"

typedef struct
{
  GeglBuffer              *output, *input;
  const float             *heights;
  const GeglRectangle     *area;
  const TerrainPixelCodec *codec;
  gboolean                 keep;
} Writing;

/* Tile by tile in the output's own memory. */
static void
write_part (const GeglRectangle *roi, gpointer data)
{
  const Writing           *w = data;
  const TerrainPixelCodec *codec = w->codec;
  const int                pixel_bytes = babl_format_get_bytes_per_pixel (codec->format);
  GeglBufferIterator      *it = gegl_buffer_iterator_new (w->output, roi, 0, codec->format,
                                                          GEGL_ACCESS_WRITE, GEGL_ABYSS_NONE, 2);
  if (w->keep)
    gegl_buffer_iterator_add (it, w->input, roi, 0, codec->format, GEGL_ACCESS_READ,
                              GEGL_ABYSS_NONE);
  while (gegl_buffer_iterator_next (it))
    {
      const GeglRectangle *tile = &it->items[0].roi;
      for (int row = 0; row < tile->height; row++)
        {
          const gsize offset = (gsize) row * tile->width * pixel_bytes;
          terrain_heights_to_pixels (codec,
                                     w->heights +
                                       (gsize) (tile->y - w->area->y + row) * w->area->width +
                                       (tile->x - w->area->x),
                                     w->keep ? (const guchar *) it->items[1].data + offset : NULL,
                                     (guchar *) it->items[0].data + offset, tile->width);
        }
    }
}

/* The canvas's chunks, and results not kept: on GEGL's threads (each pixel alone: any split
 * gives the same bytes), so that GIMP's main thread waits less for a large chunk. */
static void
write_heights (GeglBuffer *output, GeglBuffer *input, const GeglRectangle *roi,
               const float *heights, const GeglRectangle *area, const TerrainPixelCodec *codec,
               gboolean keep)
{
  Writing w = { output, input, heights, area, codec, keep };
  gegl_parallel_distribute_area (roi, 64.0, GEGL_SPLIT_STRATEGY_AUTO, write_part, &w);
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

typedef struct
{
  GeglBuffer          *output;
  const guchar        *pixels; /* the area's, row after row */
  const GeglRectangle *area;
  const Babl          *format;
  int                  pixel_bytes;
} Copying;

static void
copy_part (const GeglRectangle *roi, gpointer data)
{
  const Copying *c = data;
  const gsize    start = (gsize) (roi->y - c->area->y) * c->area->width + (roi->x - c->area->x);
  gegl_buffer_set (c->output, roi, 0, c->format, c->pixels + start * c->pixel_bytes,
                   c->area->width * c->pixel_bytes);
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
  Copying c = { output, kept, area, codec->format, pixel_bytes };
  gegl_parallel_distribute_area (roi, 16.0, GEGL_SPLIT_STRATEGY_AUTO, copy_part, &c);
  if (whole)
    terrain_result_keep_pixels (result, codec->format, whole, (gsize) area->width * area->height *
                                                                pixel_bytes);
}
