/* The displacement schedule shared by fault formation and circles (lighthouse3d): the
 * displacement falls linearly from start to end over decay-iterations, then stays at end. */
#ifndef TERRAIN_DISPLACEMENT_ARGS_H
#define TERRAIN_DISPLACEMENT_ARGS_H

#include "procedure-info.h"

#define TERRAIN_DISPLACEMENT_ARGS                                                          \
  TERRAIN_DOUBLE ("displacement-start", N_("Displacement start"),                         \
                  N_("Height change of the first iteration, raw units (0 to 1000000)"),   \
                  0.0, 1e6, 1.0),                                                         \
  TERRAIN_DOUBLE ("displacement-end", N_("Displacement end"),                             \
                  N_("Height change once the decay is over, raw units (0 to 1000000)"),   \
                  0.0, 1e6, 0.1),                                                         \
  TERRAIN_INT ("decay-iterations", N_("Decay iterations"),                                \
               N_("Iterations over which the displacement falls from start to end "       \
                  "(0 to 100000)"),                                                       \
               0, 100000, 100)

/* Copies the three schedule values, starting at argument index `first`, into a core
 * params struct with fields displacement_start, displacement_end, decay_iterations. */
#define TERRAIN_SET_DISPLACEMENT(params, values, first)                                    \
  do                                                                                       \
    {                                                                                      \
      (params).displacement_start = (values)[(first)].number;                              \
      (params).displacement_end = (values)[(first) + 1].number;                            \
      (params).decay_iterations = (int) (values)[(first) + 2].number;                      \
    }                                                                                      \
  while (0)

#endif
