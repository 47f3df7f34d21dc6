/* plug-in-terrain-circles: descriptor. */
#include "displacement-args.h"

#include "circles.h"

TERRAIN_CORE (TerrainCircles, terrain_circles_defaults, terrain_circles)

static const TerrainChoiceItem directions[] = {
  { "random", N_("Random"), N_("Each circle raises or lowers at random") },
  { "raise",  N_("Raise"),  N_("Every circle raises the ground") },
  { "lower",  N_("Lower"),  N_("Every circle lowers the ground") },
  { NULL, NULL, NULL }
};

static const TerrainArg args[] = {
  TERRAIN_SEED (TerrainCircles, seed),
  TERRAIN_INT ("iterations", N_("_Iterations"), N_("Number of circles"), 1, 100000,
               TerrainCircles, iterations),
  TERRAIN_DOUBLE ("diameter", N_("Diame_ter"), N_("Size of every circle, in pixels"), 1.0,
                  100000.0, TerrainCircles, diameter),
  TERRAIN_CHOICE ("direction", N_("_Up or down"),
                  N_("Whether the circles raise or lower the ground, or each at random"),
                  directions, TerrainCircles, direction),
  TERRAIN_DISPLACEMENT_ARGS (TerrainCircles),
  TERRAIN_ARGS_END
};

static const TerrainArgSlider sliders[] = {
  TERRAIN_DISPLACEMENT_SLIDERS,
  TERRAIN_SLIDER ("diameter", 1, 512),
  TERRAIN_SLIDERS_END
};

const TerrainProcedureInfo terrain_procedure_circles = {
  .name = "plug-in-terrain-circles",
  .menu_label = N_("_Circles..."),
  .blurb = N_("Render rolling hills from random raised-cosine circles"),
  .help = N_("Circles algorithm (lighthouse3d terrain tutorial). Each iteration picks a random centre "
             "pixel and adds sign x (d/2 + cos(pi x 2r/diameter) x d/2) to every pixel at distance "
             "r <= diameter/2: a raised-cosine bump. The sign is random per circle, or always "
             "+ (\"raise\") or - (\"lower\"). d falls linearly from displacement-start to "
             "displacement-end over decay-iterations, then stays. Only each circle's bounding box "
             "is visited. The result is stretched onto [0, 1]."),
  .kind = TERRAIN_GENERATOR,
  .args = args,
  .sliders = sliders,
  TERRAIN_CORE_FIELDS (TerrainCircles)
};
