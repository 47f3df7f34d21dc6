/* River erosion's breaching (river-breach.c) on a valley whose one-pixel channel bed has
 * bumps, a pit behind each, as the analytical method's last diffusion leaves them: every
 * pit drains afterwards, the bed falls evenly to the outlet, by at least a quarter of the
 * valley's fall a cell (a fill leaves lakes that fall by a float a cell, and the bumps),
 * nothing changes away from the channel, nothing goes below the lowest height allowed, and
 * a way with too few floats for it is left alone; floods that find no way report progress
 * and are cancelled. (The same result for 1 to 4 threads: test-threads, River Erosion's
 * defaults.) */
#include "check.h"
#include "drainage.h"

#include "river-internal.h"

#include <math.h>
#include <stdlib.h>

enum
{
  W = 96,
  H = 15,
  CHANNEL = H / 2, /* the channel's row: water runs along it to x = 0 */
  /* Rows further from the channel are not changed: the cuts lower the channel's banks (1),
   * the land within 2 of a cut is rounded (river-breach.c: ROUND_REACH), and the pits the
   * rounding makes are cut with their banks in turn (1 more). */
  REACH = 4
};

typedef struct
{
  RiverGrid g;
  uint8_t   outlet[W * H];
  float     h[W * H];
} Valley;

/* A valley falling towards x = 0, its banks falling towards the channel's row; each fifth
 * cell of the bed raised by `bump` (above the cells upstream of it). Outlets: the border. */
static void
valley (Valley *v, float bump)
{
  memset (&v->g, 0, sizeof v->g);
  river_grid_init (&v->g, W, H, 0);
  v->g.strips = 3;
  v->g.h = v->h;
  v->g.outlet = v->outlet;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      {
        const size_t i = (size_t) y * W + x;
        const int    border = x == 0 || y == 0 || x == W - 1 || y == H - 1;
        v->outlet[i] = (uint8_t) border;
        v->h[i] = (float) (0.5 + 0.002 * x + 0.01 * abs (y - CHANNEL));
        if (y == CHANNEL && x % 5 == 0 && ! border)
          v->h[i] += bump;
      }
}

/* The valley's pits (drainage.h: its outlets are the border; no cell is at the sea, 0). */
static size_t
pits (const Valley *v)
{
  return (size_t) drainage_pits (v->h, W, H, 0, 0.0f, -1);
}

static void
test_bumps_breached (void)
{
  Valley v, before;
  valley (&v, 0.003f);
  before = v;
  const size_t pits_before = pits (&v);
  CHECK (pits_before >= 10, "only %zu pits: a test of little", pits_before);
  CHECK (river_breach (&v.g, 0.0f, NULL, 0.0) == TERRAIN_OK, "breach");
  size_t away = 0;
  double least_fall = INFINITY;
  for (size_t i = 0; i < (size_t) W * H; i++)
    {
      const int y = (int) (i / W), x = (int) (i % W);
      away += abs (y - CHANNEL) > REACH && v.h[i] != before.h[i];
      /* (The cells near the upstream end, x = W - 1, drain in part to that border.) */
      if (y == CHANNEL && x > 0 && x < W - 12)
        least_fall = fmin (least_fall, (double) v.h[i] - v.h[i - 1]);
    }
  printf ("bumps: %zu pits, then %zu; the bed falls at least %.3g a cell (%.3g without the "
          "bumps); %zu cells changed off the channel\n", pits_before, pits (&v), least_fall,
          0.002, away);
  CHECK (pits (&v) == 0, "%zu pits left", pits (&v));
  CHECK (least_fall > 0.0005, "the bed falls only %g a cell: a lake, or a bump", least_fall);
  CHECK (away == 0, "%zu cells changed away from the channel", away);
}

/* With the lowest height allowed above the outlet's: no cell goes below it. */
static void
test_lowest_kept (void)
{
  Valley v, before;
  valley (&v, 0.003f);
  before = v;
  const float lowest = 0.55f;
  CHECK (river_breach (&v.g, lowest, NULL, 0.0) == TERRAIN_OK, "breach");
  size_t below = 0;
  for (size_t i = 0; i < (size_t) W * H; i++)
    below += v.h[i] < lowest && v.h[i] != before.h[i];
  CHECK (below == 0, "%zu cells lowered below the lowest height", below);
}

/* A flat bed a float above its outlet, with a bump: the ways from its pits have too few
 * floats to fall along, so nothing is cut. */
static void
test_too_few_floats (void)
{
  Valley v, before;
  valley (&v, 0.0f);
  for (int x = 0; x < W; x++)
    v.h[CHANNEL * W + x] = 0.5f;
  v.h[CHANNEL * W] = -river_float_above (-0.5f); /* the outlet, a float below the bed */
  v.h[CHANNEL * W + 40] = river_float_above (0.5f);
  before = v;
  CHECK (river_breach (&v.g, 0.0f, NULL, 0.0) == TERRAIN_OK, "breach");
  CHECK (memcmp (v.h, before.h, sizeof v.h) == 0, "a way without floats for it was cut");
}

/* Reports how far it got, and cancels. */
static int
cancel_at_once (void *user, double fraction)
{
  double *reported = user;
  *reported = fraction;
  return 1;
}

/* A flat map, its border outlets as high as the rest: every inner cell is a pit with no way
 * down, and floods the whole map (up to river-breach.c's SEARCH_CELLS) to find none. Such
 * floods report progress, and stop when cancelled, leaving the heights as they were (they
 * took seconds, uncancellable, on a line of 8192 cells found by fuzzing). */
static void
test_cancelled (void)
{
  enum { FW = 2048, FH = 8 };
  RiverGrid g;
  memset (&g, 0, sizeof g);
  river_grid_init (&g, FW, FH, 0);
  g.strips = 2;
  g.h = malloc (FW * FH * sizeof *g.h);
  g.outlet = malloc (FW * FH);
  for (int i = 0; i < FW * FH; i++)
    {
      const int x = i % FW, y = i / FW;
      g.h[i] = 0.5f;
      g.outlet[i] = (uint8_t) (x == 0 || y == 0 || x == FW - 1 || y == FH - 1);
    }
  double                reported = -1.0;
  const TerrainProgress progress = { cancel_at_once, &reported };
  CHECK (river_breach (&g, 0.0f, &progress, 0.75) == TERRAIN_CANCELLED, "not cancelled");
  CHECK (reported == 0.75, "reported %g, not the fraction given", reported);
  int same = 1;
  for (int i = 0; i < FW * FH; i++)
    same &= g.h[i] == 0.5f;
  CHECK (same, "a cancelled breach changed the heights");
  free (g.h);
  free (g.outlet);
}

int
main (void)
{
  terrain_set_cells_per_strip (1);
  test_bumps_breached ();
  test_lowest_kept ();
  test_too_few_floats ();
  test_cancelled ();
  return CHECK_DONE ("river-breach");
}
