/* plug-in-terrain-fault: descriptor. */
#include "displacement-args.h"

#include "fault.h"

enum { SEED, ITERATIONS, PROFILE, WAVE_SIZE, DISPLACEMENT };

static const TerrainChoiceItem profiles[] = {
  { "step",   N_("Step"),   N_("Raise one side of the line, lower the other") },
  { "sine",   N_("Sine"),   N_("A smooth ramp across the line") },
  { "cosine", N_("Cosine"), N_("A smooth ridge along the line") },
  { NULL, NULL, NULL }
};

static const TerrainArg args[] = {
  TERRAIN_SEED_ARG,
  TERRAIN_INT ("iterations", N_("Iterations"),
               N_("Number of random fault lines (1 to 100000)"), 1, 100000, 400),
  TERRAIN_CHOICE ("profile", N_("Profile"),
                  N_("Height change across a fault: \"step\", \"sine\" or \"cosine\""),
                  profiles, "step"),
  TERRAIN_DOUBLE ("wave-size", N_("Wave size"),
                  N_("Width of the sine ramp (pi/2 x wave size) and cosine ridge "
                     "(2 pi x wave size), in pixels (0.1 to 10000)"),
                  0.1, 10000.0, 3.0),
  TERRAIN_DISPLACEMENT_ARGS,
  TERRAIN_ARGS_END
};

static TerrainStatus
render (const TerrainArgValue *v, float *heights, int width, int height,
        const TerrainProgress *progress, char *why, size_t why_size)
{
  (void) why;
  (void) why_size;
  TerrainFault p;
  terrain_fault_defaults (&p);
  p.seed = (uint32_t) v[SEED].number;
  p.iterations = (int) v[ITERATIONS].number;
  p.profile = (TerrainFaultProfile) v[PROFILE].number;
  p.wave_size = v[WAVE_SIZE].number;
  TERRAIN_SET_DISPLACEMENT (p, v, DISPLACEMENT);
  return terrain_fault (&p, heights, width, height, progress);
}

static const TerrainArgCondition conditions[] = {
  { "wave-size", "profile", "sine cosine" },
  { NULL, NULL, NULL }
};

const TerrainProcedureInfo terrain_procedure_fault = {
  .name = "plug-in-terrain-fault",
  .menu_label = N_("Fault Formation..."),
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
  .render = render,
  .conditions = conditions
};
