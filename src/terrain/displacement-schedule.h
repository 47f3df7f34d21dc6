/* What the iterated-displacement generators (fault formation, circles) share inside the
 * core: the tutorial's displacement schedule, and a sampled-profile table for their smooth
 * profiles. Header-only.
 */
#ifndef TERRAIN_DISPLACEMENT_SCHEDULE_H
#define TERRAIN_DISPLACEMENT_SCHEDULE_H

#include "displacement.h"

#define TERRAIN_PI 3.14159265358979323846

/* Displacement of iteration k (0-based): falls linearly from `start` to `end` over the
 * first `decay_iterations` iterations, then stays at `end` (lighthouse3d's maxDisp, minDisp
 * and itMinDisp). The tutorial's code counts iterations from 1, so its first iteration is
 * already one step below maxDisp; here iteration 0 gets exactly `start`. */
static inline double
terrain_displacement_at (double start, double end, int decay_iterations, int k)
{
  if (k >= decay_iterations)
    return end;
  return start + (end - start) * ((double) k / decay_iterations);
}

/* 1 when an iteration count and a schedule are in their documented ranges (NaN fails). */
static inline int
terrain_displacement_valid (int iterations, double start, double end, int decay_iterations)
{
  return iterations >= 1 && iterations <= TERRAIN_DISPLACEMENT_MAX_ITERATIONS &&
         start >= 0.0 && start <= TERRAIN_DISPLACEMENT_MAX &&
         end >= 0.0 && end <= TERRAIN_DISPLACEMENT_MAX &&
         decay_iterations >= 0 && decay_iterations <= TERRAIN_DISPLACEMENT_MAX_ITERATIONS;
}

/* A profile f sampled on [0, 1] at TERRAIN_PROFILE_SEGMENTS + 1 points and read back by
 * linear interpolation: a handful of operations per pixel instead of a cosine, for the
 * smooth profiles of both generators. The error is at most max|f''| / (8 * 4096^2)
 * = 7.5e-9 * max|f''|; the generators' headers give the bound for each profile. Doubles
 * (32 KiB) rather than floats: the float-to-double conversions cost ~10 % of the fault
 * generator's time. */
#define TERRAIN_PROFILE_SEGMENTS 4096

typedef struct
{
  double sample[TERRAIN_PROFILE_SEGMENTS + 2];
} TerrainProfileTable;

static inline void
terrain_profile_table_fill (TerrainProfileTable *table, double (*f) (double))
{
  for (int i = 0; i <= TERRAIN_PROFILE_SEGMENTS; i++)
    table->sample[i] = f ((double) i / TERRAIN_PROFILE_SEGMENTS);
  /* A read at exactly v = 1 lands on the last sample with weight 0 on this copy. */
  table->sample[TERRAIN_PROFILE_SEGMENTS + 1] = table->sample[TERRAIN_PROFILE_SEGMENTS];
}

/* f(v / TERRAIN_PROFILE_SEGMENTS), with v clamped to [0, TERRAIN_PROFILE_SEGMENTS]: beyond
 * the ends it returns exactly the end samples, which callers use as the profile's constant
 * value outside its band. */
static inline double
terrain_profile_table_at (const TerrainProfileTable *table, double v)
{
  v = v > 0.0 ? (v < TERRAIN_PROFILE_SEGMENTS ? v : TERRAIN_PROFILE_SEGMENTS) : 0.0;
  const int    i = (int) v;
  const double below = table->sample[i], above = table->sample[i + 1];
  return below + (v - i) * (above - below);
}

#endif
