/* The look figures' internals, shared by look.c (the checks, the rescaling, aniso45,
 * speckle, pits, the hillshade), look-spectrum.c (beta) and look-drainage.c (theta). Not a
 * public header. */
#ifndef TERRAIN_LOOK_INTERNAL_H
#define TERRAIN_LOOK_INTERNAL_H

#include "look.h"

#define LOOK_PI 3.14159265358979323846

/* The relief (highest minus lowest) the figures measure a map at, in pixels per width. */
#define LOOK_RELIEF_PER_WIDTH 0.25

/* The factor that rescales the heights to a relief of LOOK_RELIEF_PER_WIDTH of the width (0
 * when the map has no relief) and the lowest height. */
typedef struct
{
  double scale, lowest;
} LookRelief;

/* TERRAIN_OK when heights is a map the figures can be measured on (finite heights; at least
 * min_side on each side; width * height cells indexable by 32 bits); its relief into relief. */
TerrainStatus look_check (const float *heights, int width, int height, int min_side,
                          LookRelief *relief);

/* ---- look-spectrum.c ---- */
TerrainStatus look_beta (const float *heights, int width, int height, const LookRelief *relief,
                         double *beta);

/* ---- look-drainage.c ---- */
TerrainStatus look_slope_area (const float *heights, int width, int height,
                               const LookRelief *relief, double *theta, double *r2);

#endif
