/* Drainage recomputed from heights (8 neighbours, steepest descent), independently of the
 * library's river code. Open maps drain off their border; wrapped maps are tori. */
#ifndef TESTS_DRAINAGE_H
#define TESTS_DRAINAGE_H

/* The index of neighbour k (0..7; 0..3 the straight ones) of (x, y), or -1 off an open map. */
long    drainage_neighbour (int w, int h, int wrap, int x, int y, int k);

/* Outlets as river-erosion.h defines them: the border of an open map, cells at or below
 * sea, and the cell `lowest` (-1: none). */
int     drainage_is_outlet (const float *f, int w, int h, int wrap, float sea, long lowest, int x,
                            int y);

/* Non-outlet cells with no strictly lower neighbour. */
long    drainage_pits (const float *f, int w, int h, int wrap, float sea, long lowest);

/* Steepest-descent receivers (-1: none) of the non-outlets of an open map, or of every
 * cell of a wrapped one; free () the result. */
long   *drainage_receivers (const float *f, int w, int h, int wrap);

/* Drainage area in cells through the receivers r; free () the result. */
double *drainage_area (const float *f, const long *r, int w, int h);

/* Least-squares slope of log S against log A over the channel cells (area >= min_area) of
 * an open map: -m / n for a landscape that follows the stream power law. */
double  drainage_slope_area_exponent (const float *f, int w, int h, double min_area, int *cells);

#endif
