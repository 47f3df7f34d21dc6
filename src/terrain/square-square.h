/* Miller's square-square subdivision, the crease-free sibling of diamond-square (see
 * diamond-square.h for the conventions). Internal to the core. */
#ifndef TERRAIN_SQUARE_SQUARE_H
#define TERRAIN_SQUARE_SQUARE_H

#include "diamond-square.h"
#include "lattice.h"

/* Plans, allocates and fills a lattice covering width x height (periodic for wrap) with
 * raw square-square heights; the caller copies it onto the layer and frees l->v. */
TerrainStatus terrain_square_square_lattice (Lattice *l, int width, int height, int periodic,
                                             const TerrainDiamondSquare *p,
                                             const TerrainProgress *progress);

#endif
