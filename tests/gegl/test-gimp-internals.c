/* The one place that knows GIMP's internals (src/gegl/gimp-internals.h) checks them against
 * what the process has: types made as GIMP's are (gimp-types.h: Gimp, GimpImage,
 * GimpDrawable, with their signals and properties), or with one signal changed, or as a
 * plug-in's process has them (no Gimp). One case per process, as GIMP has one set of types:
 *   test-gimp-internals fit | unfit-update | unfit-flush | plug-in | off */
#include "check.h"
#include "gimp-internals.h"
#include "gimp-types.h"

#include <string.h>

static GString *log_text;

static void
keep_log (const gchar *text)
{
  g_string_append (log_text, text);
}

static const char *the_case;

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

/* GIMP's types as the case has them (gimp-types.h). */
static void
make_gimp_types (void)
{
  const TerrainTestGimpTypes differences = {
    .no_gimp = strcmp (the_case, "plug-in") == 0,
    .flush_param = strcmp (the_case, "unfit-flush") ? G_TYPE_BOOLEAN : G_TYPE_INT,
    .update_params = strcmp (the_case, "unfit-update") ? 4 : 5,
  };
  terrain_test_make_gimp_types (&differences);
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
