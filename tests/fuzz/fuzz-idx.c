/* fuzz-idx.c — libFuzzer harness: a plain IDX file, as images or a table and
 * as labels
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-fuzz"

#include "fuzz-common.h"

#include "latent-idx.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  /* A ".idx" name, whose label file (features-labels.idx) never exists. */
  const char *path = latent_fuzz_write (".idx", data, size);
  g_autoptr(LatentDataset) dataset = NULL;
  g_autoptr(GError) error = NULL, labels_error = NULL;
  g_autofree gint32 *labels = NULL;
  guint n_labels = 0;

  dataset = latent_idx_load (path, NULL, &error);
  g_assert_true ((dataset == NULL) != (error == NULL));
  latent_fuzz_report (error);
  labels = latent_idx_load_labels (path, &n_labels, &labels_error);
  g_assert_true ((labels == NULL) != (labels_error == NULL));
  latent_fuzz_report (labels_error);
  return 0;
}
