/* Infinite diamond-square field (Tatarize's "Field Diamond Squared", shared seed 002):
 * fractal terrain over the whole integer plane, of which any rectangle can be rendered.
 *
 * Conventions (documented in the procedure's help):
 *  - The world is an infinite lattice of pixels. `iterations` N is the number of
 *    diamond+square subdivisions below the coarsest level: level 0 is white noise (uniform
 *    in [-1, 1]) on the nodes of a grid of spacing 2^N pixels, and level k refines level
 *    k-1 to spacing 2^(N-k). N therefore sets the size of the largest features (about
 *    2^N pixels), not the image size: the field never repeats and has no edges.
 *  - Roughness H: as in diamond-square.h. The diamond-step offsets of level k are uniform
 *    in [-r, r] with r = 2^(-H k); square-step offsets get the half-level factor
 *    2^(-H/2). E[(h(x+d) - h(x))^2] ~ d^(2H) for lags well below 2^N.
 *  - The random offset of a node is terrain_hash (seed, x, y, level) of its node
 *    coordinates, so the value of a pixel depends only on (seed, iterations, roughness)
 *    and its world position: it is bit-identical whatever rectangle contains it.
 *  - To render [x0, x1] at level N, level N-1 is computed on [ceil(x0/2) - 1,
 *    floor(x1/2) + 1] (the nodes its diamonds and squares need), and so on up to level 0.
 *    A W x H rectangle needs about W x H / 2 floats of scratch on top of the output
 *    (levels N-1 and N-2 and the diamonds of level N), allocated once per call.
 *  - Output mapping is fixed, never data-dependent: v -> 0.5 + v / (6 sigma), clamped to
 *    [0, 1], i.e. 3 standard deviations either side of 0.5. sigma is the field's standard
 *    deviation over seeds and positions, computed exactly from the offset amplitudes
 *    and the refinement weights (so it depends on roughness and iterations only). At
 *    most about 0.15% of pixels (the highest peaks and deepest pits, at small H) are
 *    clamped; the output's standard deviation is 1/6. (The hard bound |v| <= sum of the
 *    level amplitudes is 4 sigma at H = 2, 6 at H = 1 and up to 24 at H = 0: mapping it
 *    to [0, 1] would leave most images nearly flat grey.)
 *    A rectangle much smaller than 2^N pixels sees only part of a large feature and may
 *    look low-contrast: lower `iterations` for more features per image.
 *  - Big layers: render them band by band (for instance 128 rows at a time) with
 *    offset_y advanced by the band's first row; the bands join exactly.
 */
#ifndef TERRAIN_FIELD_H
#define TERRAIN_FIELD_H

#include "terrain-common.h"

#define TERRAIN_FIELD_MAX_ITERATIONS 30

typedef struct
{
  uint32_t seed;
  int      iterations; /* N, 1..30: the largest features are about 2^N pixels across */
  double   roughness;  /* H, 0..2 */
  int32_t  offset_x;   /* world coordinates of the output's top-left pixel; the whole */
  int32_t  offset_y;   /* rectangle must lie in [INT32_MIN, INT32_MAX] */
} TerrainField;

/* seed 0, iterations 8, roughness 1.0, offset (0, 0). */
void          terrain_field_defaults (TerrainField *params);

/* Renders world rectangle [offset_x, offset_x + width) x [offset_y, offset_y + height)
 * into out (width * height floats, row-major), values in [0, 1]. */
TerrainStatus terrain_field (const TerrainField *params, float *out, int width, int height,
                             const TerrainProgress *progress);

#endif
