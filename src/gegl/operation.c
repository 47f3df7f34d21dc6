#include "operation.h"

#include "gimp-internals.h"
#include "heightmap.h"
#include "huge-pages.h"
#include "later.h"
#include "mainloop-probe.h"
#include "op-properties.h"
#include "pixel-codec.h"
#include "reduced.h"
#include "render-log.h"
#include "result-cache.h"
#include "result-write.h"
#include "stroke.h"
#include "terrain-build-id.h"
#include "tile-witness.h"

#include <stdarg.h>
#include <string.h>

/* What the canvas was last shown of the layer (canvas_chunks), served again to its later
 * asks, chunk by chunk: the look shown while the result of `key` is made in a thread
 * (later.h; GEGL's caches must not keep it: a merge of the effect would merge it), or, when
 * `result`, that result itself, found again in the kept results (a reference here would keep
 * it past their memory's bound), also once the look's result is kept; `settings` and
 * `invalidations`: the node's count of invalidations before the layer of what was shown was
 * read (invalidated). */
typedef struct
{
  TerrainResult   *look;
  gboolean         result;
  TerrainResultKey key;
  TerrainResultKey settings;
  gint             invalidations;
} Shown;

/* The last reduced look drawn from a base (stroke.h), of the layer and settings `key` and the
 * base `base`: the canvas's render after a stroke asks for the look of the stroke's last
 * render again (River Erosion at 1024 x 1024: 50 ms of GIMP's main thread). */
typedef struct
{
  TerrainResult   *result;
  TerrainResultKey key;
  guint            base;
} Look;

typedef struct
{
  GeglOperationFilter parent_instance;
  TerrainArgValue    *values;  /* one per argument, in the descriptor's order */
  gchar             **strings; /* the owned text of string arguments */
  const Babl         *format;  /* pixels in and out: the layer's own (prepare) */
  TerrainStroke      *stroke;  /* the base of its strokes' looks (stroke.h) */
  /* GEGL may render one operation on several threads at once (the canvas in GIMP's main
   * thread, a reader in another): `shown` and `look` are read and replaced under this lock,
   * each render working on a copy of its own (shown_get, look_get). */
  GMutex              lock;
  Shown               shown;
  /* The node's invalidations (GEGL: its input or its settings changed), counted in whatever
   * thread makes them, but for the operation's own (terrain_stroke_forget) */
  gint                invalidations;
  Look                look;
} TerrainOperation;

typedef struct
{
  GeglOperationFilterClass    parent_class;
  const TerrainProcedureInfo *info;
  int                         arg_count;
} TerrainOperationClass;

#define OPERATION(object) ((TerrainOperation *) (object))
#define OPERATION_CLASS(object) ((TerrainOperationClass *) G_OBJECT_GET_CLASS (object))

/* ---- Properties: argument i is property i + 1; the build property comes last ---- */

static void
set_property (GObject *object, guint id, const GValue *value, GParamSpec *pspec)
{
  TerrainOperation            *self = OPERATION (object);
  const TerrainOperationClass *klass = OPERATION_CLASS (object);
  (void) pspec;
  if (id == 0 || id > (guint) klass->arg_count)
    return; /* the build is the module's, not a setting */
  const int        i = (int) id - 1;
  TerrainArgValue *v = &self->values[i];
  switch (klass->info->args[i].type)
    {
    case TERRAIN_ARG_INT:
      v->number = G_VALUE_HOLDS_UINT (value) ? (double) g_value_get_uint (value) /* a seed */
                                             : (double) g_value_get_int (value);
      break;
    case TERRAIN_ARG_DOUBLE:  v->number = g_value_get_double (value); break;
    case TERRAIN_ARG_BOOLEAN: v->number = g_value_get_boolean (value); break;
    case TERRAIN_ARG_CHOICE:  v->number = g_value_get_enum (value); break;
    case TERRAIN_ARG_STRING:
      g_free (self->strings[i]);
      self->strings[i] = g_value_dup_string (value);
      v->text = self->strings[i] ? self->strings[i] : "";
      break;
    }
}

static void
get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  TerrainOperation            *self = OPERATION (object);
  const TerrainOperationClass *klass = OPERATION_CLASS (object);
  (void) pspec;
  if (id == 0 || id > (guint) klass->arg_count)
    {
      g_value_set_string (value, TERRAIN_BUILD_ID);
      return;
    }
  const TerrainArgValue *v = &self->values[id - 1];
  switch (klass->info->args[id - 1].type)
    {
    case TERRAIN_ARG_INT:
      if (G_VALUE_HOLDS_UINT (value)) /* a seed */
        g_value_set_uint (value, (guint) v->number);
      else
        g_value_set_int (value, (gint) v->number);
      break;
    case TERRAIN_ARG_DOUBLE:  g_value_set_double (value, v->number); break;
    case TERRAIN_ARG_BOOLEAN: g_value_set_boolean (value, v->number != 0.0); break;
    case TERRAIN_ARG_CHOICE:  g_value_set_enum (value, (gint) v->number); break;
    case TERRAIN_ARG_STRING:  g_value_set_string (value, v->text); break;
    }
}

static void
instance_init (GTypeInstance *instance, gpointer g_class)
{
  const TerrainOperationClass *klass = g_class;
  TerrainOperation            *self = OPERATION (instance);
  self->values = g_new0 (TerrainArgValue, klass->arg_count);
  self->strings = g_new0 (gchar *, klass->arg_count);
  self->stroke = terrain_stroke_new ();
  g_mutex_init (&self->lock);
  terrain_arg_defaults (klass->info, self->values);
}

static void
finalize (GObject *object)
{
  TerrainOperation *self = OPERATION (object);
  for (int i = 0; i < OPERATION_CLASS (object)->arg_count; i++)
    g_free (self->strings[i]);
  g_free (self->strings);
  g_free (self->values);
  terrain_stroke_free (self->stroke);
  terrain_result_unref (self->shown.look);
  terrain_result_unref (self->look.result);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (g_type_class_peek_parent (G_OBJECT_GET_CLASS (object)))->finalize (object);
}

static void
invalidated (GeglNode *node, const GeglRectangle *rect, gpointer operation)
{
  (void) rect;
  /* Neither a look dropped from GEGL's caches nor the node's own result told to GIMP
   * (later.h) is a change of its input. */
  if (! terrain_stroke_forgetting () && ! terrain_later_telling (node))
    g_atomic_int_inc (&OPERATION (operation)->invalidations);
}

static void
attach (GeglOperation *operation)
{
  GEGL_OPERATION_CLASS (g_type_class_peek_parent (G_OBJECT_GET_CLASS (operation)))
    ->attach (operation);
  /* GIMP's drawables are watched from the first operation made for one on (later.h): the
   * first render of an XCF opened with effects found no drawable seen yet, and was made in
   * GIMP's main thread (River Erosion at 2048 x 2048: 1 s). */
  terrain_later_watch ();
  g_signal_connect_object (operation->node, "invalidated", G_CALLBACK (invalidated), operation,
                           0);
}

/* ---- Regions ---- */

/* Whether the output at a point depends on the whole input (everything but a generator
 * that renders rectangles and does not follow the layer). */
static gboolean
whole_layer (GeglOperation *operation)
{
  const TerrainProcedureInfo *info = OPERATION_CLASS (operation)->info;
  return info->render_rect == NULL || terrain_reads_layer (info, OPERATION (operation)->values);
}

static GeglRectangle
input_box (GeglOperation *operation)
{
  const GeglRectangle *box = gegl_operation_source_get_bounding_box (operation, "input");
  return box ? *box : (GeglRectangle) { 0, 0, 0, 0 };
}

static GeglNode *layer_source (GeglOperation *operation, GeglRectangle *layer);
static gboolean  stroke_render (GeglOperation *operation, const GeglRectangle *layer);
static gboolean  canvas_chunks (GeglOperation *operation);
static gboolean  asks_again (GeglOperation *operation, const GeglRectangle *layer);
static gboolean  paint_look_here (GeglOperation *operation, const GeglRectangle *roi,
                                  gboolean stroke, const GeglRectangle *layer);

/* What a change of the input changes: everything, for whole-layer work. */
static GeglRectangle
changed_by (GeglOperation *operation, const gchar *pad, const GeglRectangle *roi)
{
  (void) pad;
  return whole_layer (operation) ? input_box (operation) : *roi;
}

/* The answer region_for got from the stroke clock, kept for the process() of the same
 * render (in the same thread, for the same operation and roi): the clock goes by the time,
 * and a render whose input was asked for roi alone must not then take itself for a whole
 * layer's. region_for is asked more than once in one graph's preparation (the cached region
 * is its own); within ASK_AGAIN_US it gives the same answer. process() comes after the
 * input is rendered, which can take seconds; an answer older than KEPT_US is no render's. */
#define ASK_AGAIN_US 20000
#define KEPT_US      5000000

typedef struct
{
  GeglOperation *operation;
  GeglRectangle  roi;
  gboolean       stroke;
  gint64         asked;
} StrokeAnswer;

static GPrivate stroke_answer_key = G_PRIVATE_INIT (g_free);

/* This thread's kept answer, made on first use. */
static StrokeAnswer *
thread_stroke_answer (void)
{
  StrokeAnswer *kept = g_private_get (&stroke_answer_key);
  if (kept == NULL)
    {
      kept = g_new0 (StrokeAnswer, 1);
      g_private_set (&stroke_answer_key, kept);
    }
  return kept;
}

static gboolean
answers (const StrokeAnswer *kept, GeglOperation *operation, const GeglRectangle *roi)
{
  return kept->operation == operation && gegl_rectangle_equal (&kept->roi, roi);
}

/* region_for's answer: the clock's, kept for the render's process(). */
static gboolean
region_stroke_answer (GeglOperation *operation, const GeglRectangle *roi,
                      const GeglRectangle *layer)
{
  const gint64  now = g_get_monotonic_time ();
  StrokeAnswer *kept = thread_stroke_answer ();
  if (answers (kept, operation, roi) && now - kept->asked < ASK_AGAIN_US)
    return kept->stroke;
  *kept = (StrokeAnswer) { operation, *roi, stroke_render (operation, layer), now };
  return kept->stroke;
}

/* process()'s answer: the one region_for kept for this render, taken once; else the
 * clock's. */
static gboolean
render_stroke_answer (GeglOperation *operation, const GeglRectangle *roi,
                      const GeglRectangle *layer)
{
  StrokeAnswer *kept = thread_stroke_answer ();
  if (! answers (kept, operation, roi) || g_get_monotonic_time () - kept->asked > KEPT_US)
    return stroke_render (operation, layer);
  kept->operation = NULL;
  return kept->stroke;
}

/* What the output at roi needs: the whole layer, but for a stroke's paint look
 * (render_paint_look) and the canvas's asks again for what it was shown (asks_again), roi
 * alone. */
static GeglRectangle
region_for (GeglOperation *operation, const gchar *pad, const GeglRectangle *roi)
{
  GeglRectangle layer;
  if (! whole_layer (operation))
    return *roi;
  const gboolean uncropped = layer_source (operation, &layer) != NULL;
  if (paint_look_here (operation, roi, region_stroke_answer (operation, roi, &layer), &layer))
    return *roi;
  /* The canvas's asks again for what it was shown write roi alone (cached_region) and read
   * no layer (shown_again): asked for the whole input, an effect below wrote all of its look
   * for every chunk (at 4096 x 4096, 0.1-0.45 s a chunk of 128 x 128). Should one read the
   * layer after all, it reads it from the node before GIMP's crop. */
  if (uncropped && asks_again (operation, &layer))
    return *roi;
  return changed_by (operation, pad, roi);
}

/* What GEGL computes, and keeps in the node's cache, for the output at roi: the whole layer
 * (region_for), but for the canvas's renders of a filter with looks (canvas_chunks) roi
 * alone: the canvas asks chunk by chunk, and each ask that wrote the whole layer held GIMP's
 * main thread (at 4096 x 4096, 0.1 s a write; the look is dropped from GEGL's caches after
 * each render anyway, later.h). */
static GeglRectangle
cached_region (GeglOperation *operation, const GeglRectangle *roi)
{
  return canvas_chunks (operation) ? *roi : region_for (operation, "input", roi);
}

/* The format of the pixels at the root of the input's chain: in GIMP the layer's, through
 * the effects below this one; in a GEGL graph the loaded image's. A merge stores the
 * result in it. */
static const Babl *
stored_format (GeglOperation *operation)
{
  GeglNode *node = operation->node, *producer;
  for (int hops = 0; hops < 256 && (producer = gegl_node_get_producer (node, "input", NULL));
       hops++)
    node = producer;
  GeglOperation *root = node == operation->node ? NULL : gegl_node_get_gegl_operation (node);
  return root ? gegl_operation_get_format (root, "output") : NULL;
}

/* The codec of the operation's pixels, its heights rounded to what the result is stored in
 * (terrain_pixel_codec_store_in); FALSE until prepare() has set a format the codec takes. */
static gboolean
operation_codec (GeglOperation *operation, TerrainPixelCodec *codec)
{
  const Babl *format = OPERATION (operation)->format;
  if (format == NULL || ! terrain_pixel_codec (format, codec))
    return FALSE;
  terrain_pixel_codec_store_in (codec, stored_format (operation));
  return TRUE;
}

static void
prepare (GeglOperation *operation)
{
  const Babl *source = gegl_operation_get_source_format (operation, "input");
  const Babl *format = terrain_pixel_codec_format (source ? source : babl_format ("Y' float"));
  OPERATION (operation)->format = format;
  gegl_operation_set_format (operation, "input", format);
  gegl_operation_set_format (operation, "output", format);
}

/* ---- The layer ----
 *
 * The procedures work on the whole layer; a selection only masks what is written: where GIMP
 * crops a filter's input to a selection, the operation looks past the crop to the whole
 * layer (terrain_gimp_uncropped_layer). Anywhere else the layer is the input itself. */

/* The node that gives the whole layer, and the layer's rectangle in our coordinates. */
static GeglNode *
layer_source (GeglOperation *operation, GeglRectangle *layer)
{
  GeglNode *uncropped = terrain_gimp_uncropped_layer (operation->node, layer);
  if (uncropped == NULL)
    *layer = input_box (operation);
  return uncropped;
}

/* Pixels made heights on GEGL's threads. */
typedef struct
{
  const TerrainPixelCodec *codec;
  const guchar            *pixels;
  float                   *heights;
  gsize                    pixel_bytes;
  gint                     non_finite; /* whether one was not a finite number */
} HeightsDecoding;

static void
decode_heights (gsize offset, gsize count, gpointer data)
{
  HeightsDecoding *d = data;
  size_t           first;
  terrain_pixels_to_heights (d->codec, d->pixels + offset * d->pixel_bytes, d->heights + offset,
                             count);
  if (terrain_count_non_finite (d->heights + offset, count, &first) > 0)
    g_atomic_int_set (&d->non_finite, TRUE);
}

/* The pixels' heights; FALSE when one is not a finite number: that is no heightmap. Made on
 * GEGL's threads: each pixel's height is its own, and an effect above another is given its
 * input in linear float, whose heights (a curve for each pixel) were the longest part of
 * its render on GIMP's main thread (tests/bench/README.md, "The effect above's heights on
 * GEGL's threads"). */
static gboolean
pixels_to_heights (GeglOperation *operation, const TerrainPixelCodec *codec,
                   const guchar *pixels, float *heights, gsize n)
{
  HeightsDecoding d = { codec, pixels, heights,
                        babl_format_get_bytes_per_pixel (codec->format), FALSE };
  /* A thread costs about what a few thousand pixels do. */
  gegl_parallel_distribute_range (n, 4096.0, decode_heights, &d);
  if (! g_atomic_int_get (&d.non_finite))
    return TRUE;
  g_warning ("%s: the layer holds heights that are not finite numbers; nothing was changed",
             gegl_operation_get_name (operation));
  return FALSE;
}

/* ---- Rendering ---- */

static int
report (void *user, double fraction)
{
  gegl_operation_progress (user, fraction, "");
  return 0;
}

/* What a whole-layer render is a function of: the operation, its settings, the format and
 * size of the layer (result-cache.h); read_layer adds the layer's pixels. */
static void
hash_settings (TerrainResultHasher *hasher, GeglOperation *operation,
               const TerrainPixelCodec *codec, const GeglRectangle *layer)
{
  const TerrainOperationClass *klass = OPERATION_CLASS (operation);
  const TerrainArgValue       *values = OPERATION (operation)->values;
  const char                  *name = gegl_operation_get_name (operation);
  const int                    size[2] = { layer->width, layer->height };
  terrain_result_hasher_init (hasher);
  terrain_result_hasher_add (hasher, name, strlen (name));
  for (int i = 0; i < klass->arg_count; i++)
    if (klass->info->args[i].type == TERRAIN_ARG_STRING)
      terrain_result_hasher_add (hasher, values[i].text, strlen (values[i].text));
    else
      terrain_result_hasher_add (hasher, &values[i].number, sizeof values[i].number);
  const Babl *stored = codec->storage ? codec->storage->format : NULL;
  terrain_result_hasher_add (hasher, &codec->format, sizeof codec->format);
  terrain_result_hasher_add (hasher, &stored, sizeof stored);
  terrain_result_hasher_add (hasher, size, sizeof size);
}

static TerrainResultKey
result_key (GeglOperation *operation, const TerrainPixelCodec *codec, const GeglRectangle *layer)
{
  TerrainResultHasher hasher;
  hash_settings (&hasher, operation, codec, layer);
  return terrain_result_hasher_key (&hasher);
}

/* Rows of the layer read at a time: a strip that stays in the processor's cache, to be
 * hashed there (at 4096 x 4096 a 16-bit layer is 32 MiB: read whole, then hashed, it went
 * through memory twice). A layer's key is its settings' and each strip's own key in turn,
 * so that strips can be hashed on any thread. */
#define STRIP_BYTES (256 << 10)

/* How a layer is read, strip by strip. */
typedef struct
{
  GeglBuffer              *input;
  GeglNode                *source; /* read from, when not NULL, instead of the input */
  const GeglRectangle     *layer;
  const TerrainPixelCodec *codec;
  gsize                    row_bytes;
  int                      rows;    /* a strip's */
  guchar                  *whole;   /* read into, all of the layer, or NULL */
  TerrainResultKey        *strip_keys; /* each strip's, or NULL */
  gboolean                 no_room;
} LayerReading;

/* Strip `i` into `into`, and its key. */
static void
read_strip (LayerReading *r, gsize i, guchar *into)
{
  const int           y = (int) i * r->rows;
  const GeglRectangle part = { r->layer->x, r->layer->y + y, r->layer->width,
                               MIN (r->rows, r->layer->height - y) };
  if (r->source)
    gegl_node_blit (r->source, 1.0, &part, r->codec->format, into, GEGL_AUTO_ROWSTRIDE,
                    GEGL_BLIT_DEFAULT);
  else
    gegl_buffer_get (r->input, &part, 1.0, r->codec->format, into, GEGL_AUTO_ROWSTRIDE,
                     GEGL_ABYSS_NONE);
  if (r->strip_keys)
    {
      TerrainResultHasher hasher;
      terrain_result_hasher_init (&hasher);
      terrain_result_hasher_add (&hasher, into, part.height * r->row_bytes);
      r->strip_keys[i] = terrain_result_hasher_key (&hasher);
    }
}

/* Strips offset to offset + count into their place in the whole layer, else through a strip
 * of this thread's own. */
static void
read_strips (gsize offset, gsize count, gpointer data)
{
  LayerReading *r = data;
  guchar       *strip = r->whole ? NULL : g_try_malloc (r->rows * r->row_bytes);
  if (r->whole == NULL && strip == NULL)
    r->no_room = TRUE;
  for (gsize i = offset; (r->whole || strip) && i < offset + count; i++)
    read_strip (r, i, r->whole ? r->whole + i * r->rows * r->row_bytes : strip);
  g_free (strip);
}

/* Reads the layer in the codec's format, strip by strip, from the input when it holds the
 * whole layer (on GEGL's threads), else from `source`, the node before GIMP's crop (on this
 * one: GEGL's graph is rendered again for each): with `key`, its key under the operation's
 * settings (result_key; the same layer always gives the same strips); with `pixels`, all of
 * it into a new block of terrain_pages_alloc (huge pages), else through a strip alone, so
 * that a result found kept reads the layer into no new memory. FALSE when there is no
 * room. */
static gboolean
read_layer (GeglOperation *operation, GeglBuffer *input, GeglNode *source,
            const GeglRectangle *layer, const TerrainPixelCodec *codec, TerrainResultKey *key,
            guchar **pixels)
{
  const gsize  row_bytes = (gsize) layer->width * babl_format_get_bytes_per_pixel (codec->format);
  const int    rows = (int) MIN (MAX (STRIP_BYTES / MAX (row_bytes, 1), 1),
                                 (gsize) MAX (layer->height, 1));
  const gsize  strips = (gsize) (layer->height + rows - 1) / rows;
  guchar      *whole = pixels ? terrain_pages_alloc ((gsize) layer->height * row_bytes) : NULL;
  LayerReading r = { input, source, layer, codec, row_bytes, rows, whole,
                     key ? g_try_new (TerrainResultKey, strips) : NULL, FALSE };
  if ((key && r.strip_keys == NULL && strips > 0) || (pixels && whole == NULL))
    r.no_room = TRUE;
  else if (source)
    read_strips (0, strips, &r);
  else
    gegl_parallel_distribute_range (strips, 0.5, read_strips, &r);
  if (key && ! r.no_room)
    {
      TerrainResultHasher hasher;
      hash_settings (&hasher, operation, codec, layer);
      terrain_result_hasher_add (&hasher, r.strip_keys, strips * sizeof *r.strip_keys);
      *key = terrain_result_hasher_key (&hasher);
    }
  g_free (r.strip_keys);
  if (r.no_room)
    terrain_pages_free (g_steal_pointer (&whole));
  if (pixels)
    *pixels = whole;
  return ! r.no_room;
}

/* The render log (render-log.h). */
static void G_GNUC_PRINTF (2, 3)
log_render (GeglOperation *operation, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  terrain_render_log (gegl_operation_get_name (operation), format, args);
  va_end (args);
}

/* The layer's heights from its pixels (none: a generator's start), in a new block (freed
 * with terrain_pages_free) at *heights. */
static TerrainStatus
layer_heights (GeglOperation *operation, const TerrainPixelCodec *codec, const guchar *pixels,
               gsize n, float **heights)
{
  *heights = terrain_pages_alloc (n * sizeof (float));
  if (*heights == NULL)
    return TERRAIN_ERROR_NO_MEMORY;
  if (pixels && ! pixels_to_heights (operation, codec, pixels, *heights, n))
    return TERRAIN_ERROR_INVALID;
  return TERRAIN_OK;
}

/* The layer's heights reduced at `factor` (terrain_reduce_mean, the same bits), in a new
 * block (g_free) at *reduced: `factor` rows at a time are made heights and reduced, so a
 * reduced look costs GIMP's main thread no heights of the whole layer, written and read
 * again (16 MB at 2048 x 2048, River Erosion's look there: 2-4 ms of 37-41). */
static TerrainStatus
layer_reduced (GeglOperation *operation, const TerrainPixelCodec *codec, const guchar *pixels,
               int width, int height, int factor, float **reduced)
{
  const gsize row_bytes = (gsize) width * babl_format_get_bytes_per_pixel (codec->format);
  const gsize reduced_width = (gsize) terrain_reduced_side (width, factor);
  float      *band = g_try_malloc ((gsize) width * factor * sizeof (float));
  *reduced = g_try_malloc (reduced_width * terrain_reduced_side (height, factor) * sizeof (float));
  if (band == NULL || *reduced == NULL)
    {
      g_free (band);
      return TERRAIN_ERROR_NO_MEMORY;
    }
  TerrainStatus status = TERRAIN_OK;
  for (int y = 0; y < height && status == TERRAIN_OK; y += factor)
    {
      const int rows = MIN (factor, height - y);
      if (pixels_to_heights (operation, codec, pixels + (gsize) y * row_bytes, band,
                             (gsize) width * rows))
        terrain_reduce_mean (band, width, rows, factor, *reduced + y / factor * reduced_width);
      else
        status = TERRAIN_ERROR_INVALID;
    }
  g_free (band);
  return status;
}

/* The key of the settings for the layer (result_key without pixels), in regions asked for
 * before the render; FALSE until prepare() has set the format. */
static gboolean
layer_settings (GeglOperation *operation, const GeglRectangle *layer, TerrainResultKey *settings)
{
  TerrainPixelCodec codec;
  if (! operation_codec (operation, &codec))
    return FALSE;
  *settings = result_key (operation, &codec, layer);
  return TRUE;
}

/* Whether the render under way is one of a stroke's (stroke.h), on a layer of `layer`'s
 * size. */
static gboolean
stroke_render (GeglOperation *operation, const GeglRectangle *layer)
{
  return terrain_stroke_render (OPERATION (operation)->stroke,
                                terrain_later_paint_flushed (operation, layer));
}

/* Whether the render under way, a stroke's (stroke.h), has a paint look, its base is there
 * and roi lies in the layer (layer_source's rectangle): then the output there depends on the
 * input there alone. */
static gboolean
paint_look_here (GeglOperation *operation, const GeglRectangle *roi, gboolean stroke,
                 const GeglRectangle *layer)
{
  TerrainOperation           *self = OPERATION (operation);
  const TerrainProcedureInfo *info = OPERATION_CLASS (operation)->info;
  TerrainResultKey            settings;
  return stroke && layer_settings (operation, layer, &settings) &&
         gegl_rectangle_contains (layer, roi) &&
         terrain_look_factor (info, layer->width, layer->height) == 1 &&
         terrain_stroke_has_base (self->stroke, &settings, layer->width, layer->height, 1);
}

/* A stroke's paint look of the rectangle roi of the layer alone: the base's result there
 * plus what was painted since, in GIMP's render of the stroke's dirty rectangle (at 4096 x
 * 4096 the whole layer's took 0.4-0.5 s, most of it reading and writing the layer). Should
 * the base have gone meanwhile, the pixels as painted. */
static TerrainStatus
render_paint_look (GeglOperation *operation, GeglBuffer *input, const GeglRectangle *roi,
                   const GeglRectangle *layer, const TerrainPixelCodec *codec,
                   TerrainResult **result)
{
  const gsize    n = (gsize) roi->width * roi->height;
  guchar        *pixels = g_try_malloc (n * babl_format_get_bytes_per_pixel (codec->format));
  float         *heights = NULL;
  gboolean       based = FALSE;
  TerrainStatus  status = TERRAIN_ERROR_NO_MEMORY;
  if (pixels != NULL)
    {
      gegl_buffer_get (input, roi, 1.0, codec->format, pixels, GEGL_AUTO_ROWSTRIDE,
                       GEGL_ABYSS_NONE);
      status = layer_heights (operation, codec, pixels, n, &heights);
    }
  if (status == TERRAIN_OK)
    {
      const TerrainResultKey settings = result_key (operation, codec, layer);
      based = terrain_stroke_paint_look (OPERATION (operation)->stroke, &settings,
                                         layer->width, layer->height, roi->x - layer->x,
                                         roi->y - layer->y, heights, roi->width, roi->height);
      *result = terrain_result_new (g_steal_pointer (&heights), n);
      terrain_stroke_forget (operation);
    }
  terrain_pages_free (heights);
  g_free (pixels);
  terrain_stroke_rendered (OPERATION (operation)->stroke);
  log_render (operation, "%dx%d: %s at 1/1, for a stroke, in %dx%d at %d,%d%s", layer->width,
              layer->height, status == TERRAIN_OK ? "looked at" : "failed", roi->width,
              roi->height, roi->x, roi->y, based ? "" : ", without its base");
  return status;
}

/* The filter's look at `factor` (stroke.h) in heights, drawn from the stroke's base: above 1,
 * the layer reduced (`reduced`, layer_reduced) and filtered; at 1, the paint alone, heights
 * holding the layer; without a base of these settings (stale), the last base's result with
 * the paint, or with none (*unfiltered), the layer itself, heights holding it. */
static TerrainStatus
look_at (GeglOperation *operation, const TerrainResultKey *settings, gboolean stale,
         float *reduced, float *heights, int width, int height, int factor,
         gboolean *made_base_look, gboolean *unfiltered, const TerrainProgress *progress,
         char *why, size_t why_size)
{
  TerrainOperation *self = OPERATION (operation);
  if (stale)
    *unfiltered = ! terrain_stroke_stale_look (self->stroke, width, height, heights);
  else if (factor > 1)
    return terrain_stroke_look (self->stroke, settings, OPERATION_CLASS (operation)->info,
                                self->values, reduced, heights, width, height, factor,
                                made_base_look, progress, why, why_size);
  else
    terrain_stroke_paint_look (self->stroke, settings, width, height, 0, 0, heights, width,
                               height);
  return TERRAIN_OK;
}

/* The drawable's buffer when a render of `key` shown on the canvas (`shown`) may show a look
 * while its result is made in a thread (later.h): a filter with looks (factor above 0) whose
 * result will be kept; NULL otherwise. */
static GeglBuffer *
layer_for_later (GeglOperation *operation, const TerrainResultKey *key, int factor,
                 gsize cells, gboolean shown)
{
  if (factor == 0 || ! shown || ! terrain_result_keepable (cells) ||
      ! terrain_later_allowed (key))
    return NULL;
  return terrain_later_layer (operation);
}

/* ---- What the canvas was shown, and the last look: copies, under the lock ---- */

/* A copy of what the canvas was shown, its look referenced. */
static Shown
shown_get (TerrainOperation *self)
{
  g_mutex_lock (&self->lock);
  Shown shown = self->shown;
  if (shown.look)
    terrain_result_ref (shown.look);
  g_mutex_unlock (&self->lock);
  return shown;
}

/* What the canvas is shown now: *shown, whose reference is taken. */
static void
shown_put (TerrainOperation *self, const Shown *shown)
{
  g_mutex_lock (&self->lock);
  TerrainResult *old = self->shown.look;
  self->shown = *shown;
  g_mutex_unlock (&self->lock);
  terrain_result_unref (old);
}

static Look
look_get (TerrainOperation *self)
{
  g_mutex_lock (&self->lock);
  Look look = self->look;
  if (look.result)
    terrain_result_ref (look.result);
  g_mutex_unlock (&self->lock);
  return look;
}

static void
look_put (TerrainOperation *self, const Look *look)
{
  g_mutex_lock (&self->lock);
  TerrainResult *old = self->look.result;
  self->look = *look;
  g_mutex_unlock (&self->lock);
  terrain_result_unref (old);
}

/* Whether the render under way is the canvas's, of a filter with looks whose result can be
 * kept: GEGL computes only the chunk the canvas asks for (cached_region), and the operation
 * serves its later asks what it showed (shown_again). */
static gboolean
canvas_chunks (GeglOperation *operation)
{
  GeglRectangle layer;
  layer_source (operation, &layer);
  return whole_layer (operation) && terrain_gimp_display_render () &&
         terrain_look_factor (OPERATION_CLASS (operation)->info, layer.width, layer.height) > 0 &&
         terrain_result_keepable ((gsize) layer.width * layer.height);
}

/* Whether what the canvas was shown (a look or a result) was of the layer as it is: the node
 * not invalidated since, its settings the same. */
static gboolean
shown_current (const Shown *shown, const TerrainResultKey *settings, gint invalidations)
{
  return (shown->look != NULL || shown->result) && shown->invalidations == invalidations &&
         memcmp (&shown->settings, settings, sizeof *settings) == 0;
}

/* When the canvas asks again, chunk by chunk, and the node was not invalidated since the
 * layer of what it was shown was read (its input and settings are as they were), what it
 * was shown is served again without reading and hashing the layer (at 4096 x 4096 that took
 * 0.1-0.3 s of GIMP's main thread a chunk, every 0.4 s, while a result's thread waited for
 * the processor): the result, while it is kept (*served), also the result of the look shown;
 * the look, while its result is made in a thread, with the drawable's buffer
 * (layer_for_later) in *later. FALSE otherwise. */
static gboolean
shown_again (GeglOperation *operation, const Shown *shown, const TerrainResultKey *settings,
             gint invalidations, int factor, gsize cells, TerrainResult **served,
             GeglBuffer **later)
{
  if (! shown_current (shown, settings, invalidations))
    return FALSE;
  /* The count leaves out the invalidation that told GIMP of the look's result: read and
   * hashed again to find it, the layer of an effect above another took 0.7-1.2 s of GIMP's
   * main thread at 4096 x 4096. */
  if ((*served = terrain_result_lookup (&shown->key, cells)) != NULL)
    return TRUE;
  return shown->look != NULL && terrain_later_under_way (&shown->key) &&
         (*later = layer_for_later (operation, &shown->key, factor, cells,
                                    terrain_gimp_display_render ())) != NULL;
}

/* Whether the render under way is the canvas's asking again for what it was shown, as far as
 * region_for can know before it (shown_current): then it reads no layer. The same answer in
 * the render's process(): nothing between them changes the node's count or what it showed. */
static gboolean
asks_again (GeglOperation *operation, const GeglRectangle *layer)
{
  TerrainOperation *self = OPERATION (operation);
  TerrainResultKey  settings;
  if (! canvas_chunks (operation) || ! layer_settings (operation, layer, &settings))
    return FALSE;
  Shown          shown = shown_get (self);
  const gboolean again =
    shown_current (&shown, &settings, g_atomic_int_get (&self->invalidations));
  terrain_result_unref (shown.look);
  return again;
}

/* ---- Results found by the layer's tiles (tile-witness.h) ---- */

typedef struct
{
  GeglBuffer          *input;
  const GeglRectangle *layer;
} LayerTiles;

static gboolean
tiles_witnessed (gconstpointer witness, gpointer data)
{
  const LayerTiles *tiles = data;
  return terrain_tile_witness_matches (witness, tiles->input, tiles->layer);
}

/* The kept result of these settings whose witness holds the input's tiles under the layer,
 * and its key in *key; or NULL. The input has them where it holds the whole layer, within
 * its extent and abyss (without a selection, GIMP's crop hands on the layer's own buffer):
 * its bytes there are the layer's, however read_layer reads it. */
static TerrainResult *
witnessed_result (GeglBuffer *input, const GeglRectangle *layer,
                  const TerrainResultKey *settings, gsize n, TerrainResultKey *key)
{
  LayerTiles tiles = { input, layer };
  return terrain_result_lookup_witnessed (settings, n, tiles_witnessed, &tiles, key);
}

/* A witness of the input's tiles under the layer kept with the result, found again under
 * `settings`: for a merge's render alone (neither the canvas's nor a stroke's), which takes a
 * clone of tiles that no stroke is painting (the canvas's renders may come while one is). */
static void
witness_layer (GeglBuffer *input, const GeglRectangle *layer, const TerrainResultKey *settings,
               TerrainResult *result)
{
  if (! terrain_result_wants_witness (result))
    return;
  TerrainTileWitness *witness = terrain_tile_witness_new (input, layer);
  if (witness)
    terrain_result_keep_witness (result, settings, witness, terrain_tile_witness_bytes (witness),
                                 terrain_tile_witness_free);
}

/* ---- One render of the whole layer ----
 *
 * The procedure's heights for the whole layer: kept from an earlier render of the same
 * pixels and settings, else rendered and kept; for a stroke's render, the filter's look
 * (stroke.h: not kept); for the canvas's, when it can be, the look while the result is made
 * in a thread (later.h), and what it was shown again for its later asks (shown_again). A
 * full result of a filter with looks is the base of the next stroke's. What the render is
 * for is decided once (find_kept, then plan_look), then done step by step. */
typedef struct
{
  GeglOperation           *operation;
  GeglBuffer              *input;
  GeglNode                *source;
  const GeglRectangle     *layer;
  const TerrainPixelCodec *codec;
  gsize                    n;
  gint                     invalidations; /* the node's, when the render began */
  int                      factor;        /* the look's reduction (terrain_look_factor) */
  TerrainResultKey         settings;      /* of the layer's size and settings */
  TerrainResultKey         key;           /* of the pixels and settings, or what was shown */
  Shown                    shown;
  Look                     last_look;
  guint                    base_id;
  TerrainResult           *witnessed; /* kept, found by the layer's tiles */
  GeglBuffer              *later;     /* the layer whose result is made in a thread */
  gboolean stroke;       /* a stroke's render (stroke_render) */
  gboolean display;      /* a render for the display (terrain_gimp_display_render) */
  gboolean canvas;       /* the canvas's render, chunk by chunk (canvas_chunks) */
  gboolean unread;       /* the canvas asks again for what it was shown: layer not read */
  gboolean reads;        /* the procedure reads the layer */
  gboolean based;        /* the stroke has a base for its looks */
  gboolean reused;       /* the result is a kept one */
  gboolean again;        /* the look shown, again, while its result is under way */
  gboolean look;         /* a look, not the result */
  gboolean reduced_look; /* a look drawn on the layer reduced, from the base */
  gboolean look_again;   /* the stroke's last look, again */
  gboolean rebase;       /* the render keeps a base for the strokes to come */
  gboolean made_base_look, unfiltered;
  guchar  *pixels; /* the layer's, where read whole */
  float   *heights, *reduced;
} LayerRender;

/* Reads what the render needs to know whether its result is kept or under way, and finds
 * it: sets unread, reads, witnessed, key, based, reused and later. */
static TerrainStatus
find_kept (LayerRender *r, TerrainResult **result)
{
  GeglOperation    *operation = r->operation;
  TerrainOperation *self = OPERATION (operation);
  r->unread = r->canvas && shown_again (operation, &r->shown, &r->settings, r->invalidations,
                                        r->factor, r->n, result, &r->later);
  r->reads = ! r->unread && terrain_reads_layer (OPERATION_CLASS (operation)->info, self->values);
  r->key = r->unread ? r->shown.key : r->settings;
  /* A kept result whose layer's tiles are the input's needs the layer neither read nor
   * hashed (at 1024 x 1024, 16 bits, that took 0.4 ms of a 1.9 ms merge served again).
   * Where the layer is read from another node, the input may hold tiles of an older layer
   * beside the chunk asked for (layer_reader). */
  r->witnessed = r->reads && r->source == NULL
                   ? witnessed_result (r->input, r->layer, &r->settings, r->n, &r->key)
                   : NULL;
  /* The canvas's renders read the layer whole at once (after a stroke, its result is seldom
   * kept); the others only hash it, and read it whole where they make heights of it. */
  if (r->reads && ! r->witnessed &&
      ! read_layer (operation, r->input, r->source, r->layer, r->codec, &r->key,
                    r->canvas ? &r->pixels : NULL))
    return TERRAIN_ERROR_NO_MEMORY;
  r->based = r->factor > 0 && terrain_stroke_has_base (self->stroke, &r->settings,
                                                       r->layer->width, r->layer->height,
                                                       r->factor);
  r->reused = r->unread      ? r->later == NULL
              : r->witnessed ? (*result = r->witnessed) != NULL
                             : (*result = terrain_result_lookup (&r->key, r->n)) != NULL;
  /* A stroke's render without a base shows a look too, not the result made on GIMP's main
   * thread: an effect below another in a stack, whose output the canvas took from GEGL's
   * cache, has no base on the first stroke (tests/bench/README.md, "Stacks"). */
  if (! r->unread && ! r->reused)
    r->later = layer_for_later (operation, &r->key, r->factor, r->n,
                                r->display || (r->stroke && ! r->based));
  if (! r->reused && r->later == NULL && terrain_later_wait (&r->key))
    r->reused = (*result = terrain_result_lookup (&r->key, r->n)) != NULL; /* not twice */
  return TERRAIN_OK;
}

/* Whether the render shows a look, which one, and whether it keeps a base. */
static void
plan_look (LayerRender *r)
{
  TerrainOperation *self = OPERATION (r->operation);
  /* The canvas asks again, chunk by chunk, for the look it was shown (its layer read again
   * after an invalidation, and the same, or not read: shown_again): the same look, while its
   * result is under way. Once it is not (cancelled, or given up), the look is made again and
   * its result started again: a look is never shown for good. */
  r->again = r->later && r->shown.look && memcmp (&r->shown.key, &r->key, sizeof r->key) == 0 &&
             terrain_later_under_way (&r->key);
  r->look = ! r->reused && (r->later || (r->factor > 1 && r->based && r->stroke));
  /* A reduced look drawn from the base is the stroke's last one again when the layer, the
   * settings and the base are the same (the canvas's render after mouse up). */
  r->base_id = terrain_stroke_base_id (self->stroke);
  r->reduced_look = r->look && r->factor > 1 && r->based;
  r->look_again = r->reduced_look && ! r->again && r->last_look.result != NULL &&
                  r->base_id != 0 && r->last_look.base == r->base_id &&
                  memcmp (&r->last_look.key, &r->key, sizeof r->key) == 0;
  /* A base serves the looks of the strokes to come on the canvas: the canvas's renders and
   * the strokes' keep one; a merge's, an export's or a script's keep none (under River
   * Erosion at 1024 x 1024 that cost a reduced copy of the result and, 0.2 s later, the
   * filter at 512 x 512 in a thread, taking a processor from whatever GIMP did next). */
  r->rebase = r->factor > 0 && ! r->look && ! r->unread &&
              (r->stroke || r->display) &&
              ! terrain_stroke_is_base (self->stroke, &r->settings, &r->key, r->layer->width,
                                        r->layer->height, r->factor);
}

/* The layer's pixels, reduced and heights as the plan needs them; starts the result's
 * thread and keeps the base. */
static TerrainStatus
prepare_heights (LayerRender *r)
{
  GeglOperation    *operation = r->operation;
  TerrainOperation *self = OPERATION (operation);
  const int         width = r->layer->width, height = r->layer->height;
  const gboolean    new_look = ! r->again && ! r->look_again;
  TerrainStatus     status = TERRAIN_OK;
  /* The layer's pixels, where they are made heights: a kept result served again needs none. */
  if (r->reads && r->pixels == NULL && ((! r->reused && ! r->again) || (r->reused && r->rebase)) &&
      ! read_layer (operation, r->input, r->source, r->layer, r->codec, NULL, &r->pixels))
    status = TERRAIN_ERROR_NO_MEMORY;
  /* A reduced look needs the layer reduced alone (heights only to write the look into); a
   * look shown again needs neither. */
  if (status == TERRAIN_OK && r->reduced_look && new_look)
    status = layer_reduced (operation, r->codec, r->pixels, width, height, r->factor,
                            &r->reduced);
  if (status == TERRAIN_OK && ! r->reused && new_look)
    status = layer_heights (operation, r->codec, r->reduced_look ? NULL : r->pixels, r->n,
                            &r->heights);
  if (status == TERRAIN_OK && r->later && ! r->again)
    terrain_later_start (&r->key, &r->settings, OPERATION_CLASS (operation)->info,
                         self->values, &r->pixels, r->codec, width, height, r->factor,
                         self->stroke, r->later, operation->node,
                         gegl_operation_get_name (operation));
  if (status == TERRAIN_OK && r->rebase && r->reused)
    status = layer_heights (operation, r->codec, r->pixels, r->n, &r->heights);
  if (status == TERRAIN_OK && r->rebase)
    terrain_stroke_keep (self->stroke, &r->settings, &r->key, OPERATION_CLASS (operation)->info,
                         self->values, r->heights, width, height, r->factor);
  return status;
}

/* The result the plan asked for, in *result (unless it is a kept one already). */
static TerrainStatus
make_result (LayerRender *r, TerrainResult **result, char *why, size_t why_size)
{
  GeglOperation        *operation = r->operation;
  TerrainOperation     *self = OPERATION (operation);
  const TerrainProgress progress = { report, operation };
  const int             width = r->layer->width, height = r->layer->height;
  TerrainStatus         status = TERRAIN_OK;
  if (r->again)
    *result = terrain_result_ref (r->shown.look);
  else if (r->look_again)
    *result = terrain_result_ref (r->last_look.result);
  else if (! r->reused)
    {
      status = r->look ? look_at (operation, &r->settings, r->later && ! r->based, r->reduced,
                                  r->heights, width, height, r->factor, &r->made_base_look,
                                  &r->unfiltered, &progress, why, why_size)
                       : terrain_procedure_render (OPERATION_CLASS (operation)->info,
                                                   self->values, r->heights, width, height,
                                                   &progress, why, why_size);
      if (status == TERRAIN_OK)
        *result = terrain_result_new (g_steal_pointer (&r->heights), r->n);
      if (status == TERRAIN_OK && ! r->look)
        terrain_result_keep (&r->key, *result);
    }
  if (status == TERRAIN_OK && r->reads && ! r->look && ! r->witnessed && ! r->stroke &&
      ! r->display)
    witness_layer (r->input, r->layer, &r->settings, *result);
  if (status == TERRAIN_OK && r->look)
    terrain_stroke_forget (operation);
  if (status == TERRAIN_OK && r->reduced_look && ! r->again && ! r->look_again)
    look_put (self, &(Look) { terrain_result_ref (*result), r->key, r->base_id });
  return status;
}

/* What the canvas was shown, for its later asks (shown_again); takes r->shown. */
static void
remember_shown (LayerRender *r, TerrainStatus status, TerrainResult *result)
{
  Shown *shown = &r->shown;
  if (status == TERRAIN_OK && r->canvas && ! r->again)
    {
      terrain_result_unref (shown->look);
      shown->look = r->look ? terrain_result_ref (result) : NULL;
      shown->result = ! r->look;
      shown->key = r->key;
    }
  if (status == TERRAIN_OK && r->canvas)
    {
      /* Read at this count, the layer was that of what was shown (again: the same). */
      shown->settings = r->settings;
      shown->invalidations = r->invalidations;
    }
  else
    {
      g_clear_pointer (&shown->look, terrain_result_unref);
      shown->result = FALSE;
    }
  shown_put (OPERATION (r->operation), shown);
}

static void
log_layer_render (const LayerRender *r, TerrainStatus status)
{
  const int width = r->layer->width, height = r->layer->height;
  if (r->look)
    log_render (r->operation, "%dx%d: %s at 1/%d, %s%s%s", width, height,
                status == TERRAIN_OK ? "looked at" : "failed", r->factor,
                ! r->later      ? "for a stroke"
                : r->unfiltered ? "unfiltered, while its result is made in a thread"
                : ! r->based    ? "stale, while its result is made in a thread"
                                : "while its result is made in a thread",
                r->made_base_look ? ", and the base's look"
                : r->look_again   ? ", the last look again"
                                  : "",
                r->unread ? ", again, the layer not read" : r->again ? ", again" : "");
  else
    log_render (r->operation, "%dx%d: %s%s", width, height,
                r->reused ? "reused" : status == TERRAIN_OK ? "computed" : "failed",
                r->unread      ? ", again, the layer not read"
                : r->witnessed ? ", its layer's tiles the same, not read"
                               : "");
}

/* The layer's pixels, where they were read whole and not handed to a thread, go to
 * *layer_pixels (a block of terrain_pages_alloc, or NULL), for writing the result
 * (terrain_write_result). */
static TerrainStatus
render_layer (GeglOperation *operation, GeglBuffer *input, GeglNode *source,
              const GeglRectangle *layer, gboolean stroke, const TerrainPixelCodec *codec,
              TerrainResult **result, guchar **layer_pixels, char *why, size_t why_size)
{
  TerrainOperation *self = OPERATION (operation);
  LayerRender       r = {
    .operation = operation,
    .stroke = stroke,
    .display = terrain_gimp_display_render (),
    .input = input,
    .source = source,
    .layer = layer,
    .codec = codec,
    .n = (gsize) layer->width * layer->height,
    .invalidations = g_atomic_int_get (&self->invalidations),
    .settings = result_key (operation, codec, layer),
    .factor = terrain_look_factor (OPERATION_CLASS (operation)->info, layer->width,
                                   layer->height),
    .canvas = canvas_chunks (operation),
    .shown = shown_get (self),
    .last_look = look_get (self),
  };
  TerrainStatus status = find_kept (&r, result);
  if (status != TERRAIN_OK)
    {
      terrain_result_unref (r.shown.look);
      terrain_result_unref (r.last_look.result);
      return status;
    }
  plan_look (&r);
  status = prepare_heights (&r);
  if (status == TERRAIN_OK)
    status = make_result (&r, result, why, why_size);
  terrain_result_unref (r.last_look.result);
  if (r.look && (r.later == NULL || r.stroke))
    terrain_stroke_rendered (self->stroke);
  remember_shown (&r, status, *result);
  terrain_pages_free (r.heights);
  g_free (r.reduced);
  log_layer_render (&r, status);
  g_clear_object (&r.later);
  *layer_pixels = g_steal_pointer (&r.pixels);
  return status;
}

/* The node to read the layer from (read_layer), the node before GIMP's crop, or none where
 * the input holds the whole layer: asked for all of it (region_for), not cropped to a
 * selection. The input is read on GEGL's threads, where each read from another node renders
 * GEGL's graph again on this one (at 4096 x 4096 an effect above another read the layer
 * from it in 0.7-1.1 s). */
static GeglNode *
layer_reader (GeglOperation *operation, GeglNode *source, const GeglRectangle *layer)
{
  const GeglRectangle box = input_box (operation);
  return source && (asks_again (operation, layer) || ! gegl_rectangle_equal (&box, layer))
           ? source : NULL;
}

/* The procedure's heights: for the rectangle roi when it renders rectangles or a stroke's
 * paint look is asked for, else for the whole layer; *area says which (in our
 * coordinates), and *layer_pixels holds the layer's pixels where they were read whole
 * (render_layer). */
static TerrainStatus
render (GeglOperation *operation, GeglBuffer *input, const GeglRectangle *roi,
        const TerrainPixelCodec *codec, TerrainResult **result, GeglRectangle *area,
        guchar **layer_pixels, char *why, size_t why_size)
{
  const TerrainProcedureInfo *info = OPERATION_CLASS (operation)->info;
  const TerrainArgValue      *values = OPERATION (operation)->values;
  const TerrainProgress       progress = { report, operation };
  GeglNode                   *source = layer_source (operation, area);
  GeglRectangle               layer = *area;
  const gboolean              whole = whole_layer (operation);
  /* Whether the render is a stroke's, asked once (or as region_for asked): the answer goes
   * by the clock. */
  const gboolean              stroke = whole && render_stroke_answer (operation, roi, &layer);
  if (whole && paint_look_here (operation, roi, stroke, &layer))
    {
      *area = *roi;
      return render_paint_look (operation, input, roi, &layer, codec, result);
    }
  if (whole)
    return render_layer (operation, input, layer_reader (operation, source, area), area, stroke,
                         codec, result, layer_pixels, why, why_size);

  *area = *roi;
  const gsize n = (gsize) roi->width * roi->height;
  float      *heights = terrain_pages_alloc (n * sizeof (float));
  if (heights == NULL)
    return TERRAIN_ERROR_NO_MEMORY;
  *result = terrain_result_new (heights, n);
  return terrain_procedure_render_rect (info, values, heights, roi->x - layer.x, roi->y - layer.y,
                                        roi->width, roi->height, &progress, why, why_size);
}

/* The procedure's result where it succeeds; where it cannot (a bad setting, no memory, a
 * layer that is no heightmap), the input unchanged: an operation has no error to return,
 * and the plug-in checks all of these before it applies one. */
static gboolean
process (GeglOperation *operation, GeglBuffer *input, GeglBuffer *output,
         const GeglRectangle *roi, gint level)
{
  const TerrainProcedureInfo *info = OPERATION_CLASS (operation)->info;
  TerrainPixelCodec           codec;
  GeglRectangle               area;
  TerrainResult              *result = NULL;
  guchar                     *layer_pixels = NULL;
  char                        why[256] = "";
  terrain_later_watch ();
  terrain_gimp_on_exit (terrain_result_forget_all);
  GSource *source = g_main_current_source ();
  log_render (operation, "asked for %dx%d at %d,%d, level %d, in %s, from %s of priority %d",
              roi->width, roi->height, roi->x, roi->y, level, terrain_probe_thread_name (),
              source == NULL ? "no source" : source->source_funcs == &g_idle_funcs ? "an idle"
              : source->source_funcs == &g_timeout_funcs ? "a timeout"
              : g_source_get_name (source) ? g_source_get_name (source) : "a source",
              source ? g_source_get_priority (source) : 0);
  operation_codec (operation, &codec);

  TerrainStatus status = render (operation, input, roi, &codec, &result, &area, &layer_pixels,
                                 why, sizeof why);
  if (status == TERRAIN_OK)
    {
      const gboolean reads_layer = terrain_reads_layer (info, OPERATION (operation)->values);
      terrain_write_result (output, input, roi, result, &area, &codec, layer_pixels,
                            reads_layer || codec.has_alpha, reads_layer);
    }
  else
    {
      g_warning ("%s: %s", gegl_operation_get_name (operation),
                 why[0] ? why : terrain_status_message (status));
      gegl_buffer_copy (input, roi, GEGL_ABYSS_NONE, output, roi);
    }
  terrain_result_unref (result);
  terrain_pages_free (layer_pixels);
  return TRUE;
}

/* ---- The class ---- */

/* The menu label without its ellipsis, as GIMP titles a filter. */
static gchar *
title_of (const TerrainProcedureInfo *info)
{
  gchar *title = terrain_label (terrain_text (info->menu_label), g_malloc (256), 256);
  for (const char *tail = "..."; *tail && g_str_has_suffix (title, tail);)
    title[strlen (title) - strlen (tail)] = '\0';
  if (g_str_has_suffix (title, "\xe2\x80\xa6")) /* U+2026 in a translation */
    title[strlen (title) - 3] = '\0';
  return title;
}

static void
class_init (gpointer g_class, gpointer class_data)
{
  TerrainOperationClass    *klass = g_class;
  GObjectClass             *object_class = G_OBJECT_CLASS (g_class);
  GeglOperationClass       *operation_class = GEGL_OPERATION_CLASS (g_class);
  GeglOperationFilterClass *filter_class = GEGL_OPERATION_FILTER_CLASS (g_class);
  const TerrainProcedureInfo *info = class_data;

  klass->info = info;
  klass->arg_count = terrain_arg_count (info);
  object_class->set_property = set_property;
  object_class->get_property = get_property;
  object_class->finalize = finalize;
  operation_class->attach = attach;
  operation_class->prepare = prepare;
  operation_class->get_required_for_output = region_for;
  operation_class->get_invalidated_by_change = changed_by;
  operation_class->get_cached_region = cached_region;
  /* Whole-layer work runs once, on the core's own threads (module.c). */
  operation_class->threaded = FALSE;
  filter_class->process = process;

  for (int i = 0; i < klass->arg_count; i++)
    g_object_class_install_property (object_class, i + 1,
                                     terrain_op_param_spec (info, &info->args[i]));
  g_object_class_install_property (object_class, klass->arg_count + 1,
                                   terrain_op_build_param_spec ());

  gchar *name = g_strconcat ("terrain:", info->name + strlen ("plug-in-terrain-"), NULL);
  gchar *title = title_of (info);
  gegl_operation_class_set_keys (operation_class,
                                 "name", name,
                                 "title", title,
                                 "categories", info->kind == TERRAIN_GENERATOR ? "render:terrain"
                                                                               : "map:terrain",
                                 "description", terrain_text (info->blurb),
                                 NULL);
  g_free (title);
  g_free (name);
}

void
terrain_operation_register (GTypeModule *module, const TerrainProcedureInfo *info)
{
  gchar *type_name = terrain_op_type_name (info->name + strlen ("plug-in-terrain-"), NULL);
  GType  registered = g_type_from_name (type_name);
  if ((registered == 0 || g_type_get_plugin (registered) == G_TYPE_PLUGIN (module)) &&
      terrain_op_register_choices (module, info))
    {
      const GTypeInfo type_info = {
        sizeof (TerrainOperationClass), NULL, NULL, class_init, NULL, info,
        sizeof (TerrainOperation), 0, instance_init, NULL
      };
      g_type_module_register_type (module, GEGL_TYPE_OPERATION_FILTER, type_name, &type_info, 0);
    }
  g_free (type_name);
}
