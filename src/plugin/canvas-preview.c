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
  GimpDrawable               *layer;
  /* When the layer carries visible effects: a copy of the image taken before the dialog's
   * own effect was appended, its copy of the layer (the effects merged on first use). */
  GimpImage                  *below_image;
  GimpDrawable               *below;
  gboolean                    below_merged, below_failed;
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

/* The item at the same place in a duplicate of its image: image duplicates keep the layer
 * tree, but not always the tattoos (GIMP 3.2 gives new ones). */
static GimpItem *
same_item (GimpImage *image, GimpImage *copy, GimpItem *item)
{
  GimpItem *parent = gimp_item_get_parent (item);
  const int position = gimp_image_get_item_position (image, item);
  GimpItem *found = NULL;
  GimpItem **siblings;
  if (parent)
    {
      GimpItem *copy_parent = same_item (image, copy, parent);
      siblings = copy_parent ? gimp_item_get_children (copy_parent) : NULL;
    }
  else
    siblings = (GimpItem **) gimp_image_get_layers (copy);
  for (int i = 0; siblings && siblings[i] && ! found; i++)
    if (i == position)
      found = siblings[i];
  g_free (siblings);
  return found;
}

/* libgimp gives no buffer of a layer with its effects: gimp_drawable_get_buffer is the
 * layer's own pixels, and the thumbnail, which has them, is 8-bit sRGB in GIMP 3.2. A
 * duplicate of the image (GIMP copies on write) keeps the layer's effects; merged there,
 * they give the pixels the canvas shows under the dialog's effect, at full precision. */
static void
copy_effects_below (TerrainCanvasPreview *preview, GimpDrawable *drawable)
{
  if (! terrain_shows_effects (drawable))
    return;
  preview->below_image = gimp_image_duplicate (preview->image);
  if (preview->below_image == NULL)
    return;
  gimp_image_undo_disable (preview->below_image);
  GimpItem *item = same_item (preview->image, preview->below_image, GIMP_ITEM (drawable));
  if (item && GIMP_IS_DRAWABLE (item))
    preview->below = GIMP_DRAWABLE (item);
}

GimpDrawable *
terrain_canvas_preview_input (TerrainCanvasPreview *preview)
{
  if (preview->below_image == NULL)
    return preview->layer;
  if (! preview->below_merged && ! preview->below_failed)
    {
      preview->below_failed = preview->below == NULL ||
                              ! gimp_drawable_merge_filters (preview->below);
      preview->below_merged = ! preview->below_failed;
    }
  return preview->below_merged ? preview->below : NULL;
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
  preview->layer = drawable;
  preview->was_clean = ! gimp_image_is_dirty (preview->image);
  gimp_image_undo_freeze (preview->image);
  copy_effects_below (preview, drawable); /* before the dialog's own effect comes */
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
  if (preview->below_image)
    gimp_image_delete (preview->below_image);
  gimp_image_undo_thaw (preview->image);
  /* GIMP marks an image dirty when an effect comes or goes, undo history or not. */
  if (preview->was_clean)
    gimp_image_clean_all (preview->image);
  gimp_displays_flush ();
  g_free (preview);
}
