#include "stroke.h"

#include "reduced.h"
#include "heightmap.h"

#include <string.h>

gboolean
terrain_stroke_render (void)
{
  GSource *source = g_main_current_source ();
  return source != NULL && g_source_get_context (source) == g_main_context_default () &&
         source->source_funcs == &g_timeout_funcs &&
         g_source_get_priority (source) == G_PRIORITY_HIGH_IDLE;
}

static gboolean
forget (gpointer data)
{
  GeglOperation *operation = gegl_node_get_gegl_operation (data);
  if (operation != NULL)
    gegl_operation_invalidate (operation, NULL, TRUE);
  return G_SOURCE_REMOVE;
}

void
terrain_stroke_forget (GeglOperation *operation)
{
  /* The node, not the operation: a node that goes away meanwhile leaves its operation
   * pointing at it; kept alive by this reference, it has no operation any more. */
  g_idle_add_full (G_PRIORITY_HIGH, forget, g_object_ref (operation->node), g_object_unref);
}

/* ---- The base of the looks ---- */

struct TerrainStroke
{
  GMutex           lock;     /* GEGL may render one operation on several threads */
  gboolean         kept;     /* a base is there */
  TerrainResultKey settings; /* the base's */
  TerrainResultKey result;   /* its full result's, in the kept results */
  int              width, height, factor;
  float           *layer;    /* its layer, reduced */
  float           *look;     /* its look (the reduced layer filtered), or NULL until needed
                             * (a paint look: always; its layer is its look) */
};

TerrainStroke *
terrain_stroke_new (void)
{
  TerrainStroke *stroke = g_new0 (TerrainStroke, 1);
  g_mutex_init (&stroke->lock);
  return stroke;
}

void
terrain_stroke_free (TerrainStroke *stroke)
{
  g_mutex_clear (&stroke->lock);
  g_free (stroke->layer);
  g_free (stroke->look);
  g_free (stroke);
}

static gsize
reduced_cells (int width, int height, int factor)
{
  return (gsize) terrain_reduced_side (width, factor) * terrain_reduced_side (height, factor);
}

void
terrain_stroke_keep (TerrainStroke *stroke, const TerrainResultKey *settings,
                     const TerrainResultKey *result, const float *heights, int width,
                     int height, int factor)
{
  float *layer = g_try_malloc (reduced_cells (width, height, factor) * sizeof (float));
  if (layer != NULL)
    terrain_reduce_mean (heights, width, height, factor, layer);
  g_mutex_lock (&stroke->lock);
  g_free (stroke->layer);
  g_clear_pointer (&stroke->look, g_free);
  stroke->layer = layer;
  stroke->kept = layer != NULL;
  stroke->settings = *settings;
  stroke->result = *result;
  stroke->width = width;
  stroke->height = height;
  stroke->factor = factor;
  g_mutex_unlock (&stroke->lock);
}

/* The base's full result when it is of these settings and still kept; NULL otherwise. Under
 * the lock. */
static TerrainResult *
kept_base (TerrainStroke *stroke, const TerrainResultKey *settings, int width, int height,
           int factor)
{
  if (! stroke->kept || memcmp (&stroke->settings, settings, sizeof *settings) != 0 ||
      stroke->width != width || stroke->height != height || stroke->factor != factor)
    return NULL;
  return terrain_result_lookup (&stroke->result, (gsize) width * height);
}

gboolean
terrain_stroke_has_base (TerrainStroke *stroke, const TerrainResultKey *settings, int width,
                         int height, int factor)
{
  g_mutex_lock (&stroke->lock);
  TerrainResult *base = kept_base (stroke, settings, width, height, factor);
  g_mutex_unlock (&stroke->lock);
  terrain_result_unref (base);
  return base != NULL;
}

/* The base's full result (kept_base), with the base's look made if it is not yet (a paint
 * look's is the base's layer itself); NULL when there is none. Under the lock. */
static TerrainResult *
base_result (TerrainStroke *stroke, const TerrainResultKey *settings,
             const TerrainProcedureInfo *info, const TerrainArgValue *values, int width,
             int height, int factor)
{
  const gsize    cells = reduced_cells (width, height, factor);
  TerrainResult *result = kept_base (stroke, settings, width, height, factor);
  if (result == NULL || stroke->look != NULL || factor == 1)
    return result;
  char why[256];
  stroke->look = g_memdup2 (stroke->layer, cells * sizeof (float));
  if (terrain_filter_look (info, values, stroke->look, width, height, factor, NULL, why,
                              sizeof why) != TERRAIN_OK)
    {
      g_clear_pointer (&stroke->look, g_free);
      terrain_result_unref (result);
      return NULL;
    }
  return result;
}

TerrainStatus
terrain_stroke_look (TerrainStroke *stroke, const TerrainResultKey *settings,
                     const TerrainProcedureInfo *info, const TerrainArgValue *values,
                     float *heights, int width, int height, int factor,
                     const TerrainProgress *progress, char *why, size_t why_size)
{
  float *look = g_try_malloc (reduced_cells (width, height, factor) * sizeof (float));
  if (look == NULL)
    return TERRAIN_ERROR_NO_MEMORY;
  terrain_reduce_mean (heights, width, height, factor, look);
  const TerrainStatus status = terrain_filter_look (info, values, look, width, height, factor,
                                                       progress, why, why_size);
  if (status == TERRAIN_OK)
    {
      g_mutex_lock (&stroke->lock);
      TerrainResult *base = base_result (stroke, settings, info, values, width, height, factor);
      terrain_stretch_look (look, base ? (stroke->look ? stroke->look : stroke->layer) : NULL,
                            base ? terrain_result_heights (base) : NULL, factor, heights, width,
                            height);
      g_mutex_unlock (&stroke->lock);
      terrain_result_unref (base);
    }
  g_free (look);
  return status;
}

gboolean
terrain_stroke_paint_look (TerrainStroke *stroke, const TerrainResultKey *settings, int width,
                           int height, int x, int y, float *heights, int columns, int rows)
{
  g_mutex_lock (&stroke->lock);
  TerrainResult *base = kept_base (stroke, settings, width, height, 1);
  if (base != NULL)
    terrain_paint_look (terrain_result_heights (base), stroke->layer,
                        (gsize) y * width + x, width, heights, columns, rows);
  g_mutex_unlock (&stroke->lock);
  terrain_result_unref (base);
  return base != NULL;
}
