/* test-mlp-cl.c — the multilayer perceptron's OpenCL path against its
 * reference: the same losses every step and epoch, the same test
 * predictions and nearly the same layers, for ReLU and tanh, one and three
 * hidden layers, Adam and momentum, dropout, a short last mini-batch and
 * the full batch, held-out rows and a test set of its own; a failing device
 * falls back
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-test-mlp-cl"

#include <math.h>
#include <string.h>

#include "latent-test-util.h"
#include "latent-classifiers.h"
#include "latent-mlp.h"

static LatentSnapshot *
run (LatentDataset *ds,
     LatentParams  *params,
     LatentCl      *cl)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentFit) result = latent_algorithm_fit (latent_mlp_get_algorithm (), ds, params, 11, cl,
                                                      NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return latent_snapshot_ref (result->snapshot);
}

/* 37 columns, 5 overlapping classes, columns of their own scales: no
 * layer is a whole number of float16s, so every kernel's tail runs. */
static LatentDataset *
overlapping_blobs (guint n)
{
  LatentDataset *ds = test_blobs (n, 37, 5, 9.0, 21);
  float *x = latent_dataset_get_data (ds);

  for (guint i = 0; i < n; i++)
    for (guint a = 0; a < 37; a++)
      x[(gsize) i * 37 + a] = x[(gsize) i * 37 + a] * (1 + a % 5) + 3 * a;
  return ds;
}

static void
compare (LatentDataset *ds,
         const char    *first,
         ...)
{
  LatentCl *cl = test_get_cl ();
  g_autoptr(LatentParams) params = latent_algorithm_new_params (latent_mlp_get_algorithm ());
  g_autoptr(LatentSnapshot) ref = NULL;
  g_autoptr(LatentSnapshot) dev = NULL;
  g_autoptr(GString) what = g_string_new (NULL);
  const LatentClassifierPart *r, *d;
  double worst_loss = 0, worst_weight = 0, largest_weight = 0;
  guint differ = 0;
  va_list args;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  va_start (args, first);
  for (const char *a = first; a != NULL; a = va_arg (args, const char *))
    {
      g_assert_true (latent_params_parse (params, a, NULL));
      g_string_append_printf (what, "%s ", a);
    }
  va_end (args);

  ref = run (ds, params, NULL);
  dev = run (ds, params, cl);
  r = &ref->classifier;
  d = &dev->classifier;
  g_assert_null (dev->message);
  g_assert_cmpstr (dev->device, !=, ref->device);
  g_assert_cmpuint (d->epochs.n_steps, ==, r->epochs.n_steps);
  g_assert_cmpuint (d->epochs.n_epochs, ==, r->epochs.n_epochs);
  for (guint s = 0; s < r->epochs.n_steps; s++)
    worst_loss = MAX (worst_loss, fabs (d->epochs.step_loss[s] - r->epochs.step_loss[s]) / r->epochs.step_loss[s]);
  for (guint e = 0; e < r->epochs.n_epochs; e++)
    {
      worst_loss = MAX (worst_loss, fabs (d->epochs.train_loss[e] - r->epochs.train_loss[e]) / r->epochs.train_loss[e]);
      worst_loss = MAX (worst_loss, fabs (d->epochs.held_out_loss[e] - r->epochs.held_out_loss[e]) /
                                    r->epochs.held_out_loss[e]);
    }
  g_assert_cmpuint (d->n_layers, ==, r->n_layers);
  g_assert_cmpmem (d->layer_sizes, (d->n_layers + 1) * sizeof (guint), r->layer_sizes, (r->n_layers + 1) * sizeof (guint));
  for (gsize i = 0; i < latent_classifiers_network_size (r); i++)
    {
      worst_weight = MAX (worst_weight, fabs (d->network[i] - r->network[i]));
      largest_weight = MAX (largest_weight, fabs (r->network[i]));
    }
  for (guint i = 0; i < r->n_test; i++)
    differ += d->test_predictions[i] != r->test_predictions[i];
  g_test_message ("%s: largest relative loss difference %.3g, weight difference %.3g of %.3g, "
                  "%u of %u test predictions differ, test accuracy %.4f", what->str, worst_loss, worst_weight,
                  largest_weight, differ, r->n_test, r->test_accuracy);
  g_assert_cmpfloat (worst_loss, <, 1e-3);
  g_assert_cmpfloat (worst_weight, <, 1e-3 * largest_weight);
  /* A row on the boundary may go either way after float sums in another order. */
  g_assert_cmpuint (differ, <=, r->n_test / 100);
  g_assert_cmpfloat (r->epochs.train_loss[r->epochs.n_epochs - 1], <, 0.9 * r->epochs.step_loss[0]);
}

static void
test_paths_agree (void)
{
  g_autoptr(LatentDataset) ds = overlapping_blobs (700);

  /* 560 training rows: 17 steps of 32 and one of 16. */
  compare (ds, "hidden-1=20", "batch=32", "epochs=4", NULL);
  compare (ds, "hidden-1=19", "hidden-2=7", "hidden-3=5", "activation=tanh", "optimizer=momentum",
           "learning-rate=0.02", "batch=32", "epochs=3", "l2=0.01", NULL);
  compare (ds, "hidden-1=24", "hidden-2=9", "dropout=0.25", "batch=50", "epochs=4", "learning-rate=0.005", NULL);
  compare (ds, "hidden-1=17", "activation=tanh", "dropout=0.5", "batch=0", "epochs=10", "learning-rate=0.05", NULL);
  compare (ds, "hidden-1=17", "batch=0", "epochs=10", "learning-rate=0.001", "standardise=false", NULL);
}

/* A test set of its own, larger than a batch: its rows come from its own
 * buffer, in chunks. */
static void
test_test_set (void)
{
  g_autoptr(LatentDataset) ds = overlapping_blobs (3000);
  g_autoptr(LatentDataset) train = latent_dataset_new ("train", 500, 37, NULL);
  g_autoptr(LatentDataset) test = latent_dataset_new ("test", 2500, 37, NULL);
  const gint32 *labels = latent_dataset_get_labels (ds);
  g_autoptr(GError) error = NULL;

  memcpy (latent_dataset_get_data (train), latent_dataset_get_data (ds), 500 * 37 * sizeof (float));
  memcpy (latent_dataset_get_data (test), latent_dataset_get_row (ds, 500), 2500 * 37 * sizeof (float));
  latent_dataset_set_labels (train, labels, 5, NULL);
  latent_dataset_set_labels (test, labels + 500, 5, NULL);
  latent_dataset_set_test (train, test, &error);
  g_assert_no_error (error);
  compare (train, "hidden-1=30", "batch=64", "epochs=3", NULL);
}

/* A device that fails mid-run: the run goes on on the reference path and
 * says so, and its loss keeps falling. */
static void
test_fall_back (void)
{
  LatentCl *cl = test_get_cl ();
  const LatentAlgorithm *algorithm = latent_mlp_get_algorithm ();
  g_autoptr(LatentDataset) ds = overlapping_blobs (400);
  g_autoptr(LatentParams) params = test_params (algorithm, "batch=20", "hidden-1=12", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentSnapshot) snap = NULL;
  gpointer state;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  state = algorithm->init (ds, params, 2, cl, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 5; i++)
    g_assert_true (algorithm->step (state, NULL, NULL));
  latent_cl_inject_failures (1);
  for (guint i = 0; i < 20; i++)
    {
      algorithm->step (state, NULL, &error);
      g_assert_no_error (error);
    }
  snap = algorithm->snapshot (state);
  g_assert_nonnull (snap->message);
  g_assert_cmpstr (snap->device, ==, "CPU reference");
  g_assert_cmpuint (snap->classifier.epochs.n_steps, ==, 25);
  g_assert_cmpfloat (snap->classifier.epochs.step_loss[24], <, snap->classifier.epochs.step_loss[0]);
  algorithm->free (state);
  latent_cl_inject_failures (0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/mlp-cl/paths-agree", test_paths_agree);
  g_test_add_func ("/mlp-cl/test-set", test_test_set);
  g_test_add_func ("/mlp-cl/fall-back", test_fall_back);
  return g_test_run ();
}
