/* test-session.c — a session without a display: runs, the timeline, going
 * on past a finished run, refused parameters, test data
 *
 * What the window's Run, Step, Back and timeline do, driven through the
 * session (engine/run/latent-session.c) on the C reference path, with the
 * main loop turning as a window's would.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "latent-family.h"
#include "latent-follow.h"
#include "latent-registry.h"
#include "latent-session.h"
#include "latent-test-util.h"

typedef gboolean (*Until) (LatentSession *session, gpointer data);

/* Turns the main loop until @until holds; fails after a minute. */
static void
wait_until (LatentSession *session,
            Until          until,
            gpointer       data)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  while (!until (session, data))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, TRUE);
    }
}

static gboolean
ended (LatentSession *session,
       gpointer       data)
{
  return latent_session_get_end (session) != NULL;
}

static gboolean
shows_iteration (LatentSession *session,
                 gpointer       data)
{
  LatentSnapshot *shown = latent_session_get_shown (session);

  return shown != NULL && shown->iteration == GPOINTER_TO_UINT (data);
}

/* A session on @n rows of blobs, k-means with @k, on the reference path. */
static LatentSession *
kmeans_session (guint   n,
                guint   k,
                double  spread)
{
  LatentSession *session = latent_session_new ();
  g_autoptr(LatentDataset) dataset = test_blobs (n, 2, k, spread, 3);
  g_autoptr(GError) error = NULL;

  g_assert_true (latent_session_set_device (session, "off", &error));
  g_assert_no_error (error);
  g_assert_null (latent_session_get_cl (session));
  latent_session_set_algorithm (session, latent_registry_lookup ("kmeans", NULL), NULL);
  latent_session_set_dataset (session, dataset, NULL);
  return session;
}

static void
count_signal (LatentSession *session,
              guint          value,
              guint         *count)
{
  (*count)++;
}

static void
remember_from (LatentSession *session,
               guint          from,
               guint         *where)
{
  *where = from;
}

static void
test_run_to_convergence (void)
{
  g_autoptr(LatentSession) session = kmeans_session (300, 3, 0.5);
  LatentFrames *frames = latent_session_get_frames (session);
  LatentSnapshot *shown;

  /* Set up, not playing: the first frame comes, paused. */
  wait_until (session, shows_iteration, GUINT_TO_POINTER (0));
  g_assert_cmpint (latent_session_get_state (session), ==, LATENT_SESSION_PAUSED);
  g_assert_true (latent_session_can_play (session));
  g_assert_false (latent_session_can_pause (session));

  latent_session_play (session);
  g_assert_true (latent_session_get_running (session));
  wait_until (session, ended, NULL);
  g_assert_cmpstr (latent_session_get_end (session), ==, "converged");
  g_assert_cmpint (latent_session_get_state (session), ==, LATENT_SESSION_FINISHED);
  g_assert_false (latent_session_get_running (session));

  /* The timeline follows to the end: the newest frame is shown, and every
   * iteration is in the history. */
  shown = latent_session_get_shown (session);
  g_assert_true (shown == latent_frames_get_newest (frames));
  g_assert_true (shown->final);
  g_assert_cmpuint (shown->iteration, ==, latent_session_get_newest (session));
  g_assert_cmpuint (latent_session_get_position (session), ==, shown->iteration);
  g_assert_cmpuint (latent_session_get_history (session)->len, ==, shown->iteration);
  g_assert_cmpuint (latent_frames_get_n_frames (frames), >=, 2);
  /* Converged with a tolerance above 0: Run goes on past it. */
  g_assert_true (latent_session_can_play (session));
  g_assert_null (latent_session_get_going_on_note (session));
}

static void
test_step_back_and_go_on (void)
{
  g_autoptr(LatentSession) session = kmeans_session (400, 6, 3.0);
  LatentFrames *frames = latent_session_get_frames (session);
  guint started = 0, from = G_MAXUINT;
  gint64 budget;

  g_assert_true (latent_params_set_double (latent_session_get_params (session), "tol", 0, NULL));
  g_assert_true (latent_params_set_int (latent_session_get_params (session), "max-iterations", 300, NULL));
  budget = latent_params_get_int (latent_session_get_params (session), "max-iterations");
  latent_session_restart (session, FALSE);
  g_signal_connect (session, "run-started", G_CALLBACK (count_signal), &started);
  g_signal_connect (session, "went-on", G_CALLBACK (remember_from), &from);
  wait_until (session, shows_iteration, GUINT_TO_POINTER (0));

  /* Each Step brings one iteration, and a frame for it. */
  for (guint i = 1; i <= 3; i++)
    {
      latent_session_step (session);
      wait_until (session, shows_iteration, GUINT_TO_POINTER (i));
    }
  g_assert_cmpuint (latent_frames_get_n_frames (frames), ==, 4);
  g_assert_false (latent_session_get_running (session));

  /* Back goes through the kept frames; Step then takes the next kept one
   * without computing it again. */
  latent_session_back (session);
  latent_session_back (session);
  g_assert_cmpuint (latent_session_get_shown (session)->iteration, ==, 1);
  g_assert_cmpuint (latent_session_get_position (session), ==, 1);
  g_assert_false (latent_frames_get_follow (frames));
  latent_session_step (session);
  g_assert_cmpuint (latent_session_get_shown (session)->iteration, ==, 2);
  g_assert_cmpuint (from, ==, G_MAXUINT);
  g_assert_cmpuint (latent_frames_get_n_frames (frames), ==, 4);

  /* Scrubbed back to 1, Run goes on from there: the frames after it go,
   * the new run replays to 1 unseen and runs to the end. */
  latent_session_set_position (session, 1);
  g_assert_true (latent_session_can_play (session));
  latent_session_play (session);
  g_assert_cmpuint (from, ==, 1);
  g_assert_cmpuint (started, ==, 0);
  g_assert_cmpuint (latent_frames_get_newest_iteration (frames), <=, 1);
  wait_until (session, ended, NULL);
  g_assert_cmpstr (latent_session_get_end (session), ==, "converged");
  g_assert_cmpuint (latent_session_get_shown (session)->iteration, >, 3);
  /* With the values it had: the person's are untouched, nothing to say. */
  g_assert_null (latent_session_get_going_on_note (session));
  g_assert_cmpint (latent_params_get_int (latent_session_get_params (session), "max-iterations"), ==, budget);
}

static void
test_go_on_past_the_budget (void)
{
  g_autoptr(LatentSession) session = kmeans_session (400, 6, 3.0);
  LatentParams *params = latent_session_get_params (session);
  guint from = G_MAXUINT;

  g_assert_true (latent_params_set_double (params, "tol", 0, NULL));
  g_assert_true (latent_params_set_int (params, "max-iterations", 2, NULL));
  g_signal_connect (session, "went-on", G_CALLBACK (remember_from), &from);
  latent_session_restart (session, TRUE);
  wait_until (session, ended, NULL);
  g_assert_cmpstr (latent_session_get_end (session), ==, "iteration limit reached");
  g_assert_cmpuint (latent_session_get_shown (session)->iteration, ==, 2);

  /* Run goes on, to twice the budget, for this run only. */
  g_assert_true (latent_session_can_play (session));
  latent_session_play (session);
  g_assert_cmpuint (from, ==, 2);
  g_assert_nonnull (strstr (latent_session_get_going_on_note (session), "up to 4 iterations"));
  wait_until (session, ended, NULL);
  g_assert_cmpuint (latent_session_get_shown (session)->iteration, ==, 4);
  g_assert_cmpint (latent_params_get_int (params, "max-iterations"), ==, 2);
  g_assert_cmpuint (latent_session_get_history (session)->len, ==, 4);

  /* A new run starts from the person's values, and says nothing more. */
  latent_session_restart (session, TRUE);
  g_assert_null (latent_session_get_going_on_note (session));
  wait_until (session, ended, NULL);
  g_assert_cmpuint (latent_session_get_shown (session)->iteration, ==, 2);
}

static void
test_refused_parameters (void)
{
  g_autoptr(LatentSession) session = kmeans_session (50, 3, 0.5);
  LatentParams *params = latent_session_get_params (session);

  wait_until (session, shows_iteration, GUINT_TO_POINTER (0));
  /* More clusters than rows: refused before any worker starts, and the
   * last picture goes with the run. */
  g_assert_true (latent_params_set_int (params, "k", 51, NULL));
  latent_session_edited (session);
  g_assert_nonnull (strstr (latent_session_get_refusal (session), "k"));
  g_assert_cmpint (latent_session_get_state (session), ==, LATENT_SESSION_FAILED);
  g_assert_cmpstr (latent_session_get_end (session), ==, "failed");
  g_assert_null (latent_session_get_shown (session));
  g_assert_false (latent_session_can_play (session));
  g_assert_false (latent_session_can_step (session));

  /* Put right, the refusal goes and a run starts. */
  g_assert_true (latent_params_set_int (params, "k", 3, NULL));
  latent_session_edited (session);
  g_assert_null (latent_session_get_refusal (session));
  wait_until (session, shows_iteration, GUINT_TO_POINTER (0));
}

/* Each algorithm keeps its values while another is chosen. */
static void
test_parameters_kept_per_algorithm (void)
{
  g_autoptr(LatentSession) session = kmeans_session (50, 3, 0.5);
  LatentParams *kmeans = latent_session_get_params (session);

  g_assert_true (latent_params_set_int (kmeans, "k", 5, NULL));
  latent_session_set_algorithm (session, latent_registry_lookup ("gmm", NULL), NULL);
  g_assert_true (latent_session_get_params (session) != kmeans);
  latent_session_set_algorithm (session, latent_registry_lookup ("kmeans", NULL), NULL);
  g_assert_true (latent_session_get_params (session) == kmeans);
  g_assert_cmpint (latent_params_get_int (latent_session_get_params (session), "k"), ==, 5);
}

/* Test data restarts only a run that is judged on it. */
static void
test_test_data (void)
{
  g_autoptr(LatentSession) session = kmeans_session (300, 3, 0.5);
  g_autoptr(LatentDataset) test = test_blobs (60, 2, 3, 0.5, 4);
  g_autoptr(GError) error = NULL;
  LatentSnapshot *finished;
  guint started = 0;

  latent_session_restart (session, TRUE);
  wait_until (session, ended, NULL);
  finished = latent_session_get_shown (session);
  g_signal_connect (session, "run-started", G_CALLBACK (count_signal), &started);
  g_assert_true (latent_session_set_test_data (session, test, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (started, ==, 0);
  g_assert_true (latent_session_get_shown (session) == finished);

  latent_session_set_algorithm (session, latent_registry_lookup ("prototype", NULL), NULL);
  latent_session_restart (session, TRUE);
  wait_until (session, ended, NULL);
  started = 0;
  g_assert_true (latent_session_set_test_data (session, NULL, &error));
  g_assert_cmpuint (started, ==, 1);
}

static gboolean
is_state (LatentSession *session,
          gpointer       data)
{
  return latent_session_get_state (session) == (LatentSessionState) GPOINTER_TO_INT (data);
}

static void
collect_frame (LatentSnapshot *snapshot,
               gpointer        user_data)
{
  g_ptr_array_add (user_data, latent_snapshot_ref (snapshot));
}

static void
collect_record (const LatentIterationRecord *record,
                gpointer                     user_data)
{
}

/* Counts in @controls[0] the notifications, in [1] those after which a
 * control (Run, Pause, Step) would be offered. */
static void
record_controls (LatentSession *session,
                 GParamSpec    *pspec,
                 guint         *controls)
{
  controls[0]++;
  if (latent_session_can_play (session) || latent_session_can_pause (session) || latent_session_can_step (session))
    controls[1]++;
}

/* A run written by latent-cli's writer, as it goes, followed: the same
 * frames, history and end as a run of the session's own. */
static void
test_follow (void)
{
  g_autoptr(LatentSession) session = kmeans_session (300, 3, 0.5);
  const LatentAlgorithm *kmeans = latent_session_get_algorithm (session);
  LatentParams *params = latent_session_get_params (session);
  LatentDataset *dataset = latent_session_get_dataset (session);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("latent-follow-XXXXXX", &error);
  g_autofree char *run = g_build_filename (dir, LATENT_FOLLOW_RUN, NULL);
  g_autofree char *told = g_build_filename (dir, LATENT_FOLLOW_EXPERIMENT, NULL);
  g_autoptr(LatentExperiment) experiment = latent_experiment_new ("blobs", NULL, kmeans, params, 0, "off");
  g_autoptr(LatentFollowWriter) writer = latent_follow_writer_new (dir, experiment, &error);
  g_autoptr(GPtrArray) frames = g_ptr_array_new_with_free_func ((GDestroyNotify) latent_snapshot_unref);
  g_autoptr(LatentFit) fit = latent_algorithm_fit_full (kmeans, dataset, params, 0, NULL, collect_record,
                                                        collect_frame, 1, frames, NULL, &error);
  guint controls[2] = { 0, 0 };   /* notifications, those with a control on */
  LatentSnapshot *shown;

  g_assert_no_error (error);
  g_assert_cmpuint (frames->len, >=, 3);
  g_assert_true (latent_follow_writer_write (writer, LATENT_FOLLOW_INITIALISING, NULL, 0, NULL, &error));
  /* What the controls read when told the run changed: already followed
   * (they were told while the folder was still unset, and kept Pause). */
  g_signal_connect (session, "notify::running", G_CALLBACK (record_controls), controls);
  g_signal_connect (session, "notify::state", G_CALLBACK (record_controls), controls);
  latent_session_follow (session, dir);
  g_assert_cmpuint (controls[0], >, 0);
  g_assert_cmpuint (controls[1], ==, 0);
  g_signal_handlers_disconnect_by_func (session, record_controls, controls);
  g_assert_cmpstr (latent_session_get_following (session), ==, dir);
  /* Followed, the run is not the session's to play, pause or step. */
  g_assert_false (latent_session_can_play (session));
  g_assert_false (latent_session_can_pause (session));
  g_assert_false (latent_session_can_step (session));

  /* The start, then one iteration at a time, as latent-cli writes them. */
  for (guint i = 0; i + 1 < frames->len; i++)
    {
      LatentSnapshot *frame = frames->pdata[i];

      if (frame->iteration > 0)
        latent_follow_writer_add_record (writer, &g_array_index (fit->history, LatentIterationRecord,
                                                                 frame->iteration - 1));
      g_assert_true (latent_follow_writer_write (writer, LATENT_FOLLOW_RUNNING, frame, 0, NULL, &error));
      wait_until (session, shows_iteration, GUINT_TO_POINTER (frame->iteration));
      g_assert_cmpint (latent_session_get_state (session), ==, LATENT_SESSION_RUNNING);
      g_assert_cmpuint (latent_session_get_history (session)->len, ==, frame->iteration);
    }
  latent_follow_writer_add_record (writer, &g_array_index (fit->history, LatentIterationRecord, fit->history->len - 1));
  g_assert_true (latent_follow_writer_write (writer, LATENT_FOLLOW_FINISHED, fit->snapshot, 0, NULL, &error));
  wait_until (session, ended, NULL);
  g_assert_cmpstr (latent_session_get_end (session), ==, "converged");
  g_assert_cmpint (latent_session_get_state (session), ==, LATENT_SESSION_FINISHED);
  shown = latent_session_get_shown (session);
  g_assert_cmpuint (shown->iteration, ==, fit->snapshot->iteration);
  g_assert_cmpfloat (shown->objective, ==, fit->snapshot->objective);
  g_assert_cmpmem (latent_clusters_get_labels (shown), 300 * sizeof (gint32),
                   latent_clusters_get_labels (fit->snapshot), 300 * sizeof (gint32));
  g_assert_cmpuint (latent_session_get_history (session)->len, ==, fit->history->len);
  g_assert_cmpuint (latent_frames_get_n_frames (latent_session_get_frames (session)), ==, frames->len);

  /* A new run of the session's own ends the following. */
  latent_session_restart (session, FALSE);
  g_assert_null (latent_session_get_following (session));
  g_assert_cmpint (g_unlink (run), ==, 0);
  g_assert_cmpint (g_unlink (told), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* A writer that died mid-run, and a run that failed, fail the following
 * with a message; a damaged file names itself. */
static void
test_follow_ends (void)
{
  g_autoptr(LatentSession) session = kmeans_session (100, 3, 0.5);
  const LatentAlgorithm *kmeans = latent_session_get_algorithm (session);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("latent-follow-XXXXXX", &error);
  g_autofree char *run = g_build_filename (dir, LATENT_FOLLOW_RUN, NULL);
  g_autofree char *told = g_build_filename (dir, LATENT_FOLLOW_EXPERIMENT, NULL);
  g_autoptr(LatentExperiment) experiment =
    latent_experiment_new ("blobs", NULL, kmeans, latent_session_get_params (session), 0, "off");
  pid_t child;
  int status;

  /* A process that writes that it runs, and exits. */
  child = fork ();
  if (child == 0)
    {
      LatentFollowWriter *writer = latent_follow_writer_new (dir, experiment, NULL);

      _exit (writer && latent_follow_writer_write (writer, LATENT_FOLLOW_RUNNING, NULL, 0, NULL, NULL) ? 0 : 1);
    }
  g_assert_cmpint (waitpid (child, &status, 0), ==, child);
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  latent_session_follow (session, dir);
  wait_until (session, is_state, GINT_TO_POINTER (LATENT_SESSION_FAILED));
  g_assert_nonnull (strstr (latent_session_get_failure (session), "ended without finishing the run"));

  {
    g_autoptr(LatentFollowWriter) writer = latent_follow_writer_new (dir, experiment, &error);

    g_assert_true (latent_follow_writer_write (writer, LATENT_FOLLOW_FAILED, NULL, 0, "rank 1: out of memory", &error));
    latent_session_follow (session, dir);
    wait_until (session, is_state, GINT_TO_POINTER (LATENT_SESSION_FAILED));
    g_assert_cmpstr (latent_session_get_failure (session), ==, "rank 1: out of memory");
  }

  g_assert_true (g_file_set_contents (run, "LATENTRN\x04\x03\x02\x01\x01\0\0\0garbage", 23, NULL));
  latent_session_follow (session, dir);
  wait_until (session, is_state, GINT_TO_POINTER (LATENT_SESSION_FAILED));
  g_assert_nonnull (strstr (latent_session_get_failure (session), LATENT_FOLLOW_RUN));
  g_assert_nonnull (strstr (latent_session_get_failure (session), "damaged"));
  g_assert_cmpint (g_unlink (run), ==, 0);
  g_assert_cmpint (g_unlink (told), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* Following on new data starts no run of the session's own first: one
 * run starts, the followed one (set_dataset then follow started two). */
static void
test_follow_on (void)
{
  g_autoptr(LatentSession) session = latent_session_new ();
  const LatentAlgorithm *kmeans = latent_registry_lookup ("kmeans", NULL);
  g_autoptr(LatentDataset) dataset = test_blobs (200, 2, 3, 0.5, 3);
  g_autoptr(LatentParams) params = latent_algorithm_new_params (kmeans);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("latent-follow-XXXXXX", &error);
  g_autofree char *run = g_build_filename (dir, LATENT_FOLLOW_RUN, NULL);
  g_autofree char *told = g_build_filename (dir, LATENT_FOLLOW_EXPERIMENT, NULL);
  g_autoptr(LatentExperiment) experiment = latent_experiment_new ("blobs", NULL, kmeans, params, 0, "off");
  g_autoptr(LatentFollowWriter) writer = latent_follow_writer_new (dir, experiment, &error);
  g_autoptr(LatentFit) fit = latent_algorithm_fit (kmeans, dataset, params, 0, NULL, NULL, NULL, NULL, &error);
  guint started = 0;

  g_assert_no_error (error);
  g_assert_true (latent_session_set_device (session, "off", &error));
  latent_session_set_algorithm (session, kmeans, params);
  for (guint i = 0; i < fit->history->len; i++)
    latent_follow_writer_add_record (writer, &g_array_index (fit->history, LatentIterationRecord, i));
  g_assert_true (latent_follow_writer_write (writer, LATENT_FOLLOW_FINISHED, fit->snapshot, 0, NULL, &error));
  g_signal_connect (session, "run-started", G_CALLBACK (count_signal), &started);
  latent_session_follow_on (session, dataset, NULL, dir);
  g_assert_true (latent_session_get_dataset (session) == dataset);
  wait_until (session, ended, NULL);
  g_assert_cmpuint (started, ==, 1);
  g_assert_cmpint (latent_session_get_state (session), ==, LATENT_SESSION_FINISHED);
  g_assert_cmpuint (latent_session_get_history (session)->len, ==, fit->history->len);
  g_assert_cmpint (g_unlink (run), ==, 0);
  g_assert_cmpint (g_unlink (told), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/session/run-to-convergence", test_run_to_convergence);
  g_test_add_func ("/session/step-back-and-go-on", test_step_back_and_go_on);
  g_test_add_func ("/session/go-on-past-the-budget", test_go_on_past_the_budget);
  g_test_add_func ("/session/refused-parameters", test_refused_parameters);
  g_test_add_func ("/session/parameters-kept-per-algorithm", test_parameters_kept_per_algorithm);
  g_test_add_func ("/session/test-data", test_test_data);
  g_test_add_func ("/session/follow", test_follow);
  g_test_add_func ("/session/follow-ends", test_follow_ends);
  g_test_add_func ("/session/follow-on", test_follow_on);
  return g_test_run ();
}
