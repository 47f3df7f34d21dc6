#include "circles.h"

#include "displacement-schedule.h"
#include "heightmap.h"
#include "random.h"
#include "terrain-common.h"

#include <math.h>
#include <stdlib.h>

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

/* One circle, drawn before any is added. */
typedef struct
{
  int    cx, cy;
  double amplitude; /* signed */
} Circle;

/* Strips of rows add every circle, in order, to their own rows: each pixel sums the same
 * terms in the same order as with one strip, so any threads give the same floats. */
typedef struct
{
  const Circle              *circles;
  int                        iterations;
  double                     r2;              /* the radius squared */
  double                     segments_per_d2; /* table position of dx^2 + dy^2 */
  double                     reach;           /* no pixel row or column beyond it is inside */
  const TerrainProfileTable *bump;
  float                     *out;
  int                        width;
} CircleRows;

/* Adds amplitude * (1 + cos(pi * 2r / D)) / 2 to the pixels strictly inside circle c of
 * radius D/2 around pixel (cx, cy), clipped to the image's rows [first, end); the rim
 * itself would add 0. */
static void
add_circle (const CircleRows *job, const Circle *c, int first, int end)
{
  const int    cx = c->cx, cy = c->cy, width = job->width;
  const double r2 = job->r2, reach = job->reach;
  const int    y0 = cy - reach < first ? first : cy - (int) reach;
  const int    y1 = cy + reach > end - 1 ? end - 1 : cy + (int) reach;
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
      float *row = job->out + (size_t) y * width;
      for (int x = x0; x <= x1; x++)
        {
          const double dx = x - cx;
          const double v = (dx * dx + dy2) * job->segments_per_d2;
          row[x] += (float) (c->amplitude * terrain_profile_table_at (job->bump, v));
        }
    }
}

/* Circles [item, item_end) onto rows [first, end), in order: every pixel adds its circles
 * in the same order whatever the chunks. */
static void
circle_rows (void *user, int strip, int first, int end, int item, int item_end)
{
  const CircleRows *job = user;
  (void) strip;
  if (item == 0)
    for (size_t i = (size_t) first * job->width; i < (size_t) end * job->width; i++)
      job->out[i] = 0.0f;
  for (int i = item; i < item_end; i++)
    add_circle (job, &job->circles[i], first, end);
}

/* Circles per progress report: about REPORT_WORK pixels, a circle covering about
 * min (diameter, height) rows of min (diameter, width) pixels, plus the rows it looks at. */
static int
chunk_circles (const TerrainCircles *p, int width, int height)
{
  const double pixels = (fmin (p->diameter, height) + 1.0) * (fmin (p->diameter, width) + 1.0)
                        + height;
  return pixels < REPORT_WORK ? (int) (REPORT_WORK / pixels) : 1;
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

  Circle *circles = terrain_alloc ((size_t) p->iterations * sizeof *circles);
  if (circles == NULL)
    return TERRAIN_ERROR_NO_MEMORY;
  TerrainRng rng;
  terrain_rng_init (&rng, p->seed, CIRCLES_STREAM);
  for (int i = 0; i < p->iterations; i++)
    {
      Circle *c = &circles[i];
      c->cx = (int) terrain_rng_below (&rng, (uint32_t) width);
      c->cy = (int) terrain_rng_below (&rng, (uint32_t) height);
      /* The coin is drawn in every direction, so one seed places the same circles. */
      const int coin = (int) (terrain_rng_next (&rng) >> 31);
      const int lowers = p->direction == TERRAIN_CIRCLES_RANDOM ? coin
                                                                : p->direction == TERRAIN_CIRCLES_LOWER;
      const double disp = terrain_displacement_at (p->displacement_start, p->displacement_end,
                                                   p->decay_iterations, i);
      c->amplitude = lowers ? -disp : disp;
    }

  TerrainProfileTable bump;
  terrain_profile_table_fill (&bump, raised_cosine);
  /* For radii below ~1e-150 the square underflows to 0 and even the centre would drop out
   * (found by fuzzing): a floor keeps the centre inside and its table position finite. */
  const double radius = 0.5 * p->diameter, r2 = fmax (radius * radius, 1e-300);
  CircleRows   job = { circles, p->iterations, r2, TERRAIN_PROFILE_SEGMENTS / r2,
                       floor (radius), &bump, out, width };
  status = terrain_parallel_chunks (height, terrain_map_strips (height, width),
                                    p->iterations, chunk_circles (p, width, height), circle_rows,
                                    &job, progress, 0.0, 1.0);
  terrain_free (circles);
  return status;
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
