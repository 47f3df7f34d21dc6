#include "arg-values.h"

TerrainArgValues *
terrain_arg_values_from_config (const TerrainProcedureInfo *info, GimpProcedureConfig *config)
{
  TerrainArgValues *v = g_new0 (TerrainArgValues, 1);
  v->count = terrain_arg_count (info);
  v->values = g_new0 (TerrainArgValue, v->count);
  v->strings = g_new0 (char *, v->count);

  for (int i = 0; i < v->count; i++)
    {
      const TerrainArg *arg = &info->args[i];
      TerrainArgValue  *out = &v->values[i];
      switch (arg->type)
        {
        case TERRAIN_ARG_INT:
          {
            gint n;
            g_object_get (config, arg->name, &n, NULL);
            out->number = n;
            break;
          }
        case TERRAIN_ARG_DOUBLE:
          g_object_get (config, arg->name, &out->number, NULL);
          break;
        case TERRAIN_ARG_BOOLEAN:
          {
            gboolean b;
            g_object_get (config, arg->name, &b, NULL);
            out->number = b ? 1.0 : 0.0;
            break;
          }
        case TERRAIN_ARG_CHOICE:
          out->number = gimp_procedure_config_get_choice_id (config, arg->name);
          break;
        case TERRAIN_ARG_STRING:
          g_object_get (config, arg->name, &v->strings[i], NULL);
          out->text = v->strings[i] ? v->strings[i] : "";
          break;
        }
    }
  return v;
}

void
terrain_arg_values_free (TerrainArgValues *v)
{
  for (int i = 0; i < v->count; i++)
    g_free (v->strings[i]);
  g_free (v->strings);
  g_free (v->values);
  g_free (v);
}
