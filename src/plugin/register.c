#include "register.h"

#include "run.h"
#include "shade.h"

#include <glib/gi18n-lib.h>

static GimpChoice *
choice_from (const TerrainArg *arg)
{
  GimpChoice *choice = gimp_choice_new ();
  for (int i = 0; arg->items[i].nick; i++)
    gimp_choice_add (choice, arg->items[i].nick, i, _(arg->items[i].label), _(arg->items[i].help));
  return choice;
}

static void
add_argument (GimpProcedure *procedure, const TerrainProcedureInfo *info, const TerrainArg *arg)
{
  const char           *label = _(arg->label);
  const TerrainArgValue value = terrain_arg_default (info, arg);
  char                  blurb[1024];
  terrain_arg_blurb (arg, blurb, sizeof blurb);
  switch (arg->type)
    {
    case TERRAIN_ARG_INT:
      gimp_procedure_add_int_argument (procedure, arg->name, label, blurb, (gint) arg->min,
                                       (gint) arg->max, (gint) value.number, G_PARAM_READWRITE);
      break;
    case TERRAIN_ARG_DOUBLE:
      gimp_procedure_add_double_argument (procedure, arg->name, label, blurb, arg->min,
                                          arg->max, value.number, G_PARAM_READWRITE);
      break;
    case TERRAIN_ARG_BOOLEAN:
      gimp_procedure_add_boolean_argument (procedure, arg->name, label, blurb,
                                           value.number != 0.0, G_PARAM_READWRITE);
      break;
    case TERRAIN_ARG_CHOICE:
      gimp_procedure_add_choice_argument (procedure, arg->name, label, blurb,
                                          choice_from (arg), value.text, G_PARAM_READWRITE);
      break;
    case TERRAIN_ARG_STRING:
      gimp_procedure_add_string_argument (procedure, arg->name, label, blurb, value.text,
                                          G_PARAM_READWRITE);
      break;
    }
}

GimpProcedure *
terrain_procedure_new (GimpPlugIn *plug_in, const TerrainProcedureInfo *info)
{
  GimpProcedure *procedure =
    gimp_image_procedure_new (plug_in, info->name, GIMP_PDB_PROC_TYPE_PLUGIN,
                              terrain_run, (gpointer) info, NULL);

  gimp_procedure_set_image_types (procedure, "GRAY*, RGB*");
  gimp_procedure_set_sensitivity_mask (procedure, GIMP_PROCEDURE_SENSITIVE_DRAWABLE);
  gimp_procedure_set_menu_label (procedure, _(info->menu_label));
  if (info->kind == TERRAIN_GENERATOR)
    gimp_procedure_add_menu_path (procedure, TERRAIN_MENU_PATH);
  else
    {
      /* TRANSLATORS: the submenu of Filters > Render > Terrain that holds the filters
       * which change an existing map (smoothing, erosion); keep the mnemonic unique there */
      gchar *path = g_build_path ("/", TERRAIN_MENU_PATH, _("_Shape the Map"), NULL);
      gimp_procedure_add_menu_path (procedure, path);
      g_free (path);
    }
  gimp_procedure_set_documentation (procedure, _(info->blurb), _(info->help), info->name);
  gimp_procedure_set_attribution (procedure, "gimp-terrain developers",
                                  "gimp-terrain developers", "2026");

  for (const TerrainArg *arg = info->args; arg->name; arg++)
    add_argument (procedure, info, arg);
  gimp_procedure_add_boolean_argument (procedure, TERRAIN_ARG_NON_DESTRUCTIVE,
                                       _("Non-destructive"),
                                       _("Leave the result as an editable effect on the layer "
                                         "(its fx), which keeps every setting and is saved "
                                         "with the XCF, instead of changing its pixels. Needs "
                                         "gimp-terrain's GEGL module in GIMP and a layer"),
                                       FALSE, G_PARAM_READWRITE);

  /* Generators merged by default: left as an effect, a generator ignores what is painted on
   * its layer afterwards, and painting over a generated map is what it is made for. GIMP
   * remembers the choice with the dialog's other settings. */
  gimp_procedure_add_boolean_aux_argument (procedure, TERRAIN_AUX_MERGE, _("_Merge filter"),
                                           _("Change the layer's pixels instead of leaving "
                                             "an editable effect on it"),
                                           info->kind == TERRAIN_GENERATOR, G_PARAM_READWRITE);
  gimp_procedure_add_boolean_aux_argument (procedure, TERRAIN_AUX_CANVAS,
                                           _("Pre_view on canvas"),
                                           _("Show the result on the layer while the dialog "
                                             "is open"),
                                           TRUE, G_PARAM_READWRITE);
  /* The mnemonics of these rows are TERRAIN_DIALOG_MNEMONICS: no argument takes them. */
  gimp_procedure_add_boolean_aux_argument (procedure, TERRAIN_AUX_RELIEF, _("Relief previe_w"),
                                           _("Show the preview lit as a hillshade"), FALSE,
                                           G_PARAM_READWRITE);
  gimp_procedure_add_double_aux_argument (procedure, TERRAIN_AUX_AZIMUTH, _("Light a_zimuth"),
                                          _("Direction of the light, degrees clockwise from up"),
                                          0.0, 360.0, TERRAIN_HILLSHADE_AZIMUTH, G_PARAM_READWRITE);
  gimp_procedure_add_double_aux_argument (procedure, TERRAIN_AUX_ELEVATION, _("Li_ght elevation"),
                                          _("Height of the light above the horizon, degrees"),
                                          1.0, 90.0, TERRAIN_HILLSHADE_ELEVATION, G_PARAM_READWRITE);
  return procedure;
}
