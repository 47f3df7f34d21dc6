/* plug-in-terrain-landscape: descriptor. No render_rect: the stretch and the erosion look at
 * the whole layer, so the layer is rendered in one piece. */
#include "procedure-info.h"

#include "landscape.h"

TERRAIN_CORE (TerrainLandscape, terrain_landscape_defaults, terrain_landscape)

static const TerrainChoiceItem presets[] = {
  { "alpine",        N_("Alpine"),
    N_("Sharp ridges and peaks over broad valleys, with scree slopes") },
  { "rolling-hills", N_("Rolling hills"),
    N_("Gentle rounded hills within a middle band of heights") },
  { "islands",       N_("Islands"),
    N_("Land in the middle of the layer, flat sea floor at its edges") },
  { "mesa",          N_("Mesa"),
    N_("Flat-topped tables and terraces with steep cliffs and talus at their feet") },
  { "river-valleys", N_("River valleys"),
    N_("Mountain ranges cut by branching river valleys that drain to the layer's edges") },
  { NULL, NULL, NULL }
};

static const TerrainArg args[] = {
  TERRAIN_SEED (TerrainLandscape, seed),
  TERRAIN_CHOICE ("preset", N_("Prese_t"),
                  N_("The kind of landscape: alpine, rolling hills, islands, mesa or "
                     "river valleys"),
                  presets, TerrainLandscape, preset),
  TERRAIN_INT ("feature-size", N_("_Feature size"),
               N_("Size of the largest mountains, hills, islands or tables, in pixels: the "
                  "landscape looks the same at any size"),
               TERRAIN_LANDSCAPE_MIN_FEATURE_SIZE, TERRAIN_LANDSCAPE_MAX_FEATURE_SIZE,
               TerrainLandscape, feature_size),
  TERRAIN_ARGS_END
};

static const TerrainArgSlider sliders[] = {
  TERRAIN_SLIDER ("feature-size", 16, 2048),
  TERRAIN_SLIDERS_END
};

const TerrainProcedureInfo terrain_procedure_landscape = {
  .name = "plug-in-terrain-landscape",
  .menu_label = N_("_Landscape Preset..."),
  .blurb = N_("Render a ready-made landscape: alpine, rolling hills, islands, mesa or river valleys"),
  /* xgettext:no-c-format */
  .help = N_("One-click landscapes composed from the other procedures' parts: the infinite field "
             "(iterations round(log2(feature-size)), stretched to the full range by its minimum and "
             "maximum), a height curve, then smoothing, thermal or river erosion; slopes and smoothing "
             "lengths are relative to F, the feature size (at most the layer's longer side), so a "
             "preset looks the same at any scale. \"alpine\": field of roughness 0.8, curve b^1.5 "
             "times a ridge mask 0.2 + 0.8 r^2, r = 1 - |2c - 1| from a second field c (roughness "
             "1.1, two iterations fewer), then thermal erosion (30 iterations, talus 4/F) and a "
             "stretch to [0, 1]: sharp crests and peaks, broad valleys, scree. \"rolling-hills\": "
             "field of roughness 0.85 compressed into the band 0.3..0.6, then FIR smoothing (2 "
             "iterations, k = 1/(1 + F/24)): rounded hills, no summits, no deep valleys. "
             "\"islands\": field of roughness 1 minus a radial falloff (0.8 r^2, and up to 1 more "
             "towards the layer's border), sea level at the height 22% of the layer lies above; land "
             "rises from the coast at 0.2 to 1, the sea falls over a shallow shelf to a flat floor "
             "at 0.1, which covers the whole border. \"mesa\": field of roughness 1.4, curve b^1.5, "
             "quantised into 4 steps with a narrow smooth-step between levels (flat tops and floors "
             "at 0, 0.25, 0.5, 0.75, 1, steep cliffs), then thermal erosion (20 iterations, talus "
             "16/F) for talus at the cliff feet. \"river-valleys\": field of roughness 1.2, stretched, as "
             "the uplift map of River Erosion (analytical, age 200, diffusion 3, open edges): "
             "mountain ranges where the field is high, cut by dendritic valleys that drain to the "
             "layer's border, every pixel draining; several times slower than the other presets. "
             "Deterministic: the same seed, preset, feature size "
             "and layer size give the same heights; the stretch and the erosion look at the whole "
             "layer, so neighbouring layers do not join. Tune the result further with the other "
             "filters."),
  .kind = TERRAIN_GENERATOR,
  .args = args,
  .sliders = sliders,
  TERRAIN_CORE_FIELDS (TerrainLandscape)
};
