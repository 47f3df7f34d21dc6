/* Smoothing filters for an existing heightmap: Laplacian, FIR "erosion" and matrix
 * (lighthouse3d tutorial, shared seed 003). All three work in place on a float heightmap of
 * any finite values; finite input always gives finite output.
 *
 * Conventions (documented in the procedure's help):
 *  - Laplacian: each iteration moves every point half way towards the mean of its 4
 *    neighbours, h += 1/2 (mean4 - h), i.e. the point keeps 1/2 of itself and takes 1/8 of
 *    each neighbour. A neighbour outside the map counts as the point itself (a mirror at the
 *    border: no height flows across it), so the mean height of the map never changes.
 *    Half way, and not all the way: replacing a point by mean4 keeps a checkerboard pattern
 *    for ever (it only flips sign), half way damps every pattern. 16 iterations (seed 003's
 *    default) soften without flattening.
 *  - FIR: the tutorial page's "band" filter, h[i] = h[i-1] (1 - k) + h[i] k, swept along
 *    every row left to right and then right to left, and along every column top to bottom
 *    and then bottom to top; each sweep uses the already updated neighbour. k = 1 leaves
 *    the map unchanged, smaller k smooths more, k = 0 copies the first point of each line
 *    along it. (The tutorial's code weights the other way round and skips one of the four
 *    sweeps; this follows the page.) One iteration is all four sweeps.
 *  - Matrix: every point becomes the weighted sum of its 3x3 or 5x5 neighbourhood, divided
 *    by the sum of the weights used. Always divided, also inside the map, so only the ratios
 *    of the weights matter: all ones is the same filter as all 1/9. Near the border, taps
 *    outside the map are left out and the division is by the weights that remain. A kernel
 *    whose weights sum to zero (edge detectors), or whose remaining weights sum to zero at
 *    some border point of this map, is rejected.
 */
#ifndef TERRAIN_SMOOTH_H
#define TERRAIN_SMOOTH_H

#include "terrain-types.h"

#include <stddef.h>

typedef enum
{
  TERRAIN_SMOOTH_LAPLACIAN,
  TERRAIN_SMOOTH_FIR,
  TERRAIN_SMOOTH_MATRIX
} TerrainSmoothMethod;

typedef enum
{
  TERRAIN_KERNEL_BOX_3,   /* 3x3 mean */
  TERRAIN_KERNEL_GAUSS_3, /* 3x3 binomial: 1 2 1 / 2 4 2 / 1 2 1 */
  TERRAIN_KERNEL_BOX_5,   /* 5x5 mean */
  TERRAIN_KERNEL_GAUSS_5, /* 5x5 binomial: (1 4 6 4 1) x (1 4 6 4 1) */
  TERRAIN_KERNEL_CUSTOM   /* TerrainSmooth.custom */
} TerrainKernel;

#define TERRAIN_SMOOTH_MAX_ITERATIONS 1000

typedef struct
{
  TerrainSmoothMethod method;
  int                 iterations;  /* 1..TERRAIN_SMOOTH_MAX_ITERATIONS */
  double              k;           /* FIR: 0..1, share a point keeps; 1 = unchanged */
  TerrainKernel       kernel;      /* matrix: a named kernel or CUSTOM */
  float               custom[25];  /* CUSTOM: row-major custom_size x custom_size weights in
                                    * the first custom_size^2 entries */
  int                 custom_size; /* CUSTOM: 3 or 5 */
} TerrainSmooth;

/* Laplacian, 16 iterations, k = 0.5, kernel GAUSS_3, custom = the 3x3 binomial. */
void          terrain_smooth_defaults (TerrainSmooth *params);

/* Smooths data (width * height floats) in place. Every parameter, and the custom kernel
 * when it is used, is checked before data is touched. On TERRAIN_CANCELLED the data is
 * partly smoothed. */
TerrainStatus terrain_smooth (const TerrainSmooth *params, float *data, int width, int height,
                              const TerrainProgress *progress);

/* The weights of a named kernel, row-major in the first size^2 entries of kernel (the rest
 * set to 0). TERRAIN_ERROR_INVALID for CUSTOM or an unknown value. */
TerrainStatus terrain_kernel_named (TerrainKernel kernel, float out[25], int *size);

/* What is wrong with a custom kernel's text (terrain_kernel_parse). */
typedef enum
{
  TERRAIN_KERNEL_FINE,
  TERRAIN_KERNEL_EMPTY,         /* no number at all */
  TERRAIN_KERNEL_NOT_A_NUMBER,  /* item `item` is not a plain decimal number */
  TERRAIN_KERNEL_OUT_OF_RANGE,  /* number `item` is beyond float range */
  TERRAIN_KERNEL_SEPARATOR,     /* after number `item` (0: before the first): a comma too
                                 * many, or numbers run together ("1-2") */
  TERRAIN_KERNEL_COUNT,         /* `count` numbers (or more than 25): not 9 or 25 */
  TERRAIN_KERNEL_SUM            /* the weights sum to `sum`, (nearly) 0 next to `magnitude` */
} TerrainKernelProblem;

typedef struct
{
  TerrainKernelProblem problem;
  int                  item;      /* 1-based position of the number concerned */
  size_t               offset;    /* where in the text the problem starts */
  int                  count;     /* numbers read */
  double               sum;       /* of the weights, and of their absolute values */
  double               magnitude;
} TerrainKernelFault;

/* Parses a custom kernel typed by the user: 9 numbers (3x3) or 25 numbers (5x5), row by
 * row, separated by white space and/or one comma ("1 2 1  2 4 2  1 2 1", "1,2,1,2,4,2,1,2,1",
 * a comma after the last number is fine). Numbers are plain decimals with an optional
 * exponent ("-0.5", ".25", "1e-2"); '.' is the decimal point whatever the locale, so a comma
 * always separates. Anything else - another count, other characters, an empty string, "nan",
 * "inf", a value beyond float range, weights summing to (nearly) zero (|sum| <= 1e-6 times
 * the sum of absolute weights) - gives TERRAIN_ERROR_INVALID, says what in *fault (when not
 * NULL), and leaves kernel and size untouched. On success kernel holds the weights as
 * terrain_kernel_named() lays them out. */
TerrainStatus terrain_kernel_parse (const char *text, float kernel[25], int *size,
                                    TerrainKernelFault *fault);

/* Whether a size x size kernel can smooth a width x height map: its weights are finite and
 * the weights that fall on the map never sum to (nearly) 0 at any point of it, border
 * included (terrain_smooth refuses the kernel otherwise). */
int           terrain_kernel_usable (const float *kernel, int size, int width, int height);

#endif
