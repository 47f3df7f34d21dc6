#include "hydraulic-observer.h"

#include "random.h"
#include "terrain-common.h"

#include <float.h>
#include <math.h>
#include <stddef.h>

/* Work between two progress reports (and cancellation checks), in brush-pixel steps: a
 * few milliseconds whatever the parameters. Counting droplets instead would let one
 * interval grow 250-fold with the lifetime and the radius. */
#define WORK_PER_REPORT (1 << 22)
/* The work of a droplet beyond its brush pixels: its start, and each step's move. */
#define WORK_PER_DROPLET 16
#define WORK_PER_STEP    8

/* Beyer's and Lague's fixed constants. */
#define GRAVITY      4.0
#define MIN_CAPACITY 0.01
#define START_SPEED  1.0
#define START_WATER  1.0

/* Salts of terrain_hash for the start position. */
enum { SALT_X = 1, SALT_Y = 2 };

/* The pixels less than `radius` from the centre lie within radius - 1 of it on either axis. */
#define BRUSH_SIDE (2 * TERRAIN_HYDRAULIC_MAX_RADIUS - 1)
#define BRUSH_MAX  (BRUSH_SIDE * BRUSH_SIDE)

typedef struct
{
  int       reach;             /* radius - 1: how far a brush pixel can be on either axis */
  int       count;
  int       dx[BRUSH_MAX], dy[BRUSH_MAX]; /* row by row, left to right */
  double    weight[BRUSH_MAX]; /* 1 - distance / radius */
  float     share[BRUSH_MAX];  /* weight / the sum of all weights */
  int       rows;              /* the brush's rows: row j is pixels first[j] .. first[j + 1] - 1 */
  int       first[BRUSH_SIDE + 1];
  ptrdiff_t row_offset[BRUSH_SIDE]; /* from the centre to the row's first pixel */
} Brush;

typedef struct
{
  float                         *data;
  int                            width, height;
  const TerrainHydraulicErosion *p;
  TerrainDropletObserver         observer; /* NULL, or called after every droplet step */
  void                          *observer_user;
  Brush                          brush;
  double                         eroded, deposited, lost; /* totals of the run */
} Run;

static void
brush_init (Brush *b, int radius, int width)
{
  double total = 0.0;
  b->reach = radius - 1;
  b->count = 0;
  b->rows = 0;
  for (int dy = -b->reach; dy <= b->reach; dy++)
    {
      b->first[b->rows] = b->count;
      for (int dx = -b->reach; dx <= b->reach; dx++)
        if (dx * dx + dy * dy < radius * radius)
          {
            const int k = b->count++;
            if (k == b->first[b->rows])
              b->row_offset[b->rows] = (ptrdiff_t) dy * width + dx;
            b->dx[k] = dx;
            b->dy[k] = dy;
            b->weight[k] = 1.0 - sqrt ((double) (dx * dx + dy * dy)) / radius;
            total += b->weight[k];
          }
      b->rows++;
    }
  b->first[b->rows] = b->count;
  for (int k = 0; k < b->count; k++)
    b->share[k] = (float) (b->weight[k] / total);
}

static inline double
min_d (double a, double b)
{
  return a < b ? a : b;
}

static inline double
max_d (double a, double b)
{
  return a > b ? a : b;
}

/* ---- Reading the surface ---- */

/* Along one axis of `size` pixels: the pixel i with i <= p <= i + 1 (the last such for
 * p = size - 1) and the fraction p - i; a single pixel has no next one (i = 0, f = 0). */
static inline void
cell_of (double p, int size, int *i, double *f)
{
  const int last = size > 1 ? size - 2 : 0;
  int c = (int) p; /* p >= 0 */
  c = c < last ? c : last;
  *i = c;
  *f = size > 1 ? p - c : 0.0;
}

/* The 4 pixels around a position, as an index and the steps to the next column and row
 * (0 on a map 1 pixel wide or high), with the bilinear fractions. */
typedef struct
{
  size_t    nw;
  ptrdiff_t right, down;
  double    fx, fy;
} Corners;

static inline Corners
corners_at (const Run *r, double x, double y)
{
  Corners c;
  int     i, j;
  cell_of (x, r->width, &i, &c.fx);
  cell_of (y, r->height, &j, &c.fy);
  c.nw = (size_t) j * r->width + i;
  c.right = r->width > 1;
  c.down = r->height > 1 ? r->width : 0;
  return c;
}

typedef struct
{
  double height, gx, gy;
} Surface;

/* Bilinear height and its gradient, in double: differences of any two floats are finite. */
static inline Surface
surface_of (const Run *r, Corners c)
{
  const float *d = r->data + c.nw;
  const double nw = d[0], ne = d[c.right], sw = d[c.down], se = d[c.down + c.right];
  Surface s;
  s.gx = (ne - nw) * (1.0 - c.fy) + (se - sw) * c.fy;
  s.gy = (sw - nw) * (1.0 - c.fx) + (se - ne) * c.fx;
  s.height = nw * (1.0 - c.fx) * (1.0 - c.fy) + ne * c.fx * (1.0 - c.fy)
             + sw * (1.0 - c.fx) * c.fy + se * c.fx * c.fy;
  return s;
}

/* Asks the cache for the rows above and below the 4 pixels of c, where the next step reads
 * and erodes (a droplet moves one pixel a step), while this one computes. */
static inline void
prefetch_around (const Run *r, Corners c)
{
#if defined(__GNUC__) || defined(__clang__)
  const size_t w = r->width;
  if (c.nw >= w)
    __builtin_prefetch (r->data + c.nw - w, 1);
  if (c.nw + 2 * w < w * r->height)
    __builtin_prefetch (r->data + c.nw + 2 * w, 1);
#else
  (void) r;
  (void) c;
#endif
}

static inline int
on_map (const Run *r, double x, double y)
{
  return x >= 0.0 && x <= r->width - 1 && y >= 0.0 && y <= r->height - 1;
}

/* ---- Changing pixels ----
 * Each returns what the pixel really gained or lost: its float value after minus before,
 * exact in double (up to the rare double rounding of floats of very different size). */

/* Adds amount >= 0, up to FLT_MAX. */
static double
add_to (float *pixel, double amount)
{
  const double before = *pixel, after = before + amount;
  *pixel = (float) (after < FLT_MAX ? after : FLT_MAX);
  return *pixel - before;
}

/* Takes up to amount >= 0 from a pixel, never below 0: a pixel at or below 0 gives nothing.
 * In float, the brush loop being the hot spot. */
static inline double
take_from (float *pixel, float amount)
{
  const float before = *pixel;
  const float take = before < amount ? before : amount;
  const float after = before - (take > 0.0f ? take : 0.0f);
  *pixel = after;
  return (double) before - after;
}

/* Drops amount >= 0 on the 4 pixels of c, bilinearly. */
static inline double
drop (Run *r, Corners c, double amount)
{
  float *d = r->data + c.nw;
  return add_to (d, amount * (1.0 - c.fx) * (1.0 - c.fy))
         + add_to (d + c.right, amount * c.fx * (1.0 - c.fy))
         + add_to (d + c.down, amount * (1.0 - c.fx) * c.fy)
         + add_to (d + c.down + c.right, amount * c.fx * c.fy);
}

/* Takes amount >= 0 from the brush around pixel (nx, ny), with the brush weights
 * normalised over the pixels on the map (amounts beyond FLT_MAX are FLT_MAX: no pixel holds
 * more). */
static double
erode (Run *r, int nx, int ny, double amount)
{
  const Brush *b = &r->brush;
  float       *centre = r->data + (size_t) ny * r->width + nx;
  const float  a = (float) min_d (amount, FLT_MAX);
  double       taken = 0.0;
  if (nx >= b->reach && nx < r->width - b->reach && ny >= b->reach && ny < r->height - b->reach)
    {
      /* A sum per row: independent chains of additions. */
      for (int j = 0; j < b->rows; j++)
        {
          float *row = centre + b->row_offset[j];
          double row_taken = 0.0;
          for (int k = b->first[j]; k < b->first[j + 1]; k++)
            row_taken += take_from (row + (k - b->first[j]), a * b->share[k]);
          taken += row_taken;
        }
      return taken;
    }
  /* Clipped by the border: the centre (weight 1) is always in. */
  double total = 0.0;
  for (int k = 0; k < b->count; k++)
    {
      const int x = nx + b->dx[k], y = ny + b->dy[k];
      if (x >= 0 && x < r->width && y >= 0 && y < r->height)
        total += b->weight[k];
    }
  for (int k = 0; k < b->count; k++)
    {
      const int x = nx + b->dx[k], y = ny + b->dy[k];
      if (x >= 0 && x < r->width && y >= 0 && y < r->height)
        taken += take_from (centre + (ptrdiff_t) b->dy[k] * r->width + b->dx[k],
                            (float) (a * (b->weight[k] / total)));
    }
  return taken;
}

/* ---- Droplets ---- */

typedef struct
{
  double x, y, dx, dy, speed, water, sediment;
  int    steps;
} Droplet;

static void
observe (const Run *r, int index, const Droplet *d, int alive)
{
  if (r->observer == NULL)
    return;
  const TerrainDropletStep step = { index, d->steps, alive, d->x, d->y, d->sediment,
                                    r->eroded, r->deposited, r->lost };
  r->observer (r->observer_user, &step);
}

typedef enum
{
  MOVED,   /* took a step */
  STOPPED, /* found no direction: stays where it is, with its sediment */
  LEFT     /* would leave the map: its sediment is lost */
} StepResult;

/* One step of Beyer's rule (hydraulic-erosion.h). */
static StepResult
step (Run *r, Droplet *d)
{
  const TerrainHydraulicErosion *p = r->p;
  const Corners corners = corners_at (r, d->x, d->y);
  prefetch_around (r, corners);
  const Surface here = surface_of (r, corners);
  d->dx = d->dx * p->inertia - here.gx * (1.0 - p->inertia);
  d->dy = d->dy * p->inertia - here.gy * (1.0 - p->inertia);
  const double length = sqrt (d->dx * d->dx + d->dy * d->dy);
  if (! (length > 0.0))
    return STOPPED;
  d->dx /= length;
  d->dy /= length;
  const double x = d->x + d->dx, y = d->y + d->dy;
  if (! on_map (r, x, y))
    {
      r->lost += d->sediment;
      d->sediment = 0.0;
      return LEFT;
    }

  const double dh = surface_of (r, corners_at (r, x, y)).height - here.height;
  const double capacity = max_d (-dh * d->speed * d->water * p->capacity, MIN_CAPACITY);
  if (dh > 0.0 || d->sediment > capacity)
    {
      const double amount = dh > 0.0 ? min_d (dh, d->sediment)
                                      : (d->sediment - capacity) * p->deposition;
      const double placed = drop (r, corners, max_d (amount, 0.0));
      d->sediment -= placed;
      r->deposited += placed;
    }
  else
    {
      /* Centred on the pixel nearest to the droplet. */
      const double taken = erode (r, (int) (d->x + 0.5), (int) (d->y + 0.5),
                                  min_d ((capacity - d->sediment) * p->erosion, -dh));
      d->sediment += taken;
      r->eroded += taken;
    }
  d->speed = sqrt (max_d (0.0, d->speed * d->speed + dh * GRAVITY));
  d->water *= 1.0 - p->evaporation;
  d->x = x;
  d->y = y;
  d->steps++;
  return MOVED;
}

/* Droplet `index`'s start, uniform over the map. */
static void
start_of (const Run *r, int index, double *x, double *y)
{
  *x = terrain_hash (r->p->seed, index, 0, SALT_X) / 4294967296.0 * (r->width - 1);
  *y = terrain_hash (r->p->seed, index, 0, SALT_Y) / 4294967296.0 * (r->height - 1);
}

/* Asks the cache for the rows around droplet `index`'s start while the droplet before it
 * runs: a start is anywhere on the map, so its first step would otherwise wait for memory. */
static void
prefetch_start (const Run *r, int index)
{
#if defined(__GNUC__) || defined(__clang__)
  double x, y;
  start_of (r, index, &x, &y);
  const int reach = r->brush.reach;
  for (int row = (int) y - reach; row <= (int) y + reach + 1; row++)
    if (row >= 0 && row < r->height)
      __builtin_prefetch (r->data + (size_t) row * r->width + (int) x, 1);
#else
  (void) r;
  (void) index;
#endif
}

/* Returns the steps the droplet took. */
static int
run_droplet (Run *r, int index)
{
  Droplet d = { 0 };
  start_of (r, index, &d.x, &d.y);
  d.speed = START_SPEED;
  d.water = START_WATER;
  StepResult result = MOVED;
  while (d.steps < r->p->max_steps && (result = step (r, &d)) == MOVED)
    observe (r, index, &d, 1);
  if (result != LEFT)
    {
      /* Stopped on the map: everything it carries goes where it stands; what cannot be
       * placed (pixels at FLT_MAX, rounding) is lost. */
      const double placed = drop (r, corners_at (r, d.x, d.y), max_d (d.sediment, 0.0));
      r->deposited += placed;
      r->lost += d.sediment - placed;
      d.sediment = 0.0;
    }
  observe (r, index, &d, 0);
  return d.steps;
}

/* ---- Public entry points ---- */

void
terrain_hydraulic_erosion_defaults (TerrainHydraulicErosion *params)
{
  params->seed = 0;
  params->droplets = 1000000;
  params->inertia = 0.05;
  params->capacity = 4.0;
  params->erosion = 0.3;
  params->deposition = 0.3;
  params->evaporation = 0.01;
  params->radius = 3;
  params->max_steps = 30;
}

static int
unit_range (double v)
{
  return v >= 0.0 && v <= 1.0; /* NaN fails */
}

TerrainStatus
terrain_hydraulic_erosion (const TerrainHydraulicErosion *p, float *data, int width,
                           int height, const TerrainProgress *progress)
{
  return terrain_hydraulic_erosion_observed (p, NULL, NULL, data, width, height, progress);
}

TerrainStatus
terrain_hydraulic_erosion_observed (const TerrainHydraulicErosion *p,
                                    TerrainDropletObserver observer, void *user, float *data,
                                    int width, int height, const TerrainProgress *progress)
{
  const TerrainStatus status = terrain_check_size (width, height);
  if (status != TERRAIN_OK)
    return status;
  if (p->droplets < 0 || p->droplets > TERRAIN_HYDRAULIC_MAX_DROPLETS ||
      ! unit_range (p->inertia) ||
      ! (p->capacity >= 0.0 && p->capacity <= TERRAIN_HYDRAULIC_MAX_CAPACITY) ||
      ! unit_range (p->erosion) || ! unit_range (p->deposition) ||
      ! unit_range (p->evaporation) || p->radius < 1 ||
      p->radius > TERRAIN_HYDRAULIC_MAX_RADIUS || p->max_steps < 1 ||
      p->max_steps > TERRAIN_HYDRAULIC_MAX_STEPS)
    return TERRAIN_ERROR_INVALID;

  Run r;
  r.data = data;
  r.width = width;
  r.height = height;
  r.p = p;
  r.observer = observer;
  r.observer_user = user;
  r.eroded = r.deposited = r.lost = 0.0;
  brush_init (&r.brush, p->radius, width);
  long work = WORK_PER_REPORT; /* report before the first droplet */
  for (int i = 0; i < p->droplets; i++)
    {
      if (work >= WORK_PER_REPORT)
        {
          if (terrain_progress_report (progress, (double) i / p->droplets))
            return TERRAIN_CANCELLED;
          work = 0;
        }
      if (i + 1 < p->droplets)
        prefetch_start (&r, i + 1);
      const int steps = run_droplet (&r, i);
      work += WORK_PER_DROPLET + (long) steps * (r.brush.count + WORK_PER_STEP);
    }
  return terrain_progress_report (progress, 1.0) ? TERRAIN_CANCELLED : TERRAIN_OK;
}
