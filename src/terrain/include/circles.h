/* Circles (lighthouse3d terrain tutorial, "The Circles Algorithm"; reference notes
 * section 5.2).
 *
 * Conventions (documented in the procedure's help):
 *  - Start from a flat field. Each iteration picks a centre, uniformly among the pixels,
 *    and adds a raised-cosine bump of the given diameter D: with pd = 2 * r / D, r the
 *    distance from the centre's pixel to a pixel, h += sign * (disp/2 + cos(pd * pi) * disp/2)
 *    where pd <= 1, nothing beyond. The bump is disp high at the centre and falls smoothly
 *    to 0 at distance D/2. Pixels at exactly D/2 get the formula's 0.
 *  - Direction: RANDOM draws the sign per circle (the tutorial's code; its page only
 *    raises), RAISE always adds, LOWER always subtracts. Centres and signs are drawn
 *    whatever the direction, so one seed places the same circles in every direction.
 *  - disp falls linearly from displacement_start (first iteration) to displacement_end
 *    over the first decay_iterations iterations, then stays at displacement_end.
 *  - terrain_circles stretches the sum onto [0, 1] (min to 0, max to 1), so only the ratio
 *    of the displacements matters; a field with no relief is 0.5 everywhere.
 *    terrain_circles_raw leaves the sum as it is, in units of displacement.
 *  - The bump is read from a table of 4096 segments over pd^2 by linear interpolation
 *    (displacement.h), so no pixel needs a sqrt or a cosine: within 3e-8 * disp of the
 *    formula. Each circle touches only the pixels inside it.
 *  - Randomness is the seed's PCG32 stream (random.h): same seed, same bits everywhere.
 *    The circles do not depend on the iteration count, so n+1 iterations add one circle to
 *    the n-iteration raw field.
 */
#ifndef TERRAIN_CIRCLES_H
#define TERRAIN_CIRCLES_H

#include "terrain-types.h"
#include "displacement.h"

typedef enum
{
  TERRAIN_CIRCLES_RANDOM,
  TERRAIN_CIRCLES_RAISE,
  TERRAIN_CIRCLES_LOWER
} TerrainCirclesDirection;

typedef struct
{
  uint32_t                seed;
  int                     iterations;         /* 1..TERRAIN_DISPLACEMENT_MAX_ITERATIONS; default 1000 */
  double                  diameter;           /* pixels, (0, 2 * TERRAIN_MAX_SIDE]; default 64 */
  TerrainCirclesDirection direction;          /* default TERRAIN_CIRCLES_RANDOM */
  double                  displacement_start; /* [0, TERRAIN_DISPLACEMENT_MAX]; default 1.0 */
  double                  displacement_end;   /* [0, TERRAIN_DISPLACEMENT_MAX]; default 0.1 */
  int                     decay_iterations;   /* 0..TERRAIN_DISPLACEMENT_MAX_ITERATIONS; default 100 */
} TerrainCircles;

void          terrain_circles_defaults (TerrainCircles *params);

/* Renders into out (width * height floats), values in [0, 1]. */
TerrainStatus terrain_circles (const TerrainCircles *params, float *out, int width, int height,
                               const TerrainProgress *progress);

/* The same field before normalisation: out starts at 0 and every circle adds its signed
 * bump, so RAISE gives values >= 0 and a single RAISE circle peaks at exactly
 * displacement_start. For tests and for callers that combine fields themselves. */
TerrainStatus terrain_circles_raw (const TerrainCircles *params, float *out, int width,
                                   int height, const TerrainProgress *progress);

#endif
