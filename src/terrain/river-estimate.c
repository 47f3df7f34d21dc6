/* River erosion: the estimate of a layer grown from a coarser grid (river-erosion.c:
 * coarse_estimate), made to drain along the coarser grid's receiver order instead of by a
 * fill.
 *
 * The estimate is the coarser grid's result stretched back (bilinear), which drains nearly
 * everywhere: where a coarse river steps diagonally, the stretch mixes its banks into it and
 * dams it. A priority-flood fill mends that, but floods every cell to find the few it raises
 * (at 1024 x 1024 about 3 %), and was a quarter of the growing run. The coarser grid's order
 * already says which way everything drains: its blocks (the 2 x 2 layer cells of a coarse
 * cell) are taken in that order, receivers first, and a block's cells in order of their
 * distance to the block's receiver, then height. A cell is then kept when it is above the
 * lowest of its neighbours taken before it in the same coarse tree, and raised a few floats
 * above that neighbour when not (river_raised_height, as the fill raises). So every cell
 * but an outlet ends strictly above a neighbour, and the steepest descent of the result
 * drains. Coarse trees touch nothing of each other's: they run in parallel, and the result
 * does not depend on the threads. Used from age DRAIN_FROM_AGE on (river-analytical.c says
 * why not before). */
#include "river-internal.h"

#include <math.h>
#include <stdatomic.h>

typedef struct
{
  RiverGrid              *g;
  const RiverCoarseOrder *c;
  int32_t                *place_of; /* the coarse place of every coarse cell */
  int32_t                *root_of;  /* the place of every coarse place's root */
  atomic_int              stuck;    /* a cell had no neighbour taken before it */
} Drain;

/* The coarse cell of layer cell (x, y). */
static int32_t
block_of (const RiverCoarseOrder *c, int x, int y)
{
  return (int32_t) ((y >> 1) * c->width + (x >> 1));
}

/* Step from coarse coordinate `from` to `to` on a side of `cells`, wrapped: -1, 0 or 1. */
static int
step_towards (int from, int to, int cells, int wrap)
{
  int d = to - from;
  if (wrap && d > 1)
    d -= cells;
  if (wrap && d < -1)
    d += cells;
  return d > 0 ? 1 : d < 0 ? -1 : 0;
}

/* Whether the layer cells of coarse cell `block` were taken before those of the coarse cell
 * at place s: at an earlier place of the same coarse tree. */
static int
taken_before (const Drain *d, int32_t block, size_t s)
{
  const int32_t p = d->place_of[block];
  return (size_t) p < s && d->root_of[p] == d->root_of[s];
}

/* The layer cells of the coarse cell at place s, in the order they are taken. */
static int
block_cells (const Drain *d, size_t s, size_t *cell)
{
  const RiverGrid        *g = d->g;
  const RiverCoarseOrder *c = d->c;
  const int32_t           block = c->stack[s], to = c->stack[c->parent[s]];
  const int cx = block % c->width, cy = block / c->width;
  const int dx = step_towards (cx, to % c->width, c->width, g->wrap);
  const int dy = step_towards (cy, to / c->width, c->height, g->wrap);
  int       key[4], count = 0;
  for (int b = 0; b < 2; b++)
    for (int a = 0; a < 2; a++)
      {
        const int x = 2 * cx + a, y = 2 * cy + b;
        if (x >= g->width || y >= g->height)
          continue;
        const size_t i = (size_t) y * g->width + x;
        /* Outlets first; then nearer the receiver's block first (a farther cell has a
         * nearer one of its block next to it), then lower first. */
        const int k = g->outlet[i] ? -2 : -(a * dx + b * dy);
        int       at = count++;
        for (; at > 0 && (key[at - 1] > k || (key[at - 1] == k && g->h[cell[at - 1]] > g->h[i]));
             at--)
          {
            key[at] = key[at - 1];
            cell[at] = cell[at - 1];
          }
        key[at] = k;
        cell[at] = i;
      }
  return count;
}

/* Takes the layer cells of the coarse cell at place s; a cell with no neighbour taken before
 * it (a coarse outlet without an outlet among its cells) marks the run stuck and ends the
 * block. */
static void
drain_block (Drain *d, size_t s)
{
  RiverGrid *g = d->g;
  size_t     cell[4];
  const int  count = block_cells (d, s, cell);
  const int32_t block = d->c->stack[s];
  for (int t = 0; t < count; t++)
    {
      const size_t i = cell[t];
      if (g->outlet[i])
        continue;
      const int x = (int) (i % g->width), y = (int) (i / g->width);
      float     lowest = INFINITY;
      for (int k = 0; k < RIVER_NEIGHBOURS; k++)
        {
          int nx = x + RIVER_DX[k], ny = y + RIVER_DY[k];
          if (g->wrap)
            {
              nx = nx < 0 ? nx + g->width : nx >= g->width ? nx - g->width : nx;
              ny = ny < 0 ? ny + g->height : ny >= g->height ? ny - g->height : ny;
            }
          else if (nx < 0 || nx >= g->width || ny < 0 || ny >= g->height)
            continue;
          const size_t  n = (size_t) ny * g->width + nx;
          const int32_t nb = block_of (d->c, nx, ny);
          int           taken = 0;
          if (nb == block)
            for (int u = 0; u < t; u++)
              taken |= cell[u] == n;
          else
            taken = taken_before (d, nb, s);
          if (taken && g->h[n] < lowest)
            lowest = g->h[n];
        }
      if (lowest == INFINITY)
        {
          atomic_store (&d->stuck, 1);
          return;
        }
      if (! (g->h[i] > lowest))
        g->h[i] = river_raised_height (lowest, i);
    }
}

/* A chunk's coarse trees. A stuck cell does not stop the others: what is raised stays the
 * same whatever the threads, and the fill that follows starts from it. */
static void
drain_chunk (void *user, int chunk)
{
  Drain *d = user;
  for (size_t s = d->c->chunk_start[chunk]; s < d->c->chunk_start[chunk + 1]; s++)
    drain_block (d, s);
}

int
river_drain_along (RiverGrid *g, const RiverCoarseOrder *c)
{
  const size_t coarse = (size_t) c->width * c->height;
  int32_t     *index = terrain_alloc (2 * coarse * sizeof (int32_t));
  if (index == NULL)
    return 0;
  Drain d = { .g = g, .c = c, .place_of = index, .root_of = index + coarse };
  atomic_init (&d.stuck, 0);
  for (size_t s = 0; s < coarse; s++)
    {
      d.place_of[c->stack[s]] = (int32_t) s;
      d.root_of[s] = c->parent[s] == (int32_t) s ? (int32_t) s : d.root_of[c->parent[s]];
    }
  terrain_parallel_for (c->chunks, drain_chunk, &d);
  terrain_free (index);
  return ! atomic_load (&d.stuck);
}
