/* latent-tsne-private.h — t-SNE's state and the arithmetic its two paths
 * share
 *
 * The model (van der Maaten and Hinton 2008; the defaults are openTSNE's,
 * docs/EMBEDDINGS-RESEARCH.md): the input affinities p_ij come from each
 * row's k = 3·perplexity nearest rows, a Gaussian per row whose width makes
 * the perplexity of its conditional distribution the one asked for,
 * symmetrised, p_ij = (p_j|i + p_i|j) / 2n, so Σ p_ij = 1. The embedding's
 * are q_ij = w_ij / Z with w_ij = 1 / (1 + ‖y_i − y_j‖²) and Z = Σ_{i≠j} w_ij.
 * The gradient of KL(P‖Q), without the customary factor 4 (openTSNE's and
 * FIt-SNE's units, in which the learning rate n / exaggeration is meant), is
 *
 *   g_i = α Σ_j p_ij w_ij (y_i − y_j) − (1 / Z) Σ_j w_ij² (y_i − y_j)
 *
 * with α the early exaggeration while it lasts, else 1. The repulsion (the
 * second sum, and Z) is exact, over every pair, or interpolated on a grid
 * and convolved by FFT (Linderman et al. 2019, latent-tsne-fft.c). The
 * optimiser is openTSNE's: per-coordinate gains (+0.2 where the step turned
 * against the gradient, ×0.8 + 0.01 where not), momentum 0.8, each point's
 * step at most 5 long, the embedding centred before each step.
 *
 * KL(P‖Q) = Σ p log p − Σ p_ij log w_ij + log Z is computed every step for
 * the embedding the step starts from, with the true P even while it is
 * exaggerated (what openTSNE reports, corrected).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-tsne.h"

G_BEGIN_DECLS

typedef struct _LatentTsneCl LatentTsneCl;
typedef struct _LatentTsneFft LatentTsneFft;

/* openTSNE's optimiser constants. */
#define LATENT_TSNE_MOMENTUM 0.8
#define LATENT_TSNE_MIN_GAIN 0.01
#define LATENT_TSNE_MAX_STEP 5.0

/* P, symmetrised, as compressed rows: row i's entries are
 * cols[row_start[i] … row_start[i + 1]), ascending, with their p. */
typedef struct {
  guint    n;
  guint64  n_entries;
  guint64 *row_start;     /* n + 1 */
  gint32  *cols;
  float   *p;
  double   p_log_p;       /* Σ p log p, KL's constant */
} LatentTsneAffinities;

typedef struct {
  const LatentAlgorithm *algorithm;
  LatentDataset         *dataset;
  LatentParams          *params;
  guint64                seed;
  guint                  n;
  guint                  d;             /* columns of the input, after PCA */
  float                 *x;             /* the input, n × d (the PCA's features, or the rows) */
  gboolean               reduced;       /* x is the PCA's */
  double                 perplexity;
  guint                  k;
  guint                  iterations;
  guint                  exaggeration_iterations;
  double                 exaggeration;
  double                 learning_rate; /* 0: n / α */
  gboolean               use_fft;
  LatentTsneAffinities   aff;

  guint                  iteration;
  double                 kl;
  double                 z;
  double                 trustworthiness;
  guint                  trust_rows;
  /* The reference path's embedding and optimiser state, n × 2 each; on the
   * OpenCL path y is the copy read back each step. */
  double                *y;
  double                *gains;
  double                *update;
  double                *rep;           /* n × 2 scratch: Σ_j w_ij² (y_i − y_j) */
  LatentTsneFft         *fft;

  LatentCl              *runtime;
  LatentTsneCl          *tcl;           /* NULL on the reference path */
  char                  *device;
  char                  *fallback;
} LatentTsne;

/* The exaggeration and learning rate of step @iteration. */
double    latent_tsne_exaggeration_at  (LatentTsne *self,
                                        guint       iteration);
double    latent_tsne_learning_rate_at (LatentTsne *self,
                                        guint       iteration);

/* Each row's p_j|i over its k neighbours (n × k squared distances, nearest
 * first) in @p_cond, n × k: the reference in double. */
void      latent_tsne_reference_calibrate (const float *dist2,
                                           guint        n,
                                           guint        k,
                                           double       perplexity,
                                           float       *p_cond);
/* (P_cond + P_condᵀ) / 2n as compressed rows. */
gboolean  latent_tsne_symmetrise       (const gint32         *index,
                                        const float          *p_cond,
                                        guint                 n,
                                        guint                 k,
                                        LatentTsneAffinities *aff,
                                        GError              **error);
void      latent_tsne_affinities_clear (LatentTsneAffinities *aff);

/* The repulsion of every point over every other (@rep, n × 2) and Z, exactly. */
double    latent_tsne_exact_repulsion  (const double *y,
                                        guint         n,
                                        double       *rep);
/* One reference step of @self's embedding. */
gboolean  latent_tsne_reference_step   (LatentTsne   *self,
                                        GError      **error);

/* The FFT-interpolated repulsion: @rep and Z within about 1e-4 relative
 * of the exact sums (latent-tsne-fft.c). */
LatentTsneFft *latent_tsne_fft_new     (void);
void      latent_tsne_fft_free         (LatentTsneFft *fft);
gboolean  latent_tsne_fft_repulsion    (LatentTsneFft *fft,
                                        const double  *y,
                                        guint          n,
                                        double        *rep,
                                        double        *z,
                                        GError       **error);

/* The OpenCL path: affinities from the rows, then steps on the device. */
gboolean  latent_tsne_cl_calibrate     (LatentCl     *cl,
                                        const float  *dist2,
                                        guint         n,
                                        guint         k,
                                        double        perplexity,
                                        float        *p_cond,
                                        GCancellable *cancellable,
                                        GError      **error);
LatentTsneCl *latent_tsne_cl_new       (LatentTsne   *self,
                                        LatentCl     *cl,
                                        GError      **error);
void      latent_tsne_cl_free          (LatentTsneCl *tcl);
/* One step; self->y gets the embedding the step started from, centred,
 * and self->kl and self->z that embedding's. */
gboolean  latent_tsne_cl_step          (LatentTsneCl *tcl,
                                        LatentTsne   *self,
                                        GCancellable *cancellable,
                                        GError      **error);
/* The embedding now, centred, into self->y. */
gboolean  latent_tsne_cl_read          (LatentTsneCl *tcl,
                                        LatentTsne   *self,
                                        GError      **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentTsneFft, latent_tsne_fft_free)

G_END_DECLS
