/* The 3D view's frame times with OpenGL (src/plugin/view3d-gl.h) against the CPU renderer
 * in the same run: an 800 x 600 picture of a 1024² Diamond-Square (seed 3) at the view's
 * defaults, the mesh reduced to 256², 512² and 1024² vertices; medians of 9 frames. For
 * OpenGL a frame is a draw read back (what the canvas's main thread waits for: a software
 * renderer such as llvmpipe draws then, and GTK 3 reads the frame back); building the scene
 * (normals, the sun's horizon: a job's thread) and uploading it (the main thread, once a
 * scene) are given apart.
 * The CPU's frame is terrain_view3d_render_mesh on one thread, as the view's job renders.
 *
 *   python3 tests/gimp/run-on-xvfb.py BUILD/tests/bench/gimp/bench-view3d-gl [FRAMES]
 */
#define _POSIX_C_SOURCE 200809L

#include "../bench-clock.h"
#include "diamond-square.h"
#include "view3d-gl.h"

#include <epoxy/gl.h>
#include <gtk/gtk.h>
#include <stdio.h>

#define MAP 1024
#define W   800
#define H   600

static void
bench_mesh (TerrainView3DGL *gl, const float *map, int side, int frames)
{
  TerrainView3DParams p;
  terrain_view3d_defaults (&p);
  TerrainView3DMesh *mesh = terrain_view3d_mesh_new (MAP, MAP, side);
  terrain_view3d_mesh_add_rows (mesh, map, MAP);
  guchar *rgb = g_malloc ((gsize) W * H * 3);
  char   *error = NULL;
  double  scene_t[32], upload_t[32], gl_t[32], cpu_t[32];
  for (int k = 0; k < frames; k++)
    {
      double              t0 = now ();
      TerrainView3DScene *scene = terrain_view3d_scene_new (mesh, &p);
      double              t1 = now ();
      terrain_view3d_gl_set_scene (gl, scene, &error);
      glFinish ();
      double t2 = now ();
      terrain_view3d_gl_picture (gl, &p, rgb, W, H, &error);
      double t3 = now ();
      terrain_view3d_render_mesh (mesh, &p, rgb, W, H);
      double t4 = now ();
      scene_t[k] = t1 - t0, upload_t[k] = t2 - t1, gl_t[k] = t3 - t2, cpu_t[k] = t4 - t3;
      p.view_azimuth += 10.0; /* an orbit: each frame another view */
    }
  printf ("| %d² | %.0f ms | %.0f ms | %.0f ms | %.0f ms | %.2f |\n", side,
          1e3 * median (gl_t, frames), 1e3 * median (scene_t, frames),
          1e3 * median (upload_t, frames), 1e3 * median (cpu_t, frames),
          median (gl_t, frames) / median (cpu_t, frames));
  g_free (error);
  g_free (rgb);
  terrain_view3d_mesh_free (mesh);
}

static void
realized (GtkGLArea *area, int *frames)
{
  char *error = NULL;
  gtk_gl_area_make_current (area);
  TerrainView3DGL *gl = gtk_gl_area_get_error (area) ? NULL : terrain_view3d_gl_new (&error);
  if (gl == NULL)
    {
      printf ("no OpenGL 3.3: %s\n", error ? error : gtk_gl_area_get_error (area)->message);
      return;
    }
  float               *map = g_new (float, (gsize) MAP * MAP);
  TerrainDiamondSquare ds;
  terrain_diamond_square_defaults (&ds);
  ds.seed = 3;
  terrain_diamond_square (&ds, map, MAP, MAP, NULL);
  printf ("%s, %s; %dx%d picture, medians of %d frames\n\n", glGetString (GL_VENDOR),
          glGetString (GL_RENDERER), W, H, *frames);
  printf ("| mesh | OpenGL frame | scene (CPU) | upload | CPU frame | OpenGL / CPU |\n");
  printf ("|---|---|---|---|---|---|\n");
  for (int side = 256; side <= 1024; side *= 2)
    bench_mesh (gl, map, side, *frames);
  terrain_view3d_gl_free (gl);
  g_free (map);
}

int
main (int argc, char **argv)
{
  int frames = argc > 1 ? CLAMP (atoi (argv[1]), 1, 32) : 9;
  gtk_init (NULL, NULL);
  GtkWidget *window = gtk_window_new (GTK_WINDOW_TOPLEVEL);
  GtkWidget *area = gtk_gl_area_new ();
  gtk_gl_area_set_required_version (GTK_GL_AREA (area), 3, 3);
  g_signal_connect (area, "realize", G_CALLBACK (realized), &frames);
  gtk_container_add (GTK_CONTAINER (window), area);
  gtk_widget_realize (window);
  gtk_widget_realize (area);
  gtk_widget_destroy (window);
  return 0;
}
