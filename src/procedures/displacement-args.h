/* The displacement schedule shared by fault formation and circles (lighthouse3d): the
 * displacement falls linearly from start to end over decay-iterations, then stays at end.
 * Both cores' parameters T have the fields displacement_start, displacement_end and
 * decay_iterations. */
#ifndef TERRAIN_DISPLACEMENT_ARGS_H
#define TERRAIN_DISPLACEMENT_ARGS_H

#include "procedure-info.h"

#define TERRAIN_DISPLACEMENT_ARGS(T)                                                        \
  TERRAIN_DOUBLE ("displacement-start", N_("_Displacement start"),                          \
                  N_("How much the first iterations raise and lower the ground; only its "  \
                     "ratio to the end matters, as the result fills the full range"),       \
                  0.0, 1e6, T, displacement_start),                                         \
  TERRAIN_DOUBLE ("displacement-end", N_("Displacement e_nd"),                              \
                  N_("How much the last iterations raise and lower the ground: smaller "    \
                     "than the start adds fine detail to large shapes"),                    \
                  0.0, 1e6, T, displacement_end),                                           \
  TERRAIN_INT ("decay-iterations", N_("Deca_y iterations"),                                 \
               N_("Over how many iterations the displacement falls from start to end"), 0,  \
               100000, T, decay_iterations)

/* Their sliders, and the iterations'. */
#define TERRAIN_DISPLACEMENT_SLIDERS                                                        \
  TERRAIN_SLIDER ("iterations", 1, 5000), TERRAIN_SLIDER ("displacement-start", 0, 10),     \
  TERRAIN_SLIDER ("displacement-end", 0, 10), TERRAIN_SLIDER ("decay-iterations", 0, 2000)

#endif
