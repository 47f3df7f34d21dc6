/* Writing a procedure's heights into GEGL's output buffer, in the layer's own format. */
#ifndef TERRAIN_RESULT_WRITE_H
#define TERRAIN_RESULT_WRITE_H

#include "pixel-codec.h"
#include "result-cache.h"

#include <gegl.h>

/* Writes the result's heights (of `area`, in the operation's coordinates) into the output's
 * rectangle roi. With `keep`, a pixel whose height the procedure did not change keeps the
 * input's bytes, and alpha is the input's (pixel-codec.h). A kept result written whole keeps
 * the pixels it was written as, and gives them again to the same layer and format
 * (result-cache.h) when they are a function of its key alone: `key_has_layer` (the layer's
 * pixels are in the key) or no alpha (without it, nothing of the input is kept).
 * `layer_pixels`, when not NULL, is the input over all of `area` as read already, in the
 * codec's format: it is not read again. */
void terrain_write_result (GeglBuffer *output, GeglBuffer *input, const GeglRectangle *roi,
                           TerrainResult *result, const GeglRectangle *area,
                           const TerrainPixelCodec *codec, const guchar *layer_pixels,
                           gboolean keep, gboolean key_has_layer);

#endif
