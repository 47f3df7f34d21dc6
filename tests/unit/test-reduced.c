/* A filter's reduced look (src/procedures/reduced.h), what GIMP shows while a stroke is
 * painted under its effect:
 *  - the factor: the smallest that brings the layer within TERRAIN_REDUCED_CELLS pixels;
 *  - at factor 1 the look is the filter's own result, to the bit;
 *  - only filters have a look (a generator's render is cheap, and reads no layer), and
 *    terrain_look_factor says which and at what factor;
 *  - a paint look (Hydraulic Erosion's) is the base's result, to the bit, where the stroke
 *    painted nothing, and the base's result plus the paint where it did, and a rectangle's
 *    paint look alone is the whole layer's there;
 *  - River Erosion's look shows its result, at the factor of a 1024 x 1024 layer: growing
 *    ranges from an uplift sketch, look and result go together (correlation over the layer);
 *    eroding a Diamond-Square map on which a ridge was painted, the look alone erodes more
 *    than the result (reduced.h), but drawn as a change from the result of the map before
 *    the stroke, it is nearer to the result after the stroke than that earlier result is (by
 *    a margin: at a quarter of each side it was not), than the look alone is, and than the
 *    input is.
 */
#include "check.h"
#include "heightmap.h"
#include "procedure-info.h"
#include "reduced.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SIDE 512
#define MAX_ARGS 32
/* The factor of a 1024 x 1024 layer's looks in GIMP (1 here: the map is small enough). */
#define LOOK_FACTOR 2

static const TerrainProcedureInfo *
find (const char *name)
{
  const TerrainProcedureInfo *info = terrain_procedure_find (name);
  if (info == NULL)
    {
      fprintf (stderr, "no procedure %s\n", name);
      exit (1);
    }
  return info;
}

/* Sets argument `name` (none when NULL) to the value `text` reads as. */
static void
values_with (const TerrainProcedureInfo *info, TerrainArgValue *values, const char *name,
             const char *text)
{
  if (name == NULL)
    return;
  const int i = terrain_arg_index (info, name);
  CHECK (i >= 0 && terrain_arg_from_text (&info->args[i], text, &values[i]) == 0,
         "%s=%s", name, text);
}

/* River Erosion's result on a copy of `input`: whole (factor 1) or its look at `factor`
 * (terrain_procedure_render_reduced); with up to two settings name=text. */
static float *
river (const float *input, int factor, const char *name, const char *text, const char *name2,
       const char *text2)
{
  const TerrainProcedureInfo *info = find ("plug-in-terrain-river-erosion");
  TerrainArgValue             values[MAX_ARGS];
  char                        why[256] = "";
  float                      *heights = terrain_heights_copy (input, SIDE, SIDE);
  terrain_arg_defaults (info, values);
  values_with (info, values, name, text);
  values_with (info, values, name2, text2);
  const TerrainStatus status =
    factor == 1 ? terrain_procedure_render (info, values, heights, SIDE, SIDE, NULL, why,
                                            sizeof why)
                : terrain_procedure_render_reduced (info, values, heights, SIDE, SIDE, factor,
                                                    NULL, why, sizeof why);
  CHECK (status == TERRAIN_OK, "river erosion at 1/%d: %s", factor, why);
  return heights;
}

static double
rms_difference (const float *a, const float *b)
{
  double sum = 0.0;
  for (size_t i = 0; i < (size_t) SIDE * SIDE; i++)
    sum += ((double) a[i] - b[i]) * ((double) a[i] - b[i]);
  return sqrt (sum / ((double) SIDE * SIDE));
}

static double
correlation (const float *a, const float *b)
{
  const double n = (double) SIDE * SIDE;
  double       sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
  for (size_t i = 0; i < (size_t) SIDE * SIDE; i++)
    {
      sa += a[i];
      sb += b[i];
      saa += (double) a[i] * a[i];
      sbb += (double) b[i] * b[i];
      sab += (double) a[i] * b[i];
    }
  return (sab - sa * sb / n) / sqrt ((saa - sa * sa / n) * (sbb - sb * sb / n));
}

static void
test_factor (void)
{
  CHECK (terrain_reduced_factor (512, 512) == 1, "512^2: %d", terrain_reduced_factor (512, 512));
  CHECK (terrain_reduced_factor (513, 512) == 2, "513x512: %d", terrain_reduced_factor (513, 512));
  CHECK (terrain_reduced_factor (1024, 1024) == LOOK_FACTOR, "1024^2: %d",
         terrain_reduced_factor (1024, 1024));
  CHECK (terrain_reduced_factor (1000, 1000) == 2, "1000^2: %d",
         terrain_reduced_factor (1000, 1000));
  CHECK (terrain_reduced_factor (4096, 4096) == 8, "4096^2: %d",
         terrain_reduced_factor (4096, 4096));
  CHECK (terrain_reduced_factor (262145, 1) == 2, "262145x1: %d",
         terrain_reduced_factor (262145, 1));
}

static void
test_filters_only (void)
{
  for (int i = 0; terrain_procedures[i]; i++)
    {
      const TerrainProcedureInfo *info = terrain_procedures[i];
      CHECK (info->reduce == NULL || info->kind == TERRAIN_FILTER,
             "%s has a reduced look but is no filter", info->name);
      CHECK (! info->look_paint || info->kind == TERRAIN_FILTER,
             "%s: a paint look, but no filter", info->name);
      CHECK (info->kind == TERRAIN_FILTER || terrain_look_factor (info, 1024, 1024) == 0,
             "%s: a generator with a look", info->name);
    }
  const struct
  {
    const char *name;
    int         side, factor;
  } looks[] = {
    { "plug-in-terrain-river-erosion", 512, 0 },     { "plug-in-terrain-river-erosion", 1024, 2 },
    { "plug-in-terrain-river-erosion", 2048, 4 },    { "plug-in-terrain-river-erosion", 4096, 1 },
    { "plug-in-terrain-river-erosion", 8192, 0 },    { "plug-in-terrain-hydraulic-erosion", 1024, 1 },
    { "plug-in-terrain-hydraulic-erosion", 4096, 1 }, { "plug-in-terrain-hydraulic-erosion", 4097, 0 },
    { "plug-in-terrain-smooth", 1024, 0 },           { "plug-in-terrain-smooth", 1025, 1 },
    { "plug-in-terrain-smooth", 4096, 1 },           { "plug-in-terrain-smooth", 4097, 0 },
  };
  for (size_t i = 0; i < sizeof looks / sizeof looks[0]; i++)
    {
      const int factor = terrain_look_factor (find (looks[i].name), looks[i].side, looks[i].side);
      CHECK (factor == looks[i].factor, "%s at %d^2: a look at %d, not %d", looks[i].name,
             looks[i].side, factor, looks[i].factor);
    }
}

/* Hydraulic Erosion's paint look: the base's result plus what the stroke painted. */
static void
test_paint_look (const float *map)
{
  const TerrainProcedureInfo *info = find ("plug-in-terrain-hydraulic-erosion");
  TerrainArgValue             values[MAX_ARGS];
  char                        why[256] = "";
  const size_t                n = (size_t) SIDE * SIDE;
  float                      *base = terrain_heights_copy (map, SIDE, SIDE);
  float                      *painted = terrain_heights_copy (map, SIDE, SIDE);
  float                      *look = malloc (n * sizeof *look);
  terrain_arg_defaults (info, values);
  CHECK (terrain_procedure_render (info, values, base, SIDE, SIDE, NULL, why, sizeof why) ==
           TERRAIN_OK, "hydraulic erosion: %s", why);
  for (int y = 200; y < 230; y++)
    for (int x = 100; x < 400; x++)
      painted[(size_t) y * SIDE + x] = 1.0f;
  terrain_reduce_mean (painted, SIDE, SIDE, 1, look);
  CHECK (terrain_filter_look (info, values, look, SIDE, SIDE, 1, NULL, why, sizeof why) ==
           TERRAIN_OK, "hydraulic erosion's paint look: %s", why);
  CHECK (memcmp (look, painted, n * sizeof *look) == 0, "a paint look filtered the layer");
  /* River Erosion's paint look (on layers too large for its reduced one) too. */
  const TerrainProcedureInfo *river_info = find ("plug-in-terrain-river-erosion");
  TerrainArgValue             river_values[MAX_ARGS];
  terrain_arg_defaults (river_info, river_values);
  terrain_reduce_mean (painted, SIDE, SIDE, 1, look);
  CHECK (terrain_filter_look (river_info, river_values, look, SIDE, SIDE, 1, NULL, why,
                              sizeof why) == TERRAIN_OK &&
           memcmp (look, painted, n * sizeof *look) == 0,
         "river erosion's paint look filtered the layer");
  float *heights = malloc (n * sizeof *heights);
  terrain_stretch_look (look, map, base, 1, heights, SIDE, SIDE);
  size_t kept = 0, moved = 0;
  for (size_t i = 0; i < n; i++)
    if (painted[i] == map[i])
      kept += heights[i] == base[i];
    else
      moved += fabsf (heights[i] - (base[i] + painted[i] - map[i])) < 1e-6f;
  const size_t stroke = 30 * 300;
  size_t       unpainted = 0;
  for (size_t i = 0; i < n; i++)
    unpainted += painted[i] == map[i];
  CHECK (kept == unpainted && moved == n - unpainted && n - unpainted <= stroke &&
           n - unpainted > stroke / 2,
         "paint look: %zu of %zu unpainted pixels are the base's result, %zu of %zu painted "
         "ones the base's result plus the paint", kept, unpainted, moved, n - unpainted);
  /* A rectangle's paint look alone (a stroke's dirty rectangle, src/gegl/operation.c) is the
   * whole layer's there, to the bit. */
  const int rx = 90, ry = 190, rw = 320, rh = 50;
  float    *rect = malloc ((size_t) rw * rh * sizeof *rect);
  for (int y = 0; y < rh; y++)
    memcpy (rect + (size_t) y * rw, painted + (size_t) (ry + y) * SIDE + rx, rw * sizeof *rect);
  terrain_paint_look (base, map, (size_t) ry * SIDE + rx, SIDE, rect, rw, rh);
  int same = 0;
  for (int y = 0; y < rh; y++)
    same += memcmp (rect + (size_t) y * rw, heights + (size_t) (ry + y) * SIDE + rx,
                    rw * sizeof *rect) == 0;
  CHECK (same == rh, "a rectangle's paint look differs from the whole layer's in %d of %d rows",
         rh - same, rh);
  free (rect);
  free (base);
  free (painted);
  free (look);
  free (heights);
}

/* A Diamond-Square map, heights in [0, 1]. */
static float *
diamond_square (void)
{
  const TerrainProcedureInfo *info = find ("plug-in-terrain-diamond-square");
  TerrainArgValue             values[MAX_ARGS];
  char                        why[256] = "";
  float                      *heights = malloc ((size_t) SIDE * SIDE * sizeof *heights);
  terrain_arg_defaults (info, values);
  CHECK (terrain_procedure_render (info, values, heights, SIDE, SIDE, NULL, why, sizeof why) ==
           TERRAIN_OK, "diamond-square: %s", why);
  return heights;
}

/* An uplift sketch: two soft blobs, as an artist paints where mountains rise. */
static float *
sketch (void)
{
  float *uplift = malloc ((size_t) SIDE * SIDE * sizeof *uplift);
  for (int y = 0; y < SIDE; y++)
    for (int x = 0; x < SIDE; x++)
      {
        const double u = (double) x / SIDE, v = (double) y / SIDE;
        const double a = exp (-((u - 0.35) * (u - 0.35) + (v - 0.4) * (v - 0.4)) / 0.03);
        const double b = exp (-((u - 0.65) * (u - 0.65) + (v - 0.7) * (v - 0.7)) / 0.02);
        uplift[(size_t) y * SIDE + x] = (float) fmin (1.0, a + b);
      }
  return uplift;
}

static void
test_same_bits_at_factor_1 (const float *map)
{
  const TerrainProcedureInfo *info = find ("plug-in-terrain-river-erosion");
  TerrainArgValue             values[MAX_ARGS];
  char                        why[256] = "";
  float                      *whole = river (map, 1, NULL, NULL, NULL, NULL);
  float                      *at_1 = terrain_heights_copy (map, SIDE, SIDE);
  terrain_arg_defaults (info, values);
  CHECK (terrain_procedure_render_reduced (info, values, at_1, SIDE, SIDE, 1, NULL, why,
                                           sizeof why) == TERRAIN_OK, "%s", why);
  CHECK (memcmp (at_1, whole, (size_t) SIDE * SIDE * sizeof (float)) == 0,
         "the look at factor 1 is not the result");
  free (at_1);
  free (whole);
}

/* map with a stroke painted into it: a bright band across a third of it (a ridge, or more
 * uplift). */
static float *
painted (const float *map)
{
  float *stroke = terrain_heights_copy (map, SIDE, SIDE);
  for (int y = SIDE / 2 - 12; y < SIDE / 2 + 12; y++)
    for (int x = SIDE / 3; x < 2 * SIDE / 3; x++)
      stroke[(size_t) y * SIDE + x] = 1.0f;
  return stroke;
}

/* River Erosion's look on `layer` as a change from the result on `before`. */
static float *
look_from (const float *before, const float *layer)
{
  const TerrainProcedureInfo *info = find ("plug-in-terrain-river-erosion");
  TerrainArgValue             values[MAX_ARGS];
  char                        why[256] = "";
  const int                   factor = LOOK_FACTOR, cells = (SIDE / factor) * (SIDE / factor);
  float                      *base = river (before, 1, NULL, NULL, NULL, NULL);
  float                      *base_look = malloc ((size_t) cells * sizeof (float));
  float                      *look = malloc ((size_t) cells * sizeof (float));
  float                      *heights = malloc ((size_t) SIDE * SIDE * sizeof (float));
  terrain_arg_defaults (info, values);
  terrain_reduce_mean (before, SIDE, SIDE, factor, base_look);
  terrain_reduce_mean (layer, SIDE, SIDE, factor, look);
  CHECK (terrain_filter_look (info, values, base_look, SIDE, SIDE, factor, NULL, why,
                              sizeof why) == TERRAIN_OK &&
           terrain_filter_look (info, values, look, SIDE, SIDE, factor, NULL, why,
                                sizeof why) == TERRAIN_OK,
         "%s", why);
  terrain_stretch_look (look, base_look, base, factor, heights, SIDE, SIDE);
  free (base);
  free (base_look);
  free (look);
  return heights;
}

static void
test_river_eroding (const float *map)
{
  float       *stroke = painted (map);
  float       *whole = river (stroke, 1, NULL, NULL, NULL, NULL);
  float       *before = river (map, 1, NULL, NULL, NULL, NULL);
  float       *look = river (stroke, LOOK_FACTOR, NULL, NULL, NULL, NULL);
  float       *changed = look_from (map, stroke);
  const double to_changed = rms_difference (changed, whole), to_before = rms_difference (before, whole);
  const double to_look = rms_difference (look, whole), to_input = rms_difference (stroke, whole);
  printf ("river erosion, eroding, 512^2 at 1/%d, root mean square from the result after a "
          "stroke: the look as a change %.4f, the result before the stroke %.4f, the look alone "
          "%.4f, the input %.4f\n", LOOK_FACTOR, to_changed, to_before, to_look, to_input);
  CHECK (to_changed < 0.7 * to_before && to_changed < to_look && to_changed < to_input,
         "the look as a change %.4f (before %.4f, look alone %.4f, input %.4f)", to_changed,
         to_before, to_look, to_input);
  free (stroke);
  free (whole);
  free (before);
  free (look);
  free (changed);
}

static void
test_river_growing (void)
{
  float       *uplift = sketch ();
  float       *whole = river (uplift, 1, "uplift", "layer", "age", "200");
  float       *look = river (uplift, LOOK_FACTOR, "uplift", "layer", "age", "200");
  const double r = correlation (look, whole), r_input = correlation (uplift, whole);
  printf ("river erosion, growing, 512^2 at 1/%d: correlation with the result %.3f (the sketch: "
          "%.3f)\n", LOOK_FACTOR, r, r_input);
  CHECK (r > 0.9 && r > r_input, "the look's correlation %.3f (the sketch's %.3f)", r, r_input);
  free (uplift);
  free (whole);
  free (look);
}

int
main (void)
{
  test_factor ();
  test_filters_only ();
  float *map = diamond_square ();
  test_same_bits_at_factor_1 (map);
  test_paint_look (map);
  test_river_eroding (map);
  test_river_growing ();
  free (map);
  return CHECK_DONE ("reduced");
}
