/* latent-linear.h — principal component analysis, probabilistic PCA and factor
 * analysis: the linear latent-variable models
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-algorithm.h"

G_BEGIN_DECLS

const LatentAlgorithm *latent_pca_get_algorithm  (void);
const LatentAlgorithm *latent_ppca_get_algorithm (void);
const LatentAlgorithm *latent_fa_get_algorithm   (void);

G_END_DECLS
