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

/* Removes the effect, thaws the undo history and frees preview. */
void                  terrain_canvas_preview_free (TerrainCanvasPreview *preview);

#endif
