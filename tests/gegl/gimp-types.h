/* GIMP's GObject types, made in a test's process as GIMP 3.0.4 and 3.2.6 declare the parts
 * the module relies on (src/gegl/gimp-internals.h), one set per process as GIMP has one:
 *   Gimp          signal "exit" (gboolean kill_it), returning gboolean
 *   GimpImage     signal "flush" (gboolean invalidate_preview); property "gimp"
 *   GimpDrawable  signal "update" (int x, int y, int width, int height); properties
 *                 "buffer" (a GeglBuffer) and "image"
 * A property reads what g_object_set_data keeps on the object under its name. */
#ifndef TERRAIN_TEST_GIMP_TYPES_H
#define TERRAIN_TEST_GIMP_TYPES_H

#include <glib-object.h>

/* How a process's types differ from GIMP's. */
typedef struct
{
  gboolean no_gimp;       /* a plug-in's process: no Gimp type (nor GimpImage's "gimp") */
  GType    flush_param;   /* GimpImage::flush's parameter: G_TYPE_BOOLEAN in GIMP */
  guint    update_params; /* GimpDrawable::update's parameters: 4 in GIMP (all int) */
} TerrainTestGimpTypes;

/* Makes the types and their classes (as GIMP's first drawable does): as GIMP's, or with
 * `differences` (NULL: none). Returns GimpDrawable's type. */
GType terrain_test_make_gimp_types (const TerrainTestGimpTypes *differences);

#endif
