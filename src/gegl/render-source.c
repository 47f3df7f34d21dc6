#include "render-source.h"

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

void
terrain_stroke_clock_rendered (gint64 *painted, gint64 now)
{
  if (*painted != 0)
    *painted = now;
}
