#include "random.h"

#define PCG_MULTIPLIER 6364136223846793005ULL

void
terrain_rng_init (TerrainRng *rng, uint32_t seed, uint32_t stream)
{
  rng->state = 0;
  rng->increment = ((uint64_t) stream << 1) | 1u;
  terrain_rng_next (rng);
  rng->state += ((uint64_t) terrain_mix32 (seed) << 32) | seed;
  terrain_rng_next (rng);
}

uint32_t
terrain_rng_next (TerrainRng *rng)
{
  uint64_t old = rng->state;
  rng->state = old * PCG_MULTIPLIER + rng->increment;
  uint32_t xorshifted = (uint32_t) (((old >> 18u) ^ old) >> 27u);
  uint32_t rot = (uint32_t) (old >> 59u);
  return (xorshifted >> rot) | (xorshifted << ((-rot) & 31u));
}

double
terrain_rng_unit (TerrainRng *rng)
{
  return terrain_rng_next (rng) * (1.0 / 4294967296.0);
}

uint32_t
terrain_rng_below (TerrainRng *rng, uint32_t bound)
{
  uint64_t m = (uint64_t) terrain_rng_next (rng) * bound;
  uint32_t low = (uint32_t) m;
  if (low < bound)
    {
      uint32_t threshold = (uint32_t) (-bound) % bound;
      while (low < threshold)
        {
          m = (uint64_t) terrain_rng_next (rng) * bound;
          low = (uint32_t) m;
        }
    }
  return (uint32_t) (m >> 32);
}
