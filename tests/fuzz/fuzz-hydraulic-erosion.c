/* libFuzzer harness: terrain_hydraulic_erosion over heightmaps of any finite values
 * (constant, noise, +-FLT_MAX checkerboards, subnormals, raw bit patterns) and every size
 * down to 1x1 and 1xN, with every parameter over its range and beyond: 0..10^8 droplets
 * (scaled down to the work budget, except in heavy executions, which the progress callback
 * stops at its second report), inertia, erosion, deposition, evaporation in [0, 1], capacity
 * in [0, 64], brush radius 1..8, 1..1000 steps.
 *
 * Checks (hydraulic-erosion.h), through the observer after every droplet step:
 *  - status: parameters in range are accepted, others give TERRAIN_ERROR_INVALID with the
 *    data bit-identical (and the observer never called).
 *  - "finite input always gives finite output", also when cancelled part way.
 *  - The ledger: after every step, the sum of the heights plus the sediment carried plus
 *    the total lost equals the sum before the run, up to double rounding (summed over the
 *    whole map after every step on small runs, at the end on the others); eroded =
 *    deposited + lost + carried.
 *  - The observer's protocol: a droplet's calls one after the other, a new droplet only once
 *    the last one stopped (in the schedule's order), every droplet once when the run ends,
 *    steps within 1..max_steps, nothing carried once stopped, positions on the map, totals
 *    that never fall.
 *  - "A pixel never goes below 0", and a pixel at or below 0 gives nothing: it never falls.
 *  - 0 droplets leave the map bit-identical; on small runs a second run, without the
 *    observer, gives the same bits: where the CPU has AVX2, its droplets run in the lanes of
 *    vectors on every batch, however few tiles (terrain_hydraulic_lanes_from), while the
 *    observed run takes them one at a time. */
#include "fuzz-common.h"

#include "hydraulic-observer.h"

static double
sum_of (const float *h, size_t n)
{
  double s = 0.0;
  for (size_t i = 0; i < n; i++)
    s += h[i];
  return s;
}

typedef struct
{
  const float *data;
  size_t       n;
  int          width, height, max_steps, full; /* full: sum the map after every step */
  double       start, magnitude;       /* the sum before; the sum of |heights| before */
  long         calls;
  int          droplet;  /* of the last call; -1 before the first */
  double       eroded, deposited, lost;
  int          stopped;  /* the last call was a stop (1 before the first) */
  long long    stops, stopped_sum; /* droplets that stopped, and the sum of their indices */
} Ledger;

/* Each change of a pixel, of the sediment and of the running totals rounds by at most
 * 2^-53 of the largest magnitude in play: no pixel holds more than the sum of |heights|
 * before the run, and the totals grow to `moved`. Summing the map adds n roundings. */
static double
tolerance_of (const Ledger *l, double moved)
{
  return (16.0 * (double) l->calls + 2.0 * (double) l->n) * 0x1p-52
         * (fmax (l->magnitude, FLT_MIN) + moved);
}

static void
ledger_step (void *user, const TerrainDropletStep *s)
{
  Ledger *l = user;
  FUZZ_CHECK (s->droplet == l->droplet ? ! l->stopped : l->stopped);
  FUZZ_CHECK (s->droplet >= 0);
  l->stopped = ! s->alive;
  l->stops += ! s->alive;
  l->stopped_sum += s->alive ? 0 : s->droplet;
  FUZZ_CHECK (s->steps <= l->max_steps && s->steps >= (s->alive ? 1 : 0));
  FUZZ_CHECK (s->alive || s->sediment == 0.0);
  FUZZ_CHECK (s->x >= 0.0 && s->x <= l->width - 1 && s->y >= 0.0 && s->y <= l->height - 1);
  FUZZ_CHECK (isfinite (s->sediment) && isfinite (s->eroded) && isfinite (s->deposited) &&
              isfinite (s->lost));
  FUZZ_CHECK (s->eroded >= l->eroded && s->deposited >= l->deposited);
  l->calls++;
  const double tolerance = tolerance_of (l, s->eroded + s->deposited);
  FUZZ_CHECK (fabs (s->eroded - s->deposited - s->lost - s->sediment) <= tolerance);
  if (l->full)
    FUZZ_CHECK (fabs (sum_of (l->data, l->n) + s->sediment + s->lost - l->start) <= tolerance);
  l->droplet = s->droplet;
  l->eroded = s->eroded;
  l->deposited = s->deposited;
  l->lost = s->lost;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  FuzzInput in = { data, size, 0 };
  FuzzSize  sz = fuzz_size (&in, FUZZ_MAX_PIXELS, 1);
  terrain_hydraulic_lanes_from (0);
  const uint8_t cancel_sel = fuzz_u8 (&in);
  const int heavy = fuzz_heavy (&in);

  TerrainHydraulicErosion p;
  terrain_hydraulic_erosion_defaults (&p);
  int valid = sz.valid;
  p.seed = fuzz_u32 (&in);
  p.droplets = fuzz_int (&in, 0, TERRAIN_HYDRAULIC_MAX_DROPLETS, 200000, 1, &valid);
  p.inertia = fuzz_double (&in, 0.0, 1.0, 0.05, FUZZ_CLOSED, 1, &valid);
  p.capacity = fuzz_double (&in, 0.0, TERRAIN_HYDRAULIC_MAX_CAPACITY, 4.0, FUZZ_CLOSED, 1, &valid);
  p.erosion = fuzz_double (&in, 0.0, 1.0, 0.3, FUZZ_CLOSED, 1, &valid);
  p.deposition = fuzz_double (&in, 0.0, 1.0, 0.3, FUZZ_CLOSED, 1, &valid);
  p.evaporation = fuzz_double (&in, 0.0, 1.0, 0.01, FUZZ_CLOSED, 1, &valid);
  p.radius = fuzz_int (&in, 1, TERRAIN_HYDRAULIC_MAX_RADIUS, 3, 1, &valid);
  p.max_steps = fuzz_int (&in, 1, TERRAIN_HYDRAULIC_MAX_STEPS, 30, 1, &valid);

  float *h = fuzz_alloc_floats (sz.n);
  fuzz_heights (&in, h, sz.n, 0);

  /* The work budget: a droplet step costs about 100 ns plus 10 a brush pixel under the
   * sanitizers; 0 droplets stay 0. */
  const int radius = p.radius >= 1 && p.radius <= TERRAIN_HYDRAULIC_MAX_RADIUS ? p.radius : 1;
  const int steps = p.max_steps >= 1 && p.max_steps <= TERRAIN_HYDRAULIC_MAX_STEPS ? p.max_steps : 1;
  const double droplet_cost = steps * (100.0 + 30.0 * radius * radius);
  if (p.droplets > 0)
    p.droplets = fuzz_fit (p.droplets, TERRAIN_HYDRAULIC_MAX_DROPLETS, droplet_cost, heavy);
  /* Heavy: stop at the second report, after one full report interval (hydraulic-erosion.c:
   * 2^22 brush-pixel steps, some 40 ms under the sanitizers). */
  const unsigned long cap = fuzz_cancel_at (cancel_sel, heavy ? 1 : 100000);

  FUZZ_DESCRIBE ("%dx%d seed %u droplets %d inertia %.17g capacity %.17g erosion %.17g "
                 "deposition %.17g evaporation %.17g radius %d max_steps %d h[0] %.9g cap %lu",
                 sz.w, sz.h, p.seed, p.droplets, p.inertia, p.capacity, p.erosion, p.deposition,
                 p.evaporation, p.radius, p.max_steps, sz.n ? h[0] : 0.0, cap);
  float *before = fuzz_alloc_floats (sz.n);
  memcpy (before, h, sz.n * sizeof (float));

  double magnitude = 0.0;
  for (size_t i = 0; i < sz.n; i++)
    magnitude += fabs (h[i]);
  Ledger ledger = { h, sz.n, sz.w, sz.h, steps,
                    (double) sz.n * p.droplets * steps <= 2e6, sum_of (h, sz.n), magnitude,
                    0, -1, 0.0, 0.0, 0.0, 1, 0, 0 };
  FuzzProgress prog;
  fuzz_progress_start (&prog, cap);
  const TerrainProgress progress = { fuzz_report, &prog };
  const TerrainStatus status = terrain_hydraulic_erosion_observed (&p, ledger_step, &ledger, h,
                                                                  sz.w, sz.h, &progress);

  fuzz_check_status (status, &prog, valid);
  if (status == TERRAIN_ERROR_INVALID)
    {
      FUZZ_CHECK (memcmp (before, h, sz.n * sizeof (float)) == 0);
      FUZZ_CHECK (ledger.calls == 0);
    }
  if (status == TERRAIN_OK || status == TERRAIN_CANCELLED)
    {
      fuzz_check_finite (h, sz.n);
      /* Every droplet run has stopped: nothing is carried, the map lost what was lost. */
      FUZZ_CHECK (fabs (sum_of (h, sz.n) + ledger.lost - ledger.start) <=
                  tolerance_of (&ledger, ledger.eroded + ledger.deposited));
      for (size_t i = 0; i < sz.n; i++)
        FUZZ_CHECK (before[i] > 0.0f ? h[i] >= 0.0f : h[i] >= before[i]);
      if (p.droplets == 0)
        FUZZ_CHECK (memcmp (before, h, sz.n * sizeof (float)) == 0);
    }
  if (status == TERRAIN_OK)
    {
      FUZZ_CHECK (ledger.stops == p.droplets);
      FUZZ_CHECK (ledger.stopped_sum == (long long) p.droplets * (p.droplets - 1) / 2);
    }
  if (status == TERRAIN_OK && ! heavy && (double) p.droplets * steps <= 20000)
    {
      float *again = fuzz_alloc_floats (sz.n);
      memcpy (again, before, sz.n * sizeof (float));
      FUZZ_CHECK (terrain_hydraulic_erosion (&p, again, sz.w, sz.h, NULL) == TERRAIN_OK);
      FUZZ_CHECK (memcmp (again, h, sz.n * sizeof (float)) == 0);
      free (again);
    }
  free (before);
  free (h);
  return 0;
}
