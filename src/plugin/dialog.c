/* The procedure dialog: every argument of the descriptor, a "New Seed" button next to the
 * seed, and a live preview of the whole layer that shows exactly what OK writes, as gray
 * heights or, with "Relief preview", as a hillshade (slopes and creases show better lit),
 * computed without ever blocking the dialog (dialog-preview.c). */
#include "dialog.h"

#include "arg-values.h"
#include "canvas-preview.h"
#include "dialog-preview.h"
#include "register.h"

#include <libgimp/gimpui.h>

static void
new_seed (GtkButton *button, GimpProcedureConfig *config)
{
  const TerrainArg *seed = g_object_get_data (G_OBJECT (button), "terrain-seed");
  /* Picking a seed is the only non-reproducible step, and it happens in the UI only. */
  g_object_set (config, seed->name, g_random_int_range ((gint32) seed->min, (gint32) seed->max),
                NULL);
}

/* A seed's row: its spin button and a "New Seed" button. */
static const gchar *
seed_row (GimpProcedureDialog *dialog, GimpProcedureConfig *config, const TerrainArg *seed)
{
  gchar     *id = g_strconcat (seed->name, "-row", NULL);
  GtkWidget *box = gimp_procedure_dialog_fill_box (dialog, id, seed->name, NULL);
  GtkWidget *button = gtk_button_new_with_label (_("New Seed"));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (box), GTK_ORIENTATION_HORIZONTAL);
  gtk_box_pack_start (GTK_BOX (box), button, FALSE, FALSE, 0);
  gtk_widget_show (button);
  g_object_set_data (G_OBJECT (button), "terrain-seed", (gpointer) seed);
  g_signal_connect (button, "clicked", G_CALLBACK (new_seed), config);
  /* The list of rows points at id while the dialog is filled: the dialog frees it. */
  g_object_set_data_full (G_OBJECT (dialog), id, id, g_free);
  return id;
}

/* A note in italics, wrapped: its row id. */
static const gchar *
note_row (GimpProcedureDialog *dialog, const gchar *id, const gchar *text)
{
  GtkWidget *note = gimp_procedure_dialog_get_label (dialog, id, text, FALSE, FALSE);
  gtk_label_set_line_wrap (GTK_LABEL (note), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (note), 50);
  gimp_label_set_attributes (GTK_LABEL (note), PANGO_ATTR_STYLE, PANGO_STYLE_ITALIC, -1);
  return id;
}

/* Why the dialog cannot show the result on the canvas. */
static const gchar *
why_not_row (GimpProcedureDialog *dialog, const gchar *why_not)
{
  gchar *text = g_strdup_printf (_("The result is written by the plug-in: %s."), why_not);
  note_row (dialog, "why-not-on-canvas", text);
  g_free (text);
  return "why-not-on-canvas";
}

/* Where the dialog leaves an effect (Merge filter off): what the XCF needs. A GIMP without
 * the module discards the effect when it opens the file, and a save loses it for good. */
#define EFFECT_NOTE "effect-needs-module"

static void
show_effect_note (GimpProcedureDialog *dialog, GimpProcedureConfig *config)
{
  GtkWidget *note = gimp_procedure_dialog_get_widget (dialog, EFFECT_NOTE, G_TYPE_NONE);
  g_object_bind_property (config, TERRAIN_AUX_MERGE, note, "visible",
                          G_BINDING_SYNC_CREATE | G_BINDING_INVERT_BOOLEAN);
}

/* A number's row as GIMP's own filters show it: a spin scale, its label inside, sliding
 * over [min, max] (the field still takes the whole range). */
static void
spin_scale (GimpProcedureDialog *dialog, const gchar *name, double min, double max)
{
  GtkWidget *scale = gimp_procedure_dialog_get_spin_scale (dialog, name, 1.0);
  GtkAdjustment *adjustment = gtk_spin_button_get_adjustment (GTK_SPIN_BUTTON (scale));
  if (min > gtk_adjustment_get_lower (adjustment) || max < gtk_adjustment_get_upper (adjustment))
    gimp_spin_scale_set_scale_limits (GIMP_SPIN_SCALE (scale), min, max);
}

/* A choice's row: a combo box behind its mnemonic label. Asked for by name, because
 * GIMP 3.2's default for three or fewer items is a frame of radio buttons under a plain
 * title, which has no mnemonic (GIMP warns) and makes the dialog taller; 3.0.4's default
 * is this combo box already. */
static void
choice_combo (GimpProcedureDialog *dialog, const gchar *name)
{
  gimp_procedure_dialog_get_widget (dialog, name, GTK_TYPE_COMBO_BOX);
}

/* The rows in dialog order: the seed shares a row with its button; then the choices about
 * the canvas when GIMP shows the result there (else why not), the relief controls last.
 * Numbers are spin scales, but seeds and world offsets (no slider can show their ranges),
 * which stay spin buttons; choices are combo boxes. */
static GList *
dialog_rows (GimpProcedureDialog *dialog, const TerrainProcedureInfo *info,
             GimpProcedureConfig *config, gboolean on_canvas, const gchar *why_not)
{
  GList *rows = NULL;
  double min, max;
  for (const TerrainArg *arg = info->args; arg->name; arg++)
    if (terrain_arg_slider (info, arg, &min, &max))
      spin_scale (dialog, arg->name, min, max);
    else if (arg->type == TERRAIN_ARG_CHOICE)
      choice_combo (dialog, arg->name);
  spin_scale (dialog, TERRAIN_AUX_AZIMUTH, 0.0, 360.0);
  spin_scale (dialog, TERRAIN_AUX_ELEVATION, 1.0, 90.0);
  for (const TerrainArg *arg = info->args; arg->name; arg++)
    rows = g_list_append (rows, (gpointer) (arg->is_seed ? seed_row (dialog, config, arg)
                                                          : arg->name));
  if (on_canvas) /* side by side, as in GIMP's own filter dialogs */
    {
      GtkWidget *box = gimp_procedure_dialog_fill_box (dialog, "canvas-row", TERRAIN_AUX_CANVAS,
                                                       TERRAIN_AUX_MERGE, NULL);
      gtk_orientable_set_orientation (GTK_ORIENTABLE (box), GTK_ORIENTATION_HORIZONTAL);
      gtk_box_set_spacing (GTK_BOX (box), 12);
      rows = g_list_append (rows, (gpointer) "canvas-row");
      rows = g_list_append (rows, (gpointer) note_row (dialog, EFFECT_NOTE,
        _("Left as an effect: the XCF needs gimp-terrain's GEGL module wherever it is opened.")));
    }
  else
    rows = g_list_append (rows, (gpointer) why_not_row (dialog, why_not));
  /* The light's sliders fold away under "Relief preview", open while it is on. */
  gimp_procedure_dialog_fill_box (dialog, "relief-light", TERRAIN_AUX_AZIMUTH,
                                  TERRAIN_AUX_ELEVATION, NULL);
  gimp_procedure_dialog_fill_expander (dialog, "relief-row", TERRAIN_AUX_RELIEF, FALSE,
                                       "relief-light");
  rows = g_list_append (rows, (gpointer) "relief-row");
  gimp_procedure_dialog_set_sensitive (dialog, TERRAIN_AUX_AZIMUTH, TRUE, G_OBJECT (config),
                                       TERRAIN_AUX_RELIEF, FALSE);
  gimp_procedure_dialog_set_sensitive (dialog, TERRAIN_AUX_ELEVATION, TRUE, G_OBJECT (config),
                                       TERRAIN_AUX_RELIEF, FALSE);
  return rows;
}

/* Greys out arguments that matter only for some values of a choice (or a boolean). */
static void
apply_conditions (GimpProcedureDialog *dialog, const TerrainProcedureInfo *info,
                  GimpProcedureConfig *config)
{
  for (const TerrainArgCondition *c = info->conditions; c && c->arg; c++)
    {
      if (c->nicks == NULL) /* while the boolean is on */
        {
          gimp_procedure_dialog_set_sensitive (dialog, c->arg, TRUE, G_OBJECT (config),
                                               c->switch_arg, FALSE);
          continue;
        }
      gchar        **nicks = g_strsplit (c->nicks, " ", -1);
      GimpValueArray *values = gimp_value_array_new (1);
      for (gchar **nick = nicks; *nick; nick++)
        {
          GValue value = G_VALUE_INIT;
          g_value_init (&value, G_TYPE_STRING);
          g_value_set_string (&value, *nick);
          gimp_value_array_append (values, &value);
          g_value_unset (&value);
        }
      /* The dialog takes `values`. */
      gimp_procedure_dialog_set_sensitive_if_in (dialog, c->arg, G_OBJECT (config), c->switch_arg,
                                                 values, TRUE);
      g_strfreev (nicks);
    }
}

static void
canvas_toggled (GObject *config, GParamSpec *pspec, TerrainCanvasPreview *canvas)
{
  gboolean show;
  (void) pspec;
  g_object_get (config, TERRAIN_AUX_CANVAS, &show, NULL);
  terrain_canvas_preview_show (canvas, show);
}


gboolean
terrain_dialog_run (const TerrainProcedureInfo *info, GimpProcedure *procedure,
                    GimpProcedureConfig *config, GimpDrawable *drawable)
{
  gchar *why_not = NULL;

  GtkWidget            *dialog = gimp_procedure_dialog_new (procedure, config, NULL);
  /* One picture: with the result on the canvas, the thumbnail reads what the canvas's
   * effect reads (the effects below included), so the two show the same. */
  TerrainCanvasPreview *canvas = terrain_canvas_preview_new (info, config, drawable, &why_not);
  TerrainDialogPreview *preview = terrain_dialog_preview_new (info, config, drawable, canvas);
  gtk_box_pack_start (GTK_BOX (gtk_dialog_get_content_area (GTK_DIALOG (dialog))),
                      terrain_dialog_preview_widget (preview), TRUE, TRUE, 0);

  if (canvas)
    {
      g_signal_connect (config, "notify::" TERRAIN_AUX_CANVAS, G_CALLBACK (canvas_toggled), canvas);
      canvas_toggled (G_OBJECT (config), NULL, canvas);
    }
  GList *rows = dialog_rows (GIMP_PROCEDURE_DIALOG (dialog), info, config, canvas != NULL,
                             why_not);
  gimp_procedure_dialog_fill_list (GIMP_PROCEDURE_DIALOG (dialog), rows);
  g_list_free (rows);
  if (canvas) /* after filling, which shows every row */
    show_effect_note (GIMP_PROCEDURE_DIALOG (dialog), config);
  apply_conditions (GIMP_PROCEDURE_DIALOG (dialog), info, config);

  gboolean ok = gimp_procedure_dialog_run (GIMP_PROCEDURE_DIALOG (dialog));
  terrain_dialog_preview_free (preview); /* waits for its worker to stop */
  if (canvas)
    {
      gboolean merge;
      g_signal_handlers_disconnect_by_func (config, G_CALLBACK (canvas_toggled), canvas);
      g_object_get (config, TERRAIN_AUX_MERGE, &merge, NULL);
      g_object_set (config, TERRAIN_ARG_NON_DESTRUCTIVE, ! merge, NULL);
      terrain_canvas_preview_free (canvas);
    }
  else
    g_object_set (config, TERRAIN_ARG_NON_DESTRUCTIVE, FALSE, NULL);
  gtk_widget_destroy (dialog);
  g_free (why_not);
  return ok;
}
