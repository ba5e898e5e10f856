/* latent-wta-private.h — the winner-take-all autoencoder's state, shared by
 * its two paths
 *
 * One step trains on one mini-batch of B rows, with H hidden units and D
 * columns:
 *   Z = X Wᵀ + b,  A = ReLU(Z)                        encoder, B × H
 *   M = winners of A (per unit across the batch, per row, or all)
 *   S = A ⊙ M                                          the sparse code
 *   X̂ = S W_d + c                                      decoder, W_d = W when tied
 *   loss = ½ Σ‖X̂ − X‖² / B
 * and the gradients, with E = (X̂ − X) / B:
 *   ∂W_d = Sᵀ E,  ∂c = Σ_rows E,  ∂Z = (E W_dᵀ) ⊙ [S > 0],  ∂b = Σ_rows ∂Z,
 *   ∂W = ∂Zᵀ X (+ Sᵀ E when tied).
 * Only winners with a positive activation carry gradient, so S > 0 is the
 * mask the backward pass needs. The parameters live in float on both paths;
 * the reference accumulates in double.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-algorithm.h"
#include "latent-rows.h"

G_BEGIN_DECLS

typedef enum {
  LATENT_WTA_LIFETIME,   /* each unit keeps its rate · B largest activations */
  LATENT_WTA_K_SPARSE,   /* each row keeps its k largest */
  LATENT_WTA_NONE,       /* a plain ReLU autoencoder */
} LatentWtaSparsity;

/* Adam's constants, as in its paper. */
#define LATENT_WTA_BETA1 0.9
#define LATENT_WTA_BETA2 0.999
#define LATENT_WTA_EPSILON 1e-8

typedef struct _LatentWtaCl LatentWtaCl;

/* The parameters and the optimiser's memory: float arrays of the same
 * layout, so an update walks them together. wd is NULL when tied. */
typedef struct {
  float *w, *wd, *b, *c;
} LatentWtaParams;

typedef struct {
  const LatentAlgorithm *algorithm;
  LatentDataset     *dataset;
  LatentRows        *rows;          /* the dataset's, where every batch comes from */
  LatentParams      *params;
  guint64            seed;
  LatentCl          *runtime;       /* where OpenCL failures count */
  LatentWtaCl       *wcl;           /* NULL on the reference path */
  char              *device;
  char              *fallback;      /* why the run left OpenCL, kept to the end */

  guint              n, d, h;       /* rows, columns, hidden units */
  guint              batch;
  LatentWtaSparsity  sparsity;
  guint              winners;       /* per unit (lifetime) or per row (k-sparse) */
  gboolean           tied, adam, shuffle;
  double             learning_rate, momentum;
  guint              epochs;

  float             *offset, *scale; /* d: x' = (x − offset) · scale */
  /* Row indices: the n_train training rows (reshuffled every epoch), then
   * the n_val validation rows. */
  guint             *order;
  guint              n_train, n_val;
  guint              steps_per_epoch;

  LatentWtaParams    p;             /* the model */
  LatentWtaParams    v;             /* momentum, or Adam's first moment */
  LatentWtaParams    s;             /* Adam's second moment; NULLs otherwise */
  guint64            adam_t;

  guint              iteration;     /* mini-batches done */
  guint              epoch;         /* whole epochs done */
  guint             *wins;          /* this epoch's wins per unit */
  guint             *last_wins;     /* the last whole epoch's; NULL before */
  double             epoch_loss;    /* sum over this epoch's steps */
  double             loss;          /* the last step's */
  double             first_loss;
  GArray            *step_loss;     /* float per step */
  GArray            *epoch_train, *epoch_val, *epoch_dead;  /* double per epoch */
  double             val_loss;
  gboolean           finished;
} LatentWta;

/* Ranks by value, then by the lower index: the first @k of @count values
 * at base[i · stride] get mask[i · stride] = 1, the others 0. */
void      latent_wta_select        (const float  *values,
                                    guint8       *mask,
                                    guint         count,
                                    gsize         stride,
                                    guint         k);
/* Winners of a batch's activations @a (rows × h), as @self's sparsity says,
 * for @rows rows (a short last batch keeps rate · rows, at least one). */
void      latent_wta_select_batch  (LatentWta    *self,
                                    const float  *a,
                                    guint8       *mask,
                                    guint         rows);
guint     latent_wta_batch_winners (LatentWta    *self,
                                    guint         rows);
/* The rows of @order, from self->rows, scaled, into @x (rows × d). */
gboolean  latent_wta_gather        (LatentWta    *self,
                                    const guint  *order,
                                    guint         rows,
                                    float        *x,
                                    GError      **error);
/* The optimiser's step on @count values, shared by both paths' results
 * (the device runs the same arithmetic). */
void      latent_wta_update        (LatentWta    *self,
                                    float        *param,
                                    float        *grad,
                                    float        *v,
                                    float        *s,
                                    gsize         count);
/* Adam's learning rate and ε after @t steps, with the bias corrections
 * folded in. */
void      latent_wta_adam_factors  (LatentWta    *self,
                                    float        *lr,
                                    float        *eps);

/* Reference path: one training step on the rows @order[0..rows), the loss
 * in @loss; and the forward pass alone (loss, and the reconstructions in
 * @xhat when not NULL, scaled). They fail only where the row source cannot
 * give the rows. */
gboolean  latent_wta_reference_step    (LatentWta    *self,
                                        const guint  *order,
                                        guint         rows,
                                        double       *loss,
                                        GError      **error);
gboolean  latent_wta_reference_forward (LatentWta    *self,
                                        const guint  *order,
                                        guint         rows,
                                        double       *loss,
                                        float        *xhat,
                                        GError      **error);

/* OpenCL path: the same three, the parameters on the device. read copies
 * them back to self->p and the wins to self->wins, and with @optimiser the
 * optimiser's memory to self->v and self->s. */
LatentWtaCl *latent_wta_cl_new     (LatentWta    *self,
                                    LatentCl     *cl,
                                    GError      **error);
void      latent_wta_cl_free       (LatentWtaCl  *wcl);
gboolean  latent_wta_cl_set_order  (LatentWtaCl  *wcl,
                                    const guint  *order,
                                    guint         count,
                                    GError      **error);
gboolean  latent_wta_cl_step       (LatentWtaCl  *wcl,
                                    guint         first,
                                    guint         rows,
                                    double       *loss,
                                    GCancellable *cancellable,
                                    GError      **error);
gboolean  latent_wta_cl_forward    (LatentWtaCl  *wcl,
                                    guint         first,
                                    guint         rows,
                                    double       *loss,
                                    float        *xhat,
                                    GCancellable *cancellable,
                                    GError      **error);
gboolean  latent_wta_cl_read       (LatentWtaCl  *wcl,
                                    gboolean      optimiser,
                                    GError      **error);
gboolean  latent_wta_cl_reset_wins (LatentWtaCl  *wcl,
                                    GError      **error);

/* What `latent-cli tune` tries for wta.cl (latent-wta-cl.c). */
extern const LatentTuneJob latent_wta_cl_tune_job;

G_END_DECLS
