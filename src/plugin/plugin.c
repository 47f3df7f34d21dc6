/* gimp-terrain: the GIMP 3 plug-in class. Every procedure comes from the descriptor table
 * (src/procedures), but the 3D view (view3d-procedure.h): this file only lists and creates
 * them. */
#include "register.h"
#include "view3d-procedure.h"

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
  return g_list_append (names, g_strdup (TERRAIN_VIEW3D_PROCEDURE));
}

static GimpProcedure *
create_procedure (GimpPlugIn *plug_in, const gchar *name)
{
  const TerrainProcedureInfo *info = terrain_procedure_find (name);
  if (g_strcmp0 (name, TERRAIN_VIEW3D_PROCEDURE) == 0)
    return terrain_view3d_procedure_new (plug_in);
  return info ? terrain_procedure_new (plug_in, info) : NULL;
}

/* Our gettext domain, "gimp-terrain" (GETTEXT_PACKAGE, which the _() of glib/gi18n-lib.h
 * uses too), with its catalogs in the locale/ folder next to the binary:
 * plug-ins/terrain/locale/<lang>/LC_MESSAGES/gimp-terrain.mo. libgimp calls this before it
 * queries, creates or runs a procedure, refuses a catalog_dir that is absolute or outside
 * the plug-in's folder, then binds the domain (UTF-8) and makes it the textdomain. */
static gboolean
set_i18n (GimpPlugIn *plug_in, const gchar *procedure_name, gchar **gettext_domain,
          gchar **catalog_dir)
{
  (void) plug_in;
  (void) procedure_name;
  *gettext_domain = g_strdup (GETTEXT_PACKAGE);
  *catalog_dir = g_strdup ("locale");
  return TRUE;
}

/* The descriptors' error reasons (terrain_why) in the user's language. */
static const char *
translate (const char *msgid)
{
  return g_dgettext (GETTEXT_PACKAGE, msgid);
}

static void
terrain_plug_in_class_init (TerrainPlugInClass *klass)
{
  GimpPlugInClass *plug_in_class = GIMP_PLUG_IN_CLASS (klass);
  plug_in_class->query_procedures = query_procedures;
  plug_in_class->create_procedure = create_procedure;
  plug_in_class->set_i18n = set_i18n;
  terrain_translate = translate;
}

static void
terrain_plug_in_init (TerrainPlugIn *self)
{
  (void) self;
}

GIMP_MAIN (TERRAIN_TYPE_PLUG_IN)
