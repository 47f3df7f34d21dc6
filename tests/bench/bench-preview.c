#define _POSIX_C_SOURCE 200809L /* clock_gettime (bench-clock.h) */
/* Preview latency: for every generator at its defaults, the median time from a parameter
 * change to the samples the dialog hands to its preview widget, for a 512 x 512 preview:
 * terrain_preview_samples, which the dialog runs (src/plugin/preview-render.c) for
 * generators: with render_rect one layer row per preview row, else the whole layer, then
 * sampled. Shown for a 512² layer (the target: <= 15 ms)
 * and for a 4096² layer scaled into the same 512² preview. Runs on the plug-in's threads
 * ($TERRAIN_THREADS or every CPU) when built with GLib.
 *
 * usage: bench-preview [REPS]   (default 15) */
#include "bench-clock.h"
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
          float *scratch = NULL; /* the dialog's layer-sized buffer, kept between updates */
          char   why[256];
          for (int r = 0; r < reps; r++)
            {
              const double t0 = now ();
              failed |= terrain_preview_samples (info, values, side, side, &scratch, samples,
                                                 PREVIEW, PREVIEW, NULL, why, sizeof why) != TERRAIN_OK;
              t[r] = now () - t0;
            }
          free (scratch);
          const double ms = median (t, reps) * 1e3;
          printf ("| %s | %d² | %.1f | %s | %s |\n", info->name, side, ms,
                  side == PREVIEW ? "<= 15 ms" : "-",
                  side != PREVIEW ? "-" : ms <= TARGET_MS ? "met" : "missed");
        }
    }
  free (t);
  free (samples);
  return failed;
}
