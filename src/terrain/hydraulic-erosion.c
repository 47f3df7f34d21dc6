#include "hydraulic-internal.h"

#include "random.h"
#include "terrain-common.h"

#include <float.h>
#include <math.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if HYDRAULIC_LANES
#include <immintrin.h>
#endif
#if ! defined(__STDC_NO_THREADS__)
#include <threads.h>
#endif

/* Work of a phase of a batch, in brush-pixel steps: a few milliseconds whatever the
 * parameters. Progress is reported (and cancellation checked) before each batch, of up to 4
 * phases. The schedule sizes its batches from the most a droplet can do, so an interval
 * cannot grow with the lifetime and the radius. */
#define WORK_PER_REPORT (1 << 22)
/* The work of a droplet beyond its brush pixels: its start, and each step's move. */
#define WORK_PER_DROPLET 16
#define WORK_PER_STEP    8

/* Salts of terrain_hash for the start position. */
enum { SALT_X = 1, SALT_Y = 2 };

/* The code that runs the droplets: terrain_hydraulic_use (). */
static TerrainHydraulicCode allowed_code = TERRAIN_HYDRAULIC_BEST;
/* The widest lanes run a batch with at least this many tiles a thread, or (-1) as
 * batch_task chooses: terrain_hydraulic_lanes_from (). */
static int lanes_from = -1;


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

/* The instruction sets terrain_hydraulic_use () allows and this CPU has. */
static int
may_use_avx2 (void)
{
#if HYDRAULIC_LANES
  return allowed_code <= TERRAIN_HYDRAULIC_AVX2 && __builtin_cpu_supports ("avx2");
#else
  return 0;
#endif
}

static int
may_use_avx512 (void)
{
#if HYDRAULIC_LANES
  return allowed_code == TERRAIN_HYDRAULIC_BEST && __builtin_cpu_supports ("avx512f") &&
         __builtin_cpu_supports ("avx512dq") && __builtin_cpu_supports ("avx512vl") &&
         __builtin_cpu_supports ("avx512bw") && may_use_avx2 ();
#else
  return 0;
#endif
}

/* ---- Droplets ---- */

static void
observe (const Run *r, const Totals *t, int index, const Droplet *d, int alive)
{
  if (r->observer == NULL)
    return;
  const TerrainDropletStep step = { index, d->steps, alive, d->x, d->y, d->sediment,
                                    t->eroded, t->deposited, t->lost };
  r->observer (r->observer_user, &step);
}

typedef enum
{
  MOVED,   /* took a step */
  STOPPED, /* found no direction: stays where it is, with its sediment */
  LEFT     /* would leave the map: its sediment is lost */
} StepResult;

/* What a droplet of this speed and water can carry after a step that found height
 * difference dh: at least HYDRAULIC_MIN_CAPACITY for each unit of water, so that a droplet
 * drying up lays its load down along its way (fans) instead of carrying a fixed minimum to
 * its end and leaving it there in a heap. */
static inline double
capacity_of (const TerrainHydraulicErosion *p, double speed, double water, double dh)
{
  return max_d (-dh * speed * water * p->capacity, HYDRAULIC_MIN_CAPACITY * water);
}

/* Drops sediment (dh > 0: uphill, or carrying more than capacity) or erodes, for a step
 * from (x, y), at height `here`, that found height difference dh: changes *sediment by what
 * the map gave or took. Both act on the brush around the pixel nearest to the droplet, and
 * keep its pixels in the band of heights the step crossed: erosion lowers none below the
 * lower end (nor 0), deposition raises none above the upper end. */
static void
exchange (const Run *r, Totals *t, double x, double y, double *sediment, double here, double dh,
          double capacity)
{
  const TerrainHydraulicErosion *p = r->p;
  const int                      nx = (int) (x + 0.5), ny = (int) (y + 0.5);
  if (dh > 0.0 || *sediment > capacity)
    {
      const double amount = dh > 0.0 ? min_d (dh, *sediment)
                                      : (*sediment - capacity) * p->deposition;
      const double placed = hydraulic_deposit (r, nx, ny, amount, here + max_d (dh, 0.0));
      *sediment -= placed;
      t->deposited += placed;
    }
  else
    {
      const double taken = hydraulic_erode (r, nx, ny,
                                            min_d ((capacity - *sediment) * p->erosion, -dh),
                                            here + dh);
      *sediment += taken;
      t->eroded += taken;
    }
}

/* Where a step goes: the pixels around the new position, and the height difference. */
typedef struct
{
  Corners next;
  double  x, y, here, dh;
} Move;

/* The first half of a step of Beyer's rule (hydraulic-erosion.h): the turn and where the
 * droplet goes. MOVED: it can go to m; else it ends. */
static inline StepResult
step_turn (const Run *r, Totals *t, Droplet *d, Move *m)
{
  const TerrainHydraulicErosion *p = r->p;
  prefetch_around (r, d->at);
  const Surface here = surface_of (r, d->at);
  d->dx = d->dx * p->inertia - here.gx * (1.0 - p->inertia);
  d->dy = d->dy * p->inertia - here.gy * (1.0 - p->inertia);
  const double length = sqrt (d->dx * d->dx + d->dy * d->dy);
  if (! (length > 0.0))
    return STOPPED;
  d->dx /= length;
  d->dy /= length;
  m->x = d->x + d->dx;
  m->y = d->y + d->dy;
  if (! on_map (r, m->x, m->y))
    {
      t->lost += d->sediment;
      d->sediment = 0.0;
      return LEFT;
    }
  m->next = corners_at (r, m->x, m->y);
  m->here = here.height;
  m->dh = surface_of (r, m->next).height - here.height;
  return MOVED;
}

/* The second half: the exchange with the map, and the move. */
static inline void
step_move (const Run *r, Totals *t, Droplet *d, const Move *m)
{
  exchange (r, t, d->x, d->y, &d->sediment, m->here, m->dh,
            capacity_of (r->p, d->speed, d->water, m->dh));
  d->speed = sqrt (max_d (0.0, d->speed * d->speed + m->dh * HYDRAULIC_GRAVITY));
  d->water *= 1.0 - r->p->evaporation;
  d->x = m->x;
  d->y = m->y;
  d->at = m->next;
  d->steps++;
}

/* One step of Beyer's rule. */
static inline StepResult
step (const Run *r, Totals *t, Droplet *d)
{
  Move             m;
  const StepResult result = step_turn (r, t, d, &m);
  if (result == MOVED)
    step_move (r, t, d, &m);
  return result;
}

/* Droplet `index`'s start, uniform over the map. */
static Start
start_of (const Run *r, int index)
{
  const Start s = { terrain_hash (r->p->seed, index, 0, SALT_X) / 4294967296.0 * (r->width - 1),
                    terrain_hash (r->p->seed, index, 0, SALT_Y) / 4294967296.0 * (r->height - 1),
                    index };
  return s;
}

/* Asks the cache for the rows around a start while the droplet before it runs: the start is
 * elsewhere in the tile, so its first step would otherwise wait for memory. */
static void
prefetch_start (const Run *r, const Start *s)
{
#if defined(__GNUC__) || defined(__clang__)
  const int reach = r->brush.reach;
  for (int row = (int) s->y - reach; row <= (int) s->y + reach + 1; row++)
    if (row >= 0 && row < r->height)
      __builtin_prefetch (r->data + (size_t) row * r->width + (int) s->x, 1);
#else
  (void) r;
  (void) s;
#endif
}

void
hydraulic_droplet_begin (const Run *r, Droplet *d, const Start *s)
{
  *d = (Droplet) { 0 };
  d->x = s->x;
  d->y = s->y;
  d->at = corners_at (r, d->x, d->y);
  d->speed = HYDRAULIC_START_SPEED;
  d->water = HYDRAULIC_START_WATER;
}

/* Whether a droplet goes on after a step that gave `result`. */
static inline int
goes_on (const Run *r, const Droplet *d, StepResult result)
{
  return result == MOVED && d->steps < r->p->max_steps;
}

/* A droplet stopped on the map at (x, y) drops everything it carries on the brush around
 * the nearest pixel (a heap on one pixel would be a grain); what it cannot place (pixels at
 * FLT_MAX, rounding) is lost. */
void
hydraulic_settle (const Run *r, Totals *t, double x, double y, double *sediment)
{
  const int nx = (int) (x + 0.5), ny = (int) (y + 0.5);
  float    *centre = r->data + (size_t) ny * r->width + nx;
  double    placed = hydraulic_deposit (r, nx, ny, *sediment, FLT_MAX);
  /* The brush's shares, rounded to floats, do not sum to 1: the centre takes the rest, or
   * gives back what went beyond (never below 0 from above it), so that only the rounding
   * of one pixel is lost. */
  const double before = *centre, after = before + (*sediment - placed);
  if (*sediment > 0.0 && (after >= 0.0 || after >= before))
    {
      *centre = (float) (after < FLT_MAX ? after : FLT_MAX);
      placed += *centre - before;
    }
  t->deposited += placed;
  t->lost += *sediment - placed;
  *sediment = 0.0;
}

/* The end of a droplet, its last step having given `result`. */
static void
droplet_end (const Run *r, Totals *t, Droplet *d, StepResult result, int index)
{
  if (result != LEFT)
    hydraulic_settle (r, t, d->x, d->y, &d->sediment);
  observe (r, t, index, d, 0);
}

/* A droplet from start to end, watched step by step (max_steps >= 1: it takes a step). */
static void
run_droplet (const Run *r, Totals *t, const Start *s)
{
  Droplet    d;
  StepResult result;
  hydraulic_droplet_begin (r, &d, s);
  do
    {
      result = step (r, t, &d);
      if (result == MOVED)
        observe (r, t, s->index, &d, 1);
    }
  while (goes_on (r, &d, result));
  droplet_end (r, t, &d, result, s->index);
}

/* ---- The schedule ----
 * A droplet takes at most max_steps steps of length 1, and reads and changes pixels at most
 * reach + 1 away from where it is: everything it touches lies within SPAN of its start on
 * either axis. The map is cut into a fixed grid of tiles at least 2 x SPAN + 1 wide, so
 * droplets that start in two tiles with a tile between them can never touch the same pixel,
 * nor read one the other changes. Droplets run in batches of consecutive indices; in a batch
 * every droplet goes to the tile it starts in, and the tiles run in up to 4 phases, the 4
 * colours of a checkerboard: the tiles of one phase at once, on any threads, each its
 * droplets in index order, the phases one after the other. The result depends on the seed,
 * the parameters and the map's size only: never on the thread count.
 *
 * A tile's droplets can only meet those of the 8 tiles around it, all of other phases: so a
 * tile need not wait for its whole phase before it, only for its neighbours of the phases
 * before its own (hydraulic_feed), and lanes and streams go on to the next phase's tiles as
 * those become ready. Every pair of tiles that can meet still runs in the phases' order:
 * the same bits. The threads meet once a batch, where progress is reported. */

#define PHASES 4
/* Droplets per batch: at most this many. */
#define BATCH_MAX (1 << 16)

static int
span_of (const TerrainHydraulicErosion *p)
{
  /* + 2: the bilinear pixel beyond the position, and the rounding of steps of length 1;
   * + GROUP_WIDTH - 1: the brush's last group, beyond the brush. */
  return p->max_steps + (p->radius - 1) + 2 + GROUP_WIDTH - 1;
}

/* How many tiles of at least 2 x span + 1 pixels fit along `size` pixels (at least 1). */
static int
tiles_along (int size, int span)
{
  const int tiles = size / (2 * span + 1);
  return tiles > 1 ? tiles : 1;
}

static int
tile_of (const Schedule *s, const Start *start)
{
  const Run *r = s->run;
  const int  tx = (int) ((long long) (int) start->x * s->tiles_x / r->width);
  const int  ty = (int) ((long long) (int) start->y * s->tiles_y / r->height);
  return ty * s->tiles_x + tx;
}

static int
phase_of (const Schedule *s, int tile)
{
  return (tile % s->tiles_x) % 2 + 2 * ((tile / s->tiles_x) % 2);
}

/* The phases: 1 on a single tile, 2 on a single row or column of tiles, else 4. */
static int
phases_of (const Schedule *s)
{
  return (s->tiles_x > 1 ? 2 : 1) * (s->tiles_y > 1 ? 2 : 1);
}

/* The batch's droplets [first, first + count) sorted by tile (a counting sort: stable),
 * each drawn once: the threads wait meanwhile. */
static void
sort_batch (Schedule *s, int first, int count)
{
  const int tiles = s->tiles_x * s->tiles_y;
  for (int t = 0; t < tiles; t++)
    s->tile_end[t] = 0;
  for (int i = 0; i < count; i++)
    {
      s->drawn[i] = start_of (s->run, first + i);
      s->drawn_tile[i] = tile_of (s, &s->drawn[i]);
      s->tile_end[s->drawn_tile[i]]++;
    }
  int at = 0;
  for (int t = 0; t < tiles; t++)
    {
      s->tile_first[t] = at;
      at += s->tile_end[t];
      s->tile_end[t] = s->tile_first[t];
    }
  for (int i = 0; i < count; i++)
    s->starts[s->tile_end[s->drawn_tile[i]]++] = s->drawn[i];
}

/* The sorted batch's tiles that hold droplets, phase after phase, into s->tasks, none taken;
 * the others done. */
static void
list_tasks (Schedule *s)
{
  s->task_count = 0;
  for (int phase = 0; phase < PHASES; phase++)
    for (int t = 0; t < s->tiles_x * s->tiles_y; t++)
      if (phase_of (s, t) == phase)
        {
          const int empty = s->tile_end[t] == s->tile_first[t];
          atomic_init (&s->done[t], empty);
          if (! empty)
            {
              atomic_init (&s->taken[s->task_count], 0);
              s->tasks[s->task_count++] = t;
            }
        }
  atomic_init (&s->first_open, 0);
  atomic_init (&s->finished, 0);
}

/* Whether the tile's neighbours of earlier phases are done. */
static int
tile_ready (Schedule *s, int tile)
{
  const int tx = tile % s->tiles_x, ty = tile / s->tiles_x, phase = phase_of (s, tile);
  for (int y = ty - 1; y <= ty + 1; y++)
    for (int x = tx - 1; x <= tx + 1; x++)
      if (x >= 0 && x < s->tiles_x && y >= 0 && y < s->tiles_y)
        {
          const int n = y * s->tiles_x + x;
          if (phase_of (s, n) < phase && ! atomic_load (&s->done[n]))
            return 0;
        }
  return 1;
}

/* Moves first_open past the tasks taken. */
static void
pass_taken (Schedule *s)
{
  int k = atomic_load (&s->first_open);
  while (k < s->task_count && atomic_load (&s->taken[k]))
    if (atomic_compare_exchange_weak (&s->first_open, &k, k + 1))
      k++;
}

/* Takes the first task of the batch not taken yet whose tile is ready, for f. */
static FeedState
take_tile (Schedule *s, Feed *f)
{
  const int finished = atomic_load (&s->finished);
  int       open = 0; /* a task not taken yet was seen */
  for (int k = atomic_load (&s->first_open); k < s->task_count; k++)
    {
      if (atomic_load (&s->taken[k]))
        continue;
      open = 1;
      if (! tile_ready (s, s->tasks[k]) || atomic_exchange (&s->taken[k], 1))
        continue;
      pass_taken (s);
      f->tile = s->tasks[k];
      f->start = s->starts + s->tile_first[f->tile];
      f->end = s->starts + s->tile_end[f->tile];
      return FEED_DROPLET;
    }
  f->seen = finished;
  return open ? FEED_LATER : FEED_NONE;
}

/* For an observer: the droplets of tile s->tasks[i], in order, on the run's totals (which
 * the observer follows). The tasks one after the other are the phases one after the
 * other. */
static void
run_tile (const Schedule *s, int i)
{
  const Run *r = s->run;
  const int  tile = s->tasks[i];
  for (int k = s->tile_first[tile]; k < s->tile_end[tile]; k++)
    {
      if (k + 1 < s->tile_end[tile])
        prefetch_start (r, &s->starts[k + 1]);
      run_droplet (r, r->observed, &s->starts[k]);
    }
}

void
hydraulic_wait (void)
{
#if ! defined(__STDC_NO_THREADS__)
  thrd_yield ();
#endif
}

FeedState
hydraulic_feed (Schedule *s, Feed *f)
{
  if (f->start != NULL)
    {
      if (++f->start < f->end)
        {
          if (f->start + 1 < f->end)
            prefetch_start (s->run, f->start + 1);
          return FEED_DROPLET;
        }
      /* The tile's droplets have run: seen by whoever reads done (sequentially consistent). */
      f->start = NULL;
      atomic_store (&s->done[f->tile], 1);
      atomic_fetch_add (&s->finished, 1);
    }
  else if (atomic_load (&s->finished) == f->seen)
    return FEED_LATER; /* nothing became ready since it last looked */
  const FeedState state = take_tile (s, f);
  if (state == FEED_DROPLET && f->start + 1 < f->end)
    prefetch_start (s->run, f->start + 1);
  return state;
}

/* ---- Two droplets at once ----
 * A droplet's steps are one chain, each waiting for the one before (its position, the
 * heights it reads, what it erodes), and a step is longer than the instructions a core looks
 * ahead: one droplet at a time leaves the core waiting on latencies. So a thread runs two
 * streams of droplets, each the droplets of one tile of the phase after the other, in
 * order, and steps both droplets half a step at a time: the two chains side by side in the
 * core's window. Tiles of a phase cannot meet, so this is the result of running the tiles
 * one after the other: the same bits. The streams take their tiles from hydraulic_feed, so
 * the threads end a batch together whatever the tiles hold. CPUs with AVX2 run
 * many more droplets side by side, in the lanes of vectors (hydraulic-lanes.h); the streams
 * run the rest: CPUs without, and maps 1 pixel wide or high. */

typedef struct
{
  Droplet d;
  Feed    feed;   /* the droplet running, and its tile's */
  Totals  totals; /* kept for the step functions: nothing observes these runs */
} Stream;

/* Starts the stream's next droplet (hydraulic_feed). */
static FeedState
stream_next (Schedule *s, Stream *st)
{
  const FeedState state = hydraulic_feed (s, &st->feed);
  if (state == FEED_DROPLET)
    hydraulic_droplet_begin (s->run, &st->d, st->feed.start);
  return state;
}

/* After a step that gave `result`: the droplet goes on, or ends and the stream starts its
 * next. */
static FeedState
stream_after (Schedule *s, Stream *st, StepResult result)
{
  if (goes_on (s->run, &st->d, result))
    return FEED_DROPLET;
  droplet_end (s->run, &st->totals, &st->d, result, st->feed.start->index);
  return stream_next (s, st);
}

/* A step of both streams' droplets, half by half. */
static inline void
step_pair (const Run *r, Stream *a, Stream *b, StepResult *ra, StepResult *rb)
{
  Move ma = { .dh = 0.0 }, mb = { .dh = 0.0 }; /* read only after MOVED set them */
  *ra = step_turn (r, &a->totals, &a->d, &ma);
  *rb = step_turn (r, &b->totals, &b->d, &mb);
  if (*ra == MOVED)
    step_move (r, &a->totals, &a->d, &ma);
  if (*rb == MOVED)
    step_move (r, &b->totals, &b->d, &mb);
}

/* The stream's droplet takes a step, or, waiting for a tile, the stream asks again. */
static FeedState
stream_alone (Schedule *s, Stream *st, FeedState state)
{
  if (state == FEED_DROPLET)
    return stream_after (s, st, step (s->run, &st->totals, &st->d));
  return state == FEED_LATER ? stream_next (s, st) : FEED_NONE;
}

/* A thread's task: two streams, stepped together while both have droplets. */
static void
run_streams (void *user, int i)
{
  Schedule *s = user;
  Stream    a = { .feed = FEED_INIT }, b = { .feed = FEED_INIT };
  FeedState state_a = stream_next (s, &a), state_b = stream_next (s, &b);
  (void) i;
  while (state_a != FEED_NONE || state_b != FEED_NONE)
    if (state_a == FEED_DROPLET && state_b == FEED_DROPLET)
      {
        StepResult ra, rb;
        step_pair (s->run, &a, &b, &ra, &rb);
        state_a = stream_after (s, &a, ra);
        state_b = stream_after (s, &b, rb);
      }
    else
      {
        if (state_a != FEED_DROPLET && state_b != FEED_DROPLET)
          hydraulic_wait ();
        state_a = stream_alone (s, &a, state_a);
        state_b = stream_alone (s, &b, state_b);
      }
}

/* The lanes for this CPU (r->run_lanes, r->lanes): AVX-512 or AVX2 vectors, on maps where
 * they can run; and AVX2's beside AVX-512's (r->narrow_lanes). */
static void
choose_lanes (Run *r)
{
  r->run_lanes = r->narrow_lanes = NULL;
  r->lanes = 0;
#if HYDRAULIC_LANES
  if (r->width > 1 && r->height > 1 && may_use_avx2 ())
    {
      r->run_lanes = r->narrow_lanes = hydraulic_lanes_avx2;
      r->lanes = HYDRAULIC_LANES_AVX2;
      if (may_use_avx512 ())
        {
          r->run_lanes = hydraulic_lanes_avx512;
          r->lanes = HYDRAULIC_LANES_AVX512;
        }
    }
#endif
}

/* A thread's part of a batch of `tasks` tiles (of all PHASES) on `threads` threads. A lane
 * holds a droplet of one tile, and a step of the lanes costs about as much whatever they
 * hold: in the widest lanes when one phase's tiles fill them on every thread; else in
 * AVX2's when the tiles fill half of them (half-empty AVX-512 lanes were slower than AVX2's:
 * tests/bench/README.md, "Hydraulic Erosion drops its sediment on the brush"); else two
 * streams (with one tile, 3 times faster than the lanes). */
static TerrainTask
batch_task (const Run *r, int tasks, int threads)
{
  if (lanes_from >= 0)
    return r->run_lanes && tasks >= (long) threads * lanes_from ? r->run_lanes : run_streams;
  if (r->run_lanes && tasks >= (long) threads * PHASES * r->lanes)
    return r->run_lanes;
  if (r->narrow_lanes && tasks >= (long) threads * HYDRAULIC_LANES_AVX2 / 2)
    return r->narrow_lanes;
  return run_streams;
}

/* The droplets of the sorted batch: for an observer on the calling thread, tile after tile,
 * droplet after droplet (it follows the run's totals); else on the threads, in lanes or
 * streams (batch_task). */
static void
run_batch (Schedule *s)
{
  list_tasks (s);
  if (s->run->observer)
    {
      for (int i = 0; i < s->task_count; i++)
        run_tile (s, i);
      return;
    }
  const int all = terrain_parallel_threads ();
  const int threads = all < s->task_count ? all : s->task_count;
  terrain_parallel_for (threads, batch_task (s->run, s->task_count, threads), s);
}

/* The most work a droplet can do, in brush-pixel steps: its start, and each step's move and
 * brush. */
static long
worst_work (const Run *r)
{
  return WORK_PER_DROPLET + (long) r->p->max_steps * (r->brush.count + WORK_PER_STEP);
}

static void
schedule_free (Schedule *s)
{
  terrain_free (s->tile_first);
  terrain_free (s->tile_end);
  terrain_free (s->starts);
  terrain_free (s->drawn);
  terrain_free (s->drawn_tile);
  terrain_free (s->tasks);
  terrain_free (s->taken);
  terrain_free (s->done);
}

/* Every phase of a batch is about WORK_PER_REPORT at the most: a report (and cancel check)
 * comes before each batch. */
static TerrainStatus
schedule_init (Schedule *s, const Run *r)
{
  const int span = span_of (r->p);
  s->run = r;
  s->tiles_x = tiles_along (r->width, span);
  s->tiles_y = tiles_along (r->height, span);
  const long batch = phases_of (s) * (WORK_PER_REPORT / worst_work (r));
  s->batch = (int) (batch < 1 ? 1 : batch > BATCH_MAX ? BATCH_MAX : batch);
  const size_t tiles = (size_t) s->tiles_x * s->tiles_y;
  s->tile_first = terrain_alloc (tiles * sizeof (int));
  s->tile_end = terrain_alloc (tiles * sizeof (int));
  s->tasks = terrain_alloc (tiles * sizeof (int));
  s->taken = terrain_alloc (tiles * sizeof (atomic_int));
  s->done = terrain_alloc (tiles * sizeof (atomic_int));
  s->starts = terrain_alloc ((size_t) s->batch * sizeof (Start));
  s->drawn = terrain_alloc ((size_t) s->batch * sizeof (Start));
  s->drawn_tile = terrain_alloc ((size_t) s->batch * sizeof (int));
  if (s->tile_first && s->tile_end && s->tasks && s->taken && s->done && s->starts && s->drawn &&
      s->drawn_tile)
    return TERRAIN_OK;
  schedule_free (s);
  return TERRAIN_ERROR_NO_MEMORY;
}

static TerrainStatus
run_batches (Schedule *s, int droplets, const TerrainProgress *progress)
{
  for (int first = 0; first < droplets; first += s->batch)
    {
      if (terrain_progress_report (progress, (double) first / droplets))
        return TERRAIN_CANCELLED;
      sort_batch (s, first, droplets - first < s->batch ? droplets - first : s->batch);
      run_batch (s);
    }
  return terrain_progress_report (progress, 1.0) ? TERRAIN_CANCELLED : TERRAIN_OK;
}

/* ---- Public entry points ---- */

void
terrain_hydraulic_use (TerrainHydraulicCode code)
{
  allowed_code = code;
}

void
terrain_hydraulic_lanes_from (int tiles)
{
  lanes_from = tiles < 0 ? -1 : tiles;
}

void
terrain_hydraulic_erosion_defaults (TerrainHydraulicErosion *params)
{
  params->seed = 0;
  params->droplets = 600000;
  params->inertia = 0.05;
  params->capacity = 16.0;
  params->erosion = 0.5;
  params->deposition = 0.15;
  params->evaporation = 0.05;
  params->radius = 3;
  params->max_steps = 50;
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

  Totals totals = { 0.0, 0.0, 0.0 };
  Run    r;
  r.data = data;
  r.width = width;
  r.height = height;
  r.p = p;
  r.observer = observer;
  r.observer_user = user;
  r.observed = observer ? &totals : NULL;
  hydraulic_brush_init (&r.brush, p->radius, width);
  hydraulic_brush_kernels (&r, p->radius, may_use_avx2 (), allowed_code <= TERRAIN_HYDRAULIC_SSE2);
  choose_lanes (&r);
  Schedule s;
  if (schedule_init (&s, &r) != TERRAIN_OK)
    return TERRAIN_ERROR_NO_MEMORY;
  const TerrainStatus result = run_batches (&s, p->droplets, progress);
  schedule_free (&s);
  return result;
}
