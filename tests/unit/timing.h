/* Wall-clock time for the timings the unit tests print (header-only, test code). */
#ifndef TERRAIN_TIMING_H
#define TERRAIN_TIMING_H

#include <time.h>

/* Seconds since the epoch, to nanosecond resolution where the clock has it. */
static inline double
seconds (void)
{
  struct timespec ts;
  timespec_get (&ts, TIME_UTC);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#endif
