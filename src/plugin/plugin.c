/* gimp-terrain: the GIMP 3 plug-in class. Every procedure comes from the descriptor table
 * (src/procedures): this file only lists and creates them. */
#include "register.h"

#include <libgimp/gimp.h>

typedef struct
{
  GimpPlugIn parent_instance;
} TerrainPlugIn;

typedef struct
{
  GimpPlugInClass parent_class;
} TerrainPlugInClass;

#define TERRAIN_TYPE_PLUG_IN (terrain_plug_in_get_type ())
GType terrain_plug_in_get_type (void);

G_DEFINE_TYPE (TerrainPlugIn, terrain_plug_in, GIMP_TYPE_PLUG_IN)

static GList *
query_procedures (GimpPlugIn *plug_in)
{
  GList *names = NULL;
  (void) plug_in;
  for (int i = 0; terrain_procedures[i]; i++)
    names = g_list_append (names, g_strdup (terrain_procedures[i]->name));
  return names;
}

static GimpProcedure *
create_procedure (GimpPlugIn *plug_in, const gchar *name)
{
  const TerrainProcedureInfo *info = terrain_procedure_find (name);
  return info ? terrain_procedure_new (plug_in, info) : NULL;
}

static void
terrain_plug_in_class_init (TerrainPlugInClass *klass)
{
  GimpPlugInClass *plug_in_class = GIMP_PLUG_IN_CLASS (klass);
  plug_in_class->query_procedures = query_procedures;
  plug_in_class->create_procedure = create_procedure;
  plug_in_class->set_i18n = NULL; /* no catalogs yet: keeps GIMP from warning */
}

static void
terrain_plug_in_init (TerrainPlugIn *self)
{
  (void) self;
}

GIMP_MAIN (TERRAIN_TYPE_PLUG_IN)
