#include "gimp-types.h"

#include <gegl.h>

static const TerrainTestGimpTypes gimps = { FALSE, G_TYPE_BOOLEAN, 4 };
static const TerrainTestGimpTypes *making = &gimps;

static void
get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  (void) id;
  g_value_set_object (value, g_object_get_data (object, pspec->name));
}

static void
install_object_property (GObjectClass *klass, guint id, const char *name, GType type)
{
  klass->get_property = get_property;
  g_object_class_install_property (klass, id, g_param_spec_object (name, NULL, NULL, type,
                                                                   G_PARAM_READABLE));
}

static void
gimp_class_init (gpointer klass, gpointer data)
{
  (void) data;
  g_signal_new ("exit", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                G_TYPE_BOOLEAN, 1, G_TYPE_BOOLEAN);
}

static void
image_class_init (gpointer klass, gpointer data)
{
  (void) data;
  g_signal_new ("flush", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_FIRST, 0, NULL, NULL, NULL,
                G_TYPE_NONE, 1, making->flush_param);
  if (! making->no_gimp)
    install_object_property (klass, 1, "gimp", g_type_from_name ("Gimp"));
}

static void
drawable_class_init (gpointer klass, gpointer data)
{
  (void) data;
  g_signal_new ("update", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_FIRST, 0, NULL, NULL, NULL,
                G_TYPE_NONE, making->update_params, G_TYPE_INT, G_TYPE_INT, G_TYPE_INT,
                G_TYPE_INT, G_TYPE_INT);
  install_object_property (klass, 1, "buffer", GEGL_TYPE_BUFFER);
  install_object_property (klass, 2, "image", g_type_from_name ("GimpImage"));
}

/* A GObject type `name` whose class is made at once, by `install`. */
static GType
object_type (const char *name, GClassInitFunc install)
{
  const GType type = g_type_register_static_simple (G_TYPE_OBJECT, name, sizeof (GObjectClass),
                                                    install, sizeof (GObject), NULL, 0);
  g_type_class_ref (type);
  return type;
}

GType
terrain_test_make_gimp_types (const TerrainTestGimpTypes *differences)
{
  making = differences ? differences : &gimps;
  if (! making->no_gimp)
    object_type ("Gimp", gimp_class_init);
  object_type ("GimpImage", image_class_init);
  return object_type ("GimpDrawable", drawable_class_init);
}
