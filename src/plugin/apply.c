#include "apply.h"

#include "heightmap.h"
#include "layer-io.h"
#include "map-layers.h"
#include "native.h"
#include "render-errors.h"

#include <glib/gi18n-lib.h>

/* The whole layer's heights, reading the layer first for filters, and with maps (not NULL)
 * the procedure's maps. Non-finite heights are an error when scan is set; the write path
 * scans each band as it copies it instead. */
static TerrainStatus
render_layer (const TerrainProcedureInfo *info, const TerrainArgValues *values,
              GimpDrawable *drawable, float *heights, float *const *maps,
              const TerrainProgress *progress, gboolean scan, GError **error)
{
  const int width = gimp_drawable_get_width (drawable);
  const int height = gimp_drawable_get_height (drawable);
  char why[256] = "";

  if (terrain_reads_layer (info, values->values))
    {
      terrain_read_heights (drawable, heights);
      if (! terrain_heightmap_usable (info, heights, width, height, error))
        return TERRAIN_ERROR_INVALID;
    }
  TerrainStatus status =
    maps ? terrain_procedure_render_maps (info, values->values, heights, width, height, maps,
                                          progress, why, sizeof why)
         : terrain_procedure_render (info, values->values, heights, width, height, progress, why,
                                     sizeof why);
  return terrain_render_error (info, status, why, heights, scan ? (gsize) width * height : 0,
                               width, height, error);
}

/* Copies the rectangle x, y, w, h of a layer_width-wide map into out (stride w). */
static void
copy_rect (const float *layer, int layer_width, float *out, int x, int y, int w, int h)
{
  for (int row = 0; row < h; row++)
    memcpy (out + (gsize) row * w, layer + (gsize) (y + row) * layer_width + x,
            (gsize) w * sizeof (float));
}

/* The whole layer's result in *scratch, allocated on first use (and the maps). */
static TerrainStatus
render_scratch (const TerrainProcedureInfo *info, const TerrainArgValues *values,
                GimpDrawable *drawable, float **scratch, float *const *maps,
                const TerrainProgress *progress, gboolean scan, GError **error)
{
  const int width = gimp_drawable_get_width (drawable);
  const int height = gimp_drawable_get_height (drawable);
  if (*scratch == NULL)
    *scratch = g_try_new (float, (gsize) width * height);
  if (*scratch == NULL)
    return terrain_render_error (info, TERRAIN_ERROR_NO_MEMORY, "", NULL, 0, width, height,
                                 error);
  return render_layer (info, values, drawable, *scratch, maps, progress, scan, error);
}

typedef struct
{
  const TerrainProcedureInfo *info;
  const TerrainArgValues     *values;
  const float                *layer;   /* whole-layer heights, or NULL to render bands */
  int                         layer_width;
  TerrainStatus               status;
  GError                    **error;
} BandWriter;

/* Rendering whole layers is the first half of the progress bar, writing the second. */
static int
report_render (void *user, double fraction)
{
  (void) user;
  terrain_progress_update (0.5 * fraction);
  return 0;
}

/* Called from the write path's worker thread: no libgimp calls here. */
static gboolean
next_band (gpointer user, float *heights, int x, int y, int w, int h)
{
  BandWriter *b = user;
  char why[256] = "";
  if (b->layer) /* rendered without a scan: check the band here, overlapped with writing */
    {
      copy_rect (b->layer, b->layer_width, heights, x, y, w, h);
      b->status = terrain_render_error (b->info, TERRAIN_OK, why, heights, (gsize) w * h, w, h, b->error);
    }
  else
    b->status = terrain_render_error (b->info,
                              terrain_procedure_render_rect (b->info, b->values->values, heights,
                                                             x, y, w, h, NULL, why, sizeof why),
                              why, heights, (gsize) w * h, w, h, b->error);
  return b->status == TERRAIN_OK;
}

/* The maps a run makes when its procedure's maps argument is on (none else: count 0),
 * each layer-sized; NULL when they do not fit in memory. */
static float **
new_maps (int count, int width, int height)
{
  float **maps = g_new0 (float *, count + 1);
  for (int i = 0; i < count; i++)
    if ((maps[i] = g_try_new (float, (gsize) width * height)) == NULL)
      {
        g_strfreev ((gchar **) maps);
        return NULL;
      }
  return maps;
}

/* Renders in this process and writes the result through the pipe, onto the effects the
 * layer shows (merged first); the maps the procedure makes, when wanted, come as new layers
 * in the same undo step. */
static GimpPDBStatusType
apply_here (const TerrainProcedureInfo *info, const TerrainArgValues *values,
            GimpDrawable *drawable, int x, int y, int w, int h, GError **error)
{
  const int width = gimp_drawable_get_width (drawable);
  const int height = gimp_drawable_get_height (drawable);
  const int map_count = terrain_procedure_map_count (info, values->values);
  float   **maps = map_count ? new_maps (map_count, width, height) : NULL;
  BandWriter writer = { info, values, NULL, width, TERRAIN_OK, error };
  float *layer = NULL;
  if (map_count && maps == NULL)
    return terrain_pdb_status (terrain_render_error (info, TERRAIN_ERROR_NO_MEMORY, "", NULL, 0,
                                                     width, height, error));
  /* Onto the effects the layer shows, as in GIMP's process (terrain_merge_effects); the
   * layer's own heights are checked before they are merged. */
  GimpImage     *image = gimp_item_get_image (GIMP_ITEM (drawable));
  const gboolean merged_effects = terrain_shows_effects (drawable);
  if (merged_effects)
    {
      GimpPDBStatusType usable = terrain_check_heights (info, values, drawable, error);
      if (usable != GIMP_PDB_SUCCESS)
        {
          g_strfreev ((gchar **) maps);
          return usable;
        }
      terrain_merge_effects (drawable, NULL);
    }
  terrain_progress_init (info);
  /* Band by band straight from the core when it can; else the whole layer first. */
  if (info->render_rect == NULL || terrain_reads_layer (info, values->values) || maps)
    {
      TerrainProgress progress = { report_render, NULL };
      TerrainStatus status = render_scratch (info, values, drawable, &layer, maps, &progress,
                                             FALSE, error);
      if (status != TERRAIN_OK)
        {
          g_free (layer);
          g_strfreev ((gchar **) maps);
          if (merged_effects)
            gimp_image_undo_group_end (image);
          return terrain_pdb_status (status);
        }
      writer.layer = layer;
    }

  gimp_image_undo_group_start (image);
  terrain_write_heights (drawable, x, y, w, h, terrain_reads_layer (info, values->values),
                         next_band, &writer, layer ? 0.5 : 0.0);
  if (maps && writer.status == TERRAIN_OK)
    terrain_add_map_layers (info, drawable, maps);
  gimp_image_undo_group_end (image);
  if (merged_effects)
    gimp_image_undo_group_end (image);
  gimp_progress_end ();
  g_free (layer);
  g_strfreev ((gchar **) maps);
  return terrain_pdb_status (writer.status);
}

GimpPDBStatusType
terrain_apply (const TerrainProcedureInfo *info, GimpProcedureConfig *config,
               const TerrainArgValues *values, GimpDrawable *drawable,
               gboolean non_destructive, GError **error)
{
  char why[256] = "";
  int  x, y, w, h;

  if (! gimp_drawable_mask_intersect (drawable, &x, &y, &w, &h))
    return GIMP_PDB_SUCCESS; /* the selection misses this layer: nothing to do */
  if (non_destructive && ! GIMP_IS_LAYER (drawable))
    {
      g_set_error (error, GIMP_PLUG_IN_ERROR, 0,
                   _("%s: only layers can hold editable effects; run it with "
                     "non-destructive off on channels and masks."), info->name);
      return GIMP_PDB_CALLING_ERROR;
    }
  TerrainStatus status = terrain_procedure_check (info, values->values,
                                                  gimp_drawable_get_width (drawable),
                                                  gimp_drawable_get_height (drawable), why,
                                                  sizeof why);
  if (status != TERRAIN_OK)
    return terrain_pdb_status (terrain_render_error (info, status, why, NULL, 0, 0, 0, error));
  if (terrain_holds_non_numbers (drawable) &&
      ! gimp_selection_is_empty (gimp_item_get_image (GIMP_ITEM (drawable))) &&
      ! terrain_selection_usable (info, drawable, x, y, w, h, error))
    return GIMP_PDB_CALLING_ERROR;

  /* An operation changes its layer only: maps are the plug-in's. */
  if (terrain_procedure_map_count (info, values->values))
    return apply_here (info, values, drawable, x, y, w, h, error);
  gchar              *why_not = NULL;
  GimpDrawableFilter *filter = terrain_native_filter_new (info, drawable, &why_not);
  if (filter)
    return terrain_native_apply (info, config, values, drawable, filter, non_destructive, error);
  terrain_native_say_once (why_not);
  g_free (why_not);
  return apply_here (info, values, drawable, x, y, w, h, error);
}
