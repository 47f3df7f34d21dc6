#include "canvas-preview.h"

#include "native.h"

#include <glib/gi18n-lib.h>

/* Settings are sent to GIMP this long after the last change: a dragged slider re-renders
 * the canvas a few times a second, not at every step. */
#define SEND_DELAY_MS 120

struct _TerrainCanvasPreview
{
  const TerrainProcedureInfo *info;
  GimpProcedureConfig        *config;
  GimpImage                  *image;
  GimpDrawableFilter         *filter;
  gboolean                    was_clean;
  guint                       pending; /* the timeout that sends the latest settings */
  gulong                      changed;
};

static gboolean
send_settings (gpointer data)
{
  TerrainCanvasPreview *preview = data;
  preview->pending = 0;
  terrain_native_filter_configure (preview->filter, preview->info, preview->config);
  gimp_drawable_filter_update (preview->filter);
  gimp_displays_flush ();
  return G_SOURCE_REMOVE;
}

/* The procedure's own arguments change the result; the dialog's other settings do not. */
static void
settings_changed (GObject *config, GParamSpec *pspec, TerrainCanvasPreview *preview)
{
  (void) config;
  if (terrain_arg_index (preview->info, pspec->name) >= 0 && preview->pending == 0)
    preview->pending = g_timeout_add (SEND_DELAY_MS, send_settings, preview);
}

TerrainCanvasPreview *
terrain_canvas_preview_new (const TerrainProcedureInfo *info, GimpProcedureConfig *config,
                            GimpDrawable *drawable, gchar **why_not)
{
  if (! GIMP_IS_LAYER (drawable))
    {
      *why_not = g_strdup (_("only layers show effects on the canvas"));
      return NULL;
    }
  GimpDrawableFilter *filter = terrain_native_filter_new (info, drawable, why_not);
  if (filter == NULL)
    return NULL;

  TerrainCanvasPreview *preview = g_new0 (TerrainCanvasPreview, 1);
  preview->info = info;
  preview->config = config;
  preview->image = gimp_item_get_image (GIMP_ITEM (drawable));
  preview->filter = filter;
  preview->was_clean = ! gimp_image_is_dirty (preview->image);
  gimp_image_undo_freeze (preview->image);
  terrain_native_filter_configure (filter, info, config);
  gimp_drawable_append_filter (drawable, filter);
  gimp_displays_flush ();
  preview->changed = g_signal_connect (config, "notify", G_CALLBACK (settings_changed), preview);
  return preview;
}

void
terrain_canvas_preview_show (TerrainCanvasPreview *preview, gboolean show)
{
  gimp_drawable_filter_set_visible (preview->filter, show);
  gimp_displays_flush ();
}

void
terrain_canvas_preview_free (TerrainCanvasPreview *preview)
{
  if (preview->pending)
    g_source_remove (preview->pending);
  g_signal_handler_disconnect (preview->config, preview->changed);
  gimp_drawable_filter_delete (preview->filter);
  gimp_image_undo_thaw (preview->image);
  /* GIMP marks an image dirty when an effect comes or goes, undo history or not. */
  if (preview->was_clean)
    gimp_image_clean_all (preview->image);
  gimp_displays_flush ();
  g_free (preview);
}
