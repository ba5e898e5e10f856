/* latent-linear-private.h — state shared by PCA, probabilistic PCA, factor
 * analysis and sparse PCA, and by their two paths
 *
 * All three models are fitted from the sample covariance S (d × d, 1/n), so
 * an iteration costs O(d²m) whatever the number of rows. The paths differ
 * only in what touches S or the rows:
 *   moments:    the mean and S, in one pass plus a Gram product;
 *   cov_times:  S · V for a d × m matrix V, once per iteration;
 *   project:    (x − mean) · Eᵀ for every row, for the snapshots.
 * The host does the rest in double: eigenproblems and m × m solves with
 * LAPACKE, the models' updates and their scores.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-algorithm.h"

G_BEGIN_DECLS

typedef enum {
  LATENT_LINEAR_PCA,
  LATENT_LINEAR_PPCA,
  LATENT_LINEAR_FA,
  LATENT_LINEAR_SPCA,
} LatentLinearModel;

/* The covariance is d × d doubles on the host: a limit keeps it sane. */
#define LATENT_LINEAR_MAX_COLS 4096

typedef struct _LatentLinearCl LatentLinearCl;

typedef struct {
  LatentLinearModel  model;
  const LatentAlgorithm *algorithm;
  LatentCl          *runtime;      /* the device cl runs on, where failures count */
  LatentDataset     *dataset;
  LatentParams      *params;
  guint64            seed;
  const float       *x;            /* n × d */
  guint              n, d, m;
  double             tol;
  guint              max_iterations;

  double            *mean;         /* d */
  double            *cov;          /* d × d, symmetric, 1/n */
  double             total_variance;

  /* The model. w is d × m, row-major: column j is component j (PCA: unit
   * axes, orthonormal; PPCA and FA: loadings). psi is the noise variance
   * of each column (PPCA: all σ²; PCA: the mean discarded variance). */
  double            *w;
  double            *psi;
  double            *eigenvalues;  /* m: PCA's variances along w */
  /* S · (what the model needs multiplied), d × m, kept from the last
   * product: PCA and PPCA S·w. */
  double            *sw;
  /* FA: an orthonormal basis (d × basis_cols) of the leading eigenvectors
   * of Ψ^-½ S Ψ^-½, refined from step to step. */
  double            *basis;
  guint              basis_cols;
  /* Sparse PCA: w holds the components V (column j is V_j, not unit), the
   * rows' codes are U = (X − mean) A with a d × m, sa = S · a, and alpha
   * weighs the L1 penalty. */
  double            *a;
  double            *sa;
  double             alpha;

  guint              iteration;
  double             log_likelihood;   /* mean per row, of the current model */
  /* What the history records: PCA the share of the variance explained,
   * the others the log-likelihood. */
  double             objective;
  double             change;           /* of the last step, for convergence */
  gboolean           converged;
  gboolean           finished;
  GString           *message;    /* of the last step */
  char              *fallback;   /* why the run left OpenCL; kept */

  LatentLinearCl    *cl;
  char              *device;
} LatentLinear;

/* Shared: validates the parameters against the data, computes the moments
 * on the chosen path, allocates the model. */
/* Whether @params fit @dataset for @model: rows, columns, components. */
gboolean        latent_linear_check            (LatentLinearModel  model,
                                                LatentDataset     *dataset,
                                                LatentParams      *params,
                                                GError           **error);
/* The algorithms' max_int: the most components latent_linear_check takes. */
gint64          latent_linear_max_int          (LatentLinearModel  model,
                                                LatentDataset     *dataset,
                                                const LatentParamSpec *spec);
LatentLinear   *latent_linear_new              (LatentLinearModel  model,
                                                const LatentAlgorithm *algorithm,
                                                LatentDataset     *dataset,
                                                LatentParams      *params,
                                                guint64            seed,
                                                LatentCl          *cl,
                                                GError           **error);
void            latent_linear_free             (gpointer           data);
extern const char * const latent_linear_figures[];
LatentDataset  *latent_linear_encode           (LatentSnapshot    *snapshot,
                                                LatentDataset     *dataset,
                                                GError           **error);
gboolean        latent_linear_read_model       (LatentSnapshot    *snapshot,
                                                JsonObject        *result,
                                                const char        *path,
                                                GError           **error);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentLinear, latent_linear_free)
/* out (d × m) = S · v (d × m), on the device when there is one. */
gboolean        latent_linear_cov_times        (LatentLinear      *self,
                                                const double      *v,
                                                double            *out,
                                                GCancellable      *cancellable,
                                                GError           **error);
/* The same in double on the host (OpenBLAS on the fast path, the plain
 * loops on the reference path), for factor analysis: its products with
 * Ψ⁻¹W lose every digit in float once a noise variance nears zero. */
void            latent_linear_cov_times_double (LatentLinear      *self,
                                                const double      *v,
                                                guint              cols,
                                                double            *out);
/* PCA's exact solution: the top m eigenvectors of S into w's columns and
 * their eigenvalues, largest first. */
gboolean        latent_linear_top_eigenvectors (LatentLinear      *self,
                                                GError           **error);
/* Orthonormal random start for w (seeded). */
/* COLS orthonormal random columns (d × cols) times SCALE, from the seed. */
void            latent_linear_random_basis     (LatentLinear      *self,
                                                double            *out,
                                                guint              cols,
                                                double             scale);
void            latent_linear_random_w         (LatentLinear      *self,
                                                double             scale);
LatentSnapshot *latent_linear_snapshot         (gpointer           data);
double          latent_linear_objective        (gpointer           data);
/* After an EM step: count it, converged when the log-likelihood moved
 * less than tol. */
void            latent_linear_end_em_step      (LatentLinear      *self);
gboolean        latent_linear_converged        (gpointer           data);

/* n / (n − 1) for PCA, which reports variances as scikit-learn does; 1
 * for the maximum-likelihood models. */
double          latent_linear_unbiased         (LatentLinear      *self);
/* Host linear algebra on small row-major double matrices. */
/* out (m × m) = aᵀ b for two d × m matrices, plus diagonal on its diagonal. */
void            latent_linear_inner            (LatentLinear      *self,
                                                const double      *a,
                                                const double      *b,
                                                double             diagonal,
                                                double            *out);
gboolean        latent_linear_orthonormalise   (double            *v,
                                                guint              rows,
                                                guint              cols);
/* Rayleigh–Ritz on span(V) (rows × cols, orthonormal) with Y = S V:
 * H = Vᵀ Y = Q Θ Qᵀ; V becomes V Q and, with ROTATE_Y, Y becomes Y Q,
 * largest θ first into THETA (cols). FALSE when the eigensolver fails. */
gboolean        latent_linear_rayleigh_ritz    (double            *v,
                                                double            *y,
                                                guint              rows,
                                                guint              cols,
                                                gboolean           rotate_y,
                                                double            *theta);
gboolean        latent_linear_solve_spd        (double            *a,
                                                guint              n,
                                                double            *b,
                                                guint              nrhs,
                                                double            *log_det);

/* The paths. */
gboolean        latent_linear_reference_moments_rows (LatentRows  *rows,
                                                      double      *mean,
                                                      double      *cov,
                                                      GCancellable *cancellable,
                                                      GError     **error);
void            latent_linear_reference_moments   (const float    *x,
                                                   guint           n,
                                                   guint           d,
                                                   double         *mean,
                                                   double         *cov);
void            latent_linear_reference_cov_times (const double   *cov,
                                                   guint           d,
                                                   const double   *v,
                                                   guint           m,
                                                   double         *out);
void            latent_linear_reference_project   (const float    *x,
                                                   guint           n,
                                                   guint           d,
                                                   const double   *mean,
                                                   const double   *et,
                                                   guint           m,
                                                   guint           dims,
                                                   float          *z);

LatentLinearCl *latent_linear_cl_new           (LatentCl          *cl,
                                                const float       *x,
                                                guint              n,
                                                guint              d,
                                                GError           **error);
void            latent_linear_cl_free          (LatentLinearCl    *lcl);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentLinearCl, latent_linear_cl_free)
gboolean        latent_linear_cl_moments       (LatentLinearCl    *lcl,
                                                double            *mean,
                                                double            *cov,
                                                GCancellable      *cancellable,
                                                GError           **error);
gboolean        latent_linear_cl_cov_times     (LatentLinearCl    *lcl,
                                                const double      *v,
                                                guint              m,
                                                double            *out,
                                                GCancellable      *cancellable,
                                                GError           **error);
gboolean        latent_linear_cl_project       (LatentLinearCl    *lcl,
                                                const double      *et,
                                                guint              m,
                                                guint              dims,
                                                float             *z,
                                                GCancellable      *cancellable,
                                                GError           **error);
/* How moments took the Gram matrix: "floats", or from 8-bit rows as
 * "pairs" or "quads" (tests). */
const char     *latent_linear_cl_gram_form     (LatentLinearCl    *lcl);

G_END_DECLS
