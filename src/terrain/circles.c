#include "circles.h"

#include "heightmap.h"
#include "random.h"

#include <math.h>

/* PCG32 stream of this generator: circles and fault with the same seed are unrelated. */
#define CIRCLES_STREAM 0x43495243u /* "CIRC" */

/* Pixels touched between two progress reports: ~1 ms. */
#define REPORT_WORK (1 << 18)

/* The bump as a function of pd^2 in [0, 1]: a squared distance needs no sqrt per pixel. */
static double
raised_cosine (double pd2)
{
  return 0.5 + 0.5 * cos (TERRAIN_PI * sqrt (pd2));
}

/* Adds amplitude * (1 + cos(pi * 2r / D)) / 2 to the pixels strictly inside the circle of
 * radius D/2 around pixel (cx, cy), clipped to the image; the rim itself would add 0.
 * Returns the pixels touched. */
static long
add_circle (float *out, int width, int height, int cx, int cy, double radius,
            double amplitude, const TerrainProfileTable *bump)
{
  /* For radii below ~1e-150 the square underflows to 0 and even the centre would drop out
   * (found by fuzzing): a floor keeps the centre inside and its table position finite. */
  const double r2 = fmax (radius * radius, 1e-300);
  const double segments_per_d2 = TERRAIN_PROFILE_SEGMENTS / r2; /* table position of dx^2+dy^2 */
  const double reach = floor (radius); /* no pixel row or column beyond it is inside */
  const int    y0 = cy - reach < 0 ? 0 : cy - (int) reach;
  const int    y1 = cy + reach > height - 1 ? height - 1 : cy + (int) reach;
  long touched = 0;
  for (int y = y0; y <= y1; y++)
    {
      const double dy2 = (double) (y - cy) * (y - cy), rest = r2 - dy2;
      /* Largest dx with dx^2 < rest: sqrt is correctly rounded, so one check suffices. */
      double half = floor (sqrt (rest > 0.0 ? rest : 0.0));
      if (half * half >= rest)
        half -= 1.0;
      if (half < 0.0)
        continue;
      const int x0 = cx - half < 0 ? 0 : cx - (int) half;
      const int x1 = cx + half > width - 1 ? width - 1 : cx + (int) half;
      float *row = out + (size_t) y * width;
      for (int x = x0; x <= x1; x++)
        {
          const double dx = x - cx;
          const double v = (dx * dx + dy2) * segments_per_d2;
          row[x] += (float) (amplitude * terrain_profile_table_at (bump, v));
        }
      touched += x1 - x0 + 1;
    }
  return touched;
}

static TerrainStatus
render (const TerrainCircles *p, float *out, int width, int height,
        const TerrainProgress *progress)
{
  TerrainStatus status = terrain_check_size (width, height);
  if (status != TERRAIN_OK)
    return status;
  if (! terrain_displacement_valid (p->iterations, p->displacement_start,
                                    p->displacement_end, p->decay_iterations) ||
      (unsigned) p->direction > TERRAIN_CIRCLES_LOWER ||
      ! (p->diameter > 0.0 && p->diameter <= 2.0 * TERRAIN_MAX_SIDE))
    return TERRAIN_ERROR_INVALID;

  const size_t n = (size_t) width * height;
  for (size_t i = 0; i < n; i++)
    out[i] = 0.0f;

  TerrainProfileTable bump;
  terrain_profile_table_fill (&bump, raised_cosine);
  TerrainRng rng;
  terrain_rng_init (&rng, p->seed, CIRCLES_STREAM);
  long work = 0;
  for (int i = 0; i < p->iterations; i++)
    {
      const int cx = (int) terrain_rng_below (&rng, (uint32_t) width);
      const int cy = (int) terrain_rng_below (&rng, (uint32_t) height);
      /* The coin is drawn in every direction, so one seed places the same circles. */
      const int coin = (int) (terrain_rng_next (&rng) >> 31);
      const int lowers = p->direction == TERRAIN_CIRCLES_RANDOM ? coin
                                                                : p->direction == TERRAIN_CIRCLES_LOWER;
      const double disp = terrain_displacement_at (p->displacement_start, p->displacement_end,
                                                   p->decay_iterations, i);
      work += 1 + add_circle (out, width, height, cx, cy, 0.5 * p->diameter,
                              lowers ? -disp : disp, &bump);
      if (work >= REPORT_WORK)
        {
          work = 0;
          if (terrain_progress_report (progress, (double) (i + 1) / p->iterations))
            return TERRAIN_CANCELLED;
        }
    }
  return TERRAIN_OK;
}

void
terrain_circles_defaults (TerrainCircles *params)
{
  params->seed = 0;
  params->iterations = 1000;
  params->diameter = 64.0;
  params->direction = TERRAIN_CIRCLES_RANDOM;
  params->displacement_start = 1.0;
  params->displacement_end = 0.1;
  params->decay_iterations = 100;
}

TerrainStatus
terrain_circles_raw (const TerrainCircles *p, float *out, int width, int height,
                     const TerrainProgress *progress)
{
  TerrainStatus status = render (p, out, width, height, progress);
  if (status == TERRAIN_OK && terrain_progress_report (progress, 1.0))
    status = TERRAIN_CANCELLED;
  return status;
}

TerrainStatus
terrain_circles (const TerrainCircles *p, float *out, int width, int height,
                 const TerrainProgress *progress)
{
  TerrainStatus status = render (p, out, width, height, progress);
  if (status != TERRAIN_OK)
    return status;
  terrain_normalize (out, (size_t) width * height);
  return terrain_progress_report (progress, 1.0) ? TERRAIN_CANCELLED : TERRAIN_OK;
}
