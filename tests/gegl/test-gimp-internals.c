/* The one place that knows GIMP's internals (src/gegl/gimp-internals.h) checks them against
 * what the process has: types made here as GIMP's are (Gimp, GimpImage, GimpDrawable, with
 * their signals and properties), or with one signal changed, or as a plug-in's process has
 * them (no Gimp). One case per process, as GIMP has one set of types:
 *   test-gimp-internals fit | unfit-update | unfit-flush | plug-in | off */
#include "check.h"
#include "gimp-internals.h"

#include <string.h>

static GString *log_text;

static void
keep_log (const gchar *text)
{
  g_string_append (log_text, text);
}

static void
class_init (gpointer klass, gpointer data)
{
  (void) klass;
  (void) data;
}

/* A GObject type `name` whose class has `install` called on it. */
static GType
object_type (const char *name, GClassInitFunc install)
{
  return g_type_register_static_simple (G_TYPE_OBJECT, name, sizeof (GObjectClass),
                                        install ? install : class_init, sizeof (GObject),
                                        NULL, 0);
}

static const char *the_case;

static void
image_class_init (gpointer klass, gpointer data)
{
  (void) data;
  const GType param = strcmp (the_case, "unfit-flush") ? G_TYPE_BOOLEAN : G_TYPE_INT;
  g_signal_new ("flush", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_FIRST, 0, NULL, NULL, NULL,
                G_TYPE_NONE, 1, param);
}

static void
get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  (void) object, (void) id, (void) value, (void) pspec;
}

static void
drawable_class_init (gpointer klass, gpointer data)
{
  (void) data;
  GObjectClass *object = klass;
  object->get_property = get_property;
  const guint   count = strcmp (the_case, "unfit-update") ? 4 : 5;
  g_signal_new ("update", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_FIRST, 0, NULL, NULL, NULL,
                G_TYPE_NONE, count, G_TYPE_INT, G_TYPE_INT, G_TYPE_INT, G_TYPE_INT, G_TYPE_INT);
  g_object_class_install_property (object, 1,
                                   g_param_spec_object ("buffer", NULL, NULL, GEGL_TYPE_BUFFER,
                                                        G_PARAM_READABLE));
  g_object_class_install_property (object, 2,
                                   g_param_spec_object ("image", NULL, NULL,
                                                        g_type_from_name ("GimpImage"),
                                                        G_PARAM_READABLE));
}

static gboolean displayed;

static gboolean
note_display (gpointer data)
{
  displayed = terrain_gimp_display_render ();
  g_main_loop_quit (data);
  return G_SOURCE_REMOVE;
}

/* Whether a render from GIMP's canvas idle (priority G_PRIORITY_HIGH_IDLE + 22) is a display
 * render. */
static gboolean
canvas_render (void)
{
  GMainLoop *loop = g_main_loop_new (NULL, FALSE);
  g_idle_add_full (G_PRIORITY_HIGH_IDLE + 22, note_display, loop, NULL);
  g_main_loop_run (loop);
  g_main_loop_unref (loop);
  return displayed;
}

/* GIMP's types as the case has them, their classes made (as GIMP's first drawable does). */
static void
make_gimp_types (void)
{
  if (strcmp (the_case, "plug-in") != 0)
    g_type_class_ref (object_type ("Gimp", NULL));
  g_type_class_ref (object_type ("GimpImage", image_class_init));
  g_type_class_ref (object_type ("GimpDrawable", drawable_class_init));
}

int
main (int argc, char **argv)
{
  the_case = argc > 1 ? argv[1] : "fit";
  const gboolean fit = strcmp (the_case, "fit") == 0;
  const gboolean unfit = g_str_has_prefix (the_case, "unfit");
  const gboolean off = strcmp (the_case, "off") == 0;
  if (off)
    g_setenv ("TERRAIN_LIVE", "0", TRUE);
  log_text = g_string_new (NULL);
  g_set_printerr_handler (keep_log);

  /* Before GIMP has a drawable: nothing to check yet, nothing said. */
  CHECK (terrain_gimp_objects () == NULL, "%s: objects before any drawable", the_case);
  CHECK (terrain_live () == (! off), "%s: live before", the_case);

  make_gimp_types ();
  const TerrainGimpObjects *objects = terrain_gimp_objects ();
  CHECK ((objects != NULL) == (fit || off), "%s: objects %p", the_case, (void *) objects);
  CHECK (! fit || (objects->drawable_update != 0 && objects->image_flush != 0),
         "%s: the signals' ids", the_case);
  CHECK (terrain_live () == (fit || strcmp (the_case, "plug-in") == 0), "%s: live after",
         the_case);
  CHECK (terrain_live () == terrain_live (), "%s: decided", the_case);

  /* Said once, and why, only where live effects are off. */
  const char *said = log_text->str;
  const char *first = strstr (said, "live effects are off");
  CHECK ((first != NULL) == (unfit || off), "%s: said: %s", the_case,
         said);
  CHECK (first == NULL || strstr (first + 1, "live effects are off") == NULL, "%s: said twice: %s",
         the_case, said);
  CHECK (strcmp (the_case, "unfit-update") || strstr (said, "GimpDrawable::update") != NULL,
         "%s: why: %s", the_case, said);
  CHECK (strcmp (the_case, "unfit-flush") || strstr (said, "GimpImage::flush") != NULL,
         "%s: why: %s", the_case, said);
  CHECK (strcmp (the_case, "off") || strstr (said, "TERRAIN_LIVE=0") != NULL, "%s: why: %s",
         the_case, said);
  /* The canvas's idle renders for the display only while live effects are on. */
  CHECK (canvas_render () == terrain_live (), "%s: the canvas's render", the_case);
  g_string_free (log_text, TRUE);
  return CHECK_DONE (the_case);
}
