/* test-kmeans.c — k-means on the C reference path
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>

#include "latent-kmeans.h"
#include "latent-metrics.h"
#include "latent-test-util.h"

static LatentSnapshot *
fit (LatentDataset  *ds,
     LatentParams   *params,
     guint64         seed,
     LatentCl       *cl,
     GArray         *objectives)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentFit) result = latent_algorithm_fit (latent_kmeans_get_algorithm (), ds, params,
                                                      seed, cl, test_append_objective, objectives,
                                                      NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (result);
  return g_steal_pointer (&result->snapshot);
}

static LatentParams *
params_with (const char *first, ...)
{
  LatentParams *params = latent_algorithm_new_params (latent_kmeans_get_algorithm ());
  va_list args;

  va_start (args, first);
  for (const char *a = first; a; a = va_arg (args, const char *))
    {
      g_autoptr(GError) error = NULL;
      g_assert_true (latent_params_parse (params, a, &error));
      g_assert_no_error (error);
    }
  va_end (args);
  return params;
}

static void
test_recovers_blobs (void)
{
  g_autoptr(LatentDataset) ds = test_blobs (600, 2, 3, 0.5, 1);
  g_autoptr(LatentParams) params = params_with ("k=3", NULL);
  g_autoptr(GArray) objectives = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(LatentSnapshot) snap = fit (ds, params, 7, NULL, objectives);

  g_assert_true (snap->final);
  g_assert_true (snap->converged);
  g_assert_cmpuint (snap->clusters.k, ==, 3);
  g_assert_true (snap->has_label_metrics);
  g_assert_cmpfloat (snap->metrics.accuracy, ==, 1.0);
  g_assert_cmpfloat_with_epsilon (snap->metrics.ari, 1.0, 1e-12);
  /* Lloyd never increases the objective. */
  for (guint i = 1; i < objectives->len; i++)
    g_assert_cmpfloat (g_array_index (objectives, double, i), <=,
                       g_array_index (objectives, double, i - 1) * (1 + 1e-12));
  /* Inertia of 600 points with σ = 0.5 in 2-D: about 600 × 2 × 0.25. */
  g_assert_cmpfloat (snap->objective, >, 200);
  g_assert_cmpfloat (snap->objective, <, 400);
}

static void
test_inertia_matches_labels (void)
{
  g_autoptr(LatentDataset) ds = test_blobs (500, 5, 4, 2.0, 3);
  g_autoptr(LatentParams) params = params_with ("k=4", "init=random", NULL);
  g_autoptr(LatentSnapshot) snap = fit (ds, params, 11, NULL, NULL);
  const float *x = latent_dataset_get_data (ds);
  double inertia = 0;

  /* Labels are nearest centers and the inertia is their total distance. */
  for (guint i = 0; i < snap->n_rows; i++)
    {
      double best = G_MAXDOUBLE;
      gint32 label = -1;
      for (guint c = 0; c < snap->clusters.k; c++)
        {
          double dd = 0;
          for (guint f = 0; f < 5; f++)
            {
              double u = x[i * 5 + f] - snap->clusters.means[c * 5 + f];
              dd += u * u;
            }
          if (dd < best)
            best = dd, label = c;
        }
      g_assert_cmpint (label, ==, snap->clusters.labels[i]);
      inertia += best;
    }
  g_assert_cmpfloat_with_epsilon (inertia, snap->objective, 1e-6 * inertia);
}

static void
test_seeded (void)
{
  g_autoptr(LatentDataset) ds = test_blobs (300, 3, 5, 3.0, 5);
  g_autoptr(LatentParams) params = params_with ("k=5", NULL);
  g_autoptr(LatentSnapshot) a = fit (ds, params, 42, NULL, NULL);
  g_autoptr(LatentSnapshot) b = fit (ds, params, 42, NULL, NULL);
  g_autoptr(LatentParams) once = params_with ("k=5", "max-iterations=1", NULL);
  g_autoptr(LatentSnapshot) c = fit (ds, once, 42, NULL, NULL);
  g_autoptr(LatentSnapshot) d = fit (ds, once, 43, NULL, NULL);

  g_assert_cmpmem (a->clusters.labels, 300 * sizeof (gint32), b->clusters.labels, 300 * sizeof (gint32));
  g_assert_cmpmem (a->clusters.means, 15 * sizeof (float), b->clusters.means, 15 * sizeof (float));
  /* A different seed starts elsewhere. */
  g_assert_true (memcmp (c->clusters.means, d->clusters.means, 15 * sizeof (float)) != 0);
  g_assert_cmpuint (c->iteration, ==, 1);
  g_assert_false (c->converged);
}

static void
test_init_from_file (void)
{
  g_autoptr(LatentDataset) ds = test_blobs (200, 2, 2, 0.3, 9);
  g_autofree char *dir = g_dir_make_tmp ("latent-kmeans-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "centers.csv", NULL);
  g_autofree char *assignment = g_strdup_printf ("init=@%s", path);
  g_autoptr(LatentParams) params = params_with ("k=2", assignment, "max-iterations=1", NULL);
  const float *x = latent_dataset_get_data (ds);
  g_autofree char *text = g_strdup_printf ("%.9g,%.9g\n%.9g,%.9g\n", x[0], x[1], x[2], x[3]);
  g_autoptr(LatentSnapshot) snap = NULL;
  double sum[2][2] = { { 0 } };
  guint count[2] = { 0 };

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  snap = fit (ds, params, 0, NULL, NULL);

  /* One Lloyd iteration from rows 0 and 1: centers are the means of the
   * rows nearest to each. */
  for (guint i = 0; i < 200; i++)
    {
      double d0 = pow (x[2 * i] - x[0], 2) + pow (x[2 * i + 1] - x[1], 2);
      double d1 = pow (x[2 * i] - x[2], 2) + pow (x[2 * i + 1] - x[3], 2);
      int c = d1 < d0;
      sum[c][0] += x[2 * i];
      sum[c][1] += x[2 * i + 1];
      count[c]++;
    }
  for (int c = 0; c < 2; c++)
    for (int f = 0; f < 2; f++)
      g_assert_cmpfloat_with_epsilon (snap->clusters.means[2 * c + f], sum[c][f] / count[c], 1e-5);

  g_unlink (path);
  g_rmdir (dir);
}

static void
test_bad_parameters (void)
{
  const LatentAlgorithm *alg = latent_kmeans_get_algorithm ();
  g_autoptr(LatentDataset) ds = test_blobs (10, 2, 2, 1.0, 1);
  g_autoptr(LatentParams) params = params_with ("k=11", NULL);
  g_autoptr(GError) error = NULL;
  gpointer state;

  state = alg->init (ds, params, 0, NULL, NULL, &error);
  g_assert_null (state);
  g_assert_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER);
  g_assert_nonnull (strstr (error->message, "parameter k"));
  g_clear_error (&error);

  g_assert_false (latent_params_parse (params, "k=0", &error));
  g_assert_error (error, LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "k"));
  g_clear_error (&error);

  g_assert_false (latent_params_parse (params, "clusters=3", &error));
  g_assert_error (error, LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_UNKNOWN);
  g_assert_nonnull (strstr (error->message, "clusters"));
  g_clear_error (&error);

  g_assert_true (latent_params_parse (params, "k=3", NULL));
  g_assert_true (latent_params_parse (params, "init=@/nonexistent/centers.csv", NULL));
  state = alg->init (ds, params, 0, NULL, NULL, &error);
  g_assert_null (state);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "/nonexistent/centers.csv"));
}

/* k-means++ checks the cancellable between centers: a start over many
 * clusters ends at once when the run is stopped, and says why. */
static void
test_init_cancelled (void)
{
  const LatentAlgorithm *alg = latent_kmeans_get_algorithm ();
  g_autoptr(LatentDataset) ds = test_blobs (500, 3, 4, 1.0, 2);
  g_autoptr(LatentParams) params = params_with ("k=400", NULL);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;

  g_cancellable_cancel (cancellable);
  g_assert_null (alg->init (ds, params, 0, NULL, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* Values so far apart that squared distances overflow a float: refused,
 * naming the data (it "converged" to an inertia of inf); a thousandth of
 * that range still runs. */
static void
test_overflowing_values (void)
{
  const LatentAlgorithm *alg = latent_kmeans_get_algorithm ();
  g_autoptr(LatentDataset) ds = test_blobs (40, 2, 2, 1.0, 3);
  g_autoptr(LatentParams) params = params_with ("k=2", NULL);
  g_autoptr(GError) error = NULL;
  float *x = latent_dataset_get_data (ds);
  gpointer state;

  for (guint i = 0; i < 80; i++)
    x[i] *= 1e29f;
  g_assert_null (alg->init (ds, params, 0, NULL, NULL, &error));
  g_assert_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_DATA);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "test blobs"));
  g_assert_nonnull (strstr (error->message, "overflow"));
  g_clear_error (&error);

  for (guint i = 0; i < 80; i++)
    x[i] *= 1e-12f;
  state = alg->init (ds, params, 0, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (state);
  {
    g_autoptr(LatentRows) rows = latent_rows_new_for_dataset (ds, 0);

    g_assert_true (latent_algorithm_step (alg, state, rows, NULL, &error));
  }
  g_assert_no_error (error);
  g_assert_true (isfinite (alg->objective (state)));
  alg->free (state);
}

static void
test_empty_cluster_reseeded (void)
{
  /* Three tight groups, but the file starts two centers far away from all
   * data: after the first assignment they are empty and must be re-seeded. */
  g_autoptr(LatentDataset) ds = test_blobs (90, 2, 3, 0.1, 4);
  g_autofree char *dir = g_dir_make_tmp ("latent-kmeans-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "centers.csv", NULL);
  g_autofree char *assignment = g_strdup_printf ("init=@%s", path);
  g_autoptr(LatentParams) params = params_with ("k=3", assignment, "max-iterations=1", NULL);
  g_autoptr(LatentSnapshot) snap = NULL;

  g_assert_true (g_file_set_contents (path, "0,0\n1000,1000\n-1000,1000\n", -1, NULL));
  snap = fit (ds, params, 0, NULL, NULL);
  for (guint c = 0; c < 3; c++)
    g_assert_cmpuint (snap->clusters.cluster_sizes[c], >, 0);
  g_assert_nonnull (snap->message);
  g_assert_nonnull (strstr (snap->message, "2 empty clusters re-seeded"));
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_duplicate_rows (void)
{
  /* Fewer distinct rows than clusters: no crash, no NaN. */
  g_autoptr(LatentDataset) ds = latent_dataset_new ("dup", 20, 2, NULL);
  g_autoptr(LatentParams) params = params_with ("k=5", NULL);
  g_autoptr(LatentSnapshot) snap = NULL;
  float *x = latent_dataset_get_data (ds);

  for (guint i = 0; i < 20; i++)
    x[2 * i] = i % 2, x[2 * i + 1] = 0;
  snap = fit (ds, params, 1, NULL, NULL);
  g_assert_true (isfinite (snap->objective));
  g_assert_cmpfloat (snap->objective, ==, 0);
  for (guint i = 0; i < 10; i++)
    g_assert_true (isfinite (snap->clusters.means[i]));
}

/* A snapshot's labels and centers belong together: after every step each
 * row is labelled with its nearest center of the same snapshot, and the
 * inertia is theirs (the live view drew the labels of the previous
 * assignment under the new centers and regions). */
static void
test_snapshots_coherent (void)
{
  /* Overlapping blobs: rows change cluster for many iterations. */
  g_autoptr(LatentDataset) ds = test_blobs (1500, 2, 4, 4.0, 6);
  const char *inits[] = { "init=random", "init=kmeans++" };

  for (guint i = 0; i < G_N_ELEMENTS (inits); i++)
    {
      g_autoptr(LatentParams) params = params_with ("k=4", inits[i], NULL);
      guint steps = test_assert_snapshots_coherent (latent_kmeans_get_algorithm (), ds, params, 5, NULL, TRUE);

      g_assert_cmpuint (steps, >, 3);
    }
}

/* Multiple restarts (issue 13, item 16): start r runs from seed + r, and
 * the run ends where the best of those single starts ends — never worse
 * than the run's own seed alone. */
static void
test_restarts (void)
{
  /* Eight blobs and random starts: some seeds merge two blobs and split
   * another, a local optimum Lloyd does not leave. */
  g_autoptr(LatentDataset) ds = test_blobs (800, 2, 8, 0.6, 2);
  g_autoptr(LatentParams) single = params_with ("k=8", "init=random", NULL);
  g_autoptr(LatentParams) five = params_with ("k=8", "init=random", "restarts=5", NULL);
  g_autoptr(GArray) objectives = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(LatentSnapshot) best = NULL;
  g_autoptr(LatentSnapshot) winner = NULL;
  const guint64 seed = 3;
  double lowest = G_MAXDOUBLE, highest = 0, first = 0;
  guint argmin = 0;

  for (guint r = 0; r < 5; r++)
    {
      g_autoptr(LatentSnapshot) one = fit (ds, single, seed + r, NULL, NULL);

      g_test_message ("seed %" G_GUINT64_FORMAT ": inertia %.6f", seed + r, one->objective);
      g_assert_cmpuint (one->clusters.n_starts, ==, 0);
      if (r == 0)
        first = one->objective;
      if (one->objective < lowest)
        lowest = one->objective, argmin = r;
      highest = MAX (highest, one->objective);
    }
  /* The data has a bad local optimum among these seeds, and the run's
   * own seed is not the best of them. */
  g_assert_cmpfloat (highest, >, 1.2 * lowest);
  g_assert_cmpfloat (first, >, lowest);

  best = fit (ds, five, seed, NULL, objectives);
  g_test_message ("best of 5: %.6f (%s)", best->objective, best->message);
  g_assert_cmpfloat (best->objective, ==, lowest);
  g_assert_cmpfloat (best->objective, <=, first);
  g_assert_cmpuint (best->seed, ==, seed);
  g_assert_cmpuint (best->clusters.n_starts, ==, 5);
  g_assert_cmpuint (best->clusters.best_start, ==, argmin);
  g_assert_nonnull (best->clusters.start_objectives);
  for (guint r = 0; r < 5; r++)
    {
      g_autoptr(LatentSnapshot) one = fit (ds, single, seed + r, NULL, NULL);
      g_assert_cmpfloat (best->clusters.start_objectives[r], ==, one->objective);
    }
  g_assert_nonnull (best->message);
  g_assert_nonnull (strstr (best->message, "Best of 5 starts"));
  /* The live run is the winner's, iteration by iteration. */
  winner = fit (ds, single, seed + argmin, NULL, NULL);
  g_assert_cmpmem (best->clusters.labels, 800 * sizeof (gint32), winner->clusters.labels, 800 * sizeof (gint32));
  g_assert_cmpmem (best->clusters.means, 16 * sizeof (float), winner->clusters.means, 16 * sizeof (float));
  g_assert_cmpuint (best->iteration, ==, winner->iteration);
  g_assert_cmpuint (objectives->len, ==, winner->iteration);
  test_assert_snapshots_coherent (latent_kmeans_get_algorithm (), ds, five, seed, NULL, TRUE);
}

/* restarts=1 is the run it always was; a start from a file runs once. */
static void
test_restarts_one (void)
{
  g_autoptr(LatentDataset) ds = test_blobs (300, 3, 5, 3.0, 5);
  g_autoptr(LatentParams) plain = params_with ("k=5", NULL);
  g_autoptr(LatentParams) one = params_with ("k=5", "restarts=1", NULL);
  g_autoptr(LatentSnapshot) a = fit (ds, plain, 42, NULL, NULL);
  g_autoptr(LatentSnapshot) b = fit (ds, one, 42, NULL, NULL);
  g_autoptr(LatentParams) zero = latent_algorithm_new_params (latent_kmeans_get_algorithm ());
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (latent_params_get_int (plain, "restarts"), ==, 1);
  g_assert_cmpfloat (a->objective, ==, b->objective);
  g_assert_cmpmem (a->clusters.labels, 300 * sizeof (gint32), b->clusters.labels, 300 * sizeof (gint32));
  g_assert_cmpmem (a->clusters.means, 15 * sizeof (float), b->clusters.means, 15 * sizeof (float));
  g_assert_cmpuint (b->clusters.n_starts, ==, 0);
  g_assert_null (b->clusters.start_objectives);
  g_assert_null (b->message);

  g_assert_false (latent_params_parse (zero, "restarts=0", &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "restarts"));
  g_clear_error (&error);
  g_assert_false (latent_params_parse (zero, "restarts=101", &error));
  g_assert_nonnull (error);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/kmeans/recovers-blobs", test_recovers_blobs);
  g_test_add_func ("/kmeans/inertia-matches-labels", test_inertia_matches_labels);
  g_test_add_func ("/kmeans/seeded", test_seeded);
  g_test_add_func ("/kmeans/init-from-file", test_init_from_file);
  g_test_add_func ("/kmeans/bad-parameters", test_bad_parameters);
  g_test_add_func ("/kmeans/init-cancelled", test_init_cancelled);
  g_test_add_func ("/kmeans/overflowing-values", test_overflowing_values);
  g_test_add_func ("/kmeans/empty-cluster-reseeded", test_empty_cluster_reseeded);
  g_test_add_func ("/kmeans/duplicate-rows", test_duplicate_rows);
  g_test_add_func ("/kmeans/snapshots-coherent", test_snapshots_coherent);
  g_test_add_func ("/kmeans/restarts", test_restarts);
  g_test_add_func ("/kmeans/restarts-one", test_restarts_one);
  return g_test_run ();
}
