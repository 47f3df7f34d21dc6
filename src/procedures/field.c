/* plug-in-terrain-field: descriptor. Renders any rectangle, so layers are written band by
 * band with no layer-sized buffer. */
#include "procedure-info.h"

#include "field.h"

#include <stdint.h>
#include <stdlib.h>

enum { SEED, ITERATIONS, ROUGHNESS, OFFSET_X, OFFSET_Y, GUIDE, GUIDE_SCALE };

static const TerrainArg args[] = {
  TERRAIN_SEED_ARG,
  TERRAIN_INT ("iterations", N_("Iterations"),
               N_("Subdivision levels: the largest features are about 2^iterations pixels "
                  "across; smoothness, not image size (1 to 30)"),
               1, 30, 8),
  TERRAIN_DOUBLE ("roughness", N_("Roughness (H)"),
                  N_("Hurst exponent H: the random offset shrinks by 2^-H per level (0 to 2)"),
                  0.0, 2.0, 1.0),
  TERRAIN_INT ("offset-x", N_("Offset X"),
               N_("World x of the layer's left column, in pixels (-1073741824 to 1073741824)"),
               -1073741824, 1073741824, 0),
  TERRAIN_INT ("offset-y", N_("Offset Y"),
               N_("World y of the layer's top row, in pixels (-1073741824 to 1073741824)"),
               -1073741824, 1073741824, 0),
  TERRAIN_GUIDE_ARGS,
  TERRAIN_ARGS_END
};

/* The core's parameters for the layer rectangle starting at (x, y). */
static void
set_params (TerrainField *p, const TerrainArgValue *v, int x, int y)
{
  terrain_field_defaults (p);
  p->seed = (uint32_t) v[SEED].number;
  p->iterations = (int) v[ITERATIONS].number;
  p->roughness = v[ROUGHNESS].number;
  /* Offsets are at most 2^30 and layers at most 2^19 wide: the sums fit in int32. */
  p->offset_x = (int32_t) v[OFFSET_X].number + x;
  p->offset_y = (int32_t) v[OFFSET_Y].number + y;
}

/* The layer's last pixel must stay in the 32-bit world. */
static TerrainStatus
check (const TerrainArgValue *v, int width, int height, char *why, size_t why_size)
{
  if ((int64_t) v[OFFSET_X].number + width - 1 <= INT32_MAX &&
      (int64_t) v[OFFSET_Y].number + height - 1 <= INT32_MAX)
    return TERRAIN_OK;
  terrain_why (why, why_size, N_("the layer at offset (%d, %d) leaves the 32-bit world"),
               (int) v[OFFSET_X].number, (int) v[OFFSET_Y].number);
  return TERRAIN_ERROR_INVALID;
}

static TerrainStatus
render_rect (const TerrainArgValue *v, float *out, int x, int y, int width, int height,
             const TerrainProgress *progress, char *why, size_t why_size)
{
  TerrainField p;
  set_params (&p, v, x, y);
  TerrainStatus status = terrain_field (&p, out, width, height, progress);
  if (status == TERRAIN_ERROR_INVALID)
    check (v, x + width, y + height, why, why_size);
  return status;
}

static TerrainStatus
render (const TerrainArgValue *v, float *heights, int width, int height,
        const TerrainProgress *progress, char *why, size_t why_size)
{
  if (v[GUIDE].number == 0.0)
    return render_rect (v, heights, 0, 0, width, height, progress, why, why_size);

  /* heights holds the layer, at world (offset-x, offset-y): keep it as the guide while the
   * result overwrites it. */
  float *guide = terrain_heights_copy (heights, width, height);
  if (guide == NULL)
    return TERRAIN_ERROR_NO_MEMORY;
  TerrainField p;
  set_params (&p, v, 0, 0);
  p.guide = guide;
  p.guide_width = width;
  p.guide_height = height;
  p.guide_x = p.offset_x;
  p.guide_y = p.offset_y;
  p.guide_scale = (int) v[GUIDE_SCALE].number;
  TerrainStatus status = terrain_field (&p, heights, width, height, progress);
  free (guide);
  return status;
}

static const TerrainArgCondition conditions[] = {
  { "guide-scale", "guide", "TRUE" },
  { NULL, NULL, NULL }
};

const TerrainProcedureInfo terrain_procedure_field = {
  .name = "plug-in-terrain-field",
  .menu_label = N_("Infinite Field..."),
  .blurb = N_("Render one window of an endless diamond-square terrain, for maps that tile and page"),
  /* xgettext:no-c-format */
  .help = N_("Infinite diamond-square field (Tatarize's \"Field Diamond Squared\", seed 002). Level 0 "
             "is white noise on a grid of spacing 2^iterations; each level is built from the padded "
             "parent rectangle one level up, with offsets from a hash of (seed, level, x, y). A "
             "pixel's value depends only on its world position (offset + pixel): layers rendered "
             "at neighbouring offsets join exactly, bit for bit. The output mapping is fixed, never "
             "data-dependent: v -> 0.5 + v / (6 sigma), clamped to [0, 1], where sigma is the "
             "field's standard deviation computed from roughness and iterations (about 0.15% of "
             "pixels clamp at small H). Rendered band by band: any layer size in bounded memory. "
             "With guide, the layer's current content (at its world position) is the coarse shape: "
             "the level whose node spacing is guide-scale (rounded down to a power of two, at most "
             "2^iterations) takes the layer's mean height around each node, and only finer levels "
             "add detail; guided renders read the whole layer."),
  .kind = TERRAIN_GENERATOR,
  .args = args,
  .render = render,
  .render_rect = render_rect,
  .conditions = conditions,
  .guide_arg = "guide",
  .check = check
};
