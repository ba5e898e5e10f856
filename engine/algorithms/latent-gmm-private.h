/* latent-gmm-private.h — state shared by the GMM paths
 *
 * Each EM iteration is two passes over the rows, on either path:
 *   expect:  responsibilities r_ik from the current parameters, with
 *            N_k = Σ_i r_ik, S_k = Σ_i r_ik x_i and Σ_i log p(x_i);
 *   scatter: Σ_i r_ik (x_i − μ_k)(x_i − μ_k)ᵀ about the new means (only the
 *            diagonal for diagonal models, its trace for spherical ones).
 * The host does the rest: means, covariances with their Cholesky factors
 * (LAPACKE), weights, and the handling of collapsed components.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-gmm.h"

G_BEGIN_DECLS

typedef struct _LatentGmmCl LatentGmmCl;

typedef struct {
  double *nk;       /* k */
  double *sx;       /* k × d */
  double  loglik;   /* Σ_i log p(x_i) */
} LatentGmmStats;

/* The pass contract's passes (gmm_begin): the scatter about the new means,
 * the expectation, and the expectation again after coinciding components
 * were split apart. */
typedef enum {
  LATENT_GMM_PASS_SCATTER,
  LATENT_GMM_PASS_EXPECT,
  LATENT_GMM_PASS_EXPECT_SPLIT,
} LatentGmmPass;

typedef struct {
  LatentDataset       *dataset;
  LatentParams        *params;
  guint64              seed;
  const float         *x;           /* n × d */
  guint                n, d, k;
  LatentCovarianceType  covariance;
  double               reg;         /* added to the covariances' diagonals */
  double               tol;         /* on the change of mean log-likelihood */
  guint                max_iterations;

  /* The model. Covariances, factors and scatter hold
   * latent_covariance_values per component: for FULL d × d matrices
   * (L lower with L Lᵀ = Σ, the scatter mirrored), for DIAG the d variances
   * and their square roots (the scatter's diagonal), for SPHERICAL one
   * variance, its square root (and the scatter's trace). */
  double              *means;       /* k × d */
  double              *covariances; /* k × values */
  double              *chol;        /* k × values */
  double              *log_det;     /* k, log |Σ_k| */
  double              *weights;     /* k */

  double              *resp;        /* n × k, of the last expect pass */
  double              *scatter;     /* k × values */
  LatentGmmStats       stats;
  LatentGmmPass        pass;        /* the next pass of the iteration */
  double               before, earlier;   /* the log-likelihoods the iteration started from */

  guint                iteration;
  double               log_likelihood;   /* mean per row, of the current model */
  double               previous_log_likelihood;   /* of the model before */
  gboolean             converged;
  gboolean             finished;
  /* From a random start (see gmm_step): FALSE until EM has left it, and
   * how many pairs of coinciding components were split apart. */
  gboolean             random_start;
  gboolean             left_start;
  guint                splits;
  GString             *message;

  LatentGmmCl         *cl;
  LatentCl            *runtime;   /* the device cl runs on, where failures count */
  char                *fallback;  /* why the run left OpenCL; kept to the end */
  char                *choice;    /* what covariance=auto chose and why, when not full */
  /* Multiple restarts (gmm_init): what the starts ended at, kept to the
   * end; n_starts is 0 for a run from one start. */
  char                *restart_note;
  guint                n_starts;
  guint                best_start;
  double              *start_objectives;
  char                *device;
} LatentGmm;

/* An expectation pass's statistics, in one array of doubles: N_k (k), S_k
 * (k × d), then Σ log p(x). A scatter pass's are k × values, as
 * LatentGmm's scatter. */
static inline gsize
latent_gmm_stats_nk (G_GNUC_UNUSED const LatentGmm *self)
{
  return 0;
}

static inline gsize
latent_gmm_stats_sx (const LatentGmm *self)
{
  return self->k;
}

static inline gsize
latent_gmm_stats_loglik (const LatentGmm *self)
{
  return self->k + (gsize) self->k * self->d;
}

static inline gsize
latent_gmm_n_stats (const LatentGmm *self)
{
  return latent_gmm_stats_loglik (self) + 1;
}

void         latent_gmm_reference_expect_rows    (LatentGmm      *self,
                                                  guint           first,
                                                  guint           n,
                                                  const float    *rows,
                                                  double         *stats);
void         latent_gmm_reference_scatter_rows   (LatentGmm      *self,
                                                  const double   *means,
                                                  guint           first,
                                                  guint           n,
                                                  const float    *rows,
                                                  double         *scatter);
void         latent_gmm_reference_scatter_mirror (LatentGmm      *self,
                                                  double         *scatter);
void         latent_gmm_reference_expect  (LatentGmm      *self,
                                           LatentGmmStats *stats);
void         latent_gmm_reference_scatter (LatentGmm      *self,
                                           const double   *means,
                                           double         *scatter);

LatentGmmCl *latent_gmm_cl_new            (LatentGmm      *self,
                                           LatentCl       *cl,
                                           GError        **error);
gboolean     latent_gmm_cl_expect         (LatentGmmCl    *gcl,
                                           LatentGmm      *self,
                                           LatentGmmStats *stats,
                                           GCancellable   *cancellable,
                                           GError        **error);
gboolean     latent_gmm_cl_scatter        (LatentGmmCl    *gcl,
                                           LatentGmm      *self,
                                           const double   *means,
                                           double         *scatter,
                                           GCancellable   *cancellable,
                                           GError        **error);
void         latent_gmm_cl_free           (LatentGmmCl    *gcl);

/* What `latent-cli tune` tries for gmm.cl (latent-gmm-cl.c). */
extern const LatentTuneJob latent_gmm_cl_tune_job;

G_END_DECLS
