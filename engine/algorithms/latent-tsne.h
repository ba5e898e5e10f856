/* latent-tsne.h — t-SNE: an embedding in two dimensions whose neighbours
 * are the data's, OpenCL and C reference paths
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-algorithm.h"

G_BEGIN_DECLS

const LatentAlgorithm *latent_tsne_get_algorithm (void);

G_END_DECLS
