/* The renders GIMP asks for while the artist paints a stroke on a layer under an effect.
 *
 * GIMP 3.0.4 and 3.2.6 paint in a thread of their own and, every 10 ms of painting, render
 * the image from a main-loop timeout of priority G_PRIORITY_HIGH_IDLE, the main loop and the
 * paint thread waiting meanwhile (app/tools/gimppainttool-paint.c:
 * gimp_paint_tool_paint_timeout). A whole-layer effect of 0.3 s froze GIMP for each of a
 * stroke's two to four renders. Once the stroke ends, GIMP renders the layer's effects once
 * more from elsewhere (app/core/gimpdrawable.c: gimp_drawable_end_paint, "Refresh filters
 * after painting": an update of the whole layer in 3.2.6, the layer hidden and shown again
 * in 3.0.4), so the renders of the stroke itself may show a filter's look
 * (src/procedures/reduced.h: River Erosion's on the layer reduced, up to 2048 x 2048; the
 * erosion filters' the stroke's paint alone): the last one is always replaced by the
 * filter's result. That render after the stroke is the canvas's: it shows the look once
 * more while the result is made in a thread (later.h). No other timeout of that priority
 * renders an image in GIMP (its draw tool's draws only the tool's outlines).
 *
 * A look is drawn as a change from the last full result the operation gave (reduced.h),
 * found again in the kept results (result-cache.h), so that what the stroke did not touch
 * stays as sharp as it was; without that base, a stroke's render is the filter's own. A
 * paint look is of the rectangles GIMP renders alone (terrain_stroke_paint_look); a reduced
 * look is of the whole layer, made in the render GIMP asks for, so that the stroke shows
 * eroded at once (made in a thread of its own instead, the look of a rectangle GIMP renders
 * was always older than its paint: the stroke showed white, in patches, until mouse up). */
#ifndef TERRAIN_STROKE_H
#define TERRAIN_STROKE_H

#include "procedure-info.h"
#include "result-cache.h"

#include <gegl-plugin.h>

/* GEGL keeps an operation's whole-layer output in its node's cache and would give a look
 * kept there for the same input again, at the render that ends the stroke too: drops it
 * from there, and from the caches after it, as soon as the main loop runs again (at
 * G_PRIORITY_HIGH: before any event, and before that render). */
void          terrain_stroke_forget (GeglOperation *operation);
/* Whether the thread that asks is in a forget's invalidation: the node's invalidated signal
 * then says nothing of its input. */
gboolean      terrain_stroke_forgetting (void);

/* An operation's last full result, which its strokes' looks are drawn from. */
typedef struct TerrainStroke TerrainStroke;

/* Whether the render under way is one of a stroke's: in GIMP's main loop, from a timeout of
 * priority G_PRIORITY_HIGH_IDLE, or from GIMP's paint tool at mouse up, in GDK's event
 * source, right after the paint tool flushed paint into the layer (paint_flushed:
 * terrain_later_paint_flushed) or soon after the stroke's last render and before the
 * canvas's idle renders (render-source.h). */
gboolean      terrain_stroke_render (TerrainStroke *stroke, gboolean paint_flushed);
/* A stroke's render (terrain_stroke_render said so) has ended: the mouse up's next render,
 * however long this one took, is still the stroke's (terrain_stroke_clock_rendered). */
void          terrain_stroke_rendered (TerrainStroke *stroke);

TerrainStroke *terrain_stroke_new (void);
/* The operation is done with it (a thread holding it keeps it until it is done). */
void          terrain_stroke_free (TerrainStroke *stroke);

/* What a thread holds of an operation: its filter, a copy of its settings (their text too)
 * and its stroke (a look made ahead, stroke.c; a result made later, later.h). */
typedef struct
{
  const TerrainProcedureInfo *info;
  TerrainArgValue            *values;
  TerrainStroke              *stroke;
} TerrainStrokeHold;

void          terrain_stroke_hold (TerrainStrokeHold *hold, TerrainStroke *stroke,
                                   const TerrainProcedureInfo *info,
                                   const TerrainArgValue *values);
void          terrain_stroke_release (TerrainStrokeHold *hold);

/* A full render of the filter `info` with `values` gave the result kept as `result`
 * (result-cache.h) for the layer `heights` (width x height), under `settings` (a key of the
 * operation, its settings, and the layer's format and size): the base of the next stroke's
 * looks, at `factor`. A reduced look of the base is made ahead, in a thread of its own once
 * GIMP's main loop is idle. */
void          terrain_stroke_keep (TerrainStroke *stroke, const TerrainResultKey *settings,
                                   const TerrainResultKey *result,
                                   const TerrainProcedureInfo *info,
                                   const TerrainArgValue *values, const float *heights,
                                   int width, int height, int factor);

/* Whether the base is already the result `result` of these settings, size and factor: a
 * render that reused it keeps nothing again (nor converts the layer for it). */
gboolean      terrain_stroke_is_base (TerrainStroke *stroke, const TerrainResultKey *settings,
                                      const TerrainResultKey *result, int width, int height,
                                      int factor);

/* Which base the looks are drawn from now (0: none): a look is the same as one made before
 * of the same layer and settings while this is the same. */
guint         terrain_stroke_base_id (TerrainStroke *stroke);

/* Whether the operation's last full result is of these settings (and the layer's size and
 * format) and still kept: the base a look of the filter at `factor` is drawn from. */
gboolean      terrain_stroke_has_base (TerrainStroke *stroke, const TerrainResultKey *settings,
                                       int width, int height, int factor);

/* The filter's reduced look at `factor` (terrain_look_factor, above 1) in heights (width x
 * height, written whole), from `look`, the layer reduced at that factor (terrain_reduce_mean;
 * filtered in place): the base's result plus the change of the look when the base is of these
 * settings and its result is still kept (terrain_stroke_has_base), else the look alone.
 * *made_base_look says whether the base's look had to be made too (it had not been made
 * ahead). The failures of the filter, and TERRAIN_ERROR_NO_MEMORY. */
TerrainStatus terrain_stroke_look (TerrainStroke *stroke, const TerrainResultKey *settings,
                                   const TerrainProcedureInfo *info,
                                   const TerrainArgValue *values, float *look, float *heights,
                                   int width, int height, int factor, gboolean *made_base_look,
                                   const TerrainProgress *progress, char *why,
                                   size_t why_size);

/* The paint look (a look at factor 1) of a rectangle of the layer alone: heights (the
 * rectangle's `rows` rows of `columns`, at x, y in the width x height layer, the layer's
 * pixels there on entry) become the base's result plus what was painted since
 * (terrain_paint_look). FALSE, heights unchanged, when the base is not of these settings or
 * its result is no longer kept. */
gboolean      terrain_stroke_paint_look (TerrainStroke *stroke, const TerrainResultKey *settings,
                                         int width, int height, int x, int y, float *heights,
                                         int columns, int rows);

/* A stale look: the base's full result, whatever its settings, plus what was painted since
 * (the layer now in heights, against the base's layer, reduced at the base's factor): what
 * the canvas shows of the filter while the result of settings just changed is made in a
 * thread (later.h). FALSE, heights unchanged, when there is no base of this size or its
 * result is no longer kept. */
gboolean      terrain_stroke_stale_look (TerrainStroke *stroke, int width, int height,
                                         float *heights);

#endif
