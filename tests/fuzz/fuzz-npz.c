/* fuzz-npz.c — libFuzzer harness: a NumPy .npz archive, its arrays chosen
 * by their names (latent_npz_load) and listed (latent_npz_list)
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
  const char *path = latent_fuzz_write (".npz", data, size);
  g_autoptr(LatentDataset) dataset = NULL;
  g_autoptr(GError) error = NULL, list_error = NULL;
  g_auto(GStrv) names = NULL;

  dataset = latent_npz_load (path, NULL, NULL, &error);
  g_assert_true ((dataset == NULL) != (error == NULL));
  latent_fuzz_report (error);
  names = latent_npz_list (path, &list_error);
  g_assert_true ((names == NULL) != (list_error == NULL));
  latent_fuzz_report (list_error);
  return 0;
}
