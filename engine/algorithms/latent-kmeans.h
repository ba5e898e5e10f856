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

/* Multiple restarts (the restarts parameter, scikit-learn's n_init). Runs
 * @algorithm to the end from @n_starts starts, start r from seed @seed + r
 * with @params but restarts=1, on @cl where usable; the objective of start
 * r is @score of its final snapshot. Stores the objectives in
 * *@objectives (@n_starts, g_free them) and in *@best the first start
 * whose objective is the best (the lowest, or the highest when
 * @higher_is_better; NaN counts as worst), and returns a note for the
 * snapshot, translated: "Best of 5 starts (inertia 78.85; others
 * 78.94–142.3), from seed 5. ". */
typedef double (*LatentStartScore) (LatentSnapshot *snapshot);

char    *latent_clusters_run_starts       (const LatentAlgorithm *algorithm,
                                           LatentDataset   *dataset,
                                           LatentParams    *params,
                                           guint64          seed,
                                           LatentCl        *cl,
                                           guint            n_starts,
                                           LatentStartScore score,
                                           gboolean         higher_is_better,
                                           double         **objectives,
                                           guint           *best,
                                           GError         **error);
/* The starts in a snapshot (n_starts, start_objectives, best_start) as
 * result members: "starts", "start_seeds", "start_objectives" and
 * "best_start"; nothing for a run from one start. */
void     latent_clusters_write_starts     (LatentSnapshot  *snapshot,
                                           JsonBuilder     *builder);

G_END_DECLS
