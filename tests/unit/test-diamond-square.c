/* Diamond-square: determinism, range, roughness, edge modes, odd sizes. */
#include "check.h"
#include "field-stats.h"
#include "progress-log.h"

#include "diamond-square.h"
#include "heightmap.h"

#include <stdlib.h>

static float *
render (const TerrainDiamondSquare *p, int w, int h)
{
  float *out = malloc ((size_t) w * h * sizeof (float));
  TerrainStatus s = terrain_diamond_square (p, out, w, h, NULL);
  CHECK (s == TERRAIN_OK, "status %d for %dx%d", s, w, h);
  return out;
}

static void
test_determinism_and_range (void)
{
  TerrainDiamondSquare p;
  terrain_diamond_square_defaults (&p);
  p.seed = 1234;
  const int sizes[][2] = { { 257, 257 }, { 256, 256 }, { 300, 200 }, { 1, 1 }, { 1, 37 },
                           { 37, 1 }, { 2, 2 }, { 1000, 3 }, { 129, 513 } };
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (int e = TERRAIN_EDGES_AVERAGE; e <= TERRAIN_EDGES_SHARED_EDGE; e++)
      {
        int w = sizes[s][0], h = sizes[s][1];
        p.edges = (TerrainEdges) e;
        float *a = render (&p, w, h), *b = render (&p, w, h);
        size_t n = (size_t) w * h;
        CHECK (fields_equal (a, b, n), "same seed differs at %dx%d edges %d", w, h, e);
        CHECK (! terrain_has_non_finite (a, n), "NaN/Inf at %dx%d", w, h);
        float lo, hi;
        terrain_min_max (a, n, &lo, &hi);
        CHECK (lo >= 0.0f && hi <= 1.0f, "range [%g, %g] at %dx%d", lo, hi, w, h);
        if (n > 16)
          CHECK (lo == 0.0f && hi == 1.0f, "random corners fill [0,1]: [%g, %g]", lo, hi);
        free (a);
        free (b);
      }
}

static void
test_seed_sensitivity (void)
{
  TerrainDiamondSquare p;
  terrain_diamond_square_defaults (&p);
  float *a = render (&p, 129, 129);
  p.seed = 1;
  float *b = render (&p, 129, 129);
  size_t differ = count_differing (a, b, 129 * 129);
  CHECK (differ > 129 * 129 * 9 / 10, "seeds 0 and 1 differ in only %zu pixels", differ);
  free (a);
  free (b);
}

static void
test_roughness_smooths (void)
{
  const double hs[] = { 0.2, 0.6, 1.0, 1.4 };
  double previous = 1e9;
  for (size_t k = 0; k < 4; k++)
    {
      TerrainDiamondSquare p;
      terrain_diamond_square_defaults (&p);
      p.seed = 77;
      p.roughness = hs[k];
      double g = 0.0;
      for (int s = 0; s < 4; s++) /* average over seeds: min-max scaling is noisy */
        {
          p.seed = 77 + s;
          float *a = render (&p, 257, 257);
          g += mean_abs_gradient (a, 257, 257) / 4;
          free (a);
        }
      CHECK (g < previous, "mean |gradient| %g at H=%g not below %g", g, hs[k], previous);
      previous = g;
    }
}

static void
test_roughness_is_hurst_exponent (void)
{
  const double hs[] = { 0.3, 0.6, 0.9 };
  for (size_t k = 0; k < 3; k++)
    {
      TerrainDiamondSquare p;
      terrain_diamond_square_defaults (&p);
      p.roughness = hs[k];
      /* The classic 2^11+1 lattice, lags 4..32: well inside the fractal range. At H near
       * 1 the slope converges slowly with the number of coarse levels above the lag
       * (H = 0.9 measured 1.59 at 1025^2, 1.69 at 2049^2), hence the larger field. */
      double slope = 0.0;
      for (int s = 0; s < 2; s++)
        {
          p.seed = 900 + s;
          float *a = render (&p, 2049, 2049);
          slope += structure_slope (a, 2049, 2049, 4, 32) / 2;
          free (a);
        }
      CHECK (fabs (slope - 2 * hs[k]) <= 0.15, "structure slope %g, want 2H = %g", slope, 2 * hs[k]);
    }
}

/* Adds the mean step across the seams of a w x h map tiled with itself (last column to
 * first, last row to first) to *seam, and the mean step across its middle to *inside. */
static void
add_seam_steps (const float *a, int w, int h, double *seam, double *inside)
{
  for (int y = 0; y < h; y++)
    {
      *seam += fabs (a[(size_t) y * w] - a[(size_t) y * w + w - 1]) / h;
      *inside += fabs (a[(size_t) y * w + w / 2] - a[(size_t) y * w + w / 2 - 1]) / h;
    }
  for (int x = 0; x < w; x++)
    {
      *seam += fabs (a[x] - a[(size_t) (h - 1) * w + x]) / w;
      *inside += fabs (a[(size_t) (h / 2) * w + x] - a[(size_t) (h / 2 - 1) * w + x]) / w;
    }
}

/* Wrap tiles at the exact layer size: the step across the seam (last column to first,
 * last row to first) is distributed like steps inside. */
static void
test_wrap_is_seamless (void)
{
  const int sizes[][2] = { { 256, 256 }, { 300, 200 }, { 257, 129 } };
  for (size_t s = 0; s < 3; s++)
    {
      int w = sizes[s][0], h = sizes[s][1];
      TerrainDiamondSquare p;
      terrain_diamond_square_defaults (&p);
      p.edges = TERRAIN_EDGES_WRAP;
      double seam = 0.0, inside = 0.0;
      for (int seed = 0; seed < 8; seed++)
        {
          p.seed = seed;
          float *a = render (&p, w, h);
          add_seam_steps (a, w, h, &seam, &inside);
          free (a);
        }
      CHECK (seam < 1.5 * inside && seam > 0.5 * inside,
             "%dx%d: seam step %g vs inside %g", w, h, seam, inside);
    }
  /* Without wrap the seam is a jump between unrelated sides. */
  TerrainDiamondSquare p;
  terrain_diamond_square_defaults (&p);
  double seam = 0.0, inside = 0.0;
  for (int seed = 0; seed < 8; seed++)
    {
      p.seed = seed;
      float *a = render (&p, 256, 256);
      for (int y = 0; y < 256; y++)
        {
          seam += fabs (a[(size_t) y * 256] - a[(size_t) y * 256 + 255]);
          inside += fabs (a[(size_t) y * 256 + 128] - a[(size_t) y * 256 + 127]);
        }
      free (a);
    }
  CHECK (seam > 3 * inside, "average edges: seam %g should be much larger than inside %g", seam, inside);
}

static void
test_edge_modes_differ_at_border_only_there (void)
{
  TerrainDiamondSquare p;
  terrain_diamond_square_defaults (&p);
  p.seed = 5;
  float *avg = render (&p, 129, 129);
  p.edges = TERRAIN_EDGES_MIRROR;
  float *mir = render (&p, 129, 129);
  int border_diff = 0;
  for (int x = 0; x < 129; x++)
    border_diff += avg[x] != mir[x] || avg[128 * 129 + x] != mir[128 * 129 + x];
  CHECK (border_diff > 64, "mirror and average agree on %d of 129 border pixels", 129 - border_diff);
  free (avg);
  free (mir);
}

static void
test_fixed_corners (void)
{
  TerrainDiamondSquare p;
  terrain_diamond_square_defaults (&p);
  p.corners = TERRAIN_CORNERS_FIXED;
  p.corner_height = 0.25;
  float *a = render (&p, 129, 129);
  CHECK (fabsf (a[0] - 0.25f) < 1e-6f && fabsf (a[128] - 0.25f) < 1e-6f &&
         fabsf (a[128 * 129] - 0.25f) < 1e-6f && fabsf (a[129 * 129 - 1] - 0.25f) < 1e-6f,
         "corners %g %g %g %g", a[0], a[128], a[128 * 129], a[129 * 129 - 1]);
  free (a);
}

static void
test_invalid_parameters (void)
{
  TerrainDiamondSquare p;
  terrain_diamond_square_defaults (&p);
  float out[4];
  p.roughness = 2.5;
  CHECK (terrain_diamond_square (&p, out, 2, 2, NULL) == TERRAIN_ERROR_INVALID, "roughness 2.5");
  p.roughness = NAN;
  CHECK (terrain_diamond_square (&p, out, 2, 2, NULL) == TERRAIN_ERROR_INVALID, "roughness NaN");
  terrain_diamond_square_defaults (&p);
  CHECK (terrain_diamond_square (&p, out, 0, 2, NULL) == TERRAIN_ERROR_INVALID, "width 0");
  p.corner_height = -0.1;
  CHECK (terrain_diamond_square (&p, out, 2, 2, NULL) == TERRAIN_ERROR_INVALID, "corner height");
}

static void
test_cancel (void)
{
  TerrainDiamondSquare p;
  terrain_diamond_square_defaults (&p);
  TerrainProgress progress = { cancel_at_half, NULL };
  float *out = malloc (513 * 513 * sizeof (float));
  CHECK (terrain_diamond_square (&p, out, 513, 513, &progress) == TERRAIN_CANCELLED, "not cancelled");
  free (out);
}

/* Square-square: deterministic, in range at every size and edge mode, tiles with wrap,
 * and has no border rule (average == mirror). */
static void
test_square_square_basics (void)
{
  const int sizes[][2] = { { 1, 1 }, { 2, 2 }, { 3, 40 }, { 257, 129 }, { 300, 200 }, { 256, 256 } };
  TerrainDiamondSquare p;
  terrain_diamond_square_defaults (&p);
  p.subdivision = TERRAIN_SUBDIVISION_SQUARE_SQUARE;
  p.seed = 44;
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (int e = TERRAIN_EDGES_AVERAGE; e <= TERRAIN_EDGES_MIRROR; e++)
      {
        int w = sizes[s][0], h = sizes[s][1];
        size_t n = (size_t) w * h;
        p.edges = (TerrainEdges) e;
        float *a = render (&p, w, h), *b = render (&p, w, h);
        float lo, hi;
        terrain_min_max (a, n, &lo, &hi);
        CHECK (fields_equal (a, b, n), "square-square %dx%d edges %d not deterministic", w, h, e);
        CHECK (! terrain_has_non_finite (a, n) && lo >= 0.0f && hi <= 1.0f,
               "square-square %dx%d: range [%g, %g]", w, h, lo, hi);
        free (a);
        free (b);
      }
  p.edges = TERRAIN_EDGES_AVERAGE;
  float *average = render (&p, 129, 129);
  p.edges = TERRAIN_EDGES_MIRROR;
  float *mirror = render (&p, 129, 129);
  CHECK (fields_equal (average, mirror, 129 * 129), "square-square has no border rule");
  TerrainDiamondSquare ds = p;
  ds.subdivision = TERRAIN_SUBDIVISION_DIAMOND_SQUARE;
  float *classic = render (&ds, 129, 129);
  CHECK (count_differing (average, classic, 129 * 129) > 129 * 129 / 2, "square-square is diamond-square");
  free (average);
  free (mirror);
  free (classic);

  p.edges = TERRAIN_EDGES_WRAP;
  float *a = render (&p, 256, 256);
  double seam = 0.0, inside = 0.0;
  for (int y = 0; y < 256; y++)
    {
      seam += fabs (a[(size_t) y * 256] - a[(size_t) y * 256 + 255]);
      inside += fabs (a[(size_t) y * 256 + 128] - a[(size_t) y * 256 + 127]);
    }
  CHECK (seam < 1.5 * inside && seam > 0.5 * inside, "square-square wrap seam %g vs inside %g", seam, inside);
  free (a);
}

/* Miller 1986: diamond-square creases along the axes; square-square does not. Measured as
 * axis to diagonal difference energy at equal distances (1 = isotropic). */
static void
test_square_square_has_fewer_creases (void)
{
  const double hs[] = { 1.0, 1.5 };
  for (size_t k = 0; k < 2; k++)
    {
      double ratio[2] = { 0.0, 0.0 };
      for (int s = 0; s < 2; s++)
        {
          TerrainDiamondSquare p;
          terrain_diamond_square_defaults (&p);
          p.roughness = hs[k];
          p.subdivision = (TerrainSubdivision) s;
          for (int seed = 0; seed < 3; seed++)
            {
              p.seed = seed;
              float *a = render (&p, 1025, 1025);
              ratio[s] += axis_to_diagonal_energy (a, 1025, 1025) / 3;
              free (a);
            }
        }
      printf ("crease ratio (axes / diagonals, 1 = isotropic) at H = %.1f: diamond-square %.4f, "
              "square-square %.4f\n", hs[k], ratio[0], ratio[1]);
      CHECK (fabs (ratio[1] - 1.0) < fabs (ratio[0] - 1.0),
             "H=%g: square-square %g is not closer to 1 than diamond-square %g", hs[k], ratio[1], ratio[0]);
      CHECK (ratio[0] > 1.02, "H=%g: diamond-square should crease along the axes: %g", hs[k], ratio[0]);
    }
}

/* The lighthouse3d code's MPD: one offset range for both steps of a level, i.e. larger
 * square-step offsets than the default, so a rougher result. */
static void
test_lighthouse_code_convention (void)
{
  TerrainDiamondSquare p;
  terrain_diamond_square_defaults (&p);
  p.seed = 8;
  float *voss = render (&p, 257, 257);
  p.square_half_step = 0;
  float *mpd = render (&p, 257, 257);
  CHECK (count_differing (voss, mpd, 257 * 257) > 257 * 257 / 2, "square_half_step has no effect");
  CHECK (mean_abs_gradient (mpd, 257, 257) > mean_abs_gradient (voss, 257, 257),
         "one range for both steps should be rougher");
  free (voss);
  free (mpd);
}

/* A painted blob as guide comes out as a mountain where the blob was, with fractal detail
 * as rough as an unguided render's. */
static void
test_guided_generation (void)
{
  const int n = 257;
  const size_t size = (size_t) n * n;
  float *guide = gaussian_blob (n, n, 150.0, 110.0, 45.0);
  TerrainDiamondSquare p;
  terrain_diamond_square_defaults (&p);
  p.seed = 21;
  float *plain = render (&p, n, n);
  p.guide = guide;
  p.guide_scale = 32;
  float *guided = render (&p, n, n), *again = render (&p, n, n);
  CHECK (fields_equal (guided, again, size), "guided render not deterministic");

  float *low_result = malloc (size * sizeof (float)), *low_guide = malloc (size * sizeof (float));
  box_blur (guided, n, n, 12, low_result);
  box_blur (guide, n, n, 12, low_guide);
  const double r = correlation (low_result, low_guide, size);
  const double rough_guided = fine_roughness (guided, n, n, 4), rough_plain = fine_roughness (plain, n, n, 4);
  printf ("guided diamond-square: low-pass correlation with the guide %.3f; fine roughness %.4f "
          "(unguided %.4f)\n", r, rough_guided, rough_plain);
  CHECK (r > 0.9, "low-pass correlation with the guide %g", r);
  CHECK (rough_guided > 0.5 * rough_plain && rough_guided < 2.0 * rough_plain,
         "fine roughness %g vs unguided %g", rough_guided, rough_plain);

  /* The peak of the result sits where the blob was painted. */
  size_t top = 0;
  for (size_t i = 1; i < size; i++)
    top = low_result[i] > low_result[top] ? i : top;
  const double dx = (double) (top % n) - 150.0, dy = (double) (top / n) - 110.0;
  CHECK (sqrt (dx * dx + dy * dy) < 30.0, "the mountain is at (%zu, %zu), the blob at (150, 110)",
         top % n, top / n);

  p.subdivision = TERRAIN_SUBDIVISION_SQUARE_SQUARE;
  CHECK (terrain_diamond_square (&p, guided, n, n, NULL) == TERRAIN_ERROR_INVALID,
         "a guide with square-square is refused");
  free (low_result);
  free (low_guide);
  free (guide);
  free (plain);
  free (guided);
  free (again);
}

/* Shared edge at engine sizes (Unity 513, Unreal 1009), a non-square odd size, tiny sizes,
 * with square-square and with a guide: the last column and row are the first, bit for bit,
 * the period block is wrap's render at its size, and 2 x 2 copies of the block join
 * seamlessly (the seam's steps like the steps inside, over 8 seeds). */
static void
test_shared_edge (void)
{
  const int sizes[][3] = { { 513, 513, 1 }, { 1009, 1009, 1 }, { 301, 203, 1 }, { 2, 2, 0 },
                           { 1, 5, 0 }, { 5, 1, 0 }, { 2, 7, 0 }, { 3, 3, 0 } };
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    {
      const int w = sizes[s][0], h = sizes[s][1], seeds = sizes[s][2] ? 8 : 1;
      TerrainDiamondSquare p;
      terrain_diamond_square_defaults (&p);
      double seam = 0.0, inside = 0.0;
      for (int seed = 0; seed < seeds; seed++)
        {
          int pw, ph;
          p.seed = seed;
          p.subdivision = seed % 4 == 3 ? TERRAIN_SUBDIVISION_SQUARE_SQUARE
                                        : TERRAIN_SUBDIVISION_DIAMOND_SQUARE;
          p.edges = TERRAIN_EDGES_SHARED_EDGE;
          float *a = render (&p, w, h), *block = period_block (a, w, h, &pw, &ph);
          p.edges = TERRAIN_EDGES_WRAP;
          float *wrapped = render (&p, pw, ph);
          CHECK (shared_edges_equal (a, w, h), "%dx%d seed %d: last row/column differ from the "
                 "first", w, h, seed);
          CHECK (fields_equal (block, wrapped, (size_t) pw * ph),
                 "%dx%d seed %d: the period block is not wrap's render", w, h, seed);
          if (sizes[s][2]) /* the sizes whose seam is measured: 2 or more a side */
            add_seam_steps (block, pw, ph, &seam, &inside);
          free (a);
          free (block);
          free (wrapped);
        }
      if (sizes[s][2])
        CHECK (seam < 1.5 * inside && seam > 0.5 * inside,
               "%dx%d shared edge: seam step %g vs inside %g", w, h, seam, inside);
    }
}

/* Shared edge with a guide and with fixed corners: still tiles, and the guide's last column
 * and row are not read. */
static void
test_shared_edge_guided (void)
{
  const int w = 513, h = 385;
  float *guide = gaussian_blob (w, h, 200.0, 150.0, 60.0);
  TerrainDiamondSquare p;
  terrain_diamond_square_defaults (&p);
  p.edges = TERRAIN_EDGES_SHARED_EDGE;
  p.guide = guide;
  p.guide_scale = 64;
  float *a = render (&p, w, h);
  for (int y = 0; y < h; y++)
    guide[(size_t) y * w + w - 1] = 1.0f;
  for (int x = 0; x < w; x++)
    guide[(size_t) (h - 1) * w + x] = 1.0f;
  float *b = render (&p, w, h);
  CHECK (shared_edges_equal (a, w, h), "guided: the last row/column differ from the first");
  CHECK (fields_equal (a, b, (size_t) w * h), "guided: the guide's last row/column were read");
  p.guide = NULL;
  p.corners = TERRAIN_CORNERS_FIXED;
  float *c = render (&p, w, h);
  CHECK (shared_edges_equal (c, w, h), "fixed corners: the last row/column differ from the first");
  free (guide);
  free (a);
  free (b);
  free (c);
}

int
main (void)
{
  test_determinism_and_range ();
  test_seed_sensitivity ();
  test_roughness_smooths ();
  test_roughness_is_hurst_exponent ();
  test_wrap_is_seamless ();
  test_shared_edge ();
  test_shared_edge_guided ();
  test_edge_modes_differ_at_border_only_there ();
  test_fixed_corners ();
  test_invalid_parameters ();
  test_cancel ();
  test_square_square_basics ();
  test_square_square_has_fewer_creases ();
  test_lighthouse_code_convention ();
  test_guided_generation ();
  return CHECK_DONE ("diamond-square");
}
