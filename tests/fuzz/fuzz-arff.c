/* fuzz-arff.c — libFuzzer harness: a Weka ARFF table (latent_arff_load,
 * through its path)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-fuzz"

#include "fuzz-common.h"

#include "latent-arff.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *path = latent_fuzz_write (".arff", data, size);
  g_autoptr(LatentDataset) dataset = NULL;
  g_autoptr(GError) error = NULL;

  dataset = latent_arff_load (path, NULL, &error);
  g_assert_true ((dataset == NULL) != (error == NULL));
  latent_fuzz_report (error);
  /* Every class index names a class. */
  for (guint i = 0; dataset && latent_dataset_has_labels (dataset) && i < latent_dataset_get_n_rows (dataset); i++)
    g_assert_true ((guint) latent_dataset_get_labels (dataset)[i] < latent_dataset_get_n_classes (dataset));
  return 0;
}
