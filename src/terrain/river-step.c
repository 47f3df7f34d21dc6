/* River erosion: one step of the run (river-erosion.h): receivers and order, diffusion and
 * uplift, then the implicit stream-power incision with the drainage guard. */
#include "river-internal.h"

#include <math.h>

/* Newton-Raphson steps at most for n != 1 (it converges in a few; bisection, where Newton
 * would leave the bracket, gains a bit a step), and the relative size of its last step. */
#define NEWTON_STEPS 24
#define NEWTON_DONE  1e-4

/* erosion (a cell_area)^m for a cells (a >= 1). */
static double
area_power (const RiverRun *r, float cells)
{
  if (cells < RIVER_POWER_TABLE)
    return r->power[(int) cells];
  return r->p->erosion * pow ((double) cells * r->cell_area, r->p->area_exponent);
}

/* The root of y - y0 + f y^n = 0 in (0, y0] (y = h - h_receiver, f > 0): Newton-Raphson,
 * bisecting whenever a step would leave the bracket that holds the root. It starts above
 * the root: at y0, or, when the incision is strong (f y0^(n-1) > 1), where f y^n alone
 * reaches y0, which is then close to the root (from y0, a strong incision with a large n
 * would take dozens of steps: each cuts y by a factor of about 1 - 1/n only). Near the
 * root a Newton step of size c leaves an error of at most |n - 1| / 2 (c / y)^2 y, below
 * float precision once c <= NEWTON_DONE y: that step is the last. */
static double
solve_power (double y0, double f, double n)
{
  double       y = y0, power = pow (y0, n - 1.0); /* power = y^(n-1) */
  const double strength = f * power;
  if (strength > 1.0)
    {
      y = y0 * pow (strength, -1.0 / n);
      power = y0 / (f * y);
    }
  double lo = 0.0, hi = y0;
  for (int step = 1;; step++)
    {
      const double excess = y - y0 + f * power * y;
      if (excess > 0.0)
        hi = y;
      else
        lo = y;
      double     next = y - excess / (1.0 + n * f * power);
      const int  newton = next > lo && next < hi;
      next = newton ? next : 0.5 * (lo + hi);
      const double change = fabs (next - y);
      y = next;
      if (change <= (newton ? NEWTON_DONE : 1e-7) * y || step == NEWTON_STEPS)
        return y;
      power = pow (y, n - 1.0);
    }
}

/* The incision of a cell of `area` cells whose receiver is in `direction`, as applied in
 * incise_chunk: F = erosion A^m / d^n, or F / (1 + F) for n = 1. */
static float
rate_of (const RiverRun *r, float area, int direction)
{
  const double f = area_power (r, area) * r->distance_power[direction >= 4];
  return (float) (r->p->slope_exponent == 1.0 ? f / (1.0 + f) : f);
}

/* The height of a cell at `old` after incision towards its receiver, now at `below`:
 * old + F / (1 + F) (below - old) for n = 1, which is (old + F below) / (1 + F). */
static float
incised (const RiverRun *r, float old, float below, float rate)
{
  const double n = r->p->slope_exponent;
  if (! (old > below) || rate == 0.0f)
    return old;
  if (n == 1.0)
    return old + rate * (below - old);
  return (float) (below + solve_power ((double) old - below, rate, n));
}

/* The maps: the step's change of cell i, now at h (at old before the incision), without
 * its uplift, goes to erosion or deposition. The step's diffusion counts too, so what
 * diffusion brings into a channel and the incision takes out again in the same step is
 * neither. */
static void
account (RiverRun *r, int32_t i, float old, float h)
{
  float start = old;
  if (r->diffusion.block)
    start = r->diffusion.before[i] + (r->uplift ? r->uplift[i] : 0.0f);
  if (r->eroded && h < start)
    r->eroded[i] += start - h;
  if (r->deposited && h > start)
    r->deposited[i] += h - start;
}

/* Incision along the receiver order, then the drainage guard: a cell never goes below the
 * float just above its receiver's new height (it is raised to it if diffusion or uplift
 * left it lower), and incision never takes it below the floor. The new heights go to the
 * map and the maps, and by place to `sorted`, where the cell's donors find them. */
static void
incise_chunk (void *user, size_t first, size_t end)
{
  RiverRun        *r = user;
  const RiverGrid *g = &r->g;
  for (size_t s = first; s < end; s++)
    {
      const int32_t i = g->stack[s];
      const float   old = g->h[i];
      if (g->parent[s] == (int32_t) s)
        {
          g->sorted[s] = old;
          continue;
        }
      const float below = g->sorted[g->parent[s]];
      const float rate = rate_of (r, g->area[s], g->direction[i]);
      const float floor = old < r->floor ? old : r->floor;
      const float lowest = river_float_above (below);
      float h = incised (r, old, below, rate);
      h = h < old ? h : old;
      h = h > floor ? h : floor;
      h = h > lowest ? h : lowest;
      g->h[i] = g->sorted[s] = h;
      if (r->eroded || r->deposited)
        account (r, i, old, h);
    }
}

/* Keeps every non-root cell at least just above its receiver, along the receiver order,
 * but never above `top`. */
typedef struct
{
  RiverGrid *g;
  float      top;
} Draining;

static void
keep_draining_chunk (void *user, size_t first, size_t end)
{
  const Draining  *d = user;
  const RiverGrid *g = d->g;
  const float      top = d->top;
  for (size_t s = first; s < end; s++)
    {
      const int32_t i = g->stack[s];
      if (g->parent[s] != (int32_t) s)
        {
          float least = river_float_above (g->sorted[g->parent[s]]);
          least = least < top ? least : top;
          g->h[i] = g->h[i] < least ? least : g->h[i];
        }
      g->sorted[s] = g->h[i];
    }
}

void
river_keep_draining (RiverRun *r, float top)
{
  Draining d = { &r->g, top };
  river_along_stack (&r->g, keep_draining_chunk, &d, NULL, 0.0, 0.0);
}

/* After diffusion: the uplift (0 on outlets). */
static void
uplift_rows (void *user, int strip, int first, int end)
{
  RiverRun    *r = user;
  RiverGrid   *g = &r->g;
  (void) strip;
  for (size_t i = (size_t) first * g->width; i < (size_t) end * g->width; i++)
    g->h[i] += r->uplift[i];
}

TerrainStatus
river_step (RiverRun *r, int step, int new_network)
{
  const double per_step = (RIVER_STEPS_END - RIVER_FILL_END) / r->p->iterations;
  const double start = RIVER_FILL_END + per_step * step;
  if (new_network)
    {
      if (river_find_receivers (&r->g, r->progress, start, start + 0.3 * per_step) != TERRAIN_OK)
        return TERRAIN_CANCELLED;
      if (r->previous)
        memcpy (r->previous, r->g.direction, r->g.cells);
      river_order_and_area (&r->g);
    }
  if (terrain_progress_report (r->progress, start + 0.45 * per_step))
    return TERRAIN_CANCELLED;
  if (r->diffusion.block)
    river_diffuse (&r->diffusion, &r->g, NULL);
  if (r->uplift)
    terrain_parallel_rows (r->g.height, r->g.strips, r->g.height, uplift_rows, r, NULL, 0.0,
                           0.0);
  if (r->p->erosion > 0.0 || r->diffusion.block || r->uplift)
    return river_along_stack (&r->g, incise_chunk, r, r->progress, start + 0.6 * per_step,
                              start + per_step);
  return TERRAIN_OK;
}
