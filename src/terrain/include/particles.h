/* Particle deposition (Jason Shankel, "Game Programming Gems"; the lighthouse3d tutorial in
 * shared reference section 5.4).
 *
 * Conventions (documented in the procedure's help):
 *  - Walk: each of `sites` drop sites starts a random walk at a random cell. Every particle
 *    first moves the walk one step in one of 4 random directions (+x, -x, +y, -y), then is
 *    dropped where the walk stands; the start cell itself gets nothing. The map is a torus:
 *    a walk leaving one side enters from the opposite one, and the map tiles. The next
 *    particle continues from where the last one was dropped (its landing cell, before any
 *    roll), so the walk never depends on the terrain and both modes drop particles on the
 *    same cells for the same seed.
 *  - Sites: the particles are split evenly between the sites (the first `particles % sites`
 *    sites get one more); with more sites than particles the extra sites stay empty. Each
 *    site is a separate island unless walks meet.
 *  - Stick: the particle stays where it lands. Rough, spiky relief.
 *  - Roll: a particle landing on cell A moves to the lowest of A's 8 neighbours (torus
 *    neighbours, as for the walk) if that neighbour is strictly lower than A, and repeats
 *    until no neighbour is lower; ties between equally low neighbours are broken at random.
 *    Heights strictly decrease along a roll, so it always ends. The result never has a
 *    cell more than one particle above its lowest neighbour: smooth, sand-pile slopes.
 *    This fixes the tutorial's code, which only tested the 4 diagonal neighbours and moved
 *    to the last lower one it found rather than the lowest.
 *  - Each particle adds `particle_height` to the cell where it settles; heights are counted
 *    exactly (an integer count per cell), so the raw relief sums to exactly
 *    particles * particle_height (up to the float rounding of each cell).
 *  - Caldera (Shankel's volcano): with depth c > 0, every cell higher than the rim level
 *    r = (1 - c/2) * peak, where peak is the highest cell of the whole map, is mirrored
 *    about it: h -> 2r - h. The summit becomes a crater whose floor lies at (1 - c) * peak:
 *    c = 1 puts the floor at zero. With several sites only peaks that reach the rim level
 *    get a crater.
 *  - Output: the relief (after the caldera) is stretched onto [0, 1] with terrain_normalize;
 *    with normalize = 0 the raw heights (particle counts times particle_height) are kept.
 *  - Randomness: PCG32 streams from random.h seeded by `seed`; the same parameters and size
 *    give the same bits everywhere.
 */
#ifndef TERRAIN_PARTICLES_H
#define TERRAIN_PARTICLES_H

#include "terrain-types.h"

#define TERRAIN_PARTICLES_MAX_PARTICLES 100000000
#define TERRAIN_PARTICLES_MAX_SITES     1000000
#define TERRAIN_PARTICLES_MAX_HEIGHT    1e6

typedef enum
{
  TERRAIN_PARTICLES_ROLL,  /* roll down to the lowest lower neighbour until stable */
  TERRAIN_PARTICLES_STICK  /* stay where dropped */
} TerrainParticleMode;

typedef struct
{
  uint32_t            seed;
  int                 particles;       /* 1..TERRAIN_PARTICLES_MAX_PARTICLES */
  TerrainParticleMode mode;
  int                 sites;           /* drop sites (islands), 1..TERRAIN_PARTICLES_MAX_SITES */
  double              particle_height; /* raw height of one particle, (0, MAX_HEIGHT] */
  double              caldera;         /* crater depth 0..1; 0 = no crater */
  int                 normalize;       /* non-zero: stretch onto [0, 1]; 0: raw heights */
} TerrainParticles;

void          terrain_particles_defaults (TerrainParticles *params);

/* Renders into out (width * height floats). */
TerrainStatus terrain_particles (const TerrainParticles *params,
                                 float *out, int width, int height,
                                 const TerrainProgress *progress);

#endif
