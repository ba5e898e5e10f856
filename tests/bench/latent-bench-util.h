/* latent-bench-util.h — what the benchmark programs share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>
#include <stdio.h>

/* The builder's finished object as one JSON line on standard output,
 * flushed at once so a driver reading the pipe sees it. */
static inline void
latent_bench_emit (JsonBuilder *builder)
{
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = json_builder_get_root (builder);
  g_autofree char *text = NULL;

  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, NULL);
  puts (text);
  fflush (stdout);
}
