/* Minimal PGM/PFM reading and writing for the command-line renderer and tests. */
#ifndef TERRAIN_PNM_H
#define TERRAIN_PNM_H

/* Reads an 8- or 16-bit binary PGM (P5) of exactly width x height into [0, 1] floats. */
int pnm_read_gray (const char *path, float *out, int width, int height);
/* Reads a heightmap of any size: an 8- or 16-bit PGM (onto [0, 1]), a grey PFM, or raw
 * little-endian floats named NAME-W-H.f32 (W columns, H rows, top row first). Returns the
 * width * height heights (free () them) with their size, or NULL when the file is none of
 * these, is cut short or holds a non-finite height. */
float *pnm_read_heights (const char *path, int *width, int *height);
/* Writes [0, 1] floats as a 16-bit PGM (rounded to nearest) or a little-endian PFM. */
int pnm_write_pgm16 (const char *path, const float *data, int width, int height);
int pnm_write_pfm (const char *path, const float *data, int width, int height);

#endif
