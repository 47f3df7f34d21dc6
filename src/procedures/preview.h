/* Previews of generators that do not read the layer, GIMP-free so the benchmark can time
 * exactly what the dialog runs. */
#ifndef TERRAIN_PREVIEW_H
#define TERRAIN_PREVIEW_H

#include "procedure-info.h"

/* Fills samples (pw x ph) with the pixels of a width x height layer under the centres of a
 * pw x ph grid: exact pixels of what the procedure writes. Renders one full-width layer row
 * per preview row through info->render_rect, which must exist. TERRAIN_ERROR_NO_MEMORY when
 * a row cannot be allocated; a render's failure otherwise, with its reason in why.
 * progress (NULL: never cancel) hears after each row and cancels between rows. */
TerrainStatus terrain_preview_rows (const TerrainProcedureInfo *info,
                                    const TerrainArgValue *values, int width, int height,
                                    float *samples, int pw, int ph,
                                    const TerrainProgress *progress, char *why, size_t why_size);

/* Fills samples (pw x ph) with the pixels of a width x height layer under the centres of a
 * pw x ph grid: with render_rect, terrain_preview_rows; else the whole layer rendered into
 * *scratch (width x height floats, malloc'ed on first use, reused by later calls; the
 * caller frees it), then sampled. The generator must not read the layer
 * (terrain_reads_layer). progress (NULL: never cancel) is the render's: a dialog's
 * preview stops early when a newer setting makes it useless (TERRAIN_CANCELLED). */
TerrainStatus terrain_preview_samples (const TerrainProcedureInfo *info,
                                       const TerrainArgValue *values, int width, int height,
                                       float **scratch, float *samples, int pw, int ph,
                                       const TerrainProgress *progress, char *why,
                                       size_t why_size);

#endif
