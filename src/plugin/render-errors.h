/* What the user is told when a render fails, and the PDB status it gives. */
#ifndef TERRAIN_RENDER_ERRORS_H
#define TERRAIN_RENDER_ERRORS_H

#include <libgimp/gimp.h>

#include "procedure-info.h"

/* Sets *error for a failed render (its status and the descriptor's reason `why`), or for
 * heights that are no numbers among the n rendered; returns the status, TERRAIN_OK when the
 * heights are usable. */
TerrainStatus     terrain_render_error (const TerrainProcedureInfo *info, TerrainStatus status,
                                        const char *why, const float *heights, gsize n,
                                        int width, int height, GError **error);

/* FALSE, with the error, when the layer holds heights that are not finite numbers: they
 * have no place in a heightmap, and every procedure that reads the layer reads all of it
 * (erosion and smoothing move material across a selection's border). */
gboolean          terrain_heightmap_usable (const TerrainProcedureInfo *info,
                                            const float *heights, int width, int height,
                                            GError **error);

/* FALSE, with the error, when pixels under the selection in the rectangle x, y, w, h of the
 * drawable are not finite numbers, or too large: GIMP mixes a result into a selection with
 * the pixels there (old + (new - old) x coverage, in linear light, in float), and those
 * would come out NaN, whatever the procedure wrote (pixel-codec.h). */
gboolean          terrain_selection_usable (const TerrainProcedureInfo *info,
                                            GimpDrawable *drawable, int x, int y, int w, int h,
                                            GError **error);

GimpPDBStatusType terrain_pdb_status (TerrainStatus status);

#endif
