/* The procedure dialog's 3D view: the preview's result as a lit, shadowed landscape beside
 * the 2D preview (view3d-area.h renders it on a thread of its own), behind a "3D view" check
 * box. The sun and the exaggeration are view settings, not the procedure's: they and whether
 * the view is shown are remembered in a file of their own, never in the procedure's
 * arguments. Every function here is for the main thread. */
#ifndef TERRAIN_DIALOG_VIEW3D_H
#define TERRAIN_DIALOG_VIEW3D_H

#include <gtk/gtk.h>

typedef struct TerrainDialogView3D TerrainDialogView3D;

/* With the settings of the last dialog, or the 3D View's defaults. */
TerrainDialogView3D *terrain_dialog_view3d_new (void);
/* The check box that shows the view, and the view with its sliders (hidden while the check
 * box is off), to pack into the dialog. */
GtkWidget           *terrain_dialog_view3d_toggle (TerrainDialogView3D *view);
GtkWidget           *terrain_dialog_view3d_widget (TerrainDialogView3D *view);
/* A new result of the preview: w x h heights in layer units (copied). */
void                 terrain_dialog_view3d_show (TerrainDialogView3D *view, const float *heights,
                                                 int w, int h);
/* Remembers the settings, waits for the running render (it is short), frees. */
void                 terrain_dialog_view3d_free (TerrainDialogView3D *view);

#endif
