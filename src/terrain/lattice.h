/* The lattice diamond-square and square-square subdivide: planning it over a layer of
 * any size, and copying it onto the layer. Internal to the core. */
#ifndef TERRAIN_LATTICE_H
#define TERRAIN_LATTICE_H

#include "random.h"

#include <stddef.h>

/* The lattice: cells_x x cells_y square cells of side `cell` (a power of two); node (i, j)
 * is v[j * nodes_x + i]. A periodic lattice has cells * cell nodes per axis (node n wraps
 * to node 0); a bounded one has one more. */
typedef struct
{
  int    cell, cells_x, cells_y;
  int    nodes_x, nodes_y;
  int    periodic;
  float *v;
} Lattice;

/* At most this many lattice nodes per layer pixel along an axis: larger coarse cells would
 * waste memory (bounded) or smear the finest detail when resampling (wrap). */
#define MAX_NODES_PER_PIXEL 1.5
/* With wrap, a cell that divides both sides exactly is preferred while the coarse grid
 * stays at most this many cells across the shorter side. */
#define MAX_EXACT_CELLS 8

/* Plans cells and nodes for a width x height layer (v is left NULL). */
void lattice_plan (Lattice *l, int width, int height, int periodic);

/* Allocates l->v for nodes_x x nodes_y floats; 0 when it cannot. */
int  lattice_alloc (Lattice *l);

/* Copies the lattice onto the layer: a crop for bounded lattices and exact periodic ones,
 * a periodic bilinear resample when the period differs from the layer size. */
void lattice_to_layer (const Lattice *l, float *out, int width, int height);

static inline float *
lattice_row (const Lattice *l, int j)
{
  return l->v + (size_t) j * l->nodes_x;
}

/* The random offset of node (i, j) of stream `salt`: uniform in [-amplitude, amplitude). */
static inline float
lattice_offset (uint32_t seed, int i, int j, uint32_t salt, float amplitude)
{
  return amplitude * terrain_hash_to_signed (terrain_hash (seed, i, j, salt));
}

#endif
