/* A TerrainParallel backed by POSIX threads, for the plug-in, the GEGL module, the benchmarks
 * and the tests.
 * The core stays free of GLib: it only sees the TerrainParallel callback. */
#ifndef TERRAIN_THREAD_POOL_H
#define TERRAIN_THREAD_POOL_H

#include "terrain-types.h"

/* The thread count to use: $TERRAIN_THREADS when it is a number from 1 to 256, else the
 * machine's processors. */
int  terrain_thread_count (void);

/* Makes the core run on `threads` threads (the caller's and threads - 1 workers, started
 * once and kept); 1 or less goes back to one thread. Not thread-safe: call it between
 * renders. */
void terrain_use_threads (int threads);

#endif
