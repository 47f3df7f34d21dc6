/* plug-in-terrain-smooth: descriptor. A filter: it reads the layer's heights. */
#include "procedure-info.h"

#include "smooth.h"

enum { METHOD, ITERATIONS, K, KERNEL, CUSTOM_KERNEL };

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
  TERRAIN_CHOICE ("method", N_("Method"),
                  N_("\"laplacian\", \"fir\" or \"matrix\""), methods, "laplacian"),
  TERRAIN_INT ("iterations", N_("Iterations"),
               N_("How many times the filter runs (1 to 1000)"), 1, 1000, 16),
  TERRAIN_DOUBLE ("k", N_("FIR weight k"),
                  N_("FIR: the share a point keeps, h = k h + (1 - k) previous; 1 leaves the "
                     "terrain unchanged, smaller smooths more (0 to 1)"),
                  0.0, 1.0, 0.5),
  TERRAIN_CHOICE ("kernel", N_("Kernel"),
                  N_("Matrix kernel: \"box-3\", \"gauss-3\", \"box-5\", \"gauss-5\", \"custom\""),
                  kernels, "gauss-3"),
  TERRAIN_STRING ("custom-kernel", N_("Custom kernel"),
                  N_("With kernel \"custom\": 9 or 25 numbers, row by row, separated by spaces "
                     "or commas, '.' as decimal point; their sum must not be 0"),
                  "1 2 1 2 4 2 1 2 1"),
  TERRAIN_ARGS_END
};

/* The custom kernel, when the arguments ask for one: parsed and usable on the layer. */
static TerrainStatus
check (const TerrainArgValue *v, int width, int height, char *why, size_t why_size)
{
  float kernel[25];
  int   size;
  if (v[METHOD].number != TERRAIN_SMOOTH_MATRIX || v[KERNEL].number != TERRAIN_KERNEL_CUSTOM)
    return TERRAIN_OK;
  if (terrain_kernel_parse (v[CUSTOM_KERNEL].text, kernel, &size) != TERRAIN_OK)
    {
      terrain_why (why, why_size,
                   N_("custom-kernel \"%.60s\" is not 9 or 25 numbers with a non-zero sum"),
                   v[CUSTOM_KERNEL].text);
      return TERRAIN_ERROR_INVALID;
    }
  if (! terrain_kernel_usable (kernel, size, width, height))
    {
      terrain_why (why, why_size, N_("custom-kernel weights cancel out at the layer's border"));
      return TERRAIN_ERROR_INVALID;
    }
  return TERRAIN_OK;
}

static TerrainStatus
render (const TerrainArgValue *v, float *heights, int width, int height,
        const TerrainProgress *progress, char *why, size_t why_size)
{
  TerrainStatus status = check (v, width, height, why, why_size);
  if (status != TERRAIN_OK)
    return status;
  TerrainSmooth p;
  terrain_smooth_defaults (&p);
  p.method = (TerrainSmoothMethod) v[METHOD].number;
  p.iterations = (int) v[ITERATIONS].number;
  p.k = v[K].number;
  p.kernel = (TerrainKernel) v[KERNEL].number;
  if (p.method == TERRAIN_SMOOTH_MATRIX && p.kernel == TERRAIN_KERNEL_CUSTOM)
    terrain_kernel_parse (v[CUSTOM_KERNEL].text, p.custom, &p.custom_size);
  return terrain_smooth (&p, heights, width, height, progress);
}

static const TerrainArgCondition conditions[] = {
  { "k", "method", "fir" },
  { "kernel", "method", "matrix" },
  { "custom-kernel", "kernel", "custom" },
  { NULL, NULL, NULL }
};

const TerrainProcedureInfo terrain_procedure_smooth = {
  .name = "plug-in-terrain-smooth",
  .menu_label = N_("Smooth Heightmap..."),
  .blurb = N_("Smooth the layer's heights: Laplacian, FIR band filter or a matrix kernel"),
  .help = N_("Smooths the layer's current heights in float, at the layer's precision. \"laplacian\" "
             "(seed 003, 16 iterations by default): h += (mean of 4 neighbours - h) / 2, with no flow "
             "across the border, so the mean is preserved. \"fir\" (lighthouse3d): h[x] = "
             "k h[x] + (1 - k) h[x-1] swept left-right, right-left, top-bottom and bottom-top (all "
             "four; the tutorial's code skipped one); k = 1 leaves the terrain unchanged. \"matrix\": "
             "a 3x3 or 5x5 kernel; taps outside the layer are dropped and the sum is divided by the "
             "weights used, so \"all ones\" equals \"all 1/9\"; kernels whose weights sum to 0 are "
             "refused. The selection is honoured."),
  .kind = TERRAIN_FILTER,
  .args = args,
  .render = render,
  .conditions = conditions,
  .check = check
};
