/* libFuzzer harness: terrain_particles over its whole parameter space: 1..1e8 particles
 * (the time budget cancels long runs: a report comes every 65536 particles), 1..1e6 sites,
 * both modes (particle counts scaled down to the work budget except in heavy executions,
 * fuzz-common.h), particle heights from just above 0 to 1e6, caldera 0..1, normalised or raw.
 *
 * Checks: the status promises; normalised: every pixel in [0, 1]; raw: every value finite
 * and >= 0 (counts times a positive height, and a crater floor at (1 - c) * peak >= 0);
 * raw without caldera: the relief sums to particles * particle_height "up to the float
 * rounding of each cell", and in roll mode "the result never has a cell more than one
 * particle above its lowest neighbour" (8 torus neighbours). */
#include "fuzz-common.h"

#include "particles.h"


/* The particle count of a raw cell (exact while counts stay below 2^22). */
static long
count_at (const float *out, size_t i, double height)
{
  return lround (out[i] / height);
}

static void
check_roll_slopes (const float *out, int w, int h, double height)
{
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        const long here = count_at (out, (size_t) y * w + x, height);
        long lowest = here;
        for (int dy = -1; dy <= 1; dy++)
          for (int dx = -1; dx <= 1; dx++)
            {
              const int nx = (x + dx + w) % w, ny = (y + dy + h) % h;
              const long v = count_at (out, (size_t) ny * w + nx, height);
              lowest = v < lowest ? v : lowest;
            }
        FUZZ_CHECK (here <= lowest + 1);
      }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  FuzzInput in = { data, size, 0 };
  FuzzSize  sz = fuzz_size (&in, FUZZ_MAX_PIXELS, 1);
  /* A report comes every 65536 particles (tens of milliseconds): a heavy run (one in 512
   * here) drops one batch at most, on a layer of at most 1024 pixels (the longest roll is about
   * the layer's diameter). */
  const int heavy = fuzz_heavy (&in) && fuzz_u8 (&in) % 8 == 0;
  const unsigned long cancel_after = fuzz_cancel_after (&in, heavy ? 1 : 1000);
  if (heavy && sz.valid && sz.n > 1024)
    {
      sz.w = sz.w < 32 ? sz.w : 32;
      sz.h = sz.h < 32 ? sz.h : 32;
      sz.n = (size_t) sz.w * sz.h;
    }

  TerrainParticles p;
  terrain_particles_defaults (&p);
  int valid = sz.valid;
  p.seed = fuzz_u32 (&in);
  p.particles = fuzz_int (&in, 1, TERRAIN_PARTICLES_MAX_PARTICLES, 1000000, 1, &valid);
  p.mode = (TerrainParticleMode) fuzz_enum (&in, 2, 1, &valid);
  p.sites = fuzz_int (&in, 1, TERRAIN_PARTICLES_MAX_SITES, 1, 1, &valid);
  p.particle_height = fuzz_double (&in, 0.0, TERRAIN_PARTICLES_MAX_HEIGHT, 1.0, FUZZ_LOW_OPEN, 1, &valid);
  p.caldera = fuzz_double (&in, 0.0, 1.0, 0.0, FUZZ_CLOSED, 1, &valid);
  {
    const uint8_t norm = fuzz_u8 (&in);
    p.normalize = norm < 0x80 ? 1 : norm < 0xf0 ? 0 : (int) (int8_t) norm; /* any non-zero */
  }

  /* Nanoseconds: a particle costs about 1000 with its roll, 300 when it sticks. */
  if (sz.valid)
    p.particles = fuzz_fit (p.particles, TERRAIN_PARTICLES_MAX_PARTICLES,
                            p.mode == TERRAIN_PARTICLES_STICK ? 300.0 : 1000.0, heavy);

  FUZZ_DESCRIBE ("%dx%d seed %u particles %d mode %d sites %d particle_height %.17g caldera "
                 "%.17g normalize %d", sz.w, sz.h, p.seed, p.particles, (int) p.mode, p.sites,
                 p.particle_height, p.caldera, p.normalize);
  float *out = fuzz_alloc_floats (sz.n);
  FuzzProgress prog;
  fuzz_progress_start (&prog, cancel_after);
  const TerrainProgress progress = { fuzz_report, &prog };
  const TerrainStatus status = terrain_particles (&p, out, sz.w, sz.h, &progress);

  fuzz_check_status (status, &prog, valid);
  if (status == TERRAIN_OK && p.normalize)
    fuzz_check_unit (out, sz.n);
  if (status == TERRAIN_OK && ! p.normalize)
    {
      double sum = 0.0;
      for (size_t i = 0; i < sz.n; i++)
        {
          FUZZ_CHECK (isfinite (out[i]) && out[i] >= 0.0f);
          sum += out[i];
        }
      if (p.caldera == 0.0)
        {
          const double mass = (double) p.particles * p.particle_height;
          /* Each cell rounds by at most 2^-24 of itself, or half the smallest subnormal. */
          FUZZ_CHECK (fabs (sum - mass) <= 1e-6 * mass + (double) sz.n * 0x1p-149);
          if (p.mode == TERRAIN_PARTICLES_ROLL && p.particles < (1 << 22) &&
              p.particle_height >= 1e-30)
            check_roll_slopes (out, sz.w, sz.h, p.particle_height);
        }
    }
  free (out);
  return 0;
}
