/* The full results later.c makes in threads of their own (later.h), without GIMP: its types
 * made as GIMP's are (gimp-types.h), one drawable whose buffer two effects read, one above the
 * other in a graph. Run under ThreadSanitizer by build-aux/run-tsan, as in the unit suite.
 *  1. Renders of one effect replace each other, as strokes make them, while another thread
 *     asks whether they are under way, waits for them and reads their kept results: the last
 *     one's result is kept and is the filter's, GIMP is told of all of the layer, and nothing
 *     is left under way. The last may be made later once more (as when other results pushed
 *     it out), not a third time.
 *  2. The effect above asks while the one below is under way: its render waits, and is
 *     dropped when the one below tells GIMP; asked again, it is made.
 *  3. GIMP quits (Gimp::exit) with a render under way: it is cancelled and its thread ended
 *     within QUIT_US, the kept results let go, and GIMP is not told of it afterwards. */
#include "check.h"
#include "gimp-internals.h"
#include "gimp-types.h"
#include "huge-pages.h"
#include "later.h"
#include "reduced.h"
#include "result-cache.h"
#include "river-erosion.h"

#include <math.h>
#include <string.h>

/* Just over TERRAIN_REDUCED_CELLS: a look at factor 2. */
#define WIDTH  1024
#define HEIGHT 272
#define COUNT  ((gsize) WIDTH * HEIGHT)
/* later.c's QUIT_US, which quitting must keep to, with some room for ThreadSanitizer. */
#define QUIT_LIMIT_US (G_USEC_PER_SEC * 2)

/* ---- The drawable, its effects and what GIMP is told ---- */

typedef struct
{
  GObject       *gimp, *image, *drawable;
  GeglBuffer    *buffer;
  GeglNode      *graph, *below, *above; /* the effects: `above` reads from `below` */
  TerrainStroke *below_stroke, *above_stroke;
  int            updates, flushes;    /* GIMP told */
  GeglRectangle  updated;             /* the last update's */
} Gimp;

static void
updated (GObject *drawable, int x, int y, int width, int height, Gimp *gimp)
{
  (void) drawable;
  gimp->updates++;
  gimp->updated = (GeglRectangle) { x, y, width, height };
}

static void
flushed (GObject *image, gboolean invalidate_preview, Gimp *gimp)
{
  (void) image, (void) invalidate_preview;
  gimp->flushes++;
}

static void
make_gimp (Gimp *gimp)
{
  gimp->drawable = g_object_new (terrain_test_make_gimp_types (NULL), NULL);
  gimp->gimp = g_object_new (g_type_from_name ("Gimp"), NULL);
  gimp->image = g_object_new (g_type_from_name ("GimpImage"), NULL);
  gimp->buffer = gegl_buffer_new (GEGL_RECTANGLE (0, 0, WIDTH, HEIGHT), babl_format ("Y' float"));
  g_object_set_data (gimp->image, "gimp", gimp->gimp);
  g_object_set_data (gimp->drawable, "image", gimp->image);
  g_object_set_data (gimp->drawable, "buffer", gimp->buffer);
  gimp->graph = gegl_node_new ();
  gimp->below = gegl_node_new_child (gimp->graph, "operation", "gegl:nop", NULL);
  gimp->above = gegl_node_new_child (gimp->graph, "operation", "gegl:nop", NULL);
  gegl_node_link (gimp->below, gimp->above);
  gimp->below_stroke = terrain_stroke_new ();
  gimp->above_stroke = terrain_stroke_new ();
  g_signal_connect (gimp->drawable, "update", G_CALLBACK (updated), gimp);
  g_signal_connect (gimp->image, "flush", G_CALLBACK (flushed), gimp);
  /* GIMP's first update of the drawable: later.c sees it from then on. */
  terrain_later_watch ();
  g_signal_emit_by_name (gimp->drawable, "update", 0, 0, WIDTH, HEIGHT);
  gimp->updates = 0;
}

static void
free_gimp (Gimp *gimp)
{
  terrain_stroke_free (gimp->below_stroke);
  terrain_stroke_free (gimp->above_stroke);
  g_object_unref (gimp->graph);
  g_object_unref (gimp->drawable);
  g_object_unref (gimp->buffer);
  g_object_unref (gimp->image);
  g_object_unref (gimp->gimp);
}

/* ---- Renders ---- */

/* River Erosion: a look at a reduced factor, made ahead in a thread of its own once a result
 * is kept (stroke.h), and cancellable every step. */
static const TerrainProcedureInfo *filter;
static TerrainArgValue            *values;
static TerrainPixelCodec           codec;

static TerrainResultKey
key_of (int tag)
{
  return (TerrainResultKey) { { 0x5eed0000u + (guint64) tag, (guint64) tag * 2654435761u } };
}

/* The layer of render `tag`. */
static void
layer_of (int tag, float *heights)
{
  for (int y = 0; y < HEIGHT; y++)
    for (int x = 0; x < WIDTH; x++)
      heights[y * WIDTH + x] = 0.5f + 0.45f * sinf (0.3f * x + tag) * cosf (0.23f * y - tag);
}

/* Renders of the analytical method (a tenth of a second here), or of the simulation's longest
 * run (minutes). */
static void
set_method (gboolean longest)
{
  const TerrainArg *arg = &filter->args[terrain_arg_index (filter, "method")];
  CHECK (terrain_arg_from_text (arg, longest ? "simulate" : "analytical",
                                &values[terrain_arg_index (filter, "method")]) == 0,
         "no method");
  values[terrain_arg_index (filter, "iterations")].number = TERRAIN_RIVER_MAX_ITERATIONS;
}

/* Asks for render `tag` of the effect `node` (of `stroke`) to be made later. */
static void
start (Gimp *gimp, int tag, TerrainStroke *stroke, GeglNode *node)
{
  const TerrainResultKey key = key_of (tag), settings = key_of (-1);
  guchar                *pixels = terrain_pages_alloc (COUNT * sizeof (float));
  layer_of (tag, (float *) pixels);
  terrain_later_start (&key, &settings, filter, values, &pixels, &codec, WIDTH, HEIGHT,
                       terrain_look_factor (filter, WIDTH, HEIGHT), stroke, gimp->buffer, node,
                       "test-later");
  terrain_pages_free (pixels); /* not taken: one for the key was under way */
}

/* Runs the main loop (GIMP's) until `done` holds of tag, or `seconds` passed. */
static gboolean
run_until (gboolean (*done) (int), int tag, double seconds)
{
  const gint64 end = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);
  while (! done (tag) && g_get_monotonic_time () < end)
    if (! g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
  return done (tag);
}

static gboolean
ended (int tag)
{
  const TerrainResultKey key = key_of (tag);
  return ! terrain_later_under_way (&key);
}

static gboolean
never (int tag)
{
  (void) tag;
  return FALSE;
}

/* The main loop's sources run a while longer (tell_gimp after a render's end). */
static void
run_a_while (double seconds)
{
  run_until (never, 0, seconds);
}

/* Whether the kept result of `tag` is the filter's of its layer (FALSE when none is kept). */
static gboolean
kept_right (int tag)
{
  const TerrainResultKey key = key_of (tag);
  TerrainResult         *kept = terrain_result_lookup (&key, COUNT);
  float                 *expected = g_new (float, COUNT);
  char                   why[256];
  layer_of (tag, expected);
  gboolean right = kept != NULL &&
                   terrain_procedure_render (filter, values, expected, WIDTH, HEIGHT, NULL, why,
                                             sizeof why) == TERRAIN_OK &&
                   memcmp (terrain_result_heights (kept), expected, COUNT * sizeof (float)) == 0;
  terrain_result_unref (kept);
  g_free (expected);
  return right;
}

/* ---- Another thread: GEGL's, asking as exact readers do ---- */

#define TAGS 6

static gint   stop_asking;
static double asked_sum; /* of the heights read, so that reading them is not left out */

static gpointer
ask (gpointer data)
{
  (void) data;
  for (int round = 0; ! g_atomic_int_get (&stop_asking); round++)
    {
      const TerrainResultKey key = key_of (round % TAGS);
      terrain_later_allowed (&key);
      if (round % 7 == 0)
        terrain_later_wait (&key);
      else
        terrain_later_under_way (&key);
      TerrainResult *kept = terrain_result_lookup (&key, COUNT);
      if (kept)
        asked_sum += terrain_result_heights (kept)[(gsize) round % COUNT];
      terrain_result_unref (kept);
      g_usleep (200);
    }
  return NULL;
}

/* ---- The cases ---- */

/* 1. One effect's renders replace each other, some before their thread started, some
 * while it renders. */
static void
replaced_while_asked (Gimp *gimp)
{
  GThread *asker = g_thread_new ("asker", ask, NULL);
  set_method (FALSE);
  for (int tag = 0; tag < TAGS; tag++)
    {
      start (gimp, tag, gimp->below_stroke, gimp->below);
      run_a_while (0.002 * tag * tag);
    }
  const int last = TAGS - 1;
  const gboolean done = run_until (ended, last, 60.0);
  run_a_while (0.3);
  g_atomic_int_set (&stop_asking, 1);
  g_thread_join (asker);
  CHECK (done, "render %d still under way after 60 s", last);
  for (int tag = 0; tag < last; tag++)
    CHECK (ended (tag), "replaced render %d still under way", tag);
  CHECK (kept_right (last), "the last render's result is not the filter's");
  const TerrainResultKey key = key_of (last);
  CHECK (terrain_later_allowed (&key), "made later once, then not allowed again");
  terrain_result_forget_all (); /* pushed out */
  start (gimp, last, gimp->below_stroke, gimp->below);
  CHECK (run_until (ended, last, 60.0), "render %d made again still under way after 60 s", last);
  CHECK (! terrain_later_allowed (&key), "made later twice, then allowed again");
  CHECK (gimp->updates >= 1 && gimp->flushes >= 1, "GIMP told %d times, flushed %d",
         gimp->updates, gimp->flushes);
  CHECK (gegl_rectangle_equal (&gimp->updated, GEGL_RECTANGLE (0, 0, WIDTH, HEIGHT)),
         "told of %d,%d %dx%d", gimp->updated.x, gimp->updated.y, gimp->updated.width,
         gimp->updated.height);
}

/* 2. The effect above asks while the effect below's render is under way. */
static void
above_waits_for_below (Gimp *gimp)
{
  const int below = 10, above = 11;
  const TerrainResultKey above_key = key_of (above);
  set_method (FALSE);
  start (gimp, below, gimp->below_stroke, gimp->below);
  start (gimp, above, gimp->above_stroke, gimp->above);
  CHECK (terrain_later_under_way (&above_key), "the render above is not under way");
  CHECK (! terrain_later_wait (&above_key), "waited for a render that waits");
  CHECK (run_until (ended, below, 60.0), "the render below still under way after 60 s");
  run_a_while (0.3);
  CHECK (ended (above), "the render above still waits after the one below told GIMP");
  CHECK (! kept_right (above), "the render above was made of the look below");
  start (gimp, above, gimp->above_stroke, gimp->above);
  CHECK (run_until (ended, above, 60.0), "the render above still under way after 60 s");
  run_a_while (0.3);
  CHECK (kept_right (below) && kept_right (above), "below %d, above %d", kept_right (below),
         kept_right (above));
}

static GString *said;

static void
keep_said (const gchar *text)
{
  g_string_append (said, text);
}

/* 3. GIMP quits with a render under way. */
static void
quit_under_way (Gimp *gimp)
{
  const int tag = 20;
  set_method (TRUE);
  start (gimp, tag, gimp->below_stroke, gimp->below);
  run_a_while (0.2); /* its thread started (start_thread), and renders */
  CHECK (! ended (tag), "the long render ended before GIMP quit");
  const int     told = gimp->updates;
  const gint64  before = g_get_monotonic_time ();
  gboolean      kill_it = FALSE;
  g_signal_emit_by_name (gimp->gimp, "exit", FALSE, &kill_it);
  const gint64  took = g_get_monotonic_time () - before;
  CHECK (took < QUIT_LIMIT_US, "quitting took %.2f s", (double) took / G_USEC_PER_SEC);
  CHECK (ended (tag), "the render still under way after GIMP quit");
  CHECK (strstr (said->str, "still being made") == NULL, "said: %s", said->str);
  const TerrainResultKey key = key_of (5);
  TerrainResult         *kept = terrain_result_lookup (&key, COUNT);
  CHECK (kept == NULL, "a result still kept after GIMP quit");
  terrain_result_unref (kept);
  run_a_while (0.3);
  CHECK (gimp->updates == told, "GIMP told %d times after it quit", gimp->updates - told);
}

int
main (int argc, char **argv)
{
  gegl_init (&argc, &argv);
  said = g_string_new (NULL);
  g_set_printerr_handler (keep_said);
  filter = terrain_procedure_find ("plug-in-terrain-river-erosion");
  values = g_new0 (TerrainArgValue, terrain_arg_count (filter));
  terrain_arg_defaults (filter, values);
  CHECK (terrain_pixel_codec (babl_format ("Y' float"), &codec), "no codec for Y' float");
  CHECK (terrain_look_factor (filter, WIDTH, HEIGHT) > 1, "no reduced look at %d x %d", WIDTH,
         HEIGHT);
  Gimp gimp = { 0 };
  make_gimp (&gimp);
  CHECK (terrain_gimp_objects () != NULL, "GIMP's types do not fit: %s", said->str);
  replaced_while_asked (&gimp);
  above_waits_for_below (&gimp);
  quit_under_way (&gimp);
  free_gimp (&gimp);
  g_free (values);
  fputs (said->str, stderr);
  g_string_free (said, TRUE);
  gegl_exit ();
  return CHECK_DONE ("later");
}
