#include "pixel-steps.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* A colour's step is found from its bits: those above BUCKET_SHIFT pick a bucket, which
 * names the first step whose range can hold it. */
#define BUCKET_SHIFT 10
/* More buckets than this (a curve whose first steps are far below the others'): no table. */
#define MAX_BUCKETS  (1u << 18)

static guint32
bits_of (float f)
{
  guint32 bits;
  memcpy (&bits, &f, sizeof bits);
  return bits;
}

/* Floats in the order of their values, as integers, and back (-0 just below +0). */
static guint32
order_of (float f)
{
  const guint32 bits = bits_of (f);
  return bits & 0x80000000u ? ~bits : bits | 0x80000000u;
}

static float
float_of_order (guint32 order)
{
  const guint32 bits = order & 0x80000000u ? order & 0x7fffffffu : ~order;
  float         f;
  memcpy (&f, &bits, sizeof f);
  return f;
}

/* The height a grey pixel of `colour` reads as, by the codec's own computation. */
static float
reading (const TerrainPixelCodec *codec, float colour)
{
  float pixel[4] = { colour, colour, colour, 1.0f }, height;
  terrain_pixels_to_heights (codec, pixel, &height, 1);
  return height;
}

/* Whether the reading of a grey colour is above `level` (`above`) or at least `level`. */
static gboolean
reaches (const TerrainPixelCodec *codec, guint32 order, float level, gboolean above)
{
  const float r = reading (codec, float_of_order (order));
  return above ? r > level : r >= level;
}

/* The first colour from `from` up whose reading reaches `level` (reaches says how).
 * Readings rise with colours (the codec's curves do, in float, except over a dip no step's
 * level is in: compute_steps), and the colours that read as one level are a few floats
 * apart: so the search starts at `near`, doubles its steps away from it until the reading
 * changes, then halves the bracket that gives. */
static float
first_reaching (const TerrainPixelCodec *codec, float from, float near, float level,
                gboolean above)
{
  const guint32 floor = order_of (from), ceiling = order_of (FLT_MAX);
  guint32       lo = floor, hi = ceiling; /* hi reaches it; lo does not, unless lo = floor */
  guint32       start = MAX (order_of (near), floor);
  if (reaches (codec, start, level, above))
    {
      hi = start;
      for (guint64 d = 1; start - floor > d; d *= 2)
        if (! reaches (codec, start - d, level, above))
          {
            lo = start - d;
            break;
          }
        else
          hi = start - d;
    }
  else
    {
      lo = start;
      for (guint64 d = 1; ceiling - start > d; d *= 2)
        if (reaches (codec, start + d, level, above))
          {
            hi = start + d;
            break;
          }
        else
          lo = start + d;
    }
  if (lo == floor && reaches (codec, floor, level, above))
    return from;
  while (hi - lo > 1)
    {
      const guint32 mid = lo + (hi - lo) / 2;
      if (reaches (codec, mid, level, above))
        hi = mid;
      else
        lo = mid;
    }
  return float_of_order (hi);
}

/* The range of grey colours that read as each step's level. */
static void
find_ranges (TerrainPixelSteps *steps, const TerrainPixelCodec *codec)
{
  float from = -FLT_MAX;
  for (guint k = 0; k < steps->count; k++)
    {
      const float level = steps->level[k];
      from = first_reaching (codec, from, steps->colour[k], level, FALSE);
      const float beyond = first_reaching (codec, from, steps->colour[k], level, TRUE);
      steps->least[k] = from;
      steps->most[k] = float_of_order (order_of (beyond) - 1);
    }
}

/* The levels and colours of every step, by the codecs themselves; FALSE when the levels do
 * not rise with the steps, a colour is not finite, or a level is in a dip of the codec's
 * reading (terrain_pixel_codec_dip: none of GIMP's 8- and 16-bit steps is). */
static gboolean
compute_steps (TerrainPixelSteps *steps, const TerrainPixelCodec *codec,
               const TerrainPixelCodec *storage)
{
  const guint count = steps->count;
  guchar     *stored = g_malloc ((gsize) count * storage->components * storage->sample_bytes);
  float      *written = g_new (float, (gsize) count * codec->components);
  gboolean    rising = TRUE;
  for (guint k = 0; k < count; k++)
    for (int s = 0; s < storage->components; s++)
      {
        const guint value = s < storage->colours ? k : count - 1; /* alpha opaque */
        const gsize at = (gsize) k * storage->components + s;
        if (storage->type == TERRAIN_SAMPLE_U8)
          stored[at] = (guint8) value;
        else
          ((guint16 *) stored)[at] = (guint16) value;
      }
  terrain_pixels_to_heights (storage, stored, steps->level, count);
  terrain_heights_to_pixels (codec, steps->level, NULL, written, count);
  for (guint k = 0; k < count; k++)
    {
      steps->colour[k] = written[(gsize) k * codec->components];
      rising &= isfinite (steps->colour[k]) && (k == 0 || steps->level[k] > steps->level[k - 1]);
    }
  /* babl's colours of the steps: what GIMP hands an effect above another, read by the
   * codec once here (three in four of them read as no step's level). */
  babl_process (babl_fish (storage->format, codec->format), stored, written, count);
  for (guint k = 0; k < count; k++)
    {
      steps->babl[k] = written[(gsize) k * codec->components];
      steps->read[k] = reading (codec, steps->babl[k]);
    }
  float dip_from, dip_to;
  if (terrain_pixel_codec_dip (codec, &dip_from, &dip_to))
    for (guint k = 0; k < count; k++)
      rising &= ! (steps->level[k] >= dip_from && steps->level[k] <= dip_to);
  g_free (written);
  g_free (stored);
  return rising && steps->level[0] >= 0.0f;
}

/* The buckets of the ranges from step 1's; FALSE when there would be too many. */
static gboolean
index_steps (TerrainPixelSteps *steps)
{
  if (! (steps->most[1] > 0.0f) || ! (steps->most[steps->count - 1] < FLT_MAX))
    return FALSE;
  steps->low = bits_of (steps->most[1]) >> BUCKET_SHIFT;
  const guint32 buckets = (bits_of (steps->most[steps->count - 1]) >> BUCKET_SHIFT) -
                          steps->low + 1;
  if (buckets > MAX_BUCKETS)
    return FALSE;
  steps->first = g_new (guint16, buckets);
  guint k = 1;
  for (guint32 b = 0; b < buckets; b++)
    {
      const guint32 start = (b + steps->low) << BUCKET_SHIFT;
      while (bits_of (steps->most[k]) < start)
        k++;
      steps->first[b] = (guint16) k;
    }
  return TRUE;
}

static void
free_steps (TerrainPixelSteps *steps)
{
  g_free (steps->level);
  g_free (steps->first);
  g_free (steps);
}

static TerrainPixelSteps *
make_steps (const TerrainPixelCodec *codec, const TerrainPixelCodec *storage)
{
  TerrainPixelSteps *steps = g_new0 (TerrainPixelSteps, 1);
  steps->count = storage->type == TERRAIN_SAMPLE_U8 ? 256 : 65536;
  steps->level = g_new (float, 6 * (gsize) steps->count);
  steps->colour = steps->level + steps->count;
  steps->least = steps->colour + steps->count;
  steps->most = steps->least + steps->count;
  steps->babl = steps->most + steps->count;
  steps->read = steps->babl + steps->count;
  if (compute_steps (steps, codec, storage))
    {
      find_ranges (steps, codec);
      if (index_steps (steps))
        return steps;
    }
  free_steps (steps);
  return NULL;
}

typedef struct
{
  const Babl              *format, *storage;
  const TerrainPixelSteps *steps;
} KeptSteps;

const TerrainPixelSteps *
terrain_pixel_steps (const TerrainPixelCodec *codec, const TerrainPixelCodec *storage)
{
  static GMutex  lock;
  static GSList *made; /* of KeptSteps */
  if (codec->type != TERRAIN_SAMPLE_FLOAT || codec->curve == TERRAIN_CURVE_BABL ||
      (storage->type != TERRAIN_SAMPLE_U8 && storage->type != TERRAIN_SAMPLE_U16))
    return NULL;
  g_mutex_lock (&lock);
  GSList *l = made;
  for (; l && ! (((KeptSteps *) l->data)->format == codec->format &&
                 ((KeptSteps *) l->data)->storage == storage->format); l = l->next)
    ;
  if (l == NULL)
    {
      KeptSteps *kept = g_new (KeptSteps, 1);
      *kept = (KeptSteps) { codec->format, storage->format, make_steps (codec, storage) };
      made = l = g_slist_prepend (made, kept);
    }
  const TerrainPixelSteps *steps = ((KeptSteps *) l->data)->steps;
  g_mutex_unlock (&lock);
  return steps;
}

int
terrain_pixel_steps_read (const TerrainPixelSteps *steps, float colour, float *height)
{
  if (! terrain_pixel_steps_tell (steps, colour))
    return -1;
  const guint32 bucket = bits_of (colour) >> BUCKET_SHIFT;
  guint         k = bucket < steps->low ? 1 : steps->first[bucket - steps->low];
  while (steps->most[k] < colour)
    k++;
  if (colour >= steps->least[k])
    {
      *height = steps->level[k];
      return 1;
    }
  /* Between step k - 1's range and step k's: above one level, below the next. */
  for (guint j = k - 1; j <= k; j++)
    if (bits_of (colour) == bits_of (steps->babl[j]))
      {
        *height = steps->read[j];
        return 2;
      }
  return 0;
}
