/* fuzz-npy.c — libFuzzer harness: a NumPy .npy file, as data
 * (latent_npy_load, through its path) and as labels
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-fuzz"

#include "fuzz-common.h"

#include "latent-npy.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *path = latent_fuzz_write (".npy", data, size);
  g_autoptr(GBytes) bytes = g_bytes_new_static (data, size);
  g_autoptr(LatentDataset) dataset = NULL;
  g_autoptr(GError) error = NULL, labels_error = NULL;
  g_autofree gint32 *labels = NULL;
  g_auto(GStrv) names = NULL;
  guint n_labels = 0, n_classes = 0;

  dataset = latent_npy_load (path, &error);
  g_assert_true ((dataset == NULL) != (error == NULL));
  latent_fuzz_report (error);
  labels = latent_npy_load_labels (bytes, path, &n_labels, &n_classes, &names, &labels_error);
  g_assert_true ((labels == NULL) != (labels_error == NULL));
  latent_fuzz_report (labels_error);
  /* Every class index names a class. */
  for (guint i = 0; labels && i < n_labels; i++)
    g_assert_true (labels[i] >= 0 && (guint) labels[i] < n_classes && names[labels[i]] != NULL);
  return 0;
}
