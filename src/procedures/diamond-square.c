/* plug-in-terrain-diamond-square: descriptor. */
#include "procedure-info.h"

#include "diamond-square.h"

#include <stdlib.h>

enum { SEED, ROUGHNESS, EDGES, CORNERS, CORNER_HEIGHT, SUBDIVISION, CONVENTION, GUIDE, GUIDE_SCALE };

static const TerrainChoiceItem edges[] = {
  { "average", N_("Average"), N_("Border points average their 3 neighbours") },
  { "wrap",    N_("Wrap"),    N_("Tiles seamlessly at the layer's exact size") },
  { "mirror",  N_("Mirror"),  N_("The missing neighbour is reflected") },
  { NULL, NULL, NULL }
};

static const TerrainChoiceItem corners[] = {
  { "random", N_("Random"), N_("Corners get random heights") },
  { "fixed",  N_("Fixed"),  N_("Corners sit at the corner height") },
  { NULL, NULL, NULL }
};

static const TerrainChoiceItem subdivisions[] = {
  { "diamond-square", N_("Diamond-square"), N_("Classic: old points stay; faint creases along the axes") },
  { "square-square",  N_("Square-square"),  N_("Miller 1986: B-spline weights, crease-free and smoother") },
  { NULL, NULL, NULL }
};

static const TerrainChoiceItem conventions[] = {
  { "hurst", N_("Hurst (H)"),
    N_("Roughness is H: offsets shrink by 2^-H per level (lighthouse3d page, seed 003)") },
  { "lighthouse-code", N_("Lighthouse3d code"),
    N_("Roughness r means H = 1/r (larger is rougher), one offset range for both steps of a "
       "level: the tutorial's shipped mid-point displacement") },
  { NULL, NULL, NULL }
};

static const TerrainArg args[] = {
  TERRAIN_SEED_ARG,
  TERRAIN_DOUBLE ("roughness", N_("Roughness (H)"),
                  N_("Hurst exponent H: the random offset shrinks by 2^-H per level; "
                     "small is spiky, large is rolling (0 to 2)"),
                  0.0, 2.0, 1.0),
  TERRAIN_CHOICE ("edges", N_("Edges"),
                  N_("How border points find their missing neighbour: \"average\", \"wrap\" "
                     "(seamless tile), \"mirror\""),
                  edges, "average"),
  TERRAIN_CHOICE ("corners", N_("Corners"),
                  N_("Heights of the coarse grid's corners: \"random\" or \"fixed\""),
                  corners, "random"),
  TERRAIN_DOUBLE ("corner-height", N_("Corner height"),
                  N_("Height of the corners when corners is \"fixed\", in output units (0 to 1)"),
                  0.0, 1.0, 0.5),
  TERRAIN_CHOICE ("subdivision", N_("Subdivision"),
                  N_("\"diamond-square\" or Miller's crease-free \"square-square\""),
                  subdivisions, "diamond-square"),
  TERRAIN_CHOICE ("convention", N_("Roughness convention"),
                  N_("How roughness is read: \"hurst\" (H) or \"lighthouse-code\" (H = 1/r, "
                     "r from 0.5 to 2; the lighthouse3d tutorial's mid-point displacement)"),
                  conventions, "hurst"),
  TERRAIN_GUIDE_ARGS,
  TERRAIN_ARGS_END
};

static TerrainStatus
check (const TerrainArgValue *v, int width, int height, char *why, size_t why_size)
{
  (void) width;
  (void) height;
  if (v[CONVENTION].number == 1 && v[ROUGHNESS].number < 0.5) /* lighthouse-code */
    {
      terrain_why (why, why_size,
                   N_("roughness %g is below 0.5: with convention \"lighthouse-code\" "
                      "H = 1/roughness must stay within 2"),
                   v[ROUGHNESS].number);
      return TERRAIN_ERROR_INVALID;
    }
  if (v[GUIDE].number != 0.0 && v[SUBDIVISION].number != TERRAIN_SUBDIVISION_DIAMOND_SQUARE)
    {
      terrain_why (why, why_size, N_("guide works with subdivision \"diamond-square\" only"));
      return TERRAIN_ERROR_INVALID;
    }
  return TERRAIN_OK;
}

static TerrainStatus
render (const TerrainArgValue *v, float *heights, int width, int height,
        const TerrainProgress *progress, char *why, size_t why_size)
{
  TerrainStatus status = check (v, width, height, why, why_size);
  if (status != TERRAIN_OK)
    return status;
  TerrainDiamondSquare p;
  terrain_diamond_square_defaults (&p);
  p.seed = (uint32_t) v[SEED].number;
  p.roughness = v[ROUGHNESS].number;
  p.subdivision = (TerrainSubdivision) v[SUBDIVISION].number;
  if (v[CONVENTION].number == 1) /* lighthouse-code */
    {
      p.roughness = 1.0 / p.roughness;
      p.square_half_step = 0;
    }
  p.edges = (TerrainEdges) v[EDGES].number;
  p.corners = (TerrainCorners) v[CORNERS].number;
  p.corner_height = v[CORNER_HEIGHT].number;
  if (v[GUIDE].number == 0.0)
    return terrain_diamond_square (&p, heights, width, height, progress);

  /* heights holds the layer: keep it as the guide while the result overwrites it. */
  float *guide = terrain_heights_copy (heights, width, height);
  if (guide == NULL)
    return TERRAIN_ERROR_NO_MEMORY;
  p.guide = guide;
  p.guide_scale = (int) v[GUIDE_SCALE].number;
  status = terrain_diamond_square (&p, heights, width, height, progress);
  free (guide);
  return status;
}

static const TerrainArgCondition conditions[] = {
  { "corner-height", "corners", "fixed" },
  { "guide-scale", "guide", "TRUE" },
  { NULL, NULL, NULL }
};

const TerrainProcedureInfo terrain_procedure_diamond_square = {
  .name = "plug-in-terrain-diamond-square",
  .menu_label = N_("Diamond-Square..."),
  .blurb = N_("Render a fractal heightmap with the diamond-square algorithm"),
  .help = N_("Diamond-square subdivision (Fournier, Fussell & Carpenter 1982). Any layer size: a "
             "lattice of square cells covers the layer and is cropped (average, mirror) or, with "
             "\"wrap\", made periodic at the layer's exact size. The random offset at each level is "
             "uniform in [-r, r]; r shrinks by 2^-H per level (the lighthouse3d page's convention; "
             "the square step between uses 2^-H/2), so H is the Hurst exponent. Random values are a "
             "hash of seed and position: the same seed gives the same bits everywhere. Output fills "
             "[0, 1]; with fixed corners the corners sit at corner-height and the rest is clamped. "
             "subdivision \"square-square\" is Miller's 1986 scheme: each level's points are the "
             "9/16, 3/16, 3/16, 1/16 weights of the parent cell's corners plus noise, which removes "
             "diamond-square's creases along the axes (no border rule: average = mirror). "
             "convention \"lighthouse-code\" reproduces the lighthouse3d tutorial's mid-point "
             "displacement code: H = 1/roughness and one offset range per level; the tutorial "
             "page's own convention is the default \"hurst\". With guide, the layer's current "
             "content is the coarse shape: lattice nodes every guide-scale pixels (rounded down to a "
             "power of two) take the layer's mean height around them, and only finer levels add "
             "random detail, scaled by roughness; the result is stretched onto [0, 1]."),
  .kind = TERRAIN_GENERATOR,
  .args = args,
  .render = render,
  .conditions = conditions,
  .guide_arg = "guide",
  .check = check
};
