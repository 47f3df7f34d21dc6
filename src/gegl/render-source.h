/* Whether a render GIMP asks for is one of a stroke's, from the main-loop source it comes
 * from (gimp-internals.h tells the sources apart): a clock of GLib alone, which the unit
 * tests drive. */
#ifndef TERRAIN_RENDER_SOURCE_H
#define TERRAIN_RENDER_SOURCE_H

#include "gimp-internals.h"

/* Whether a render from `source` at `now` (monotonic microseconds) is one of a stroke's:
 * from the paint timer, or from GDK's events within TERRAIN_STROKE_END_US of the stroke's
 * last render with no canvas idle's since (the mouse up, where GIMP's paint tool renders
 * until its paint thread is done). *painted is the time of the stroke's last render, 0
 * after a canvas idle's; updated. The previews' idles run between the paint timer's renders
 * too, so they do not end a stroke: when one did, the mouse up's renders were taken as exact
 * reads, and GIMP froze for the whole filter (tests/bench/README.md). */
#define TERRAIN_STROKE_END_US (G_USEC_PER_SEC / 2)
gboolean terrain_stroke_clock (gint64 *painted, TerrainRenderSource source, gint64 now);

/* A stroke's render ended at `now`: the clock counts from there (a render of the mouse up
 * may take longer than TERRAIN_STROKE_END_US, and the next one is still the stroke's). */
void     terrain_stroke_clock_rendered (gint64 *painted, gint64 now);

/* ---- The paint tool's flush at mouse up ----
 *
 * GIMP's paint tool, before each render of a stroke, copies what its paint thread painted
 * into the layer, and the layer emits "update" for those rectangles (app/core/gimpdrawable.c:
 * gimp_drawable_flush_paint; while a layer is painted, its updates are only emitted there),
 * then renders, in the same call. At mouse up that call is made from the button release's
 * event until the paint thread is done: when the paint thread had not drawn before mouse up,
 * no render of the stroke came from the paint timer, and the mouse up's were taken as exact
 * (GIMP froze for the whole filter). So a part of a layer updated from GDK's events marks
 * that layer as painted, until GIMP's main loop runs again (the next event is another's). */

/* `drawable` emitted "update" for a rectangle of width x height; main thread. */
void     terrain_paint_flush_note (GObject *drawable, int width, int height);
/* Whether, in the main loop's dispatch under way, from GDK's events, a part (smaller than
 * layer_width x layer_height) of `drawable` was updated. */
gboolean terrain_paint_flushed (GObject *drawable, int layer_width, int layer_height);

#endif
