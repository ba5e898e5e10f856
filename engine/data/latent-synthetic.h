/* latent-synthetic.h — seeded synthetic datasets: Gaussian blobs, moons, rings, a test image
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-dataset.h"
#include "latent-params.h"

G_BEGIN_DECLS

/* Blobs need a covariance per component; these bound the work and memory. */
#define LATENT_SYNTHETIC_MAX_DIMS        1024
#define LATENT_SYNTHETIC_MAX_COV_VALUES  ((guint64) 1 << 24)

/* The options of the generator called @generator ("blobs", "moons",
 * "rings", "pattern") with each one's bounds and default, stated once: the catalog's
 * spec parser ("blobs:n=2000,k=4") and the window's dialog hold values to
 * them. NULL for another name. What depends on two options (k ≤ n, n × dims
 * values, k × dims² covariance values) the generator itself checks. */
const LatentParamSpec *latent_synthetic_get_specs (const char    *generator,
                                                   guint         *n_specs);
/* Draws the dataset @generator makes with @params (built on its specs). */
LatentDataset *latent_synthetic_generate (const char    *generator,
                                          LatentParams  *params,
                                          GError       **error);

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

/* One RGB image (values in [0, 1]) for the filters: a zone plate, bars
 * down to two pixels wide, and flat shapes with hard edges on a ramp, with
 * Gaussian noise of standard deviation @noise drawn from @seed. */
LatentDataset *latent_synthetic_pattern (guint     width,
                                         guint     height,
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
