/* plug-in-terrain-particles: descriptor. */
#include "procedure-info.h"

#include "particles.h"

TERRAIN_CORE (TerrainParticles, terrain_particles_defaults, terrain_particles)

static const TerrainChoiceItem modes[] = {
  { "roll",  N_("Roll"),  N_("A particle rolls to its lowest lower neighbour: smooth slopes") },
  { "stick", N_("Stick"), N_("A particle stays where it lands: rough peaks") },
  { NULL, NULL, NULL }
};

static const TerrainArg args[] = {
  TERRAIN_SEED (TerrainParticles, seed),
  TERRAIN_INT ("particles", N_("_Number of particles"), N_("How many particles are dropped"), 1, 100000000,
               TerrainParticles, particles),
  TERRAIN_CHOICE ("mode", N_("Mo_de"),
                  N_("What a landed particle does: roll down to a lower spot (smooth slopes) or "
                     "stick (rough peaks)"),
                  modes, TerrainParticles, mode),
  TERRAIN_INT ("sites", N_("Drop s_ites"),
               N_("How many places particles fall on: each grows a mountain or an island"), 1,
               1000000,
               TerrainParticles, sites),
  TERRAIN_DOUBLE ("particle-height", N_("P_article height"),
                  N_("How much one particle raises the ground; it matters only with a crater, "
                     "as the result fills the full range"),
                  0.001, 1e6, TerrainParticles, particle_height),
  TERRAIN_DOUBLE ("caldera", N_("Crater dep_th"),
                  N_("Depth of a volcanic crater in each peak, as a share of the peak's height "
                     "(0: none)"),
                  0.0, 1.0, TerrainParticles, caldera),
  TERRAIN_ARGS_END
};

static const TerrainArgSlider sliders[] = {
  TERRAIN_SLIDER ("particles", 1, 5000000),
  TERRAIN_SLIDER ("sites", 1, 50),
  TERRAIN_SLIDER ("particle-height", 0.001, 10),
  TERRAIN_SLIDERS_END
};

const TerrainProcedureInfo terrain_procedure_particles = {
  .name = "plug-in-terrain-particles",
  .menu_label = N_("_Particle Deposition..."),
  .blurb = N_("Render volcanic cones, dunes and islands by particle deposition"),
  .help = N_("Particle deposition (lighthouse3d tutorial, after Shankel, Game Programming Gems). "
             "From each drop site a walk moves one step in one of 4 directions per particle "
             "(wrapping around the layer) and drops a particle. In \"roll\" mode a particle moves "
             "to the lowest of its 8 neighbours while that is lower, until stable; the tutorial's "
             "code tested only the 4 diagonals and took the last lower one: fixed here, ties broken "
             "at random. Heights are exact particle counts; total mass is particles x "
             "particle-height. A caldera mirrors the peak above (1 - caldera/2) x peak about that "
             "rim, making a crater (\"Crater depth\"). The result is stretched onto [0, 1]."),
  .kind = TERRAIN_GENERATOR,
  .args = args,
  .sliders = sliders,
  TERRAIN_CORE_FIELDS (TerrainParticles)
};
