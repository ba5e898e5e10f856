/* latent-kmeans.h — k-means clustering (Lloyd), OpenCL and C reference paths
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-algorithm.h"

G_BEGIN_DECLS

const LatentAlgorithm *latent_kmeans_get_algorithm (void);
/* The largest k latent_clusters_check_k takes for @n_rows rows. */
gint64                 latent_kmeans_max_k         (guint n_rows);

G_END_DECLS
