/* What ThreadSanitizer cannot see of GLib and GEGL, told to it. Linked into a test program
 * built with -fsanitize=thread (its symbols exported), these definitions come before
 * GLib's and GEGL's for the program, the module and GEGL alike: each calls the library's
 * own and tells ThreadSanitizer what it did.
 * - GMutex and GCond are futexes in an uninstrumented GLib (the module has no other lock):
 *   ThreadSanitizer sees neither their locking nor the order it puts between threads, and
 *   reports every field a lock guards as a race. Told with its annotations for custom
 *   mutexes, when the module or the program locks them. GEGL's own are left unseen:
 *   GEGL takes its global locks (its tile cache's) for every tile, and told, they ordered
 *   nearly everything two threads did, so that a lock taken out of the module's result
 *   cache went unreported.
 * - gegl_parallel_distribute returns when every part is done, which GEGL learns from an
 *   atomic counter ThreadSanitizer does not see: told as a release before the parts, and
 *   by each part at its end, and an acquire by each part at its start and by the caller
 *   after.
 * - GEGL hands the memory of a freed tile to the next tile allocated through lists taken
 *   with atomic swaps: told as malloc and free are, a release by the thread that frees it
 *   and an acquire by the one it goes to.
 * - A tile's lock is an atomic flag GEGL spins on: told as an acquire after each lock and a
 *   release before each unlock, for reading or writing. */
#define _GNU_SOURCE
#include <gegl.h>
#include <glib.h>

#include <dlfcn.h>
#include <string.h>
#include <sanitizer/tsan_interface.h>

/* The library's own definition of `name`, looked up once. */
#define LIBRARY_OWN(type, name)                                                              \
  static type own_cached;                                                                    \
  type        own = __atomic_load_n (&own_cached, __ATOMIC_ACQUIRE);                         \
  if (own == NULL)                                                                           \
    {                                                                                        \
      own = (type) dlsym (RTLD_NEXT, name);                                                  \
      __atomic_store_n (&own_cached, own, __ATOMIC_RELEASE);                                 \
    }

typedef void (*MutexFunc) (GMutex *mutex);
typedef gboolean (*MutexTryFunc) (GMutex *mutex);
typedef void (*CondWaitFunc) (GCond *cond, GMutex *mutex);
typedef gboolean (*CondWaitUntilFunc) (GCond *cond, GMutex *mutex, gint64 end_time);

/* Whether the code at `address` is the module's or the program's, not a library's. */
static gboolean
ours (const void *address)
{
  Dl_info where, program;
  if (! dladdr (address, &where) || ! dladdr ((const void *) ours, &program))
    return FALSE;
  return where.dli_fbase == program.dli_fbase || g_str_has_suffix (where.dli_fname,
                                                                   "gimp-terrain.so");
}

/* The mutexes this thread holds that ThreadSanitizer was told of, so that what it is told of
 * an unlock pairs with what it was told of the lock whoever calls it: a library's function
 * may end on the unlock of its own mutex as a tail call, which then returns into its caller
 * as if that had called it (g_signal_query, called from the module, ends so). */
static __thread GMutex *told_held[64];
static __thread int     told_count;

/* Tells that `mutex` was just locked, when `told`. */
static void
tell_locked (GMutex *mutex, gboolean told)
{
  if (! told || told_count == G_N_ELEMENTS (told_held))
    return;
  told_held[told_count++] = mutex;
  __tsan_mutex_pre_lock (mutex, 0);
  __tsan_mutex_post_lock (mutex, 0, 0);
}

/* Tells that `mutex` is about to be unlocked, when its lock was told; returns whether. */
static gboolean
tell_unlocking (GMutex *mutex)
{
  for (int i = told_count - 1; i >= 0; i--)
    if (told_held[i] == mutex)
      {
        memmove (&told_held[i], &told_held[i + 1], (told_count - i - 1) * sizeof *told_held);
        told_count--;
        __tsan_mutex_pre_unlock (mutex, 0);
        __tsan_mutex_post_unlock (mutex, 0);
        return TRUE;
      }
  return FALSE;
}

void
g_mutex_lock (GMutex *mutex)
{
  LIBRARY_OWN (MutexFunc, "g_mutex_lock");
  own (mutex);
  tell_locked (mutex, ours (__builtin_return_address (0)));
}

void
g_mutex_unlock (GMutex *mutex)
{
  LIBRARY_OWN (MutexFunc, "g_mutex_unlock");
  tell_unlocking (mutex);
  own (mutex);
}

gboolean
g_mutex_trylock (GMutex *mutex)
{
  LIBRARY_OWN (MutexTryFunc, "g_mutex_trylock");
  const gboolean taken = own (mutex);
  if (taken)
    tell_locked (mutex, ours (__builtin_return_address (0)));
  return taken;
}

/* A wait gives the mutex up and takes it again. */
void
g_cond_wait (GCond *cond, GMutex *mutex)
{
  LIBRARY_OWN (CondWaitFunc, "g_cond_wait");
  const gboolean told = tell_unlocking (mutex);
  own (cond, mutex);
  tell_locked (mutex, told);
}

gboolean
g_cond_wait_until (GCond *cond, GMutex *mutex, gint64 end_time)
{
  LIBRARY_OWN (CondWaitUntilFunc, "g_cond_wait_until");
  const gboolean told = tell_unlocking (mutex);
  const gboolean signalled = own (cond, mutex, end_time);
  tell_locked (mutex, told);
  return signalled;
}

/* ---- GEGL's parallel loops: a fork and a join ----
 * gegl_parallel_distribute_area and _range run their parts through this one. */

typedef struct
{
  GeglParallelDistributeFunc func;
  gpointer                   user_data;
} Parts;

static void
part (gint i, gint n, gpointer data)
{
  Parts *p = data;
  __tsan_acquire (p);
  p->func (i, n, p->user_data);
  __tsan_release (p);
}

typedef void (*DistributeFunc) (gint, GeglParallelDistributeFunc, gpointer);

void
gegl_parallel_distribute (gint max_n, GeglParallelDistributeFunc func, gpointer user_data)
{
  LIBRARY_OWN (DistributeFunc, "gegl_parallel_distribute");
  Parts p = { func, user_data };
  __tsan_release (&p);
  own (max_n, part, &p);
  __tsan_acquire (&p);
}

/* ---- GEGL's tile memory: handed from the thread that frees it to the next ---- */

typedef gpointer (*TileAllocFunc) (gsize size);
typedef void (*TileFreeFunc) (gpointer data);

gpointer
gegl_tile_alloc (gsize size)
{
  LIBRARY_OWN (TileAllocFunc, "gegl_tile_alloc");
  gpointer data = own (size);
  __tsan_acquire (data);
  return data;
}

/* GEGL's own zeroes the memory before the caller could tell ThreadSanitizer it has it. */
gpointer
gegl_tile_alloc0 (gsize size)
{
  return memset (gegl_tile_alloc (size), 0, size);
}

void
gegl_tile_free (gpointer data)
{
  LIBRARY_OWN (TileFreeFunc, "gegl_tile_free");
  if (data != NULL)
    __tsan_release (data);
  own (data);
}

/* ---- GEGL's tile locks ---- */

typedef void (*TileLockFunc) (gpointer tile);

#define TILE_LOCK(name)                                                                      \
  void name (gpointer tile)                                                                  \
  {                                                                                          \
    LIBRARY_OWN (TileLockFunc, #name);                                                       \
    own (tile);                                                                              \
    __tsan_acquire (tile);                                                                   \
  }
#define TILE_UNLOCK(name)                                                                    \
  void name (gpointer tile)                                                                  \
  {                                                                                          \
    LIBRARY_OWN (TileLockFunc, #name);                                                       \
    __tsan_release (tile);                                                                   \
    own (tile);                                                                              \
  }

TILE_LOCK (gegl_tile_lock)
TILE_LOCK (gegl_tile_read_lock)
TILE_UNLOCK (gegl_tile_unlock)
TILE_UNLOCK (gegl_tile_unlock_no_void)
TILE_UNLOCK (gegl_tile_read_unlock)
