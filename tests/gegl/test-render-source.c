/* Which renders are a stroke's (src/gegl/render-source.h, gimp-internals.h): the sources of
 * GLib's default main context told apart as GIMP's are, and the clock that takes GIMP's paint
 * tool's mouse up as the stroke's only from GDK's events, soon after the stroke's last render
 * and before any canvas idle. */
#include "check.h"
#include "render-source.h"

static TerrainRenderSource seen;

static gboolean
note_source (gpointer data)
{
  (void) data;
  seen = terrain_render_source ();
  return G_SOURCE_REMOVE;
}

static GSourceFuncs plain_funcs; /* a source GLib dispatches at once: like a plug-in's wire */

static gboolean
plain_prepare (GSource *source, gint *timeout)
{
  (void) source;
  *timeout = 0;
  return TRUE;
}

static gboolean
plain_dispatch (GSource *source, GSourceFunc callback, gpointer data)
{
  (void) source;
  return callback (data);
}

/* The source `source` runs note_source once; what it saw. */
static TerrainRenderSource
seen_from (GSource *source)
{
  seen = (TerrainRenderSource) -1;
  g_source_set_callback (source, note_source, NULL, NULL);
  g_source_attach (source, NULL);
  for (int i = 0; i < 1000 && seen == (TerrainRenderSource) -1; i++)
    g_main_context_iteration (NULL, TRUE);
  g_source_unref (source);
  return seen;
}

static GSource *
named (const char *name)
{
  GSource *source = g_source_new (&plain_funcs, sizeof (GSource));
  if (name)
    g_source_set_name (source, name);
  return source;
}

static void
test_sources (void)
{
  GSource *timer = g_timeout_source_new (1);
  g_source_set_priority (timer, G_PRIORITY_HIGH_IDLE);
  CHECK (seen_from (timer) == TERRAIN_SOURCE_PAINT_TIMER, "paint timer: %d", seen);
  CHECK (seen_from (g_timeout_source_new (1)) == TERRAIN_SOURCE_OTHER,
         "a timeout of default priority: %d", seen);
  CHECK (seen_from (g_idle_source_new ()) == TERRAIN_SOURCE_IDLE, "idle: %d", seen);
  GSource *projection = g_idle_source_new ();
  g_source_set_priority (projection, G_PRIORITY_HIGH_IDLE + 22);
  CHECK (seen_from (projection) == TERRAIN_SOURCE_IDLE, "canvas idle: %d", seen);
  GSource *preview = g_idle_source_new ();
  g_source_set_priority (preview, G_PRIORITY_LOW);
  CHECK (seen_from (preview) == TERRAIN_SOURCE_PREVIEW_IDLE, "previews' idle: %d", seen);
  CHECK (seen_from (named ("GDK X11 Event source (:99)")) == TERRAIN_SOURCE_EVENTS,
         "X11 events: %d", seen);
  CHECK (seen_from (named ("GDK Wayland Event source (wayland-0)")) == TERRAIN_SOURCE_EVENTS,
         "Wayland events: %d", seen);
  GSource *frame_clock = g_timeout_source_new (1);
  g_source_set_priority (frame_clock, G_PRIORITY_HIGH_IDLE + 20);
  g_source_set_name (frame_clock, "[gtk] gdk_frame_clock_paint_idle");
  CHECK (seen_from (frame_clock) == TERRAIN_SOURCE_FRAME_CLOCK, "GTK's frame clock: %d", seen);
  CHECK (seen_from (named ("[gtk] gdk_frame_clock_flush_idle")) == TERRAIN_SOURCE_OTHER,
         "the frame clock's flush: %d", seen);
  CHECK (seen_from (named (NULL)) == TERRAIN_SOURCE_OTHER, "unnamed: %d", seen);
  CHECK (seen_from (named ("GIMP plug-in wire")) == TERRAIN_SOURCE_OTHER, "named: %d", seen);
  CHECK (terrain_render_source () == TERRAIN_SOURCE_NONE, "outside the main loop");
}

static void
test_clock (void)
{
  const gint64 ms = 1000, t0 = 1000 * ms;
  gint64       painted = 0;
  CHECK (! terrain_stroke_clock (&painted, TERRAIN_SOURCE_EVENTS, t0), "no stroke yet");
  CHECK (terrain_stroke_clock (&painted, TERRAIN_SOURCE_PAINT_TIMER, t0), "the paint timer");
  CHECK (painted == t0, "the timer's render noted");
  CHECK (terrain_stroke_clock (&painted, TERRAIN_SOURCE_EVENTS, t0 + 100 * ms),
         "mouse up 0.1 s after the timer's render");
  CHECK (! terrain_stroke_clock (&painted, TERRAIN_SOURCE_OTHER, t0 + 100 * ms),
         "a plug-in's merge 0.1 s after it");
  CHECK (! terrain_stroke_clock (&painted, TERRAIN_SOURCE_NONE, t0 + 100 * ms), "no source");
  CHECK (! terrain_stroke_clock (&painted, TERRAIN_SOURCE_EVENTS,
                                 t0 + TERRAIN_STROKE_END_US),
         "GDK's events once the stroke has ended");
  CHECK (painted == t0, "only the timer and idles move the clock");
  CHECK (terrain_stroke_clock (&painted, TERRAIN_SOURCE_PAINT_TIMER, t0 + 600 * ms), "timer");
  CHECK (! terrain_stroke_clock (&painted, TERRAIN_SOURCE_IDLE, t0 + 610 * ms),
         "the canvas's idle is no stroke's");
  CHECK (painted == 0, "an idle ends the stroke");
  CHECK (! terrain_stroke_clock (&painted, TERRAIN_SOURCE_EVENTS, t0 + 620 * ms),
         "GDK's events after an idle");
  terrain_stroke_clock_rendered (&painted, t0 + 630 * ms);
  CHECK (painted == 0, "a render's end does not start a stroke");
}

/* At mouse up GIMP's paint tool renders from the button release's event until its paint
 * thread is done; layer previews may render between the timer's renders (seen at 4096 x
 * 4096, where the mouse up's renders were then taken as exact and froze GIMP). */
static void
test_mouse_up (void)
{
  const gint64 ms = 1000, t0 = 1000 * ms;
  gint64       painted = 0;
  CHECK (terrain_stroke_clock (&painted, TERRAIN_SOURCE_PAINT_TIMER, t0), "the paint timer");
  CHECK (! terrain_stroke_clock (&painted, TERRAIN_SOURCE_PREVIEW_IDLE, t0 + 50 * ms),
         "a layer preview is no stroke's");
  CHECK (painted == t0, "a preview does not end the stroke");
  CHECK (terrain_stroke_clock (&painted, TERRAIN_SOURCE_EVENTS, t0 + 260 * ms),
         "mouse up after a preview");
  terrain_stroke_clock_rendered (&painted, t0 + 1460 * ms); /* a render of 1.2 s */
  CHECK (painted == t0 + 1460 * ms, "the clock counts from the render's end");
  CHECK (terrain_stroke_clock (&painted, TERRAIN_SOURCE_EVENTS, t0 + 1470 * ms),
         "the mouse up's next render, 1.2 s later");
  CHECK (! terrain_stroke_clock (&painted, TERRAIN_SOURCE_EVENTS,
                                 t0 + 1460 * ms + TERRAIN_STROKE_END_US),
         "GDK's events long after the last render");
}

/* The paint tool's flush at mouse up: a part of a layer updated from GDK's events marks it
 * painted for that dispatch alone. */
typedef struct
{
  GObject *layer, *other;
  int      step;
  gboolean seen[4];
} Flush;

static gboolean
flush_in_events (gpointer data)
{
  Flush *f = data;
  if (f->step == 0)
    {
      CHECK (! terrain_paint_flushed (f->layer, 100, 100), "nothing updated yet");
      terrain_paint_flush_note (f->layer, 20, 10);
      terrain_paint_flush_note (f->layer, 30, 5);
      f->seen[0] = terrain_paint_flushed (f->layer, 100, 100);
      f->seen[1] = terrain_paint_flushed (f->other, 100, 100);
      terrain_paint_flush_note (f->layer, 100, 100); /* the stroke's end: the whole layer */
      f->seen[2] = terrain_paint_flushed (f->layer, 100, 100);
      terrain_paint_flush_note (f->other, 10, 10);
    }
  else
    f->seen[3] = terrain_paint_flushed (f->other, 100, 100);
  f->step++;
  return G_SOURCE_REMOVE;
}

static void
run_in (GSource *source, Flush *f)
{
  const int step = f->step;
  g_source_set_callback (source, flush_in_events, f, NULL);
  g_source_attach (source, NULL);
  for (int i = 0; i < 1000 && f->step == step; i++)
    g_main_context_iteration (NULL, TRUE);
  g_source_unref (source);
}

static void
test_paint_flush (void)
{
  Flush f = { .layer = g_object_new (G_TYPE_OBJECT, NULL),
              .other = g_object_new (G_TYPE_OBJECT, NULL) };
  run_in (named ("GDK X11 Event source (:99)"), &f);
  CHECK (f.seen[0], "a part of the layer updated from GDK's events: painted");
  CHECK (! f.seen[1], "another layer is not");
  CHECK (! f.seen[2], "once the whole layer was updated, it is not");
  while (g_main_context_iteration (NULL, FALSE))
    ;
  run_in (named ("GDK X11 Event source (:99)"), &f);
  CHECK (! f.seen[3], "the next event is another's");
  terrain_paint_flush_note (f.layer, 10, 10); /* outside the main loop: no event's */
  CHECK (! terrain_paint_flushed (f.layer, 100, 100), "outside the main loop");
  g_object_unref (f.layer);
  g_object_unref (f.other);
}

int
main (void)
{
  plain_funcs.prepare = plain_prepare;
  plain_funcs.dispatch = plain_dispatch;
  test_sources ();
  test_clock ();
  test_mouse_up ();
  test_paint_flush ();
  return CHECK_DONE ("render-source");
}
