#include "preview-render.h"

#include "heightmap.h"
#include "preview.h"
#include "render-errors.h"
#include "shade.h"

#include <string.h>

/* The whole layer's result in *scratch: the layer's heights rendered in place, or a fresh
 * render. NULL with *status set on failure. */
static const float *
render_whole (TerrainPreviewJob *job, float **scratch, const TerrainProgress *progress,
              TerrainStatus *status)
{
  const gsize n = (gsize) job->width * job->height;
  char        why[256] = "";
  if (job->layer &&
      ! terrain_heightmap_usable (job->info, job->layer, job->width, job->height, NULL))
    {
      *status = TERRAIN_ERROR_INVALID; /* OK says why; the preview keeps its last image */
      return NULL;
    }
  if (*scratch == NULL)
    *scratch = g_try_new (float, n);
  float *heights = *scratch;
  if (heights == NULL)
    {
      *status = TERRAIN_ERROR_NO_MEMORY;
      return NULL;
    }
  if (job->layer)
    memcpy (heights, job->layer, n * sizeof (float));
  *status = terrain_procedure_render (job->info, job->values->values, heights, job->width,
                                      job->height, progress, why, sizeof why);
  /* The same scan for invalid heights as OK's, so the preview never shows what OK refuses. */
  *status = terrain_render_error (job->info, *status, why, heights, n, job->width, job->height,
                                  NULL);
  return *status == TERRAIN_OK ? heights : NULL;
}

static TerrainStatus
render_heights (TerrainPreviewJob *job, float **scratch, const TerrainProgress *progress,
                float *out)
{
  TerrainStatus status;
  if (job->layer == NULL && ! job->one_to_one)
    {
      /* Generators render only the rows the preview samples (preview.h). */
      char why[256] = "";
      status = terrain_preview_samples (job->info, job->values->values, job->width, job->height,
                                        scratch, out, job->w, job->h, progress, why, sizeof why);
      return terrain_render_error (job->info, status, why, out, (gsize) job->w * job->h,
                                   job->width, job->height, NULL);
    }
  /* Filters are whole-image operations: the whole layer first, then its samples. */
  const float *whole = render_whole (job, scratch, progress, &status);
  if (whole == NULL)
    return status;
  if (! job->one_to_one && job->relief) /* the shape, not the noise between far samples */
    terrain_sample_mean (whole, job->width, job->height, out, job->w, job->h);
  else if (! job->one_to_one)
    terrain_sample_nearest (whole, job->width, job->height, out, job->w, job->h);
  else
    for (int row = 0; row < job->h; row++)
      memcpy (out + (gsize) row * job->w, whole + (gsize) (job->y + row) * job->width + job->x,
              (gsize) job->w * sizeof (float));
  return TERRAIN_OK;
}

TerrainStatus
terrain_preview_job_run (TerrainPreviewJob *job, float **scratch, const TerrainProgress *progress,
                         float *heights, float *out)
{
  TerrainStatus status = render_heights (job, scratch, progress, heights);
  const gsize   n = (gsize) job->w * job->h;
  if (status != TERRAIN_OK)
    return status;
  if (! job->relief)
    {
      memcpy (out, heights, n * sizeof (float));
      return TERRAIN_OK;
    }
  /* The contrast follows the preview's own slopes, so the relief reads the same at any
   * roughness, height range or preview scale. */
  const double z_scale = terrain_hillshade_contrast_z_scale (heights, job->w, job->h);
  if (z_scale < 0.0)
    return TERRAIN_ERROR_NO_MEMORY;
  terrain_hillshade (heights, job->w, job->h, job->azimuth, job->elevation, z_scale, out);
  return TERRAIN_OK;
}

void
terrain_preview_job_free (TerrainPreviewJob *job)
{
  if (job == NULL)
    return;
  terrain_arg_values_free (job->values);
  g_free (job);
}
