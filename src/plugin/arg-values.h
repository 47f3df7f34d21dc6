/* Argument values read from a GimpProcedureConfig, in descriptor order. */
#ifndef TERRAIN_ARG_VALUES_H
#define TERRAIN_ARG_VALUES_H

#include <glib/gi18n-lib.h>
#include <libgimp/gimp.h>

#include "procedure-info.h"

#define PLUG_IN_BINARY "terrain"

typedef struct
{
  int              count;
  TerrainArgValue *values;
  char           **strings; /* owned copies behind the text of string arguments */
} TerrainArgValues;

TerrainArgValues *terrain_arg_values_from_config (const TerrainProcedureInfo *info,
                                                  GimpProcedureConfig        *config);
void              terrain_arg_values_free (TerrainArgValues *values);

#endif
