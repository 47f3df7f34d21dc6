/* Hydraulic erosion watched droplet step by droplet step: the tests check what droplets
 * carry against what the map loses (hydraulic-erosion.h's accounting). Internal. */
#ifndef TERRAIN_HYDRAULIC_OBSERVER_H
#define TERRAIN_HYDRAULIC_OBSERVER_H

#include "hydraulic-erosion.h"

/* A droplet after one of its steps, for an observer: called once after
 * each step it completes (alive 1), and once more when it stops (alive 0: it left the map,
 * or dropped all its sediment where it stands). */
typedef struct
{
  int    droplet;   /* 0 .. droplets - 1 */
  int    steps;     /* the steps it completed: 1 .. max_steps, 0 .. max_steps when it stops */
  int    alive;
  double x, y;      /* where it is (its last position on the map once it left) */
  double sediment;  /* what it carries now (0 once it stopped) */
  double eroded;    /* totals of the run so far: height taken from pixels, */
  double deposited; /* height given to pixels, */
  double lost;      /* sediment carried off the map or that could not be placed */
} TerrainDropletStep;

typedef void (*TerrainDropletObserver) (void *user, const TerrainDropletStep *step);

/* terrain_hydraulic_erosion, calling observer (user, step) after every step of every
 * droplet (and when it stops) when observer is not NULL. */
TerrainStatus terrain_hydraulic_erosion_observed (const TerrainHydraulicErosion *params,
                                                  TerrainDropletObserver observer, void *user,
                                                  float *data, int width, int height,
                                                  const TerrainProgress *progress);

/* The code that runs the droplets, for the tests that compare the ways to the same bits:
 * the best this CPU has (the default), or at most the instruction set named (the droplets
 * in the lanes of AVX2 vectors; two streams of droplets with the SSE2 brush; the same with
 * the portable brush). A setting for the process, not thread-safe: set it between runs. */
typedef enum
{
  TERRAIN_HYDRAULIC_BEST,
  TERRAIN_HYDRAULIC_AVX2,
  TERRAIN_HYDRAULIC_SSE2,
  TERRAIN_HYDRAULIC_PORTABLE
} TerrainHydraulicCode;

void terrain_hydraulic_use (TerrainHydraulicCode code);
/* The widest lanes run a batch when it holds at least `tiles` tiles a thread (0: always),
 * else two streams do (a negative number: the default choice between AVX-512's lanes,
 * AVX2's and streams, by the tiles a thread): the same bits either way. Not thread-safe
 * either. */
void terrain_hydraulic_lanes_from (int tiles);

#endif
