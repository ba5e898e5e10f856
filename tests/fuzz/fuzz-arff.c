/* fuzz-arff.c — libFuzzer harness: a Weka ARFF table (latent_arff_load,
 * through its path), as it is and with missing values dropped or filled,
 * columns standardised, the first attribute left out, the preview
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-fuzz"

#include "fuzz-common.h"

#include "latent-arff.h"

#include <math.h>

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static const char * const first[] = { "1", NULL };
  const LatentCsvOptions choices[] = {
    { NULL },
    { .missing = LATENT_CSV_MISSING_DROP, .ignore = first },
    { .missing = LATENT_CSV_MISSING_MEAN, .standardise = TRUE, .label_column = "none" },
  };
  const char *path = latent_fuzz_write (".arff", data, size);
  g_autoptr(GPtrArray) preview = NULL;
  g_autoptr(GError) previewed = NULL;

  for (guint c = 0; c < G_N_ELEMENTS (choices); c++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(LatentDataset) dataset = latent_arff_load (path, &choices[c], &error);

      g_assert_true ((dataset == NULL) != (error == NULL));
      latent_fuzz_report (error);
      /* Every class index names a class; nothing missing is left. */
      for (guint i = 0; dataset && latent_dataset_has_labels (dataset) && i < latent_dataset_get_n_rows (dataset); i++)
        g_assert_true ((guint) latent_dataset_get_labels (dataset)[i] < latent_dataset_get_n_classes (dataset));
      for (gsize i = 0; dataset && i < (gsize) latent_dataset_get_n_rows (dataset) * latent_dataset_get_n_cols (dataset); i++)
        g_assert_true (isfinite (latent_dataset_get_data (dataset)[i]));
    }
  preview = latent_arff_preview (path, 12, &previewed);
  g_assert_true ((preview == NULL) != (previewed == NULL));
  return 0;
}
