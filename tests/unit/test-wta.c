/* test-wta.c — the winner-take-all autoencoder's reference path: winner
 * selection, the gradient against finite differences, parameter checks,
 * divergence, a whole fit and the features it encodes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-test-wta"

#include <math.h>
#include <string.h>

#include "latent-test-util.h"
#include "latent-wta.h"
#include "latent-wta-private.h"

/* Four labelled blobs. */
static LatentDataset *
small_data (guint n,
            guint d)
{
  return test_blobs (n, d, 4, 2.0, 7);
}

static void
test_select_ties (void)
{
  /* 3 winners of 7; the two 5s and the 4s tie. */
  const float v[] = { 4, 5, 1, 5, 4, 0, 4 };
  guint8 mask[7];

  latent_wta_select (v, mask, 7, 1, 3);
  g_assert_cmpmem (mask, 7, ((guint8[]) { 1, 1, 0, 1, 0, 0, 0 }), 7);
  latent_wta_select (v, mask, 7, 1, 4);
  g_assert_cmpmem (mask, 7, ((guint8[]) { 1, 1, 0, 1, 1, 0, 0 }), 7);
  /* All zeros: the first k by index. */
  {
    const float z[5] = { 0 };
    guint8 m[5];

    latent_wta_select (z, m, 5, 1, 2);
    g_assert_cmpmem (m, 5, ((guint8[]) { 1, 1, 0, 0, 0 }), 5);
  }
}

static void
test_select_batch (void)
{
  g_autoptr(LatentDataset) ds = small_data (64, 6);
  g_autoptr(LatentParams) lifetime = test_params (latent_wta_get_algorithm (), "hidden=5", "batch=20", "rate=0.1", NULL);
  g_autoptr(LatentParams) ksparse = test_params (latent_wta_get_algorithm (), "hidden=5", "batch=20", "sparsity=k-sparse", "k=2", NULL);
  const LatentAlgorithm *algorithm = latent_wta_get_algorithm ();
  g_autoptr(GError) error = NULL;
  LatentWta *a, *b;
  float act[20 * 5];
  guint8 mask[20 * 5];
  guint64 state = 3;

  for (guint i = 0; i < G_N_ELEMENTS (act); i++)
    act[i] = floor (test_uniform (&state) * 4);   /* many ties */
  a = algorithm->init (ds, lifetime, 1, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (latent_wta_batch_winners (a, 20), ==, 2);
  /* A short batch keeps the same share, at least one. */
  g_assert_cmpuint (latent_wta_batch_winners (a, 7), ==, 1);
  latent_wta_select_batch (a, act, mask, 20);
  for (guint j = 0; j < 5; j++)
    {
      guint kept = 0;

      for (guint r = 0; r < 20; r++)
        {
          kept += mask[r * 5 + j];
          /* Every loser is below a winner, or equal with a higher row. */
          for (guint q = 0; q < 20 && !mask[r * 5 + j]; q++)
            if (mask[q * 5 + j])
              g_assert_true (act[q * 5 + j] > act[r * 5 + j] || (act[q * 5 + j] == act[r * 5 + j] && q < r));
        }
      g_assert_cmpuint (kept, ==, 2);
    }
  algorithm->free (a);

  b = algorithm->init (ds, ksparse, 1, NULL, NULL, &error);
  g_assert_no_error (error);
  latent_wta_select_batch (b, act, mask, 20);
  for (guint r = 0; r < 20; r++)
    {
      guint kept = 0;

      for (guint j = 0; j < 5; j++)
        kept += mask[r * 5 + j];
      g_assert_cmpuint (kept, ==, 2);
    }
  algorithm->free (b);
}

/* The gradient a step applies (momentum 0: v = −lr · g) against central
 * differences of the loss of the same batch, for every sparsity and both
 * tyings. */
static void
check_gradient (const char *sparsity,
                const char *tied)
{
  g_autoptr(LatentDataset) ds = small_data (40, 7);
  g_autoptr(LatentParams) params = test_params (latent_wta_get_algorithm (), "hidden=6", "batch=10", "rate=0.2", "k=3", "momentum=0",
                                               "learning-rate=0.001", "validation=0", sparsity, tied, NULL);
  const LatentAlgorithm *algorithm = latent_wta_get_algorithm ();
  g_autoptr(GError) error = NULL;
  LatentWta *self = algorithm->init (ds, params, 5, NULL, NULL, &error);
  const gsize hd = 6 * 7;
  g_autofree float *w0 = NULL, *wd0 = NULL, *b0 = NULL, *c0 = NULL;
  const double h = 1e-4, lr = 0.001;
  double loss;
  guint checked = 0, skipped = 0;

  g_assert_no_error (error);
  /* Larger weights than the default, so many units are active. */
  for (gsize i = 0; i < hd; i++)
    {
      self->p.w[i] *= 30;
      if (self->p.wd)
        self->p.wd[i] *= 30;
    }
  for (guint j = 0; j < 6; j++)
    self->p.b[j] = 0.05;
  w0 = g_memdup2 (self->p.w, sizeof (float) * hd);
  wd0 = self->p.wd ? g_memdup2 (self->p.wd, sizeof (float) * hd) : NULL;
  b0 = g_memdup2 (self->p.b, sizeof (float) * 6);
  c0 = g_memdup2 (self->p.c, sizeof (float) * 7);
  g_assert_true (latent_wta_reference_step (self, self->order, 10, &loss, NULL));

  /* Back to the start to probe the loss around it. */
  {
    g_autofree float *gw = g_new (float, hd);
    g_autofree float *gwd = g_new (float, hd);
    g_autofree float *gb = g_new (float, 6);
    g_autofree float *gc = g_new (float, 7);
    struct { float *param, *grad; gsize count; } groups[] = {
      { self->p.w, gw, hd }, { self->p.wd, gwd, hd }, { self->p.b, gb, 6 }, { self->p.c, gc, 7 },
    };

    for (gsize i = 0; i < hd; i++)
      {
        gw[i] = -self->v.w[i] / lr;
        if (self->p.wd)
          gwd[i] = -self->v.wd[i] / lr;
      }
    for (guint j = 0; j < 6; j++)
      gb[j] = -self->v.b[j] / lr;
    for (guint a = 0; a < 7; a++)
      gc[a] = -self->v.c[a] / lr;
    memcpy (self->p.w, w0, sizeof (float) * hd);
    if (wd0)
      memcpy (self->p.wd, wd0, sizeof (float) * hd);
    memcpy (self->p.b, b0, sizeof (float) * 6);
    memcpy (self->p.c, c0, sizeof (float) * 7);

    for (guint g = 0; g < G_N_ELEMENTS (groups); g++)
      for (gsize i = 0; groups[g].param && i < groups[g].count; i++)
        {
          const float keep = groups[g].param[i];
          double up, down, center, numeric;

          g_assert_true (latent_wta_reference_forward (self, self->order, 10, &center, NULL, NULL));
          const float hi = keep + h, lo = keep - h;

          groups[g].param[i] = hi;
          g_assert_true (latent_wta_reference_forward (self, self->order, 10, &up, NULL, NULL));
          groups[g].param[i] = lo;
          g_assert_true (latent_wta_reference_forward (self, self->order, 10, &down, NULL, NULL));
          groups[g].param[i] = keep;
          /* The step the floats really took. */
          numeric = (up - down) / ((double) hi - lo);
          /* A winner that changes inside ±h bends the loss sharply: such
           * rare probes say nothing about the gradient. */
          if (fabs (up - 2 * center + down) > 0.1 * fabs (up - down) + 1e-10)
            {
              skipped++;
              continue;
            }
          if (fabs (numeric) > 1e-6 || fabs (groups[g].grad[i]) > 1e-6)
            {
              g_assert_cmpfloat_with_epsilon (groups[g].grad[i], numeric,
                                              2e-3 * MAX (1.0, fabs (numeric)));
              checked++;
            }
        }
  }
  /* Enough nonzero gradients were compared to mean something. */
  g_assert_cmpuint (checked, >, 20);
  g_assert_cmpuint (skipped, <, checked / 10);
  algorithm->free (self);
}

static void
test_gradient (void)
{
  const char *sparsities[] = { "sparsity=lifetime", "sparsity=k-sparse", "sparsity=none" };

  for (guint s = 0; s < G_N_ELEMENTS (sparsities); s++)
    {
      check_gradient (sparsities[s], "tied=true");
      check_gradient (sparsities[s], "tied=false");
    }
}

static void
expect_refused (LatentDataset *ds,
                const char    *assignment,
                const char    *named)
{
  g_autoptr(LatentParams) params = latent_algorithm_new_params (latent_wta_get_algorithm ());
  g_autoptr(GError) error = NULL;

  if (latent_params_parse (params, assignment, &error))
    latent_algorithm_check (latent_wta_get_algorithm (), ds, params, &error);
  g_assert_nonnull (error);
  g_test_message ("%s: %s", assignment, error->message);
  g_assert_nonnull (strstr (error->message, named));
}

static void
test_bad_parameters (void)
{
  g_autoptr(LatentDataset) ds = small_data (200, 5);

  expect_refused (ds, "rate=0", "rate");
  expect_refused (ds, "rate=1.5", "rate");
  /* 0.4 of a winner in 100 rows: how far to raise either. */
  expect_refused (ds, "rate=0.004", "raise rate to 0.005 or batch to 125");
  {
    g_autoptr(LatentDataset) six = small_data (6, 5);

    /* A batch of all 6 training rows: raising batch would not help. */
    expect_refused (six, "hidden=2", "all 6 training rows");
    expect_refused (six, "hidden=2", "raise rate to 0.084 or more");
  }
  expect_refused (ds, "hidden=0", "hidden");
  expect_refused (ds, "learning-rate=nan", "learning-rate");
  expect_refused (ds, "learning-rate=0", "learning-rate");
  expect_refused (ds, "sparsity=sometimes", "sparsity");
}

/* A batch larger than the training rows is all of them (180 of 200 with a
 * tenth held out to validate): one step an epoch, not a refusal. */
static void
test_batch_beyond_rows (void)
{
  g_autoptr(LatentDataset) ds = small_data (200, 5);
  g_autoptr(LatentParams) params = test_params (latent_wta_get_algorithm (), "batch=190", "epochs=3", "hidden=8", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentFit) fit = latent_algorithm_fit (latent_wta_get_algorithm (), ds, params, 1, NULL,
                                                   NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (fit->snapshot->autoencoder.epochs.steps_per_epoch, ==, 1);
  g_assert_cmpuint (fit->snapshot->iteration, ==, 3);
}

static void
test_divergence (void)
{
  g_autoptr(LatentDataset) ds = small_data (200, 5);
  g_autoptr(LatentParams) params = test_params (latent_wta_get_algorithm (), "hidden=8", "batch=10", "learning-rate=10", "epochs=50", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentFit) fit = latent_algorithm_fit (latent_wta_get_algorithm (), ds, params, 1, NULL,
                                                   NULL, NULL, NULL, &error);

  g_assert_null (fit);
  g_assert_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_NUMERIC);
  g_assert_nonnull (strstr (error->message, "learning-rate"));
}

/* Data and weights that are not finite from the start are the data's or
 * the weights' fault, not the learning rate's (issue 35, 10); a column
 * whose range underflows is constant, not scaled to infinity. */
static void
test_not_finite_from_the_start (void)
{
  const LatentAlgorithm *algorithm = latent_wta_get_algorithm ();
  g_autoptr(LatentParams) params = test_params (algorithm, "hidden=4", "batch=10", "epochs=2", NULL);

  {
    g_autoptr(LatentDataset) ds = small_data (100, 3);
    float *x = latent_dataset_get_data (ds);
    g_autoptr(GError) error = NULL;
    g_autoptr(LatentFit) fit = NULL;

    for (guint i = 0; i < 100 * 3; i++)
      x[i] = i % 2 ? 3e38f : -3e38f;
    fit = latent_algorithm_fit (algorithm, ds, params, 1, NULL, NULL, NULL, NULL, &error);
    g_assert_null (fit);
    g_assert_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_DATA);
    g_test_message ("refused: %s", error->message);
    g_assert_null (strstr (error->message, "learning-rate"));
  }
  {
    g_autoptr(LatentDataset) ds = small_data (100, 3);
    float *x = latent_dataset_get_data (ds);
    g_autoptr(GError) error = NULL;
    LatentWta *self;

    /* Subnormals only; init called directly, without the fit's flushing. */
    for (guint i = 0; i < 100; i++)
      x[i * 3] = 1e-39f * (i % 3);
    self = algorithm->init (ds, params, 1, NULL, NULL, &error);
    g_assert_no_error (error);
    for (guint a = 0; a < 3; a++)
      g_assert_true (isfinite (self->scale[a]));
    g_assert_cmpfloat (self->scale[0], ==, 1);
    algorithm->free (self);
  }
  {
    g_autoptr(LatentDataset) ds = small_data (100, 3);
    g_autoptr(GError) error = NULL;
    LatentWta *self = algorithm->init (ds, params, 1, NULL, NULL, &error);

    g_assert_no_error (error);
    for (guint i = 0; i < self->h * self->d; i++)
      self->p.w[i] = 3e38f;
    g_assert_false (algorithm->step (self, NULL, &error));
    g_assert_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_DATA);
    g_test_message ("refused: %s", error->message);
    g_assert_null (strstr (error->message, "learning-rate"));
    algorithm->free (self);
  }
}

static void
test_fit_and_encode (void)
{
  g_autoptr(LatentDataset) ds = small_data (300, 6);
  g_autoptr(LatentParams) params = test_params (latent_wta_get_algorithm (), "hidden=12", "batch=30", "rate=0.2", "epochs=30",
                                               "learning-rate=0.05", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) losses = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(LatentFit) fit = latent_algorithm_fit (latent_wta_get_algorithm (), ds, params, 3, NULL,
                                                   test_append_objective, losses, NULL, &error);
  g_autoptr(LatentDataset) features = NULL;
  LatentSnapshot *snap;
  double first = 0, last = 0;

  g_assert_no_error (error);
  snap = fit->snapshot;
  /* 270 training rows in batches of 30, 30 epochs. */
  g_assert_cmpuint (fit->history->len, ==, 9 * 30);
  g_assert_cmpuint (snap->autoencoder.epochs.n_epochs, ==, 30);
  g_assert_cmpuint (snap->autoencoder.epochs.n_steps, ==, 270);
  g_assert_true (snap->final);
  for (guint i = 0; i < 9; i++)
    {
      first += g_array_index (losses, double, i);
      last += g_array_index (losses, double, losses->len - 1 - i);
    }
  /* Training lowers the loss by more than half, and the held-out rows
   * follow. */
  g_assert_cmpfloat (last, <, 0.5 * first);
  g_assert_true (isfinite (snap->autoencoder.epochs.held_out_loss[29]));
  g_assert_cmpfloat (snap->autoencoder.epochs.held_out_loss[29], <, snap->autoencoder.epochs.held_out_loss[0]);
  g_assert_cmpuint (snap->autoencoder.examples.n_examples, ==, 16);
  /* The examples are validation rows, distinct. */
  for (guint r = 1; r < snap->autoencoder.examples.n_examples; r++)
    g_assert_cmpint (snap->autoencoder.examples.rows[r], !=, snap->autoencoder.examples.rows[0]);

  features = latent_wta_encode (snap, ds, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (latent_dataset_get_n_rows (features), ==, 300);
  g_assert_cmpuint (latent_dataset_get_n_cols (features), ==, 12);
  g_assert_true (latent_dataset_has_labels (features));
  g_assert_cmpmem (latent_dataset_get_labels (features), 300 * sizeof (gint32),
                   latent_dataset_get_labels (ds), 300 * sizeof (gint32));
  /* The dense code of row 0 by hand. */
  for (guint j = 0; j < 12; j++)
    {
      const float *x = latent_dataset_get_row (ds, 0);
      double z = snap->autoencoder.hidden_bias[j];

      for (guint a = 0; a < 6; a++)
        z += (double) snap->autoencoder.encoder_weights[j * 6 + a] * (x[a] - snap->autoencoder.input_offset[a]) * snap->autoencoder.input_scale[a];
      g_assert_cmpfloat_with_epsilon (latent_dataset_get_row (features, 0)[j], MAX (0, z), 1e-4);
    }
  /* A dataset of other columns is refused. */
  {
    g_autoptr(LatentDataset) other = small_data (10, 5);
    g_autoptr(LatentDataset) none = latent_wta_encode (snap, other, &error);

    g_assert_null (none);
    g_assert_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/wta/select-ties", test_select_ties);
  g_test_add_func ("/wta/select-batch", test_select_batch);
  g_test_add_func ("/wta/gradient", test_gradient);
  g_test_add_func ("/wta/bad-parameters", test_bad_parameters);
  g_test_add_func ("/wta/batch-beyond-rows", test_batch_beyond_rows);
  g_test_add_func ("/wta/divergence", test_divergence);
  g_test_add_func ("/wta/fit-and-encode", test_fit_and_encode);
  g_test_add_func ("/wta/not-finite-from-the-start", test_not_finite_from_the_start);
  return g_test_run ();
}
