/* Turns a procedure descriptor into a GimpProcedure with its arguments and run function. */
#ifndef TERRAIN_REGISTER_H
#define TERRAIN_REGISTER_H

#include <glib/gi18n-lib.h>
#include <libgimp/gimp.h>

#include "procedure-info.h"

/* Generators go to the Terrain menu, the filters that change an existing map to a submenu
 * of it: GIMP 3.0 offers plug-ins no menu sections of their own (a "[Section]" in a menu
 * path only finds the sections GIMP's menus define), and sorts a menu's plug-in items by
 * label. */
#define TERRAIN_MENU_PATH "<Image>/Filters/Render/_Terrain"

/* The argument every procedure adds to its descriptor's: an editable effect instead of
 * changed pixels (native.h). */
#define TERRAIN_ARG_NON_DESTRUCTIVE "non-destructive"

/* Dialog-only settings every procedure has (aux arguments: remembered, not in the PDB). */
#define TERRAIN_AUX_RELIEF    "relief-preview"
#define TERRAIN_AUX_MERGE     "merge-filter"
#define TERRAIN_AUX_CANVAS    "canvas-preview"
#define TERRAIN_AUX_AZIMUTH   "light-azimuth"
#define TERRAIN_AUX_ELEVATION "light-elevation"

GimpProcedure *terrain_procedure_new (GimpPlugIn *plug_in, const TerrainProcedureInfo *info);

#endif
