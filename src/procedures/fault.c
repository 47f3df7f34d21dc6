/* plug-in-terrain-fault: descriptor. */
#include "displacement-args.h"

#include "fault.h"

TERRAIN_CORE (TerrainFault, terrain_fault_defaults, terrain_fault)

static const TerrainChoiceItem profiles[] = {
  { "step",   N_("Step"),   N_("Raise one side of the line, lower the other") },
  { "sine",   N_("Sine"),   N_("A smooth ramp across the line") },
  { "cosine", N_("Cosine"), N_("A smooth ridge along the line") },
  { NULL, NULL, NULL }
};

static const TerrainArg args[] = {
  TERRAIN_SEED (TerrainFault, seed),
  TERRAIN_INT ("iterations", N_("_Iterations"),
               N_("Number of random fault lines: more give finer, busier terrain"), 1, 100000,
               TerrainFault, iterations),
  TERRAIN_CHOICE ("profile", N_("Pro_file"),
                  N_("The shape across each fault line: a step (cliffs), a ramp (\"Sine\") or "
                     "a ridge (\"Cosine\")"),
                  profiles, TerrainFault, profile),
  TERRAIN_DOUBLE ("wave-size", N_("W_ave size"),
                  N_("How wide the ramps and ridges are, in pixels: larger is gentler"),
                  0.1, 10000.0, TerrainFault, wave_size),
  TERRAIN_DISPLACEMENT_ARGS (TerrainFault),
  TERRAIN_ARGS_END
};

static const TerrainArgCondition conditions[] = {
  TERRAIN_WHEN ("wave-size", "profile", "sine cosine"),
  TERRAIN_CONDITIONS_END
};

static const TerrainArgSlider sliders[] = {
  TERRAIN_DISPLACEMENT_SLIDERS,
  TERRAIN_SLIDER ("wave-size", 0.1, 100),
  TERRAIN_SLIDERS_END
};

const TerrainProcedureInfo terrain_procedure_fault = {
  .name = "plug-in-terrain-fault",
  .menu_label = N_("_Fault Formation..."),
  .blurb = N_("Render terrain by fault formation: plateaus, cliffs and ridges"),
  .help = N_("Fault formation (lighthouse3d terrain tutorial). Each iteration draws a random line "
             "a x + b y = c in normal form (a = cos w, b = sin w, c uniform within the half-diagonal "
             "of the layer, measured from its centre) and changes heights by its profile: \"step\" "
             "adds +d on one side and -d on the other; \"sine\" is a ramp from -d/2 to +d/2 over "
             "pi/2 x wave size pixels; \"cosine\" a ridge about 2 pi x wave size wide (the tutorial's "
             "two variations, without its -wave/width bias, which normalisation removes). d falls "
             "linearly from displacement-start to displacement-end over decay-iterations, then "
             "stays. The result is stretched onto [0, 1]."),
  .kind = TERRAIN_GENERATOR,
  .args = args,
  .conditions = conditions,
  .sliders = sliders,
  TERRAIN_CORE_FIELDS (TerrainFault)
};
