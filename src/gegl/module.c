/* gimp-terrain's GEGL module: every procedure of the descriptor table as a GEGL operation,
 * which GIMP loads into its own process (its gegl-0.4/plug-ins folders). The core runs on
 * GEGL's threads there. */
#define _GNU_SOURCE /* dladdr */
#include "huge-pages.h"
#include "later.h"
#include "mainloop-probe.h"
#include "operation.h"

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

/* ---- The core's threads: GEGL's ---- */

typedef struct
{
  TerrainTask task;
  void       *task_user;
  int         count;
  gint        next; /* the next index to take (atomic) */
} Tasks;

/* Each part takes the next task left, not every parts-th: tasks differ in size (River
 * Erosion's trees run largest first, one of them half the map) and a GEGL thread may start
 * late; with a fixed share, the others would wait for it. The tasks are independent, so
 * which thread runs one changes nothing of the result. */
static void
run_part (gint part, gint parts, gpointer data)
{
  Tasks *tasks = data;
  int    i;
  (void) part;
  (void) parts;
  while ((i = g_atomic_int_add (&tasks->next, 1)) < tasks->count)
    tasks->task (tasks->task_user, i);
}

static void
run_tasks (void *user, int count, TerrainTask task, void *task_user)
{
  Tasks tasks = { task, task_user, count, 0 };
  (void) user;
  gegl_parallel_distribute (count, run_part, &tasks);
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
  const TerrainParallel parallel = { run_tasks, NULL, (int) MAX (1, g_get_num_processors ()) };
  terrain_set_parallel (&parallel);
  terrain_use_huge_pages ();
  for (int i = 0; terrain_procedures[i]; i++)
    terrain_operation_register (module, terrain_procedures[i]);
  terrain_mainloop_probe_start ();
  return TRUE;
}
