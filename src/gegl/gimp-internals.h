/* Everything the GEGL module knows of GIMP's internals, in one file: what GIMP's process has
 * that no API promises. Each is checked where it can be, and each fails towards exact:
 *
 *   internal                                  check                       if it fails
 *   GIMP's version (libgimpbase's variables)  3.0 or 3.2                  live effects off
 *   TERRAIN_LIVE=0 in the environment         -                           live effects off
 *   GimpDrawable::update (int x, y, w, h),    at first use, by GObject's  live effects off
 *   its "buffer" and "image" properties,      introspection of GIMP's
 *   GimpImage::flush (gboolean)               own types
 *   Gimp::exit (gboolean) -> gboolean, and    the same                    results kept to exit,
 *   GimpImage's "gimp"                                                    renders under way
 *                                                                         at GIMP's exit
 *   the paint tool's timer priority, GDK's    none ahead: a source that   the render is exact
 *   event source and GTK's frame clock by     is not recognised is an
 *   name, the canvas's and the previews'      exact reader's
 *   idle priorities
 *   the paint tool's flush at mouse up: part  none ahead: no such update  the render is exact
 *   of a layer updated from GDK's events,     before it in the same
 *   then rendered (render-source.h)           dispatch
 *   gimp:buffer-source-validate up a          at each use                 the result is made
 *   filter's inputs                                                       in place (exact)
 *   translate -> crop before a filter         at each use                 the input is the
 *   (a selection)                                                         layer
 *
 * Live effects are used only where all the checks passed, on the GIMP versions they were
 * tested on; otherwise every effect renders exactly, in place, in the thread that asks for it
 * (slower, never another picture than a merge's), and GIMP's log (stderr) says why once.
 * GIMP's objects are met by their types' names, never by GIMP's headers: the module builds
 * without them, and a plug-in's process (libgimp's objects) loads it too. */
#ifndef TERRAIN_GIMP_INTERNALS_H
#define TERRAIN_GIMP_INTERNALS_H

#include <gegl.h>

/* ---- Live effects: on or off ---- */

/* Whether live effects are on: looks while an effect renders for the canvas, results made in
 * threads of their own (stroke.h, later.h). Off with TERRAIN_LIVE=0, in a GIMP other than
 * 3.0 and 3.2, or once GIMP's objects failed their check (terrain_gimp_objects); on where no
 * GIMP is (a program using GEGL alone), where nothing uses it. */
gboolean terrain_live (void);

/* ---- GIMP's objects ---- */

typedef struct
{
  guint drawable_update; /* GimpDrawable::update (x, y, width, height) */
  guint image_flush;     /* GimpImage::flush (invalidate_preview); 0 where it does not fit */
} TerrainGimpObjects;

/* GIMP's drawables' and images' signals, checked; NULL where GIMP has made no drawable yet (its
 * class, with its signals, comes with the first), in a process that is not GIMP's (a
 * plug-in's), or where the check failed (then live effects are off). */
const TerrainGimpObjects *terrain_gimp_objects (void);
/* A GIMP drawable's buffer (the layer's own, also while it is painted), for comparing only. */
gconstpointer terrain_gimp_drawable_buffer (GObject *drawable);
/* Has GIMP draw the drawable again, all of it, soon: its update, then its image's flush. */
void          terrain_gimp_drawable_redraw (GObject *drawable, const GeglRectangle *extent);

/* Has `drop` called when GIMP begins to quit (its Gimp object's "exit", before GIMP's own
 * handlers: GIMP shuts GEGL down right after them, and GEGL's tile cache warns of tiles
 * still held), once GIMP has made that object; call it again until then. Also when the
 * artist then cancels quitting: what `drop` drops must be only what can be made again. */
void terrain_gimp_on_exit (void (*drop) (void));
/* Has `quit` called in GIMP's main thread when GIMP quits for good: a handler of Gimp::exit
 * on the Gimp of `drawable`'s image (GimpImage's "gimp"), which runs after the handler of
 * GIMP's interface (which stops the emission to ask the artist whether to quit) and before
 * GIMP's handler that shuts GEGL down (app/app.c: app_exit_after_callback, connected
 * after). Connected once; call it again until then. */
void terrain_gimp_on_quit (GObject *drawable, void (*quit) (void));

/* ---- Who asks: the main-loop source GIMP's main thread renders from ----
 *
 * GIMP 3.0.4 and 3.2.6 render a stroke's progress from their paint tool's timeout of
 * priority G_PRIORITY_HIGH_IDLE (app/tools/gimppainttool-paint.c), the canvas from idles
 * (app/gimp-priorities.h: the projection at G_PRIORITY_HIGH_IDLE + 22 and after, the previews
 * of layers, images and undo steps at G_PRIORITY_LOW), and, when the paint thread lags at
 * mouse up, the stroke's end from the button release's event, where
 * gimp_paint_tool_paint_end calls the timeout's function itself: from GDK's event source.
 * Docks draw from GTK's frame clock: the Histogram's view computes the histogram of the
 * layer, its effects included, in its draw handler (app/widgets/gimphistogrameditor.c),
 * from a timeout GTK 3 names "[gtk] gdk_frame_clock_paint_idle" (gdk/gdkframeclockidle.c).
 * Plug-ins' and scripts' calls (merges, exports) come from their wire's source, never from
 * these. */
typedef enum
{
  TERRAIN_SOURCE_NONE,        /* no source of the default main context (another thread) */
  TERRAIN_SOURCE_PAINT_TIMER, /* a timeout of priority G_PRIORITY_HIGH_IDLE */
  TERRAIN_SOURCE_IDLE,        /* any other idle: the canvas's among them */
  TERRAIN_SOURCE_PREVIEW_IDLE,/* an idle of G_PRIORITY_LOW or lower: previews of layers,
                               * images and undo steps, also while a stroke is painted */
  TERRAIN_SOURCE_EVENTS,      /* GDK's event source ("GDK X11 Event source (:0)", ...) */
  TERRAIN_SOURCE_FRAME_CLOCK, /* GTK's frame clock painting widgets: a dock's view */
  TERRAIN_SOURCE_OTHER        /* any other: a plug-in's wire, other timeouts */
} TerrainRenderSource;

/* The source the calling thread runs from now. */
TerrainRenderSource terrain_render_source (void);
/* Whether the calling thread renders for what GIMP displays (its canvas or a dock), which
 * may be shown what the canvas shows while a result is made: never a merge's, an export's or
 * a script's render. FALSE when live effects are off. */
gboolean            terrain_gimp_display_render (void);

/* ---- GIMP's graph of a layer and its effects ---- */

/* The buffer a filter's input is read from: the buffer source up its inputs (a drawable's,
 * gimp:buffer-source-validate: app/core/gimpdrawable.c, gimp_drawable_real_get_source_node),
 * referenced; NULL if none. */
GeglBuffer *terrain_gimp_source_buffer (GeglNode *node);
/* The node that gives a filter's whole layer where a selection crops its input, and the
 * layer's rectangle in the filter's coordinates; NULL where the input is the layer. */
GeglNode   *terrain_gimp_uncropped_layer (GeglNode *node, GeglRectangle *layer);

#endif
