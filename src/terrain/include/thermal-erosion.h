/* Thermal erosion (thermal weathering, talus slumping): wherever the slope between two
 * neighbouring cells is steeper than the talus, material slides from the higher cell to the
 * lower one. Works in place on a float heightmap of any finite values; finite input always
 * gives finite output.
 *
 * Conventions (documented in the procedure's help):
 *  - Units: one height unit is the layer's full range (heights are nominally 0..1); the
 *    talus is a slope in height units per pixel. A cell's neighbours are its 4 axial ones
 *    (distance 1) or those and the 4 diagonal ones (distance sqrt 2). A pair of neighbours
 *    is steep when their height difference e = h_j - h_k exceeds t = talus * distance in
 *    size; its excess is what exceeds it, x_jk = e - clamp (e, -t, t) (0 when not steep,
 *    and x_kj = -x_jk). There is no neighbour across the border of the map, so nothing
 *    flows out of it or into it.
 *  - One iteration, every cell computed from the heights before it (so the result does not
 *    depend on the order cells are visited in, or on the number of threads):
 *        n_j    = the number of steep pairs cell j is in
 *        eta_jk = strength / (2 max (n_j, n_k))
 *        h_j'   = h_j - sum over neighbours k of eta_jk x_jk
 *    eta_jk = eta_kj, so what j gives k is exactly what k takes from j: the total height is
 *    conserved (up to float rounding). A steep pair on its own (n = 1 at both ends) swaps
 *    strength / 2 of its excess from each side, so strength 1 brings it exactly down to the
 *    talus in one iteration; a peak whose N steep neighbours are all lower by the same
 *    excess x (and in no more steep pairs than the peak) gives away strength * x / 2 in
 *    total, like the classic rule with c = strength / 2 (Musgrave 1989: move c (d_max - T)
 *    split in proportion to the differences). Unlike that rule, a pit with N higher
 *    neighbours takes at most strength / 2 of the largest excess in total, never N times
 *    it.
 *  - Stability: the eta_jk at a cell sum to at most strength / 2 <= 1/2, so every new height
 *    is a weighted mean of the old heights of the cell and its neighbours (each moved by at
 *    most the talus towards the cell): the map's minimum never falls and its maximum never
 *    rises, and nothing can blow up. While the set of steep pairs stays the same, the update
 *    is linear with eigenvalues in [1 - strength, 1]: no pattern flips sign from one
 *    iteration to the next (no oscillation). And sum h^2 falls by at least
 *    (2 - strength) * sum over pairs of eta x^2 every iteration while the total is kept, so
 *    for strength > 0 every excess tends to 0: enough iterations leave no slope steeper
 *    than the talus (up to rounding). Once an iteration leaves every height as it was, the
 *    ones after it would too: they are skipped.
 *  - Determinism: the sums over the neighbours are taken in pairs of opposite neighbours
 *    ((N + S) + (W + E)) + ((NW + SE) + (NE + SW)), which a rotation or mirror of the map
 *    only permutes, so the rotated or mirrored map gives the rotated or mirrored result bit
 *    for bit, whatever the thread count.
 *  - Maps whose largest magnitude exceeds FLT_MAX / 2 (differences would overflow) are
 *    worked on at half scale, which is exact except in the last bits of subnormal values.
 */
#ifndef TERRAIN_THERMAL_EROSION_H
#define TERRAIN_THERMAL_EROSION_H

#include "terrain-types.h"

typedef enum
{
  TERRAIN_NEIGHBOURHOOD_4, /* the 4 axial neighbours */
  TERRAIN_NEIGHBOURHOOD_8  /* and the 4 diagonal ones */
} TerrainNeighbourhood;

#define TERRAIN_THERMAL_MAX_ITERATIONS 10000

typedef struct
{
  int                  iterations;    /* 1..TERRAIN_THERMAL_MAX_ITERATIONS */
  double               talus;         /* 0..1 height units per pixel (1 = the layer's full
                                       * range per pixel) */
  double               strength;      /* 0..1: share of a lone steep pair's excess moved
                                       * per iteration (0 changes nothing) */
  TerrainNeighbourhood neighbourhood;
} TerrainThermalErosion;

/* 50 iterations, talus 0.01, strength 0.5, 8 neighbours. */
void          terrain_thermal_erosion_defaults (TerrainThermalErosion *params);

/* Erodes data (width * height floats) in place. Every parameter is checked before data is
 * touched. On TERRAIN_CANCELLED the data holds the result of some number of whole
 * iterations. */
TerrainStatus terrain_thermal_erosion (const TerrainThermalErosion *params, float *data,
                                       int width, int height,
                                       const TerrainProgress *progress);

#endif
