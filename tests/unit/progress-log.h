/* Progress callbacks that unit tests pass in a TerrainProgress (header-only, test code):
 * a recorder of the reports that can cancel from a given fraction on, and a plain
 * cancel-at-half. */
#ifndef TERRAIN_PROGRESS_LOG_H
#define TERRAIN_PROGRESS_LOG_H

typedef struct
{
  int    calls;     /* reports so far */
  double last;      /* the latest fraction reported */
  int    monotone;  /* stays 1 while every report is >= the one before and <= 1 */
  double cancel_at; /* cancel at the first report >= this (above 1: never) */
} ProgressLog;

/* A fresh log: no reports yet, monotone, cancelling at cancel_at. */
static inline ProgressLog
progress_log (double cancel_at)
{
  ProgressLog fresh = { 0, 0.0, 1, cancel_at };
  return fresh;
}

/* Progress callback; user is a ProgressLog. */
static inline int
log_progress (void *user, double fraction)
{
  ProgressLog *log = user;
  log->monotone &= fraction >= log->last && fraction <= 1.0;
  log->last = fraction;
  log->calls++;
  return fraction >= log->cancel_at;
}

/* Progress callback that cancels at half way; user is unused. */
static inline int
cancel_at_half (void *user, double fraction)
{
  (void) user;
  return fraction >= 0.5;
}

#endif
