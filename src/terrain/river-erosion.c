/* River erosion: the run (set-up, steps, maps). See river-erosion.h for the model. */
#include "river-erosion.h"

#include "heightmap.h"
#include "random.h"
#include "river-internal.h"

#include <math.h>
#include <stdlib.h>

/* The perturbation of the flat start with uplift from the layer, in layer units: far
 * below a step's uplift, enough to give every cell its own height. */
#define PERTURBATION 1e-4f
/* Maps whose magnitude exceeds 2^MAX_EXPONENT are worked on scaled down by a power of two,
 * so that no sum or difference of heights overflows. */
#define MAX_EXPONENT 64

/* ---- Checks and set-up ---- */

static int
in_range (double v, double lo, double hi)
{
  return v >= lo && v <= hi; /* NaN fails */
}

static int
params_valid (const TerrainRiverErosion *p)
{
  return (unsigned) p->method <= TERRAIN_RIVER_METHOD_SIMULATE &&
         in_range (p->age, 0.0, TERRAIN_RIVER_MAX_AGE) && p->iterations >= 1 && p->iterations <= TERRAIN_RIVER_MAX_ITERATIONS &&
         in_range (p->erosion, 0.0, TERRAIN_RIVER_MAX_EROSION) &&
         in_range (p->area_exponent, TERRAIN_RIVER_MIN_AREA_EXPONENT,
                   TERRAIN_RIVER_MAX_AREA_EXPONENT) &&
         in_range (p->slope_exponent, TERRAIN_RIVER_MIN_SLOPE_EXPONENT,
                   TERRAIN_RIVER_MAX_SLOPE_EXPONENT) &&
         in_range (p->diffusion, 0.0, TERRAIN_RIVER_MAX_DIFFUSION) &&
         in_range (p->sea_level, TERRAIN_RIVER_MIN_SEA_LEVEL, TERRAIN_RIVER_MAX_SEA_LEVEL) &&
         (unsigned) p->uplift <= TERRAIN_RIVER_UPLIFT_LAYER &&
         (unsigned) p->edges <= TERRAIN_RIVER_EDGES_SHARED_EDGE &&
         (unsigned) p->whole_last_step <= 1;
}

/* One block for: stack and parent (4 bytes a cell each, and RIVER_NEIGHBOURS spare), area
 * and sorted (4 + 4, adjacent, and RIVER_NEIGHBOURS spare 8-byte places after them),
 * donors (2), outlet, direction, prefer and the receivers of the step before (1 + 1 + 1 +
 * 1), and with uplift the uplift and the working heights (4 + 4). */
static TerrainStatus
allocate (RiverRun *r, int with_uplift)
{
  const size_t n = r->g.cells, spare = RIVER_NEIGHBOURS;
  const size_t per_cell = 16 + 2 + 4 + (with_uplift ? 8 : 0);
  if (n > INT32_MAX || n > SIZE_MAX / per_cell - 4 * spare)
    return TERRAIN_ERROR_NO_MEMORY;
  unsigned char *b = r->block = terrain_alloc (n * per_cell + 4 * spare * sizeof (int32_t));
  if (b == NULL)
    return TERRAIN_ERROR_NO_MEMORY;
  RiverGrid *g = &r->g;
  g->stack = (int32_t *) (void *) b;
  g->parent = g->stack + n + spare;
  g->area = (float *) (void *) (g->parent + n + spare);
  g->upstream = (uint32_t *) (void *) g->area;
  g->sorted = g->area + n;
  b = (unsigned char *) (g->sorted + n + 2 * spare);
  if (with_uplift)
    {
      r->uplift = (float *) (void *) b;
      g->h = r->uplift + n;
      b += 8 * n;
    }
  g->donors = (uint16_t *) (void *) b;
  g->outlet = b + 2 * n;
  g->direction = b + 3 * n;
  g->prefer = b + 4 * n;
  /* The simulation writes each step's receivers here; the analytical method leaves none:
   * its passes choose afresh (Rho8's choice depends on the heights alone). */
  r->previous = b + 5 * n;
  memset (r->previous, RIVER_NONE, n);
  g->previous = r->previous;
  return TERRAIN_OK;
}

static void
set_units (RiverRun *r)
{
  const TerrainRiverErosion *p = r->p;
  const double side = r->g.width > r->g.height ? r->g.width : r->g.height;
  r->cell_area = 1.0 / (side * side);
  r->distance_power[0] = pow (side, p->slope_exponent);
  r->distance_power[1] = pow (side / sqrt (2.0), p->slope_exponent);
  r->power[0] = 0.0;
  for (int a = 1; a < RIVER_POWER_TABLE; a++)
    r->power[a] = p->erosion * pow (a * r->cell_area, p->area_exponent);
}

/* A diffusion in the procedure's unit, millionths of L^2 (L the larger side), in pixels^2:
 * what the solvers take. */
static double
in_pixels_squared (const RiverGrid *g, double diffusion)
{
  const double side = g->width > g->height ? g->width : g->height;
  return diffusion * 1e-6 * side * side;
}

/* The first cell of least value, for a wrapped map without sea. */
static ptrdiff_t
lowest_cell (const float *v, size_t n)
{
  size_t lowest = 0;
  for (size_t i = 1; i < n; i++)
    if (v[i] < v[lowest])
      lowest = i;
  return (ptrdiff_t) lowest;
}

static int
has_sea (const float *v, size_t n, float sea)
{
  for (size_t i = 0; i < n; i++)
    if (v[i] <= sea)
      return 1;
  return 0;
}

/* The power of two a map of uplift none is worked on times: 0, or below 0 when its values
 * are huge. */
static int
scale_exponent_of (const float *heights, size_t n)
{
  float lo, hi;
  terrain_min_max (heights, n, &lo, &hi);
  int exponent;
  frexp (fmax (fabs (lo), fabs (hi)), &exponent);
  return exponent > MAX_EXPONENT ? MAX_EXPONENT - exponent : 0;
}

/* Scaling a huge map down rounds its tiny values (below about 2^-85 of FLT_MAX: to
 * subnormals, or to 0), which then could not be told from the sea or from each other: a
 * cell just above a sea level of 0 became +0, an outlet, and a cell that nothing changed
 * came back lower than it was (found by fuzzing). So the scaled sea of the outlets is
 * rounded down and a value keeps its side of it (at or below the sea: at most the scaled
 * sea; above: at least the float above it), which keeps the order of any two values (or
 * makes them equal); the floor of the incision is the scaled sea rounded up (never below
 * the sea once scaled back); and the run's end gives every cell that the run left as it
 * was its value from the input. */
static float
scaled_sea (float sea, int exponent, int up)
{
  float s = (float) ldexp (sea, exponent);
  if (! up && ldexp (s, -exponent) > sea)
    s = nextafterf (s, -INFINITY);
  if (up && ldexp (s, -exponent) < sea)
    s = nextafterf (s, INFINITY);
  return s;
}

static float
scaled_height (float v, float sea, float scaled_sea_level, int exponent)
{
  float s = (float) ldexp (v, exponent);
  if (v <= sea && s > scaled_sea_level)
    s = scaled_sea_level;
  else if (v > sea && s <= scaled_sea_level)
    s = river_float_above (scaled_sea_level);
  return s;
}

/* Uplift none: erode the layer in place, scaled down (r->scale_exponent) when its values
 * are huge. The outlets are read from the input, before scaling rounds it. */
static void
start_from_heights (RiverRun *r, float *heights)
{
  RiverGrid  *g = &r->g;
  const float sea = (float) r->p->sea_level;
  g->h = heights;
  g->lowest = g->wrap && ! has_sea (heights, g->cells, sea) ? lowest_cell (heights, g->cells) : -1;
  g->sea = scaled_sea (sea, r->scale_exponent, 0);
  if (r->scale_exponent)
    for (size_t i = 0; i < g->cells; i++)
      g->h[i] = scaled_height (g->h[i], sea, g->sea, r->scale_exponent);
  g->outlet_fixed = 0;
  r->floor = scaled_sea (sea, r->scale_exponent, 1);
  r->uplift = NULL;
}

/* Uplift from the layer: the layer is the uplift; outlets come from it and stay at 0, the
 * rest starts at the perturbation. */
static void
start_from_uplift (RiverRun *r, const float *layer)
{
  RiverGrid  *g = &r->g;
  const float sea = (float) r->p->sea_level;
  const ptrdiff_t lowest = g->wrap && ! has_sea (layer, g->cells, sea)
                             ? lowest_cell (layer, g->cells) : -1;
  for (int y = 0; y < g->height; y++)
    for (int x = 0; x < g->width; x++)
      {
        const size_t i = (size_t) y * g->width + x;
        const int border = x == 0 || y == 0 || x == g->width - 1 || y == g->height - 1;
        const float u = layer[i] < 0.0f ? 0.0f : layer[i] > 1.0f ? 1.0f : layer[i];
        g->outlet[i] = (! g->wrap && border) || layer[i] <= sea || (ptrdiff_t) i == lowest;
        r->uplift[i] = g->outlet[i] ? 0.0f : u;
        g->h[i] = g->outlet[i] ? 0.0f
                               : PERTURBATION * (0.5f + terrain_hash_to_unit (
                                                          terrain_hash (0, x, y, 0)));
      }
  g->outlet_fixed = 1;
  g->sea = -FLT_MAX;
  g->lowest = -1;
  r->floor = -FLT_MAX;
  r->scale_exponent = 0;
}

/* The analytical method at age 0: nothing changes (terrain_river_erosion leaves the heights
 * as they are, and the run only makes the maps). */
static int
changes_nothing (const TerrainRiverErosion *p)
{
  return p->method == TERRAIN_RIVER_METHOD_ANALYTICAL && p->age == 0.0;
}

/* ---- The end ---- */

static void
scale_map (float *map, size_t n, double factor)
{
  for (size_t i = 0; map && i < n; i++)
    {
      const double v = map[i] * factor;
      map[i] = (float) (v > FLT_MAX ? FLT_MAX : v < -FLT_MAX ? -FLT_MAX : v);
    }
}

/* log (area) / log (cells): 0 for a lone cell, 1 for the whole map. */
static void
write_flow (const RiverGrid *g, float *flow)
{
  const double whole = log ((double) g->cells);
  for (size_t s = 0; s < g->cells; s++)
    {
      const double v = g->cells > 1 ? log ((double) g->area[s]) / whole : 1.0;
      flow[g->stack[s]] = (float) (v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v);
    }
}

/* Stretches the terrain grown from uplift onto [0, 1] (rounding may merge heights a float
 * apart: they are taken apart again, below 1). */
static void
normalise (RiverRun *r)
{
  RiverGrid *g = &r->g;
  float lo, hi;
  terrain_min_max (g->h, g->cells, &lo, &hi);
  terrain_normalize (g->h, g->cells);
  const double factor = hi > lo ? 1.0 / ((double) hi - lo) : 0.0;
  scale_map (r->eroded, g->cells, factor);
  scale_map (r->deposited, g->cells, factor);
  river_keep_draining (r, 1.0f);
}

/* The simulation fills as it always has, so that its results stay those it always gave:
 * its diffusion at every step hides the epsilon fill's parallel lines across the flats, and
 * with the flats drained (river-flats.c) its alpine preset's slope-area exponent rose from
 * 0.74 to 0.79-0.80, the top of a river landscape's range (test-landscape). The analytical
 * method floods a pit's neighbours first, which is faster, and drains the flats. */
static RiverFillOrder
fill_order (const TerrainRiverErosion *p)
{
  return p->method == TERRAIN_RIVER_METHOD_SIMULATE ? RIVER_FILL_BY_HEIGHT : RIVER_FILL_PITS_FIRST;
}

/* Makes sure the result drains (it does after every step: a safety net), then the
 * normalisation or the scale back (`original`: the input of a scaled map), and the flow
 * map. */
static TerrainStatus
finish (RiverRun *r, float *heights, TerrainRiverMaps *maps, const float *original)
{
  RiverGrid *g = &r->g;
  if (! changes_nothing (r->p) && river_count_pits (g) > 0
      && river_fill (g, fill_order (r->p), r->deposited, r->progress, RIVER_STEPS_END,
                     RIVER_STEPS_END) != TERRAIN_OK)
    return TERRAIN_CANCELLED;
  /* The receivers and their order, for the normalisation's drainage guard and the flow
   * map. */
  const int flow = maps && maps->flow;
  g->previous = NULL; /* the flow map's receivers are the steepest descent's */
  if (r->uplift || flow)
    {
      river_find_receivers (g, NULL, 0.0, 0.0);
      river_order_and_area (g);
    }
  if (terrain_progress_report (r->progress, (RIVER_STEPS_END + 1.0) / 2))
    return TERRAIN_CANCELLED;
  if (r->uplift)
    {
      normalise (r);
      memcpy (heights, g->h, g->cells * sizeof (float));
    }
  else if (r->scale_exponent)
    {
      /* A cell the run left as it was gets its input back (see scaled_height). */
      const float sea = (float) r->p->sea_level;
      const double factor = ldexp (1.0, -r->scale_exponent);
      for (size_t i = 0; i < g->cells; i++)
        {
          const double v = heights[i] * factor;
          heights[i] = heights[i] == scaled_height (original[i], sea, g->sea, r->scale_exponent)
                         ? original[i]
                         : (float) (v > FLT_MAX ? FLT_MAX : v < -FLT_MAX ? -FLT_MAX : v);
        }
      scale_map (r->eroded, g->cells, ldexp (1.0, -r->scale_exponent));
      scale_map (r->deposited, g->cells, ldexp (1.0, -r->scale_exponent));
    }
  if (flow)
    write_flow (g, maps->flow);
  return TERRAIN_OK;
}

/* ---- Public entry points ---- */

void
terrain_river_erosion_defaults (TerrainRiverErosion *params)
{
  params->method = TERRAIN_RIVER_METHOD_ANALYTICAL;
  params->age = 3.0;
  params->iterations = 30;
  params->erosion = 0.1;
  params->area_exponent = 0.5;
  params->slope_exponent = 1.0;
  params->diffusion = 1.0;
  params->uplift = TERRAIN_RIVER_UPLIFT_NONE;
  params->edges = TERRAIN_RIVER_EDGES_OPEN;
  params->sea_level = 0.0;
  params->whole_last_step = 0;
}

/* The diffusion of a simulated step, or of an analytical stage (the diffusion per
 * TERRAIN_RIVER_AGE_PER_STEP of age, over the stage's age). */
static double
diffusion_per_step (const TerrainRiverErosion *p)
{
  if (p->method == TERRAIN_RIVER_METHOD_SIMULATE)
    return p->diffusion;
  return p->diffusion * p->age / TERRAIN_RIVER_AGE_PER_STEP / river_analytical_stages (p);
}

/* Sets the run up; *original is a copy of the input when a map of uplift none is worked
 * on scaled (NULL otherwise: the caller frees it). */
static TerrainStatus
prepare (RiverRun *r, float *heights, TerrainRiverMaps *maps, float **original)
{
  RiverGrid *g = &r->g;
  const int  with_uplift = r->p->uplift == TERRAIN_RIVER_UPLIFT_LAYER;
  TerrainStatus status = allocate (r, with_uplift);
  if (status == TERRAIN_OK && r->p->diffusion > 0.0)
    status = river_diffusion_init (&r->diffusion, g,
                                   in_pixels_squared (g, diffusion_per_step (r->p)));
  r->scale_exponent = with_uplift ? 0 : scale_exponent_of (heights, g->cells);
  if (status == TERRAIN_OK && r->scale_exponent)
    {
      *original = terrain_alloc (g->cells * sizeof (float));
      if (*original == NULL)
        status = TERRAIN_ERROR_NO_MEMORY;
      else
        memcpy (*original, heights, g->cells * sizeof (float));
    }
  if (status != TERRAIN_OK)
    return status;
  r->eroded = maps ? maps->erosion : NULL;
  r->deposited = maps ? maps->deposition : NULL;
  for (size_t i = 0; i < g->cells; i++)
    {
      if (r->eroded)
        r->eroded[i] = 0.0f;
      if (r->deposited)
        r->deposited[i] = 0.0f;
    }
  set_units (r);
  river_set_preferences (g);
  if (with_uplift)
    start_from_uplift (r, heights);
  else
    start_from_heights (r, heights);
  return TERRAIN_OK;
}

static TerrainStatus river_run (const TerrainRiverErosion *params, float *heights, int width,
                                int height, int wrap, TerrainRiverMaps *maps,
                                const TerrainProgress *progress, RiverCoarseOrder *order);

/* ---- Growing from a coarser grid ---- */

/* Grids whose sides are both at least twice this are grown from a coarser one. */
#define COARSE_MIN_SIDE 48
/* The coarser grids' share of the progress (about their share of the time). */
#define COARSE_SHARE 0.25

static int
grows_from_coarse (const TerrainRiverErosion *p, int width, int height)
{
  return p->method == TERRAIN_RIVER_METHOD_ANALYTICAL && p->uplift == TERRAIN_RIVER_UPLIFT_LAYER
         && p->age > 0.0 && width >= 2 * COARSE_MIN_SIDE && height >= 2 * COARSE_MIN_SIDE;
}

/* Grown from noise, the first receivers are the noise's: the solution on them is a patchwork
 * of basins with cliffs between, and passes of new receivers take it apart only slowly (the
 * 2D consistency of Tzathas et al. 2024 is reached "accelerated from a coarse grid"). So the
 * layer is grown at half the size first (from a quarter of that, and so on), at the same
 * settings, all of which are in units of the layer's size; its result, stretched back
 * (bilinear), is the estimate whose receivers the first pass solves on. */
static TerrainStatus
coarse_estimate (const TerrainRiverErosion *params, const float *layer, int width, int height,
                 int wrap, float **estimate, RiverCoarseOrder *order,
                 const TerrainProgress *progress)
{
  const int cw = (width + 1) / 2, ch = (height + 1) / 2;
  float    *coarse = terrain_alloc ((size_t) cw * ch * sizeof (float));
  float    *fine = NULL; /* taken once the coarser run has given its memory back */
  TerrainStatus status = TERRAIN_ERROR_NO_MEMORY;
  if (coarse != NULL)
    {
      terrain_reduce_mean (layer, width, height, 2, coarse);
      status = river_run (params, coarse, cw, ch, wrap, NULL, progress, order);
      if (status == TERRAIN_OK &&
          (fine = terrain_alloc ((size_t) width * height * sizeof (float))) == NULL)
        status = TERRAIN_ERROR_NO_MEMORY;
    }
  if (status == TERRAIN_OK)
    terrain_stretch_bilinear (coarse, 2, wrap, fine, width, height);
  terrain_free (coarse);
  *estimate = fine;
  return status;
}

/* ---- The simulation's last step ----
 * Each step's incision cuts every hillside cell a groove towards its receiver, as deep as a
 * step's incision; the diffusion of the next step rounds it, but nothing rounds the last
 * step's: they are the result's grain (speckle 11 at 1024 x 1024, 30 at 4096 x 4096, where
 * real DEMs have 2.5-4.6; at 4096 x 4096 they align with the grid too). So the last step
 * is taken in parts of 1/2, 1/4, ... 1/2^k and 1/2^k of a step (the same age: erosion,
 * diffusion and uplift scaled alike), halved at least MIN_HALVINGS times and until a
 * part's diffusion is at most FINE_DIFFUSION px^2: the last grooves are 2^-k of a step's,
 * and each part's diffusion rounds the grooves of the part before. Without diffusion
 * nothing rounds them and the parts do not help. Equal parts were slower for the same
 * grain (tests/bench/README.md). */
#define MIN_HALVINGS   4
#define FINE_DIFFUSION 0.125
#define MAX_HALVINGS   20

static int
last_step_halvings (double diffusion)
{
  int k = MIN_HALVINGS;
  while (k < MAX_HALVINGS && ldexp (diffusion, -k) > FINE_DIFFUSION)
    k++;
  return k;
}

/* The last step of the simulation r->p runs, in parts. Each part reports its progress as
 * a step of a run of k + 1 times the steps, so the bar goes on across the last step. */
static TerrainStatus
last_step_in_parts (RiverRun *r, const TerrainRiverErosion *params)
{
  const int    k = last_step_halvings (in_pixels_squared (&r->g, params->diffusion));
  TerrainRiverErosion part = *params;
  part.iterations = params->iterations * (k + 1);
  TerrainStatus status = TERRAIN_OK;
  for (int j = 0; j <= k && status == TERRAIN_OK; j++)
    {
      /* Parts j < k are 2^-(j+1) of a step; the last is as long as the one before it. */
      const double share = ldexp (1.0, -(j < k ? j + 1 : k));
      if (j < k && r->uplift)
        for (size_t i = 0; i < r->g.cells; i++)
          r->uplift[i] *= 0.5f; /* exact; nothing after the steps reads the uplift */
      part.erosion = params->erosion * share;
      r->p = &part;
      set_units (r);
      status = river_diffusion_set (&r->diffusion, &r->g,
                                    in_pixels_squared (&r->g, params->diffusion * share));
      if (status == TERRAIN_OK)
        status = river_step (r, (params->iterations - 1) * (k + 1) + j, 1);
    }
  r->p = params;
  set_units (r);
  return status;
}

/* ---- Growing ranges' hillsides ----
 * At the steady state the analytical solution is every cell's gathered uplift, whatever the
 * diffusion before it did: the hillsides are as sharp as the solution leaves them, parallel
 * ridges between one-pixel channels (a comb: aniso45 1.2-1.4, speckle 11). So the layer's
 * own run of growing ranges solves HILLSIDE_STEPS steps short of its age (fewer when young)
 * and ends with those steps of the simulation (diffusion, uplift, incision), which round the
 * ridges into spurs and let the channels cut again what the diffusion filled (a diffusion
 * alone bent the channels' slope-area law; tests/bench/README.md has what was tried). The
 * coarser grids' runs, only estimates, do not. */
#define HILLSIDE_STEPS 10
/* Where in the layer's progress the steps start (about their share of the time). */
#define STEPS_START    0.7

/* How many steps the run ends with: HILLSIDE_STEPS, but at most half its age's, so that the
 * age slider changes the result by a step at a time (0 for the coarser grids' runs). */
static int
hillside_steps_for (const TerrainRiverErosion *p, const RiverCoarseOrder *order)
{
  if (order != NULL || p->method != TERRAIN_RIVER_METHOD_ANALYTICAL
      || p->uplift != TERRAIN_RIVER_UPLIFT_LAYER || ! (p->diffusion > 0.0))
    return 0;
  const double half = floor (p->age / (2.0 * TERRAIN_RIVER_AGE_PER_STEP) + 1e-9);
  return half < HILLSIDE_STEPS ? (int) half : HILLSIDE_STEPS;
}

/* The steps, on the run set up for the analytical method: each step's diffusion is the
 * simulation's. A step ends with its incision, which cuts every hillside cell a groove
 * towards its receiver, one pixel wide (speckle 10.8 on the README's sketch at 1024 x 1024):
 * the last step is taken in parts, as the simulation's (speckle 2.1, θ 0.52; a quarter of a
 * step's diffusion after a whole last step gave speckle 2.7 but θ 0.82). The steps after the
 * first keep its network: finding receivers and their order was two thirds of a step, and
 * the ranges look the same (tests/bench/README.md); the parts find theirs (on the last
 * step's network they lined up with the grid: aniso45 1.47). */
static TerrainStatus
hillside_steps (RiverRun *r, const TerrainRiverErosion *params, int steps)
{
  TerrainRiverErosion stepped = *params;
  stepped.method = TERRAIN_RIVER_METHOD_SIMULATE;
  stepped.iterations = steps;
  /* The analytical method's n and step of age, not the simulation's settings, which it
   * does not take. */
  stepped.erosion = TERRAIN_RIVER_AGE_PER_STEP;
  stepped.slope_exponent = 1.0;
  TerrainStatus status =
    river_diffusion_set (&r->diffusion, &r->g, in_pixels_squared (&r->g, params->diffusion));
  r->p = &stepped;
  set_units (r);
  for (int step = 0; step < steps - 1 && status == TERRAIN_OK; step++)
    status = river_step (r, step, step == 0);
  if (status == TERRAIN_OK)
    status = last_step_in_parts (r, &stepped);
  r->p = params;
  return status;
}

/* ---- The run ---- */

/* The receiver order the run ended with (the finish's, of a run with uplift), for the layer
 * grown from this one (river-estimate.c). */
static TerrainStatus
keep_order (const RiverGrid *g, RiverCoarseOrder *order)
{
  order->width = g->width;
  order->height = g->height;
  order->stack = terrain_alloc (2 * g->cells * sizeof (int32_t));
  if (order->stack == NULL)
    return TERRAIN_ERROR_NO_MEMORY;
  order->parent = order->stack + g->cells;
  memcpy (order->stack, g->stack, g->cells * sizeof (int32_t));
  memcpy (order->parent, g->parent, g->cells * sizeof (int32_t));
  order->chunks = g->chunks;
  memcpy (order->chunk_start, g->chunk_start, sizeof order->chunk_start);
  return TERRAIN_OK;
}

/* The run on a checked map, wrapped when `wrap`; with `order`, the run has uplift and keeps
 * its receiver order there (the caller frees order->stack). */
static TerrainStatus
river_run (const TerrainRiverErosion *params, float *heights, int width, int height, int wrap,
           TerrainRiverMaps *maps, const TerrainProgress *progress, RiverCoarseOrder *order)
{
  TerrainStatus        status = TERRAIN_OK;
  RiverRun             r = { 0 };
  float               *original = NULL;
  TerrainProgressStage coarse_part, fine_part, solved_part, steps_part;
  /* Growing ranges' layer solves short of its age, for the steps it ends with. */
  const int            steps = hillside_steps_for (params, order);
  TerrainRiverErosion  solved = *params;
  solved.age -= steps * TERRAIN_RIVER_AGE_PER_STEP;
  if (grows_from_coarse (params, width, height))
    {
      status = coarse_estimate (&solved, heights, width, height, wrap, &r.estimate, &r.coarse,
                                terrain_progress_stage (&coarse_part, progress, 0.0,
                                                        COARSE_SHARE));
      progress = terrain_progress_stage (&fine_part, progress, COARSE_SHARE, 1.0);
      if (status != TERRAIN_OK)
        {
          terrain_free (r.coarse.stack);
          terrain_free (r.estimate);
          return status;
        }
    }
  r.p = &solved;
  r.progress = steps ? terrain_progress_stage (&solved_part, progress, 0.0, STEPS_START)
                     : progress;
  river_grid_init (&r.g, width, height, wrap);
  r.g.strips = terrain_parallel_strips (height, r.g.cells * RIVER_WORK_PER_CELL);
  status = prepare (&r, heights, maps, &original);
  /* The start is made to drain (the fill needs its outlets only), and the first step or
   * pass finds its receivers. Grown from a coarser grid, the first pass takes the
   * estimate's instead (river-analytical.c: estimate_receivers), and the start, noise in
   * which every cell is a pit, is not filled: that fill was about 30 % of the run. */
  if (status == TERRAIN_OK && r.estimate == NULL && ! changes_nothing (params))
    {
      river_find_outlets (&r.g);
      status = river_fill (&r.g, fill_order (params), r.deposited, r.progress, 0.0,
                           RIVER_FILL_END);
    }
  if (params->method == TERRAIN_RIVER_METHOD_ANALYTICAL && ! changes_nothing (params)
      && status == TERRAIN_OK)
    status = river_analytical (&r);
  r.p = params;
  if (steps && status == TERRAIN_OK)
    {
      r.progress = terrain_progress_stage (&steps_part, progress, STEPS_START, 1.0);
      status = hillside_steps (&r, params, steps);
    }
  const int last_in_parts = params->diffusion > 0.0 && ! params->whole_last_step;
  for (int step = 0; params->method == TERRAIN_RIVER_METHOD_SIMULATE && step < params->iterations
                     && status == TERRAIN_OK; step++)
    status = last_in_parts && step == params->iterations - 1 ? last_step_in_parts (&r, params)
                                                             : river_step (&r, step, 1);
  if (status == TERRAIN_OK)
    status = finish (&r, heights, maps, original);
  if (status == TERRAIN_OK && terrain_progress_report (progress, 1.0))
    status = TERRAIN_CANCELLED;
  if (status == TERRAIN_OK && order)
    status = keep_order (&r.g, order);
  river_diffusion_free (&r.diffusion);
  terrain_free (r.block);
  terrain_free (original);
  terrain_free (r.estimate);
  terrain_free (r.coarse.stack);
  return status;
}

/* Shared edges: the period block, packed to the start of the heights, is run as a wrapped
 * map and spread out again (terrain-common.h), and so are the maps. The last column and
 * row are kept aside, so that a run that fails before it starts (no memory) gives the
 * heights back as they were. */
static TerrainStatus
river_shared_edge (const TerrainRiverErosion *params, float *heights, int width, int height,
                   TerrainRiverMaps *maps, const TerrainProgress *progress)
{
  float *const outputs[3] = { maps ? maps->flow : NULL, maps ? maps->erosion : NULL,
                              maps ? maps->deposition : NULL };
  float       *edge = terrain_alloc (((size_t) width + height) * sizeof (float));
  if (edge == NULL)
    return TERRAIN_ERROR_NO_MEMORY;
  float *last_row = edge + height;
  for (int y = 0; y < height; y++)
    edge[y] = heights[(size_t) y * width + width - 1];
  memcpy (last_row, heights + (size_t) (height - 1) * width, (size_t) width * sizeof (float));
  terrain_shared_edge_pack (heights, width, height);
  const TerrainStatus status = river_run (params, heights, terrain_shared_edge_period (width),
                                          terrain_shared_edge_period (height), 1, maps, progress,
                                          NULL);
  terrain_shared_edge_spread (heights, width, height);
  if (status != TERRAIN_OK)
    {
      for (int y = 0; y < height; y++)
        heights[(size_t) y * width + width - 1] = edge[y];
      memcpy (heights + (size_t) (height - 1) * width, last_row, (size_t) width * sizeof (float));
    }
  for (int m = 0; m < 3 && status == TERRAIN_OK; m++)
    if (outputs[m])
      terrain_shared_edge_spread (outputs[m], width, height);
  terrain_free (edge);
  return status;
}

static TerrainStatus
river_edges (const TerrainRiverErosion *params, float *heights, int width, int height,
             TerrainRiverMaps *maps, const TerrainProgress *progress)
{
  if (params->edges == TERRAIN_RIVER_EDGES_SHARED_EDGE)
    return river_shared_edge (params, heights, width, height, maps, progress);
  return river_run (params, heights, width, height,
                    params->edges == TERRAIN_RIVER_EDGES_WRAP, maps, progress, NULL);
}

/* Age 0: the heights stay as they are; the maps are those of a run that changes nothing
 * (made on a copy read as heights, which the run at age 0 neither fills nor erodes: its
 * pits are roots of the flow map). */
static TerrainStatus
leave_unchanged (const TerrainRiverErosion *params, const float *heights, int width,
                 int height, TerrainRiverMaps *maps, const TerrainProgress *progress)
{
  const size_t n = (size_t) width * height;
  if (maps == NULL || (! maps->flow && ! maps->erosion && ! maps->deposition))
    return terrain_progress_report (progress, 1.0) ? TERRAIN_CANCELLED : TERRAIN_OK;
  float *copy = terrain_alloc (n * sizeof (float));
  if (copy == NULL)
    return TERRAIN_ERROR_NO_MEMORY;
  memcpy (copy, heights, n * sizeof (float));
  TerrainRiverErosion as_heights = *params;
  as_heights.uplift = TERRAIN_RIVER_UPLIFT_NONE;
  const TerrainStatus status = river_edges (&as_heights, copy, width, height, maps, progress);
  terrain_free (copy);
  return status;
}

TerrainStatus
terrain_river_erosion (const TerrainRiverErosion *params, float *heights, int width,
                       int height, TerrainRiverMaps *maps, const TerrainProgress *progress)
{
  TerrainStatus status = terrain_check_size (width, height);
  if (status != TERRAIN_OK)
    return status;
  if (! params_valid (params) || terrain_has_non_finite (heights, (size_t) width * height))
    return TERRAIN_ERROR_INVALID;
  if (changes_nothing (params))
    return leave_unchanged (params, heights, width, height, maps, progress);
  return river_edges (params, heights, width, height, maps, progress);
}
