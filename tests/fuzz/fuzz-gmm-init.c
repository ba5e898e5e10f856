/* fuzz-gmm-init.c — libFuzzer harness: a Gaussian mixture's starting model
 * (gmm init=@FILE.json), with full, diagonal and spherical covariances: two
 * components on twelve rows of two columns
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-fuzz"

#include "fuzz-common.h"

#include "latent-gmm.h"

/* Twelve rows around (0, 0) and (4, 4), the same for every input. */
static LatentDataset *
fuzz_dataset (void)
{
  static LatentDataset *dataset;

  if (dataset == NULL)
    {
      float *x;

      dataset = latent_dataset_new ("fuzz", 12, 2, NULL);
      x = latent_dataset_get_data (dataset);
      for (guint i = 0; i < 12; i++)
        {
          x[i * 2] = (i % 2) * 4 + (i % 3) * 0.25f;
          x[i * 2 + 1] = (i % 2) * 4 - (i % 5) * 0.125f;
        }
    }
  return dataset;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static const char * const covariances[] = { "covariance=full", "covariance=diag", "covariance=spherical" };
  const LatentAlgorithm *algorithm = latent_gmm_get_algorithm ();
  const char *path = latent_fuzz_write (".json", data, size);
  g_autofree char *init = g_strconcat ("init=@", path, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (covariances); i++)
    {
      g_autoptr(LatentParams) params = latent_algorithm_new_params (algorithm);
      g_autoptr(GError) error = NULL;
      gpointer state;

      g_assert_true (latent_params_parse (params, "k=2", NULL) &&
                     latent_params_parse (params, "max-iterations=1", NULL) &&
                     latent_params_parse (params, covariances[i], NULL) &&
                     latent_params_parse (params, init, NULL));
      state = algorithm->init (fuzz_dataset (), params, 0, NULL, NULL, &error);
      g_assert_true ((state == NULL) != (error == NULL));
      latent_fuzz_report (error);
      /* A model that loads must also take a step and a snapshot. */
      if (state)
        {
          g_autoptr(GError) step_error = NULL;
          g_autoptr(LatentRows) rows = latent_rows_new_for_dataset (fuzz_dataset (), 0);

          latent_algorithm_step (algorithm, state, rows, NULL, &step_error);
          latent_snapshot_unref (algorithm->snapshot (state));
          algorithm->free (state);
        }
    }
  return 0;
}
