#ifndef TERRAIN_RUN_H
#define TERRAIN_RUN_H

#include <libgimp/gimp.h>

/* The run function of every terrain procedure; run_data is its TerrainProcedureInfo. */
GimpValueArray *terrain_run (GimpProcedure *procedure, GimpRunMode run_mode, GimpImage *image,
                             GimpDrawable **drawables, GimpProcedureConfig *config,
                             gpointer run_data);

#endif
