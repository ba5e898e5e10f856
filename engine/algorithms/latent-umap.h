/* latent-umap.h — UMAP: an embedding in two dimensions of the rows' fuzzy
 * neighbour graph, OpenCL and C reference paths
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-algorithm.h"

G_BEGIN_DECLS

const LatentAlgorithm *latent_umap_get_algorithm (void);

G_END_DECLS
