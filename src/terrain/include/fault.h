/* Fault formation (lighthouse3d terrain tutorial, "The Fault Algorithm", "Two Simple
 * Variations"; reference notes section 5.1).
 *
 * Conventions (documented in the procedure's help):
 *  - Start from a flat field. Each iteration draws a random line and adds a profile of the
 *    signed distance t of every pixel to that line.
 *  - The line is a*x + b*y = c with a = cos w, b = sin w, w uniform in [0, 2 pi) and c
 *    uniform in [-d, d], d = sqrt(W^2 + H^2) / 2 the half-diagonal. x (columns, rightwards)
 *    and y (rows, downwards) are measured from the image centre ((W-1)/2, (H-1)/2) to pixel
 *    centres, and t = a*x + b*y - c. The tutorial's page writes a = sin v, b = cos v and
 *    c in [-D/2, D/2] with D the diagonal; its code writes a = cos w and c in [-d, d],
 *    measures from the integer pixel (W/2, H/2) and puts the row first. All of these draw
 *    the same lines; we follow the code, with x the column and an exact centre.
 *  - Profiles (pd = t / wave_size):
 *      STEP:   +disp where t > 0, -disp elsewhere (the basic algorithm);
 *      SINE:   -disp/2 + disp * sin(pd) with pd clamped to [0, pi/2]: a ramp from -disp/2
 *              to +disp/2 over pi/2 * wave_size pixels on the positive side of the line
 *              (the code clamps at 1.57, which leaves a 3e-7 jump; we use pi/2);
 *      COSINE: disp * (1 + cos(pd)) with pd clamped to [-pi, pi]: a ridge
 *              2 pi * wave_size pixels wide along the line, 2*disp high, 0 beyond. The
 *              tutorial's code also subtracts waveSize / gridWidth from every pixel: a
 *              uniform shift that normalisation removes, so it is left out.
 *    The smooth profiles are read from a table of 4096 segments across the band by linear
 *    interpolation (displacement.h): within 3e-7 * disp of the formula for COSINE, 2e-8 *
 *    disp for SINE. Pixels outside the band get the constant exactly.
 *  - disp falls linearly from displacement_start (first iteration) to displacement_end
 *    over the first decay_iterations iterations, then stays at displacement_end.
 *  - Output is the sum stretched onto [0, 1] (min to 0, max to 1), so only the ratio of
 *    the displacements matters, not their size. A field with no relief (every line missed
 *    the image, or 1x1) is 0.5 everywhere.
 *  - Randomness is the seed's PCG32 stream (random.h): same seed, same bits everywhere.
 *    The lines do not depend on the iteration count, so n+1 iterations add one fault to
 *    the n-iteration terrain (before normalisation).
 */
#ifndef TERRAIN_FAULT_H
#define TERRAIN_FAULT_H

#include "terrain-types.h"
#include "displacement.h"

typedef enum
{
  TERRAIN_FAULT_STEP,
  TERRAIN_FAULT_SINE,
  TERRAIN_FAULT_COSINE
} TerrainFaultProfile;

typedef struct
{
  uint32_t            seed;
  int                 iterations;         /* 1..TERRAIN_DISPLACEMENT_MAX_ITERATIONS; default 400 */
  TerrainFaultProfile profile;            /* default TERRAIN_FAULT_STEP */
  double              wave_size;          /* pixels, (0, TERRAIN_MAX_SIDE]; SINE, COSINE; default 3 */
  double              displacement_start; /* [0, TERRAIN_DISPLACEMENT_MAX]; default 1.0 */
  double              displacement_end;   /* [0, TERRAIN_DISPLACEMENT_MAX]; default 0.1 */
  int                 decay_iterations;   /* 0..TERRAIN_DISPLACEMENT_MAX_ITERATIONS; default 100 */
} TerrainFault;

void          terrain_fault_defaults (TerrainFault *params);

/* Renders into out (width * height floats), values in [0, 1]. */
TerrainStatus terrain_fault (const TerrainFault *params, float *out, int width, int height,
                             const TerrainProgress *progress);

#endif
