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

/* terrain_hillshade_contrast_z_scale draws the 90th percentile of a map's slopes at this
 * angle: steep enough that hills and valleys read, gentle enough that few slopes facing
 * away from a 45-degree light turn black. (The 90th rather than the median: on smooth maps
 * most slopes are alike and the median leaves them flat; 1.33 instead of 1.5 between the
 * spreads of greys of a rough and a smooth Diamond-Square, tests/unit/test-shade.c.) */
#define TERRAIN_HILLSHADE_STEEP_SLOPE 40.0

/* A z_scale that normalises the relief's contrast to the map's own slopes: nine in ten of
 * the map's sloping pixels (zero slopes left out, so plateaus and seas do not count) are
 * drawn less steep than TERRAIN_HILLSHADE_STEEP_SLOPE degrees. A rough map and a smooth
 * one, or a map and the same map ten times as tall, then shade with about the same spread
 * of greys. Looks at up to 2^16 pixels spread evenly over the map. A map with no slope at
 * all gets terrain_hillshade_z_scale (it shades flat at any scale); -1 when the memory for
 * the slopes cannot be had. */
double terrain_hillshade_contrast_z_scale (const float *h, int width, int height);

/* Writes width * height shades in [0, 1] into out (which must not overlap h). h holds
 * finite values; width, height >= 1 (nothing is written otherwise). */
void terrain_hillshade (const float *h, int width, int height, double azimuth_deg,
                        double elevation_deg, double z_scale, float *out);

#endif
