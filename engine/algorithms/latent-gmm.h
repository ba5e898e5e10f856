/* latent-gmm.h — Gaussian mixtures by expectation–maximisation
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-algorithm.h"

G_BEGIN_DECLS

const LatentAlgorithm *latent_gmm_get_algorithm (void);

G_END_DECLS
