/* Whether live effects are on: looks while an effect renders for the canvas, results made in
 * threads of their own (stroke.h, later.h). They rest on GIMP's internals (its drawables'
 * signals, its idle priorities, its graph's node names), checked only on the GIMP versions
 * they were tested on. Off, every effect renders exactly, in place, in the thread that asks
 * for it (slower, never another picture than a merge's). */
#ifndef TERRAIN_LIVE_H
#define TERRAIN_LIVE_H

#include <glib.h>

/* Decided once per process: off with TERRAIN_LIVE=0 in the environment, or in a GIMP other
 * than 3.0 and 3.2 (libgimpbase's version, in GIMP's process); GIMP's log (stderr) says so
 * once. Where no GIMP is (a program using GEGL alone) it is on, and nothing uses it. */
gboolean terrain_live (void);

#endif
