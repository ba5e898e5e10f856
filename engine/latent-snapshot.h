/* latent-snapshot.h — one immutable picture of a run after an iteration
 *
 * The worker fills a snapshot, then hands it over; from then on nobody writes
 * to it, so the main thread and the renderers read it without locks.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "data/latent-dataset.h"
#include "latent-params.h"

G_BEGIN_DECLS

typedef struct {
  double accuracy;  /* after Hungarian matching of clusters to classes */
  double ari;       /* adjusted Rand index */
  double nmi;       /* normalised mutual information (arithmetic mean) */
} LatentLabelMetrics;

typedef struct _LatentSnapshot LatentSnapshot;

struct _LatentSnapshot
{
  char          *algorithm;    /* "kmeans" */
  LatentDataset *dataset;      /* the data the run works on */
  LatentParams  *params;
  guint64        seed;
  char          *device;       /* "PoCL: pthread-…" or "CPU reference" */

  guint          iteration;    /* 0 = after initialisation */
  gboolean       converged;
  gboolean       final;        /* no more iterations will follow */
  double         objective;    /* k-means: inertia */

  /* Clustering: one label per row, k means of n_cols values each. */
  guint          n_rows;
  gint32        *labels;
  guint          k;
  guint          n_cols;
  float         *means;
  guint         *cluster_sizes;

  /* Mixtures: weights (k), covariances (k × n_cols × n_cols, full matrices
   * whatever the model), responsibilities (n_rows × k, or NULL when too big
   * to keep), and the mean log-likelihood per row with BIC and AIC. */
  float         *weights;
  float         *covariances;
  float         *responsibilities;
  double         log_likelihood;
  double         bic;
  double         aic;

  gboolean       has_label_metrics;
  LatentLabelMetrics metrics;

  double         step_ms;      /* wall time of the last iteration */
  double         elapsed_ms;   /* since the run started, initialisation included */
  char          *message;      /* something the person should know, or NULL */
};

LatentSnapshot *latent_snapshot_new   (const char     *algorithm,
                                       LatentDataset  *dataset,
                                       LatentParams   *params);
LatentSnapshot *latent_snapshot_ref   (LatentSnapshot *self);
void            latent_snapshot_unref (LatentSnapshot *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentSnapshot, latent_snapshot_unref)

G_END_DECLS
