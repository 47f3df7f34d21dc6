/* How a heightmap looks, in figures (issue 39; the definitions are those of the project's
 * reference "How terrain looks"): what tells generated terrain from real land in a hillshade.
 *
 *  - aniso45: grid alignment. The slope-weighted share of gradient directions (central
 *    differences, one-sided at the border) within 1.5 degrees of one of the 8 grid
 *    directions, over the isotropic share 3/45. 1 is isotropic; straight D8 flow lines,
 *    parallel grooves across filled flats and axis-aligned terraces raise it.
 *  - speckle: grain at the pixel scale. The rms of the 5-point Laplacian of the map over
 *    the rms of the Laplacian of the map averaged in 4 x 4 blocks (the last columns and
 *    rows that make no whole block left out), divided by 16 (the blocks' Laplacian in pixel
 *    units). The map's Laplacian is taken at every cell (an edge cell counting as its own
 *    neighbour off the map), the blocks' at the inner blocks: so the reference measured its
 *    real DEMs and Diamond-Square. About 1 on a smooth map; pixel noise, pits dug by
 *    droplets and one-pixel gullies raise it.
 *  - beta: spectral slope. The least-squares fit of log P(k) = c - beta log k over the
 *    radially averaged power spectrum of the map (its mean taken out, under a Hann window),
 *    over the bins k <= |(kx, ky)| < k + 1, 4 <= k <= min (width, height) / 4 (kx, ky the
 *    frequencies in cycles across the map's width and height). Too low: noisy; too high:
 *    blurred.
 *  - theta and theta_r2: the slope-area exponent and its r^2. After a priority-flood fill
 *    with epsilon, every cell drains to its steepest lower neighbour of 8 (diagonals at
 *    sqrt 2); the channel cells are those whose drainage area is at least a thousandth of
 *    the map, leaving out the cells whose slope the fill made (raised, or draining into a
 *    raised cell) and the flats' (a drop to the receiver of less than one level of the
 *    map's relief in 16 bits, which a 16-bit layer holds level). They are binned by area
 *    in tenths of a decade; theta is minus the least-squares slope of the bins' mean log S
 *    against their mean log A, over the bins of 3 cells or more (S = A^-theta: real rivers
 *    0.3-0.8), and r^2 that fit's.
 *  - pits: closed pits, in percent of the inner cells: cells off the border with no strictly
 *    lower neighbour of 8, on the heights as given (nothing filled). Cells at the map's
 *    lowest height are no pits: they are its sea (or base level), which drains like the
 *    border (an island's sea floor, the land an uplift sketch leaves at 0).
 *
 * Every figure but pits is measured on the heights rescaled to a relief (highest minus
 * lowest) of 0.25 of the width, so none depends on the heights' units; the figures of a map
 * with no relief at all are aniso45 1, speckle 1, beta 0, theta 0, r^2 0 and pits 0.
 * Heights must be finite and the map at least TERRAIN_LOOK_MIN_SIDE on each side, else
 * TERRAIN_ERROR_INVALID and nothing is written. Plain functions: single-threaded,
 * deterministic.
 */
#ifndef TERRAIN_LOOK_H
#define TERRAIN_LOOK_H

#include "terrain-types.h"

/* beta's fit needs 4 <= k <= side / 4 to hold a few k. */
#define TERRAIN_LOOK_MIN_SIDE 32

typedef struct
{
  double aniso45, speckle, beta, theta, theta_r2, pits;
} TerrainLook;

/* All the figures at once. */
TerrainStatus terrain_look_measure (const float *heights, int width, int height,
                                    TerrainLook *look);

TerrainStatus terrain_look_aniso45 (const float *heights, int width, int height,
                                    double *aniso45);
TerrainStatus terrain_look_speckle (const float *heights, int width, int height,
                                    double *speckle);
TerrainStatus terrain_look_beta (const float *heights, int width, int height, double *beta);
TerrainStatus terrain_look_pits (const float *heights, int width, int height, double *pits);
TerrainStatus terrain_look_slope_area (const float *heights, int width, int height,
                                       double *theta, double *r2);

/* The standard hillshade every look is judged in: light from the north-west, 45 degrees up,
 * heights rescaled to a relief of 0.25 of the width (terrain_hillshade's conventions);
 * width * height shades in [0, 1] into out. Same input checks as the figures, except the
 * size: any size the core takes. */
TerrainStatus terrain_look_hillshade (const float *heights, int width, int height, float *out);

#endif
