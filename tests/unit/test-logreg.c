/* test-logreg.c — logistic regression's reference path: the gradient
 * against finite differences, separable data learnt perfectly, refusals
 * (one class, no labels, no test rows), divergence, seeds, epochs, a batch
 * larger than the data, and the model in data units; the defaults (L-BFGS)
 * stop converged at the minimum before their budget, tol = 0 spends it,
 * and mini-batches stop once their epochs stop improving
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-test-logreg"

#include <math.h>
#include <string.h>

#include "latent-test-util.h"
#include "latent-logreg.h"
#include "latent-logreg-private.h"

static LatentFit *
fit (LatentDataset *ds,
     LatentParams  *params,
     guint64        seed)
{
  g_autoptr(GError) error = NULL;
  LatentFit *result = latent_algorithm_fit (latent_logreg_get_algorithm (), ds, params, seed, NULL,
                                            NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (result);
  return result;
}

/* The gradient of a full batch (weights, biases, the L2 term with them)
 * against central differences of its loss, from random weights so every
 * class has some probability to move. */
/* What the history records is named for the optimiser: L-BFGS's steps
 * are over every row, the others' over a mini-batch. */
static void
test_objective_name (void)
{
  const LatentAlgorithm *logreg = latent_logreg_get_algorithm ();
  g_autoptr(LatentParams) params = latent_algorithm_new_params (logreg);

  g_assert_cmpstr (latent_algorithm_objective_name (logreg, params), ==, "training loss");
  g_assert_true (latent_params_set (params, "optimizer", "momentum", NULL));
  g_assert_cmpstr (latent_algorithm_objective_name (logreg, params), ==, "mini-batch loss");
  g_assert_cmpstr (latent_algorithm_objective_name (logreg, NULL), ==, "mini-batch loss");
}

static void
test_gradient (void)
{
  g_autoptr(LatentDataset) ds = test_blobs (60, 5, 3, 4.0, 17);
  g_autoptr(LatentParams) params = test_params (latent_logreg_get_algorithm (), "batch=0", "l2=0.05", "test=0.25", NULL);
  const LatentAlgorithm *algorithm = latent_logreg_get_algorithm ();
  g_autoptr(GError) error = NULL;
  LatentLogreg *self = algorithm->init (ds, params, 5, NULL, NULL, &error);
  g_autofree double *gw = NULL, *gb = NULL, *gw2 = NULL, *gb2 = NULL;
  guint64 state = 99;
  double worst = 0, largest = 0;
  gsize cd;

  g_assert_no_error (error);
  g_assert_cmpuint (self->c, ==, 3);
  g_assert_cmpuint (self->n_train, ==, 45);
  cd = (gsize) self->c * self->d;
  for (gsize i = 0; i < cd; i++)
    self->w[i] = 0.5 * test_normal (&state);
  for (guint k = 0; k < self->c; k++)
    self->b[k] = 0.3 * test_normal (&state);
  gw = g_new (double, cd);
  gb = g_new (double, self->c);
  gw2 = g_new (double, cd);
  gb2 = g_new (double, self->c);
  latent_logreg_reference_gradient (self, 0, self->n_train, gw, gb);

  for (gsize i = 0; i < cd + self->c; i++)
    {
      float *p = i < cd ? &self->w[i] : &self->b[i - cd];
      const float saved = *p;
      const double analytic = i < cd ? gw[i] : gb[i - cd];
      float up, down;
      double lup, ldown, numeric;

      *p = up = saved + 1e-2f;
      lup = latent_logreg_reference_gradient (self, 0, self->n_train, gw2, gb2);
      *p = down = saved - 1e-2f;
      ldown = latent_logreg_reference_gradient (self, 0, self->n_train, gw2, gb2);
      *p = saved;
      /* By the step actually taken in float. */
      numeric = (lup - ldown) / ((double) up - down);
      worst = MAX (worst, fabs (numeric - analytic));
      largest = MAX (largest, fabs (analytic));
    }
  g_test_message ("largest gradient %.4g, largest difference from central differences %.3g", largest, worst);
  g_assert_cmpfloat (largest, >, 1e-2);
  g_assert_cmpfloat (worst, <, 1e-4 * largest);
  algorithm->free (self);
}

/* Two blobs far apart: every test row right, and the training ones. */
static void
test_separable (void)
{
  g_autoptr(LatentDataset) ds = test_blobs (200, 2, 2, 0.5, 3);
  g_autoptr(LatentParams) params = test_params (latent_logreg_get_algorithm (), "optimizer=momentum", "batch=16", "epochs=20",
                                                  "learning-rate=0.05", NULL);
  g_autoptr(LatentFit) result = fit (ds, params, 1);
  LatentSnapshot *snap = result->snapshot;

  g_assert_true (snap->final);
  g_assert_cmpuint (snap->classifier.n_classes, ==, 2);
  g_assert_cmpuint (snap->classifier.n_test, ==, 40);
  g_assert_cmpfloat (snap->classifier.test_accuracy, ==, 1.0);
  g_assert_cmpfloat (snap->classifier.train_accuracy, ==, 1.0);
  g_assert_cmpuint (snap->classifier.confusion[1], ==, 0);
  g_assert_cmpuint (snap->classifier.confusion[2], ==, 0);
  g_assert_cmpuint (snap->classifier.confusion[0] + snap->classifier.confusion[3], ==, 40);
  /* The loss fell from log 2. */
  g_assert_cmpfloat (fabs (snap->classifier.epochs.step_loss[0] - log (2.0)), <, 1e-6);
  g_assert_cmpfloat (snap->classifier.epochs.train_loss[snap->classifier.epochs.n_epochs - 1], <, 0.1);
}

static void
assert_refused (LatentDataset *ds,
                LatentParams  *params,
                const char    *words)
{
  g_autoptr(GError) error = NULL;
  gpointer state = latent_logreg_get_algorithm ()->init (ds, params, 1, NULL, NULL, &error);

  g_assert_null (state);
  g_assert_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER);
  g_test_message ("refused: %s", error->message);
  g_assert_nonnull (strstr (error->message, words));
}

static void
test_refusals (void)
{
  g_autoptr(LatentDataset) one = test_blobs (50, 3, 1, 1.0, 4);
  g_autoptr(LatentDataset) plain = latent_dataset_new ("unlabelled", 30, 2, NULL);
  g_autoptr(LatentDataset) ds = test_blobs (100, 3, 2, 1.0, 4);
  g_autoptr(LatentParams) params = test_params (latent_logreg_get_algorithm (), NULL, NULL);
  g_autoptr(LatentParams) no_test = test_params (latent_logreg_get_algorithm (), "test=0", NULL);

  assert_refused (one, params, "one class");
  assert_refused (plain, params, "no labels");
  assert_refused (ds, no_test, "test = 0");
}

/* Raw data in the thousands, no standardising, a large step: the loss runs
 * away and the run stops with a message naming the learning rate. */
static void
test_diverges (void)
{
  g_autoptr(LatentDataset) ds = test_blobs (100, 4, 4, 3.0, 8);
  g_autoptr(LatentParams) params = test_params (latent_logreg_get_algorithm (), "optimizer=momentum", "standardise=false",
                                                  "learning-rate=50", "batch=10", NULL);
  g_autoptr(GError) error = NULL;
  float *x = latent_dataset_get_data (ds);
  g_autoptr(LatentFit) result = NULL;

  for (guint i = 0; i < 100 * 4; i++)
    x[i] *= 1000;
  result = latent_algorithm_fit (latent_logreg_get_algorithm (), ds, params, 1, NULL, NULL, NULL, NULL, &error);
  g_assert_null (result);
  g_assert_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_NUMERIC);
  g_assert_nonnull (strstr (error->message, "learning-rate = 50"));
}

/* Raw values whose products overflow single precision are the data's
 * fault, not the learning rate's, under either optimiser; a column of
 * subnormals is constant, not divided by a spread that underflows
 * (issue 35, 10). */
static void
test_not_finite_data (void)
{
  const LatentAlgorithm *algorithm = latent_logreg_get_algorithm ();
  const char * const optimizers[] = { "optimizer=lbfgs", "optimizer=momentum" };

  for (guint o = 0; o < G_N_ELEMENTS (optimizers); o++)
    {
      g_autoptr(LatentDataset) ds = test_blobs (100, 3, 2, 1.0, 4);
      g_autoptr(LatentParams) params = test_params (algorithm, optimizers[o], "standardise=false", NULL);
      float *x = latent_dataset_get_data (ds);
      g_autoptr(GError) error = NULL;
      g_autoptr(LatentFit) result = NULL;

      for (guint i = 0; i < 100 * 3; i++)
        x[i] *= 1e36f;
      result = latent_algorithm_fit (algorithm, ds, params, 1, NULL, NULL, NULL, NULL, &error);
      g_assert_null (result);
      g_assert_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_DATA);
      g_test_message ("refused: %s", error->message);
      g_assert_null (strstr (error->message, "learning-rate"));
    }
  {
    g_autoptr(LatentDataset) ds = test_blobs (100, 3, 2, 1.0, 4);
    g_autoptr(LatentParams) params = test_params (algorithm, NULL, NULL);
    float *x = latent_dataset_get_data (ds);
    g_autoptr(GError) error = NULL;
    LatentLogreg *self;

    /* init called directly, without the fit's flushing of subnormals. */
    for (guint i = 0; i < 100; i++)
      x[i * 3] = 1e-39f * (i % 3);
    self = algorithm->init (ds, params, 1, NULL, NULL, &error);
    g_assert_no_error (error);
    for (guint a = 0; a < 3; a++)
      g_assert_true (isfinite (self->scale[a]));
    g_assert_cmpfloat (self->scale[0], ==, 1);
    algorithm->free (self);
  }
}

static void
test_seeds (void)
{
  g_autoptr(LatentDataset) ds = test_blobs (300, 6, 4, 6.0, 12);
  g_autoptr(LatentParams) params = test_params (latent_logreg_get_algorithm (), "batch=25", "epochs=3", "optimizer=adam",
                                                  "learning-rate=0.01", NULL);
  g_autoptr(LatentFit) a = fit (ds, params, 7);
  g_autoptr(LatentFit) b = fit (ds, params, 7);
  g_autoptr(LatentFit) other = fit (ds, params, 8);

  g_assert_cmpuint (a->snapshot->classifier.epochs.n_steps, ==, b->snapshot->classifier.epochs.n_steps);
  g_assert_cmpmem (a->snapshot->classifier.epochs.step_loss, a->snapshot->classifier.epochs.n_steps * sizeof (float),
                   b->snapshot->classifier.epochs.step_loss, b->snapshot->classifier.epochs.n_steps * sizeof (float));
  g_assert_cmpmem (a->snapshot->classifier.class_weights, 4 * 6 * sizeof (float),
                   b->snapshot->classifier.class_weights, 4 * 6 * sizeof (float));
  g_assert_cmpmem (a->snapshot->classifier.test_predictions, a->snapshot->classifier.n_test * sizeof (gint32),
                   b->snapshot->classifier.test_predictions, b->snapshot->classifier.n_test * sizeof (gint32));
  /* Another seed holds out other rows. */
  g_assert_true (memcmp (a->snapshot->classifier.test_rows, other->snapshot->classifier.test_rows,
                         a->snapshot->classifier.n_test * sizeof (gint32)) != 0);
}

/* A batch larger than the training rows is all of them: one step an
 * epoch, as batch = 0. */
static void
test_large_batch (void)
{
  g_autoptr(LatentDataset) ds = test_blobs (100, 3, 2, 1.0, 4);
  g_autoptr(LatentParams) big = test_params (latent_logreg_get_algorithm (), "optimizer=momentum", "batch=500", "epochs=3", NULL);
  g_autoptr(LatentParams) all = test_params (latent_logreg_get_algorithm (), "optimizer=momentum", "batch=0", "epochs=3", NULL);
  g_autoptr(LatentFit) a = fit (ds, big, 1);
  g_autoptr(LatentFit) b = fit (ds, all, 1);

  g_assert_cmpuint (a->snapshot->classifier.epochs.steps_per_epoch, ==, 1);
  g_assert_cmpuint (a->snapshot->classifier.epochs.n_steps, ==, 3);
  g_assert_cmpmem (a->snapshot->classifier.epochs.step_loss, 3 * sizeof (float), b->snapshot->classifier.epochs.step_loss, 3 * sizeof (float));
}

/* 80 training rows in batches of 32: three steps an epoch, the last of 16;
 * the epoch's loss is the mean over its rows. */
static void
test_epochs (void)
{
  g_autoptr(LatentDataset) ds = test_blobs (100, 3, 3, 2.0, 5);
  g_autoptr(LatentParams) params = test_params (latent_logreg_get_algorithm (), "optimizer=momentum", "batch=32", "epochs=2",
                                                  "shuffle=false", NULL);
  g_autoptr(LatentFit) result = fit (ds, params, 2);
  LatentSnapshot *snap = result->snapshot;
  double mean;

  g_assert_cmpuint (result->history->len, ==, 6);   /* one record a step */
  g_assert_cmpuint (snap->iteration, ==, 6);
  g_assert_cmpuint (snap->classifier.epochs.steps_per_epoch, ==, 3);
  g_assert_cmpuint (snap->classifier.epochs.n_epochs, ==, 2);
  mean = (32.0 * snap->classifier.epochs.step_loss[3] + 32.0 * snap->classifier.epochs.step_loss[4] + 16.0 * snap->classifier.epochs.step_loss[5]) / 80;
  g_assert_cmpfloat_with_epsilon (snap->classifier.epochs.train_loss[1], mean, 1e-6);
  g_assert_true (snap->classifier.epoch_test_accuracy[1] >= 0 && snap->classifier.epoch_test_accuracy[1] <= 1);
  g_assert_cmpfloat (snap->classifier.epoch_test_accuracy[1], ==, snap->classifier.test_accuracy);
}

/* The snapshot's weights are in the data's units: scoring raw test rows
 * with them gives the predictions the run made on standardised ones. */
static void
test_data_units (void)
{
  g_autoptr(LatentDataset) ds = test_blobs (400, 5, 4, 3.0, 31);
  g_autoptr(LatentParams) params = test_params (latent_logreg_get_algorithm (), "optimizer=momentum", "batch=50", "epochs=4", NULL);
  g_autoptr(LatentFit) result = NULL;
  LatentSnapshot *snap;
  float *x = latent_dataset_get_data (ds);
  guint same = 0;

  /* Columns of very different scales and offsets. */
  for (guint i = 0; i < 400; i++)
    for (guint a = 0; a < 5; a++)
      x[i * 5 + a] = x[i * 5 + a] * (a + 1) * 10 + 100 * a;
  result = fit (ds, params, 4);
  snap = result->snapshot;
  g_assert_nonnull (snap->classifier.class_bias);
  for (guint i = 0; i < snap->classifier.n_test; i++)
    {
      const float *row = latent_dataset_get_row (snap->classifier.test_dataset, snap->classifier.test_rows[i]);
      double best = -INFINITY;
      gint32 klass = 0;

      for (guint k = 0; k < 4; k++)
        {
          double s = snap->classifier.class_bias[k];

          for (guint a = 0; a < 5; a++)
            s += (double) snap->classifier.class_weights[k * 5 + a] * row[a];
          if (s > best)
            {
              best = s;
              klass = k;
            }
        }
      same += klass == snap->classifier.test_predictions[i];
    }
  g_assert_cmpuint (same, ==, snap->classifier.n_test);
  g_assert_cmpfloat (snap->classifier.test_accuracy, >, 0.9);
}

/* A person pressing Run gets the converged model: with the defaults, three
 * separable blobs stop on the tolerance well before the epoch budget,
 * every row right, and the epochs' training loss falls all the way (the
 * curve the window draws). */
static void
test_defaults_converge (void)
{
  g_autoptr(LatentDataset) ds = test_blobs (300, 4, 3, 0.5, 9);
  g_autoptr(LatentParams) params = test_params (latent_logreg_get_algorithm (), NULL, NULL);
  g_autoptr(LatentFit) result = fit (ds, params, 3);
  LatentSnapshot *snap = result->snapshot;

  g_test_message ("%u epochs of %" G_GINT64_FORMAT ", training loss %.4g → %.4g, test accuracy %.3f",
                  snap->classifier.epochs.n_epochs, latent_params_get_int (params, "epochs"), snap->classifier.epochs.train_loss[0],
                  snap->classifier.epochs.train_loss[snap->classifier.epochs.n_epochs - 1], snap->classifier.test_accuracy);
  g_assert_true (snap->final);
  g_assert_true (snap->converged);
  g_assert_cmpuint (snap->classifier.epochs.n_epochs, <, latent_params_get_int (params, "epochs"));
  /* Enough epochs to draw a descent, each no higher than the last. */
  g_assert_cmpuint (snap->classifier.epochs.n_epochs, >=, 5);
  for (guint e = 1; e < snap->classifier.epochs.n_epochs; e++)
    g_assert_cmpfloat (snap->classifier.epochs.train_loss[e], <=, snap->classifier.epochs.train_loss[e - 1]);
  g_assert_cmpfloat (snap->classifier.epochs.train_loss[snap->classifier.epochs.n_epochs - 1], <, 0.5 * snap->classifier.epochs.train_loss[0]);
  g_assert_cmpfloat (snap->classifier.test_accuracy, ==, 1.0);
  g_assert_cmpfloat (snap->classifier.train_accuracy, ==, 1.0);
}

/* Where L-BFGS stops on overlapping classes, the gradient of the objective
 * (penalty included) is all but zero: its minimum, not a point on the way. */
static void
test_lbfgs_minimum (void)
{
  const LatentAlgorithm *algorithm = latent_logreg_get_algorithm ();
  g_autoptr(LatentDataset) ds = test_blobs (400, 6, 4, 3.0, 23);
  g_autoptr(LatentParams) params = test_params (algorithm, "l2=0.01", "tol=1e-9", NULL);
  g_autoptr(GError) error = NULL;
  LatentLogreg *self = algorithm->init (ds, params, 4, NULL, NULL, &error);
  g_autofree double *gw = NULL, *gb = NULL;
  double start, end, largest = 0;

  g_assert_no_error (error);
  gw = g_new (double, (gsize) self->c * self->d);
  gb = g_new (double, self->c);
  start = latent_logreg_reference_gradient (self, 0, self->n_train, gw, gb);
  while (!algorithm->converged (self))
    {
      g_assert_true (algorithm->step (self, NULL, &error));
      g_assert_no_error (error);
    }
  end = latent_logreg_reference_gradient (self, 0, self->n_train, gw, gb);
  for (gsize i = 0; i < (gsize) self->c * self->d; i++)
    largest = MAX (largest, fabs (gw[i]));
  for (guint k = 0; k < self->c; k++)
    largest = MAX (largest, fabs (gb[k]));
  g_test_message ("%u iterations: objective %.6g → %.6g, largest gradient %.3g", self->log.epoch, start, end, largest);
  g_assert_true (self->converged);
  g_assert_cmpuint (self->log.epoch, <, self->epochs);
  g_assert_cmpfloat (end, <, 0.5 * start);
  g_assert_cmpfloat (largest, <, 1e-4);
  algorithm->free (self);
}

/* tol = 0 (what the window sets to go on past "converged") spends the
 * whole budget, and does not claim to have converged. */
static void
test_tol_zero (void)
{
  g_autoptr(LatentDataset) ds = test_blobs (300, 4, 3, 0.5, 9);
  g_autoptr(LatentParams) params = test_params (latent_logreg_get_algorithm (), "tol=0", "epochs=12", NULL);
  g_autoptr(LatentFit) result = fit (ds, params, 3);

  g_assert_true (result->snapshot->final);
  g_assert_false (result->snapshot->converged);
  g_assert_cmpuint (result->snapshot->classifier.epochs.n_epochs, ==, 12);
  g_assert_cmpuint (result->snapshot->classifier.epochs.n_steps, ==, 12);
}

/* Mini-batches stop once five epochs in a row did not lower the best
 * epoch loss by tol: with tol = 0.9 the first epoch is the best, and no
 * later one falls to a tenth of it. */
static void
test_minibatch_patience (void)
{
  g_autoptr(LatentDataset) ds = test_blobs (200, 3, 3, 2.0, 6);
  g_autoptr(LatentParams) params = test_params (latent_logreg_get_algorithm (), "optimizer=momentum", "batch=40",
                                                  "learning-rate=0.001", "tol=0.9", NULL);
  g_autoptr(LatentFit) result = fit (ds, params, 5);

  g_assert_true (result->snapshot->converged);
  g_assert_cmpuint (result->snapshot->classifier.epochs.n_epochs, ==, 6);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/logreg/objective-name", test_objective_name);
  g_test_add_func ("/logreg/gradient", test_gradient);
  g_test_add_func ("/logreg/separable", test_separable);
  g_test_add_func ("/logreg/refusals", test_refusals);
  g_test_add_func ("/logreg/diverges", test_diverges);
  g_test_add_func ("/logreg/not-finite-data", test_not_finite_data);
  g_test_add_func ("/logreg/seeds", test_seeds);
  g_test_add_func ("/logreg/large-batch", test_large_batch);
  g_test_add_func ("/logreg/epochs", test_epochs);
  g_test_add_func ("/logreg/data-units", test_data_units);
  g_test_add_func ("/logreg/defaults-converge", test_defaults_converge);
  g_test_add_func ("/logreg/lbfgs-minimum", test_lbfgs_minimum);
  g_test_add_func ("/logreg/tol-zero", test_tol_zero);
  g_test_add_func ("/logreg/minibatch-patience", test_minibatch_patience);
  return g_test_run ();
}
