/* Landscape presets: one-click landscapes built from the processes that make such land,
 * with the other parts of the core - the infinite field (field.h), river erosion
 * (river-erosion.h), smoothing (smooth.h) - and strata and sea level of their own. The
 * preset is the point: its only knobs are the seed and the size of the largest features;
 * users tune the result further with the other filters.
 *
 * Conventions (documented in the procedure's help):
 *  - Scale. F is the feature size (0, the default, stands for a quarter of the layer's size:
 *    terrain_landscape_feature_size), N = terrain_landscape_iterations (F) = round (log2 F). The
 *    processes run on a coarse grid of q x q pixel cells, q the largest power of two at most
 *    F / 64 (at least 1, at most 2^(N - 2)), so that a feature spans about 64 cells whatever
 *    the layer's size, plus a margin of 16 cells beyond every side (rivers flow on past the
 *    layer's border, which shows no frame). Coarse cell (i, j) is the field's node at layer
 *    pixel (q (i - 16), q (j - 16)) (a field of N - log2 q iterations), so the coarse grid -
 *    and the landscape - is the same for any layer of the same size in features: a 4096^2
 *    layer at F = 2048 is the 512^2 layer at F = 256 with finer detail.
 *  - Base: terrain_field () with `seed`, the preset's roughness H, on the coarse grid,
 *    stretched onto [0, 1] by its own minimum and maximum. Every stretch depends on the whole
 *    layer, so a preset is rendered in one piece: layers rendered separately do not join.
 *  - Rivers: river erosion's simulation (river-erosion.h), erosion 0.2 per step, m 0.5, n 1,
 *    uplift none, open edges, sea level 0, with hillslope diffusion D given in cells^2 per
 *    step (converted to the procedure's millionths of L^2, at most its maximum): valleys cut
 *    into the base, every coarse cell draining.
 *  - To the layer (q > 1): the coarse map, stretched onto [0, 1], interpolated by a cubic
 *    B-spline (positive weights: no pits of its own), plus detail the coarse grid cannot hold:
 *    smooth fractal noise without a lattice (spline-noise.h: octaves of white noise on grids
 *    of spacing q down to 1 pixel, each shifted by its own offset and interpolated by the
 *    cubic B-spline, and the pixels' own at half their octave's amplitude; features up to
 *    about 2 q pixels) of seed mix32 (seed ^ 0xde7a11ed) and roughness H_d, standard
 *    deviation 1/6, times amp q / F, times w = smoothstep (0, 1, 3 / F-th of the
 *    interpolated map's slope): detail on steep land, none on valley floors, flats and sea,
 *    which keep draining. With q = 1 the coarse map is the layer.
 *  - Fine rivers (alpine and river-valleys, where q > 4): the layer, averaged in blocks of
 *    k = q / 4 pixels, gets river erosion's analytical method (age 0.3, diffusion D_f in
 *    cells^2, converted as above), and its change, interpolated by the same B-spline, is
 *    added to the layer: the detail between the coarse rivers is cut into gullies and spurs,
 *    on a grid of the same cells per feature at every layer size.
 *  - alpine: H = 0.7 (rough), base b^1.5 (b sqrt (b): broad low valleys, narrow high summits),
 *    rivers for 35 steps, D = 1: sharp crests between drained, branching valleys. Detail
 *    H_d = 1.2, amp 4.5; fine rivers D_f = 0.5. Stretched onto [0, 1].
 *  - rolling-hills: H = 1.2, 16 iterations of Laplacian smoothing (smooth.h) on the coarse
 *    grid: soft rounded hills. Detail H_d = 1.3, amp 3. Stretched onto the band [0.3, 0.6]:
 *    no summits and no deep valleys.
 *  - islands: H = 1.0. With (u, v) a coarse cell's layer position from the layer's centre in
 *    half-widths and half-heights (the border at |u| = 1 or |v| = 1),
 *    g = b - 0.8 (u^2 + v^2) - smoothstep (0.7, 0.98, max (|u|, |v|)): land favoured in the
 *    middle, stretched onto [0, 1]. Sea level s: the g above which 22% of the coarse cells lie
 *    (a 4096-bin histogram), but at least 0.05 above the highest g on the grid's border.
 *    Rivers for 40 steps, D = 1, the cells at or below s outlets: the land drains to the sea
 *    through its own valleys. The lowlands the rivers cut down to s then rise by 2e-4 per
 *    step of their path to the sea (fading to nothing a little above s, the steps smoothed;
 *    hollows below s inland filled to their rim): coastal plains that slope to the sea, not
 *    flats. Detail H_d = 1.1, amp 8; g stretched onto [0, 1] on the layer, s carried
 *    through the stretches, but at least 0.05 above the highest g on the layer's border.
 *    Land (g >= s): h = 0.2 + 0.8 (g - s) / (1 - s), the coast at 0.2
 *    (TERRAIN_LANDSCAPE_COAST). Sea (g < s): a shelf falling from the coast to the flat sea
 *    floor 0.1 (TERRAIN_LANDSCAPE_SEA_FLOOR) while g falls by 0.05 below s,
 *    h = 0.2 - 0.1 p ((s - g) / 0.05), p (t) = m t (1 - t)^2 + t^2 (3 - 2 t), m the land's
 *    slope at the coast (at most 3): the coast has no crease. Then exactly 0.1: the border
 *    is flat sea floor.
 *  - mesa: H = 1.0, rivers for 40 steps, D = 2 (the canyons), stretched, then strata:
 *    t = 4 c^1.5, k = floor (t), f = t - k, h = (k + 0.35 f + 0.65 smoothstep (0.42, 0.58, f))
 *    / 4: treads near the levels k / 4 (k = 0..4) that keep 35% of the slope (their rivers
 *    still run), and escarpments where f crosses 1/2, retreating up the canyons the rivers
 *    cut. Detail H_d = 1.3, amp 6. Stretched onto [0, 1].
 *  - river-valleys: H = 1.0, rivers for 75 steps, D = 2: broad branching valleys cut
 *    into the ranges. Detail H_d = 1.3, amp 4; fine rivers D_f = 1. Stretched onto [0, 1].
 *  - The presets with rivers (alpine, mesa, river-valleys) drain: closed pits are a few in
 *    ten thousand (where the detail outweighs the slope), not filled.
 *  - Output in [0, 1], finite; deterministic (the field's and the noise's hash, no other
 *    randomness; bit-identical for any thread count).
 *  - Progress: the base, the processes, the move to the layer and the fine rivers each get
 *    a share of [0, 1]; cancel is honoured in every stage. Memory: the coarse grid (about
 *    1 / q^2 of the layer), and from it a layer-sized guide beside the output while the
 *    detail is added; after it, the fine rivers' layer-sized change and their grid.
 */
#ifndef TERRAIN_LANDSCAPE_H
#define TERRAIN_LANDSCAPE_H

#include "terrain-types.h"

typedef enum
{
  TERRAIN_LANDSCAPE_ALPINE,
  TERRAIN_LANDSCAPE_ROLLING_HILLS,
  TERRAIN_LANDSCAPE_ISLANDS,
  TERRAIN_LANDSCAPE_MESA,
  TERRAIN_LANDSCAPE_RIVER_VALLEYS
} TerrainLandscapePreset;

#define TERRAIN_LANDSCAPE_MIN_FEATURE_SIZE 16
#define TERRAIN_LANDSCAPE_MAX_FEATURE_SIZE 65536

/* The recipes' fixed levels, for documentation and tests. */
#define TERRAIN_LANDSCAPE_HILLS_LOW  0.3 /* rolling-hills: the band of heights */
#define TERRAIN_LANDSCAPE_HILLS_HIGH 0.6
#define TERRAIN_LANDSCAPE_SEA_FLOOR  0.1 /* islands: the deep sea floor */
#define TERRAIN_LANDSCAPE_COAST      0.2 /* islands: the height of the coastline */
#define TERRAIN_LANDSCAPE_MESA_STEPS 4   /* mesa: plateau levels near k / 4, k = 0..4 */

typedef struct
{
  uint32_t               seed;
  TerrainLandscapePreset preset;
  /* Pixels, MIN..MAX_FEATURE_SIZE: the largest features; or
   * TERRAIN_LANDSCAPE_FEATURE_SIZE_LAYER. */
  int                    feature_size;
} TerrainLandscape;

#define TERRAIN_LANDSCAPE_FEATURE_SIZE_LAYER 0

/* seed 0, alpine, feature size TERRAIN_LANDSCAPE_FEATURE_SIZE_LAYER. */
void          terrain_landscape_defaults (TerrainLandscape *params);

/* The feature size a width x height layer is rendered at: feature_size itself, or for
 * TERRAIN_LANDSCAPE_FEATURE_SIZE_LAYER a quarter of sqrt (width x height), rounded, within
 * MIN..MAX_FEATURE_SIZE: 256 on 1024 x 1024, 1024 on 4096 x 4096. A fixed size made a
 * larger layer more features of the same size, not the same landscape with finer detail
 * (tests/bench/README.md, "How terrain looks"). */
int           terrain_landscape_feature_size (int feature_size, int width, int height);

/* The field's iterations for a feature size: round (log2 (feature_size)), computed exactly
 * in integers (2^(2N - 1) <= feature_size^2 < 2^(2N + 1)); 4 for 16, 8 for 256, 16 for
 * 65536. */
int           terrain_landscape_iterations (int feature_size);

/* Renders into out (width * height floats). Every parameter is checked before out is
 * touched. */
TerrainStatus terrain_landscape (const TerrainLandscape *params, float *out, int width,
                                 int height, const TerrainProgress *progress);

#endif
