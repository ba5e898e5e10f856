/* test-umap.c — UMAP's reference path: a and b against scipy's fit, the
 * fuzzy graph's symmetry and schedule, the negative samples' hash, a whole
 * run that keeps the blobs' neighbours, and refusals
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-test-umap"

#include <math.h>
#include <string.h>

#include "latent-test-util.h"
#include "latent-knn.h"
#include "latent-umap-private.h"

static void
test_ab (void)
{
  double a, b;

  /* scipy 1.17.1's curve_fit, as umap-learn calls it, for the defaults:
   * a = 1.5769, b = 0.8951 (docs/EMBEDDINGS-RESEARCH.md). */
  latent_umap_fit_ab (1.0, 0.1, &a, &b);
  g_test_message ("a %.6f, b %.6f", a, b);
  g_assert_cmpfloat (fabs (a - 1.5769), <, 2e-3);
  g_assert_cmpfloat (fabs (b - 0.8951), <, 2e-3);
  /* A larger minimum distance flattens the curve's shoulder. */
  latent_umap_fit_ab (1.0, 0.5, &a, &b);
  g_assert_cmpfloat (b, >, 0.8951);
}

static void
test_graph (void)
{
  const guint n = 300, k = 15, m = k - 1;
  g_autoptr(LatentDataset) ds = test_blobs (n, 6, 4, 1.0, 3);
  g_autofree gint32 *index = g_new (gint32, n * m);
  g_autofree float *dist2 = g_new (float, n * m);
  LatentUmapGraph g = { 0 };
  g_autoptr(GError) error = NULL;
  double w_max = 0;

  g_assert_true (latent_knn_reference (latent_dataset_get_data (ds), n, 6, m, index, dist2, NULL, &error));
  g_assert_true (latent_umap_graph (index, dist2, n, k, 200, 5, &g, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g.n_edges, >=, (guint64) n * m);
  for (guint i = 0; i < n; i++)
    for (guint64 e = g.row_start[i]; e < g.row_start[i + 1]; e++)
      {
        gint32 j = g.cols[e];
        gboolean found = FALSE;

        g_assert_cmpint (j, !=, (gint32) i);
        g_assert_cmpfloat (g.w[e], >, 0);
        g_assert_cmpfloat (g.w[e], <=, 1);
        w_max = MAX (w_max, g.w[e]);
        /* One sample every max w / w epochs; the negative ones five times as often. */
        g_assert_cmpfloat (g.every[e], >=, 1);
        g_assert_cmpfloat (fabs (g.next_negative[e] * 5 - g.every[e]), <, 1e-5 * g.every[e]);
        for (guint64 f = g.row_start[j]; f < g.row_start[j + 1]; f++)
          if (g.cols[f] == (gint32) i)
            {
              g_assert_cmpfloat (g.w[f], ==, g.w[e]);
              found = TRUE;
            }
        g_assert_true (found);
      }
  /* Each row's nearest neighbour is a member for sure. */
  g_assert_cmpfloat (w_max, ==, 1);
  latent_umap_graph_clear (&g);
}

static void
test_negative (void)
{
  guint counts[10] = { 0 };

  for (guint s = 0; s < 10000; s++)
    {
      guint k = latent_umap_negative (7, s % 100, s / 100, s % 5, 10);

      g_assert_cmpuint (k, <, 10);
      g_assert_cmpuint (k, ==, latent_umap_negative (7, s % 100, s / 100, s % 5, 10));
      counts[k]++;
    }
  /* Near uniform: each row within 20 % of a thousand. */
  for (guint k = 0; k < 10; k++)
    g_assert_cmpuint (counts[k], >, 800);
}

static void
test_run (void)
{
  const LatentAlgorithm *umap = latent_umap_get_algorithm ();
  g_autoptr(LatentDataset) ds = test_blobs (500, 10, 5, 1.5, 9);
  g_autoptr(LatentParams) params = latent_algorithm_new_params (umap);
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentFit) fit = NULL;
  g_autoptr(LatentDataset) features = NULL;

  fit = latent_algorithm_fit (umap, ds, params, 1, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_test_message ("trustworthiness %.4f, cross-entropy %.2f", fit->snapshot->embedding.trustworthiness,
                  fit->snapshot->embedding.cross_entropy);
  g_assert_cmpuint (fit->history->len, ==, 200);
  g_assert_cmpfloat (fit->snapshot->embedding.trustworthiness, >, 0.95);
  g_assert_true (isnan (fit->snapshot->embedding.kl_divergence));
  /* The embedding is the rows' features, labels kept. */
  features = latent_algorithm_encode (fit->snapshot, ds, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (latent_dataset_get_n_cols (features), ==, 2);
  g_assert_true (latent_dataset_has_labels (features));

  /* More neighbours than rows: refused by name. */
  {
    g_autoptr(LatentDataset) few = test_blobs (10, 3, 2, 1.0, 2);
    g_autoptr(LatentFit) none = NULL;

    none = latent_algorithm_fit (umap, few, params, 1, NULL, NULL, NULL, NULL, &error);
    g_assert_null (none);
    g_assert_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER);
    g_assert_nonnull (strstr (error->message, "neighbours 15"));
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/umap/ab", test_ab);
  g_test_add_func ("/umap/graph", test_graph);
  g_test_add_func ("/umap/negative", test_negative);
  g_test_add_func ("/umap/run", test_run);
  return g_test_run ();
}
