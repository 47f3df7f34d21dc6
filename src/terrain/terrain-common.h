/* gimp-terrain core, internal: progress reports and the parallel loops the generators and
 * filters are made of (the public types are in include/terrain-types.h). Not on the include
 * path of the core's users: the plug-in and the descriptors see include/ only. */
#ifndef TERRAIN_COMMON_H
#define TERRAIN_COMMON_H

#include "terrain-types.h"

/* The core's memory, through the program's TerrainMemory (terrain_set_memory): every block
 * the core allocates comes from terrain_alloc or terrain_calloc (zeroed; NULL also when
 * n x size overflows) and goes back through terrain_free (NULL is fine). */
void *terrain_alloc (size_t bytes);
void *terrain_calloc (size_t n, size_t size);
void  terrain_free (void *block);

/* Calls progress->report; returns non-zero when the caller must stop. */
int terrain_progress_report (const TerrainProgress *progress, double fraction);

/* A part of a run that reports its own [0, 1] onto [from, to] of the run's progress. */
typedef struct
{
  const TerrainProgress *parent;
  double                 from, to;
  TerrainProgress        progress;
} TerrainProgressStage;

/* The progress to hand a part that covers [from, to] of parent's: NULL when nobody listens.
 * `stage` holds it, and must live as long as the part runs. */
const TerrainProgress *terrain_progress_stage (TerrainProgressStage *stage,
                                               const TerrainProgress *parent, double from,
                                               double to);

/* The number of tasks that run at once: 1 without a TerrainParallel. */
int  terrain_parallel_threads (void);
/* Runs task (task_user, i) for every i in [0, count) through the TerrainParallel. */
void terrain_parallel_for (int count, TerrainTask task, void *task_user);

/* Row strips: most of the core's parallel loops go over the rows of a map. Rows [0, rows)
 * are cut into `strips` contiguous strips, strip s being rows
 * [s * rows / strips, (s + 1) * rows / strips), and terrain_parallel_rows() makes them in
 * batches: in each batch every strip advances by up to a batch of rows, one task per
 * strip, calling task (task_user, s, first, end) for its next rows [first, end). A
 * strip's calls come one after the other and in row order, so a strip can keep state from
 * one call to the next (ring buffers of the rows before). Before each batch the calling
 * thread reports from + (to - from) * (rows done / rows) and stops with TERRAIN_CANCELLED
 * when asked to; else the result is TERRAIN_OK.
 *
 * report_rows is the rows between two reports with one strip: one strip advances by exactly
 * that many per batch, so one thread reports as often as a plain loop would. Several strips
 * advance by 8 x report_rows at a time (or all their rows), so that the threads' meeting
 * at the end of every batch costs little. */
typedef void (*TerrainRowsTask) (void *task_user, int strip, int first, int end);

/* How many strips to cut `rows` rows of `cells` map cells in all into: one per thread, at
 * most one per row, and at most one per TERRAIN_CELLS_PER_STRIP cells (so 1 on one
 * thread, and on small maps, where waking threads costs more than they save). */
#define TERRAIN_CELLS_PER_STRIP (1 << 20)
int           terrain_parallel_strips (int rows, size_t cells);
/* Items over rows (fault lines, circles: every row takes every item, in order): items
 * [0, items) in chunks of chunk_items, each chunk made over all rows in strips, calling
 * task (task_user, strip, first, end, item, item_end) for the strip's rows [first, end) and
 * the chunk's items [item, item_end). Progress is reported, and a cancel honoured, before
 * every chunk: one row that takes all items (a 1-pixel-high layer) can no longer hold a
 * cancel off. Rows keep what earlier chunks left in them, so the result is the one of
 * rows taking all the items at once when an item's work on a row does not depend on the
 * chunks. */
typedef void (*TerrainChunkTask) (void *task_user, int strip, int first, int end, int item,
                                  int item_end);
TerrainStatus terrain_parallel_chunks (int rows, int strips, int items, int chunk_items,
                                       TerrainChunkTask task, void *task_user,
                                       const TerrainProgress *progress, double from, double to);

/* Sets the cells per strip (0: back to TERRAIN_CELLS_PER_STRIP). The tests set 1, so that
 * their small maps are split as large ones are. */
void          terrain_set_cells_per_strip (size_t cells);
TerrainStatus terrain_parallel_rows (int rows, int strips, int report_rows, TerrainRowsTask task,
                                     void *task_user, const TerrainProgress *progress,
                                     double from, double to);

/* The strips for a map of `rows` rows of `columns` cells: terrain_parallel_strips of its
 * cells. */
int           terrain_map_strips (int rows, int columns);

/* Shared-edge tiles (Diamond-Square's and River Erosion's edges "shared-edge"): a
 * width x height map that repeats with period width - 1 and height - 1, so its last column
 * equals its first and its last row its first, as game engines want of tiles that share
 * their border with the neighbour. The period block is the map without its last column and
 * row; a side of 1 has period 1 (its one row or column is first and last at once), so
 * every size is well-defined. The procedures make the block as a wrapped map and spread it
 * out. */
static inline int
terrain_shared_edge_period (int size)
{
  return size > 1 ? size - 1 : 1;
}

/* Moves the period block of a width x height map to its start, packed (row stride
 * period (width)); the last column and row are overwritten. */
void terrain_shared_edge_pack (float *v, int width, int height);
/* The inverse: spreads the packed period block at v's start back to row stride width and
 * copies its first column and row into the last ones (the rows from the last one up, so
 * that no row is overwritten before it moved). */
void terrain_shared_edge_spread (float *v, int width, int height);

#endif
