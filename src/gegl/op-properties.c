#include "op-properties.h"

#include "terrain-build-id.h"

#include <stdarg.h>
#include <string.h>

#define FLAGS (G_PARAM_READWRITE | G_PARAM_CONSTRUCT | GEGL_PARAM_PAD_INPUT)

gchar *
terrain_op_type_name (const char *first_part, ...)
{
  GString *name = g_string_new ("GimpTerrain");
  va_list  parts;
  va_start (parts, first_part);
  for (const char *part = first_part; part; part = va_arg (parts, const char *))
    {
      gboolean word_start = TRUE;
      for (const char *c = part; *c; c++)
        {
          if (! g_ascii_isalnum (*c))
            {
              word_start = TRUE;
              continue;
            }
          g_string_append_c (name, word_start ? g_ascii_toupper (*c) : *c);
          word_start = FALSE;
        }
    }
  va_end (parts);
  return g_string_free (name, FALSE);
}

static gchar *
choice_type_name (const TerrainProcedureInfo *info, const TerrainArg *arg)
{
  return terrain_op_type_name (info->name + strlen ("plug-in-terrain-"), arg->name, NULL);
}

gboolean
terrain_op_register_choices (GTypeModule *module, const TerrainProcedureInfo *info)
{
  gboolean ours = TRUE;
  for (const TerrainArg *arg = info->args; arg->name; arg++)
    {
      if (arg->type != TERRAIN_ARG_CHOICE)
        continue;
      gchar *name = choice_type_name (info, arg);
      GType  type = g_type_from_name (name);
      if (type == 0 || g_type_get_plugin (type) == G_TYPE_PLUGIN (module))
        {
          int count = 0;
          while (arg->items[count].nick)
            count++;
          /* Kept for the type's life: GLib reads the values from here. */
          GEnumValue *values = g_new0 (GEnumValue, count + 1);
          for (int i = 0; i < count; i++)
            values[i] = (GEnumValue) { i, terrain_text (arg->items[i].label), arg->items[i].nick };
          g_type_module_register_enum (module, name, values);
        }
      else
        ours = FALSE;
      g_free (name);
    }
  return ours;
}

/* GIMP's dialog expression for the conditions on `arg` ("corners {fixed}", "guide"). */
static gchar *
sensitivity (const TerrainProcedureInfo *info, const TerrainArg *arg)
{
  for (const TerrainArgCondition *c = info->conditions; c && c->arg; c++)
    {
      if (strcmp (c->arg, arg->name) != 0)
        continue;
      if (c->nicks == NULL)
        return g_strdup (c->switch_arg);
      gchar **nicks = g_strsplit (c->nicks, " ", -1);
      gchar  *list = g_strjoinv (", ", nicks);
      gchar  *expression = g_strdup_printf ("%s {%s}", c->switch_arg, list);
      g_free (list);
      g_strfreev (nicks);
      return expression;
    }
  return NULL;
}

GParamSpec *
terrain_op_param_spec (const TerrainProcedureInfo *info, const TerrainArg *arg)
{
  char                  nick[256];
  const TerrainArgValue value = terrain_arg_default (info, arg);
  GParamSpec           *pspec = NULL;
  char                  blurb[1024];
  terrain_arg_blurb (arg, blurb, sizeof blurb);
  terrain_label (terrain_text (arg->label), nick, sizeof nick);
  /* GIMP's filter dialog slides over the range the plug-in's dialog slides over. */
  double ui_min = arg->min, ui_max = arg->max;
  terrain_arg_slider (info, arg, &ui_min, &ui_max);
  switch (arg->type)
    {
    case TERRAIN_ARG_INT:
      if (arg->is_seed) /* GIMP's filter dialog gives a seed its "New Seed" button */
        {
          /* A seed is unsigned in GEGL: the operation reads and writes it as such. */
          pspec = gegl_param_spec_seed (arg->name, nick, blurb, FLAGS);
          G_PARAM_SPEC_UINT (pspec)->minimum = (guint) arg->min;
          G_PARAM_SPEC_UINT (pspec)->maximum = (guint) arg->max;
          G_PARAM_SPEC_UINT (pspec)->default_value = (guint) value.number;
          break;
        }
      pspec = gegl_param_spec_int (arg->name, nick, blurb, (gint) arg->min, (gint) arg->max,
                                   (gint) value.number, (gint) ui_min, (gint) ui_max, 1.0,
                                   FLAGS);
      break;
    case TERRAIN_ARG_DOUBLE:
      pspec = gegl_param_spec_double (arg->name, nick, blurb, arg->min, arg->max, value.number,
                                      ui_min, ui_max, 1.0, FLAGS);
      break;
    case TERRAIN_ARG_BOOLEAN:
      pspec = g_param_spec_boolean (arg->name, nick, blurb, value.number != 0.0, FLAGS);
      break;
    case TERRAIN_ARG_CHOICE:
      {
        gchar *type_name = choice_type_name (info, arg);
        GType  type = g_type_from_name (type_name);
        g_free (type_name);
        pspec = gegl_param_spec_enum (arg->name, nick, blurb, type,
                                      (gint) value.number, FLAGS);
        break;
      }
    case TERRAIN_ARG_STRING:
      pspec = g_param_spec_string (arg->name, nick, blurb, value.text, FLAGS);
      break;
    }
  gchar *sensitive = sensitivity (info, arg);
  if (sensitive)
    gegl_param_spec_set_property_key (pspec, "sensitive", sensitive);
  g_free (sensitive);
  return pspec;
}

GParamSpec *
terrain_op_build_param_spec (void)
{
  GParamSpec *pspec = g_param_spec_string (TERRAIN_OP_BUILD_PROPERTY, "Build",
                                           "The gimp-terrain build this operation comes from",
                                           TERRAIN_BUILD_ID, FLAGS);
  gegl_param_spec_set_property_key (pspec, "visible", "0");
  return pspec;
}
