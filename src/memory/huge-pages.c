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
      munmap (h->mapping, h->length);
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
