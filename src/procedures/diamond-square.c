/* plug-in-terrain-diamond-square: descriptor. */
#include "procedure-info.h"

#include "diamond-square.h"

extern const TerrainProcedureInfo terrain_procedure_diamond_square;

TERRAIN_CORE (TerrainDiamondSquare, terrain_diamond_square_defaults, terrain_diamond_square)

static const TerrainChoiceItem edges[] = {
  { "average", N_("Average"), N_("Border points average their 3 neighbours") },
  { "wrap",    N_("Wrap"),    N_("Tiles seamlessly at the layer's exact size") },
  { "mirror",  N_("Mirror"),  N_("The missing neighbour is reflected") },
  { "shared-edge", N_("Shared edge"),
    N_("Tiles with a period one pixel shorter than the layer: the last row and column equal "
       "the first, as game engines want of tiles that share their edge") },
  { NULL, NULL, NULL }
};

static const TerrainChoiceItem corners[] = {
  { "random", N_("Random"), N_("Corners get random heights") },
  { "fixed",  N_("Fixed"),  N_("Corners sit at the corner height") },
  { NULL, NULL, NULL }
};

static const TerrainChoiceItem subdivisions[] = {
  { "diamond-square", N_("Diamond-square"), N_("The classic: faint straight creases along the axes") },
  { "square-square",  N_("Square-square"),  N_("No creases, and a little smoother") },
  { NULL, NULL, NULL }
};

static const TerrainChoiceItem conventions[] = {
  { "hurst", N_("Large is rolling"),
    N_("Small roughness is jagged, large is rolling") },
  { "lighthouse-code", N_("Large is jagged (lighthouse3d code)"),
    N_("As the lighthouse3d tutorial's code: roughness from 0.5 to 2, larger is rougher") },
  { NULL, NULL, NULL }
};

static const TerrainArg args[] = {
  TERRAIN_SEED (TerrainDiamondSquare, seed),
  TERRAIN_DOUBLE ("roughness", N_("Smoo_thness"),
                  N_("Larger is smoother: small is jagged, large is rolling (the other way round "
                     "with smoothness type \"Large is jagged\"). The argument is named "
                     "roughness, as in the write-ups"),
                  0.0, 2.0, TerrainDiamondSquare, roughness),
  TERRAIN_CHOICE ("edges", N_("E_dges"),
                  N_("What happens at the layer's borders: \"Wrap\" makes a seamless tile, "
                     "\"Shared edge\" a tile whose last row and column repeat the first (for "
                     "game engines); \"Average\" and \"Mirror\" differ only along the border"),
                  edges, TerrainDiamondSquare, edges),
  TERRAIN_CHOICE ("corners", N_("Cor_ners"),
                  N_("Whether the layer's corners get random heights or all sit at the corner "
                     "height"),
                  corners, TerrainDiamondSquare, corners),
  TERRAIN_DOUBLE ("corner-height", N_("Corner he_ight"),
                  N_("Height of fixed corners: 0 is black, 1 is white"),
                  0.0, 1.0, TerrainDiamondSquare, corner_height),
  TERRAIN_CHOICE ("subdivision", N_("Su_bdivision"),
                  N_("\"Diamond-square\" shows faint straight creases along the axes; "
                     "\"Square-square\" has none and is a little smoother"),
                  subdivisions, TerrainDiamondSquare, subdivision),
  TERRAIN_CHOICE_ARG ("convention", N_("Smoothness t_ype"),
                      N_("Which way roughness goes: large is rolling, or, to reproduce the "
                         "lighthouse3d tutorial's code, large is jagged"),
                      conventions, "hurst"),
  TERRAIN_GUIDE_ARGS (TerrainDiamondSquare),
  TERRAIN_ARGS_END
};

/* The arguments no field holds: the roughness convention, and the guide. */
static TerrainStatus
adjust (void *params, const TerrainArgValue *values, const float *guide, int width, int height,
        char *why, size_t why_size)
{
  TerrainDiamondSquare *p = params;
  const TerrainProcedureInfo *info = &terrain_procedure_diamond_square;
  (void) width;
  (void) height;
  if (terrain_arg_value (info, values, "convention").number == 1) /* lighthouse-code */
    {
      if (p->roughness < 0.5)
        {
          terrain_why (why, why_size,
                       N_("roughness %g is below 0.5: with convention \"lighthouse-code\" "
                          "H = 1/roughness must stay within 2"),
                       p->roughness);
          return TERRAIN_ERROR_INVALID;
        }
      p->roughness = 1.0 / p->roughness;
      p->square_half_step = 0;
    }
  if (terrain_arg_value (info, values, "guide").number == 0.0)
    return TERRAIN_OK;
  if (p->subdivision != TERRAIN_SUBDIVISION_DIAMOND_SQUARE)
    {
      terrain_why (why, why_size, N_("guide works with subdivision \"diamond-square\" only"));
      return TERRAIN_ERROR_INVALID;
    }
  p->guide = guide;
  return TERRAIN_OK;
}

static const TerrainArgCondition conditions[] = {
  TERRAIN_WHEN ("corner-height", "corners", "fixed"),
  TERRAIN_WHEN_ON ("guide-scale", "guide"),
  TERRAIN_CONDITIONS_END
};

static const TerrainArgSlider sliders[] = {
  TERRAIN_SLIDER ("guide-scale", 1, 512),
  TERRAIN_SLIDERS_END
};

const TerrainProcedureInfo terrain_procedure_diamond_square = {
  .name = "plug-in-terrain-diamond-square",
  .menu_label = N_("_Diamond-Square..."),
  .blurb = N_("Render a fractal heightmap with the diamond-square algorithm"),
  .help = N_("Diamond-square subdivision (Fournier, Fussell & Carpenter 1982). Any layer size: a "
             "lattice of square cells covers the layer and is cropped (average, mirror) or, with "
             "\"wrap\", made periodic at the layer's exact size; \"shared-edge\" is wrap at one "
             "pixel less in each direction with the first row and column copied after it, so "
             "the last row and column equal the first (Unity's and Unreal's tiles). The random offset at each level is "
             "uniform in [-r, r]; r shrinks by 2^-H per level, H being roughness (the lighthouse3d "
             "page's convention; the square step between uses 2^-H/2), so roughness is the Hurst "
             "exponent H: small is jagged, large is rolling. Random values are a "
             "hash of seed and position: the same seed gives the same bits everywhere. Output fills "
             "[0, 1]; with fixed corners the corners sit at corner-height and the rest is clamped. "
             "subdivision \"square-square\" is Miller's 1986 scheme: each level's points are the "
             "9/16, 3/16, 3/16, 1/16 weights of the parent cell's corners plus noise, which removes "
             "diamond-square's creases along the axes (no border rule: average = mirror). "
             "convention \"lighthouse-code\" (smoothness type \"Large is jagged\") reproduces the "
             "lighthouse3d tutorial's mid-point displacement code: H = 1/roughness, roughness from "
             "0.5 to 2, and one offset range for both steps of a level; the tutorial page's own "
             "convention is the default \"hurst\" (H = roughness). With guide, the layer's current "
             "content is the coarse shape: lattice nodes every guide-scale pixels (rounded down to a "
             "power of two) take the layer's mean height around them, and only finer levels add "
             "random detail, scaled by roughness; the result is stretched onto [0, 1]."),
  .kind = TERRAIN_GENERATOR,
  .args = args,
  .conditions = conditions,
  .sliders = sliders,
  .guide_arg = "guide",
  TERRAIN_CORE_FIELDS (TerrainDiamondSquare),
  .adjust = adjust
};
