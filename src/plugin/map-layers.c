#include "map-layers.h"

#include "layer-io.h"

#include <glib/gi18n-lib.h>

void
terrain_add_map_layers (const TerrainProcedureInfo *info, GimpDrawable *drawable,
                        float *const *maps)
{
  GimpImage    *image = gimp_item_get_image (GIMP_ITEM (drawable));
  const int     width = gimp_drawable_get_width (drawable);
  const int     height = gimp_drawable_get_height (drawable);
  GimpImageType type = gimp_image_get_base_type (image) == GIMP_RGB ? GIMP_RGB_IMAGE
                                                                     : GIMP_GRAY_IMAGE;
  GimpLayer    *parent = NULL;
  gint          position = 0, x = 0, y = 0;
  gimp_drawable_get_offsets (drawable, &x, &y);
  if (GIMP_IS_LAYER (drawable))
    {
      parent = GIMP_LAYER (gimp_item_get_parent (GIMP_ITEM (drawable)));
      position = gimp_image_get_item_position (image, GIMP_ITEM (drawable));
    }
  int count = 0;
  while (info->map_names[count])
    count++;
  /* Each goes in at the drawable's position, above the ones before: the last one first. */
  for (int i = count - 1; i >= 0; i--)
    {
      GimpLayer *layer = gimp_layer_new (image, _(info->map_names[i]), width, height, type,
                                         100.0, GIMP_LAYER_MODE_NORMAL);
      gimp_image_insert_layer (image, layer, parent, position);
      gimp_layer_set_offsets (layer, x, y);
      terrain_write_layer (GIMP_DRAWABLE (layer), maps[i]);
    }
}
