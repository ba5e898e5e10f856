/* latent-window.c — the main window: a dataset, an algorithm, a live run
 *
 * The window owns the current dataset, parameters and run. The run's worker
 * thread sends iterations and snapshots here through the main context; the
 * window never waits for it. A run being replaced is stopped and let go: it
 * is dropped when its worker says it has finished.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-window"

#include "latent-window.h"

#include <glib/gi18n-lib.h>

#include "latent-catalog.h"
#include "latent-cl.h"
#include "latent-curve-view.h"
#include "latent-experiment.h"
#include "latent-export-dialog.h"
#include "latent-figure-view.h"
#include "latent-param-panel.h"
#include "latent-projection.h"
#include "latent-run.h"
#include "latent-synthetic-dialog.h"

/* Snapshots kept for the timeline, by the memory their copies take. */
#define FRAMES_MAX_BYTES (96u << 20)
#define RECENT_MAX 8

struct _LatentWindow
{
  GtkApplicationWindow   parent_instance;

  /* Template widgets */
  GtkMenuButton         *dataset_button;
  GtkDropDown           *algorithm_dropdown;
  GtkMenuButton         *device_button;
  GtkInfoBar            *error_bar;
  GtkLabel              *error_label;
  LatentParamPanel      *param_panel;
  GtkSpinButton         *seed_spin;
  GtkLabel              *metrics_label;
  LatentFigureView      *figure_view;
  LatentCurveView       *curve_view;
  GtkScale              *speed_scale;
  GtkCheckButton        *fast_check;
  GtkScale              *timeline;
  GtkAdjustment         *timeline_adjustment;
  GtkLabel              *status_label;
  GMenu                 *recent_section;

  GSettings             *settings;
  LatentDataset         *dataset;
  char                  *dataset_spec;
  GCancellable          *loading;

  const LatentAlgorithm *algorithm;
  LatentParams          *params;
  LatentCl              *cl;
  char                  *device;        /* auto, cpu, gpu or off */
  char                  *device_name;   /* what runs, for the status line */

  LatentRun             *run;
  gboolean               running;       /* play was pressed, not paused since */
  GPtrArray             *frames;        /* LatentSnapshot, by iteration */
  gsize                  frames_bytes;
  gboolean               follow;        /* the timeline is at the newest frame */
  gboolean               scrubbing;     /* setting the timeline from code */
  guint                  iterations;    /* delivered so far */
  gint64                 rate_time;
  guint                  rate_iterations;
  double                 rate;
  char                  *run_message;   /* converged, stopped, failed… */
};

G_DEFINE_FINAL_TYPE (LatentWindow, latent_window, GTK_TYPE_APPLICATION_WINDOW)

static void start_run (LatentWindow *self, gboolean play);

/* Errors */

static void
show_error (LatentWindow *self,
            const char   *message)
{
  gtk_label_set_text (self->error_label, message);
  gtk_info_bar_set_revealed (self->error_bar, TRUE);
}

static void
on_error_response (LatentWindow *self,
                   int           response)
{
  gtk_info_bar_set_revealed (self->error_bar, FALSE);
}

/* Status */

static LatentSnapshot *
shown_frame (LatentWindow *self)
{
  return latent_figure_view_get_snapshot (self->figure_view);
}

static void
update_status (LatentWindow *self)
{
  LatentSnapshot *frame = shown_frame (self);
  g_autoptr(GString) s = g_string_new (NULL);

  if (self->dataset == NULL)
    {
      gtk_label_set_text (self->status_label, self->loading ? _("Loading…") : _("No data"));
      return;
    }
  g_string_append_printf (s, "%s · %u × %u · %s", latent_dataset_get_name (self->dataset),
                          latent_dataset_get_n_rows (self->dataset),
                          latent_dataset_get_n_cols (self->dataset), _(self->algorithm->name));
  if (frame)
    {
      g_string_append_printf (s, _(" · iteration %u of %u · objective %.8g"),
                              frame->iteration, self->iterations, frame->objective);
      if (self->running && self->rate > 0)
        g_string_append_printf (s, _(" · %.0f it/s"), self->rate);
    }
  else
    g_string_append (s, _(" · initialising"));
  if (self->run_message)
    g_string_append_printf (s, " · %s", self->run_message);
  else if (self->running)
    g_string_append (s, _(" · running"));
  else if (frame)
    g_string_append (s, _(" · paused"));
  g_string_append_printf (s, " · %s", self->device_name ? self->device_name : _("CPU reference"));
  if (frame && frame->message)
    g_string_append_printf (s, " · %s", frame->message);
  gtk_label_set_text (self->status_label, s->str);
}

static void
update_metrics (LatentWindow *self)
{
  LatentSnapshot *frame = shown_frame (self);
  g_autofree char *text = NULL;

  if (frame == NULL)
    text = g_strdup ("");
  else if (frame->has_label_metrics)
    text = g_strdup_printf (_("Accuracy %.4f\nAdjusted Rand index %.4f\nNormalised mutual information %.4f"),
                            frame->metrics.accuracy, frame->metrics.ari, frame->metrics.nmi);
  else
    text = g_strdup (_("The dataset has no labels to compare with."));
  gtk_label_set_text (self->metrics_label, text);
}

static void
update_actions (LatentWindow *self)
{
  LatentRunState state = self->run ? latent_run_get_state (self->run) : LATENT_RUN_FAILED;
  gboolean live = state == LATENT_RUN_PAUSED || state == LATENT_RUN_RUNNING || state == LATENT_RUN_INITIALISING;
  GActionMap *map = G_ACTION_MAP (self);

  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (map, "run")), live && !self->running);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (map, "pause")), live && self->running);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (map, "step")), live);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (map, "reset")), self->dataset != NULL);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (map, "export")), shown_frame (self) != NULL);
}

/* Frames: the snapshots the timeline can go back to */

static gsize
frame_bytes (LatentSnapshot *frame)
{
  return sizeof *frame + (gsize) frame->n_rows * sizeof (gint32) +
         (gsize) frame->k * frame->n_cols * sizeof (float);
}

static void
keep_frame (LatentWindow   *self,
            LatentSnapshot *frame)
{
  g_ptr_array_add (self->frames, latent_snapshot_ref (frame));
  self->frames_bytes += frame_bytes (frame);
  /* Over budget: drop the oldest, but keep the initial state. */
  while (self->frames_bytes > FRAMES_MAX_BYTES && self->frames->len > 2)
    {
      self->frames_bytes -= frame_bytes (g_ptr_array_index (self->frames, 1));
      g_ptr_array_remove_index (self->frames, 1);
    }
}

static LatentSnapshot *
frame_at (LatentWindow *self,
          guint         iteration)
{
  LatentSnapshot *best = NULL;

  /* Frames are in iteration order; the newest not after the asked one. */
  for (guint i = 0; i < self->frames->len; i++)
    {
      LatentSnapshot *frame = g_ptr_array_index (self->frames, i);
      if (frame->iteration > iteration && best)
        break;
      best = frame;
    }
  return best;
}

static void
show_frame (LatentWindow   *self,
            LatentSnapshot *frame)
{
  latent_figure_view_set_snapshot (self->figure_view, frame);
  latent_curve_view_set_marker (self->curve_view, frame ? frame->iteration : 0);
  update_status (self);
  update_metrics (self);
  update_actions (self);
}

static void
on_timeline_changed (LatentWindow *self)
{
  guint iteration = (guint) gtk_adjustment_get_value (self->timeline_adjustment);

  if (self->scrubbing)
    return;
  self->follow = iteration >= self->iterations;
  show_frame (self, frame_at (self, iteration));
}

static void
move_timeline (LatentWindow *self,
               guint         newest)
{
  self->scrubbing = TRUE;
  gtk_adjustment_set_upper (self->timeline_adjustment, newest);
  if (self->follow)
    gtk_adjustment_set_value (self->timeline_adjustment, newest);
  self->scrubbing = FALSE;
}

/* The run */

static void
on_run_iteration (LatentRun             *run,
                  LatentIterationRecord *record,
                  LatentWindow          *self)
{
  gint64 now = g_get_monotonic_time ();

  self->iterations = record->iteration;
  latent_curve_view_append (self->curve_view, record->objective);
  if (now - self->rate_time > G_USEC_PER_SEC / 2)
    {
      self->rate = (record->iteration - self->rate_iterations) * (double) G_USEC_PER_SEC / (now - self->rate_time);
      self->rate_time = now;
      self->rate_iterations = record->iteration;
    }
}

static void
on_run_snapshot (LatentRun      *run,
                 LatentSnapshot *snapshot,
                 LatentWindow   *self)
{
  keep_frame (self, snapshot);
  move_timeline (self, snapshot->iteration);
  if (self->follow)
    show_frame (self, snapshot);
  else
    update_status (self);
}

static void
on_run_finished (LatentRun    *run,
                 GError       *error,
                 LatentWindow *self)
{
  LatentSnapshot *last = latent_run_get_snapshot (run);

  self->running = FALSE;
  g_clear_pointer (&self->run_message, g_free);
  if (error)
    {
      show_error (self, error->message);
      self->run_message = g_strdup (_("failed"));
    }
  else if (latent_run_get_state (run) == LATENT_RUN_FINISHED)
    self->run_message = g_strdup (last && last->converged ? _("converged") : _("iteration limit reached"));
  update_status (self);
  update_actions (self);
}

/* A replaced run stops within an iteration; it is let go when its worker
 * reports, so the window never waits for it. */
static void
on_retired_finished (LatentRun *run,
                     GError    *error,
                     gpointer   user_data)
{
  g_signal_handlers_disconnect_by_func (run, on_retired_finished, NULL);
  g_object_unref (run);
}

static void
retire_run (LatentWindow *self)
{
  LatentRun *run = g_steal_pointer (&self->run);
  LatentRunState state;

  if (run == NULL)
    return;
  g_signal_handlers_disconnect_by_data (run, self);
  state = latent_run_get_state (run);
  if (state == LATENT_RUN_FINISHED || state == LATENT_RUN_STOPPED || state == LATENT_RUN_FAILED)
    {
      g_object_unref (run);
      return;
    }
  g_signal_connect (run, "finished", G_CALLBACK (on_retired_finished), NULL);
  latent_run_stop (run);
}

static void
apply_speed (LatentWindow *self)
{
  double speed = gtk_check_button_get_active (self->fast_check) ? 0 : gtk_range_get_value (GTK_RANGE (self->speed_scale));

  gtk_widget_set_sensitive (GTK_WIDGET (self->speed_scale), speed > 0);
  if (self->run)
    latent_run_set_speed (self->run, speed);
  if (self->settings)
    g_settings_set_double (self->settings, "speed", speed);
}

static void
on_speed_changed (LatentWindow *self)
{
  apply_speed (self);
}

static void
start_run (LatentWindow *self,
           gboolean      play)
{
  retire_run (self);
  g_ptr_array_set_size (self->frames, 0);
  self->frames_bytes = 0;
  self->follow = TRUE;
  self->iterations = 0;
  self->rate = 0;
  self->rate_time = g_get_monotonic_time ();
  self->rate_iterations = 0;
  g_clear_pointer (&self->run_message, g_free);
  latent_figure_view_reset (self->figure_view);
  latent_curve_view_clear (self->curve_view, self->algorithm->id && g_str_equal (self->algorithm->id, "kmeans")
                                             ? _("Inertia") : _("Objective"));
  move_timeline (self, 0);

  if (self->dataset == NULL)
    return;
  self->run = latent_run_new (self->algorithm, self->dataset, self->params,
                              (guint64) gtk_spin_button_get_value (self->seed_spin), self->cl);
  g_signal_connect (self->run, "iteration", G_CALLBACK (on_run_iteration), self);
  g_signal_connect (self->run, "snapshot", G_CALLBACK (on_run_snapshot), self);
  g_signal_connect (self->run, "finished", G_CALLBACK (on_run_finished), self);
  apply_speed (self);
  self->running = play;
  if (play)
    latent_run_play (self->run);
  update_status (self);
  update_actions (self);
}

static void
on_params_changed (LatentWindow *self)
{
  /* Idle: show the new initialisation; running: start over and go on. */
  start_run (self, self->running);
}

/* Devices */

static void
set_device (LatentWindow *self,
            const char   *device)
{
  LatentDeviceChoice choice = LATENT_DEVICE_AUTO;
  g_autoptr(GError) error = NULL;
  g_autofree char *label = NULL;

  if (!latent_device_choice_parse (device, &choice, &error))
    {
      show_error (self, error->message);
      device = "auto";
    }
  g_free (self->device);
  self->device = g_strdup (device);
  g_clear_object (&self->cl);
  g_clear_pointer (&self->device_name, g_free);

  if (choice != LATENT_DEVICE_OFF)
    {
      self->cl = latent_cl_new_background (choice, &error);
      if (self->cl == NULL)
        show_error (self, error->message);
    }
  if (self->cl)
    {
      const LatentClDeviceInfo *info = latent_cl_get_info (self->cl);
      self->device_name = latent_cl_describe (self->cl);
      label = g_strdup_printf ("%s", info->type & CL_DEVICE_TYPE_GPU ? _("GPU") : _("OpenCL CPU"));
    }
  else
    {
      self->device_name = g_strdup (_("CPU reference"));
      label = g_strdup (_("CPU Reference"));
    }
  gtk_menu_button_set_label (self->device_button, label);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->device_button), self->device_name);
  if (self->settings)
    g_settings_set_string (self->settings, "device", self->device);
}

static void
on_device_action (GSimpleAction *action,
                  GVariant      *value,
                  gpointer       user_data)
{
  LatentWindow *self = user_data;

  g_simple_action_set_state (action, value);
  set_device (self, g_variant_get_string (value, NULL));
  start_run (self, self->running);
}

/* Datasets */

static void
remember_recent (LatentWindow *self,
                 const char   *spec)
{
  g_auto(GStrv) old = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) recent = NULL;
  guint n = 1;

  if (self->settings == NULL || !g_path_is_absolute (spec))
    return;
  old = g_settings_get_strv (self->settings, "recent-files");
  g_strv_builder_add (builder, spec);
  for (guint i = 0; old[i] && n < RECENT_MAX; i++)
    if (!g_str_equal (old[i], spec))
      {
        g_strv_builder_add (builder, old[i]);
        n++;
      }
  recent = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, "recent-files", (const char * const *) recent);
}

static void
update_recent_menu (LatentWindow *self)
{
  g_auto(GStrv) recent = NULL;

  g_menu_remove_all (self->recent_section);
  if (self->settings == NULL)
    return;
  recent = g_settings_get_strv (self->settings, "recent-files");
  for (guint i = 0; recent[i]; i++)
    {
      g_autofree char *base = g_path_get_basename (recent[i]);
      g_autoptr(GMenuItem) item = g_menu_item_new (base, NULL);

      g_menu_item_set_action_and_target_value (item, "win.load-dataset", g_variant_new_string (recent[i]));
      g_menu_append_item (self->recent_section, item);
    }
}

static void
install_dataset (LatentWindow  *self,
                 LatentDataset *dataset,
                 const char    *spec)
{
  g_set_object (&self->dataset, dataset);
  g_free (self->dataset_spec);
  self->dataset_spec = g_strdup (spec);
  gtk_menu_button_set_label (self->dataset_button, latent_dataset_get_name (dataset));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->dataset_button), spec);
  gtk_info_bar_set_revealed (self->error_bar, FALSE);
  if (self->settings)
    g_settings_set_string (self->settings, "last-dataset", spec);
  remember_recent (self, spec);
  update_recent_menu (self);
  start_run (self, FALSE);
}

static void
load_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  GError *error = NULL;
  LatentDataset *dataset = latent_catalog_load (task_data, NULL, &error);

  if (dataset == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  /* The projection takes a while for wide data: not on the main thread. */
  {
    LatentProjection *projection = latent_projection_get_for_dataset (dataset);
    g_clear_pointer (&projection, latent_projection_unref);
  }
  g_task_return_pointer (task, dataset, g_object_unref);
}

static void
on_loaded (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  LatentWindow *self = LATENT_WINDOW (source);
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentDataset) dataset = g_task_propagate_pointer (G_TASK (result), &error);
  const char *spec = g_task_get_task_data (G_TASK (result));

  if (g_task_get_cancellable (G_TASK (result)) == self->loading)
    g_clear_object (&self->loading);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (dataset == NULL)
    {
      /* The message names the file and line; what was loaded stays. */
      show_error (self, error->message);
      update_status (self);
      return;
    }
  install_dataset (self, dataset, spec);
}

void
latent_window_load_dataset (LatentWindow *self,
                            const char   *spec)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (LATENT_IS_WINDOW (self));
  g_return_if_fail (spec != NULL);

  if (self->loading)
    g_cancellable_cancel (self->loading);
  g_clear_object (&self->loading);
  self->loading = g_cancellable_new ();
  task = g_task_new (self, self->loading, on_loaded, NULL);
  g_task_set_task_data (task, g_strdup (spec), g_free);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, load_thread);
  update_status (self);
}

/* The path a file chooser was accepted with, or NULL. */
static char *
chosen_path (GtkNativeDialog *dialog,
             int              response)
{
  g_autoptr(GFile) file = NULL;

  if (response != GTK_RESPONSE_ACCEPT)
    return NULL;
  file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  return file ? g_file_get_path (file) : NULL;
}

static void
on_open_response (GtkNativeDialog *dialog,
                  int              response,
                  LatentWindow    *self)
{
  g_autofree char *path = chosen_path (dialog, response);

  if (path)
    latent_window_load_dataset (self, path);
  g_object_unref (dialog);
}

static void
add_filter (GtkFileChooser *chooser,
            const char     *name,
            const char     *pattern,
            ...)
{
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  va_list args;

  gtk_file_filter_set_name (filter, name);
  va_start (args, pattern);
  for (const char *p = pattern; p; p = va_arg (args, const char *))
    gtk_file_filter_add_pattern (filter, p);
  va_end (args);
  gtk_file_chooser_add_filter (chooser, filter);
}

static void
on_open_action (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  LatentWindow *self = user_data;
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (_("Open Dataset"), GTK_WINDOW (self),
                                                              GTK_FILE_CHOOSER_ACTION_OPEN,
                                                              _("_Open"), _("_Cancel"));

  add_filter (GTK_FILE_CHOOSER (dialog), _("All datasets"), "*.csv", "*.tsv", "*.txt", "*.png",
              "*-ubyte", "*-ubyte.gz", NULL);
  add_filter (GTK_FILE_CHOOSER (dialog), _("Tables (CSV, TSV)"), "*.csv", "*.tsv", "*.txt", NULL);
  add_filter (GTK_FILE_CHOOSER (dialog), _("Images (PNG)"), "*.png", NULL);
  add_filter (GTK_FILE_CHOOSER (dialog), _("MNIST-style IDX"), "*-ubyte", "*-ubyte.gz", NULL);
  add_filter (GTK_FILE_CHOOSER (dialog), _("All files"), "*", NULL);
  g_signal_connect (dialog, "response", G_CALLBACK (on_open_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
on_load_dataset_action (GSimpleAction *action,
                        GVariant      *parameter,
                        gpointer       user_data)
{
  latent_window_load_dataset (user_data, g_variant_get_string (parameter, NULL));
}

static void
on_synthetic_chosen (LatentSyntheticDialog *dialog,
                     const char            *spec,
                     LatentWindow          *self)
{
  latent_window_load_dataset (self, spec);
}

static void
on_synthetic_action (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       user_data)
{
  LatentWindow *self = user_data;
  GtkWidget *dialog = latent_synthetic_dialog_new (GTK_WINDOW (self), g_variant_get_string (parameter, NULL));

  g_signal_connect (dialog, "chosen", G_CALLBACK (on_synthetic_chosen), self);
  gtk_window_present (GTK_WINDOW (dialog));
}

static gboolean
on_drop (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         LatentWindow  *self)
{
  GSList *files;
  g_autofree char *path = NULL;

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;
  files = g_value_get_boxed (value);
  if (files == NULL || !(path = g_file_get_path (files->data)))
    return FALSE;
  latent_window_load_dataset (self, path);
  return TRUE;
}

/* Run controls */

static void
on_run_action (GSimpleAction *action,
               GVariant      *parameter,
               gpointer       user_data)
{
  LatentWindow *self = user_data;

  if (self->run == NULL)
    return;
  self->running = TRUE;
  self->follow = TRUE;
  move_timeline (self, self->iterations);
  latent_run_play (self->run);
  update_status (self);
  update_actions (self);
}

static void
on_pause_action (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  LatentWindow *self = user_data;

  if (self->run == NULL)
    return;
  self->running = FALSE;
  latent_run_pause (self->run);
  update_status (self);
  update_actions (self);
}

static void
on_step_action (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  LatentWindow *self = user_data;

  if (self->run == NULL)
    return;
  self->running = FALSE;
  self->follow = TRUE;
  latent_run_step (self->run);
  update_actions (self);
}

static void
on_reset_action (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  start_run (user_data, FALSE);
}

static void
on_toggle_run_action (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  LatentWindow *self = user_data;

  g_action_group_activate_action (G_ACTION_GROUP (self), self->running ? "pause" : "run", NULL);
}

/* Space, Right and Ctrl+R drive the run from anywhere in the window except
 * where a person types text. */
static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                LatentWindow          *self)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));
  GdkModifierType mods = state & gtk_accelerator_get_default_mod_mask ();
  const char *action = NULL;

  if (focus && (GTK_IS_TEXT (focus) || GTK_IS_EDITABLE (focus)))
    return FALSE;
  if (keyval == GDK_KEY_space && mods == 0)
    action = "toggle-run";
  else if (keyval == GDK_KEY_Right && mods == 0 && !GTK_IS_RANGE (focus))
    action = "step";
  else if ((keyval == GDK_KEY_r || keyval == GDK_KEY_R) && mods == GDK_CONTROL_MASK)
    action = "reset";
  if (action == NULL)
    return FALSE;
  g_action_group_activate_action (G_ACTION_GROUP (self), action, NULL);
  return TRUE;
}

/* Export and experiments */

static void
on_export_action (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  LatentWindow *self = user_data;
  LatentSnapshot *frame = shown_frame (self);
  LatentFigureStyle style;
  GtkWidget *dialog;

  if (frame == NULL)
    return;
  latent_figure_view_get_style (self->figure_view, &style);
  dialog = latent_export_dialog_new (GTK_WINDOW (self), frame, &style,
                                     gtk_widget_get_width (GTK_WIDGET (self->figure_view)),
                                     gtk_widget_get_height (GTK_WIDGET (self->figure_view)));
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
on_save_experiment_response (GtkNativeDialog *dialog,
                             int              response,
                             LatentWindow    *self)
{
  g_autofree char *path = chosen_path (dialog, response);

  if (path && self->dataset_spec)
    {
      g_autoptr(LatentExperiment) experiment =
        latent_experiment_new (self->dataset_spec, NULL, self->algorithm, self->params,
                               (guint64) gtk_spin_button_get_value (self->seed_spin), self->device);
      g_autoptr(GError) error = NULL;

      if (!latent_experiment_save (experiment, path, &error))
        show_error (self, error->message);
    }
  g_object_unref (dialog);
}

static void
on_save_experiment_action (GSimpleAction *action,
                           GVariant      *parameter,
                           gpointer       user_data)
{
  LatentWindow *self = user_data;
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (_("Save Experiment"), GTK_WINDOW (self),
                                                              GTK_FILE_CHOOSER_ACTION_SAVE,
                                                              _("_Save"), _("_Cancel"));

  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), "experiment.json");
  g_signal_connect (dialog, "response", G_CALLBACK (on_save_experiment_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
apply_experiment (LatentWindow     *self,
                  LatentExperiment *experiment)
{
  self->algorithm = experiment->algorithm;
  g_clear_pointer (&self->params, latent_params_unref);
  self->params = latent_params_ref (experiment->params);
  latent_param_panel_set_params (self->param_panel, self->params);
  g_signal_handlers_block_by_func (self->seed_spin, on_params_changed, self);
  gtk_spin_button_set_value (self->seed_spin, experiment->seed);
  g_signal_handlers_unblock_by_func (self->seed_spin, on_params_changed, self);
  g_action_group_change_action_state (G_ACTION_GROUP (self), "device", g_variant_new_string (experiment->device));
  latent_window_load_dataset (self, experiment->dataset);
}

static void
on_open_experiment_response (GtkNativeDialog *dialog,
                             int              response,
                             LatentWindow    *self)
{
  g_autofree char *path = chosen_path (dialog, response);

  if (path)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(LatentExperiment) experiment = latent_experiment_load (path, &error);

      if (experiment)
        apply_experiment (self, experiment);
      else
        show_error (self, error->message);
    }
  g_object_unref (dialog);
}

static void
on_open_experiment_action (GSimpleAction *action,
                           GVariant      *parameter,
                           gpointer       user_data)
{
  LatentWindow *self = user_data;
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (_("Open Experiment"), GTK_WINDOW (self),
                                                              GTK_FILE_CHOOSER_ACTION_OPEN,
                                                              _("_Open"), _("_Cancel"));

  add_filter (GTK_FILE_CHOOSER (dialog), _("Experiments (JSON)"), "*.json", NULL);
  g_signal_connect (dialog, "response", G_CALLBACK (on_open_experiment_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* Set-up */

static const GActionEntry win_actions[] = {
  { "open", on_open_action },
  { "load-dataset", on_load_dataset_action, "s" },
  { "load-installed", on_load_dataset_action, "s" },
  { "synthetic", on_synthetic_action, "s" },
  { "device", NULL, "s", "'auto'", on_device_action },
  { "run", on_run_action },
  { "pause", on_pause_action },
  { "step", on_step_action },
  { "reset", on_reset_action },
  { "toggle-run", on_toggle_run_action },
  { "export", on_export_action },
  { "save-experiment", on_save_experiment_action },
  { "open-experiment", on_open_experiment_action },
};

static GSettings *
open_settings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = source ? g_settings_schema_source_lookup (source, "org.latent.Latent", TRUE) : NULL;

  /* Uninstalled and without GSETTINGS_SCHEMA_DIR: run, just forget. */
  if (schema == NULL)
    {
      g_message ("GSettings schema org.latent.Latent not found; preferences will not be kept");
      return NULL;
    }
  return g_settings_new_full (schema, NULL, NULL);
}

static void
on_algorithm_selected (LatentWindow *self)
{
  const LatentAlgorithm * const *all = latent_algorithm_list ();
  guint selected = gtk_drop_down_get_selected (self->algorithm_dropdown);

  if (all[selected] == NULL || all[selected] == self->algorithm)
    return;
  self->algorithm = all[selected];
  g_clear_pointer (&self->params, latent_params_unref);
  self->params = latent_algorithm_new_params (self->algorithm);
  latent_param_panel_set_params (self->param_panel, self->params);
  start_run (self, FALSE);
}

static void
latent_window_constructed (GObject *object)
{
  LatentWindow *self = LATENT_WINDOW (object);
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  const LatentAlgorithm * const *all = latent_algorithm_list ();
  g_autofree char *device = NULL;
  g_autofree char *last = NULL;

  G_OBJECT_CLASS (latent_window_parent_class)->constructed (object);

  for (guint i = 0; all[i]; i++)
    gtk_string_list_append (names, _(all[i]->name));
  gtk_drop_down_set_model (self->algorithm_dropdown, G_LIST_MODEL (names));
  g_signal_connect_swapped (self->algorithm_dropdown, "notify::selected", G_CALLBACK (on_algorithm_selected), self);
  self->algorithm = all[0];
  self->params = latent_algorithm_new_params (self->algorithm);
  latent_param_panel_set_params (self->param_panel, self->params);

  self->settings = open_settings ();
  if (self->settings)
    {
      int width = g_settings_get_int (self->settings, "window-width");
      int height = g_settings_get_int (self->settings, "window-height");

      gtk_window_set_default_size (GTK_WINDOW (self), width, height);
      if (g_settings_get_boolean (self->settings, "window-maximized"))
        gtk_window_maximize (GTK_WINDOW (self));
      {
        double speed = g_settings_get_double (self->settings, "speed");
        gtk_check_button_set_active (self->fast_check, speed <= 0);
        if (speed > 0)
          gtk_range_set_value (GTK_RANGE (self->speed_scale), speed);
      }
      device = g_settings_get_string (self->settings, "device");
      last = g_settings_get_string (self->settings, "last-dataset");
    }
  /* LATENT_OPENCL, when set, wins over the remembered device. */
  if (g_getenv ("LATENT_OPENCL") && *g_getenv ("LATENT_OPENCL"))
    {
      g_free (device);
      device = g_strdup (g_getenv ("LATENT_OPENCL"));
    }
  g_action_group_change_action_state (G_ACTION_GROUP (self), "device",
                                      g_variant_new_string (device ? device : "auto"));
  update_recent_menu (self);

  /* Fashion-MNIST is offered when Debian's dataset-fashion-mnist is there. */
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self), "load-installed")),
                               latent_catalog_fashion_mnist_dir () != NULL);
  latent_window_load_dataset (self, last && *last ? last : "blobs:n=1500,k=3,dims=2,seed=1");
  gtk_widget_grab_focus (GTK_WIDGET (self->figure_view));
}

static gboolean
latent_window_close_request (GtkWindow *window)
{
  LatentWindow *self = LATENT_WINDOW (window);

  if (self->settings)
    {
      int width, height;

      gtk_window_get_default_size (window, &width, &height);
      g_settings_set_int (self->settings, "window-width", width);
      g_settings_set_int (self->settings, "window-height", height);
      g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
    }
  return GTK_WINDOW_CLASS (latent_window_parent_class)->close_request (window);
}

static void
latent_window_dispose (GObject *object)
{
  LatentWindow *self = LATENT_WINDOW (object);

  if (self->loading)
    g_cancellable_cancel (self->loading);
  g_clear_object (&self->loading);
  if (self->run)
    {
      g_signal_handlers_disconnect_by_data (self->run, self);
      g_clear_object (&self->run);
    }
  gtk_widget_dispose_template (GTK_WIDGET (self), LATENT_TYPE_WINDOW);
  G_OBJECT_CLASS (latent_window_parent_class)->dispose (object);
}

static void
latent_window_finalize (GObject *object)
{
  LatentWindow *self = LATENT_WINDOW (object);

  g_clear_object (&self->settings);
  g_clear_object (&self->dataset);
  g_free (self->dataset_spec);
  g_clear_pointer (&self->params, latent_params_unref);
  g_clear_object (&self->cl);
  g_free (self->device);
  g_free (self->device_name);
  g_clear_pointer (&self->frames, g_ptr_array_unref);
  g_free (self->run_message);
  G_OBJECT_CLASS (latent_window_parent_class)->finalize (object);
}

static void
latent_window_class_init (LatentWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = latent_window_constructed;
  object_class->dispose = latent_window_dispose;
  object_class->finalize = latent_window_finalize;
  GTK_WINDOW_CLASS (klass)->close_request = latent_window_close_request;

  g_type_ensure (LATENT_TYPE_PARAM_PANEL);
  g_type_ensure (LATENT_TYPE_FIGURE_VIEW);
  g_type_ensure (LATENT_TYPE_CURVE_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/latent/Latent/latent-window.ui");
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, dataset_button);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, algorithm_dropdown);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, device_button);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, error_bar);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, error_label);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, param_panel);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, seed_spin);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, metrics_label);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, figure_view);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, curve_view);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, speed_scale);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, fast_check);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, timeline);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, timeline_adjustment);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, status_label);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, recent_section);
  gtk_widget_class_bind_template_callback (widget_class, on_error_response);
  gtk_widget_class_bind_template_callback (widget_class, on_params_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_speed_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_timeline_changed);
}

static void
latent_window_init (LatentWindow *self)
{
  GtkEventController *keys;
  GtkDropTarget *drop;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->frames = g_ptr_array_new_with_free_func ((GDestroyNotify) latent_snapshot_unref);
  self->follow = TRUE;
  g_action_map_add_action_entries (G_ACTION_MAP (self), win_actions, G_N_ELEMENTS (win_actions), self);

  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);

  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
}

LatentWindow *
latent_window_new (GtkApplication *application)
{
  return g_object_new (LATENT_TYPE_WINDOW, "application", application, NULL);
}
