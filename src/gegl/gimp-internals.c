#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "gimp-internals.h"

#include <stdio.h>
#include <string.h>
#ifdef __linux__
#include <dlfcn.h>
#include <unistd.h>
#endif

/* ---- The version, and saying once why live effects are off ---- */

/* The GIMP the module runs in, from libgimpbase's exported version (GIMP's process links
 * it); FALSE where there is none. */
static gboolean
gimp_version (guint *major, guint *minor)
{
#ifdef __linux__
  const guint *found_major = dlsym (RTLD_DEFAULT, "gimp_major_version");
  const guint *found_minor = dlsym (RTLD_DEFAULT, "gimp_minor_version");
  if (found_major && found_minor)
    {
      *major = *found_major;
      *minor = *found_minor;
      return TRUE;
    }
#endif
  (void) major, (void) minor;
  return FALSE;
}

/* Why live effects are off from the start, or NULL. */
static const char *
why_off_from_start (void)
{
  static char why[128];
  guint       major, minor;
  if (g_strcmp0 (g_getenv ("TERRAIN_LIVE"), "0") == 0)
    return "TERRAIN_LIVE=0";
  if (gimp_version (&major, &minor) && ! (major == 3 && (minor == 0 || minor == 2)))
    {
      snprintf (why, sizeof why, "GIMP %u.%u, not one they were tested on (3.0, 3.2)", major,
                minor);
      return why;
    }
  return NULL;
}

/* Says why live effects are off, the first time only. */
static void
say_off (const char *why)
{
  static gint said;
  if (! g_atomic_int_compare_and_exchange (&said, 0, 1))
    return;
#ifdef __linux__
  const int process = (int) getpid ();
#else
  const int process = 0;
#endif
  g_printerr ("gimp-terrain (pid %d): live effects are off (%s): every effect renders "
              "exactly, in place\n", process, why);
}

static gint objects_failed; /* GIMP's objects failed their check: off from then on */

gboolean
terrain_live (void)
{
  static gsize    decided;
  static gboolean live;
  if (g_once_init_enter (&decided))
    {
      const char *why = why_off_from_start ();
      live = why == NULL;
      if (why)
        say_off (why);
      g_once_init_leave (&decided, 1);
    }
  if (live && g_atomic_int_get (&objects_failed) == 0)
    terrain_gimp_objects (); /* checks them once GIMP has them */
  return live && g_atomic_int_get (&objects_failed) == 0;
}

/* ---- GIMP's objects ---- */

/* The signal `name` of `type` when it returns `returns`, takes `count` arguments of type
 * `param` and can be hooked; 0 otherwise. */
static guint
checked_signal (GType type, const char *name, GType returns, guint count, GType param)
{
  const guint  id = type ? g_signal_lookup (name, type) : 0;
  GSignalQuery query;
  if (id == 0)
    return 0;
  g_signal_query (id, &query);
  gboolean fits = (query.return_type & ~G_SIGNAL_TYPE_STATIC_SCOPE) == returns &&
                  query.n_params == count && ! (query.signal_flags & G_SIGNAL_NO_HOOKS);
  for (guint i = 0; fits && i < count; i++)
    fits = (query.param_types[i] & ~G_SIGNAL_TYPE_STATIC_SCOPE) == param;
  return fits ? id : 0;
}

/* Whether objects of `type` have the property `name` of (a subtype of) `value_type`. */
static gboolean
has_property (GType type, const char *name, GType value_type)
{
  gpointer    klass = g_type_class_ref (type);
  GParamSpec *property = g_object_class_find_property (klass, name);
  const gboolean has = property && g_type_is_a (property->value_type, value_type);
  g_type_class_unref (klass);
  return has;
}

/* A class GIMP has made by now, by its type's name; 0 if not (yet). */
static GType
made_class (const char *name)
{
  const GType type = g_type_from_name (name);
  return type && g_type_class_peek (type) ? type : 0;
}

/* GIMP's drawables' and images' signals into `objects`; why they do not fit, or NULL. */
static const char *
check_objects (TerrainGimpObjects *objects)
{
  const GType drawable = made_class ("GimpDrawable");
  const GType image = g_type_from_name ("GimpImage");
  objects->drawable_update = checked_signal (drawable, "update", G_TYPE_NONE, 4, G_TYPE_INT);
  if (objects->drawable_update == 0)
    return "GimpDrawable::update is not (int x, int y, int width, int height)";
  if (! has_property (drawable, "buffer", GEGL_TYPE_BUFFER))
    return "GimpDrawable has no \"buffer\" GeglBuffer";
  if (image == 0 || ! has_property (drawable, "image", image))
    return "GimpDrawable has no \"image\" GimpImage";
  objects->image_flush = checked_signal (image, "flush", G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
  if (objects->image_flush == 0)
    return "GimpImage::flush is not (gboolean)";
  return NULL;
}

const TerrainGimpObjects *
terrain_gimp_objects (void)
{
  static GMutex             lock;
  static TerrainGimpObjects objects;
  static gint               checked; /* 1: fit, 2: failed or not GIMP's process */
  if (g_atomic_int_get (&checked) == 0)
    {
      g_mutex_lock (&lock);
      /* GIMP registers the Gimp type before any drawable; libgimp has neither. */
      if (g_atomic_int_get (&checked) == 0 && made_class ("GimpDrawable"))
        {
          const char *why = g_type_from_name ("Gimp") ? check_objects (&objects) : "";
          if (why && *why)
            {
              say_off (why);
              g_atomic_int_set (&objects_failed, 1);
            }
          g_atomic_int_set (&checked, why ? 2 : 1);
        }
      g_mutex_unlock (&lock);
    }
  return g_atomic_int_get (&checked) == 1 ? &objects : NULL;
}

gconstpointer
terrain_gimp_drawable_buffer (GObject *drawable)
{
  GeglBuffer         *buffer = NULL;
  g_object_get (drawable, "buffer", &buffer, NULL);
  const gconstpointer its = buffer;
  g_clear_object (&buffer); /* the drawable keeps it */
  return its;
}

void
terrain_gimp_drawable_redraw (GObject *drawable, const GeglRectangle *extent)
{
  const TerrainGimpObjects *objects = terrain_gimp_objects ();
  GObject                  *image = NULL;
  if (objects == NULL)
    return;
  g_signal_emit (drawable, objects->drawable_update, 0, 0, 0, extent->width, extent->height);
  g_object_get (drawable, "image", &image, NULL);
  if (image)
    g_signal_emit (image, objects->image_flush, 0, TRUE);
  g_clear_object (&image);
}

static gboolean
exiting (GSignalInvocationHint *hint, guint count, const GValue *params, gpointer drop)
{
  (void) hint;
  (void) count;
  (void) params;
  ((void (*) (void)) drop) ();
  return TRUE;
}

/* GIMP's Gimp::exit (app/core/gimp.c): gboolean (gboolean kill_it); 0 where it does not fit
 * or GIMP has made no Gimp yet. */
static guint
exit_signal (void)
{
  return checked_signal (made_class ("Gimp"), "exit", G_TYPE_BOOLEAN, 1, G_TYPE_BOOLEAN);
}

void
terrain_gimp_on_exit (void (*drop) (void))
{
  static gint watched;
  if (g_atomic_int_get (&watched))
    return;
  const guint exit = exit_signal ();
  if (exit != 0 && g_atomic_int_compare_and_exchange (&watched, 0, 1))
    g_signal_add_emission_hook (exit, 0, exiting, (gpointer) drop, NULL);
}

static gboolean
quitting (GObject *gimp, gboolean kill_it, gpointer quit)
{
  (void) gimp;
  (void) kill_it;
  ((void (*) (void)) quit) ();
  return FALSE;
}

void
terrain_gimp_on_quit (GObject *drawable, void (*quit) (void))
{
  static gint connected;
  GObject    *image = NULL, *gimp = NULL;
  const GType type = g_type_from_name ("Gimp");
  if (g_atomic_int_get (&connected) || exit_signal () == 0 ||
      ! has_property (G_OBJECT_TYPE (drawable), "image", g_type_from_name ("GimpImage")))
    return;
  g_object_get (drawable, "image", &image, NULL);
  if (image && has_property (G_OBJECT_TYPE (image), "gimp", type))
    g_object_get (image, "gimp", &gimp, NULL);
  if (gimp && g_atomic_int_compare_and_exchange (&connected, 0, 1))
    g_signal_connect (gimp, "exit", G_CALLBACK (quitting), (gpointer) quit);
  g_clear_object (&gimp);
  g_clear_object (&image);
}

/* ---- Who asks ---- */

/* GIMP's canvas idle: GIMP_PRIORITY_PROJECTION_IDLE (app/gimp-priorities.h), plus a
 * projection's own priority (1 and up for a layer group's); layer previews are lower. */
#define PROJECTION_IDLE (G_PRIORITY_HIGH_IDLE + 22)

/* GDK 3 names its event sources "GDK <backend> Event source (<display>)"
 * (gdk/x11/gdkeventsource.c and the Wayland and Broadway backends alike). */
static gboolean
is_gdk_events (GSource *source)
{
  const char *name = g_source_get_name (source);
  return name != NULL && g_str_has_prefix (name, "GDK ") && strstr (name, " Event source") != NULL;
}

static gboolean
is_frame_clock_paint (GSource *source)
{
  const char *name = g_source_get_name (source);
  return name != NULL && strstr (name, "gdk_frame_clock_paint_idle") != NULL;
}

TerrainRenderSource
terrain_render_source (void)
{
  GSource *source = g_main_current_source ();
  if (source == NULL || g_source_get_context (source) != g_main_context_default ())
    return TERRAIN_SOURCE_NONE;
  if (source->source_funcs == &g_timeout_funcs &&
      g_source_get_priority (source) == G_PRIORITY_HIGH_IDLE)
    return TERRAIN_SOURCE_PAINT_TIMER;
  if (source->source_funcs == &g_idle_funcs)
    return g_source_get_priority (source) >= G_PRIORITY_LOW ? TERRAIN_SOURCE_PREVIEW_IDLE
                                                            : TERRAIN_SOURCE_IDLE;
  if (is_frame_clock_paint (source))
    return TERRAIN_SOURCE_FRAME_CLOCK;
  return is_gdk_events (source) ? TERRAIN_SOURCE_EVENTS : TERRAIN_SOURCE_OTHER;
}

gboolean
terrain_gimp_display_render (void)
{
  if (! terrain_live ())
    return FALSE;
  const TerrainRenderSource from = terrain_render_source ();
  return from == TERRAIN_SOURCE_FRAME_CLOCK || from == TERRAIN_SOURCE_PREVIEW_IDLE ||
         (from == TERRAIN_SOURCE_IDLE &&
          g_source_get_priority (g_main_current_source ()) >= PROJECTION_IDLE);
}

/* ---- GIMP's graph ---- */

static gboolean
is_operation (GeglNode *node, const char *name)
{
  return node && g_strcmp0 (gegl_node_get_operation (node), name) == 0;
}

GeglBuffer *
terrain_gimp_source_buffer (GeglNode *node)
{
  GeglNode *up = gegl_node_get_producer (node, "input", NULL);
  for (int steps = 0; up && steps < 256; steps++)
    {
      if (is_operation (up, "gimp:buffer-source-validate") ||
          is_operation (up, "gegl:buffer-source"))
        {
          GeglBuffer *buffer = NULL;
          gegl_node_get (up, "buffer", &buffer, NULL);
          return buffer;
        }
      up = gegl_node_get_producer (up, "input", NULL);
    }
  return NULL;
}

/* GIMP feeds a drawable filter the layer translated by minus the selection's corner and
 * cropped to the selection's bounds (app/core/gimpdrawablefilter.c: translate -> crop ->
 * operation; a nop where the crop is off), so the filter looks past the crop to the
 * translated layer. */
GeglNode *
terrain_gimp_uncropped_layer (GeglNode *node, GeglRectangle *layer)
{
  GeglNode *input = gegl_node_get_producer (node, "input", NULL);
  GeglNode *translate = input ? gegl_node_get_producer (input, "input", NULL) : NULL;
  if ((is_operation (input, "gegl:crop") || is_operation (input, "gegl:nop")) &&
      is_operation (translate, "gegl:translate"))
    {
      *layer = gegl_node_get_bounding_box (translate);
      return translate;
    }
  return NULL;
}
