/* Layer-sized memory (src/memory/huge-pages.h):
 *  - blocks of every size, small (malloc's) and mapped, are aligned for any type and can be
 *    written over their whole size;
 *  - a mapped block given back comes again for the next block of its size, as it was left
 *    (fresh memory is always zero: a pattern found again proves the block was kept);
 *  - what is kept is bounded: after many large blocks are given back, at most
 *    TERRAIN_PAGES_POOL_BYTES of them are still mapped, the newest;
 *  - threads taking and giving back blocks at once never get the same block.
 */
#define _DEFAULT_SOURCE /* msync, MAP_ANONYMOUS */
#include "check.h"
#include "huge-pages.h"

#include <errno.h>
#include <pthread.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#define MiB ((size_t) 1 << 20)

/* Whether the page holding the block's start is still mapped (msync fails with ENOMEM on
 * memory that is not). */
static int
still_mapped (void *block)
{
  const uintptr_t page = (uintptr_t) block & ~(uintptr_t) 4095;
  return msync ((void *) page, 4096, MS_ASYNC) == 0 || errno != ENOMEM;
}

static void
test_sizes (void)
{
  const size_t sizes[] = { 1, 100, 4096, 3 * MiB, 4 * MiB, 4 * MiB + 1, 9 * MiB };
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    {
      unsigned char *block = terrain_pages_alloc (sizes[i]);
      CHECK (block != NULL, "%zu bytes: no block", sizes[i]);
      if (block == NULL)
        continue;
      CHECK ((uintptr_t) block % alignof (max_align_t) == 0, "%zu bytes: misaligned", sizes[i]);
      memset (block, 0x5a, sizes[i]);
      CHECK (block[0] == 0x5a && block[sizes[i] - 1] == 0x5a, "%zu bytes: not kept", sizes[i]);
      terrain_pages_free (block);
    }
  terrain_pages_free (NULL);
}

static void
test_reuse (void)
{
  const size_t   bytes = 6 * MiB;
  unsigned char *first = terrain_pages_alloc (bytes);
  memset (first, 0xc3, bytes);
  terrain_pages_free (first);
  unsigned char *again = terrain_pages_alloc (bytes);
  CHECK (again == first, "a block given back did not come again for its size");
  CHECK (again[0] == 0xc3 && again[bytes - 1] == 0xc3,
         "the block that came again is fresh memory, not the one given back");
  /* Another size gets other memory. */
  unsigned char *other = terrain_pages_alloc (12 * MiB);
  CHECK (other != again, "two blocks taken at once are the same");
  terrain_pages_free (other);
  terrain_pages_free (again);
}

#define MANY 24

static void
test_bounded (void)
{
  const size_t bytes = 40 * MiB; /* 16 of them, the most blocks kept, would be 640 MiB */
  void        *blocks[MANY];
  for (int i = 0; i < MANY; i++)
    {
      blocks[i] = terrain_pages_alloc (bytes);
      CHECK (blocks[i] != NULL, "block %d: none", i);
      if (blocks[i])
        memset (blocks[i], i, 4096);
    }
  for (int i = 0; i < MANY; i++)
    terrain_pages_free (blocks[i]);
  int kept = 0;
  for (int i = 0; i < MANY; i++)
    kept += blocks[i] && still_mapped (blocks[i]);
  CHECK (kept > 0, "no block given back was kept");
  CHECK ((size_t) kept * bytes <= TERRAIN_PAGES_POOL_BYTES,
         "%d blocks of %zu MiB kept, more than %zu MiB", kept, bytes / MiB,
         TERRAIN_PAGES_POOL_BYTES / MiB);
  CHECK (still_mapped (blocks[MANY - 1]) && ! still_mapped (blocks[0]),
         "the kept blocks are not the newest");
}

#define THREADS 4
#define ROUNDS 200

static int clashes;

static void *
churn (void *data)
{
  const unsigned char mark = (unsigned char) (uintptr_t) data;
  for (int round = 0; round < ROUNDS; round++)
    {
      const size_t   bytes = (4 + (size_t) (round % 3) * 2) * MiB;
      unsigned char *block = terrain_pages_alloc (bytes);
      if (block == NULL)
        continue;
      block[0] = block[bytes / 2] = block[bytes - 1] = mark;
      for (volatile int spin = 0; spin < 1000; spin++)
        ;
      if (block[0] != mark || block[bytes / 2] != mark || block[bytes - 1] != mark)
        __atomic_add_fetch (&clashes, 1, __ATOMIC_RELAXED);
      terrain_pages_free (block);
    }
  return NULL;
}

static void
test_threads (void)
{
  pthread_t threads[THREADS];
  for (int t = 0; t < THREADS; t++)
    pthread_create (&threads[t], NULL, churn, (void *) (uintptr_t) (t + 1));
  for (int t = 0; t < THREADS; t++)
    pthread_join (threads[t], NULL);
  CHECK (clashes == 0, "%d times a thread's block was written by another", clashes);
}

int
main (void)
{
  test_sizes ();
  test_reuse ();
  test_bounded ();
  test_threads ();
  return CHECK_DONE ("huge-pages");
}
