/* Hydraulic erosion's internals, shared by hydraulic-erosion.c (the model droplet by droplet,
 * the brush and the schedule) and the files that run droplets side by side in the lanes of
 * vectors, one instruction set each: hydraulic-lanes-avx2.c and hydraulic-lanes-avx512.c,
 * around hydraulic-lanes.h. Not a public header: nothing else includes it. */
#ifndef TERRAIN_HYDRAULIC_INTERNAL_H
#define TERRAIN_HYDRAULIC_INTERNAL_H

#include "hydraulic-observer.h"

#include <stdatomic.h>
#include <stddef.h>

/* Beyer's and Lague's fixed constants. */
#define HYDRAULIC_GRAVITY      4.0
#define HYDRAULIC_MIN_CAPACITY 0.01
#define HYDRAULIC_START_SPEED  1.0
#define HYDRAULIC_START_WATER  1.0

/* The lanes: x86-64 with GCC or Clang, whose target attributes compile them for AVX2 and
 * AVX-512 whatever the build's own target; the CPU's are asked at run time. */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define HYDRAULIC_LANES 1
#else
#define HYDRAULIC_LANES 0
#endif

/* ---- The brush ---- */

/* The pixels less than `radius` from the centre lie within radius - 1 of it on either axis. */
#define BRUSH_SIDE (2 * TERRAIN_HYDRAULIC_MAX_RADIUS - 1)
#define BRUSH_MAX  (BRUSH_SIDE * BRUSH_SIDE)
/* Inside the map the brush is taken in groups of GROUP_WIDTH consecutive pixels of a row,
 * each row's pixels from its first on: one SSE2 vector a group (ErodeGroups). The pixels of
 * a group beyond its row's last have share 0: taking 0 leaves a pixel's bits as they are.
 * They reach GROUP_WIDTH - 1 pixels beyond the brush on the right (span_of counts them). */
#define GROUP_WIDTH 4
#define GROUPS_MAX  (BRUSH_SIDE * ((BRUSH_SIDE + GROUP_WIDTH - 1) / GROUP_WIDTH))

typedef struct
{
  int       reach;             /* radius - 1: how far a brush pixel can be on either axis */
  ptrdiff_t width;             /* the map's: from a row to the next */
  int       count;
  int       dx[BRUSH_MAX], dy[BRUSH_MAX]; /* row by row, left to right */
  double    weight[BRUSH_MAX]; /* 1 - distance / radius */
  int       groups;
  ptrdiff_t group_offset[GROUPS_MAX];             /* from the centre to the group's first pixel */
  float     group_share[GROUPS_MAX][GROUP_WIDTH]; /* weight / the sum of all weights, or 0 */
} Brush;

/* Takes a * share from the brush's groups around a centre inside the map (erode_groups):
 * returns what the pixels gave, summed in double lane by lane of the groups, the lanes'
 * sums then added as (0 + 1) + (2 + 3). */
typedef double (*ErodeGroups) (const Brush *b, float *centre, float a);

/* ---- A run ---- */

/* Height taken from pixels, given to pixels, and carried off the map or not placed. */
typedef struct
{
  double eroded, deposited, lost;
} Totals;

typedef struct
{
  float                         *data;
  int                            width, height;
  const TerrainHydraulicErosion *p;
  TerrainDropletObserver         observer; /* NULL, or called after every droplet step */
  void                          *observer_user;
  Totals                        *observed; /* the run's totals, when observer is set */
  Brush                          brush;
  ErodeGroups                    erode_groups; /* for this CPU and radius */
  TerrainTask                    run_phase;    /* a thread's part of a phase (run_phase) */
} Run;

/* The 4 pixels around a position, as an index and the steps to the next column and row
 * (0 on a map 1 pixel wide or high), with the bilinear fractions. */
typedef struct
{
  size_t    nw;
  ptrdiff_t right, down;
  double    fx, fy;
} Corners;

typedef struct
{
  double  x, y, dx, dy, speed, water, sediment;
  int     steps;
  Corners at; /* the pixels around (x, y): found once a step, by the step that moved there */
} Droplet;

/* Where a droplet starts, drawn before it runs. */
typedef struct
{
  double x, y;
  int    index;
} Start;

/* The schedule (hydraulic-erosion.c): a batch's droplets sorted by tile, and the tiles of
 * the phase being run. */
typedef struct
{
  const Run *run;
  int        tiles_x, tiles_y;
  int        batch;          /* droplets per batch */
  int       *tile_first;     /* the batch's droplets of tile t: starts[tile_first[t] ..] */
  int       *tile_end;
  Start     *starts;         /* batch droplets, tile by tile, in index order in a tile */
  int       *tasks;          /* the tiles of the current phase that hold droplets */
  int        phase_tasks;    /* how many */
  atomic_int next_task;      /* the next of them for a thread's stream or lane */
} Schedule;

/* Moves *start on to the next droplet of its tile, or, once the tile is done (or *start is
 * NULL), to the first droplet of the phase's next tile not yet taken, whose end goes to
 * *end; 0 when no tile is left. */
int    hydraulic_next_start (Schedule *s, const Start **start, const Start **end);
/* A droplet at its start, before its first step. */
void   hydraulic_droplet_begin (const Run *r, Droplet *d, const Start *s);
/* A droplet stopped on the map at `at` drops everything it carries there. */
void   hydraulic_settle (const Run *r, Totals *t, Corners at, double *sediment);
/* Takes amount >= 0 from the brush around pixel (nx, ny); returns what it took. */
double hydraulic_erode (const Run *r, int nx, int ny, double amount);

/* Whether the brush's groups around pixel (nx, ny) all lie on the map: then
 * r->erode_groups takes them (hydraulic_erode does the rest). */
static inline int
hydraulic_brush_inside (const Run *r, int nx, int ny)
{
  const int reach = r->brush.reach;
  return nx >= reach && nx + reach + GROUP_WIDTH - 1 < r->width && ny >= reach &&
         ny < r->height - reach;
}

/* A thread's part of a phase with droplets in the lanes of vectors (a TerrainTask on the
 * Schedule), on maps at least 2 pixels wide and high; the same bits as two streams. */
void hydraulic_lanes_avx2 (void *schedule, int task);
void hydraulic_lanes_avx512 (void *schedule, int task);

#endif
