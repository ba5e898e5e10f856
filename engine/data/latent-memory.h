/* latent-memory.h — the memory budget, which decides what is streamed
 *
 * A dataset whose values are larger than the budget is not held in
 * memory: its rows stay in their file and are read a chunk at a time
 * (latent_dataset_set_stream_chunk_rows, latent-rows.h), each chunk let
 * go once it has been used. The budget is the environment's
 * LATENT_MEMORY, else what latent_memory_set_budget () last set (the
 * CLI's --memory, the window's setting), else half of this machine's
 * memory.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Chunks of a streamed dataset are this part of the budget, at most
 * LATENT_MEMORY_MAX_CHUNK bytes: one is in use while the system reads
 * the next into its cache, and the algorithms' own state needs room. */
#define LATENT_MEMORY_CHUNK_PART 8
#define LATENT_MEMORY_MAX_CHUNK  ((guint64) 256 << 20)

guint64  latent_memory_budget        (void);
/* 0 returns to the default. */
void     latent_memory_set_budget    (guint64      bytes);
/* "512M", "4G", "1.5GB", "65536" (bytes); KiB units too. FALSE with an
 * error naming @what (an option, a setting) when it is not a size. */
gboolean latent_memory_parse         (const char  *text,
                                      const char  *what,
                                      guint64     *bytes,
                                      GError     **error);
/* Rows of @row_bytes each in one chunk under the budget, at least 1. */
guint    latent_memory_chunk_rows    (guint64      row_bytes);

G_END_DECLS
