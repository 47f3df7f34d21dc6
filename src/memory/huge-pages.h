/* Memory for layer-sized buffers on huge pages, for the core (terrain_set_memory) and the
 * glue's own whole-layer buffers.
 *
 * Fresh memory costs a page fault for every 4 KiB page first touched, and on a virtual
 * machine a fault costs microseconds: a 4096 x 4096 Diamond-Square took 0.26 s in faults
 * for 10 ms of work (measured here). Linux's transparent huge pages map 2 MiB at a fault
 * where a region asks for them (madvise), cutting the faults 512-fold: the same render took
 * 0.02 s. Blocks of 4 MiB or more are mapped on their own, 2 MiB-aligned, and ask for huge
 * pages; smaller ones come from malloc. Where the system has no such thing (or has it
 * switched off) the blocks are plain pages, as malloc's would be, and without mmap they all
 * come from malloc. Mapped blocks given back are kept, up to 256 MiB, for the next blocks
 * of their size (memory touched before faults no more), so a process holds up to that
 * much it does not use; like malloc's, a block holds anything when it comes. Plain C (and
 * POSIX where there is), no GLib. */
#ifndef TERRAIN_HUGE_PAGES_H
#define TERRAIN_HUGE_PAGES_H

#include <stddef.h>

/* The most that mapped blocks given back are kept for the next ones (terrain_pages_free). */
#define TERRAIN_PAGES_POOL_BYTES ((size_t) 256 << 20)

/* A block of at least `bytes` (aligned for any type; what it holds is undefined), or NULL
 * when there is no room. Thread-safe. */
void *terrain_pages_alloc (size_t bytes);
/* Gives back a block of terrain_pages_alloc (NULL is fine). */
void  terrain_pages_free (void *block);

/* Has the core take its memory from terrain_pages_alloc from now on. */
void  terrain_use_huge_pages (void);

#endif
