/* The 3D view's camera and rasteriser: the scene's triangles (the mesh, two a cell; the
 * walls around it; the sea) are drawn with a depth buffer into a frame that keeps, for
 * every pixel, the world point it shows and what it is; view3d.c shades it. Vertices are
 * snapped to 1/16 pixel and edges tested in integers, so triangles that share an edge
 * cover every pixel centre on it exactly once (no cracks, no pixel drawn twice). The
 * picture is cut into strips of rows drawn in parallel, each strip drawing every triangle
 * in the same order over its own rows: a pixel's result never depends on the strips. */
#include "terrain-common.h"
#include "view3d-internal.h"

#include <math.h>
#include <stdlib.h>

#define DEG      (3.14159265358979323846 / 180.0)
#define SUBPIXEL 16
#define MARGIN   0.03

typedef struct
{
  int64_t x, y;    /* picture position, 1/SUBPIXEL pixel */
  float   inv_depth;
  float   world[3];
} Vertex;

static double
dot (const double a[3], const double b[3])
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Normalised screen position (x right, y down) and depth of a world point. */
static void
project (const View3DCamera *cam, double x, double y, double z, double *sx, double *sy,
         double *depth)
{
  const double d[3] = { x - cam->eye[0], y - cam->eye[1], z - cam->eye[2] };
  *depth = dot (d, cam->forward);
  *sx = dot (d, cam->right) / *depth;
  *sy = -dot (d, cam->up) / *depth;
}

static double
top_of (const View3DScene *s)
{
  return s->sea && s->zsea > s->zmax ? s->zsea : s->zmax;
}

static void
grow (double box[4], double sx, double sy)
{
  box[0] = fmin (box[0], sx);
  box[1] = fmax (box[1], sx);
  box[2] = fmin (box[2], sy);
  box[3] = fmax (box[3], sy);
}

/* The screen box of everything drawn: every vertex of the surface, and the corners of the
 * base and of the sea (straight edges between them stay inside). */
static void
screen_box (const View3DCamera *cam, const View3DScene *s, double box[4])
{
  double sx, sy, depth;
  box[0] = box[2] = INFINITY;
  box[1] = box[3] = -INFINITY;
  for (int r = 0; r < s->rows; r++)
    for (int c = 0; c < s->cols; c++)
      {
        project (cam, terrain_view3d_scene_x (s, c), terrain_view3d_scene_y (s, r),
                 s->z[(size_t) r * s->cols + c], &sx, &sy, &depth);
        grow (box, sx, sy);
      }
  for (int corner = 0; corner < 8; corner++)
    {
      const double x = terrain_view3d_scene_x (s, corner & 1 ? s->cols - 1 : 0);
      const double y = terrain_view3d_scene_y (s, corner & 2 ? s->rows - 1 : 0);
      project (cam, x, y, corner & 4 ? top_of (s) : s->zbase, &sx, &sy, &depth);
      grow (box, sx, sy);
    }
}

void
terrain_view3d_camera_fit (View3DCamera *cam, const View3DScene *s, const TerrainView3DParams *p,
                   int width, int height)
{
  const double az = p->view_azimuth * DEG, el = p->view_elevation * DEG;
  const double hx = 0.5 * (s->cols - 1), hy = 0.5 * (s->rows - 1);
  const double hz = 0.5 * (top_of (s) - s->zbase), cz = 0.5 * (top_of (s) + s->zbase);
  const double radius = sqrt (hx * hx + hy * hy + hz * hz);
  const double f[3] = { sin (az) * cos (el), -cos (az) * cos (el), -sin (el) };
  const double r[3] = { cos (az), sin (az), 0.0 };
  for (int a = 0; a < 3; a++)
    {
      cam->forward[a] = f[a];
      cam->right[a] = r[a];
      cam->eye[a] = (a == 2 ? cz : 0.0) - 3.0 * radius * f[a];
    }
  cam->up[0] = f[1] * r[2] - f[2] * r[1];
  cam->up[1] = f[2] * r[0] - f[0] * r[2];
  cam->up[2] = f[0] * r[1] - f[1] * r[0];
  cam->near_depth = 2.0 * radius;
  cam->far_depth = 4.0 * radius;

  double box[4];
  screen_box (cam, s, box);
  const double bw = fmax (box[1] - box[0], 1e-9), bh = fmax (box[3] - box[2], 1e-9);
  cam->scale = fmin (width * (1.0 - 2 * MARGIN) / bw, height * (1.0 - 2 * MARGIN) / bh) * p->zoom;
  cam->centre_x = 0.5 * (box[0] + box[1]) - p->pan_x * width / cam->scale;
  cam->centre_y = 0.5 * (box[2] + box[3]) - p->pan_y * height / cam->scale;
}

static Vertex
vertex (const View3DCamera *cam, const View3DFrame *fr, double x, double y, double z)
{
  double sx, sy, depth;
  project (cam, x, y, z, &sx, &sy, &depth);
  const double px = 0.5 * fr->width + (sx - cam->centre_x) * cam->scale;
  const double py = 0.5 * fr->height + (sy - cam->centre_y) * cam->scale;
  /* Far outside the picture (a zoom), the position only needs to stay on its side. */
  const double limit = 4.0 * TERRAIN_VIEW3D_MAX_PICTURE * 100.0;
  return (Vertex) { llround (fmax (-limit, fmin (limit, px)) * SUBPIXEL),
                    llround (fmax (-limit, fmin (limit, py)) * SUBPIXEL),
                    (float) (1.0 / depth),
                    { (float) x, (float) y, (float) z } };
}

static int64_t
edge (const Vertex *a, const Vertex *b, int64_t px, int64_t py)
{
  return (b->x - a->x) * (py - a->y) - (b->y - a->y) * (px - a->x);
}

/* A pixel centre on an edge belongs to one of the two triangles that share the edge: the
 * one that has it in this direction. */
static int64_t
bias (const Vertex *a, const Vertex *b)
{
  return b->y < a->y || (b->y == a->y && b->x > a->x) ? 0 : -1;
}

static void
write_pixel (View3DFrame *fr, size_t i, const Vertex *v[3], const double l[3], int what)
{
  const double inv = l[0] * v[0]->inv_depth + l[1] * v[1]->inv_depth + l[2] * v[2]->inv_depth;
  if (! (inv > fr->inv_depth[i]))
    return;
  fr->inv_depth[i] = (float) inv;
  fr->what[i] = (unsigned char) what;
  for (int a = 0; a < 3; a++)
    fr->world[3 * i + a] = (float) ((l[0] * v[0]->inv_depth * v[0]->world[a] +
                                     l[1] * v[1]->inv_depth * v[1]->world[a] +
                                     l[2] * v[2]->inv_depth * v[2]->world[a]) / inv);
}

/* The rows of the picture one task draws. */
typedef struct
{
  View3DFrame *frame;
  int64_t      first, last;
} Strip;

static void
triangle (const Strip *st, const Vertex *a, const Vertex *b, const Vertex *c, int what)
{
  View3DFrame  *fr = st->frame;
  const int64_t top = fmin (fmin (a->y, b->y), c->y), bottom = fmax (fmax (a->y, b->y), c->y);
  if (bottom < st->first * SUBPIXEL || top > (st->last + 1) * SUBPIXEL)
    return;
  const Vertex *v[3] = { a, b, c };
  int64_t       area = edge (a, b, c->x, c->y);
  if (area == 0)
    return;
  if (area < 0)
    {
      v[1] = c;
      v[2] = b;
      area = -area;
    }
  const int64_t x0 = fmin (fmin (v[0]->x, v[1]->x), v[2]->x);
  const int64_t x1 = fmax (fmax (v[0]->x, v[1]->x), v[2]->x);
  const int64_t y0 = fmin (fmin (v[0]->y, v[1]->y), v[2]->y);
  const int64_t y1 = fmax (fmax (v[0]->y, v[1]->y), v[2]->y);
  /* Pixel centres (i + 0.5) inside the box and the picture. */
  const int64_t i0 = x0 < 0 ? 0 : (x0 - SUBPIXEL / 2 + SUBPIXEL - 1) / SUBPIXEL;
  int64_t       j0 = y0 < 0 ? 0 : (y0 - SUBPIXEL / 2 + SUBPIXEL - 1) / SUBPIXEL;
  const int64_t i1 = x1 < 0 ? -1 : fmin ((x1 - SUBPIXEL / 2) / SUBPIXEL, fr->width - 1);
  int64_t       j1 = y1 < 0 ? -1 : fmin ((y1 - SUBPIXEL / 2) / SUBPIXEL, fr->height - 1);
  j0 = j0 > st->first ? j0 : st->first;
  j1 = j1 < st->last ? j1 : st->last;
  const int64_t b0 = bias (v[1], v[2]), b1 = bias (v[2], v[0]), b2 = bias (v[0], v[1]);
  for (int64_t j = j0; j <= j1; j++)
    {
      const int64_t py = j * SUBPIXEL + SUBPIXEL / 2;
      for (int64_t i = i0; i <= i1; i++)
        {
          const int64_t px = i * SUBPIXEL + SUBPIXEL / 2;
          const int64_t w0 = edge (v[1], v[2], px, py), w1 = edge (v[2], v[0], px, py);
          const int64_t w2 = edge (v[0], v[1], px, py);
          if (w0 + b0 < 0 || w1 + b1 < 0 || w2 + b2 < 0)
            continue;
          const double l[3] = { (double) w0 / area, (double) w1 / area, (double) w2 / area };
          write_pixel (fr, (size_t) j * fr->width + i, v, l, what);
        }
    }
}

/* The surface: two triangles a cell. */
static void
draw_surface (const View3DScene *s, const Vertex *v, const Strip *st)
{
  for (int r = 0; r + 1 < s->rows; r++)
    for (int c = 0; c + 1 < s->cols; c++)
      {
        const Vertex *p = v + (size_t) r * s->cols + c, *q = p + s->cols;
        triangle (st, p, p + 1, q + 1, VIEW3D_GROUND);
        triangle (st, p, q + 1, q, VIEW3D_GROUND);
      }
}

/* A wall along one side, from the surface (or the sea above it) down to the base:
 * side 0..3 = north, east, south, west. */
static void
draw_wall (const View3DScene *s, const View3DCamera *cam, const Strip *st, int side)
{
  const View3DFrame *fr = st->frame;
  const int along_x = side == 0 || side == 2;
  const int n = along_x ? s->cols : s->rows;
  const int fixed = side == 0 ? 0 : side == 1 ? s->cols - 1 : side == 2 ? s->rows - 1 : 0;
  for (int k = 0; k + 1 < n; k++)
    {
      Vertex corner[4];
      for (int e = 0; e < 2; e++)
        {
          const int    c = along_x ? k + e : fixed, r = along_x ? fixed : k + e;
          const double x = terrain_view3d_scene_x (s, c), y = terrain_view3d_scene_y (s, r);
          double       top = s->z[(size_t) r * s->cols + c];
          if (s->sea && s->zsea > top)
            top = s->zsea;
          corner[2 * e] = vertex (cam, fr, x, y, top);
          corner[2 * e + 1] = vertex (cam, fr, x, y, s->zbase);
        }
      triangle (st, &corner[0], &corner[2], &corner[3], VIEW3D_WALL_NORTH + side);
      triangle (st, &corner[0], &corner[3], &corner[1], VIEW3D_WALL_NORTH + side);
    }
}

static void
draw_sea (const View3DScene *s, const View3DCamera *cam, const Strip *st)
{
  const View3DFrame *fr = st->frame;
  Vertex       v[4];
  const double x0 = terrain_view3d_scene_x (s, 0), x1 = terrain_view3d_scene_x (s, s->cols - 1);
  const double y0 = terrain_view3d_scene_y (s, 0), y1 = terrain_view3d_scene_y (s, s->rows - 1);
  v[0] = vertex (cam, fr, x0, y0, s->zsea);
  v[1] = vertex (cam, fr, x1, y0, s->zsea);
  v[2] = vertex (cam, fr, x1, y1, s->zsea);
  v[3] = vertex (cam, fr, x0, y1, s->zsea);
  triangle (st, &v[0], &v[1], &v[2], VIEW3D_SEA);
  triangle (st, &v[0], &v[2], &v[3], VIEW3D_SEA);
}

typedef struct
{
  const View3DScene  *scene;
  const View3DCamera *camera;
  View3DFrame        *frame;
  const Vertex       *surface; /* the surface's vertices, projected once */
  int                 strips;
} Drawing;

static void
draw_strip (void *user, int index)
{
  const Drawing *d = user;
  const Strip    st = { d->frame, (int64_t) index * d->frame->height / d->strips,
                        (int64_t) (index + 1) * d->frame->height / d->strips - 1 };
  draw_surface (d->scene, d->surface, &st);
  for (int side = 0; side < 4; side++)
    draw_wall (d->scene, d->camera, &st, side);
  if (d->scene->sea)
    draw_sea (d->scene, d->camera, &st);
}

int
view3d_rasterise (const View3DScene *s, const View3DCamera *cam, View3DFrame *fr)
{
  Vertex *v = malloc ((size_t) s->cols * s->rows * sizeof *v);
  if (v == NULL)
    return 1;
  for (int r = 0; r < s->rows; r++)
    for (int c = 0; c < s->cols; c++)
      v[(size_t) r * s->cols + c] = vertex (cam, fr, terrain_view3d_scene_x (s, c), terrain_view3d_scene_y (s, r),
                                            s->z[(size_t) r * s->cols + c]);
  const int threads = terrain_parallel_threads ();
  Drawing   d = { s, cam, fr, v, threads > 1 ? (threads < fr->height ? threads : fr->height) : 1 };
  terrain_parallel_for (d.strips, draw_strip, &d);
  free (v);
  return 0;
}
