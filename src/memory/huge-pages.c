#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, madvise */
#include "huge-pages.h"

#include "terrain-types.h"

#include <stdint.h>
#include <stdlib.h>
#if defined(__has_include)
#if __has_include(<sys/mman.h>)
#include <sys/mman.h>
#endif
#endif
#ifdef MAP_ANONYMOUS
#include <pthread.h>
#endif

#define HUGE_PAGE ((size_t) 2 << 20)
#define MAPPED_FROM ((size_t) 4 << 20) /* smaller blocks: malloc */
#define HEADER 64                      /* keeps the block aligned for any type */

/* In front of every block: where it came from, so that one free takes both kinds. */
typedef struct
{
  uint32_t magic;
  void    *mapping; /* NULL: malloc'd */
  size_t   length;
} BlockHeader;

#define MAGIC 0x9a6e5u

#ifdef MAP_ANONYMOUS
/* Mapped blocks given back are kept for the next ones of their length, up to
 * TERRAIN_PAGES_POOL_BYTES in all, the oldest unmapped first. Memory the process has not
 * touched before can cost far more than a fault each 2 MiB: on a virtual machine, the host
 * may have to find and clear it too. In GIMP's process at 4096 x 4096, a layer's 64 MiB of
 * heights made on GIMP's main thread after a stroke took 100-180 ms, 77-158 ms of it in
 * the kernel for 33 faults, where memory used before took 23-27 ms (4 ms in the kernel). */
#define POOL_BLOCKS 16

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static BlockHeader    *pool[POOL_BLOCKS]; /* oldest first */
static int             pooled;
static size_t          pool_bytes;

/* Takes the pool's block i out of it. Under the lock. */
static BlockHeader *
pool_remove (int i)
{
  BlockHeader *h = pool[i];
  pool_bytes -= h->length;
  for (int j = i; j + 1 < pooled; j++)
    pool[j] = pool[j + 1];
  pooled--;
  return h;
}

/* A pooled block of `length` (the newest), taken out of the pool, or NULL. */
static BlockHeader *
pool_take (size_t length)
{
  BlockHeader *found = NULL;
  pthread_mutex_lock (&pool_lock);
  for (int i = pooled - 1; i >= 0 && found == NULL; i--)
    if (pool[i]->length == length)
      found = pool_remove (i);
  pthread_mutex_unlock (&pool_lock);
  return found;
}

/* Keeps the block h in the pool, unmapping the oldest to make room; unmaps it instead when
 * it is larger than the whole pool. */
static void
pool_give (BlockHeader *h)
{
  BlockHeader *unmapped[POOL_BLOCKS + 1];
  int          n_unmapped = 0;
  pthread_mutex_lock (&pool_lock);
  if (h->length > TERRAIN_PAGES_POOL_BYTES)
    unmapped[n_unmapped++] = h;
  else
    {
      while (pooled > 0 &&
             (pooled == POOL_BLOCKS || pool_bytes + h->length > TERRAIN_PAGES_POOL_BYTES))
        unmapped[n_unmapped++] = pool_remove (0);
      pool[pooled++] = h;
      pool_bytes += h->length;
    }
  pthread_mutex_unlock (&pool_lock);
  for (int i = 0; i < n_unmapped; i++)
    munmap (unmapped[i]->mapping, unmapped[i]->length);
}
#endif

void *
terrain_pages_alloc (size_t bytes)
{
  if (bytes > SIZE_MAX - HEADER - 2 * HUGE_PAGE)
    return NULL;
  BlockHeader *h;
#ifdef MAP_ANONYMOUS
  if (bytes < MAPPED_FROM)
#endif
    {
      if ((h = malloc (HEADER + bytes)) == NULL)
        return NULL;
      *h = (BlockHeader) { MAGIC, NULL, 0 };
      return (char *) h + HEADER;
    }
#ifdef MAP_ANONYMOUS
  /* A huge page must lie on a 2 MiB boundary: map a huge page more, start at one. */
  const size_t length = (HEADER + bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE + HUGE_PAGE;
  if ((h = pool_take (length)) != NULL)
    {
      h->magic = MAGIC;
      return (char *) h + HEADER;
    }
  char        *mapping = mmap (NULL, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                               -1, 0);
  if (mapping == MAP_FAILED)
    return NULL;
  char *start = (char *) (((uintptr_t) mapping + HUGE_PAGE - 1) & ~(uintptr_t) (HUGE_PAGE - 1));
#ifdef MADV_HUGEPAGE
  madvise (start, length - (size_t) (start - mapping), MADV_HUGEPAGE); /* a wish: may fail */
#endif
  h = (BlockHeader *) start;
  *h = (BlockHeader) { MAGIC, mapping, length };
  return start + HEADER;
#endif
}

void
terrain_pages_free (void *block)
{
  if (block == NULL)
    return;
  BlockHeader *h = (BlockHeader *) ((char *) block - HEADER);
  if (h->magic != MAGIC)
    abort (); /* not one of ours: freeing it would corrupt memory */
  h->magic = 0;
#ifdef MAP_ANONYMOUS
  if (h->mapping)
    {
      pool_give (h);
      return;
    }
#endif
  free (h);
}

static void *
core_alloc (size_t bytes, void *user)
{
  (void) user;
  return terrain_pages_alloc (bytes);
}

static void
core_release (void *block, void *user)
{
  (void) user;
  terrain_pages_free (block);
}

void
terrain_use_huge_pages (void)
{
  const TerrainMemory memory = { core_alloc, core_release, NULL };
  terrain_set_memory (&memory);
}
