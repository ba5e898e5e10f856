/* fuzz-model.c — libFuzzer harness: a result read as a model for --features
 * (latent_result_read_model)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-fuzz"

#include "fuzz-common.h"

#include "latent-algorithm.h"
#include "latent-result.h"

/* Four rows of three columns, which a model of three columns encodes. */
static LatentDataset *
fuzz_dataset (void)
{
  static LatentDataset *dataset;

  if (dataset == NULL)
    {
      float *x;

      dataset = latent_dataset_new ("fuzz", 4, 3, NULL);
      x = latent_dataset_get_data (dataset);
      for (guint i = 0; i < 12; i++)
        x[i] = (i % 5) - 2.0f;
    }
  return dataset;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *path = latent_fuzz_write (".json", data, size);
  g_autoptr(LatentSnapshot) model = NULL;
  g_autoptr(GError) error = NULL;

  model = latent_result_read_model (path, &error);
  g_assert_true ((model == NULL) != (error == NULL));
  latent_fuzz_report (error);
  /* What --features does next: a model of another width is refused. */
  if (model)
    {
      g_autoptr(GError) encode_error = NULL;
      g_autoptr(LatentDataset) features = model->algorithm->encode (model, fuzz_dataset (), &encode_error);

      g_assert_true ((features == NULL) != (encode_error == NULL));
      latent_fuzz_report (encode_error);
    }
  return 0;
}
