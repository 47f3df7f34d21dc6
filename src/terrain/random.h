/* Deterministic, portable randomness for the core. Never rand(): these give the same bits
 * on every platform, run and thread count.
 *
 * Two tools:
 *  - a coordinate hash, for generators whose randomness must be a function of position
 *    (diamond-square, the infinite field): the value at a lattice node never depends on the
 *    order nodes are computed in, or on which rectangle is asked for;
 *  - a small sequential generator (PCG32, O'Neill 2014: 64-bit LCG state, xorshift-rotate
 *    output) for generators that draw a stream of events (faults, circles, particles).
 *
 * The hash is Chris Wellons' "lowbias32" integer finaliser, chained over the inputs; it is
 * a bijection on 32 bits with low avalanche bias, and costs a few multiplies.
 */
#ifndef TERRAIN_RANDOM_H
#define TERRAIN_RANDOM_H

#include <stdint.h>

static inline uint32_t
terrain_mix32 (uint32_t x)
{
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

/* Hash of (seed, x, y, salt). Coordinates are wrapped to 32 bits (two's complement), so
 * negative coordinates are fine. `salt` separates independent streams (e.g. levels). */
static inline uint32_t
terrain_hash (uint32_t seed, int32_t x, int32_t y, uint32_t salt)
{
  uint32_t h = terrain_mix32 (seed ^ (salt * 0x9e3779b9U));
  h = terrain_mix32 (h ^ (uint32_t) x);
  h = terrain_mix32 (h ^ (uint32_t) y * 0x85ebca6bU);
  return h;
}

/* terrain_hash in two parts, for loops over many nodes: the first two rounds depend on
 * (seed, x, salt) only, so a column's part is computed once and every node then costs one
 * round. Bit-identical:
 *   terrain_hash (seed, x, y, salt)
 *     == terrain_hash_finish (terrain_hash_column (seed, x, salt), terrain_hash_row_key (y)) */
static inline uint32_t
terrain_hash_column (uint32_t seed, int32_t x, uint32_t salt)
{
  return terrain_mix32 (terrain_mix32 (seed ^ (salt * 0x9e3779b9U)) ^ (uint32_t) x);
}

static inline uint32_t
terrain_hash_row_key (int32_t y)
{
  return (uint32_t) y * 0x85ebca6bU;
}

static inline uint32_t
terrain_hash_finish (uint32_t column, uint32_t row_key)
{
  return terrain_mix32 (column ^ row_key);
}

/* Uniform float in [-1, 1) from the top 24 bits of a hash: exact in float, no bias. */
static inline float
terrain_hash_to_signed (uint32_t h)
{
  return (float) (int32_t) (h >> 8) * (1.0f / 8388608.0f) - 1.0f;
}

/* Uniform float in [0, 1) from the top 24 bits of a hash. */
static inline float
terrain_hash_to_unit (uint32_t h)
{
  return (float) (h >> 8) * (1.0f / 16777216.0f);
}

typedef struct
{
  uint64_t state;
  uint64_t increment; /* odd; selects one of 2^63 streams */
} TerrainRng;

/* Seeds a generator; different `stream`s with the same seed are independent sequences. */
void     terrain_rng_init (TerrainRng *rng, uint32_t seed, uint32_t stream);
uint32_t terrain_rng_next (TerrainRng *rng);
/* Uniform double in [0, 1) with 32 random bits. */
double   terrain_rng_unit (TerrainRng *rng);
/* Uniform integer in [0, bound) without modulo bias (Lemire's method); bound >= 1. */
uint32_t terrain_rng_below (TerrainRng *rng, uint32_t bound);

#endif
