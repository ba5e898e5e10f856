/* test-gmm.c — Gaussian mixtures on the C reference path
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <math.h>

#include "latent-catalog.h"
#include "latent-gmm.h"
#include "latent-metrics.h"
#include "latent-synthetic.h"
#include "latent-test-util.h"

static LatentSnapshot *
fit (LatentDataset *ds,
     GArray        *history,
     guint64        seed,
     const char    *first,
     ...)
{
  const LatentAlgorithm *alg = latent_gmm_get_algorithm ();
  g_autoptr(LatentParams) params = latent_algorithm_new_params (alg);
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentFit) result = NULL;
  va_list args;

  va_start (args, first);
  for (const char *a = first; a; a = va_arg (args, const char *))
    g_assert_true (latent_params_parse (params, a, NULL));
  va_end (args);

  result = latent_algorithm_fit (alg, ds, params, seed, NULL, test_append_objective, history, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (result);
  return g_steal_pointer (&result->snapshot);
}

static void
assert_finite (LatentSnapshot *snap)
{
  const gsize d = snap->n_cols;

  g_assert_true (isfinite (snap->mixture.log_likelihood));
  g_assert_true (isfinite (snap->mixture.bic));
  g_assert_true (isfinite (snap->mixture.aic));
  for (gsize i = 0; i < snap->clusters.k * d; i++)
    g_assert_true (isfinite (snap->clusters.means[i]));
  for (gsize i = 0; i < snap->clusters.k * latent_snapshot_covariance_values (snap); i++)
    g_assert_true (isfinite (snap->mixture.covariances[i]));
  for (guint c = 0; c < snap->clusters.k; c++)
    g_assert_true (isfinite (snap->mixture.weights[c]) && snap->mixture.weights[c] >= 0);
}

/* Blobs drawn from a known mixture: the fitted means are the true ones,
 * once components are matched to blobs. */
static void
test_recovers_mixture (gconstpointer data)
{
  const char *covariance = data;
  g_autoptr(LatentBlobsTruth) truth = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentDataset) ds = latent_synthetic_blobs_with_truth (3000, 2, 3, 5, &truth, &error);
  g_autofree char *cov = g_strdup_printf ("covariance=%s", covariance);
  g_autoptr(GArray) history = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(LatentSnapshot) snap = NULL;
  double cost[9];
  gint32 match[3];
  double weight_total = 0;

  g_assert_no_error (error);
  snap = fit (ds, history, 1, "k=3", cov, "tol=1e-6", NULL);
  assert_finite (snap);
  g_assert_true (snap->final);

  for (guint c = 0; c < 3; c++)
    for (guint t = 0; t < 3; t++)
      cost[c * 3 + t] = hypot (snap->clusters.means[c * 2] - truth->means[t * 2],
                               snap->clusters.means[c * 2 + 1] - truth->means[t * 2 + 1]);
  latent_hungarian (cost, 3, 3, match);
  for (guint c = 0; c < 3; c++)
    {
      /* Within a tenth of the blob's own spread: the Wishart covariances of
       * the generator are of order one. */
      g_assert_cmpfloat (cost[c * 3 + match[c]], <, 0.25);
      weight_total += snap->mixture.weights[c];
    }
  g_assert_cmpfloat_with_epsilon (weight_total, 1.0, 1e-9);

  /* EM never lowers the likelihood (up to rounding). */
  for (guint i = 1; i < history->len; i++)
    g_assert_cmpfloat (g_array_index (history, double, i), >=,
                       g_array_index (history, double, i - 1) - 1e-9);
  if (g_str_equal (covariance, "full"))
    g_assert_cmpfloat (snap->metrics.accuracy, >, 0.95);

  /* Diagonal models keep their variances, spherical ones one each. */
  g_assert_cmpint (snap->mixture.covariance_type, ==,
                   g_str_equal (covariance, "full") ? LATENT_COVARIANCE_FULL
                   : g_str_equal (covariance, "diag") ? LATENT_COVARIANCE_DIAGONAL : LATENT_COVARIANCE_SPHERICAL);
  g_assert_cmpuint (latent_snapshot_covariance_values (snap), ==,
                    g_str_equal (covariance, "full") ? 4 : g_str_equal (covariance, "diag") ? 2 : 1);
  if (snap->mixture.covariance_type != LATENT_COVARIANCE_FULL)
    for (guint i = 0; i < 3 * latent_snapshot_covariance_values (snap); i++)
      g_assert_cmpfloat (snap->mixture.covariances[i], >, 0);
}

static void
test_information_criteria (void)
{
  g_autoptr(LatentDataset) ds = latent_synthetic_blobs (500, 2, 2, 3, NULL);
  g_autoptr(LatentSnapshot) snap = fit (ds, NULL, 2, "k=2", NULL);
  double ll_total = snap->mixture.log_likelihood * 500;
  /* Full, 2 components in 2-D: 2 × 3 covariance terms, 2 × 2 means, 1 weight. */
  double p = 11;

  g_assert_cmpfloat_with_epsilon (snap->mixture.bic, -2 * ll_total + p * log (500), 1e-6 * fabs (snap->mixture.bic));
  g_assert_cmpfloat_with_epsilon (snap->mixture.aic, -2 * ll_total + 2 * p, 1e-6 * fabs (snap->mixture.aic));
}

/* The log-likelihood shown beside a model is that model's own: at every
 * iteration the objective (status, curve) is the snapshot's score
 * (metrics, BIC), and the first step shows a change. The objective of
 * iteration t used to be the model of t − 1's, so the curve began flat
 * and the status and the metrics disagreed. */
static void
test_objective_is_the_models (void)
{
  const LatentAlgorithm *alg = latent_gmm_get_algorithm ();
  g_autoptr(LatentDataset) ds = test_blobs (600, 2, 3, 2.0, 7);
  g_autoptr(LatentRows) rows = latent_rows_new_for_dataset (ds, 0);
  g_autoptr(LatentParams) params = latent_algorithm_new_params (alg);
  g_autoptr(GError) error = NULL;
  double previous;
  gpointer state;

  g_assert_true (latent_params_parse (params, "k=3", NULL));
  g_assert_true (latent_params_parse (params, "tol=0", NULL));
  g_assert_true (latent_params_parse (params, "max-iterations=6", NULL));
  state = alg->init (ds, params, 4, NULL, NULL, &error);
  g_assert_no_error (error);
  previous = alg->objective (state);
  for (guint t = 1; t <= 6; t++)
    {
      g_autoptr(LatentSnapshot) snap = NULL;

      g_assert_true (latent_algorithm_step (alg, state, rows, NULL, &error));
      g_assert_no_error (error);
      snap = alg->snapshot (state);
      g_assert_cmpuint (snap->iteration, ==, t);
      g_assert_cmpfloat (snap->objective, ==, snap->mixture.log_likelihood);
      g_assert_cmpfloat (alg->objective (state), ==, snap->mixture.log_likelihood);
      /* EM raises the likelihood; from a k-means start, visibly at first. */
      if (t == 1)
        g_assert_cmpfloat (snap->objective, >, previous + 1e-9);
      g_assert_cmpfloat (snap->objective, >=, previous - 1e-9);
      previous = snap->objective;
    }
  g_assert_true (alg->converged (state));
  alg->free (state);
}

/* Degenerate data gives a regularised fit or a message, never NaN. */
static void
test_degenerate (void)
{
  g_autoptr(LatentDataset) same = latent_dataset_new ("same", 50, 3, NULL);
  g_autoptr(LatentDataset) column = latent_synthetic_blobs (200, 3, 2, 4, NULL);
  g_autoptr(LatentDataset) few = latent_synthetic_blobs (6, 2, 2, 5, NULL);
  g_autoptr(LatentSnapshot) a = NULL, b = NULL, c = NULL, d = NULL;
  float *x = latent_dataset_get_data (same);

  for (guint i = 0; i < 150; i++)
    x[i] = 1.5f;
  a = fit (same, NULL, 1, "k=2", NULL);
  assert_finite (a);

  /* A constant column. */
  x = latent_dataset_get_data (column);
  for (guint i = 0; i < 200; i++)
    x[i * 3 + 2] = 7;
  b = fit (column, NULL, 1, "k=2", "covariance=full", NULL);
  assert_finite (b);

  /* As many components as points. */
  c = fit (few, NULL, 1, "k=6", NULL);
  assert_finite (c);
  d = fit (few, NULL, 1, "k=6", "init=random", "covariance=spherical", NULL);
  assert_finite (d);
}

static void
test_init_from_file (void)
{
  g_autoptr(LatentDataset) ds = latent_synthetic_blobs (400, 2, 2, 6, NULL);
  g_autofree char *dir = g_dir_make_tmp ("latent-gmm-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "start.json", NULL);
  g_autofree char *init = g_strdup_printf ("init=@%s", path);
  g_autoptr(LatentSnapshot) snap = NULL;
  const LatentAlgorithm *alg = latent_gmm_get_algorithm ();
  g_autoptr(LatentParams) params = latent_algorithm_new_params (alg);
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (path,
      "{\"means\": [[0, 0], [5, 5]], \"covariances\": [[[1, 0], [0, 1]], [[2, 0.5], [0.5, 1]]],"
      " \"weights\": [1, 3]}", -1, NULL));
  snap = fit (ds, NULL, 0, "k=2", init, "max-iterations=1", NULL);
  assert_finite (snap);
  g_assert_cmpuint (snap->iteration, ==, 1);

  /* The wrong number of values names the file and the member. */
  g_assert_true (g_file_set_contents (path, "{\"means\": [[0, 0]], \"covariances\": [], \"weights\": [1]}",
                                      -1, NULL));
  g_assert_true (latent_params_parse (params, init, NULL));
  g_assert_true (latent_params_parse (params, "k=2", NULL));
  g_assert_null (alg->init (ds, params, 0, NULL, NULL, &error));
  g_assert_nonnull (strstr (error->message, "start.json"));
  g_assert_nonnull (strstr (error->message, "means"));

  g_unlink (path);
  g_rmdir (dir);
}

/* Three round blobs far apart: at (−6, 0), (5, −2) and (1, 8), n / 3 rows
 * each. */
static LatentDataset *
three_blobs (guint n)
{
  static const double centres[] = { -6, 0, 5, -2, 1, 8 };
  LatentDataset *ds = latent_dataset_new ("three blobs", n, 2, NULL);
  float *x = latent_dataset_get_data (ds);
  guint64 state = 7;

  for (guint i = 0; i < n; i++)
    for (guint f = 0; f < 2; f++)
      x[i * 2 + f] = centres[(i % 3) * 2 + f] + test_normal (&state);
  return ds;
}

/* How much two components share their rows: the Bhattacharyya coefficient
 * of their responsibilities, 1 for one Gaussian twice. */
static double
overlap (LatentSnapshot *snap,
         guint           a,
         guint           b)
{
  double shared = 0, na = 0, nb = 0;

  for (guint i = 0; i < snap->n_rows; i++)
    {
      const float *r = snap->mixture.responsibilities + (gsize) i * snap->clusters.k;

      shared += sqrt ((double) r[a] * r[b]);
      na += r[a];
      nb += r[b];
    }
  return shared / sqrt (na * nb);
}

/* Random responsibilities put every component's mean within about 1/√n of
 * the data's mean: a saddle that EM leaves only over several iterations,
 * with tiny changes of the log-likelihood at first. A run from there must
 * not stop before the components have moved apart (it stopped at
 * iteration 2 with K copies of one Gaussian). */
static void
test_random_init_separates (void)
{
  g_autoptr(LatentDataset) ds = three_blobs (1500);
  g_autoptr(LatentSnapshot) one = fit (ds, NULL, 0, "k=1", NULL);
  const char *covariances[] = { "covariance=full", "covariance=diag", "covariance=spherical" };
  const char *ks[] = { "k=2", "k=3", "k=5" };

  for (guint t = 0; t < G_N_ELEMENTS (covariances); t++)
    for (guint j = 0; j < G_N_ELEMENTS (ks); j++)
      {
        guint recovered = 0;

        for (guint64 seed = 0; seed < 4; seed++)
          {
            g_autoptr(LatentSnapshot) snap = fit (ds, NULL, seed, ks[j], "init=random", covariances[t], NULL);
            double closest = INFINITY, most_shared = 0;

            assert_finite (snap);
            for (guint a = 0; a < snap->clusters.k; a++)
              for (guint b = a + 1; b < snap->clusters.k; b++)
                {
                  closest = MIN (closest, hypot (snap->clusters.means[a * 2] - snap->clusters.means[b * 2],
                                                 snap->clusters.means[a * 2 + 1] - snap->clusters.means[b * 2 + 1]));
                  most_shared = MAX (most_shared, overlap (snap, a, b));
                }
            g_test_message ("%s %s seed %" G_GUINT64_FORMAT ": %u iterations, %s, log-likelihood %.4f "
                            "(one Gaussian %.4f), closest means %.3f apart, most shared %.4f",
                            ks[j], covariances[t], seed, snap->iteration,
                            snap->converged ? "converged" : "not converged", snap->mixture.log_likelihood,
                            one->mixture.log_likelihood, closest, most_shared);
            g_assert_cmpuint (snap->iteration, >, 2);
            g_assert_true (snap->converged);
            /* Collapsed, the mixture is the one Gaussian (here −5.87). */
            g_assert_cmpfloat (snap->mixture.log_likelihood, >, one->mixture.log_likelihood + 0.5);
            /* No two components are one Gaussian twice (collapsed, two share
             * more than 0.9994; the engine splits pairs above 0.999). */
            g_assert_cmpfloat (most_shared, <, 0.999);
            if (snap->clusters.k == 3 && closest > 3)
              recovered++;
          }
        /* A random start may end in a local optimum, but not every time. */
        if (g_str_equal (ks[j], "k=3"))
          g_assert_cmpuint (recovered, >, 0);
      }
}

/* Left at its default, the covariance is full where full ones run and
 * diagonal on data with more columns than that, saying why; asked for,
 * full ones on such data are refused with a message naming covariance. */
static void
test_default_covariance_follows_columns (void)
{
  const LatentAlgorithm *alg = latent_gmm_get_algorithm ();
  g_autoptr(LatentDataset) wide = test_blobs (120, 600, 2, 1.0, 3);
  g_autoptr(LatentDataset) narrow = test_blobs (300, 3, 2, 1.0, 3);
  g_autoptr(LatentParams) params = latent_algorithm_new_params (alg);
  g_autoptr(LatentSnapshot) snap = NULL;
  g_autoptr(LatentSnapshot) small = NULL;
  g_autoptr(GError) error = NULL;
  gboolean off_diagonal = FALSE;

  /* The window asks before a run: the default must fit. */
  g_assert_true (latent_algorithm_check (alg, wide, params, &error));
  g_assert_no_error (error);

  snap = fit (wide, NULL, 0, "k=2", NULL);
  assert_finite (snap);
  g_assert_nonnull (snap->message);
  g_assert_nonnull (strstr (snap->message, "600 columns"));
  g_assert_nonnull (strstr (snap->message, "diagonal"));
  g_assert_cmpint (snap->mixture.covariance_type, ==, LATENT_COVARIANCE_DIAGONAL);
  g_assert_cmpuint (latent_snapshot_covariance_values (snap), ==, 600);
  g_assert_cmpfloat (snap->metrics.accuracy, ==, 1);

  /* Few columns: full covariances, and no message about them. */
  small = fit (narrow, NULL, 0, "k=2", NULL);
  for (guint a = 0; a < 3; a++)
    for (guint b = 0; b < 3; b++)
      off_diagonal |= a != b && small->mixture.covariances[a * 3 + b] != 0;
  g_assert_true (off_diagonal);
  g_assert_cmpint (small->mixture.covariance_type, ==, LATENT_COVARIANCE_FULL);
  g_assert_true (small->message == NULL || strstr (small->message, "diagonal") == NULL);

  /* Full ones, asked for, are refused on wide data. */
  g_assert_true (latent_params_parse (params, "covariance=full", NULL));
  g_assert_false (latent_algorithm_check (alg, wide, params, &error));
  g_assert_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER);
  g_assert_nonnull (strstr (error->message, "parameter covariance"));
}

/* Issue 15: diagonal and spherical models keep d values (or one) per
 * component, not a d × d matrix. On 20,000 columns with k = 16 the d × d
 * matrices would need 179 GB and the run was refused; the compact ones
 * need a few megabytes, so it runs, and the snapshot holds the compact
 * form. */
static void
test_wide_compact (void)
{
  const LatentAlgorithm *alg = latent_gmm_get_algorithm ();
  const guint n = 64, d = 20000, k = 16;
  g_autoptr(LatentDataset) ds = test_blobs (n, d, k, 0.5, 11);
  const char *types[] = { "diag", "spherical" };

  for (guint t = 0; t < G_N_ELEMENTS (types); t++)
    {
      g_autoptr(LatentParams) params = latent_algorithm_new_params (alg);
      g_autofree char *cov = g_strdup_printf ("covariance=%s", types[t]);
      g_autoptr(LatentSnapshot) snap = NULL;
      g_autoptr(GError) error = NULL;
      const guint per = t == 0 ? d : 1;

      g_assert_true (latent_params_parse (params, cov, NULL));
      g_assert_true (latent_params_parse (params, "k=16", NULL));
      g_assert_true (latent_algorithm_check (alg, ds, params, &error));
      g_assert_no_error (error);

      snap = fit (ds, NULL, 0, "k=16", cov, "max-iterations=3", NULL);
      g_test_message ("%s: %u iterations, log-likelihood %.4f", types[t], snap->iteration, snap->mixture.log_likelihood);
      g_assert_cmpuint (snap->iteration, >=, 1);
      g_assert_cmpint (snap->mixture.covariance_type, ==, t == 0 ? LATENT_COVARIANCE_DIAGONAL : LATENT_COVARIANCE_SPHERICAL);
      assert_finite (snap);
      for (guint i = 0; i < k * per; i++)
        g_assert_cmpfloat (snap->mixture.covariances[i], >, 0);
      g_assert_cmpuint (latent_snapshot_get_size (snap), <, (gsize) k * d * 64);
    }
}

static void
test_bad_k (void)
{
  const LatentAlgorithm *alg = latent_gmm_get_algorithm ();
  g_autoptr(LatentDataset) ds = latent_synthetic_blobs (10, 2, 2, 1, NULL);
  g_autoptr(LatentParams) params = latent_algorithm_new_params (alg);
  g_autoptr(GError) error = NULL;

  g_assert_true (latent_params_parse (params, "k=11", NULL));
  g_assert_null (alg->init (ds, params, 0, NULL, NULL, &error));
  g_assert_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER);
  g_assert_nonnull (strstr (error->message, "parameter k"));
}

/* Multiple restarts (issue 13, item 16): start r runs from seed + r (its
 * own k-means start), and the run ends at the best log-likelihood of those
 * single starts — never below the run's own seed alone. */
static void
test_restarts (void)
{
  g_autoptr(GError) error = NULL;
  /* Eight blobs, some close: seeds 0 to 4 end between −4.70 and −4.36. */
  g_autoptr(LatentDataset) ds = latent_catalog_load ("blobs:n=800,k=8,dims=2,seed=4", NULL, &error);
  g_autoptr(GArray) history = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(LatentSnapshot) best = NULL;
  g_autoptr(LatentSnapshot) winner = NULL;
  g_autoptr(LatentSnapshot) plain = NULL;
  g_autoptr(LatentSnapshot) one = NULL;
  const guint64 seed = 0;
  double singles[5], highest = -INFINITY, lowest = INFINITY;
  guint argmax = 0;

  g_assert_no_error (error);
  for (guint r = 0; r < 5; r++)
    {
      g_autoptr(LatentSnapshot) snap = fit (ds, NULL, seed + r, "k=8", NULL);

      g_test_message ("seed %" G_GUINT64_FORMAT ": log-likelihood %.6f", seed + r, snap->mixture.log_likelihood);
      singles[r] = snap->mixture.log_likelihood;
      if (singles[r] > highest)
        highest = singles[r], argmax = r;
      lowest = MIN (lowest, singles[r]);
    }
  /* Some seed ends in a worse local optimum, and the run's own seed is
   * not the best. */
  g_assert_cmpfloat (highest, >, lowest + 0.05);
  g_assert_cmpfloat (singles[0], <, highest);

  best = fit (ds, history, seed, "k=8", "restarts=5", NULL);
  g_test_message ("best of 5: %.6f (%s)", best->mixture.log_likelihood, best->message);
  assert_finite (best);
  g_assert_cmpfloat (best->mixture.log_likelihood, ==, highest);
  g_assert_cmpfloat (best->mixture.log_likelihood, >=, singles[0]);
  g_assert_cmpuint (best->seed, ==, seed);
  g_assert_cmpuint (best->clusters.n_starts, ==, 5);
  g_assert_cmpuint (best->clusters.best_start, ==, argmax);
  for (guint r = 0; r < 5; r++)
    g_assert_cmpfloat (best->clusters.start_objectives[r], ==, singles[r]);
  g_assert_nonnull (best->message);
  g_assert_nonnull (strstr (best->message, "Best of 5 starts"));
  /* The live run is the winner's. */
  winner = fit (ds, NULL, seed + argmax, "k=8", NULL);
  g_assert_cmpmem (best->clusters.labels, 800 * sizeof (gint32), winner->clusters.labels, 800 * sizeof (gint32));
  g_assert_cmpuint (best->iteration, ==, winner->iteration);
  g_assert_cmpuint (history->len, ==, winner->iteration);

  /* restarts=1 is the run from one start, as before. */
  plain = fit (ds, NULL, seed, "k=8", NULL);
  one = fit (ds, NULL, seed, "k=8", "restarts=1", NULL);
  g_assert_cmpfloat (plain->mixture.log_likelihood, ==, one->mixture.log_likelihood);
  g_assert_cmpmem (plain->clusters.means, 16 * sizeof (float), one->clusters.means, 16 * sizeof (float));
  g_assert_cmpuint (one->clusters.n_starts, ==, 0);
  g_assert_null (one->clusters.start_objectives);
}

/* Random responsibilities restart too; 0 and 101 starts are refused. */
static void
test_restarts_random (void)
{
  g_autoptr(LatentDataset) ds = three_blobs (600);
  g_autoptr(LatentSnapshot) best = fit (ds, NULL, 1, "k=3", "init=random", "restarts=3", NULL);
  g_autoptr(LatentParams) params = latent_algorithm_new_params (latent_gmm_get_algorithm ());
  g_autoptr(GError) error = NULL;

  assert_finite (best);
  g_assert_cmpuint (best->clusters.n_starts, ==, 3);
  for (guint r = 0; r < 3; r++)
    {
      g_autoptr(LatentSnapshot) snap = fit (ds, NULL, 1 + r, "k=3", "init=random", NULL);
      g_assert_cmpfloat (best->clusters.start_objectives[r], ==, snap->mixture.log_likelihood);
      g_assert_cmpfloat (best->mixture.log_likelihood, >=, snap->mixture.log_likelihood);
    }
  g_assert_false (latent_params_parse (params, "restarts=0", &error));
  g_assert_nonnull (strstr (error->message, "restarts"));
  g_clear_error (&error);
  g_assert_false (latent_params_parse (params, "restarts=101", &error));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/gmm/recovers/full", "full", test_recovers_mixture);
  g_test_add_data_func ("/gmm/recovers/diag", "diag", test_recovers_mixture);
  g_test_add_data_func ("/gmm/recovers/spherical", "spherical", test_recovers_mixture);
  g_test_add_func ("/gmm/information-criteria", test_information_criteria);
  g_test_add_func ("/gmm/objective-is-the-models", test_objective_is_the_models);
  g_test_add_func ("/gmm/degenerate", test_degenerate);
  g_test_add_func ("/gmm/init-from-file", test_init_from_file);
  g_test_add_func ("/gmm/bad-k", test_bad_k);
  g_test_add_func ("/gmm/random-init-separates", test_random_init_separates);
  g_test_add_func ("/gmm/default-covariance-follows-columns", test_default_covariance_follows_columns);
  g_test_add_func ("/gmm/restarts", test_restarts);
  g_test_add_func ("/gmm/restarts-random", test_restarts_random);
  g_test_add_func ("/gmm/wide-compact", test_wide_compact);
  return g_test_run ();
}
