/* The GEGL module's operations in GEGL alone, without GIMP: seconds, where GIMP's tests take
 * minutes. GEGL_PATH names the module's folder (meson.build), so `terrain:*` load as in
 * GIMP; outside GIMP the module renders every effect exactly and in place (gimp-internals.h).
 *
 *  - pure: an operation's output is a function of its input and properties. A part of the
 *    output asked alone is that part of the whole; the same graph asked again, a new graph
 *    on a copy of the input (the result kept, then served) and a property changed and
 *    changed back all give the same bytes; a changed input pixel changes the result (a kept
 *    result is never served for new input);
 *  - past a crop: behind GIMP's translate and crop (a selection), the operation reads the
 *    whole layer, from its input where the crop is the whole layer, else from the node
 *    before the crop: the same bytes as without them either way;
 *  - rounded to what is stored: above a float conversion of a 16-bit layer (as GIMP feeds an
 *    effect above another), the heights written are 16-bit steps (pixel-codec.h,
 *    terrain_pixel_codec_store_in), which the float output read as 16 bits gives;
 *  - concurrent: graphs rendered on several threads at once give what they give one after
 *    the other, served from the kept results or made and kept at the same time (run under
 *    ThreadSanitizer by build-aux/run-tsan). */
#include "../unit/check.h"

#include <gegl.h>
#include <math.h>
#include <string.h>

#define W 96
#define H 80
#define THREADS 4

/* A W x H "Y' u16" layer of smooth random hills: the same on every run. */
static GeglBuffer *
hills (guint32 seed)
{
  guint16 *pixels = g_new (guint16, W * H);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      {
        const double h = 0.5 + 0.2 * sin (x * 0.11 + seed) * cos (y * 0.07 + 0.3 * seed) +
                         0.1 * sin ((x + 2 * y) * 0.23 + seed * 1.7);
        pixels[y * W + x] = (guint16) lround (h * 65535.0);
      }
  GeglRectangle area = { 0, 0, W, H };
  GeglBuffer   *buffer = gegl_buffer_new (&area, babl_format ("Y' u16"));
  gegl_buffer_set (buffer, &area, 0, babl_format ("Y' u16"), pixels, GEGL_AUTO_ROWSTRIDE);
  g_free (pixels);
  return buffer;
}

/* operation on layer (through a float conversion when `as_float`), its output at roi read
 * in `format`: a new graph each call. */
static guchar *
render (const char *operation, GeglBuffer *layer, gboolean as_float, const GeglRectangle *roi,
        const char *format)
{
  GeglNode *graph = gegl_node_new ();
  GeglNode *source = gegl_node_new_child (graph, "operation", "gegl:buffer-source", "buffer",
                                          layer, NULL);
  GeglNode *node = gegl_node_new_child (graph, "operation", operation, NULL);
  if (as_float)
    {
      GeglNode *convert = gegl_node_new_child (graph, "operation", "gegl:convert-format",
                                               "format", babl_format ("RGBA float"), NULL);
      gegl_node_link_many (source, convert, node, NULL);
    }
  else
    gegl_node_link (source, node);
  const Babl *babl = babl_format (format);
  guchar     *out = g_malloc ((gsize) roi->width * roi->height *
                              babl_format_get_bytes_per_pixel (babl));
  gegl_node_blit (node, 1.0, roi, babl, out, GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
  g_object_unref (graph);
  return out;
}

static const GeglRectangle whole = { 0, 0, W, H };

static gboolean
same (const guchar *a, const guchar *b, gsize bytes)
{
  return memcmp (a, b, bytes) == 0;
}

static void
test_pure (const char *operation)
{
  const gsize bytes = (gsize) W * H * 2;
  GeglBuffer *layer = hills (1);
  guchar     *first = render (operation, layer, FALSE, &whole, "Y' u16");
  guchar     *again = render (operation, layer, FALSE, &whole, "Y' u16");
  CHECK (same (first, again, bytes), "%s: asked again, other bytes", operation);
  GeglBuffer *copy = gegl_buffer_dup (layer);
  guchar     *copied = render (operation, copy, FALSE, &whole, "Y' u16");
  CHECK (same (first, copied, bytes), "%s: on a copy of the layer, other bytes", operation);
  CHECK (! same (first, (const guchar *) gegl_buffer_linear_open (layer, NULL, NULL, NULL),
                 bytes), "%s changed nothing: the test proves nothing", operation);
  gegl_buffer_linear_close (layer, NULL);

  const GeglRectangle part = { 17, 9, 40, 31 };
  guchar *piece = render (operation, layer, FALSE, &part, "Y' u16");
  for (int y = 0; y < part.height; y++)
    CHECK (same (piece + (gsize) y * part.width * 2,
                 first + ((gsize) (y + part.y) * W + part.x) * 2, (gsize) part.width * 2),
           "%s: row %d of a part asked alone is not the whole's", operation, y + part.y);

  const guint16 dot = 0;
  gegl_buffer_set (copy, GEGL_RECTANGLE (40, 40, 1, 1), 0, babl_format ("Y' u16"), &dot,
                   GEGL_AUTO_ROWSTRIDE);
  guchar *changed = render (operation, copy, FALSE, &whole, "Y' u16");
  CHECK (! same (first, changed, bytes), "%s: a changed pixel, the old result", operation);
  g_free (first);
  g_free (again);
  g_free (copied);
  g_free (piece);
  g_free (changed);
  g_object_unref (copy);
  g_object_unref (layer);
}

/* operation behind gegl:translate and gegl:crop to `crop`, as GIMP builds a filter's input
 * (gimp-internals.h), its output at `crop` read in "Y' u16": a new graph each call. */
static guchar *
render_cropped (const char *operation, GeglBuffer *layer, const GeglRectangle *crop)
{
  GeglNode *graph = gegl_node_new ();
  GeglNode *source = gegl_node_new_child (graph, "operation", "gegl:buffer-source", "buffer",
                                          layer, NULL);
  GeglNode *translate = gegl_node_new_child (graph, "operation", "gegl:translate", NULL);
  GeglNode *cropped = gegl_node_new_child (graph, "operation", "gegl:crop", "x",
                                           (double) crop->x, "y", (double) crop->y, "width",
                                           (double) crop->width, "height",
                                           (double) crop->height, NULL);
  GeglNode *node = gegl_node_new_child (graph, "operation", operation, NULL);
  gegl_node_link_many (source, translate, cropped, node, NULL);
  guchar *out = g_malloc ((gsize) crop->width * crop->height * 2);
  gegl_node_blit (node, 1.0, crop, babl_format ("Y' u16"), out, GEGL_AUTO_ROWSTRIDE,
                  GEGL_BLIT_DEFAULT);
  g_object_unref (graph);
  return out;
}

static void
test_past_crop (const char *operation)
{
  const GeglRectangle part = { 11, 7, 50, 41 };
  GeglBuffer         *layer = hills (4);
  guchar             *plain = render (operation, layer, FALSE, &whole, "Y' u16");
  guchar             *all = render_cropped (operation, layer, &whole);
  CHECK (same (plain, all, (gsize) W * H * 2), "%s behind a crop to the whole layer: other "
         "bytes", operation);
  guchar *piece = render_cropped (operation, layer, &part);
  for (int y = 0; y < part.height; y++)
    CHECK (same (piece + (gsize) y * part.width * 2,
                 plain + ((gsize) (y + part.y) * W + part.x) * 2, (gsize) part.width * 2),
           "%s behind a crop to part of the layer: row %d is not the whole layer's",
           operation, y + part.y);
  g_free (plain);
  g_free (all);
  g_free (piece);
  g_object_unref (layer);
}

/* A property changed and changed back: the first bytes again. */
static void
test_property (void)
{
  GeglBuffer *layer = hills (2);
  GeglNode   *graph = gegl_node_new ();
  GeglNode   *source = gegl_node_new_child (graph, "operation", "gegl:buffer-source", "buffer",
                                            layer, NULL);
  GeglNode   *smooth = gegl_node_new_child (graph, "operation", "terrain:smooth", NULL);
  gegl_node_link (source, smooth);
  const gsize bytes = (gsize) W * H * 2;
  guchar     *out[3];
  const int   iterations[3] = { 3, 9, 3 };
  for (int i = 0; i < 3; i++)
    {
      out[i] = g_malloc (bytes);
      gegl_node_set (smooth, "iterations", iterations[i], NULL);
      gegl_node_blit (smooth, 1.0, &whole, babl_format ("Y' u16"), out[i], GEGL_AUTO_ROWSTRIDE,
                      GEGL_BLIT_DEFAULT);
    }
  CHECK (! same (out[0], out[1], bytes), "iterations 3 and 9 give the same bytes");
  CHECK (same (out[0], out[2], bytes), "iterations 3, 9, then 3 again: other bytes");
  for (int i = 0; i < 3; i++)
    g_free (out[i]);
  g_object_unref (graph);
  g_object_unref (layer);
}

/* Above a float conversion of a 16-bit layer: every height within float rounding of a 16-bit
 * step (unrounded, nearly all would be further), and the float read as 16 bits that step. */
static void
test_rounded_to_stored (const char *operation)
{
  GeglBuffer  *layer = hills (3);
  float       *grey = (float *) render (operation, layer, TRUE, &whole, "Y' float");
  guint16     *u16 = (guint16 *) render (operation, layer, TRUE, &whole, "Y' u16");
  gsize        off = 0;
  const float *heights = grey;
  for (gsize i = 0; i < (gsize) W * H; i++)
    off += fabs (heights[i] * 65535.0 - lround (heights[i] * 65535.0)) > 0.02 ||
           lround (heights[i] * 65535.0) != u16[i];
  CHECK (off == 0, "%s above a float conversion: %zu of %d heights are not 16-bit steps",
         operation, off, W * H);
  g_free (grey);
  g_free (u16);
  g_object_unref (layer);
}

typedef struct
{
  const char *operation;
  GeglBuffer *layer;
  guchar     *expected;
  int         differ;
  guint32     seed; /* of a layer of its own, made and kept while the others run */
} Job;

static gpointer
run_job (gpointer data)
{
  Job *job = data;
  for (int i = 0; i < 3; i++)
    {
      guchar *got = render (job->operation, job->layer, FALSE, &whole, "Y' u16");
      job->differ += ! same (got, job->expected, (gsize) W * H * 2);
      g_free (got);
    }
  GeglBuffer *own = hills (job->seed);
  guchar     *made = render (job->operation, own, FALSE, &whole, "Y' u16");
  guchar     *kept = render (job->operation, own, FALSE, &whole, "Y' u16");
  job->differ += ! same (made, kept, (gsize) W * H * 2);
  g_free (made);
  g_free (kept);
  g_object_unref (own);
  return NULL;
}

static void
test_concurrent (void)
{
  const char *operations[THREADS] = { "terrain:river-erosion", "terrain:smooth",
                                      "terrain:thermal-erosion", "terrain:river-erosion" };
  Job         jobs[THREADS];
  GThread    *threads[THREADS];
  for (int t = 0; t < THREADS; t++)
    {
      jobs[t] = (Job) { operations[t], hills (10 + t), NULL, 0, 100 + t };
      jobs[t].expected = render (operations[t], jobs[t].layer, FALSE, &whole, "Y' u16");
    }
  for (int t = 0; t < THREADS; t++)
    threads[t] = g_thread_new ("render", run_job, &jobs[t]);
  for (int t = 0; t < THREADS; t++)
    {
      g_thread_join (threads[t]);
      CHECK (jobs[t].differ == 0,
             "%s on thread %d: %d of 4 renders differ (3 from one alone, 1 served from its "
             "making)", operations[t], t, jobs[t].differ);
      g_free (jobs[t].expected);
      g_object_unref (jobs[t].layer);
    }
}

int
main (int argc, char **argv)
{
  gegl_init (&argc, &argv);
  CHECK (gegl_has_operation ("terrain:river-erosion"), "the module is not loaded (GEGL_PATH %s)",
         g_getenv ("GEGL_PATH"));
  if (gegl_has_operation ("terrain:river-erosion"))
    {
      test_pure ("terrain:river-erosion");
      test_pure ("terrain:hydraulic-erosion");
      test_pure ("terrain:smooth");
      test_property ();
      test_past_crop ("terrain:river-erosion");
      test_past_crop ("terrain:smooth");
      test_rounded_to_stored ("terrain:river-erosion");
      test_rounded_to_stored ("terrain:thermal-erosion");
      test_concurrent ();
    }
  gegl_exit ();
  return CHECK_DONE ("gegl-operations");
}
