/* A filter's full result made in a thread of its own while GIMP's canvas shows its look, and
 * GIMP told to draw the layer again once the result is there.
 *
 * GIMP draws its canvas from an idle source of its main loop (app/core/gimpprojection.c:
 * gimp_projection_chunk_render_start, priority GIMP_PRIORITY_PROJECTION_IDLE,
 * app/gimp-priorities.h; its layer previews from idles of lower priority), and an operation
 * renders in the thread that asks: a whole-layer effect froze GIMP for its whole render
 * after every stroke (River Erosion 5.7 s at 4096 x 4096). GIMP draws again only what it was
 * told changed, and it is told by a drawable's "update" signal (gimp_drawable_update), not
 * by a GEGL node's invalidation: an operation that rendered later would never be seen. So
 * the module watches the "update" signals GIMP's drawables emit (an emission hook: GIMP
 * 3.0.4 and 3.2.6 declare the signal alike, and its signature is checked), keeps the
 * drawables it saw, and emits "update" on the one whose buffer the operation reads once its
 * result is kept (result-cache.h), then its image's "flush" (as gimp_image_flush), which has
 * the canvas draw it. Where any of this is missing (another GIMP, a plug-in's process, a
 * result too large to keep), the render is made where it is asked for, as before.
 *
 * Merges, exports and scripts never render from an idle: their results are computed in
 * place, or taken from the render under way for the same pixels and settings. The look
 * never stays in GEGL's caches (the operation's node's, GIMP's applicator's), from which a
 * merge of the effect would take it: it is dropped after each render
 * (terrain_stroke_forget), and the operation serves it again to the canvas's next asks. */
#ifndef TERRAIN_LATER_H
#define TERRAIN_LATER_H

#include "pixel-codec.h"
#include "procedure-info.h"
#include "result-cache.h"
#include "stroke.h"

#include <gegl-plugin.h>

/* Begins to watch GIMP's drawables, once there are (an operation's making and any render's
 * first step: the drawables seen from then on can be told); nothing outside GIMP's process
 * or with live effects off. */
void        terrain_later_watch (void);

/* The buffer of the drawable the operation's input is read from, referenced, when GIMP can
 * be told to draw it again (a drawable with that buffer emitted "update" lately); NULL
 * otherwise. Main thread. */
GeglBuffer *terrain_later_layer (GeglOperation *operation);

/* Whether GIMP's paint tool has just flushed paint into part of the drawable the operation
 * reads (of `layer`'s size), in the main loop's dispatch under way: at mouse up
 * (render-source.h). */
gboolean    terrain_later_paint_flushed (GeglOperation *operation, const GeglRectangle *layer);

/* Whether the full render of `key` may be made later: none failed later lately, and it was
 * made later lately at most once (asked for again, its result was not kept: other results
 * pushed it out; making it later again and again might never end). Main thread. */
gboolean    terrain_later_allowed (const TerrainResultKey *key);

/* Whether a full render of `key` is under way in a thread (started, not yet ended). */
gboolean    terrain_later_under_way (const TerrainResultKey *key);

/* Whether a full render of `key` is under way in a thread; waits until it is done. */
gboolean    terrain_later_wait (const TerrainResultKey *key);

/* Whether this thread is invalidating `node` because its own result, just kept, has GIMP
 * draw it again (then no change of its input). */
gboolean    terrain_later_telling (GeglNode *node);

/* Makes the full render of the filter `info` with `values` of the layer whose pixels (width x
 * height, in the codec's format, already found to be heights) are at *pixels, in a thread:
 * keeps its result under `key`, makes it the base of the stroke's looks
 * (terrain_stroke_keep, under `settings`, at `factor`), then has GIMP draw the drawable of
 * `layer` again, with the operation's `node` invalidated; `name`, the operation's, is for the
 * render log. The pixels (a block of
 * terrain_pages_alloc) are taken (*pixels set to NULL) and made heights in the thread: at
 * 4096 x 4096 a copy of the heights took 16-90 ms of GIMP's main thread. A render under way
 * of the same operation (`stroke`) for the same layer and another key is cancelled: its value
 * was replaced, and this one tells GIMP. The thread starts once GIMP's main loop runs again.
 * Nothing is started, nor taken, when one for `key` is under way; when its result is kept
 * already, GIMP is told again. */
void        terrain_later_start (const TerrainResultKey *key, const TerrainResultKey *settings,
                                 const TerrainProcedureInfo *info, const TerrainArgValue *values,
                                 guchar **pixels, const TerrainPixelCodec *codec, int width,
                                 int height, int factor, TerrainStroke *stroke, GeglBuffer *layer,
                                 GeglNode *node, const char *name);

#endif
