#include "smooth.h"

#include "terrain-common.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Rows between two progress reports (and cancellation checks) inside one iteration. */
#define ROWS_PER_REPORT 256
/* Lines a FIR sweep advances side by side (see fir_sweep). Along rows: enough independent
 * recursions to hide the latency of one, but few enough that rows a power-of-two stride
 * apart do not evict each other from one L1 cache set (16 rows of 4 KiB ran 5x slower).
 * Along columns: a contiguous run of 1 KiB per step. */
#define FIR_ROWS_TOGETHER    6
#define FIR_COLUMNS_TOGETHER 256

static int
cancelled (const TerrainProgress *progress, int iteration, int iterations, double done)
{
  return terrain_progress_report (progress, (iteration + done) / iterations);
}

static TerrainStatus
finished (const TerrainProgress *progress)
{
  return terrain_progress_report (progress, 1.0) ? TERRAIN_CANCELLED : TERRAIN_OK;
}

/* Rounding can carry a weighted sum of values near FLT_MAX just past it; keeping every
 * result finite is what guarantees that no later step computes inf - inf = NaN. */
static inline float
clamp_finite (double v)
{
  return v > FLT_MAX ? FLT_MAX : v < -FLT_MAX ? -FLT_MAX : (float) v;
}

/* ---- Old rows: in-place filtering with a vertical reach of `radius` rows ----
 * While row y is rewritten, rows above it are already new, so their old values come from
 * a ring of radius + 1 row copies (row y itself is copied first); rows below y are still
 * old in data. This costs a few rows of memory instead of a second heightmap. Each copy
 * has one ghost cell at either end repeating the edge value.
 *
 * Several threads: the rows are cut into strips (terrain_parallel_rows), each rewritten in
 * order, in place, with its own OldRows. The old rows within `radius` outside a strip are
 * rewritten by the strips next to it meanwhile, so they are copied into the strip's halo
 * before every iteration; the strip then reads exactly the old values one strip would. */
typedef struct
{
  float *ring;        /* radius + 1 rows, then the halo: radius rows above the strip and
                         radius rows below it */
  int    radius, width, height;
  int    first, end;  /* the strip: rows [first, end) */
} OldRows;

static int
old_rows_init (OldRows *o, int radius, int width, int height)
{
  o->radius = radius;
  o->width = width;
  o->height = height;
  o->first = 0;
  o->end = height;
  o->ring = terrain_alloc ((size_t) (3 * radius + 1) * ((size_t) width + 2) * sizeof (float));
  return o->ring != NULL;
}

/* Copy number `slot` (ring slots first, then the halo's). */
static float *
copy_slot (const OldRows *o, int slot)
{
  return o->ring + (size_t) slot * ((size_t) o->width + 2) + 1;
}

static float *
ring_slot (const OldRows *o, int y)
{
  return copy_slot (o, y % (o->radius + 1));
}

/* The halo's copy of row y, outside the strip. */
static float *
halo_slot (const OldRows *o, int y)
{
  return copy_slot (o, o->radius + 1 + (y < o->first ? y - (o->first - o->radius)
                                                     : o->radius + y - o->end));
}

/* Copies row y into copy (ghost cells at [-1], [width]). */
static const float *
copy_row (const OldRows *o, const float *data, int y, float *copy)
{
  memcpy (copy, data + (size_t) y * o->width, (size_t) o->width * sizeof (float));
  copy[-1] = copy[0];
  copy[o->width] = copy[o->width - 1];
  return copy;
}

/* Copies row y before it is overwritten; returns the copy. */
static const float *
save_row (OldRows *o, const float *data, int y)
{
  return copy_row (o, data, y, ring_slot (o, y));
}

/* Makes o the strip [first, end) and copies its halo: call it before an iteration. */
static void
save_halo (OldRows *o, const float *data, int first, int end)
{
  o->first = first;
  o->end = end;
  for (int y = first - o->radius; y < end + o->radius; y = y + 1 == first ? end : y + 1)
    if (y >= 0 && y < o->height)
      copy_row (o, data, y, halo_slot (o, y));
}

/* Old values of row y + dy while row y is written (after save_row), NULL off the map. */
static const float *
old_row (const OldRows *o, const float *data, int y, int dy)
{
  const int row = y + dy;
  if (row < 0 || row >= o->height)
    return NULL;
  if (row < o->first || row >= o->end)
    return halo_slot (o, row);
  return dy <= 0 ? ring_slot (o, row) : data + (size_t) row * o->width;
}

/* Rewrites row y of data (saved already) from the old rows; params and scratch are the
 * filter's. */
typedef void (*RowUpdate) (const OldRows *old, float *data, int y, const void *params,
                           double *scratch);

/* One filter's iterations, in strips. */
typedef struct
{
  float      *data;
  OldRows    *old;          /* one per strip */
  double     *scratch;      /* scratch_size doubles per strip */
  size_t      scratch_size;
  RowUpdate   update;
  const void *params;
} StripFilter;

static void
save_halo_task (void *user, int strip, int first, int end)
{
  const StripFilter *f = user;
  save_halo (&f->old[strip], f->data, first, end);
}

static void
update_rows_task (void *user, int strip, int first, int end)
{
  const StripFilter *f = user;
  OldRows           *old = &f->old[strip];
  for (int y = first; y < end; y++)
    {
      save_row (old, f->data, y);
      f->update (old, f->data, y, f->params, f->scratch + (size_t) strip * f->scratch_size);
    }
}

/* Runs `iterations` of update over every row of data, reporting progress; radius is how
 * far from a row update reads. */
static TerrainStatus
iterate_rows (float *data, int width, int height, int radius, int iterations, RowUpdate update,
              const void *params, size_t scratch_size, const TerrainProgress *progress)
{
  const int   strips = terrain_map_strips (height, width);
  StripFilter f = { data, terrain_calloc ((size_t) strips, sizeof (OldRows)),
                    terrain_alloc (((size_t) strips * scratch_size + 1) * sizeof (double)),
                    scratch_size, update, params };
  int         ready = 0;
  if (f.old != NULL && f.scratch != NULL)
    while (ready < strips && old_rows_init (&f.old[ready], radius, width, height))
      ready++;
  TerrainStatus status = ready == strips ? TERRAIN_OK : TERRAIN_ERROR_NO_MEMORY;
  for (int it = 0; it < iterations && status == TERRAIN_OK; it++)
    {
      terrain_parallel_rows (height, strips, height, save_halo_task, &f, NULL, 0.0, 0.0);
      status = terrain_parallel_rows (height, strips, ROWS_PER_REPORT, update_rows_task, &f,
                                      progress, (double) it / iterations,
                                      (double) (it + 1) / iterations);
    }
  for (int s = 0; s < ready; s++)
    terrain_free (f.old[s].ring);
  terrain_free (f.old);
  terrain_free (f.scratch);
  return status == TERRAIN_OK ? finished (progress) : status;
}

/* ---- Laplacian ---- */

/* h' = h/2 + (up + down + left + right)/8, a missing neighbour being h itself. Written as
 * h + sum over neighbours of (n - h)/8 this is a symmetric exchange between neighbour
 * pairs, which conserves the total height exactly, up to float rounding. Each term is
 * scaled before it is added so that no partial sum can overflow, and a constant map gives
 * back exactly its value (h/8 + h/8 + h/8 + h/8 + h/2 is exact in binary). */
static void
laplacian_row (const OldRows *old, float *data, int y, const void *params, double *scratch)
{
  const int    width = old->width;
  const float *c = old_row (old, data, y, 0);
  const float *up = old_row (old, data, y, -1);
  const float *down = old_row (old, data, y, 1);
  (void) params;
  (void) scratch;
  if (up == NULL)
    up = c;
  if (down == NULL)
    down = c;
  float *out = data + (size_t) y * width;
  for (int x = 0; x < width; x++)
    out[x] = 0.5f * c[x] + ((0.125f * up[x] + 0.125f * down[x]) +
                            (0.125f * c[x - 1] + 0.125f * c[x + 1]));
}

static TerrainStatus
laplacian_smooth (float *data, int width, int height, int iterations,
                  const TerrainProgress *progress)
{
  return iterate_rows (data, width, height, 1, iterations, laplacian_row, NULL, 0, progress);
}

/* ---- FIR ---- */

/* One recursive sweep, p[i] = p[i-1] (1 - keep) + p[i] keep for i = 1 .. length-1, over
 * `lines` independent lines; point i of line l is first[l * line_step + i * point_step].
 * All four directions are this one function with different steps. Lines advance in
 * blocks of `together` side by side, point by point: along rows that runs independent
 * recursions in parallel instead of waiting on one chain; along columns it makes the
 * inner loop contiguous. */
static void
fir_sweep (float *first, int lines, ptrdiff_t line_step, int length, ptrdiff_t point_step,
           int together, float keep)
{
  const float take = 1.0f - keep;
  for (int l0 = 0; l0 < lines; l0 += together)
    {
      const int n = lines - l0 < together ? lines - l0 : together;
      float    *block = first + l0 * line_step;
      for (int i = 1; i < length; i++)
        {
          float *point = block + i * point_step;
          for (int l = 0; l < n; l++)
            {
              float *q = point + l * line_step;
              *q = clamp_finite (q[-point_step] * take + *q * keep);
            }
        }
    }
}

/* Lines [first, end) of a pair of sweeps, forwards then backwards; lines are independent,
 * so blocks of them run on any threads. */
typedef struct
{
  float    *forth, *back; /* point 0 of line 0 going either way */
  int       lines, length, together;
  ptrdiff_t line_step, point_step;
  float     keep;
} Sweeps;

static void
sweeps_task (void *user, int strip, int first, int end)
{
  const Sweeps   *s = user;
  const int       l0 = first * s->together;
  const int       l1 = end < (s->lines + s->together - 1) / s->together ? end * s->together
                                                                         : s->lines;
  const ptrdiff_t offset = l0 * s->line_step;
  (void) strip;
  fir_sweep (s->forth + offset, l1 - l0, s->line_step, s->length, s->point_step, s->together,
             s->keep);
  fir_sweep (s->back + offset, l1 - l0, s->line_step, s->length, -s->point_step, s->together,
             s->keep);
}

/* fir_sweep forwards, then backwards, over every line. */
static void
sweep_both_ways (float *first, int lines, ptrdiff_t line_step, int length, ptrdiff_t point_step,
                 int together, float keep)
{
  Sweeps    s = { first, first + (length - 1) * point_step, lines, length, together,
                  line_step, point_step, keep };
  const int blocks = (lines + together - 1) / together;
  terrain_parallel_rows (blocks, terrain_parallel_strips (blocks, (size_t) lines * length), blocks, sweeps_task, &s,
                         NULL, 0.0, 0.0);
}

static TerrainStatus
fir_smooth (float *data, int width, int height, int iterations, float keep,
            const TerrainProgress *progress)
{
  for (int it = 0; it < iterations; it++)
    {
      if (cancelled (progress, it, iterations, 0.0))
        return TERRAIN_CANCELLED;
      /* Rows left to right, then right to left. */
      sweep_both_ways (data, height, width, width, 1, FIR_ROWS_TOGETHER, keep);
      if (cancelled (progress, it, iterations, 0.5))
        return TERRAIN_CANCELLED;
      /* Columns top to bottom, then bottom to top. */
      sweep_both_ways (data, width, 1, height, width, FIR_COLUMNS_TOGETHER, keep);
    }
  return finished (progress);
}

/* ---- Matrix ---- */

/* Sum of the weights of the taps that fall on the map around (x, y); *magnitude gets the
 * sum of their absolute values. The filter divides by this at the border and the
 * validation checks it, so both see the same number. */
static double
used_weights (const float *w, int size, int x, int y, int width, int height, double *magnitude)
{
  const int r = size / 2;
  double sum = 0.0, mag = 0.0;
  for (int dy = -r; dy <= r; dy++)
    for (int dx = -r; dx <= r; dx++)
      if (y + dy >= 0 && y + dy < height && x + dx >= 0 && x + dx < width)
        {
          sum += w[(dy + r) * size + dx + r];
          mag += fabs (w[(dy + r) * size + dx + r]);
        }
  if (magnitude != NULL)
    *magnitude = mag;
  return sum;
}

/* Weights summing to (nearly) zero would divide by ~0. Relative to their size, so the
 * verdict does not depend on the scale the kernel was typed in. */
static int
weights_vanish (double sum, double magnitude)
{
  return ! (fabs (sum) > 1e-6 * magnitude);
}

/* Positions along an axis of n points that see every distinct set of taps: the first
 * r + 1 and the last r + 1; any point between sees the same taps as point r. */
static int
axis_samples (int n, int r, int out[6])
{
  int count = 0;
  for (int i = 0; i < n && i <= r; i++)
    out[count++] = i;
  for (int i = n - 1 - r; i < n; i++)
    if (i > r)
      out[count++] = i;
  return count;
}

int
terrain_kernel_usable (const float *w, int size, int width, int height)
{
  for (int i = 0; i < size * size; i++)
    if (! (fabsf (w[i]) <= FLT_MAX))
      return 0;
  int xs[6], ys[6];
  const int nx = axis_samples (width, size / 2, xs), ny = axis_samples (height, size / 2, ys);
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++)
      {
        double magnitude, sum = used_weights (w, size, xs[i], ys[j], width, height, &magnitude);
        if (weights_vanish (sum, magnitude))
          return 0;
      }
  return 1;
}

/* A matrix filter's kernel: size x size weights, and 1 / their sum. */
typedef struct
{
  float  w[25];
  int    size;
  double inv_total;
} Matrix;

/* One row: acc[x] = sum of weight * old value over the taps on the map, accumulated in
 * double (no overflow whatever the finite inputs), then divided by the used weights. Taps
 * are applied one at a time along the whole row, so the inner loop is a plain a*x + y.
 * params is a Matrix, acc width doubles. */
static void
matrix_row (const OldRows *old, float *data, int y, const void *params, double *acc)
{
  const Matrix *m = params;
  const float  *w = m->w;
  const int     size = m->size, r = size / 2, width = old->width, height = old->height;
  for (int x = 0; x < width; x++)
    acc[x] = 0.0;
  for (int dy = -r; dy <= r; dy++)
    {
      const float *src = old_row (old, data, y, dy);
      if (src == NULL)
        continue;
      for (int dx = -r; dx <= r; dx++)
        {
          const double weight = w[(dy + r) * size + dx + r];
          const int    x0 = dx < 0 ? -dx : 0, x1 = dx > 0 ? width - dx : width;
          if (weight != 0.0)
            for (int x = x0; x < x1; x++)
              acc[x] += weight * src[x + dx];
        }
    }
  /* Inside, every tap is used: multiply by the precomputed 1 / total. */
  float    *out = data + (size_t) y * width;
  const int inside_row = y >= r && y < height - r;
  const int lo = inside_row ? (r < width ? r : width) : width;
  const int hi = inside_row && width - r > lo ? width - r : lo;
  for (int x = lo; x < hi; x++)
    out[x] = clamp_finite (acc[x] * m->inv_total);
  /* The rest, columns [0, lo) and [hi, width), divides by the weights it actually used. */
  for (int x = 0; x < width; x = x + 1 == lo ? hi : x + 1)
    out[x] = clamp_finite (acc[x] / used_weights (w, size, x, y, width, height, NULL));
}

static TerrainStatus
matrix_smooth (const TerrainSmooth *p, float *data, int width, int height,
               const TerrainProgress *progress)
{
  Matrix m;
  if (p->kernel == TERRAIN_KERNEL_CUSTOM)
    {
      if (p->custom_size != 3 && p->custom_size != 5)
        return TERRAIN_ERROR_INVALID;
      memcpy (m.w, p->custom, sizeof m.w);
      m.size = p->custom_size;
    }
  else
    terrain_kernel_named (p->kernel, m.w, &m.size);
  if (! terrain_kernel_usable (m.w, m.size, width, height))
    return TERRAIN_ERROR_INVALID;

  double total = 0.0;
  for (int i = 0; i < m.size * m.size; i++)
    total += m.w[i];
  m.inv_total = 1.0 / total;
  return iterate_rows (data, width, height, m.size / 2, p->iterations, matrix_row, &m,
                       (size_t) width, progress);
}

/* ---- Public entry points ---- */

void
terrain_smooth_defaults (TerrainSmooth *params)
{
  params->method = TERRAIN_SMOOTH_LAPLACIAN;
  params->iterations = 16;
  params->k = 0.5;
  params->kernel = TERRAIN_KERNEL_GAUSS_3;
  terrain_kernel_named (TERRAIN_KERNEL_GAUSS_3, params->custom, &params->custom_size);
}

TerrainStatus
terrain_kernel_named (TerrainKernel kernel, float out[25], int *size)
{
  static const float box[5] = { 1, 1, 1, 1, 1 };
  static const float binomial3[3] = { 1, 2, 1 };
  static const float binomial5[5] = { 1, 4, 6, 4, 1 };
  const float *row;
  int n;
  switch (kernel)
    {
    case TERRAIN_KERNEL_BOX_3:   row = box;       n = 3; break;
    case TERRAIN_KERNEL_GAUSS_3: row = binomial3; n = 3; break;
    case TERRAIN_KERNEL_BOX_5:   row = box;       n = 5; break;
    case TERRAIN_KERNEL_GAUSS_5: row = binomial5; n = 5; break;
    default:                     return TERRAIN_ERROR_INVALID;
    }
  /* Both kinds are separable: the weight of tap (i, j) is row[i] * row[j]. Unnormalised
   * integers are exact, and the filter divides by their sum anyway. */
  for (int i = 0; i < 25; i++)
    out[i] = i < n * n ? row[i / n] * row[i % n] : 0.0f;
  *size = n;
  return TERRAIN_OK;
}

TerrainStatus
terrain_smooth (const TerrainSmooth *p, float *data, int width, int height,
                const TerrainProgress *progress)
{
  TerrainStatus status = terrain_check_size (width, height);
  if (status != TERRAIN_OK)
    return status;
  if ((unsigned) p->method > TERRAIN_SMOOTH_MATRIX ||
      p->iterations < 1 || p->iterations > TERRAIN_SMOOTH_MAX_ITERATIONS ||
      ! (p->k >= 0.0 && p->k <= 1.0) || (unsigned) p->kernel > TERRAIN_KERNEL_CUSTOM)
    return TERRAIN_ERROR_INVALID;

  switch (p->method)
    {
    case TERRAIN_SMOOTH_LAPLACIAN:
      return laplacian_smooth (data, width, height, p->iterations, progress);
    case TERRAIN_SMOOTH_FIR:
      return fir_smooth (data, width, height, p->iterations, (float) p->k, progress);
    case TERRAIN_SMOOTH_MATRIX:
      return matrix_smooth (p, data, width, height, progress);
    }
  return TERRAIN_ERROR_INVALID;
}

/* ---- Kernel text ---- */

/* The C locale's white space, whatever the current locale says. */
static int
is_space (char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static const char *
skip_space (const char *s)
{
  while (is_space (*s))
    s++;
  return s;
}

static int
is_digit (char c)
{
  return c >= '0' && c <= '9';
}

/* Reads one number at *s: [+-] digits [. digits] [(e|E) [+-] digits], with at least one
 * mantissa digit; advances *s past it, or returns 0 when none starts there. Written out
 * rather than strtod: strtod follows LC_NUMERIC, which gtk_init sets from the user's
 * environment (the decimal point may then be a comma, our separator), and it also accepts
 * hex, "nan" and "inf". Only the first 18 significant digits count - far beyond float
 * precision - so arbitrarily long digit strings neither overflow nor lose the exponent. */
static int
scan_number (const char **s, double *value)
{
  const char *p = *s;
  const int   negative = *p == '-';
  double      mantissa = 0.0;
  long long   exponent = 0; /* counts at most one per character: cannot overflow */
  int         digits = 0;

  if (*p == '+' || *p == '-')
    p++;
  for (; is_digit (*p); p++, digits++)
    if (mantissa < 1e18)
      mantissa = mantissa * 10.0 + (*p - '0');
    else
      exponent++;
  if (*p == '.')
    for (p++; is_digit (*p); p++, digits++)
      if (mantissa < 1e18)
        {
          mantissa = mantissa * 10.0 + (*p - '0');
          exponent--;
        }
  if (digits == 0)
    return 0;
  if (*p == 'e' || *p == 'E')
    {
      const char *e = p + 1;
      const int   e_negative = *e == '-';
      long long   e_value = 0;
      if (*e == '+' || *e == '-')
        e++;
      if (! is_digit (*e))
        return 0;
      for (; is_digit (*e); e++)
        if (e_value < 1000000000) /* beyond any float anyway */
          e_value = e_value * 10 + (*e - '0');
      exponent += e_negative ? -e_value : e_value;
      p = e;
    }
  /* 0 * pow (10, huge) would be NaN; an overflow gives inf, rejected by the caller. */
  *value = mantissa == 0.0 ? 0.0 : mantissa * pow (10.0, (double) exponent);
  if (negative)
    *value = -*value;
  *s = p;
  return 1;
}

/* TERRAIN_ERROR_INVALID, with what went wrong in *fault when the caller wants it. */
static TerrainStatus
kernel_fault (TerrainKernelFault *fault, TerrainKernelProblem problem, int item, int count,
              const char *text, const char *at)
{
  if (fault)
    *fault = (TerrainKernelFault) { .problem = problem, .item = item, .count = count,
                                    .offset = (size_t) (at - text) };
  return TERRAIN_ERROR_INVALID;
}

TerrainStatus
terrain_kernel_parse (const char *text, float kernel[25], int *size, TerrainKernelFault *fault)
{
  float       values[25];
  int         count = 0;
  if (text == NULL)
    text = "";
  const char *p = skip_space (text);
  while (*p != '\0')
    {
      double      v;
      const char *start = p;
      if (*p == ',') /* a comma first, or a second one after a number */
        return kernel_fault (fault, TERRAIN_KERNEL_SEPARATOR, count, count, text, p);
      if (count == 25)
        return kernel_fault (fault, TERRAIN_KERNEL_COUNT, count + 1, count + 1, text, p);
      if (! scan_number (&p, &v))
        return kernel_fault (fault, TERRAIN_KERNEL_NOT_A_NUMBER, count + 1, count, text, p);
      if (! (fabs (v) <= FLT_MAX))
        return kernel_fault (fault, TERRAIN_KERNEL_OUT_OF_RANGE, count + 1, count, text, start);
      values[count++] = (float) v;
      /* Between two numbers: white space and/or one comma, and something at all ("1-2" is
       * a typo, not two numbers; "1x" is no number). */
      const char *next = skip_space (p);
      if (*next == ',')
        next = skip_space (next + 1);
      if (next == p && *next != '\0')
        return is_digit (*next) || *next == '.' || *next == '+' || *next == '-'
                 ? kernel_fault (fault, TERRAIN_KERNEL_SEPARATOR, count, count, text, next)
                 : kernel_fault (fault, TERRAIN_KERNEL_NOT_A_NUMBER, count, count - 1, text,
                                 start);
      p = next;
    }
  if (count == 0)
    return kernel_fault (fault, TERRAIN_KERNEL_EMPTY, 0, 0, text, p);
  if (count != 9 && count != 25)
    return kernel_fault (fault, TERRAIN_KERNEL_COUNT, count, count, text, p);

  double sum = 0.0, magnitude = 0.0;
  for (int i = 0; i < count; i++)
    {
      sum += values[i];
      magnitude += fabs (values[i]);
    }
  if (weights_vanish (sum, magnitude))
    {
      kernel_fault (fault, TERRAIN_KERNEL_SUM, count, count, text, p);
      if (fault)
        {
          fault->sum = sum;
          fault->magnitude = magnitude;
        }
      return TERRAIN_ERROR_INVALID;
    }
  for (int i = 0; i < 25; i++)
    kernel[i] = i < count ? values[i] : 0.0f;
  *size = count == 9 ? 3 : 5;
  if (fault)
    *fault = (TerrainKernelFault) { .problem = TERRAIN_KERNEL_FINE, .count = count,
                                    .sum = sum, .magnitude = magnitude };
  return TERRAIN_OK;
}
