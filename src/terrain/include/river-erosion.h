/* River erosion: stream-power landscape evolution (fluvial incision with hillslope
 * diffusion, optionally driven by tectonic uplift). Rivers carve dendritic valleys, and
 * every cell of the result drains to an outlet: water never stops in a pit. Works in place
 * on a float heightmap of any finite values; finite input always gives finite output.
 *
 * Conventions (documented in the procedure's help):
 *  - Units: heights are in layer units (nominally 0..1). Lengths are in units of the map's
 *    larger side L (a pixel step is 1 / L long, a diagonal one sqrt 2 / L) and drainage
 *    area in units of L^2 (on a square map: the fraction of the map that drains through a
 *    cell), so a 512 x 512 and a 2048 x 2048 version of an input, with the same parameters,
 *    give alike landscapes.
 *  - Outlets (base level): with open edges the border cells, and every cell at or below
 *    sea_level; with wrapped edges the map is a torus (the neighbours of the last column
 *    are in the first, and so for rows: the result tiles, and rivers cross the borders),
 *    and the outlets are the cells at or below sea_level, or, when there are none, the
 *    single lowest cell (the first in row-major order among equals). Outlets keep their
 *    heights: they neither erode nor rise. With shared edges the map is a torus of
 *    (width - 1) x (height - 1) cells, the input without its last column and row (which are
 *    not read, but must be finite), treated as wrapped; the result's last column and row
 *    are copies of its first (a side of 1 has period 1), as game engines want of tiles
 *    that share their border. The maps are made the same way. With uplift from the layer, "at or below
 *    sea_level" and "lowest" are of the uplift map, and outlets stay at height 0.
 *  - Depressions: before the first step they are filled by priority-flood with epsilon
 *    (Barnes, Lehman & Mulla 2014, Computers & Geosciences 62): a cell with no way down is
 *    raised to the float just above the cell it spills to, plus 0 to 7 more floats (a fixed
 *    pseudo-random number per cell, so that the filled flats drain along branching lines,
 *    not the straight parallel ones of a plain epsilon); a map that drains already is left
 *    as it is. Every non-outlet cell then has a strictly lower neighbour, and the steps
 *    keep it so (step 5): the result has no pit. The analytical method's last diffusion,
 *    eroding a layer, leaves some on the channels' beds: each is breached (Lindsay 2016,
 *    Hydrological Processes 30(6)): the cells on its way down (where a flood from it
 *    crosses its rim) are lowered onto a line to the first cell below it, their neighbours
 *    by half as much, the land within 2 cells of the cuts is rounded by a little diffusion,
 *    and the pits that leaves are breached again. A last check fills any left.
 *  - One step (Braun & Willett 2013, "A very efficient O(n), implicit and parallel method
 *    to solve the stream power equation", Geomorphology 180-181):
 *     1. every non-outlet cell's receiver is its neighbour of steepest descent (8
 *        neighbours, diagonal distance sqrt 2; among exactly equal slopes a fixed
 *        pseudo-random preference of the cell), or, by Rho8 (Fairfield & Leymarie 1991,
 *        Water Resources Research 27(5)), the lower of the two neighbours beside it (45
 *        degrees either side) by a fixed pseudo-random choice of the cell whose odds grow
 *        from 0, where the gradient is within a degree of the steepest direction, to 1/2,
 *        where it points between the two: on average the receivers follow the gradient, and
 *        the valleys do not line up with the grid. The receiver of the step before is kept
 *        while it is still one of the three and lower (else the choice flips with every
 *        small change of the slopes and the run never settles);
 *     2. the cells are ordered receivers first, and the drainage area A of every cell (its
 *        own area and all that drains into it) is summed from the sources down;
 *     3. hillslope diffusion dh/dt = D laplacian (h): one implicit (unconditionally stable)
 *        backward-Euler step split along rows, then columns (lines shorter than 3 cells are
 *        left as they are);
 *     4. uplift (from the layer): every non-outlet cell rises by its uplift;
 *     5. stream-power incision dh/dt = -K A^m S^n, solved implicitly from the outlets
 *        upstream with the receivers of step 1, S = (h - h_receiver) / d, K dt = erosion:
 *          h <- (h + F h_r) / (1 + F),  F = erosion A^m / d^n                 for n = 1,
 *        for n != 1 the root of h - h_old + F (h - h_r)^n = 0 between h_r and h_old
 *        (Newton-Raphson kept inside that bracket). Incision never takes a cell below
 *        sea_level (uplift none); and every cell ends at least a float above its
 *        receiver's new height: one that diffusion or uneven uplift left at or below it is
 *        raised so (counted as deposition).
 *    Braun & Willett likewise lift before they incise; a run ends on incision, so the
 *    channels of the result are as sharp as the stream-power law makes them. With
 *    diffusion the last step is taken in parts of 1/2, 1/4, ... 1/2^k and 1/2^k of a step
 *    (erosion, diffusion and uplift scaled alike; k >= 4, and until a part's diffusion is
 *    at most 1/8 pixel^2): a whole last step leaves every hillside cell a groove one pixel
 *    wide, the grain of the result, which a part's diffusion rounds in the next part.
 *  - Uplift none: the layer's heights are eroded and stay in its units (no normalisation).
 *    Uplift from the layer (after Cordonnier, Braun, Cani, Benes, Galin, Peytavie & Guerin
 *    2016, "Large Scale Terrain Generation from Tectonic Uplift and Fluvial Erosion",
 *    Computer Graphics Forum 35(2)): the layer is the uplift U per step (clamped to 0..1:
 *    paint where mountains rise); the terrain starts flat at 0 plus a fixed perturbation of
 *    about 1e-4 (from the project's hash) that breaks ties, rises by U each step while the
 *    rivers cut into it, and the result is stretched onto [0, 1] like a generator's (at
 *    steady state the channels follow S = (U / K)^(1/n) A^(-m/n)).
 *  - Maps (each optional, width x height, all finite):
 *     flow:       drainage area of the result (receivers of steepest descent on the final
 *                 heights, without Rho8), log-scaled:
 *                 log (A in cells) / log (cells of the map), in [0, 1]: 0 on ridges, 1
 *                 where the whole map drains through (a 1-cell map: 1);
 *     erosion:    the height removed from each cell over the run (>= 0): the sum over
 *                 the steps of each step's loss to incision and diffusion together;
 *     deposition: the height added to each cell over the run (>= 0): depression filling
 *                 (lake beds), and the sum of each step's gain from diffusion (slope feet,
 *                 valley floors) and the raises of step 5. No sediment transport is
 *                 modelled beyond these.
 *    A step's change is counted once, net of its incision and diffusion (uplift left out):
 *    what diffusion brings into a channel and the incision takes out again is neither.
 *    erosion and deposition are in the output's height units (with uplift from the layer,
 *    scaled like the heights by the final normalisation).
 *  - Determinism: no random seed; the result is a function of the input and the
 *    parameters, bit-identical for any thread count.
 *  - Where float runs out (found by fuzzing; the fuzz harness allows for these): a cell at
 *    FLT_MAX whose neighbours are at FLT_MAX too has no float above its receiver, so it
 *    cannot be made to drain (a wrapped ring of heights up to FLT_MAX left cells so); a
 *    change beyond FLT_MAX saturates the erosion and deposition maps, whose difference is
 *    then not the change; with uplift from the layer and every cell an outlet, nothing
 *    rises and the normalisation of a flat map gives 0.5 everywhere, not 0. Maps beyond
 *    2^64 in magnitude are worked on scaled down by a power of two, keeping the order of
 *    any two values and the side of the sea level each is on; cells the run leaves as they
 *    were get their input back.
 */
#ifndef TERRAIN_RIVER_EROSION_H
#define TERRAIN_RIVER_EROSION_H

#include "terrain-types.h"

typedef enum
{
  TERRAIN_RIVER_METHOD_ANALYTICAL, /* the stream power law's solution at the age (n as 1) */
  TERRAIN_RIVER_METHOD_SIMULATE    /* Braun & Willett's implicit steps */
} TerrainRiverMethod;

typedef enum
{
  TERRAIN_RIVER_UPLIFT_NONE, /* erode the layer's heights */
  TERRAIN_RIVER_UPLIFT_LAYER /* the layer is the uplift map; the terrain grows from flat */
} TerrainRiverUplift;

typedef enum
{
  TERRAIN_RIVER_EDGES_OPEN, /* water leaves at the layer's borders (fixed base level) */
  TERRAIN_RIVER_EDGES_WRAP, /* the map is periodic: the result tiles */
  TERRAIN_RIVER_EDGES_SHARED_EDGE /* wrap with period width - 1, height - 1: the last column
                                     and row equal the first (game engines' tiles) */
} TerrainRiverEdges;

#define TERRAIN_RIVER_MAX_ITERATIONS      10000
#define TERRAIN_RIVER_MAX_AGE             1000000.0 /* iterations x erosion at most */
/* The analytical method's uplift and diffusion are given per this much age: a default
 * step of the simulation (erosion 0.1). */
#define TERRAIN_RIVER_AGE_PER_STEP        0.1
#define TERRAIN_RIVER_MAX_EROSION         100.0
#define TERRAIN_RIVER_MIN_AREA_EXPONENT   0.0
#define TERRAIN_RIVER_MAX_AREA_EXPONENT   2.0
#define TERRAIN_RIVER_MIN_SLOPE_EXPONENT  0.5
#define TERRAIN_RIVER_MAX_SLOPE_EXPONENT  4.0
#define TERRAIN_RIVER_MAX_DIFFUSION       100.0
#define TERRAIN_RIVER_MIN_SEA_LEVEL       0.0
#define TERRAIN_RIVER_MAX_SEA_LEVEL       1.0

typedef struct
{
  TerrainRiverMethod method;
  double             age;            /* analytical: the erosion time K t, in the units of
                                      * iterations x erosion, 0..TERRAIN_RIVER_MAX_AGE */
  int                iterations;     /* time steps, 1..TERRAIN_RIVER_MAX_ITERATIONS */
  double             erosion;        /* K dt: stream-power strength per step,
                                      * 0..TERRAIN_RIVER_MAX_EROSION, in height units per
                                      * step at A = S = 1 (0: no incision) */
  double             area_exponent;  /* m, TERRAIN_RIVER_MIN/MAX_AREA_EXPONENT (0..2); the
                                      * river profiles' concavity is m / n */
  double             slope_exponent; /* n, TERRAIN_RIVER_MIN/MAX_SLOPE_EXPONENT (0.5..4) */
  double             diffusion;      /* D dt: hillslope diffusion per step,
                                      * 0..TERRAIN_RIVER_MAX_DIFFUSION, in millionths of
                                      * L^2 (at 1024 x 1024 about pixels^2 per step) */
  TerrainRiverUplift uplift;
  TerrainRiverEdges  edges;
  double             sea_level;      /* 0..1 layer units: cells at or below it are outlets
                                      * (of the uplift map, with uplift from the layer) */
  int                whole_last_step; /* simulate, with diffusion: 0 (the default) takes the
                                       * last step in halving parts, which leave no grain
                                       * (river-erosion.c); 1 whole, as the landscape
                                       * presets were made with. Not a procedure argument. */
} TerrainRiverErosion;

/* Optional outputs: each NULL, or width * height floats (see above). */
typedef struct
{
  float *flow, *erosion, *deposition;
} TerrainRiverMaps;

/* The analytical method at age 3 (simulated: 30 iterations, erosion 0.1), m 0.5, n 1, diffusion 1, uplift none, open edges, sea level
 * 0: on a diamond-square layer, a dendritic network of valleys cut into the relief, with
 * hillslopes smoothed over a few pixels at 1024 x 1024. m / n = 0.5 is the middle of the
 * concavities of real rivers (0.3 to 0.7). More iterations or erosion cut deeper, down
 * towards the outlets' levels; fewer keep more of the input. */
void          terrain_river_erosion_defaults (TerrainRiverErosion *params);

/* Erodes heights (width * height floats) in place; with uplift from the layer, heights is
 * the uplift map on input and the generated terrain on output. maps is NULL when no map is
 * wanted. Every parameter and input height is checked before anything is written:
 * TERRAIN_ERROR_INVALID for a parameter out of range or a non-finite height,
 * TERRAIN_ERROR_NO_MEMORY when buffers cannot be had (or the map has 2^31 cells or more).
 * On TERRAIN_CANCELLED the heights and maps are unspecified. */
TerrainStatus terrain_river_erosion (const TerrainRiverErosion *params, float *heights,
                                     int width, int height, TerrainRiverMaps *maps,
                                     const TerrainProgress *progress);

#endif
