/* A benchmark-only GIMP plug-in: plug-in-terrain-bench-transfer-floor writes a constant
 * height through the plug-in's own glue (register, run, apply and the write path of
 * src/plugin, linked in unchanged), so timing it gives the cost of everything but the
 * terrain: the floor our procedures are compared with in tests/bench/bench-gimp.py. */
#include "register.h"

#include <libgimp/gimp.h>

static const TerrainArg no_args[] = { TERRAIN_ARGS_END };

/* No parameters: a core of nothing. */
static void
defaults (void *params)
{
  (void) params;
}

/* Positional like a generator's render_rect: the write path takes bands straight from it. */
static TerrainStatus
render_rect (const void *params, float *out, int x, int y, int width, int height,
             const TerrainProgress *progress)
{
  (void) params, (void) x, (void) y, (void) progress;
  for (size_t i = 0; i < (size_t) width * height; i++)
    out[i] = 0.5f;
  return TERRAIN_OK;
}

static TerrainStatus
render (const void *params, float *heights, int width, int height,
        const TerrainProgress *progress)
{
  return render_rect (params, heights, 0, 0, width, height, progress);
}

static const TerrainProcedureInfo transfer_floor = {
  .name = "plug-in-terrain-bench-transfer-floor",
  .menu_label = "Transfer floor (benchmark)",
  .blurb = "Writes height 0.5 through the terrain plug-in's write path",
  .help = "Benchmark only: the cost of a terrain procedure without its terrain.",
  .kind = TERRAIN_GENERATOR,
  .args = no_args,
  .params_size = 1,
  .defaults = defaults,
  .render = render,
  .render_rect = render_rect
};

typedef struct { GimpPlugIn parent_instance; } FloorPlugIn;
typedef struct { GimpPlugInClass parent_class; } FloorPlugInClass;

#define FLOOR_TYPE_PLUG_IN (floor_plug_in_get_type ())
GType floor_plug_in_get_type (void);
G_DEFINE_TYPE (FloorPlugIn, floor_plug_in, GIMP_TYPE_PLUG_IN)

static GList *
query_procedures (GimpPlugIn *plug_in)
{
  (void) plug_in;
  return g_list_append (NULL, g_strdup (transfer_floor.name));
}

static GimpProcedure *
create_procedure (GimpPlugIn *plug_in, const gchar *name)
{
  return g_strcmp0 (name, transfer_floor.name) == 0
           ? terrain_procedure_new (plug_in, &transfer_floor) : NULL;
}

static void
floor_plug_in_class_init (FloorPlugInClass *klass)
{
  GIMP_PLUG_IN_CLASS (klass)->query_procedures = query_procedures;
  GIMP_PLUG_IN_CLASS (klass)->create_procedure = create_procedure;
}

static void
floor_plug_in_init (FloorPlugIn *self)
{
  (void) self;
}

GIMP_MAIN (FLOOR_TYPE_PLUG_IN)
