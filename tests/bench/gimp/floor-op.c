/* A benchmark-only GEGL module (never installed): the operation terrain-bench:floor writes
 * height 0.5 into a layer in GIMP's own process, doing no other work. It is what every
 * terrain:* operation must do at the least, so tests/bench/gimp/bench-gimp.py times it as
 * the in-process floor, beside gimp-terrain.so. terrain-bench:pass hands GIMP the layer
 * back untouched, writing nothing: the least any merge costs, what a result served again
 * (its pixels shared, not written) comes down to besides reading the layer
 * (bench-effects.py).
 *
 * Built like GIMP's cheapest point operations: a filter (an input pad, so GIMP's drawable
 * filter path feeds it the layer and skips a source op's fixed cost), output in the input's
 * own format (no conversion anywhere), threaded over GEGL's workers, and written through a
 * buffer iterator, whole tiles at a time in the buffer's own memory. The input is never
 * read. */
#include <gegl.h>
#include <gegl-plugin.h>
#include <string.h>

typedef struct
{
  GeglOperationFilter parent_instance;
  const Babl         *format;
} TerrainBenchFloorOp;

typedef struct
{
  GeglOperationFilterClass parent_class;
} TerrainBenchFloorOpClass;

/* A name of our own: two modules registering one GType crash GIMP at start. */
G_DEFINE_DYNAMIC_TYPE (TerrainBenchFloorOp, terrain_bench_floor_op, GEGL_TYPE_OPERATION_FILTER)

static void
prepare (GeglOperation *operation)
{
  const Babl *source = gegl_operation_get_source_format (operation, "input");
  const Babl *format = source ? source : babl_format ("Y' u16");
  ((TerrainBenchFloorOp *) operation)->format = format;
  gegl_operation_set_format (operation, "input", format);
  gegl_operation_set_format (operation, "output", format);
}

static gboolean
process (GeglOperation *operation, GeglBuffer *input, GeglBuffer *output,
         const GeglRectangle *roi, gint level)
{
  const Babl *format = ((TerrainBenchFloorOp *) operation)->format;
  const int   bpp = babl_format_get_bytes_per_pixel (format);
  /* One pixel of height 0.5 (opaque where there is alpha) in the layer's format. */
  const float grey[2] = { 0.5f, 1.0f };
  guchar      pixel[64];
  (void) input, (void) level;
  babl_process (babl_fish (babl_format_with_space ("Y'A float", format), format), grey, pixel,
                1);

  GeglBufferIterator *it = gegl_buffer_iterator_new (output, roi, 0, format, GEGL_ACCESS_WRITE,
                                                     GEGL_ABYSS_NONE, 1);
  while (gegl_buffer_iterator_next (it))
    {
      guchar     *data = it->items[0].data;
      const gsize bytes = (gsize) it->length * bpp;
      if (bytes == 0)
        continue;
      memcpy (data, pixel, bpp);
      for (gsize done = bpp; done < bytes; done *= 2) /* doubling copies */
        memcpy (data + done, data, MIN (done, bytes - done));
    }
  return TRUE;
}

static void
terrain_bench_floor_op_class_init (TerrainBenchFloorOpClass *klass)
{
  GeglOperationClass       *operation_class = GEGL_OPERATION_CLASS (klass);
  GeglOperationFilterClass *filter_class = GEGL_OPERATION_FILTER_CLASS (klass);

  operation_class->prepare = prepare;
  operation_class->threaded = TRUE;
  filter_class->process = process;
  gegl_operation_class_set_keys (operation_class,
                                 "name", "terrain-bench:floor",
                                 "title", "Terrain benchmark floor",
                                 /* Not "hidden" (nor "programming"): GIMP 3.2 refuses those to
                                  * gimp-drawable-filter-new. */
                                 "categories", "terrain-bench",
                                 "description", "Benchmark only: writes height 0.5.",
                                 NULL);
}

/* ---- terrain-bench:pass: the floor, its output the input itself ---- */

typedef TerrainBenchFloorOp      TerrainBenchPassOp;
typedef TerrainBenchFloorOpClass TerrainBenchPassOpClass;

G_DEFINE_DYNAMIC_TYPE (TerrainBenchPassOp, terrain_bench_pass_op, terrain_bench_floor_op_get_type ())

static gboolean
pass_process (GeglOperation *operation, GeglOperationContext *context, const gchar *output_pad,
              const GeglRectangle *roi, gint level)
{
  (void) operation, (void) output_pad, (void) roi, (void) level;
  gegl_operation_context_set_object (context, "output",
                                     gegl_operation_context_get_object (context, "input"));
  return TRUE;
}

static void
terrain_bench_pass_op_class_init (TerrainBenchPassOpClass *klass)
{
  GeglOperationClass *operation_class = GEGL_OPERATION_CLASS (klass);

  operation_class->process = pass_process;
  gegl_operation_class_set_keys (operation_class,
                                 "name", "terrain-bench:pass",
                                 "title", "Terrain benchmark pass-through",
                                 "categories", "terrain-bench",
                                 "description", "Benchmark only: the layer unchanged.",
                                 NULL);
}

static void
terrain_bench_pass_op_class_finalize (TerrainBenchPassOpClass *klass)
{
  (void) klass;
}

static void
terrain_bench_pass_op_init (TerrainBenchPassOp *self)
{
  (void) self;
}

static void
terrain_bench_floor_op_class_finalize (TerrainBenchFloorOpClass *klass)
{
  (void) klass;
}

static void
terrain_bench_floor_op_init (TerrainBenchFloorOp *self)
{
  (void) self;
}

static const GeglModuleInfo module_info = { GEGL_MODULE_ABI_VERSION };

G_MODULE_EXPORT const GeglModuleInfo *gegl_module_query (GTypeModule *module);
G_MODULE_EXPORT gboolean              gegl_module_register (GTypeModule *module);

G_MODULE_EXPORT const GeglModuleInfo *
gegl_module_query (GTypeModule *module)
{
  (void) module;
  return &module_info;
}

G_MODULE_EXPORT gboolean
gegl_module_register (GTypeModule *module)
{
  /* GEGL unloads a module after this and loads it again (calling this again) when the
   * class is first needed: register anew then, but never over another module's type. */
  GType registered = g_type_from_name ("TerrainBenchFloorOp");
  if (registered == 0 || g_type_get_plugin (registered) == G_TYPE_PLUGIN (module))
    {
      terrain_bench_floor_op_register_type (module);
      terrain_bench_pass_op_register_type (module);
    }
  return TRUE;
}
