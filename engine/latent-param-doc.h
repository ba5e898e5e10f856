/* latent-param-doc.h — an algorithm's parameters as a person reads them:
 * the text of `latent-cli params` and docs/PARAMETERS.md, from the same
 * table the window and the CLI take values from
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-algorithm.h"

G_BEGIN_DECLS

/* Every parameter of @algorithm: name, label, type and range, default,
 * role, when it applies and what it does, in the current locale. */
char *latent_param_doc_text     (const LatentAlgorithm *algorithm);
/* Every algorithm of the registry as Markdown: docs/PARAMETERS.md, which a
 * test compares with this (in English). */
char *latent_param_doc_markdown (void);

G_END_DECLS
