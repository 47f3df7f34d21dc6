/* Where a render GIMP asks an operation for comes from: the main-loop source GIMP's main
 * thread runs it from (GLib alone, so that the unit tests can drive it).
 *
 * GIMP 3.0.4 and 3.2.6 render a stroke's progress from their paint tool's timeout of
 * priority G_PRIORITY_HIGH_IDLE (app/tools/gimppainttool-paint.c), the canvas from idles,
 * and, when the paint thread lags at mouse up, the stroke's end from the button release's
 * event, where gimp_paint_tool_paint_end calls the timeout's function itself: from GDK's
 * event source. Docks draw from GTK's frame clock: the Histogram's view computes the
 * histogram of the layer, its effects included, in its draw handler (GIMP 3.0 and 3.2,
 * app/widgets/gimphistogrameditor.c), so it reads the effects from the frame clock's paint,
 * a timeout GTK 3 names "[gtk] gdk_frame_clock_paint_idle" (gdk/gdkframeclockidle.c): a
 * reader of what is displayed. Plug-ins' and scripts' calls (merges, exports) come from
 * their wire's source, never from these. */
#ifndef TERRAIN_RENDER_SOURCE_H
#define TERRAIN_RENDER_SOURCE_H

#include <glib.h>

typedef enum
{
  TERRAIN_SOURCE_NONE,        /* no source of the default main context (another thread) */
  TERRAIN_SOURCE_PAINT_TIMER, /* a timeout of priority G_PRIORITY_HIGH_IDLE */
  TERRAIN_SOURCE_IDLE,        /* an idle, of any priority */
  TERRAIN_SOURCE_EVENTS,      /* GDK's event source ("GDK X11 Event source (:0)", ...) */
  TERRAIN_SOURCE_FRAME_CLOCK, /* GTK's frame clock painting widgets: a dock's view */
  TERRAIN_SOURCE_OTHER        /* any other: a plug-in's wire, other timeouts */
} TerrainRenderSource;

/* The source the calling thread runs from now. */
TerrainRenderSource terrain_render_source (void);

/* Whether a render from `source` at `now` (monotonic microseconds) is one of a stroke's:
 * from the paint timer, or from GDK's events within TERRAIN_STROKE_END_US of the timer's last
 * render with no idle's since (the mouse up). *painted is the time of the timer's last
 * render, 0 after an idle's; updated. */
#define TERRAIN_STROKE_END_US (G_USEC_PER_SEC / 2)
gboolean terrain_stroke_clock (gint64 *painted, TerrainRenderSource source, gint64 now);

#endif
