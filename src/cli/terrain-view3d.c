/* terrain-view3d: the 3D view of a heightmap (view3d.h), as plug-in-terrain-3d-view renders
 * it, into a binary PPM.
 *
 *   terrain-view3d IN W H OUT.ppm PICTURE_W PICTURE_H [NAME=VALUE ...]
 *
 * IN: an 8- or 16-bit PGM of W x H (onto [0, 1]), or raw little-endian floats (a name
 * ending in .f32, W columns, H rows, top row first; rescaled onto [0, 1] from their lowest
 * to their highest). NAMEs, as the procedure's arguments: light-azimuth, light-elevation,
 * view-azimuth, view-elevation, exaggeration, shadows (0 or 1); and colours (terrain or
 * gray), sea-level (draws a sea), zoom, mesh (vertices a side, default
 * TERRAIN_VIEW3D_MESH_SIDE), repeat (renders that many times and prints the median time to
 * stderr, for the benchmark), threads (as the plug-in renders: on that many threads, where
 * the build has GLib's; the picture is the same for any count). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include "pnm.h"
#include "view3d.h"
#ifdef TERRAIN_CLI_THREADS
#include "thread-pool.h"
#endif

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static float *
read_f32 (const char *path, int width, int height)
{
  const size_t n = (size_t) width * height;
  float       *h = malloc (n * sizeof *h);
  FILE        *f = fopen (path, "rb");
  int          ok = h && f && fread (h, sizeof *h, n, f) == n;
  if (f)
    fclose (f);
  float lo = INFINITY, hi = -INFINITY;
  for (size_t i = 0; ok && i < n; i++)
    {
      ok = isfinite (h[i]);
      lo = fminf (lo, h[i]);
      hi = fmaxf (hi, h[i]);
    }
  for (size_t i = 0; ok && i < n; i++)
    h[i] = hi > lo ? (h[i] - lo) / (hi - lo) : 0.0f;
  if (! ok)
    {
      free (h);
      return NULL;
    }
  return h;
}

static float *
read_heights (const char *path, int width, int height)
{
  const size_t len = strlen (path);
  if (len > 4 && strcmp (path + len - 4, ".f32") == 0)
    return read_f32 (path, width, height);
  float *h = malloc ((size_t) width * height * sizeof *h);
  if (h && pnm_read_gray (path, h, width, height) != 0)
    {
      free (h);
      return NULL;
    }
  return h;
}

/* One NAME=VALUE into the parameters; nonzero for an unknown name or a bad value. */
static int
set_option (const char *arg, TerrainView3DParams *p, int *mesh, int *repeat)
{
  const char *eq = strchr (arg, '=');
  char       *end;
  if (eq == NULL)
    return 1;
  const size_t n = (size_t) (eq - arg);
  const char  *v = eq + 1;
  const double x = strtod (v, &end);
  const int    number = *v != '\0' && *end == '\0';
#define IS(name) (n == strlen (name) && strncmp (arg, name, n) == 0)
  if (IS ("colours"))
    {
      p->colours = strcmp (v, "gray") == 0 ? TERRAIN_VIEW3D_COLOURS_GRAY
                                           : TERRAIN_VIEW3D_COLOURS_TERRAIN;
      return strcmp (v, "gray") != 0 && strcmp (v, "terrain") != 0;
    }
  if (! number)
    return 1;
  if (IS ("light-azimuth")) p->light_azimuth = x;
  else if (IS ("light-elevation")) p->light_elevation = x;
  else if (IS ("view-azimuth")) p->view_azimuth = x;
  else if (IS ("view-elevation")) p->view_elevation = x;
  else if (IS ("exaggeration")) p->exaggeration = x;
  else if (IS ("shadows")) p->shadows = x != 0.0;
  else if (IS ("sea-level")) p->sea = 1, p->sea_level = x;
  else if (IS ("zoom")) p->zoom = x;
  else if (IS ("mesh")) *mesh = (int) x;
  else if (IS ("repeat")) *repeat = (int) x;
#ifdef TERRAIN_CLI_THREADS
  else if (IS ("threads")) terrain_use_threads ((int) x);
#endif
  else
    return 1;
#undef IS
  return 0;
}

static int
write_ppm (const char *path, const unsigned char *rgb, int width, int height)
{
  FILE *f = fopen (path, "wb");
  if (f == NULL)
    return -1;
  fprintf (f, "P6\n%d %d\n255\n", width, height);
  const size_t n = (size_t) width * height * 3;
  const int    ok = fwrite (rgb, 1, n, f) == n;
  return fclose (f) == 0 && ok ? 0 : -1;
}

static double
now (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static int
compare (const void *a, const void *b)
{
  const double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* Renders `repeat` times; the median time to stderr when more than once. */
static TerrainStatus
render (const float *h, int w, int hh, int mesh, const TerrainView3DParams *p,
        unsigned char *rgb, int pw, int ph, int repeat)
{
  double       *times = calloc ((size_t) repeat, sizeof *times);
  TerrainStatus status = TERRAIN_ERROR_NO_MEMORY;
  for (int i = 0; times && i < repeat; i++)
    {
      const double t0 = now ();
      status = terrain_view3d_render (h, w, hh, mesh, p, rgb, pw, ph);
      times[i] = now () - t0;
    }
  if (times && repeat > 1)
    {
      qsort (times, (size_t) repeat, sizeof *times, compare);
      fprintf (stderr, "terrain-view3d: median %.1f ms of %d renders (min %.1f, max %.1f)\n",
               1e3 * times[repeat / 2], repeat, 1e3 * times[0], 1e3 * times[repeat - 1]);
    }
  free (times);
  return status;
}

int
main (int argc, char **argv)
{
  if (argc < 7)
    {
      fprintf (stderr,
               "usage: terrain-view3d IN W H OUT.ppm PICTURE_W PICTURE_H [NAME=VALUE ...]\n");
      return 2;
    }
  const int w = atoi (argv[2]), h = atoi (argv[3]), pw = atoi (argv[5]), ph = atoi (argv[6]);
  TerrainView3DParams p;
  int                 mesh = TERRAIN_VIEW3D_MESH_SIDE, repeat = 1;
  terrain_view3d_defaults (&p);
  for (int i = 7; i < argc; i++)
    if (set_option (argv[i], &p, &mesh, &repeat))
      {
        fprintf (stderr, "terrain-view3d: bad argument %s\n", argv[i]);
        return 2;
      }
  if (w < 1 || h < 1 || w > 65536 || h > 65536 || pw < 1 || ph < 1 ||
      pw > TERRAIN_VIEW3D_MAX_PICTURE || ph > TERRAIN_VIEW3D_MAX_PICTURE || repeat < 1)
    {
      fprintf (stderr, "terrain-view3d: bad size\n");
      return 2;
    }
  float         *heights = read_heights (argv[1], w, h);
  unsigned char *rgb = malloc ((size_t) pw * ph * 3);
  if (heights == NULL || rgb == NULL)
    {
      fprintf (stderr, "terrain-view3d: cannot read %s as a %d x %d map\n", argv[1], w, h);
      return 1;
    }
  const TerrainStatus status = render (heights, w, h, mesh, &p, rgb, pw, ph, repeat);
  if (status != TERRAIN_OK)
    fprintf (stderr, "terrain-view3d: %s\n",
             terrain_view3d_check (&p) ? terrain_view3d_check (&p)
                                       : terrain_status_message (status));
  const int failed = status != TERRAIN_OK || write_ppm (argv[4], rgb, pw, ph) != 0;
  free (heights);
  free (rgb);
  return failed;
}
