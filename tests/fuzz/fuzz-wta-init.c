/* fuzz-wta-init.c — libFuzzer harness: a winner-take-all autoencoder's
 * starting weights (wta init=@FILE.json), tied and untied: three hidden units
 * on twelve rows of two columns
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-fuzz"

#include "fuzz-common.h"

#include <math.h>

#include "latent-wta.h"

static LatentDataset *
fuzz_dataset (void)
{
  static LatentDataset *dataset;

  if (dataset == NULL)
    {
      float *x;

      dataset = latent_dataset_new ("fuzz", 12, 2, NULL);
      x = latent_dataset_get_data (dataset);
      for (guint i = 0; i < 24; i++)
        x[i] = (i % 7) / 7.0f;
    }
  return dataset;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static const char * const tied[] = { "tied=true", "tied=false" };
  const LatentAlgorithm *algorithm = latent_wta_get_algorithm ();
  const char *path = latent_fuzz_write (".json", data, size);
  g_autofree char *init = g_strconcat ("init=@", path, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (tied); i++)
    {
      g_autoptr(LatentParams) params = latent_algorithm_new_params (algorithm);
      g_autoptr(GError) error = NULL;
      gpointer state;

      g_assert_true (latent_params_parse (params, "hidden=3", NULL) &&
                     latent_params_parse (params, "batch=4", NULL) &&
                     latent_params_parse (params, "rate=0.5", NULL) &&
                     latent_params_parse (params, "epochs=1", NULL) &&
                     latent_params_parse (params, tied[i], NULL) &&
                     latent_params_parse (params, init, NULL));
      state = algorithm->init (fuzz_dataset (), params, 0, NULL, NULL, &error);
      g_assert_true ((state == NULL) != (error == NULL));
      latent_fuzz_report (error);
      /* Weights that load are finite, and must also train a step and
       * give a snapshot. */
      if (state)
        {
          g_autoptr(GError) step_error = NULL;
          g_autoptr(LatentSnapshot) start = algorithm->snapshot (state);

          for (guint j = 0; j < start->autoencoder.n_units * start->n_cols; j++)
            g_assert_true (isfinite (start->autoencoder.encoder_weights[j]));

          algorithm->step (state, NULL, &step_error);
          latent_snapshot_unref (algorithm->snapshot (state));
          algorithm->free (state);
        }
    }
  return 0;
}
