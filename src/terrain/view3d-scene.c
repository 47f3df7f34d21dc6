/* The 3D view's scene: the mesh's heights scaled to mesh units, their normals, and for
 * every vertex the height it would need to see the sun (its horizon), all for one set of
 * parameters. */
#include "view3d-internal.h"

#include <math.h>
#include <stdlib.h>

#define DEG (3.14159265358979323846 / 180.0)

double
terrain_view3d_scene_x (const View3DScene *scene, double col)
{
  return col - 0.5 * (scene->cols - 1);
}

double
terrain_view3d_scene_y (const View3DScene *scene, double row)
{
  return row - 0.5 * (scene->rows - 1);
}

/* Central differences (one-sided at the border), one unit between vertices. */
static void
compute_normals (View3DScene *s)
{
  for (int r = 0; r < s->rows; r++)
    for (int c = 0; c < s->cols; c++)
      {
        const int    c0 = c > 0 ? c - 1 : c, c1 = c < s->cols - 1 ? c + 1 : c;
        const int    r0 = r > 0 ? r - 1 : r, r1 = r < s->rows - 1 ? r + 1 : r;
        const double dx = (s->z[(size_t) r * s->cols + c1] - s->z[(size_t) r * s->cols + c0]) /
                          (c1 - c0);
        const double dy = (s->z[(size_t) r1 * s->cols + c] - s->z[(size_t) r0 * s->cols + c]) /
                          (r1 - r0);
        const double len = sqrt (dx * dx + dy * dy + 1.0);
        float       *n = s->normal + 3 * ((size_t) r * s->cols + c);
        n[0] = (float) (-dx / len);
        n[1] = (float) (-dy / len);
        n[2] = (float) (1.0 / len);
      }
}

/* The horizon test, exact along the sun's azimuth up to the linear interpolation across
 * it: a vertex p sees the sun when it stands at least as high as
 *   horizon(p) = max over t > 0 of (z(p + t d) - t tan(elevation)),
 * d the unit step towards the sun in the plane. Stepping one vertex along the axis nearer d
 * (t = step), horizon(p) = max(z(q), horizon(q)) - step tan(elevation), q = p + step d on the
 * line of vertices before p, where both are interpolated linearly; lines are swept from the
 * sun's side, so q's line is done before p's. One pass over the mesh. */
static void
compute_horizon (View3DScene *s, double azimuth, double elevation, int shadows)
{
  const size_t n = (size_t) s->cols * s->rows;
  const double dx = sin (azimuth * DEG), dy = -cos (azimuth * DEG);
  if (! shadows || elevation >= 90.0)
    {
      for (size_t i = 0; i < n; i++)
        s->horizon[i] = TERRAIN_VIEW3D_NO_HORIZON;
      return;
    }
  const int    along_x = fabs (dx) >= fabs (dy);
  const int    lines = along_x ? s->cols : s->rows, length = along_x ? s->rows : s->cols;
  const int    towards = (along_x ? dx : dy) > 0 ? 1 : -1; /* the sun's side, as a step */
  const double slide = along_x ? dy / fabs (dx) : dx / fabs (dy); /* across, per line */
  const double drop = tan (elevation * DEG) / fmax (fabs (dx), fabs (dy));
  /* vertex k of line l */
#define AT(l, k) (along_x ? (size_t) (k) * s->cols + (l) : (size_t) (l) * s->cols + (k))
  for (int step = 0; step < lines; step++)
    {
      const int l = towards > 0 ? lines - 1 - step : step;
      for (int k = 0; k < length; k++)
        {
          const double q = k + slide;
          const int    k0 = (int) floor (q);
          if (step == 0 || k0 < 0 || k0 >= length || (k0 == length - 1 && q > k0))
            {
              s->horizon[AT (l, k)] = TERRAIN_VIEW3D_NO_HORIZON;
              continue;
            }
          const int    k1 = k0 + 1 < length ? k0 + 1 : k0;
          const double w = q - k0;
          const size_t a = AT (l + towards, k0), b = AT (l + towards, k1);
          const double sa = fmax (s->z[a], s->horizon[a]), sb = fmax (s->z[b], s->horizon[b]);
          s->horizon[AT (l, k)] = (float) ((1.0 - w) * sa + w * sb - drop);
        }
    }
#undef AT
}

static void
set_sun (View3DScene *s, double azimuth, double elevation)
{
  s->sun[0] = cos (elevation * DEG) * sin (azimuth * DEG);
  s->sun[1] = -cos (elevation * DEG) * cos (azimuth * DEG);
  s->sun[2] = sin (elevation * DEG);
}

/* Heights from the mesh (a single row or column doubled, so that there is a surface),
 * scaled; their range; the walls' base and the sea. */
static void
fill_heights (View3DScene *s, const TerrainView3DMesh *mesh, const TerrainView3DParams *p)
{
  const int side = mesh->width > mesh->height ? mesh->width : mesh->height;
  s->zscale = p->exaggeration * side / (8.0 * mesh->factor);
  s->zmin = INFINITY;
  s->zmax = -INFINITY;
  for (int r = 0; r < s->rows; r++)
    for (int c = 0; c < s->cols; c++)
      {
        const int    mr = r < mesh->rows ? r : mesh->rows - 1;
        const int    mc = c < mesh->cols ? c : mesh->cols - 1;
        const size_t i = (size_t) r * s->cols + c;
        s->h[i] = mesh->heights[(size_t) mr * mesh->cols + mc];
        s->z[i] = (float) (s->h[i] * s->zscale);
        s->zmin = fminf (s->zmin, s->z[i]);
        s->zmax = fmaxf (s->zmax, s->z[i]);
      }
  s->sea = p->sea && p->sea_level * s->zscale > s->zmin;
  s->zsea = (float) (p->sea_level * s->zscale);
  /* The walls stand a little below the lowest point, so that a flat map is a slab. */
  s->zbase = s->zmin - (float) (0.02 * (s->cols > s->rows ? s->cols : s->rows) + 0.5);
}

View3DScene *
terrain_view3d_scene_new (const TerrainView3DMesh *mesh, const TerrainView3DParams *params)
{
  if (! terrain_view3d_mesh_ready (mesh) || terrain_view3d_check (params) != NULL)
    return NULL;
  View3DScene *s = calloc (1, sizeof *s);
  if (s == NULL)
    return NULL;
  s->cols = mesh->cols > 1 ? mesh->cols : 2;
  s->rows = mesh->rows > 1 ? mesh->rows : 2;
  const size_t n = (size_t) s->cols * s->rows;
  s->h = malloc (n * sizeof *s->h);
  s->z = malloc (n * sizeof *s->z);
  s->normal = malloc (3 * n * sizeof *s->normal);
  s->horizon = malloc (n * sizeof *s->horizon);
  if (s->h == NULL || s->z == NULL || s->normal == NULL || s->horizon == NULL)
    {
      terrain_view3d_scene_free (s);
      return NULL;
    }
  fill_heights (s, mesh, params);
  compute_normals (s);
  compute_horizon (s, params->light_azimuth, params->light_elevation, params->shadows);
  set_sun (s, params->light_azimuth, params->light_elevation);
  return s;
}

void
terrain_view3d_scene_free (View3DScene *scene)
{
  if (scene == NULL)
    return;
  free (scene->h);
  free (scene->z);
  free (scene->normal);
  free (scene->horizon);
  free (scene);
}

void
view3d_scene_sample (const View3DScene *s, double x, double y, float *h, float normal[3],
                     float *horizon)
{
  double gx = x + 0.5 * (s->cols - 1), gy = y + 0.5 * (s->rows - 1);
  gx = fmin (fmax (gx, 0.0), s->cols - 1.0);
  gy = fmin (fmax (gy, 0.0), s->rows - 1.0);
  const int    c0 = gx >= s->cols - 1 ? s->cols - 2 : (int) gx;
  const int    r0 = gy >= s->rows - 1 ? s->rows - 2 : (int) gy;
  const double fx = gx - c0, fy = gy - r0;
  const double w[4] = { (1 - fx) * (1 - fy), fx * (1 - fy), (1 - fx) * fy, fx * fy };
  const size_t i[4] = { (size_t) r0 * s->cols + c0, (size_t) r0 * s->cols + c0 + 1,
                        (size_t) (r0 + 1) * s->cols + c0, (size_t) (r0 + 1) * s->cols + c0 + 1 };
  double       hh = 0, hz = 0, n[3] = { 0, 0, 0 };
  for (int k = 0; k < 4; k++)
    {
      hh += w[k] * s->h[i[k]];
      hz += w[k] * s->horizon[i[k]];
      for (int a = 0; a < 3; a++)
        n[a] += w[k] * s->normal[3 * i[k] + a];
    }
  const double len = sqrt (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  for (int a = 0; a < 3; a++)
    normal[a] = (float) (len > 0 ? n[a] / len : (a == 2));
  *h = (float) hh;
  *horizon = (float) hz;
}
