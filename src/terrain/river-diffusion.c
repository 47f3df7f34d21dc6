/* River erosion: hillslope diffusion, implicit, so that any coefficient is stable.
 *
 * One step solves (I - k Dxx) h' = h along every row, then (I - k Dyy) h'' = h' along every
 * column (backward Euler split by direction; Dxx h = h[x-1] - 2 h[x] + h[x+1]). Each
 * factor's inverse has no negative entry, so a step makes no new maximum or minimum and no
 * pattern oscillates, whatever k; the splitting costs first-order accuracy, which hillslope
 * smoothing does not need. On an open map a line's ends are border cells, outlets that keep
 * their height (fixed ends). On a wrapped map a line is a ring: its first cell x0 is taken
 * out and the rest solved as a line whose ends are held at 0 (y); then x = y + x0 z, where z
 * (between 0 and 1) solves that line with both ends held at 1, and x0 follows from the
 * first cell's own row. Every weight in that is positive, so rounding stays as small as the
 * heights' for any k. (Sherman-Morrison on a fixed-end solver, used before, subtracted
 * nearly equal floats: by k = 10^8 its heights left the input's range, and at 10^9 some
 * were infinite. The analytical method's long ages with diffusion reach such k; found by
 * fuzzing.) Lines shorter than 3 cells are left as they are. After each direction the
 * roots (outlets) get their heights back, so base level stays put.
 *
 * All lines of one direction share their solver's factors, computed once; the sweeps are
 * in float, and a line's arithmetic is the same whichever task runs it. */
#include "river-internal.h"

#include <stdlib.h>

/* Rows of the row pass between two meetings of the threads. */
#define ROWS_PER_BATCH 64
/* Rows solved together (a multiple of it fits ROWS_PER_BATCH). */
#define ROWS_AT_ONCE 8

/* A ring's first cell, from its own right-hand side and the solution y of the rest beside
 * it (the sweeps leave y0 = 0). */
static float
ring_first (const RiverLine *l, float own, float after_first, float last)
{
  return (float) (own * l->ring_own + l->ring_sides * ((double) after_first + last));
}

/* The factors of a line of n cells, for the sweeps of Thomas's algorithm:
 *   forward:  d[0] *= scale[0];  d[i] = d[i] * scale[i] + forward[i] * d[i - 1]
 *   backward: d[i] += back[i] * d[i + 1]
 * a, b, c are the sub-, main and super-diagonal of row i of the system they solve. On a
 * ring that is the rest with its ends held at 0, and the first row y0 = 0 (scale[0] = 0);
 * then d[i] += x0 ring[i] (ring[0] = 1). The ring's w = 1 - z is solved in double, with the
 * same pivots: the rest's rows minus the two ends' k add up to 1, so w solves the rest
 * with right-hand side 1, where z itself would be nearly 1 with 1 - z wanted. */
static int
factor_line (RiverLine *l, int n, double k, int ring)
{
  const double diagonal = 1.0 + 2.0 * k;
  double      *carried = malloc (2 * (size_t) n * sizeof (double)); /* c(i) / pivot(i) */
  double      *w = carried + n;
  if (carried == NULL)
    return 0;
  for (int i = 0; i < n; i++)
    {
      const int end = i == 0 || i == n - 1;
      double    a = i > 0 ? -k : 0.0, b = diagonal, c = i < n - 1 ? -k : 0.0;
      if ((end && ! ring) || (ring && i == 0)) /* a fixed end (x = d), or the ring's y0 */
        a = c = 0.0, b = 1.0;
      else if (ring && i == 1)
        a = 0.0;
      const double before = i > 0 ? carried[i - 1] : 0.0;
      const double pivot = 1.0 / (b - a * before);
      l->scale[i] = ring && i == 0 ? 0.0f : (float) pivot;
      l->forward[i] = (float) (-a * pivot);
      carried[i] = c * pivot;
      l->back[i] = (float) -carried[i];
      if (ring)
        w[i] = i == 0 ? 0.0 : (1.0 - a * w[i - 1]) * pivot;
    }
  l->length = n;
  if (ring)
    {
      for (int i = n - 2; i >= 1; i--)
        w[i] -= carried[i] * w[i + 1];
      /* The first row, (1 + 2k) x0 - k (x1 + x(n-1)) = d0 with x = y + x0 (1 - w). */
      const double denominator = 1.0 + k * (w[1] + w[n - 1]);
      l->ring_own = 1.0 / denominator;
      l->ring_sides = k / denominator;
      l->ring[0] = 1.0f;
      for (int i = 1; i < n; i++)
        l->ring[i] = (float) (1.0 - w[i]);
    }
  free (carried);
  return 1;
}

TerrainStatus
river_diffusion_init (RiverDiffusion *d, const RiverGrid *g, double coefficient)
{
  const size_t w = (size_t) g->width, h = (size_t) g->height;
  const size_t line_floats = 4 * (w + h);
  memset (d, 0, sizeof *d);
  d->block = terrain_alloc ((line_floats + w + g->cells) * sizeof (float));
  if (d->block == NULL)
    return TERRAIN_ERROR_NO_MEMORY;
  float *next = d->block;
  RiverLine *lines[2] = { &d->row, &d->column };
  const size_t lengths[2] = { w, h };
  for (int l = 0; l < 2; l++)
    {
      lines[l]->scale = next;
      lines[l]->forward = next + lengths[l];
      lines[l]->back = next + 2 * lengths[l];
      lines[l]->ring = g->wrap ? next + 3 * lengths[l] : NULL;
      next += 4 * lengths[l];
    }
  d->alpha = next;
  d->before = next + w;
  const TerrainStatus status = river_diffusion_set (d, g, coefficient);
  if (status != TERRAIN_OK)
    river_diffusion_free (d);
  return status;
}

TerrainStatus
river_diffusion_set (RiverDiffusion *d, const RiverGrid *g, double coefficient)
{
  RiverLine *lines[2] = { &d->row, &d->column };
  const int  lengths[2] = { g->width, g->height };
  d->coefficient = coefficient;
  for (int l = 0; l < 2; l++)
    if (lengths[l] >= 3 && ! factor_line (lines[l], lengths[l], coefficient, g->wrap))
      return TERRAIN_ERROR_NO_MEMORY;
  return TERRAIN_OK;
}

void
river_diffusion_free (RiverDiffusion *d)
{
  terrain_free (d->block);
  d->block = NULL;
}

typedef struct
{
  RiverDiffusion  *d;
  const RiverGrid *g;
  int              strips;
  float           *copy; /* NULL, or where the result goes too */
} Pass;

static void
restore_roots (const RiverGrid *g, const float *before, size_t first, size_t end)
{
  for (size_t i = first; i < end; i++)
    if (g->direction[i] == RIVER_NONE)
      g->h[i] = before[i];
}

/* solve_line() on `count` rows at once, their sweeps interleaved: a row's sweep is a chain
 * of dependent operations, several rows' are independent. Each row gets the same
 * operations as alone. */
static void
solve_rows (const RiverLine *l, float *const *d, int count)
{
  const int n = l->length;
  float     first[ROWS_AT_ONCE];
  for (int r = 0; r < count; r++)
    {
      first[r] = d[r][0];
      d[r][0] *= l->scale[0];
    }
  for (int i = 1; i < n; i++)
    for (int r = 0; r < count; r++)
      d[r][i] = d[r][i] * l->scale[i] + l->forward[i] * d[r][i - 1];
  for (int i = n - 2; i >= 0; i--)
    for (int r = 0; r < count; r++)
      d[r][i] += l->back[i] * d[r][i + 1];
  for (int r = 0; r < count && l->ring != NULL; r++)
    {
      const float x0 = ring_first (l, first[r], d[r][1], d[r][n - 1]);
      for (int i = 0; i < n; i++)
        d[r][i] += x0 * l->ring[i];
    }
}

static void
rows_task (void *user, int strip, int first, int end)
{
  const Pass  *p = user;
  const size_t w = (size_t) p->g->width;
  (void) strip;
  memcpy (p->d->before + first * w, p->g->h + first * w, (end - first) * w * sizeof (float));
  if (p->d->row.length == 0)
    {
      if (p->copy && p->d->column.length == 0)
        memcpy (p->copy + first * w, p->g->h + first * w, (end - first) * w * sizeof (float));
      return;
    }
  for (int y = first; y < end; y += ROWS_AT_ONCE)
    {
      float *rows[ROWS_AT_ONCE];
      int    count = 0;
      for (; count < ROWS_AT_ONCE && y + count < end; count++)
        rows[count] = p->g->h + (y + count) * w;
      solve_rows (&p->d->row, rows, count);
    }
  restore_roots (p->g, p->d->before, first * w, end * w);
  if (p->copy && p->d->column.length == 0)
    memcpy (p->copy + first * w, p->g->h + first * w, (end - first) * w * sizeof (float));
}

/* The column solver's sweeps of solve_line(), a row at a time over columns [c0, c1). */
static void
columns_task (void *user, int strip)
{
  const Pass      *p = user;
  const RiverLine *l = &p->d->column;
  const size_t     w = (size_t) p->g->width, n = (size_t) l->length;
  const size_t     c0 = (size_t) ((double) w * strip / p->strips);
  const size_t     c1 = (size_t) ((double) w * (strip + 1) / p->strips);
  float           *h = p->g->h, *alpha = p->d->alpha;
  for (size_t c = c0; c < c1; c++)
    {
      alpha[c] = h[c]; /* the ring's first right-hand side, until its x0 */
      h[c] *= l->scale[0];
    }
  for (size_t i = 1; i < n; i++)
    for (size_t c = c0; c < c1; c++)
      h[i * w + c] = h[i * w + c] * l->scale[i] + l->forward[i] * h[(i - 1) * w + c];
  for (size_t i = n - 1; i-- > 0;)
    for (size_t c = c0; c < c1; c++)
      h[i * w + c] += l->back[i] * h[(i + 1) * w + c];
  if (l->ring != NULL)
    {
      for (size_t c = c0; c < c1; c++)
        alpha[c] = ring_first (l, alpha[c], h[w + c], h[(n - 1) * w + c]);
      for (size_t i = 0; i < n; i++)
        for (size_t c = c0; c < c1; c++)
          h[i * w + c] += alpha[c] * l->ring[i];
    }
  for (size_t i = 0; i < n; i++)
    {
      restore_roots (p->g, p->d->before, i * w + c0, i * w + c1);
      if (p->copy)
        memcpy (p->copy + i * w + c0, h + i * w + c0, (c1 - c0) * sizeof (float));
    }
}

void
river_diffuse (RiverDiffusion *d, const RiverGrid *g, float *copy)
{
  Pass p = { d, g, g->strips, copy };
  terrain_parallel_rows (g->height, g->strips, ROWS_PER_BATCH, rows_task, &p, NULL, 0.0, 0.0);
  if (d->column.length == 0)
    return;
  p.strips = terrain_parallel_strips (g->width, g->cells * RIVER_WORK_PER_CELL);
  terrain_parallel_for (p.strips, columns_task, &p);
}
