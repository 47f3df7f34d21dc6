/* The float pixels of a layer stored in 8 or 16 bits, by table (pixel-codec.h).
 *
 * GIMP hands an effect above another its pixels in float, and takes them back in float; a
 * codec that stores in an integer format (terrain_pixel_codec_store_in) rounds each height
 * to one of that format's steps first. So such a codec writes one of 256 or 65536 colours.
 * What it reads are mostly colours babl made from the layer's steps, a few floats away from
 * the codec's own. So each step keeps, computed once by the codec itself, its height, the
 * colour written for it, babl's colour of it and what that reads as, and the range of grey
 * colours that read as its height: a float curve's reading rises with the colour (but at
 * the sRGB curve's joint, where no step's height is: terrain_pixel_codec_dip), so those
 * colours are one range, found by bisection. Then a pixel is written and read without a
 * curve, to the same bits. */
#ifndef TERRAIN_PIXEL_STEPS_H
#define TERRAIN_PIXEL_STEPS_H

#include "pixel-codec.h"

/* The steps of a float codec stored in 8 or 16 bits, made once per pair of formats and kept
 * for the life of the process; NULL for any other codec. `codec` has no storage and no
 * steps of its own. */
const TerrainPixelSteps *terrain_pixel_steps (const TerrainPixelCodec *codec,
                                              const TerrainPixelCodec *storage);

/* The table; its fields are read inline, as the codec writes and keeps pixels one by one
 * (a call per pixel for each was about a third of writing a chunk). */
struct TerrainPixelSteps
{
  guint    count;  /* steps: the storage's largest sample + 1 */
  float   *level;  /* step k's height, as the storage reads it */
  float   *colour; /* the colour the codec writes for it */
  float   *least;  /* the grey colours that read as level[k]: least[k] to most[k]; */
  float   *most;   /* none where least[k] > most[k] (most rises with k) */
  float   *babl;   /* babl's colour of step k (from the storage's format into the codec's), */
  float   *read;   /* and the height the codec reads it as */
  guint32  low;    /* the bucket of most[1] */
  guint16 *first;  /* bucket b: the first step from 1 whose `most` reaches its start */
};

/* Step k's height as the storage reads it back, and the colour the codec writes for it. */
static inline float
terrain_pixel_steps_level (const TerrainPixelSteps *steps, guint k)
{
  return steps->level[k];
}

static inline float
terrain_pixel_steps_colour (const TerrainPixelSteps *steps, guint k)
{
  return steps->colour[k];
}

/* Whether the table tells what a grey colour reads as: not in step 0's range or below (0
 * reads as -0 from some colours), beyond the last, negative or NaN. */
static inline gboolean
terrain_pixel_steps_tell (const TerrainPixelSteps *steps, float colour)
{
  return colour > steps->most[0] && colour <= steps->most[steps->count - 1];
}

/* What a grey colour reads as: 1 and *height when that is a step's level other than 0 (to
 * the bit); 2 and *height when it is babl's colour of a step that reads as no step's level
 * (the bits the codec reads); 0 when it is no step's level; -1 when the table does not
 * tell (the codec reads it). */
int terrain_pixel_steps_read (const TerrainPixelSteps *steps, float colour, float *height);

/* Whether a grey colour reads as step k's level: 1 when it does, 0 when it does not; -1 for
 * step 0 and colours the table does not tell of (as terrain_pixel_steps_read). */
static inline int
terrain_pixel_steps_reads_as (const TerrainPixelSteps *steps, float colour, guint k)
{
  if (k == 0 || ! terrain_pixel_steps_tell (steps, colour))
    return -1;
  /* The range holds every grey colour that reads as the step's level (find_ranges). */
  return colour >= steps->least[k] && colour <= steps->most[k];
}

#endif
