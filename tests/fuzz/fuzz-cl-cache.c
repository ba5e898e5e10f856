/* fuzz-cl-cache.c — libFuzzer harness: a kernel-cache file, as checked
 * before its binary reaches the driver (latent_cl_unwrap_cache_file)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-fuzz"

#include "fuzz-common.h"

#include "latent-cl.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  /* A copy of its own size, so reading past it is caught. */
  g_autofree char *copy = g_memdup2 (data, size);
  const guchar *payload;
  gsize length = 0;

  payload = latent_cl_unwrap_cache_file ("fuzz 1.0", copy, size, &length);
  /* What is handed on is the file's tail, exactly as long as recorded. */
  if (payload != NULL)
    g_assert_true (payload > (const guchar *) copy && payload + length == (const guchar *) copy + size);
  return 0;
}
