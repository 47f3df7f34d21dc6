#include "landscape.h"

#include "field.h"
#include "heightmap.h"
#include "random.h"
#include "river-erosion.h"
#include "smooth.h"
#include "terrain-common.h"
#include "thermal-erosion.h"

#include <math.h>
#include <stdlib.h>

/* ---- The recipes' constants (landscape.h documents them) ---- */

#define ALPINE_ROUGHNESS       0.8
#define ALPINE_RIDGE_SALT      0x5eedf00du /* the ridge field's seed: mix32 (seed ^ salt) */
#define ALPINE_RIDGE_LEVELS    2           /* the ridge field has N - 2 iterations */
#define ALPINE_RIDGE_ROUGHNESS 1.1
#define ALPINE_RIDGE_FLOOR     0.2f        /* what is left of the mountains between ridges */
#define ALPINE_ITERATIONS      30
#define ALPINE_TALUS           4.0         /* / feature size */

#define HILLS_ROUGHNESS        0.85
#define HILLS_SMOOTH_LENGTH    24.0        /* feature size / this: the FIR's length */
#define HILLS_ITERATIONS       2

#define ISLANDS_ROUGHNESS      1.0
#define ISLANDS_BIAS           0.8f        /* g loses this times r^2 */
#define ISLANDS_EDGE_START     0.7f        /* and up to 1 more from here ... */
#define ISLANDS_EDGE_END       0.98f       /* ... to here, in max (|u|, |v|) */
#define ISLANDS_LAND           0.22        /* share of the layer above sea level */
#define ISLANDS_SHELF          0.1f        /* the shelf: g from s - shelf to s */

#define MESA_ROUGHNESS         1.4
#define MESA_CLIFF             0.02f       /* share of a step that is cliff, between levels */
#define MESA_ITERATIONS        20
#define MESA_TALUS             16.0        /* / feature size */

#define RIVERS_ROUGHNESS       1.2         /* a smooth uplift map: ranges, not speckle */
/* Grown by the analytical method (river-erosion.h) from a coarser grid, at the strengths
 * the simulation had (100 steps of erosion 2, diffusion 60): near steady state. */
#define RIVERS_AGE             200.0
#define RIVERS_DIFFUSION       3.0         /* millionths of L^2 per 0.1 of age: hillslopes
                                            * round off the one-pixel ridges between channels */

/* b^1.5 = b sqrt (b): the peaked curve of alpine and mesa, correctly rounded operations only
 * (no powf, whose last bit differs between C libraries). */
static inline float
peaked (float b)
{
  return b * sqrtf (b);
}

/* ---- Per-pixel passes ---- */

static inline float
clamp01 (float v)
{
  return v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
}

static inline float
smoothstep (float e0, float e1, float x)
{
  const float t = clamp01 ((x - e0) / (e1 - e0));
  return t * t * (3.0f - 2.0f * t);
}

typedef struct Pass Pass;
struct Pass
{
  float       *data;
  int          width, height;
  float        lo, range;  /* the stretch b = (v - lo) / range; range 0: b = 0.5 */
  float        sea_level;  /* islands: s */
  float        land_top;   /* islands: the largest g */
  const float *ridges;     /* alpine: the ridge field, row y at ridges + y * width */
  void       (*row) (const Pass *pass, float *row, int y);
};

static inline float
stretched (const Pass *p, float v)
{
  return p->range > 0.0f ? clamp01 ((v - p->lo) / p->range) : 0.5f;
}

static void
stretch_row (const Pass *p, float *row, int y)
{
  (void) y;
  for (int x = 0; x < p->width; x++)
    row[x] = stretched (p, row[x]);
}

/* h = b^1.5 (floor + (1 - floor) r^2), r = 1 - |2 c - 1|. */
static void
alpine_row (const Pass *p, float *row, int y)
{
  const float *c = p->ridges + (size_t) y * p->width;
  for (int x = 0; x < p->width; x++)
    {
      const float r = 1.0f - fabsf (2.0f * c[x] - 1.0f);
      row[x] = peaked (stretched (p, row[x])) *
               (ALPINE_RIDGE_FLOOR + (1.0f - ALPINE_RIDGE_FLOOR) * r * r);
    }
}

static void
hills_row (const Pass *p, float *row, int y)
{
  (void) y;
  const float low = (float) TERRAIN_LANDSCAPE_HILLS_LOW;
  const float span = (float) (TERRAIN_LANDSCAPE_HILLS_HIGH - TERRAIN_LANDSCAPE_HILLS_LOW);
  for (int x = 0; x < p->width; x++)
    row[x] = low + span * stretched (p, row[x]);
}

/* g = b - bias r^2 - smoothstep (edge start, edge end, max (|u|, |v|)). */
static void
islands_falloff_row (const Pass *p, float *row, int y)
{
  const float v = ((float) y + 0.5f - 0.5f * (float) p->height) / (0.5f * (float) p->height);
  for (int x = 0; x < p->width; x++)
    {
      const float u = ((float) x + 0.5f - 0.5f * (float) p->width) / (0.5f * (float) p->width);
      const float edge = fmaxf (fabsf (u), fabsf (v));
      row[x] = stretched (p, row[x]) - ISLANDS_BIAS * (u * u + v * v) -
               smoothstep (ISLANDS_EDGE_START, ISLANDS_EDGE_END, edge);
    }
}

/* Land: coast + (1 - coast) (g - s) / (max g - s); sea: the shelf from the coast down to the
 * floor over ISLANDS_SHELF of g below sea level, then the flat floor. */
static void
islands_sea_row (const Pass *p, float *row, int y)
{
  (void) y;
  const float sea_floor = (float) TERRAIN_LANDSCAPE_SEA_FLOOR;
  const float coast = (float) TERRAIN_LANDSCAPE_COAST;
  const float s = p->sea_level, land = p->land_top - s;
  for (int x = 0; x < p->width; x++)
    {
      const float g = row[x];
      row[x] = g >= s ? clamp01 (coast + (1.0f - coast) * (land > 0.0f ? (g - s) / land : 0.0f))
                      : sea_floor + (coast - sea_floor) *
                                      (1.0f - smoothstep (0.0f, ISLANDS_SHELF, s - g));
    }
}

/* t = steps b^1.5, k = floor (t), f = t - k: h = (k + smoothstep (cliff)) / steps. */
static void
mesa_row (const Pass *p, float *row, int y)
{
  (void) y;
  const int   steps = TERRAIN_LANDSCAPE_MESA_STEPS;
  const float half = 0.5f * MESA_CLIFF;
  for (int x = 0; x < p->width; x++)
    {
      const float t = peaked (stretched (p, row[x])) * (float) steps;
      int k = (int) t;
      k = k < steps ? k : steps;
      const float f = t - (float) k;
      row[x] = clamp01 (((float) k + smoothstep (0.5f - half, 0.5f + half, f)) / (float) steps);
    }
}

static void
pass_rows (void *user, int strip, int first, int end)
{
  (void) strip;
  const Pass *p = user;
  for (int y = first; y < end; y++)
    p->row (p, p->data + (size_t) y * p->width, y);
}

/* Runs row () over every row, reporting on [from, to] of progress. */
static TerrainStatus
run_pass (Pass *pass, void (*row) (const Pass *, float *, int), const TerrainProgress *progress,
          double from, double to)
{
  pass->row = row;
  const int report_rows = pass->width >= 65536 ? 1 : 65536 / pass->width;
  return terrain_parallel_rows (pass->height, terrain_map_strips (pass->height, pass->width), report_rows,
                                pass_rows, pass, progress, from, to);
}

/* Measures the data's range for stretched (). */
static void
measure (Pass *pass)
{
  float lo, hi;
  terrain_min_max (pass->data, (size_t) pass->width * pass->height, &lo, &hi);
  pass->lo = lo;
  pass->range = hi > lo ? hi - lo : 0.0f;
}

/* The ridge field c that alpine's curve reads beside the base: seed mix32 (seed ^ salt),
 * `fewer` iterations fewer than the base, its own roughness and fixed mapping. */
typedef struct
{
  uint32_t salt;
  int      fewer;
  double   roughness;
} RidgeField;

/* The ridge field rendered band by band (no layer-sized buffer; the field is a function of
 * position, so the bands join exactly), each band's rows of the layer going through the
 * curve as soon as the band is there. */
#define RIDGE_BAND_CELLS (1 << 18)

static TerrainStatus
run_ridged_curve (const Pass *p, void (*curve) (const Pass *, float *, int),
                  const RidgeField *ridge, uint32_t seed, int iterations,
                  const TerrainProgress *progress, double from, double to)
{
  const int w = p->width, h = p->height;
  const int band = w >= RIDGE_BAND_CELLS ? 1 : RIDGE_BAND_CELLS / w < h ? RIDGE_BAND_CELLS / w : h;
  float *ridges = terrain_alloc ((size_t) band * w * sizeof (float));
  if (ridges == NULL)
    return TERRAIN_ERROR_NO_MEMORY;
  TerrainField f;
  terrain_field_defaults (&f);
  f.seed = terrain_mix32 (seed ^ ridge->salt);
  f.iterations = iterations - ridge->fewer;
  f.roughness = ridge->roughness;
  TerrainStatus status = TERRAIN_OK;
  for (int y0 = 0; y0 < h && status == TERRAIN_OK; y0 += band)
    {
      const int rows = y0 + band < h ? band : h - y0;
      TerrainProgressStage stage;
      f.offset_y = y0;
      status = terrain_field (&f, ridges, w, rows,
                              terrain_progress_stage (&stage, progress,
                                              from + (to - from) * y0 / h,
                                              from + (to - from) * (y0 + rows) / h));
      /* The band's rows of the layer, as a pass of their own. */
      Pass rows_pass = *p;
      rows_pass.data = p->data + (size_t) y0 * w;
      rows_pass.height = rows;
      rows_pass.ridges = ridges;
      if (status == TERRAIN_OK)
        status = run_pass (&rows_pass, curve, NULL, 0.0, 0.0);
    }
  terrain_free (ridges);
  return status;
}

/* Islands: the sea level s, the height g above which ISLANDS_LAND of the pixels lie (to the
 * resolution of a histogram of SEA_BINS bins over [min g, max g]), but at least
 * ISLANDS_SHELF, so that the border ring (g <= 0) is flat sea floor. Also gives max g. */
#define SEA_BINS 4096

static float
sea_level (const float *g, size_t n, float *g_max)
{
  float lo, hi;
  terrain_min_max (g, n, &lo, &hi);
  *g_max = hi;
  const float least = ISLANDS_SHELF;
  if (! (hi > lo))
    return least;
  size_t count[SEA_BINS] = { 0 };
  const float scale = (float) SEA_BINS / (hi - lo);
  for (size_t i = 0; i < n; i++)
    {
      const int k = (int) ((g[i] - lo) * scale);
      count[k < SEA_BINS ? k : SEA_BINS - 1]++;
    }
  const double target = ISLANDS_LAND * (double) n;
  size_t above = 0;
  int    k = SEA_BINS - 1;
  for (; k > 0; k--)
    {
      above += count[k];
      if ((double) above >= target)
        break;
    }
  const float s = lo + (hi - lo) * (float) k / (float) SEA_BINS;
  return s > least ? s : least;
}

/* ---- The recipes ----
 *
 * Every preset is the same four stages, run by the short functions below from its entry
 * in `recipes`: the base field stretched onto [0, 1], a height curve (alpine's also
 * reading a ridge field), a finishing stage with lengths relative to the feature size F,
 * and for alpine a last stretch onto [0, 1]. */

/* A finishing stage and its parameters. */
typedef struct Finish Finish;
struct Finish
{
  TerrainStatus (*run) (const Finish *finish, Pass *pass, double feature,
                        const TerrainProgress *progress, double from, double to);
  int    iterations;
  double length; /* erosion: talus length / F; smoothing: k = 1 / (1 + F / length); rivers:
                  * the age */
};

/* Thermal erosion (strength and neighbourhood its defaults). */
static TerrainStatus
finish_erode (const Finish *finish, Pass *pass, double feature,
              const TerrainProgress *progress, double from, double to)
{
  TerrainThermalErosion erosion;
  TerrainProgressStage stage;
  terrain_thermal_erosion_defaults (&erosion);
  erosion.iterations = finish->iterations;
  erosion.talus = finish->length / feature;
  return terrain_thermal_erosion (&erosion, pass->data, pass->width, pass->height,
                                  terrain_progress_stage (&stage, progress, from, to));
}

/* FIR smoothing: an exponential smoothing over about F / length pixels. */
static TerrainStatus
finish_smooth (const Finish *finish, Pass *pass, double feature,
               const TerrainProgress *progress, double from, double to)
{
  TerrainSmooth smooth;
  TerrainProgressStage stage;
  terrain_smooth_defaults (&smooth);
  smooth.method = TERRAIN_SMOOTH_FIR;
  smooth.k = 1.0 / (1.0 + feature / finish->length);
  smooth.iterations = finish->iterations;
  return terrain_smooth (&smooth, pass->data, pass->width, pass->height,
                         terrain_progress_stage (&stage, progress, from, to));
}

/* Islands: the sea level, then land above it and shelf and sea floor below. */
static TerrainStatus
finish_sea (const Finish *finish, Pass *pass, double feature, const TerrainProgress *progress,
            double from, double to)
{
  (void) finish;
  (void) feature;
  pass->sea_level = sea_level (pass->data, (size_t) pass->width * pass->height, &pass->land_top);
  return run_pass (pass, islands_sea_row, progress, from, to);
}

/* River valleys: the curve's result (the stretched base) is the uplift map that river
 * erosion grows mountains from; its own normalisation leaves the result on [0, 1]. */
static TerrainStatus
finish_rivers (const Finish *finish, Pass *pass, double feature,
               const TerrainProgress *progress, double from, double to)
{
  TerrainRiverErosion rivers;
  TerrainProgressStage stage;
  (void) feature; /* the solver's lengths are relative to the layer already */
  terrain_river_erosion_defaults (&rivers);
  rivers.age = finish->length;
  rivers.diffusion = RIVERS_DIFFUSION;
  rivers.uplift = TERRAIN_RIVER_UPLIFT_LAYER;
  return terrain_river_erosion (&rivers, pass->data, pass->width, pass->height, NULL,
                                terrain_progress_stage (&stage, progress, from, to));
}

/* Where each stage ends on the progress bar (about its share of the time). */
typedef struct
{
  double field, shape, relief; /* the field, the curve (and ridges), the finishing stage */
} Shares;

typedef struct
{
  double            roughness; /* the base field's H */
  const RidgeField *ridges;    /* NULL, or the field the curve reads beside the base */
  void            (*curve) (const Pass *pass, float *row, int y);
  Finish            finish;
  int               stretch;   /* stretched onto [0, 1] again after the finishing stage */
  Shares            shares;
} Recipe;

static const RidgeField alpine_ridges = { ALPINE_RIDGE_SALT, ALPINE_RIDGE_LEVELS,
                                          ALPINE_RIDGE_ROUGHNESS };

static const Recipe recipes[] = {
  [TERRAIN_LANDSCAPE_ALPINE] = {
    .roughness = ALPINE_ROUGHNESS, .ridges = &alpine_ridges, .curve = alpine_row,
    .finish = { finish_erode, ALPINE_ITERATIONS, ALPINE_TALUS }, .stretch = 1,
    .shares = { 0.15, 0.35, 0.97 } },
  [TERRAIN_LANDSCAPE_ROLLING_HILLS] = {
    .roughness = HILLS_ROUGHNESS, .curve = hills_row,
    .finish = { finish_smooth, HILLS_ITERATIONS, HILLS_SMOOTH_LENGTH },
    .shares = { 0.50, 0.55, 1.00 } },
  [TERRAIN_LANDSCAPE_ISLANDS] = {
    .roughness = ISLANDS_ROUGHNESS, .curve = islands_falloff_row,
    .finish = { finish_sea, 0, 0.0 },
    .shares = { 0.60, 0.80, 1.00 } },
  [TERRAIN_LANDSCAPE_MESA] = {
    .roughness = MESA_ROUGHNESS, .curve = mesa_row,
    .finish = { finish_erode, MESA_ITERATIONS, MESA_TALUS },
    .shares = { 0.20, 0.25, 1.00 } },
  [TERRAIN_LANDSCAPE_RIVER_VALLEYS] = {
    .roughness = RIVERS_ROUGHNESS, .curve = stretch_row,
    .finish = { finish_rivers, 0, RIVERS_AGE },
    .shares = { 0.02, 0.03, 1.00 } },
};

/* The scale of slopes and smoothing: the feature size, but no more than the layer's longer
 * side (the stretch makes the largest feature the layer sees span the full range), and at
 * least the smallest feature size (talus 16 / 16 = 1 at most). */
static double
feature_length (int feature_size, int width, int height)
{
  const int side = width > height ? width : height;
  const int scale = feature_size < side ? feature_size : side;
  return scale > TERRAIN_LANDSCAPE_MIN_FEATURE_SIZE ? scale : TERRAIN_LANDSCAPE_MIN_FEATURE_SIZE;
}

/* The base field, into the layer. */
static TerrainStatus
landscape_base (const Recipe *r, const TerrainLandscape *params, float *out, int width,
                int height, const TerrainProgress *progress)
{
  TerrainField field;
  TerrainProgressStage stage;
  terrain_field_defaults (&field);
  field.seed = params->seed;
  field.iterations = terrain_landscape_iterations (params->feature_size);
  field.roughness = r->roughness;
  return terrain_field (&field, out, width, height,
                        terrain_progress_stage (&stage, progress, 0.0, r->shares.field));
}

/* The height curve, on the base as measured into pass. */
static TerrainStatus
landscape_curve (const Recipe *r, Pass *pass, const TerrainLandscape *params,
                 const TerrainProgress *progress)
{
  if (r->ridges)
    return run_ridged_curve (pass, r->curve, r->ridges, params->seed,
                             terrain_landscape_iterations (params->feature_size), progress,
                             r->shares.field, r->shares.shape);
  return run_pass (pass, r->curve, progress, r->shares.field, r->shares.shape);
}

/* The finishing stage, and the last stretch when the recipe has one. */
static TerrainStatus
landscape_finish (const Recipe *r, Pass *pass, double feature, const TerrainProgress *progress)
{
  TerrainStatus status =
    r->finish.run (&r->finish, pass, feature, progress, r->shares.shape, r->shares.relief);
  if (status != TERRAIN_OK || ! r->stretch)
    return status;
  measure (pass);
  return run_pass (pass, stretch_row, progress, r->shares.relief, 1.0);
}

/* ---- Public entry points ---- */

void
terrain_landscape_defaults (TerrainLandscape *params)
{
  params->seed = 0;
  params->preset = TERRAIN_LANDSCAPE_ALPINE;
  params->feature_size = 256;
}

int
terrain_landscape_iterations (int feature_size)
{
  /* round (log2 (F)) = N exactly when 2^(N - 1/2) <= F < 2^(N + 1/2), i.e.
   * 2^(2N - 1) <= F^2 < 2^(2N + 1). */
  const uint64_t square = (uint64_t) feature_size * (uint64_t) feature_size;
  int n = 0;
  while (n < 31 && square >= ((uint64_t) 1 << (2 * n + 1)))
    n++;
  return n;
}

TerrainStatus
terrain_landscape (const TerrainLandscape *params, float *out, int width, int height,
                   const TerrainProgress *progress)
{
  TerrainStatus status = terrain_check_size (width, height);
  if (status != TERRAIN_OK)
    return status;
  if ((unsigned) params->preset > TERRAIN_LANDSCAPE_RIVER_VALLEYS ||
      params->feature_size < TERRAIN_LANDSCAPE_MIN_FEATURE_SIZE ||
      params->feature_size > TERRAIN_LANDSCAPE_MAX_FEATURE_SIZE)
    return TERRAIN_ERROR_INVALID;

  const Recipe *recipe = &recipes[params->preset];
  status = landscape_base (recipe, params, out, width, height, progress);
  if (status != TERRAIN_OK)
    return status;
  Pass pass = { out, width, height, 0.0f, 0.0f, 0.0f, 0.0f, NULL, NULL };
  measure (&pass);
  status = landscape_curve (recipe, &pass, params, progress);
  if (status == TERRAIN_OK)
    status = landscape_finish (recipe, &pass, feature_length (params->feature_size, width, height),
                               progress);
  if (status == TERRAIN_OK && terrain_progress_report (progress, 1.0))
    status = TERRAIN_CANCELLED;
  return status;
}
