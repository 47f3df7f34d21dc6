/* The result live on the canvas while a dialog is open, as GIMP's own filters show it: the
 * procedure's GEGL operation appended to the layer as an effect that follows every change
 * of the dialog's settings. It is made with the image's undo frozen and is always removed
 * again, so neither the image nor its undo history keep any trace of it. */
#ifndef TERRAIN_CANVAS_PREVIEW_H
#define TERRAIN_CANVAS_PREVIEW_H

#include <libgimp/gimp.h>

#include "procedure-info.h"

typedef struct _TerrainCanvasPreview TerrainCanvasPreview;

/* Starts showing the procedure with config's settings on the layer; NULL when GIMP cannot
 * (not a layer, or no GEGL module of this build: *why_not says which, g_free it). */
TerrainCanvasPreview *terrain_canvas_preview_new (const TerrainProcedureInfo *info,
                                                  GimpProcedureConfig *config,
                                                  GimpDrawable *drawable, gchar **why_not);

/* Shows or hides the result on the canvas. */
void                  terrain_canvas_preview_show (TerrainCanvasPreview *preview, gboolean show);

/* What the canvas's effect reads: the layer with the effects it carried when the dialog
 * opened (the effects below, as the canvas shows them). That is the layer itself when it
 * carried no visible effect; else a copy with those effects merged, made on the first call
 * (GIMP computes them). NULL when GIMP could not merge them. */
GimpDrawable         *terrain_canvas_preview_input (TerrainCanvasPreview *preview);

/* Removes the effect, thaws the undo history and frees preview. */
void                  terrain_canvas_preview_free (TerrainCanvasPreview *preview);

#endif
