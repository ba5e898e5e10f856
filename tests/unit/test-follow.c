/* test-follow.c — a run written to a folder and read back (--follow)
 *
 * Every family's snapshot crosses the run file unchanged: what a reader
 * decodes encodes to the writer's very bytes. A damaged file (cut short
 * anywhere, or bytes changed) is refused with a message, never read past
 * its arrays (run under ASan in the sanitizer suite). A run file of other
 * data is refused naming the shapes, and a writer that died is noticed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "latent-catalog.h"
#include "latent-codec.h"
#include "latent-follow.h"
#include "latent-family.h"
#include "latent-registry.h"
#include "latent-test-files.h"
#include "latent-test-util.h"

typedef struct {
  LatentFollowWriter    *writer;
  const char            *path;
  const LatentAlgorithm *algorithm;
  LatentDataset         *dataset;
  LatentParams          *params;
  guint                  frames;
} Following;

static GBytes *
encode (LatentSnapshot *snapshot)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autoptr(LatentCodec) codec = latent_codec_new_writer (out);

  latent_codec_snapshot (codec, snapshot);
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

static void
on_record (const LatentIterationRecord *record,
           gpointer                     user_data)
{
  Following *following = user_data;

  latent_follow_writer_add_record (following->writer, record);
}

/* Each frame written, then read as a window would, and compared. */
static void
on_frame (LatentSnapshot *snapshot,
          gpointer        user_data)
{
  Following *following = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentFollowUpdate) update = NULL;
  g_autoptr(GBytes) written = encode (snapshot);
  g_autoptr(GBytes) read = NULL;

  g_assert_true (latent_follow_writer_write (following->writer, LATENT_FOLLOW_RUNNING, snapshot, 1.5, NULL, &error));
  g_assert_no_error (error);
  update = latent_follow_read (following->path, following->algorithm, following->dataset, following->params, &error);
  g_assert_no_error (error);
  g_assert_nonnull (update->snapshot);
  g_assert_cmpint (update->state, ==, LATENT_FOLLOW_RUNNING);
  g_assert_cmpfloat (update->init_ms, ==, 1.5);
  g_assert_cmpuint (update->records->len, ==, snapshot->iteration);
  g_assert_true (update->snapshot->dataset == following->dataset);
  g_assert_cmpuint (update->snapshot->iteration, ==, snapshot->iteration);
  read = encode (update->snapshot);
  g_assert_true (g_bytes_equal (written, read));
  g_assert_cmpuint (latent_snapshot_get_size (update->snapshot), ==, latent_snapshot_get_size (snapshot));
  following->frames++;
}

/* Runs @id on @dataset with @settings, every frame through the run file;
 * the run file's path in @path. */
static void
follow_run (Fixture       *f,
            const char    *id,
            LatentDataset *dataset,
            const char    *settings)
{
  const LatentAlgorithm *algorithm = latent_registry_lookup (id, NULL);
  g_auto(GStrv) each = g_strsplit (settings, " ", -1);
  g_autoptr(LatentParams) params = latent_algorithm_new_params (algorithm);
  g_autoptr(LatentExperiment) experiment = NULL;
  g_autoptr(LatentFollowWriter) writer = NULL;
  g_autoptr(LatentFollowUpdate) update = NULL;
  g_autoptr(LatentFit) fit = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (f->dir, LATENT_FOLLOW_RUN, NULL);
  g_autofree char *told = g_build_filename (f->dir, LATENT_FOLLOW_EXPERIMENT, NULL);
  g_autoptr(LatentExperiment) back = NULL;
  Following following = { NULL };

  for (guint i = 0; each[i] && *each[i]; i++)
    {
      latent_params_parse (params, each[i], &error);
      g_assert_no_error (error);
    }
  experiment = latent_experiment_new ("blobs", NULL, algorithm, params, 7, "off");
  writer = latent_follow_writer_new (f->dir, experiment, &error);
  g_assert_no_error (error);
  back = latent_experiment_load (told, &error);
  g_assert_no_error (error);
  g_assert_true (back->algorithm == algorithm);
  g_assert_cmpuint (back->seed, ==, 7);

  following = (Following) { writer, path, algorithm, dataset, params, 0 };
  fit = latent_algorithm_fit_full (algorithm, dataset, params, 7, NULL, on_record, on_frame, 1, &following,
                                   NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (following.frames, >=, 2);

  g_assert_true (latent_follow_writer_write (writer, LATENT_FOLLOW_FINISHED, NULL, 1.5, NULL, &error));
  update = latent_follow_read (path, algorithm, dataset, params, &error);
  g_assert_no_error (error);
  g_assert_cmpint (update->state, ==, LATENT_FOLLOW_FINISHED);
  g_assert_cmpuint (update->records->len, ==, fit->history->len);
  for (guint i = 0; i < fit->history->len; i++)
    {
      LatentIterationRecord *a = &g_array_index (update->records, LatentIterationRecord, i);
      LatentIterationRecord *b = &g_array_index (fit->history, LatentIterationRecord, i);

      g_assert_cmpuint (a->iteration, ==, b->iteration);
      g_assert_cmpfloat (a->objective, ==, b->objective);
      g_assert_cmpfloat (a->step_ms, ==, b->step_ms);
    }
  g_assert_true (update->snapshot->final);
  g_assert_false (latent_follow_update_writer_gone (update));
}

static void
test_clusters (Fixture *f, gconstpointer data)
{
  g_autoptr(LatentDataset) ds = test_blobs (300, 3, 4, 1.0, 1);

  follow_run (f, "kmeans", ds, "k=4 restarts=3");
}

static void
test_mixtures (Fixture *f, gconstpointer data)
{
  g_autoptr(LatentDataset) ds = test_blobs (300, 3, 3, 1.0, 2);

  follow_run (f, "gmm", ds, "k=3 max-iterations=20");
}

static void
test_linear (Fixture *f, gconstpointer data)
{
  g_autoptr(LatentDataset) ds = test_blobs (200, 6, 3, 1.0, 3);

  follow_run (f, "pca", ds, "components=3");
  follow_run (f, "ppca", ds, "components=2 max-iterations=15");
  follow_run (f, "fa", ds, "components=2 max-iterations=15");
}

static void
test_autoencoders (Fixture *f, gconstpointer data)
{
  g_autoptr(LatentDataset) ds = test_blobs (200, 16, 4, 1.0, 4);

  follow_run (f, "wta", ds, "hidden=8 epochs=3 batch=50");
}

static void
test_classifiers (Fixture *f, gconstpointer data)
{
  g_autoptr(LatentDataset) ds = test_blobs (300, 5, 3, 2.0, 5);

  follow_run (f, "logreg", ds, "epochs=4 optimizer=adam");
  follow_run (f, "prototype", ds, "");
}

static void
test_filters (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentDataset) image = latent_catalog_load ("pattern:width=64,height=48", NULL, &error);

  g_assert_no_error (error);
  follow_run (f, "convolve", image, "filter=gaussian");
}

/* A k-means run file, and what reads it. */
static GBytes *
kmeans_run_file (Fixture        *f,
                 LatentDataset  *ds,
                 LatentParams  **params)
{
  const LatentAlgorithm *kmeans = latent_registry_lookup ("kmeans", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (f->dir, LATENT_FOLLOW_RUN, NULL);
  g_autofree char *contents = NULL;
  gsize size;

  *params = test_params (kmeans, "k=3", NULL);
  follow_run (f, "kmeans", ds, "k=3");
  g_file_get_contents (path, &contents, &size, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (g_steal_pointer (&contents), size);
}

static void
test_damaged (Fixture *f, gconstpointer data)
{
  const LatentAlgorithm *kmeans = latent_registry_lookup ("kmeans", NULL);
  g_autoptr(LatentDataset) ds = test_blobs (120, 2, 3, 1.0, 6);
  g_autoptr(LatentParams) params = NULL;
  g_autoptr(GBytes) good = kmeans_run_file (f, ds, &params);
  g_autofree char *path = g_build_filename (f->dir, "damaged.latent", NULL);
  gsize size;
  const guint8 *bytes = g_bytes_get_data (good, &size);
  g_autofree guint8 *copy = g_memdup2 (bytes, size);
  guint64 state = 11;
  guint refused = 0;

  /* Cut short anywhere: refused, naming the file. */
  for (gsize cut = 0; cut < size; cut += 1 + cut / 16)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(LatentFollowUpdate) update = NULL;

      g_assert_true (g_file_set_contents (path, (const char *) bytes, cut, NULL));
      update = latent_follow_read (path, kmeans, ds, params, &error);
      g_assert_null (update);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
      g_assert_nonnull (strstr (error->message, "damaged.latent"));
    }
  /* Bytes changed: read or refused, never past an array. */
  for (guint trial = 0; trial < 3000; trial++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(LatentFollowUpdate) update = NULL;
      gsize at = 16 + (gsize) (test_uniform (&state) * (size - 16));

      memcpy (copy, bytes, size);
      copy[at] ^= (guint8) (1 + test_uniform (&state) * 254);
      g_assert_true (g_file_set_contents (path, (const char *) copy, size, NULL));
      update = latent_follow_read (path, kmeans, ds, params, &error);
      if (update == NULL)
        {
          g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
          refused++;
          continue;
        }
      /* What was read holds to its shape. */
      if (update->snapshot && latent_clusters_get_labels (update->snapshot))
        for (guint i = 0; i < update->snapshot->n_rows; i++)
          g_assert_cmpuint ((guint) latent_clusters_get_labels (update->snapshot)[i], <, update->snapshot->clusters.k);
    }
  g_assert_cmpuint (refused, >, 0);
}

static void
test_other_data (Fixture *f, gconstpointer data)
{
  const LatentAlgorithm *kmeans = latent_registry_lookup ("kmeans", NULL);
  g_autoptr(LatentDataset) ds = test_blobs (120, 2, 3, 1.0, 6);
  g_autoptr(LatentDataset) other = test_blobs (100, 2, 3, 1.0, 6);
  g_autoptr(LatentParams) params = NULL;
  g_autoptr(GBytes) good = kmeans_run_file (f, ds, &params);
  g_autofree char *path = g_build_filename (f->dir, LATENT_FOLLOW_RUN, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentFollowUpdate) update = latent_follow_read (path, kmeans, other, params, &error);

  g_assert_null (update);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, "120 rows × 2 columns"));
  g_clear_error (&error);
  /* A run of another algorithm than the experiment says. */
  update = latent_follow_read (path, latent_registry_lookup ("gmm", NULL), ds, params, &error);
  g_assert_null (update);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, "kmeans"));
}

static void
test_writer_gone (Fixture *f, gconstpointer data)
{
  LatentFollowUpdate update = { .state = LATENT_FOLLOW_RUNNING, .host = (char *) g_get_host_name () };
  pid_t child = fork ();
  int status;

  if (child == 0)
    _exit (0);
  g_assert_cmpint (waitpid (child, &status, 0), ==, child);
  update.pid = (guint) child;
  g_assert_true (latent_follow_update_writer_gone (&update));
  update.pid = (guint) getpid ();
  g_assert_false (latent_follow_update_writer_gone (&update));
  /* Finished runs and writers elsewhere are not asked after. */
  update.pid = (guint) child;
  update.state = LATENT_FOLLOW_FINISHED;
  g_assert_false (latent_follow_update_writer_gone (&update));
  update.state = LATENT_FOLLOW_RUNNING;
  update.host = (char *) "another-machine.example";
  g_assert_false (latent_follow_update_writer_gone (&update));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  ADD ("/follow/round-trip/clusters", test_clusters);
  ADD ("/follow/round-trip/mixtures", test_mixtures);
  ADD ("/follow/round-trip/linear-models", test_linear);
  ADD ("/follow/round-trip/autoencoders", test_autoencoders);
  ADD ("/follow/round-trip/classifiers", test_classifiers);
  ADD ("/follow/round-trip/filters", test_filters);
  ADD ("/follow/damaged", test_damaged);
  ADD ("/follow/other-data", test_other_data);
  ADD ("/follow/writer-gone", test_writer_gone);
  return g_test_run ();
}
