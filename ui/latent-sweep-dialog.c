/* latent-sweep-dialog.c — fit a mixture for each K and compare BIC and AIC
 *
 * K is whichever integer parameter the algorithm sweeps (the parameter whose role is LATENT_PARAM_ROLE_SWEEP),
 * between its spec's bounds and no further than its check takes for the
 * data. The fits run in a thread (GTask); each finished K is posted back to
 * the main context, and closing the dialog cancels what is left.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-sweep-dialog"

#include "latent-sweep-dialog.h"

#include <glib/gi18n-lib.h>

#include "latent-figure.h"
#include "latent-sweep.h"
#include "latent-ui-util.h"

struct _LatentSweepDialog
{
  GtkWindow              parent_instance;

  GtkSpinButton         *first_spin;
  GtkSpinButton         *last_spin;
  GtkButton             *run_button;
  GtkButton             *use_button;
  GtkButton             *export_button;
  GtkLabel              *progress_label;
  GtkDrawingArea        *area;

  const LatentAlgorithm *algorithm;
  LatentDataset         *dataset;
  LatentParams          *params;
  guint64                seed;
  LatentCl              *cl;
  GCancellable          *cancellable;
  LatentSweep           *sweep;
};

G_DEFINE_FINAL_TYPE (LatentSweepDialog, latent_sweep_dialog, GTK_TYPE_WINDOW)

enum { USE_K, N_SIGNALS };
static guint signals[N_SIGNALS];

typedef struct {
  GWeakRef dialog;
  guint    k;
  guint    first, last;
} Progress;

static void
set_progress (LatentSweepDialog *self,
              const char        *text)
{
  latent_label_set_text (self->progress_label, text, _("Sweep Progress"));
}

static gboolean
show_progress (gpointer data)
{
  Progress *p = data;
  g_autoptr(LatentSweepDialog) self = g_weak_ref_get (&p->dialog);

  if (self)
    {
      g_autofree char *text = g_strdup_printf (_("K = %u done (%u to %u)…"), p->k, p->first, p->last);
      set_progress (self, text);
    }
  return G_SOURCE_REMOVE;
}

static void
free_progress (gpointer data)
{
  Progress *p = data;

  g_weak_ref_clear (&p->dialog);
  g_free (p);
}

static void
on_point (const LatentSweepPoint *point,
          gpointer                user_data)
{
  GTask *task = user_data;
  LatentSweepDialog *self = g_task_get_source_object (task);
  Progress *p = g_new0 (Progress, 1);

  g_weak_ref_init (&p->dialog, self);
  p->k = point->k;
  p->first = gtk_spin_button_get_value_as_int (self->first_spin);
  p->last = gtk_spin_button_get_value_as_int (self->last_spin);
  g_main_context_invoke_full (NULL, G_PRIORITY_DEFAULT, show_progress, p, free_progress);
}

static void
sweep_thread (GTask        *task,
              gpointer      source,
              gpointer      task_data,
              GCancellable *cancellable)
{
  LatentSweepDialog *self = source;
  guint *range = task_data;
  GError *error = NULL;
  LatentSweep *sweep = latent_sweep_run (self->algorithm, self->dataset, self->params, self->seed, self->cl,
                                         range[0], range[1], on_point, task, cancellable, &error);

  if (sweep)
    g_task_return_pointer (task, sweep, (GDestroyNotify) latent_sweep_free);
  else
    g_task_return_error (task, error);
}

static void
on_swept (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  LatentSweepDialog *self = LATENT_SWEEP_DIALOG (source);
  g_autoptr(GError) error = NULL;
  LatentSweep *sweep = g_task_propagate_pointer (G_TASK (result), &error);

  gtk_widget_set_sensitive (GTK_WIDGET (self->run_button), TRUE);
  if (sweep == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        set_progress (self, error->message);
      return;
    }
  g_clear_pointer (&self->sweep, latent_sweep_free);
  self->sweep = sweep;
  {
    g_autofree char *fits = latent_sweep_describe_fits (sweep);
    g_autofree char *edge = latent_sweep_describe_edge (sweep);
    g_autoptr(GString) text = g_string_new (NULL);

    g_string_printf (text, _("Best K: %u by BIC, %u by AIC"),
                     g_array_index (sweep->points, LatentSweepPoint, sweep->best_bic).k,
                     g_array_index (sweep->points, LatentSweepPoint, sweep->best_aic).k);
    /* A best K at an end of the range may be no best at all. */
    if (edge)
      g_string_append_printf (text, " — %s", edge);
    /* What the comparison holds fixed, so that it can be repeated. */
    if (fits)
      g_string_append_printf (text, "\n%s %s", _("Each fit:"), fits);
    set_progress (self, text->str);
  }
  gtk_widget_set_sensitive (GTK_WIDGET (self->use_button), TRUE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->export_button), TRUE);
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
}

static void
on_run (LatentSweepDialog *self)
{
  g_autoptr(GTask) task = NULL;
  guint *range = g_new (guint, 2);

  range[0] = gtk_spin_button_get_value_as_int (self->first_spin);
  range[1] = MAX (range[0], (guint) gtk_spin_button_get_value_as_int (self->last_spin));
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  gtk_widget_set_sensitive (GTK_WIDGET (self->run_button), FALSE);
  set_progress (self, _("Fitting…"));

  task = g_task_new (self, self->cancellable, on_swept, NULL);
  g_task_set_task_data (task, range, g_free);
  g_task_run_in_thread (task, sweep_thread);
}

static void
on_use (LatentSweepDialog *self)
{
  if (self->sweep)
    g_signal_emit (self, signals[USE_K], 0, g_array_index (self->sweep->points, LatentSweepPoint,
                                                            self->sweep->best_bic).k);
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
on_export_chosen (const char *path,
                  gpointer    user_data)
{
  LatentSweepDialog *self = user_data;
  g_autoptr(GError) error = NULL;
  LatentFigureStyle style;

  latent_figure_style_init (&style);
  if (path == NULL || self->sweep == NULL)
    return;
  if (!latent_figure_sweep_export (self->sweep, &style, path, gtk_widget_get_width (GTK_WIDGET (self->area)),
                                   gtk_widget_get_height (GTK_WIDGET (self->area)), &error))
    set_progress (self, error->message);
  else
    latent_saved (GTK_WIDGET (self), path, NULL);
}

static void
on_export (LatentSweepDialog *self)
{
  GtkFileChooserNative *dialog = latent_save_chooser_new (GTK_WINDOW (self), _("Export Figure"), "bic-aic.png",
                                                         LATENT_SAVE_PICTURE, on_export_chosen, self);

  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
draw (GtkDrawingArea *area,
      cairo_t        *cr,
      int             width,
      int             height,
      gpointer        user_data)
{
  LatentSweepDialog *self = user_data;
  LatentFigureStyle style;

  if (self->sweep == NULL)
    return;
  latent_figure_style_init (&style);
  latent_figure_sweep_render (self->sweep, &style, cr, width, height);
}

static void
latent_sweep_dialog_dispose (GObject *object)
{
  LatentSweepDialog *self = LATENT_SWEEP_DIALOG (object);

  /* The thread holds the dialog through its task; stop it early. */
  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
  G_OBJECT_CLASS (latent_sweep_dialog_parent_class)->dispose (object);
}

static void
latent_sweep_dialog_finalize (GObject *object)
{
  LatentSweepDialog *self = LATENT_SWEEP_DIALOG (object);

  g_clear_object (&self->cancellable);
  g_clear_object (&self->dataset);
  g_clear_pointer (&self->params, latent_params_unref);
  g_clear_object (&self->cl);
  g_clear_pointer (&self->sweep, latent_sweep_free);
  G_OBJECT_CLASS (latent_sweep_dialog_parent_class)->finalize (object);
}

static void
latent_sweep_dialog_class_init (LatentSweepDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = latent_sweep_dialog_dispose;
  object_class->finalize = latent_sweep_dialog_finalize;
  signals[USE_K] = g_signal_new ("use-k", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                 0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/latent/Latent/latent-sweep-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, LatentSweepDialog, first_spin);
  gtk_widget_class_bind_template_child (widget_class, LatentSweepDialog, last_spin);
  gtk_widget_class_bind_template_child (widget_class, LatentSweepDialog, run_button);
  gtk_widget_class_bind_template_child (widget_class, LatentSweepDialog, use_button);
  gtk_widget_class_bind_template_child (widget_class, LatentSweepDialog, export_button);
  gtk_widget_class_bind_template_child (widget_class, LatentSweepDialog, progress_label);
  gtk_widget_class_bind_template_child (widget_class, LatentSweepDialog, area);
  gtk_widget_class_bind_template_callback (widget_class, on_run);
  gtk_widget_class_bind_template_callback (widget_class, on_use);
  gtk_widget_class_bind_template_callback (widget_class, on_export);
  /* Escape closes, as in a dialog. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
latent_sweep_dialog_init (LatentSweepDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_drawing_area_set_draw_func (self->area, draw, self, NULL);
}

GtkWidget *
latent_sweep_dialog_new (GtkWindow             *parent,
                         const LatentAlgorithm *algorithm,
                         LatentDataset         *dataset,
                         LatentParams          *params,
                         guint64                seed,
                         LatentCl              *cl)
{
  LatentSweepDialog *self;
  const char *swept;
  double min, max;

  g_return_val_if_fail (algorithm != NULL && (swept = latent_algorithm_param_with_role (algorithm, LATENT_PARAM_ROLE_SWEEP)), NULL);
  if (!latent_params_get_range (params, swept, &min, &max))
    g_return_val_if_reached (NULL);

  self = g_object_new (LATENT_TYPE_SWEEP_DIALOG, "transient-for", parent, NULL);
  /* No K the fit would refuse (more components than rows). */
  max = latent_algorithm_max_int (algorithm, dataset, params, swept);
  gtk_spin_button_set_range (self->first_spin, min, MAX (min, max));
  gtk_spin_button_set_range (self->last_spin, min, MAX (min, max));
  self->algorithm = algorithm;
  self->dataset = g_object_ref (dataset);
  /* A copy: the window's parameters may change while this runs. */
  self->params = latent_params_copy (params);
  self->seed = seed;
  self->cl = cl ? g_object_ref (cl) : NULL;
  return GTK_WIDGET (self);
}

const LatentAlgorithm *
latent_sweep_dialog_get_algorithm (LatentSweepDialog *self)
{
  g_return_val_if_fail (LATENT_IS_SWEEP_DIALOG (self), NULL);
  return self->algorithm;
}
