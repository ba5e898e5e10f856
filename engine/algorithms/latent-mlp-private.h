/* latent-mlp-private.h — the multilayer perceptron's state, shared by its
 * two paths
 *
 * A network of L = hidden + 1 layers on standardised rows (as logistic
 * regression's, x' = (x − mean) · scale). Layer l maps sizes[l] values to
 * sizes[l + 1]: its weights w[l] are sizes[l + 1] × sizes[l], row-major,
 * its biases b[l] sizes[l + 1]. One step trains on one mini-batch of B rows:
 *   A₀ = X'                                           B × d
 *   A_{l+1} = act(A_l W_lᵀ + b_l) · keep / (1 − p)     hidden layers
 *   P = softmax(A_{L−1} W_{L−1}ᵀ + b_{L−1})            B × C
 *   loss = −Σ log P[r, y_r] / B + λ/2 Σ_l ‖W_l‖²       biases not penalised
 * with act ReLU or tanh and keep the dropout mask (latent_mlp_keeps; p = 0
 * keeps every unit, and testing keeps every unit). Backwards, from
 * E_{L−1} = (P − onehot(y)) / B:
 *   ∂W_l = E_lᵀ A_l + λ W_l,   ∂b_l = Σ_rows E_l,
 *   E_{l−1} = (E_l W_l) ⊙ act′ · keep / (1 − p)
 * where act′ is read off the layer's output: 1 where ReLU's is positive,
 * 1 − tanh² for tanh. Every layer is then stepped by momentum or Adam, as
 * logistic regression's weights are. Parameters live in float on both
 * paths; the reference accumulates in double.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-algorithm.h"
#include "latent-classify.h"
#include "latent-rows.h"

G_BEGIN_DECLS

#define LATENT_MLP_MAX_HIDDEN 4
#define LATENT_MLP_MAX_LAYERS (LATENT_MLP_MAX_HIDDEN + 1)

typedef struct _LatentMlpCl LatentMlpCl;

typedef struct {
  const LatentAlgorithm *algorithm;
  LatentDataset     *dataset;
  LatentParams      *params;
  guint64            seed;
  LatentCl          *runtime;       /* where OpenCL failures count */
  LatentMlpCl       *mcl;           /* NULL on the reference path */
  char              *device;
  char              *fallback;      /* why the run left OpenCL, kept to the end */

  LatentSplit       *split;
  LatentRows        *rows, *test_source;
  guint              n_train, n_test, d, c;
  guint              batch;         /* rows per step */
  guint              steps_per_epoch;
  gboolean           adam, shuffle, tanh;
  double             learning_rate, momentum, l2, dropout;
  guint              epochs;
  double             tol;
  char              *init_from;     /* the autoencoder result layer 0 came from, or NULL */

  guint              n_layers;
  guint              sizes[LATENT_MLP_MAX_LAYERS + 1];
  float             *mean, *scale;  /* d */
  gint32            *order;         /* the training rows in this epoch's order */

  float             *w[LATENT_MLP_MAX_LAYERS], *b[LATENT_MLP_MAX_LAYERS];
  float             *vw[LATENT_MLP_MAX_LAYERS], *vb[LATENT_MLP_MAX_LAYERS];
  float             *sw[LATENT_MLP_MAX_LAYERS], *sb[LATENT_MLP_MAX_LAYERS];  /* Adam only */
  guint64            adam_t;

  guint              iteration;     /* mini-batches done */
  LatentTrainingLog  log;
  gint32            *test_predictions;
  double             test_loss;
  gboolean           finished, converged;
} LatentMlp;

/* Values in layer l's weights. */
static inline gsize
latent_mlp_weights (const LatentMlp *self,
                    guint            l)
{
  return (gsize) self->sizes[l + 1] * self->sizes[l];
}

/* Whether dropout keeps unit @unit of row @row of the mini-batch in hidden
 * layer @layer at step @step: a hash of them all
 * and the seed against @threshold = p · 2³², the same on every device. */
static inline gboolean
latent_mlp_keeps (guint32 seed,
                  guint32 step,
                  guint32 row,
                  guint32 layer,
                  guint32 unit,
                  guint32 threshold)
{
  guint32 z = seed ^ (step * 0x9e3779b9u) ^ (row * 0x85ebca6bu) ^ ((unit + (layer << 24)) * 0xc2b2ae35u);

  z ^= z >> 16;
  z *= 0x85ebca6bu;
  z ^= z >> 13;
  z *= 0xc2b2ae35u;
  z ^= z >> 16;
  return z >= threshold;
}

/* The dropout threshold for latent_mlp_keeps. */
static inline guint32
latent_mlp_threshold (const LatentMlp *self)
{
  return (guint32) MIN (self->dropout * 4294967296.0, 4294967295.0);
}

/* Reference path. One step on the rows order[first ..+ rows): the loss
 * before the update and how many rows it predicted right. */
gboolean  latent_mlp_reference_step     (LatentMlp    *self,
                                         guint         first,
                                         guint         rows,
                                         double       *loss,
                                         guint        *right,
                                         GError      **error);
/* The same loss with no update, its gradient into @g, layer by layer the
 * weights then the biases (with the penalty), for the tests; NAN where
 * the rows fail. */
double    latent_mlp_reference_gradient (LatentMlp    *self,
                                         guint         first,
                                         guint         rows,
                                         double       *g);
/* Predictions for every test row, and their mean cross-entropy. */
gboolean  latent_mlp_reference_test     (LatentMlp    *self,
                                         GError      **error);

/* OpenCL path: rows, model and optimiser on the device. */
LatentMlpCl *latent_mlp_cl_new          (LatentMlp    *self,
                                         LatentCl     *cl,
                                         GError      **error);
void      latent_mlp_cl_free            (LatentMlpCl  *mcl);
gboolean  latent_mlp_cl_set_order       (LatentMlpCl  *mcl,
                                         GError      **error);
gboolean  latent_mlp_cl_step            (LatentMlpCl  *mcl,
                                         guint         first,
                                         guint         rows,
                                         double       *loss,
                                         guint        *right,
                                         GCancellable *cancellable,
                                         GError      **error);
gboolean  latent_mlp_cl_test            (LatentMlpCl  *mcl,
                                         GCancellable *cancellable,
                                         GError      **error);
/* The model back into self (and the optimiser's memory with @optimiser). */
gboolean  latent_mlp_cl_read            (LatentMlpCl  *mcl,
                                         gboolean      optimiser,
                                         GError      **error);

G_END_DECLS
