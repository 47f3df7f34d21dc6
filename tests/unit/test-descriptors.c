/* The descriptors against their cores (src/procedures against src/terrain), for every
 * procedure of the table:
 *  - defaults: the argument values a caller gets by default (terrain_arg_defaults), filled
 *    into the core's parameters, give exactly the core's own _defaults(), field by field;
 *    every default lies within its argument's range, and a choice's is one of its choices;
 *  - ranges: every numeric argument at its minimum and at its maximum (the others at their
 *    defaults) is accepted by the core: the render starts (it is cancelled at its first
 *    progress report) instead of returning TERRAIN_ERROR_INVALID;
 *  - bindings: every field lies inside the parameter struct, no two arguments share one;
 *  - texts: no blurb states a range of its own ("(1 to 100000)"), since the range is added
 *    from min and max (terrain_arg_blurb), which must say exactly that;
 *  - conditions name existing arguments: a choice with some of its values, or a boolean;
 *  - sliders name numeric arguments and lie within their ranges;
 *  - mnemonics: every label and menu label has exactly one, on a letter or digit; within a
 *    dialog no two labels share one and none takes one of the dialog's own controls
 *    (TERRAIN_DIALOG_MNEMONICS); within a menu (generators with the "_Shape the Map"
 *    submenu, or the filters in it) no two share one; terrain_label() strips them;
 *  - Hydraulic Erosion's droplets fall on each 1024 x 1024 pixels: the procedure gives the
 *    bits of the core run with the count for the layer's area, rounded, at least one; a count
 *    beyond the core's largest for the layer is refused with its reason.
 */
#include "check.h"
#include "hydraulic-erosion.h"
#include "procedure-info.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 32
#define W 23
#define H 17

/* The number field `arg` holds in params. */
static double
field_number (const TerrainArg *arg, const void *params)
{
  const char *field = (const char *) params + arg->offset;
  int         i;
  uint32_t    u;
  double      d;
  switch (arg->field)
    {
    case TERRAIN_FIELD_UINT32: memcpy (&u, field, sizeof u); return u;
    case TERRAIN_FIELD_DOUBLE: memcpy (&d, field, sizeof d); return d;
    default: memcpy (&i, field, sizeof i); return i;
    }
}

static void
test_defaults (const TerrainProcedureInfo *info)
{
  TerrainArgValue values[MAX_ARGS];
  void           *core = malloc (info->params_size), *filled = malloc (info->params_size);
  terrain_arg_defaults (info, values);
  info->defaults (core);
  terrain_procedure_fill (info, values, filled);
  for (int i = 0; info->args[i].name; i++)
    {
      const TerrainArg *arg = &info->args[i];
      if (arg->type == TERRAIN_ARG_CHOICE)
        CHECK (values[i].number >= 0 && terrain_choice_id (arg, values[i].text) == values[i].number,
               "%s %s: default %g / %s is no choice", info->name, arg->name, values[i].number,
               values[i].text);
      else if (arg->type != TERRAIN_ARG_STRING)
        CHECK (values[i].number >= arg->min && values[i].number <= arg->max,
               "%s %s: default %g outside [%g, %g]", info->name, arg->name, values[i].number,
               arg->min, arg->max);
      if (arg->field != TERRAIN_FIELD_NONE)
        CHECK (field_number (arg, filled) == field_number (arg, core),
               "%s %s: the default fills %g, the core's default is %g", info->name, arg->name,
               field_number (arg, filled), field_number (arg, core));
    }
  free (core);
  free (filled);
}

static void
test_bindings (const TerrainProcedureInfo *info)
{
  for (int i = 0; info->args[i].name; i++)
    {
      const TerrainArg *arg = &info->args[i];
      const size_t size = arg->field == TERRAIN_FIELD_DOUBLE ? sizeof (double) : sizeof (int);
      if (arg->field == TERRAIN_FIELD_NONE)
        continue;
      CHECK (arg->offset + size <= info->params_size, "%s %s: field beyond the parameters",
             info->name, arg->name);
      for (int j = 0; j < i; j++)
        CHECK (info->args[j].field == TERRAIN_FIELD_NONE || info->args[j].offset != arg->offset,
               "%s: %s and %s fill the same field", info->name, info->args[j].name, arg->name);
    }
}

static int
cancel_at_once (void *user, double fraction)
{
  (void) user, (void) fraction;
  return 1;
}

/* Renders on a small ramp (the filters' input) and cancels at the first report. */
static TerrainStatus
start_render (const TerrainProcedureInfo *info, const TerrainArgValue *values)
{
  float          *map = malloc (W * H * sizeof (float));
  char            why[256] = "";
  TerrainProgress progress = { cancel_at_once, NULL };
  for (int p = 0; p < W * H; p++)
    map[p] = (float) (p % W + p / W) / (W + H);
  TerrainStatus status = terrain_procedure_render (info, values, map, W, H, &progress, why,
                                                   sizeof why);
  free (map);
  return status;
}

static void
test_ranges (const TerrainProcedureInfo *info)
{
  TerrainArgValue values[MAX_ARGS];
  for (int i = 0; info->args[i].name; i++)
    {
      const TerrainArg *arg = &info->args[i];
      if (arg->type != TERRAIN_ARG_INT && arg->type != TERRAIN_ARG_DOUBLE)
        continue;
      for (int end = 0; end < 2; end++)
        {
          terrain_arg_defaults (info, values);
          values[i].number = end ? arg->max : arg->min;
          const TerrainStatus status = start_render (info, values);
          CHECK (status != TERRAIN_ERROR_INVALID, "%s %s = %g: the core refuses it", info->name,
                 arg->name, values[i].number);
        }
    }
}

/* "(1 to 100000)", "(0 to 1)", "(-1073741824 to 1073741824)": a range typed in a blurb. */
static int
states_a_range (const char *text)
{
  for (const char *p = strchr (text, '('); p; p = strchr (p + 1, '('))
    {
      char  *end;
      strtod (p + 1, &end);
      if (end != p + 1 && strncmp (end, " to ", 4) == 0)
        return 1;
    }
  return 0;
}

static void
test_texts (const TerrainProcedureInfo *info)
{
  for (int i = 0; info->args[i].name; i++)
    {
      const TerrainArg *arg = &info->args[i];
      char              blurb[1024], range[96], want[1200];
      CHECK (! states_a_range (arg->blurb), "%s %s: its blurb states a range: %s", info->name,
             arg->name, arg->blurb);
      terrain_arg_blurb (arg, blurb, sizeof blurb);
      terrain_arg_range (arg, range, sizeof range);
      if (range[0])
        snprintf (want, sizeof want, "%s (%s)", arg->blurb, range);
      else
        snprintf (want, sizeof want, "%s", arg->blurb);
      CHECK (strcmp (blurb, want) == 0, "%s %s: blurb %s", info->name, arg->name, blurb);
    }
}

static void
test_conditions (const TerrainProcedureInfo *info)
{
  for (const TerrainArgCondition *c = info->conditions; c && c->arg; c++)
    {
      const int arg = terrain_arg_index (info, c->arg), on = terrain_arg_index (info, c->switch_arg);
      CHECK (arg >= 0 && on >= 0, "%s: condition on %s by %s", info->name, c->arg, c->switch_arg);
      if (arg < 0 || on < 0)
        continue;
      const TerrainArg *by = &info->args[on];
      if (c->nicks == NULL)
        {
          CHECK (by->type == TERRAIN_ARG_BOOLEAN, "%s: %s is no boolean", info->name, by->name);
          continue;
        }
      CHECK (by->type == TERRAIN_ARG_CHOICE, "%s: %s is no choice", info->name, by->name);
      char nicks[256];
      snprintf (nicks, sizeof nicks, "%s", c->nicks);
      for (char *nick = strtok (nicks, " "); nick; nick = strtok (NULL, " "))
        CHECK (terrain_choice_id (by, nick) >= 0, "%s: %s has no choice %s", info->name,
               by->name, nick);
    }
  if (info->guide_arg)
    {
      const int guide = terrain_arg_index (info, info->guide_arg);
      CHECK (guide >= 0 && info->args[guide].type == TERRAIN_ARG_BOOLEAN,
             "%s: guide argument %s", info->name, info->guide_arg);
    }
}

static void
test_sliders (const TerrainProcedureInfo *info)
{
  for (const TerrainArgSlider *s = info->sliders; s && s->arg; s++)
    {
      const int i = terrain_arg_index (info, s->arg);
      CHECK (i >= 0, "%s: slider for %s, no argument", info->name, s->arg);
      if (i < 0)
        continue;
      const TerrainArg *arg = &info->args[i];
      CHECK (arg->type == TERRAIN_ARG_INT || arg->type == TERRAIN_ARG_DOUBLE,
             "%s: slider for %s, no number", info->name, s->arg);
      CHECK ((s->min == 0 && s->max == 0) ||
             (s->min >= arg->min && s->max <= arg->max && s->min < s->max),
             "%s: slider [%g, %g] for %s outside [%g, %g]", info->name, s->min, s->max,
             s->arg, arg->min, arg->max);
    }
}

/* The mnemonic of a label, lower case; 0 (and a failed check) unless there is exactly one. */
static int
mnemonic (const char *owner, const char *label)
{
  int found = 0, count = 0;
  for (const char *c = label; *c; c++)
    if (*c == '_')
      {
        if (c[1] == '_')
          {
            c++;
            continue;
          }
        count++;
        found = tolower ((unsigned char) c[1]);
      }
  CHECK (count == 1 && isalnum (found), "%s: label \"%s\" has %d mnemonics", owner, label,
         count);
  char plain[256];
  terrain_label (label, plain, sizeof plain);
  CHECK (strchr (plain, '_') == NULL && strlen (plain) == strlen (label) - 1,
         "%s: \"%s\" stripped is \"%s\"", owner, label, plain);
  return count == 1 ? found : 0;
}

static void
test_mnemonics (const TerrainProcedureInfo *info)
{
  char taken[128] = TERRAIN_DIALOG_MNEMONICS;
  for (int i = 0; info->args[i].name; i++)
    {
      char owner[160];
      snprintf (owner, sizeof owner, "%s %s", info->name, info->args[i].name);
      const int m = mnemonic (owner, info->args[i].label);
      if (m == 0)
        continue;
      CHECK (strchr (taken, m) == NULL, "%s: mnemonic %c of \"%s\" is taken in its dialog",
             owner, m, info->args[i].label);
      taken[strlen (taken)] = (char) m;
    }
}

static void
test_menu (void)
{
  char generators[64] = "s", filters[64] = ""; /* "_Shape the Map", the filters' submenu */
  for (int p = 0; terrain_procedures[p]; p++)
    {
      const TerrainProcedureInfo *info = terrain_procedures[p];
      char *menu = info->kind == TERRAIN_GENERATOR ? generators : filters;
      const int m = mnemonic (info->name, info->menu_label);
      if (m == 0)
        continue;
      CHECK (strchr (menu, m) == NULL, "%s: menu mnemonic %c is taken", info->name, m);
      menu[strlen (menu)] = (char) m;
    }
  char out[8];
  CHECK (strcmp (terrain_label ("a__b_c", out, sizeof out), "a_bc") == 0, "a__b_c: %s", out);
  CHECK (strcmp (terrain_label ("_abcdefghij", out, sizeof out), "abcdefg") == 0, "cut: %s", out);
}

/* Hills with a ripple on a width x height map, the same land whatever the size. */
static float *
hills (int width, int height)
{
  float *map = malloc ((size_t) width * height * sizeof (float));
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      {
        const double u = (double) x / width, v = (double) y / height;
        map[(size_t) y * width + x] =
          (float) (0.5 + 0.3 * sin (6.0 * u) * cos (5.0 * v) + 0.02 * sin (70.0 * u + 40.0 * v));
      }
  return map;
}

/* Whether the core, run with `count` droplets and the procedure's other defaults, gives the
 * bits of `expected` from `width` x `height` hills. */
static int
core_gives (int count, const float *expected, int width, int height)
{
  TerrainHydraulicErosion p;
  terrain_hydraulic_erosion_defaults (&p);
  p.seed = 7;
  p.droplets = count;
  float    *map = hills (width, height);
  const int ok = terrain_hydraulic_erosion (&p, map, width, height, NULL) == TERRAIN_OK &&
                 memcmp (map, expected, (size_t) width * height * sizeof (float)) == 0;
  free (map);
  return ok;
}

/* `droplets` droplets a megapixel through the procedure: the core's count that gives the
 * same bits (from `counts`, -1 when none does). */
static int
rained (int droplets, int width, int height, const int *counts, int n)
{
  const TerrainProcedureInfo *info = terrain_procedure_find ("plug-in-terrain-hydraulic-erosion");
  TerrainArgValue             values[MAX_ARGS];
  char                        why[256] = "";
  float                      *map = hills (width, height);
  terrain_arg_defaults (info, values);
  values[terrain_arg_index (info, "seed")].number = 7;
  values[terrain_arg_index (info, "droplets")].number = droplets;
  int found = -1;
  if (terrain_procedure_render (info, values, map, width, height, NULL, why, sizeof why) ==
      TERRAIN_OK)
    for (int i = 0; i < n && found < 0; i++)
      found = core_gives (counts[i], map, width, height) ? counts[i] : -1;
  free (map);
  return found;
}

static void
test_hydraulic_rain_per_area (void)
{
  /* 200000 on 96 x 64 pixels: 1171.875, so 1172 (not 1171 rounded down, not the 200000
   * themselves); 1 on 16 x 16 pixels: 0.000244, at least 1; 0: none. */
  const int counts[] = { 1171, 1172, 200000, 0, 1 };
  const int many = rained (200000, 96, 64, counts, 5), one = rained (1, 16, 16, counts, 5),
            none = rained (0, 16, 16, counts, 5);
  CHECK (many == 1172, "200000 on 96x64 gave %d droplets", many);
  CHECK (one == 1, "1 on 16x16 gave %d droplets", one);
  CHECK (none == 0, "0 on 16x16 gave %d droplets", none);

  const TerrainProcedureInfo *info = terrain_procedure_find ("plug-in-terrain-hydraulic-erosion");
  TerrainArgValue             values[MAX_ARGS];
  char                        why[256] = "";
  terrain_arg_defaults (info, values);
  values[terrain_arg_index (info, "droplets")].number = TERRAIN_HYDRAULIC_MAX_DROPLETS;
  CHECK (terrain_procedure_check (info, values, 1024, 1024, why, sizeof why) == TERRAIN_OK,
         "the most droplets refused on 1024x1024: %s", why);
  CHECK (terrain_procedure_check (info, values, 1025, 1024, why, sizeof why) ==
           TERRAIN_ERROR_INVALID && strstr (why, "100097656 on this 1025 x 1024 layer"),
         "the most droplets on 1025x1024: \"%s\"", why);
}

int
main (void)
{
  CHECK (terrain_procedures[0] != NULL, "no procedures");
  for (int p = 0; terrain_procedures[p]; p++)
    {
      const TerrainProcedureInfo *info = terrain_procedures[p];
      CHECK (terrain_arg_count (info) < MAX_ARGS, "%s: too many arguments", info->name);
      CHECK (info->render && info->defaults && info->params_size > 0, "%s: no core", info->name);
      test_defaults (info);
      test_bindings (info);
      test_ranges (info);
      test_texts (info);
      test_conditions (info);
      test_sliders (info);
      test_mnemonics (info);
    }
  test_menu ();
  test_hydraulic_rain_per_area ();
  return CHECK_DONE ("descriptors");
}
