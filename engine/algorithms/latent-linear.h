/* latent-linear.h — principal component analysis, probabilistic PCA, factor
 * analysis and sparse PCA: the linear latent-variable models
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-algorithm.h"

G_BEGIN_DECLS

/* The parameters of all three models in one struct, so that the code they
 * share reads the same fields whichever model it runs: a model whose table
 * lacks a parameter (method and whiten are PCA's) leaves its field at 0,
 * NULL or FALSE, which the shared code reads for PCA only. */
typedef struct {
  gint64      components;
  const char *method;
  gboolean    whiten;
  double      tol;
  gint64      max_iterations;
  double      alpha;           /* sparse PCA's */
} LatentLinearParams;

/* Every parameter of @params (a PCA, PPCA or FA table) into @out. */
void                   latent_linear_params_read (LatentParams       *params,
                                                  LatentLinearParams *out);

const LatentAlgorithm *latent_pca_get_algorithm  (void);
const LatentAlgorithm *latent_ppca_get_algorithm (void);
const LatentAlgorithm *latent_fa_get_algorithm   (void);
const LatentAlgorithm *latent_spca_get_algorithm (void);

G_END_DECLS
