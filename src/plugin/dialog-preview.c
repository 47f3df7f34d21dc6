#include "dialog-preview.h"

#include "arg-values.h"
#include "dialog-view3d.h"
#include "layer-io.h"
#include "preview-worker.h"
#include "register.h"

/* How often the computing bar moves while the worker runs. */
#define STATUS_TICK_MS 100

struct TerrainDialogPreview
{
  const TerrainProcedureInfo *info;
  GimpProcedureConfig        *config;
  GimpDrawable               *drawable;
  /* Whose pixels the preview reads (heights and alpha): the canvas's input when GIMP shows
   * the result there (the layer with its effects), else the layer. Set with the layer. */
  TerrainCanvasPreview       *canvas;
  GimpDrawable               *source;
  int                         width, height;
  /* The layer's heights, read once on the main thread (libgimp's pixel transfer is not
   * thread-safe) for the first job that needs them, then shared read-only with every job:
   * while GIMP renders the canvas it answers slowly, and a setting's change should not
   * wait for it. */
  float                      *layer;
  GtkWidget                  *row, *box, *options, *scaled, *detail, *one_to_one, *status;
  GtkWidget                  *without_effects;
  TerrainPreviewWorker       *worker;
  TerrainDialogView3D        *view3d; /* beside the preview: its result in 3D */
  /* The last image drawn, and where: GimpPreview draws the untouched layer before it asks
   * for a new one, and the last result is a better thing to look at meanwhile. */
  guchar                     *last;
  GtkWidget                  *last_view;
  int                         last_x, last_y, last_w, last_h, last_stride;
  guint                       ticker;
  gulong                      notify;
};

/* The preview on show: the whole layer scaled, or the filter's 1:1 view. */
static GtkWidget *
current (TerrainDialogPreview *p)
{
  return p->detail && gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (p->one_to_one))
           ? p->detail : p->scaled;
}

/* Shows the computing bar while a result is awaited; FALSE once there is none. */
static gboolean
update_status (TerrainDialogPreview *p)
{
  const gboolean busy = terrain_preview_worker_busy (p->worker);
  /* Transparent rather than hidden: the dialog keeps its size. */
  gtk_widget_set_opacity (p->status, busy ? 1.0 : 0.0);
  if (busy)
    gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (p->status),
                                   terrain_preview_worker_progress (p->worker));
  return busy;
}

static gboolean
tick (gpointer data)
{
  TerrainDialogPreview *p = data;
  if (update_status (p))
    return G_SOURCE_CONTINUE;
  p->ticker = 0;
  return G_SOURCE_REMOVE;
}

/* The drawable whose pixels the preview reads, found once: with the result on the canvas,
 * what the canvas's effect reads (the effects below applied), else the layer itself. When
 * GIMP could not apply those effects, the layer's own pixels, and a note says so. */
static GimpDrawable *
preview_source (TerrainDialogPreview *p)
{
  if (p->source)
    return p->source;
  p->source = p->canvas ? terrain_canvas_preview_input (p->canvas) : p->drawable;
  if (p->source == NULL)
    {
      p->source = p->drawable;
      gtk_widget_show (p->without_effects);
    }
  return p->source;
}

/* A snapshot of everything the worker needs, taken here on the main thread. */
static TerrainPreviewJob *
new_job (TerrainDialogPreview *p, GimpPreview *preview)
{
  TerrainPreviewJob *job = g_new0 (TerrainPreviewJob, 1);
  job->info = p->info;
  job->values = terrain_arg_values_from_config (p->info, p->config);
  job->width = p->width;
  job->height = p->height;
  job->one_to_one = GTK_WIDGET (preview) == p->detail;
  gimp_preview_get_size (preview, &job->w, &job->h);
  if (job->one_to_one)
    gimp_preview_get_position (preview, &job->x, &job->y);
  g_object_get (p->config, TERRAIN_AUX_RELIEF, &job->relief, TERRAIN_AUX_AZIMUTH, &job->azimuth,
                TERRAIN_AUX_ELEVATION, &job->elevation, NULL);
  if (terrain_reads_layer (p->info, job->values->values))
    {
      if (p->layer == NULL && (p->layer = g_try_new (float, (gsize) p->width * p->height)))
        terrain_read_heights (preview_source (p), p->layer);
      job->layer = p->layer;
    }
  return job;
}

static void
request (GimpPreview *preview, TerrainDialogPreview *p)
{
  int w, h;
  gimp_preview_get_size (preview, &w, &h);
  if (GTK_WIDGET (preview) != current (p) || w < 1 || h < 1)
    return;
  TerrainPreviewJob *job = new_job (p, preview);
  if (p->last && p->last_view == GTK_WIDGET (preview) && p->last_w == w && p->last_h == h &&
      p->last_x == job->x && p->last_y == job->y)
    gimp_preview_draw_buffer (preview, p->last, p->last_stride);
  if (terrain_reads_layer (p->info, job->values->values) && job->layer == NULL)
    {
      terrain_preview_job_free (job); /* no memory for the layer: OK will say so */
      return;
    }
  terrain_preview_worker_submit (p->worker, job);
  update_status (p);
  if (p->ticker == 0)
    p->ticker = g_timeout_add (STATUS_TICK_MS, tick, p);
}

/* Heights (or shades) in [0, 1] as the preview's gray, with the layer's own alpha. */
static void
draw (TerrainDialogPreview *p, GimpPreview *preview, const TerrainPreviewJob *job,
      const float *samples)
{
  const int   pw = job->w, ph = job->h;
  const Babl *format = terrain_float_format (p->drawable);
  const int   channels = babl_format_get_n_components (format);
  const int   colours = channels - (babl_format_has_alpha (format) ? 1 : 0);
  float      *pixels = g_new (float, (gsize) pw * ph * channels);
  guchar     *bytes = g_new (guchar, (gsize) pw * ph * channels);

  if (colours < channels) /* alpha from the layer, at the preview's scale */
    {
      GeglBuffer   *buffer = gimp_drawable_get_buffer (preview_source (p));
      GeglRectangle rect = { job->x, job->y, pw, ph };
      gegl_buffer_get (buffer, &rect, job->one_to_one ? 1.0 : (double) pw / p->width, format,
                       pixels, GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_CLAMP);
      g_object_unref (buffer);
    }
  for (gsize i = 0; i < (gsize) pw * ph; i++)
    for (int c = 0; c < colours; c++)
      pixels[i * channels + c] = samples[i];
  babl_process (babl_fish (format, terrain_preview_format (p->drawable)), pixels, bytes,
                (long) pw * ph);
  gimp_preview_draw_buffer (preview, bytes, pw * channels);
  g_free (p->last);
  p->last = bytes;
  p->last_view = GTK_WIDGET (preview);
  p->last_x = job->x;
  p->last_y = job->y;
  p->last_w = pw;
  p->last_h = ph;
  p->last_stride = pw * channels;
  g_free (pixels);
}

/* The worker's newest result, on the main thread. A failed render keeps the last image:
 * OK reports why. A result for a view since moved, resized or switched is not drawn: that
 * change asked for a newer one. The 3D view shows what the preview draws. */
static void
show (gpointer user, const TerrainPreviewJob *job, TerrainStatus status, const float *out,
      const float *heights)
{
  TerrainDialogPreview *p = user;
  GtkWidget            *preview = job->one_to_one ? p->detail : p->scaled;
  int                   x = 0, y = 0, w, h;
  update_status (p);
  if (status != TERRAIN_OK || preview != current (p))
    return;
  gimp_preview_get_size (GIMP_PREVIEW (preview), &w, &h);
  if (job->one_to_one)
    gimp_preview_get_position (GIMP_PREVIEW (preview), &x, &y);
  if (w != job->w || h != job->h || x != job->x || y != job->y)
    return;
  draw (p, GIMP_PREVIEW (preview), job, out);
  terrain_dialog_view3d_show (p->view3d, heights, job->w, job->h);
}

/* The procedure's arguments and the relief settings change the preview; whether the canvas
 * shows the result, or merges it, does not. */
static void
settings_changed (GObject *config, GParamSpec *pspec, TerrainDialogPreview *p)
{
  (void) config;
  if (g_strcmp0 (pspec->name, TERRAIN_AUX_CANVAS) && g_strcmp0 (pspec->name, TERRAIN_AUX_MERGE))
    gimp_preview_invalidate (GIMP_PREVIEW (current (p)));
}

/* The 1:1 view is made the first time it is asked for, right where it is shown. Made with
 * the dialog and kept hidden, it was never realized, yet libgimpwidgets' preview redraws
 * it on a timeout all the same and sets a cursor on its window when the dialog is
 * (gimp_preview_invalidate_now checks the dialog, not the preview): "Gdk-CRITICAL
 * gdk_window_set_cursor: assertion 'GDK_IS_WINDOW (window)' failed" whenever the dialog
 * came up within that timeout. Shown at once, it is realized before its first redraw, and
 * hidden later it keeps its window. */
static void
add_detail_view (TerrainDialogPreview *p)
{
  p->detail = gimp_drawable_preview_new_from_drawable (p->drawable);
  gtk_box_pack_start (GTK_BOX (p->box), p->detail, TRUE, TRUE, 0);
  gtk_box_reorder_child (GTK_BOX (p->box), p->detail, 1); /* under the scaled view */
  g_signal_connect (p->detail, "invalidated", G_CALLBACK (request), p);
}

static void
one_to_one_toggled (GtkToggleButton *button, TerrainDialogPreview *p)
{
  const gboolean detail = gtk_toggle_button_get_active (button);
  if (p->detail == NULL)
    add_detail_view (p);
  gtk_widget_set_visible (p->detail, detail);
  gtk_widget_set_visible (p->scaled, ! detail);
  gimp_preview_invalidate (GIMP_PREVIEW (current (p)));
}

/* Filters also get a 1:1 view of a region (the artist's own strokes, pixel for pixel),
 * behind a check box: by default they too show the whole layer. */
static void
add_detail (TerrainDialogPreview *p)
{
  p->one_to_one = gtk_check_button_new_with_mnemonic (_("Preview at _1:1"));
  gtk_widget_set_tooltip_text (p->one_to_one,
                               _("Show a part of the layer pixel for pixel instead of the "
                                 "whole layer scaled down"));
  gtk_box_pack_start (GTK_BOX (p->options), p->one_to_one, FALSE, FALSE, 0);
  gtk_widget_show (p->one_to_one);
  g_signal_connect (p->one_to_one, "toggled", G_CALLBACK (one_to_one_toggled), p);
}

TerrainDialogPreview *
terrain_dialog_preview_new (const TerrainProcedureInfo *info, GimpProcedureConfig *config,
                            GimpDrawable *drawable, TerrainCanvasPreview *canvas)
{
  TerrainDialogPreview *p = g_new0 (TerrainDialogPreview, 1);
  p->info = info;
  p->config = config;
  p->drawable = drawable;
  p->canvas = canvas;
  p->width = gimp_drawable_get_width (drawable);
  p->height = gimp_drawable_get_height (drawable);
  p->worker = terrain_preview_worker_new (show, p);
  p->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  p->scaled = gimp_aspect_preview_new_from_drawable (drawable);
  gtk_box_pack_start (GTK_BOX (p->box), p->scaled, TRUE, TRUE, 0);
  gtk_widget_show (p->scaled);
  g_signal_connect (p->scaled, "invalidated", G_CALLBACK (request), p);
  /* One row of check boxes under the preview: the dialog grows by one row at most. */
  p->options = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_box_pack_start (GTK_BOX (p->box), p->options, FALSE, FALSE, 0);
  gtk_widget_show (p->options);
  if (info->kind == TERRAIN_FILTER)
    add_detail (p);
  p->view3d = terrain_dialog_view3d_new ();
  gtk_box_pack_start (GTK_BOX (p->options), terrain_dialog_view3d_toggle (p->view3d), FALSE,
                      FALSE, 0);
  p->status = gtk_progress_bar_new ();
  gtk_progress_bar_set_text (GTK_PROGRESS_BAR (p->status), _("Computing the preview…"));
  gtk_progress_bar_set_show_text (GTK_PROGRESS_BAR (p->status), TRUE);
  gtk_widget_set_opacity (p->status, 0.0);
  gtk_box_pack_start (GTK_BOX (p->box), p->status, FALSE, FALSE, 0);
  gtk_widget_show (p->status);
  /* Shown only when the preview cannot read what the canvas shows (preview_source). */
  p->without_effects = gtk_label_new (_("This preview shows the layer without its effects; "
                                        "the canvas shows the result."));
  gtk_label_set_line_wrap (GTK_LABEL (p->without_effects), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (p->without_effects), 30);
  gimp_label_set_attributes (GTK_LABEL (p->without_effects), PANGO_ATTR_STYLE,
                             PANGO_STYLE_ITALIC, -1);
  gtk_box_pack_start (GTK_BOX (p->box), p->without_effects, FALSE, FALSE, 0);
  gtk_widget_show (p->box);
  /* The 3D view beside the 2D preview, both at the top of the dialog. */
  p->row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_widget_set_valign (p->box, GTK_ALIGN_START); /* its check boxes stay under it */
  gtk_box_pack_start (GTK_BOX (p->row), p->box, TRUE, TRUE, 0);
  gtk_box_pack_start (GTK_BOX (p->row), terrain_dialog_view3d_widget (p->view3d), FALSE, FALSE,
                      0);
  gtk_widget_show (p->row);
  p->notify = g_signal_connect (config, "notify", G_CALLBACK (settings_changed), p);
  return p;
}

GtkWidget *
terrain_dialog_preview_widget (TerrainDialogPreview *p)
{
  return p->row;
}

void
terrain_dialog_preview_free (TerrainDialogPreview *p)
{
  g_signal_handler_disconnect (p->config, p->notify);
  /* The previews outlive this (the dialog destroys them) and may hold a pending redraw. */
  g_signal_handlers_disconnect_by_data (p->scaled, p);
  if (p->one_to_one)
    g_signal_handlers_disconnect_by_data (p->one_to_one, p);
  if (p->detail)
    g_signal_handlers_disconnect_by_data (p->detail, p);
  terrain_preview_worker_free (p->worker); /* joins: nothing reads p->layer after this */
  terrain_dialog_view3d_free (p->view3d);
  if (p->ticker)
    g_source_remove (p->ticker);
  g_free (p->layer);
  g_free (p->last);
  g_free (p);
}
