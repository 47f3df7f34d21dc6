#include "preview-worker.h"

struct TerrainPreviewWorker
{
  gint               refs;     /* atomic: the dialog's, and one per result on its way */
  GMutex             lock;
  GCond              wake;
  TerrainPreviewJob *pending;  /* under lock: the next job */
  gboolean           quit;     /* under lock */
  gint               newest;   /* atomic: the number of the newest job; older ones stop */
  gint               permille; /* atomic: progress of the running job */
  GThread           *thread;
  float             *scratch;  /* the worker thread's layer-sized buffer */
  /* The main thread's own: */
  gboolean           closed;
  gint               shown;    /* the number of the last job whose result came back */
  TerrainPreviewShow show;
  gpointer           user;
};

/* A job on its way through the thread and back. */
typedef struct
{
  TerrainPreviewWorker *worker;
  TerrainPreviewJob    *job;
  gint                  number;
  TerrainStatus         status;
  float                *out, *heights;
} Task;

static void
worker_unref (TerrainPreviewWorker *w)
{
  if (! g_atomic_int_dec_and_test (&w->refs))
    return;
  g_mutex_clear (&w->lock);
  g_cond_clear (&w->wake);
  g_free (w);
}

static void
task_free (Task *task)
{
  terrain_preview_job_free (task->job);
  g_free (task->out);
  g_free (task->heights);
  g_free (task);
}

/* The core's progress callback, on the worker thread: a newer job (or closing) stops this
 * one, the sooner the better, since its result would be dropped anyway. */
static int
report (void *user, double fraction)
{
  Task *task = user;
  g_atomic_int_set (&task->worker->permille, (gint) (fraction * 1000.0));
  return g_atomic_int_get (&task->worker->newest) != task->number;
}

/* On the main thread: shows the result if it is still the newest and the dialog is open. */
static gboolean
deliver (gpointer data)
{
  Task                 *task = data;
  TerrainPreviewWorker *w = task->worker;
  if (! w->closed && task->number == g_atomic_int_get (&w->newest))
    {
      w->shown = task->number;
      w->show (w->user, task->job, task->status, task->out, task->heights);
    }
  task_free (task);
  worker_unref (w);
  return G_SOURCE_REMOVE;
}

static Task *
next_task (TerrainPreviewWorker *w)
{
  Task *task = NULL;
  g_mutex_lock (&w->lock);
  while (! w->quit && w->pending == NULL)
    g_cond_wait (&w->wake, &w->lock);
  if (! w->quit)
    {
      task = g_new0 (Task, 1);
      task->worker = w;
      task->job = w->pending;
      task->number = g_atomic_int_get (&w->newest);
      w->pending = NULL;
    }
  g_mutex_unlock (&w->lock);
  return task;
}

static gpointer
work (gpointer data)
{
  TerrainPreviewWorker *w = data;
  Task                 *task;
  while ((task = next_task (w)) != NULL)
    {
      TerrainProgress progress = { report, task };
      g_atomic_int_set (&w->permille, 0);
      task->out = g_try_new (float, (gsize) task->job->w * task->job->h);
      task->heights = g_try_new (float, (gsize) task->job->w * task->job->h);
      task->status = task->out && task->heights
                       ? terrain_preview_job_run (task->job, &w->scratch, &progress,
                                                  task->heights, task->out)
                       : TERRAIN_ERROR_NO_MEMORY;
      if (task->status == TERRAIN_CANCELLED || g_atomic_int_get (&w->newest) != task->number)
        {
          task_free (task); /* a newer job waits: nobody will look at this one */
          continue;
        }
      g_atomic_int_inc (&w->refs);
      g_idle_add (deliver, task);
    }
  return NULL;
}

TerrainPreviewWorker *
terrain_preview_worker_new (TerrainPreviewShow show, gpointer user)
{
  TerrainPreviewWorker *w = g_new0 (TerrainPreviewWorker, 1);
  w->refs = 1;
  g_mutex_init (&w->lock);
  g_cond_init (&w->wake);
  w->show = show;
  w->user = user;
  w->thread = g_thread_new ("terrain-preview", work, w);
  return w;
}

void
terrain_preview_worker_submit (TerrainPreviewWorker *w, TerrainPreviewJob *job)
{
  g_mutex_lock (&w->lock);
  terrain_preview_job_free (w->pending); /* never started: replaced */
  w->pending = job;
  /* Under the lock, so next_task reads the number that belongs to pending. */
  g_atomic_int_inc (&w->newest);
  g_cond_signal (&w->wake);
  g_mutex_unlock (&w->lock);
}

gboolean
terrain_preview_worker_busy (TerrainPreviewWorker *w)
{
  return w->shown != g_atomic_int_get (&w->newest);
}

double
terrain_preview_worker_progress (TerrainPreviewWorker *w)
{
  return g_atomic_int_get (&w->permille) / 1000.0;
}

void
terrain_preview_worker_free (TerrainPreviewWorker *w)
{
  g_mutex_lock (&w->lock);
  w->quit = TRUE;
  g_atomic_int_inc (&w->newest); /* the running job stops at its next report */
  g_cond_signal (&w->wake);
  g_mutex_unlock (&w->lock);
  g_thread_join (w->thread);
  terrain_preview_job_free (w->pending);
  g_free (w->scratch);
  w->closed = TRUE; /* results still queued are dropped, and free their share */
  worker_unref (w);
}
