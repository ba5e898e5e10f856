/* fuzz-csv.c — libFuzzer harness: CSV/TSV data, from a file (automatic
 * options) and from memory (labels in the second column)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-fuzz"

#include "fuzz-common.h"

#include "latent-csv.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *path = latent_fuzz_write (".csv", data, size);
  const LatentCsvOptions automatic = { NULL, 0 };
  const LatentCsvOptions second = { "2", 0 };
  g_autoptr(GBytes) bytes = g_bytes_new_static (data, size);
  g_autoptr(LatentDataset) from_file = NULL, from_bytes = NULL;
  g_autoptr(GError) file_error = NULL, bytes_error = NULL;

  from_file = latent_csv_load (path, &automatic, &file_error);
  /* Exactly one of a dataset and an error: anything else is a bug too. */
  g_assert_true ((from_file == NULL) != (file_error == NULL));
  latent_fuzz_report (file_error);
  from_bytes = latent_csv_load_bytes (bytes, "fuzz.csv", &second, &bytes_error);
  g_assert_true ((from_bytes == NULL) != (bytes_error == NULL));
  latent_fuzz_report (bytes_error);
  return 0;
}
