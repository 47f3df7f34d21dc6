#include "stroke.h"

#include "reduced.h"
#include "heightmap.h"
#include "gimp-internals.h"
#include "render-source.h"

#include <string.h>

/* The thread in a forget's invalidation of its node (terrain_stroke_forgetting), or NULL. */
static gpointer forgetting;

static gboolean
forget (gpointer data)
{
  GeglOperation *operation = gegl_node_get_gegl_operation (data);
  if (operation != NULL)
    {
      g_atomic_pointer_set (&forgetting, g_thread_self ());
      gegl_operation_invalidate (operation, NULL, TRUE);
      g_atomic_pointer_set (&forgetting, NULL);
    }
  return G_SOURCE_REMOVE;
}

gboolean
terrain_stroke_forgetting (void)
{
  return g_atomic_pointer_get (&forgetting) == (gpointer) g_thread_self ();
}

void
terrain_stroke_forget (GeglOperation *operation)
{
  /* The node, not the operation: a node that goes away meanwhile leaves its operation
   * pointing at it; kept alive by this reference, it has no operation any more. */
  g_idle_add_full (G_PRIORITY_HIGH, forget, g_object_ref (operation->node), g_object_unref);
}

/* ---- The base of the looks ---- */

struct TerrainStroke
{
  gint             refs;     /* the operation's, a look made ahead's, a render made later's */
  gint64           painted;  /* the stroke's last render (monotonic us), 0 once one came from
                              * the canvas's idle (render-source.h) */
  GMutex           lock;     /* GEGL may render one operation on several threads */
  gboolean         kept;     /* a base is there */
  guint            base;     /* which: a look made ahead for an older one is dropped */
  TerrainResultKey settings; /* the base's */
  TerrainResultKey result;   /* its full result's, in the kept results */
  int              width, height, factor;
  float           *layer;    /* its layer, reduced */
  float           *look;     /* its reduced look (the reduced layer filtered), or NULL until
                             * made (a paint look's is its layer) */
};

TerrainStroke *
terrain_stroke_new (void)
{
  TerrainStroke *stroke = g_new0 (TerrainStroke, 1);
  stroke->refs = 1;
  g_mutex_init (&stroke->lock);
  return stroke;
}

void
terrain_stroke_free (TerrainStroke *stroke)
{
  if (! g_atomic_int_dec_and_test (&stroke->refs))
    return;
  g_mutex_clear (&stroke->lock);
  g_free (stroke->layer);
  g_free (stroke->look);
  g_free (stroke);
}

void
terrain_stroke_hold (TerrainStrokeHold *hold, TerrainStroke *stroke,
                     const TerrainProcedureInfo *info, const TerrainArgValue *values)
{
  const int count = terrain_arg_count (info);
  hold->info = info;
  hold->values = g_new0 (TerrainArgValue, count);
  for (int i = 0; i < count; i++)
    hold->values[i] = (TerrainArgValue) { values[i].number, g_strdup (values[i].text) };
  g_atomic_int_inc (&stroke->refs);
  hold->stroke = stroke;
}

void
terrain_stroke_release (TerrainStrokeHold *hold)
{
  for (int i = 0; i < terrain_arg_count (hold->info); i++)
    g_free ((gchar *) hold->values[i].text);
  g_free (hold->values);
  terrain_stroke_free (hold->stroke);
}

/* ---- The renders of a stroke ---- */

/* GIMP's paint tool, waiting at mouse up for its paint thread to finish, calls its timer's
 * function itself every 10 ms (app/tools/gimppainttool-paint.c: gimp_paint_tool_paint_end),
 * from the button release's event, not from the timer: such a render soon after the timer's
 * last one is still the stroke's (when the paint thread lagged, River Erosion's full result
 * was computed there, in GIMP's main thread). Only from GDK's events: a merge, an export or
 * a script, from a plug-in's call, is never given a look (render-source.h). */
gboolean
terrain_stroke_render (TerrainStroke *stroke, gboolean paint_flushed)
{
  TerrainRenderSource source = terrain_render_source ();
  /* The paint timer's function, called from the mouse up's event. */
  if (source == TERRAIN_SOURCE_EVENTS && paint_flushed)
    source = TERRAIN_SOURCE_PAINT_TIMER;
  if (source == TERRAIN_SOURCE_NONE || ! terrain_live ())
    return FALSE;
  g_mutex_lock (&stroke->lock);
  const gboolean stroke_render =
    terrain_stroke_clock (&stroke->painted, source, g_get_monotonic_time ());
  g_mutex_unlock (&stroke->lock);
  return stroke_render;
}

void
terrain_stroke_rendered (TerrainStroke *stroke)
{
  g_mutex_lock (&stroke->lock);
  terrain_stroke_clock_rendered (&stroke->painted, g_get_monotonic_time ());
  g_mutex_unlock (&stroke->lock);
}

static gsize
reduced_cells (int width, int height, int factor)
{
  return (gsize) terrain_reduced_side (width, factor) * terrain_reduced_side (height, factor);
}

/* Whether the base is of these settings (NULL: any), size and factor (0: any). Under the
 * lock. */
static gboolean
kept_base_is (const TerrainStroke *stroke, const TerrainResultKey *settings, int width,
              int height, int factor)
{
  return stroke->kept &&
         (settings == NULL || memcmp (&stroke->settings, settings, sizeof *settings) == 0) &&
         stroke->width == width && stroke->height == height &&
         (factor == 0 || stroke->factor == factor);
}

/* The base's full result when it is of these settings and still kept; NULL otherwise. Under
 * the lock. */
static TerrainResult *
kept_base (TerrainStroke *stroke, const TerrainResultKey *settings, int width, int height,
           int factor)
{
  if (! kept_base_is (stroke, settings, width, height, factor))
    return NULL;
  return terrain_result_lookup (&stroke->result, (gsize) width * height);
}

/* ---- The base's look, made ahead ----
 *
 * A stroke's first look also needs the base's (the layer before it, reduced and filtered):
 * River Erosion's first look of a stroke on a 1024 x 1024 layer took 0.15-0.18 s, the
 * others 75-100 ms. So once a full render has kept a new base, the base's look is made in a
 * thread of its own, AHEAD_DELAY_MS later if the base is still the last one then (not while
 * the artist drags a setting in GIMP's filter dialog, each value a new base whose look would
 * take processors from the next value's render) and GIMP's main loop is idle (G_PRIORITY_LOW:
 * GIMP has drawn the result). A stroke that comes before it is done makes it itself, as
 * before; the look made ahead is then dropped. */
#define AHEAD_DELAY_MS 200

typedef struct
{
  TerrainStrokeHold hold;
  guint             base;
  float            *look; /* the base's layer, reduced; filtered in the thread */
  int               width, height, factor;
} Ahead;

static void
ahead_free (Ahead *ahead)
{
  terrain_stroke_release (&ahead->hold);
  g_free (ahead->look);
  g_free (ahead);
}

static gpointer
make_ahead (gpointer data)
{
  Ahead *ahead = data;
  char   why[256];
  if (terrain_filter_look (ahead->hold.info, ahead->hold.values, ahead->look, ahead->width,
                           ahead->height, ahead->factor, NULL, why, sizeof why) == TERRAIN_OK)
    {
      TerrainStroke *stroke = ahead->hold.stroke;
      g_mutex_lock (&stroke->lock);
      if (stroke->kept && stroke->base == ahead->base && stroke->look == NULL)
        stroke->look = g_steal_pointer (&ahead->look);
      g_mutex_unlock (&stroke->lock);
    }
  ahead_free (ahead);
  return NULL;
}

static gboolean
start_ahead (gpointer data)
{
  Ahead *ahead = data;
  TerrainStroke *stroke = ahead->hold.stroke;
  g_mutex_lock (&stroke->lock);
  const gboolean current = stroke->base == ahead->base && stroke->look == NULL;
  g_mutex_unlock (&stroke->lock);
  GThread *thread = current ? g_thread_try_new ("terrain-look", make_ahead, ahead, NULL) : NULL;
  if (thread != NULL)
    g_thread_unref (thread);
  else
    ahead_free (ahead);
  return G_SOURCE_REMOVE;
}

/* Has the look of the base `base` (its reduced layer `layer`) made ahead. */
static void
look_ahead (TerrainStroke *stroke, guint base, const TerrainProcedureInfo *info,
            const TerrainArgValue *values, const float *layer, int width, int height,
            int factor)
{
  Ahead *ahead = g_new0 (Ahead, 1);
  terrain_stroke_hold (&ahead->hold, stroke, info, values);
  ahead->base = base;
  ahead->look = g_memdup2 (layer, reduced_cells (width, height, factor) * sizeof (float));
  ahead->width = width;
  ahead->height = height;
  ahead->factor = factor;
  g_timeout_add_full (G_PRIORITY_LOW, AHEAD_DELAY_MS, start_ahead, ahead, NULL);
}

void
terrain_stroke_keep (TerrainStroke *stroke, const TerrainResultKey *settings,
                     const TerrainResultKey *result, const TerrainProcedureInfo *info,
                     const TerrainArgValue *values, const float *heights, int width,
                     int height, int factor)
{
  float *layer = g_try_malloc (reduced_cells (width, height, factor) * sizeof (float));
  if (layer != NULL)
    terrain_reduce_mean (heights, width, height, factor, layer);
  g_mutex_lock (&stroke->lock);
  g_free (stroke->layer);
  g_clear_pointer (&stroke->look, g_free);
  stroke->layer = layer;
  stroke->kept = layer != NULL;
  stroke->base++;
  stroke->settings = *settings;
  stroke->result = *result;
  stroke->width = width;
  stroke->height = height;
  stroke->factor = factor;
  if (layer != NULL && factor > 1)
    look_ahead (stroke, stroke->base, info, values, layer, width, height, factor);
  g_mutex_unlock (&stroke->lock);
}

gboolean
terrain_stroke_is_base (TerrainStroke *stroke, const TerrainResultKey *settings,
                        const TerrainResultKey *result, int width, int height, int factor)
{
  g_mutex_lock (&stroke->lock);
  const gboolean is = kept_base_is (stroke, settings, width, height, factor) &&
                      memcmp (&stroke->result, result, sizeof *result) == 0;
  g_mutex_unlock (&stroke->lock);
  return is;
}

guint
terrain_stroke_base_id (TerrainStroke *stroke)
{
  g_mutex_lock (&stroke->lock);
  const guint id = stroke->kept ? stroke->base : 0;
  g_mutex_unlock (&stroke->lock);
  return id;
}

gboolean
terrain_stroke_has_base (TerrainStroke *stroke, const TerrainResultKey *settings, int width,
                         int height, int factor)
{
  g_mutex_lock (&stroke->lock);
  TerrainResult *base = kept_base (stroke, settings, width, height, factor);
  g_mutex_unlock (&stroke->lock);
  terrain_result_unref (base);
  return base != NULL;
}

/* The base's full result (kept_base), with the base's look made if it is not yet (*made
 * says so); NULL when there is none. Under the lock. */
static TerrainResult *
base_result (TerrainStroke *stroke, const TerrainResultKey *settings,
             const TerrainProcedureInfo *info, const TerrainArgValue *values, int width,
             int height, int factor, gboolean *made)
{
  const gsize    cells = reduced_cells (width, height, factor);
  TerrainResult *result = kept_base (stroke, settings, width, height, factor);
  *made = result != NULL && stroke->look == NULL;
  if (! *made)
    return result;
  char why[256];
  stroke->look = g_memdup2 (stroke->layer, cells * sizeof (float));
  if (terrain_filter_look (info, values, stroke->look, width, height, factor, NULL, why,
                              sizeof why) != TERRAIN_OK)
    {
      g_clear_pointer (&stroke->look, g_free);
      terrain_result_unref (result);
      return NULL;
    }
  return result;
}

TerrainStatus
terrain_stroke_look (TerrainStroke *stroke, const TerrainResultKey *settings,
                     const TerrainProcedureInfo *info, const TerrainArgValue *values,
                     float *look, float *heights, int width, int height, int factor,
                     gboolean *made_base_look, const TerrainProgress *progress, char *why,
                     size_t why_size)
{
  const TerrainStatus status = terrain_filter_look (info, values, look, width, height, factor,
                                                       progress, why, why_size);
  if (status == TERRAIN_OK)
    {
      g_mutex_lock (&stroke->lock);
      TerrainResult *base = base_result (stroke, settings, info, values, width, height, factor,
                                         made_base_look);
      terrain_stretch_look (look, base ? stroke->look : NULL,
                            base ? terrain_result_heights (base) : NULL, factor, heights, width,
                            height);
      g_mutex_unlock (&stroke->lock);
      terrain_result_unref (base);
    }
  return status;
}

gboolean
terrain_stroke_paint_look (TerrainStroke *stroke, const TerrainResultKey *settings, int width,
                           int height, int x, int y, float *heights, int columns, int rows)
{
  g_mutex_lock (&stroke->lock);
  TerrainResult *base = kept_base (stroke, settings, width, height, 1);
  if (base != NULL)
    terrain_paint_look (terrain_result_heights (base), stroke->layer,
                        (gsize) y * width + x, width, heights, columns, rows);
  g_mutex_unlock (&stroke->lock);
  terrain_result_unref (base);
  return base != NULL;
}

gboolean
terrain_stroke_stale_look (TerrainStroke *stroke, int width, int height, float *heights)
{
  g_mutex_lock (&stroke->lock);
  TerrainResult *base = kept_base (stroke, NULL, width, height, 0);
  float         *reduced = base ? g_try_malloc (reduced_cells (width, height, stroke->factor)
                                                * sizeof (float))
                                : NULL;
  const gboolean looked = reduced != NULL;
  if (looked)
    {
      terrain_reduce_mean (heights, width, height, stroke->factor, reduced);
      terrain_stretch_look (reduced, stroke->layer, terrain_result_heights (base),
                            stroke->factor, heights, width, height);
    }
  g_mutex_unlock (&stroke->lock);
  terrain_result_unref (base);
  g_free (reduced);
  return looked;
}
