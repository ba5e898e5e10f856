/* test-wta-cl.c — the autoencoder's OpenCL path against its reference:
 * the same winners and the same weights after 20 steps, for every sparsity,
 * tied or not, with momentum and with Adam; a failing device falls back
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-test-wta-cl"

#include <math.h>
#include <string.h>

#include "latent-test-util.h"
#include "latent-wta.h"

static LatentSnapshot *
run_steps (LatentDataset *ds,
           LatentParams  *params,
           LatentCl      *cl,
           guint          steps)
{
  const LatentAlgorithm *algorithm = latent_wta_get_algorithm ();
  g_autoptr(GError) error = NULL;
  gpointer state = algorithm->init (ds, params, 11, cl, NULL, &error);
  LatentSnapshot *snap;

  g_assert_no_error (error);
  for (guint i = 0; i < steps; i++)
    {
      algorithm->step (state, NULL, &error);
      g_assert_no_error (error);
    }
  snap = algorithm->snapshot (state);
  algorithm->free (state);
  return snap;
}

static void
compare (const char *sparsity,
         const char *tied,
         const char *optimizer)
{
  LatentCl *cl = test_get_cl ();
  g_autoptr(LatentDataset) ds = test_blobs (512, 64, 6, 3.0, 21);
  g_autoptr(LatentParams) params = latent_algorithm_new_params (latent_wta_get_algorithm ());
  const char *assignments[] = { "hidden=32", "batch=16", "rate=0.25", "k=5", "learning-rate=0.05",
                                sparsity, tied, optimizer };
  g_autoptr(LatentSnapshot) ref = NULL;
  g_autoptr(LatentSnapshot) dev = NULL;
  double worst = 0;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (assignments); i++)
    g_assert_true (latent_params_parse (params, assignments[i], NULL));
  if (g_str_equal (optimizer, "optimizer=adam"))
    g_assert_true (latent_params_parse (params, "learning-rate=0.003", NULL));

  ref = run_steps (ds, params, NULL, 20);
  dev = run_steps (ds, params, cl, 20);
  g_assert_null (dev->message);
  g_assert_cmpstr (dev->device, !=, ref->device);

  /* The same winners in every step: the same count per unit. */
  g_assert_cmpmem (dev->autoencoder.unit_wins, 32 * sizeof (guint), ref->autoencoder.unit_wins, 32 * sizeof (guint));
  for (gsize i = 0; i < 32 * 64; i++)
    {
      worst = MAX (worst, fabs (dev->autoencoder.encoder_weights[i] - ref->autoencoder.encoder_weights[i]));
      if (ref->autoencoder.decoder_weights)
        worst = MAX (worst, fabs (dev->autoencoder.decoder_weights[i] - ref->autoencoder.decoder_weights[i]));
    }
  for (guint j = 0; j < 32; j++)
    worst = MAX (worst, fabs (dev->autoencoder.hidden_bias[j] - ref->autoencoder.hidden_bias[j]));
  for (guint a = 0; a < 64; a++)
    worst = MAX (worst, fabs (dev->autoencoder.decoder_bias[a] - ref->autoencoder.decoder_bias[a]));
  g_test_message ("%s %s %s: largest weight difference %.3g", sparsity, tied, optimizer, worst);
  g_assert_cmpfloat (worst, <, 1e-4);
  /* The loss of every step agrees too. */
  for (guint s = 0; s < 20; s++)
    g_assert_cmpfloat_with_epsilon (dev->autoencoder.epochs.step_loss[s], ref->autoencoder.epochs.step_loss[s], 1e-4 * MAX (1.0, ref->autoencoder.epochs.step_loss[s]));
  /* Training moved them: the comparison is not of two starting points. */
  g_assert_cmpfloat (ref->autoencoder.epochs.step_loss[19], <, ref->autoencoder.epochs.step_loss[0]);
}

static void
test_paths_agree (void)
{
  const char *sparsities[] = { "sparsity=lifetime", "sparsity=k-sparse", "sparsity=none" };
  const char *tyings[] = { "tied=true", "tied=false" };

  for (guint s = 0; s < G_N_ELEMENTS (sparsities); s++)
    for (guint t = 0; t < G_N_ELEMENTS (tyings); t++)
      compare (sparsities[s], tyings[t], "optimizer=momentum");
  compare ("sparsity=lifetime", "tied=true", "optimizer=adam");
  compare ("sparsity=k-sparse", "tied=false", "optimizer=adam");
}

/* Epochs end on the device as on the host: validation loss, dead units and
 * reconstructions agree. */
static void
test_epochs_agree (void)
{
  LatentCl *cl = test_get_cl ();
  g_autoptr(LatentDataset) ds = test_blobs (300, 20, 5, 2.0, 4);
  g_autoptr(LatentParams) params = latent_algorithm_new_params (latent_wta_get_algorithm ());
  g_autoptr(LatentSnapshot) ref = NULL;
  g_autoptr(LatentSnapshot) dev = NULL;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  g_assert_true (latent_params_parse (params, "hidden=24", NULL));
  g_assert_true (latent_params_parse (params, "batch=27", NULL));
  g_assert_true (latent_params_parse (params, "rate=0.1", NULL));
  /* 270 training rows: ten steps an epoch. */
  ref = run_steps (ds, params, NULL, 30);
  dev = run_steps (ds, params, cl, 30);
  g_assert_cmpuint (dev->autoencoder.epochs.n_epochs, ==, 3);
  g_assert_cmpuint (ref->autoencoder.epochs.n_epochs, ==, 3);
  g_assert_cmpuint (dev->autoencoder.n_dead, ==, ref->autoencoder.n_dead);
  for (guint e = 0; e < 3; e++)
    {
      g_assert_cmpfloat_with_epsilon (dev->autoencoder.epochs.held_out_loss[e], ref->autoencoder.epochs.held_out_loss[e], 1e-4);
      g_assert_cmpfloat_with_epsilon (dev->autoencoder.epoch_dead_fraction[e], ref->autoencoder.epoch_dead_fraction[e], 1e-9);
    }
  g_assert_cmpuint (dev->autoencoder.examples.n_examples, ==, ref->autoencoder.examples.n_examples);
  g_assert_cmpmem (dev->autoencoder.examples.rows, dev->autoencoder.examples.n_examples * sizeof (gint32),
                   ref->autoencoder.examples.rows, ref->autoencoder.examples.n_examples * sizeof (gint32));
  for (gsize i = 0; i < (gsize) dev->autoencoder.examples.n_examples * 20; i++)
    g_assert_cmpfloat_with_epsilon (dev->autoencoder.examples.reconstructions[i], ref->autoencoder.examples.reconstructions[i],
                                    1e-3 * MAX (1.0, fabs (ref->autoencoder.examples.reconstructions[i])));
}

/* A device that fails mid-run: the run goes on on the reference path and
 * says so, and its loss keeps falling. */
static void
test_fall_back (void)
{
  LatentCl *cl = test_get_cl ();
  const LatentAlgorithm *algorithm = latent_wta_get_algorithm ();
  g_autoptr(LatentDataset) ds = test_blobs (400, 16, 4, 2.0, 9);
  g_autoptr(LatentParams) params = latent_algorithm_new_params (algorithm);
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentSnapshot) snap = NULL;
  gpointer state;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  g_assert_true (latent_params_parse (params, "hidden=16", NULL));
  g_assert_true (latent_params_parse (params, "batch=20", NULL));
  state = algorithm->init (ds, params, 2, cl, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 5; i++)
    g_assert_true (algorithm->step (state, NULL, NULL));
  latent_cl_inject_failures (1);
  for (guint i = 0; i < 5; i++)
    {
      algorithm->step (state, NULL, &error);
      g_assert_no_error (error);
    }
  snap = algorithm->snapshot (state);
  g_assert_nonnull (snap->message);
  g_assert_cmpstr (snap->device, ==, "CPU reference");
  g_assert_cmpuint (snap->autoencoder.epochs.n_steps, ==, 10);
  g_assert_true (isfinite (snap->autoencoder.epochs.step_loss[9]));
  algorithm->free (state);
  latent_cl_inject_failures (0);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/wta-cl/paths-agree", test_paths_agree);
  g_test_add_func ("/wta-cl/epochs-agree", test_epochs_agree);
  g_test_add_func ("/wta-cl/fall-back", test_fall_back);
  status = g_test_run ();
  g_clear_object (&(LatentCl *) { test_get_cl () });
  return status;
}
