/* The 3D view drawn with OpenGL (src/plugin/view3d-gl.h), in a real GTK OpenGL context on
 * Xvfb (Mesa's llvmpipe in CI), read back with glReadPixels:
 *  - the picture is the CPU renderer's (terrain_view3d_render_mesh) for scenes that use
 *    every part of the shading (sun from any side, shadows, colours, sea, walls, zoom and
 *    pan, a map that is not square, a rough one): nearly every pixel within a few levels;
 *  - on a lone peak seen from above: lit from the west, the west flank is brighter than the
 *    east flank, and with shadows the ground east of the peak darker than west of it; a sun
 *    in the east swaps them; a larger exaggeration makes the silhouette seen from the side
 *    taller;
 *  - the same inputs give the same bytes; no OpenGL error.
 * Prints each scene's figures; exit status 77 (skipped) when no OpenGL 3.3 context can be
 * made, which the GUI test of the plug-in's fallback covers. */
#include "../unit/check.h"
#include "../unit/view3d-peak.h"
#include "view3d-gl.h"

#include <epoxy/gl.h>

#include <gtk/gtk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct
{
  int            width, height;
  unsigned char *rgb;
} Picture;

/* Ridges and valleys at several scales, from a hash: a rough map with every slope. */
static float *
rough (int width, int height)
{
  float *h = malloc ((size_t) width * height * sizeof *h);
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      {
        double v = 0.5;
        for (int octave = 1; octave <= 5; octave++)
          v += 0.25 / octave * sin (x * 0.05 * octave + 1.3 * octave) *
               cos (y * 0.043 * octave - 0.7 * octave * octave);
        h[(size_t) y * width + x] = (float) v;
      }
  return h;
}

static TerrainView3DMesh *
mesh_of (const float *h, int width, int height)
{
  TerrainView3DMesh *mesh = terrain_view3d_mesh_new (width, height, TERRAIN_VIEW3D_MESH_SIDE);
  terrain_view3d_mesh_add_rows (mesh, h, height);
  return mesh;
}

/* The GL picture (rows from the top, as the CPU's). */
static Picture
draw_gl (TerrainView3DGL *gl, const TerrainView3DMesh *mesh, const TerrainView3DParams *p,
         int width, int height)
{
  char          *error = NULL;
  const gboolean set = terrain_view3d_gl_set_scene (gl, terrain_view3d_scene_new (mesh, p), &error);
  CHECK (set, "scene: %s", error ? error : "");
  g_clear_pointer (&error, g_free);
  Picture        pic = { width, height, calloc ((size_t) width * height, 3) };
  const gboolean drawn = terrain_view3d_gl_picture (gl, p, pic.rgb, width, height, &error);
  CHECK (drawn, "picture: %s", error ? error : "");
  g_free (error);
  return pic;
}

static Picture
draw_cpu (const TerrainView3DMesh *mesh, const TerrainView3DParams *p, int width, int height)
{
  Picture pic = { width, height, malloc ((size_t) width * height * 3) };
  CHECK (terrain_view3d_render_mesh (mesh, p, pic.rgb, width, height) == TERRAIN_OK, "CPU");
  return pic;
}

/* GL against CPU: the share of pixels whose channels all lie within 2 levels, and the mean
 * difference. Silhouettes may move by a pixel (OpenGL's rasterising rule is not the CPU
 * renderer's) and shadow edges by a float's rounding; a wrong camera, colour or light moves
 * most pixels. */
static void
compare (const char *name, const Picture *gl, const Picture *cpu)
{
  const size_t n = (size_t) gl->width * gl->height;
  size_t       close = 0;
  double       sum = 0;
  for (size_t k = 0; k < n; k++)
    {
      int worst = 0;
      for (int c = 0; c < 3; c++)
        {
          const int d = abs (gl->rgb[3 * k + c] - cpu->rgb[3 * k + c]);
          worst = d > worst ? d : worst;
          sum += d;
        }
      close += worst <= 2;
    }
  const double share = (double) close / n, mean = sum / (3.0 * n);
  printf ("%-28s %dx%d: %.4f of pixels within 2 levels, mean difference %.3f\n", name,
          gl->width, gl->height, share, mean);
  CHECK (share >= 0.99 && mean <= 0.25, "%s: GL differs from CPU (%.4f, %.3f)", name, share,
         mean);
}

/* Scene k of the comparison: its name, its parameters; 0-3 on the peak, 4-7 on rough land. */
static const char *
scene_case (int k, TerrainView3DParams *p)
{
  terrain_view3d_defaults (p);
  switch (k)
    {
    case 0: return "peak, defaults";
    case 1:
      p->light_azimuth = 90;
      p->colours = TERRAIN_VIEW3D_COLOURS_GRAY;
      p->exaggeration = 3;
      return "peak, sun east, gray, 3x";
    case 2:
      p->view_elevation = 90;
      p->shadows = 0;
      return "peak, from above, no shadow";
    case 3:
      p->sea = 1;
      p->sea_level = 0.3;
      p->zoom = 1.6;
      p->pan_x = 0.1;
      p->pan_y = -0.05;
      p->view_azimuth = 135;
      return "peak, sea, zoom and pan";
    case 4: return "rough, defaults";
    case 5:
      p->light_azimuth = 315;
      p->light_elevation = 12;
      return "rough, low sun north-west";
    case 6:
      p->sea = 1;
      p->sea_level = 0.45;
      p->view_azimuth = 270;
      p->view_elevation = 20;
      return "rough, sea, from the east";
    default:
      p->exaggeration = 4;
      p->view_elevation = 50;
      return "rough, 4x, wide picture";
    }
}

static void
test_same_as_cpu (TerrainView3DGL *gl)
{
  float             *peak = lone_peak (), *land = rough (240, 150);
  TerrainView3DMesh *peak_mesh = mesh_of (peak, PEAK, PEAK);
  TerrainView3DMesh *land_mesh = mesh_of (land, 240, 150);
  for (int k = 0; k < 8; k++)
    {
      TerrainView3DParams p;
      const char         *name = scene_case (k, &p);
      const int           width = k == 7 ? 480 : PIC, height = k == 7 ? 200 : 240;
      const TerrainView3DMesh *mesh = k < 4 ? peak_mesh : land_mesh;
      Picture a = draw_gl (gl, mesh, &p, width, height), b = draw_cpu (mesh, &p, width, height);
      compare (name, &a, &b);
      free (a.rgb);
      free (b.rgb);
    }
  terrain_view3d_mesh_free (peak_mesh);
  terrain_view3d_mesh_free (land_mesh);
  free (peak);
  free (land);
}

static void
test_sun_sides (TerrainView3DGL *gl)
{
  float             *h = lone_peak ();
  TerrainView3DMesh *mesh = mesh_of (h, PEAK, PEAK);
  TerrainView3DParams p;
  sun_sides_params (&p);
  for (int east = 0; east < 2; east++)
    {
      p.light_azimuth = east ? 90.0 : 270.0;
      Picture       pic = draw_gl (gl, mesh, &p, PIC, PIC);
      const double  lit_flank = brightness (pic.rgb, pic.width, at (east ? 12 : -12), at (0));
      const double  dark_flank = brightness (pic.rgb, pic.width, at (east ? -12 : 12), at (0));
      const double  lit_ground = brightness (pic.rgb, pic.width, at (east ? 40 : -40), at (0));
      const double  shadow = brightness (pic.rgb, pic.width, at (east ? -40 : 40), at (0));
      printf ("sun %s: flanks %.1f lit, %.1f away; ground %.1f sunward, %.1f behind\n",
              east ? "east" : "west", lit_flank, dark_flank, lit_ground, shadow);
      CHECK (lit_flank > dark_flank + 30, "sun %s: flank %.1f vs %.1f", east ? "east" : "west",
             lit_flank, dark_flank);
      CHECK (shadow < lit_ground - 20, "sun %s: shadow %.1f vs %.1f", east ? "east" : "west",
             shadow, lit_ground);
      free (pic.rgb);
    }
  terrain_view3d_mesh_free (mesh);
  free (h);
}

/* How many rows the terrain covers for each column it covers: a pixel is terrain where it
 * differs from its row's first pixel, which is sky (the fit leaves a margin). */
static double
rows_per_column (const Picture *pic)
{
  int rows = 0, columns = 0;
  for (int j = 0; j < pic->height; j++)
    for (int i = 0; i < pic->width; i++)
      if (memcmp (pic->rgb + 3 * ((size_t) j * pic->width + i),
                  pic->rgb + 3 * (size_t) j * pic->width, 3) != 0)
        {
          rows++;
          break;
        }
  for (int i = 0; i < pic->width; i++)
    for (int j = 0; j < pic->height; j++)
      if (memcmp (pic->rgb + 3 * ((size_t) j * pic->width + i),
                  pic->rgb + 3 * (size_t) j * pic->width, 3) != 0)
        {
          columns++;
          break;
        }
  return columns ? (double) rows / columns : 0.0;
}

static void
test_exaggeration_and_repeat (TerrainView3DGL *gl)
{
  float             *h = lone_peak ();
  TerrainView3DMesh *mesh = mesh_of (h, PEAK, PEAK);
  TerrainView3DParams p;
  terrain_view3d_defaults (&p);
  p.view_elevation = 15.0;
  p.view_azimuth = 30.0;
  Picture low = draw_gl (gl, mesh, &p, 320, 240), again = draw_gl (gl, mesh, &p, 320, 240);
  p.exaggeration = 3.0;
  Picture high = draw_gl (gl, mesh, &p, 320, 240);
  const double a1 = rows_per_column (&low), a3 = rows_per_column (&high);
  printf ("silhouette: %.3f rows a column at 1x, %.3f at 3x\n", a1, a3);
  CHECK (a3 > 1.3 * a1, "exaggeration 3: silhouette %.3f, %.3f at 1", a3, a1);
  CHECK (memcmp (low.rgb, again.rgb, (size_t) 320 * 240 * 3) == 0, "same inputs, other bytes");
  free (low.rgb);
  free (again.rgb);
  free (high.rgb);
  terrain_view3d_mesh_free (mesh);
  free (h);
}

static void
realized (GtkGLArea *area, int *status)
{
  char *error = NULL;
  gtk_gl_area_make_current (area);
  if (gtk_gl_area_get_error (area))
    {
      printf ("no OpenGL context: %s\n", gtk_gl_area_get_error (area)->message);
      *status = 77;
      return;
    }
  printf ("OpenGL %d.%d: %s, %s\n", epoxy_gl_version () / 10, epoxy_gl_version () % 10,
          glGetString (GL_VENDOR), glGetString (GL_RENDERER));
  TerrainView3DGL *gl = terrain_view3d_gl_new (&error);
  if (gl == NULL)
    {
      printf ("no OpenGL 3.3 view: %s\n", error);
      g_free (error);
      *status = 77;
      return;
    }
  test_same_as_cpu (gl);
  test_sun_sides (gl);
  test_exaggeration_and_repeat (gl);
  terrain_view3d_gl_free (gl);
  *status = CHECK_DONE ("view3d-gl");
}

int
main (int argc, char **argv)
{
  int status = 1;
  gtk_init (&argc, &argv);
  GtkWidget *window = gtk_window_new (GTK_WINDOW_TOPLEVEL);
  GtkWidget *area = gtk_gl_area_new ();
  gtk_gl_area_set_required_version (GTK_GL_AREA (area), 3, 3);
  gtk_gl_area_set_has_depth_buffer (GTK_GL_AREA (area), TRUE);
  gtk_widget_set_size_request (area, 64, 64);
  g_signal_connect (area, "realize", G_CALLBACK (realized), &status);
  gtk_container_add (GTK_CONTAINER (window), area);
  gtk_widget_realize (window);
  gtk_widget_realize (area);
  gtk_widget_destroy (window);
  return status;
}
