/* A filter's look: its result on the layer reduced in size, stretched back to the layer's. A
 * cheap view of the result, for what GIMP renders while the artist paints a stroke under the
 * filter's effect (src/gegl/stroke.h). GIMP-free.
 *
 * The layer is reduced `factor` times on each side (every reduced pixel the mean of the
 * factor x factor pixels it covers), filtered there with the values the descriptor's reduce()
 * makes for that size, and stretched back bilinearly (pixel centres to pixel centres, clamped
 * at the borders). Only for filters whose descriptor has reduce().
 *
 * A paint look (look_paint: filters that change a layer little, erosion) is the same at
 * factor 1 with no filtering: the last full result plus what the stroke painted since.
 *
 * A look alone is blurred, and not quite the result: River Erosion, whose settings are in
 * units of the layer's size, erodes a reduced layer's hillslopes faster (a reduced pixel
 * gathers the water of factor^2 pixels at once). At its defaults on a 1024 x 1024 Infinite
 * Field, the look lowers the layer's mean 2.4 times as much as the result at half of each
 * side, 5 times at a quarter. What changed since a layer whose full result is known is
 * better shown as that result plus the change of the look: where the stroke changed
 * nothing, the result itself, sharp; elsewhere the look's change, whose bias is in both
 * looks and mostly cancels.
 */
#ifndef TERRAIN_REDUCED_H
#define TERRAIN_REDUCED_H

#include "procedure-info.h"

/* A look works on at most this many pixels: River Erosion's on a 1024 x 1024 layer at half
 * of each side. At a quarter, a 24-pixel ridge painted on a Diamond-Square map barely showed
 * in River Erosion's look (its reduced hillslopes erode too fast: see above); at half it
 * does (tests/unit/test-reduced.c). */
#define TERRAIN_REDUCED_CELLS (1 << 18)

/* A reduced look at most this many times smaller on each side: River Erosion's look of a
 * 4096 x 4096 layer at an eighth drew combs of 8-pixel steps far from a painted ridge, where
 * the coarse network's change spread; at a quarter (2048 x 2048) the ridge showed eroded,
 * blocky but in place. */
#define TERRAIN_REDUCED_MAX_FACTOR 4

/* A paint look (a filter's look_paint) keeps a copy of the layer: up to 4096 x 4096. */
#define TERRAIN_PAINT_LOOK_CELLS (1 << 24)

/* The factor of a width x height layer's look under the filter `info`: reduce()'s factor
 * (terrain_reduced_factor) when it has reduce() and the layer is larger than
 * TERRAIN_REDUCED_CELLS, up to TERRAIN_REDUCED_MAX_FACTOR; else 1 (the layer itself,
 * unfiltered: a paint look) when it has look_paint, the layer is above its
 * look_paint_above and within TERRAIN_PAINT_LOOK_CELLS and, with reduce(), too large for a
 * reduced look; 0 when the filter has no look there. */
int           terrain_look_factor (const TerrainProcedureInfo *info, int width, int height);

/* The smallest factor that brings a width x height layer within TERRAIN_REDUCED_CELLS
 * pixels; 1 when it is there already (then a look is the result itself). */
int           terrain_reduced_factor (int width, int height);
/* The reduced layer's sides. */
int           terrain_reduced_side (int side, int factor);

/* Filters a look's reduced layer (heightmap.h: terrain_reduce_mean) in place, at
 * terrain_look_factor's factor: at 1 (a paint look) not at all, the layer is its own look;
 * else with the values reduce() makes for the reduced layer (the descriptor must have
 * reduce()). The failures of terrain_procedure_render. */
TerrainStatus terrain_filter_look (const TerrainProcedureInfo *info,
                                   const TerrainArgValue *values, float *reduced, int width,
                                   int height, int factor, const TerrainProgress *progress,
                                   char *why, size_t why_size);

/* Writes the look into heights (width x height): `look` (a filtered reduced layer)
 * stretched back (heightmap.h: terrain_stretch_bilinear); with `base` (the full result of
 * an earlier layer) and `base_look` (that layer's look, reduced), base plus the stretched
 * difference look - base_look instead, the difference made in look. */
void          terrain_stretch_look (float *look, const float *base_look, const float *base,
                                    int factor, float *heights, int width, int height);

/* A paint look of a rectangle alone: heights (its `rows` rows of `columns`, the layer's
 * pixels there on entry) become base plus what was painted since base_layer, both whole
 * layers `width` wide in which the rectangle's first pixel is at `first`. The output at a
 * pixel depends on the input there alone, so GIMP's render of a stroke's dirty rectangle
 * reads and writes that rectangle only. Bit for bit terrain_stretch_look's at factor 1. */
void          terrain_paint_look (const float *base, const float *base_layer, size_t first,
                                  int width, float *heights, int columns, int rows);

/* Replaces heights (width x height, the layer's on entry) with the filter's look at factor:
 * the three above in a row. TERRAIN_ERROR_NO_MEMORY, or the failures of the filter. */
TerrainStatus terrain_procedure_render_reduced (const TerrainProcedureInfo *info,
                                                const TerrainArgValue *values, float *heights,
                                                int width, int height, int factor,
                                                const TerrainProgress *progress, char *why,
                                                size_t why_size);

/* A descriptor's reduce() for filters whose settings are in units of the layer's size, so
 * that a reduced layer takes the same values (River Erosion). */
void          terrain_reduce_in_layer_units (const TerrainProcedureInfo *info,
                                             TerrainArgValue *values, int factor);

#endif
