/* Smooth fractal noise without a lattice, for the landscape's detail. Internal to the core.
 *
 * A sum of octaves: octave k (k = 0..N) is white noise on a grid of spacing 2^(N-k) pixels,
 * uniform in [-1, 1] from terrain_hash of its node, amplitude 2^(-H k) (H the roughness, as
 * the infinite field's), interpolated by the cubic B-spline; octave N + 1 is white noise on
 * the pixels themselves, at half its amplitude. Each octave's grid is shifted by its own
 * offset, a hash of the seed, so the octaves' nodes do not line up. Why not the infinite
 * field (field.h): a midpoint field keeps every coarse node's value and interpolates
 * between them, so its coarse nodes are local extremes: the presets showed a square lattice
 * of dimples where the land is gentle, and a third of their closed pits sat on it (bench
 * README). The B-spline has neither creases nor extremes at its nodes. An octave of spacing
 * s has features about 2 s across, as the midpoint field's level of spacing 2 s had.
 *
 * Zero mean, standard deviation 1/6 over seeds and positions (the infinite field's spread
 * about its 0.5). A pixel's value is a function of the seed, N, H and its position alone:
 * the same bits for any thread count. */
#ifndef TERRAIN_SPLINE_NOISE_H
#define TERRAIN_SPLINE_NOISE_H

#include "terrain-types.h"

#include <stdint.h>

#define TERRAIN_SPLINE_NOISE_MAX_LEVELS 24

/* width x height values into out; N = levels in [0, TERRAIN_SPLINE_NOISE_MAX_LEVELS],
 * roughness H in [0, 2]. */
TerrainStatus terrain_spline_noise (uint32_t seed, int levels, double roughness, float *out,
                                    int width, int height, const TerrainProgress *progress);

#endif
