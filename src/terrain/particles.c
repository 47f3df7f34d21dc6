#include "particles.h"

#include "heightmap.h"
#include "random.h"
#include "terrain-common.h"

#include <stdlib.h>

/* Particles between progress reports: frequent enough to cancel within milliseconds,
 * rare enough that the callback costs nothing next to the walk. */
#define REPORT_EVERY 65536
/* Share of the progress bar for the deposition; the rest is the output pass. */
#define DEPOSIT_SHARE 0.95

/* Separate streams: the walk never shares draws with the roll's tie-breaks, so both modes
 * walk the same path for the same seed. */
enum { STREAM_WALK = 0, STREAM_TIES = 1 };

typedef struct
{
  uint32_t  *count; /* particles settled per cell: exact, so mass is conserved */
  int        width, height;
  int        roll;
  int        x, y;  /* where the walk stands */
  TerrainRng walk, ties;
} Deposit;

/* Follows a particle from (x, y) downhill: while some 8-neighbour is strictly lower than
 * the current cell, move to the lowest one (ties at random). Returns the resting cell. */
static size_t
settle (Deposit *d, int x, int y)
{
  const int w = d->width, h = d->height;
  for (;;)
    {
      const size_t   here = (size_t) y * w + x;
      const uint32_t level = d->count[here];
      if (level == 0) /* nothing is lower than bare ground */
        return here;

      const int xm = x > 0 ? x - 1 : w - 1, xp = x + 1 < w ? x + 1 : 0;
      const int ym = y > 0 ? y - 1 : h - 1, yp = y + 1 < h ? y + 1 : 0;
      const int nx[8] = { xm, x, xp, xm, xp, xm, x, xp };
      const int ny[8] = { ym, ym, ym, y, y, yp, yp, yp };
      uint32_t  v[8], lowest = level;
      for (int k = 0; k < 8; k++)
        {
          v[k] = d->count[(size_t) ny[k] * w + nx[k]];
          lowest = v[k] < lowest ? v[k] : lowest;
        }
      if (lowest == level) /* stable: no neighbour is strictly lower */
        return here;

      /* A fixed scan order would always pick the same direction among equals and skew
       * every pile; choose uniformly among the lowest instead. */
      int pick[8], ties = 0;
      for (int k = 0; k < 8; k++)
        if (v[k] == lowest)
          pick[ties++] = k;
      const int k = ties > 1 ? pick[terrain_rng_below (&d->ties, (uint32_t) ties)] : pick[0];
      x = nx[k];
      y = ny[k];
    }
}

/* Drops n particles along the walk from the current position. */
static void
drop (Deposit *d, long n)
{
  static const int dx[4] = { 1, -1, 0, 0 };
  static const int dy[4] = { 0, 0, 1, -1 };
  const int w = d->width, h = d->height;
  int x = d->x, y = d->y;
  for (long i = 0; i < n; i++)
    {
      const uint32_t dir = terrain_rng_next (&d->walk) >> 30; /* top bits: PCG's best */
      x += dx[dir];
      y += dy[dir];
      x = x < 0 ? w - 1 : x >= w ? 0 : x;
      y = y < 0 ? h - 1 : y >= h ? 0 : y;
      if (d->roll)
        d->count[settle (d, x, y)]++;
      else
        d->count[(size_t) y * w + x]++;
    }
  d->x = x;
  d->y = y;
}

/* Drops the particles, an equal share (the first `extra` sites one more) at each site in
 * turn, in chunks between progress reports. */
static TerrainStatus
deposit_all (Deposit *d, const TerrainParticles *p, const TerrainProgress *progress)
{
  const long per_site = p->particles / p->sites, extra = p->particles % p->sites;
  long done = 0, until_report = 0;
  for (int s = 0; s < p->sites && done < p->particles; s++)
    {
      d->x = (int) terrain_rng_below (&d->walk, (uint32_t) d->width);
      d->y = (int) terrain_rng_below (&d->walk, (uint32_t) d->height);
      for (long left = per_site + (s < extra); left > 0;)
        {
          if (until_report == 0)
            {
              if (terrain_progress_report (progress, DEPOSIT_SHARE * done / p->particles))
                return TERRAIN_CANCELLED;
              until_report = REPORT_EVERY;
            }
          const long chunk = left < until_report ? left : until_report;
          drop (d, chunk);
          left -= chunk;
          until_report -= chunk;
          done += chunk;
        }
    }
  return terrain_progress_report (progress, DEPOSIT_SHARE) ? TERRAIN_CANCELLED : TERRAIN_OK;
}

/* Shankel's caldera: mirror everything above the rim (1 - c/2) * peak about the rim. */
static void
caldera (float *out, size_t n, double depth)
{
  float lo, hi;
  terrain_min_max (out, n, &lo, &hi);
  const double rim = (1.0 - 0.5 * depth) * hi;
  for (size_t i = 0; i < n; i++)
    if (out[i] > rim)
      out[i] = (float) (2.0 * rim - out[i]);
}

void
terrain_particles_defaults (TerrainParticles *params)
{
  params->seed = 0;
  params->particles = 1000000;
  params->mode = TERRAIN_PARTICLES_ROLL;
  params->sites = 1;
  params->particle_height = 1.0;
  params->caldera = 0.0;
  params->normalize = 1;
}

TerrainStatus
terrain_particles (const TerrainParticles *p, float *out, int width, int height,
                   const TerrainProgress *progress)
{
  TerrainStatus status = terrain_check_size (width, height);
  if (status != TERRAIN_OK)
    return status;
  if (p->particles < 1 || p->particles > TERRAIN_PARTICLES_MAX_PARTICLES ||
      p->sites < 1 || p->sites > TERRAIN_PARTICLES_MAX_SITES ||
      ! (p->particle_height > 0.0 && p->particle_height <= TERRAIN_PARTICLES_MAX_HEIGHT) ||
      ! (p->caldera >= 0.0 && p->caldera <= 1.0) ||
      (unsigned) p->mode > TERRAIN_PARTICLES_STICK)
    return TERRAIN_ERROR_INVALID;

  const size_t n = (size_t) width * height;
  Deposit d = { .width = width, .height = height, .roll = p->mode == TERRAIN_PARTICLES_ROLL };
  /* uint32_t is as wide as float, so terrain_check_size already vouched for the size;
   * at most 10^8 particles per cell also fit. */
  d.count = terrain_calloc (n, sizeof *d.count);
  if (d.count == NULL)
    return TERRAIN_ERROR_NO_MEMORY;
  terrain_rng_init (&d.walk, p->seed, STREAM_WALK);
  terrain_rng_init (&d.ties, p->seed, STREAM_TIES);

  status = deposit_all (&d, p, progress);
  /* Multiplying the exact count (not summing heights) keeps the total mass exact. */
  if (status == TERRAIN_OK)
    for (size_t i = 0; i < n; i++)
      out[i] = (float) (d.count[i] * p->particle_height);
  terrain_free (d.count);
  if (status != TERRAIN_OK)
    return status;

  if (p->caldera > 0.0)
    caldera (out, n, p->caldera);
  if (p->normalize)
    terrain_normalize (out, n);
  return terrain_progress_report (progress, 1.0) ? TERRAIN_CANCELLED : TERRAIN_OK;
}
