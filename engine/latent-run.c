/* latent-run.c — the worker thread that drives an algorithm
 *
 * The worker owns the algorithm state; nothing else touches it. Commands go
 * in under a mutex; results come out through an outbox that the owner's main
 * context drains. The worker builds a snapshot only when the previous one has
 * been taken (or for the last iteration), so a fast algorithm is never slowed
 * by copying results nobody will see.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-run"

#include "latent-run.h"

#include "latent-follow.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <sys/resource.h>
#include <string.h>
#include <sys/stat.h>

/* How often a followed run's file is looked at: as often as latent-cli
 * writes it at most (LATENT_FIT_FRAME_INTERVAL_MS). */
#define FOLLOW_POLL_US (LATENT_FIT_FRAME_INTERVAL_MS * 1000)

/* One frame at 60 Hz. */
#define PUBLISH_INTERVAL_US (G_USEC_PER_SEC / 60)
/* A snapshot that took c µs is followed by the next no sooner than
 * SNAPSHOT_SPACING · c later: snapshots take at most a tenth of the time
 * the steps between them take. */
#define SNAPSHOT_SPACING 11

struct _LatentRun
{
  GObject                parent_instance;

  const LatentAlgorithm *algorithm;
  LatentDataset         *dataset;
  LatentParams          *params;
  guint64                seed;
  LatentCl              *cl;
  guint                  fast_forward;   /* iterations replayed before the first snapshot */
  char                  *follow_path;    /* a run file read instead of computing */
  GMainContext          *context;
  GThread               *thread;
  GCancellable          *cancellable;

  GMutex                 mutex;
  GCond                  cond;
  /* Guarded by mutex: commands … */
  int                    steps_wanted;   /* -1: run freely */
  gboolean               stop;
  double                 per_second;     /* pace units (latent_run_set_speed) */
  guint                  pace_steps;     /* iterations in one, set after init */
  /* … and the outbox. */
  GArray                *outbox_records;
  LatentSnapshot        *outbox_snapshot;
  GError                *outbox_error;
  gboolean               outbox_finished;
  gboolean               outbox_progress;   /* the init's progress below is new */
  LatentInitStage        progress_stage;
  guint                  progress_done, progress_total;
  GSource               *outbox_source;  /* holds no reference: dispose destroys it */
  LatentRunState         worker_state;
  double                 init_ms;
  gint64                 last_publish;   /* worker only */
  gint64                 publish_cost;   /* how long the last snapshot took, worker only */

  /* Main context only. */
  LatentRunState         state;
  LatentSnapshot        *snapshot;
  GArray                *history;
};

G_DEFINE_FINAL_TYPE (LatentRun, latent_run, G_TYPE_OBJECT)

enum { ITERATION, SNAPSHOT, FINISHED, INIT_PROGRESS, N_SIGNALS };
static guint signals[N_SIGNALS];

static gboolean
drain_outbox (gpointer data)
{
  /* A handler may drop the last reference to the run. */
  g_autoptr(LatentRun) self = g_object_ref (data);
  g_autoptr(GArray) records = NULL;
  g_autoptr(LatentSnapshot) snapshot = NULL;
  g_autoptr(GError) error = NULL;
  gboolean finished, progress;
  LatentInitStage stage;
  guint done, total;

  g_mutex_lock (&self->mutex);
  progress = self->outbox_progress;
  self->outbox_progress = FALSE;
  stage = self->progress_stage;
  done = self->progress_done;
  total = self->progress_total;
  records = g_steal_pointer (&self->outbox_records);
  self->outbox_records = g_array_new (FALSE, FALSE, sizeof (LatentIterationRecord));
  snapshot = g_steal_pointer (&self->outbox_snapshot);
  error = g_steal_pointer (&self->outbox_error);
  finished = self->outbox_finished;
  self->outbox_finished = FALSE;
  g_clear_pointer (&self->outbox_source, g_source_unref);
  self->state = self->worker_state;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->mutex);

  if (progress)
    g_signal_emit (self, signals[INIT_PROGRESS], 0, stage, done, total);
  for (guint i = 0; i < records->len; i++)
    {
      LatentIterationRecord *record = &g_array_index (records, LatentIterationRecord, i);
      g_array_append_val (self->history, *record);
      g_signal_emit (self, signals[ITERATION], 0, record);
    }
  if (snapshot)
    {
      g_clear_pointer (&self->snapshot, latent_snapshot_unref);
      self->snapshot = latent_snapshot_ref (snapshot);
      g_signal_emit (self, signals[SNAPSHOT], 0, snapshot);
    }
  if (finished)
    g_signal_emit (self, signals[FINISHED], 0, error);

  return G_SOURCE_REMOVE;
}

/* Called with the mutex held. */
static void
schedule_drain (LatentRun *self)
{
  if (self->outbox_source)
    return;
  self->outbox_source = g_idle_source_new ();
  g_source_set_priority (self->outbox_source, G_PRIORITY_DEFAULT);
  g_source_set_callback (self->outbox_source, drain_outbox, self, NULL);
  g_source_set_static_name (self->outbox_source, "[latent] run outbox");
  g_source_attach (self->outbox_source, self->context);
}

/* Microseconds between iterations at the pace set, 0 for none; under the
 * mutex. */
static gint64
step_interval (LatentRun *self)
{
  return self->per_second > 0 ? (gint64) (G_USEC_PER_SEC / (self->per_second * self->pace_steps)) : 0;
}

/* LAST_STEP: when the last step ended (0 for a forced snapshot). */
static gboolean
publish (LatentRun            *self,
         gpointer              state,
         gboolean              force,
         gint64                last_step,
         double                step_ms,
         double                elapsed_ms)
{
  LatentSnapshot *snapshot = NULL;
  gint64 now = g_get_monotonic_time ();
  gboolean wanted;

  /* At most one a display frame, as nobody sees more; and as a snapshot
   * can cost more than a step (a 4K image is 33 MB to copy back, the
   * linear models project every row), only as often as keeps the steps
   * within a tenth of their own pace, unless the speed limit would have
   * the worker wait that long anyway. */
  g_mutex_lock (&self->mutex);
  wanted = force;
  if (!wanted && self->outbox_snapshot == NULL && now - self->last_publish >= PUBLISH_INTERVAL_US)
    {
      const gint64 next_due = self->per_second > 0 ? last_step + step_interval (self) : 0;

      wanted = now + self->publish_cost <= next_due ||
               now - self->last_publish >= SNAPSHOT_SPACING * self->publish_cost;
    }
  g_mutex_unlock (&self->mutex);
  if (!wanted)
    return FALSE;
  self->last_publish = now;

  /* Built outside the lock; it is ours alone until it enters the outbox. */
  snapshot = self->algorithm->snapshot (state);
  self->publish_cost = g_get_monotonic_time () - now;
  snapshot->step_ms = step_ms;
  snapshot->elapsed_ms = elapsed_ms;

  g_mutex_lock (&self->mutex);
  g_clear_pointer (&self->outbox_snapshot, latent_snapshot_unref);
  self->outbox_snapshot = snapshot;
  schedule_drain (self);
  g_mutex_unlock (&self->mutex);
  return TRUE;
}

static void
finish (LatentRun      *self,
        LatentRunState  state,
        GError         *error)
{
  g_mutex_lock (&self->mutex);
  self->worker_state = state;
  self->outbox_error = error;
  self->outbox_finished = TRUE;
  schedule_drain (self);
  g_mutex_unlock (&self->mutex);
}

/* On the worker, as the init reports its rounds; the newest one waits in
 * the outbox. */
static void
on_init_progress (LatentInitStage stage,
                  guint           done,
                  guint           total,
                  gpointer        data)
{
  LatentRun *self = data;

  g_mutex_lock (&self->mutex);
  self->outbox_progress = TRUE;
  self->progress_stage = stage;
  self->progress_done = done;
  self->progress_total = total;
  schedule_drain (self);
  g_mutex_unlock (&self->mutex);
}

static gpointer
worker (gpointer data)
{
  LatentRun *self = data;
  /* The rows every pass reads, for algorithms of the pass contract. */
  g_autoptr(LatentRows) rows = latent_rows_new_for_dataset (self->dataset, 0);
  GError *error = NULL;
  gpointer state;
  gint64 start = g_get_monotonic_time ();
  gint64 last_step = start;
  guint iteration = 0;
  gboolean unpublished = FALSE;
  double last_step_ms = 0, last_elapsed_ms = 0;

  /* Below the thread that draws (Linux keeps nice values per thread): a
   * window stays smooth while the worker computes flat out. */
  if (setpriority (PRIO_PROCESS, 0, 5) != 0)
    g_debug ("could not lower the worker's priority: %s", g_strerror (errno));
  /* The thread is the run's own: its mode need not be restored. */
  latent_algorithm_flush_denormals ();

  latent_algorithm_set_init_progress (on_init_progress, self);
  /* Current while it builds its programs: once stopped, the runtime starts
   * no other (latent_cl_get_program), so a closing window waits for one
   * build at most. */
  g_cancellable_push_current (self->cancellable);
  state = self->algorithm->init (self->dataset, self->params, self->seed, latent_cl_usable (self->cl),
                                 self->cancellable, &error);
  g_cancellable_pop_current (self->cancellable);
  latent_algorithm_set_init_progress (NULL, NULL);
  g_mutex_lock (&self->mutex);
  self->init_ms = (g_get_monotonic_time () - start) / 1000.0;
  if (state != NULL && self->algorithm->pace_steps != NULL)
    self->pace_steps = MAX (1, self->algorithm->pace_steps (state));
  g_mutex_unlock (&self->mutex);
  if (state == NULL)
    {
      /* Stopped while it initialised: not a failure. */
      gboolean cancelled = g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

      if (cancelled)
        g_clear_error (&error);
      finish (self, cancelled ? LATENT_RUN_STOPPED : LATENT_RUN_FAILED, error);
      return NULL;
    }

  /* A run that goes on from an iteration of an earlier one replays up to
   * it, as fast as it can and unseen: the same seed takes the same path. */
  while (iteration < self->fast_forward)
    {
      LatentIterationRecord record;
      gint64 t0 = g_get_monotonic_time ();

      if (!latent_algorithm_step (self->algorithm, state, rows, self->cancellable, &error))
        {
          gboolean cancelled = g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

          if (cancelled)
            g_clear_error (&error);
          finish (self, cancelled ? LATENT_RUN_STOPPED : LATENT_RUN_FAILED, error);
          self->algorithm->free (state);
          return NULL;
        }
      record.iteration = ++iteration;
      record.objective = self->algorithm->objective (state);
      record.step_ms = (g_get_monotonic_time () - t0) / 1000.0;
      g_mutex_lock (&self->mutex);
      g_array_append_val (self->outbox_records, record);
      g_mutex_unlock (&self->mutex);
      if (self->algorithm->converged (state))
        break;
    }

  g_mutex_lock (&self->mutex);
  self->worker_state = LATENT_RUN_PAUSED;
  g_mutex_unlock (&self->mutex);
  publish (self, state, TRUE, 0, 0, (g_get_monotonic_time () - start) / 1000.0);
  /* The speed limit counts from here: the initial state is shown for an
   * interval like every other, and the first step does not replace it
   * within the frame (a long initialisation used to lose iteration 1). */
  last_step = g_get_monotonic_time ();
  if (iteration > 0 && self->algorithm->converged (state))
    {
      finish (self, LATENT_RUN_FINISHED, NULL);
      self->algorithm->free (state);
      return NULL;
    }

  for (;;)
    {
      gint64 t0, t1;
      LatentIterationRecord record;
      gboolean done;

      g_mutex_lock (&self->mutex);
      for (;;)
        {
          gint64 due;

          if (self->stop)
            break;
          if (self->steps_wanted == 0 && unpublished)
            {
              /* Pausing: the view must show where the run stopped. */
              g_mutex_unlock (&self->mutex);
              publish (self, state, TRUE, 0, last_step_ms, last_elapsed_ms);
              unpublished = FALSE;
              g_mutex_lock (&self->mutex);
              continue;
            }
          if (self->steps_wanted == 0)
            {
              self->worker_state = LATENT_RUN_PAUSED;
              /* Only to tell the main thread it paused: a drain wakes the
               * worker, and one each time would keep both threads busy. */
              if (self->state != LATENT_RUN_PAUSED)
                schedule_drain (self);
              g_cond_wait (&self->cond, &self->mutex);
              continue;
            }
          /* The speed limit, waited out so that pause and stop still answer. */
          due = self->per_second > 0 ? last_step + step_interval (self) : 0;
          if (due > g_get_monotonic_time ())
            {
              g_cond_wait_until (&self->cond, &self->mutex, due);
              continue;
            }
          break;
        }
      if (self->stop)
        {
          g_mutex_unlock (&self->mutex);
          finish (self, LATENT_RUN_STOPPED, NULL);
          break;
        }
      if (self->steps_wanted > 0)
        self->steps_wanted--;
      self->worker_state = self->steps_wanted == 0 ? LATENT_RUN_PAUSED : LATENT_RUN_RUNNING;
      g_mutex_unlock (&self->mutex);

      t0 = g_get_monotonic_time ();
      if (!latent_algorithm_step (self->algorithm, state, rows, self->cancellable, &error))
        {
          if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            {
              g_clear_error (&error);
              finish (self, LATENT_RUN_STOPPED, NULL);
            }
          else
            finish (self, LATENT_RUN_FAILED, error);
          break;
        }
      t1 = g_get_monotonic_time ();
      last_step = t1;
      done = self->algorithm->converged (state);

      record.iteration = ++iteration;
      record.objective = self->algorithm->objective (state);
      record.step_ms = (t1 - t0) / 1000.0;
      g_mutex_lock (&self->mutex);
      g_array_append_val (self->outbox_records, record);
      schedule_drain (self);
      g_mutex_unlock (&self->mutex);

      last_step_ms = record.step_ms;
      last_elapsed_ms = (t1 - start) / 1000.0;
      unpublished = !publish (self, state, done, t1, last_step_ms, last_elapsed_ms);
      if (done)
        {
          finish (self, LATENT_RUN_FINISHED, NULL);
          break;
        }
    }

  self->algorithm->free (state);
  return NULL;
}

/* The run file's identity, to read it again only when it was replaced. */
typedef struct {
  dev_t           device;
  ino_t           inode;
  off_t           size;
  struct timespec modified;
} FileStamp;

static gboolean
stamp_changed (const char *path,
               FileStamp  *stamp)
{
  struct stat info;
  FileStamp now;

  if (stat (path, &info) != 0)
    return FALSE;
  now = (FileStamp) { info.st_dev, info.st_ino, info.st_size, info.st_mtim };
  if (memcmp (&now, stamp, sizeof now) == 0)
    return FALSE;
  *stamp = now;
  return TRUE;
}

/* Following: each time the run file is replaced, its new records and its
 * snapshot go out as a computed run's would, until it says it ended. */
static gpointer
follow_worker (gpointer data)
{
  LatentRun *self = data;
  g_autoptr(LatentFollowUpdate) last = NULL;
  FileStamp stamp;
  guint delivered = 0;

  memset (&stamp, 0, sizeof stamp);
  for (;;)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(LatentFollowUpdate) update = NULL;

      g_mutex_lock (&self->mutex);
      if (!self->stop)
        g_cond_wait_until (&self->cond, &self->mutex, g_get_monotonic_time () + FOLLOW_POLL_US);
      if (self->stop)
        {
          g_mutex_unlock (&self->mutex);
          finish (self, LATENT_RUN_STOPPED, NULL);
          return NULL;
        }
      g_mutex_unlock (&self->mutex);

      if (!stamp_changed (self->follow_path, &stamp))
        {
          if (last && latent_follow_update_writer_gone (last))
            {
              finish (self, LATENT_RUN_FAILED,
                      g_error_new (G_IO_ERROR, G_IO_ERROR_BROKEN_PIPE,
                                   _("latent-cli (process %u) ended without finishing the run"), last->pid));
              return NULL;
            }
          continue;
        }
      update = latent_follow_read (self->follow_path, self->algorithm, self->dataset, self->params, &error);
      /* Replaced between the look and the read: the next look finds it. */
      if (g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        continue;
      if (update == NULL)
        {
          finish (self, LATENT_RUN_FAILED, g_steal_pointer (&error));
          return NULL;
        }

      g_mutex_lock (&self->mutex);
      self->init_ms = update->init_ms;
      for (; delivered < update->records->len; delivered++)
        g_array_append_val (self->outbox_records, g_array_index (update->records, LatentIterationRecord, delivered));
      if (update->snapshot)
        {
          g_clear_pointer (&self->outbox_snapshot, latent_snapshot_unref);
          self->outbox_snapshot = g_steal_pointer (&update->snapshot);
          self->worker_state = LATENT_RUN_RUNNING;
        }
      schedule_drain (self);
      g_mutex_unlock (&self->mutex);

      if (update->state == LATENT_FOLLOW_FINISHED)
        {
          finish (self, LATENT_RUN_FINISHED, NULL);
          return NULL;
        }
      if (update->state == LATENT_FOLLOW_FAILED)
        {
          finish (self, LATENT_RUN_FAILED, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_FAILED,
                                                                update->failure ? update->failure : ""));
          return NULL;
        }
      g_clear_pointer (&last, latent_follow_update_free);
      last = g_steal_pointer (&update);
    }
}

static void
latent_run_dispose (GObject *object)
{
  LatentRun *self = LATENT_RUN (object);

  if (self->thread)
    {
      /* Waits at most one iteration or one round of an initialisation:
       * both check the cancellable. */
      latent_run_stop (self);
      g_thread_join (g_steal_pointer (&self->thread));
    }
  if (self->outbox_source)
    {
      g_source_destroy (self->outbox_source);
      g_clear_pointer (&self->outbox_source, g_source_unref);
    }
  G_OBJECT_CLASS (latent_run_parent_class)->dispose (object);
}

static void
latent_run_finalize (GObject *object)
{
  LatentRun *self = LATENT_RUN (object);

  g_clear_object (&self->dataset);
  g_clear_pointer (&self->params, latent_params_unref);
  g_free (self->follow_path);
  g_clear_object (&self->cl);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_pointer (&self->outbox_records, g_array_unref);
  g_clear_pointer (&self->outbox_snapshot, latent_snapshot_unref);
  g_clear_error (&self->outbox_error);
  g_clear_pointer (&self->snapshot, latent_snapshot_unref);
  g_clear_pointer (&self->history, g_array_unref);
  g_mutex_clear (&self->mutex);
  g_cond_clear (&self->cond);

  G_OBJECT_CLASS (latent_run_parent_class)->finalize (object);
}

static void
latent_run_class_init (LatentRunClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = latent_run_dispose;
  object_class->finalize = latent_run_finalize;

  signals[ITERATION] = g_signal_new ("iteration", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                     0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);
  signals[SNAPSHOT] = g_signal_new ("snapshot", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                    0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);
  signals[FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                    0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_ERROR);
  /* (stage, done, total): a LatentInitStage and its rounds, while the
   * run initialises. */
  signals[INIT_PROGRESS] = g_signal_new ("init-progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                         0, NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_UINT, G_TYPE_UINT,
                                         G_TYPE_UINT);
}

static void
latent_run_init (LatentRun *self)
{
  g_mutex_init (&self->mutex);
  g_cond_init (&self->cond);
  self->cancellable = g_cancellable_new ();
  self->outbox_records = g_array_new (FALSE, FALSE, sizeof (LatentIterationRecord));
  self->history = g_array_new (FALSE, FALSE, sizeof (LatentIterationRecord));
  self->state = LATENT_RUN_INITIALISING;
  self->worker_state = LATENT_RUN_INITIALISING;
  self->pace_steps = 1;
}

LatentRun *
latent_run_new (const LatentAlgorithm *algorithm,
                LatentDataset         *dataset,
                LatentParams          *params,
                guint64                seed,
                LatentCl              *cl)
{
  return latent_run_new_at (algorithm, dataset, params, seed, cl, 0);
}

LatentRun *
latent_run_new_at (const LatentAlgorithm *algorithm,
                   LatentDataset         *dataset,
                   LatentParams          *params,
                   guint64                seed,
                   LatentCl              *cl,
                   guint                  iteration)
{
  LatentRun *self;

  g_return_val_if_fail (algorithm != NULL, NULL);
  g_return_val_if_fail (LATENT_IS_DATASET (dataset), NULL);
  g_return_val_if_fail (params != NULL, NULL);

  self = g_object_new (LATENT_TYPE_RUN, NULL);
  self->algorithm = algorithm;
  self->dataset = g_object_ref (dataset);
  /* Its own copy: the window edits its parameters while a replaced run
   * may still be working from them. */
  self->params = latent_params_copy (params);
  self->seed = seed;
  self->cl = cl ? g_object_ref (cl) : NULL;
  self->fast_forward = iteration;
  self->context = g_main_context_ref_thread_default ();
  self->thread = g_thread_new ("latent-worker", worker, self);
  return self;
}

LatentRun *
latent_run_new_following (const LatentAlgorithm *algorithm,
                          LatentDataset         *dataset,
                          LatentParams          *params,
                          guint64                seed,
                          const char            *path)
{
  LatentRun *self;

  g_return_val_if_fail (algorithm != NULL, NULL);
  g_return_val_if_fail (LATENT_IS_DATASET (dataset), NULL);
  g_return_val_if_fail (params != NULL && path != NULL, NULL);

  self = g_object_new (LATENT_TYPE_RUN, NULL);
  self->algorithm = algorithm;
  self->dataset = g_object_ref (dataset);
  self->params = latent_params_copy (params);
  self->seed = seed;
  self->follow_path = g_strdup (path);
  self->context = g_main_context_ref_thread_default ();
  self->thread = g_thread_new ("latent-follow", follow_worker, self);
  return self;
}

static void
command (LatentRun *self,
         int        steps_wanted)
{
  g_mutex_lock (&self->mutex);
  self->steps_wanted = steps_wanted;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->mutex);
}

void
latent_run_play (LatentRun *self)
{
  g_return_if_fail (LATENT_IS_RUN (self));
  command (self, -1);
}

void
latent_run_pause (LatentRun *self)
{
  g_return_if_fail (LATENT_IS_RUN (self));
  command (self, 0);
}

void
latent_run_step (LatentRun *self)
{
  g_return_if_fail (LATENT_IS_RUN (self));
  command (self, 1);
}

void
latent_run_stop (LatentRun *self)
{
  g_return_if_fail (LATENT_IS_RUN (self));
  g_mutex_lock (&self->mutex);
  self->stop = TRUE;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->mutex);
  g_cancellable_cancel (self->cancellable);
}

void
latent_run_set_speed (LatentRun *self,
                      double     per_second)
{
  g_return_if_fail (LATENT_IS_RUN (self));
  g_mutex_lock (&self->mutex);
  self->per_second = MAX (0, per_second);
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->mutex);
}

guint
latent_run_get_pace_steps (LatentRun *self)
{
  guint steps;

  g_return_val_if_fail (LATENT_IS_RUN (self), 1);
  g_mutex_lock (&self->mutex);
  steps = self->pace_steps;
  g_mutex_unlock (&self->mutex);
  return steps;
}

LatentRunState
latent_run_get_state (LatentRun *self)
{
  g_return_val_if_fail (LATENT_IS_RUN (self), LATENT_RUN_FAILED);
  return self->state;
}

LatentSnapshot *
latent_run_get_snapshot (LatentRun *self)
{
  g_return_val_if_fail (LATENT_IS_RUN (self), NULL);
  return self->snapshot;
}

const GArray *
latent_run_get_history (LatentRun *self)
{
  g_return_val_if_fail (LATENT_IS_RUN (self), NULL);
  return self->history;
}

double
latent_run_get_init_ms (LatentRun *self)
{
  double ms;

  g_return_val_if_fail (LATENT_IS_RUN (self), 0);
  g_mutex_lock (&self->mutex);
  ms = self->init_ms;
  g_mutex_unlock (&self->mutex);
  return ms;
}
