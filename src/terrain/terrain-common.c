#include "terrain-common.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const char *
terrain_status_message (TerrainStatus status)
{
  switch (status)
    {
    case TERRAIN_OK:              return "success";
    case TERRAIN_ERROR_INVALID:   return "a parameter is out of range";
    case TERRAIN_ERROR_NO_MEMORY: return "not enough memory for a heightmap of this size";
    case TERRAIN_CANCELLED:       return "cancelled";
    }
  return "unknown status";
}

int
terrain_progress_report (const TerrainProgress *progress, double fraction)
{
  if (progress == NULL || progress->report == NULL)
    return 0;
  return progress->report (progress->user, fraction);
}

static int
stage_report (void *user, double fraction)
{
  const TerrainProgressStage *s = user;
  return terrain_progress_report (s->parent, s->from + (s->to - s->from) * fraction);
}

const TerrainProgress *
terrain_progress_stage (TerrainProgressStage *stage, const TerrainProgress *parent, double from,
                        double to)
{
  if (parent == NULL || parent->report == NULL)
    return NULL;
  stage->parent = parent;
  stage->from = from;
  stage->to = to;
  stage->progress.report = stage_report;
  stage->progress.user = stage;
  return &stage->progress;
}

TerrainStatus
terrain_check_size (int width, int height)
{
  if (width < 1 || height < 1 || width > TERRAIN_MAX_SIDE || height > TERRAIN_MAX_SIDE)
    return TERRAIN_ERROR_INVALID;
  if ((size_t) width > SIZE_MAX / sizeof (float) / (size_t) height)
    return TERRAIN_ERROR_NO_MEMORY;
  return TERRAIN_OK;
}

static void *
plain_alloc (size_t bytes, void *user)
{
  (void) user;
  return malloc (bytes ? bytes : 1);
}

static void
plain_release (void *block, void *user)
{
  (void) user;
  free (block);
}

static const TerrainMemory plain_memory = { plain_alloc, plain_release, NULL };
static TerrainMemory       memory_set = { plain_alloc, plain_release, NULL };

void
terrain_set_memory (const TerrainMemory *memory)
{
  memory_set = memory && memory->alloc && memory->release ? *memory : plain_memory;
}

void *
terrain_alloc (size_t bytes)
{
  return memory_set.alloc (bytes, memory_set.user);
}

void *
terrain_calloc (size_t n, size_t size)
{
  if (size != 0 && n > SIZE_MAX / size)
    return NULL;
  void *block = terrain_alloc (n * size);
  if (block)
    memset (block, 0, n * size);
  return block;
}

void
terrain_free (void *block)
{
  if (block)
    memory_set.release (block, memory_set.user);
}

static TerrainParallel parallel_set; /* run == NULL: one thread */

void
terrain_set_parallel (const TerrainParallel *parallel)
{
  static const TerrainParallel serial = { NULL, NULL, 1 };
  parallel_set = parallel && parallel->run && parallel->threads > 1 ? *parallel : serial;
}

int
terrain_parallel_threads (void)
{
  return parallel_set.run ? parallel_set.threads : 1;
}

void
terrain_parallel_for (int count, TerrainTask task, void *task_user)
{
  if (parallel_set.run && count > 1)
    parallel_set.run (parallel_set.user, count, task, task_user);
  else
    for (int i = 0; i < count; i++)
      task (task_user, i);
}

/* Strips per thread: one makes the fewest strip starts (each may remake a little of the
 * rows before it). */
#define STRIPS_PER_THREAD 1
/* With several strips a batch is this many times report_rows rows of each strip: the
 * threads meet at the end of every batch, which costs as much as a few rows. */
#define BATCH_GROWTH 8

static size_t cells_per_strip = TERRAIN_CELLS_PER_STRIP;

void
terrain_set_cells_per_strip (size_t cells)
{
  cells_per_strip = cells ? cells : TERRAIN_CELLS_PER_STRIP;
}

int
terrain_parallel_strips (int rows, size_t cells)
{
  const size_t by_size = cells / cells_per_strip;
  int strips = terrain_parallel_threads () * STRIPS_PER_THREAD;
  strips = by_size < (size_t) strips ? (int) by_size : strips;
  strips = rows < strips ? rows : strips;
  return strips > 1 ? strips : 1;
}

int
terrain_map_strips (int rows, int columns)
{
  return terrain_parallel_strips (rows, (size_t) rows * columns);
}

/* One batch of terrain_parallel_rows: every strip's rows [index * batch, (index + 1) * batch)
 * counted from its start. */
typedef struct
{
  int             rows, strips, batch, index;
  TerrainRowsTask task;
  void           *task_user;
} RowsBatch;

static int
strip_start (const RowsBatch *b, int strip)
{
  return (int) ((long long) strip * b->rows / b->strips);
}

static void
run_rows_batch (void *user, int strip)
{
  const RowsBatch *b = user;
  const int        start = strip_start (b, strip), end = strip_start (b, strip + 1);
  const long long  first = start + (long long) b->index * b->batch;
  if (first < end)
    b->task (b->task_user, strip, (int) first,
             first + b->batch < end ? (int) first + b->batch : end);
}

typedef struct
{
  TerrainChunkTask task;
  void            *task_user;
  int              item, item_end;
} Chunk;

static void
run_chunk_rows (void *user, int strip, int first, int end)
{
  const Chunk *c = user;
  c->task (c->task_user, strip, first, end, c->item, c->item_end);
}

TerrainStatus
terrain_parallel_chunks (int rows, int strips, int items, int chunk_items, TerrainChunkTask task,
                         void *task_user, const TerrainProgress *progress, double from, double to)
{
  const int chunk = chunk_items > 0 ? chunk_items : 1;
  for (int item = 0; item < items; item += chunk)
    {
      if (terrain_progress_report (progress, from + (to - from) * ((double) item / items)))
        return TERRAIN_CANCELLED;
      Chunk c = { task, task_user, item, items - item > chunk ? item + chunk : items };
      terrain_parallel_rows (rows, strips, rows, run_chunk_rows, &c, NULL, 0.0, 0.0);
    }
  return TERRAIN_OK;
}

TerrainStatus
terrain_parallel_rows (int rows, int strips, int report_rows, TerrainRowsTask task,
                       void *task_user, const TerrainProgress *progress, double from,
                       double to)
{
  RowsBatch b = { rows, strips, report_rows > 0 ? report_rows : 1, 0, task, task_user };
  const int longest = (rows + strips - 1) / strips;
  if (strips > 1)
    b.batch = b.batch < longest / BATCH_GROWTH ? b.batch * BATCH_GROWTH : longest;
  for (; (long long) b.index * b.batch < longest; b.index++)
    {
      long long done = 0;
      for (int s = 0; s < strips; s++)
        {
          const long long made = (long long) b.index * b.batch;
          const int       length = strip_start (&b, s + 1) - strip_start (&b, s);
          done += made < length ? made : length;
        }
      if (terrain_progress_report (progress, from + (to - from) * ((double) done / rows)))
        return TERRAIN_CANCELLED;
      terrain_parallel_for (strips, run_rows_batch, &b);
    }
  return TERRAIN_OK;
}

/* ---- Shared-edge tiles ---- */

void
terrain_shared_edge_pack (float *v, int width, int height)
{
  const int pw = terrain_shared_edge_period (width), ph = terrain_shared_edge_period (height);
  for (int y = 1; y < ph; y++) /* a packed row never lies after its source: top down */
    memmove (v + (size_t) y * pw, v + (size_t) y * width, (size_t) pw * sizeof (float));
}

void
terrain_shared_edge_spread (float *v, int width, int height)
{
  const int pw = terrain_shared_edge_period (width), ph = terrain_shared_edge_period (height);
  for (int y = ph - 1; y >= 0; y--)
    {
      float *row = v + (size_t) y * width;
      memmove (row, v + (size_t) y * pw, (size_t) pw * sizeof (float));
      row[width - 1] = row[0];
    }
  if (height > 1)
    memcpy (v + (size_t) (height - 1) * width, v, (size_t) width * sizeof (float));
}
