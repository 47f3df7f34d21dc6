/* Droplets side by side in the lanes of vectors: the body of hydraulic_lanes_avx2 and
 * hydraulic_lanes_avx512, included by hydraulic-lanes-avx2.c and hydraulic-lanes-avx512.c
 * after they define, for their instruction set:
 *   LANES_TARGET   the target attribute of every function here
 *   LANES_ENTRY    the name of the thread's task (hydraulic-internal.h)
 *   PART           the lanes of one vector of doubles: PartD; of floats and int32: PartF
 *   PARTS          the vectors of a quantity: PART x PARTS lanes (at most 32)
 *   MM(name), MH(name)  the intrinsic _mm<width>_name of PartD's width, of PartF's
 *   PART_BITS (a, b, predicate): the lanes where _CMP_<predicate>_OQ holds, as bits
 *   part_select (bits, a, b): b in the lanes of `bits`, a in the others
 *   part_pixels (r, nw, live, c, parking): the pixels nw, ne, sw, se of each lane's index
 *                  nw, for the lanes of `live` (the others read parking, or nothing)
 *
 * A thread steps LANES droplets at once, each of its own tile (a lane takes its tile's
 * droplets in order, and the next tile from hydraulic_feed when one is done): PARTS vectors
 * of PART lanes for each quantity, whose operations alternate, so that the core works on
 * PARTS chains at once. The turn (the surface at both ends, the direction, the new position
 * and its pixels), whether to drop or erode and how much, and the move are the operations
 * of step_turn, exchange and step_move (hydraulic-erosion.c) lane for lane, in the same
 * order, so the same bits; only the brush stays a droplet at a time. Tiles that run at
 * once cannot meet: the result of running the tiles one after the other, whatever the lanes
 * and threads.
 * Whether a droplet drops or erodes depends on the end of its step's chain of operations:
 * as a branch it would often be mispredicted, each time making the core wait for that
 * chain; in lanes it needs none. */

#include "hydraulic-internal.h"

#include <stdint.h>

#define LANES (PARTS * PART)

/* LANES doubles or floats: PARTS vectors. */
typedef struct
{
  PartD part[PARTS];
} Vd;

typedef struct
{
  PartF part[PARTS];
} Vf;

#define INLINE LANES_TARGET static inline __attribute__ ((always_inline))
#define EACH_PART for (int q = 0; q < PARTS; q++)
#define PD(op) MM (op##_pd)

/* ---- Lanes of doubles ---- */

INLINE Vd
vd_load (const double *p)
{
  Vd r;
  EACH_PART r.part[q] = PD (load) (p + q * PART);
  return r;
}

INLINE void
vd_store (double *p, Vd v)
{
  EACH_PART PD (store) (p + q * PART, v.part[q]);
}

INLINE Vd
vd_set (double x)
{
  Vd r;
  EACH_PART r.part[q] = PD (set1) (x);
  return r;
}

#define VD_OPERATION(name)                                                                  \
  INLINE Vd vd_##name (Vd a, Vd b)                                                          \
  {                                                                                         \
    Vd r;                                                                                   \
    EACH_PART r.part[q] = PD (name) (a.part[q], b.part[q]);                                 \
    return r;                                                                               \
  }
VD_OPERATION (add)
VD_OPERATION (sub)
VD_OPERATION (mul)
VD_OPERATION (div)
/* minpd (a, b) is a < b ? a : b and maxpd (a, b) a > b ? a : b: min_d and max_d. */
VD_OPERATION (min)
VD_OPERATION (max)
VD_OPERATION (xor)

INLINE Vd
vd_sqrt (Vd a)
{
  Vd r;
  EACH_PART r.part[q] = PD (sqrt) (a.part[q]);
  return r;
}

/* -a, exactly. */
INLINE Vd
vd_neg (Vd a)
{
  return vd_xor (a, vd_set (-0.0));
}

/* The lanes where a > b, a >= b ... as bits (false where one is NaN). */
#define VD_COMPARISON(name, predicate)                                                      \
  INLINE unsigned vd_##name (Vd a, Vd b)                                                    \
  {                                                                                         \
    unsigned lanes = 0;                                                                     \
    EACH_PART lanes |= PART_BITS (a.part[q], b.part[q], predicate) << q * PART;             \
    return lanes;                                                                           \
  }
VD_COMPARISON (gt, _CMP_GT_OQ)
VD_COMPARISON (ge, _CMP_GE_OQ)
VD_COMPARISON (le, _CMP_LE_OQ)
VD_COMPARISON (lt, _CMP_LT_OQ)

/* b in the lanes of `lanes`, a in the others. */
INLINE Vd
vd_select (unsigned lanes, Vd a, Vd b)
{
  Vd r;
  EACH_PART r.part[q] = part_select (lanes >> q * PART, a.part[q], b.part[q]);
  return r;
}

INLINE Vd
vd_of_floats (Vf a)
{
  Vd r;
  EACH_PART r.part[q] = MM (cvtps_pd) (a.part[q]);
  return r;
}

/* (int) p, lane for lane (p >= 0), but at most `most`, as doubles. */
INLINE Vd
vd_truncate (Vd p, int most)
{
  Vd i;
  EACH_PART i.part[q] = MM (cvtepi32_pd) (MH (min_epi32) (MM (cvttpd_epi32) (p.part[q]),
                                                        MH (set1_epi32) (most)));
  return i;
}

/* cell_of on a map of `size` > 1 pixels, lane for lane: the pixel, and the fraction p - i
 * in *f. */
INLINE Vd
vd_cell (Vd p, int size, Vd *f)
{
  const Vd i = vd_truncate (p, size - 2);
  *f = vd_sub (p, i);
  return i;
}

/* ---- The pack: LANES droplets ---- */

/* Lane l holds a droplet of its tile (feed[l]) while bit l of `live` is set; bit l of
 * `waiting` is set while it waits for a tile. A droplet's pixels are as Corners: nw the index
 * of the first, an integer in a double. An empty lane computes on what it holds, but reads
 * and writes no pixel: another thread may be changing it. */
typedef struct
{
  _Alignas (64) double x[LANES];
  _Alignas (64) double y[LANES];
  _Alignas (64) double dx[LANES];
  _Alignas (64) double dy[LANES];
  _Alignas (64) double speed[LANES];
  _Alignas (64) double water[LANES];
  _Alignas (64) double sediment[LANES];
  _Alignas (64) double steps[LANES];
  _Alignas (64) double nw[LANES];
  _Alignas (64) double fx[LANES];
  _Alignas (64) double fy[LANES];
  Feed         feed[LANES];
  unsigned     live, waiting;
  float        parking[4]; /* where an empty lane's pixels are (part_pixels) */
  Totals       totals;     /* kept for hydraulic_settle: nothing observes these runs */
} Pack;

/* What the first half of a step found for each lane: where it goes, its pixels there and
 * dh; what it drops on or takes from the brush around pixel (cx, cy), bounded by limit. */
typedef struct
{
  _Alignas (64) double x[LANES];
  _Alignas (64) double y[LANES];
  _Alignas (64) double nw[LANES];
  _Alignas (64) double fx[LANES];
  _Alignas (64) double fy[LANES];
  _Alignas (64) double dh[LANES];
  _Alignas (64) double amount[LANES]; /* exchange's, as hydraulic_deposit or _erode takes it */
  _Alignas (64) double limit[LANES];  /* the ceiling of a drop, the floor of erosion */
  _Alignas (64) double cx[LANES];
  _Alignas (64) double cy[LANES];
  unsigned moved, left;       /* step_turn's MOVED and LEFT */
  unsigned dropping;          /* those of `moved` that drop sediment; the others erode */
} Turn;

/* The 4 pixels around each lane's position, as floats and as doubles. */
typedef struct
{
  Vf nw, ne, sw, se;
} Pixels;

typedef struct
{
  Vd nw, ne, sw, se;
} Heights;

/* (The index converted as signed: x86 has no short conversion of a double to unsigned.) */
static inline Corners
lane_corners (const Run *r, double nw, double fx, double fy)
{
  const Corners c = { (size_t) (ptrdiff_t) nw, 1, r->width, fx, fy };
  return c;
}

/* Starts lane l's next droplet (hydraulic_feed), or leaves the lane empty, on pixel 0. */
static void
lane_next (Schedule *s, Pack *k, int l)
{
  const unsigned  bit = 1u << l;
  const FeedState state = hydraulic_feed (s, &k->feed[l]);
  Droplet         d = { .x = 0.0 };
  d.at = lane_corners (s->run, 0.0, 0.0, 0.0);
  k->live = state == FEED_DROPLET ? k->live | bit : k->live & ~bit;
  k->waiting = state == FEED_LATER ? k->waiting | bit : k->waiting & ~bit;
  if (state == FEED_DROPLET)
    hydraulic_droplet_begin (s->run, &d, k->feed[l].start);
  k->x[l] = d.x;
  k->y[l] = d.y;
  k->dx[l] = d.dx;
  k->dy[l] = d.dy;
  k->speed[l] = d.speed;
  k->water[l] = d.water;
  k->sediment[l] = d.sediment;
  k->steps[l] = d.steps;
  k->nw[l] = (double) d.at.nw;
  k->fx[l] = d.at.fx;
  k->fy[l] = d.at.fy;
}

static void
pack_begin (Schedule *s, Pack *k)
{
  const Feed none = FEED_INIT;
  k->live = k->waiting = 0;
  k->totals = (Totals) { 0.0, 0.0, 0.0 };
  for (int l = 0; l < LANES; l++)
    {
      k->feed[l] = none;
      lane_next (s, k, l);
    }
}

INLINE Pixels
pixels_at (const Run *r, Pack *k, const double *nw)
{
  Pixels c;
  EACH_PART
    {
      PartF part[4];
      part_pixels (r, nw + q * PART, k->live >> q * PART, part, k->parking);
      c.nw.part[q] = part[0];
      c.ne.part[q] = part[1];
      c.sw.part[q] = part[2];
      c.se.part[q] = part[3];
    }
  return c;
}

INLINE Heights
heights_of (Pixels c)
{
  const Heights h = { vd_of_floats (c.nw), vd_of_floats (c.ne), vd_of_floats (c.sw),
                      vd_of_floats (c.se) };
  return h;
}

/* surface_of's height, lane for lane. */
INLINE Vd
height_at (Heights h, Vd fx, Vd fy)
{
  const Vd one = vd_set (1.0);
  const Vd gx = vd_sub (one, fx), gy = vd_sub (one, fy);
  Vd       sum = vd_mul (vd_mul (h.nw, gx), gy);
  sum = vd_add (sum, vd_mul (vd_mul (h.ne, fx), gy));
  sum = vd_add (sum, vd_mul (vd_mul (h.sw, gx), fy));
  return vd_add (sum, vd_mul (vd_mul (h.se, fx), fy));
}

/* step_turn, lane for lane, from the pixels h around each lane: fills m's move and returns
 * the surface's height here. */
INLINE Vd
turn (const Run *r, Pack *k, Turn *m, Heights h)
{
  const TerrainHydraulicErosion *p = r->p;
  const Vd zero = vd_set (0.0), one = vd_set (1.0);
  const Vd fx = vd_load (k->fx), fy = vd_load (k->fy);
  const Vd gx = vd_add (vd_mul (vd_sub (h.ne, h.nw), vd_sub (one, fy)),
                        vd_mul (vd_sub (h.se, h.sw), fy));
  const Vd gy = vd_add (vd_mul (vd_sub (h.sw, h.nw), vd_sub (one, fx)),
                        vd_mul (vd_sub (h.se, h.ne), fx));
  const Vd inertia = vd_set (p->inertia), pull = vd_set (1.0 - p->inertia);
  Vd       dx = vd_sub (vd_mul (vd_load (k->dx), inertia), vd_mul (gx, pull));
  Vd       dy = vd_sub (vd_mul (vd_load (k->dy), inertia), vd_mul (gy, pull));
  const Vd length = vd_sqrt (vd_add (vd_mul (dx, dx), vd_mul (dy, dy)));
  const unsigned turned = vd_gt (length, zero) & k->live;
  dx = vd_div (dx, length);
  dy = vd_div (dy, length);
  vd_store (k->dx, dx);
  vd_store (k->dy, dy);
  const Vd x = vd_load (k->x), y = vd_load (k->y);
  Vd       nx = vd_add (x, dx), ny = vd_add (y, dy);
  const unsigned inside = vd_ge (nx, zero) & vd_le (nx, vd_set (r->width - 1)) &
                          vd_ge (ny, zero) & vd_le (ny, vd_set (r->height - 1));
  m->moved = turned & inside;
  m->left = turned & ~inside;
  /* Lanes that do not move read their own pixels again. */
  nx = vd_select (m->moved, x, nx);
  ny = vd_select (m->moved, y, ny);
  Vd       nfx, nfy;
  const Vd i = vd_cell (nx, r->width, &nfx), j = vd_cell (ny, r->height, &nfy);
  vd_store (m->nw, vd_add (vd_mul (j, vd_set (r->width)), i));
  vd_store (m->x, nx);
  vd_store (m->y, ny);
  vd_store (m->fx, nfx);
  vd_store (m->fy, nfy);
  return height_at (h, fx, fy);
}

/* exchange in the lanes that moved, but the brush: whether each drops or erodes, how much,
 * the step's end that bounds it (the upper for a drop, the lower for erosion), and around
 * which pixel. */
INLINE void
exchange_lanes (const Run *r, Pack *k, Turn *m, Vd here, Vd dh)
{
  const TerrainHydraulicErosion *p = r->p;
  const Vd zero = vd_set (0.0);
  const Vd sediment = vd_load (k->sediment);
  const Vd capacity = vd_max (vd_mul (vd_mul (vd_mul (vd_neg (dh), vd_load (k->speed)),
                                              vd_load (k->water)),
                                      vd_set (p->capacity)),
                              vd_mul (vd_set (HYDRAULIC_MIN_CAPACITY), vd_load (k->water)));
  const unsigned uphill = vd_gt (dh, zero);
  m->dropping = m->moved & (uphill | vd_gt (sediment, capacity));
  const Vd drop = vd_select (uphill, vd_mul (vd_sub (sediment, capacity), vd_set (p->deposition)),
                             vd_min (dh, sediment));
  const Vd erosion = vd_min (vd_mul (vd_sub (capacity, sediment), vd_set (p->erosion)),
                             vd_neg (dh));
  vd_store (m->amount, vd_select (m->dropping, erosion, drop));
  vd_store (m->limit, vd_add (here, vd_select (m->dropping, dh, vd_max (dh, zero))));
  vd_store (m->cx, vd_truncate (vd_add (vd_load (k->x), vd_set (0.5)), INT32_MAX));
  vd_store (m->cy, vd_truncate (vd_add (vd_load (k->y), vd_set (0.5)), INT32_MAX));
}

/* Asks the cache for the brush's row beyond each lane's next pixels nw, above or below as
 * it goes: a step moves at most a pixel, so the other rows are the last step's, and the
 * brush would otherwise wait for memory there. */
INLINE void
prefetch_brushes (const Run *r, const Pack *k, unsigned lanes, const double *nw)
{
  const ptrdiff_t w = r->width, reach = r->brush.reach;
  const ptrdiff_t last = (ptrdiff_t) r->width * r->height - 1;
  for (; lanes; lanes &= lanes - 1)
    {
      const int       l = __builtin_ctz (lanes);
      const ptrdiff_t row = k->dy[l] > 0.0 ? (reach + 1) * w : -reach * w;
      const ptrdiff_t at = (ptrdiff_t) nw[l] + row - reach;
      __builtin_prefetch (r->data + (at < 0 ? 0 : at > last ? last : at), 1);
    }
}

/* The first half of a step for every lane, and the exchange but the brush. */
LANES_TARGET static void
first_half (const Run *r, Pack *k, Turn *m)
{
  const Heights h = heights_of (pixels_at (r, k, k->nw));
  const Vd      here = turn (r, k, m, h);
  const Vd      dh = vd_sub (height_at (heights_of (pixels_at (r, k, m->nw)), vd_load (m->fx),
                                        vd_load (m->fy)),
                             here);
  vd_store (m->dh, dh);
  prefetch_brushes (r, k, m->moved, m->nw);
  exchange_lanes (r, k, m, here, dh);
}

/* The brush of the lanes that moved, one after the other. */
LANES_TARGET static void
brush_lanes (const Run *r, Pack *k, const Turn *m)
{
  for (unsigned lanes = m->moved; lanes; lanes &= lanes - 1)
    {
      const int l = __builtin_ctz (lanes), cx = (int) m->cx[l], cy = (int) m->cy[l];
      if (m->dropping & (1u << l))
        k->sediment[l] -= hydraulic_deposit (r, cx, cy, m->amount[l], m->limit[l]);
      else
        k->sediment[l] += hydraulic_erode (r, cx, cy, m->amount[l], m->limit[l]);
    }
}

/* step_move in the lanes that moved; returns the lanes whose droplets go on (goes_on). */
LANES_TARGET static unsigned
move (const Run *r, Pack *k, const Turn *m)
{
  const unsigned moved = m->moved;
  const Vd       speed = vd_load (k->speed), dh = vd_load (m->dh);
  const Vd       faster = vd_sqrt (vd_max (vd_set (0.0), vd_add (vd_mul (speed, speed),
                                                                 vd_mul (dh, vd_set (HYDRAULIC_GRAVITY)))));
  vd_store (k->speed, vd_select (moved, speed, faster));
  const Vd water = vd_load (k->water);
  vd_store (k->water, vd_select (moved, water, vd_mul (water, vd_set (1.0 - r->p->evaporation))));
  vd_store (k->x, vd_select (moved, vd_load (k->x), vd_load (m->x)));
  vd_store (k->y, vd_select (moved, vd_load (k->y), vd_load (m->y)));
  vd_store (k->nw, vd_select (moved, vd_load (k->nw), vd_load (m->nw)));
  vd_store (k->fx, vd_select (moved, vd_load (k->fx), vd_load (m->fx)));
  vd_store (k->fy, vd_select (moved, vd_load (k->fy), vd_load (m->fy)));
  const Vd steps = vd_select (moved, vd_load (k->steps), vd_add (vd_load (k->steps), vd_set (1.0)));
  vd_store (k->steps, steps);
  return moved & vd_lt (steps, vd_set (r->p->max_steps));
}

/* Ends the droplets of the live lanes but `going` (droplet_end), and starts their next. */
static void
end_lanes (Schedule *s, Pack *k, const Turn *m, unsigned going)
{
  for (unsigned lanes = k->live & ~going; lanes; lanes &= lanes - 1)
    {
      const int l = __builtin_ctz (lanes);
      if (m->left & (1u << l))
        k->sediment[l] = 0.0; /* lost with the droplet */
      else
        hydraulic_settle (s->run, &k->totals, k->x[l], k->y[l], &k->sediment[l]);
      lane_next (s, k, l);
    }
}

void
LANES_ENTRY (void *schedule, int task)
{
  Schedule *s = schedule;
  Pack      k;
  (void) task;
  pack_begin (s, &k);
  while (k.live | k.waiting)
    {
      if (k.live)
        {
          Turn m;
          first_half (s->run, &k, &m);
          brush_lanes (s->run, &k, &m);
          end_lanes (s, &k, &m, move (s->run, &k, &m));
        }
      else
        hydraulic_wait (); /* every lane waits for the other threads' tiles */
      for (unsigned lanes = k.waiting; lanes; lanes &= lanes - 1)
        lane_next (s, &k, __builtin_ctz (lanes));
    }
}
