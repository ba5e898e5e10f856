/* test-prototype-cl.c — the nearest-prototype classifier's OpenCL path
 * against its reference: the same predictions and episodes, prototypes
 * within 1e-5, with either distance, on held-out rows and on a test set of
 * its own; exact ties go to the lower class on the device too; a failing
 * device falls back
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-test-prototype-cl"

#include <math.h>
#include <string.h>

#include "latent-test-util.h"
#include "latent-prototype.h"

static LatentSnapshot *
fit (LatentDataset *ds,
     LatentParams  *params,
     LatentCl      *cl)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentFit) result = latent_algorithm_fit (latent_prototype_get_algorithm (), ds, params, 9,
                                                      cl, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_test_message ("%s: init %.1f ms, %u episodes %.1f ms", result->snapshot->device, result->init_ms,
                  result->history->len, result->total_ms - result->init_ms);
  return latent_snapshot_ref (result->snapshot);
}

static double
largest_difference (const float *a,
                    const float *b,
                    gsize        n)
{
  double worst = 0;

  for (gsize i = 0; i < n; i++)
    worst = MAX (worst, fabs ((double) a[i] - b[i]));
  return worst;
}

static void
assert_same (LatentSnapshot *ref,
             LatentSnapshot *dev)
{
  const gsize cd = (gsize) ref->classifier.n_classes * ref->n_cols;

  g_assert_null (dev->message);
  g_assert_cmpstr (dev->device, !=, ref->device);
  g_assert_cmpfloat (largest_difference (ref->classifier.means, dev->classifier.means, cd), <, 1e-5);
  g_assert_cmpuint (dev->classifier.n_test, ==, ref->classifier.n_test);
  g_assert_cmpmem (dev->classifier.test_rows, ref->classifier.n_test * sizeof (gint32), ref->classifier.test_rows, ref->classifier.n_test * sizeof (gint32));
  g_assert_cmpmem (dev->classifier.test_predictions, ref->classifier.n_test * sizeof (gint32),
                   ref->classifier.test_predictions, ref->classifier.n_test * sizeof (gint32));
  g_assert_cmpfloat (dev->classifier.test_accuracy, ==, ref->classifier.test_accuracy);
  g_assert_cmpfloat (dev->classifier.train_accuracy, ==, ref->classifier.train_accuracy);
  g_assert_cmpuint (dev->classifier.n_episodes, ==, ref->classifier.n_episodes);
  if (ref->classifier.n_episodes == 0)
    return;
  g_assert_cmpmem (dev->classifier.episode_accuracy, ref->classifier.n_episodes * sizeof (double),
                   ref->classifier.episode_accuracy, ref->classifier.n_episodes * sizeof (double));
  g_assert_cmpmem (dev->classifier.support_rows, (gsize) ref->classifier.n_ways * ref->classifier.n_shots * sizeof (gint32),
                   ref->classifier.support_rows, (gsize) ref->classifier.n_ways * ref->classifier.n_shots * sizeof (gint32));
  g_assert_cmpmem (dev->classifier.query_predictions, ref->classifier.n_queries * sizeof (gint32),
                   ref->classifier.query_predictions, ref->classifier.n_queries * sizeof (gint32));
  g_assert_cmpfloat (largest_difference (ref->classifier.episode_prototypes, dev->classifier.episode_prototypes,
                                         (gsize) ref->classifier.n_ways * ref->n_cols), <, 1e-5);
}

/* Ten overlapping blobs in 64 columns (and 5, so the rows need padding):
 * both paths, both distances. */
static void
test_paths_agree (void)
{
  LatentCl *cl = test_get_cl ();
  const guint widths[] = { 64, 5 };
  const char *distances[] = { "distance=euclidean", "distance=cosine", "distance=dot" };
  const char *classifiers[] = { "classifier=prototypes", "classifier=matching" };

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
    for (guint i = 0; i < G_N_ELEMENTS (distances); i++)
      for (guint c = 0; c < G_N_ELEMENTS (classifiers); c++)
      {
        g_autoptr(LatentDataset) ds = test_blobs (3000, widths[w], 10, widths[w] == 5 ? 6.0 : 9.0, 3);
        g_autoptr(LatentParams) params = latent_algorithm_new_params (latent_prototype_get_algorithm ());
        g_autoptr(LatentSnapshot) ref = NULL;
        g_autoptr(LatentSnapshot) dev = NULL;

        g_assert_true (latent_params_parse (params, distances[i], NULL));
        g_assert_true (latent_params_parse (params, classifiers[c], NULL));
        g_assert_true (latent_params_parse (params, "episodes=30", NULL));
        ref = fit (ds, params, NULL);
        dev = fit (ds, params, cl);
        g_test_message ("%u columns, %s, %s: test accuracy %.4f, episodes %.4f ± %.4f", widths[w], distances[i],
                        classifiers[c], ref->classifier.test_accuracy, ref->classifier.episode_mean_accuracy,
                        ref->classifier.episode_ci95);
        /* Neither trivially right nor hopeless: the comparison means something. */
        g_assert_cmpfloat (ref->classifier.test_accuracy, <, 0.999);
        g_assert_cmpfloat (ref->classifier.episode_mean_accuracy, >, 0.3);
        assert_same (ref, dev);
      }
}

/* The shots curve: every method at every size from the same episodes,
 * alike on both paths (logistic regression runs on the host for both). */
static void
test_curve (void)
{
  LatentCl *cl = test_get_cl ();
  g_autoptr(LatentDataset) ds = test_blobs (3000, 64, 10, 9.0, 3);
  g_autoptr(LatentParams) params = test_params (latent_prototype_get_algorithm (), "curve=true", "episodes=8", NULL);
  g_autoptr(LatentSnapshot) ref = NULL;
  g_autoptr(LatentSnapshot) dev = NULL;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  ref = fit (ds, params, NULL);
  dev = fit (ds, params, cl);
  assert_same (ref, dev);
  g_assert_cmpuint (ref->classifier.n_curve_shots, ==, 5);
  g_assert_cmpuint (dev->classifier.n_curve_shots, ==, 5);
  g_assert_cmpmem (dev->classifier.curve_accuracy, 15 * sizeof (double), ref->classifier.curve_accuracy, 15 * sizeof (double));
  /* More examples, better: each method at 20 beats itself at 1. */
  for (guint m = 0; m < 3; m++)
    g_assert_cmpfloat (ref->classifier.curve_accuracy[m * 5 + 4], >, ref->classifier.curve_accuracy[m * 5]);
}

/* A test set of its own: the training and test rows in two buffers. */
static void
test_companion (void)
{
  LatentCl *cl = test_get_cl ();
  g_autoptr(LatentDataset) train = test_blobs (2000, 20, 6, 8.0, 4);
  g_autoptr(LatentDataset) test = test_blobs (600, 20, 6, 8.0, 4);
  g_autoptr(LatentParams) params = latent_algorithm_new_params (latent_prototype_get_algorithm ());
  g_autoptr(LatentSnapshot) ref = NULL;
  g_autoptr(LatentSnapshot) dev = NULL;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  g_assert_true (latent_dataset_set_test (train, test, NULL));
  g_assert_true (latent_params_parse (params, "episodes=10", NULL));
  ref = fit (train, params, NULL);
  dev = fit (train, params, cl);
  g_assert_true (dev->classifier.test_dataset == test);
  g_assert_cmpuint (dev->classifier.n_test, ==, 600);
  assert_same (ref, dev);
}

/* Integer data whose test rows lie exactly halfway between two class
 * means: the device's scores tie too, and the lower class wins. */
static void
test_ties (void)
{
  LatentCl *cl = test_get_cl ();
  const guint d = 32, n = 40;
  g_autoptr(LatentDataset) train = latent_dataset_new ("train", n, d, NULL);
  g_autoptr(LatentDataset) test = latent_dataset_new ("test", n, d, NULL);
  g_autofree gint32 *labels = g_new (gint32, n);
  const char *distances[] = { "distance=euclidean", "distance=cosine", "distance=dot" };
  float *x = latent_dataset_get_data (train), *t = latent_dataset_get_data (test);

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  /* Class c's rows are 1 in column c, 0 elsewhere (its mean is the
   * row); test row i is 1 in columns a and b (a < b): as far from class
   * a's mean as from class b's, at the same angle, and nearer than from
   * any other. */
  for (guint i = 0; i < n; i++)
    {
      guint a = i % 4, b = 4 + (i / 4) % 4;

      labels[i] = i % 8;
      for (guint f = 0; f < d; f++)
        {
          x[(gsize) i * d + f] = f == (guint) labels[i] ? 1.0f : 0.0f;
          t[(gsize) i * d + f] = f == a || f == b ? 1.0f : 0.0f;
        }
    }
  latent_dataset_set_labels (train, labels, 8, NULL);
  latent_dataset_set_labels (test, labels, 8, NULL);
  g_assert_true (latent_dataset_set_test (train, test, NULL));
  for (guint k = 0; k < G_N_ELEMENTS (distances); k++)
    {
      g_autoptr(LatentParams) params = latent_algorithm_new_params (latent_prototype_get_algorithm ());
      g_autoptr(LatentSnapshot) ref = NULL;
      g_autoptr(LatentSnapshot) dev = NULL;

      g_assert_true (latent_params_parse (params, distances[k], NULL));
      g_assert_true (latent_params_parse (params, "episodes=0", NULL));
      ref = fit (train, params, NULL);
      dev = fit (train, params, cl);
      for (guint i = 0; i < n; i++)
        g_assert_cmpint (ref->classifier.test_predictions[i], ==, (gint32) (i % 4));
      assert_same (ref, dev);
    }
}

/* A device that fails goes on on the reference path, with the same
 * results, and says so. */
static void
test_fallback (void)
{
  LatentCl *cl = test_get_cl ();
  g_autoptr(LatentDataset) ds = test_blobs (1000, 16, 5, 6.0, 8);
  g_autoptr(LatentParams) params = latent_algorithm_new_params (latent_prototype_get_algorithm ());
  g_autoptr(LatentSnapshot) ref = NULL;
  g_autoptr(LatentSnapshot) dev = NULL;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  g_assert_true (latent_params_parse (params, "episodes=5", NULL));
  ref = fit (ds, params, NULL);
  /* A private runtime: the failure counts against it, not the others. */
  {
    g_autoptr(LatentCl) own = latent_cl_new (LATENT_DEVICE_AUTO, NULL);

    latent_cl_inject_failures (1);
    dev = fit (ds, params, own);
  }
  g_assert_nonnull (dev->message);
  g_assert_cmpstr (dev->device, ==, ref->device);
  g_assert_cmpmem (dev->classifier.test_predictions, ref->classifier.n_test * sizeof (gint32),
                   ref->classifier.test_predictions, ref->classifier.n_test * sizeof (gint32));
  g_assert_cmpmem (dev->classifier.episode_accuracy, 5 * sizeof (double), ref->classifier.episode_accuracy, 5 * sizeof (double));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/prototype-cl/paths-agree", test_paths_agree);
  g_test_add_func ("/prototype-cl/curve", test_curve);
  g_test_add_func ("/prototype-cl/companion", test_companion);
  g_test_add_func ("/prototype-cl/ties", test_ties);
  g_test_add_func ("/prototype-cl/fallback", test_fallback);
  return g_test_run ();
}
