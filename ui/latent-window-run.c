/* latent-window-run.c — the window's run: controls, live updates, timeline
 *
 * The run's worker thread sends iterations and snapshots here through the
 * main context; the window never waits for it. A run being replaced is
 * stopped and let go: it is dropped when its worker says it has finished.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-window"

#include "latent-window-private.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <sys/resource.h>

#include "latent-going-on.h"
#include "latent-registry.h"
#include "latent-sweep-dialog.h"

/* Frames: the snapshots the timeline can go back to, kept by self->ring
 * (engine/run/latent-frames.c); here only what the timeline shows. */

static void
show_frame (LatentWindow   *self,
            LatentSnapshot *frame)
{
  latent_figure_view_set_snapshot (self->figure_view, frame);
  /* The trails from the frames kept before it, whichever way the timeline
   * moved, and whichever run computed them. */
  if (frame)
    latent_figure_view_set_history (self->figure_view, latent_frames_peek (self->ring, NULL),
                                    latent_frames_index_of (self->ring, frame->iteration));
  latent_curve_view_set_marker (self->curve_view, frame ? frame->iteration : 0);
  _latent_window_update_status (self);
  _latent_window_update_metrics (self);
  _latent_window_update_actions (self);
}

void
_latent_window_on_timeline_changed (LatentWindow *self)
{
  guint iteration = (guint) gtk_adjustment_get_value (self->timeline_adjustment);

  if (self->scrubbing)
    return;
  latent_frames_set_follow (self->ring, iteration >= self->iterations);
  show_frame (self, latent_frames_at (self->ring, iteration));
}

static void
move_timeline (LatentWindow *self,
               guint         newest)
{
  self->scrubbing = TRUE;
  gtk_adjustment_set_upper (self->timeline_adjustment, newest);
  if (latent_frames_get_follow (self->ring))
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
      self->rate = (record->iteration - self->rate_iterations) * (double) G_USEC_PER_SEC /
                   (now - self->rate_time);
      self->rate_time = now;
      self->rate_iterations = record->iteration;
    }
}

/* Shows the newest frame if the last run's picture is still held. */
static void
release_hold (LatentWindow *self)
{
  if (!self->holding)
    return;
  self->holding = FALSE;
  if (latent_frames_get_n_frames (self->ring) > 0)
    show_frame (self, latent_frames_get_newest (self->ring));
}

/* A long start (restarts, k-means++ over many clusters) says how far it is. */
static void
on_run_init_progress (LatentRun    *run,
                      guint         stage,
                      guint         done,
                      guint         total,
                      LatentWindow *self)
{
  g_free (self->init_progress);
  self->init_progress = latent_algorithm_describe_init_progress (stage, done, total);
  _latent_window_update_status (self);
}

static void
on_run_snapshot (LatentRun      *run,
                 LatentSnapshot *snapshot,
                 LatentWindow   *self)
{
  g_clear_pointer (&self->init_progress, g_free);
  latent_frames_add (self->ring, snapshot);
  move_timeline (self, latent_frames_get_newest_iteration (self->ring));
  /* The curve starts at the initialisation, which no iteration reports. */
  if (snapshot->iteration == 0)
    latent_curve_view_set_initial (self->curve_view, snapshot->objective);
  /* The original again between two results would flash. */
  if (self->holding && snapshot->iteration == 0 && !snapshot->final)
    {
      _latent_window_update_status (self);
      return;
    }
  self->holding = FALSE;
  if (latent_frames_get_follow (self->ring))
    show_frame (self, snapshot);
  else
    _latent_window_update_status (self);
}

static void
on_run_finished (LatentRun    *run,
                 GError       *error,
                 LatentWindow *self)
{
  LatentSnapshot *last = latent_run_get_snapshot (run);

  self->running = FALSE;
  release_hold (self);
  g_clear_pointer (&self->run_message, g_free);
  g_clear_pointer (&self->init_progress, g_free);
  if (error)
    {
      _latent_window_show_error (self, error->message);
      /* The next run, with other parameters, may put it right. */
      self->error_from_run = TRUE;
      self->run_message = g_strdup (_("failed"));
    }
  else if (latent_run_get_state (run) == LATENT_RUN_FINISHED && last)
    /* "finished 10 epochs", not a limit reached: the work asked for. */
    self->run_message = latent_algorithm_describe_end (last);
  else if (latent_run_get_state (run) == LATENT_RUN_FINISHED)
    self->run_message = g_strdup (_("iteration limit reached"));
  _latent_window_update_status (self);
  _latent_window_update_actions (self);
}

/* A replaced run stops within an iteration; it is let go when its worker
 * reports, so the window never waits for it, but kept till then so that a
 * closing window can join it (a worker left in the compiler at exit
 * crashes). */
static void
on_retired_finished (LatentRun    *run,
                     GError       *error,
                     LatentWindow *self)
{
  g_signal_handlers_disconnect_by_func (run, on_retired_finished, self);
  g_ptr_array_remove_fast (self->retired_runs, run);
}

void
_latent_window_retire_run (LatentWindow *self)
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
  latent_run_stop (run);
  /* Disposed already: nothing is left to wait for it but this. */
  if (self->retired_runs == NULL)
    {
      g_object_unref (run);
      return;
    }
  g_ptr_array_add (self->retired_runs, run);
  g_signal_connect (run, "finished", G_CALLBACK (on_retired_finished), self);
}

static void
apply_speed (LatentWindow *self)
{
  double speed = gtk_check_button_get_active (self->fast_check)
                 ? 0 : gtk_range_get_value (GTK_RANGE (self->speed_scale));

  gtk_widget_set_sensitive (GTK_WIDGET (self->speed_scale), speed > 0);
  if (self->run)
    latent_run_set_speed (self->run, speed);
  if (self->settings)
    g_settings_set_double (self->settings, "speed", speed);
}

void
_latent_window_on_speed_changed (LatentWindow *self)
{
  apply_speed (self);
}

/* The panel says when a run goes on past the values it shows. */
static void
show_going_on (LatentWindow *self)
{
  gint64 limit = 0;
  g_autofree char *note = NULL;

  switch (latent_going_on_note (self->params, self->going_on, &limit))
    {
    case LATENT_GOING_ON_NOTE_PAST_CONVERGENCE:
      note = g_strdup_printf (_("Going on past convergence, up to %lld iterations: "
                                "this run ignores the tolerance. Reset goes back to the values above."),
                              (long long) limit);
      break;
    case LATENT_GOING_ON_NOTE_MORE_ITERATIONS:
      note = g_strdup_printf (_("Going on, up to %lld iterations in this run. "
                                "Reset goes back to the values above."), (long long) limit);
      break;
    case LATENT_GOING_ON_NOTE_NONE:
      break;
    }
  latent_param_panel_set_note (self->param_panel, note);
}

static void
launch (LatentWindow *self,
        gboolean      play,
        guint         from)
{
  self->run = latent_run_new_at (self->algorithm, self->dataset, self->going_on ? self->going_on : self->params,
                                 (guint64) gtk_spin_button_get_value (self->seed_spin), self->cl, from);
  g_clear_pointer (&self->init_progress, g_free);
  g_signal_connect (self->run, "iteration", G_CALLBACK (on_run_iteration), self);
  g_signal_connect (self->run, "snapshot", G_CALLBACK (on_run_snapshot), self);
  g_signal_connect (self->run, "init-progress", G_CALLBACK (on_run_init_progress), self);
  g_signal_connect (self->run, "finished", G_CALLBACK (on_run_finished), self);
  apply_speed (self);
  self->running = play;
  if (play)
    latent_run_play (self->run);
  _latent_window_watch_compiling (self);
  _latent_window_update_status (self);
  _latent_window_update_actions (self);
}

void
_latent_window_run_start (LatentWindow *self,
                          gboolean      play,
                          gboolean      hold)
{
  _latent_window_retire_run (self);
  /* A new run starts from the values the panel shows. */
  g_clear_pointer (&self->going_on, latent_params_unref);
  latent_param_panel_set_note (self->param_panel, NULL);
  latent_frames_clear (self->ring);
  self->iterations = 0;
  self->rate = 0;
  self->rate_time = g_get_monotonic_time ();
  self->rate_iterations = 0;
  g_clear_pointer (&self->run_message, g_free);
  /* Held, the picture and its zoom stay until the new run's first pass. */
  self->holding = hold;
  if (!hold)
    latent_figure_view_reset (self->figure_view);
  /* An earlier run's failure says nothing about this one. */
  if (self->error_from_run)
    gtk_info_bar_set_revealed (self->error_bar, FALSE);
  self->error_from_run = FALSE;
  _latent_window_update_metrics (self);
  latent_curve_view_clear (self->curve_view, latent_algorithm_objective_name (self->algorithm, self->params));
  move_timeline (self, 0);

  if (self->dataset == NULL)
    return;
  /* Parameters that do not fit the data fail here, not in a worker. */
  if (!_latent_window_check_params (self))
    {
      self->holding = FALSE;
      latent_figure_view_reset (self->figure_view);
      _latent_window_update_metrics (self);
      self->run_message = g_strdup (_("failed"));
      _latent_window_update_status (self);
      _latent_window_update_actions (self);
      return;
    }
  launch (self, play, 0);
}

/* Where the run and its timeline stand, for the rules of going on
 * (engine/run/latent-going-on.c). */
static LatentGoingOnAt
going_on_at (LatentWindow *self)
{
  return (LatentGoingOnAt) {
    .shown = _latent_window_shown_frame (self),
    .state = self->run ? latent_run_get_state (self->run) : LATENT_RUN_FAILED,
    .newest = self->iterations,
    .follow = latent_frames_get_follow (self->ring),
    .instant = _latent_window_is_instant (self),
  };
}

/* Where Run or Step goes on from when the run cannot take them as it is
 * (scrubbed back, at its budget, converged); FALSE when none of these. */
gboolean
_latent_window_can_go_on (LatentWindow *self,
                          guint        *from)
{
  LatentGoingOnAt at = going_on_at (self);

  return self->run != NULL && latent_going_on_can (self->params, self->going_on, &at, from);
}

static void
go_on (LatentWindow *self,
       gboolean      play)
{
  LatentGoingOnAt at = going_on_at (self);
  LatentParams *next;
  guint from = 0;

  if (!_latent_window_can_go_on (self, &from))
    return;
  /* Past the person's own values, for this run only; the panel keeps
   * their values and says so. */
  if ((next = latent_going_on_next (self->params, self->going_on, &at)) != NULL)
    {
      g_clear_pointer (&self->going_on, latent_params_unref);
      self->going_on = next;
      show_going_on (self);
    }
  _latent_window_retire_run (self);
  /* The frames up to there stay for the timeline; the new run brings the
   * rest. The timeline follows it again. */
  latent_frames_truncate (self->ring, from);
  self->iterations = 0;
  self->rate = 0;
  self->rate_time = g_get_monotonic_time ();
  self->rate_iterations = from;
  g_clear_pointer (&self->run_message, g_free);
  /* The new run reports iterations 1 … from again as it replays them, but
   * not the value the initialisation left. */
  latent_curve_view_truncate (self->curve_view, 0);
  launch (self, play, from);
  if (!play)
    latent_run_step (self->run);
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
  /* All passes done: Run shows them again, from the original. */
  if (latent_run_get_state (self->run) == LATENT_RUN_FINISHED && _latent_window_is_instant (self))
    {
      _latent_window_run_start (self, TRUE, FALSE);
      return;
    }
  if (_latent_window_can_go_on (self, NULL))
    {
      go_on (self, TRUE);
      return;
    }
  self->running = TRUE;
  latent_frames_set_follow (self->ring, TRUE);
  move_timeline (self, self->iterations);
  latent_run_play (self->run);
  _latent_window_update_status (self);
  _latent_window_update_actions (self);
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
  release_hold (self);
  latent_run_pause (self->run);
  _latent_window_update_status (self);
  _latent_window_update_actions (self);
}

/* Scrubbed back: the frame of the iteration after the one shown, if kept
 * (a fast run keeps about one a display frame). */
static LatentSnapshot *
next_frame_kept (LatentWindow *self)
{
  LatentSnapshot *shown = _latent_window_shown_frame (self), *next;

  if (latent_frames_get_follow (self->ring) || shown == NULL)
    return NULL;
  next = latent_frames_after (self->ring, shown->iteration);
  return next && next->iteration == shown->iteration + 1 ? next : NULL;
}

/* The frame before the one shown, or NULL at the first. */
static LatentSnapshot *
frame_before_shown (LatentWindow *self)
{
  LatentSnapshot *shown = _latent_window_shown_frame (self);

  return shown ? latent_frames_before (self->ring, shown->iteration) : NULL;
}

static void
on_step_action (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  LatentWindow *self = user_data;
  LatentSnapshot *next = next_frame_kept (self);

  if (self->run == NULL)
    return;
  /* Scrubbed back, the next iteration is at hand when it was kept: the
   * same seed would only compute it again, and drop the ones after it. */
  if (next)
    {
      gtk_adjustment_set_value (self->timeline_adjustment, next->iteration);
      return;
    }
  if (_latent_window_can_go_on (self, NULL))
    {
      go_on (self, FALSE);
      return;
    }
  self->running = FALSE;
  latent_frames_set_follow (self->ring, TRUE);
  latent_run_step (self->run);
  _latent_window_update_actions (self);
}

gboolean
_latent_window_can_go_back (LatentWindow *self)
{
  return frame_before_shown (self) != NULL;
}

/* Back through the history one kept frame, as dragging the timeline does;
 * with Right, a person steps back and forth through a run. */
static void
on_back_action (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  LatentWindow *self = user_data;
  LatentSnapshot *before = frame_before_shown (self);

  if (before)
    gtk_adjustment_set_value (self->timeline_adjustment, before->iteration);
}

static void
on_reset_action (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  _latent_window_run_start (user_data, FALSE, FALSE);
}

static void
on_toggle_run_action (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  LatentWindow *self = user_data;

  g_action_group_activate_action (G_ACTION_GROUP (self), self->running ? "pause" : "run", NULL);
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
  const char *name = latent_algorithm_param_with_role (self->algorithm, LATENT_PARAM_ROLE_SWEEP);

  /* The person may have moved on to another algorithm meanwhile. */
  if (latent_sweep_dialog_get_algorithm (dialog) != self->algorithm)
    return;
  if (name && latent_params_set_int (self->params, name, k, NULL))
    {
      latent_param_panel_set_params (self->param_panel, self->params);
      _latent_window_run_start (self, FALSE, FALSE);
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

  if (self->dataset == NULL)
    return;
  dialog = latent_sweep_dialog_new (GTK_WINDOW (self), self->algorithm, self->dataset, self->params,
                                    (guint64) gtk_spin_button_get_value (self->seed_spin), self->cl);
  g_signal_connect_object (dialog, "use-k", G_CALLBACK (on_use_k), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Precompiling: PoCL takes about 5 s to build one algorithm's programs on
 * two cores, 0.1 s to load them from the disk cache once built.
 *
 * Each job is a thread the window joins, as LatentRun joins its worker:
 * a thread still inside the compiler when the process exits crashes in
 * LLVM as the exit handlers tear the driver down. No job holds the window,
 * which must be disposed (and so join) when it is destroyed. Closing waits
 * for the build under way, which OpenCL cannot interrupt (at worst 6 s,
 * k-means' program on PoCL with two cores, cold); no other starts once
 * cancelled (latent_cl_get_program), and the window is off the screen by
 * then, so the person waits for nothing. */

struct _LatentPrecompile {
  GThread               *thread;
  GCancellable          *cancellable;
  LatentCl              *cl;
  LatentDataset         *dataset;        /* the thread's; dropped when it ends */
  const LatentAlgorithm *selected;
  LatentParams          *params;         /* the thread's; dropped when it ends */
  gint                   selected_done;  /* atomic: the selected algorithm's are built */
  gint                   ended;          /* atomic: the thread returns, joining is immediate */
};

typedef struct _LatentPrecompile Precompile;

/* Waits for the thread: the builds under way at most, once cancelled. */
static void
precompile_join (gpointer data)
{
  Precompile *job = data;

  g_cancellable_cancel (job->cancellable);
  g_thread_join (job->thread);
  g_object_unref (job->cancellable);
  g_object_unref (job->cl);
  g_free (job);
}

static void
prepare (const LatentAlgorithm *algorithm,
         Precompile            *job,
         LatentParams          *params)
{
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();

  /* Parameters that do not fit these data fail here as they would in a
   * run, which then says so; nothing to show the person from here. */
  if (!latent_algorithm_prepare (algorithm, job->dataset, params, job->cl, job->cancellable, &error))
    g_debug ("precompiling %s: %s", algorithm->id, error->message);
  else
    g_debug ("precompiled %s in %.0f ms", algorithm->id, (g_get_monotonic_time () - start) / 1000.0);
}

/* On a thread of its own, not GTask's pool: it lowers its priority, and a
 * pool thread would keep that for whatever it runs next (loading data). */
static gpointer
precompile_thread (gpointer data)
{
  Precompile *job = data;
  const LatentAlgorithm * const *all = latent_registry_list ();

  prepare (job->selected, job, job->params);
  g_atomic_int_set (&job->selected_done, TRUE);
  /* The others may never be run: below the window and its runs. Linux keeps
   * a nice value per thread. */
  if (setpriority (PRIO_PROCESS, 0, 10) != 0)
    g_debug ("could not lower the precompiling thread's priority: %s", g_strerror (errno));
  for (guint i = 0; all[i] && !g_cancellable_is_cancelled (job->cancellable); i++)
    if (all[i] != job->selected)
      {
        g_autoptr(LatentParams) params = latent_algorithm_new_params (all[i]);

        prepare (all[i], job, params);
      }
  /* A replaced job may wait a while to be joined: its data go now. */
  g_clear_object (&job->dataset);
  g_clear_pointer (&job->params, latent_params_unref);
  g_atomic_int_set (&job->ended, TRUE);
  return NULL;
}

/* Cancels the current job; it is joined once it ends, or at dispose. The
 * window never waits for the compiler while it is open. */
static void
retire_precompile (LatentWindow *self)
{
  if (self->precompiles_stopping == NULL)
    self->precompiles_stopping = g_ptr_array_new_with_free_func (precompile_join);
  for (guint i = self->precompiles_stopping->len; i > 0; i--)
    {
      Precompile *job = g_ptr_array_index (self->precompiles_stopping, i - 1);

      if (g_atomic_int_get (&job->ended))
        g_ptr_array_remove_index_fast (self->precompiles_stopping, i - 1);
    }
  if (self->precompile == NULL)
    return;
  g_cancellable_cancel (self->precompile->cancellable);
  g_ptr_array_add (self->precompiles_stopping, g_steal_pointer (&self->precompile));
}

void
_latent_window_stop_precompile (LatentWindow *self)
{
  retire_precompile (self);
  if (self->precompiles_stopping != NULL && self->precompiles_stopping->len > 0)
    {
      /* Gone from the screen before waiting: the window was destroyed. */
      gdk_display_flush (gtk_widget_get_display (GTK_WIDGET (self)));
      g_debug ("waiting for %u precompiling thread(s)", self->precompiles_stopping->len);
    }
  /* All were cancelled first, so they wind down side by side. */
  g_clear_pointer (&self->precompiles_stopping, g_ptr_array_unref);
  g_clear_handle_id (&self->compiling_watch, g_source_remove);
}

void
_latent_window_precompile (LatentWindow *self)
{
  Precompile *job;

  if (self->cl == NULL || self->dataset == NULL)
    return;
  /* Options follow from the device and the width of the data. */
  if (self->cl == self->precompiled_cl && latent_dataset_get_n_cols (self->dataset) == self->precompiled_cols)
    return;
  retire_precompile (self);
  self->precompiled_cl = self->cl;
  self->precompiled_cols = latent_dataset_get_n_cols (self->dataset);

  job = g_new0 (Precompile, 1);
  job->cancellable = g_cancellable_new ();
  job->cl = g_object_ref (self->cl);
  job->dataset = g_object_ref (self->dataset);
  job->selected = self->algorithm;
  job->params = latent_params_copy (self->params);
  job->thread = g_thread_new ("latent-precompile", precompile_thread, job);
  self->precompile = job;
  _latent_window_watch_compiling (self);
}

gboolean
_latent_window_is_compiling (LatentWindow *self)
{
  Precompile *job = self->precompile;

  if (self->cl == NULL || latent_cl_get_building (self->cl) == 0)
    return FALSE;
  return (job != NULL && job->cl == self->cl && !g_atomic_int_get (&job->selected_done)) ||
         (self->run != NULL && latent_run_get_state (self->run) == LATENT_RUN_INITIALISING);
}

static gboolean
on_compiling_watch (gpointer user_data)
{
  LatentWindow *self = user_data;
  gboolean compiling = _latent_window_is_compiling (self);
  Precompile *job = self->precompile;

  if (compiling != self->compiling)
    {
      self->compiling = compiling;
      _latent_window_update_status (self);
    }
  /* Nothing the person waits for can start building any more. */
  if (!compiling && (job == NULL || g_atomic_int_get (&job->selected_done)) &&
      (self->run == NULL || latent_run_get_state (self->run) != LATENT_RUN_INITIALISING))
    {
      self->compiling_watch = 0;
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

/* A build has no signal the main thread could take safely from the
 * building thread; four looks a second are enough for a wait of seconds. */
void
_latent_window_watch_compiling (LatentWindow *self)
{
  if (self->compiling_watch == 0 && self->cl != NULL)
    self->compiling_watch = g_timeout_add (250, on_compiling_watch, self);
}

static const GActionEntry run_actions[] = {
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

  self->ring = latent_frames_new ();
  g_action_map_add_action_entries (G_ACTION_MAP (self), run_actions, G_N_ELEMENTS (run_actions), self);

  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);
}
