/* A measuring probe for benchmarks and tests: how long the process's main loop is blocked.
 * It does nothing unless $TERRAIN_MAINLOOP_LOG names a file. */
#pragma once

/* With $TERRAIN_MAINLOOP_LOG set, attaches a high-priority 2 ms timeout to the default
 * GMainContext (the one GIMP's GTK loop iterates) and appends to that file, one line each,
 * "SECONDS pid PID gap MS ms" for every gap between ticks of 10 ms or more, and a
 * "SECONDS pid PID alive TICKS ticks, max gap MS ms" line once a second: the longest gap of
 * that second, so a reader also knows the loop ran. Times are CLOCK_MONOTONIC seconds, as
 * Python's time.monotonic(). */
void terrain_mainloop_probe_start (void);

/* "the main thread" when the caller is the process's first thread (the one GIMP's GTK loop
 * runs in), else "another thread": for the logs. */
const char *terrain_probe_thread_name (void);
