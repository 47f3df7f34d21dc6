/* The landscapes' coarse grid made to drain to the sea (landscape-drain.c). */
#ifndef TERRAIN_LANDSCAPE_DRAIN_H
#define TERRAIN_LANDSCAPE_DRAIN_H

#include "terrain-common.h"

TerrainStatus landscape_drain_to_sea (float *h, int width, int height, float sea, float rise);

#endif
