/* Whole-heightmap helpers shared by generators, filters, previews and tests. */
#ifndef TERRAIN_HEIGHTMAP_H
#define TERRAIN_HEIGHTMAP_H

#include <stddef.h>

/* Smallest and largest value of n floats (n >= 1). */
void terrain_min_max (const float *data, size_t n, float *min, float *max);

/* Maps [min, max] of the data linearly onto [0, 1]. A constant field becomes 0.5.
 * Every output value is clamped into [0, 1] so float rounding never leaves the range. */
void terrain_normalize (float *data, size_t n);

/* Nearest-sample downscale (or upscale) of a src_w x src_h map into dst_w x dst_h: the
 * destination pixel (x, y) takes the source pixel under its centre. Used by previews, so
 * every preview pixel is an exact sample of the full-size result. */
void terrain_sample_nearest (const float *src, int src_w, int src_h,
                             float *dst, int dst_w, int dst_h);

/* Area-mean downscale of a src_w x src_h map into dst_w x dst_h: the destination pixel
 * (x, y) is the mean of the source pixels [x src_w / dst_w, (x + 1) src_w / dst_w) by
 * [y src_h / dst_h, (y + 1) src_h / dst_h) (at least the one under it when upscaling).
 * For the relief preview: shading nearest samples of a rough map shades noise between
 * samples far apart, shading their means shades the map's shape. */
void terrain_sample_mean (const float *src, int src_w, int src_h,
                          float *dst, int dst_w, int dst_h);

/* Reduction by a whole factor: a map of ceil(width / factor) x ceil(height / factor) whose
 * pixel (x, y) is the mean of the source pixels [x factor, (x + 1) factor) by [y factor,
 * (y + 1) factor) that there are. */
void terrain_reduce_mean (const float *src, int width, int height, int factor, float *dst);

/* The way back: a map reduced by terrain_reduce_mean stretched to width x height, bilinear
 * from pixel centre to pixel centre; past the outermost centres the nearest one's value,
 * or, with wrap (a tileable map), interpolated across the edge to the other side. */
void terrain_stretch_bilinear (const float *src, int factor, int wrap, float *dst, int width,
                               int height);

/* 1 when any of n floats is NaN or infinite. */
int    terrain_has_non_finite (const float *data, size_t n);
/* How many of n floats are NaN or infinite; *first gets the index of the first of them
 * (untouched when there is none). */
size_t terrain_count_non_finite (const float *data, size_t n, size_t *first);

#endif
