/* The displacement schedule shared by fault formation and circles (lighthouse3d): the
 * displacement falls linearly from start to end over decay-iterations, then stays at end.
 * Both cores' parameters T have the fields displacement_start, displacement_end and
 * decay_iterations. */
#ifndef TERRAIN_DISPLACEMENT_ARGS_H
#define TERRAIN_DISPLACEMENT_ARGS_H

#include "procedure-info.h"

#define TERRAIN_DISPLACEMENT_ARGS(T)                                                        \
  TERRAIN_DOUBLE ("displacement-start", N_("Displacement start"),                           \
                  N_("Height change of the first iteration, raw units"), 0.0, 1e6, T,       \
                  displacement_start),                                                      \
  TERRAIN_DOUBLE ("displacement-end", N_("Displacement end"),                               \
                  N_("Height change once the decay is over, raw units"), 0.0, 1e6, T,       \
                  displacement_end),                                                        \
  TERRAIN_INT ("decay-iterations", N_("Decay iterations"),                                  \
               N_("Iterations over which the displacement falls from start to end"), 0,     \
               100000, T, decay_iterations)

#endif
