/* A dialog's preview computed off the GTK main loop: one worker thread renders the newest
 * job; a newer job makes the running one stop at its next progress report, and a result
 * that is no longer the newest is dropped. Results are handed back on the main thread.
 * Every function here is for the main thread. */
#ifndef TERRAIN_PREVIEW_WORKER_H
#define TERRAIN_PREVIEW_WORKER_H

#include "preview-render.h"

typedef struct TerrainPreviewWorker TerrainPreviewWorker;

/* Called on the main thread with the newest job's result: out, what the preview draws, and
 * the heights it was made from (each job->w x job->h) are valid during the call only; status
 * TERRAIN_OK or why the preview has nothing new to show. */
typedef void (*TerrainPreviewShow) (gpointer user, const TerrainPreviewJob *job,
                                    TerrainStatus status, const float *out,
                                    const float *heights);

TerrainPreviewWorker *terrain_preview_worker_new (TerrainPreviewShow show, gpointer user);

/* Takes job, cancels whatever runs or waits, and starts job as soon as the worker is free. */
void                  terrain_preview_worker_submit (TerrainPreviewWorker *worker,
                                                     TerrainPreviewJob *job);

/* Whether a job was submitted whose result has not been shown yet, and how far the running
 * one is (0 to 1, as the core reports it). */
gboolean              terrain_preview_worker_busy (TerrainPreviewWorker *worker);
double                terrain_preview_worker_progress (TerrainPreviewWorker *worker);

/* Cancels, waits for the thread to stop, and drops every result on its way: show is never
 * called after this returns. */
void                  terrain_preview_worker_free (TerrainPreviewWorker *worker);

#endif
