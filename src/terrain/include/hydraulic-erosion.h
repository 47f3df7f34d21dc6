/* Hydraulic erosion by droplets, after Hans Theobald Beyer, "Implementation of a method for
 * hydraulic erosion" (bachelor's thesis, TU München, 2015), in the formulation Sebastian
 * Lague's implementation made popular. Works in place on a float heightmap of any finite
 * values; finite input always gives finite output.
 *
 * Conventions (documented in the procedure's help):
 *  - Positions are in pixels, pixel centres at whole numbers: a droplet is on the map while
 *    0 <= x <= width - 1 and 0 <= y <= height - 1. Heights and gradients between pixel
 *    centres are bilinear in the 4 around (a map 1 pixel wide or high has no slope across).
 *    One height unit is the layer's full range (heights are nominally 0..1).
 *  - Droplet i (0, 1, ..., droplets - 1) starts at a position uniform over the map, drawn
 *    from terrain_hash (seed, i, ...): the same seed gives the same bits, whatever the
 *    thread count. Each droplet runs on the map the droplets scheduled before it left, in a
 *    fixed schedule: batches of consecutive droplets; in a batch, the map cut into a fixed
 *    grid of tiles at least 2 x (max_steps + radius + 4) + 1 pixels wide, the tiles in the
 *    4 colours of a checkerboard, one colour after the other, each tile's droplets in order.
 *    Droplets of the tiles of one colour cannot reach the same pixels, so they run at once
 *    on several threads with the result of running them one after the other; a map less
 *    than two tiles wide and high is a single tile: its droplets run in order. The batches
 *    are small (a few thousand droplets), so droplets everywhere still see the valleys made
 *    before them as they do when run strictly in order. A droplet starts with direction
 *    0, speed 1, water 1 and no sediment, and takes at most max_steps steps:
 *      1. At its position p it reads the height h and gradient g; dir = dir * inertia -
 *         g * (1 - inertia). When dir is 0 it stops; else it is normalised and the droplet
 *         moves one pixel: p' = p + dir. When p' is off the map it stops, and its sediment
 *         leaves the map with it.
 *      2. dh = height (p') - h; capacity = max (-dh * speed * water * capacity,
 *         0.01 * water). (Lague's floor is 0.01 whatever the water: on a layer of 1024
 *         pixels, whose slopes are a few thousandths a pixel, the floor is most droplets'
 *         capacity, so they carried it to their end and left it there in a heap; scaled by
 *         the water it falls as they dry up, and they lay their load down along the way.)
 *      3. Moving uphill (dh > 0) it drops min (dh, sediment); carrying more than capacity it
 *         drops (sediment - capacity) * deposition. Otherwise it erodes: it takes
 *         min ((capacity - sediment) * erosion, -dh). Both act on the brush: the pixels
 *         whose centre is less than `radius` from that of n, the pixel nearest to p, with
 *         weight 1 - distance / radius, normalised over the pixels on the map. Dropped
 *         sediment raises no pixel above the upper end of the step, h + max (dh, 0): what
 *         does not fit stays with the droplet, so dropping fills hollows first and builds no
 *         heap above the ground around it. (Lague drops on the 4 pixels around p with p's
 *         bilinear weights: heaps a pixel wide, which grain the map and close pits between
 *         them.) Erosion lowers none below the lower end of the step, h + dh, where its
 *         water goes: a pixel at or below it gives nothing, so a droplet digs no pit below
 *         its own path. (Lague
 *         centres the brush on the pixel p rounds down to: erosion then lands half a pixel
 *         up and left of the droplet on average, which shows as a left-right asymmetry on
 *         a symmetric slope; Lague lets the brush dig any pixel down to 0, which with point
 *         deposition fills the map with pits and heaps a pixel wide.) A pixel never goes
 *         below 0 (the bottom of the layer's range): a pixel at or below 0 gives nothing
 *         (Lague's rule, extended to maps of any sign).
 *      4. speed = sqrt (max (0, speed^2 + dh * 4)) (gravity 4, Lague's sign: a droplet
 *         slows going down and speeds up going up; the max keeps it a number), and
 *         water *= 1 - evaporation.
 *    A droplet that stops on the map (direction 0, or max_steps taken) drops all its
 *    sediment there, on the brush around n with the brush's normalised weights (on one
 *    pixel it would leave a heap a pixel wide), n taking what the weights, rounded to
 *    floats, leave over: the total height of the map changes only by what droplets carry
 *    off it.
 *  - A pixel never goes above FLT_MAX: what does not fit stays with the droplet. What a
 *    stopping droplet cannot place (only that, and the float rounding of its last drop)
 *    counts as lost, like sediment carried off the map.
 *  - Accounting: what leaves a pixel is what the droplet gains, and the reverse, computed
 *    from the pixel's float value before and after (in double): after every step, the sum
 *    of the heights plus the sediment carried plus the total lost equals the sum of the
 *    heights before the run, up to double rounding.
 */
#ifndef TERRAIN_HYDRAULIC_EROSION_H
#define TERRAIN_HYDRAULIC_EROSION_H

#include "terrain-types.h"

#define TERRAIN_HYDRAULIC_MAX_DROPLETS 100000000
#define TERRAIN_HYDRAULIC_MAX_CAPACITY 64.0
#define TERRAIN_HYDRAULIC_MAX_RADIUS   8
#define TERRAIN_HYDRAULIC_MAX_STEPS    1000

typedef struct
{
  uint32_t seed;
  int      droplets;    /* 0..TERRAIN_HYDRAULIC_MAX_DROPLETS; 0 leaves the map as it is */
  double   inertia;     /* 0..1: share of the old direction kept at each step */
  double   capacity;    /* 0..TERRAIN_HYDRAULIC_MAX_CAPACITY: sediment capacity factor */
  double   erosion;     /* 0..1: share of the free capacity taken per step */
  double   deposition;  /* 0..1: share of the excess sediment dropped per step */
  double   evaporation; /* 0..1: share of the water lost per step */
  int      radius;      /* 1..TERRAIN_HYDRAULIC_MAX_RADIUS pixels: the erosion brush */
  int      max_steps;   /* 1..TERRAIN_HYDRAULIC_MAX_STEPS: a droplet's longest life */
} TerrainHydraulicErosion;

/* Seed 0, 600000 droplets of up to 50 steps (about one for 1.7 pixels of a 1024 x 1024
 * layer: gullies on the slopes, sediment and fans below them, in a second or two),
 * inertia 0.05, capacity 16, erosion 0.5, deposition 0.15, evaporation 0.05 (water 0.08
 * after 50 steps: a droplet has laid down most of its load on its way), radius 3. Lives
 * of 80 steps look the same and take longer: their tiles (the schedule) are wider, fewer
 * run at once. */
void          terrain_hydraulic_erosion_defaults (TerrainHydraulicErosion *params);

/* Erodes data (width * height floats) in place. Every parameter is checked before data is
 * touched. On TERRAIN_CANCELLED the data holds the result of the droplets run so far. */
TerrainStatus terrain_hydraulic_erosion (const TerrainHydraulicErosion *params, float *data,
                                         int width, int height,
                                         const TerrainProgress *progress);

#endif
