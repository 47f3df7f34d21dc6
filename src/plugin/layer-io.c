#include "layer-io.h"

#include "pixel-codec.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* GEGL's tile cache in the plug-in: the write path flushes each band to GIMP as soon as it
 * is set and never reads it back, so cached tiles only cost memory, by default up to GIMP's
 * tile-cache-size (often gigabytes). GEGL trims its cache lazily, above the size set: a
 * small one keeps the plug-in's memory to a few bands whatever the layer's size. */
#define TILE_CACHE_BYTES (16 << 20)

/* GEGL, once, for the first pixel read or write: a run that applies the procedure in GIMP's
 * process moves no pixels and never pays for it. The plug-in uses no GEGL operation, only
 * buffers: a GEGL_PATH that names no folder makes gegl_init skip loading every module (GEGL
 * passes over a missing folder silently). A user's own GEGL_PATH is kept, and a dialog has
 * started GEGL already (gimp_ui_init). */
static void
start_gegl (void)
{
  static gboolean started;
  if (started)
    return;
  started = TRUE;
  if (g_getenv ("GEGL_PATH") == NULL)
    g_setenv ("GEGL_PATH", "/gimp-terrain-needs-no-gegl-operations", TRUE);
  gegl_init (NULL, NULL);
  g_object_set (gegl_config (), "tile-cache-size", (guint64) TILE_CACHE_BYTES, NULL);
}

void
terrain_progress_update (double fraction)
{
  static double shown = -1.0;
  if (fraction <= 0.0 || fraction >= 1.0 || fraction < shown || fraction - shown >= 0.02)
    {
      gimp_progress_update (fraction);
      shown = fraction;
    }
}

void
terrain_progress_init (const TerrainProcedureInfo *info)
{
  char label[256];
  gimp_progress_init (terrain_label (_(info->menu_label), label, sizeof label));
}

static const Babl *
format_for (GimpDrawable *drawable, const char *precision)
{
  const gboolean rgb = gimp_drawable_is_rgb (drawable);
  const gboolean alpha = gimp_drawable_has_alpha (drawable);
  gchar *name = g_strdup_printf ("%s %s", rgb ? (alpha ? "R'G'B'A" : "R'G'B'")
                                              : (alpha ? "Y'A" : "Y'"),
                                 precision);
  const Babl *format = babl_format_with_space (name, gimp_drawable_get_format (drawable));
  g_free (name);
  return format;
}

const Babl *
terrain_float_format (GimpDrawable *drawable)
{
  return format_for (drawable, "float");
}

const Babl *
terrain_preview_format (GimpDrawable *drawable)
{
  return format_for (drawable, "u8");
}

/* The drawable's buffer walked a tile high at a time in its own format, coded exactly
 * (pixel-codec.h): what reading and writing whole layers share. */
typedef struct
{
  GeglBuffer       *buffer;
  const Babl       *format;
  int               width, height, tile_h;
  TerrainPixelCodec codec;
  guchar           *pixels; /* one band */
} Bands;

static void
bands_open (Bands *b, GimpDrawable *drawable)
{
  start_gegl ();
  b->buffer = gimp_drawable_get_buffer (drawable);
  b->format = gegl_buffer_get_format (b->buffer);
  b->width = gimp_drawable_get_width (drawable);
  b->height = gimp_drawable_get_height (drawable);
  b->tile_h = (int) gimp_tile_height ();
  terrain_pixel_codec (b->format, &b->codec);
  b->pixels = g_malloc ((gsize) b->width * b->tile_h * babl_format_get_bytes_per_pixel (b->format));
}

static GeglRectangle
bands_band (const Bands *b, int y0)
{
  return (GeglRectangle) { 0, y0, b->width, MIN (b->tile_h, b->height - y0) };
}

static void
bands_close (Bands *b)
{
  g_free (b->pixels);
  g_object_unref (b->buffer);
}

void
terrain_read_height_bands (GimpDrawable *drawable, TerrainRowSink sink, gpointer user)
{
  Bands b;
  bands_open (&b, drawable);
  float *heights = g_new (float, (gsize) b.width * b.tile_h);
  for (int y0 = 0; y0 < b.height; y0 += b.tile_h)
    {
      GeglRectangle rect = bands_band (&b, y0);
      gegl_buffer_get (b.buffer, &rect, 1.0, b.format, b.pixels, GEGL_AUTO_ROWSTRIDE,
                       GEGL_ABYSS_NONE);
      terrain_pixels_to_heights (&b.codec, b.pixels, heights, (gsize) b.width * rect.height);
      sink (user, heights, y0, rect.height);
    }
  g_free (heights);
  bands_close (&b);
}

typedef struct
{
  float *heights;
  gsize  width;
} Rows;

static void
copy_rows (gpointer user, const float *rows, int y, int count)
{
  const Rows *to = user;
  memcpy (to->heights + (gsize) y * to->width, rows, (gsize) count * to->width * sizeof *rows);
}

void
terrain_read_heights (GimpDrawable *drawable, float *heights)
{
  Rows to = { heights, (gsize) gimp_drawable_get_width (drawable) };
  terrain_read_height_bands (drawable, copy_rows, &to);
}

/* Writes the whole drawable band by band (a tile high) in its own format, coded exactly
 * (pixel-codec.h). */
static void
write_bands (GimpDrawable *drawable, const float *heights)
{
  Bands b;
  bands_open (&b, drawable);
  for (int y0 = 0; y0 < b.height; y0 += b.tile_h)
    {
      GeglRectangle rect = bands_band (&b, y0);
      terrain_heights_to_pixels (&b.codec, heights + (gsize) y0 * b.width, NULL, b.pixels,
                                 (gsize) b.width * rect.height);
      gegl_buffer_set (b.buffer, &rect, 0, b.format, b.pixels, GEGL_AUTO_ROWSTRIDE);
      gegl_buffer_flush (b.buffer);
    }
  bands_close (&b);
}

gboolean
terrain_holds_non_numbers (GimpDrawable *drawable)
{
  TerrainPixelCodec codec;
  return ! terrain_pixel_codec (gimp_drawable_get_format (drawable), &codec) ||
         codec.type >= TERRAIN_SAMPLE_HALF;
}

gsize
terrain_count_selected_unmixable (GimpDrawable *drawable, int x, int y, int w, int h,
                                  int *first_x, int *first_y, double *limit)
{
  start_gegl ();
  GimpImage  *image = gimp_item_get_image (GIMP_ITEM (drawable));
  GeglBuffer *buffer = gimp_drawable_get_buffer (drawable);
  GeglBuffer *mask = gimp_drawable_get_buffer (GIMP_DRAWABLE (gimp_image_get_selection (image)));
  const Babl *format = gegl_buffer_get_format (buffer);
  const int   tile_h = (int) gimp_tile_height ();
  int         ox, oy;
  gsize       count = 0;
  TerrainPixelCodec codec;
  terrain_pixel_codec (format, &codec);
  gimp_drawable_get_offsets (drawable, &ox, &oy);
  *limit = codec.limit;

  guchar *pixels = g_malloc ((gsize) w * tile_h * babl_format_get_bytes_per_pixel (format));
  float  *coverage = g_new (float, (gsize) w * tile_h);
  for (int y0 = y; y0 < y + h; y0 += tile_h)
    {
      const GeglRectangle rect = { x, y0, w, MIN (tile_h, y + h - y0) };
      const GeglRectangle in_image = { x + ox, y0 + oy, rect.width, rect.height };
      gsize               first = 0, found;
      gegl_buffer_get (buffer, &rect, 1.0, format, pixels, GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
      gegl_buffer_get (mask, &in_image, 1.0, babl_format ("Y float"), coverage,
                       GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
      found = terrain_pixels_count_unmixable (&codec, pixels, coverage,
                                              (gsize) w * rect.height, &first);
      if (found && count == 0)
        {
          *first_x = x + (int) (first % w);
          *first_y = y0 + (int) (first / w);
        }
      count += found;
    }
  g_free (coverage);
  g_free (pixels);
  g_object_unref (mask);
  g_object_unref (buffer);
  return count;
}

void
terrain_write_layer (GimpDrawable *drawable, const float *heights)
{
  write_bands (drawable, heights);
  gimp_drawable_update (drawable, 0, 0, gimp_drawable_get_width (drawable),
                        gimp_drawable_get_height (drawable));
}

/* ---- The write path ----
 *
 * Most of a plug-in's write time is spent flushing tiles to GIMP over its pipe, many times
 * what the core takes to compute them (tests/bench/README.md). So a
 * worker thread computes the next band while the main thread hands the last one to GIMP:
 * the main thread keeps every GEGL buffer call (libgimp's tile transfer is not
 * thread-safe) and sets each band into the shadow buffer and flushes it, so the tiles
 * leave at once and memory stays at a few bands whatever the layer's size. Heights become
 * the drawable's own pixels (pixel-codec.h) on the worker, or, when the layer's own pixels
 * are needed (its alpha, or a filter's unchanged pixels keep their bytes), on the main
 * thread once it has read them.
 *
 * Bands end on tile rows of the layer, so every band covers whole tiles and GEGL never
 * fetches a tile from GIMP just to overwrite part of it. */

#define BANDS_IN_FLIGHT 3 /* one being computed, one waiting, one being written */

typedef struct
{
  float        *heights; /* w x tile_h */
  guchar       *pixels;  /* the same rows in the drawable's format */
  GeglRectangle rect;
  gboolean      complete; /* FALSE: the source gave up, nothing follows */
} Band;

typedef struct
{
  TerrainBandSource source;
  gpointer          user;
  TerrainPixelCodec codec;   /* heights <-> the drawable's format */
  gboolean          keeps_original;
  int               x, y, w, h, tile_h;
  GAsyncQueue      *free_bands, *filled_bands;
} Pipeline;

static gpointer
compute_bands (gpointer data)
{
  Pipeline *p = data;
  for (int y0 = p->y; y0 < p->y + p->h;)
    {
      Band     *band = g_async_queue_pop (p->free_bands);
      const int y1 = MIN ((y0 / p->tile_h + 1) * p->tile_h, p->y + p->h);
      band->rect = (GeglRectangle) { p->x, y0, p->w, y1 - y0 };
      band->complete = p->source (p->user, band->heights, p->x, y0, p->w, y1 - y0);
      if (band->complete && ! p->keeps_original)
        terrain_heights_to_pixels (&p->codec, band->heights, NULL, band->pixels,
                                   (gsize) p->w * (y1 - y0));
      g_async_queue_push (p->filled_bands, band);
      if (! band->complete)
        break;
      y0 = y1;
    }
  return NULL;
}

gboolean
terrain_write_heights (GimpDrawable *drawable, int x, int y, int w, int h,
                       gboolean keep_unchanged, TerrainBandSource source, gpointer user,
                       double progress_from)
{
  start_gegl ();
  const Babl *format = gimp_drawable_get_format (drawable);
  const int   pixel_bytes = babl_format_get_bytes_per_pixel (format);
  const int   tile_h = (int) gimp_tile_height ();
  Pipeline    p = { source, user, { 0 }, keep_unchanged || babl_format_has_alpha (format),
                    x, y, w, h, tile_h, g_async_queue_new (), g_async_queue_new () };
  GeglBuffer *original = p.keeps_original ? gimp_drawable_get_buffer (drawable) : NULL;
  GeglBuffer *shadow = gimp_drawable_get_shadow_buffer (drawable);
  guchar     *was = p.keeps_original ? g_malloc ((gsize) w * tile_h * pixel_bytes) : NULL;
  Band        bands[BANDS_IN_FLIGHT];
  terrain_pixel_codec (format, &p.codec);

  for (int i = 0; i < BANDS_IN_FLIGHT; i++)
    {
      bands[i].heights = g_malloc ((gsize) w * tile_h * sizeof (float));
      bands[i].pixels = g_malloc ((gsize) w * tile_h * pixel_bytes);
      g_async_queue_push (p.free_bands, &bands[i]);
    }
  GThread *worker = g_thread_new ("terrain-bands", compute_bands, &p);

  gboolean complete = TRUE;
  for (int done = 0; done < h && complete;)
    {
      Band *band = g_async_queue_pop (p.filled_bands);
      complete = band->complete;
      if (complete)
        {
          const gsize n = (gsize) band->rect.width * band->rect.height;
          if (was)
            {
              gegl_buffer_get (original, &band->rect, 1.0, format, was, GEGL_AUTO_ROWSTRIDE,
                               GEGL_ABYSS_NONE);
              terrain_heights_to_pixels (&p.codec, band->heights, was, band->pixels, n);
            }
          gegl_buffer_set (shadow, &band->rect, 0, format, band->pixels, GEGL_AUTO_ROWSTRIDE);
          gegl_buffer_flush (shadow);
          done += band->rect.height;
          terrain_progress_update (progress_from + (1.0 - progress_from) * done / h);
        }
      g_async_queue_push (p.free_bands, band);
    }
  g_thread_join (worker);

  for (int i = 0; i < BANDS_IN_FLIGHT; i++)
    {
      g_free (bands[i].heights);
      g_free (bands[i].pixels);
    }
  g_async_queue_unref (p.free_bands);
  g_async_queue_unref (p.filled_bands);
  g_free (was);
  g_object_unref (shadow);
  if (original)
    g_object_unref (original);
  if (! complete)
    return FALSE;
  gimp_drawable_merge_shadow (drawable, TRUE);
  gimp_drawable_update (drawable, x, y, w, h);
  return TRUE;
}
