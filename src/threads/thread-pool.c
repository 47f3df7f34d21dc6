/* terrain_use_threads: a fixed set of GLib worker threads that, with the calling thread, take
 * task indices from a shared counter until none are left. One run at a time through the
 * workers: the core calls run() from the thread that renders.
 *
 * A worker may wake up late (its processor idle or busy with another program): by then the
 * calling thread may have taken every task itself. So a run waits only for the workers that
 * joined it while it was open; the caller closes it once no task is left to take, and a
 * worker that comes later finds its run closed (or a newer one under way) and leaves
 * without touching anything.
 *
 * A second thread may render while a run is under way (a dialog's 3D view beside its
 * preview's worker): its loop then runs on that thread alone, which gives the same bytes. */
#include "thread-pool.h"

#include <glib.h>
#include <stdlib.h>

typedef struct
{
  GThreadPool *workers;
  int          threads;
  GMutex       lock;
  GCond        done;
  GMutex       running;  /* held by the thread whose run is under way */
  /* The run under way; the fields below are guarded by lock, except next. */
  guint        run;      /* its number (never 0: it is the workers' non-NULL data) */
  gboolean     open;     /* workers may still join it */
  int          joined;   /* workers in it */
  TerrainTask  task;
  void        *task_user;
  int          count;
  gint         next;     /* the next index to take (atomic) */
} Pool;

static void
take_tasks (Pool *pool)
{
  int i;
  while ((i = g_atomic_int_add (&pool->next, 1)) < pool->count)
    pool->task (pool->task_user, i);
}

/* data is the number of the run the worker was called for. */
static void
worker (gpointer data, gpointer user)
{
  Pool *pool = user;
  g_mutex_lock (&pool->lock);
  const gboolean joins = pool->open && pool->run == GPOINTER_TO_UINT (data);
  pool->joined += joins;
  g_mutex_unlock (&pool->lock);
  if (! joins)
    return;
  take_tasks (pool);
  g_mutex_lock (&pool->lock);
  if (--pool->joined == 0)
    g_cond_signal (&pool->done);
  g_mutex_unlock (&pool->lock);
}

static void
pool_run (void *user, int count, TerrainTask task, void *task_user)
{
  Pool     *pool = user;
  const int helpers = MIN (pool->threads - 1, count - 1);
  if (! g_mutex_trylock (&pool->running))
    {
      for (int i = 0; i < count; i++)
        task (task_user, i);
      return;
    }
  g_mutex_lock (&pool->lock);
  pool->run = pool->run == G_MAXUINT ? 1 : pool->run + 1;
  pool->open = TRUE;
  pool->joined = 0;
  pool->task = task;
  pool->task_user = task_user;
  pool->count = count;
  g_atomic_int_set (&pool->next, 0);
  g_mutex_unlock (&pool->lock);
  for (int k = 0; k < helpers; k++)
    g_thread_pool_push (pool->workers, GUINT_TO_POINTER (pool->run), NULL);
  take_tasks (pool);
  /* Every task is taken: the run waits for those still running theirs. */
  g_mutex_lock (&pool->lock);
  pool->open = FALSE;
  while (pool->joined > 0)
    g_cond_wait (&pool->done, &pool->lock);
  g_mutex_unlock (&pool->lock);
  g_mutex_unlock (&pool->running);
}

int
terrain_thread_count (void)
{
  const char *env = g_getenv ("TERRAIN_THREADS");
  if (env)
    {
      char  *end;
      gint64 n = g_ascii_strtoll (env, &end, 10);
      if (end != env && *end == '\0' && n >= 1 && n <= 256)
        return (int) n;
    }
  return (int) MAX (1, g_get_num_processors ());
}

void
terrain_use_threads (int threads)
{
  static Pool pool; /* its workers live as long as the process */
  if (threads <= 1)
    {
      terrain_set_parallel (NULL);
      return;
    }
  if (pool.workers == NULL)
    {
      g_mutex_init (&pool.lock);
      g_cond_init (&pool.done);
      g_mutex_init (&pool.running);
      /* No limit: every push finds an idle worker or starts one, so threads - 1 pushes
       * run at once. Idle workers are kept for the next run. */
      pool.workers = g_thread_pool_new (worker, &pool, -1, FALSE, NULL);
    }
  pool.threads = threads;
  TerrainParallel parallel = { pool_run, &pool, threads };
  terrain_set_parallel (&parallel);
}
