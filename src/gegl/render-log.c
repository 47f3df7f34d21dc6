#include "render-log.h"

#include <stdio.h>

void
terrain_render_log (const char *operation, const char *format, va_list args)
{
  const char *path = g_getenv ("TERRAIN_RENDER_LOG");
  FILE       *log = path ? fopen (path, "a") : NULL;
  if (log == NULL)
    return;
  fprintf (log, "%.6f %s ", (double) g_get_monotonic_time () / G_USEC_PER_SEC, operation);
  vfprintf (log, format, args);
  fputc ('\n', log);
  fclose (log);
}
