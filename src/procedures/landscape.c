/* plug-in-terrain-landscape: descriptor. No render_rect: the stretch and the erosion look at
 * the whole layer, so the layer is rendered in one piece. */
#include "procedure-info.h"

#include "landscape.h"

TERRAIN_CORE (TerrainLandscape, terrain_landscape_defaults, terrain_landscape)

static const TerrainChoiceItem presets[] = {
  { "alpine",        N_("Alpine"),
    N_("Sharp ridges over branching valleys cut by rivers, every valley draining") },
  { "rolling-hills", N_("Rolling hills"),
    N_("Gentle rounded hills within a middle band of heights") },
  { "islands",       N_("Islands"),
    N_("Land in the middle of the layer, flat sea floor at its edges") },
  { "mesa",          N_("Mesa"),
    N_("Plateaus on several levels with escarpments between them, cut by canyons") },
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
  TERRAIN_INT ("feature-size", N_("_Feature size (0: a quarter of the layer)"),
               N_("Size of the largest mountains, hills, islands or tables, in pixels (16 or "
                  "more), or 0 for a quarter of the layer's size: a layer twice as large at "
                  "twice the feature size is the same landscape with finer detail"),
               TERRAIN_LANDSCAPE_FEATURE_SIZE_LAYER, TERRAIN_LANDSCAPE_MAX_FEATURE_SIZE,
               TerrainLandscape, feature_size),
  TERRAIN_ARGS_END
};

/* The feature sizes between 0 (the layer's) and the least, refused with their reason. */
static TerrainStatus
adjust (void *params, const TerrainArgValue *values, const float *guide, int width, int height,
        char *why, size_t why_size)
{
  const TerrainLandscape *p = params;
  (void) values;
  (void) guide;
  (void) width;
  (void) height;
  if (p->feature_size == TERRAIN_LANDSCAPE_FEATURE_SIZE_LAYER ||
      p->feature_size >= TERRAIN_LANDSCAPE_MIN_FEATURE_SIZE)
    return TERRAIN_OK;
  terrain_why (why, why_size,
               N_("feature size %d is below %d pixels: give 0 for a quarter of the layer's size"),
               p->feature_size, TERRAIN_LANDSCAPE_MIN_FEATURE_SIZE);
  return TERRAIN_ERROR_INVALID;
}

static const TerrainArgSlider sliders[] = {
  TERRAIN_SLIDER ("feature-size", 0, 2048),
  TERRAIN_SLIDERS_END
};

const TerrainProcedureInfo terrain_procedure_landscape = {
  .name = "plug-in-terrain-landscape",
  .menu_label = N_("_Landscape Preset..."),
  .blurb = N_("Render a ready-made landscape: alpine, rolling hills, islands, mesa or river valleys"),
  /* xgettext:no-c-format */
  .help = N_("One-click landscapes built from the processes that make such land. They run on a "
             "coarse grid of about 64 cells per feature size F (cells of q pixels, q a power of "
             "two, with a margin beyond the layer's border), so a layer twice as large at twice "
             "the feature size is the same landscape with finer detail. F is feature-size, or "
             "at its default 0 a quarter of the layer's size, sqrt (width x height) / 4 rounded "
             "(at least 16): 256 pixels on 1024 x 1024, 1024 on 4096 x 4096, the same "
             "landscape at every layer size. The coarse grid is then "
             "interpolated (cubic B-spline) and finer features added where the land is steep, "
             "from octaves of smooth noise whose grids do not line up (no lattice shows), none on valley floors, flats and sea. Rivers: River Erosion's simulation "
             "(erosion 0.2 per step, uplift none, open edges), every cell draining. Where a cell "
             "is more than 4 pixels, alpine and river-valleys then cut that detail into gullies "
             "with River Erosion's analytical method (age 0.3) on a grid of a quarter of a "
             "cell. \"alpine\": "
             "field of roughness 0.7, curve b^1.5, rivers for 35 steps: sharp crests between "
             "drained, branching valleys. \"rolling-hills\": field of roughness 1.2, Laplacian "
             "smoothing (16 iterations on the grid), heights in the band 0.3..0.6: soft rounded "
             "hills. \"islands\": field of roughness 1 minus a radial falloff (0.8 r^2, and up to 1 "
             "more towards the layer's border), sea level at the height 22% of the grid lies "
             "above, rivers for 40 steps draining the land into the sea; land rises from the "
             "coast at 0.2 to 1, the sea falls over a shallow shelf to a flat floor at 0.1, which "
             "covers the whole border. \"mesa\": field of roughness 1, "
             "rivers for 40 steps (the canyons), then strata: 4 steps of the curve b^1.5, treads "
             "near 0, 0.25, 0.5, 0.75 and 1 joined by escarpments. \"river-valleys\": field of "
             "roughness 1, rivers for 75 steps with softer hillsides: branching valleys cut into "
             "the ranges. Deterministic: the same seed, preset, feature size and layer size give "
             "the same heights; the stretch to the full range looks at the whole layer, so "
             "neighbouring layers do not join. Tune the result further with the other filters."),
  .kind = TERRAIN_GENERATOR,
  .args = args,
  .sliders = sliders,
  TERRAIN_CORE_FIELDS (TerrainLandscape),
  .adjust = adjust
};
