/* terrain_use_threads on POSIX threads, for builds under ThreadSanitizer only (meson.build
 * picks this file when b_sanitize has "thread"). GLib's GMutex and GCond are futexes on
 * Linux, which ThreadSanitizer does not see unless GLib itself was built with it: under
 * thread-pool.c every field the pool guards with its lock was reported as a race. Here the
 * pool's locks are pthread ones, which it sees, so what it reports in the core's parallel
 * loops is theirs. The same contract as thread-pool.c: one run at a time through the
 * workers (a second thread's loop runs on that thread alone), the caller takes tasks too,
 * and a run waits only for the workers that joined it while it was open. */
#include "thread-pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct
{
  pthread_mutex_t lock;
  pthread_cond_t  wake, done;
  pthread_mutex_t running; /* held by the thread whose run is under way */
  int             threads, workers;
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
  if (pthread_mutex_trylock (&pool->running) != 0)
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

int
terrain_thread_count (void)
{
  const char *env = getenv ("TERRAIN_THREADS");
  if (env)
    {
      char *end;
      long  n = strtol (env, &end, 10);
      if (end != env && *end == '\0' && n >= 1 && n <= 256)
        return (int) n;
    }
  const long processors = sysconf (_SC_NPROCESSORS_ONLN);
  return processors > 1 ? (int) processors : 1;
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
  pool.threads = threads;
  TerrainParallel parallel = { pool_run, &pool, threads };
  terrain_set_parallel (&parallel);
}
