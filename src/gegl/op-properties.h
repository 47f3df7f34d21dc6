/* GObject properties of a terrain operation, made from its descriptor's arguments. */
#ifndef TERRAIN_OP_PROPERTIES_H
#define TERRAIN_OP_PROPERTIES_H

#include <gegl-plugin.h>

#include "procedure-info.h"

/* The hidden property that names the module's build (terrain-build-id.h): the plug-in reads
 * its default to tell a module built from other sources, which could give other pixels. */
#define TERRAIN_OP_BUILD_PROPERTY "terrain-build"

/* Registers an enum type for each choice argument of `info` (labels in the user's language,
 * terrain_text). Returns FALSE when another module registered them already: a second
 * copy of this module, which must not register anything (GLib refuses a type name twice,
 * and GIMP then crashes at start-up). */
gboolean    terrain_op_register_choices (GTypeModule *module, const TerrainProcedureInfo *info);

/* The property of descriptor argument `arg` of `info`: the same name, nick, blurb, range,
 * default and choices (the enum type registered above); the arguments it depends on
 * (descriptor conditions) become its "sensitive" key for GIMP's dialog. */
GParamSpec *terrain_op_param_spec (const TerrainProcedureInfo *info, const TerrainArg *arg);

/* The hidden build property. */
GParamSpec *terrain_op_build_param_spec (void);

/* "GimpTerrain" + the words of `parts` capitalised: a type name of this module. */
gchar      *terrain_op_type_name (const char *first_part, ...) G_GNUC_NULL_TERMINATED;

#endif
