/* terrain_thread_count: how many threads the pool (thread-pool.c) is given. */
#include "thread-pool.h"

#include <glib.h>

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
