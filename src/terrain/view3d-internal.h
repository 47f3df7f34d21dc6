/* The 3D view's parts (view3d.h): the reduced mesh, the scene built from it for one set of
 * parameters (scaled heights, normals, the sun's horizon), and the rasteriser's buffers. */
#ifndef TERRAIN_VIEW3D_INTERNAL_H
#define TERRAIN_VIEW3D_INTERNAL_H

#include "view3d.h"
#include "view3d-scene.h"

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

typedef TerrainView3DScene View3DScene;

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

typedef TerrainView3DCamera View3DCamera;

typedef struct
{
  int            width, height;
  float         *inv_depth; /* 0: nothing drawn */
  float         *world;     /* 3 a pixel: the point seen */
  unsigned char *what;      /* VIEW3D_* */
} View3DFrame;

/* Draws the scene's mesh, walls and sea into the frame; nonzero for no memory. */
int  view3d_rasterise (const View3DScene *scene, const View3DCamera *camera, View3DFrame *frame);

/* terrain_view3d_render_mesh, also writing each pixel's colour in linear light (3 floats
 * a pixel) into linear_rgb unless it is NULL: the tests look there for non-numbers, which
 * the 8-bit picture would hide. */
TerrainStatus view3d_render (const TerrainView3DMesh *mesh, const TerrainView3DParams *params,
                             unsigned char *rgb, float *linear_rgb, int width, int height);

#endif
