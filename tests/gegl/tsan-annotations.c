/* What ThreadSanitizer cannot see of GLib and GEGL, told to it. Linked into a test program
 * built with -fsanitize=thread (its symbols exported), these definitions come before
 * GLib's and GEGL's for the program, the module and GEGL alike: each calls the library's
 * own and tells ThreadSanitizer what it did.
 * - GMutex and GCond are futexes in an uninstrumented GLib (the module has no other lock):
 *   ThreadSanitizer sees neither their locking nor the order it puts between threads, and
 *   reports every field a lock guards as a race. Told as its annotations for custom
 *   mutexes ask, when the module or the program locks them. GEGL's own are left unseen:
 *   GEGL takes its global locks (its tile cache's) for every tile, and told, they ordered
 *   nearly everything two threads did, so that a lock taken out of the module's result
 *   cache went unreported.
 * - gegl_parallel_distribute* return when every part is done, which GEGL learns from an
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
#define LIBRARY_OWN(type, name)                                                                  \
  static type own_cached;                                                                   \
  type        own = __atomic_load_n (&own_cached, __ATOMIC_ACQUIRE);                      \
  if (own == NULL)                                                                          \
    {                                                                                       \
      own = (type) dlsym (RTLD_NEXT, name);                                                 \
      __atomic_store_n (&own_cached, own, __ATOMIC_RELEASE);                                \
    }

typedef void (*LockFunc) (gpointer lock);
typedef gboolean (*TryLockFunc) (gpointer lock);
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

/* Locks with GLib's `lock_func`, told as a lock of `flags` when `told`. */
static void
locked (LockFunc lock_func, gpointer lock, unsigned flags, gboolean told)
{
  if (told)
    __tsan_mutex_pre_lock (lock, flags);
  lock_func (lock);
  if (told)
    __tsan_mutex_post_lock (lock, flags, 0);
}

static void
unlocked (LockFunc unlock_func, gpointer lock, unsigned flags, gboolean told)
{
  if (told)
    __tsan_mutex_pre_unlock (lock, flags);
  unlock_func (lock);
  if (told)
    __tsan_mutex_post_unlock (lock, flags);
}

static gboolean
try_locked (TryLockFunc try_func, gpointer lock, unsigned flags, gboolean told)
{
  if (told)
    __tsan_mutex_pre_lock (lock, flags | __tsan_mutex_try_lock);
  const gboolean taken = try_func (lock);
  if (told)
    __tsan_mutex_post_lock (lock,
                            flags | __tsan_mutex_try_lock
                              | (taken ? 0 : __tsan_mutex_try_lock_failed),
                            0);
  return taken;
}

#define LOCK(name, type, flags)                                                              \
  void name (type *lock)                                                                     \
  {                                                                                          \
    LIBRARY_OWN (LockFunc, #name);                                                              \
    locked (own, lock, flags, ours (__builtin_return_address (0)));                          \
  }
#define UNLOCK(name, type, flags)                                                            \
  void name (type *lock)                                                                     \
  {                                                                                          \
    LIBRARY_OWN (LockFunc, #name);                                                              \
    unlocked (own, lock, flags, ours (__builtin_return_address (0)));                        \
  }
#define TRYLOCK(name, type, flags)                                                           \
  gboolean name (type *lock)                                                                 \
  {                                                                                          \
    LIBRARY_OWN (TryLockFunc, #name);                                                           \
    return try_locked (own, lock, flags, ours (__builtin_return_address (0)));               \
  }

LOCK (g_mutex_lock, GMutex, 0)
UNLOCK (g_mutex_unlock, GMutex, 0)
TRYLOCK (g_mutex_trylock, GMutex, 0)

/* A wait gives the mutex up and takes it again. */
static void
waiting (GMutex *mutex, gboolean told)
{
  if (! told)
    return;
  __tsan_mutex_pre_unlock (mutex, 0);
  __tsan_mutex_post_unlock (mutex, 0);
}

static void
woken (GMutex *mutex, gboolean told)
{
  if (! told)
    return;
  __tsan_mutex_pre_lock (mutex, 0);
  __tsan_mutex_post_lock (mutex, 0, 0);
}

void
g_cond_wait (GCond *cond, GMutex *mutex)
{
  LIBRARY_OWN (CondWaitFunc, "g_cond_wait");
  const gboolean told = ours (__builtin_return_address (0));
  waiting (mutex, told);
  own (cond, mutex);
  woken (mutex, told);
}

gboolean
g_cond_wait_until (GCond *cond, GMutex *mutex, gint64 end_time)
{
  LIBRARY_OWN (CondWaitUntilFunc, "g_cond_wait_until");
  const gboolean told = ours (__builtin_return_address (0));
  waiting (mutex, told);
  const gboolean signalled = own (cond, mutex, end_time);
  woken (mutex, told);
  return signalled;
}

/* ---- GEGL's parallel loops: a fork and a join ---- */

typedef struct
{
  GeglParallelDistributeFunc      func;
  GeglParallelDistributeRangeFunc range_func;
  GeglParallelDistributeAreaFunc  area_func;
  gpointer                        user_data;
} Parts;

static void
part (gint i, gint n, gpointer data)
{
  Parts *p = data;
  __tsan_acquire (p);
  p->func (i, n, p->user_data);
  __tsan_release (p);
}

static void
range_part (gsize offset, gsize size, gpointer data)
{
  Parts *p = data;
  __tsan_acquire (p);
  p->range_func (offset, size, p->user_data);
  __tsan_release (p);
}

static void
area_part (const GeglRectangle *area, gpointer data)
{
  Parts *p = data;
  __tsan_acquire (p);
  p->area_func (area, p->user_data);
  __tsan_release (p);
}

typedef void (*DistributeFunc) (gint, GeglParallelDistributeFunc, gpointer);
typedef void (*DistributeRangeFunc) (gsize, gdouble, GeglParallelDistributeRangeFunc, gpointer);
typedef void (*DistributeAreaFunc) (const GeglRectangle *, gdouble, GeglSplitStrategy,
                                    GeglParallelDistributeAreaFunc, gpointer);

void
gegl_parallel_distribute (gint max_n, GeglParallelDistributeFunc func, gpointer user_data)
{
  LIBRARY_OWN (DistributeFunc, "gegl_parallel_distribute");
  Parts p = { func, NULL, NULL, user_data };
  __tsan_release (&p);
  own (max_n, part, &p);
  __tsan_acquire (&p);
}

void
gegl_parallel_distribute_range (gsize size, gdouble thread_cost,
                                GeglParallelDistributeRangeFunc func, gpointer user_data)
{
  LIBRARY_OWN (DistributeRangeFunc, "gegl_parallel_distribute_range");
  Parts p = { NULL, func, NULL, user_data };
  __tsan_release (&p);
  own (size, thread_cost, range_part, &p);
  __tsan_acquire (&p);
}

void
gegl_parallel_distribute_area (const GeglRectangle *area, gdouble thread_cost,
                               GeglSplitStrategy split_strategy,
                               GeglParallelDistributeAreaFunc func, gpointer user_data)
{
  LIBRARY_OWN (DistributeAreaFunc, "gegl_parallel_distribute_area");
  Parts p = { NULL, NULL, func, user_data };
  __tsan_release (&p);
  own (area, thread_cost, split_strategy, area_part, &p);
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
    LIBRARY_OWN (TileLockFunc, #name);                                                          \
    own (tile);                                                                              \
    __tsan_acquire (tile);                                                                   \
  }
#define TILE_UNLOCK(name)                                                                    \
  void name (gpointer tile)                                                                  \
  {                                                                                          \
    LIBRARY_OWN (TileLockFunc, #name);                                                          \
    __tsan_release (tile);                                                                   \
    own (tile);                                                                              \
  }

TILE_LOCK (gegl_tile_lock)
TILE_LOCK (gegl_tile_read_lock)
TILE_UNLOCK (gegl_tile_unlock)
TILE_UNLOCK (gegl_tile_unlock_no_void)
TILE_UNLOCK (gegl_tile_read_unlock)
