/* gimp-terrain's GEGL module: every procedure of the descriptor table as a GEGL operation,
 * which GIMP loads into its own process (its gegl-0.4/plug-ins folders). The core runs on
 * the module's own threads there (src/threads), not on GEGL's one pool: a result made in a
 * thread for seconds would hold that pool, and GIMP's own filters would run on one core
 * meanwhile. */
#define _GNU_SOURCE /* dladdr */
#include "huge-pages.h"
#include "later.h"
#include "mainloop-probe.h"
#include "operation.h"
#include "thread-pool.h"

#include <glib/gi18n-lib.h>
#include <string.h>
#ifdef __linux__
#include <dlfcn.h>
#endif

static const GeglModuleInfo module_info = { GEGL_MODULE_ABI_VERSION };

G_MODULE_EXPORT const GeglModuleInfo *gegl_module_query (GTypeModule *module);
G_MODULE_EXPORT gboolean              gegl_module_register (GTypeModule *module);

G_MODULE_EXPORT const GeglModuleInfo *
gegl_module_query (GTypeModule *module)
{
  (void) module;
  return &module_info;
}

/* ---- Translations: the plug-in's catalogs ---- */

static const char *
translate (const char *msgid)
{
  return g_dgettext (GETTEXT_PACKAGE, msgid);
}

/* A "gimp-terrain-locale" folder next to the module (a per-user copy), else the plug-in's
 * installed catalogs. */
static void
bind_catalogs (void)
{
  const char *folder = TERRAIN_PLUGIN_LOCALEDIR;
  gchar      *beside = NULL;
#ifdef __linux__
  Dl_info where;
  if (dladdr ((void *) bind_catalogs, &where) && where.dli_fname)
    {
      gchar *dir = g_path_get_dirname (where.dli_fname);
      beside = g_build_filename (dir, "gimp-terrain-locale", NULL);
      g_free (dir);
      if (g_file_test (beside, G_FILE_TEST_IS_DIR))
        folder = beside;
    }
#endif
  bindtextdomain (GETTEXT_PACKAGE, folder);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  g_free (beside);
}

/* ---- Resident ---- */

/* The module stays mapped for the life of the process. GEGL opens a module to register its
 * types and closes it at once (gegl_module_new: load, then unload), and opens it again when
 * a type is used, while the module's emission hooks (later.c, gimp-internals.c), main-loop
 * sources and threads point into its code: unmapped, GIMP crashed. Opening it once more
 * through GModule, which hands out the same GModule for the same file, and making that
 * resident keeps every close from unmapping it. FALSE where the module's file is unknown. */
static gboolean
stay_resident (void)
{
  static gboolean resident;
#ifdef __linux__
  Dl_info where;
  if (! resident && dladdr ((void *) stay_resident, &where) && where.dli_fname)
    {
      GModule *self = g_module_open (where.dli_fname, G_MODULE_BIND_LAZY);
      if (self)
        g_module_make_resident (self);
      resident = self != NULL;
    }
#endif
  return resident;
}

G_MODULE_EXPORT gboolean
gegl_module_register (GTypeModule *module)
{
  if (! stay_resident ())
    g_warning ("gimp-terrain: the GEGL module could not be kept loaded");
  bind_catalogs ();
  terrain_translate = translate;
  terrain_use_threads (terrain_thread_count ());
  terrain_use_huge_pages ();
  for (int i = 0; terrain_procedures[i]; i++)
    terrain_operation_register (module, terrain_procedures[i]);
  terrain_mainloop_probe_start ();
  return TRUE;
}
