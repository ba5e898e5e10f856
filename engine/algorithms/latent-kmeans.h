/* latent-kmeans.h — k-means clustering (Lloyd), OpenCL and C reference paths
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-algorithm.h"

G_BEGIN_DECLS

const LatentAlgorithm *latent_kmeans_get_algorithm (void);

/* Shared with the mixtures: 1 ≤ k ≤ rows (@what: "clusters"); the labels
 * and cluster sizes in a result; one cluster per row in the CSV. */
gboolean latent_clusters_check_k          (LatentDataset   *dataset,
                                           LatentParams    *params,
                                           const char      *what,
                                           GError         **error);
void     latent_clusters_write_labels     (LatentSnapshot  *snapshot,
                                           JsonBuilder     *builder);
void     latent_clusters_write_sizes      (LatentSnapshot  *snapshot,
                                           JsonBuilder     *builder);
void     latent_clusters_write_csv_header (LatentSnapshot  *snapshot,
                                           GString         *out);
void     latent_clusters_write_csv_row    (LatentSnapshot  *snapshot,
                                           guint            row,
                                           GString         *out);

G_END_DECLS
