/* GIMP's own objects, as the module meets them in GIMP's process: by their type's name, never
 * by GIMP's headers (the module builds without them, and a plug-in's process, libgimp's
 * objects and all, loads it too). */
#ifndef TERRAIN_GIMP_SIGNALS_H
#define TERRAIN_GIMP_SIGNALS_H

#include <glib-object.h>

/* The signal `name` of `type` when it returns `returns`, takes `count` arguments of type
 * `param` and can be hooked; 0 otherwise. */
guint    terrain_gimp_signal (GType type, const char *name, GType returns, guint count,
                              GType param);
/* Whether objects of `type` have the property `name` of (a subtype of) `value_type`. */
gboolean terrain_gimp_has_property (GType type, const char *name, GType value_type);

/* Has `drop` called when GIMP begins to quit (its Gimp object's "exit", before GIMP's own
 * handlers: GIMP shuts GEGL down right after them, and GEGL's tile cache warns of tiles
 * still held), once GIMP has made that object; call it again until then. Also when the
 * artist then cancels quitting: what `drop` drops must be only what can be made again. */
void     terrain_gimp_on_exit (void (*drop) (void));

#endif
