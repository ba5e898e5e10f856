/* latent-session.c — what a person works on: data, an algorithm, a live run
 *
 * The run's worker thread sends iterations and snapshots here through the
 * main context; the session never waits for it. A run being replaced is
 * stopped and let go: it is dropped when its worker says it has finished,
 * but kept till then so that shutting down can join it (a worker left in
 * the compiler at exit crashes).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-session"

#include "latent-session.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <sys/resource.h>

#include "latent-going-on.h"
#include "latent-registry.h"
#include "latent-run.h"
#include "latent-follow.h"

typedef struct _LatentPrecompile Precompile;

struct _LatentSession
{
  GObject                parent_instance;

  LatentDataset         *dataset;
  char                  *dataset_spec;
  const LatentAlgorithm *algorithm;
  LatentParams          *params;
  /* Each algorithm's parameters as last set. */
  GHashTable            *kept_params;   /* LatentAlgorithm → LatentParams */
  /* What the run goes on with past its tolerance or budget (Run on a
   * finished run): the person's params stay as they set them. */
  LatentParams          *going_on;
  char                  *going_on_note;
  guint64                seed;
  double                 speed;
  LatentCl              *cl;
  char                  *device;        /* auto, cpu, gpu or off */
  char                  *device_name;
  char                  *device_label;

  LatentRun             *run;
  GPtrArray             *retired_runs;  /* LatentRun replaced, still stopping */
  gboolean               running;
  LatentSessionState     state;         /* as last notified */
  LatentFrames          *frames;
  LatentSnapshot        *shown;
  guint                  position;
  guint                  iterations;    /* delivered so far */
  gint64                 rate_time;
  guint                  rate_iterations;
  double                 rate;
  char                  *end;           /* converged, stopped, failed… */
  char                  *init_progress; /* "start 3 of 30", until the first frame */
  /* A new run of an instant algorithm: the last picture stays until the
   * first new pass replaces it, so an edit does not flash the original. */
  gboolean               holding;
  char                  *refusal;
  char                  *failure;
  /* The folder of the run followed (latent-cli run --follow), or NULL
   * for a run computed here. */
  char                  *following;

  /* The OpenCL programs built ahead: the current job, and earlier ones
   * cancelled but not yet joined. */
  Precompile            *precompile;
  GPtrArray             *precompiles_stopping;
  LatentCl              *precompiled_cl;    /* not a reference: only compared */
  guint                  precompiled_cols;
  guint                  compiling_watch;
  gboolean               compiling;
};

G_DEFINE_FINAL_TYPE (LatentSession, latent_session, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_DATASET,
  PROP_ALGORITHM,
  PROP_PARAMS,
  PROP_SEED,
  PROP_SPEED,
  PROP_DEVICE,
  PROP_DEVICE_NAME,
  PROP_DEVICE_LABEL,
  PROP_STATE,
  PROP_RUNNING,
  PROP_SHOWN,
  PROP_POSITION,
  PROP_NEWEST,
  PROP_RATE,
  PROP_END,
  PROP_INIT_PROGRESS,
  PROP_GOING_ON_NOTE,
  PROP_REFUSAL,
  PROP_FAILURE,
  PROP_COMPILING,
  PROP_FOLLOWING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  RUN_STARTED,
  WENT_ON,
  ITERATION,
  FRAME_ADDED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
notify (LatentSession *self,
        guint          prop)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

/* The state follows the run's, which says nothing when it changes: asked
 * after each of the run's signals, notified only when it moved. */
static void
notify_state (LatentSession *self)
{
  LatentSessionState state = latent_session_get_state (self);

  if (state == self->state)
    return;
  self->state = state;
  notify (self, PROP_STATE);
}

/* Sets *@field to a copy of @value, notifying @prop if it changed. */
static void
set_string (LatentSession *self,
            char         **field,
            const char    *value,
            guint          prop)
{
  if (g_strcmp0 (*field, value) == 0)
    return;
  g_free (*field);
  *field = g_strdup (value);
  notify (self, prop);
}

static void
take_string (LatentSession *self,
             char         **field,
             char          *value,
             guint          prop)
{
  set_string (self, field, value, prop);
  g_free (value);
}

/* The frame shown */

static void
set_shown (LatentSession  *self,
           LatentSnapshot *frame)
{
  if (frame == self->shown)
    return;
  if (frame)
    latent_snapshot_ref (frame);
  g_clear_pointer (&self->shown, latent_snapshot_unref);
  self->shown = frame;
  notify (self, PROP_SHOWN);
}

/* The timeline goes to @newest if it follows the run; notified anyway, so
 * that a timeline takes the frames' new extent. */
static void
move_timeline (LatentSession *self,
               guint          newest)
{
  if (latent_frames_get_follow (self->frames))
    self->position = newest;
  notify (self, PROP_POSITION);
}

void
latent_session_set_position (LatentSession *self,
                             guint          iteration)
{
  g_return_if_fail (LATENT_IS_SESSION (self));

  latent_frames_set_follow (self->frames, iteration >= self->iterations);
  self->position = iteration;
  notify (self, PROP_POSITION);
  set_shown (self, latent_frames_at (self->frames, iteration));
}

/* Shows the newest frame if the last run's picture is still held. */
static void
release_hold (LatentSession *self)
{
  if (!self->holding)
    return;
  self->holding = FALSE;
  if (latent_frames_get_n_frames (self->frames) > 0)
    set_shown (self, latent_frames_get_newest (self->frames));
}

/* The run */

static void
on_run_iteration (LatentRun             *run,
                  LatentIterationRecord *record,
                  LatentSession         *self)
{
  gint64 now = g_get_monotonic_time ();

  self->iterations = record->iteration;
  notify (self, PROP_NEWEST);
  g_signal_emit (self, signals[ITERATION], 0, record);
  /* Timed from the first iteration, not the start: compiling the kernels
   * or a pause before Run is not the pace of the work. */
  if (self->rate_time == 0)
    {
      self->rate_time = now;
      self->rate_iterations = record->iteration;
    }
  else if (now - self->rate_time > G_USEC_PER_SEC / 2)
    {
      /* In the pace's units, as the window shows the pace. */
      self->rate = (record->iteration - self->rate_iterations) * (double) G_USEC_PER_SEC /
                   ((now - self->rate_time) * latent_run_get_pace_steps (run));
      self->rate_time = now;
      self->rate_iterations = record->iteration;
      notify (self, PROP_RATE);
    }
}

/* A long start (restarts, k-means++ over many clusters) says how far it is. */
static void
on_run_init_progress (LatentRun     *run,
                      guint          stage,
                      guint          done,
                      guint          total,
                      LatentSession *self)
{
  take_string (self, &self->init_progress, latent_algorithm_describe_init_progress (stage, done, total),
               PROP_INIT_PROGRESS);
}

static void
on_run_snapshot (LatentRun      *run,
                 LatentSnapshot *snapshot,
                 LatentSession  *self)
{
  set_string (self, &self->init_progress, NULL, PROP_INIT_PROGRESS);
  latent_frames_add (self->frames, snapshot);
  move_timeline (self, latent_frames_get_newest_iteration (self->frames));
  g_signal_emit (self, signals[FRAME_ADDED], 0, snapshot);
  notify_state (self);
  /* The original again between two results would flash. */
  if (self->holding && snapshot->iteration == 0 && !snapshot->final)
    return;
  self->holding = FALSE;
  if (latent_frames_get_follow (self->frames))
    set_shown (self, snapshot);
}

static void
on_run_finished (LatentRun     *run,
                 GError        *error,
                 LatentSession *self)
{
  LatentSnapshot *last = latent_run_get_snapshot (run);
  char *end = NULL;

  self->running = FALSE;
  release_hold (self);
  set_string (self, &self->init_progress, NULL, PROP_INIT_PROGRESS);
  if (error)
    {
      /* The next run, with other parameters, may put it right. */
      set_string (self, &self->failure, error->message, PROP_FAILURE);
      end = g_strdup (_("failed"));
    }
  else if (latent_run_get_state (run) == LATENT_RUN_FINISHED && last)
    /* "finished 10 epochs", not a limit reached: the work asked for. */
    end = latent_algorithm_describe_end (last);
  else if (latent_run_get_state (run) == LATENT_RUN_FINISHED)
    end = g_strdup (_("iteration limit reached"));
  take_string (self, &self->end, end, PROP_END);
  notify (self, PROP_RUNNING);
  notify_state (self);
}

static void
on_retired_finished (LatentRun     *run,
                     GError        *error,
                     LatentSession *self)
{
  g_signal_handlers_disconnect_by_func (run, on_retired_finished, self);
  g_ptr_array_remove_fast (self->retired_runs, run);
}

/* Lets the run go: it stops within an iteration, unseen. */
static void
retire_run (LatentSession *self)
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
  /* Shut down already: nothing is left to wait for it but this. */
  if (self->retired_runs == NULL)
    {
      g_object_unref (run);
      return;
    }
  g_ptr_array_add (self->retired_runs, run);
  g_signal_connect (run, "finished", G_CALLBACK (on_retired_finished), self);
}

static void watch_compiling (LatentSession *self);

/* @run becomes the session's: a run computed here, or one followed from
 * @following's folder; the controls' state is told once both are set. */
static void
attach (LatentSession *self,
        LatentRun     *run,
        gboolean       play,
        const char    *following)
{
  self->run = run;
  set_string (self, &self->following, following, PROP_FOLLOWING);
  set_string (self, &self->init_progress, NULL, PROP_INIT_PROGRESS);
  g_signal_connect (self->run, "iteration", G_CALLBACK (on_run_iteration), self);
  g_signal_connect (self->run, "snapshot", G_CALLBACK (on_run_snapshot), self);
  g_signal_connect (self->run, "init-progress", G_CALLBACK (on_run_init_progress), self);
  g_signal_connect (self->run, "finished", G_CALLBACK (on_run_finished), self);
  latent_run_set_speed (self->run, self->speed);
  self->running = play;
  if (play)
    latent_run_play (self->run);
  watch_compiling (self);
  notify (self, PROP_RUNNING);
  notify_state (self);
}

static void
launch (LatentSession *self,
        gboolean       play,
        guint          from)
{
  attach (self, latent_run_new_at (self->algorithm, self->dataset, self->going_on ? self->going_on : self->params,
                                   self->seed, self->cl, from), play, NULL);
}

/* The frames and the rate start afresh from @from. */
static void
forget_run (LatentSession *self,
            guint          from)
{
  self->iterations = 0;
  self->rate = 0;
  self->rate_time = 0;
  self->rate_iterations = from;
  set_string (self, &self->end, NULL, PROP_END);
  notify (self, PROP_NEWEST);
  notify (self, PROP_RATE);
}

/* Whether the algorithm's check takes the parameters for the dataset. */
static gboolean
check_params (LatentSession *self)
{
  g_autoptr(GError) error = NULL;

  if (self->dataset && !latent_algorithm_check (self->algorithm, self->dataset, self->params, &error))
    {
      set_string (self, &self->refusal, error->message, PROP_REFUSAL);
      return FALSE;
    }
  set_string (self, &self->refusal, NULL, PROP_REFUSAL);
  return TRUE;
}

/* A new run; @hold keeps the picture shown until its first new frame. */
/* The session starts afresh: no run, no frames. */
static void
reset_run (LatentSession *self,
           gboolean       hold)
{
  retire_run (self);
  /* A new run starts from the person's values. */
  g_clear_pointer (&self->going_on, latent_params_unref);
  set_string (self, &self->going_on_note, NULL, PROP_GOING_ON_NOTE);
  latent_frames_clear (self->frames);
  forget_run (self, 0);
  self->holding = hold;
  if (!hold)
    set_shown (self, NULL);
  /* An earlier run's failure says nothing about this one. */
  set_string (self, &self->failure, NULL, PROP_FAILURE);
  g_signal_emit (self, signals[RUN_STARTED], 0, hold);
  move_timeline (self, 0);
}

static void
run_start (LatentSession *self,
           gboolean       play,
           gboolean       hold)
{
  reset_run (self, hold);
  if (self->dataset == NULL)
    {
      notify_state (self);
      return;
    }
  /* Parameters that do not fit the data fail here, not in a worker. */
  if (!check_params (self))
    {
      self->holding = FALSE;
      set_shown (self, NULL);
      set_string (self, &self->end, _("failed"), PROP_END);
      notify_state (self);
      return;
    }
  launch (self, play, 0);
}

void
latent_session_follow (LatentSession *self,
                       const char    *dir)
{
  g_autofree char *path = NULL;

  g_return_if_fail (LATENT_IS_SESSION (self));
  g_return_if_fail (dir != NULL);

  reset_run (self, FALSE);
  if (self->dataset == NULL)
    {
      notify_state (self);
      return;
    }
  set_string (self, &self->refusal, NULL, PROP_REFUSAL);
  path = g_build_filename (dir, LATENT_FOLLOW_RUN, NULL);
  attach (self, latent_run_new_following (self->algorithm, self->dataset, self->params, self->seed, path), TRUE, dir);
}

static void take_dataset (LatentSession *self,
                          LatentDataset *dataset,
                          const char    *spec);

void
latent_session_follow_on (LatentSession *self,
                          LatentDataset *dataset,
                          const char    *spec,
                          const char    *dir)
{
  g_return_if_fail (LATENT_IS_SESSION (self));
  g_return_if_fail (LATENT_IS_DATASET (dataset));

  /* No run of the session's own first: its start (a streamed k-means'
   * reads the whole file) would only be stopped again. */
  take_dataset (self, dataset, spec);
  latent_session_follow (self, dir);
}

const char *
latent_session_get_following (LatentSession *self)
{
  g_return_val_if_fail (LATENT_IS_SESSION (self), NULL);
  return self->following;
}

gboolean
latent_session_is_instant (LatentSession *self)
{
  /* An edit shows its result at once, as a photo editor's would. */
  return self->algorithm != NULL && latent_algorithm_has_flag (self->algorithm, LATENT_ALGORITHM_INSTANT);
}

void
latent_session_restart (LatentSession *self,
                        gboolean       play)
{
  LatentSnapshot *shown = self->shown;
  gboolean instant = latent_session_is_instant (self);

  g_return_if_fail (LATENT_IS_SESSION (self));

  /* An instant algorithm goes to its result at once; over the same data
   * the last result stays up until the new one comes. */
  run_start (self, play || instant,
             instant && shown && self->dataset && shown->dataset == self->dataset &&
             shown->algorithm == self->algorithm);
}

void
latent_session_edited (LatentSession *self)
{
  /* Idle: show the new initialisation; running: start over and go on. */
  latent_session_restart (self, self->running);
}

/* Going on */

/* Where the run and its timeline stand, for the rules of going on
 * (latent-going-on.c). */
static LatentGoingOnAt
going_on_at (LatentSession *self)
{
  return (LatentGoingOnAt) {
    .shown = self->shown,
    .state = self->run ? latent_run_get_state (self->run) : LATENT_RUN_FAILED,
    .newest = self->iterations,
    .follow = latent_frames_get_follow (self->frames),
    .instant = latent_session_is_instant (self),
  };
}

static gboolean
can_go_on (LatentSession *self,
           guint         *from)
{
  LatentGoingOnAt at = going_on_at (self);

  return self->run != NULL && latent_going_on_can (self->params, self->going_on, &at, from);
}

static void
go_on (LatentSession *self,
       gboolean       play)
{
  LatentGoingOnAt at = going_on_at (self);
  LatentParams *next;
  guint from = 0;

  if (!can_go_on (self, &from))
    return;
  /* Past the person's own values, for this run only; the session keeps
   * their values and says so. */
  if ((next = latent_going_on_next (self->params, self->going_on, &at)) != NULL)
    {
      g_clear_pointer (&self->going_on, latent_params_unref);
      self->going_on = next;
      take_string (self, &self->going_on_note, latent_going_on_describe_note (self->params, self->going_on),
                   PROP_GOING_ON_NOTE);
    }
  retire_run (self);
  /* The frames up to there stay for the timeline; the new run brings the
   * rest. The timeline follows it again. */
  latent_frames_truncate (self->frames, from);
  forget_run (self, from);
  /* The new run reports iterations 1 … from again as it replays them. */
  g_signal_emit (self, signals[WENT_ON], 0, from);
  launch (self, play, from);
  if (!play)
    latent_run_step (self->run);
}

/* Controls */

void
latent_session_play (LatentSession *self)
{
  g_return_if_fail (LATENT_IS_SESSION (self));

  if (self->run == NULL)
    return;
  /* All passes done: Run shows them again, from the original. */
  if (latent_run_get_state (self->run) == LATENT_RUN_FINISHED && latent_session_is_instant (self))
    {
      run_start (self, TRUE, FALSE);
      return;
    }
  if (can_go_on (self, NULL))
    {
      go_on (self, TRUE);
      return;
    }
  self->running = TRUE;
  self->rate_time = 0;
  latent_frames_set_follow (self->frames, TRUE);
  move_timeline (self, self->iterations);
  latent_run_play (self->run);
  notify (self, PROP_RUNNING);
  notify_state (self);
}

void
latent_session_pause (LatentSession *self)
{
  g_return_if_fail (LATENT_IS_SESSION (self));

  if (self->run == NULL)
    return;
  self->running = FALSE;
  release_hold (self);
  latent_run_pause (self->run);
  notify (self, PROP_RUNNING);
  notify_state (self);
}

/* Scrubbed back: the frame of the iteration after the one shown, if kept
 * (a fast run keeps about one a display frame). */
static LatentSnapshot *
next_frame_kept (LatentSession *self)
{
  LatentSnapshot *next;

  if (latent_frames_get_follow (self->frames) || self->shown == NULL)
    return NULL;
  next = latent_frames_after (self->frames, self->shown->iteration);
  return next && next->iteration == self->shown->iteration + 1 ? next : NULL;
}

static LatentSnapshot *
frame_before_shown (LatentSession *self)
{
  return self->shown ? latent_frames_before (self->frames, self->shown->iteration) : NULL;
}

void
latent_session_step (LatentSession *self)
{
  LatentSnapshot *next;

  g_return_if_fail (LATENT_IS_SESSION (self));

  next = next_frame_kept (self);
  if (self->run == NULL)
    return;
  /* Scrubbed back, the next iteration is at hand when it was kept: the
   * same seed would only compute it again, and drop the ones after it. */
  if (next)
    {
      latent_session_set_position (self, next->iteration);
      return;
    }
  if (can_go_on (self, NULL))
    {
      go_on (self, FALSE);
      return;
    }
  self->running = FALSE;
  latent_frames_set_follow (self->frames, TRUE);
  latent_run_step (self->run);
  notify (self, PROP_RUNNING);
  notify_state (self);
}

/* Back through the history one kept frame, as dragging the timeline does. */
void
latent_session_back (LatentSession *self)
{
  LatentSnapshot *before;

  g_return_if_fail (LATENT_IS_SESSION (self));

  if ((before = frame_before_shown (self)))
    latent_session_set_position (self, before->iteration);
}

static gboolean
is_live (LatentSession *self)
{
  LatentSessionState state = latent_session_get_state (self);

  return state == LATENT_SESSION_PAUSED || state == LATENT_SESSION_RUNNING ||
         state == LATENT_SESSION_INITIALISING;
}

gboolean
latent_session_can_play (LatentSession *self)
{
  g_return_val_if_fail (LATENT_IS_SESSION (self), FALSE);

  /* A finished instant run plays its passes again from the original. */
  if (self->following && is_live (self))
    return FALSE;
  return (is_live (self) && !self->running) || can_go_on (self, NULL) ||
         (latent_session_get_state (self) == LATENT_SESSION_FINISHED && latent_session_is_instant (self));
}

gboolean
latent_session_can_pause (LatentSession *self)
{
  g_return_val_if_fail (LATENT_IS_SESSION (self), FALSE);
  return is_live (self) && self->running && self->following == NULL;
}

gboolean
latent_session_can_step (LatentSession *self)
{
  g_return_val_if_fail (LATENT_IS_SESSION (self), FALSE);
  if (self->following && is_live (self))
    return FALSE;
  return is_live (self) || can_go_on (self, NULL);
}

gboolean
latent_session_can_go_back (LatentSession *self)
{
  g_return_val_if_fail (LATENT_IS_SESSION (self), FALSE);
  return frame_before_shown (self) != NULL;
}

LatentSessionState
latent_session_get_state (LatentSession *self)
{
  g_return_val_if_fail (LATENT_IS_SESSION (self), LATENT_SESSION_IDLE);

  if (self->run == NULL)
    return self->refusal ? LATENT_SESSION_FAILED : LATENT_SESSION_IDLE;
  switch (latent_run_get_state (self->run))
    {
    case LATENT_RUN_INITIALISING: return LATENT_SESSION_INITIALISING;
    case LATENT_RUN_PAUSED:       return LATENT_SESSION_PAUSED;
    case LATENT_RUN_RUNNING:      return LATENT_SESSION_RUNNING;
    case LATENT_RUN_FINISHED:     return LATENT_SESSION_FINISHED;
    case LATENT_RUN_STOPPED:      return LATENT_SESSION_STOPPED;
    case LATENT_RUN_FAILED:
    default:                      return LATENT_SESSION_FAILED;
    }
}

/* Data, algorithm, device */

/* Precompiling: PoCL takes about 5 s to build one algorithm's programs on
 * two cores, 0.1 s to load them from the disk cache once built.
 *
 * Each job is a thread the session joins, as LatentRun joins its worker:
 * a thread still inside the compiler when the process exits crashes in
 * LLVM as the exit handlers tear the driver down. No job holds the
 * session. Shutting down waits for the build under way, which OpenCL
 * cannot interrupt (at worst 6 s, k-means' program on PoCL with two cores,
 * cold); no other starts once cancelled (latent_cl_get_program). */

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
   * run, which then says so; nothing to say from here. */
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
  /* The others may never be run: below the runs. Linux keeps a nice value
   * per thread. */
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

/* Cancels the current job; it is joined once it ends, or at shutdown.
 * The session never waits for the compiler while it is in use. */
static void
retire_precompile (LatentSession *self)
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

/* After a new dataset or device: builds the programs runs will ask for on
 * a thread, the selected algorithm's first, then the others'. */
static void
precompile (LatentSession *self)
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
  watch_compiling (self);
}

gboolean
latent_session_get_compiling (LatentSession *self)
{
  Precompile *job;

  g_return_val_if_fail (LATENT_IS_SESSION (self), FALSE);

  job = self->precompile;
  if (self->cl == NULL || latent_cl_get_building (self->cl) == 0)
    return FALSE;
  return (job != NULL && job->cl == self->cl && !g_atomic_int_get (&job->selected_done)) ||
         (self->run != NULL && latent_run_get_state (self->run) == LATENT_RUN_INITIALISING);
}

static gboolean
on_compiling_watch (gpointer user_data)
{
  LatentSession *self = user_data;
  gboolean compiling = latent_session_get_compiling (self);
  Precompile *job = self->precompile;

  if (compiling != self->compiling)
    {
      self->compiling = compiling;
      notify (self, PROP_COMPILING);
    }
  /* Nothing a person waits for can start building any more. */
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
static void
watch_compiling (LatentSession *self)
{
  if (self->compiling_watch == 0 && self->cl != NULL)
    self->compiling_watch = g_timeout_add (250, on_compiling_watch, self);
}

static void
stop_precompile (LatentSession *self)
{
  retire_precompile (self);
  if (self->precompiles_stopping->len > 0)
    g_debug ("waiting for %u precompiling thread(s)", self->precompiles_stopping->len);
  /* All were cancelled first, so they wind down side by side. */
  g_clear_pointer (&self->precompiles_stopping, g_ptr_array_unref);
  g_clear_handle_id (&self->compiling_watch, g_source_remove);
}

static void
take_dataset (LatentSession *self,
              LatentDataset *dataset,
              const char    *spec)
{
  g_set_object (&self->dataset, dataset);
  g_free (self->dataset_spec);
  self->dataset_spec = g_strdup (spec);
  notify (self, PROP_DATASET);
}

void
latent_session_set_dataset (LatentSession *self,
                            LatentDataset *dataset,
                            const char    *spec)
{
  g_return_if_fail (LATENT_IS_SESSION (self));
  g_return_if_fail (LATENT_IS_DATASET (dataset));

  take_dataset (self, dataset, spec);
  latent_session_restart (self, FALSE);
  precompile (self);
}

gboolean
latent_session_set_test_data (LatentSession *self,
                              LatentDataset *test,
                              GError       **error)
{
  gboolean judged, ok;

  g_return_val_if_fail (LATENT_IS_SESSION (self), FALSE);

  if (self->dataset == NULL)
    return TRUE;
  /* Test data changes what a classifier is judged on, so its run starts
   * again; and one that is starting reads the test data, so it goes first.
   * Any other run never reads it: a trained model stays, to be used on the
   * test data too (Use Its Features). */
  judged = self->algorithm && latent_algorithm_has_flag (self->algorithm, LATENT_ALGORITHM_SUPERVISED);
  if (judged)
    retire_run (self);
  ok = latent_dataset_set_test (self->dataset, test, error);
  if (judged)
    latent_session_restart (self, FALSE);
  return ok;
}

void
latent_session_set_algorithm (LatentSession         *self,
                              const LatentAlgorithm *algorithm,
                              LatentParams          *params)
{
  g_autoptr(LatentParams) chosen = NULL;

  g_return_if_fail (LATENT_IS_SESSION (self));
  g_return_if_fail (algorithm != NULL);

  if (params)
    chosen = latent_params_ref (params);
  else if ((chosen = g_hash_table_lookup (self->kept_params, algorithm)))
    latent_params_ref (chosen);
  else
    chosen = latent_algorithm_new_params (algorithm);
  self->algorithm = algorithm;
  g_clear_pointer (&self->params, latent_params_unref);
  self->params = latent_params_ref (chosen);
  g_hash_table_replace (self->kept_params, (gpointer) algorithm, g_steal_pointer (&chosen));
  notify (self, PROP_ALGORITHM);
  notify (self, PROP_PARAMS);
}

gboolean
latent_session_set_device (LatentSession *self,
                           const char    *device,
                           GError       **error)
{
  LatentDeviceChoice choice = LATENT_DEVICE_AUTO;
  g_autoptr(GError) local_error = NULL;
  gboolean ok = TRUE;

  g_return_val_if_fail (LATENT_IS_SESSION (self), FALSE);

  if (!latent_device_choice_parse (device, &choice, error))
    {
      ok = FALSE;
      device = "auto";
    }
  g_clear_object (&self->cl);
  if (choice != LATENT_DEVICE_OFF)
    self->cl = latent_cl_new_background (choice, &local_error);
  /* A device asked for that is not there: the best one that is, said so. */
  if (self->cl == NULL && choice != LATENT_DEVICE_OFF && choice != LATENT_DEVICE_AUTO &&
      (self->cl = latent_cl_new_background (LATENT_DEVICE_AUTO, NULL)))
    {
      g_autofree char *name = latent_cl_describe_for_display (self->cl);

      g_set_error (error, local_error->domain, local_error->code, _("%s Using %s instead."),
                   local_error->message, name);
      ok = FALSE;
      device = "auto";
    }
  else if (self->cl == NULL && local_error)
    {
      g_set_error (error, local_error->domain, local_error->code,
                   _("%s Using the CPU reference path instead."), local_error->message);
      ok = FALSE;
    }
  set_string (self, &self->device, device, PROP_DEVICE);
  if (self->cl)
    {
      take_string (self, &self->device_name, latent_cl_describe_for_display (self->cl), PROP_DEVICE_NAME);
      set_string (self, &self->device_label,
                  latent_cl_get_info (self->cl)->type & CL_DEVICE_TYPE_GPU ? _("GPU") : _("OpenCL CPU"),
                  PROP_DEVICE_LABEL);
    }
  else
    {
      set_string (self, &self->device_name, _("CPU reference"), PROP_DEVICE_NAME);
      set_string (self, &self->device_label, _("CPU Reference"), PROP_DEVICE_LABEL);
    }
  /* The data or the device changed: a new run, and its programs built. */
  latent_session_restart (self, self->running);
  precompile (self);
  return ok;
}

void
latent_session_present_devices (gboolean *gpu,
                                gboolean *cpu)
{
  g_autoptr(GPtrArray) devices = latent_cl_list_devices (NULL);
  cl_device_type types = 0;

  for (guint i = 0; devices && i < devices->len; i++)
    {
      const LatentClDeviceInfo *info = g_ptr_array_index (devices, i);

      if (info->available && info->compiler_available)
        types |= info->type;
    }
  *gpu = (types & CL_DEVICE_TYPE_GPU) != 0;
  *cpu = (types & CL_DEVICE_TYPE_CPU) != 0;
}

void
latent_session_set_seed (LatentSession *self,
                         guint64        seed)
{
  g_return_if_fail (LATENT_IS_SESSION (self));

  if (self->seed == seed)
    return;
  self->seed = seed;
  notify (self, PROP_SEED);
}

void
latent_session_set_speed (LatentSession *self,
                          double         per_second)
{
  g_return_if_fail (LATENT_IS_SESSION (self));

  if (self->speed == per_second)
    return;
  self->speed = per_second;
  if (self->run)
    latent_run_set_speed (self->run, per_second);
  notify (self, PROP_SPEED);
}

double
latent_session_get_speed (LatentSession *self)
{
  g_return_val_if_fail (LATENT_IS_SESSION (self), 0);

  return self->speed;
}

void
latent_session_shutdown (LatentSession *self)
{
  g_return_if_fail (LATENT_IS_SESSION (self));

  /* No thread may be left in the compiler: the run's worker and the
   * precompiling are cancelled first, to wind down side by side, then
   * joined. */
  if (self->run)
    latent_run_stop (self->run);
  if (self->precompiles_stopping)
    stop_precompile (self);
  if (self->run)
    {
      g_signal_handlers_disconnect_by_data (self->run, self);
      g_clear_object (&self->run);
    }
  /* Runs replaced earlier and still stopping: dropped, they are joined. */
  if (self->retired_runs)
    for (guint i = 0; i < self->retired_runs->len; i++)
      g_signal_handlers_disconnect_by_data (g_ptr_array_index (self->retired_runs, i), self);
  g_clear_pointer (&self->retired_runs, g_ptr_array_unref);
}

/* Getters */

LatentFrames *
latent_session_get_frames (LatentSession *self)
{
  g_return_val_if_fail (LATENT_IS_SESSION (self), NULL);
  return self->frames;
}

LatentDataset *
latent_session_get_dataset (LatentSession *self)
{
  g_return_val_if_fail (LATENT_IS_SESSION (self), NULL);
  return self->dataset;
}

const char *
latent_session_get_dataset_spec (LatentSession *self)
{
  g_return_val_if_fail (LATENT_IS_SESSION (self), NULL);
  return self->dataset_spec;
}

const LatentAlgorithm *
latent_session_get_algorithm (LatentSession *self)
{
  g_return_val_if_fail (LATENT_IS_SESSION (self), NULL);
  return self->algorithm;
}

LatentParams *
latent_session_get_params (LatentSession *self)
{
  g_return_val_if_fail (LATENT_IS_SESSION (self), NULL);
  return self->params;
}

guint64
latent_session_get_seed (LatentSession *self)
{
  g_return_val_if_fail (LATENT_IS_SESSION (self), 0);
  return self->seed;
}

const char *
latent_session_get_device (LatentSession *self)
{
  g_return_val_if_fail (LATENT_IS_SESSION (self), NULL);
  return self->device;
}

const char *
latent_session_get_device_name (LatentSession *self)
{
  g_return_val_if_fail (LATENT_IS_SESSION (self), NULL);
  return self->device_name;
}

const char *
latent_session_get_device_label (LatentSession *self)
{
  g_return_val_if_fail (LATENT_IS_SESSION (self), NULL);
  return self->device_label;
}

LatentCl *
latent_session_get_cl (LatentSession *self)
{
  g_return_val_if_fail (LATENT_IS_SESSION (self), NULL);
  return self->cl;
}

gboolean
latent_session_get_running (LatentSession *self)
{
  g_return_val_if_fail (LATENT_IS_SESSION (self), FALSE);
  return self->running;
}

LatentSnapshot *
latent_session_get_shown (LatentSession *self)
{
  g_return_val_if_fail (LATENT_IS_SESSION (self), NULL);
  return self->shown;
}

guint
latent_session_get_position (LatentSession *self)
{
  g_return_val_if_fail (LATENT_IS_SESSION (self), 0);
  return self->position;
}

guint
latent_session_get_newest (LatentSession *self)
{
  g_return_val_if_fail (LATENT_IS_SESSION (self), 0);
  return self->iterations;
}

double
latent_session_get_rate (LatentSession *self)
{
  g_return_val_if_fail (LATENT_IS_SESSION (self), 0);
  return self->rate;
}

const char *
latent_session_get_end (LatentSession *self)
{
  g_return_val_if_fail (LATENT_IS_SESSION (self), NULL);
  return self->end;
}

const char *
latent_session_get_init_progress (LatentSession *self)
{
  g_return_val_if_fail (LATENT_IS_SESSION (self), NULL);
  return self->init_progress;
}

const char *
latent_session_get_going_on_note (LatentSession *self)
{
  g_return_val_if_fail (LATENT_IS_SESSION (self), NULL);
  return self->going_on_note;
}

const char *
latent_session_get_refusal (LatentSession *self)
{
  g_return_val_if_fail (LATENT_IS_SESSION (self), NULL);
  return self->refusal;
}

const char *
latent_session_get_failure (LatentSession *self)
{
  g_return_val_if_fail (LATENT_IS_SESSION (self), NULL);
  return self->failure;
}

const GArray *
latent_session_get_history (LatentSession *self)
{
  g_return_val_if_fail (LATENT_IS_SESSION (self), NULL);
  return self->run ? latent_run_get_history (self->run) : NULL;
}

double
latent_session_get_init_ms (LatentSession *self)
{
  g_return_val_if_fail (LATENT_IS_SESSION (self), 0);
  return self->run ? latent_run_get_init_ms (self->run) : 0;
}

/* GObject */

static void
latent_session_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  LatentSession *self = LATENT_SESSION (object);

  switch (prop_id)
    {
    case PROP_DATASET:       g_value_set_object (value, self->dataset); break;
    case PROP_ALGORITHM:     g_value_set_pointer (value, (gpointer) self->algorithm); break;
    case PROP_PARAMS:        g_value_set_pointer (value, self->params); break;
    case PROP_SEED:          g_value_set_uint64 (value, self->seed); break;
    case PROP_SPEED:         g_value_set_double (value, self->speed); break;
    case PROP_DEVICE:        g_value_set_string (value, self->device); break;
    case PROP_DEVICE_NAME:   g_value_set_string (value, self->device_name); break;
    case PROP_DEVICE_LABEL:  g_value_set_string (value, self->device_label); break;
    case PROP_STATE:         g_value_set_int (value, latent_session_get_state (self)); break;
    case PROP_RUNNING:       g_value_set_boolean (value, self->running); break;
    case PROP_SHOWN:         g_value_set_pointer (value, self->shown); break;
    case PROP_POSITION:      g_value_set_uint (value, self->position); break;
    case PROP_NEWEST:        g_value_set_uint (value, self->iterations); break;
    case PROP_RATE:          g_value_set_double (value, self->rate); break;
    case PROP_END:           g_value_set_string (value, self->end); break;
    case PROP_INIT_PROGRESS: g_value_set_string (value, self->init_progress); break;
    case PROP_GOING_ON_NOTE: g_value_set_string (value, self->going_on_note); break;
    case PROP_REFUSAL:       g_value_set_string (value, self->refusal); break;
    case PROP_FAILURE:       g_value_set_string (value, self->failure); break;
    case PROP_COMPILING:     g_value_set_boolean (value, latent_session_get_compiling (self)); break;
    case PROP_FOLLOWING:     g_value_set_string (value, self->following); break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
latent_session_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  LatentSession *self = LATENT_SESSION (object);

  switch (prop_id)
    {
    case PROP_SEED:     latent_session_set_seed (self, g_value_get_uint64 (value)); break;
    case PROP_SPEED:    latent_session_set_speed (self, g_value_get_double (value)); break;
    case PROP_POSITION: latent_session_set_position (self, g_value_get_uint (value)); break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
latent_session_dispose (GObject *object)
{
  LatentSession *self = LATENT_SESSION (object);

  latent_session_shutdown (self);
  G_OBJECT_CLASS (latent_session_parent_class)->dispose (object);
}

static void
latent_session_finalize (GObject *object)
{
  LatentSession *self = LATENT_SESSION (object);

  g_clear_object (&self->dataset);
  g_free (self->dataset_spec);
  g_clear_pointer (&self->params, latent_params_unref);
  g_clear_pointer (&self->going_on, latent_params_unref);
  g_free (self->going_on_note);
  g_clear_pointer (&self->kept_params, g_hash_table_unref);
  g_clear_object (&self->cl);
  g_free (self->device);
  g_free (self->device_name);
  g_free (self->device_label);
  g_clear_pointer (&self->shown, latent_snapshot_unref);
  g_clear_object (&self->frames);
  g_free (self->end);
  g_free (self->init_progress);
  g_free (self->refusal);
  g_free (self->failure);
  g_free (self->following);
  G_OBJECT_CLASS (latent_session_parent_class)->finalize (object);
}

static GParamSpec *
string_property (const char *name)
{
  return g_param_spec_string (name, NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
}

static void
latent_session_class_init (LatentSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->get_property = latent_session_get_property;
  object_class->set_property = latent_session_set_property;
  object_class->dispose = latent_session_dispose;
  object_class->finalize = latent_session_finalize;

  properties[PROP_DATASET] = g_param_spec_object ("dataset", NULL, NULL, LATENT_TYPE_DATASET, ro);
  properties[PROP_ALGORITHM] = g_param_spec_pointer ("algorithm", NULL, NULL, ro);
  properties[PROP_PARAMS] = g_param_spec_pointer ("params", NULL, NULL, ro);
  properties[PROP_SEED] = g_param_spec_uint64 ("seed", NULL, NULL, 0, G_MAXUINT64, 0, rw);
  properties[PROP_SPEED] = g_param_spec_double ("speed", NULL, NULL, 0, G_MAXDOUBLE, 0, rw);
  properties[PROP_DEVICE] = string_property ("device");
  properties[PROP_DEVICE_NAME] = string_property ("device-name");
  properties[PROP_DEVICE_LABEL] = string_property ("device-label");
  properties[PROP_STATE] = g_param_spec_int ("state", NULL, NULL, LATENT_SESSION_IDLE, LATENT_SESSION_FAILED,
                                             LATENT_SESSION_IDLE, ro);
  properties[PROP_RUNNING] = g_param_spec_boolean ("running", NULL, NULL, FALSE, ro);
  properties[PROP_SHOWN] = g_param_spec_pointer ("shown", NULL, NULL, ro);
  properties[PROP_POSITION] = g_param_spec_uint ("position", NULL, NULL, 0, G_MAXUINT, 0, rw);
  properties[PROP_NEWEST] = g_param_spec_uint ("newest", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_RATE] = g_param_spec_double ("rate", NULL, NULL, 0, G_MAXDOUBLE, 0, ro);
  properties[PROP_END] = string_property ("end");
  properties[PROP_INIT_PROGRESS] = string_property ("init-progress");
  properties[PROP_GOING_ON_NOTE] = string_property ("going-on-note");
  properties[PROP_REFUSAL] = string_property ("refusal");
  properties[PROP_FAILURE] = string_property ("failure");
  properties[PROP_COMPILING] = g_param_spec_boolean ("compiling", NULL, NULL, FALSE, ro);
  properties[PROP_FOLLOWING] = string_property ("following");
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[RUN_STARTED] = g_signal_new ("run-started", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                       0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
  signals[WENT_ON] = g_signal_new ("went-on", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  signals[ITERATION] = g_signal_new ("iteration", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                     0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);
  signals[FRAME_ADDED] = g_signal_new ("frame-added", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                       0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);
}

static void
latent_session_init (LatentSession *self)
{
  self->kept_params = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) latent_params_unref);
  self->retired_runs = g_ptr_array_new_with_free_func (g_object_unref);
  self->precompiles_stopping = g_ptr_array_new_with_free_func (precompile_join);
  self->frames = latent_frames_new ();
  self->device = g_strdup ("off");
  self->device_name = g_strdup (_("CPU reference"));
  self->device_label = g_strdup (_("CPU Reference"));
  self->algorithm = latent_registry_list ()[0];
  self->params = latent_algorithm_new_params (self->algorithm);
  g_hash_table_replace (self->kept_params, (gpointer) self->algorithm, latent_params_ref (self->params));
}

LatentSession *
latent_session_new (void)
{
  return g_object_new (LATENT_TYPE_SESSION, NULL);
}
