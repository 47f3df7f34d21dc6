/* terrain-docs: prints the Markdown reference of every procedure from its descriptor (the
 * same tables that register the procedures and build their dialogs). The procedure
 * reference in src/procedures/README.md is this output; build-aux/update-docs splices it in
 * and the unit test "readme" fails when that file is out of date. */
#include "procedure-info.h"

#include <stdio.h>
#include <string.h>

static void
print_range (const TerrainProcedureInfo *info, const TerrainArg *arg)
{
  const TerrainArgValue value = terrain_arg_default (info, arg);
  switch (arg->type)
    {
    case TERRAIN_ARG_INT:
      printf ("%.0f … %.0f, default %.0f", arg->min, arg->max, value.number);
      break;
    case TERRAIN_ARG_DOUBLE:
      printf ("%g … %g, default %g", arg->min, arg->max, value.number);
      break;
    case TERRAIN_ARG_BOOLEAN:
      printf ("default %s", value.number != 0.0 ? "TRUE" : "FALSE");
      break;
    case TERRAIN_ARG_CHOICE:
      for (int i = 0; arg->items[i].nick; i++)
        printf ("%s`\"%s\"`", i ? ", " : "", arg->items[i].nick);
      printf ("; default `\"%s\"`", value.text);
      break;
    case TERRAIN_ARG_STRING:
      printf ("default `\"%s\"`", value.text);
      break;
    }
}

static const char *const type_names[] = { "int", "double", "boolean", "choice", "string" };

/* "only with X "a" or "b"" for arguments that apply to some choices only. */
static void
print_condition (const TerrainProcedureInfo *info, const TerrainArg *arg)
{
  for (const TerrainArgCondition *c = info->conditions; c && c->arg; c++)
    if (strcmp (c->arg, arg->name) == 0)
      {
        if (c->nicks)
          printf (" Only with `%s` `%s`.", c->switch_arg, c->nicks);
        else
          printf (" Only with `%s` on.", c->switch_arg);
      }
}

static void
print_example (const TerrainProcedureInfo *info)
{
  printf ("```scheme\n(%s #:image image #:drawables (vector layer)", info->name);
  for (const TerrainArg *arg = info->args; arg->name; arg++)
    {
      const TerrainArgValue value = terrain_arg_default (info, arg);
      if (arg->type == TERRAIN_ARG_CHOICE || arg->type == TERRAIN_ARG_STRING)
        printf ("\n  #:%s \"%s\"", arg->name, value.text);
      else if (arg->type == TERRAIN_ARG_INT) /* in full: 1000000, not 1e+06 */
        printf ("\n  #:%s %.0f", arg->name, value.number);
      else
        printf ("\n  #:%s %g", arg->name, value.number);
    }
  printf (")\n```\n\n");
}

int
main (void)
{
  for (int i = 0; terrain_procedures[i]; i++)
    {
      const TerrainProcedureInfo *info = terrain_procedures[i];
      char label[128];
      terrain_label (info->menu_label, label, sizeof label);
      if (strlen (label) > 3 && strcmp (label + strlen (label) - 3, "...") == 0)
        strcpy (label + strlen (label) - 3, "…");
      printf ("### %s: \"%s\"\n\n%s.\n\n%s\n\n", info->name, label, info->blurb, info->help);
      printf ("| argument | type | range | meaning |\n|---|---|---|---|\n");
      for (const TerrainArg *arg = info->args; arg->name; arg++)
        {
          printf ("| `%s` | %s | ", arg->name, type_names[arg->type]);
          print_range (info, arg);
          printf (" | %s.", arg->blurb);
          print_condition (info, arg);
          printf (" |\n");
        }
      printf ("\nIn GIMP's process, and as an editable effect: the GEGL operation "
              "`terrain:%s`, with the same properties.\n", info->name + strlen ("plug-in-terrain-"));
      printf ("\nEvery argument, at its default:\n\n");
      print_example (info);
    }
  return 0;
}
