/* Smooth fractal noise without a lattice (spline-noise.h). */
#include "spline-noise.h"

#include "random.h"
#include "terrain-common.h"

#include <limits.h>
#include <math.h>

/* The hash's salt of the octaves' offsets (octave k's nodes have salt k). */
#define OFFSET_SALT 0x5eed0ff5u

typedef struct
{
  int      spacing, offset_x, offset_y;
  int      pixels; /* white noise on the pixels themselves, not interpolated */
  float    amp;
  uint32_t salt;
} Octave;

typedef struct
{
  uint32_t seed;
  Octave   octaves[TERRAIN_SPLINE_NOISE_MAX_LEVELS + 2];
  int      count, width;
  float    scale;
  float   *scratch; /* per strip: 4 interpolated rows, then one row of nodes */
  float   *out;
} Noise;

/* An octave's weights at t in [0, 1) of a cell, for the nodes before, at, after and two
 * after the cell's start: the cubic B-spline's, or the node's own value. */
static inline void
weights (int pixels, float t, float w[4])
{
  if (pixels)
    {
      w[0] = w[2] = w[3] = 0.0f, w[1] = 1.0f;
      return;
    }
  const float u = 1.0f - t, t2 = t * t, t3 = t2 * t;
  w[0] = u * u * u / 6.0f;
  w[1] = (3.0f * t3 - 6.0f * t2 + 4.0f) / 6.0f;
  w[2] = (-3.0f * t3 + 3.0f * t2 + 3.0f * t + 1.0f) / 6.0f;
  w[3] = t3 / 6.0f;
}

/* The mean over a cell's `spacing` positions of the sum of the squared weights: the share
 * of a node's variance that a value has, along one axis. */
static double
mean_square_weight (const Octave *o)
{
  const int spacing = o->spacing;
  if (o->pixels)
    return 1.0;
  if (spacing > 4096)
    return 151.0 / 315.0; /* the integral of the B-spline's square: the limit */
  double sum = 0.0;
  for (int p = 0; p < spacing; p++)
    {
      float w[4];
      weights (0, (float) p / (float) spacing, w);
      sum += (double) w[0] * w[0] + (double) w[1] * w[1] + (double) w[2] * w[2]
             + (double) w[3] * w[3];
    }
  return sum / spacing;
}

/* Node row j of an octave interpolated along x: row[x] for x in [0, width). */
static void
interpolate_row (const Noise *n, const Octave *o, int j, float *row, float *nodes)
{
  const int s = o->spacing, first = o->offset_x / s - 1;
  const int last = (n->width - 1 + o->offset_x) / s + 2;
  for (int i = first; i <= last; i++)
    nodes[i - first] = terrain_hash_to_signed (terrain_hash (n->seed, i, j, o->salt));
  const float inv = 1.0f / (float) s;
  for (int x = 0; x < n->width; x++)
    {
      const int X = x + o->offset_x, i = X / s - 1 - first;
      float     w[4];
      weights (o->pixels, (float) (X % s) * inv, w);
      row[x] = w[0] * nodes[i] + w[1] * nodes[i + 1] + w[2] * nodes[i + 2] + w[3] * nodes[i + 3];
    }
}

/* Rows [first, end) of one octave added to the output (k = 0 sets them). */
static void
octave_rows (const Noise *n, int k, float *scratch, int first, int end)
{
  const Octave *o = &n->octaves[k];
  const int     w = n->width, s = o->spacing;
  float        *nodes = scratch + 4 * (size_t) w;
  int           cached[4] = { INT_MIN, INT_MIN, INT_MIN, INT_MIN };
  const float   inv = 1.0f / (float) s;
  for (int y = first; y < end; y++)
    {
      const int Y = y + o->offset_y, j = Y / s;
      const float *r[4];
      for (int b = 0; b < 4; b++)
        {
          const int jb = j - 1 + b, slot = jb & 3;
          float    *row = scratch + (size_t) slot * w;
          if (cached[slot] != jb)
            interpolate_row (n, o, jb, row, nodes), cached[slot] = jb;
          r[b] = row;
        }
      float wy[4];
      weights (o->pixels, (float) (Y % s) * inv, wy);
      for (int b = 0; b < 4; b++)
        wy[b] *= o->amp;
      float *out = n->out + (size_t) y * w;
      for (int x = 0; x < w; x++)
        {
          const float v = wy[0] * r[0][x] + wy[1] * r[1][x] + wy[2] * r[2][x] + wy[3] * r[3][x];
          out[x] = k == 0 ? v : out[x] + v;
        }
    }
}

static void
noise_rows (void *user, int strip, int first, int end)
{
  const Noise *n = user;
  float *scratch = n->scratch + (size_t) strip * (5 * (size_t) n->width + 8);
  for (int k = 0; k < n->count; k++)
    octave_rows (n, k, scratch, first, end);
  for (int y = first; y < end; y++)
    for (float *v = n->out + (size_t) y * n->width, *e = v + n->width; v < e; v++)
      *v *= n->scale;
}

/* The octaves, their offsets, and the scale to a standard deviation of 1/6: interpolated at
 * spacings 2^n down to 1, then the pixels' own noise at half its octave's amplitude (at all
 * of it, Alpine's speckle was 7.3, 5.6 and 5.2 at 512, 1024 and 4096 pixels square, the
 * real DEMs' at most 4.6). */
static void
plan (Noise *n, int levels, double roughness)
{
  double variance = 0.0;
  n->count = levels + 2;
  for (int k = 0; k < n->count; k++)
    {
      Octave *o = &n->octaves[k];
      o->pixels = k == levels + 1;
      o->spacing = o->pixels ? 1 : 1 << (levels - k);
      o->amp = (float) (pow (2.0, -roughness * k) * (o->pixels ? 0.5 : 1.0));
      o->salt = (uint32_t) k;
      const uint32_t h = terrain_hash (n->seed, k, 0, OFFSET_SALT);
      o->offset_x = (int) ((h & 0xffffu) % (uint32_t) o->spacing);
      o->offset_y = (int) ((h >> 16) % (uint32_t) o->spacing);
      const double m = mean_square_weight (o);
      variance += (double) o->amp * o->amp / 3.0 * m * m;
    }
  n->scale = (float) (1.0 / 6.0 / sqrt (variance));
}

TerrainStatus
terrain_spline_noise (uint32_t seed, int levels, double roughness, float *out, int width,
                      int height, const TerrainProgress *progress)
{
  if (levels < 0 || levels > TERRAIN_SPLINE_NOISE_MAX_LEVELS || ! (roughness >= 0.0)
      || roughness > 2.0 || width < 1 || height < 1)
    return TERRAIN_ERROR_INVALID;
  Noise n = { .seed = seed, .width = width, .out = out };
  plan (&n, levels, roughness);
  const int strips = terrain_map_strips (height, width);
  n.scratch = terrain_alloc ((size_t) strips * (5 * (size_t) width + 8) * sizeof (float));
  if (n.scratch == NULL)
    return TERRAIN_ERROR_NO_MEMORY;
  const TerrainStatus status = terrain_parallel_rows (height, strips, 64, noise_rows, &n,
                                                      progress, 0.0, 1.0);
  terrain_free (n.scratch);
  return status;
}
