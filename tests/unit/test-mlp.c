/* test-mlp.c — the multilayer perceptron's reference path: the gradient
 * against central differences (ReLU and tanh, two hidden layers, with
 * dropout's mask held), moons learnt where a line cannot, the network in
 * data units scoring as the run predicted, pretraining from a wta result,
 * refusals naming what is wrong, and convergence
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-test-mlp"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "latent-test-util.h"
#include "latent-classifiers.h"
#include "latent-mlp.h"
#include "latent-mlp-private.h"
#include "latent-registry.h"
#include "latent-result.h"
#include "latent-synthetic.h"
#include "latent-wta.h"

static LatentFit *
fit (LatentDataset *ds,
     LatentParams  *params,
     guint64        seed)
{
  g_autoptr(GError) error = NULL;
  LatentFit *result = latent_algorithm_fit (latent_mlp_get_algorithm (), ds, params, seed, NULL,
                                            NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (result);
  return result;
}

/* Every weight and bias of a full batch's gradient against central
 * differences of its loss, with the L2 term; dropout's mask depends on the
 * step, not the weights, so it holds still while they move. */
static void
check_gradient (const char *activation,
                const char *dropout)
{
  g_autoptr(LatentDataset) ds = test_blobs (60, 5, 3, 4.0, 17);
  g_autoptr(LatentParams) params = test_params (latent_mlp_get_algorithm (), "batch=0", "l2=0.05", "test=0.25",
                                                "hidden-1=6", "hidden-2=4", activation, dropout, NULL);
  const LatentAlgorithm *algorithm = latent_mlp_get_algorithm ();
  g_autoptr(GError) error = NULL;
  LatentMlp *self = algorithm->init (ds, params, 5, NULL, NULL, &error);
  g_autofree double *g = NULL, *g2 = NULL;
  double worst = 0, largest = 0;
  gsize total = 0, at = 0;
  guint kinked = 0;

  g_assert_no_error (error);
  g_assert_cmpuint (self->n_layers, ==, 3);
  g_assert_cmpuint (self->sizes[0], ==, 5);
  g_assert_cmpuint (self->sizes[1], ==, 6);
  g_assert_cmpuint (self->sizes[2], ==, 4);
  g_assert_cmpuint (self->sizes[3], ==, 3);
  for (guint l = 0; l < self->n_layers; l++)
    total += latent_mlp_weights (self, l) + self->sizes[l + 1];
  g = g_new (double, total);
  g2 = g_new (double, total);
  latent_mlp_reference_gradient (self, 0, self->n_train, g);

  for (guint l = 0; l < self->n_layers; l++)
    for (gsize i = 0; i < latent_mlp_weights (self, l) + self->sizes[l + 1]; i++, at++)
      {
        const gsize n = latent_mlp_weights (self, l);
        float *p = i < n ? &self->w[l][i] : &self->b[l][i - n];
        const float saved = *p;
        float up, down;
        double lup, ldown, numeric;

        *p = up = saved + 2e-4f;
        lup = latent_mlp_reference_gradient (self, 0, self->n_train, g2);
        *p = down = saved - 2e-4f;
        ldown = latent_mlp_reference_gradient (self, 0, self->n_train, g2);
        *p = saved;
        numeric = (lup - ldown) / ((double) up - down);
        /* A step across a ReLU's kink (some row's unit crossing 0) is no
         * derivative: a few such, never for tanh. */
        if (fabs (numeric - g[at]) > 1e-3 * fabs (g[at]) + 1e-4 && strstr (activation, "relu"))
          kinked++;
        else
          worst = MAX (worst, fabs (numeric - g[at]));
        largest = MAX (largest, fabs (g[at]));
      }
  g_test_message ("%s %s: largest gradient %.4g, largest difference from central differences %.3g; "
                  "%u of %" G_GSIZE_FORMAT " steps across a kink", activation, dropout, largest, worst, kinked, total);
  g_assert_cmpfloat (largest, >, 1e-2);
  g_assert_cmpfloat (worst, <, 1e-3 * largest);
  g_assert_cmpuint (kinked, <=, total / 10);
  algorithm->free (self);
}

static void
test_gradient (void)
{
  check_gradient ("activation=tanh", "dropout=0");
  check_gradient ("activation=relu", "dropout=0");
  check_gradient ("activation=tanh", "dropout=0.3");
  check_gradient ("activation=relu", "dropout=0.3");
}

/* Two moons: a line gets about 87 % of them; a network of 16 units all
 * but a few. The network in data units (what the figures draw) scores
 * every test row as the run predicted it. */
static void
test_moons (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentDataset) ds = latent_synthetic_moons (600, 0.1, 3, &error);
  g_autoptr(LatentParams) params = test_params (latent_mlp_get_algorithm (), "hidden-1=16", "learning-rate=0.01",
                                                "batch=32", "epochs=150", NULL);
  g_autoptr(LatentFit) result = NULL;
  const LatentClassifierPart *part;
  double units[16], scores[2];

  g_assert_no_error (error);
  result = fit (ds, params, 1);
  part = &result->snapshot->classifier;
  g_assert_cmpfloat (part->test_accuracy, >=, 0.98);
  g_assert_cmpuint (part->n_layers, ==, 2);
  g_assert_cmpuint (part->layer_sizes[1], ==, 16);
  g_assert_cmpuint (latent_classifiers_network_size (part), ==, 16 * 3 + 2 * 17);
  for (guint i = 0; i < part->n_test; i++)
    {
      latent_classifiers_forward (part, latent_dataset_get_row (ds, part->test_rows[i]), units, scores);
      g_assert_cmpint (scores[1] > scores[0], ==, part->test_predictions[i]);
      for (guint u = 0; u < 16; u++)
        g_assert_cmpfloat (units[u], >=, 0);
    }
}

/* Adam to the tolerance: ten epochs without a fall stop the run before its
 * budget; tol = 0 spends it. */
static void
test_converges (void)
{
  g_autoptr(LatentDataset) ds = test_blobs (1500, 4, 3, 3.0, 5);
  g_autoptr(LatentParams) params = test_params (latent_mlp_get_algorithm (), "hidden-1=8", "epochs=400", "tol=1e-3", NULL);
  g_autoptr(LatentParams) budget = test_params (latent_mlp_get_algorithm (), "hidden-1=8", "epochs=30", "tol=0", NULL);
  g_autoptr(LatentFit) a = fit (ds, params, 2);
  g_autoptr(LatentFit) b = fit (ds, budget, 2);

  g_assert_true (a->snapshot->converged);
  g_assert_cmpuint (a->snapshot->classifier.epochs.n_epochs, <, 400);
  g_assert_cmpfloat (a->snapshot->classifier.test_accuracy, >, 0.9);
  g_assert_false (b->snapshot->converged);
  g_assert_cmpuint (b->snapshot->classifier.epochs.n_epochs, ==, 30);
}

/* 8 × 8 images of bars at random places, two classes: vertical and
 * horizontal. */
static LatentDataset *
bars (guint n)
{
  LatentDataset *ds = latent_dataset_new ("bars", n, 64, NULL);
  float *x = latent_dataset_get_data (ds);
  g_autofree gint32 *labels = g_new (gint32, n);
  guint64 state = 7;

  for (guint i = 0; i < n; i++)
    {
      const guint at = (guint) (test_uniform (&state) * 8) % 8;

      labels[i] = i % 2;
      for (guint p = 0; p < 64; p++)
        x[(gsize) i * 64 + p] = 0.1 * test_uniform (&state) + ((labels[i] ? p / 8 : p % 8) == at ? 0.8 : 0.0);
    }
  latent_dataset_set_labels (ds, labels, 2, NULL);
  latent_dataset_set_image_shape (ds, 8, 8, 1, FALSE);
  return ds;
}

/* The first layer from a wta result: before any step each of its units
 * answers every row as the autoencoder's did, max (0, E (x − offset) ·
 * scale + h), in the network's own standardisation; the second layer
 * is drawn at random; then training goes on from there. */
static void
test_pretraining (void)
{
  g_autoptr(LatentDataset) ds = bars (200);
  g_autoptr(LatentParams) wta_params = test_params (latent_wta_get_algorithm (), "hidden=12", "batch=20", "epochs=3", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentFit) wta = latent_algorithm_fit (latent_wta_get_algorithm (), ds, wta_params, 1, NULL, NULL, NULL,
                                                   NULL, &error);
  g_autofree char *dir = g_dir_make_tmp ("latent-mlp-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "wta.json", NULL);
  g_autofree char *init = g_strdup_printf ("init=@%s", path);
  g_autoptr(LatentParams) params = test_params (latent_mlp_get_algorithm (), init, "hidden-1=5", "batch=16", "epochs=20", NULL);
  const LatentAlgorithm *algorithm = latent_mlp_get_algorithm ();
  const LatentAutoencoderPart *ae;
  g_autoptr(LatentSnapshot) start = NULL;
  gpointer state;
  double worst = 0, largest = 0;

  g_assert_no_error (error);
  g_assert_true (latent_result_write_json (wta->snapshot, wta->history, 0, 0, path, &error));
  g_assert_no_error (error);
  ae = &wta->snapshot->autoencoder;

  state = algorithm->init (ds, params, 3, NULL, NULL, &error);
  g_assert_no_error (error);
  start = algorithm->snapshot (state);
  /* The autoencoder's 12 units, not hidden-1's 5. */
  g_assert_cmpuint (start->classifier.layer_sizes[1], ==, 12);
  g_assert_cmpstr (start->message, ==, "First layer from wta.json");
  for (guint r = 0; r < 200; r += 7)
    {
      const float *x = latent_dataset_get_row (ds, r);
      double units[12], scores[2];

      latent_classifiers_forward (&start->classifier, x, units, scores);
      for (guint k = 0; k < 12; k++)
        {
          double s = ae->hidden_bias[k];

          for (guint a = 0; a < 64; a++)
            s += (double) ae->encoder_weights[k * 64 + a] * (x[a] - ae->input_offset[a]) * ae->input_scale[a];
          worst = MAX (worst, fabs (MAX (s, 0) - units[k]));
          largest = MAX (largest, fabs (s));
        }
    }
  g_test_message ("pretrained units: largest %.3g, difference %.3g", largest, worst);
  g_assert_cmpfloat (largest, >, 0.1);
  g_assert_cmpfloat (worst, <, 1e-4 * largest);
  while (!algorithm->converged (state))
    {
      g_assert_true (algorithm->step (state, NULL, &error));
      g_assert_no_error (error);
    }
  {
    g_autoptr(LatentSnapshot) end = algorithm->snapshot (state);

    g_assert_cmpfloat (end->classifier.test_accuracy, >=, 0.95);
  }
  algorithm->free (state);
  g_unlink (path);
  g_rmdir (dir);
}

static void
expect_refused (LatentDataset *ds,
                const char    *setting,
                const char    *words)
{
  g_autoptr(LatentParams) params = test_params (latent_mlp_get_algorithm (), setting, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_false (latent_mlp_get_algorithm ()->check (ds, params, &error));
  g_assert_nonnull (error);
  g_test_message ("%s: %s", setting, error->message);
  g_assert_nonnull (strstr (error->message, words));
}

static void
test_refusals (void)
{
  g_autoptr(LatentDataset) ds = test_blobs (100, 4, 2, 1.0, 3);
  g_autoptr(LatentDataset) unlabelled = latent_dataset_new ("plain", 10, 3, NULL);
  g_autoptr(LatentParams) params = latent_algorithm_new_params (latent_mlp_get_algorithm ());
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("latent-mlp-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "kmeans.json", NULL);
  g_autofree char *from_kmeans = g_strdup_printf ("init=@%s", path);
  g_autofree char *missing = g_strdup_printf ("init=@%s/none.json", dir);
  g_autoptr(LatentFit) kmeans = NULL;

  g_assert_false (latent_mlp_get_algorithm ()->check (unlabelled, params, &error));
  g_assert_nonnull (error);
  {
    g_autoptr(LatentParams) wide = test_params (latent_mlp_get_algorithm (), "hidden-1=65536", "hidden-2=65536", NULL);
    g_autoptr(GError) wide_error = NULL;

    g_assert_false (latent_mlp_get_algorithm ()->check (ds, wide, &wide_error));
    g_assert_nonnull (strstr (wide_error->message, "weights"));
  }
  expect_refused (ds, missing, "none.json");
  {
    const LatentAlgorithm *k_means = latent_registry_lookup ("kmeans", NULL);
    g_autoptr(LatentParams) k_params = latent_algorithm_new_params (k_means);

    kmeans = latent_algorithm_fit (k_means, ds, k_params, 1, NULL, NULL, NULL, NULL, NULL);
  }
  g_assert_true (latent_result_write_json (kmeans->snapshot, kmeans->history, 0, 0, path, NULL));
  expect_refused (ds, from_kmeans, "kmeans");
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/mlp/gradient", test_gradient);
  g_test_add_func ("/mlp/moons", test_moons);
  g_test_add_func ("/mlp/converges", test_converges);
  g_test_add_func ("/mlp/pretraining", test_pretraining);
  g_test_add_func ("/mlp/refusals", test_refusals);
  return g_test_run ();
}
