/* plug-in-terrain-hydraulic-erosion: descriptor. A filter: it reads the layer's heights. */
#include "procedure-info.h"

#include "hydraulic-erosion.h"

#include <math.h>

TERRAIN_CORE (TerrainHydraulicErosion, terrain_hydraulic_erosion_defaults,
              terrain_hydraulic_erosion)

static const TerrainArg args[] = {
  TERRAIN_SEED (TerrainHydraulicErosion, seed),
  TERRAIN_INT ("droplets", N_("_Droplets"),
               N_("How many raindrops fall on each 1024 x 1024 pixels of the layer, one after "
                  "the other, so a larger layer is rained on as much: about one for every two "
                  "pixels carves clear gullies, far fewer only scratch the surface"),
               0, TERRAIN_HYDRAULIC_MAX_DROPLETS, TerrainHydraulicErosion, droplets),
  TERRAIN_DOUBLE ("inertia", N_("_Inertia"),
                  N_("How much a droplet keeps its direction instead of following the slope: "
                     "higher makes straighter, smoother channels"),
                  0.0, 1.0, TerrainHydraulicErosion, inertia),
  TERRAIN_DOUBLE ("capacity", N_("Capacit_y"),
                  N_("How much sediment a droplet can carry: more carves deeper valleys and "
                     "builds larger fans"),
                  0.0, TERRAIN_HYDRAULIC_MAX_CAPACITY, TerrainHydraulicErosion, capacity),
  TERRAIN_DOUBLE ("erosion", N_("Erosio_n"),
                  N_("How fast droplets wear the ground away while they can carry more"),
                  0.0, 1.0, TerrainHydraulicErosion, erosion),
  TERRAIN_DOUBLE ("deposition", N_("Deposi_tion"),
                  N_("How fast droplets drop the sediment they cannot carry"),
                  0.0, 1.0, TerrainHydraulicErosion, deposition),
  TERRAIN_DOUBLE ("evaporation", N_("Ev_aporation"),
                  N_("How fast droplets dry up: higher gives shorter channels"),
                  0.0, 1.0, TerrainHydraulicErosion, evaporation),
  TERRAIN_INT ("radius", N_("Erosion radi_us"),
               N_("How far around itself a droplet wears the ground away, in pixels"), 1,
               TERRAIN_HYDRAULIC_MAX_RADIUS, TerrainHydraulicErosion, radius),
  TERRAIN_INT ("max-steps", N_("Droplet li_fetime"),
               N_("The longest way a droplet runs before it stops, in pixels"), 1,
               TERRAIN_HYDRAULIC_MAX_STEPS, TerrainHydraulicErosion, max_steps),
  TERRAIN_ARGS_END
};

/* The droplets for the layer: `droplets` for each 1024 x 1024 pixels, rounded, at least one
 * where any fall. A count fixed whatever the size rained a 4096 x 4096 layer 16 times less
 * than a 1024 x 1024 one: most of its pixels saw no droplet, and its grain stayed
 * (tests/bench/README.md, "How terrain looks"). */
static TerrainStatus
adjust (void *params, const TerrainArgValue *values, const float *guide, int width, int height,
        char *why, size_t why_size)
{
  TerrainHydraulicErosion *p = params;
  const double             droplets = round ((double) p->droplets * width * height / 1048576.0);
  (void) values;
  (void) guide;
  if (droplets > TERRAIN_HYDRAULIC_MAX_DROPLETS)
    {
      terrain_why (why, why_size,
                   N_("droplets %d for each 1024 x 1024 pixels are %.0f on this %d x %d layer, "
                      "more than %d"),
                   p->droplets, droplets, width, height, TERRAIN_HYDRAULIC_MAX_DROPLETS);
      return TERRAIN_ERROR_INVALID;
    }
  if (p->droplets > 0)
    p->droplets = droplets < 1.0 ? 1 : (int) droplets;
  return TERRAIN_OK;
}

static const TerrainArgSlider sliders[] = {
  TERRAIN_SLIDER ("droplets", 0, 4000000),
  TERRAIN_SLIDER ("capacity", 0, 32),
  TERRAIN_SLIDER ("max-steps", 1, 200),
  TERRAIN_SLIDERS_END
};

const TerrainProcedureInfo terrain_procedure_hydraulic_erosion = {
  .name = "plug-in-terrain-hydraulic-erosion",
  .menu_label = N_("_Hydraulic Erosion..."),
  .blurb = N_("Rain droplets carve valleys and channels and leave sediment fans"),
  .help = N_("Droplet erosion after Hans Theobald Beyer, \"Implementation of a method for hydraulic "
             "erosion\" (TU Munich, 2015), as Sebastian Lague's implementation formulates it, on the "
             "layer's current heights in float at the layer's precision. `droplets` fall on each 1024 x "
             "1024 pixels: the layer gets droplets x width x height / 1048576 of them, rounded (at "
             "least one where any fall), so a larger layer is rained on as much. Each droplet starts at a "
             "random pixel (from seed), with speed 1 and water 1, and moves one pixel a step along "
             "its direction, which keeps `inertia` of itself and follows the bilinear gradient for "
             "the rest. Its capacity (how much sediment it can carry) is max(drop x speed x water x capacity, 0.01 x water): below it the "
             "droplet erodes `erosion` of the free capacity (never more than the drop) from the "
             "pixels within `radius`, none below the lower end of its step (where its water goes), "
             "so it digs no pits; above it, or going uphill, it deposits on the same pixels with the "
             "same weights, none above the upper end of its step, so hollows fill first. Gravity is 4; water "
             "evaporates by `evaporation` a step. A droplet that stops on the layer spreads what it carries over "
             "the pixels within `radius`; one that runs off the layer takes it away, so the "
             "total height changes only by what leaves over the border. Heights never go below 0. "
             "The same seed gives the same result. The selection is honoured."),
  .kind = TERRAIN_FILTER,
  .args = args,
  .sliders = sliders,
  .look_paint = true,
  TERRAIN_CORE_FIELDS (TerrainHydraulicErosion),
  .adjust = adjust
};
