/* plug-in-terrain-field: descriptor. Renders any rectangle, so layers are written band by
 * band with no layer-sized buffer. */
#include "procedure-info.h"

#include "field.h"

#include <stdint.h>

extern const TerrainProcedureInfo terrain_procedure_field;

TERRAIN_CORE (TerrainField, terrain_field_defaults, terrain_field)

static const TerrainArg args[] = {
  TERRAIN_SEED (TerrainField, seed),
  TERRAIN_INT ("iterations", N_("_Iterations"),
               N_("How large the largest hills are: each one more doubles them (10: about 1000 "
                  "pixels across); it sets the look, not the image size"),
               1, 30, TerrainField, iterations),
  TERRAIN_DOUBLE ("roughness", N_("Smoo_thness"),
                  N_("Larger is smoother: small is jagged, large is rolling. The argument is "
                     "named roughness, as in the write-ups"),
                  0.0, 2.0, TerrainField, roughness),
  TERRAIN_INT ("offset-x", N_("Offset _X"),
               N_("Where the layer's left edge lies in the endless terrain, in pixels: layers "
                  "at neighbouring offsets join seamlessly"),
               -1073741824, 1073741824, TerrainField, offset_x),
  TERRAIN_INT ("offset-y", N_("Offset _Y"),
               N_("Where the layer's top edge lies in the endless terrain, in pixels"),
               -1073741824, 1073741824, TerrainField, offset_y),
  TERRAIN_GUIDE_ARGS (TerrainField),
  TERRAIN_ARGS_END
};

/* The layer's last pixel must stay in the 32-bit world; a guide is the layer itself, at
 * the layer's world position. */
static TerrainStatus
adjust (void *params, const TerrainArgValue *values, const float *guide, int width, int height,
        char *why, size_t why_size)
{
  TerrainField *p = params;
  if ((int64_t) p->offset_x + width - 1 > INT32_MAX ||
      (int64_t) p->offset_y + height - 1 > INT32_MAX)
    {
      terrain_why (why, why_size, N_("the layer at offset (%d, %d) leaves the 32-bit world"),
                   (int) p->offset_x, (int) p->offset_y);
      return TERRAIN_ERROR_INVALID;
    }
  if (terrain_arg_value (&terrain_procedure_field, values, "guide").number != 0.0)
    {
      p->guide = guide;
      p->guide_width = width;
      p->guide_height = height;
      p->guide_x = p->offset_x;
      p->guide_y = p->offset_y;
    }
  return TERRAIN_OK;
}

/* The layer rectangle at (x, y): the field at world (offset + x, offset + y). Offsets are
 * at most 2^30 and layers at most 2^19 wide: the sums fit in int32. */
static TerrainStatus
render_rect (const void *params, float *out, int x, int y, int width, int height,
             const TerrainProgress *progress)
{
  TerrainField p = *(const TerrainField *) params;
  p.offset_x += x;
  p.offset_y += y;
  return terrain_field (&p, out, width, height, progress);
}

static const TerrainArgCondition conditions[] = {
  TERRAIN_WHEN_ON ("guide-scale", "guide"),
  TERRAIN_CONDITIONS_END
};

static const TerrainArgSlider sliders[] = {
  TERRAIN_NO_SLIDER ("offset-x"),
  TERRAIN_NO_SLIDER ("offset-y"),
  TERRAIN_SLIDER ("guide-scale", 1, 512),
  TERRAIN_SLIDERS_END
};

const TerrainProcedureInfo terrain_procedure_field = {
  .name = "plug-in-terrain-field",
  .menu_label = N_("_Infinite Field..."),
  .blurb = N_("Render one window of an endless diamond-square terrain, for maps that tile and page"),
  /* xgettext:no-c-format */
  .help = N_("Infinite diamond-square field (Tatarize's \"Field Diamond Squared\", seed 002). Level 0 "
             "is white noise on a grid of spacing 2^iterations (the largest features); each level is built from the padded "
             "parent rectangle one level up, with offsets from a hash of (seed, level, x, y). A "
             "pixel's value depends only on its world position (offset + pixel): layers rendered "
             "at neighbouring offsets join exactly, bit for bit. The output mapping is fixed, never "
             "data-dependent (roughness is the Hurst exponent H: offsets shrink by 2^-H per "
             "level): v -> 0.5 + v / (6 sigma), clamped to [0, 1], where sigma is the "
             "field's standard deviation computed from roughness and iterations (about 0.15% of "
             "pixels clamp at small H). Rendered band by band: any layer size in bounded memory. "
             "With guide, the layer's current content (at its world position) is the coarse shape: "
             "the level whose node spacing is guide-scale (rounded down to a power of two, at most "
             "2^iterations) takes the layer's mean height around each node, and only finer levels "
             "add detail; guided renders read the whole layer."),
  .kind = TERRAIN_GENERATOR,
  .args = args,
  .conditions = conditions,
  .sliders = sliders,
  .guide_arg = "guide",
  TERRAIN_CORE_FIELDS (TerrainField),
  .adjust = adjust,
  .render_rect = render_rect
};
