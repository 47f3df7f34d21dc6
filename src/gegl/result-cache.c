#include "result-cache.h"

#include "huge-pages.h"

#include <stdlib.h>
#include <string.h>

/* ---- The key: four xxHash64-style accumulators over 8-byte words ----
 * Fast enough to be noise beside any render (a 1024² 16-bit layer is 2 MiB: about 0.3 ms),
 * and 128 bits, so no two layers an artist makes share a key by chance. */

#define PRIME1 0x9E3779B185EBCA87ull
#define PRIME2 0xC2B2AE3D27D4EB4Full
#define PRIME3 0x165667B19E3779F9ull

static guint64
rotl (guint64 x, int r)
{
  return (x << r) | (x >> (64 - r));
}

static guint64
round_of (guint64 acc, guint64 word)
{
  return rotl (acc + word * PRIME2, 31) * PRIME1;
}

static guint64
avalanche (guint64 h)
{
  h ^= h >> 33;
  h *= PRIME2;
  h ^= h >> 29;
  h *= PRIME3;
  return h ^ (h >> 32);
}

void
terrain_result_hasher_init (TerrainResultHasher *hasher)
{
  TerrainResultHasher *a = hasher;
  a->acc[0] = PRIME1 + PRIME2;
  a->acc[1] = PRIME2;
  a->acc[2] = 0;
  a->acc[3] = (guint64) 0 - PRIME1;
  a->words = 0;
}

void
terrain_result_hasher_add (TerrainResultHasher *hasher, const void *bytes, gsize size)
{
  TerrainResultHasher *a = hasher;
  const guint8  *p = bytes;
  guint64        word;
  gsize          i = 0;
  /* Four words at a time into the four accumulators, the common case unrolled, in locals
   * (through the hasher, each store waits for the byte loads it might alias: 32 MiB in the
   * processor's cache took 3.8 ms that way, 3.4 ms this way). */
  if ((a->words & 3) == 0)
    {
      guint64 acc[4] = { a->acc[0], a->acc[1], a->acc[2], a->acc[3] };
      for (; i + 32 <= size; i += 32, a->words += 4)
        for (int k = 0; k < 4; k++)
          {
            memcpy (&word, p + i + 8 * k, 8);
            acc[k] = round_of (acc[k], word);
          }
      memcpy (a->acc, acc, sizeof acc);
    }
  for (; i + 8 <= size; i += 8, a->words++)
    {
      memcpy (&word, p + i, 8);
      a->acc[a->words & 3] = round_of (a->acc[a->words & 3], word);
    }
  /* The tail, zero-padded, and the part's length, so "ab" + "c" differs from "a" + "bc". */
  word = 0;
  memcpy (&word, p + i, size - i);
  a->acc[a->words & 3] = round_of (a->acc[a->words & 3], word ^ ((guint64) size << 3));
  a->words++;
}

TerrainResultKey
terrain_result_hasher_key (const TerrainResultHasher *hasher)
{
  const TerrainResultHasher *a = hasher;
  guint64 h0 = rotl (a->acc[0], 1) + rotl (a->acc[1], 7) + rotl (a->acc[2], 12) +
               rotl (a->acc[3], 18) + a->words;
  guint64 h1 = rotl (a->acc[3], 1) + rotl (a->acc[2], 7) + rotl (a->acc[1], 12) +
               rotl (a->acc[0], 18) + a->words * PRIME3;
  return (TerrainResultKey) { { avalanche (h0), avalanche (h1 ^ PRIME1) } };
}

/* ---- The results: a list, most recently used first ---- */

/* An object kept with a result while the result is kept, freed with it. */
typedef struct
{
  gpointer       object;
  GDestroyNotify free;
  gsize          bytes; /* counted in the budget */
} Attachment;

struct TerrainResult
{
  TerrainResultKey key;
  float           *heights;
  gsize            bytes;
  gint             refs; /* the list's, while kept, and each caller's */
  gboolean         kept; /* in the list (under the lock) */
  /* Its pixels in one format, once written whole (terrain_result_keep_pixels): set once,
   * under the lock, and never changed while the result lives. */
  gconstpointer    pixels_format;
  Attachment       pixels;
  /* A witness of the layer it was made of, found under the key of its settings alone:
   * replaced under the lock, while the result is kept. */
  TerrainResultKey witness_settings;
  Attachment       witness;
};

static GMutex  lock;
static GList  *kept;       /* of TerrainResult, most recently used first */
static gsize   kept_bytes;

static gsize
budget (void)
{
  static gsize bytes = G_MAXSIZE;
  if (bytes == G_MAXSIZE)
    {
      const char *mb = g_getenv ("TERRAIN_RESULT_CACHE_MB");
      bytes = (gsize) (mb ? strtoull (mb, NULL, 10) : 512) << 20;
    }
  return bytes;
}

static void
free_attachment (Attachment *attachment)
{
  if (attachment->object)
    attachment->free (attachment->object);
}

static void
release (TerrainResult *result)
{
  if (g_atomic_int_dec_and_test (&result->refs))
    {
      terrain_pages_free (result->heights);
      free_attachment (&result->pixels);
      free_attachment (&result->witness);
      g_free (result);
    }
}

/* Keeps the result at `link` no more (it goes with its last reference). Under the lock. */
static void
forget (GList *link)
{
  TerrainResult *old = link->data;
  kept = g_list_delete_link (kept, link);
  kept_bytes -= old->bytes + old->pixels.bytes + old->witness.bytes;
  old->kept = FALSE;
  release (old);
}

/* Drops the least recently used results until `bytes` more fit in the budget, never
 * `spared` (whose pixels are to be added). Under the lock. */
static void
make_room (gsize bytes, const TerrainResult *spared)
{
  while (kept && kept_bytes + bytes > budget ())
    {
      GList *last = g_list_last (kept);
      if (last->data == spared)
        last = last->prev;
      if (last == NULL)
        break;
      forget (last);
    }
}

/* The result at `link`, the most recently used now, referenced. Under the lock. */
static TerrainResult *
use (GList *link)
{
  TerrainResult *result = link->data;
  kept = g_list_remove_link (kept, link);
  kept = g_list_concat (link, kept);
  g_atomic_int_inc (&result->refs);
  return result;
}

TerrainResult *
terrain_result_lookup (const TerrainResultKey *key, gsize count)
{
  TerrainResult *found = NULL;
  g_mutex_lock (&lock);
  for (GList *l = kept; l && ! found; l = l->next)
    {
      TerrainResult *result = l->data;
      if (memcmp (&result->key, key, sizeof *key) == 0 && result->bytes == count * sizeof (float))
        found = use (l);
    }
  g_mutex_unlock (&lock);
  return found;
}

TerrainResult *
terrain_result_lookup_witnessed (const TerrainResultKey *settings, gsize count,
                                 gboolean (*is_layer) (gconstpointer witness, gpointer data),
                                 gpointer data, TerrainResultKey *key)
{
  TerrainResult *found = NULL;
  g_mutex_lock (&lock);
  for (GList *l = kept; l && ! found; l = l->next)
    {
      TerrainResult *result = l->data;
      if (result->witness.object && result->bytes == count * sizeof (float) &&
          memcmp (&result->witness_settings, settings, sizeof *settings) == 0 &&
          is_layer (result->witness.object, data))
        {
          found = use (l);
          *key = found->key;
        }
    }
  g_mutex_unlock (&lock);
  return found;
}

TerrainResult *
terrain_result_new (float *heights, gsize count)
{
  TerrainResult *result = g_new0 (TerrainResult, 1);
  result->heights = heights;
  result->bytes = count * sizeof (float);
  result->refs = 1;
  return result;
}

gboolean
terrain_result_keepable (gsize count)
{
  return count * sizeof (float) <= budget ();
}

void
terrain_result_keep (const TerrainResultKey *key, TerrainResult *result)
{
  if (! terrain_result_keepable (result->bytes / sizeof (float)))
    return;
  g_mutex_lock (&lock);
  make_room (result->bytes, NULL);
  result->key = *key;
  result->kept = TRUE;
  g_atomic_int_inc (&result->refs);
  kept = g_list_prepend (kept, result);
  kept_bytes += result->bytes;
  g_mutex_unlock (&lock);
}

gboolean
terrain_result_wants_pixels (TerrainResult *result)
{
  g_mutex_lock (&lock);
  const gboolean wants = result->kept && result->pixels.object == NULL;
  g_mutex_unlock (&lock);
  return wants;
}

/* Puts `given` in a kept result's `slot`, making room for it, and leaves in *given what
 * the slot held, to be freed outside the lock. Under the lock. */
static void
attach (TerrainResult *result, Attachment *slot, Attachment *given)
{
  const Attachment held = *slot;
  kept_bytes -= held.bytes;
  make_room (given->bytes, result);
  *slot = *given;
  kept_bytes += given->bytes;
  *given = held;
}

void
terrain_result_keep_pixels (TerrainResult *result, gconstpointer format, gpointer pixels,
                            gsize bytes, GDestroyNotify free_pixels)
{
  Attachment given = { pixels, free_pixels, bytes };
  g_mutex_lock (&lock);
  if (result->kept && result->pixels.object == NULL && result->bytes + bytes <= budget ())
    {
      result->pixels_format = format;
      attach (result, &result->pixels, &given);
    }
  g_mutex_unlock (&lock);
  free_attachment (&given);
}

gboolean
terrain_result_wants_witness (TerrainResult *result)
{
  g_mutex_lock (&lock);
  const gboolean wants = result->kept;
  g_mutex_unlock (&lock);
  return wants;
}

void
terrain_result_keep_witness (TerrainResult *result, const TerrainResultKey *settings,
                             gpointer witness, gsize bytes, GDestroyNotify free_witness)
{
  Attachment given = { witness, free_witness, bytes };
  g_mutex_lock (&lock);
  if (result->kept && result->bytes + result->pixels.bytes + bytes <= budget ())
    {
      result->witness_settings = *settings;
      attach (result, &result->witness, &given);
    }
  g_mutex_unlock (&lock);
  free_attachment (&given);
}

gpointer
terrain_result_pixels (TerrainResult *result, gconstpointer format)
{
  g_mutex_lock (&lock);
  gpointer pixels = result->pixels_format == format ? result->pixels.object : NULL;
  g_mutex_unlock (&lock);
  return pixels;
}

TerrainResult *
terrain_result_ref (TerrainResult *result)
{
  g_atomic_int_inc (&result->refs);
  return result;
}

const float *
terrain_result_heights (const TerrainResult *result)
{
  return result->heights;
}

void
terrain_result_unref (TerrainResult *result)
{
  if (result)
    release (result);
}

void
terrain_result_forget_all (void)
{
  g_mutex_lock (&lock);
  while (kept)
    forget (kept);
  g_mutex_unlock (&lock);
}
