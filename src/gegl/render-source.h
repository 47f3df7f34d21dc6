/* Whether a render GIMP asks for is one of a stroke's, from the main-loop source it comes
 * from (gimp-internals.h tells the sources apart): a clock of GLib alone, which the unit
 * tests drive. */
#ifndef TERRAIN_RENDER_SOURCE_H
#define TERRAIN_RENDER_SOURCE_H

#include "gimp-internals.h"

/* Whether a render from `source` at `now` (monotonic microseconds) is one of a stroke's:
 * from the paint timer, or from GDK's events within TERRAIN_STROKE_END_US of the timer's last
 * render with no idle's since (the mouse up). *painted is the time of the timer's last
 * render, 0 after an idle's; updated. */
#define TERRAIN_STROKE_END_US (G_USEC_PER_SEC / 2)
gboolean terrain_stroke_clock (gint64 *painted, TerrainRenderSource source, gint64 now);

#endif
