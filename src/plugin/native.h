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
 * arguments, of which values are the numbers) in GIMP's process: merged, or with
 * non_destructive appended as an editable effect. What the operation cannot report is
 * checked here first: a layer that is no heightmap, or too large a one for the memory. */
GimpPDBStatusType   terrain_native_apply (const TerrainProcedureInfo *info,
                                          GimpProcedureConfig *config,
                                          const TerrainArgValues *values,
                                          GimpDrawable *drawable, GimpDrawableFilter *filter,
                                          gboolean non_destructive, GError **error);

/* Prints why the plug-in renders by itself, once a GIMP session. */
void                terrain_native_say_once (const gchar *why_not);

#endif
