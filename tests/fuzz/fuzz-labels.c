/* fuzz-labels.c — libFuzzer harness: a one-column labels file
 * (latent_csv_load_labels)
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
  const char *path = latent_fuzz_write (".txt", data, size);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;
  g_autofree gint32 *labels = NULL;
  guint n_labels = 0, n_classes = 0;

  labels = latent_csv_load_labels (path, &n_labels, &n_classes, &names, &error);
  g_assert_true ((labels == NULL) != (error == NULL));
  latent_fuzz_report (error);
  /* Every class index the loader hands out must name a class. */
  for (guint i = 0; labels && i < n_labels; i++)
    g_assert_true (labels[i] >= 0 && (guint) labels[i] < n_classes);
  return 0;
}
