/* fuzz-csv.c — libFuzzer harness: CSV/TSV data, from a file (automatic
 * options) and from memory (labels in the second column)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-fuzz"

#include "fuzz-common.h"

#include "latent-csv.h"

#include <math.h>

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *path = latent_fuzz_write (".csv", data, size);
  const LatentCsvOptions automatic = { NULL, 0 };
  const LatentCsvOptions second = { "2", 0 };
  /* The import choices, every one, over the same bytes. */
  const char *ignore[] = { "1", NULL };
  LatentCsvReport report;
  const LatentCsvOptions chosen = { NULL, 0, ignore, LATENT_CSV_TEXT_ONE_HOT, LATENT_CSV_MISSING_MEAN, TRUE, &report };
  const LatentCsvOptions dropping = { "none", 0, NULL, LATENT_CSV_TEXT_MISSING, LATENT_CSV_MISSING_DROP, FALSE, NULL };
  g_autoptr(GBytes) bytes = g_bytes_new_static (data, size);
  g_autoptr(LatentDataset) from_file = NULL, from_bytes = NULL, with_choices = NULL, dropped = NULL;
  g_autoptr(GError) file_error = NULL, bytes_error = NULL, choices_error = NULL, drop_error = NULL;

  from_file = latent_csv_load (path, &automatic, &file_error);
  /* Exactly one of a dataset and an error: anything else is a bug too. */
  g_assert_true ((from_file == NULL) != (file_error == NULL));
  latent_fuzz_report (file_error);
  from_bytes = latent_csv_load_bytes (bytes, "fuzz.csv", &second, &bytes_error);
  g_assert_true ((from_bytes == NULL) != (bytes_error == NULL));
  latent_fuzz_report (bytes_error);
  with_choices = latent_csv_load_bytes (bytes, "fuzz.csv", &chosen, &choices_error);
  g_assert_true ((with_choices == NULL) != (choices_error == NULL));
  latent_fuzz_report (choices_error);
  /* Filled and standardised: nothing missing or infinite is left. */
  for (guint i = 0; with_choices && i < latent_dataset_get_n_rows (with_choices) * latent_dataset_get_n_cols (with_choices); i++)
    g_assert_true (isfinite (latent_dataset_get_data (with_choices)[i]));
  dropped = latent_csv_load_bytes (bytes, "fuzz.csv", &dropping, &drop_error);
  g_assert_true ((dropped == NULL) != (drop_error == NULL));
  latent_fuzz_report (drop_error);
  return 0;
}
