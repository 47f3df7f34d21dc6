/* terrain_use_threads: a fixed set of POSIX worker threads that, with the calling thread,
 * take task indices from a shared counter until none are left. One run at a time through the
 * workers: the core calls run() from the thread that renders.
 *
 * A worker may wake up late (its processor idle or busy with another program): by then the
 * calling thread may have taken every task itself. So a run waits only for the workers that
 * joined it while it was open; the caller closes it once no task is left to take, and a
 * worker that comes later finds its run closed (or a newer one under way) and goes back to
 * waiting without touching anything.
 *
 * A second thread may render while a run is under way (a dialog's 3D view beside its
 * preview's worker, two of GIMP's renders in the GEGL module): its loop then runs on that
 * thread alone, which gives the same bytes.
 *
 * POSIX threads rather than GLib's: GLib's GMutex and GCond are futexes on Linux, which
 * ThreadSanitizer does not see unless GLib itself was built with it (with a GThreadPool it
 * reported the pool's own locked fields as races); these locks it sees, so what it reports
 * in the core's parallel loops is theirs (build-aux/run-tsan). */
#include "thread-pool.h"

#include <pthread.h>
#include <stdatomic.h>

typedef struct
{
  pthread_mutex_t lock;
  pthread_cond_t  wake, done;
  pthread_mutex_t running; /* held by the thread whose run is under way */
  int             workers; /* started, kept for the life of the process */
  /* The run under way, guarded by lock (but next). */
  unsigned        run;
  int             open, joined;
  TerrainTask     task;
  void           *task_user;
  int             count;
  atomic_int      next;
} Pool;

static void
take_tasks (Pool *pool)
{
  int i;
  while ((i = atomic_fetch_add (&pool->next, 1)) < pool->count)
    pool->task (pool->task_user, i);
}

static void *
worker (void *data)
{
  Pool    *pool = data;
  unsigned seen = 0;
  for (;;)
    {
      pthread_mutex_lock (&pool->lock);
      while (pool->run == seen)
        pthread_cond_wait (&pool->wake, &pool->lock);
      seen = pool->run;
      const int joins = pool->open;
      pool->joined += joins;
      pthread_mutex_unlock (&pool->lock);
      if (! joins)
        continue;
      take_tasks (pool);
      pthread_mutex_lock (&pool->lock);
      if (--pool->joined == 0)
        pthread_cond_signal (&pool->done);
      pthread_mutex_unlock (&pool->lock);
    }
  return NULL;
}

static void
pool_run (void *user, int count, TerrainTask task, void *task_user)
{
  Pool *pool = user;
  /* One task needs no worker woken; nor does a loop while another thread's run is on. */
  if (count <= 1 || pthread_mutex_trylock (&pool->running) != 0)
    {
      for (int i = 0; i < count; i++)
        task (task_user, i);
      return;
    }
  pthread_mutex_lock (&pool->lock);
  pool->run++;
  pool->open = 1;
  pool->joined = 0;
  pool->task = task;
  pool->task_user = task_user;
  pool->count = count;
  atomic_store (&pool->next, 0);
  pthread_cond_broadcast (&pool->wake);
  pthread_mutex_unlock (&pool->lock);
  take_tasks (pool);
  pthread_mutex_lock (&pool->lock);
  pool->open = 0;
  while (pool->joined > 0)
    pthread_cond_wait (&pool->done, &pool->lock);
  pthread_mutex_unlock (&pool->lock);
  pthread_mutex_unlock (&pool->running);
}

void
terrain_use_threads (int threads)
{
  static Pool pool = { .lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER,
                       .done = PTHREAD_COND_INITIALIZER,
                       .running = PTHREAD_MUTEX_INITIALIZER };
  if (threads <= 1)
    {
      terrain_set_parallel (NULL);
      return;
    }
  /* Workers are started as more are asked for, and kept for the life of the process. */
  for (; pool.workers < threads - 1; pool.workers++)
    {
      pthread_t thread;
      if (pthread_create (&thread, NULL, worker, &pool) != 0)
        break;
      pthread_detach (thread);
    }
  TerrainParallel parallel = { pool_run, &pool, threads };
  terrain_set_parallel (&parallel);
}
