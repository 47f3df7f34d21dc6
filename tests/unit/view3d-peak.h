/* The 3D view's lone-peak scene, shared by the CPU renderer's unit test (test-view3d.c) and
 * the OpenGL one's (tests/gimp/test-view3d-gl.c), so that both hold their pictures to the
 * same scene (header-only). */
#ifndef TERRAIN_VIEW3D_PEAK_H
#define TERRAIN_VIEW3D_PEAK_H

#include "view3d.h"

#include <math.h>
#include <stdlib.h>

#define PEAK 129
#define PIC  300

/* A cone-like peak (a Gaussian of radius 16) on flat ground at 0.1, in the middle of a
 * PEAK x PEAK map. */
static float *
lone_peak (void)
{
  float *h = malloc (PEAK * PEAK * sizeof *h);
  for (int y = 0; y < PEAK; y++)
    for (int x = 0; x < PEAK; x++)
      {
        const double r = hypot (x - 64, y - 64) / 16.0;
        h[y * PEAK + x] = (float) (0.1 + 0.8 * exp (-r * r));
      }
  return h;
}

/* The peak seen from straight above, gray, its relief doubled, a sun 25 degrees up (the
 * caller sets its azimuth): which flank is lit and where the shadow falls. */
static void
sun_sides_params (TerrainView3DParams *p)
{
  terrain_view3d_defaults (p);
  p->view_elevation = 90.0;
  p->light_elevation = 25.0;
  p->exaggeration = 2.0;
  p->colours = TERRAIN_VIEW3D_COLOURS_GRAY;
}

/* Mean luminance of a 5 x 5 block of a picture pw pixels wide around (x, y). */
static double
brightness (const unsigned char *rgb, int pw, int x, int y)
{
  double sum = 0;
  for (int j = y - 2; j <= y + 2; j++)
    for (int i = x - 2; i <= x + 2; i++)
      {
        const unsigned char *p = rgb + 3 * ((size_t) j * pw + i);
        sum += 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2];
      }
  return sum / 25;
}

/* From straight above, the picture is the layer: a point dx layer pixels east of the peak
 * is at that fraction of the picture. PIC x PIC, the margin 3 % each side. */
static int
at (int layer_offset)
{
  return (int) lrint (PIC * (0.5 + 0.94 * layer_offset / (double) (PEAK - 1)));
}

#endif
