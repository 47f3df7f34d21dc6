#include "render-source.h"

gboolean
terrain_stroke_clock (gint64 *painted, TerrainRenderSource source, gint64 now)
{
  if (source == TERRAIN_SOURCE_PAINT_TIMER)
    *painted = now;
  else if (source == TERRAIN_SOURCE_IDLE)
    *painted = 0;
  return source == TERRAIN_SOURCE_PAINT_TIMER ||
         (source == TERRAIN_SOURCE_EVENTS && *painted != 0 &&
          now - *painted < TERRAIN_STROKE_END_US);
}

void
terrain_stroke_clock_rendered (gint64 *painted, gint64 now)
{
  if (*painted != 0)
    *painted = now;
}

/* The drawable updated from GDK's events in the dispatch under way, and the largest part
 * updated; only GIMP's main thread touches them (GDK's events are its). */
static GWeakRef flush_drawable;
static int      flush_width, flush_height;
static guint    flush_clear;

static gboolean
clear_flush (gpointer data)
{
  (void) data;
  g_weak_ref_set (&flush_drawable, NULL);
  flush_clear = 0;
  return G_SOURCE_REMOVE;
}

void
terrain_paint_flush_note (GObject *drawable, int width, int height)
{
  if (terrain_render_source () != TERRAIN_SOURCE_EVENTS)
    return;
  GObject *noted = g_weak_ref_get (&flush_drawable);
  if (noted != drawable)
    flush_width = flush_height = 0;
  g_clear_object (&noted);
  g_weak_ref_set (&flush_drawable, drawable);
  flush_width = MAX (flush_width, width);
  flush_height = MAX (flush_height, height);
  /* G_PRIORITY_HIGH: before any other source once the main loop runs again. */
  if (flush_clear == 0)
    flush_clear = g_idle_add_full (G_PRIORITY_HIGH, clear_flush, NULL, NULL);
}

gboolean
terrain_paint_flushed (GObject *drawable, int layer_width, int layer_height)
{
  if (drawable == NULL || terrain_render_source () != TERRAIN_SOURCE_EVENTS)
    return FALSE;
  GObject       *noted = g_weak_ref_get (&flush_drawable);
  const gboolean flushed = noted == drawable &&
                           (flush_width < layer_width || flush_height < layer_height);
  g_clear_object (&noted);
  return flushed;
}
