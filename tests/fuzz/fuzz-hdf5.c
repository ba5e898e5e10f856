/* fuzz-hdf5.c — libFuzzer harness: an HDF5 file, its datasets chosen by
 * their names (latent_hdf5_load) and listed (latent_hdf5_list). What this
 * reaches inside libhdf5 is Debian's to fix; what Latent does with what
 * libhdf5 returns is ours.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-fuzz"

#include "fuzz-common.h"

#include "latent-hdf5.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *path = latent_fuzz_write (".h5", data, size);
  g_autoptr(LatentDataset) dataset = NULL;
  g_autoptr(GError) error = NULL, list_error = NULL;
  g_auto(GStrv) names = NULL;

  dataset = latent_hdf5_load (path, NULL, NULL, &error);
  g_assert_true ((dataset == NULL) != (error == NULL));
  latent_fuzz_report (error);
  names = latent_hdf5_list (path, &list_error);
  g_assert_true ((names == NULL) != (list_error == NULL));
  latent_fuzz_report (list_error);
  return 0;
}
