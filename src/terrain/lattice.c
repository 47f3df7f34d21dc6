#include "lattice.h"

#include "terrain-common.h"

#include <stdint.h>
#include <stdlib.h>

static int
largest_power_of_two_at_most (int n)
{
  int p = 1;
  while (p <= n / 2)
    p *= 2;
  return p;
}

static int
cells_for (int span, int cell)
{
  return span > 0 ? (span + cell - 1) / cell : 1;
}

void
lattice_plan (Lattice *l, int width, int height, int periodic)
{
  /* Bounded lattices need width-1 x height-1 cells' worth of span, periodic ones width x height. */
  const int span_x = periodic ? width : width - 1;
  const int span_y = periodic ? height : height - 1;
  const int shorter = span_x < span_y ? span_x : span_y;
  /* A periodic lattice of one cell has a single corner node: its largest scale would have
   * almost no random freedom (too little large-scale relief). Two cells across at least. */
  const int widest_cell = periodic ? shorter / 2 : shorter;
  int cell = largest_power_of_two_at_most (widest_cell > 1 ? widest_cell : 1);

  if (periodic)
    for (int c = cell; c >= 1 && shorter / c <= MAX_EXACT_CELLS; c /= 2)
      if (width % c == 0 && height % c == 0)
        {
          cell = c;
          goto planned;
        }
  while (cell > 1 && (cells_for (span_x, cell) * cell > MAX_NODES_PER_PIXEL * span_x ||
                      cells_for (span_y, cell) * cell > MAX_NODES_PER_PIXEL * span_y))
    cell /= 2;

planned:
  l->cell = cell;
  l->periodic = periodic;
  l->cells_x = cells_for (span_x, cell);
  l->cells_y = cells_for (span_y, cell);
  l->nodes_x = l->cells_x * cell + (periodic ? 0 : 1);
  l->nodes_y = l->cells_y * cell + (periodic ? 0 : 1);
}

int
lattice_alloc (Lattice *l)
{
  if ((size_t) l->nodes_x > SIZE_MAX / sizeof (float) / (size_t) l->nodes_y)
    return 0;
  l->v = terrain_alloc ((size_t) l->nodes_x * l->nodes_y * sizeof (float));
  return l->v != NULL;
}

void
lattice_to_layer (const Lattice *l, float *out, int width, int height)
{
  if (! l->periodic || (l->nodes_x == width && l->nodes_y == height))
    {
      for (int y = 0; y < height; y++)
        {
          const float *src = lattice_row (l, y);
          for (int x = 0; x < width; x++)
            out[(size_t) y * width + x] = src[x];
        }
      return;
    }
  const double sx = (double) l->nodes_x / width, sy = (double) l->nodes_y / height;
  for (int y = 0; y < height; y++)
    {
      const double v = y * sy;
      const int    j0 = (int) v, j1 = (j0 + 1) % l->nodes_y;
      const float  fy = (float) (v - j0);
      const float *r0 = lattice_row (l, j0), *r1 = lattice_row (l, j1);
      for (int x = 0; x < width; x++)
        {
          const double u = x * sx;
          const int    i0 = (int) u, i1 = (i0 + 1) % l->nodes_x;
          const float  fx = (float) (u - i0);
          const float  top = r0[i0] + fx * (r0[i1] - r0[i0]);
          const float  bottom = r1[i0] + fx * (r1[i1] - r1[i0]);
          out[(size_t) y * width + x] = top + fy * (bottom - top);
        }
    }
}

