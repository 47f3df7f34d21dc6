/* libFuzzer harness: terrain_river_erosion over heightmaps of any finite values (constant,
 * noise, +-FLT_MAX checkerboards, subnormals, raw bit patterns; in [0, 1] one time in four;
 * sometimes over a bowl that makes one large depression), sometimes a NaN or an infinity
 * at a decoded place, every size from 1x1 and 1xN up to 1024 pixels (8192 in heavy
 * executions); every parameter over its range and beyond: 1..10000 iterations (scaled down
 * to the work budget, except in heavy executions, which the progress callback stops after
 * the first fill and a few steps), erosion 0..100, m 0..2, n 0.5..4, diffusion 0..100, sea
 * level 0..1, both uplifts, every edge mode, and any subset of the maps; both methods, the
 * analytical at ages 0..10^6 (its cost does not grow with the age).
 *
 * Checks (river-erosion.h):
 *  - status: parameters in range and finite heights are accepted, anything else gives
 *    TERRAIN_ERROR_INVALID with the heights and the maps bit-identical to before.
 *  - "finite input always gives finite output", also when cancelled part way.
 *  - On TERRAIN_OK: the maps written everywhere (they start as NaN) and finite, flow in
 *    [0, 1], erosion >= 0, deposition >= 0; with uplift from the layer the result in [0, 1].
 *  - Every cell drains: no non-outlet cell without a strictly lower 8-neighbour, the outlets
 *    as the header defines them (open edges: the border and the cells at or below
 *    sea_level; wrapped: those at or below sea_level, else the first lowest cell; with
 *    uplift from the layer both read from the uplift map). A cell at FLT_MAX is let off: no
 *    float is above it (a plateau at FLT_MAX, or a fill that would rise past it).
 *  - The flow map: a lower neighbour with at least a cell's flow (its receiver) beside
 *    every non-outlet cell, and the outlets' drainage areas (log A / log cells) adding up
 *    to the map.
 *  - Outlets keep their heights (uplift none), or are 0 (uplift from the layer, unless
 *    every cell is one: a flat map is 0.5).
 *  - The analytical method at age 0: the heights bit-identical (no other check: not even
 *    the pits are filled).
 *  - Uplift none: with no diffusion no cell above sea_level ends below it (incision stops
 *    there); simulated with no erosion and no diffusion either, no height goes down (filling only
 *    raises) and nothing is eroded; each cell's change is its deposition minus its erosion
 *    (the maps count every change), up to float rounding (but for a map at FLT_MAX).
 *  - Shared edges: the heights' and the maps' last column and row are their first, bit for
 *    bit, and the period block passes every check above as a wrapped map.
 *  - Every light execution that ends OK is run again on a copy, with all maps and a
 *    shuffled TerrainParallel of 2 to 4 threads on one-row strips: the same bits (heights
 *    and maps), whatever the threads and whichever maps are asked for. */
#include "fuzz-common.h"

#include "river-erosion.h"

/* ---- A TerrainParallel that runs the tasks on this thread in a shuffled order ---- */

static uint32_t shuffle_state;

static void
shuffled_run (void *user, int count, TerrainTask task, void *task_user)
{
  (void) user;
  int  fixed[64];
  int *order = count <= 64 ? fixed : malloc ((size_t) count * sizeof (int));
  if (order == NULL)
    abort ();
  for (int i = 0; i < count; i++)
    order[i] = i;
  for (int i = count - 1; i > 0; i--)
    {
      const int j = (int) (fuzz_lcg (&shuffle_state) % (uint32_t) (i + 1)), t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
  for (int i = 0; i < count; i++)
    task (task_user, order[i]);
  if (order != fixed)
    free (order);
}

/* ---- Outlets and drainage, from the header ---- */

static int
is_border (int w, int h, int x, int y)
{
  return x == 0 || y == 0 || x == w - 1 || y == h - 1;
}

/* The outlets of river-erosion.h, from `levels` (the result with uplift none, the uplift
 * map with uplift from the layer): the border of an open map, cells at or below the sea
 * (compared as floats, as the layer's values are), and on a wrapped map whose `input` has
 * no such cell the first lowest one of the input (the core picks it before the run: a cell
 * eroded down to the sea later does not take its place). */
static uint8_t *
outlets_of (const float *levels, const float *input, int w, int h, int wrap, float sea)
{
  const size_t n = (size_t) w * h;
  uint8_t *outlet = malloc (n);
  if (outlet == NULL)
    abort ();
  int    any_sea = 0;
  size_t lowest = 0;
  for (size_t i = 0; i < n; i++)
    {
      outlet[i] = levels[i] <= sea || (! wrap && is_border (w, h, (int) (i % w), (int) (i / w)));
      any_sea |= input[i] <= sea;
      lowest = input[i] < input[lowest] ? i : lowest;
    }
  if (wrap && ! any_sea)
    outlet[lowest] = 1;
  return outlet;
}

/* Non-outlet cells of f with no strictly lower neighbour (8 of them, around the torus when
 * wrapped, none off an open map); with a flow map, *uphill counts those whose lower
 * neighbours all have less flow (the receiver drains all the cell drains, and more). */
static size_t
count_pits (const float *f, const float *flow, const uint8_t *outlet, int w, int h, int wrap,
            size_t *first, size_t *uphill)
{
  static const int dx[8] = { 0, 0, -1, 1, -1, 1, 1, -1 }, dy[8] = { -1, 1, 0, 0, -1, 1, -1, 1 };
  size_t pits = 0;
  *uphill = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        const size_t i = (size_t) y * w + x;
        /* No float is above FLT_MAX: a cell at it with no lower neighbour (on an input
         * with a plateau at FLT_MAX, or raised above it by the fill and kept finite) has no
         * way to drain. */
        if (outlet[i] || f[i] == FLT_MAX)
          continue;
        int lower = 0, receiver = 0;
        for (int k = 0; k < 8; k++)
          {
            int nx = x + dx[k], ny = y + dy[k];
            if (wrap)
              nx = (nx + w) % w, ny = (ny + h) % h;
            else if (nx < 0 || ny < 0 || nx >= w || ny >= h)
              continue;
            const size_t j = (size_t) ny * w + nx;
            lower |= f[j] < f[i];
            receiver |= f[j] < f[i] && (flow == NULL || flow[j] >= flow[i]);
          }
        if (! lower && pits++ == 0)
          *first = i;
        *uphill += lower && ! receiver;
      }
  return pits;
}

/* ---- Input ---- */

/* A bowl under the heights: every cell at least `depth` times its distance from the
 * middle (0 there, 1 at the corners), so that the middle is one large depression. */
static void
add_bowl (float *h, int w, int height, float depth)
{
  for (int y = 0; y < height; y++)
    for (int x = 0; x < w; x++)
      {
        const double u = (2.0 * x + 1.0) / w - 1.0, v = (2.0 * y + 1.0) / height - 1.0;
        const float  b = depth * (float) (sqrt (u * u + v * v) / sqrt (2.0));
        float *c = &h[(size_t) y * w + x];
        *c = b > *c ? b : *c;
      }
}

/* The three maps in one block of 3 n floats, NaN to begin with. */
typedef struct
{
  float           *block;
  TerrainRiverMaps maps;
} Maps;

static void
maps_alloc (Maps *m, size_t n, unsigned which)
{
  m->block = fuzz_alloc_floats (3 * n);
  m->maps.flow = which & 1 ? m->block : NULL;
  m->maps.erosion = which & 2 ? m->block + n : NULL;
  m->maps.deposition = which & 4 ? m->block + 2 * n : NULL;
}

/* The 3 x 3 around cell c, now and in the input (around the torus when wrapped). */
static void
print_neighbours (const float *h, const float *before, int w, int hgt, int wrap, size_t c)
{
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++)
      {
        int x = (int) (c % w) + dx, y = (int) (c / w) + dy;
        if (wrap)
          x = (x + w) % w, y = (y + hgt) % hgt;
        if (x >= 0 && y >= 0 && x < w && y < hgt)
          fprintf (stderr, "fuzz:   (%d, %d): %.9g (input %.9g)\n", x, y,
                   h[(size_t) y * w + x], before[(size_t) y * w + x]);
      }
}

/* The drainage checks of a run that ended OK (see the top), on a w x hgt map wrapped when
 * `wrap`. */
static void
check_drainage (const TerrainRiverErosion *p, const float *h, const float *before,
              const TerrainRiverMaps *maps, int w, int hgt, int wrap)
{
  const size_t n = (size_t) w * hgt;
  const int   layer = p->uplift == TERRAIN_RIVER_UPLIFT_LAYER;
  const float sea = (float) p->sea_level;
  const float *flow = maps->flow, *eroded = maps->erosion, *deposited = maps->deposition;
  for (size_t i = 0; i < n; i++)
    {
      FUZZ_CHECK (flow == NULL || (flow[i] >= 0.0f && flow[i] <= 1.0f));
      FUZZ_CHECK (eroded == NULL || (isfinite (eroded[i]) && eroded[i] >= 0.0f));
      FUZZ_CHECK (deposited == NULL || (isfinite (deposited[i]) && deposited[i] >= 0.0f));
    }
  if (layer)
    fuzz_check_unit (h, n);

  /* Every cell drains to an outlet. */
  uint8_t *outlet = outlets_of (layer ? before : h, before, w, hgt, wrap, sea);
  size_t   first = 0, uphill;
  const size_t pits = count_pits (h, flow, outlet, w, hgt, wrap, &first, &uphill);
  if (pits)
    {
      fprintf (stderr, "fuzz: %zu pits, the first at (%zu, %zu): %.9g (input %.9g)\n", pits,
               first % w, first / w, h[first], before[first]);
      print_neighbours (h, before, w, hgt, wrap, first);
    }
  FUZZ_CHECK (pits == 0);
  FUZZ_CHECK (uphill == 0);
  /* The outlets are the roots: their drainage areas (flow = log A / log cells) add up
   * to the map (a float flow gives A within 0.01 cell at 8192 cells). */
  if (flow)
    {
      double cells = 0.0;
      for (size_t i = 0; i < n; i++)
        cells += outlet[i] ? (n > 1 ? round (pow ((double) n, flow[i])) : flow[i]) : 0.0;
      FUZZ_CHECK (cells == (double) n);
    }

  /* Outlets keep their heights, or are 0 on a grown map (0.5 when all are outlets:
   * flat). The input outlets of an eroded map are read from the input, as the core
   * does (a cell eroded down to the sea becomes an outlet only then). */
  if (layer)
    {
      size_t outlets = 0;
      for (size_t i = 0; i < n; i++)
        outlets += outlet[i];
      for (size_t i = 0; i < n; i++)
        FUZZ_CHECK (! outlet[i] || h[i] == (outlets == n ? 0.5f : 0.0f));
    }
  else
    {
      uint8_t *kept = outlets_of (before, before, w, hgt, wrap, sea);
      for (size_t i = 0; i < n; i++)
        FUZZ_CHECK (! kept[i] || h[i] == before[i]);
      free (kept);
    }
  free (outlet);
}

/* The heights' checks of a run that ended OK, on a w x hgt map. */
static void
check_heights (const TerrainRiverErosion *p, const float *h, const float *before,
               const TerrainRiverMaps *maps, int w, int hgt)
{
  const size_t n = (size_t) w * hgt;
  const int    layer = p->uplift == TERRAIN_RIVER_UPLIFT_LAYER;
  const float  sea = (float) p->sea_level;
  const float *eroded = maps->erosion, *deposited = maps->deposition;
  double       magnitude = 0.0;
  for (size_t i = 0; i < n; i++)
    magnitude = fmax (magnitude, fabs (before[i]));

  /* "Incision never takes a cell below sea_level" (diffusion may). */
  if (! layer && p->diffusion == 0.0)
    for (size_t i = 0; i < n; i++)
      FUZZ_CHECK (! (before[i] > sea) || h[i] >= sea);
  if (! layer && p->method == TERRAIN_RIVER_METHOD_SIMULATE && p->erosion == 0.0
      && p->diffusion == 0.0)
    for (size_t i = 0; i < n; i++)
      {
        if (! (h[i] >= before[i]))
          fprintf (stderr, "fuzz: cell %zu went down: %.9g -> %.9g\n", i, before[i], h[i]);
        FUZZ_CHECK (h[i] >= before[i]);
        FUZZ_CHECK (eroded == NULL || eroded[i] == 0.0f);
      }

  /* The maps count every change: h - before = deposition - erosion, up to a few
   * roundings a step of the largest magnitude in play (no height leaves the input's
   * range but for the fill's few floats), of the maps' sums, and of subnormals. */
  if (! layer && eroded && deposited)
    for (size_t i = 0; i < n; i++)
      {
        if (fabsf (h[i]) == FLT_MAX || eroded[i] == FLT_MAX || deposited[i] == FLT_MAX)
          continue; /* kept finite: a change beyond FLT_MAX cannot be told */
        const double change = (double) h[i] - before[i];
        const double counted = (double) deposited[i] - eroded[i];
        const int    steps = p->method == TERRAIN_RIVER_METHOD_SIMULATE ? p->iterations : 4;
        const double tolerance = 8.0 * (steps + 2)
                                 * (0x1p-24 * (magnitude + eroded[i] + deposited[i])
                                    + 0x1p-149 + magnitude * 0x1p-100);
        if (! (fabs (change - counted) <= tolerance))
          fprintf (stderr, "fuzz: cell %zu: %.9g -> %.9g, deposition %.9g, erosion %.9g\n",
                   i, before[i], h[i], deposited[i], eroded[i]);
        FUZZ_CHECK (fabs (change - counted) <= tolerance);
      }
}

/* The last column and row of a w x hgt map are its first, bit for bit. */
static void
check_shared_edges (const float *v, int w, int hgt)
{
  for (int y = 0; y < hgt; y++)
    FUZZ_CHECK (memcmp (v + (size_t) y * w + w - 1, v + (size_t) y * w, sizeof (float)) == 0);
  FUZZ_CHECK (memcmp (v + (size_t) (hgt - 1) * w, v, (size_t) w * sizeof (float)) == 0);
}

/* Every check of a run that ended OK. With shared edges the heights and maps repeat their
 * first column and row, and their period block (packed copies) is a wrapped map. */
static void
check_result (const TerrainRiverErosion *p, const float *h, const float *before,
              const TerrainRiverMaps *maps, int w, int hgt)
{
  if (p->edges != TERRAIN_RIVER_EDGES_SHARED_EDGE)
    {
      check_drainage (p, h, before, maps, w, hgt, p->edges == TERRAIN_RIVER_EDGES_WRAP);
      check_heights (p, h, before, maps, w, hgt);
      return;
    }
  const float *in[5] = { h, before, maps->flow, maps->erosion, maps->deposition };
  float       *packed[5] = { NULL };
  for (int k = 0; k < 5; k++)
    if (in[k])
      {
        if (k != 1) /* the input's last column and row are not read */
          check_shared_edges (in[k], w, hgt);
        packed[k] = fuzz_alloc_floats ((size_t) w * hgt);
        memcpy (packed[k], in[k], (size_t) w * hgt * sizeof (float));
        terrain_shared_edge_pack (packed[k], w, hgt);
      }
  const TerrainRiverMaps block = { packed[2], packed[3], packed[4] };
  const int pw = terrain_shared_edge_period (w), ph = terrain_shared_edge_period (hgt);
  check_drainage (p, packed[0], packed[1], &block, pw, ph, 1);
  check_heights (p, packed[0], packed[1], &block, pw, ph);
  for (int k = 0; k < 5; k++)
    free (packed[k]);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  FuzzInput in = { data, size, 0 };
  /* Before its first step a run costs some 70 us under the sanitizers (the table of A^m)
   * and 600 ns a cell (the fill, the first and last receivers, the maps), and a fill is
   * cancelled every 65536 cells only: the layers stay small, up to 1024 pixels, and up to
   * 8192 in heavy executions (a cell that is not an outlet drains 4096 cells or more, past
   * the table, only on a map of more than 4096). */
  const int heavy = fuzz_heavy (&in);
  FuzzSize  sz = fuzz_size (&in, heavy ? 8192 : 1024, 1);
  const uint8_t cancel_sel = fuzz_u8 (&in);

  TerrainRiverErosion p;
  terrain_river_erosion_defaults (&p);
  int valid = sz.valid;
  p.iterations = fuzz_int (&in, 1, TERRAIN_RIVER_MAX_ITERATIONS, 30, 1, &valid);
  p.erosion = fuzz_double (&in, 0.0, TERRAIN_RIVER_MAX_EROSION, 0.1, FUZZ_CLOSED, 1, &valid);
  p.area_exponent = fuzz_double (&in, TERRAIN_RIVER_MIN_AREA_EXPONENT,
                                 TERRAIN_RIVER_MAX_AREA_EXPONENT, 0.5, FUZZ_CLOSED, 1, &valid);
  p.slope_exponent = fuzz_double (&in, TERRAIN_RIVER_MIN_SLOPE_EXPONENT,
                                  TERRAIN_RIVER_MAX_SLOPE_EXPONENT, 1.0, FUZZ_CLOSED, 1, &valid);
  p.diffusion = fuzz_double (&in, 0.0, TERRAIN_RIVER_MAX_DIFFUSION, 1.0, FUZZ_CLOSED, 1, &valid);
  p.uplift = (TerrainRiverUplift) fuzz_enum (&in, 2, 1, &valid);
  p.edges = (TerrainRiverEdges) fuzz_enum (&in, 3, 1, &valid);
  p.sea_level = fuzz_double (&in, TERRAIN_RIVER_MIN_SEA_LEVEL, TERRAIN_RIVER_MAX_SEA_LEVEL, 0.0,
                             FUZZ_CLOSED, 1, &valid);
  p.method = (TerrainRiverMethod) fuzz_enum (&in, 2, 1, &valid);
  p.age = fuzz_double (&in, 0.0, TERRAIN_RIVER_MAX_AGE, 3.0, FUZZ_CLOSED, 1, &valid);
  /* Maps: 0..7 all three (the checks need them), 8..14 the subset of bits 0-2, 15 none (a
   * NULL TerrainRiverMaps); bit 7: the simulation's last step whole (the landscape
   * presets'), not in parts. */
  const uint8_t maps_sel = fuzz_u8 (&in);
  const unsigned which = maps_sel % 16 < 8 ? 7u : maps_sel % 16 == 15 ? 0u : maps_sel & 7u;
  p.whole_last_step = maps_sel >> 7;
  const uint32_t threads_sel = fuzz_u8 (&in);

  /* Heights: any finite values, in [0, 1] one time in four (a layer's usual content, and
   * the uplift map's range); a bowl under them; rarely a NaN or an infinity. */
  const uint8_t shape = fuzz_u8 (&in);
  float *h = fuzz_alloc_floats (sz.n);
  fuzz_heights (&in, h, sz.n, shape % 4 == 3);
  if (shape & 0x10 && sz.n > 0)
    add_bowl (h, sz.w, sz.h,
              shape & 0x20 ? 1.0f : fuzz_finite_or (fuzz_bits_float (fuzz_u32 (&in)), 1.0f));
  const uint8_t poison = fuzz_u8 (&in);
  size_t poisoned = 0;
  if (poison % 16 == 15 && sz.n > 0)
    {
      static const uint32_t bad[] = { 0x7fc00000u, 0xffc00000u, 0x7f800000u, 0xff800000u,
                                      0x7f800001u, 0x7fffffffu };
      poisoned = fuzz_u32 (&in) % sz.n;
      h[poisoned] = fuzz_bits_float (bad[(poison >> 4) % 6]);
      valid = 0;
    }

  /* The work budget: a step costs about 200 ns a cell under the sanitizers (receivers,
   * order, area, diffusion, incision), up to 1.5 times that for n != 1 (Newton-Raphson),
   * plus 300 ns; and most runs are made twice (the repeat below). */
  const double n_cost = p.method == TERRAIN_RIVER_METHOD_ANALYTICAL ? 0.4
                        : p.slope_exponent == 1.0 ? 1.0 : 1.5;
  if (sz.valid && p.method == TERRAIN_RIVER_METHOD_SIMULATE)
    p.iterations = fuzz_fit (p.iterations, TERRAIN_RIVER_MAX_ITERATIONS,
                             2.0 * (300.0 + 200.0 * n_cost * (double) sz.n), heavy);
  /* Heavy: stop at report 12 (3 before the first step, then 3 to 11 a step). */
  const unsigned long cap = fuzz_cancel_at (cancel_sel, heavy ? 12 : 100000);

  FUZZ_DESCRIBE ("%dx%d method %d age %.17g iterations %d erosion %.17g m %.17g n %.17g diffusion %.17g uplift %d "
                 "edges %d sea %.17g whole last step %d maps %u threads %u h[0] %.9g poisoned %zu (%s) heavy %d "
                 "cap %lu", sz.w, sz.h, (int) p.method, p.age, p.iterations, p.erosion, p.area_exponent,
                 p.slope_exponent, p.diffusion, (int) p.uplift, (int) p.edges, p.sea_level,
                 p.whole_last_step, which, 2 + threads_sel % 3, sz.n ? h[0] : 0.0, poisoned,
                 poison % 16 == 15 && sz.n > 0 ? "yes" : "no", heavy, cap);
  float *before = fuzz_alloc_floats (sz.n);
  memcpy (before, h, sz.n * sizeof (float));
  Maps m, untouched;
  maps_alloc (&m, sz.n, which);
  maps_alloc (&untouched, sz.n, 7);

  FuzzProgress prog;
  fuzz_progress_start (&prog, cap);
  const TerrainProgress progress = { fuzz_report, &prog };
  const TerrainStatus status =
    terrain_river_erosion (&p, h, sz.w, sz.h, which ? &m.maps : NULL, &progress);

  fuzz_check_status (status, &prog, valid);
  const size_t n = sz.n;
  if (status == TERRAIN_ERROR_INVALID)
    {
      FUZZ_CHECK (memcmp (before, h, n * sizeof (float)) == 0);
      FUZZ_CHECK (memcmp (m.block, untouched.block, 3 * n * sizeof (float)) == 0);
    }
  if (status == TERRAIN_OK || status == TERRAIN_CANCELLED)
    fuzz_check_finite (h, n);
  /* The analytical method at age 0 leaves the heights as they are, pits and all. */
  const int unchanged = p.method == TERRAIN_RIVER_METHOD_ANALYTICAL && p.age == 0.0;
  if (status == TERRAIN_OK && unchanged)
    FUZZ_CHECK (memcmp (before, h, n * sizeof (float)) == 0);
  if (status == TERRAIN_OK && ! unchanged)
    check_result (&p, h, before, &m.maps, sz.w, sz.h);

  /* Same input, same bits: with every map, on 2 to 4 shuffled threads, one-row strips (a
   * light execution fits its budget twice). */
  if (status == TERRAIN_OK && ! heavy)
    {
      float *again = fuzz_alloc_floats (n);
      memcpy (again, before, n * sizeof (float));
      Maps m2;
      maps_alloc (&m2, n, 7);
      shuffle_state = threads_sel * 2654435761u + 1u;
      const TerrainParallel parallel = { shuffled_run, NULL, 2 + (int) (threads_sel % 3) };
      terrain_set_parallel (&parallel);
      terrain_set_cells_per_strip (1);
      const TerrainStatus s2 = terrain_river_erosion (&p, again, sz.w, sz.h, &m2.maps, NULL);
      terrain_set_parallel (NULL);
      terrain_set_cells_per_strip (0);
      FUZZ_CHECK (s2 == TERRAIN_OK);
      FUZZ_CHECK (memcmp (again, h, n * sizeof (float)) == 0);
      if (m.maps.flow)
        FUZZ_CHECK (memcmp (m.maps.flow, m2.maps.flow, n * sizeof (float)) == 0);
      if (m.maps.erosion)
        FUZZ_CHECK (memcmp (m.maps.erosion, m2.maps.erosion, n * sizeof (float)) == 0);
      if (m.maps.deposition)
        FUZZ_CHECK (memcmp (m.maps.deposition, m2.maps.deposition, n * sizeof (float)) == 0);
      free (again);
      free (m2.block);
    }
  free (m.block);
  free (untouched.block);
  free (before);
  free (h);
  return 0;
}
