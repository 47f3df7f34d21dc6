/* The parameter limits of the iterated-displacement generators (fault formation, circles).
 */
#ifndef TERRAIN_DISPLACEMENT_H
#define TERRAIN_DISPLACEMENT_H

#define TERRAIN_DISPLACEMENT_MAX_ITERATIONS 100000
/* Largest displacement_start / displacement_end. Only their ratio shapes a normalised
 * result; the bound keeps every raw sum far from float overflow. */
#define TERRAIN_DISPLACEMENT_MAX            1e6

#endif
