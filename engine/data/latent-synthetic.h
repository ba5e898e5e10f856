/* latent-synthetic.h — seeded synthetic datasets: Gaussian blobs, moons, rings
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-dataset.h"

G_BEGIN_DECLS

/* Blobs need a covariance per component; these bound the work and memory. */
#define LATENT_SYNTHETIC_MAX_DIMS        1024
#define LATENT_SYNTHETIC_MAX_COV_VALUES  ((guint64) 1 << 24)

/* k Gaussian components with means uniform in [-10, 10]^dims and Wishart
 * covariances; equal weights (component sizes differ by at most one). */
LatentDataset *latent_synthetic_blobs (guint     n,
                                       guint     dims,
                                       guint     k,
                                       guint64   seed,
                                       GError  **error);
/* Two interleaving half circles (as scikit-learn's make_moons), labels 0/1. */
LatentDataset *latent_synthetic_moons (guint     n,
                                       double    noise,
                                       guint64   seed,
                                       GError  **error);
/* Concentric circles of radius 1 … n_rings, labels = ring. */
LatentDataset *latent_synthetic_rings (guint     n,
                                       guint     n_rings,
                                       double    noise,
                                       guint64   seed,
                                       GError  **error);

/* The parameters the blobs were drawn from, to score a fitted model against. */
typedef struct {
  guint   k;
  guint   dims;
  double *weights;      /* k: the fraction of points in each component */
  double *means;        /* k × dims, row-major */
  double *covariances;  /* k × dims × dims, row-major */
} LatentBlobsTruth;

LatentDataset *latent_synthetic_blobs_with_truth (guint              n,
                                                  guint              dims,
                                                  guint              k,
                                                  guint64            seed,
                                                  LatentBlobsTruth **truth,
                                                  GError           **error);
void           latent_blobs_truth_free           (LatentBlobsTruth  *truth);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentBlobsTruth, latent_blobs_truth_free)

G_END_DECLS
