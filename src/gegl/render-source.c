#include "render-source.h"

#include <string.h>

/* GDK 3 names its event sources "GDK <backend> Event source (<display>)"
 * (gdk/x11/gdkeventsource.c and the Wayland and Broadway backends alike). */
static gboolean
is_gdk_events (GSource *source)
{
  const char *name = g_source_get_name (source);
  return name != NULL && g_str_has_prefix (name, "GDK ") && strstr (name, " Event source") != NULL;
}

static gboolean
is_frame_clock_paint (GSource *source)
{
  const char *name = g_source_get_name (source);
  return name != NULL && strstr (name, "gdk_frame_clock_paint_idle") != NULL;
}

TerrainRenderSource
terrain_render_source (void)
{
  GSource *source = g_main_current_source ();
  if (source == NULL || g_source_get_context (source) != g_main_context_default ())
    return TERRAIN_SOURCE_NONE;
  if (source->source_funcs == &g_timeout_funcs &&
      g_source_get_priority (source) == G_PRIORITY_HIGH_IDLE)
    return TERRAIN_SOURCE_PAINT_TIMER;
  if (source->source_funcs == &g_idle_funcs)
    return TERRAIN_SOURCE_IDLE;
  if (is_frame_clock_paint (source))
    return TERRAIN_SOURCE_FRAME_CLOCK;
  return is_gdk_events (source) ? TERRAIN_SOURCE_EVENTS : TERRAIN_SOURCE_OTHER;
}

gboolean
terrain_stroke_clock (gint64 *painted, TerrainRenderSource source, gint64 now)
{
  if (source == TERRAIN_SOURCE_PAINT_TIMER)
    *painted = now;
  else if (source == TERRAIN_SOURCE_IDLE)
    *painted = 0;
  return source == TERRAIN_SOURCE_PAINT_TIMER ||
         (source == TERRAIN_SOURCE_EVENTS && *painted != 0 &&
          now - *painted < TERRAIN_STROKE_END_US);
}
