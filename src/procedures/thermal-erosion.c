/* plug-in-terrain-thermal-erosion: descriptor. A filter: it reads the layer's heights. */
#include "procedure-info.h"

#include "thermal-erosion.h"

TERRAIN_CORE (TerrainThermalErosion, terrain_thermal_erosion_defaults, terrain_thermal_erosion)

static const TerrainChoiceItem neighbourhoods[] = {
  { "4", N_("4 neighbours"), N_("Material slides along the axes only") },
  { "8", N_("8 neighbours"), N_("Along the axes and the diagonals (slopes measured over "
                                "sqrt 2 pixels): rounder cones") },
  { NULL, NULL, NULL }
};

static const TerrainArg args[] = {
  TERRAIN_INT ("iterations", N_("_Iterations"),
               N_("How many times steep slopes slump: more settles them further"), 1,
               TERRAIN_THERMAL_MAX_ITERATIONS, TerrainThermalErosion, iterations),
  TERRAIN_DOUBLE ("talus", N_("S_teepest slope"),
                  N_("Slopes steeper than this slump: 1 climbs from black to white in one "
                     "pixel, 0.01 in 100 pixels"),
                  0.0, 1.0, TerrainThermalErosion, talus),
  TERRAIN_DOUBLE ("strength", N_("Str_ength"),
                  N_("How much of a slope's excess steepness slumps each iteration: 1 settles "
                     "it at once, 0 changes nothing"),
                  0.0, 1.0, TerrainThermalErosion, strength),
  TERRAIN_CHOICE ("neighbourhood", N_("_Neighbourhood"),
                  N_("Whether material slides along the axes only, or diagonally too (rounder "
                     "cones)"),
                  neighbourhoods,
                  TerrainThermalErosion, neighbourhood),
  TERRAIN_ARGS_END
};

static const TerrainArgSlider sliders[] = {
  TERRAIN_SLIDER ("iterations", 1, 500),
  TERRAIN_SLIDER ("talus", 0, 0.1),
  TERRAIN_SLIDERS_END
};

const TerrainProcedureInfo terrain_procedure_thermal_erosion = {
  .name = "plug-in-terrain-thermal-erosion",
  .menu_label = N_("_Thermal Erosion..."),
  .blurb = N_("Slump slopes steeper than a talus angle: scree slopes and rounded peaks"),
  .help = N_("Thermal weathering (Musgrave, Kolb and Mace 1989) on the layer's current heights, in "
             "float at the layer's precision. Heights are in units of the layer's full range; a pair "
             "of neighbouring pixels is steep when their difference exceeds talus (\"Steepest slope\") "
             "times their "
             "distance (1, or sqrt 2 for diagonals with the 8-neighbourhood). Every iteration "
             "computes all moves from the heights before it, so the result does not depend on the "
             "order pixels are visited in: each steep pair exchanges strength / (2 max(n_j, n_k)) "
             "of its excess, n being the number of steep pairs a pixel is in. What one pixel gives, "
             "its neighbour takes: the total height is conserved, nothing crosses the layer's "
             "border, no height leaves the layer's range, and enough iterations leave no slope "
             "steeper than the talus. The selection is honoured."),
  .kind = TERRAIN_FILTER,
  .args = args,
  .sliders = sliders,
  .look_paint = true,
  TERRAIN_CORE_FIELDS (TerrainThermalErosion)
};
