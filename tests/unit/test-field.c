/* Infinite diamond-square field: position-keyed values (any rectangle, any offset, bands),
 * fixed output mapping, roughness and iterations, errors, cancellation, speed; guided
 * generation (a painted guide as the coarse shape). */
#include "check.h"
#include "field-stats.h"
#include "progress-log.h"
#include "timing.h"

#include "field.h"
#include "heightmap.h"
#include "random.h"

#include <stdint.h>
#include <stdlib.h>

static float *
render_at (const TerrainField *base, int32_t x, int32_t y, int w, int h)
{
  TerrainField p = *base;
  p.offset_x = x;
  p.offset_y = y;
  float *out = malloc ((size_t) w * h * sizeof (float));
  TerrainStatus s = terrain_field (&p, out, w, h, NULL);
  CHECK (s == TERRAIN_OK, "status %d for %dx%d at (%d, %d)", s, w, h, (int) x, (int) y);
  return out;
}

/* 1 when the small rectangle (sx, sy, sw, sh) equals the same world pixels of the big
 * one (bx, by, bw, ...), bit for bit. */
static int
same_world_pixels (const float *big, int64_t bx, int64_t by, int bw,
                   const float *small, int64_t sx, int64_t sy, int sw, int sh)
{
  for (int y = 0; y < sh; y++)
    for (int x = 0; x < sw; x++)
      {
        const float a = big[(size_t) (sy + y - by) * bw + (size_t) (sx + x - bx)];
        const float b = small[(size_t) y * sw + x];
        if (memcmp (&a, &b, sizeof a) != 0)
          return 0;
      }
  return 1;
}

static void
check_contained (const TerrainField *p, int32_t bx, int32_t by, int bw, int bh,
                 int32_t sx, int32_t sy, int sw, int sh)
{
  float *big = render_at (p, bx, by, bw, bh), *small = render_at (p, sx, sy, sw, sh);
  CHECK (same_world_pixels (big, bx, by, bw, small, sx, sy, sw, sh),
         "%dx%d at (%d, %d) differs from %dx%d at (%d, %d), iterations %d",
         sw, sh, (int) sx, (int) sy, bw, bh, (int) bx, (int) by, p->iterations);
  free (big);
  free (small);
}

static void
test_determinism_range (void)
{
  const int sizes[][2] = { { 1, 1 }, { 2, 2 }, { 37, 53 }, { 256, 256 }, { 1000, 3 }, { 3, 700 } };
  const double hs[] = { 0.0, 0.5, 1.0, 2.0 };
  const int its[] = { 1, 4, 9, 30 };
  for (size_t s = 0; s < 6; s++)
    for (size_t k = 0; k < 4; k++)
      {
        TerrainField p;
        terrain_field_defaults (&p);
        p.seed = 1234;
        p.roughness = hs[k];
        p.iterations = its[k];
        const int w = sizes[s][0], h = sizes[s][1];
        const size_t n = (size_t) w * h;
        float *a = render_at (&p, -17, 5, w, h), *b = render_at (&p, -17, 5, w, h);
        CHECK (fields_equal (a, b, n), "same params differ at %dx%d", w, h);
        CHECK (! terrain_has_non_finite (a, n), "NaN/Inf at %dx%d", w, h);
        float lo, hi;
        terrain_min_max (a, n, &lo, &hi);
        CHECK (lo >= 0.0f && hi <= 1.0f, "range [%g, %g] at %dx%d H=%g", lo, hi, w, h, hs[k]);
        free (a);
        free (b);
      }
}

static void
test_seed_sensitivity (void)
{
  TerrainField p;
  terrain_field_defaults (&p);
  float *a = render_at (&p, 0, 0, 129, 129);
  p.seed = 1;
  float *b = render_at (&p, 0, 0, 129, 129);
  size_t differ = count_differing (a, b, 129 * 129);
  CHECK (differ > 129 * 129 * 9 / 10, "seeds 0 and 1 differ in only %zu pixels", differ);
  free (a);
  free (b);
}

static void
test_overlap_identity (void)
{
  TerrainField p;
  terrain_field_defaults (&p);
  p.seed = 42;
  p.iterations = 10;
  check_contained (&p, 0, 0, 1024, 512, 512, 0, 512, 512);
  check_contained (&p, -350, -100, 400, 200, -300, -77, 37, 53);
  check_contained (&p, -350, -100, 400, 200, -301, -78, 38, 54);
  check_contained (&p, 0, 0, 300, 300, 1, 1, 37, 53);

  const int32_t far = INT32_C (1) << 30;
  p.iterations = 30;
  check_contained (&p, far - 200, -far - 100, 400, 300, far - 3, -far + 7, 37, 53);
  check_contained (&p, -far - 150, far - 90, 300, 180, -far - 2, far - 1, 99, 61);
  p.iterations = 12;
  check_contained (&p, far - 200, -far - 100, 400, 300, far, -far, 64, 64);
  /* The very edges of the coordinate range. */
  check_contained (&p, INT32_MAX - 299, INT32_MIN, 300, 200, INT32_MAX - 36, INT32_MIN + 3, 37, 53);

  /* Single pixels, at every parity, against a block. */
  p.iterations = 7;
  float *big = render_at (&p, -40, -40, 80, 80);
  int    ok = 1;
  for (int32_t y = -40; y < 40; y += 7)
    for (int32_t x = -40; x < 40; x += 3)
      {
        float *one = render_at (&p, x, y, 1, 1);
        ok &= same_world_pixels (big, -40, -40, 80, one, x, y, 1, 1);
        free (one);
      }
  CHECK (ok, "1x1 renders differ from the block");
  free (big);
}

/* Renders the w x h world rectangle at (x0, y0) in bands of 128, 1 and 77 rows and in
 * 128 x 128 tiles (the last ones partial), and checks each equals `whole`, one call's
 * render of it. `label` prefixes the messages. */
static void
check_bands_and_tiles (const TerrainField *p, const float *whole, int32_t x0, int32_t y0,
                       int w, int h, const char *label)
{
  float *banded = malloc ((size_t) w * h * sizeof (float));
  const int band_heights[] = { 128, 1, 77 };
  for (size_t b = 0; b < 3; b++)
    {
      int ok = 1;
      for (int y = 0; y < h; y += band_heights[b])
        {
          TerrainField band = *p;
          band.offset_x = x0;
          band.offset_y = y0 + y;
          const int bh = y + band_heights[b] <= h ? band_heights[b] : h - y;
          ok &= terrain_field (&band, banded + (size_t) y * w, w, bh, NULL) == TERRAIN_OK;
        }
      CHECK (ok && fields_equal (whole, banded, (size_t) w * h),
             "%sbands of %d rows differ from one render", label, band_heights[b]);
    }
  int ok = 1;
  for (int ty = 0; ty < h; ty += 128)
    for (int tx = 0; tx < w; tx += 128)
      {
        const int tw = tx + 128 <= w ? 128 : w - tx, th = ty + 128 <= h ? 128 : h - ty;
        float *tile = render_at (p, x0 + tx, y0 + ty, tw, th);
        ok &= same_world_pixels (whole, x0, y0, w, tile, x0 + tx, y0 + ty, tw, th);
        free (tile);
      }
  CHECK (ok, "%s128x128 tiles differ from one render", label);
  free (banded);
}

/* A big layer rendered in bands (and in tiles) equals one call. */
static void
test_bands (void)
{
  TerrainField p;
  terrain_field_defaults (&p);
  p.seed = 9;
  p.iterations = 10;
  const int w = 700, h = 1000;
  const int32_t x0 = -123, y0 = 4567;
  float *whole = render_at (&p, x0, y0, w, h);
  check_bands_and_tiles (&p, whole, x0, y0, w, h, "");
  free (whole);
}

/* No drift with position: tiles side by side, and far away, have the same statistics
 * (averaged over 4 seeds: one 1024^2 tile holds only 32 x 32 largest features). */
static void
tile_statistics (TerrainField p, int32_t x, double *mean, double *variance)
{
  const size_t n = 1024 * 1024;
  *mean = *variance = 0.0;
  for (int s = 0; s < 4; s++)
    {
      p.seed = 3 + s;
      float *t = render_at (&p, x, 0, 1024, 1024);
      *mean += field_mean (t, n) / 4;
      *variance += field_variance (t, n) / 4;
      free (t);
    }
}

static void
test_tile_statistics (void)
{
  TerrainField p;
  terrain_field_defaults (&p);
  p.iterations = 5;
  const int32_t xs[] = { 1024, -1024, 1 << 30, -(1 << 30) };
  double m0, v0;
  tile_statistics (p, 0, &m0, &v0);
  for (size_t k = 0; k < 4; k++)
    {
      double m, v;
      tile_statistics (p, xs[k], &m, &v);
      printf ("  tile at x=%d: mean %.4f var %.5f (tile at 0: %.4f %.5f)\n", (int) xs[k], m, v,
              m0, v0);
      CHECK (fabs (m - m0) < 0.02 && v / v0 > 0.85 && v / v0 < 1.15,
             "tile at x=%d: mean %g var %g vs tile (0,0): mean %g var %g",
             (int) xs[k], m, v, m0, v0);
    }
}

/* The fixed mapping puts 3 standard deviations at 0 and 1: E[(out - 0.5)^2] = 1/36. */
static void
test_output_scale (void)
{
  const double hs[] = { 0.0, 0.3, 1.0, 2.0 };
  const int its[] = { 5, 6, 6, 4 };
  for (size_t k = 0; k < 4; k++)
    {
      TerrainField p;
      terrain_field_defaults (&p);
      p.roughness = hs[k];
      p.iterations = its[k];
      double ms = 0.0, clamped = 0.0;
      const size_t n = 1024 * 1024;
      for (int s = 0; s < 4; s++)
        {
          p.seed = 500 + s;
          float *a = render_at (&p, 0, 0, 1024, 1024);
          for (size_t i = 0; i < n; i++)
            {
              ms += (a[i] - 0.5) * (a[i] - 0.5) / (4.0 * n);
              clamped += (a[i] == 0.0f || a[i] == 1.0f) / (4.0 * n);
            }
          free (a);
        }
      printf ("  output scale H=%.1f N=%d: std %.4f (want %.4f), clamped %.3f%%\n",
              hs[k], its[k], sqrt (ms), 1.0 / 6.0, 100.0 * clamped);
      CHECK (fabs (sqrt (ms) * 6.0 - 1.0) < 0.06, "H=%g: output std %g, want 1/6", hs[k], sqrt (ms));
      CHECK (clamped < 0.01, "H=%g: %g of the pixels clamped", hs[k], clamped);
    }
}

static void
test_roughness_is_hurst_exponent (void)
{
  const double hs[] = { 0.3, 0.6, 0.9 };
  for (size_t k = 0; k < 3; k++)
    {
      TerrainField p;
      terrain_field_defaults (&p);
      p.roughness = hs[k];
      p.iterations = 12;
      double slope = 0.0;
      for (int s = 0; s < 4; s++)
        {
          p.seed = 900 + s;
          float *a = render_at (&p, 4096 * s, 0, 1024, 1024);
          slope += structure_slope (a, 1024, 1024, 4, 32) / 4;
          free (a);
        }
      printf ("  structure slope H=%.1f: %.3f (want %.1f)\n", hs[k], slope, 2 * hs[k]);
      CHECK (fabs (slope - 2 * hs[k]) <= 0.15, "structure slope %g, want 2H = %g", slope, 2 * hs[k]);
    }
}

/* More iterations = larger features = smoother at pixel scale. */
static void
test_iterations_set_feature_size (void)
{
  double previous = 1e9;
  for (int n = 3; n <= 11; n += 2)
    {
      TerrainField p;
      terrain_field_defaults (&p);
      p.iterations = n;
      double g = 0.0;
      for (int s = 0; s < 2; s++)
        {
          p.seed = 70 + s;
          float *a = render_at (&p, 0, 0, 512, 512);
          g += mean_abs_gradient (a, 512, 512) / 2;
          free (a);
        }
      CHECK (g < 0.8 * previous, "mean |gradient| %g at iterations %d, not below %g", g, n, previous);
      previous = g;
    }
}

static void
test_invalid_parameters (void)
{
  TerrainField p;
  float out[4];
  terrain_field_defaults (&p);
  CHECK (terrain_field (&p, out, 2, 2, NULL) == TERRAIN_OK, "defaults");
  p.iterations = 0;
  CHECK (terrain_field (&p, out, 2, 2, NULL) == TERRAIN_ERROR_INVALID, "iterations 0");
  p.iterations = 31;
  CHECK (terrain_field (&p, out, 2, 2, NULL) == TERRAIN_ERROR_INVALID, "iterations 31");
  terrain_field_defaults (&p);
  p.roughness = -0.1;
  CHECK (terrain_field (&p, out, 2, 2, NULL) == TERRAIN_ERROR_INVALID, "roughness -0.1");
  p.roughness = 2.5;
  CHECK (terrain_field (&p, out, 2, 2, NULL) == TERRAIN_ERROR_INVALID, "roughness 2.5");
  p.roughness = NAN;
  CHECK (terrain_field (&p, out, 2, 2, NULL) == TERRAIN_ERROR_INVALID, "roughness NaN");
  terrain_field_defaults (&p);
  CHECK (terrain_field (&p, out, 0, 2, NULL) == TERRAIN_ERROR_INVALID, "width 0");
  CHECK (terrain_field (&p, out, 2, -1, NULL) == TERRAIN_ERROR_INVALID, "height -1");
  p.offset_x = INT32_MAX;
  CHECK (terrain_field (&p, out, 2, 2, NULL) == TERRAIN_ERROR_INVALID, "past INT32_MAX");
  CHECK (terrain_field (&p, out, 1, 2, NULL) == TERRAIN_OK, "last column");
}

static void
test_progress_and_cancel (void)
{
  TerrainField p;
  terrain_field_defaults (&p);
  float *out = malloc (513 * 513 * sizeof (float));
  ProgressLog log = progress_log (2.0);
  TerrainProgress progress = { log_progress, &log };
  CHECK (terrain_field (&p, out, 513, 513, &progress) == TERRAIN_OK, "with progress");
  CHECK (log.monotone && log.last == 1.0 && log.calls > 5, "progress: %d calls, last %g",
         log.calls, log.last);
  log = progress_log (0.5);
  CHECK (terrain_field (&p, out, 513, 513, &progress) == TERRAIN_CANCELLED, "not cancelled");
  CHECK (log.last < 0.7, "cancel honoured late, at %g", log.last);
  free (out);
}

/* ---- Guided generation ---- */


static void
guide_set (TerrainField *p, const float *g, int w, int h, int32_t x, int32_t y, int scale)
{
  p->guide = g;
  p->guide_width = w;
  p->guide_height = h;
  p->guide_x = x;
  p->guide_y = y;
  p->guide_scale = scale;
}

/* guide == NULL is today's field, whatever the other guide fields hold. */
static void
test_guide_none (void)
{
  TerrainField p;
  terrain_field_defaults (&p);
  CHECK (p.guide == NULL, "defaults set a guide");
  p.seed = 31;
  p.iterations = 9;
  float *a = render_at (&p, -40, 17, 300, 200);
  guide_set (&p, NULL, 0, -5, 12345, -678, 0);
  float *b = render_at (&p, -40, 17, 300, 200);
  CHECK (fields_equal (a, b, 300 * 200), "guide NULL with junk guide fields changes the field");
  free (a);
  free (b);
}

/* A painted blob gives the coarse shape; the fine detail stays that of the plain field. */
static void
test_guide_blob (void)
{
  const int n = 256;
  const size_t count = (size_t) n * n;
  float *g = gaussian_blob (n, n, 128.0, 128.0, 30.0);
  float *g_low = malloc (count * sizeof (float)), *low = malloc (count * sizeof (float));
  box_blur (g, n, n, 16, g_low);
  double corr_sum = 0.0, ratio_sum = 0.0, corr_min = 1.0, ratio_min = 1e9, ratio_max = 0.0;
  const int seeds = 4;
  for (int s = 0; s < seeds; s++)
    {
      TerrainField p;
      terrain_field_defaults (&p);
      p.seed = 2024 + s;
      p.roughness = 1.0;
      p.iterations = 8;
      float *plain = render_at (&p, 0, 0, n, n);
      guide_set (&p, g, n, n, 0, 0, 32);
      float *guided = render_at (&p, 0, 0, n, n);
      box_blur (guided, n, n, 16, low);
      const double corr = correlation (low, g_low, count);
      const double rough = fine_roughness (guided, n, n, 16);
      const double rough_plain = fine_roughness (plain, n, n, 16);
      const double ratio = rough / rough_plain;
      printf ("  guide blob seed %d: low-pass correlation %.4f, fine roughness %.5f vs plain "
              "%.5f (ratio %.3f)\n", (int) p.seed, corr, rough, rough_plain, ratio);
      CHECK (corr > 0.9, "seed %u: low-pass correlation with the guide %g", p.seed, corr);
      CHECK (ratio >= 0.5 && ratio <= 2.0, "seed %u: fine roughness %g vs plain %g", p.seed,
             rough, rough_plain);
      CHECK (! terrain_has_non_finite (guided, count), "seed %u: NaN/Inf", p.seed);
      corr_sum += corr / seeds;
      ratio_sum += ratio / seeds;
      corr_min = corr < corr_min ? corr : corr_min;
      ratio_min = ratio < ratio_min ? ratio : ratio_min;
      ratio_max = ratio > ratio_max ? ratio : ratio_max;
      free (plain);
      free (guided);
    }
  printf ("  guide blob: mean correlation %.4f (min %.4f), mean roughness ratio %.3f "
          "(%.3f .. %.3f)\n", corr_sum, corr_min, ratio_sum, ratio_min, ratio_max);

  /* guide_scale 1: the output is the guide itself (through the mapping and back). */
  TerrainField p;
  terrain_field_defaults (&p);
  guide_set (&p, g, n, n, 0, 0, 1);
  float *same = render_at (&p, 0, 0, n, n);
  double worst = 0.0;
  for (size_t i = 0; i < count; i++)
    worst = fabs (same[i] - g[i]) > worst ? fabs (same[i] - g[i]) : worst;
  CHECK (worst < 1e-5, "guide_scale 1 is %g away from the guide", worst);
  free (same);

  /* Outside the guide its edge pixels extend outwards: far away the guided level is the
   * edge value, 0.2 (the blob has faded there), and the zero-mean detail keeps the mean. */
  p.iterations = 6;
  p.guide_scale = 64;
  p.seed = 5;
  double far_mean = 0.0;
  for (int k = 0; k < 4; k++)
    {
      float *far = render_at (&p, 100000 + 1024 * k, -50000, 512, 512);
      far_mean += field_mean (far, 512 * 512) / 4;
      free (far);
    }
  printf ("  guide edge extension: mean far from the guide %.4f (edge value 0.2)\n", far_mean);
  CHECK (fabs (far_mean - 0.2) < 0.03, "far from the guide the mean is %g, not 0.2", far_mean);

  free (g);
  free (g_low);
  free (low);
}

/* The nodes of the guided level keep their value through every refinement, so the output
 * pixel at such a node is the guide's box mean there: check it against a direct sum over
 * the (s+1) x (s+1) window of weights (1/2, 1, ..., 1, 1/2) per axis, reading positions
 * outside the guide from its nearest edge pixel. */
static double
guide_test_box_mean (const float *g, int gw, int gh, int64_t x, int64_t y, int s)
{
  const int h = s / 2;
  double    sum = 0.0;
  for (int dy = -h; dy <= h; dy++)
    for (int dx = -h; dx <= h; dx++)
      {
        const double  wy = s > 1 && (dy == -h || dy == h) ? 0.5 : 1.0;
        const double  wx = s > 1 && (dx == -h || dx == h) ? 0.5 : 1.0;
        const int64_t cx = x + dx < 0 ? 0 : x + dx >= gw ? gw - 1 : x + dx;
        const int64_t cy = y + dy < 0 ? 0 : y + dy >= gh ? gh - 1 : y + dy;
        sum += wx * wy * g[cy * gw + cx];
      }
  return sum / ((double) s * s);
}

static void
test_guide_node_values (void)
{
  const int gw = 50, gh = 40;
  const int32_t gx = 13, gy = -7;
  float *g = malloc ((size_t) gw * gh * sizeof (float));
  for (int i = 0; i < gw * gh; i++)
    g[i] = (float) (terrain_hash (7, i, 0, 0) >> 8) / 16777216.0f;
  const int scales[] = { 1, 2, 4, 8, 16, 64 };
  const int32_t rx = -100, ry = -90;
  const int rw = 250, rh = 210;
  for (size_t k = 0; k < 6; k++)
    {
      const int s = scales[k];
      TerrainField p;
      terrain_field_defaults (&p);
      p.iterations = 6;
      p.seed = 3;
      guide_set (&p, g, gw, gh, gx, gy, s);
      float *a = render_at (&p, rx, ry, rw, rh);
      double worst = 0.0;
      int    nodes = 0;
      for (int y = 0; y < rh; y++)
        for (int x = 0; x < rw; x++)
          {
            const int64_t wx = (int64_t) rx + x, wy = (int64_t) ry + y;
            if ((wx % s + s) % s != 0 || (wy % s + s) % s != 0)
              continue;
            const double want = guide_test_box_mean (g, gw, gh, wx - gx, wy - gy, s);
            const double err = fabs (a[(size_t) y * rw + x] - want);
            worst = err > worst ? err : worst;
            nodes++;
          }
      CHECK (nodes > 0 && worst < 2e-6, "guide_scale %d: %d node pixels, %g off the box mean",
             s, nodes, worst);
      free (a);
    }
  free (g);
}

/* Bands, tiles and sub-rectangles of a guided field equal one call, bit for bit, with the
 * guide at the layer's offset, partly outside the rendered rectangle, at several scales. */
static void
test_guide_bands (void)
{
  const int w = 700, h = 1000, gw = 600, gh = 900;
  const int32_t x0 = -123, y0 = 4567;
  float *g = gaussian_blob (gw, gh, 250.0, 400.0, 120.0);
  g[0] = 1.0f; /* some sharp pixels, to catch any box misalignment */
  g[(size_t) 321 * gw + 77] = 0.0f;
  const int scales[] = { 1, 3, 32, 100, 5000 };
  for (size_t k = 0; k < 5; k++)
    {
      TerrainField p;
      terrain_field_defaults (&p);
      p.seed = 9;
      p.iterations = 10;
      guide_set (&p, g, gw, gh, x0 + 40, y0 + 30, scales[k]);
      float *whole = render_at (&p, x0, y0, w, h);
      char label[32];
      snprintf (label, sizeof label, "guide_scale %d: ", scales[k]);
      check_bands_and_tiles (&p, whole, x0, y0, w, h, label);
      float lo, hi;
      terrain_min_max (whole, (size_t) w * h, &lo, &hi);
      CHECK (lo >= 0.0f && hi <= 1.0f, "guide_scale %d: range [%g, %g]", scales[k], lo, hi);
      free (whole);
      check_contained (&p, x0 - 500, y0 - 300, 400, 350, x0 - 333, y0 - 111, 37, 53);
      check_contained (&p, x0 + 650, y0 + 900, 200, 300, x0 + 651, y0 + 901, 1, 1);
    }
  /* Far from the origin, a guide near the int32 limits. */
  TerrainField p;
  terrain_field_defaults (&p);
  p.iterations = 30;
  guide_set (&p, g, gw, gh, INT32_MAX - gw + 1, INT32_MIN, 64);
  check_contained (&p, INT32_MAX - 299, INT32_MIN, 300, 200, INT32_MAX - 36, INT32_MIN + 3, 37, 53);
  free (g);
}

/* guide_scale above 2^N is capped to 2^N: level 0 comes from the guide, every level adds
 * detail. */
static void
test_guide_scale_above_top (void)
{
  const int n = 256;
  float *g = gaussian_blob (n, n, 128.0, 128.0, 30.0);
  TerrainField p;
  terrain_field_defaults (&p);
  p.seed = 77;
  p.iterations = 5;
  guide_set (&p, g, n, n, 0, 0, 32);
  float *capped = render_at (&p, -20, -20, 300, 300);
  const int big_scales[] = { 33, 63, 64, 1000, INT32_MAX };
  for (size_t k = 0; k < 5; k++)
    {
      p.guide_scale = big_scales[k];
      float *a = render_at (&p, -20, -20, 300, 300);
      CHECK (fields_equal (a, capped, 300 * 300), "guide_scale %d differs from 2^N = 32",
             big_scales[k]);
      free (a);
    }
  /* ... and it still follows the guide, if less closely than at N = 8 (all five levels add
   * noise, and at N = 5 the detail is a larger part of the mapping's 6 sigma). */
  float *low = malloc ((size_t) n * n * sizeof (float));
  float *g_low = malloc ((size_t) n * n * sizeof (float));
  box_blur (g, n, n, 16, g_low);
  p.guide_scale = 1000;
  double corr = 0.0;
  for (int s = 0; s < 4; s++)
    {
      p.seed = 77 + s;
      float *c = render_at (&p, 0, 0, n, n);
      box_blur (c, n, n, 16, low);
      corr += correlation (low, g_low, (size_t) n * n) / 4;
      free (c);
    }
  printf ("  guide_scale 1000 at iterations 5 (capped to 32): low-pass correlation %.4f\n", corr);
  CHECK (corr > 0.8, "guide_scale above 2^N: correlation %g", corr);
  p.seed = 77;
  float *a = render_at (&p, 0, 0, n, n);
  /* A coarser guided level means more noise on top: the same guide at scale 8 is smoother. */
  p.guide_scale = 8;
  float *b = render_at (&p, 0, 0, n, n);
  CHECK (mean_abs_gradient (b, n, n) < mean_abs_gradient (a, n, n),
         "guide_scale 8 rougher than 32: %g vs %g", mean_abs_gradient (b, n, n),
         mean_abs_gradient (a, n, n));
  free (a);
  free (b);
  free (low);
  free (g_low);
  free (capped);
  free (g);
}

static void
test_guide_invalid_and_non_finite (void)
{
  float out[16], g[16];
  for (int i = 0; i < 16; i++)
    g[i] = 0.5f;
  TerrainField p;
  terrain_field_defaults (&p);
  guide_set (&p, g, 4, 4, 0, 0, 2);
  CHECK (terrain_field (&p, out, 4, 4, NULL) == TERRAIN_OK, "valid guide");
  p.guide_width = 0;
  CHECK (terrain_field (&p, out, 4, 4, NULL) == TERRAIN_ERROR_INVALID, "guide_width 0");
  p.guide_width = 4;
  p.guide_height = -1;
  CHECK (terrain_field (&p, out, 4, 4, NULL) == TERRAIN_ERROR_INVALID, "guide_height -1");
  p.guide_height = 4;
  p.guide_scale = 0;
  CHECK (terrain_field (&p, out, 4, 4, NULL) == TERRAIN_ERROR_INVALID, "guide_scale 0");
  p.guide = NULL;
  CHECK (terrain_field (&p, out, 4, 4, NULL) == TERRAIN_OK, "no guide: guide fields ignored");

  /* Non-finite and out-of-range guide values are clamped into [0, 1] (NaN reads as 0). */
  const int n = 64;
  float *bad = gaussian_blob (n, n, 32.0, 32.0, 10.0);
  float *clean = malloc ((size_t) n * n * sizeof (float));
  const float specials[] = { NAN, INFINITY, -INFINITY, 7.0f, -3.0f, 1e30f, -1e30f };
  const float clamped[] = { 0.0f, 1.0f, 0.0f, 1.0f, 0.0f, 1.0f, 0.0f };
  memcpy (clean, bad, (size_t) n * n * sizeof (float));
  for (int i = 0; i < n * n; i += 5)
    {
      bad[i] = specials[i % 7];
      clean[i] = clamped[i % 7];
    }
  const int scales[] = { 1, 2, 16, 64 };
  for (size_t k = 0; k < 4; k++)
    {
      terrain_field_defaults (&p);
      p.iterations = 6;
      guide_set (&p, bad, n, n, -10, 3, scales[k]);
      float *a = render_at (&p, -20, -20, 100, 100);
      p.guide = clean;
      float *b = render_at (&p, -20, -20, 100, 100);
      CHECK (! terrain_has_non_finite (a, 100 * 100), "guide_scale %d: NaN/Inf from a bad guide",
             scales[k]);
      CHECK (fields_equal (a, b, 100 * 100), "guide_scale %d: bad values not read as clamped",
             scales[k]);
      free (a);
      free (b);
    }
  free (bad);
  free (clean);
}

static void
test_guide_progress_and_cancel (void)
{
  const int n = 513;
  float *g = gaussian_blob (n, n, 200.0, 300.0, 60.0);
  float *out = malloc ((size_t) n * n * sizeof (float));
  const int scales[] = { 1, 32 };
  for (size_t k = 0; k < 2; k++)
    {
      TerrainField p;
      terrain_field_defaults (&p);
      guide_set (&p, g, n, n, 0, 0, scales[k]);
      ProgressLog log = progress_log (2.0);
      TerrainProgress progress = { log_progress, &log };
      CHECK (terrain_field (&p, out, n, n, &progress) == TERRAIN_OK, "guided, with progress");
      CHECK (log.monotone && log.last == 1.0 && log.calls > 5,
             "guide_scale %d progress: %d calls, last %g", scales[k], log.calls, log.last);
      log = progress_log (0.5);
      CHECK (terrain_field (&p, out, n, n, &progress) == TERRAIN_CANCELLED,
             "guide_scale %d: not cancelled", scales[k]);
      CHECK (log.last < 0.7, "guide_scale %d: cancel honoured late, at %g", scales[k], log.last);
    }
  free (out);
  free (g);
}

static void
print_timings (void)
{
  const int sides[] = { 1024, 4096 };
  for (size_t k = 0; k < 2; k++)
    {
      TerrainField p;
      terrain_field_defaults (&p);
      p.iterations = 12;
      const int n = sides[k];
      float *out = malloc ((size_t) n * n * sizeof (float));
      double best = 1e9;
      for (int run = 0; run < 3; run++)
        {
          const double t0 = seconds ();
          terrain_field (&p, out, n, n, NULL);
          const double t = seconds () - t0;
          best = t < best ? t : best;
        }
      printf ("  %dx%d, iterations 12: %.2f ns/pixel (%.1f ms)\n", n, n,
              1e9 * best / ((double) n * n), 1e3 * best);
      free (out);
    }
}

int
main (void)
{
  test_determinism_range ();
  test_seed_sensitivity ();
  test_overlap_identity ();
  test_bands ();
  test_tile_statistics ();
  test_output_scale ();
  test_roughness_is_hurst_exponent ();
  test_iterations_set_feature_size ();
  test_invalid_parameters ();
  test_progress_and_cancel ();
  test_guide_none ();
  test_guide_blob ();
  test_guide_node_values ();
  test_guide_bands ();
  test_guide_scale_above_top ();
  test_guide_invalid_and_non_finite ();
  test_guide_progress_and_cancel ();
  print_timings ();
  return CHECK_DONE ("field");
}
