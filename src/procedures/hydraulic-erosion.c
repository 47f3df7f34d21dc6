/* plug-in-terrain-hydraulic-erosion: descriptor. A filter: it reads the layer's heights. */
#include "procedure-info.h"

#include "hydraulic-erosion.h"

enum { SEED, DROPLETS, INERTIA, CAPACITY, EROSION, DEPOSITION, EVAPORATION, RADIUS, MAX_STEPS };

static const TerrainArg args[] = {
  TERRAIN_SEED_ARG,
  TERRAIN_INT ("droplets", N_("Droplets"),
               N_("Number of rain droplets, run one after the other; about one per pixel "
                  "carves clear valleys (0 to 100000000)"),
               0, TERRAIN_HYDRAULIC_MAX_DROPLETS, 200000),
  TERRAIN_DOUBLE ("inertia", N_("Inertia"),
                  N_("Share of a droplet's direction kept at each step; the rest follows the "
                     "slope: higher values make straighter, smoother channels (0 to 1)"),
                  0.0, 1.0, 0.05),
  TERRAIN_DOUBLE ("capacity", N_("Capacity"),
                  N_("Sediment capacity factor: how much a droplet can carry per unit of "
                     "drop, speed and water (0 to 64)"),
                  0.0, TERRAIN_HYDRAULIC_MAX_CAPACITY, 4.0),
  TERRAIN_DOUBLE ("erosion", N_("Erosion"),
                  N_("Share of a droplet's free capacity it takes from the ground per step "
                     "(0 to 1)"),
                  0.0, 1.0, 0.3),
  TERRAIN_DOUBLE ("deposition", N_("Deposition"),
                  N_("Share of the sediment above capacity a droplet drops per step (0 to 1)"),
                  0.0, 1.0, 0.3),
  TERRAIN_DOUBLE ("evaporation", N_("Evaporation"),
                  N_("Share of a droplet's water lost per step (0 to 1)"),
                  0.0, 1.0, 0.01),
  TERRAIN_INT ("radius", N_("Erosion radius"),
               N_("Radius in pixels of the area a droplet erodes around itself (1 to 8)"),
               1, TERRAIN_HYDRAULIC_MAX_RADIUS, 3),
  TERRAIN_INT ("max-steps", N_("Droplet lifetime"),
               N_("Most steps (pixels) a droplet travels before it stops (1 to 1000)"),
               1, TERRAIN_HYDRAULIC_MAX_STEPS, 30),
  TERRAIN_ARGS_END
};

static TerrainStatus
render (const TerrainArgValue *v, float *heights, int width, int height,
        const TerrainProgress *progress, char *why, size_t why_size)
{
  (void) why, (void) why_size;
  TerrainHydraulicErosion p;
  terrain_hydraulic_erosion_defaults (&p);
  p.seed = (uint32_t) v[SEED].number;
  p.droplets = (int) v[DROPLETS].number;
  p.inertia = v[INERTIA].number;
  p.capacity = v[CAPACITY].number;
  p.erosion = v[EROSION].number;
  p.deposition = v[DEPOSITION].number;
  p.evaporation = v[EVAPORATION].number;
  p.radius = (int) v[RADIUS].number;
  p.max_steps = (int) v[MAX_STEPS].number;
  return terrain_hydraulic_erosion (&p, heights, width, height, progress);
}

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
  .render = render
};
