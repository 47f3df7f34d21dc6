/* Minimal assertion harness for the core's unit tests: each CHECK counts as one assertion;
 * a failing one prints its file, line and message and the run continues. CHECK_DONE()
 * prints "<suite>: N passed, N failed" and returns the exit status for main(). */
#ifndef TERRAIN_CHECK_H
#define TERRAIN_CHECK_H

#include <stdio.h>

static int check_passed, check_failed;

#define CHECK(cond, ...)                                                         \
  do                                                                             \
    {                                                                            \
      if (cond)                                                                  \
        check_passed++;                                                          \
      else                                                                       \
        {                                                                        \
          check_failed++;                                                        \
          fprintf (stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond); \
          fprintf (stderr, __VA_ARGS__);                                         \
          fputc ('\n', stderr);                                                  \
        }                                                                        \
    }                                                                            \
  while (0)

#define CHECK_DONE(suite)                                                        \
  (printf ("%s: %d passed, %d failed\n", (suite), check_passed, check_failed),   \
   check_failed ? 1 : 0)

#endif
