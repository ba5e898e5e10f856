/* fuzz-jpeg.c — libFuzzer harness: a JPEG image (latent_jpeg_load)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-fuzz"

#include "fuzz-common.h"

#include "latent-jpeg.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *path = latent_fuzz_write (".jpg", data, size);
  g_autoptr(LatentDataset) dataset = NULL;
  g_autoptr(GError) error = NULL;

  dataset = latent_jpeg_load (path, &error);
  g_assert_true ((dataset == NULL) != (error == NULL));
  latent_fuzz_report (error);
  return 0;
}
