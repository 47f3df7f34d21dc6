/* What a renderer on the GPU (the plug-in's OpenGL view) needs to draw the very picture
 * that terrain_view3d_render_mesh draws on the CPU (view3d.h): the scene of a mesh for one
 * set of parameters, the camera fitted to a picture, and the colours. The CPU renderer draws
 * from these same values, so both follow one definition.
 *
 * World coordinates: x east, y south (down the layer), z up, in mesh units (one unit
 * between vertices), the map centred on x = y = 0. */
#ifndef TERRAIN_VIEW3D_SCENE_H
#define TERRAIN_VIEW3D_SCENE_H

#include "view3d.h"

/* Below any height: "nothing blocks the sun" (finite, so that interpolating it with a
 * weight of 0 stays a number). */
#define TERRAIN_VIEW3D_NO_HORIZON (-1.0e30f)

typedef struct TerrainView3DScene
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
} TerrainView3DScene;

/* The camera: a world point p is seen at normalised screen position
 *   sx = (p - eye).right / depth,  sy = -(p - eye).up / depth,  depth = (p - eye).forward,
 * which is picture pixel (width / 2 + (sx - centre_x) scale, height / 2 + (sy - centre_y)
 * scale), pixel centres at +0.5, rows from the top. Everything drawn lies at depths between
 * near_depth and far_depth. */
typedef struct
{
  double eye[3], forward[3], right[3], up[3];
  double scale, centre_x, centre_y; /* normalised screen -> pixels */
  double near_depth, far_depth;    /* of the scene's bounding sphere */
} TerrainView3DCamera;

/* The colours, in sRGB as the CPU renderer mixes them (then converts the mix to linear
 * light). The ground's by height: stop_height[k] (layer units) has colour stop[k], linear
 * between stops; rock where it is steep, sand just above a sea. The sky mixes from its top
 * row to its bottom one. */
#define TERRAIN_VIEW3D_STOPS 6
typedef struct
{
  float stop_height[TERRAIN_VIEW3D_STOPS];
  float stop[TERRAIN_VIEW3D_STOPS][3];
  float rock[3], sand[3], water[3], wall[3], gray[3], sky_top[3], sky_low[3];
} TerrainView3DPalette;

/* NULL for a mesh not ready, parameters out of range or no memory. */
TerrainView3DScene *terrain_view3d_scene_new (const TerrainView3DMesh *mesh,
                                              const TerrainView3DParams *params);
void                terrain_view3d_scene_free (TerrainView3DScene *scene);
/* World x of a vertex column, y of a vertex row. */
double              terrain_view3d_scene_x (const TerrainView3DScene *scene, double col);
double              terrain_view3d_scene_y (const TerrainView3DScene *scene, double row);
/* Places the camera (params' view, zoom and pan) and fits the scene to a width x height
 * picture. */
void                terrain_view3d_camera_fit (TerrainView3DCamera *camera,
                                               const TerrainView3DScene *scene,
                                               const TerrainView3DParams *params, int width,
                                               int height);
const TerrainView3DPalette *terrain_view3d_palette (void);

#endif
