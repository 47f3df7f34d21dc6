/* plug-in-terrain-river-erosion: descriptor. A filter: it reads the layer's heights (with
 * uplift from the layer, its uplift map). */
#include "procedure-info.h"
#include "reduced.h"

#include "river-erosion.h"

/* The core without maps, and with them: erosion and deposition scaled for a mask. */
static TerrainStatus
river_erosion (const TerrainRiverErosion *params, float *heights, int width, int height,
               const TerrainProgress *progress)
{
  return terrain_river_erosion (params, heights, width, height, NULL, progress);
}

TERRAIN_CORE (TerrainRiverErosion, terrain_river_erosion_defaults, river_erosion)

/* A map of amounts (>= 0) scaled so that its largest is 1, as a mask shows it best. */
static void
scale_to_largest (float *map, size_t n)
{
  float largest = 0.0f;
  for (size_t i = 0; i < n; i++)
    largest = map[i] > largest ? map[i] : largest;
  for (size_t i = 0; largest > 0.0f && i < n; i++)
    map[i] /= largest;
}

static TerrainStatus
render_maps (const void *params, float *heights, int width, int height, float *const *maps,
             const TerrainProgress *progress)
{
  TerrainRiverMaps wanted = { maps[0], maps[1], maps[2] };
  TerrainStatus status = terrain_river_erosion (params, heights, width, height, &wanted,
                                                progress);
  if (status == TERRAIN_OK)
    {
      scale_to_largest (wanted.erosion, (size_t) width * height);
      scale_to_largest (wanted.deposition, (size_t) width * height);
    }
  return status;
}

static const char *const map_names[] = { N_("Flow"), N_("Erosion"), N_("Deposition"), NULL };

static const TerrainChoiceItem methods[] = {
  { "analytical", N_("Analytical"),
    N_("Solve for the landscape at the given age at once: fast, and the same at any age") },
  { "simulate", N_("Simulate"),
    N_("Step through time with iterations and erosion: slower; follows the slope weight") },
  { NULL, NULL, NULL }
};

static const TerrainChoiceItem uplifts[] = {
  { "none",  N_("None"),  N_("Erode the layer's current heights") },
  { "layer", N_("Layer"), N_("The layer is the uplift map: paint where mountains rise, and "
                             "they grow from flat ground with their rivers") },
  { NULL, NULL, NULL }
};

static const TerrainChoiceItem edges[] = {
  { "open", N_("Open"), N_("Water leaves at the layer's borders") },
  { "wrap", N_("Wrap"), N_("Periodic in both directions: the result still tiles; water leaves "
                           "where the height is at or below sea-level") },
  { "shared-edge", N_("Shared edge"),
    N_("Like wrap with a period one pixel shorter: the last row and column equal the first, "
       "as game engines want of tiles that share their edge") },
  { NULL, NULL, NULL }
};

static const TerrainArg args[] = {
  TERRAIN_CHOICE ("method", N_("Me_thod"),
                  N_("\"Analytical\" solves for the age at once; \"Simulate\" steps through "
                     "time"),
                  methods, TerrainRiverErosion, method),
  TERRAIN_DOUBLE ("age", N_("Age (_K t)"),
                  N_("How long the rivers have cut, as iterations x erosion: 0 leaves the layer "
                     "as it is, large ages reach the steady state"),
                  0.0, TERRAIN_RIVER_MAX_AGE, TerrainRiverErosion, age),
  TERRAIN_INT ("iterations", N_("_Iterations"), N_("Time steps: more carve deeper valleys"), 1,
               TERRAIN_RIVER_MAX_ITERATIONS, TerrainRiverErosion, iterations),
  TERRAIN_DOUBLE ("erosion", N_("Erosio_n"), N_("How fast rivers cut down"), 0.0,
                  TERRAIN_RIVER_MAX_EROSION, TerrainRiverErosion, erosion),
  TERRAIN_DOUBLE ("area-exponent", N_("_Area weight"),
                  N_("How much more a river cuts as it gathers water: higher makes the main "
                     "valleys deeper than their side valleys"),
                  TERRAIN_RIVER_MIN_AREA_EXPONENT, TERRAIN_RIVER_MAX_AREA_EXPONENT,
                  TerrainRiverErosion, area_exponent),
  TERRAIN_DOUBLE ("slope-exponent", N_("Slope e_xponent"),
                  N_("How much more a river cuts where it is steep"),
                  TERRAIN_RIVER_MIN_SLOPE_EXPONENT, TERRAIN_RIVER_MAX_SLOPE_EXPONENT,
                  TerrainRiverErosion, slope_exponent),
  TERRAIN_DOUBLE ("diffusion", N_("So_ft hillsides"),
                  N_("How much the hillsides between the rivers round off at each step"),
                  0.0, TERRAIN_RIVER_MAX_DIFFUSION, TerrainRiverErosion, diffusion),
  TERRAIN_CHOICE ("uplift", N_("_Uplift"),
                  N_("\"None\" erodes the layer as it is; \"Layer\" reads it as where mountains "
                     "rise, and grows them with their rivers"),
                  uplifts,
                  TerrainRiverErosion, uplift),
  TERRAIN_CHOICE ("edges", N_("E_dges"),
                  N_("Where water leaves: at the layer's borders, or only at the sea, and the "
                     "result tiles (\"Wrap\", or \"Shared edge\" for game engines)"),
                  edges,
                  TerrainRiverErosion, edges),
  TERRAIN_DOUBLE ("sea-level", N_("S_ea level"),
                  N_("Heights at or below it are sea, where water leaves"),
                  TERRAIN_RIVER_MIN_SEA_LEVEL, TERRAIN_RIVER_MAX_SEA_LEVEL, TerrainRiverErosion,
                  sea_level),
  TERRAIN_BOOLEAN_ARG ("flow-layers", N_("Flow la_yers"),
                       N_("Also add layers above the active one: Flow (drainage area, "
                          "log-scaled), Erosion and Deposition (material removed and laid "
                          "down, white where the most)"),
                       0),
  TERRAIN_ARGS_END
};

static const TerrainArgCondition conditions[] = {
  TERRAIN_WHEN ("age", "method", "analytical"),
  TERRAIN_WHEN ("iterations", "method", "simulate"),
  TERRAIN_WHEN ("erosion", "method", "simulate"),
  TERRAIN_WHEN ("slope-exponent", "method", "simulate"),
  TERRAIN_CONDITIONS_END
};

static const TerrainArgSlider sliders[] = {
  TERRAIN_SLIDER ("age", 0, 30),
  TERRAIN_SLIDER ("iterations", 1, 300),
  TERRAIN_SLIDER ("erosion", 0, 1),
  TERRAIN_SLIDER ("diffusion", 0, 10),
  TERRAIN_SLIDERS_END
};

const TerrainProcedureInfo terrain_procedure_river_erosion = {
  .name = "plug-in-terrain-river-erosion",
  .menu_label = N_("_River Erosion..."),
  .blurb = N_("Carve river networks into the layer's heights by stream-power erosion"),
  .help = N_("Landscape evolution by the stream power law, dh/dt = U - K A^m S^n + D "
             "laplacian (h). Method \"analytical\" (the default) solves it for n = 1 at the "
             "age K t at once (after Tzathas, Gailleton, Steer and Cordonnier 2024): on the "
             "drainage network, a pixel's height is the one that started one travel "
             "time (the sum of step / A^m down its path) downstream, plus the uplift gathered "
             "since; the network is recomputed from the result for a few passes. It treats the "
             "slope exponent as 1 (use \"simulate\" for n other than 1); its uplift and "
             "diffusion are given per 0.1 of age (one default step), and the diffusion is "
             "applied in up to 4 implicit steps, each before its share of the age; eroding a "
             "layer, the first step is halved and the other half comes after the last share, "
             "which smooths away the one-pixel gullies the solution alone leaves; a pit it "
             "leaves on a river's bed is cut through (breached), not filled into a lake. Age 0 "
             "leaves the layer as it is (not even filled). Method \"simulate\" uses Braun and "
             "Willett's implicit O(n) method (2013) for iterations steps of K dt = erosion: each "
             "step routes water down one of the 8 neighbours, sums the drainage area "
             "A upstream, smooths hillslopes (diffusion, implicit), lifts the land (uplift "
             "\"layer\") and lets rivers cut down, from the outlets upstream, in proportion to "
             "erosion x A^m x slope^n. Both fill depressions once by priority-flood (Barnes, "
             "Lehman and Mulla 2014), so every pixel drains to an outlet and rivers never flow "
             "uphill. Water leaves a pixel down the steepest of its 8 neighbours or, by a fixed "
             "random choice, down the lower one beside it, the more often the more the slope "
             "points between the two (Rho8, Fairfield and Leymarie 1991), so that rivers do not "
             "run along the pixel grid; the flow map is that of steepest descent. erosion is K dt, area-exponent (\"Area weight\") m, slope-exponent n, and "
             "diffusion (\"Soft hillsides\") D, in millionths of the layer's longer side squared; "
             "with n = 1, m is the concavity of river profiles. Lengths are measured in the layer's longer side and areas in its square, "
             "so the same settings look alike at any size. Edges \"open\": water leaves at the "
             "layer's borders, which stay as they are; \"wrap\": the layer is periodic and the "
             "result tiles, water leaving where the height is at or below sea-level (else at "
             "the lowest pixel); \"shared-edge\": the same on the layer without its last "
             "row and column (which are not read), copied from the first row and column, so "
             "the result repeats every size - 1 pixels, as Unity's and Unreal's tiles do. Uplift \"none\" erodes the layer's heights in their own units; "
             "\"layer\" reads the layer as an uplift map (after Cordonnier et al. 2016): "
             "mountains grow where it is bright, with their rivers, from flat ground, and the "
             "result is stretched onto [0, 1]. With flow-layers, three layers come above the "
             "active one, of its size and precision: Flow, the drainage area log-scaled to "
             "[0, 1]; Erosion and Deposition, the material removed and laid down, scaled so "
             "that the most is white. The selection is honoured."),
  .kind = TERRAIN_FILTER,
  .args = args,
  .conditions = conditions,
  .sliders = sliders,
  TERRAIN_CORE_FIELDS (TerrainRiverErosion),
  .maps_arg = "flow-layers",
  .map_names = map_names,
  .render_maps = render_maps,
  .reduce = terrain_reduce_in_layer_units,
  .look_paint = true
};
