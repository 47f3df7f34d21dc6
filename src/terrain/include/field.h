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
 *  - Guided generation: a painted guide (heights in [0, 1], for instance the layer's
 *    current content) gives the coarse shape and the field adds the fractal detail. With
 *    guide == NULL (the default) nothing changes, bit for bit. Otherwise let s be the
 *    largest power of two <= guide_scale and <= 2^N. The level of node spacing s takes, at
 *    each node, the mean of the guide over the s x s box centred on it (the continuous box
 *    [X - s/2, X + s/2]: the two edge rows and columns count half; for s = 1 the node's own
 *    pixel), in raw units (mean - 0.5) x 6 sigma, so that the fixed output mapping gives
 *    back the guide's height. Guide positions outside the guide read its nearest edge
 *    pixel (the guide extends outwards), guide values are clamped into [0, 1] when read
 *    (NaN reads as 0) and quantised to 2^-24. The levels finer than s refine it as usual,
 *    with their usual offsets (the same ones as without a guide, scaled by roughness);
 *    the coarser levels are not computed. So features larger than about s come from the
 *    guide and smaller ones from the noise; guide_scale 1 returns the guide itself. The
 *    detail is zero-mean, so where the guide is near 0 or 1 part of it is clamped away.
 *    A guide_scale above 2^N is capped to 2^N: level 0 comes from the guide instead of
 *    white noise, and all N refinements add detail (the most detail a guide can get).
 *    The guide is a function of world position too, so rectangles, bands and tiles stay
 *    bit-identical (every call must pass the same guide, guide_x and guide_y).
 *    Memory: an int64 integral image of the part of the guide the rectangle's guided
 *    nodes read, at most (guide_width + 1) x (guide_height + 1) x 8 bytes and at most
 *    about the rectangle plus a margin of 2.5 s on each side (a band of 128 rows reads
 *    only its own strip of the guide), built once per call; none for guide_scale 1.
 *    The time to build it is in proportion, so with a guide_scale near the layer's size
 *    every band reads most of the guide: render such fields in one call or tall bands.
 */
#ifndef TERRAIN_FIELD_H
#define TERRAIN_FIELD_H

#include "terrain-types.h"

#define TERRAIN_FIELD_MAX_ITERATIONS 30

typedef struct
{
  uint32_t seed;
  int      iterations; /* N, 1..30: the largest features are about 2^N pixels across */
  double   roughness;  /* H, 0..2 */
  int32_t  offset_x;   /* world coordinates of the output's top-left pixel; the whole */
  int32_t  offset_y;   /* rectangle must lie in [INT32_MIN, INT32_MAX] */

  /* Guided generation (see above). NULL = no guide, and the fields below are ignored;
   * else guide_width x guide_height heights in [0, 1], row-major, in layer coordinates:
   * guide pixel (gx, gy) is world pixel (guide_x + gx, guide_y + gy). Not copied: it
   * must stay valid during the call. guide_width, guide_height and guide_scale must be
   * >= 1 when guide is set, else TERRAIN_ERROR_INVALID. */
  const float *guide;
  int          guide_width, guide_height;
  int32_t      guide_x, guide_y; /* world position of the guide's top-left pixel (the
                                  * plug-in passes the layer's offset) */
  int          guide_scale;      /* pixels, >= 1: the level of node spacing s (the largest
                                  * power of two <= guide_scale, at most 2^N) comes from
                                  * the guide; coarser levels are skipped */
} TerrainField;

/* seed 0, iterations 8, roughness 1.0, offset (0, 0); no guide (guide NULL, size 0,
 * position (0, 0), guide_scale 32). */
void          terrain_field_defaults (TerrainField *params);

/* Renders world rectangle [offset_x, offset_x + width) x [offset_y, offset_y + height)
 * into out (width * height floats, row-major), values in [0, 1]. */
TerrainStatus terrain_field (const TerrainField *params, float *out, int width, int height,
                             const TerrainProgress *progress);

#endif
