/* The module's log of the renders GIMP's process asked for, computed and reused, and when:
 * how tests (and the curious) see it. Nothing is written unless $TERRAIN_RENDER_LOG names a
 * file. */
#ifndef TERRAIN_RENDER_LOG_H
#define TERRAIN_RENDER_LOG_H

#include <glib.h>
#include <stdarg.h>

/* Appends the time (CLOCK_MONOTONIC seconds, as the main-loop probe's and Python's
 * time.monotonic()), the operation's name, a space and the message as a line. */
void terrain_render_log (const char *operation, const char *format, va_list args)
  G_GNUC_PRINTF (2, 0);

#endif
