#include "gimp-signals.h"

guint
terrain_gimp_signal (GType type, const char *name, GType returns, guint count, GType param)
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

gboolean
terrain_gimp_has_property (GType type, const char *name, GType value_type)
{
  gpointer    klass = g_type_class_ref (type);
  GParamSpec *property = g_object_class_find_property (klass, name);
  const gboolean has = property && g_type_is_a (property->value_type, value_type);
  g_type_class_unref (klass);
  return has;
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

void
terrain_gimp_on_exit (void (*drop) (void))
{
  static gint watched;
  if (g_atomic_int_get (&watched))
    return;
  /* GIMP's Gimp::exit (app/core/gimp.c): gboolean (gboolean kill_it). */
  const GType type = g_type_from_name ("Gimp");
  const guint exit = type && g_type_class_peek (type)
                       ? terrain_gimp_signal (type, "exit", G_TYPE_BOOLEAN, 1, G_TYPE_BOOLEAN)
                       : 0;
  if (exit != 0 && g_atomic_int_compare_and_exchange (&watched, 0, 1))
    g_signal_add_emission_hook (exit, 0, exiting, (gpointer) drop, NULL);
}
