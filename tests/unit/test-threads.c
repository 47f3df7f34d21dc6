/* Threads: every procedure gives the same bits with 1, 2, 3 and 4 threads (memcmp against
 * one thread), at defaults and with varied arguments, at odd sizes, and so does the
 * hillshade; the row-strip helper visits every row once, in order within a strip;
 * cancelling with 2 threads stops. All of it with a program's own memory
 * (terrain_set_memory) that marks its blocks, fills them with garbage and counts them: every
 * block the core takes comes back to it, through it, and nothing reads memory before
 * writing it (the results would then differ between thread counts or from the plain run). */
#include "check.h"
#include "progress-log.h"
#include "timing.h"

#include "heightmap.h"
#include "hydraulic-observer.h"
#include "procedure-info.h"
#include "shade.h"
#include "terrain-common.h"
#include "thread-pool.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 16

/* Argument settings over a procedure's defaults, "name=value ...": a number, a choice's
 * nick, or a string without spaces (a custom kernel's numbers are separated by commas). */
typedef struct
{
  const char *procedure; /* the name after "plug-in-terrain-" */
  const char *settings;
} Variant;

/* Besides every procedure at its defaults. */
static const Variant variants[] = {
  { "diamond-square", "edges=wrap" },
  { "diamond-square", "edges=mirror roughness=0.3 seed=77" },
  { "diamond-square", "corners=fixed corner-height=0.2 edges=wrap seed=3" },
  { "diamond-square", "subdivision=square-square" },
  { "diamond-square", "subdivision=square-square edges=wrap roughness=1.6" },
  { "diamond-square", "convention=lighthouse-code roughness=0.7 seed=5" },
  { "diamond-square", "guide=1 guide-scale=8" },
  { "diamond-square", "guide=1 guide-scale=1 edges=wrap" },
  { "field", "iterations=3 roughness=0.4 offset-x=-1000 offset-y=77" },
  { "field", "guide=1 guide-scale=16" },
  { "field", "guide=1 guide-scale=1" },
  { "fault", "profile=sine iterations=300" },
  { "fault", "profile=cosine wave-size=40 iterations=200 seed=9" },
  { "circles", "direction=raise diameter=7 iterations=3000" },
  { "circles", "diameter=900 iterations=60 seed=4" },
  { "particles", "particles=20000 mode=stick sites=3" },
  { "smooth", "iterations=3" },
  { "smooth", "method=fir" },
  { "smooth", "method=fir k=0.1 iterations=2" },
  { "smooth", "method=matrix" },
  { "smooth", "method=matrix kernel=box-5 iterations=3" },
  { "smooth", "method=matrix kernel=custom custom-kernel=1,0,-1,2,5,2,-1,0,1" },
};

static const int sizes[][2] = { { 1, 1 }, { 7, 300 }, { 300, 7 }, { 257, 129 },
                                { 512, 256 }, { 1000, 1000 } };

/* The layer every filter and guided generator reads: broad waves plus hashed noise. */
static void
fill_input (float *map, int width, int height)
{
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      {
        uint32_t h = (uint32_t) x * 0x9e3779b1u ^ (uint32_t) y * 0x85ebca77u;
        h ^= h >> 15;
        h *= 0x2c1b3c6du;
        h ^= h >> 12;
        const double noise = (double) (h >> 8) / 16777216.0 - 0.5;
        map[(size_t) y * width + x] =
          (float) (0.5 + 0.3 * sin (x * 0.031) * cos (y * 0.047) + 0.15 * noise);
      }
}

static const TerrainProcedureInfo *
find (const char *short_name)
{
  for (int i = 0; terrain_procedures[i]; i++)
    if (strcmp (terrain_procedures[i]->name + strlen ("plug-in-terrain-"), short_name) == 0)
      return terrain_procedures[i];
  return NULL;
}

/* Defaults, then settings; 0 (and a failed check) when a setting names nothing. */
static int
set_values (const TerrainProcedureInfo *info, const char *settings, TerrainArgValue *values,
            char text[][64])
{
  terrain_arg_defaults (info, values);
  const char *s = settings;
  while (*s)
    {
      char   name[64], value[64];
      size_t n = strcspn (s, "="), m;
      if (n >= sizeof name)
        return 0;
      memcpy (name, s, n);
      name[n] = '\0';
      s += n + (s[n] == '=');
      m = strcspn (s, " ");
      if (m >= sizeof value)
        return 0;
      memcpy (value, s, m);
      value[m] = '\0';
      s += m + (s[m] == ' ');
      const int i = terrain_arg_index (info, name);
      CHECK (i >= 0, "%s has no argument %s", info->name, name);
      if (i < 0)
        return 0;
      snprintf (text[i], sizeof text[i], "%s", value);
      const int ok = terrain_arg_from_text (&info->args[i], text[i], &values[i]) == 0;
      CHECK (ok, "%s: %s=%s is no value of the argument", info->name, name, value);
      if (! ok)
        return 0;
    }
  return 1;
}

/* Renders into map (which holds the input layer first) with `threads` threads. */
static TerrainStatus
render (const TerrainProcedureInfo *info, const TerrainArgValue *values, float *map,
        int width, int height, int threads)
{
  char why[256] = "";
  fill_input (map, width, height);
  terrain_use_threads (threads);
  TerrainStatus status = terrain_procedure_render (info, values, map, width, height, NULL, why,
                                                   sizeof why);
  terrain_use_threads (1);
  return status;
}

/* Renders `settings` of info with 1 thread and compares 2, 3 and 4 threads with it. */
static void
compare_threads (const TerrainProcedureInfo *info, const char *settings, float *one, float *many)
{
  const int       compared[] = { 2, 3, 4 };
  TerrainArgValue values[MAX_ARGS];
  char            text[MAX_ARGS][64];
  CHECK (terrain_arg_count (info) <= MAX_ARGS, "%s: too many arguments", info->name);
  if (terrain_arg_count (info) > MAX_ARGS || ! set_values (info, settings, values, text))
    return;
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    {
      const int           w = sizes[s][0], h = sizes[s][1];
      const size_t        bytes = (size_t) w * h * sizeof (float);
      const TerrainStatus reference = render (info, values, one, w, h, 1);
      CHECK (reference == TERRAIN_OK, "%s [%s] %dx%d: %s", info->name, settings, w, h,
             terrain_status_message (reference));
      for (size_t t = 0; t < sizeof compared / sizeof compared[0]; t++)
        {
          memset (many, 0xa5, bytes);
          const TerrainStatus status = render (info, values, many, w, h, compared[t]);
          CHECK (status == reference && memcmp (one, many, bytes) == 0,
                 "%s [%s] %dx%d: %d threads differ from one", info->name, settings, w, h,
                 compared[t]);
        }
    }
  /* A rectangle away from the origin, for procedures that render any rectangle. */
  if (info->render_rect)
    {
      const int w = 333, h = 211;
      char      why[256];
      terrain_use_threads (1);
      CHECK (terrain_procedure_render_rect (info, values, one, -50, 1234, w, h, NULL, why,
                                            sizeof why)
               == TERRAIN_OK, "%s: render_rect failed", info->name);
      for (size_t t = 0; t < sizeof compared / sizeof compared[0]; t++)
        {
          terrain_use_threads (compared[t]);
          CHECK (terrain_procedure_render_rect (info, values, many, -50, 1234, w, h, NULL, why,
                                                sizeof why)
                     == TERRAIN_OK &&
                   memcmp (one, many, (size_t) w * h * sizeof (float)) == 0,
                 "%s [%s] rectangle: %d threads differ", info->name, settings, compared[t]);
        }
      terrain_use_threads (1);
    }
}

static void
test_procedures_bit_identical (void)
{
  const size_t most = 1000 * 1000;
  float       *one = malloc (most * sizeof (float)), *many = malloc (most * sizeof (float));
  for (int i = 0; terrain_procedures[i]; i++)
    compare_threads (terrain_procedures[i], "", one, many);
  for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++)
    {
      const TerrainProcedureInfo *info = find (variants[v].procedure);
      CHECK (info != NULL, "no procedure %s", variants[v].procedure);
      if (info)
        compare_threads (info, variants[v].settings, one, many);
    }
  free (one);
  free (many);
}

static void
test_hillshade_bit_identical (void)
{
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    {
      const int    w = sizes[s][0], h = sizes[s][1];
      const size_t n = (size_t) w * h;
      float *map = malloc (n * sizeof (float)), *one = malloc (n * sizeof (float));
      float *many = malloc (n * sizeof (float));
      fill_input (map, w, h);
      terrain_hillshade (map, w, h, 315.0, 45.0, terrain_hillshade_z_scale (w, h), one);
      for (int threads = 2; threads <= 4; threads++)
        {
          terrain_use_threads (threads);
          memset (many, 0xa5, n * sizeof (float));
          terrain_hillshade (map, w, h, 315.0, 45.0, terrain_hillshade_z_scale (w, h), many);
          terrain_use_threads (1);
          CHECK (memcmp (one, many, n * sizeof (float)) == 0,
                 "hillshade %dx%d: %d threads differ from one", w, h, threads);
        }
      free (map);
      free (one);
      free (many);
    }
}

/* ---- The row-strip helper ---- */

typedef struct
{
  int *visits;     /* per row */
  int *next;       /* per strip: the row its next call must start at (-1: none yet) */
  int  out_of_order;
} RowsLog;

static void
log_rows (void *user, int strip, int first, int end)
{
  RowsLog *log = user;
  if (log->next[strip] >= 0 && log->next[strip] != first)
    log->out_of_order++;
  log->next[strip] = end;
  for (int y = first; y < end; y++)
    log->visits[y]++;
}

static void
test_parallel_rows (void)
{
  const int rows_list[] = { 1, 2, 5, 63, 64, 65, 1000, 4099 };
  const int reports[] = { 1, 7, 64, 5000 };
  for (int threads = 1; threads <= 4; threads++)
    for (size_t r = 0; r < sizeof rows_list / sizeof rows_list[0]; r++)
      for (size_t k = 0; k < sizeof reports / sizeof reports[0]; k++)
        {
          const int rows = rows_list[r];
          terrain_use_threads (threads);
          const int strips = terrain_parallel_strips (rows, (size_t) rows * 4096);
          RowsLog   log = { calloc ((size_t) rows, sizeof (int)),
                            malloc ((size_t) strips * sizeof (int)), 0 };
          for (int s = 0; s < strips; s++)
            log.next[s] = -1;
          ProgressLog     plog = progress_log (2.0);
          TerrainProgress progress = { log_progress, &plog };
          TerrainStatus   status = terrain_parallel_rows (rows, strips, reports[k], log_rows,
                                                          &log, &progress, 0.25, 0.75);
          terrain_use_threads (1);
          int once = 1;
          for (int y = 0; y < rows; y++)
            once &= log.visits[y] == 1;
          CHECK (strips >= 1 && strips <= rows && (threads > 1 || strips == 1),
                 "%d strips for %d rows on %d threads", strips, rows, threads);
          CHECK (status == TERRAIN_OK && once && log.out_of_order == 0,
                 "%d rows, %d threads, report %d: status %d, every row once %d, "
                 "out of order %d", rows, threads, reports[k], status, once, log.out_of_order);
          CHECK (plog.monotone && plog.calls >= 1 && plog.last >= 0.25 && plog.last < 0.75,
                 "progress: %d calls, monotone %d, last %g", plog.calls, plog.monotone,
                 plog.last);
          if (strips == 1)
            CHECK (plog.calls == (rows + reports[k] - 1) / reports[k],
                   "one strip reports every %d rows: %d reports for %d rows", reports[k],
                   plog.calls, rows);
          free (log.visits);
          free (log.next);
        }
}

/* ---- Cancelling with two threads ---- */

/* The longest a render may take to stop once asked (seconds): a request waits for the
 * next progress report, then for the return. */
#define CANCEL_LATENCY_LIMIT (0.25 * TIMING_SLOWDOWN)

typedef struct
{
  double cancel_at;
  int    cancelled, after; /* reports that cancelled, reports after that */
  double last;
  double cancelled_time;   /* seconds() at the cancelling report */
  double last_time;        /* seconds() at the start, then at the latest report */
  double longest_gap;      /* the longest wait for a report so far */
} CancelLog;

static double worst_cancel_latency;
static char   worst_cancel_what[160];

static int
cancel_report (void *user, double fraction)
{
  CancelLog   *log = user;
  const double now = seconds ();
  if (now - log->last_time > log->longest_gap)
    log->longest_gap = now - log->last_time;
  log->last_time = now;
  log->after += log->cancelled > 0;
  log->last = fraction;
  if (fraction >= log->cancel_at && log->cancelled++ == 0)
    log->cancelled_time = now;
  return fraction >= log->cancel_at;
}

/* Cancels info [settings] at the first report at or past cancel_at, with 2 threads. */
static void
cancel_with_two_threads (const TerrainProcedureInfo *info, const char *settings, double cancel_at,
                         float *map, int w, int h)
{
  TerrainArgValue values[MAX_ARGS];
  char            text[MAX_ARGS][64], why[256];
  if (! set_values (info, settings, values, text))
    return;
  CancelLog       log = { cancel_at, 0, 0, -1.0, 0.0, 0.0, 0.0 };
  TerrainProgress progress = { cancel_report, &log };
  fill_input (map, w, h);
  terrain_use_threads (2);
  log.last_time = seconds ();
  const TerrainStatus status = terrain_procedure_render (info, values, map, w, h, &progress, why,
                                                             sizeof why);
  /* A request just after a report waits the longest gap, then the return. */
  const double        latency = log.longest_gap + (seconds () - log.cancelled_time);
  terrain_use_threads (1);
  if (log.cancelled)
    {
      CHECK (latency <= CANCEL_LATENCY_LIMIT,
             "%s [%s]: up to %.3f s between a cancel and the return (%.3f s between reports)",
             info->name, settings, latency, log.longest_gap);
      if (latency > worst_cancel_latency)
        {
          worst_cancel_latency = latency;
          snprintf (worst_cancel_what, sizeof worst_cancel_what, "%s [%s]", info->name, settings);
        }
    }
  CHECK (status == TERRAIN_CANCELLED && log.cancelled == 1 && log.after == 0,
         "%s [%s], cancel at %g with 2 threads: status %s, %d cancelling reports, %d after",
         info->name, settings, cancel_at, terrain_status_message (status), log.cancelled,
         log.after);
}

/* Every count and size at its maximum, the costliest choices: what one step between two
 * reports costs is largest here. Too slow to run to the end; cancelled early instead. */
static const Variant maxima[] = {
  { "diamond-square", "guide=1 guide-scale=65536 edges=wrap" },
  { "field", "iterations=30 guide=1 guide-scale=65536" },
  { "fault", "iterations=100000 profile=cosine wave-size=10000 decay-iterations=100000" },
  { "circles", "iterations=100000 diameter=100000 decay-iterations=100000" },
  { "particles", "particles=100000000 mode=roll sites=1000000" },
  { "particles", "particles=100000000 mode=roll particle-height=0.001 caldera=1" },
  { "landscape", "preset=alpine feature-size=65536" },
  { "landscape", "preset=rolling-hills feature-size=65536" },
  { "landscape", "preset=islands feature-size=65536" },
  { "landscape", "preset=mesa feature-size=65536" },
  { "smooth", "iterations=1000" },
  { "smooth", "method=fir iterations=1000" },
  { "smooth", "method=matrix kernel=gauss-5 iterations=1000" },
  { "thermal-erosion", "iterations=10000 talus=0 strength=1 neighbourhood=8" },
  { "hydraulic-erosion", "droplets=100000000 max-steps=1000 radius=8 evaporation=0 inertia=0" },
  { "hydraulic-erosion",
    "droplets=100000000 max-steps=1000 radius=8 evaporation=0 inertia=1 capacity=64 erosion=1" },
};

static void
test_cancel_two_threads (void)
{
  const int    w = 1024, h = 1024;
  float       *map = malloc ((size_t) w * h * sizeof (float));
  const double cancel_at[] = { 0.0, 0.4 }, cancel_maxima_at[] = { 0.0, 1e-4 };
  for (size_t c = 0; c < 2; c++)
    {
      for (int i = 0; terrain_procedures[i]; i++)
        cancel_with_two_threads (terrain_procedures[i], "", cancel_at[c], map, w, h);
      for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++)
        if (find (variants[v].procedure))
          cancel_with_two_threads (find (variants[v].procedure), variants[v].settings,
                                   cancel_at[c], map, w, h);
      for (size_t v = 0; v < sizeof maxima / sizeof maxima[0]; v++)
        cancel_with_two_threads (find (maxima[v].procedure), maxima[v].settings,
                                 cancel_maxima_at[c], map, w, h);
    }
  printf ("cancel: every procedure stops within %.1f ms of a cancel (1024^2, 2 threads; "
          "slowest %s)\n", worst_cancel_latency * 1e3, worst_cancel_what);
  free (map);
}

/* Cancelling half way through a big diamond-square stops before the end, with the strips
 * made in several batches. */
static void
test_cancel_promptly (void)
{
  const TerrainProcedureInfo *info = find ("diamond-square");
  const int                   n = 2048;
  float                      *map = malloc ((size_t) n * n * sizeof (float));
  const char                 *settings[] = { "", "edges=wrap" };
  for (int k = 0; k < 2; k++)
    {
      TerrainArgValue values[MAX_ARGS];
      char            text[MAX_ARGS][64], why[256];
      set_values (info, settings[k], values, text);
      CancelLog       log = { 0.3, 0, 0, -1.0, 0.0, 0.0, 0.0 };
      TerrainProgress progress = { cancel_report, &log };
      terrain_use_threads (2);
      const TerrainStatus status = terrain_procedure_render (info, values, map, n, n, &progress,
                                                                 why, sizeof why);
      terrain_use_threads (1);
      CHECK (status == TERRAIN_CANCELLED && log.last < 0.7,
             "[%s] cancel at 0.3 with 2 threads: %s, stopped at %g", settings[k],
             terrain_status_message (status), log.last);
    }
  free (map);
}

/* By default small maps stay on one strip (threads cost more than they save there); the
 * other tests split every map, however small, to exercise the strips. */
static void
test_strip_sizes (void)
{
  terrain_use_threads (2);
  CHECK (terrain_parallel_strips (1024, (size_t) 1024 * 1024) == 1,
         "a 1024^2 map is split in %d strips", terrain_parallel_strips (1024, (size_t) 1024 * 1024));
  CHECK (terrain_parallel_strips (4096, (size_t) 4096 * 4096) == 2,
         "a 4096^2 map on 2 threads is split in %d strips",
         terrain_parallel_strips (4096, (size_t) 4096 * 4096));
  terrain_set_cells_per_strip (1);
  CHECK (terrain_parallel_strips (7, 7) == 2, "7 rows of 1 cell on 2 threads: %d strips",
         terrain_parallel_strips (7, 7));
  terrain_use_threads (1);
}

/* terrain_min_max in parts gives one pass's bits: the first of equal zeros, NaNs skipped. */
static void
test_min_max_parts (void)
{
  const size_t n = 1000;
  float       *data = malloc (n * sizeof (float));
  for (int layout = 0; layout < 4; layout++)
    {
      for (size_t i = 0; i < n; i++)
        data[i] = 0.25f + 0.5f * (float) ((i * 7919) % n) / n;
      data[layout * 100 + 7] = layout % 2 ? 0.0f : -0.0f;  /* the smallest, twice, */
      data[900 - layout * 50] = layout % 2 ? -0.0f : 0.0f; /* signs swapped */
      data[layout == 3 ? 0 : 500] = NAN;
      float lo1, hi1;
      terrain_min_max (data, n, &lo1, &hi1);
      for (int threads = 2; threads <= 4; threads++)
        {
          float lo, hi;
          terrain_use_threads (threads);
          terrain_min_max (data, n, &lo, &hi);
          terrain_use_threads (1);
          CHECK (memcmp (&lo, &lo1, sizeof lo) == 0 && memcmp (&hi, &hi1, sizeof hi) == 0,
                 "layout %d, %d threads: min %g max %g, one pass %g %g", layout, threads, lo,
                 hi, lo1, hi1);
        }
    }
  free (data);
}

/* ---- The program's memory ---- */

#define BLOCK_MAGIC 0x7e44a1c3u
typedef struct
{
  unsigned magic;
  size_t   bytes;
  double   align; /* the block after the header stays aligned for any type */
} BlockHeader;

typedef struct
{
  long live, taken, foreign;
} MemoryLog;

static MemoryLog memory_log;

static void *
checked_alloc (size_t bytes, void *user)
{
  MemoryLog *log = user;
  BlockHeader *h = malloc (sizeof *h + bytes);
  if (h == NULL)
    return NULL;
  h->magic = BLOCK_MAGIC;
  h->bytes = bytes;
  /* Garbage, as reused memory holds, different for every block. */
  const long taken = __atomic_add_fetch (&log->taken, 1, __ATOMIC_SEQ_CST);
  memset (h + 1, (int) (taken * 37 + 11) & 0xff, bytes);
  __atomic_add_fetch (&log->live, 1, __ATOMIC_SEQ_CST);
  return h + 1;
}

static void
checked_release (void *block, void *user)
{
  MemoryLog   *log = user;
  BlockHeader *h = (BlockHeader *) block - 1;
  if (h->magic != BLOCK_MAGIC)
    {
      __atomic_add_fetch (&log->foreign, 1, __ATOMIC_SEQ_CST);
      return; /* not ours: leak it rather than crash */
    }
  h->magic = 0;
  __atomic_sub_fetch (&log->live, 1, __ATOMIC_SEQ_CST);
  free (h);
}

/* Hydraulic erosion's schedule: droplets of tiles that run at once cannot meet, so the bits
 * are the same with any thread count, also with more threads than tiles of a phase (7) and
 * on a map of a single tile; with an observer the tiles run one after the other, in the
 * same schedule, and give the same bits again. */
static void
ignore_step (void *user, const TerrainDropletStep *step)
{
  (void) user;
  (void) step;
}

static void
hydraulic_eroded_as (const TerrainHydraulicErosion *p, int w, int h, int threads,
                     int observed, float *out)
{
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      out[(size_t) y * w + x] = (float) (0.5 + 0.3 * sin (x * 0.05) * cos (y * 0.04)
                                         + 0.01 * sin (x * 1.7 + y * 2.3));
  terrain_use_threads (threads);
  const TerrainStatus status =
    terrain_hydraulic_erosion_observed (p, observed ? ignore_step : NULL, NULL, out, w, h,
                                        NULL);
  terrain_use_threads (1);
  CHECK (status == TERRAIN_OK, "hydraulic %dx%d on %d threads: %s", w, h, threads,
         terrain_status_message (status));
}

static void
hydraulic_eroded (int w, int h, int threads, int observed, float *out)
{
  TerrainHydraulicErosion p;
  terrain_hydraulic_erosion_defaults (&p);
  p.droplets = w * h / 4;
  p.seed = 5;
  hydraulic_eroded_as (&p, w, h, threads, observed, out);
}

static void
test_hydraulic_schedule (void)
{
  static const int sizes[][2] = { { 700, 500 }, { 60, 40 }, { 700, 40 } };
  static const int threads[] = { 2, 3, 7 };
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
    {
      const int    w = sizes[k][0], h = sizes[k][1];
      const size_t bytes = (size_t) w * h * sizeof (float);
      float       *one = malloc (bytes), *many = malloc (bytes);
      hydraulic_eroded (w, h, 1, 0, one);
      for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++)
        {
          hydraulic_eroded (w, h, threads[t], 0, many);
          CHECK (memcmp (one, many, bytes) == 0, "hydraulic %dx%d: %d threads differ from 1", w,
                 h, threads[t]);
        }
      hydraulic_eroded (w, h, 2, 1, many);
      CHECK (memcmp (one, many, bytes) == 0, "hydraulic %dx%d: observed run differs", w, h);
      free (one);
      free (many);
    }
}

/* Every way hydraulic erosion can run its droplets gives the portable code's bits: droplets
 * in the lanes of AVX-512 and AVX2 vectors (where the CPU has them; on every batch, and on
 * those with tiles enough), two streams with the SSE2 brush, on 1 and 2 threads, for every
 * brush shape (each radius has its own unrolled AVX2 brush), short and long lives; on maps
 * with more tiles in a phase than lanes (lives of 5 steps make tiles 25 pixels wide), fewer
 * (lanes left empty), one tile, and 1 or 2 pixels across (where no lanes run). */
static void
test_hydraulic_codes (void)
{
  static const int sizes[][2] = { { 500, 400 }, { 300, 90 }, { 2, 2 }, { 1, 40 }, { 40, 2 } };
  static const struct
  {
    TerrainHydraulicCode code;
    int                  lanes_from;
  } ways[] = { { TERRAIN_HYDRAULIC_BEST, 0 }, { TERRAIN_HYDRAULIC_BEST, -1 },
               { TERRAIN_HYDRAULIC_AVX2, 0 }, { TERRAIN_HYDRAULIC_SSE2, -1 } };
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
    for (int radius = 1; radius <= TERRAIN_HYDRAULIC_MAX_RADIUS; radius++)
      {
        const int    w = sizes[k][0], h = sizes[k][1];
        const size_t bytes = (size_t) w * h * sizeof (float);
        float       *portable = malloc (bytes), *other = malloc (bytes);
        TerrainHydraulicErosion p;
        terrain_hydraulic_erosion_defaults (&p);
        p.droplets = w * h / 10 + 10;
        p.seed = 40 + radius;
        p.radius = radius;
        p.max_steps = radius % 2 ? 5 : 40;
        p.inertia = radius > 4 ? 0.3 : 0.05;
        terrain_hydraulic_use (TERRAIN_HYDRAULIC_PORTABLE);
        hydraulic_eroded_as (&p, w, h, 1, 0, portable);
        for (size_t c = 0; c < sizeof ways / sizeof ways[0]; c++)
          for (int threads = 1; threads <= 2; threads++)
            {
              terrain_hydraulic_use (ways[c].code);
              terrain_hydraulic_lanes_from (ways[c].lanes_from);
              hydraulic_eroded_as (&p, w, h, threads, 0, other);
              CHECK (memcmp (portable, other, bytes) == 0,
                     "hydraulic %dx%d radius %d, code %d (lanes from %d tiles) on %d threads: "
                     "not the portable bits", w, h, radius, (int) ways[c].code,
                     ways[c].lanes_from, threads);
            }
        terrain_hydraulic_use (TERRAIN_HYDRAULIC_BEST);
        terrain_hydraulic_lanes_from (-1);
        free (portable);
        free (other);
      }
}

int
main (void)
{
  const TerrainMemory checked = { checked_alloc, checked_release, &memory_log };
  terrain_set_memory (&checked);
  test_strip_sizes ();
  test_min_max_parts ();
  test_parallel_rows ();
  test_procedures_bit_identical ();
  test_hydraulic_schedule ();
  test_hydraulic_codes ();
  test_hillshade_bit_identical ();
  test_cancel_two_threads ();
  test_cancel_promptly ();
  terrain_set_memory (NULL);
  printf ("memory: %ld blocks taken, %ld not given back, %ld not the program's\n",
          memory_log.taken, memory_log.live, memory_log.foreign);
  CHECK (memory_log.taken > 100 && memory_log.live == 0 && memory_log.foreign == 0,
         "the core's memory: %ld taken, %ld live, %ld foreign", memory_log.taken,
         memory_log.live, memory_log.foreign);
  return CHECK_DONE ("threads");
}
