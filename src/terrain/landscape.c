#include "landscape.h"

#include "field.h"
#include "heightmap.h"
#include "landscape-drain.h"
#include "random.h"
#include "river-erosion.h"
#include "smooth.h"
#include "spline-noise.h"
#include "terrain-common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- The recipes' constants (landscape.h documents them) ---- */

#define CELLS_PER_FEATURE  64          /* the coarse grid: about this many cells per F */
#define MARGIN_CELLS       16          /* coarse cells beyond every side of the layer */
#define DETAIL_SALT        0xde7a11edu /* the detail noise's seed: mix32 (seed ^ salt) */
#define DETAIL_SLOPE       3.0         /* full detail from this slope, relief per F */

#define ISLANDS_BIAS       0.8f        /* g loses this times r^2 */
#define ISLANDS_EDGE_START 0.7f        /* and up to 1 more from here ... */
#define ISLANDS_EDGE_END   0.98f       /* ... to here, in max (|u|, |v|) */
#define ISLANDS_LAND       0.22        /* share of the layer above sea level */
#define ISLANDS_SHELF      0.05f       /* the shelf: g from s - shelf to s */
#define ISLANDS_DRAIN_RISE 2e-4f       /* g a land cell rises per step of its path to the sea */

/* Alpine's and Mesa's rivers: with 40 steps of diffusion 1 their slope-area exponent θ was
 * 0.79-0.82 and 0.87-0.99 at 512^2 to 4096^2 (a river landscape's is 0.3-0.8); now
 * 0.70-0.75 and 0.67-0.72 (seed 0). More diffusion on Alpine broadened its valleys
 * (skewness fell), on Mesa it softened the escarpments unless they were narrower. */
#define ALPINE_STEPS       35          /* steps of the rivers */
#define MESA_DIFFUSION     2.0         /* cells^2 a step */
#define MESA_TREAD         0.35f       /* share of the slope a terrace's tread keeps */
#define MESA_CLIFF         0.08f       /* half the share of a step that is escarpment */

#define HILLS_SMOOTHING    16          /* Laplacian iterations on the coarse grid */
#define FINE_CELLS         4           /* the fine river pass's cells per coarse cell */
#define FINE_AGE           0.3         /* its age (River Erosion's, analytical) */

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

/* b^1.5 = b sqrt (b), correctly rounded operations only (no powf, whose last bit differs
 * between C libraries). */
static inline float
peaked (float b)
{
  return b * sqrtf (b);
}

/* ---- A map (the coarse grid or the layer) and its per-pixel passes ---- */

typedef struct Map Map;
struct Map
{
  float *data;
  int    width, height;
  int    q, margin;        /* layer pixels per cell; cells beyond the layer's left and top */
  int    layer_w, layer_h;
  float  lo, range, a, b;  /* stretch_row: a + b (v - lo) / range */
  float  sea;             /* islands: the sea level s */
  void (*row) (const Map *m, float *row, int y);
};

static void
pass_rows (void *user, int strip, int first, int end)
{
  (void) strip;
  const Map *m = user;
  for (int y = first; y < end; y++)
    m->row (m, m->data + (size_t) y * m->width, y);
}

static TerrainStatus
run_pass (Map *m, void (*row) (const Map *, float *, int))
{
  m->row = row;
  return terrain_parallel_rows (m->height, terrain_map_strips (m->height, m->width), m->height,
                                pass_rows, m, NULL, 0.0, 0.0);
}

static void
stretch_row (const Map *m, float *row, int y)
{
  (void) y;
  for (int x = 0; x < m->width; x++)
    row[x] = m->range > 0.0f ? m->a + m->b * clamp01 ((row[x] - m->lo) / m->range)
                             : m->a + 0.5f * m->b;
}

/* Stretches the map onto [a, a + b] by its own minimum and maximum. */
static TerrainStatus
stretch (Map *m, float a, float b)
{
  float lo, hi;
  terrain_min_max (m->data, (size_t) m->width * m->height, &lo, &hi);
  m->lo = lo;
  m->range = hi > lo ? hi - lo : 0.0f;
  m->a = a;
  m->b = b;
  return run_pass (m, stretch_row);
}

/* ---- The coarse grid ---- */

/* q: the largest power of two at most F / CELLS_PER_FEATURE (at least 1), so that the
 * coarse grid has the same cells per feature, and the same cells, whatever the layer's
 * size at the same F / size. */
static int
coarse_levels (const TerrainLandscape *params)
{
  const int n = terrain_landscape_iterations (params->feature_size);
  int levels = 0;
  while ((CELLS_PER_FEATURE << (levels + 1)) <= params->feature_size && levels + 2 < n)
    levels++;
  return levels;
}

/* The base field on the coarse grid, stretched onto [0, 1]: cell (i, j) is the layer
 * field's node at pixel (q (i - margin), q (j - margin)). */
static TerrainStatus
coarse_base (const TerrainLandscape *params, int levels, double roughness, Map *c,
             const TerrainProgress *progress)
{
  TerrainField f;
  terrain_field_defaults (&f);
  f.seed = params->seed;
  f.iterations = terrain_landscape_iterations (params->feature_size) - levels;
  f.roughness = roughness;
  f.offset_x = -c->margin;
  f.offset_y = -c->margin;
  TerrainStatus status = terrain_field (&f, c->data, c->width, c->height, progress);
  return status == TERRAIN_OK ? stretch (c, 0.0f, 1.0f) : status;
}

/* Drops the margin. */
static void
crop (Map *c)
{
  const int w = c->width - 2 * c->margin, h = c->height - 2 * c->margin;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      c->data[(size_t) y * w + x] =
        c->data[(size_t) (y + c->margin) * c->width + x + c->margin];
  c->width = w;
  c->height = h;
  c->margin = 0;
}

/* Islands' sea level s on g stretched onto [0, 1]: the g above which ISLANDS_LAND of the
 * pixels lie (a histogram of SEA_BINS bins), but at least ISLANDS_SHELF above the highest
 * g on the layer's border, so that the border is flat sea floor. */
#define SEA_BINS 4096

static float
border_top (const Map *m)
{
  const int w = m->width, h = m->height;
  float border = 0.0f;
  for (int x = 0; x < w; x++)
    border = fmaxf (border, fmaxf (m->data[x], m->data[(size_t) (h - 1) * w + x]));
  for (int y = 0; y < h; y++)
    border = fmaxf (border, fmaxf (m->data[(size_t) y * w], m->data[(size_t) y * w + w - 1]));
  return border;
}

static float
sea_level (const Map *m)
{
  const int w = m->width, h = m->height;
  size_t *count = terrain_calloc (SEA_BINS, sizeof (size_t));
  float s = 1.0f;
  if (count != NULL)
    {
      const size_t n = (size_t) w * h;
      for (size_t i = 0; i < n; i++)
        {
          const int k = (int) (m->data[i] * (float) SEA_BINS);
          count[k < SEA_BINS ? k : SEA_BINS - 1]++;
        }
      size_t above = 0;
      int k = SEA_BINS - 1;
      for (; k > 0 && (double) (above += count[k]) < ISLANDS_LAND * (double) n; k--)
        ;
      s = (float) k / (float) SEA_BINS;
      terrain_free (count);
    }
  const float least = border_top (m) + ISLANDS_SHELF;
  return s > least ? s : least;
}

/* ---- The processes on the coarse grid, lengths in its cells ---- */

/* River erosion's simulation, `iterations` steps of erosion 0.2, uplift none, open edges,
 * the cells at or below `sea` outlets: valleys cut into the relief, every cell draining. The
 * last step is whole: its grain is the coarse grid's, which the finish stretches and details
 * (in halving parts, Alpine's θ rose from 0.80 to 0.90 at 1024 x 1024, River valleys' pits
 * from 0.04 to 0.41 %). Diffusion is given in cells^2 per step (the procedure's unit,
 * millionths of L^2, is converted: the same in cells at any size). */
/* River Erosion's diffusion (millionths of L^2, at most its maximum) for `cells2` cells^2 on
 * a w x h grid. */
static double
river_diffusion (double cells2, int w, int h)
{
  const double side = w > h ? w : h;
  const double d = cells2 * 1e6 / (side * side);
  return d < TERRAIN_RIVER_MAX_DIFFUSION ? d : TERRAIN_RIVER_MAX_DIFFUSION;
}

static TerrainStatus
rivers (Map *c, int iterations, double diffusion, double sea, const TerrainProgress *progress)
{
  TerrainRiverErosion r;
  terrain_river_erosion_defaults (&r);
  r.method = TERRAIN_RIVER_METHOD_SIMULATE;
  r.iterations = iterations;
  r.erosion = 0.2;
  r.diffusion = river_diffusion (diffusion, c->width, c->height);
  r.sea_level = sea;
  r.whole_last_step = 1;
  return terrain_river_erosion (&r, c->data, c->width, c->height, NULL, progress);
}

static TerrainStatus
shape_alpine (Map *c, const TerrainProgress *progress)
{
  for (size_t i = 0; i < (size_t) c->width * c->height; i++)
    c->data[i] = peaked (c->data[i]);
  return rivers (c, ALPINE_STEPS, 1.0, 0.0, progress);
}

static TerrainStatus
shape_rivers (Map *c, const TerrainProgress *progress)
{
  return rivers (c, 75, 2.0, 0.0, progress);
}

static TerrainStatus
shape_hills (Map *c, const TerrainProgress *progress)
{
  TerrainSmooth smooth;
  terrain_smooth_defaults (&smooth);
  smooth.iterations = HILLS_SMOOTHING;
  return terrain_smooth (&smooth, c->data, c->width, c->height, progress);
}

/* Strata: t = steps b^1.5, k = floor (t), f = t - k; the tread keeps MESA_TREAD of the
 * slope, the rest of the step rises over the escarpment in the middle of f. */
static TerrainStatus
shape_mesa (Map *c, const TerrainProgress *progress)
{
  TerrainStatus status = rivers (c, 40, MESA_DIFFUSION, 0.0, progress);
  if (status == TERRAIN_OK)
    status = stretch (c, 0.0f, 1.0f);
  const int steps = TERRAIN_LANDSCAPE_MESA_STEPS;
  for (size_t i = 0; status == TERRAIN_OK && i < (size_t) c->width * c->height; i++)
    {
      const float t = peaked (c->data[i]) * (float) steps;
      int k = (int) t;
      k = k < steps ? k : steps;
      const float f = t - (float) k;
      const float rise = smoothstep (0.5f - MESA_CLIFF, 0.5f + MESA_CLIFF, f);
      c->data[i] = ((float) k + MESA_TREAD * f + (1.0f - MESA_TREAD) * rise) / (float) steps;
    }
  return status;
}

/* g = b - bias r^2 - smoothstep (edge start, edge end, max (|u|, |v|)), (u, v) the cell's
 * layer position from the layer's centre in half-sides. */
static TerrainStatus
shape_islands (Map *c, const TerrainProgress *progress)
{
  for (int j = 0; j < c->height; j++)
    {
      const float y = (float) (c->q * (j - c->margin)) + 0.5f;
      const float v = (y - 0.5f * (float) c->layer_h) / (0.5f * (float) c->layer_h);
      for (int i = 0; i < c->width; i++)
        {
          const float x = (float) (c->q * (i - c->margin)) + 0.5f;
          const float u = (x - 0.5f * (float) c->layer_w) / (0.5f * (float) c->layer_w);
          const float edge = fmaxf (fabsf (u), fabsf (v));
          float *g = c->data + (size_t) j * c->width + i;
          *g -= ISLANDS_BIAS * (u * u + v * v) +
                smoothstep (ISLANDS_EDGE_START, ISLANDS_EDGE_END, edge);
        }
    }
  TerrainStatus status = stretch (c, 0.0f, 1.0f);
  c->sea = fminf (sea_level (c), (float) TERRAIN_RIVER_MAX_SEA_LEVEL);
  if (status == TERRAIN_OK)
    status = rivers (c, 40, 1.0, c->sea, progress);
  return status == TERRAIN_OK
           ? landscape_drain_to_sea (c->data, c->width, c->height, c->sea, ISLANDS_DRAIN_RISE)
           : status;
}

/* ---- From the coarse grid to the layer ---- */

/* Cubic B-spline weights of the four cells around t in [0, 1): positive, so the
 * interpolation makes no new extremes (pits) of its own, and smooth (C2) across cells. */
static void
spline_weights (float t, float w[4])
{
  const float t2 = t * t, t3 = t2 * t, u = 1.0f - t;
  w[0] = u * u * u / 6.0f;
  w[1] = (3.0f * t3 - 6.0f * t2 + 4.0f) / 6.0f;
  w[2] = (-3.0f * t3 + 3.0f * t2 + 3.0f * t + 1.0f) / 6.0f;
  w[3] = t3 / 6.0f;
}

static inline float
spline_at (const float *line, int n, size_t stride, int i, const float w[4])
{
  float v = 0.0f;
  for (int k = 0; k < 4; k++)
    {
      int j = i - 1 + k;
      j = j < 0 ? 0 : j >= n ? n - 1 : j;
      v += w[k] * line[(size_t) j * stride];
    }
  return v;
}

typedef struct
{
  const float *src;
  int          sw, sh, q;
  float       *dst, *lines; /* lines: sw floats per strip */
  int          dw;
} Upsample;

/* Layer rows [first, end): the coarse columns interpolated down to the row, then along it;
 * cell i sits at layer pixel q i. */
static void
upsample_rows (void *user, int strip, int first, int end)
{
  const Upsample *u = user;
  float *line = u->lines + (size_t) strip * u->sw;
  for (int y = first; y < end; y++)
    {
      float wy[4], wx[4];
      const int iy = y / u->q;
      spline_weights ((float) (y - iy * u->q) / (float) u->q, wy);
      for (int i = 0; i < u->sw; i++)
        line[i] = spline_at (u->src + i, u->sh, (size_t) u->sw, iy, wy);
      float *out = u->dst + (size_t) y * u->dw;
      for (int x = 0; x < u->dw; x++)
        {
          const int ix = x / u->q;
          spline_weights ((float) (x - ix * u->q) / (float) u->q, wx);
          out[x] = spline_at (line, u->sw, 1, ix, wx);
        }
    }
}

static TerrainStatus
upsample (const Map *c, float *dst, int width, int height)
{
  const int strips = terrain_map_strips (height, width);
  Upsample u = { c->data, c->width, c->height, c->q, dst, NULL, width };
  u.lines = terrain_alloc ((size_t) strips * c->width * sizeof (float));
  if (u.lines == NULL)
    return TERRAIN_ERROR_NO_MEMORY;
  const TerrainStatus status =
    terrain_parallel_rows (height, strips, height, upsample_rows, &u, NULL, 0.0, 0.0);
  terrain_free (u.lines);
  return status;
}

/* out = guide + amp w (noise - 1/2): w = smoothstep (0, 1, slope of the guide in relief per
 * F / DETAIL_SLOPE), so valley floors and flats stay smooth and keep draining. */
typedef struct
{
  const float *guide;
  float       *out;
  int          width, height;
  float        amp, slope_scale;
} Detail;

static void
detail_rows (void *user, int strip, int first, int end)
{
  (void) strip;
  const Detail *d = user;
  const int w = d->width, h = d->height;
  for (int y = first; y < end; y++)
    {
      const float *g = d->guide + (size_t) y * w;
      const float *up = y > 0 ? g - w : g, *down = y + 1 < h ? g + w : g;
      const float ky = y > 0 && y + 1 < h ? 0.5f : 1.0f;
      float *o = d->out + (size_t) y * w;
      for (int x = 0; x < w; x++)
        {
          const int xl = x > 0 ? x - 1 : x, xr = x + 1 < w ? x + 1 : x;
          const float gx = xr > xl ? (g[xr] - g[xl]) / (float) (xr - xl) : 0.0f;
          const float gy = (down[x] - up[x]) * ky;
          const float weight = smoothstep (0.0f, 1.0f, sqrtf (gx * gx + gy * gy) * d->slope_scale);
          o[x] = g[x] + d->amp * weight * o[x];
        }
    }
}

/* The layer from the coarse map (stretched onto [0, 1]): interpolated, then the detail
 * the coarse grid cannot hold, the spline noise's features up to about 2 q pixels across
 * (roughness `detail`), amp q / F high (relief units) where the land is steep. q = 1: the
 * map itself. */
static TerrainStatus
to_layer (const TerrainLandscape *params, Map *c, double detail, double amp, float *out,
          int width, int height, const TerrainProgress *progress)
{
  TerrainStatus status = stretch (c, 0.0f, 1.0f);
  c->sea = c->range > 0.0f ? (c->sea - c->lo) / c->range : 0.5f;
  if (status != TERRAIN_OK || c->q == 1)
    {
      for (size_t i = 0; status == TERRAIN_OK && i < (size_t) width * height; i++)
        out[i] = c->data[i];
      return status;
    }
  float *guide = terrain_alloc ((size_t) width * height * sizeof (float));
  if (guide == NULL)
    return TERRAIN_ERROR_NO_MEMORY;
  status = upsample (c, guide, width, height);
  int levels = 0; /* the coarsest octave's spacing is q: features about 2 q across */
  for (int q = c->q; q > 1; q >>= 1)
    levels++;
  if (status == TERRAIN_OK)
    status = terrain_spline_noise (terrain_mix32 (params->seed ^ DETAIL_SALT), levels, detail,
                                   out, width, height, progress);
  const double feature = params->feature_size;
  Detail d = { guide, out, width, height, (float) (amp * c->q / feature),
               (float) (feature / DETAIL_SLOPE) };
  if (status == TERRAIN_OK)
    status = terrain_parallel_rows (height, terrain_map_strips (height, width), height,
                                    detail_rows, &d, NULL, 0.0, 0.0);
  terrain_free (guide);
  return status;
}

/* ---- The fine river pass ---- */

/* dst (sw x sh): cell (i, j) the mean of the layer's pixels in the k x k block centred on
 * pixel (k i, k j), as upsample places a cell (the nearest pixel where the block is off the
 * layer). */
static void
box_down (const float *src, int w, int h, int k, float *dst, int sw, int sh)
{
  for (int j = 0; j < sh; j++)
    for (int i = 0; i < sw; i++)
      {
        const int x0 = i * k - k / 2, y0 = j * k - k / 2;
        double    sum = 0.0;
        int       n = 0;
        for (int y = y0 > 0 ? y0 : 0; y < y0 + k && y < h; y++)
          for (int x = x0 > 0 ? x0 : 0; x < x0 + k && x < w; x++)
            sum += src[(size_t) y * w + x], n++;
        const int x = i * k < w ? i * k : w - 1, y = j * k < h ? j * k : h - 1;
        dst[(size_t) j * sw + i] = n > 0 ? (float) (sum / n) : src[(size_t) y * w + x];
      }
}

/* Where q is more than FINE_CELLS pixels, the coarse grid's rivers are q pixels wide and the
 * detail between them does not drain: at 4096 x 4096 the slopes were lumps of noise. River
 * Erosion (analytical, FINE_AGE, `diffusion` cells^2) on the layer at k = q / FINE_CELLS
 * pixels a cell cuts the detail into gullies and spurs; its change, interpolated as the
 * coarse grid is, is added to the layer. The fine grid has the same cells per feature at
 * every layer size, so the larger render keeps the same landscape with finer detail. */
static TerrainStatus
fine_rivers (float *out, int w, int h, int k, double diffusion, const TerrainProgress *progress)
{
  const int sw = (w - 1) / k + 2, sh = (h - 1) / k + 2;
  const size_t cells = (size_t) sw * sh;
  float *fine = terrain_alloc (2 * cells * sizeof (float));
  float *change = terrain_alloc ((size_t) w * h * sizeof (float));
  TerrainStatus status = fine && change ? TERRAIN_OK : TERRAIN_ERROR_NO_MEMORY;
  if (status == TERRAIN_OK)
    {
      box_down (out, w, h, k, fine, sw, sh);
      memcpy (fine + cells, fine, cells * sizeof (float));
      TerrainRiverErosion r;
      terrain_river_erosion_defaults (&r);
      r.age = FINE_AGE;
      r.diffusion = river_diffusion (diffusion, sw, sh);
      status = terrain_river_erosion (&r, fine, sw, sh, NULL, progress);
    }
  for (size_t i = 0; status == TERRAIN_OK && i < cells; i++)
    fine[i] -= fine[cells + i];
  const Map m = { fine, sw, sh, k, 0, w, h, 0, 0, 0, 0, 0, NULL };
  if (status == TERRAIN_OK)
    status = upsample (&m, change, w, h);
  for (size_t i = 0; status == TERRAIN_OK && i < (size_t) w * h; i++)
    out[i] += change[i];
  terrain_free (fine);
  terrain_free (change);
  return status;
}

/* ---- Finishing on the layer ---- */

static TerrainStatus
finish_full (Map *m)
{
  return stretch (m, 0.0f, 1.0f);
}

static TerrainStatus
finish_band (Map *m)
{
  return stretch (m, (float) TERRAIN_LANDSCAPE_HILLS_LOW,
                  (float) (TERRAIN_LANDSCAPE_HILLS_HIGH - TERRAIN_LANDSCAPE_HILLS_LOW));
}

/* The shelf's fall from the coast, t = (s - g) / ISLANDS_SHELF in [0, 1] onto [0, 1]: the
 * cubic with slope m at the coast and 0 at the floor. With m the land's slope there, the
 * coast has no crease (smoothstep, flat at the coast, drew the coastline as a bright line
 * in the hillshade once the lowlands drained, and left the sea beside it flat). */
static inline float
shelf_fall (float t, float m)
{
  const float u = 1.0f - t;
  return m * t * u * u + t * t * (3.0f - 2.0f * t);
}

/* Land: coast + (1 - coast) (g - s) / (1 - s); sea: the shelf from the coast down to the
 * floor over ISLANDS_SHELF of g below sea level, then the flat floor. */
static void
islands_sea_row (const Map *m, float *row, int y)
{
  (void) y;
  const float sea_floor = (float) TERRAIN_LANDSCAPE_SEA_FLOOR;
  const float coast = (float) TERRAIN_LANDSCAPE_COAST;
  const float s = m->sea, land = 1.0f - s;
  const float land_slope = land > 0.0f ? (1.0f - coast) / land : 0.0f;
  /* At most 3: beyond it the cubic would rise again before the floor. */
  const float fall = fminf (land_slope * ISLANDS_SHELF / (coast - sea_floor), 3.0f);
  for (int x = 0; x < m->width; x++)
    {
      const float g = row[x];
      row[x] = g >= s ? clamp01 (coast + land_slope * (g - s))
                      : coast - (coast - sea_floor) *
                                  shelf_fall (clamp01 ((s - g) / ISLANDS_SHELF), fall);
    }
}

/* The coarse grid's sea level, carried through the stretch, but at least ISLANDS_SHELF
 * above the layer's border. */
static TerrainStatus
finish_sea (Map *m)
{
  TerrainStatus status = stretch (m, 0.0f, 1.0f);
  if (status != TERRAIN_OK)
    return status;
  const float s = m->range > 0.0f ? (m->sea - m->lo) / m->range : 0.5f;
  const float least = border_top (m) + ISLANDS_SHELF;
  m->sea = s > least ? s : least;
  return run_pass (m, islands_sea_row);
}

/* ---- The recipes ---- */

typedef struct
{
  double roughness;   /* the base field's H */
  TerrainStatus (*shape) (Map *c, const TerrainProgress *progress);
  double detail;      /* the detail noise's H (spline-noise.h) */
  double amp;         /* its height, times q / F (Alpine's 6 before the noise replaced the
                       * infinite field: with the noise, speckle 5.9 at 512 x 512) */
  double fine;        /* the fine river pass's diffusion, cells^2 (0: no fine pass) */
  TerrainStatus (*finish) (Map *m);
} Recipe;

/* No fine pass for Mesa, whose escarpments it wore round, nor for Islands, on whose coastal
 * plains (a ramp to the sea) it cut straight parallel gullies. */
static const Recipe recipes[] = {
  [TERRAIN_LANDSCAPE_ALPINE] = { 0.7, shape_alpine, 1.2, 4.5, 0.5, finish_full },
  [TERRAIN_LANDSCAPE_ROLLING_HILLS] = { 1.2, shape_hills, 1.3, 3.0, 0.0, finish_band },
  [TERRAIN_LANDSCAPE_ISLANDS] = { 1.0, shape_islands, 1.1, 8.0, 0.0, finish_sea },
  [TERRAIN_LANDSCAPE_MESA] = { 1.0, shape_mesa, 1.3, 6.0, 0.0, finish_full },
  [TERRAIN_LANDSCAPE_RIVER_VALLEYS] = { 1.0, shape_rivers, 1.3, 4.0, 1.0, finish_full },
};

/* ---- Public entry points ---- */

void
terrain_landscape_defaults (TerrainLandscape *params)
{
  params->seed = 0;
  params->preset = TERRAIN_LANDSCAPE_ALPINE;
  params->feature_size = TERRAIN_LANDSCAPE_FEATURE_SIZE_LAYER;
}

int
terrain_landscape_feature_size (int feature_size, int width, int height)
{
  if (feature_size != TERRAIN_LANDSCAPE_FEATURE_SIZE_LAYER)
    return feature_size;
  const double quarter = round (sqrt ((double) width * (double) height) / 4.0);
  return (int) fmin (fmax (quarter, TERRAIN_LANDSCAPE_MIN_FEATURE_SIZE),
                     TERRAIN_LANDSCAPE_MAX_FEATURE_SIZE);
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

/* The coarse grid: base, shape, and without its margin. Progress on [0, 0.75]. */
static TerrainStatus
landscape_coarse (const TerrainLandscape *params, const Recipe *r, Map *c,
                  const TerrainProgress *progress)
{
  TerrainProgressStage stage;
  const int levels = coarse_levels (params);
  c->q = 1 << levels;
  c->margin = MARGIN_CELLS;
  c->width = (c->layer_w + c->q - 1) / c->q + 2 * MARGIN_CELLS;
  c->height = (c->layer_h + c->q - 1) / c->q + 2 * MARGIN_CELLS;
  c->data = terrain_alloc ((size_t) c->width * c->height * sizeof (float));
  if (c->data == NULL)
    return TERRAIN_ERROR_NO_MEMORY;
  TerrainStatus status = coarse_base (params, levels, r->roughness, c,
                                      terrain_progress_stage (&stage, progress, 0.0, 0.05));
  if (status == TERRAIN_OK)
    status = r->shape (c, terrain_progress_stage (&stage, progress, 0.05, 0.75));
  if (status == TERRAIN_OK)
    crop (c);
  return status;
}

TerrainStatus
terrain_landscape (const TerrainLandscape *params, float *out, int width, int height,
                   const TerrainProgress *progress)
{
  TerrainStatus status = terrain_check_size (width, height);
  if (status != TERRAIN_OK)
    return status;
  /* The feature size this layer gets, from here on in place of params'. */
  TerrainLandscape sized = *params;
  sized.feature_size = terrain_landscape_feature_size (params->feature_size, width, height);
  if ((unsigned) sized.preset > TERRAIN_LANDSCAPE_RIVER_VALLEYS ||
      sized.feature_size < TERRAIN_LANDSCAPE_MIN_FEATURE_SIZE ||
      sized.feature_size > TERRAIN_LANDSCAPE_MAX_FEATURE_SIZE)
    return TERRAIN_ERROR_INVALID;

  const Recipe *r = &recipes[sized.preset];
  Map c = { NULL, 0, 0, 1, 0, width, height, 0, 0, 0, 0, 0, NULL };
  TerrainProgressStage stage;
  status = landscape_coarse (&sized, r, &c, progress);
  if (status == TERRAIN_OK)
    status = to_layer (&sized, &c, r->detail, r->amp, out, width, height,
                       terrain_progress_stage (&stage, progress, 0.75, 0.9));
  terrain_free (c.data);
  if (status == TERRAIN_OK && r->fine > 0.0 && c.q > FINE_CELLS)
    status = fine_rivers (out, width, height, c.q / FINE_CELLS, r->fine,
                          terrain_progress_stage (&stage, progress, 0.9, 0.98));
  Map m = { out, width, height, 1, 0, width, height, 0, 0, 0, 0, c.sea, NULL };
  if (status == TERRAIN_OK)
    status = r->finish (&m);
  if (status == TERRAIN_OK && terrain_progress_report (progress, 1.0))
    status = TERRAIN_CANCELLED;
  return status;
}
