#include "fault.h"

#include "displacement-schedule.h"
#include "heightmap.h"
#include "random.h"
#include "terrain-common.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* PCG32 stream of this generator: fault and circles with the same seed are unrelated. */
#define FAULT_STREAM 0x4641554cu /* "FAUL" */

/* Row-line pairs (plus profile pixels evaluated) between two progress reports: ~1 ms. */
#define REPORT_WORK (1 << 16)

/* Heights are summed as integers, in units of 2^-40 of the largest displacement. Integer
 * sums are exact whatever their order, so a flat region (a terrace of the step profile, the
 * far side of a ridge) gets the same value in every row, although each row meets the faults'
 * edges in a different order. The worst sum, 100000 faults x 2 x 2^40 units, is below 2^58. */
#define UNITS_PER_MAX_DISP 1099511627776.0

/* One fault as a row sees it: pixel (x, y) lies at signed distance a*x + b*y + k. */
typedef struct
{
  double a, inv_a, b, k;
  double disp; /* in units */
} Line;

/* A profile, in units of disp, varies only in the band lo < t < hi of distances: it is
 * `low` up to lo and `high` from hi on. STEP's band is empty (lo = hi = 0). The smooth
 * profiles read a table over the band, whose end samples are `low` and `high`. */
typedef struct
{
  TerrainFaultProfile profile;
  double              lo, hi, low, high;
  double              scale; /* table segments per pixel of distance */
  TerrainProfileTable table;
} Shape;

/* The profiles over their band, as functions of the position v in [0, 1] across it. */
static double
sine_ramp (double v) /* pd = v * pi/2 */
{
  return sin (0.5 * TERRAIN_PI * v) - 0.5;
}

static double
cosine_ridge (double v) /* pd = (2v - 1) * pi */
{
  return 1.0 + cos (TERRAIN_PI * (2.0 * v - 1.0));
}

static void
shape_init (Shape *s, const TerrainFault *p)
{
  const double band = TERRAIN_PI * p->wave_size; /* distance where pd = pi */
  s->profile = p->profile;
  s->lo = s->hi = s->scale = 0.0;
  s->low = -1.0;
  s->high = 1.0;
  if (p->profile == TERRAIN_FAULT_STEP)
    return;
  if (p->profile == TERRAIN_FAULT_SINE)
    {
      s->hi = 0.5 * band;
      terrain_profile_table_fill (&s->table, sine_ramp);
    }
  else
    {
      s->lo = -band;
      s->hi = band;
      terrain_profile_table_fill (&s->table, cosine_ridge);
    }
  s->low = s->table.sample[0];
  s->high = s->table.sample[TERRAIN_PROFILE_SEGMENTS];
  s->scale = TERRAIN_PROFILE_SEGMENTS / (s->hi - s->lo);
}

static void
draw_lines (const TerrainFault *p, Line *lines, int width, int height)
{
  const double cx = 0.5 * (width - 1), cy = 0.5 * (height - 1);
  const double d = 0.5 * sqrt ((double) width * width + (double) height * height);
  const double max_disp = fmax (p->displacement_start, p->displacement_end);
  TerrainRng rng;
  terrain_rng_init (&rng, p->seed, FAULT_STREAM);
  for (int i = 0; i < p->iterations; i++)
    {
      const double w = 2.0 * TERRAIN_PI * terrain_rng_unit (&rng);
      const double c = d * (2.0 * terrain_rng_unit (&rng) - 1.0);
      Line *l = &lines[i];
      /* cos of a double is never exactly 0 (pi/2 is irrational), so inv_a is finite. */
      l->a = cos (w);
      l->b = sin (w);
      l->inv_a = 1.0 / l->a;
      l->k = -(l->a * cx + l->b * cy + c);
      /* Scale by the ratio (at most 1), not by 2^40 / max_disp: that overflows to inf for a
       * subnormal max_disp (found by fuzzing). */
      l->disp = max_disp > 0.0
                  ? UNITS_PER_MAX_DISP * (terrain_displacement_at (p->displacement_start,
                                                                   p->displacement_end,
                                                                   p->decay_iterations, i) / max_disp)
                  : 0.0;
    }
}

/* floor(v) clamped to the columns [0, width]; any double, however large, is fine. */
static inline int
column_at (double v, int width)
{
  return v <= 0.0 ? 0 : v >= width ? width : (int) v;
}

/* Adds one fault to row y, kept as differences: the row's value at x is the sum of
 * diff[0..x]. The profile is taken relative to its value left of the band, which is the
 * same for every row of this fault: a uniform shift that normalisation removes. So the
 * constant parts of the row cost one addition where the band ends, and only the band's
 * pixels are evaluated, each at its own distance (so the side of a pixel never depends on
 * how the band was located). Returns the pixels evaluated. */
static int
add_fault_to_row (int64_t *diff, int width, int y, const Line *l, const Shape *s)
{
  const double r = l->b * y + l->k; /* t(x) = a*x + r */
  const int    rising = l->a > 0.0;
  const double left = rising ? s->low : s->high;
  const double right = rising ? s->high : s->low;
  /* Columns whose t may lie in [lo, hi]: x0 = floor of the first, x1 one more than needed
   * past the last, so rounding in the division can never leave a band pixel outside. */
  const int x0 = column_at (((rising ? s->lo : s->hi) - r) * l->inv_a, width);
  const int x1 = column_at (((rising ? s->hi : s->lo) - r) * l->inv_a + 2.0, width);
  /* The band's pixels, relative to `left`; outside the band proper they get exactly
   * `low` or `high` (the table's ends), matching the constant spans. */
  int64_t previous = 0;
  if (s->profile == TERRAIN_FAULT_STEP)
    for (int x = x0; x < x1; x++)
      {
        const double  f = l->a * x + r > 0.0 ? s->high : s->low;
        const int64_t g = (int64_t) (l->disp * (f - left));
        diff[x] += g - previous;
        previous = g;
      }
  else
    {
      const double v0 = (r - s->lo) * s->scale, dv = l->a * s->scale; /* table position */
      for (int x = x0; x < x1; x++)
        {
          const double  f = terrain_profile_table_at (&s->table, v0 + x * dv);
          const int64_t g = (int64_t) (l->disp * (f - left));
          diff[x] += g - previous;
          previous = g;
        }
    }
  if (x1 < width)
    diff[x1] += (int64_t) (l->disp * (right - left)) - previous;
  return x1 - x0;
}

void
terrain_fault_defaults (TerrainFault *params)
{
  params->seed = 0;
  params->iterations = 400;
  params->profile = TERRAIN_FAULT_STEP;
  params->wave_size = 3.0;
  params->displacement_start = 1.0;
  params->displacement_end = 0.1;
  params->decay_iterations = 100;
}

/* A band of rows [band, band + rows) of the layer, with a row of differences each. */
typedef struct
{
  const Line  *lines;
  int          iterations;
  const Shape *shape;
  float       *out;
  int          width, band;
  int64_t     *diffs; /* width per row of the band */
} FaultRows;

/* Faults [item, item_end) onto rows [first, end) of the band (band + first ... of the layer): a fault costs O(1) per row
 * plus the pixels of its transition band instead of O(width). The sums are integers, so
 * neither the order of the faults, their chunks nor the strips of rows change them; after
 * the last fault the differences are summed along the row into the layer. */
static void
fault_rows (void *user, int strip, int first, int end, int item, int item_end)
{
  const FaultRows *job = user;
  const int        width = job->width;
  (void) strip;
  for (int r = first; r < end; r++)
    {
      const int y = job->band + r;
      int64_t  *diff = job->diffs + (size_t) r * width;
      if (item == 0)
        for (int x = 0; x < width; x++)
          diff[x] = 0;
      for (int i = item; i < item_end; i++)
        add_fault_to_row (diff, width, y, &job->lines[i], job->shape);
      if (item_end < job->iterations)
        continue;
      float  *row = job->out + (size_t) y * width;
      int64_t sum = 0;
      for (int x = 0; x < width; x++)
        {
          sum += diff[x];
          row[x] = (float) sum; /* still in units: normalisation removes the scale */
        }
    }
}

/* Faults per progress report over `rows` rows: 64 REPORT_WORK (a few milliseconds) over a
 * fault's expected work, one row-line pair per row plus the pixels of its band (its width
 * across a row, capped by the row). Large chunks keep a row's differences in cache while
 * many faults are added to it. */
static int
chunk_faults (const Line *lines, int iterations, const Shape *shape, int width, int rows)
{
  double work = 0.0;
  for (int i = 0; i < iterations; i++)
    work += 1.0 + fmin (width, (shape->hi - shape->lo) * fabs (lines[i].inv_a) + 2.0);
  work = work / iterations * rows;
  return work < 64.0 * REPORT_WORK ? (int) (64.0 * REPORT_WORK / work) : 1;
}

/* Differences kept at once: a band of rows of about 32 MiB, enough to split into strips. */
#define BAND_DIFFS (1 << 22)

TerrainStatus
terrain_fault (const TerrainFault *p, float *out, int width, int height,
               const TerrainProgress *progress)
{
  TerrainStatus status = terrain_check_size (width, height);
  if (status != TERRAIN_OK)
    return status;
  if (! terrain_displacement_valid (p->iterations, p->displacement_start,
                                    p->displacement_end, p->decay_iterations) ||
      (unsigned) p->profile > TERRAIN_FAULT_COSINE ||
      ! (p->wave_size > 0.0 && p->wave_size <= TERRAIN_MAX_SIDE))
    return TERRAIN_ERROR_INVALID;

  const int band_rows = width >= BAND_DIFFS ? 1 : BAND_DIFFS / width < height ? BAND_DIFFS / width
                                                                            : height;
  Line     *lines = terrain_alloc ((size_t) p->iterations * sizeof *lines);
  int64_t  *diffs = terrain_alloc ((size_t) band_rows * width * sizeof *diffs);
  if (lines == NULL || diffs == NULL)
    {
      terrain_free (lines);
      terrain_free (diffs);
      return TERRAIN_ERROR_NO_MEMORY;
    }
  draw_lines (p, lines, width, height);
  Shape shape;
  shape_init (&shape, p);

  /* Band by band, each taking the faults in chunks (progress and cancel between chunks). */
  const int chunk = chunk_faults (lines, p->iterations, &shape, width, band_rows);
  FaultRows job = { lines, p->iterations, &shape, out, width, 0, diffs };
  for (job.band = 0; job.band < height && status == TERRAIN_OK; job.band += band_rows)
    {
      const int rows = height - job.band < band_rows ? height - job.band : band_rows;
      status = terrain_parallel_chunks (rows, terrain_map_strips (rows, width),
                                        p->iterations, chunk, fault_rows, &job, progress,
                                        (double) job.band / height,
                                        (double) (job.band + rows) / height);
    }
  if (status == TERRAIN_OK)
    {
      terrain_normalize (out, (size_t) width * height);
      if (terrain_progress_report (progress, 1.0))
        status = TERRAIN_CANCELLED;
    }
  terrain_free (lines);
  terrain_free (diffs);
  return status;
}
