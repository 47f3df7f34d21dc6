/* Running a procedure inside GIMP's own process, through its GEGL operation (src/gegl):
 * no pixels cross the plug-in's pipe, and the result can stay an editable layer effect. */
#ifndef TERRAIN_NATIVE_H
#define TERRAIN_NATIVE_H

#include <libgimp/gimp.h>

#include "arg-values.h"

/* A filter of the procedure's operation for the drawable, not yet applied; NULL when GIMP
 * cannot run this build's operation (the GEGL module is missing, or was built from other
 * sources, which could give other pixels), with the reason in *why_not (g_free it). */
GimpDrawableFilter *terrain_native_filter_new (const TerrainProcedureInfo *info,
                                               GimpDrawable *drawable, gchar **why_not);

/* Copies the procedure's arguments from config into the filter's settings (sent to GIMP
 * by gimp_drawable_filter_update, or by merging or appending the filter). */
void                terrain_native_filter_configure (GimpDrawableFilter *filter,
                                                     const TerrainProcedureInfo *info,
                                                     GimpProcedureConfig *config);

/* Applies the filter of the procedure (made by terrain_native_filter_new, with config's
 * arguments, of which values are the numbers) in GIMP's process: with non_destructive
 * appended as an editable effect, else merged. Merged on a layer that shows effects, it
 * goes on top of them and the whole stack is merged (Layer > Merge Filters: GIMP 3.0.4
 * drops hidden effects too, 3.2 keeps them), one undo step: the picture the effect would
 * show and the dialog's preview showed. GIMP alone would merge a filter under the effects
 * (gimp-drawable-merge-filter moves it to the bottom of the stack): under a generator
 * effect (Diamond-Square ignores its input) the change would not show at all. What the
 * operation cannot report is checked here first, on the layer's own pixels (what effects
 * under it make is not, as for an effect): a layer that is no heightmap, or too large a
 * one for the memory. */
GimpPDBStatusType   terrain_native_apply (const TerrainProcedureInfo *info,
                                          GimpProcedureConfig *config,
                                          const TerrainArgValues *values,
                                          GimpDrawable *drawable, GimpDrawableFilter *filter,
                                          gboolean non_destructive, GError **error);

/* Whether the drawable carries an effect the canvas shows (a visible one); FALSE while a
 * floating selection is attached to it. */
gboolean            terrain_shows_effects (GimpDrawable *drawable);

/* Merges the effects the drawable shows into its pixels, with on_top (when not NULL)
 * appended above them first (as Layer > Merge Filters; GIMP 3.0.4 drops hidden ones too,
 * 3.2 keeps them): a result then lands on top of what the layer shows, where the dialog's
 * preview and a non-destructive call show it. Starts an undo group that the caller ends,
 * after writing its result when on_top is NULL: one undo step. For a drawable that
 * terrain_shows_effects. */
void                terrain_merge_effects (GimpDrawable *drawable, GimpDrawableFilter *on_top);

/* Whether the procedure can read the drawable as a heightmap (GIMP_PDB_SUCCESS, else the
 * error): the heights of a storage that can hold values that are no numbers are read and
 * checked, as the operation could not report them; any other layer passes at once. */
GimpPDBStatusType   terrain_check_heights (const TerrainProcedureInfo *info,
                                           const TerrainArgValues *values,
                                           GimpDrawable *drawable, GError **error);

/* Prints why the plug-in renders by itself, once a GIMP session. */
void                terrain_native_say_once (const gchar *why_not);

#endif
