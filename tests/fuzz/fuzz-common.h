/* fuzz-common.h — what every loader's fuzz harness shares
 *
 * Each harness defines LLVMFuzzerTestOneInput (). Built with clang and
 * -Dfuzzing=true it is a libFuzzer fuzzer; otherwise fuzz-replay.c gives it
 * a main () that feeds it every file of a corpus, so the corpus is a test.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <glib.h>

G_BEGIN_DECLS

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

/* Once per process: a GLib critical is a bug a fuzzer must report, so it
 * aborts; messages stay in English. */
void        latent_fuzz_init  (void);

/* The path of this process's temporary file ending in @suffix (".csv"),
 * holding @data and nothing else. The file is created on the first call
 * for a suffix and rewritten in place afterwards: loaders that take a path
 * read the input from it, with no file created per input. */
const char *latent_fuzz_write (const char    *suffix,
                               const uint8_t *data,
                               size_t         size);

/* With LATENT_FUZZ_VERBOSE set, prints @error's message (or "ok"): what a
 * seed reaches, when writing one. */
void        latent_fuzz_report (const GError *error);

G_END_DECLS
