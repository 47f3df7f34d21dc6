/* gimp-terrain core: the types every entry point shares, and how a program gives the core
 * threads.
 *
 * The core is plain C11 on float buffers: no GIMP, GTK, GLib or GEGL include. A heightmap
 * is `width * height` floats, row-major, row stride = width, values in [0, 1] on output.
 * Every entry point is a plain function of its parameters (a params struct with a
 * `*_defaults()` initialiser) and returns a TerrainStatus.
 */
#ifndef TERRAIN_TYPES_H
#define TERRAIN_TYPES_H

#include <stddef.h>
#include <stdint.h>

typedef enum
{
  TERRAIN_OK = 0,
  TERRAIN_ERROR_INVALID,   /* a parameter is out of its documented range */
  TERRAIN_ERROR_NO_MEMORY, /* a buffer could not be allocated (or its size overflows) */
  TERRAIN_CANCELLED        /* the progress callback asked to stop */
} TerrainStatus;

const char *terrain_status_message (TerrainStatus status);

/* Largest width or height the core accepts; width * height must also fit in size_t. */
#define TERRAIN_MAX_SIDE 524288

/* Progress and cancellation. `report` gets the fraction done in [0, 1] and returns
 * non-zero to cancel; the generator then returns TERRAIN_CANCELLED promptly and the output
 * buffer's content is unspecified (callers write nothing from it). A NULL progress, or a
 * NULL report, means "never cancel". */
typedef struct
{
  int  (*report) (void *user, double fraction);
  void  *user;
} TerrainProgress;

/* Threads. The core splits some loops into tasks that write disjoint memory and hands them
 * to the process's TerrainParallel, if one is set: run() calls task (task_user, i) once for
 * every i in [0, count), on any threads in any order, and returns when all calls have
 * returned. A task's result never depends on which thread runs it or on how many there are,
 * so output is bit-identical whatever the thread count. `threads` says how many tasks run at
 * once (the core sizes its tasks from it). Progress is reported from the calling thread
 * only, between runs. Without a TerrainParallel (the default) tasks run in order on the
 * calling thread. A task never starts parallel loops of its own.
 *
 * The thread count is the one setting of the core that is not a parameter of an entry point:
 * it changes how fast a result comes, never the result. Set it before rendering, not while
 * another thread renders. */
typedef void (*TerrainTask) (void *task_user, int index);

typedef struct
{
  void (*run) (void *user, int count, TerrainTask task, void *task_user);
  void  *user;
  int    threads;
} TerrainParallel;

/* Uses parallel (copied) from now on; NULL goes back to one thread. */
void terrain_set_parallel (const TerrainParallel *parallel);

/* Where the core's working memory comes from: malloc and free unless a program sets its
 * own. Fresh memory costs a page fault for every page first touched, and on some machines
 * that is most of a large render (a 4096 x 4096 Diamond-Square: about 0.25 s of faults for
 * 10 ms of work); a program can hand out memory that faults less (huge pages). Like the
 * thread count it changes how fast a result comes, never the result; set it before
 * rendering. alloc returns NULL when there is no room; release takes what alloc gave. */
typedef struct
{
  void *(*alloc) (size_t bytes, void *user);
  void  (*release) (void *block, void *user);
  void  *user;
} TerrainMemory;

/* Uses memory (copied) from now on; NULL goes back to malloc and free. */
void terrain_set_memory (const TerrainMemory *memory);

/* TERRAIN_OK when width x height is a size the core can work on, else INVALID/NO_MEMORY. */
TerrainStatus terrain_check_size (int width, int height);

#endif
