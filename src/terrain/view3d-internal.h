/* The 3D view's parts (view3d.h): the reduced mesh, the scene built from it for one set of
 * parameters (scaled heights, normals, the sun's horizon), and the rasteriser's buffers. */
#ifndef TERRAIN_VIEW3D_INTERNAL_H
#define TERRAIN_VIEW3D_INTERNAL_H

#include "view3d.h"

#include <stdint.h>

struct TerrainView3DMesh
{
  int     width, height; /* of the map */
  int     factor;        /* pixels a vertex averages, each way */
  int     cols, rows;    /* vertices */
  int     rows_added;    /* map rows added so far */
  int     finite;        /* no non-finite value added */
  double *sums;          /* cols * rows sums of the blocks */
  float  *heights;       /* cols * rows block averages, once every row is in */
};

/* Below any height: "nothing blocks the sun" (finite, so that interpolating it with a
 * weight of 0 stays a number). */
#define VIEW3D_NO_HORIZON (-1.0e30f)

typedef struct
{
  int     cols, rows;     /* vertices (at least 2 each way: a single row or column doubled) */
  double  zscale;         /* mesh units per layer unit of height */
  float  *h;              /* cols * rows heights in layer units */
  float  *z;              /* the same in mesh units (h * zscale) */
  float  *normal;         /* cols * rows * 3: unit normals */
  float  *horizon;        /* cols * rows: the height (mesh units) a point needs to see the sun */
  float   zmin, zmax;     /* of z */
  float   zbase;          /* the bottom of the walls around the map */
  int     sea;            /* a sea plane at zsea */
  float   zsea;
  double  sun[3];         /* unit vector towards the sun */
} View3DScene;

/* The scene of a ready mesh; NULL for no memory. */
View3DScene *view3d_scene_new (const TerrainView3DMesh *mesh, const TerrainView3DParams *params);
void         view3d_scene_free (View3DScene *scene);
/* World x, y of a vertex column / row: the map centred on 0, one unit between vertices. */
double       view3d_scene_x (const View3DScene *scene, double col);
double       view3d_scene_y (const View3DScene *scene, double row);
/* Bilinear samples at a world point (clamped to the map). */
void         view3d_scene_sample (const View3DScene *scene, double x, double y, float *h,
                                  float normal[3], float *horizon);

/* What each pixel of the picture shows (the rasteriser's output). */
enum
{
  VIEW3D_SKY = 0,
  VIEW3D_GROUND,
  VIEW3D_SEA,
  VIEW3D_WALL_NORTH, /* then east, south, west: a wall's outward side */
  VIEW3D_WALL_EAST,
  VIEW3D_WALL_SOUTH,
  VIEW3D_WALL_WEST
};

typedef struct
{
  double eye[3], forward[3], right[3], up[3];
  double scale, centre_x, centre_y; /* normalised screen -> pixels */
  double near_depth, far_depth;    /* of the scene's bounding sphere */
} View3DCamera;

typedef struct
{
  int            width, height;
  float         *inv_depth; /* 0: nothing drawn */
  float         *world;     /* 3 a pixel: the point seen */
  unsigned char *what;      /* VIEW3D_* */
} View3DFrame;

/* Places the camera and fits the scene to the picture. */
void view3d_camera_fit (View3DCamera *camera, const View3DScene *scene,
                        const TerrainView3DParams *params, int width, int height);
/* Draws the scene's mesh, walls and sea into the frame; nonzero for no memory. */
int  view3d_rasterise (const View3DScene *scene, const View3DCamera *camera, View3DFrame *frame);

/* terrain_view3d_render_mesh, also writing each pixel's colour in linear light (3 floats
 * a pixel) into linear_rgb unless it is NULL: the tests look there for non-numbers, which
 * the 8-bit picture would hide. */
TerrainStatus view3d_render (const TerrainView3DMesh *mesh, const TerrainView3DParams *params,
                             unsigned char *rgb, float *linear_rgb, int width, int height);

#endif
