/* Hydraulic erosion's internals, shared by hydraulic-erosion.c (the model droplet by droplet
 * and the schedule), hydraulic-brush.c (the pixels a droplet changes) and the files that run
 * droplets side by side in the lanes of vectors, one instruction set each:
 * hydraulic-lanes-avx2.c and hydraulic-lanes-avx512.c, around hydraulic-lanes.h. Not a
 * public header: nothing else includes it. */
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

/* ---- The brush ---- */

/* The pixels less than `radius` from the centre lie within radius - 1 of it on either axis. */
#define BRUSH_SIDE (2 * TERRAIN_HYDRAULIC_MAX_RADIUS - 1)
#define BRUSH_MAX  (BRUSH_SIDE * BRUSH_SIDE)
/* Inside the map the brush is taken in groups of GROUP_WIDTH consecutive pixels of a row,
 * each row's pixels from its first on: one SSE2 vector a group (BrushGroups). The pixels of
 * a group beyond its row's last have share 0: taking or giving 0 leaves a pixel's bits as
 * they are.
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

/* Takes a * share from the brush's groups around a centre inside the map, none below limit
 * (erode_groups), or gives it, none above limit (deposit_groups): returns what the pixels
 * gave or gained, summed in double lane by lane of the groups, the lanes' sums then added
 * as (0 + 1) + (2 + 3). */
typedef double (*BrushGroups) (const Brush *b, float *centre, float a, float limit);

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
  BrushGroups                    erode_groups;   /* for this CPU and radius */
  BrushGroups                    deposit_groups; /* likewise */
  TerrainTask                    run_lanes;    /* a thread's part of a batch in lanes, */
  int                            lanes;        /* of that many droplets; NULL, 0: none */
  TerrainTask                    narrow_lanes; /* in AVX2's lanes, where allowed; or NULL */
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

/* The schedule (hydraulic-erosion.c): a batch's droplets sorted by tile, the tiles that hold
 * some in the order of the phases, and which of them lanes and streams have taken and
 * finished. */
typedef struct
{
  const Run  *run;
  int         tiles_x, tiles_y;
  int         batch;      /* droplets per batch */
  int        *tile_first; /* the batch's droplets of tile t: starts[tile_first[t] ..] */
  int        *tile_end;
  Start      *starts;     /* batch droplets, tile by tile, in index order in a tile */
  Start      *drawn;      /* the same in index order, and their tiles (sort_batch) */
  int        *drawn_tile;
  int        *tasks;      /* the tiles that hold droplets, phase after phase */
  int         task_count;
  atomic_int *taken;      /* task k: a lane or stream has taken its tile */
  atomic_int *done;       /* tile t: its droplets have all run (or it has none) */
  atomic_int  first_open; /* every task before it is taken */
  atomic_int  finished;   /* tiles done so far: a tile can only become ready when it grows */
} Schedule;

/* What a lane or a stream (one droplet at a time) runs: a droplet of its tile, or no tile
 * (start NULL). */
typedef struct
{
  const Start *start, *end; /* its droplet, and the end of its tile's */
  int          tile;
  int          seen;        /* Schedule.finished when it last found no tile it could take */
} Feed;

#define FEED_INIT { NULL, NULL, -1, -1 }

typedef enum
{
  FEED_DROPLET, /* feed->start is its next droplet */
  FEED_LATER,   /* tiles are left, none it may take yet: ask again after the next step */
  FEED_NONE     /* no tile is left in the batch */
} FeedState;

/* The feed's next droplet: the next of its tile; once the tile is done, the first droplet
 * of the first tile of the batch not taken yet whose neighbours of earlier phases are done
 * (the only tiles whose droplets its own can meet). */
FeedState hydraulic_feed (Schedule *s, Feed *f);
/* Called by a thread none of whose lanes or streams has a droplet, until one may: gives its
 * CPU to other threads (the one running the tiles it waits for may be waiting for it). */
void      hydraulic_wait (void);
/* A droplet at its start, before its first step. */
void   hydraulic_droplet_begin (const Run *r, Droplet *d, const Start *s);
/* A droplet stopped on the map at (x, y) drops everything it carries around it. */
void   hydraulic_settle (const Run *r, Totals *t, double x, double y, double *sediment);
/* The brush of `radius` on a map `width` pixels wide: its pixels, with weight 1 - distance /
 * radius, normalised. */
void   hydraulic_brush_init (Brush *b, int radius, int width);
/* r's brush kernels for `radius`, with AVX2 or SSE2 where allowed (the same bits). */
void   hydraulic_brush_kernels (Run *r, int radius, int avx2, int sse2);
/* Takes amount >= 0 from the brush around pixel (nx, ny), none below floor (nor 0); returns
 * what it took. */
double hydraulic_erode (const Run *r, int nx, int ny, double amount, double floor);
/* Gives amount >= 0 to the brush around pixel (nx, ny), none above ceiling; returns what it
 * gave. */
double hydraulic_deposit (const Run *r, int nx, int ny, double amount, double ceiling);

/* Whether the brush's groups around pixel (nx, ny) all lie on the map: then
 * r->erode_groups and r->deposit_groups change them (hydraulic_erode and
 * hydraulic_deposit do the rest). */
static inline int
hydraulic_brush_inside (const Run *r, int nx, int ny)
{
  const int reach = r->brush.reach;
  return nx >= reach && nx + reach + GROUP_WIDTH - 1 < r->width && ny >= reach &&
         ny < r->height - reach;
}

/* A thread's part of a batch with droplets in the lanes of vectors (a TerrainTask on the
 * Schedule), on maps at least 2 pixels wide and high; the same bits as two streams. So many
 * lanes a thread: */
#define HYDRAULIC_LANES_AVX2   8
#define HYDRAULIC_LANES_AVX512 16
void hydraulic_lanes_avx2 (void *schedule, int task);
void hydraulic_lanes_avx512 (void *schedule, int task);

#endif
