/* A 3D view of a heightmap, rendered on the CPU into an RGB picture: the map as a lit mesh
 * (the lighthouse3d tutorial's normals and lighting, the CS148 project's Phong shading and
 * cast shadows), seen by a camera that orbits it.
 *
 * Conventions:
 *  - The map lies flat, x to the right (east), y down the layer (south), height up. Heights
 *    are the layer's values (0..1 for a layer's full range); a height of 1 stands an eighth
 *    of the map's larger side tall, times `exaggeration` (half the relief preview's scale,
 *    terrain_hillshade_z_scale: mountains seen from the side at a quarter looked twice as
 *    steep as real ranges, whose relief is about a tenth of a 30 km view).
 *  - Azimuths are compass bearings in degrees, clockwise from north (the layer's top): a
 *    light at 315 comes from the north-west, as in a cartographer's hillshade.
 *  - `view_azimuth` is the bearing the camera looks towards, `view_elevation` how far it
 *    looks down: 0 from the horizon, 90 straight down. At 90 with azimuth 0 the layer is
 *    seen as it is, its top at the picture's top; at 0 azimuth and 30 elevation the camera
 *    stands south of the map and looks north over it.
 *  - The camera's lens is a moderate perspective (it stands three times the map's radius
 *    away); the picture is then fitted so that the whole map (with its base) fills it, a
 *    3 % margin around, at zoom 1.
 *  - Shading: normals from central differences of the heights; a sun (diffuse, Phong
 *    specular) and a sky (ambient, more on faces turned up); cast shadows by an exact
 *    horizon test along the sun's azimuth (view3d-scene.c); colours by height and slope
 *    (grass, earth, rock, snow) or plain gray; an optional sea plane.
 *  - Deterministic: the same inputs give the same bytes (one thread).
 *
 * Large maps go through a reduced mesh: box averages of factor x factor pixels, the factor
 * the smallest that leaves at most `mesh_side` vertices on the longer side
 * (TERRAIN_VIEW3D_MESH_SIDE by default). */
#ifndef TERRAIN_VIEW3D_H
#define TERRAIN_VIEW3D_H

#include "terrain-types.h"

/* 1024: a 1024² mesh has two million triangles, about four for each pixel of an 800 x 600
 * picture, so a finer mesh adds no detail the picture can show while its time and memory
 * grow with the square (tests/bench/README.md has the render times). */
#define TERRAIN_VIEW3D_MESH_SIDE 1024
/* Largest picture side. */
#define TERRAIN_VIEW3D_MAX_PICTURE 16384
/* Heights beyond +-this many layer units are drawn at it (a float layer may hold anything). */
#define TERRAIN_VIEW3D_MAX_HEIGHT 1.0e4

typedef enum
{
  TERRAIN_VIEW3D_COLOURS_TERRAIN, /* by height and slope */
  TERRAIN_VIEW3D_COLOURS_GRAY
} TerrainView3DColours;

typedef struct
{
  double               light_azimuth;   /* degrees, any finite value */
  double               light_elevation; /* degrees, [0, 90] */
  double               view_azimuth;    /* degrees, any finite value */
  double               view_elevation;  /* degrees, [0, 90] */
  double               exaggeration;    /* [0, 100] */
  int                  shadows;         /* cast shadows */
  TerrainView3DColours colours;
  int                  sea;             /* a sea plane at sea_level */
  double               sea_level;       /* layer units, finite */
  double               zoom;            /* [0.05, 100]: 1 fits the map to the picture */
  double               pan_x, pan_y;    /* picture widths / heights the view moves, finite */
} TerrainView3DParams;

void        terrain_view3d_defaults (TerrainView3DParams *params);
/* NULL when the parameters are in range, else why not (English). */
const char *terrain_view3d_check (const TerrainView3DParams *params);

/* The reduced mesh of a width x height map, fed row by row (so a layer can be read band by
 * band, never whole). */
typedef struct TerrainView3DMesh TerrainView3DMesh;

/* NULL for a size out of range (1..TERRAIN_MAX_SIDE, mesh_side 2..8192) or no memory. */
TerrainView3DMesh *terrain_view3d_mesh_new (int width, int height, int mesh_side);
void               terrain_view3d_mesh_free (TerrainView3DMesh *mesh);
/* Adds the next `count` rows (width floats each, in order from the top). Non-finite values
 * make the mesh unusable (terrain_view3d_mesh_ready says so). */
void               terrain_view3d_mesh_add_rows (TerrainView3DMesh *mesh, const float *rows,
                                                 int count);
/* Whether every row has been added and all were finite. */
int                terrain_view3d_mesh_ready (const TerrainView3DMesh *mesh);
/* The mesh's vertices a side. */
void               terrain_view3d_mesh_size (const TerrainView3DMesh *mesh, int *cols, int *rows);
/* Whether two ready meshes have the same size and vertices (a window follows a layer by
 * reading it again and comparing). */
int                terrain_view3d_mesh_same (const TerrainView3DMesh *a,
                                             const TerrainView3DMesh *b);

/* Renders the mesh into rgb (width * height * 3 bytes, R G B, rows from the top).
 * TERRAIN_ERROR_INVALID for parameters out of range, a picture size out of
 * 1..TERRAIN_VIEW3D_MAX_PICTURE or a mesh not ready (rgb is then left as it was). */
TerrainStatus terrain_view3d_render_mesh (const TerrainView3DMesh *mesh,
                                          const TerrainView3DParams *params,
                                          unsigned char *rgb, int width, int height);

/* The same for a whole map in memory (mesh_side vertices at most a side). */
TerrainStatus terrain_view3d_render (const float *heights, int map_width, int map_height,
                                     int mesh_side, const TerrainView3DParams *params,
                                     unsigned char *rgb, int width, int height);

#endif
