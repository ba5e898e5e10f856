/* latent-registry.h — every algorithm Latent offers, by id
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-algorithm.h"

G_BEGIN_DECLS

/* NULL-terminated, in the order a person is offered them. */
const LatentAlgorithm * const *latent_registry_list   (void);
/* The error lists the known ids. */
const LatentAlgorithm         *latent_registry_lookup (const char  *id,
                                                       GError     **error);

G_END_DECLS
