/* latent-clusters.h — the clusters family: what k-means and the mixtures
 * share, whose parameters k, init and restarts they both declare
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-algorithm.h"

G_BEGIN_DECLS

/* The largest k latent_clusters_check_k takes for @n_rows rows. */
gint64   latent_clusters_max_k            (guint            n_rows);
/* 1 ≤ @k ≤ rows, and at most a quarter of the rows on large data (@what:
 * "clusters"); the error names parameter k. */
gboolean latent_clusters_check_k          (LatentDataset   *dataset,
                                           gint64           k,
                                           const char      *what,
                                           GError         **error);
/* The labels and cluster sizes in a result; one cluster per row in a CSV. */
void     latent_clusters_write_labels     (LatentSnapshot  *snapshot,
                                           JsonBuilder     *builder);
void     latent_clusters_write_sizes      (LatentSnapshot  *snapshot,
                                           JsonBuilder     *builder);
void     latent_clusters_write_csv_header (LatentSnapshot  *snapshot,
                                           GString         *out);
void     latent_clusters_write_csv_row    (LatentSnapshot  *snapshot,
                                           guint            row,
                                           GString         *out);

/* The objective of a start: @score of its final snapshot. */
typedef double (*LatentStartScore) (LatentSnapshot *snapshot);

/* The start an init begins from: with @restarts > 1, runs them (run to the
 * end from seed + r, start r, with @params but restarts=1) after the
 * algorithm's check and gives the best and the note; a start from a file
 * (@init "@PATH") runs once, with a note saying so; otherwise start 0, no
 * objectives, no note. */
gboolean latent_clusters_choose_start     (const LatentAlgorithm *algorithm,
                                           LatentDataset   *dataset,
                                           LatentParams    *params,
                                           guint            restarts,
                                           const char      *init,
                                           guint64          seed,
                                           LatentCl        *cl,
                                           GCancellable    *cancellable,
                                           LatentStartScore score,
                                           gboolean         higher_is_better,
                                           double         **objectives,
                                           guint           *best,
                                           char           **note,
                                           GError         **error);
/* The starts in a snapshot (n_starts, start_objectives, best_start) as
 * result members: "starts", "start_seeds", "start_objectives" and
 * "best_start"; nothing for a run from one start. */
void     latent_clusters_write_starts     (LatentSnapshot  *snapshot,
                                           JsonBuilder     *builder);

G_END_DECLS
