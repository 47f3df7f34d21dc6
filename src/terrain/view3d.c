/* The 3D view (view3d.h): checks, then scene (view3d-scene.c), camera and rasterising
 * (view3d-raster.c), then each pixel shaded here as the seeds light their terrain: Lambert
 * diffuse from the sun, Phong specular, an ambient sky, the cast shadow from the horizon
 * test, and a light haze with distance so that far ridges stand apart from near ones. All
 * in linear light, written as sRGB. */
#include "terrain-common.h"
#include "view3d-internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void
terrain_view3d_defaults (TerrainView3DParams *p)
{
  memset (p, 0, sizeof *p);
  p->light_azimuth = 270.0;
  p->light_elevation = 35.0;
  p->view_azimuth = 0.0;
  p->view_elevation = 35.0;
  p->exaggeration = 1.0;
  p->shadows = 1;
  p->colours = TERRAIN_VIEW3D_COLOURS_TERRAIN;
  p->sea = 0;
  p->sea_level = 0.0;
  p->zoom = 1.0;
}

const char *
terrain_view3d_check (const TerrainView3DParams *p)
{
  if (! isfinite (p->light_azimuth) || ! isfinite (p->view_azimuth))
    return "an azimuth is not a number";
  if (! (p->light_elevation >= 0.0 && p->light_elevation <= 90.0))
    return "the light's elevation is outside 0..90 degrees";
  if (! (p->view_elevation >= 0.0 && p->view_elevation <= 90.0))
    return "the view's elevation is outside 0..90 degrees";
  if (! (p->exaggeration >= 0.0 && p->exaggeration <= 100.0))
    return "the exaggeration is outside 0..100";
  if (p->colours != TERRAIN_VIEW3D_COLOURS_TERRAIN && p->colours != TERRAIN_VIEW3D_COLOURS_GRAY)
    return "unknown colours";
  if (! isfinite (p->sea_level))
    return "the sea level is not a number";
  if (! (p->zoom >= 0.05 && p->zoom <= 100.0))
    return "the zoom is outside 0.05..100";
  if (! isfinite (p->pan_x) || ! isfinite (p->pan_y))
    return "the pan is not a number";
  return NULL;
}

/* ---- Colours (linear light) ---- */

typedef struct
{
  float r, g, b;
} Rgb;

static float
linear (float srgb)
{
  return srgb <= 0.04045f ? srgb / 12.92f : powf ((srgb + 0.055f) / 1.055f, 2.4f);
}

static Rgb
mix (Rgb a, Rgb b, float t)
{
  return (Rgb) { a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t };
}

static float
smoothstep (float e0, float e1, float x)
{
  const float t = fminf (fmaxf ((x - e0) / (e1 - e0), 0.0f), 1.0f);
  return t * t * (3.0f - 2.0f * t);
}

/* Low meadows to snow by height; rock, sand, water, walls; the sky. */
static const TerrainView3DPalette PALETTE = {
  { 0.00f, 0.30f, 0.55f, 0.75f, 0.88f, 1.00f },
  { { 0.30f, 0.40f, 0.20f }, { 0.42f, 0.50f, 0.25f }, { 0.52f, 0.46f, 0.33f },
    { 0.56f, 0.53f, 0.49f }, { 0.92f, 0.93f, 0.95f }, { 0.97f, 0.97f, 0.99f } },
  { 0.45f, 0.42f, 0.38f }, { 0.76f, 0.70f, 0.52f }, { 0.05f, 0.20f, 0.33f },
  { 0.40f, 0.33f, 0.26f }, { 0.75f, 0.75f, 0.75f }, { 0.48f, 0.64f, 0.86f },
  { 0.82f, 0.88f, 0.94f },
};

const TerrainView3DPalette *
terrain_view3d_palette (void)
{
  return &PALETTE;
}

static Rgb
colour (const float c[3])
{
  return (Rgb) { c[0], c[1], c[2] };
}

static Rgb
to_linear (Rgb c)
{
  return (Rgb) { linear (c.r), linear (c.g), linear (c.b) };
}

/* By height, then rock where it is steep (snow and grass do not hold there), sand just
 * above a sea. */
static Rgb
ground_colour (const TerrainView3DParams *p, float h, float up)
{
  const TerrainView3DPalette *pal = &PALETTE;
  if (p->colours == TERRAIN_VIEW3D_COLOURS_GRAY)
    return to_linear (colour (pal->gray));
  Rgb c = colour (pal->stop[TERRAIN_VIEW3D_STOPS - 1]);
  for (int k = 0; k + 1 < TERRAIN_VIEW3D_STOPS; k++)
    if (h < pal->stop_height[k + 1])
      {
        const float t = (h - pal->stop_height[k]) / (pal->stop_height[k + 1] - pal->stop_height[k]);
        c = h <= pal->stop_height[0] ? colour (pal->stop[0])
                                     : mix (colour (pal->stop[k]), colour (pal->stop[k + 1]), t);
        break;
      }
  c = mix (c, colour (pal->rock), smoothstep (0.10f, 0.30f, 1.0f - up));
  if (p->sea)
    c = mix (colour (pal->sand), c,
             smoothstep ((float) p->sea_level + 0.005f, (float) p->sea_level + 0.02f, h));
  return to_linear (c);
}

/* ---- Lighting ---- */

typedef struct
{
  const View3DScene    *scene;
  const View3DCamera   *camera;
  const TerrainView3DParams *params;
  unsigned char         srgb[4097]; /* linear [0, 1] in 1/4096 steps -> sRGB byte */
} Shader;

static void
srgb_table (Shader *sh)
{
  for (int i = 0; i <= 4096; i++)
    {
      const double l = i / 4096.0;
      const double s = l <= 0.0031308 ? 12.92 * l : 1.055 * pow (l, 1.0 / 2.4) - 0.055;
      sh->srgb[i] = (unsigned char) lrint (fmin (fmax (s, 0.0), 1.0) * 255.0);
    }
}

static unsigned char
encode (const Shader *sh, float v)
{
  return sh->srgb[lrintf (fminf (fmaxf (v, 0.0f), 1.0f) * 4096.0f)];
}

/* albedo x (sun x diffuse x lit + sky) + specular x lit, for a unit normal n at point w. */
static Rgb
light (const Shader *sh, Rgb albedo, const float n[3], const float w[3], float lit,
       float shine, float exponent)
{
  const double *sun = sh->scene->sun, *eye = sh->camera->eye;
  const double  nl = n[0] * sun[0] + n[1] * sun[1] + n[2] * sun[2];
  const double  diffuse = fmax (nl, 0.0) * lit;
  const double  sky = 0.22 * (0.55 + 0.45 * n[2]);
  double        v[3] = { eye[0] - w[0], eye[1] - w[1], eye[2] - w[2] };
  const double  vl = sqrt (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  double        rv = 0.0;
  for (int a = 0; a < 3; a++)
    rv += (2.0 * nl * n[a] - sun[a]) * v[a] / vl; /* Phong: the sun reflected, towards the eye */
  const float spec = nl > 0.0 ? (float) (shine * pow (fmax (rv, 0.0), exponent) * lit) : 0.0f;
  return (Rgb) { (float) (albedo.r * (1.00 * diffuse + sky)) + spec,
                 (float) (albedo.g * (0.97 * diffuse + sky * 1.05)) + spec,
                 (float) (albedo.b * (0.90 * diffuse + sky * 1.20)) + spec };
}

/* 1 where the point stands above its horizon, 0 below, a short ramp between. */
static float
lit_at (float z, float horizon)
{
  return fminf (fmaxf (1.0f + (z - horizon) / 0.35f, 0.0f), 1.0f);
}

static const float WALL_NORMALS[4][3] = { { 0, -1, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { -1, 0, 0 } };

static Rgb
shade_point (const Shader *sh, int what, const float w[3])
{
  float h, n[3], horizon;
  view3d_scene_sample (sh->scene, w[0], w[1], &h, n, &horizon);
  if (what == VIEW3D_GROUND)
    return light (sh, ground_colour (sh->params, h, n[2]), n, w, lit_at (w[2], horizon), 0.08f,
                  12.0f);
  if (what == VIEW3D_SEA)
    {
      static const float up[3] = { 0, 0, 1 };
      return light (sh, to_linear (colour (PALETTE.water)), up, w, lit_at (w[2], horizon), 0.45f,
                    60.0f);
    }
  const float *wn = WALL_NORMALS[what - VIEW3D_WALL_NORTH];
  const float  below = (float) (h * sh->scene->zscale);
  const Rgb    albedo = to_linear (colour (sh->scene->sea && w[2] > below + 1e-3f ? PALETTE.water
                                                                              : PALETTE.wall));
  return light (sh, albedo, wn, w, 1.0f, 0.0f, 1.0f);
}

static Rgb
sky_colour (int j, int height)
{
  const float t = height > 1 ? (float) j / (height - 1) : 0.0f;
  return to_linear (mix (colour (PALETTE.sky_top), colour (PALETTE.sky_low), t));
}

typedef struct
{
  const Shader      *sh;
  const View3DFrame *fr;
  unsigned char     *rgb;
  float             *linear_rgb;
  int                strips;
} Shading;

/* Rows of the picture, shaded: one task of shade_frame. */
static void
shade_strip (void *user, int index)
{
  const Shading     *job = user;
  const Shader      *sh = job->sh;
  const View3DFrame *fr = job->fr;
  unsigned char     *rgb = job->rgb;
  float             *linear_rgb = job->linear_rgb;
  const double       near = sh->camera->near_depth, far = sh->camera->far_depth;
  const int          first = (int) ((int64_t) index * fr->height / job->strips);
  const int          end = (int) ((int64_t) (index + 1) * fr->height / job->strips);
  for (int j = first; j < end; j++)
    {
      const Rgb sky = sky_colour (j, fr->height);
      for (int i = 0; i < fr->width; i++)
        {
          const size_t k = (size_t) j * fr->width + i;
          Rgb          c = sky;
          if (fr->what[k] != VIEW3D_SKY)
            {
              const float haze = (float) (0.25 * fmin (fmax ((1.0 / fr->inv_depth[k] - near) /
                                                              (far - near), 0.0), 1.0));
              c = mix (shade_point (sh, fr->what[k], fr->world + 3 * k), sky, haze);
            }
          if (linear_rgb)
            {
              linear_rgb[3 * k] = c.r;
              linear_rgb[3 * k + 1] = c.g;
              linear_rgb[3 * k + 2] = c.b;
            }
          rgb[3 * k] = encode (sh, c.r);
          rgb[3 * k + 1] = encode (sh, c.g);
          rgb[3 * k + 2] = encode (sh, c.b);
        }
    }
}

/* Every pixel on its own, so the picture is the same for any number of strips. */
static void
shade_frame (const Shader *sh, const View3DFrame *fr, unsigned char *rgb, float *linear_rgb)
{
  const int strips = 4 * terrain_parallel_threads ();
  Shading   job = { sh, fr, rgb, linear_rgb, strips < fr->height ? strips : fr->height };
  terrain_parallel_for (job.strips, shade_strip, &job);
}

/* ---- Entry points ---- */

static void
frame_free (View3DFrame *fr)
{
  free (fr->inv_depth);
  free (fr->world);
  free (fr->what);
}

static int
frame_init (View3DFrame *fr, int width, int height)
{
  const size_t n = (size_t) width * height;
  fr->width = width;
  fr->height = height;
  fr->inv_depth = calloc (n, sizeof *fr->inv_depth);
  fr->world = malloc (3 * n * sizeof *fr->world);
  fr->what = calloc (n, 1);
  return fr->inv_depth && fr->world && fr->what;
}

TerrainStatus
terrain_view3d_render_mesh (const TerrainView3DMesh *mesh, const TerrainView3DParams *params,
                            unsigned char *rgb, int width, int height)
{
  return view3d_render (mesh, params, rgb, NULL, width, height);
}

TerrainStatus
view3d_render (const TerrainView3DMesh *mesh, const TerrainView3DParams *params,
               unsigned char *rgb, float *linear_rgb, int width, int height)
{
  if (! terrain_view3d_mesh_ready (mesh) || terrain_view3d_check (params) != NULL ||
      width < 1 || height < 1 || width > TERRAIN_VIEW3D_MAX_PICTURE ||
      height > TERRAIN_VIEW3D_MAX_PICTURE)
    return TERRAIN_ERROR_INVALID;
  View3DScene *scene = terrain_view3d_scene_new (mesh, params);
  View3DFrame  frame;
  Shader      *shader = malloc (sizeof *shader);
  TerrainStatus status = TERRAIN_ERROR_NO_MEMORY;
  if (frame_init (&frame, width, height) && scene && shader)
    {
      View3DCamera camera;
      terrain_view3d_camera_fit (&camera, scene, params, width, height);
      if (view3d_rasterise (scene, &camera, &frame) == 0)
        {
          *shader = (Shader) { scene, &camera, params, { 0 } };
          srgb_table (shader);
          shade_frame (shader, &frame, rgb, linear_rgb);
          status = TERRAIN_OK;
        }
    }
  free (shader);
  frame_free (&frame);
  terrain_view3d_scene_free (scene);
  return status;
}

TerrainStatus
terrain_view3d_render (const float *heights, int map_width, int map_height, int mesh_side,
                       const TerrainView3DParams *params, unsigned char *rgb, int width,
                       int height)
{
  if (map_width < 1 || map_height < 1 || map_width > TERRAIN_MAX_SIDE ||
      map_height > TERRAIN_MAX_SIDE || mesh_side < 2 || mesh_side > 8192)
    return TERRAIN_ERROR_INVALID;
  TerrainView3DMesh *mesh = terrain_view3d_mesh_new (map_width, map_height, mesh_side);
  if (mesh == NULL)
    return TERRAIN_ERROR_NO_MEMORY;
  terrain_view3d_mesh_add_rows (mesh, heights, map_height);
  const TerrainStatus status = terrain_view3d_render_mesh (mesh, params, rgb, width, height);
  terrain_view3d_mesh_free (mesh);
  return status;
}
