/* test-logreg-cl.c — logistic regression's OpenCL path against its
 * reference: the same losses every step and epoch, the same test
 * predictions and nearly the same weights, for L-BFGS (to a budget and to
 * its tolerance), momentum and Adam, mini-batches with a short last one and
 * the full batch, standardised or not, held-out rows or a test set; a
 * failing device falls back, L-BFGS's too
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-test-logreg-cl"

#include <math.h>
#include <string.h>

#include "latent-test-util.h"
#include "latent-logreg.h"

static LatentSnapshot *
run (LatentDataset *ds,
     LatentParams  *params,
     LatentCl      *cl)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentFit) result = latent_algorithm_fit (latent_logreg_get_algorithm (), ds, params, 11, cl,
                                                      NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return latent_snapshot_ref (result->snapshot);
}

/* 37 columns and 5 classes: neither the columns nor the 185 weights are a
 * whole number of float16s, so every kernel's tail runs too. Overlapping
 * blobs, so the model keeps learning for several epochs. */
static LatentDataset *
overlapping_blobs (guint n)
{
  LatentDataset *ds = test_blobs (n, 37, 5, 9.0, 21);
  float *x = latent_dataset_get_data (ds);

  /* Columns of their own scales and offsets, for the standardising. */
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
  g_autoptr(LatentParams) params = latent_algorithm_new_params (latent_logreg_get_algorithm ());
  g_autoptr(LatentSnapshot) ref = NULL;
  g_autoptr(LatentSnapshot) dev = NULL;
  g_autoptr(GString) what = g_string_new (NULL);
  double worst_loss = 0, worst_weight = 0, largest_weight = 0;
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
  g_assert_null (dev->message);
  g_assert_cmpstr (dev->device, !=, ref->device);
  g_assert_cmpuint (dev->classifier.epochs.n_steps, ==, ref->classifier.epochs.n_steps);
  g_assert_cmpuint (dev->classifier.epochs.n_epochs, ==, ref->classifier.epochs.n_epochs);
  g_assert_cmpint (dev->converged, ==, ref->converged);

  for (guint s = 0; s < ref->classifier.epochs.n_steps; s++)
    worst_loss = MAX (worst_loss, fabs (dev->classifier.epochs.step_loss[s] - ref->classifier.epochs.step_loss[s]) / ref->classifier.epochs.step_loss[s]);
  for (guint e = 0; e < ref->classifier.epochs.n_epochs; e++)
    {
      worst_loss = MAX (worst_loss, fabs (dev->classifier.epochs.train_loss[e] - ref->classifier.epochs.train_loss[e]) /
                                    ref->classifier.epochs.train_loss[e]);
      worst_loss = MAX (worst_loss, fabs (dev->classifier.epochs.held_out_loss[e] - ref->classifier.epochs.held_out_loss[e]) / ref->classifier.epochs.held_out_loss[e]);
      g_assert_cmpfloat (dev->classifier.epoch_test_accuracy[e], ==, ref->classifier.epoch_test_accuracy[e]);
      g_assert_cmpfloat (dev->classifier.epoch_train_accuracy[e], ==, ref->classifier.epoch_train_accuracy[e]);
    }
  for (gsize i = 0; i < (gsize) ref->classifier.n_classes * ref->n_cols; i++)
    {
      worst_weight = MAX (worst_weight, fabs (dev->classifier.class_weights[i] - ref->classifier.class_weights[i]));
      largest_weight = MAX (largest_weight, fabs (ref->classifier.class_weights[i]));
    }
  g_test_message ("%s: largest relative loss difference %.3g, weight difference %.3g of %.3g", what->str,
                  worst_loss, worst_weight, largest_weight);
  g_assert_cmpfloat (worst_loss, <, 1e-4);
  g_assert_cmpfloat (worst_weight, <, 1e-3 * largest_weight);
  g_assert_cmpuint (dev->classifier.n_test, ==, ref->classifier.n_test);
  g_assert_cmpmem (dev->classifier.test_predictions, dev->classifier.n_test * sizeof (gint32),
                   ref->classifier.test_predictions, ref->classifier.n_test * sizeof (gint32));
  g_assert_cmpmem (dev->classifier.confusion, dev->classifier.n_classes * dev->classifier.n_classes * sizeof (guint),
                   ref->classifier.confusion, ref->classifier.n_classes * ref->classifier.n_classes * sizeof (guint));
  /* Training moved the model: the comparison is not of two starting points. */
  g_assert_cmpfloat (ref->classifier.epochs.train_loss[ref->classifier.epochs.n_epochs - 1], <, 0.9 * ref->classifier.epochs.step_loss[0]);
  g_assert_cmpfloat (ref->classifier.test_accuracy, >, 0.3);
}

static void
test_paths_agree (void)
{
  g_autoptr(LatentDataset) ds = overlapping_blobs (700);

  /* 560 training rows: 18 steps of 32 and one of 16. */
  compare (ds, "optimizer=momentum", "batch=32", "epochs=4", "learning-rate=0.01", NULL);
  compare (ds, "batch=32", "epochs=4", "optimizer=adam", "learning-rate=0.005", "l2=0.01", NULL);
  compare (ds, "optimizer=momentum", "batch=0", "epochs=15", "learning-rate=0.5", "momentum=0.5", NULL);
  compare (ds, "optimizer=momentum", "batch=100", "epochs=3", "standardise=false", "learning-rate=0.0001",
           "shuffle=false", NULL);
  /* L-BFGS: a fixed budget, then the defaults to their tolerance. */
  compare (ds, "tol=0", "epochs=12", NULL);
  compare (ds, "l2=0.01", NULL);
  compare (ds, "standardise=false", "tol=0", "epochs=8", NULL);
}

/* A test set of its own: its rows are gathered from its own buffer. */
static void
test_test_set (void)
{
  g_autoptr(LatentDataset) ds = overlapping_blobs (700);
  g_autoptr(LatentDataset) train = latent_dataset_new ("train", 500, 37, NULL);
  g_autoptr(LatentDataset) test = latent_dataset_new ("test", 200, 37, NULL);
  const gint32 *labels = latent_dataset_get_labels (ds);
  g_autoptr(GError) error = NULL;

  memcpy (latent_dataset_get_data (train), latent_dataset_get_data (ds), 500 * 37 * sizeof (float));
  memcpy (latent_dataset_get_data (test), latent_dataset_get_row (ds, 500), 200 * 37 * sizeof (float));
  latent_dataset_set_labels (train, labels, 5, NULL);
  latent_dataset_set_labels (test, labels + 500, 5, NULL);
  latent_dataset_set_test (train, test, &error);
  g_assert_no_error (error);
  compare (train, "batch=64", "epochs=3", "optimizer=adam", "learning-rate=0.01", NULL);
  compare (train, "tol=0", "epochs=6", NULL);
}

/* A device that fails mid-run: the run goes on on the reference path and
 * says so, and its loss keeps falling. */
static void
test_fall_back (void)
{
  LatentCl *cl = test_get_cl ();
  const LatentAlgorithm *algorithm = latent_logreg_get_algorithm ();
  g_autoptr(LatentDataset) ds = overlapping_blobs (400);
  g_autoptr(LatentParams) params = latent_algorithm_new_params (algorithm);
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentSnapshot) snap = NULL;
  gpointer state;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  g_assert_true (latent_params_parse (params, "optimizer=momentum", NULL));
  g_assert_true (latent_params_parse (params, "batch=20", NULL));
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
  g_assert_cmpuint (snap->classifier.epochs.n_epochs, ==, 1);
  g_assert_cmpfloat (snap->classifier.epochs.step_loss[24], <, snap->classifier.epochs.step_loss[0]);
  algorithm->free (state);
  latent_cl_inject_failures (0);
}

/* L-BFGS on a device that fails mid-run: the reference path takes over at
 * the host's point (not the device's last trial) and the objective keeps
 * falling to the same minimum as a run on the reference path alone. */
static void
test_lbfgs_fall_back (void)
{
  LatentCl *cl = test_get_cl ();
  const LatentAlgorithm *algorithm = latent_logreg_get_algorithm ();
  g_autoptr(LatentDataset) ds = overlapping_blobs (400);
  g_autoptr(LatentParams) params = latent_algorithm_new_params (algorithm);
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentSnapshot) snap = NULL;
  g_autoptr(LatentSnapshot) ref = NULL;
  gpointer state;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  g_assert_true (latent_params_parse (params, "l2=0.01", NULL));
  /* The seed of run (): the same split as the reference run. */
  state = algorithm->init (ds, params, 11, cl, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 3; i++)
    g_assert_true (algorithm->step (state, NULL, NULL));
  latent_cl_inject_failures (1);
  while (!algorithm->converged (state))
    {
      algorithm->step (state, NULL, &error);
      g_assert_no_error (error);
    }
  latent_cl_inject_failures (0);
  snap = algorithm->snapshot (state);
  ref = run (ds, params, NULL);
  g_test_message ("%u epochs, objective %.7g; reference alone %u epochs, %.7g", snap->classifier.epochs.n_epochs,
                  snap->classifier.epochs.train_loss[snap->classifier.epochs.n_epochs - 1], ref->classifier.epochs.n_epochs, ref->classifier.epochs.train_loss[ref->classifier.epochs.n_epochs - 1]);
  g_assert_nonnull (snap->message);
  g_assert_cmpstr (snap->device, ==, "CPU reference");
  g_assert_true (snap->converged);
  for (guint e = 1; e < snap->classifier.epochs.n_epochs; e++)
    g_assert_cmpfloat (snap->classifier.epochs.train_loss[e], <=, snap->classifier.epochs.train_loss[e - 1]);
  g_assert_cmpfloat (fabs (snap->classifier.epochs.train_loss[snap->classifier.epochs.n_epochs - 1] - ref->classifier.epochs.train_loss[ref->classifier.epochs.n_epochs - 1]), <,
                     1e-4 * ref->classifier.epochs.train_loss[ref->classifier.epochs.n_epochs - 1]);
  algorithm->free (state);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/logreg-cl/paths-agree", test_paths_agree);
  g_test_add_func ("/logreg-cl/test-set", test_test_set);
  g_test_add_func ("/logreg-cl/fall-back", test_fall_back);
  g_test_add_func ("/logreg-cl/lbfgs-fall-back", test_lbfgs_fall_back);
  status = g_test_run ();
  g_clear_object (&(LatentCl *) { test_get_cl () });
  return status;
}
