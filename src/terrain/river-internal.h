/* River erosion's internals, shared by river-erosion.c (set-up and end of the run),
 * river-step.c (one step), river-flow.c (receivers, receiver order, drainage area, pits),
 * river-fill.c (priority-flood), river-flats.c (drainage across the fill's flats),
 * river-diffusion.c (hillslope diffusion), river-analytical.c (the analytical method) and
 * river-estimate.c (a grown layer's estimate made to drain). Not a public header: nothing outside these files includes it. */
#ifndef TERRAIN_RIVER_INTERNAL_H
#define TERRAIN_RIVER_INTERNAL_H

#include "river-erosion.h"
#include "terrain-common.h"

#include <float.h>
#include <stdint.h>
#include <string.h>

/* Neighbour k of a cell is at (x + RIVER_DX[k], y + RIVER_DY[k]): N S W E NW SE NE SW, so
 * that k ^ 1 is the opposite direction. */
#define RIVER_NEIGHBOURS 8
#define RIVER_NONE       RIVER_NEIGHBOURS /* direction of a cell that drains nowhere */
extern const int RIVER_DX[RIVER_NEIGHBOURS], RIVER_DY[RIVER_NEIGHBOURS];

/* Bit RIVER_WRAPS of a cell's donor bits: its neighbours wrap around the map, so their
 * index is not the cell's plus a fixed offset. */
#define RIVER_WRAPS (1u << RIVER_NEIGHBOURS)

/* The passes along the receiver order run on this many chunks per thread, in about as many
 * batches (they report progress between batches; fewer when a tree is larger than a chunk
 * of the breadth-first order: the depth-first order's chunks need not hold whole trees), on
 * RIVER_MAX_CHUNKS chunks at most. */
#define RIVER_CHUNK_BATCHES 8
#define RIVER_MAX_CHUNKS    256

/* A cell of a per-step pass costs about as much as this many cells of a plain pass: the
 * weight terrain_parallel_strips() is given, so that 1024 x 1024 maps use every thread. */
#define RIVER_WORK_PER_CELL 16

/* The grid and its per-step drainage. A root is a cell that drains into no neighbour: an
 * outlet, or (never after a fill) a pit.
 *
 * The passes along the receiver order (area, incision, keeping the map draining) are
 * chains: a cell needs its receiver's result. They keep it by place in the order (area,
 * sorted), where a cell finds it through `parent`: no receiver index is stored. */
typedef struct
{
  int       width, height;
  size_t    cells;
  int       wrap;          /* TERRAIN_RIVER_EDGES_WRAP */
  ptrdiff_t offset[RIVER_NEIGHBOURS]; /* index step to each neighbour, without wrapping */
  float     inverse_distance[RIVER_NEIGHBOURS]; /* 1 axial, 1 / sqrt 2 diagonal, in pixels */
  float    *h;             /* the heights being worked on */
  uint8_t  *outlet;        /* 1 for an outlet; kept up to date by river_find_receivers */
  /* How outlets are found: a fixed mask (outlet_fixed: `outlet` is never recomputed), or
   * from the heights: the border when open, cells at or below `sea`, and `lowest` (-1: none). */
  int       outlet_fixed;
  float     sea;
  ptrdiff_t lowest;
  uint8_t  *direction;     /* direction of the receiver, RIVER_NONE for a root */
  /* NULL, or: cells whose keep is set keep the receiver in kept_direction (the analytical
   * method's cells whose heights their own solution did not make). */
  const uint8_t *keep, *kept_direction;
  uint8_t  *prefer;        /* bit k: among equal slopes, the cell drains to neighbour k */
  /* NULL, or the receivers of the step before (RIVER_NONE at first): the receivers are then
   * chosen by Rho8, not by steepest descent alone (river-flow.c: randomise_receiver). */
  const uint8_t *previous;
  uint16_t *donors;        /* bit k: neighbour k drains into the cell; RIVER_WRAPS */
  /* The receiver order (Braun & Willett's stack), tree after tree: stack[s] is the cell at
   * place s, parent[s] the place of its receiver (s for a root). stack and parent have
   * RIVER_NEIGHBOURS spare places at their end; area and sorted are adjacent (8 bytes a
   * cell: the fill's heap, the depth-first walk's to-do stack) and have RIVER_NEIGHBOURS
   * spare 8-byte places after them. */
  int32_t  *stack, *parent;
  float    *area;          /* by place: drainage area in cells (the cell and all it drains) */
  uint32_t *upstream;      /* the same memory as area, of the depth-first order: the count
                            * of cells at each place and upstream of it */
  float    *sorted;        /* by place: the heights a chain has made */
  int       strips;        /* row strips of the parallel passes */
  /* The depth-first order (river_order_depth_first) was walked from both ends: the places
   * from back_from on from the last one down. */
  size_t    back_from;
  int32_t   deepest[2]; /* the greatest depth among the front's places and the back's */
  int32_t   largest_root; /* the root of the last walk's largest tree (-1: none yet) */
  /* The stack in chunks for the passes along it: chunk c is places chunk_start[c] ..
   * chunk_start[c + 1] - 1; of whole trees, but for the depth-first order's. */
  int       chunks;
  size_t    chunk_start[RIVER_MAX_CHUNKS + 1];
  int       chunk_order[RIVER_MAX_CHUNKS]; /* the chunks, largest first */
} RiverGrid;

/* ---- Floats ---- */

/* The next float above v (finite v; FLT_MAX stays FLT_MAX): the least height that still
 * drains into a cell of height v. */
static inline float
river_float_above (float v)
{
  if (v >= FLT_MAX)
    return FLT_MAX;
  if (v == 0.0f)
    return FLT_TRUE_MIN;
  uint32_t bits;
  memcpy (&bits, &v, sizeof bits);
  bits += v > 0.0f ? 1 : -1;
  memcpy (&v, &bits, sizeof v);
  return v;
}

/* Index of the neighbour of cell i (at x, y) in direction k, or -1 when it lies off an
 * open map. */
static inline ptrdiff_t
river_neighbour (const RiverGrid *g, int x, int y, int k)
{
  int nx = x + RIVER_DX[k], ny = y + RIVER_DY[k];
  if (g->wrap)
    {
      nx = nx < 0 ? nx + g->width : nx >= g->width ? nx - g->width : nx;
      ny = ny < 0 ? ny + g->height : ny >= g->height ? ny - g->height : ny;
    }
  else if (nx < 0 || nx >= g->width || ny < 0 || ny >= g->height)
    return -1;
  return (ptrdiff_t) ny * g->width + nx;
}

/* The lowest bit set of a non-zero mask, and the mask without it. */
static inline int
river_take_lowest (unsigned *mask)
{
#if defined(__GNUC__) || defined(__clang__)
  const int k = __builtin_ctz (*mask);
#else
  int k = 0;
  while (! (*mask >> k & 1))
    k++;
#endif
  *mask &= *mask - 1;
  return k;
}

/* ---- river-flow.c ---- */

/* Sets up the neighbour tables of a width x height grid (buffers are the caller's). */
void          river_grid_init (RiverGrid *g, int width, int height, int wrap);
/* Fills g->prefer (once: it depends on the cell only). */
void          river_set_preferences (RiverGrid *g);
/* The outlets alone (unless fixed), for a fill: the start's receivers are never used, the
 * first step or pass finds them on the filled heights. */
void          river_find_outlets (RiverGrid *g);
/* Outlets (unless fixed), the direction of every cell's receiver, then the donor bits;
 * reports progress on [from, to]. */
TerrainStatus river_find_receivers (RiverGrid *g, const TerrainProgress *progress,
                                    double from, double to);
/* The receiver order and its chunks (one thread), and the drainage area of every place. */
void          river_order_and_area (RiverGrid *g);
/* The receiver order depth first (a cell's subtree right after it in the order it was
 * walked: from both ends, g->back_from), with each place's depth (steps to its root) in
 * depth (an int32 a cell) and its upstream cells in g->upstream, in chunks of about equal
 * size that need not hold whole trees. Uses g->sorted. */
void          river_order_depth_first (RiverGrid *g, int32_t *depth);
/* Cuts the depth-first order into `wanted` chunks of about equal size (at most
 * RIVER_MAX_CHUNKS), the front's places and the back's apart. A chunk need not hold whole
 * trees: a pass along it finds the path from a tree's root to a chunk's first cell. */
void          river_depth_first_chunks (RiverGrid *g, int wanted);
/* Runs task (user, first, end) on every chunk's places, on the threads there are, largest
 * chunk first: trees are independent, so the result is the one of a single pass in receiver
 * order. With a progress, in batches of chunks (river-flow.c: batch_end), reporting on
 * [from, to] before each. */
TerrainStatus river_along_stack (const RiverGrid *g,
                                 void (*task) (void *user, size_t first, size_t end),
                                 void *user, const TerrainProgress *progress, double from,
                                 double to);
/* The donor bits of the receivers in g->direction. */
void          river_find_donors (RiverGrid *g);
/* Non-outlet cells without a receiver (a neighbour of slope > 0), outlets found from the
 * heights (unless fixed); neither the receivers nor the donor bits are written. */
size_t        river_count_pits (RiverGrid *g);

/* ---- river-fill.c ---- */

/* How a fill floods and raises (river-fill.c): every cell by height, each raised a few
 * floats above the cell it was reached from (the simulation's, as it has always been); or
 * first the cells raised and the cells up a slope, by the way (about twice as fast), each
 * raised to its spill level, and the flats so made drained (river_drain_flats). */
typedef enum
{
  RIVER_FILL_BY_HEIGHT,
  RIVER_FILL_PITS_FIRST
} RiverFillOrder;

/* Priority-flood (Barnes, Lehman & Mulla 2014) from the outlets in g->outlet: raises every
 * cell that has no descending path to an outlet (`order` says how), so every non-outlet
 * cell ends strictly above a neighbour. Adds what it raises to `raised` when not NULL.
 * Uses g->donors, area, sorted, stack, parent and direction as scratch. Reports on
 * [from, to]. */
TerrainStatus river_fill (RiverGrid *g, RiverFillOrder order, float *raised,
                          const TerrainProgress *progress, double from, double to);

/* The height a cell j reached from a cell at `from`, and not above it, is raised to by the
 * fill by height and by river-estimate.c: a few floats above it (river-fill.c). */
float         river_raised_height (float from, size_t j);

/* A cell's state in the fill (a byte a cell): reached, on the map's border (its neighbours
 * are not at fixed offsets), raised (to the level of the cell it was reached from), on a
 * flat (river_drain_flats). The higher bits are river-flats.c's. */
enum
{
  RIVER_FILL_REACHED = 1,
  RIVER_FILL_BORDER = 2,
  RIVER_FILL_RAISED = 4,
  RIVER_FILL_FLAT = 8
};

/* ---- river-flats.c ---- */

/* Drains the flats the fill left (its raised cells with no lower neighbour, which it marks
 * RIVER_FILL_FLAT in `state`) towards lower terrain and away from higher terrain (Barnes,
 * Lehman & Mulla 2014): raises each flat cell a few floats a pixel above its level, and
 * adds that to `raised` when not NULL. Puts in *overtook the number of flat cells that came
 * to or above a neighbour of higher land, first in g->stack: that one may drain no more.
 * Uses g->area, sorted, parent and direction as scratch. Reports on [0, 1]. */
TerrainStatus river_drain_flats (RiverGrid *g, uint8_t *state, float *raised,
                                 const TerrainProgress *progress, size_t *overtook);

/* ---- river-breach.c ---- */

/* Lowers a way down for each pit of g->h, never below `lowest`, and rounds the land around
 * the cuts (river-breach.c); a pit with no way within reach is left to a fill. Progress is
 * reported at `at` as the floods go; cancelled, the heights are left part-breached
 * (TERRAIN_CANCELLED). */
TerrainStatus river_breach (RiverGrid *g, float lowest, const TerrainProgress *progress,
                            double at);

/* ---- river-estimate.c ---- */

/* The receiver order of a coarser grid's result (river-erosion.c: coarse_estimate): its
 * size, its cells in the order (stack) with their receivers' places (parent), and its chunks
 * of whole trees. */
typedef struct
{
  int      width, height;
  int32_t *stack, *parent;
  int      chunks;
  size_t   chunk_start[RIVER_MAX_CHUNKS + 1];
} RiverCoarseOrder;

/* Makes g->h, the coarser grid's result stretched to g (every layer cell in the coarse cell
 * (x / 2, y / 2)), drain along the coarser grid's order, raising a cell a few floats above a
 * neighbour where it must (river-estimate.c); g->outlet are the outlets. 0 when a cell finds
 * no neighbour to drain into that way (a coarse outlet with no outlet among its cells, or
 * no memory): then g->h is raised in part, and drains only after a fill. */
int           river_drain_along (RiverGrid *g, const RiverCoarseOrder *coarse);

/* ---- river-diffusion.c ---- */

/* The solver of the lines of one direction (all of one length): see river-diffusion.c.
 * length 0: lines too short to diffuse along. */
typedef struct
{
  int    length;
  float *scale, *forward, *back; /* Thomas factors, `length` each */
  float *ring;                   /* wrapped maps: what the first cell adds to each; else NULL */
  double ring_own, ring_sides;   /* wrapped maps: the first cell's weights (ring_first) */
} RiverLine;

typedef struct
{
  RiverLine row, column;
  float    *alpha;  /* per column: its ring's first cell */
  float    *before; /* the heights before the step, width x height */
  double    coefficient; /* of the solvers' factors */
  float    *block;  /* the one allocation behind all of the above */
} RiverDiffusion;

/* Prepares the solvers of a coefficient > 0 (in pixels^2 per step); NO_MEMORY when a
 * buffer cannot be had. */
TerrainStatus river_diffusion_init (RiverDiffusion *d, const RiverGrid *g, double coefficient);
/* The same solvers for another coefficient > 0 (NO_MEMORY: the solvers are then unusable). */
TerrainStatus river_diffusion_set (RiverDiffusion *d, const RiverGrid *g, double coefficient);
void          river_diffusion_free (RiverDiffusion *d);
/* One implicit step of hillslope diffusion on g->h; roots (g->direction RIVER_NONE) keep
 * their heights. The heights before it are left in d->before, and the result goes to
 * `copy` too when it is not NULL. */
void          river_diffuse (RiverDiffusion *d, const RiverGrid *g, float *copy);

/* ---- The run: river-erosion.c and river-step.c ---- */

/* Share of the progress range: the first fill, then the steps, then the maps. */
#define RIVER_FILL_END  0.05
#define RIVER_STEPS_END 0.97
/* erosion A^m is looked up for areas below this many cells (most cells), computed above. */
#define RIVER_POWER_TABLE 4096

typedef struct
{
  const TerrainRiverErosion *p;
  const TerrainProgress     *progress;
  RiverGrid                  g;
  RiverDiffusion             diffusion;  /* block NULL without diffusion */
  float                     *uplift;     /* uplift per step, 0 on outlets; NULL: none */
  float                     *estimate;   /* NULL, or heights near the result's, whose
                                          * receivers the analytical method solves on first
                                          * (river-erosion.c: coarse_estimate) */
  RiverCoarseOrder           coarse;     /* with an estimate: the order it drains along */
  float                     *eroded, *deposited; /* the maps, or NULL */
  uint8_t                   *previous;   /* g.previous: the receivers of the step before */
  float                      floor;      /* the lowest incision takes a cell to */
  double                     cell_area;  /* of a pixel, in L^2 */
  double                     distance_power[2]; /* (L / d)^n axial, diagonal */
  double                     power[RIVER_POWER_TABLE]; /* erosion (a cell_area)^m, a cells */
  int                        scale_exponent; /* heights are worked on times 2^this */
  void                      *block; /* the one allocation behind the grid's arrays */
} RiverRun;

/* Step `step` of the run (river-erosion.h), on receivers found anew when new_network, else
 * on the last step's; TERRAIN_CANCELLED when asked to stop. */
TerrainStatus river_step (RiverRun *r, int step, int new_network);
/* The analytical method's run after the fill (river-analytical.c), and the number of its
 * stages (each with one diffusion step). */
TerrainStatus river_analytical (RiverRun *r);
int           river_analytical_stages (const TerrainRiverErosion *p);
/* The maps: a stage's change of every cell, without its uplift (uplift_per_cell times the
 * layer's), from `before`. */
void          river_account_stage (RiverRun *r, const float *before, double uplift_per_cell);
/* Raises every non-root cell to at least the float above its receiver (in the receiver
 * order of the last river_order_and_area), but not above `top`. */
void          river_keep_draining (RiverRun *r, float top);

#endif
