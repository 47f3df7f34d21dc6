/* Landscape presets: one-click landscapes composed from the other parts of the core - the
 * infinite field (field.h) as the base, a height curve, then smoothing (smooth.h), thermal
 * erosion (thermal-erosion.h) or river erosion (river-erosion.h). The preset is the point: its only knobs are the
 * seed and the size of the largest features; users tune the result further with the
 * other filters.
 *
 * Conventions (documented in the procedure's help):
 *  - Base: terrain_field() with `seed`, offset (0, 0), no guide, iterations
 *    N = terrain_landscape_iterations (feature_size) = round (log2 (feature_size)) and the
 *    preset's roughness H below. It is then stretched onto [0, 1] by its own minimum and
 *    maximum (the field's fixed mapping leaves a window much smaller than 2^N low in
 *    contrast): b = (v - min) / (max - min), 0.5 everywhere when the field is flat (1x1).
 *    The stretch, and every later renormalisation, depends on the whole layer, so a preset
 *    is rendered in one piece: layers rendered separately do not join.
 *  - Talus slopes (height units per pixel) and smoothing lengths are relative to
 *    F = the feature size, but at most the layer's longer side (the stretch makes the
 *    largest feature the layer sees span the full range) and at least 16: a slope of c / F
 *    climbs the full range over F / c pixels, so a preset looks the same at any scale.
 *  - alpine: H = 0.8 (rough), b^1.5 = b sqrt (b) (the peaked curve: broad low valleys,
 *    narrow high summits, heights skewed towards the valleys), times a ridge mask: a second field c
 *    (seed mix32 (seed ^ 0x5eedf00d), N - 2 iterations, H = 1.1, its own fixed mapping,
 *    rendered band by band), r = 1 - |2 c - 1| (1 on the line where c crosses 0.5, a
 *    sharp V-shaped crest), h = b^1.5 (0.2 + 0.8 r^2): crests along a network of ridges,
 *    broad troughs between them, high only where the base is high. Thermal erosion,
 *    30 iterations, talus 4 / F, strength 0.5, 8 neighbours: scree slopes below the crests.
 *    Stretched onto [0, 1] again by its minimum and maximum.
 *  - rolling-hills: H = 0.85. Band h = 0.3 + 0.3 b: every height within [0.3, 0.6], no
 *    summits and no deep valleys. FIR smoothing (smooth.h), 2 iterations of the four
 *    sweeps with k = 1 / (1 + F / 24), i.e. an exponential smoothing over about F / 24
 *    pixels whatever the scale: rounded hills without the field's small bumps and
 *    lattice creases; smoothing never leaves the band.
 *  - islands: H = 1.0. With (u, v) a pixel centre's offset from the layer's centre in
 *    half-widths and half-heights (the border at |u| = 1 or |v| = 1),
 *    g = b - 0.8 (u^2 + v^2) - smoothstep (0.7, 0.98, max (|u|, |v|)): land favoured in
 *    the middle, g <= 0 on the border ring max (|u|, |v|) >= 0.98. Sea level s: the g above
 *    which 22% of the pixels lie (a 4096-bin histogram), at least 0.1. Land (g >= s):
 *    h = 0.2 + 0.8 (g - s) / (max g - s), the coast at 0.2 (TERRAIN_LANDSCAPE_COAST) and
 *    the highest land at 1. Sea (g < s): a shallow shelf falling from the coast to the
 *    flat sea floor 0.1 (TERRAIN_LANDSCAPE_SEA_FLOOR) while g falls by 0.1 below s,
 *    h = 0.1 + 0.1 (1 - smoothstep (0, 0.1, s - g)), then the floor, exactly 0.1: the
 *    whole border ring is flat sea floor. Land masses in the middle, water at the edges.
 *  - mesa: H = 1.4 (smooth, so cliffs follow clean contours). Terraces: t = 4 b^1.5 (the
 *    curve, b sqrt (b), gives more low desert floor than high tables), k = floor (t), f = t - k,
 *    h = (k + smoothstep (0.49, 0.51, f)) / 4: flat at the levels k / 4 (k = 0..4) for 98%
 *    of every step, a near-vertical cliff half way between two levels. Thermal erosion,
 *    20 iterations, talus 16 / F, strength 0.5, 8 neighbours: the cliffs slump to steep
 *    talus slopes with aprons at their feet; flat tops and floors stay exactly at their
 *    levels. Not stretched again (erosion keeps every height within [0, 1]).
 *  - river-valleys: H = 1.2 (smooth: mountain ranges, not speckle). The stretched base b is
 *    the uplift map of river erosion (river-erosion.h, uplift from the layer): 100 steps,
 *    erosion 2, diffusion 60, m = 0.5, n = 1, open edges, sea level 0. Mountains rise where
 *    b is high while rivers cut dendritic valleys that drain to the layer's border; the
 *    solver's lengths are relative to the layer (the feature size sets only the size of
 *    the ranges), and its normalisation leaves the result on [0, 1], with no pit. Several
 *    times slower than the other presets (seconds at 1024 x 1024).
 *  - Output in [0, 1], finite; deterministic (the field's hash, no other randomness).
 *  - Progress: the field and each later stage get a share of [0, 1]; cancel is honoured in
 *    every stage. Memory: no layer-sized buffer of its own beyond the output (alpine's
 *    ridge field is rendered in bands of 2^18 pixels); the field (about half a layer of
 *    scratch), the smoothing (a few rows) and the erosions (one layer; river erosion a
 *    few) allocate theirs one after the other.
 */
#ifndef TERRAIN_LANDSCAPE_H
#define TERRAIN_LANDSCAPE_H

#include "terrain-types.h"

typedef enum
{
  TERRAIN_LANDSCAPE_ALPINE,
  TERRAIN_LANDSCAPE_ROLLING_HILLS,
  TERRAIN_LANDSCAPE_ISLANDS,
  TERRAIN_LANDSCAPE_MESA,
  TERRAIN_LANDSCAPE_RIVER_VALLEYS
} TerrainLandscapePreset;

#define TERRAIN_LANDSCAPE_MIN_FEATURE_SIZE 16
#define TERRAIN_LANDSCAPE_MAX_FEATURE_SIZE 65536

/* The recipes' fixed levels, for documentation and tests. */
#define TERRAIN_LANDSCAPE_HILLS_LOW  0.3 /* rolling-hills: the band of heights */
#define TERRAIN_LANDSCAPE_HILLS_HIGH 0.6
#define TERRAIN_LANDSCAPE_SEA_FLOOR  0.1 /* islands: the deep sea floor */
#define TERRAIN_LANDSCAPE_COAST      0.2 /* islands: the height of the coastline */
#define TERRAIN_LANDSCAPE_MESA_STEPS 4   /* mesa: flat levels k / 4, k = 0..4 */

typedef struct
{
  uint32_t               seed;
  TerrainLandscapePreset preset;
  int                    feature_size; /* pixels, MIN..MAX_FEATURE_SIZE: the largest features */
} TerrainLandscape;

/* seed 0, alpine, feature size 256. */
void          terrain_landscape_defaults (TerrainLandscape *params);

/* The field's iterations for a feature size: round (log2 (feature_size)), computed exactly
 * in integers (2^(2N - 1) <= feature_size^2 < 2^(2N + 1)); 4 for 16, 8 for 256, 16 for
 * 65536. */
int           terrain_landscape_iterations (int feature_size);

/* Renders into out (width * height floats). Every parameter is checked before out is
 * touched. */
TerrainStatus terrain_landscape (const TerrainLandscape *params, float *out, int width,
                                 int height, const TerrainProgress *progress);

#endif
