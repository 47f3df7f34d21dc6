/* River erosion: the analytical method (river-erosion.h), after Tzathas, Gailleton, Steer &
 * Cordonnier 2024, "Physically-based analytical erosion for fast terrain generation",
 * Computer Graphics Forum 43(2).
 *
 * With n = 1 the stream power law dh/dt = U - K A^m S along a channel is an advection
 * equation: heights travel upstream at K A^m. On the D8 network of the heights, a cell's
 * travel time from its root is tau_i = tau_r + d_i / A_i^m (K = 1: time is age) and the
 * uplift it gathers on the way is P_i = P_r + U_i d_i / A_i^m. After an age t, the cell
 * has the height that started at the point of its path one travel time t downstream, plus
 * the uplift gathered since (P_i - P there); when tau_i <= t the root's height plus P_i, the
 * steady state. The point lies between two cells of the path, where height and P are
 * interpolated linearly (exact on a D8 edge, along which the travel time grows linearly).
 *
 * The network is that of the result: a pass solves on the network of the current estimate
 * (the input's first), and passes repeat until the receivers they find on their result are
 * those they solved on, or a few passes (PASSES_*). A depth-first order keeps each cell's path to its
 * root on a small stack by depth, where the point downstream is found by halving from an
 * ancestor's (it is never further downstream than that one's). A cell's result
 * depends on its path alone, so the order can be cut anywhere: a chunk of it starts by
 * solving its first cell's path again from the root. The drainage guard of the simulation
 * keeps every solved cell a float above its receiver: no pit is made (the diffusion after
 * the last stage may make a few, which the run's last check fills).
 *
 * Hillslope diffusion does not fit the solution: the age is cut into stages (up to
 * MAX_STAGES), each one implicit diffusion step of the stage's share of the total, then the
 * solution over the stage's age from the diffused heights, as the simulation diffuses
 * before it incises. Eroding a layer, the later stages solve on the first stage's network
 * (river_analytical says why), and the diffusion is split symmetrically (Strang): the first
 * stage's step is half a share, and the other half comes after the last solution
 * (last_half_diffusion says why). The receivers are those of the simulation (Rho8,
 * river-flow.c), chosen afresh by each pass. */
#include "river-internal.h"

#include <math.h>
#include <stdlib.h>

/* Solves at most this many times the first stage, half as many each later one: its start,
 * the stage before's result, has a network nearly settled already (at 1024 x 1024 this
 * takes the defaults from 8 passes to 5, growing from 16 to 10, with the same slope-area
 * exponents). Eroding a layer, the input's network is already close to the result's: a
 * second pass on the first one's network is as close to the simulation (river-erosion.h),
 * further ones move away from it on flats. Growing from flat ground, the first network is
 * noise, and the steady state's channels need a few more. */
#define PASSES_ERODING 2
#define PASSES_GROWING 4
/* Growing from a coarser grid's result (river-erosion.c: coarse_estimate), whose network is
 * nearly the steady state's already: as many as eroding a layer. At 1024 x 1024 this takes
 * the river-valleys preset from 0.74 s to 0.56 s (one thread), the slope-area exponents
 * within 0.01 of those of 4 passes; with 2 passes from noise too (the coarsest grid), the
 * cliffs came back. */
#define PASSES_FROM_ESTIMATE 2
/* Eroding a layer in stages (with diffusion), a later stage's pass solves on the network of
 * the stage before's result, as the first stage's second pass would: each stage solves once,
 * the first one too. At 1024 x 1024 at the defaults the root mean square difference from the
 * simulation is then 0.47 of the simulation's change, against 0.48 with the second pass,
 * and the run takes about 0.83 of the time (two threads). Growing ranges are unchanged. */
#define PASSES_ERODING_STAGED 1
/* Stages with diffusion: at most this many, and at least TERRAIN_RIVER_AGE_PER_STEP of age
 * each. More do not bring the result nearer the simulation's: on the first stage's network
 * the root mean square difference from it at the defaults at 1024 x 1024 (Diamond-Square)
 * was 0.21 of its change with 4, 0.25 with 8 and 0.29 with 16 (the look as grainy, aniso45
 * 1.31, 1.28, 1.25). */
#define MAX_STAGES 4

/* Inlined wherever called (GCC would not inline the solution's cell twice). */
#if defined(__GNUC__) || defined(__clang__)
#define RIVER_INLINE static inline __attribute__ ((always_inline))
#else
#define RIVER_INLINE static inline
#endif

int
river_analytical_stages (const TerrainRiverErosion *p)
{
  if (p->diffusion == 0.0)
    return 1;
  const double steps = ceil (p->age / TERRAIN_RIVER_AGE_PER_STEP);
  return steps < MAX_STAGES ? (steps < 1.0 ? 1 : (int) steps) : MAX_STAGES;
}

/* A cell of the path from the current cell to its root, at its depth. */
typedef struct
{
  double  tau;      /* travel time from the root */
  double  gathered; /* uplift gathered from the root: P */
  float   height;   /* at the stage's start */
  float   solved;   /* after the stage: its donors are kept a float above it */
  int32_t found;    /* the depth of the path cell at or below the point downstream */
  int32_t place;    /* its place in the order */
} PathCell;

typedef struct
{
  RiverRun      *r;
  const float   *start;         /* the heights at the stage's start */
  int32_t       *depth;         /* by place */
  uint8_t       *keep;          /* per cell: its height is not its own solution's */
  uint8_t       *used;          /* per cell: the receiver the last pass solved on */
  PathCell      *path;          /* chunk c's path at path + path_start[c] */
  size_t        *path_start;
  double         age;           /* of the stage */
  int            passes[2];     /* at most, in the first stage and in each later one */
  int            keep_network;  /* the later stages solve on the first stage's network */
  /* NULL, or per cell, recorded by the first stage for the later ones (keep_network): the
   * path cells a and b its point downstream lies between, and how far from a (gather). */
  int32_t       *from_a, *from_b;
  float         *from_f;
  double         uplift_scale;  /* uplift per step to uplift per age */
  double         step_length[2]; /* axial, diagonal, in L */
  double         inverse_power[RIVER_POWER_TABLE]; /* (a cell_area)^-m for a cells */
} Solution;

static double
inverse_area_power (const Solution *s, uint32_t cells)
{
  if (cells < RIVER_POWER_TABLE)
    return s->inverse_power[cells];
  return pow ((double) cells * s->r->cell_area, -s->r->p->area_exponent);
}

/* The search for a cell's point downstream starts at the point of its ancestor this many
 * cells up (points move downstream going up a river: that one is never past the cell's).
 * Its receiver's point would be nearer, but then each search would wait for the one before
 * it, cell after cell along a river; this one was found a few cells ago. At 1024 x 1024 at
 * the defaults this took the solution from 154-159 to 121-129 ms on one thread, the same for
 * 2 to 4 cells, slower from 6 on. */
#define POINT_LAG 4

/* The depth j of the last path cell with tau <= target, below `depth` (whose tau is above
 * it), from where the search starts (POINT_LAG): the taus grow along the path, and the
 * range is halved by comparisons, not branches (which would be mispredicted at every
 * turn). */
RIVER_INLINE int32_t
point_downstream (const PathCell *path, int32_t depth, double target)
{
  int32_t low = depth > POINT_LAG ? path[depth - POINT_LAG].found : 0, length = depth - low;
  while (length > 1)
    {
      const int32_t half = length / 2;
      low = path[low + half].tau <= target ? low + half : low;
      length -= half;
    }
  return low;
}

/* A root at place q is the path's first cell: an outlet keeps its height (one eroded down
 * to the sea became an outlet there). */
static void
start_path (const Solution *s, PathCell *path, int32_t q)
{
  const float height = s->r->g.h[s->r->g.stack[q]];
  path[0] = (PathCell) { 0.0, 0.0, height, height, 0, q };
}

/* Path cell d for the non-root cell at place q (path[d - 1] is its receiver): its height
 * after the stage's age, kept at least a float above its receiver's new one, never below
 * the floor (incision stops at the sea), and, without uplift, never above where it
 * started. *keep says whether that height is not the solution's own. */
RIVER_INLINE float
solve_cell (const Solution *s, PathCell *path, int32_t q, int32_t d, uint8_t *keep)
{
  const RiverRun  *r = s->r;
  const RiverGrid *g = &r->g;
  const int32_t    i = g->stack[q];
  const PathCell  *up = &path[d - 1];
  const double     old = s->start[i];
  const double     travel = s->step_length[g->direction[i] >= 4]
                        * inverse_area_power (s, g->upstream[q]);
  const double     uplift = r->uplift ? r->uplift[i] * s->uplift_scale : 0.0;
  const double     tau = up->tau + travel, gathered = up->gathered + uplift * travel;
  const double     target = tau - s->age;
  double           h;
  int32_t          j = 0;
  path[d] = (PathCell) { tau, gathered, s->start[i], 0.0f, 0, q };
  if (target <= 0.0)
    h = (double) path[0].height + gathered;
  else
    {
      j = point_downstream (path, d, target);
      const PathCell *a = &path[j], *b = &path[j + 1];
      const double    f = (target - a->tau) / (b->tau - a->tau);
      h = (double) a->height + f * ((double) b->height - (double) a->height) + gathered
          - (a->gathered + f * (b->gathered - a->gathered));
    }
  path[d].found = j;
  if (! r->uplift)
    h = h < old ? h : old;
  const double own = h;
  const double floor = old < r->floor ? old : r->floor;
  const double lowest = river_float_above (up->solved);
  h = h > floor ? h : floor;
  h = h > lowest ? h : lowest;
  h = h < FLT_MAX ? h : FLT_MAX;
  path[d].solved = (float) h;
  /* Where the solution is the root's height (eroded to base level, no uplift), or the
   * floor or the guard made the height, the land is flat to a few floats and its steepest
   * descent is noise: the next pass keeps the receiver it has. */
  *keep = (target <= 0.0 && gathered == 0.0) || h != own;
  return (float) h;
}

/* Where the point downstream of cell i (path[d]) lies: between path cells a and b, at f
 * of the way from a (a = b: the root, the steady state). */
static void
record_point (const Solution *s, const PathCell *path, int32_t d, int32_t i)
{
  const RiverGrid *g = &s->r->g;
  const double     target = path[d].tau - s->age;
  const int32_t    j = path[d].found;
  s->from_a[i] = g->stack[path[j].place];
  s->from_b[i] = target <= 0.0 ? s->from_a[i] : g->stack[path[j + 1].place];
  s->from_f[i] = target <= 0.0 ? 0.0f
                               : (float) ((target - path[j].tau)
                                          / (path[j + 1].tau - path[j].tau));
}

/* The path from its tree's root to the cell at place p, solved again (it was or will be
 * solved where its places are, maybe by another task; the same arithmetic gives the same
 * path): for a chunk's first cell (or one whose receiver is not on the path at hand, which
 * a chunk of whole preorders never has past its first cell). Returns p's depth. */
static int32_t
rebuild_path (const Solution *s, PathCell *path, int32_t p)
{
  const RiverGrid *g = &s->r->g;
  int32_t          x = p;
  for (; g->parent[x] != x; x = g->parent[x])
    path[s->depth[x]].place = x;
  start_path (s, path, x);
  uint8_t ignored;
  for (int32_t d = 1; d <= s->depth[p]; d++)
    solve_cell (s, path, path[d].place, d, &ignored);
  return s->depth[p];
}

/* The solution along a chunk, in the order its places were walked (river-flow.c:
 * river_order_depth_first). `valid` is the depth of the last cell solved: path[0 ..
 * valid] is the path from its root to it. */
static void
solve_chunk (void *user, size_t first, size_t end)
{
  const Solution  *s = user;
  const RiverRun  *r = s->r;
  const RiverGrid *g = &r->g;
  size_t           chunk = 0;
  while (g->chunk_start[chunk] != first)
    chunk++;
  PathCell       *path = s->path + s->path_start[chunk];
  const int       back = first >= g->back_from;
  const ptrdiff_t step = back ? -1 : 1;
  int32_t         valid = -1;
  for (ptrdiff_t q = back ? (ptrdiff_t) end - 1 : (ptrdiff_t) first, left = (ptrdiff_t) (end - first);
       left > 0; q += step, left--)
    {
      const int32_t i = g->stack[q], d = s->depth[q];
      if (g->parent[q] == (int32_t) q)
        {
          start_path (s, path, (int32_t) q);
          s->keep[i] = 0;
          valid = 0;
          if (s->from_a)
            record_point (s, path, 0, i);
          continue;
        }
      if (d - 1 > valid || path[d - 1].place != g->parent[q])
        rebuild_path (s, path, g->parent[q]);
      g->h[i] = solve_cell (s, path, (int32_t) q, d, &s->keep[i]);
      if (s->from_a)
        record_point (s, path, d, i);
      valid = d;
    }
}

/* Each chunk's path stack, as deep as the deepest place of its end of the order. Should
 * they take more than a path cell a cell (the chunks deep down one long river, each holding
 * its path from the root), the front's places and the back's are a chunk each: their
 * paths then take at most a cell each. */
static PathCell *
allocate_paths (Solution *s)
{
  RiverGrid *g = &s->r->g;
  for (int cut = 0; cut < 2; cut++)
    {
      s->path_start[0] = 0;
      for (int c = 0; c < g->chunks; c++)
        s->path_start[c + 1] = s->path_start[c] + 1
                               + (size_t) g->deepest[g->chunk_start[c] >= g->back_from];
      if (s->path_start[g->chunks] <= g->cells + (size_t) g->chunks)
        break;
      river_depth_first_chunks (g, 1);
    }
  return terrain_alloc (s->path_start[g->chunks] * sizeof (PathCell));
}

/* One pass: the order and upstream cells of the current receivers (unless `new_order` is 0:
 * they are those the pass before solved on), then the solution. */
static TerrainStatus
solve (Solution *s, int new_order, double from, double to)
{
  RiverGrid *g = &s->r->g;
  size_t     path_start[RIVER_MAX_CHUNKS + 1];
  if (new_order)
    river_order_depth_first (g, s->depth);
  s->path_start = path_start;
  s->path = allocate_paths (s);
  if (s->path == NULL)
    return TERRAIN_ERROR_NO_MEMORY;
  const TerrainStatus status = river_along_stack (g, solve_chunk, s, s->r->progress, from, to);
  terrain_free (s->path);
  return status;
}

/* A later stage of a layer eroded on the first stage's network: the same point downstream
 * of every cell (the same network, travel times and age), so its height is read there,
 * from the stage's start, instead of solving every path again. No drainage guard: the
 * next stage's diffusion, or the last one (last_half_diffusion), changes the heights again,
 * and the run's last check fills what is left undrained. */
static void
gather_rows (void *user, int strip, int first, int end)
{
  const Solution *s = user;
  const float    *start = s->start;
  const double    lowest = s->r->floor;
  float *restrict h = s->r->g.h;
  (void) strip;
  for (size_t i = (size_t) first * s->r->g.width; i < (size_t) end * s->r->g.width; i++)
    {
      const double a = start[s->from_a[i]], b = start[s->from_b[i]], old = start[i];
      double       v = a + s->from_f[i] * (b - a);
      const double floor = old < lowest ? old : lowest;
      v = v < old ? v : old;
      h[i] = (float) (v > floor ? v : floor);
    }
}

static TerrainStatus
gather (Solution *s, double from, double to)
{
  const RiverGrid *g = &s->r->g;
  return terrain_parallel_rows (g->height, g->strips, g->height / RIVER_CHUNK_BATCHES + 1,
                                gather_rows, s, s->r->progress, from, to);
}

/* The maps: a stage's change of every cell, without its uplift, from `before` (the heights
 * before the stage's diffusion). */
void
river_account_stage (RiverRun *r, const float *before, double uplift_per_cell)
{
  const RiverGrid *g = &r->g;
  for (size_t i = 0; i < g->cells; i++)
    {
      const double start = (double) before[i] + (r->uplift ? r->uplift[i] * uplift_per_cell : 0.0);
      const double change = g->h[i] - start;
      if (r->eroded && change < 0.0)
        r->eroded[i] = (float) fmin (r->eroded[i] - change, FLT_MAX);
      if (r->deposited && change > 0.0)
        r->deposited[i] = (float) fmin (r->deposited[i] + change, FLT_MAX);
    }
}

/* The receivers of the estimate, made to drain first (raising nothing of the heights); the
 * estimate is not needed after them. From age DRAIN_FROM_AGE on along the coarser grid's
 * order, where that can be (river-estimate.c), else by a fill: in a young landscape the
 * plateaus the incision has not reached yet drain along the fill's flats, the shortest way
 * to their spill, and how far the incision comes depends on it. On the README's sketch at
 * 256 x 256 the root mean square difference from the simulation, as a share of its relief,
 * was 0.195 at age 3 with the fill and 0.419 along the order; at ages 5, 10 and 200 the two
 * were within 0.005 of each other (at 30: 0.486 and 0.511), and the steady state's slope-area
 * exponents on a Diamond-Square uplift at 1024 x 1024 within 0.001. */
#define DRAIN_FROM_AGE 5.0

static void
estimate_receivers (RiverRun *r)
{
  RiverGrid *g = &r->g;
  float     *heights = g->h;
  g->h = r->estimate;
  if (r->p->age < DRAIN_FROM_AGE || ! river_drain_along (g, &r->coarse))
    river_fill (g, RIVER_FILL_PITS_FIRST, NULL, NULL, 0.0, 0.0);
  river_find_receivers (g, NULL, 0.0, 0.0);
  g->h = heights;
  terrain_free (r->estimate);
  r->estimate = NULL;
}

/* One stage: the receivers, diffusion, then passes until the receivers settle. s->used
 * keeps the receivers a pass solved on: its array and g->direction trade places after the
 * pass (no copy), and the next pass's receivers go to the other. The first pass solves on
 * the receivers of the heights before the diffusion, as a simulated step does: those drain
 * (every cell above its receiver), where diffusion can leave a cell below all its
 * neighbours, which would then be a root that keeps its height (a pit, that the end of the
 * run had to fill). */
static TerrainStatus
run_stage (Solution *s, float *start, int first, double from, double to)
{
  RiverRun  *r = s->r;
  RiverGrid *g = &r->g;
  const int    passes = s->passes[! first];
  const int    same_network = ! first && s->keep_network;
  const double per_pass = (to - from) / passes;
  for (int pass = 0; pass < passes; pass++)
    {
      const double at = from + pass * per_pass;
      if (same_network)
        memcpy (g->direction, s->used, g->cells);
      else if (pass == 0 && first && r->estimate)
        estimate_receivers (r);
      else if (river_find_receivers (g, r->progress, at, at + 0.2 * per_pass) != TERRAIN_OK)
        return TERRAIN_CANCELLED;
      if (pass > 0 && memcmp (s->used, g->direction, g->cells) == 0)
        break;
      if (pass == 0 && r->diffusion.block)
        river_diffuse (&r->diffusion, g, start);
      else if (pass == 0)
        memcpy (start, g->h, g->cells * sizeof (float));
      s->start = start;
      const TerrainStatus status =
        same_network && s->from_a ? gather (s, at + 0.2 * per_pass, at + per_pass)
                                  : solve (s, ! same_network, at + 0.2 * per_pass, at + per_pass);
      uint8_t *solved_on = g->direction;
      g->direction = s->used;
      s->used = solved_on;
      g->keep = s->keep;
      g->kept_direction = s->used;
      if (status != TERRAIN_OK)
        return status;
    }
  if (r->eroded || r->deposited)
    river_account_stage (r, r->diffusion.block ? r->diffusion.before : start,
                           s->age * s->uplift_scale);
  return TERRAIN_OK;
}

/* Diffusion split symmetrically (Strang): the first stage's, and a last one after the last
 * stage's solution, are half a stage's (`half`). The solution alone leaves every cell on its
 * own path's height, uncorrelated with its neighbours': one-pixel gullies and grain, which
 * the simulation's diffusion at every step never lets form. The half after the solution
 * takes them out.
 *
 * The result is not then kept a float above each cell's receiver in the network solved on,
 * as it once was: after the diffusion a cell mostly drains another way, and raising it to
 * that receiver (a Rho8 choice, often not its steepest descent) made flat steps along the
 * receivers' lines, the grid-aligned diagonal grain of the hillshade (on the default
 * Diamond-Square map aniso45 1.24 at 512 x 512 and 1.32 at 1024 x 1024, without it 1.07
 * and 1.04). The cells the diffusion leaves with no lower neighbour (there 0.6 % and
 * 0.2 % of them) are pits behind the bumps it raises on the channels' beds: they are
 * breached (river-breach.c says why, and how), and the run's last check fills any left
 * (river-erosion.c: finish). */
static TerrainStatus
last_half_diffusion (Solution *s, double half)
{
  RiverRun  *r = s->r;
  RiverGrid *g = &r->g;
  if (river_diffusion_set (&r->diffusion, g, half) != TERRAIN_OK)
    return TERRAIN_ERROR_NO_MEMORY;
  river_diffuse (&r->diffusion, g, NULL);
  const TerrainStatus status = river_breach (g, r->floor, r->progress, RIVER_STEPS_END);
  if (status != TERRAIN_OK)
    return status;
  if (r->eroded || r->deposited)
    river_account_stage (r, r->diffusion.before, 0.0);
  return TERRAIN_OK;
}

/* The solution's settings for a run of `stages` stages, and the network kept across them;
 * s->keep, s->used and s->depth are set. */
static TerrainStatus
set_up (Solution *s, RiverRun *r, int stages)
{
  const RiverGrid *g = &r->g;
  const double     side = g->width > g->height ? g->width : g->height;
  s->r = r;
  s->age = r->p->age / stages;
  s->passes[0] = r->uplift ? (r->estimate ? PASSES_FROM_ESTIMATE : PASSES_GROWING)
                 : stages > 1 ? PASSES_ERODING_STAGED : PASSES_ERODING;
  s->passes[1] = r->uplift ? s->passes[0] / 2 : PASSES_ERODING_STAGED;
  /* Eroding a layer in stages, the later stages solve on the network the first one solved
   * on: no new receivers and no new order, together a quarter of the run. The stages are
   * there for the diffusion between them, not for a new network. On a 16-bit Infinite
   * Field at the defaults this took the run from 106 to 85 ms at 1024 x 1024 and from 2.57
   * to 2.22 s at 4096 x 4096 (two threads), the root mean square difference from the
   * simulation from 0.31 to 0.30 of its change (on the bench's Diamond-Square from 0.47 to
   * 0.46); at 512 x 512, from 0.41 to 0.40 at age 3, 0.57 to 0.47 at age 10, 0.24 to 0.24
   * at age 30, and 0.31 to 0.34 at age 1. Growing ranges still find each stage's network:
   * it changes until the steady state. */
  s->keep_network = ! r->uplift;
  if (s->keep_network && stages > 1)
    {
      s->from_a = terrain_alloc (g->cells * (2 * sizeof (int32_t) + sizeof (float)));
      if (s->from_a == NULL)
        return TERRAIN_ERROR_NO_MEMORY;
      s->from_b = s->from_a + g->cells;
      s->from_f = (float *) (void *) (s->from_b + g->cells);
    }
  s->uplift_scale = 1.0 / TERRAIN_RIVER_AGE_PER_STEP;
  s->step_length[0] = 1.0 / side;
  s->step_length[1] = sqrt (2.0) / side;
  s->inverse_power[0] = 0.0;
  for (int a = 1; a < RIVER_POWER_TABLE; a++)
    s->inverse_power[a] = pow (a * r->cell_area, -r->p->area_exponent);
  return TERRAIN_OK;
}

/* The stages, with the diffusion split around them (last_half_diffusion). */
static TerrainStatus
run_stages (Solution *s, float *start, int stages)
{
  RiverRun     *r = s->r;
  const double  full = r->diffusion.coefficient;
  const double  per_stage = (RIVER_STEPS_END - RIVER_FILL_END) / stages;
  TerrainStatus status = TERRAIN_OK;
  if (r->diffusion.block && ! r->uplift)
    status = river_diffusion_set (&r->diffusion, &r->g, 0.5 * full);
  for (int stage = 0; stage < stages && status == TERRAIN_OK; stage++)
    {
      if (stage == 1)
        status = river_diffusion_set (&r->diffusion, &r->g, full);
      if (status == TERRAIN_OK)
        status = run_stage (s, start, stage == 0, RIVER_FILL_END + stage * per_stage,
                            RIVER_FILL_END + (stage + 1) * per_stage);
    }
  if (status == TERRAIN_OK && r->diffusion.block && ! r->uplift)
    status = last_half_diffusion (s, 0.5 * full);
  return status;
}

TerrainStatus
river_analytical (RiverRun *r)
{
  RiverGrid *g = &r->g;
  const int  stages = river_analytical_stages (r->p);
  Solution  *s = malloc (sizeof *s);
  int32_t   *depth = terrain_alloc (g->cells * sizeof (int32_t));
  float     *start = terrain_alloc (g->cells * sizeof (float));
  uint8_t   *used = terrain_alloc (g->cells), *keep = terrain_alloc (g->cells);
  uint8_t   *const receivers = g->direction; /* the run's; `used` trades places with it */
  TerrainStatus status = TERRAIN_ERROR_NO_MEMORY;
  if (s != NULL)
    {
      s->from_a = s->from_b = NULL;
      s->from_f = NULL;
    }
  if (s != NULL && depth != NULL && start != NULL && used != NULL && keep != NULL)
    {
      s->keep = keep;
      s->used = used;
      s->depth = depth;
      status = set_up (s, r, stages);
      if (status == TERRAIN_OK)
        status = run_stages (s, start, stages);
    }
  if (g->direction != receivers)
    {
      used = g->direction;
      g->direction = receivers;
    }
  g->keep = g->kept_direction = NULL;
  if (s != NULL)
    terrain_free (s->from_a);
  free (s);
  terrain_free (keep);
  terrain_free (depth);
  terrain_free (start);
  terrain_free (used);
  return status;
}
