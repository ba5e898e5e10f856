/* latent-metrics.h — how well clusters agree with known classes
 *
 * Accuracy after Hungarian matching of clusters to classes, the adjusted Rand
 * index and normalised mutual information, with scikit-learn's conventions for
 * the degenerate cases, plus the assignment solver they rest on.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "latent-snapshot.h"

G_BEGIN_DECLS

/* Minimum-cost assignment on a rows × cols cost matrix (row-major, finite
 * doubles); rows and cols may differ. On return assignment[r] (rows entries)
 * is the column given to row r, or -1 when rows > cols and r got none.
 * Returns the total cost of the assignment. O(min² · max). */
double latent_hungarian        (const double       *cost,
                                guint               rows,
                                guint               cols,
                                gint32             *assignment);

/* In all of these, clusters[i] lies in [0, n_clusters) and classes[i] in
 * [0, n_classes) for i < n; anything else is a programmer error (a critical,
 * and NAN is returned). Empty clusters or classes are allowed. */

/* Fraction of points whose cluster is matched to their class, when each
 * cluster is matched to at most one class and each class to at most one
 * cluster so that the matched count is largest. Clusters left over count as
 * wrong. mapping (nullable, n_clusters entries) receives the class matched
 * to each cluster, or -1 when the cluster got no class or shares no point
 * with the one it got. No points at all score 1.0. */
double latent_metrics_accuracy (const gint32       *clusters,
                                guint               n_clusters,
                                const gint32       *classes,
                                guint               n_classes,
                                guint               n,
                                gint32             *mapping);

/* Adjusted Rand index; 1.0 for identical partitions (scikit-learn's rule). */
double latent_metrics_ari      (const gint32       *clusters,
                                guint               n_clusters,
                                const gint32       *classes,
                                guint               n_classes,
                                guint               n);

/* Normalised mutual information, arithmetic-mean normalisation (the default
 * of scikit-learn's normalized_mutual_info_score, whose edge cases it follows). */
double latent_metrics_nmi      (const gint32       *clusters,
                                guint               n_clusters,
                                const gint32       *classes,
                                guint               n_classes,
                                guint               n);

/* The clusters × classes contingency table (Weka's "classes to clusters"):
 * counts (n_clusters × n_classes, row-major, filled) receives at [k ·
 * n_classes + c] how many points lie in cluster k and class c; mapping
 * (nullable, n_clusters entries) the class matched to each cluster, as
 * latent_metrics_accuracy () gives it. Returns the number of matched points
 * (the accuracy's numerator), or 0 after a programmer error. */
guint  latent_metrics_confusion (const gint32      *clusters,
                                 guint              n_clusters,
                                 const gint32      *classes,
                                 guint              n_classes,
                                 guint              n,
                                 guint             *counts,
                                 gint32            *mapping);

/* The table as lines of monospace text: a header of class names
 * (class_names nullable, or any entry NULL: "class 1" …), then one line per
 * cluster ("cluster 1" …) with its counts, a matched cell marked with "*"
 * when mapping is given. Free with g_free (). */
char  *latent_metrics_confusion_to_text (const guint        *counts,
                                         guint               n_clusters,
                                         guint               n_classes,
                                         const char * const *class_names,
                                         const gint32       *mapping);

/* The table of a clustering snapshot (labels and k) on labelled data, as
 * latent_metrics_confusion_to_text () writes it with the dataset's class
 * names and the matching; NULL when the snapshot has no clusters or its data
 * no labels. Free with g_free (). */
char  *latent_metrics_snapshot_confusion (LatentSnapshot    *snapshot);

/* All three at once, from one contingency table. */
void   latent_metrics_compute  (const gint32       *clusters,
                                guint               n_clusters,
                                const gint32       *classes,
                                guint               n_classes,
                                guint               n,
                                LatentLabelMetrics *out);

/* Trustworthiness (Venna and Kaski 2001; scikit-learn's): how far each
 * row's @k nearest rows in the embedding @y (n × @dims) are also near in
 * the input @x (n × @d), penalising each by how far its rank in the input
 * lies beyond k: 1 − 2 / (s k (2n − 3k − 1)) Σ_i Σ_{j ∈ N_k(y_i) ∖ N_k(x_i)}
 * (r(i, j) − k), with r the rank among all rows (ties to the lower row).
 * Taken over @n_queries rows evenly spaced (all when n_queries ≥ n), each
 * ranked against all n rows, so it estimates the whole data's value. k
 * must be below n / 3 (else NaN). */
double latent_metrics_trustworthiness (const float *x,
                                       guint        n,
                                       guint        d,
                                       const float *y,
                                       guint        dims,
                                       guint        k,
                                       guint        n_queries);

G_END_DECLS
