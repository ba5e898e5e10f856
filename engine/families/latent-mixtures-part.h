/* latent-mixtures-part.h — a mixture's part of a snapshot
 *
 * Read by the engine and the family's own figures (tests/check-layers.py).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-part-shapes.h"

G_BEGIN_DECLS

/* Mixtures, beside the clusters' part: weights (k), covariances (k ×
 * latent_snapshot_covariance_values: full matrices, or only the variances
 * of diagonal and spherical models, as covariance_type says),
 * responsibilities (n_rows × k, or NULL when too big to keep), and the
 * mean log-likelihood per row with BIC and AIC. */
typedef struct {
  float         *weights;
  LatentCovarianceType covariance_type;
  float         *covariances;
  float         *responsibilities;
  double         log_likelihood;
  double         bic;
  double         aic;
} LatentMixturePart;

G_END_DECLS
