/* The dialog's preview: the whole layer scaled (and, for filters, a 1:1 view of a region
 * on request), computed on a worker thread from a snapshot of the settings so that the
 * dialog never waits for it; a bar under it says when it is computing. */
#ifndef TERRAIN_DIALOG_PREVIEW_H
#define TERRAIN_DIALOG_PREVIEW_H

#include <libgimp/gimpui.h>

#include "canvas-preview.h"
#include "procedure-info.h"

typedef struct TerrainDialogPreview TerrainDialogPreview;

/* With canvas (not NULL: GIMP shows the result on the canvas), the preview reads what the
 * canvas's effect reads, the layer with the effects below applied, so the two never
 * disagree (and OK, merged or not, leaves that picture: apply.h); a note says so when GIMP
 * could not give those pixels and the preview falls back to the layer's own. Without, it
 * reads the layer's own pixels, as OK will unless the layer shows effects of GIMP's own
 * (without the module OK merges them first: not shown here). */
TerrainDialogPreview *terrain_dialog_preview_new (const TerrainProcedureInfo *info,
                                                  GimpProcedureConfig *config,
                                                  GimpDrawable *drawable,
                                                  TerrainCanvasPreview *canvas);
/* The box to pack into the dialog. */
GtkWidget            *terrain_dialog_preview_widget (TerrainDialogPreview *preview);
/* Stops the worker (waits for it) and frees everything; call before destroying the dialog. */
void                  terrain_dialog_preview_free (TerrainDialogPreview *preview);

#endif
