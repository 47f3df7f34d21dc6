#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "live.h"

#include <stdio.h>
#ifdef __linux__
#include <dlfcn.h>
#include <unistd.h>
#endif

/* The GIMP the module runs in, from libgimpbase's exported version (GIMP's process links
 * it); FALSE where there is none. */
static gboolean
gimp_version (guint *major, guint *minor)
{
#ifdef __linux__
  const guint *found_major = dlsym (RTLD_DEFAULT, "gimp_major_version");
  const guint *found_minor = dlsym (RTLD_DEFAULT, "gimp_minor_version");
  if (found_major && found_minor)
    {
      *major = *found_major;
      *minor = *found_minor;
      return TRUE;
    }
#endif
  (void) major, (void) minor;
  return FALSE;
}

/* Why live effects are off, or NULL. */
static const char *
why_off (void)
{
  static char why[128];
  guint       major, minor;
  if (g_strcmp0 (g_getenv ("TERRAIN_LIVE"), "0") == 0)
    return "TERRAIN_LIVE=0";
  if (gimp_version (&major, &minor) && ! (major == 3 && (minor == 0 || minor == 2)))
    {
      snprintf (why, sizeof why, "GIMP %u.%u, not one they were tested on (3.0, 3.2)", major,
                minor);
      return why;
    }
  return NULL;
}

gboolean
terrain_live (void)
{
  static gsize decided;
  static gboolean live;
  if (g_once_init_enter (&decided))
    {
      const char *why = why_off ();
      live = why == NULL;
#ifdef __linux__
      const int process = (int) getpid ();
#else
      const int process = 0;
#endif
      if (why)
        g_printerr ("gimp-terrain (pid %d): live effects are off (%s): every effect renders "
                    "exactly, in place\n", process, why);
      g_once_init_leave (&decided, 1);
    }
  return live;
}
