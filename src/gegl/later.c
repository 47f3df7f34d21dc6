#include "later.h"

#include "gimp-internals.h"
#include "heightmap.h"
#include "huge-pages.h"
#include "pixel-codec.h"
#include "render-log.h"
#include "render-source.h"

#include <string.h>

/* ---- GIMP's drawables: seen in their "update" signal, told by it ---- */

/* How long quitting GIMP waits for the results under way to stop. */
#define QUIT_US (G_USEC_PER_SEC * 3 / 2)

static gint quitting; /* GIMP quits: no more results made later (quit) */

/* The drawables seen last, most recent first: weak references (GIMP may delete one). */
#define DRAWABLES_SEEN 8

static GWeakRef seen[DRAWABLES_SEEN];

static void quit (void);

static gboolean
seen_update (GSignalInvocationHint *hint, guint count, const GValue *params, gpointer data)
{
  GObject *drawable = count > 0 ? g_value_get_object (&params[0]) : NULL;
  (void) hint;
  (void) data;
  if (drawable == NULL)
    return TRUE;
  if (count >= 5)
    terrain_paint_flush_note (drawable, g_value_get_int (&params[3]),
                              g_value_get_int (&params[4]));
  int at = DRAWABLES_SEEN - 1; /* where it was, or the oldest's place */
  for (int i = 0; i < DRAWABLES_SEEN; i++)
    {
      GObject       *kept = g_weak_ref_get (&seen[i]);
      const gboolean same = kept == drawable;
      g_clear_object (&kept);
      if (same)
        {
          at = i;
          break;
        }
    }
  for (int i = at; i > 0; i--)
    {
      GObject *before = g_weak_ref_get (&seen[i - 1]);
      g_weak_ref_set (&seen[i], before);
      g_clear_object (&before);
    }
  g_weak_ref_set (&seen[0], drawable);
  terrain_gimp_on_quit (drawable, quit);
  return TRUE;
}

/* Watches GIMP's drawables' "update" once GIMP's process has them (gimp-internals.h). */
static gboolean
watch_drawables (void)
{
  static gint watched;
  if (g_atomic_int_get (&watched))
    return TRUE;
  const TerrainGimpObjects *objects = terrain_live () ? terrain_gimp_objects () : NULL;
  if (objects == NULL)
    return FALSE;
  if (g_atomic_int_compare_and_exchange (&watched, 0, 1))
    g_signal_add_emission_hook (objects->drawable_update, 0, seen_update, NULL, NULL);
  return TRUE;
}

/* The drawable seen lately whose buffer is `buffer`, referenced; NULL if none. */
static GObject *
drawable_of (GeglBuffer *buffer)
{
  for (int i = 0; i < DRAWABLES_SEEN; i++)
    {
      GObject *drawable = g_weak_ref_get (&seen[i]);
      if (drawable && terrain_gimp_drawable_buffer (drawable) == (gconstpointer) buffer)
        return drawable;
      g_clear_object (&drawable);
    }
  return NULL;
}

void
terrain_later_watch (void)
{
  watch_drawables ();
}

GeglBuffer *
terrain_later_layer (GeglOperation *operation)
{
  if (! watch_drawables ())
    return NULL;
  if (g_atomic_int_get (&quitting))
    return NULL;
  GeglBuffer *buffer = terrain_gimp_source_buffer (operation->node);
  GObject    *drawable = buffer ? drawable_of (buffer) : NULL;
  if (drawable == NULL)
    g_clear_object (&buffer);
  g_clear_object (&drawable);
  return buffer;
}

gboolean
terrain_later_paint_flushed (GeglOperation *operation, const GeglRectangle *layer)
{
  if (terrain_render_source () != TERRAIN_SOURCE_EVENTS || ! watch_drawables ())
    return FALSE;
  GeglBuffer    *buffer = terrain_gimp_source_buffer (operation->node);
  GObject       *drawable = buffer ? drawable_of (buffer) : NULL;
  const gboolean flushed = terrain_paint_flushed (drawable, layer->width, layer->height);
  g_clear_object (&drawable);
  g_clear_object (&buffer);
  return flushed;
}

/* ---- The renders under way ---- */

typedef struct
{
  TerrainResultKey            key, settings;
  TerrainStrokeHold           hold;
  guchar                     *pixels;  /* the layer's, until the thread made its heights */
  TerrainPixelCodec           codec;   /* of the pixels */
  float                      *layer;   /* the layer's heights */
  int                         width, height, factor;
  GeglBuffer                 *buffer;
  GWeakRef                    node;    /* the operation's */
  gchar                      *name;
  gint                        cancelled;
  /* Not started: its layer is the look of a render under way before it in the drawable's
   * graph (an effect below it), and the result made of that would be replaced at once. It
   * serves the canvas's asks again until that render ends, which drops it. */
  gboolean                    waiting;
  gboolean                    started; /* its thread was started */
  guint                       idle;    /* the main-loop source that has it, or 0 */
} Later;

static GMutex  lock;
static GCond   done;
static GList  *under_way; /* of Later */
static GList  *idling;    /* of Later: those a main-loop source has (later_idle) */
static int     running;   /* threads making results */
/* The last renders made later (a ring): one asked for again was not kept. */
#define REMEMBERED 16
typedef struct
{
  TerrainResultKey key;
  gboolean         failed;
} Made;
static Made made[REMEMBERED];
static int  made_next;
/* How often a render may be made later before it is made where it is asked for: a kept
 * result that other results pushed out is made later again once (at 4096 x 4096 Hydraulic
 * Erosion's, asked for again after an undo, took GIMP's main thread 25 s), but two that push
 * each other out would be made for ever. */
#define MADE_AT_MOST 2

/* The render under way of `key` (`running`: started, not waiting), or NULL. Under the lock. */
static Later *
find (const TerrainResultKey *key, gboolean running)
{
  for (GList *l = under_way; l; l = l->next)
    if (memcmp (&((Later *) l->data)->key, key, sizeof *key) == 0 &&
        ! (running && ((Later *) l->data)->waiting))
      return l->data;
  return NULL;
}

gboolean
terrain_later_allowed (const TerrainResultKey *key)
{
  g_mutex_lock (&lock);
  int      times = 0;
  gboolean failed = FALSE;
  for (int i = 0; i < REMEMBERED; i++)
    if (memcmp (&made[i].key, key, sizeof *key) == 0)
      {
        times++;
        failed |= made[i].failed;
      }
  g_mutex_unlock (&lock);
  return ! failed && times < MADE_AT_MOST;
}

gboolean
terrain_later_under_way (const TerrainResultKey *key)
{
  g_mutex_lock (&lock);
  const gboolean found = find (key, FALSE) != NULL;
  g_mutex_unlock (&lock);
  return found;
}

gboolean
terrain_later_wait (const TerrainResultKey *key)
{
  g_mutex_lock (&lock);
  const gboolean waited = find (key, TRUE) != NULL;
  while (find (key, TRUE) != NULL)
    g_cond_wait (&done, &lock);
  g_mutex_unlock (&lock);
  return waited;
}

static void G_GNUC_PRINTF (2, 3)
log_later (const Later *later, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  terrain_render_log (later->name, format, args);
  va_end (args);
}

/* Has `function` run on `later` in GIMP's main loop, then `destroy` (if any); the source is
 * remembered until then, so that quitting can remove it. Under the lock. */
static void
later_idle (Later *later, gint priority, GSourceFunc function, GDestroyNotify destroy)
{
  later->idle = g_idle_add_full (priority, function, later, destroy);
  idling = g_list_prepend (idling, later);
}

/* No main-loop source has `later` any more. Under the lock. */
static void
later_not_idle (Later *later)
{
  if (later->idle)
    idling = g_list_remove (idling, later);
  later->idle = 0;
}

/* The end of a render made later (its layer may be gone already). */
static void
later_free (Later *later)
{
  g_mutex_lock (&lock);
  later_not_idle (later);
  g_mutex_unlock (&lock);
  terrain_stroke_release (&later->hold);
  terrain_pages_free (later->layer);
  terrain_pages_free (later->pixels);
  g_object_unref (later->buffer);
  g_weak_ref_clear (&later->node);
  g_free (later->name);
  g_free (later);
}

static GList *drop (GeglBuffer *buffer, TerrainStroke *stroke, gboolean waiting_only);

/* The node tell_gimp invalidates in this thread, while it does. */
static GPrivate telling = G_PRIVATE_INIT (NULL);

gboolean
terrain_later_telling (GeglNode *node)
{
  return node != NULL && g_private_get (&telling) == node;
}

/* In the main loop: GIMP draws the drawable again, all of it. The operation's node is
 * invalidated first, with what follows it (GIMP's filters, the effects above it): their
 * caches may hold what they made of the look, or an effect above may have made its own
 * result of the look and keep serving it, since nothing else tells them that the output
 * changed. The drawable's update marks it to be drawn, and the image's flush has GIMP's
 * canvas draw it in its idle time (as gimp_image_flush does; without it, the canvas drew it
 * only as far as the view showed it, and the next stroke's first dab, which draws all that
 * is marked before it paints, rendered the effect in full, 1.8 s at 4096 x 4096). */
static gboolean
tell_gimp (gpointer data)
{
  Later      *later = data;
  GeglBuffer *buffer = later->buffer;
  GObject    *drawable = drawable_of (buffer);
  GeglNode   *node = g_weak_ref_get (&later->node);
  if (drawable && node && gegl_node_get_gegl_operation (node))
    {
      g_private_set (&telling, node);
      gegl_operation_invalidate (gegl_node_get_gegl_operation (node), NULL, TRUE);
      g_private_set (&telling, NULL);
    }
  g_clear_object (&node);
  /* The renders waiting for this one end now, not when it ended: until its node was
   * invalidated, GEGL's caches still gave the look to the effects above it, whose results
   * made of it would have been replaced at once. GIMP's render asks them again. */
  g_mutex_lock (&lock);
  GList *waited = drop (buffer, NULL, TRUE);
  g_mutex_unlock (&lock);
  g_list_free_full (waited, (GDestroyNotify) later_free);
  if (drawable)
    {
      terrain_gimp_drawable_redraw (drawable, gegl_buffer_get_extent (buffer));
      g_object_unref (drawable);
    }
  return G_SOURCE_REMOVE;
}

/* A cancelled render's end, in the main loop: nothing to tell (later_free, its destroy
 * notify, frees it where the drawable's buffer was referenced). */
static gboolean
free_later (gpointer data)
{
  (void) data;
  return G_SOURCE_REMOVE;
}

static void
free_in_main_loop (gpointer later)
{
  g_mutex_lock (&lock);
  later_idle (later, G_PRIORITY_DEFAULT, free_later, (GDestroyNotify) later_free);
  g_mutex_unlock (&lock);
}

/* Takes the waiting renders of `buffer` (of `stroke` alone, unless NULL) out of those under
 * way, and returns them; unless `waiting_only`, marks the running ones cancelled too. Under
 * the lock. */
static GList *
drop (GeglBuffer *buffer, TerrainStroke *stroke, gboolean waiting_only)
{
  GList *dropped = NULL;
  for (GList *l = under_way, *next; l; l = next)
    {
      Later *later = l->data;
      next = l->next;
      if (later->buffer != buffer || (stroke && later->hold.stroke != stroke))
        continue;
      if (later->waiting)
        {
          under_way = g_list_delete_link (under_way, l);
          dropped = g_list_prepend (dropped, later);
        }
      else if (! waiting_only)
        g_atomic_int_set (&later->cancelled, 1);
    }
  return dropped;
}

/* Whether `its` is one of the nodes `node` reads from, on any of its inputs (GIMP composites
 * an effect's output as the aux of a mode node, the layer below as its input), looking at
 * *budget nodes at most. */
static gboolean
reads_from (GeglNode *node, GeglNode *its, int *budget)
{
  gchar  **pads = gegl_node_list_input_pads (node);
  gboolean found = FALSE;
  for (int i = 0; pads && pads[i] && ! found && --*budget > 0; i++)
    {
      GeglNode *producer = gegl_node_get_producer (node, pads[i], NULL);
      found = producer && (producer == its || reads_from (producer, its, budget));
    }
  g_strfreev (pads);
  return found;
}

/* Whether a render of `buffer` has been started, not waiting, for a node that `node` reads
 * from (an effect below it in the drawable's graph). Main thread. */
static gboolean
below_under_way (GeglNode *node, GeglBuffer *buffer)
{
  gboolean found = FALSE;
  g_mutex_lock (&lock);
  for (GList *l = under_way; l && ! found; l = l->next)
    {
      Later    *later = l->data;
      GeglNode *its = later->buffer == buffer && ! later->waiting
                        ? g_weak_ref_get (&later->node) : NULL;
      int       budget = 1024;
      found = its && its != node && reads_from (node, its, &budget);
      g_clear_object (&its);
    }
  g_mutex_unlock (&lock);
  return found;
}

static int
cancelled (void *user, double fraction)
{
  (void) fraction;
  return g_atomic_int_get (&((Later *) user)->cancelled);
}

/* The end of a render made later, whatever became of it: logged, no longer under way, and,
 * but for a cancelled one, GIMP told. */
static void
finish (Later *later, TerrainStatus status)
{
  log_later (later, "%dx%d: %s, in a thread", later->width, later->height,
             status == TERRAIN_OK ? "computed" : status == TERRAIN_CANCELLED ? "cancelled"
                                                                           : "failed");
  g_mutex_lock (&lock);
  under_way = g_list_remove (under_way, later);
  if (status != TERRAIN_CANCELLED)
    {
      made[made_next] = (Made) { later->key, status != TERRAIN_OK };
      made_next = (made_next + 1) % REMEMBERED;
    }
  g_cond_broadcast (&done);
  g_clear_pointer (&later->layer, terrain_pages_free);
  /* A cancelled render's value was replaced: the render that replaced it tells GIMP. A
   * failed one is told too: GIMP's render of the layer then gives the failure in place. */
  later_idle (later, G_PRIORITY_DEFAULT, status != TERRAIN_CANCELLED ? tell_gimp : free_later,
              (GDestroyNotify) later_free);
  g_mutex_unlock (&lock);
}

static gpointer
render_later (gpointer data)
{
  Later              *later = data;
  const gsize         n = (gsize) later->width * later->height;
  const TerrainProgress progress = { cancelled, later };
  float              *heights = terrain_pages_alloc (n * sizeof (float));
  TerrainStatus       status = TERRAIN_ERROR_NO_MEMORY;
  char                why[256] = "";
  later->layer = heights ? terrain_pages_alloc (n * sizeof (float)) : NULL;
  if (later->layer)
    {
      if (later->pixels)
        terrain_pixels_to_heights (&later->codec, later->pixels, later->layer, n);
      else
        memset (later->layer, 0, n * sizeof (float));
      g_clear_pointer (&later->pixels, terrain_pages_free);
      memcpy (heights, later->layer, n * sizeof (float));
      status = terrain_procedure_render (later->hold.info, later->hold.values, heights,
                                         later->width, later->height, &progress, why,
                                         sizeof why);
    }
  /* The base first: a canvas's render that finds the result kept finds its base too, and
   * does not make one again on GIMP's main thread meanwhile (at 4096 x 4096 about 55 ms). */
  if (status == TERRAIN_OK)
    {
      terrain_stroke_keep (later->hold.stroke, &later->settings, &later->key,
                           later->hold.info, later->hold.values, later->layer, later->width,
                           later->height, later->factor);
      TerrainResult *result = terrain_result_new (g_steal_pointer (&heights), n);
      terrain_result_keep (&later->key, result);
      terrain_result_unref (result);
    }
  terrain_pages_free (heights);
  finish (later, status); /* `later` is the main loop's now */
  g_mutex_lock (&lock);
  running--;
  g_cond_broadcast (&done);
  g_mutex_unlock (&lock);
  return NULL;
}

/* The thread starts once GIMP's main loop runs again, after the render that asked for it
 * has drawn its look: started at once, it took the processors from the look (River
 * Erosion's at 1024 x 1024 then took 180 ms instead of 110). */
static gboolean
start_thread (gpointer data)
{
  Later   *later = data;
  log_later (later, "%dx%d: making its result, in a thread", later->width, later->height);
  g_mutex_lock (&lock);
  later_not_idle (later);
  later->started = TRUE;
  running++;
  g_mutex_unlock (&lock);
  GThread *thread = g_thread_try_new ("terrain-later", render_later, later, NULL);
  if (thread != NULL)
    {
      g_thread_unref (thread);
      return G_SOURCE_REMOVE;
    }
  g_mutex_lock (&lock);
  running--;
  g_mutex_unlock (&lock);
  finish (later, TERRAIN_ERROR_NO_MEMORY);
  return G_SOURCE_REMOVE;
}

void
terrain_later_start (const TerrainResultKey *key, const TerrainResultKey *settings,
                     const TerrainProcedureInfo *info, const TerrainArgValue *values,
                     guchar **pixels, const TerrainPixelCodec *codec, int width, int height,
                     int factor, TerrainStroke *stroke, GeglBuffer *layer, GeglNode *node,
                     const char *name)
{
  g_mutex_lock (&lock);
  const gboolean already = find (key, FALSE) != NULL;
  g_mutex_unlock (&lock);
  if (already)
    return;
  Later *later = g_new0 (Later, 1);
  g_weak_ref_init (&later->node, node);
  later->pixels = g_steal_pointer (pixels);
  later->codec = *codec;
  later->key = *key;
  later->settings = *settings;
  terrain_stroke_hold (&later->hold, stroke, info, values);
  later->width = width;
  later->height = height;
  later->factor = factor;
  later->buffer = g_object_ref (layer);
  later->name = g_strdup (name);
  TerrainResult *kept = terrain_result_lookup (key, (gsize) width * height);
  terrain_result_unref (kept);
  if (kept)
    {
      /* Made meanwhile (its thread ended after the render that asked looked for it): GIMP is
       * told again, so that the canvas does not keep the look. */
      log_later (later, "%dx%d: kept meanwhile, GIMP told again", width, height);
      g_clear_pointer (&later->pixels, terrain_pages_free);
      g_mutex_lock (&lock);
      later_idle (later, G_PRIORITY_DEFAULT, tell_gimp, (GDestroyNotify) later_free);
      g_mutex_unlock (&lock);
      return;
    }
  later->waiting = below_under_way (node, layer);
  if (later->waiting)
    g_clear_pointer (&later->pixels, terrain_pages_free);
  g_mutex_lock (&lock);
  /* Only the operation's own render of an older value of the layer: another operation's on
   * the same drawable (the effect below or above it in the layer's stack) is still needed,
   * and nothing else would tell GIMP once it is there. */
  GList *replaced = drop (layer, stroke, FALSE);
  under_way = g_list_prepend (under_way, later);
  if (! later->waiting)
    later_idle (later, G_PRIORITY_HIGH, start_thread, NULL);
  g_mutex_unlock (&lock);
  g_list_free_full (replaced, free_in_main_loop);
  if (later->waiting)
    log_later (later, "%dx%d: its result waits for the effect below it", width, height);
}

/* The renders not started, taken out of those under way; and the sources that have a
 * render. Under the lock. */
static GList *
take_unstarted (GList **sources)
{
  GList *unstarted = NULL;
  for (GList *l = under_way, *next; l; l = next)
    {
      next = l->next;
      Later *later = l->data;
      if (later->started)
        continue;
      under_way = g_list_delete_link (under_way, l);
      unstarted = g_list_prepend (unstarted, later);
    }
  for (GList *l = idling; l; l = l->next)
    *sources = g_list_prepend (*sources, GUINT_TO_POINTER (((Later *) l->data)->idle));
  return unstarted;
}

/* GIMP quits: every render under way is cancelled, its thread waited for (up to QUIT_US),
 * and what the renders hold is let go (GEGL warns of buffers still held when GIMP shuts it
 * down), with the kept results; no render is made later from then on. Main thread. */
static void
quit (void)
{
  const gint64 deadline = g_get_monotonic_time () + QUIT_US;
  GList       *sources = NULL;
  g_mutex_lock (&lock);
  g_atomic_int_set (&quitting, 1);
  for (GList *l = under_way; l; l = l->next)
    g_atomic_int_set (&((Later *) l->data)->cancelled, 1);
  while (running > 0 && g_cond_wait_until (&done, &lock, deadline))
    ;
  const int still = running;
  GList    *unstarted = take_unstarted (&sources);
  g_mutex_unlock (&lock);
  /* A render's end frees it (its destroy notify); a start does not. */
  for (GList *l = sources; l; l = l->next)
    g_source_remove (GPOINTER_TO_UINT (l->data));
  g_list_free (sources);
  g_list_free_full (unstarted, (GDestroyNotify) later_free);
  if (still > 0)
    g_printerr ("gimp-terrain: %d result(s) still being made as GIMP quits\n", still);
  terrain_result_forget_all ();
}
