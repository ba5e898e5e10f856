/* fuzz-kernel.c — libFuzzer harness: a filter's kernel file, from a file
 * (latent_filter_load) and from text with its length (latent_filter_parse)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-fuzz"

#include "fuzz-common.h"

#include "latent-filter.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *path = latent_fuzz_write (".txt", data, size);
  g_autoptr(LatentFilter) loaded = NULL, parsed = NULL;
  g_autoptr(GError) load_error = NULL, parse_error = NULL;

  loaded = latent_filter_load (path, &load_error);
  g_assert_true ((loaded == NULL) != (load_error == NULL));
  latent_fuzz_report (load_error);
  /* Not NUL-terminated: the parser must keep to @length. */
  parsed = latent_filter_parse ((const char *) data, size, "fuzz.txt", &parse_error);
  g_assert_true ((parsed == NULL) != (parse_error == NULL));
  latent_fuzz_report (parse_error);
  /* A kernel that loads is written back as text. */
  if (loaded)
    g_free (latent_filter_to_text (loaded));
  return 0;
}
