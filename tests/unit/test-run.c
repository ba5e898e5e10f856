/* test-run.c — the worker thread: commands, snapshots, cancellation
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "latent-kmeans.h"
#include "latent-run.h"
#include "latent-test-util.h"

typedef struct {
  GMainLoop *loop;
  guint      iterations;
  guint      snapshots;
  guint      last_iteration;
  gboolean   finished;
  GError    *error;
} Watch;

static void
on_iteration (LatentRun *run, LatentIterationRecord *record, Watch *w)
{
  g_assert_cmpuint (record->iteration, ==, w->iterations + 1);
  w->iterations++;
}

static void
on_snapshot (LatentRun *run, LatentSnapshot *snap, Watch *w)
{
  /* Snapshots arrive in order, never from the future. */
  g_assert_cmpuint (snap->iteration, >=, w->last_iteration);
  g_assert_cmpuint (snap->iteration, <=, w->iterations);
  w->last_iteration = snap->iteration;
  w->snapshots++;
  if (w->loop && snap->iteration > 0 && !snap->final)
    g_main_loop_quit (w->loop);
}

static void
on_finished (LatentRun *run, GError *error, Watch *w)
{
  w->finished = TRUE;
  if (error)
    w->error = g_error_copy (error);
  if (w->loop)
    g_main_loop_quit (w->loop);
}

/* @w hears @run's iterations, snapshots and end. */
static void
watch (LatentRun *run, Watch *w)
{
  g_signal_connect (run, "iteration", G_CALLBACK (on_iteration), w);
  g_signal_connect (run, "snapshot", G_CALLBACK (on_snapshot), w);
  g_signal_connect (run, "finished", G_CALLBACK (on_finished), w);
}

static LatentRun *
new_run_on (Watch *w, LatentDataset *ds, const char *k, const char *iterations)
{
  const LatentAlgorithm *alg = latent_kmeans_get_algorithm ();
  g_autoptr(LatentParams) params = latent_algorithm_new_params (alg);
  LatentRun *run;

  g_assert_true (latent_params_parse (params, k, NULL));
  g_assert_true (latent_params_parse (params, iterations, NULL));
  g_assert_true (latent_params_parse (params, "tol=0", NULL));
  run = latent_run_new (alg, ds, params, 1, NULL);
  watch (run, w);
  return run;
}

static LatentRun *
new_run (Watch *w, const char *k, const char *iterations, guint n)
{
  g_autoptr(LatentDataset) ds = test_blobs (n, 2, 4, 2.0, 1);

  return new_run_on (w, ds, k, iterations);
}

static void
wait_until (gboolean *flag)
{
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while (!*flag && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (*flag);
}

static void
test_play_to_the_end (void)
{
  Watch w = { 0 };
  g_autoptr(LatentRun) run = new_run (&w, "k=4", "max-iterations=30", 2000);
  LatentSnapshot *snap;
  const GArray *history;

  latent_run_play (run);
  wait_until (&w.finished);
  g_assert_no_error (w.error);
  g_assert_cmpint (latent_run_get_state (run), ==, LATENT_RUN_FINISHED);
  snap = latent_run_get_snapshot (run);
  g_assert_nonnull (snap);
  g_assert_true (snap->final);
  /* Every iteration is in the history; the last snapshot is the last one. */
  history = latent_run_get_history (run);
  g_assert_cmpuint (history->len, ==, w.iterations);
  g_assert_cmpuint (snap->iteration, ==, w.iterations);
  g_assert_cmpfloat (g_array_index (history, LatentIterationRecord, history->len - 1).objective,
                     ==, snap->objective);
  /* Newest wins: a fast run may deliver only its last snapshot. */
  g_assert_cmpuint (w.snapshots, >=, 1);
  g_assert_cmpuint (w.snapshots, <=, w.iterations + 1);
}

static void
test_step_and_pause (void)
{
  Watch w = { 0 };
  g_autoptr(LatentRun) run = new_run (&w, "k=4", "max-iterations=1000", 2000);

  /* Initialisation alone: iteration 0, then the worker waits. */
  while (w.snapshots == 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (w.last_iteration, ==, 0);

  for (guint i = 1; i <= 3; i++)
    {
      latent_run_step (run);
      while (w.last_iteration < i)
        g_main_context_iteration (NULL, TRUE);
      g_assert_cmpuint (w.iterations, ==, i);
    }
  /* Paused after stepping: nothing more happens. */
  g_usleep (50 * 1000);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (w.iterations, ==, 3);
  g_assert_cmpint (latent_run_get_state (run), ==, LATENT_RUN_PAUSED);
  g_assert_false (w.finished);
}

/* A paused run sleeps: its worker posted an empty drain to the main
 * context, was woken by it, and posted another, so a paused window kept a
 * core and a half busy (80 % of the main thread, 27 % of the worker). */
static void
test_paused_is_idle (void)
{
  Watch w = { 0 };
  g_autoptr(LatentRun) run = new_run (&w, "k=4", "max-iterations=1000", 2000);
  gint64 end;
  guint dispatched = 0;

  while (w.snapshots == 0)
    g_main_context_iteration (NULL, TRUE);
  g_usleep (50 * 1000);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  end = g_get_monotonic_time () + 300 * 1000;
  while (g_get_monotonic_time () < end)
    {
      dispatched += g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  g_test_message ("%u dispatches in 300 ms while paused", dispatched);
  g_assert_cmpuint (dispatched, <=, 2);
  g_assert_cmpint (latent_run_get_state (run), ==, LATENT_RUN_PAUSED);
}

static void
test_stop_is_prompt (void)
{
  Watch w = { 0 };
  g_autoptr(LatentRun) run = new_run (&w, "k=16", "max-iterations=100000", 50000);
  gint64 t0;

  /* A slow speed limit, then stop: the worker must not finish the budget. */
  latent_run_set_speed (run, 20);
  latent_run_play (run);
  while (w.iterations < 2)
    g_main_context_iteration (NULL, TRUE);
  t0 = g_get_monotonic_time ();
  latent_run_stop (run);
  wait_until (&w.finished);
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 5 * G_USEC_PER_SEC);
  g_assert_no_error (w.error);
  g_assert_cmpint (latent_run_get_state (run), ==, LATENT_RUN_STOPPED);
  g_assert_cmpuint (w.iterations, <, 100);
}

/* Stop while the run is still choosing its start, here twenty whole fits
 * of k-means (restarts), which took minutes and could not be stopped: the
 * window's Reset left them burning both cores, and quitting waited for
 * them. The run stops within a step of one of them, with no snapshot, and
 * says it stopped rather than failed. */
static void
test_stop_while_initialising (void)
{
  const LatentAlgorithm *alg = latent_kmeans_get_algorithm ();
  g_autoptr(LatentParams) params = latent_algorithm_new_params (alg);
  g_autoptr(LatentDataset) ds = test_blobs (20000, 8, 8, 2.0, 3);
  g_autoptr(LatentRun) run = NULL;
  Watch w = { 0 };
  gint64 t0;

  g_assert_true (latent_params_parse (params, "k=200", NULL));
  g_assert_true (latent_params_parse (params, "restarts=20", NULL));
  g_assert_true (latent_params_parse (params, "tol=0", NULL));
  run = latent_run_new (alg, ds, params, 1, NULL);
  watch (run, &w);
  latent_run_play (run);
  g_usleep (200 * 1000);
  g_assert_cmpint (latent_run_get_state (run), ==, LATENT_RUN_INITIALISING);

  t0 = g_get_monotonic_time ();
  latent_run_stop (run);
  wait_until (&w.finished);
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 5 * G_USEC_PER_SEC);
  g_assert_no_error (w.error);
  g_assert_cmpint (latent_run_get_state (run), ==, LATENT_RUN_STOPPED);
  g_assert_cmpuint (w.snapshots, ==, 0);
  g_assert_cmpuint (w.iterations, ==, 0);
}

typedef struct {
  guint signals, stages[2], last_done, last_total;
} Progress;

static void
on_init_progress (LatentRun *run, guint stage, guint done, guint total, Progress *p)
{
  g_assert_cmpuint (stage, <, 2);
  g_assert_cmpuint (done, <, total);
  p->signals++;
  p->stages[stage]++;
  p->last_done = done;
  p->last_total = total;
}

/* A run's start says how far it is: the restarts, not the k-means++ inside
 * each of them; with one start, the k-means++ centers. */
static void
test_init_progress (void)
{
  const char *settings[][2] = { { "k=8", "restarts=6" }, { "k=300", "restarts=1" } };

  for (guint c = 0; c < G_N_ELEMENTS (settings); c++)
    {
      const LatentAlgorithm *alg = latent_kmeans_get_algorithm ();
      g_autoptr(LatentParams) params = latent_algorithm_new_params (alg);
      g_autoptr(LatentDataset) ds = test_blobs (3000, 4, 8, 2.0, 3);
      g_autoptr(LatentRun) run = NULL;
      Progress p = { 0 };
      Watch w = { 0 };

      g_assert_true (latent_params_parse (params, settings[c][0], NULL));
      g_assert_true (latent_params_parse (params, settings[c][1], NULL));
      g_assert_true (latent_params_parse (params, "max-iterations=2", NULL));
      run = latent_run_new (alg, ds, params, 1, NULL);
      g_signal_connect (run, "init-progress", G_CALLBACK (on_init_progress), &p);
      g_signal_connect (run, "finished", G_CALLBACK (on_finished), &w);
      latent_run_play (run);
      wait_until (&w.finished);
      g_assert_no_error (w.error);
      g_assert_cmpuint (p.signals, >=, 1);
      if (c == 0)
        {
          g_assert_cmpuint (p.stages[LATENT_INIT_CENTERS], ==, 0);
          g_assert_cmpuint (p.last_total, ==, 6);
        }
      else
        {
          g_assert_cmpuint (p.stages[LATENT_INIT_STARTS], ==, 0);
          g_assert_cmpuint (p.last_total, ==, 300);
        }
    }
}

static void
test_speed_limit (void)
{
  Watch w = { 0 };
  g_autoptr(LatentRun) run = new_run (&w, "k=4", "max-iterations=6", 500);
  gint64 t0 = g_get_monotonic_time ();

  /* 6 iterations at 50 per second take at least 5 intervals of 20 ms. */
  latent_run_set_speed (run, 50);
  latent_run_play (run);
  wait_until (&w.finished);
  g_assert_cmpint (g_get_monotonic_time () - t0, >=, 100 * 1000);
  g_assert_cmpuint (w.iterations, ==, 6);
}

static void
test_failed_init (void)
{
  Watch w = { 0 };
  g_autoptr(LatentRun) run = new_run (&w, "k=50", "max-iterations=10", 10);

  latent_run_play (run);
  wait_until (&w.finished);
  g_assert_error (w.error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER);
  g_assert_cmpint (latent_run_get_state (run), ==, LATENT_RUN_FAILED);
  g_assert_cmpuint (w.iterations, ==, 0);
  g_clear_error (&w.error);
}

static void
test_drop_while_running (void)
{
  Watch w = { 0 };
  LatentDataset *ds = test_blobs (20000, 2, 4, 2.0, 1);
  LatentRun *run = new_run_on (&w, ds, "k=16", "max-iterations=100000");
  Watch before;
  gint64 t0, deadline;

  /* The worker holds the dataset, and so does every snapshot: once the run
   * is gone, none of them may be left. */
  g_object_add_weak_pointer (G_OBJECT (run), (gpointer *) &run);
  g_object_add_weak_pointer (G_OBJECT (ds), (gpointer *) &ds);
  g_object_unref (ds);

  /* At 20 a second the budget would take more than an hour. */
  latent_run_set_speed (run, 20);
  latent_run_play (run);
  while (w.iterations < 2)
    g_main_context_iteration (NULL, TRUE);

  /* The last reference goes while the worker runs: it stops and joins
   * within an iteration, and the run is finalised at once. */
  t0 = g_get_monotonic_time ();
  g_object_unref (run);
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 5 * G_USEC_PER_SEC);
  g_assert_null (run);
  g_assert_null (ds);

  /* What the worker had queued is dropped, not delivered. */
  before = w;
  deadline = g_get_monotonic_time () + 100 * 1000;
  while (g_get_monotonic_time () < deadline)
    {
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (5 * 1000);
    }
  g_assert_cmpuint (w.iterations, ==, before.iterations);
  g_assert_cmpuint (w.snapshots, ==, before.snapshots);
  g_assert_false (w.finished);
  g_assert_null (w.error);
}

/* A run that goes on from iteration 3 of an earlier one with a larger
 * budget: its first snapshot is iteration 3 with the same state, its history
 * has every iteration, and it goes on to the new budget on the same path. */
static void
test_go_on_from (void)
{
  const LatentAlgorithm *alg = latent_kmeans_get_algorithm ();
  g_autoptr(LatentDataset) ds = test_blobs (3000, 2, 8, 3.0, 5);
  g_autoptr(LatentParams) short_params = latent_algorithm_new_params (alg);
  g_autoptr(LatentParams) long_params = NULL;
  g_autoptr(LatentFit) whole = NULL;
  g_autoptr(LatentRun) run = NULL;
  Watch w = { 0 };
  LatentSnapshot *first = NULL;
  const GArray *history;

  g_assert_true (latent_params_parse (short_params, "k=8", NULL));
  g_assert_true (latent_params_parse (short_params, "init=random", NULL));
  g_assert_true (latent_params_parse (short_params, "tol=0", NULL));
  long_params = latent_params_copy (short_params);
  g_assert_true (latent_params_parse (short_params, "max-iterations=3", NULL));
  g_assert_true (latent_params_parse (long_params, "max-iterations=6", NULL));
  whole = latent_algorithm_fit (alg, ds, long_params, 2, NULL, NULL, NULL, NULL, NULL);
  g_assert_nonnull (whole);
  /* The data must not converge before the budget, or there is no "on". */
  g_assert_cmpuint (whole->history->len, ==, 6);

  run = latent_run_new_at (alg, ds, long_params, 2, NULL, 3);
  g_signal_connect (run, "iteration", G_CALLBACK (on_iteration), &w);
  g_signal_connect (run, "finished", G_CALLBACK (on_finished), &w);
  while (latent_run_get_snapshot (run) == NULL)
    g_main_context_iteration (NULL, TRUE);
  first = latent_run_get_snapshot (run);
  g_assert_cmpuint (first->iteration, ==, 3);
  g_assert_cmpfloat_with_epsilon (first->objective, g_array_index (whole->history, LatentIterationRecord, 2).objective,
                                  1e-9 * whole->snapshot->objective);
  latent_run_play (run);
  wait_until (&w.finished);
  g_assert_no_error (w.error);
  history = latent_run_get_history (run);
  g_assert_cmpuint (history->len, ==, 6);
  for (guint i = 0; i < 6; i++)
    g_assert_cmpfloat_with_epsilon (g_array_index (history, LatentIterationRecord, i).objective,
                                    g_array_index (whole->history, LatentIterationRecord, i).objective,
                                    1e-9 * whole->snapshot->objective);
  g_assert_cmpmem (latent_run_get_snapshot (run)->clusters.labels, 3000 * sizeof (gint32),
                   whole->snapshot->clusters.labels, 3000 * sizeof (gint32));
}

/* ---- a counting algorithm: what the worker asks of a step and a snapshot ----
 *
 * Its state after step i is a value only the state knows (x_i, a chaotic
 * map), its objective a cheap scalar of it; a snapshot costs a count. */
typedef struct {
  guint  iteration, passes;
  double x;
  guint  snapshots;   /* built */
  gint64 step_us, snapshot_us, snapshot_max_us;   /* time spent in them */
} Counter;

static volatile guint counter_snapshots;  /* of the last freed state */
static gint64 counter_step_us, counter_snapshot_us, counter_snapshot_max_us;   /* likewise */
static guint counter_init_ms;             /* how long initialisation takes */
static guint counter_snapshot_ms;         /* how long a snapshot takes */

static double
counter_next (double x)
{
  return 3.9 * x * (1 - x);
}

static gpointer
counter_init (LatentDataset *ds, LatentParams *params, guint64 seed, LatentCl *cl, GCancellable *cancellable,
              GError **error)
{
  Counter *c = g_new0 (Counter, 1);

  g_usleep (counter_init_ms * 1000);
  c->passes = latent_params_get_int (params, "iterations");
  c->x = 0.25;
  return c;
}

static gboolean
counter_step (gpointer state, GCancellable *cancellable, GError **error)
{
  Counter *c = state;
  const gint64 start = g_get_monotonic_time ();

  /* A millisecond a step: a frame holds about sixteen. */
  g_usleep (1000);
  c->x = counter_next (c->x);
  c->iteration++;
  c->step_us += g_get_monotonic_time () - start;
  return TRUE;
}

static LatentAlgorithm counter_algorithm;
static LatentDataset *counter_dataset;

static LatentSnapshot *
counter_snapshot (gpointer state)
{
  Counter *c = state;
  const gint64 start = g_get_monotonic_time ();
  LatentSnapshot *snap = latent_snapshot_new (&counter_algorithm, counter_dataset, NULL);
  gint64 took;

  g_usleep (counter_snapshot_ms * 1000);
  took = g_get_monotonic_time () - start;
  c->snapshot_us += took;
  c->snapshot_max_us = MAX (c->snapshot_max_us, took);
  c->snapshots++;
  snap->iteration = c->iteration;
  snap->final = snap->converged = c->iteration >= c->passes;
  snap->objective = c->x;
  return snap;
}

static double
counter_objective (gpointer state)
{
  return ((Counter *) state)->x;
}

static gboolean
counter_converged (gpointer state)
{
  Counter *c = state;

  return c->iteration >= c->passes;
}

static void
counter_free (gpointer state)
{
  Counter *c = state;

  counter_snapshots = c->snapshots;
  counter_step_us = c->step_us;
  counter_snapshot_us = c->snapshot_us;
  counter_snapshot_max_us = c->snapshot_max_us;
  g_free (state);
}

static const LatentParamSpec counter_params[] = {
  { .name = "iterations", .type = LATENT_PARAM_INT,
    .label = "Steps",
    .tooltip = "Steps",
    .min = 1, .max = 100000, .default_value = 1 },
};

static void
counter_setup (LatentDataset *ds)
{
  counter_algorithm = (LatentAlgorithm) {
    .id = "counter", .title = "counter", .short_title = "counter", .objective_name = "x",
    .family = LATENT_FAMILY_CLUSTERS, .params = counter_params, .n_params = G_N_ELEMENTS (counter_params),
    .init = counter_init, .step = counter_step, .snapshot = counter_snapshot,
    .objective = counter_objective, .converged = counter_converged, .free = counter_free,
  };
  counter_dataset = ds;
  counter_init_ms = 0;
  counter_snapshot_ms = 0;
}

/* Snapshots are due about once a frame, so a run of N quick steps builds
 * far fewer than N; yet the history has every step's objective, in order
 * and exact, and the last snapshot is the exact final state. */
static void
test_snapshots_only_when_due (void)
{
  const guint steps = 300;
  g_autoptr(LatentDataset) ds = test_blobs (10, 2, 1, 1.0, 1);
  g_autoptr(LatentParams) params = NULL;
  g_autoptr(LatentRun) run = NULL;
  Watch w = { 0 };
  const GArray *history;
  LatentSnapshot *last;
  double x = 0.25;

  counter_setup (ds);
  params = latent_algorithm_new_params (&counter_algorithm);
  g_assert_true (latent_params_set_int (params, "iterations", steps, NULL));

  run = latent_run_new (&counter_algorithm, ds, params, 1, NULL);
  watch (run, &w);
  latent_run_play (run);
  wait_until (&w.finished);
  g_assert_no_error (w.error);
  g_clear_object (&run);   /* joins the worker, which frees the state */

  /* At least 300 ms of steps at most a snapshot a frame (the first, after
   * initialisation, and the last besides): about 20, never one a step. */
  g_test_message ("%u steps, %u snapshots built, %u delivered", steps, counter_snapshots, w.snapshots);
  g_assert_cmpuint (counter_snapshots, >=, 2);
  g_assert_cmpuint (counter_snapshots, <=, steps / 4);
  g_assert_cmpuint (w.snapshots, <=, counter_snapshots);
  g_assert_cmpuint (w.iterations, ==, steps);

  run = latent_run_new (&counter_algorithm, ds, params, 1, NULL);
  w = (Watch) { 0 };
  watch (run, &w);
  latent_run_play (run);
  wait_until (&w.finished);
  history = latent_run_get_history (run);
  g_assert_cmpuint (history->len, ==, steps);
  for (guint i = 0; i < steps; i++)
    {
      const LatentIterationRecord *record = &g_array_index (history, LatentIterationRecord, i);

      x = counter_next (x);
      g_assert_cmpuint (record->iteration, ==, i + 1);
      g_assert_cmpfloat (record->objective, ==, x);
    }
  last = latent_run_get_snapshot (run);
  g_assert_nonnull (last);
  g_assert_true (last->final);
  g_assert_cmpuint (last->iteration, ==, steps);
  g_assert_cmpfloat (last->objective, ==, x);
  g_clear_object (&run);

  /* Without a worker (the CLI's loop): one snapshot, the last. */
  {
    g_autoptr(LatentFit) fit = latent_algorithm_fit (&counter_algorithm, ds, params, 1, NULL, NULL, NULL, NULL, NULL);

    g_assert_nonnull (fit);
    g_assert_cmpuint (counter_snapshots, ==, 1);
    g_assert_cmpuint (fit->history->len, ==, steps);
    g_assert_cmpfloat (g_array_index (fit->history, LatentIterationRecord, steps - 1).objective, ==, x);
    g_assert_cmpfloat (fit->snapshot->objective, ==, x);
    g_assert_cmpuint (fit->snapshot->iteration, ==, steps);
  }
}

static void
on_seen (LatentRun *run, LatentSnapshot *snap, guint *seen)
{
  *seen |= 1u << MIN (snap->iteration, 31);
}

/* Which of STEPS iterations of the counter are shown, bit i for iteration
 * i, when it runs at PER_SECOND. */
static guint
shown_at_speed (LatentDataset *ds,
                guint          steps,
                double         per_second)
{
  g_autoptr(LatentParams) params = latent_algorithm_new_params (&counter_algorithm);
  g_autoptr(LatentRun) run = NULL;
  Watch w = { 0 };
  guint seen = 0;

  g_assert_true (latent_params_set_int (params, "iterations", steps, NULL));
  run = latent_run_new (&counter_algorithm, ds, params, 1, NULL);
  g_signal_connect (run, "finished", G_CALLBACK (on_finished), &w);
  g_signal_connect (run, "snapshot", G_CALLBACK (on_seen), &seen);
  latent_run_set_speed (run, per_second);
  latent_run_play (run);
  wait_until (&w.finished);
  g_assert_no_error (w.error);
  g_test_message ("iterations shown: 0x%x", seen);
  return seen;
}

/* With a speed limit a step is shown before the next is due, so the
 * timeline can go back to every one: also the first step of a run asked to
 * play while it initialised, whose initialisation outlasted an interval
 * (the first step used to follow the initial snapshot within a frame, and
 * iteration 1 was never shown). */
static void
test_every_step_seen_at_speed (void)
{
  g_autoptr(LatentDataset) ds = test_blobs (10, 2, 1, 1.0, 1);

  counter_setup (ds);
  counter_init_ms = 300;
  /* 5 a second: the main loop has 200 ms to take each snapshot in. */
  g_assert_cmphex (shown_at_speed (ds, 5, 5), ==, (1u << 6) - 1);
}

/* A snapshot dearer than twenty steps (a 4K image copied back) takes at
 * most a tenth of the steps' time, besides the first and the last, which
 * are always made (with a third, as before, 400 steps of 1.1 ms took 1.6
 * ms each); yet at a speed limit whose wait holds it, every step is still
 * shown. */
static void
test_snapshots_within_a_tenth (void)
{
  g_autoptr(LatentDataset) ds = test_blobs (10, 2, 1, 1.0, 1);
  g_autoptr(LatentParams) params = NULL;
  g_autoptr(LatentRun) run = NULL;
  Watch w = { 0 };

  counter_setup (ds);
  counter_snapshot_ms = 20;
  params = latent_algorithm_new_params (&counter_algorithm);
  g_assert_true (latent_params_set_int (params, "iterations", 400, NULL));
  run = latent_run_new (&counter_algorithm, ds, params, 1, NULL);
  watch (run, &w);
  latent_run_play (run);
  wait_until (&w.finished);
  g_assert_no_error (w.error);
  g_clear_object (&run);

  g_test_message ("steps %.1f ms, %u snapshots %.1f ms (the longest %.1f ms)", counter_step_us / 1e3,
                  counter_snapshots, counter_snapshot_us / 1e3, counter_snapshot_max_us / 1e3);
  g_assert_cmpuint (w.iterations, ==, 400);
  /* The first, the last, and at least one while the steps ran. */
  g_assert_cmpuint (counter_snapshots, >=, 3);
  g_assert_cmpint (counter_snapshot_us, <=, counter_step_us / 10 + 3 * counter_snapshot_max_us);

  /* 20 a second: a snapshot fits in the 49 ms the worker waits. */
  g_assert_cmphex (shown_at_speed (ds, 5, 20), ==, (1u << 6) - 1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/run/play-to-the-end", test_play_to_the_end);
  g_test_add_func ("/run/step-and-pause", test_step_and_pause);
  g_test_add_func ("/run/paused-is-idle", test_paused_is_idle);
  g_test_add_func ("/run/stop-is-prompt", test_stop_is_prompt);
  g_test_add_func ("/run/stop-while-initialising", test_stop_while_initialising);
  g_test_add_func ("/run/init-progress", test_init_progress);
  g_test_add_func ("/run/speed-limit", test_speed_limit);
  g_test_add_func ("/run/failed-init", test_failed_init);
  g_test_add_func ("/run/drop-while-running", test_drop_while_running);
  g_test_add_func ("/run/go-on-from", test_go_on_from);
  g_test_add_func ("/run/snapshots-only-when-due", test_snapshots_only_when_due);
  g_test_add_func ("/run/every-step-seen-at-speed", test_every_step_seen_at_speed);
  g_test_add_func ("/run/snapshots-within-a-tenth", test_snapshots_within_a_tenth);
  return g_test_run ();
}
