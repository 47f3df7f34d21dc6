/* Diamond-square (Fournier, Fussell & Carpenter 1982; the write-ups in shared seeds 000,
 * 001 and 003), for any width x height.
 *
 * Conventions (documented in the procedure's help):
 *  - Roughness H: the random offset added at a level is uniform in [-r, r] and r is
 *    multiplied by 2^-H after every diamond+square level (seed 003 and the lighthouse3d
 *    page). H = 1 is the classic look, small H is spiky, large H is rolling. This is the
 *    Hurst exponent of fractional Brownian motion: E[(h(x+d) - h(x))^2] ~ d^(2H).
 *  - Randomness is a hash of the lattice node and the seed (random.h), so a value never
 *    depends on computation order.
 *  - The lattice is a grid of square coarse cells of side 2^k covering the layer; the
 *    coarse corners are the "corners". Non-wrapping modes compute the (cx*2^k + 1) x
 *    (cy*2^k + 1) lattice and crop it. Wrap computes a periodic lattice; when its period is
 *    not the layer size it is resampled periodically (bilinear), so the result tiles at
 *    the layer's exact size.
 *  - Shared edge: the result repeats with period (width - 1) x (height - 1), so its last
 *    column equals its first and its last row its first, bit for bit: game engines' tiles
 *    (Unity's 2^n + 1, Unreal's 1009, 2017, ...) share their border with the neighbour.
 *    The (width - 1) x (height - 1) block is exactly what wrap renders at that size (a
 *    periodic lattice, resampled when that size is no multiple of a power of two), its
 *    first column and row copied after it; a side of 1 has period 1. With a guide, the
 *    guide's last column and row are not read.
 *  - Square-square (Miller, "The Definition and Rendering of Terrain Maps", SIGGRAPH
 *    1986): every level makes a new grid at twice the resolution whose points are the
 *    biquadratic B-spline weights 9/16, 3/16, 3/16, 1/16 of the parent cell's corners (the
 *    nearest corner weighs most), plus an offset of range 2^-(H level) added to every new
 *    point. It approximates rather than interpolates, so no coarse grid line survives as
 *    a crease. It has no border rule (every point has a whole parent cell): "average" and
 *    "mirror" give the same result; "wrap" makes it periodic. The same lattice plan, crop
 *    or periodic resample, and normalisation as diamond-square apply.
 *  - Guided generation: with a guide (the layer the user painted), the lattice nodes at the
 *    spacing s (the largest power of two <= guide_scale) take the guide's mean over an
 *    s x s box around them, in the same units as random corners (height 0..1 -> -1..1);
 *    coarser levels are not generated, finer ones add their usual offsets (range
 *    2^-(H level) counted from the coarsest cell), so detail scales with roughness and
 *    follows the painted shape. Corners are ignored and the result is stretched onto
 *    [0, 1]. Diamond-square subdivision only.
 *  - Output is in [0, 1]: with random corners the min..max range is stretched onto [0, 1];
 *    with fixed corners the relief is scaled the same way and shifted so the corners sit
 *    exactly at corner_height, then clamped (corner height 0 gives flat sea around islands).
 */
#ifndef TERRAIN_DIAMOND_SQUARE_H
#define TERRAIN_DIAMOND_SQUARE_H

#include "terrain-types.h"

typedef enum
{
  TERRAIN_EDGES_AVERAGE, /* border points average their 3 existing neighbours */
  TERRAIN_EDGES_WRAP,    /* the missing neighbour comes from the opposite side: tiles */
  TERRAIN_EDGES_MIRROR,  /* the missing neighbour is the reflection of the opposite one */
  TERRAIN_EDGES_SHARED_EDGE /* wrap with period width - 1, height - 1: the last column and
                               row equal the first (game engines' tiles) */
} TerrainEdges;

typedef enum
{
  TERRAIN_CORNERS_RANDOM,
  TERRAIN_CORNERS_FIXED
} TerrainCorners;

typedef enum
{
  TERRAIN_SUBDIVISION_DIAMOND_SQUARE, /* interpolating: old points stay, creases on the axes */
  TERRAIN_SUBDIVISION_SQUARE_SQUARE   /* Miller 1986: approximating, crease-free */
} TerrainSubdivision;

typedef struct
{
  uint32_t       seed;
  double         roughness;     /* H, 0..2 */
  TerrainEdges   edges;
  TerrainCorners corners;
  double         corner_height; /* 0..1, with TERRAIN_CORNERS_FIXED */
  TerrainSubdivision subdivision;
  int            square_half_step; /* diamond-square: square-step offsets get 2^(-H/2) more
                                      decay (default 1); 0 is the lighthouse3d code's MPD,
                                      one offset range for both steps of a level */
  const float   *guide;         /* NULL, or width x height heights in [0, 1]: the coarse shape */
  int            guide_scale;   /* pixels (>= 1): with a guide, lattice levels whose spacing is
                                   at least this come from the guide, finer ones add detail */
} TerrainDiamondSquare;

void          terrain_diamond_square_defaults (TerrainDiamondSquare *params);

/* Renders into out (width * height floats). */
TerrainStatus terrain_diamond_square (const TerrainDiamondSquare *params,
                                      float *out, int width, int height,
                                      const TerrainProgress *progress);

#endif
