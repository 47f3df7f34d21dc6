#define _POSIX_C_SOURCE 200809L /* clock_gettime (bench-clock.h) */
/* Preview latency: for every generator at its defaults, the median time from a parameter
 * change to the samples the dialog hands to its preview widget, for a 512 x 512 preview:
 * exactly the work of apply.c's terrain_render_samples, minus GIMP. Generators with
 * render_rect render one layer row per preview row (terrain_preview_rows); the others
 * render the whole layer, then sample it. Shown for a 512² layer (the target: <= 15 ms)
 * and for a 4096² layer scaled into the same 512² preview. Runs on the plug-in's threads
 * ($TERRAIN_THREADS or every CPU) when built with GLib.
 *
 * usage: bench-preview [REPS]   (default 15) */
#include "bench-clock.h"
#include "heightmap.h"
#include "preview.h"
#include "procedure-info.h"
#ifdef HAVE_THREAD_POOL
#include "thread-pool.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PREVIEW 512
#define TARGET_MS 15.0

/* One preview update, as the dialog makes it; scratch is the layer-sized buffer it keeps. */
static TerrainStatus
preview (const TerrainProcedureInfo *info, const TerrainArgValue *values, int side,
         float *scratch, float *samples)
{
  char why[256] = "";
  if (info->render_rect)
    return terrain_preview_rows (info, values, side, side, samples, PREVIEW, PREVIEW, why,
                                 sizeof why);
  TerrainStatus status = info->render (values, scratch, side, side, NULL, why, sizeof why);
  if (status == TERRAIN_OK)
    terrain_sample_nearest (scratch, side, side, samples, PREVIEW, PREVIEW);
  return status;
}

int
main (int argc, char **argv)
{
  const int reps = argc > 1 ? atoi (argv[1]) : 15;
  int threads = 1, failed = 0;
#ifdef HAVE_THREAD_POOL
  threads = terrain_thread_count ();
  terrain_use_threads (threads);
#endif
  printf ("Preview latency, %d x %d preview, median of %d updates, %d thread(s)\n\n", PREVIEW,
          PREVIEW, reps, threads);
  printf ("| Generator | Layer | Median ms | Target | Result |\n|---|---|---|---|---|\n");
  float  *scratch = malloc ((size_t) 4096 * 4096 * sizeof (float));
  float  *samples = malloc ((size_t) PREVIEW * PREVIEW * sizeof (float));
  double *t = malloc ((size_t) reps * sizeof (double));
  for (int p = 0; terrain_procedures[p]; p++)
    {
      const TerrainProcedureInfo *info = terrain_procedures[p];
      if (info->kind != TERRAIN_GENERATOR)
        continue;
      TerrainArgValue values[64];
      terrain_arg_defaults (info, values);
      for (int side = PREVIEW; side <= 4096; side *= 8)
        {
          for (int r = 0; r < reps; r++)
            {
              const double t0 = now ();
              failed |= preview (info, values, side, scratch, samples) != TERRAIN_OK;
              t[r] = now () - t0;
            }
          const double ms = median (t, reps) * 1e3;
          printf ("| %s | %d² | %.1f | %s | %s |\n", info->name, side, ms,
                  side == PREVIEW ? "<= 15 ms" : "-",
                  side != PREVIEW ? "-" : ms <= TARGET_MS ? "met" : "missed");
        }
    }
  free (t);
  free (samples);
  free (scratch);
  return failed;
}
