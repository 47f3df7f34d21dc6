/* Wall-clock time for the timings the unit tests print (header-only, test code). */
#ifndef TERRAIN_TIMING_H
#define TERRAIN_TIMING_H

#include <time.h>

/* How many times slower the sanitizers' builds run the core: a bound on a wall-clock time
 * (how soon a render stops once asked, how long between two progress reports) is
 * multiplied by it, so that it holds the code, not the instrumentation. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TIMING_SLOWDOWN 10.0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define TIMING_SLOWDOWN 10.0
#endif
#endif
#ifndef TIMING_SLOWDOWN
#define TIMING_SLOWDOWN 1.0
#endif

/* Seconds since the epoch, to nanosecond resolution where the clock has it. */
static inline double
seconds (void)
{
  struct timespec ts;
  timespec_get (&ts, TIME_UTC);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#endif
