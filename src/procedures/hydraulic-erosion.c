/* plug-in-terrain-hydraulic-erosion: descriptor. A filter: it reads the layer's heights. */
#include "procedure-info.h"

#include "hydraulic-erosion.h"

TERRAIN_CORE (TerrainHydraulicErosion, terrain_hydraulic_erosion_defaults,
              terrain_hydraulic_erosion)

static const TerrainArg args[] = {
  TERRAIN_SEED (TerrainHydraulicErosion, seed),
  TERRAIN_INT ("droplets", N_("Droplets"),
               N_("Number of rain droplets, run one after the other; about one per pixel "
                  "carves clear valleys"),
               0, TERRAIN_HYDRAULIC_MAX_DROPLETS, TerrainHydraulicErosion, droplets),
  TERRAIN_DOUBLE ("inertia", N_("Inertia"),
                  N_("Share of a droplet's direction kept at each step; the rest follows the "
                     "slope: higher values make straighter, smoother channels"),
                  0.0, 1.0, TerrainHydraulicErosion, inertia),
  TERRAIN_DOUBLE ("capacity", N_("Capacity"),
                  N_("Sediment capacity factor: how much a droplet can carry per unit of "
                     "drop, speed and water"),
                  0.0, TERRAIN_HYDRAULIC_MAX_CAPACITY, TerrainHydraulicErosion, capacity),
  TERRAIN_DOUBLE ("erosion", N_("Erosion"),
                  N_("Share of a droplet's free capacity it takes from the ground per step"),
                  0.0, 1.0, TerrainHydraulicErosion, erosion),
  TERRAIN_DOUBLE ("deposition", N_("Deposition"),
                  N_("Share of the sediment above capacity a droplet drops per step"),
                  0.0, 1.0, TerrainHydraulicErosion, deposition),
  TERRAIN_DOUBLE ("evaporation", N_("Evaporation"), N_("Share of a droplet's water lost per step"),
                  0.0, 1.0, TerrainHydraulicErosion, evaporation),
  TERRAIN_INT ("radius", N_("Erosion radius"),
               N_("Radius in pixels of the area a droplet erodes around itself"), 1,
               TERRAIN_HYDRAULIC_MAX_RADIUS, TerrainHydraulicErosion, radius),
  TERRAIN_INT ("max-steps", N_("Droplet lifetime"),
               N_("Most steps (pixels) a droplet travels before it stops"), 1,
               TERRAIN_HYDRAULIC_MAX_STEPS, TerrainHydraulicErosion, max_steps),
  TERRAIN_ARGS_END
};

const TerrainProcedureInfo terrain_procedure_hydraulic_erosion = {
  .name = "plug-in-terrain-hydraulic-erosion",
  .menu_label = N_("Hydraulic Erosion..."),
  .blurb = N_("Rain droplets carve valleys and channels and leave sediment fans"),
  .help = N_("Droplet erosion after Hans Theobald Beyer, \"Implementation of a method for hydraulic "
             "erosion\" (TU Munich, 2015), as Sebastian Lague's implementation formulates it, on the "
             "layer's current heights in float at the layer's precision. Each droplet starts at a "
             "random pixel (from seed), with speed 1 and water 1, and moves one pixel a step along "
             "its direction, which keeps `inertia` of itself and follows the bilinear gradient for "
             "the rest. Its capacity is max(drop x speed x water x capacity, 0.01): below it the "
             "droplet erodes `erosion` of the free capacity (never more than the drop) from the "
             "pixels within `radius`; above it, or going uphill, it deposits on the 4 pixels around "
             "it. Gravity is 4; water evaporates by `evaporation` a step. A droplet that stops on "
             "the layer drops what it carries; one that runs off the layer takes it away, so the "
             "total height changes only by what leaves over the border. Heights never go below 0. "
             "The same seed gives the same result. The selection is honoured."),
  .kind = TERRAIN_FILTER,
  .args = args,
  TERRAIN_CORE_FIELDS (TerrainHydraulicErosion)
};
