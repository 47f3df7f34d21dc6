/* The main-loop probe (mainloop-probe.h). GEGL loads the module in gegl_init, which GIMP
 * calls from its main thread before it runs its GMainLoop on the default context
 * (app/app.c: g_main_loop_new (NULL, ...)); a source attached to that context here is
 * dispatched by the very loop that draws the canvas and handles input. */
#define _GNU_SOURCE /* syscall */
#include "mainloop-probe.h"

#include <glib.h>
#include <stdio.h>
#ifdef G_OS_UNIX
#include <unistd.h>
#endif
#ifdef __linux__
#include <sys/syscall.h>
#endif

enum
{
  TICK_MS = 2,       /* a GLib timeout's granularity is 1 ms; 2 keeps the cost small */
  REPORT_GAP_MS = 10 /* shorter stalls are scheduling noise on a loaded machine */
};

typedef struct
{
  FILE   *log;
  gint64  last;        /* µs, the previous tick */
  gint64  second_from; /* µs, start of the current one-second summary */
  guint   ticks;       /* in the current summary */
  double  max_gap_ms;  /* in the current summary */
  gboolean first;
} Probe;

static int
process_id (void)
{
#ifdef G_OS_UNIX
  return (int) getpid ();
#else
  return 0;
#endif
}

static double
seconds (gint64 us)
{
  return (double) us / G_USEC_PER_SEC;
}

const char *
terrain_probe_thread_name (void)
{
#ifdef __linux__
  return syscall (SYS_gettid) == getpid () ? "the main thread" : "another thread";
#else
  return "a thread";
#endif
}

static gboolean
tick (gpointer data)
{
  Probe       *probe = data;
  const gint64 now = g_get_monotonic_time ();
  const double gap_ms = (double) (now - probe->last) / 1000.0;
  /* The first gap is the rest of GIMP's start-up, not a stall. */
  if (probe->first)
    fprintf (probe->log, "%.6f pid %d first tick, in %s\n", seconds (now), process_id (),
             terrain_probe_thread_name ());
  else if (gap_ms >= REPORT_GAP_MS)
    fprintf (probe->log, "%.6f pid %d gap %.1f ms\n", seconds (now), process_id (), gap_ms);
  if (! probe->first && gap_ms > probe->max_gap_ms)
    probe->max_gap_ms = gap_ms;
  probe->first = FALSE;
  probe->ticks++;
  probe->last = now;
  if (now - probe->second_from >= G_USEC_PER_SEC)
    {
      fprintf (probe->log, "%.6f pid %d alive %u ticks, max gap %.1f ms\n", seconds (now),
               process_id (), probe->ticks, probe->max_gap_ms);
      probe->second_from = now;
      probe->ticks = 0;
      probe->max_gap_ms = 0.0;
    }
  fflush (probe->log); /* a reader follows the file while GIMP runs */
  return G_SOURCE_CONTINUE;
}

void
terrain_mainloop_probe_start (void)
{
  static gboolean started; /* the module is resident (module.c): one probe for its life */
  const char     *path = g_getenv ("TERRAIN_MAINLOOP_LOG");
  if (started || path == NULL || *path == '\0')
    return;
  FILE *log = fopen (path, "a");
  if (log == NULL)
    return;
  started = TRUE;
  Probe *probe = g_new0 (Probe, 1);
  probe->log = log;
  probe->first = TRUE;
  probe->last = probe->second_from = g_get_monotonic_time ();
  fprintf (log, "%.6f pid %d probe started in %s, a tick every %d ms\n", seconds (probe->last),
           process_id (), terrain_probe_thread_name (), TICK_MS);
  fflush (log);
  /* G_PRIORITY_HIGH: when due, the tick is dispatched in the loop's next iteration, before
   * GTK's redraws and GIMP's idle rendering, so a gap is one long dispatch, not a queue. The
   * probe lives as long as the process (a module is never unloaded). */
  g_timeout_add_full (G_PRIORITY_HIGH, TICK_MS, tick, probe, NULL);
}
