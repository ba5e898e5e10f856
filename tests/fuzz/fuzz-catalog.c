/* fuzz-catalog.c — libFuzzer harness: a file named as a dataset, which
 * latent_catalog_load sniffs (PNG, IDX, gzip-compressed IDX, else CSV by
 * its name), and the same file as its labels (IDX or text)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-fuzz"

#include "fuzz-common.h"

#include "latent-catalog.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  /* "idx" in the name lets a gzip stream be read as IDX; ".csv" makes
   * anything else CSV. */
  const char *path = latent_fuzz_write ("-idx.csv", data, size);
  g_autoptr(LatentDataset) dataset = NULL, labelled = NULL;
  g_autoptr(GError) error = NULL, labels_error = NULL;

  dataset = latent_catalog_load (path, NULL, &error);
  g_assert_true ((dataset == NULL) != (error == NULL));
  latent_fuzz_report (error);
  /* A one-column file is its own labels; anything else is a mismatch. */
  labelled = latent_catalog_load (path, path, &labels_error);
  g_assert_true ((labelled == NULL) != (labels_error == NULL));
  latent_fuzz_report (labels_error);
  return 0;
}
