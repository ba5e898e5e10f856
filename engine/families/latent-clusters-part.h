/* latent-clusters-part.h — a clustering's part of a snapshot
 *
 * Read by the engine and the family's own figures (tests/check-layers.py).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-part-shapes.h"

G_BEGIN_DECLS

/* Clusterings (k-means and the mixtures): one label per row, k means of
 * n_cols values each. */
typedef struct {
  gint32        *labels;
  guint          k;
  float         *means;
  guint         *cluster_sizes;
  /* Clusterings run from several starts (the restarts parameter): the
   * objective each start ended at, in the order of their seeds (the run's
   * seed + 0, + 1, …), and which of them the snapshot is. n_starts is 0
   * for a run from one start. */
  guint          n_starts;
  guint          best_start;
  double        *start_objectives;   /* n_starts */
} LatentClustersPart;

G_END_DECLS
