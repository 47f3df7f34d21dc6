/* The 3D view (view3d.h) on rendered pixels: which flank of a lone peak the sun lights, on
 * which side its shadow falls, the silhouette against the exaggeration, where a bump of the
 * layer lands in a view from straight above, the same bytes for the same inputs (however the
 * rows come in), and no non-number anywhere for flat, tiny and extreme inputs. */
#include "check.h"
#include "view3d-internal.h"
#include "view3d-peak.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *
render (const float *h, int w, int hh, const TerrainView3DParams *p, int pw, int ph)
{
  unsigned char *rgb = malloc ((size_t) pw * ph * 3);
  const TerrainStatus status = terrain_view3d_render (h, w, hh, TERRAIN_VIEW3D_MESH_SIDE, p,
                                                      rgb, pw, ph);
  CHECK (status == TERRAIN_OK, "render: status %d", status);
  return rgb;
}

static void
test_sun_sides (void)
{
  float              *h = lone_peak ();
  TerrainView3DParams p;
  sun_sides_params (&p);
  for (int east = 0; east < 2; east++)
    for (int shadows = 0; shadows < 2; shadows++)
      {
        p.light_azimuth = east ? 90.0 : 270.0;
        p.shadows = shadows;
        unsigned char *rgb = render (h, PEAK, PEAK, &p, PIC, PIC);
        const double   west_flank = brightness (rgb, PIC, at (-12), at (0));
        const double   east_flank = brightness (rgb, PIC, at (12), at (0));
        const double   west_ground = brightness (rgb, PIC, at (-40), at (0));
        const double   east_ground = brightness (rgb, PIC, at (40), at (0));
        const double   lit_flank = east ? east_flank : west_flank;
        const double   dark_flank = east ? west_flank : east_flank;
        const double   lit_ground = east ? east_ground : west_ground;
        const double   far_ground = east ? west_ground : east_ground; /* behind the peak */
        CHECK (lit_flank > dark_flank + 40, "sun from the %s: flank facing it %.1f, other %.1f",
               east ? "east" : "west", lit_flank, dark_flank);
        if (shadows)
          CHECK (far_ground < lit_ground - 30, "sun from the %s: ground behind the peak %.1f, "
                 "before it %.1f", east ? "east" : "west", far_ground, lit_ground);
        else
          CHECK (fabs (far_ground - lit_ground) < 4, "no shadows: the ground either side "
                 "%.1f and %.1f", far_ground, lit_ground);
        free (rgb);
      }
  free (h);
}

/* The rows of the picture the terrain covers, against its columns: the sky is the same in
 * every pixel of a row, and the first column is always sky (the fit's margin). */
static double
silhouette_aspect (const unsigned char *rgb, int pw, int ph)
{
  int top = ph, bottom = -1, left = pw, right = -1;
  for (int j = 0; j < ph; j++)
    for (int i = 0; i < pw; i++)
      if (memcmp (rgb + 3 * ((size_t) j * pw + i), rgb + 3 * (size_t) j * pw, 3) != 0)
        {
          top = j < top ? j : top;
          bottom = j > bottom ? j : bottom;
          left = i < left ? i : left;
          right = i > right ? i : right;
        }
  return right > left ? (double) (bottom - top) / (right - left) : 0.0;
}

static void
test_exaggeration (void)
{
  float              *h = lone_peak ();
  TerrainView3DParams p;
  terrain_view3d_defaults (&p);
  p.view_elevation = 15.0;
  p.view_azimuth = 30.0;
  double last = 0.0;
  for (double e = 1.0; e <= 8.0; e *= 2.0)
    {
      p.exaggeration = e;
      unsigned char *rgb = render (h, PEAK, PEAK, &p, 320, 240);
      const double   aspect = silhouette_aspect (rgb, 320, 240);
      CHECK (aspect > last * 1.08, "exaggeration %g: silhouette height / width %.3f, %.3f at "
             "half of it", e, aspect, last);
      last = aspect;
      free (rgb);
    }
  free (h);
}

/* Where a bump shows in a top-down picture: the centre of the pixels that stand out from the
 * flat ground (seen at the picture's centre) and are no sky, in fractions of the picture. */
static void
bump_centre (int bx, int by, double *cx, double *cy)
{
  const int           w = 64, hh = 48, pw = 256, ph = 192;
  float              *bump = calloc ((size_t) w * hh, sizeof *bump);
  TerrainView3DParams p;
  terrain_view3d_defaults (&p);
  p.view_elevation = 90.0;
  p.light_azimuth = 315.0;
  p.light_elevation = 60.0;
  p.shadows = 0; /* the bump alone, not its shadow */
  p.exaggeration = 4.0;
  p.colours = TERRAIN_VIEW3D_COLOURS_GRAY;
  for (int y = 0; y < hh; y++)
    for (int x = 0; x < w; x++)
      bump[y * w + x] = (float) (0.5 * exp (-(pow (x - bx, 2) + pow (y - by, 2)) / 9.0));
  unsigned char *b = render (bump, w, hh, &p, pw, ph);
  const double   ground = brightness (b, pw, pw / 2, ph / 2);
  double         sx = 0, sy = 0, n = 0;
  for (int j = 2; j < ph - 2; j++)
    for (int i = 2; i < pw - 2; i++)
      if (memcmp (b + 3 * ((size_t) j * pw + i), b + 3 * (size_t) j * pw, 3) != 0 &&
          fabs (brightness (b, pw, i, j) - ground) > 25)
        sx += i, sy += j, n++;
  *cx = n ? sx / n / pw : -1;
  *cy = n ? sy / n / ph : -1;
  free (bump);
  free (b);
}

static void
test_top_down (void)
{
  double cx, cy;
  bump_centre (8, 8, &cx, &cy);
  CHECK (cx > 0.0 && cx < 0.3 && cy > 0.0 && cy < 0.3,
         "a bump at the layer's top left changed the picture around (%.2f, %.2f)", cx, cy);
  bump_centre (56, 40, &cx, &cy);
  CHECK (cx > 0.7 && cy > 0.7,
         "a bump at the layer's bottom right changed the picture around (%.2f, %.2f)", cx, cy);
}

/* A TerrainParallel that runs the tasks backwards on the calling thread, claiming `threads`
 * threads: the strips change, their order too, the picture must not. */
static void
run_backwards (void *user, int count, TerrainTask task, void *task_user)
{
  (void) user;
  for (int i = count - 1; i >= 0; i--)
    task (task_user, i);
}

/* The same inputs, the same bytes: twice, with the rows fed in bands of any size, and cut
 * into strips by any thread count. */
static void
test_determinism (void)
{
  const int w = 300, hh = 200;
  float    *h = malloc ((size_t) w * hh * sizeof *h);
  for (int i = 0; i < w * hh; i++)
    h[i] = (float) (0.5 + 0.25 * sin (i * 0.37) * cos (i * 0.011));
  TerrainView3DParams p;
  terrain_view3d_defaults (&p);
  p.sea = 1;
  p.sea_level = 0.4;
  unsigned char *a = malloc (200 * 150 * 3), *b = malloc (200 * 150 * 3);
  unsigned char *c = malloc (200 * 150 * 3);
  terrain_view3d_render (h, w, hh, 64, &p, a, 200, 150);
  terrain_view3d_render (h, w, hh, 64, &p, b, 200, 150);
  CHECK (memcmp (a, b, 200 * 150 * 3) == 0, "two renders differ");
  for (int threads = 2; threads <= 7; threads += 5)
    {
      const TerrainParallel backwards = { run_backwards, NULL, threads };
      terrain_set_parallel (&backwards);
      memset (b, 0, 200 * 150 * 3);
      terrain_view3d_render (h, w, hh, 64, &p, b, 200, 150);
      terrain_set_parallel (NULL);
      CHECK (memcmp (a, b, 200 * 150 * 3) == 0, "%d threads, tasks backwards: other bytes",
             threads);
    }
  TerrainView3DMesh *mesh = terrain_view3d_mesh_new (w, hh, 64);
  for (int y = 0, band = 1; y < hh; y += band, band = band * 2 + 1)
    terrain_view3d_mesh_add_rows (mesh, h + (size_t) y * w, y + band <= hh ? band : hh - y);
  CHECK (terrain_view3d_mesh_ready (mesh), "mesh fed in bands not ready");
  terrain_view3d_render_mesh (mesh, &p, c, 200, 150);
  CHECK (memcmp (a, c, 200 * 150 * 3) == 0, "rows fed in bands give other bytes");
  int cols, rows;
  terrain_view3d_mesh_size (mesh, &cols, &rows);
  CHECK (cols == 60 && rows == 40, "a 300 x 200 map at 64 a side: %d x %d vertices", cols, rows);
  /* A window follows a layer by comparing meshes: one pixel changed is another mesh. */
  TerrainView3DMesh *again = terrain_view3d_mesh_new (w, hh, 64);
  terrain_view3d_mesh_add_rows (again, h, hh);
  CHECK (terrain_view3d_mesh_same (mesh, again), "the same map read twice differs");
  terrain_view3d_mesh_free (again);
  h[123 * w + 45] += 0.25f;
  again = terrain_view3d_mesh_new (w, hh, 64);
  terrain_view3d_mesh_add_rows (again, h, hh);
  CHECK (! terrain_view3d_mesh_same (mesh, again), "one pixel changed: the same mesh");
  terrain_view3d_mesh_free (again);
  terrain_view3d_mesh_free (mesh);
  free (a);
  free (b);
  free (c);
  free (h);
}

/* Renders and checks every colour is a number. */
static void
check_finite (const char *what, const float *h, int w, int hh, const TerrainView3DParams *p,
              int pw, int ph)
{
  TerrainView3DMesh *mesh = terrain_view3d_mesh_new (w, hh, 256);
  unsigned char     *rgb = malloc ((size_t) pw * ph * 3);
  float             *lin = malloc ((size_t) pw * ph * 3 * sizeof *lin);
  terrain_view3d_mesh_add_rows (mesh, h, hh);
  const TerrainStatus status = view3d_render (mesh, p, rgb, lin, pw, ph);
  CHECK (status == TERRAIN_OK, "%s: status %d", what, status);
  size_t bad = 0;
  for (size_t i = 0; status == TERRAIN_OK && i < (size_t) pw * ph * 3; i++)
    bad += ! isfinite (lin[i]);
  CHECK (bad == 0, "%s: %zu colours are no numbers", what, bad);
  terrain_view3d_mesh_free (mesh);
  free (rgb);
  free (lin);
}

static void
test_extremes (void)
{
  static const float one[1] = { 0.5f }, four[4] = { 0, 1, 1, 0 };
  static const float huge[4] = { 3e38f, -3e38f, 0, 1e20f }, flat[16] = { 0 };
  TerrainView3DParams p;
  const double angles[][4] = { { 0, 0, 0, 0 }, { 315, 90, 0, 90 }, { 45, 0.001, 180, 90 },
                               { -720, 45, 1e6, 0.001 }, { 90, 89.999, 90, 45 } };
  for (size_t a = 0; a < sizeof angles / sizeof angles[0]; a++)
    for (int e = 0; e < 3; e++)
      {
        terrain_view3d_defaults (&p);
        p.light_azimuth = angles[a][0];
        p.light_elevation = angles[a][1];
        p.view_azimuth = angles[a][2];
        p.view_elevation = angles[a][3];
        p.exaggeration = e == 0 ? 0.0 : e == 1 ? 1.0 : 100.0;
        p.sea = e == 2;
        p.sea_level = 0.3;
        check_finite ("1 x 1", one, 1, 1, &p, 40, 30);
        check_finite ("2 x 2", four, 2, 2, &p, 40, 30);
        check_finite ("huge heights", huge, 2, 2, &p, 40, 30);
        check_finite ("flat 4 x 4", flat, 4, 4, &p, 1, 1);
        check_finite ("flat 16 x 1", flat, 16, 1, &p, 33, 7);
      }
  terrain_view3d_defaults (&p);
  p.zoom = 100.0;
  p.pan_x = 1e6;
  check_finite ("zoomed and panned away", four, 2, 2, &p, 40, 30);
}

/* Bad input is refused and leaves the picture as it was. */
static void
test_refusals (void)
{
  float               h[4] = { 0, 1, NAN, 0 };
  unsigned char       rgb[12];
  TerrainView3DParams p;
  memset (rgb, 7, sizeof rgb);
  terrain_view3d_defaults (&p);
  CHECK (terrain_view3d_render (h, 2, 2, 64, &p, rgb, 2, 2) == TERRAIN_ERROR_INVALID,
         "a NaN height was rendered");
  h[2] = 0;
  const double bad[][2] = { { 1, -1 }, { 1, 91 }, { 2, NAN }, { 3, -0.1 }, { 3, 1e9 },
                            { 4, 0 }, { 0, INFINITY } };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
      terrain_view3d_defaults (&p);
      double *field[] = { &p.light_azimuth, &p.light_elevation, &p.view_elevation,
                          &p.exaggeration, &p.zoom };
      *field[(int) bad[i][0]] = bad[i][1];
      CHECK (terrain_view3d_check (&p) != NULL &&
               terrain_view3d_render (h, 2, 2, 64, &p, rgb, 2, 2) == TERRAIN_ERROR_INVALID,
             "bad parameter %d = %g accepted", (int) bad[i][0], bad[i][1]);
    }
  terrain_view3d_defaults (&p);
  CHECK (terrain_view3d_render (h, 2, 2, 64, &p, rgb, 0, 2) == TERRAIN_ERROR_INVALID,
         "a picture 0 wide was rendered");
  size_t changed = 0;
  for (size_t i = 0; i < sizeof rgb; i++)
    changed += rgb[i] != 7;
  CHECK (changed == 0, "refused renders changed %zu bytes", changed);
}

int
main (void)
{
  test_sun_sides ();
  test_exaggeration ();
  test_top_down ();
  test_determinism ();
  test_extremes ();
  test_refusals ();
  return CHECK_DONE ("view3d");
}
