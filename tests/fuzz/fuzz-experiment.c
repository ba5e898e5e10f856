/* fuzz-experiment.c — libFuzzer harness: an experiment file
 * (latent_experiment_load)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-fuzz"

#include "fuzz-common.h"

#include "latent-experiment.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *path = latent_fuzz_write (".json", data, size);
  g_autoptr(LatentExperiment) experiment = NULL;
  g_autoptr(GError) error = NULL;

  experiment = latent_experiment_load (path, &error);
  g_assert_true ((experiment == NULL) != (error == NULL));
  latent_fuzz_report (error);
  return 0;
}
