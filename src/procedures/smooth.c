/* plug-in-terrain-smooth: descriptor. A filter: it reads the layer's heights. */
#include "procedure-info.h"

#include "smooth.h"

#include <string.h>

extern const TerrainProcedureInfo terrain_procedure_smooth;

TERRAIN_CORE (TerrainSmooth, terrain_smooth_defaults, terrain_smooth)

static const TerrainChoiceItem methods[] = {
  { "laplacian", N_("Laplacian"), N_("Each point moves halfway to the mean of its 4 neighbours") },
  { "fir",       N_("FIR"),       N_("The lighthouse3d band filter, in all four directions") },
  { "matrix",    N_("Matrix"),    N_("A 3x3 or 5x5 kernel") },
  { NULL, NULL, NULL }
};

static const TerrainChoiceItem kernels[] = {
  { "box-3",   N_("Box 3x3"),      N_("Mean of the 3x3 neighbourhood") },
  { "gauss-3", N_("Gaussian 3x3"), N_("Binomial 1 2 1 x 1 2 1") },
  { "box-5",   N_("Box 5x5"),      N_("Mean of the 5x5 neighbourhood") },
  { "gauss-5", N_("Gaussian 5x5"), N_("Binomial 1 4 6 4 1 x 1 4 6 4 1") },
  { "custom",  N_("Custom"),       N_("The weights in custom-kernel") },
  { NULL, NULL, NULL }
};

static const TerrainArg args[] = {
  TERRAIN_CHOICE ("method", N_("M_ethod"),
                  N_("How to smooth: even out bumps (\"Laplacian\"), sweep a band filter "
                     "across (\"FIR\") or blur with a kernel (\"Matrix\")"),
                  methods, TerrainSmooth, method),
  TERRAIN_INT ("iterations", N_("_Iterations"), N_("How many times the filter runs: more is smoother"),
               1, 1000, TerrainSmooth, iterations),
  TERRAIN_DOUBLE ("k", N_("Share _kept"),
                  N_("With \"FIR\": how much of each point stays; 1 leaves the terrain "
                     "unchanged, smaller smooths more"),
                  0.0, 1.0, TerrainSmooth, k),
  TERRAIN_CHOICE ("kernel", N_("Ker_nel"),
                  N_("With \"Matrix\": a box or Gaussian blur, 3x3 or 5x5, or your own weights"),
                  kernels, TerrainSmooth, kernel),
  TERRAIN_STRING_ARG ("custom-kernel", N_("C_ustom kernel"),
                      N_("With kernel \"Custom\": 9 or 25 numbers, row by row, separated by "
                         "spaces or commas, '.' as decimal point; their sum must not be 0"),
                      "1 2 1 2 4 2 1 2 1"),
  TERRAIN_ARGS_END
};

/* Says in why what is wrong with the custom kernel's text. */
static void
explain_fault (const char *text, const TerrainKernelFault *fault, char *why, size_t why_size)
{
  const char *at = text + fault->offset;
  const int   length = (int) strcspn (at, " \t\n\r\f\v,");
  const int   shown = length < 24 ? length : 24;
  switch (fault->problem)
    {
    case TERRAIN_KERNEL_EMPTY:
      terrain_why (why, why_size, N_("custom-kernel is empty: give 9 or 25 numbers"));
      break;
    case TERRAIN_KERNEL_NOT_A_NUMBER:
      terrain_why (why, why_size,
                   N_("custom-kernel: item %d, \"%.*s\", is not a number (write numbers like "
                      "2, -0.5, .25 or 1e-2, with '.' as decimal point)"),
                   fault->item, shown, at);
      break;
    case TERRAIN_KERNEL_OUT_OF_RANGE:
      terrain_why (why, why_size, N_("custom-kernel: number %d, \"%.*s\", is too large"),
                   fault->item, shown, at);
      break;
    case TERRAIN_KERNEL_SEPARATOR:
      if (fault->item == 0)
        terrain_why (why, why_size, N_("custom-kernel starts with a comma"));
      else
        terrain_why (why, why_size,
                     N_("custom-kernel: after number %d, put one space or one comma between "
                        "two numbers"),
                     fault->item);
      break;
    case TERRAIN_KERNEL_COUNT:
      if (fault->count > 25)
        terrain_why (why, why_size,
                     N_("custom-kernel has more than 25 numbers: give 9 (3x3) or 25 (5x5)"));
      else
        terrain_why (why, why_size, N_("custom-kernel has %d numbers: give 9 (3x3) or 25 (5x5)"),
                     fault->count);
      break;
    default:
      terrain_why (why, why_size,
                   N_("custom-kernel: the weights sum to %g, which is (nearly) 0 next to their "
                      "size (the absolute values sum to %g); a kernel divides by its sum"),
                   fault->sum, fault->magnitude);
      break;
    }
}

/* The custom kernel, when the arguments ask for one: parsed, and usable on the layer. */
static TerrainStatus
adjust (void *params, const TerrainArgValue *values, const float *guide, int width, int height,
        char *why, size_t why_size)
{
  TerrainSmooth     *p = params;
  const char        *text = terrain_arg_value (&terrain_procedure_smooth, values, "custom-kernel").text;
  TerrainKernelFault fault;
  (void) guide;
  if (p->method != TERRAIN_SMOOTH_MATRIX || p->kernel != TERRAIN_KERNEL_CUSTOM)
    return TERRAIN_OK;
  if (terrain_kernel_parse (text, p->custom, &p->custom_size, &fault) != TERRAIN_OK)
    {
      explain_fault (text ? text : "", &fault, why, why_size);
      return TERRAIN_ERROR_INVALID;
    }
  if (! terrain_kernel_usable (p->custom, p->custom_size, width, height))
    {
      terrain_why (why, why_size, N_("custom-kernel weights cancel out at the layer's border"));
      return TERRAIN_ERROR_INVALID;
    }
  return TERRAIN_OK;
}

static const TerrainArgCondition conditions[] = {
  TERRAIN_WHEN ("k", "method", "fir"),
  TERRAIN_WHEN ("kernel", "method", "matrix"),
  TERRAIN_WHEN ("custom-kernel", "kernel", "custom"),
  TERRAIN_CONDITIONS_END
};

static const TerrainArgSlider sliders[] = {
  TERRAIN_SLIDER ("iterations", 1, 100),
  TERRAIN_SLIDERS_END
};

const TerrainProcedureInfo terrain_procedure_smooth = {
  .name = "plug-in-terrain-smooth",
  .menu_label = N_("_Smooth Heightmap..."),
  .blurb = N_("Smooth the layer's heights: Laplacian, FIR band filter or a matrix kernel"),
  .help = N_("Smooths the layer's current heights in float, at the layer's precision. \"laplacian\" "
             "(seed 003, 16 iterations by default): h += (mean of 4 neighbours - h) / 2, with no flow "
             "across the border, so the mean is preserved. \"fir\" (lighthouse3d): h[x] = "
             "k h[x] + (1 - k) h[x-1] swept left-right, right-left, top-bottom and bottom-top (all "
             "four; the tutorial's code skipped one); k (\"Share kept\") = 1 leaves the terrain unchanged. \"matrix\": "
             "a 3x3 or 5x5 kernel; taps outside the layer are dropped and the sum is divided by the "
             "weights used, so \"all ones\" equals \"all 1/9\"; kernels whose weights sum to 0 are "
             "refused. The selection is honoured."),
  .kind = TERRAIN_FILTER,
  .args = args,
  .conditions = conditions,
  .sliders = sliders,
  TERRAIN_CORE_FIELDS (TerrainSmooth),
  .adjust = adjust,
  /* Above 1024 x 1024: at 4096 x 4096 its render in GIMP's process takes 0.35-0.45 s, and
   * GIMP stalled 0.56 s for each of a stroke's renders; at 1024 x 1024, 30 ms. */
  .look_paint = true,
  .look_paint_above = 1024 * 1024
};
