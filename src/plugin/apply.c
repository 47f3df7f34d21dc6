#include "apply.h"

#include "heightmap.h"
#include "layer-io.h"
#include "native.h"
#include "pixel-codec.h"
#include "preview.h"

#include <glib/gi18n-lib.h>

/* The core's status messages in the user's language (src/terrain has no translations). */
static const char *
status_text (TerrainStatus status)
{
  switch (status)
    {
    case TERRAIN_ERROR_INVALID:   return _("a parameter is out of range");
    case TERRAIN_ERROR_NO_MEMORY: return _("not enough memory for a heightmap of this size");
    case TERRAIN_CANCELLED:       return _("cancelled");
    default:                      return terrain_status_message (status);
    }
}

/* A user-facing error for a failed render; TERRAIN_OK when the heights are usable. */
static TerrainStatus
check_render (const TerrainProcedureInfo *info, TerrainStatus status, const char *why,
              const float *heights, gsize n, int width, int height, GError **error)
{
  if (status == TERRAIN_OK && terrain_has_non_finite (heights, n))
    {
      g_set_error (error, GIMP_PLUG_IN_ERROR, 0,
                   _("%s produced an invalid height; nothing was written."), info->name);
      return TERRAIN_ERROR_INVALID;
    }
  if (status == TERRAIN_ERROR_INVALID)
    g_set_error (error, GIMP_PLUG_IN_ERROR, 0, _("%s: invalid argument: %s"), info->name,
                 why[0] ? why : status_text (status));
  else if (status == TERRAIN_ERROR_NO_MEMORY)
    g_set_error (error, GIMP_PLUG_IN_ERROR, 0,
                 _("%s: not enough memory for a %d x %d heightmap."), info->name, width, height);
  else if (status == TERRAIN_CANCELLED)
    g_set_error (error, GIMP_PLUG_IN_ERROR, 0, _("%s: cancelled."), info->name);
  return status;
}

/* FALSE, with the error, when the layer holds heights that are not finite numbers: they
 * have no place in a heightmap, and every procedure that reads the layer reads all of it
 * (erosion and smoothing move material across a selection's border). */
static gboolean
check_layer (const TerrainProcedureInfo *info, const float *heights, int width, int height,
             GError **error)
{
  size_t first = 0;
  size_t count = terrain_count_non_finite (heights, (size_t) width * height, &first);
  if (count == 0)
    return TRUE;
  g_set_error (error, GIMP_PLUG_IN_ERROR, 0,
               _("%s: the layer holds %lu pixels that are not finite numbers (NaN or "
                 "infinity), the first at x = %d, y = %d; nothing was changed."),
               info->name, (unsigned long) count, (int) (first % width), (int) (first / width));
  return FALSE;
}

/* The whole layer's heights, reading the layer first for filters. Non-finite heights are an
 * error when scan is set; the write path scans each band as it copies it instead. */
static TerrainStatus
render_layer (const TerrainProcedureInfo *info, const TerrainArgValues *values,
              GimpDrawable *drawable, float *heights, const TerrainProgress *progress,
              gboolean scan, GError **error)
{
  const int width = gimp_drawable_get_width (drawable);
  const int height = gimp_drawable_get_height (drawable);
  char why[256] = "";

  if (terrain_reads_layer (info, values->values))
    {
      terrain_read_heights (drawable, heights);
      if (! check_layer (info, heights, width, height, error))
        return TERRAIN_ERROR_INVALID;
    }
  TerrainStatus status = terrain_procedure_render (info, values->values, heights, width, height,
                                                   progress, why, sizeof why);
  return check_render (info, status, why, heights, scan ? (gsize) width * height : 0, width,
                       height, error);
}

/* Copies the rectangle x, y, w, h of a layer_width-wide map into out (stride w). */
static void
copy_rect (const float *layer, int layer_width, float *out, int x, int y, int w, int h)
{
  for (int row = 0; row < h; row++)
    memcpy (out + (gsize) row * w, layer + (gsize) (y + row) * layer_width + x,
            (gsize) w * sizeof (float));
}

/* The whole layer's result in *scratch, allocated on first use. */
static TerrainStatus
render_scratch (const TerrainProcedureInfo *info, const TerrainArgValues *values,
                GimpDrawable *drawable, float **scratch, const TerrainProgress *progress,
                gboolean scan, GError **error)
{
  const int width = gimp_drawable_get_width (drawable);
  const int height = gimp_drawable_get_height (drawable);
  if (*scratch == NULL)
    *scratch = g_try_new (float, (gsize) width * height);
  if (*scratch == NULL)
    return check_render (info, TERRAIN_ERROR_NO_MEMORY, "", NULL, 0, width, height, error);
  return render_layer (info, values, drawable, *scratch, progress, scan, error);
}

TerrainStatus
terrain_render_region (const TerrainProcedureInfo *info, const TerrainArgValues *values,
                       GimpDrawable *drawable, float **scratch, float *out, int x, int y,
                       int w, int h, GError **error)
{
  TerrainStatus status = render_scratch (info, values, drawable, scratch, NULL, TRUE, error);
  if (status == TERRAIN_OK)
    copy_rect (*scratch, gimp_drawable_get_width (drawable), out, x, y, w, h);
  return status;
}

TerrainStatus
terrain_render_samples (const TerrainProcedureInfo *info, const TerrainArgValues *values,
                        GimpDrawable *drawable, float **scratch, float *samples, int pw, int ph,
                        GError **error)
{
  const int width = gimp_drawable_get_width (drawable);
  const int height = gimp_drawable_get_height (drawable);

  if (terrain_reads_layer (info, values->values))
    {
      TerrainStatus status = render_scratch (info, values, drawable, scratch, NULL, TRUE, error);
      if (status == TERRAIN_OK)
        terrain_sample_nearest (*scratch, width, height, samples, pw, ph);
      return status;
    }

  char why[256] = "";
  TerrainStatus status = terrain_preview_samples (info, values->values, width, height, scratch,
                                                  samples, pw, ph, why, sizeof why);
  return check_render (info, status, why, samples, (gsize) pw * ph, width, height, error);
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
      b->status = check_render (b->info, TERRAIN_OK, why, heights, (gsize) w * h, w, h, b->error);
    }
  else
    b->status = check_render (b->info,
                              terrain_procedure_render_rect (b->info, b->values->values, heights,
                                                             x, y, w, h, NULL, why, sizeof why),
                              why, heights, (gsize) w * h, w, h, b->error);
  return b->status == TERRAIN_OK;
}

static GimpPDBStatusType
pdb_status (TerrainStatus status)
{
  switch (status)
    {
    case TERRAIN_OK:            return GIMP_PDB_SUCCESS;
    case TERRAIN_CANCELLED:     return GIMP_PDB_CANCEL;
    case TERRAIN_ERROR_INVALID: return GIMP_PDB_CALLING_ERROR;
    default:                    return GIMP_PDB_EXECUTION_ERROR;
    }
}

/* Renders in this process and writes the result through the pipe. */
static GimpPDBStatusType
apply_here (const TerrainProcedureInfo *info, const TerrainArgValues *values,
            GimpDrawable *drawable, int x, int y, int w, int h, GError **error)
{
  BandWriter writer = { info, values, NULL, gimp_drawable_get_width (drawable), TERRAIN_OK,
                        error };
  float *layer = NULL;
  gimp_progress_init (_(info->menu_label));
  /* Band by band straight from the core when it can; else the whole layer first. */
  if (info->render_rect == NULL || terrain_reads_layer (info, values->values))
    {
      TerrainProgress progress = { report_render, NULL };
      TerrainStatus status = render_scratch (info, values, drawable, &layer, &progress, FALSE,
                                             error);
      if (status != TERRAIN_OK)
        {
          g_free (layer);
          return pdb_status (status);
        }
      writer.layer = layer;
    }

  GimpImage *image = gimp_item_get_image (GIMP_ITEM (drawable));
  gimp_image_undo_group_start (image);
  terrain_write_heights (drawable, x, y, w, h, terrain_reads_layer (info, values->values),
                         next_band, &writer, layer ? 0.5 : 0.0);
  gimp_image_undo_group_end (image);
  gimp_progress_end ();
  g_free (layer);
  return pdb_status (writer.status);
}

/* Whether the layer's storage can hold values that are no numbers (half, float, double). */
static gboolean
holds_non_numbers (GimpDrawable *drawable)
{
  TerrainPixelCodec codec;
  return ! terrain_pixel_codec (gimp_drawable_get_format (drawable), &codec) ||
         codec.type >= TERRAIN_SAMPLE_HALF;
}

/* Whether the machine has room for the whole-layer maps the procedure works on in GIMP's
 * process (which cannot report running out): the plug-in reserves as much itself, for a
 * moment, on the same machine. 12 bytes a pixel: the map and the core's working copies. */
static gboolean
room_for_layer (const TerrainProcedureInfo *info, const TerrainArgValues *values,
                GimpDrawable *drawable)
{
  const int width = gimp_drawable_get_width (drawable);
  const int height = gimp_drawable_get_height (drawable);
  if (info->render_rect && ! terrain_reads_layer (info, values->values))
    return TRUE; /* rendered tile by tile */
  if (terrain_check_size (width, height) != TERRAIN_OK ||
      (gsize) width * height > G_MAXSIZE / 12)
    return FALSE;
  gpointer reserved = g_try_malloc ((gsize) width * height * 12);
  g_free (reserved);
  return reserved != NULL;
}

/* Applies the procedure's GEGL operation in GIMP's process: merged, or appended as an
 * editable effect. What the operation cannot report is checked here first: a layer that
 * is no heightmap, or too large a one. */
static GimpPDBStatusType
apply_in_gimp (const TerrainProcedureInfo *info, GimpProcedureConfig *config,
               const TerrainArgValues *values, GimpDrawable *drawable,
               GimpDrawableFilter *filter, gboolean non_destructive, GError **error)
{
  if (! room_for_layer (info, values, drawable))
    {
      gimp_drawable_filter_delete (filter);
      return pdb_status (check_render (info, TERRAIN_ERROR_NO_MEMORY, "", NULL, 0,
                                       gimp_drawable_get_width (drawable),
                                       gimp_drawable_get_height (drawable), error));
    }
  if (terrain_reads_layer (info, values->values) && holds_non_numbers (drawable))
    {
      const int width = gimp_drawable_get_width (drawable);
      const int height = gimp_drawable_get_height (drawable);
      float    *heights = g_try_new (float, (gsize) width * height);
      gboolean  usable = heights != NULL;
      if (heights)
        {
          terrain_read_heights (drawable, heights);
          usable = check_layer (info, heights, width, height, error);
          g_free (heights);
        }
      if (! usable)
        {
          gimp_drawable_filter_delete (filter);
          return heights ? GIMP_PDB_CALLING_ERROR : GIMP_PDB_EXECUTION_ERROR;
        }
    }
  gimp_progress_init (_(info->menu_label));
  terrain_native_filter_configure (filter, info, config);
  if (non_destructive)
    gimp_drawable_append_filter (drawable, filter);
  else
    gimp_drawable_merge_filter (drawable, filter);
  gimp_progress_end ();
  return GIMP_PDB_SUCCESS;
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
    return pdb_status (check_render (info, status, why, NULL, 0, 0, 0, error));

  gchar              *why_not = NULL;
  GimpDrawableFilter *filter = terrain_native_filter_new (info, drawable, &why_not);
  if (filter)
    return apply_in_gimp (info, config, values, drawable, filter, non_destructive, error);
  terrain_native_say_once (why_not);
  g_free (why_not);
  return apply_here (info, values, drawable, x, y, w, h, error);
}
