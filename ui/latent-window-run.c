/* latent-window-run.c — the run's controls, its timeline and its curve
 *
 * The session (engine/run/latent-session.c) runs, keeps the frames and
 * says which is shown; this part turns the person's clicks and keys into
 * its calls, and its news into the timeline and the curve.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-window"

#include "latent-window-private.h"

#include <glib/gi18n-lib.h>

#include "latent-runs-window.h"
#include "latent-sweep-dialog.h"
#include "latent-ui-util.h"

/* The timeline: its extent is the frames kept, its value the session's
 * position; a drag moves the position. */

static void
on_timeline_changed (LatentWindow *self)
{
  if (!self->scrubbing)
    latent_session_set_position (self->session, (guint) gtk_adjustment_get_value (self->timeline_adjustment));
}

static void
on_position (LatentWindow *self)
{
  self->scrubbing = TRUE;
  gtk_adjustment_set_upper (self->timeline_adjustment,
                            latent_frames_get_newest_iteration (latent_session_get_frames (self->session)));
  gtk_adjustment_set_value (self->timeline_adjustment, latent_session_get_position (self->session));
  self->scrubbing = FALSE;
}

/* The curve */

static void
on_iteration (LatentWindow          *self,
              LatentIterationRecord *record)
{
  latent_curve_view_append (self->curve_view, record->objective);
}

static void
on_frame_added (LatentWindow   *self,
                LatentSnapshot *frame)
{
  /* The curve starts at the initialisation, which no iteration reports. */
  if (frame->iteration == 0)
    latent_curve_view_set_initial (self->curve_view, frame->objective);
  /* A frame shown updates the status itself. */
  if (frame != latent_session_get_shown (self->session))
    _latent_window_update_status (self);
}

static void
on_run_started (LatentWindow *self,
                gboolean      hold)
{
  const LatentAlgorithm *algorithm = latent_session_get_algorithm (self->session);

  /* Held, the picture and its zoom stay until the new run's first pass. */
  if (!hold)
    latent_figure_view_reset (self->figure_view);
  /* How far each value may go depends on the data and the other values. */
  latent_param_panel_set_limits (self->param_panel, algorithm, latent_session_get_dataset (self->session));
  latent_curve_view_clear (self->curve_view,
                           latent_algorithm_objective_name (algorithm, latent_session_get_params (self->session)));
}

/* The new run reports iterations 1 … from again as it replays them, but
 * not the value the initialisation left. */
static void
on_went_on (LatentWindow *self,
            guint         from)
{
  latent_curve_view_truncate (self->curve_view, 0);
}

static void
on_going_on_note (LatentWindow *self)
{
  latent_param_panel_set_note (self->param_panel, latent_session_get_going_on_note (self->session));
}

/* The pace: the session's speed, which the scale and the check show in
 * the algorithm's unit. Each algorithm starts at its own (k-means' four
 * iterations a second, the autoencoder's mini-batches as fast as they
 * go), and a pace a person sets is remembered for that algorithm. */

static void
on_speed (LatentWindow *self)
{
  double speed = latent_session_get_speed (self->session);

  self->pacing = TRUE;
  gtk_check_button_set_active (self->fast_check, speed <= 0);
  if (speed > 0)
    gtk_range_set_value (GTK_RANGE (self->speed_scale), speed);
  gtk_widget_set_sensitive (GTK_WIDGET (self->speed_scale), speed > 0);
  self->pacing = FALSE;
}

static void
on_speed_changed (LatentWindow *self)
{
  const LatentAlgorithm *algorithm = latent_session_get_algorithm (self->session);
  g_autoptr(GSettings) settings = latent_settings_open ();
  double speed = gtk_check_button_get_active (self->fast_check)
                 ? 0 : gtk_range_get_value (GTK_RANGE (self->speed_scale));

  gtk_widget_set_sensitive (GTK_WIDGET (self->speed_scale), speed > 0);
  if (self->pacing)
    return;
  latent_session_set_speed (self->session, speed);
  if (settings && algorithm)
    {
      g_autoptr(GVariant) paces = g_settings_get_value (settings, "paces");
      g_auto(GVariantBuilder) builder = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("a{sd}"));
      GVariantIter iter;
      const char *id;
      double value;

      g_variant_iter_init (&iter, paces);
      while (g_variant_iter_next (&iter, "{&sd}", &id, &value))
        if (!g_str_equal (id, algorithm->id))
          g_variant_builder_add (&builder, "{sd}", id, value);
      g_variant_builder_add (&builder, "{sd}", algorithm->id, speed);
      g_settings_set_value (settings, "paces", g_variant_builder_end (&builder));
    }
}

static void
on_algorithm_pace (LatentWindow *self)
{
  const LatentAlgorithm *algorithm = latent_session_get_algorithm (self->session);
  g_autoptr(GSettings) settings = latent_settings_open ();
  double speed;

  if (algorithm == NULL)
    return;
  speed = algorithm->pace;
  if (settings)
    {
      g_autoptr(GVariant) paces = g_settings_get_value (settings, "paces");

      g_variant_lookup (paces, algorithm->id, "d", &speed);
    }
  gtk_label_set_text (self->pace_unit_label, algorithm->pace_unit ? _(algorithm->pace_unit) : _("iterations/s"));
  latent_session_set_speed (self->session, speed);
  on_speed (self);
}

/* Run controls */

static void
on_run_action (GSimpleAction *action,
               GVariant      *parameter,
               gpointer       user_data)
{
  latent_session_play (LATENT_WINDOW (user_data)->session);
}

static void
on_pause_action (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  latent_session_pause (LATENT_WINDOW (user_data)->session);
}

static void
on_step_action (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  latent_session_step (LATENT_WINDOW (user_data)->session);
}

/* Back through the history one kept frame, as dragging the timeline does;
 * with Right, a person steps back and forth through a run. */
static void
on_back_action (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  latent_session_back (LATENT_WINDOW (user_data)->session);
}

static void
on_reset_action (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  latent_session_restart (LATENT_WINDOW (user_data)->session, FALSE);
}

static void
on_toggle_run_action (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  LatentWindow *self = user_data;

  g_action_group_activate_action (G_ACTION_GROUP (self),
                                  latent_session_get_running (self->session) ? "pause" : "run", NULL);
}

/* Space, Right, Left and Ctrl+R drive the run from anywhere in the window
 * except where a person types text, a slider has the focus or a zoomed
 * figure pans with the arrows. Space keeps its own meaning (press, tick,
 * open) on every control: it runs only from the figure or where nothing
 * has the focus. */
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
    {
      if (focus != NULL && !LATENT_IS_FIGURE_VIEW (focus))
        return FALSE;
      action = "toggle-run";
    }
  else if ((keyval == GDK_KEY_Right || keyval == GDK_KEY_Left) && mods == 0 && !GTK_IS_RANGE (focus)
           && !(LATENT_IS_FIGURE_VIEW (focus) && latent_figure_view_get_zoomed (LATENT_FIGURE_VIEW (focus))))
    action = keyval == GDK_KEY_Right ? "step" : "back";
  else if ((keyval == GDK_KEY_r || keyval == GDK_KEY_R) && mods == GDK_CONTROL_MASK)
    action = "reset";
  if (action == NULL)
    return FALSE;
  g_action_group_activate_action (G_ACTION_GROUP (self), action, NULL);
  return TRUE;
}

/* The best value of the parameter the sweep varied. */
static void
on_use_k (LatentSweepDialog *dialog,
          guint              k,
          LatentWindow      *self)
{
  const LatentAlgorithm *algorithm = latent_session_get_algorithm (self->session);
  LatentParams *params = latent_session_get_params (self->session);
  const char *name = latent_algorithm_param_with_role (algorithm, LATENT_PARAM_ROLE_SWEEP);

  /* The person may have moved on to another algorithm meanwhile. */
  if (latent_sweep_dialog_get_algorithm (dialog) != algorithm)
    return;
  if (name && latent_params_set_int (params, name, k, NULL))
    {
      latent_param_panel_set_params (self->param_panel, params);
      latent_session_restart (self->session, FALSE);
    }
}

/* Model selection: one fit per K in a dialog of its own. */
static void
on_sweep_action (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  LatentWindow *self = user_data;
  GtkWidget *dialog;

  if (latent_session_get_dataset (self->session) == NULL)
    return;
  dialog = latent_sweep_dialog_new (GTK_WINDOW (self), latent_session_get_algorithm (self->session),
                                    latent_session_get_dataset (self->session),
                                    latent_session_get_params (self->session),
                                    latent_session_get_seed (self->session), latent_session_get_cl (self->session));
  g_signal_connect_object (dialog, "use-k", G_CALLBACK (on_use_k), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* The runs since the window opened, two side by side. */
static void
on_compare_runs_action (GSimpleAction *action,
                        GVariant      *parameter,
                        gpointer       user_data)
{
  LatentWindow *self = user_data;

  gtk_window_present (GTK_WINDOW (latent_runs_window_new (GTK_WINDOW (self), self->runs)));
}

static const GActionEntry run_actions[] = {
  { "compare-runs", on_compare_runs_action },
  { "sweep", on_sweep_action },
  { "run", on_run_action },
  { "pause", on_pause_action },
  { "step", on_step_action },
  { "back", on_back_action },
  { "reset", on_reset_action },
  { "toggle-run", on_toggle_run_action },
};

void
_latent_window_init_run (LatentWindow *self)
{
  GtkEventController *keys = gtk_event_controller_key_new ();

  g_action_map_add_action_entries (G_ACTION_MAP (self), run_actions, G_N_ELEMENTS (run_actions), self);

  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);

  g_signal_connect_swapped (self->timeline_adjustment, "value-changed", G_CALLBACK (on_timeline_changed), self);
  g_signal_connect_swapped (self->speed_scale, "value-changed", G_CALLBACK (on_speed_changed), self);
  g_signal_connect_swapped (self->fast_check, "toggled", G_CALLBACK (on_speed_changed), self);
  g_signal_connect_swapped (self->session, "notify::speed", G_CALLBACK (on_speed), self);
  g_signal_connect_swapped (self->session, "notify::algorithm", G_CALLBACK (on_algorithm_pace), self);
  on_algorithm_pace (self);
  g_signal_connect_swapped (self->session, "notify::position", G_CALLBACK (on_position), self);
  g_signal_connect_swapped (self->session, "notify::going-on-note", G_CALLBACK (on_going_on_note), self);
  g_signal_connect_swapped (self->session, "iteration", G_CALLBACK (on_iteration), self);
  g_signal_connect_swapped (self->session, "frame-added", G_CALLBACK (on_frame_added), self);
  g_signal_connect_swapped (self->session, "run-started", G_CALLBACK (on_run_started), self);
  g_signal_connect_swapped (self->session, "went-on", G_CALLBACK (on_went_on), self);
}
