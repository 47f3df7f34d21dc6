/* Relief shading (hillshade) of a heightmap, for previews: a grey image that shows the
 * shape of the terrain the way a lit 3D view would (the lighthouse3d "computing normals"
 * and "simulating lighting" pages).
 *
 * Conventions:
 *  - The map lies in the image plane, x to the right (east), y down (south); height is up.
 *  - The normal at a point comes from central differences of the height, one-sided at the
 *    border (and zero along an axis of one pixel).
 *  - Light is directional, from `azimuth` degrees (0 = north = up in the image, 90 = east,
 *    clockwise) and `elevation` degrees above the horizon (90 = straight down).
 *  - Shade = max(0, normal . light) (Lambert, no ambient), so a flat map is uniformly
 *    sin(elevation) and a slope facing away from the light is black. Output is in [0, 1].
 *  - z_scale converts height units into pixels: a height difference d between neighbouring
 *    pixels is a rise of d * z_scale pixels per pixel of run. Heights in [0, 1] need a
 *    z_scale of the order of the map size to show relief; terrain_hillshade_z_scale() gives
 *    one that makes the whole [0, 1] range as tall as a quarter of the map's larger side,
 *    which looks the same on a preview and on the full-size map.
 */
#ifndef TERRAIN_SHADE_H
#define TERRAIN_SHADE_H

/* The cartographic default: light from the north-west (top left), 45 degrees up. Light
 * from the top reads as relief; light from the bottom makes hills look like hollows. */
#define TERRAIN_HILLSHADE_AZIMUTH   315.0
#define TERRAIN_HILLSHADE_ELEVATION 45.0

/* max (width, height) / 4: a [0, 1] heightmap of this size stands a quarter as tall as it is wide. */
double terrain_hillshade_z_scale (int width, int height);

/* Writes width * height shades in [0, 1] into out (which must not overlap h). h holds
 * finite values; width, height >= 1 (nothing is written otherwise). */
void terrain_hillshade (const float *h, int width, int height, double azimuth_deg,
                        double elevation_deg, double z_scale, float *out);

#endif
