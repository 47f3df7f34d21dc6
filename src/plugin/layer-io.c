#include "layer-io.h"

static const Babl *
format_for (GimpDrawable *drawable, const char *precision)
{
  const gboolean rgb = gimp_drawable_is_rgb (drawable);
  const gboolean alpha = gimp_drawable_has_alpha (drawable);
  gchar *name = g_strdup_printf ("%s %s", rgb ? (alpha ? "R'G'B'A" : "R'G'B'")
                                              : (alpha ? "Y'A" : "Y'"),
                                 precision);
  const Babl *format = babl_format_with_space (name, gimp_drawable_get_format (drawable));
  g_free (name);
  return format;
}

const Babl *
terrain_float_format (GimpDrawable *drawable)
{
  return format_for (drawable, "float");
}

const Babl *
terrain_preview_format (GimpDrawable *drawable)
{
  return format_for (drawable, "u8");
}

void
terrain_read_heights (GimpDrawable *drawable, float *heights)
{
  GeglBuffer *buffer = gimp_drawable_get_buffer (drawable);
  const Babl *gray = babl_format_with_space ("Y' float", gimp_drawable_get_format (drawable));
  gegl_buffer_get (buffer, NULL, 1.0, gray, heights, GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  g_object_unref (buffer);
}

gboolean
terrain_write_heights (GimpDrawable *drawable, int x, int y, int w, int h,
                       TerrainBandSource source, gpointer user)
{
  const Babl  *format = terrain_float_format (drawable);
  const int    channels = babl_format_get_n_components (format);
  const int    colours = channels - (babl_format_has_alpha (format) ? 1 : 0);
  const int    tile_h = (int) gimp_tile_height ();
  GeglBuffer  *original = babl_format_has_alpha (format) ? gimp_drawable_get_buffer (drawable) : NULL;
  GeglBuffer  *shadow = gimp_drawable_get_shadow_buffer (drawable);
  float       *heights = g_new (float, (gsize) w * tile_h);
  float       *band = g_new (float, (gsize) w * tile_h * channels);
  gboolean     complete = TRUE;

  /* Bands end on tile rows of the layer, so every band covers whole tiles and GEGL never
   * fetches a tile from GIMP just to overwrite part of it. */
  for (int y0 = y; y0 < y + h && complete;)
    {
      const int     y1 = MIN ((y0 / tile_h + 1) * tile_h, y + h);
      GeglRectangle rect = { x, y0, w, y1 - y0 };
      complete = source (user, heights, x, y0, w, rect.height);
      if (! complete)
        break;
      if (original) /* keep the layer's alpha: start from its pixels */
        gegl_buffer_get (original, &rect, 1.0, format, band, GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
      for (gsize i = 0; i < (gsize) w * rect.height; i++)
        for (int c = 0; c < colours; c++)
          band[i * channels + c] = heights[i];
      gegl_buffer_set (shadow, &rect, 0, format, band, GEGL_AUTO_ROWSTRIDE);
      y0 = y1;
    }

  g_free (band);
  g_free (heights);
  g_object_unref (shadow); /* flushes the last tiles to GIMP before the merge */
  if (original)
    g_object_unref (original);
  if (! complete)
    return FALSE;
  gimp_drawable_merge_shadow (drawable, TRUE);
  gimp_drawable_update (drawable, x, y, w, h);
  return TRUE;
}
