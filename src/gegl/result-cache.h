/* Whole-layer results kept in GIMP's process, so that the same input and settings are never
 * computed twice.
 *
 * GIMP makes a new graph node for every step an artist takes with an effect: the canvas
 * preview, OK, undo and redo, showing or hiding it, the same effect on another layer. GEGL's
 * own cache lives in the node, so each of these rendered the whole layer again (0.5 s for a
 * 1024² River Erosion, with GIMP frozen). This cache lives in the module instead, and is
 * keyed by what the result is a function of: the operation, every setting, the layer's
 * pixel format (babl format and colour space) and size, and a 128-bit hash of the layer's
 * pixel bytes. A changed pixel, setting or format is a new key; a selection changes nothing
 * the heights depend on (GIMP masks the result).
 *
 * A result merged whole also keeps the pixels it was written as (terrain_result_keep_pixels),
 * so that the same merge again shares them with its output instead of converting every
 * height once more (at 4096² a 16-bit layer's took 65 % of such a merge in GIMP's process).
 *
 * A result merged also keeps a witness of the layer it was made of (tile-witness.h), so that
 * the same layer's tiles find it again without the layer being read and hashed.
 *
 * Memory is bounded: the results held, their heights, pixels and what their witnesses may
 * keep alive (the layer's tiles, once the layer is written), add up to at most
 * TERRAIN_RESULT_CACHE_MB (default 512 MiB, 0 turns the cache off), the least recently used
 * going first; a result larger than the whole budget is not kept. A 8192² layer's heights
 * are 256 MiB: two are kept, or one with its 16-bit pixels (128 MiB) and its witness (the
 * layer's 128 MiB). */
#ifndef TERRAIN_RESULT_CACHE_H
#define TERRAIN_RESULT_CACHE_H

#include <glib.h>

typedef struct
{
  guint64 hash[2];
} TerrainResultKey;

/* Builds a key from its parts, fed in any number of calls. */
typedef struct
{
  guint64 acc[4]; /* four accumulators, word k going to acc[k % 4] */
  guint64 words;  /* words taken so far */
} TerrainResultHasher;

void             terrain_result_hasher_init (TerrainResultHasher *hasher);
void             terrain_result_hasher_add (TerrainResultHasher *hasher, const void *bytes,
                                            gsize size);
TerrainResultKey terrain_result_hasher_key (const TerrainResultHasher *hasher);

typedef struct TerrainResult TerrainResult;

/* A result holding heights (a block of terrain_pages_alloc, count floats, now the
 * result's), referenced once; freed with its last reference. */
TerrainResult *terrain_result_new (float *heights, gsize count);
/* Keeps result for key (a reference of its own), unless the cache is off or the result is
 * larger than its whole budget. */
void           terrain_result_keep (const TerrainResultKey *key, TerrainResult *result);
/* Whether a result of count heights would be kept (the cache is on, and it fits). */
gboolean       terrain_result_keepable (gsize count);
/* The result kept for key with count heights, referenced, or NULL. */
TerrainResult *terrain_result_lookup (const TerrainResultKey *key, gsize count);
TerrainResult *terrain_result_ref (TerrainResult *result);
const float   *terrain_result_heights (const TerrainResult *result);
/* Whether the result is kept and has no pixels yet (terrain_result_keep_pixels checks the
 * room). */
gboolean       terrain_result_wants_pixels (TerrainResult *result);
/* Keeps `pixels` (the result's heights written whole in the babl format `format`, `bytes`
 * of them, held by an object now the result's, which free_pixels frees) with the result
 * while it is kept; frees them instead when it is not kept, has pixels already, or they do
 * not fit. */
void           terrain_result_keep_pixels (TerrainResult *result, gconstpointer format,
                                           gpointer pixels, gsize bytes,
                                           GDestroyNotify free_pixels);
/* The result's pixels in `format` (the object given to terrain_result_keep_pixels, the
 * result's while it lives), or NULL. */
gpointer       terrain_result_pixels (TerrainResult *result, gconstpointer format);
/* Whether the result is kept (and so would keep a witness). */
gboolean       terrain_result_wants_witness (TerrainResult *result);
/* Keeps with the result, while it is kept, a witness that a layer is the one it was made of
 * (tile-witness.h: an object now the result's, which free_witness frees, that may keep
 * `bytes` alive), found under `settings`, the key of its settings alone; an earlier witness
 * goes. Frees it instead when the result is not kept or it does not fit. */
void           terrain_result_keep_witness (TerrainResult *result,
                                            const TerrainResultKey *settings, gpointer witness,
                                            gsize bytes, GDestroyNotify free_witness);
/* The kept result of count heights under `settings` whose witness `is_layer` (called with
 * the witness and `data`, under the cache's lock) says is the layer's, referenced, and its
 * key in *key; or NULL. */
TerrainResult *terrain_result_lookup_witnessed (const TerrainResultKey *settings, gsize count,
                                                gboolean (*is_layer) (gconstpointer witness,
                                                                      gpointer data),
                                                gpointer data, TerrainResultKey *key);
void           terrain_result_unref (TerrainResult *result);
/* Keeps no result any more (each goes with its last reference), as GIMP quits: their pixels
 * are GEGL's memory, which GEGL checks is given back before it shuts down. */
void           terrain_result_forget_all (void);

#endif
