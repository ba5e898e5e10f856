/* latent-logreg-private.h — multinomial logistic regression's state, shared
 * by its two paths
 *
 * One step trains on one mini-batch of B rows, with C classes and D columns,
 * rows standardised as x' = (x − mean) · scale:
 *   Z = X' Wᵀ + b                                     scores, B × C
 *   P = softmax(Z) row by row
 *   loss = −Σ log P[r, y_r] / B + λ/2 ‖W‖²             the bias is not penalised
 * and the gradients, with E = (P − onehot(y)) / B:
 *   ∂W = Eᵀ X' + λ W,   ∂b = Σ_rows E.
 * The parameters live in float on both paths; the reference accumulates in
 * double. The per-row loss is log Σ exp(z − max z) + max z − z_y, which
 * cannot overflow.
 *
 * L-BFGS (the default) takes the batch of all rows: each of its iterations
 * asks a path for the loss and gradient at a point (an evaluation, one pass
 * over the rows), and finds its direction and step on the host in double
 * from the pairs of steps and gradient changes it keeps.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-algorithm.h"
#include "latent-classify.h"
#include "latent-rows.h"

G_BEGIN_DECLS

/* L-BFGS: pairs kept at most (scipy's default), and the memory they may
 * take in all. */
#define LATENT_LOGREG_LBFGS_PAIRS 10
#define LATENT_LOGREG_LBFGS_BYTES ((gsize) 256 << 20)

typedef struct _LatentLogregCl LatentLogregCl;

typedef struct {
  const LatentAlgorithm *algorithm;
  LatentDataset     *dataset;
  LatentParams      *params;
  guint64            seed;
  LatentCl          *runtime;       /* where OpenCL failures count */
  LatentLogregCl    *lcl;           /* NULL on the reference path */
  char              *device;
  char              *fallback;      /* why the run left OpenCL, kept to the end */

  LatentSplit       *split;
  /* Where the batches come from: split->train's rows, and split->test's
   * (the same source when the test rows are the dataset's own). */
  LatentRows        *rows, *test_source;
  guint              n_train, n_test, d, c;
  guint              batch;         /* rows per step; n_train for the full batch */
  guint              steps_per_epoch;
  gboolean           adam, shuffle;
  gboolean           shared;       /* one MPI rank of several: batches shared */
  gboolean           lbfgs;         /* L-BFGS on all rows instead of mini-batch steps */
  double             learning_rate, momentum, l2;
  guint              epochs;
  double             tol;           /* relative fall of the training objective; 0: none */

  float             *mean, *scale;  /* d: x' = (x − mean) · scale */
  /* The training rows in this epoch's order, as rows of the dataset:
   * split->train_rows permuted. */
  gint32            *order;

  /* The model on standardised rows, and the optimiser's memory of the same
   * layouts: w is c × d, b has c values. */
  float             *w, *b;
  float             *vw, *vb;       /* momentum, or Adam's first moment */
  float             *sw, *sb;       /* Adam's second moment; NULL otherwise */
  guint64            adam_t;

  guint              iteration;     /* mini-batches done */
  LatentTrainingLog  log;           /* losses, accuracies and epochs */
  gint32            *test_predictions;  /* n_test, the last evaluation's */
  double             test_loss;
  gboolean           finished;
  gboolean           converged;     /* the objective stopped falling by tol */

  /* L-BFGS on the n_params = c · d + c values of w then b, in double: the
   * point (the float values the paths evaluated), its objective and
   * gradient, the direction, the trial point and its gradient, and a ring
   * of the last pairs s = x' − x, y = g' − g with ρ = 1 / sᵀy. */
  gsize              n_params;
  double            *lb_x, *lb_g, *lb_p, *lb_xt, *lb_gt, *lb_alpha;
  double            *lb_s, *lb_y, *lb_rho;
  guint              lb_pairs, lb_count, lb_head;
  double             lb_f;          /* NAN before the first evaluation */
} LatentLogreg;

/* The rows @rows_of[0 ..< rows] of @source, standardised, into @x
 * (rows × d), and their classes into @y. Fails only where the source
 * cannot give the rows. */
gboolean  latent_logreg_gather        (LatentLogreg  *self,
                                       LatentRows    *source,
                                       const gint32  *rows_of,
                                       guint          rows,
                                       float         *x,
                                       gint32        *y,
                                       GError       **error);
/* Reference path, its rows from self->rows and self->test_source, which
 * is where its failures come from. One training step on the rows
 * order[first ..+ rows): its loss (before the update) in @loss and how many
 * of them the model predicted right in @right. */
gboolean  latent_logreg_reference_step     (LatentLogreg *self,
                                            guint         first,
                                            guint         rows,
                                            double       *loss,
                                            guint        *right,
                                            GError      **error);
/* The same loss, no update, and the gradient into @gw (c × d) and @gb (c),
 * both with the L2 term: for the tests (NAN where the rows fail). */
double    latent_logreg_reference_gradient (LatentLogreg *self,
                                            guint         first,
                                            guint         rows,
                                            double       *gw,
                                            double       *gb);
/* Predictions for every test row into self->test_predictions, and their
 * mean cross-entropy (no penalty) into self->test_loss. */
gboolean  latent_logreg_reference_test     (LatentLogreg *self,
                                            GError      **error);
/* L-BFGS's evaluation: the objective (with the penalty) over all training
 * rows at self->w, self->b in @loss, its gradient into @g (n_params: w then
 * b), and how many rows the model predicts right. */
gboolean  latent_logreg_reference_evaluate (LatentLogreg *self,
                                            double       *g,
                                            double       *loss,
                                            guint        *right,
                                            GError      **error);

/* OpenCL path: the rows stay on the device; the model and the optimiser's
 * memory too, until read copies them back to self. */
LatentLogregCl *latent_logreg_cl_new   (LatentLogreg   *self,
                                        LatentCl       *cl,
                                        GError        **error);
void      latent_logreg_cl_free        (LatentLogregCl *lcl);
gboolean  latent_logreg_cl_set_order   (LatentLogregCl *lcl,
                                        GError        **error);
gboolean  latent_logreg_cl_step        (LatentLogregCl *lcl,
                                        guint           first,
                                        guint           rows,
                                        double         *loss,
                                        guint          *right,
                                        GCancellable   *cancellable,
                                        GError        **error);
gboolean  latent_logreg_cl_test        (LatentLogregCl *lcl,
                                        GCancellable   *cancellable,
                                        GError        **error);
gboolean  latent_logreg_cl_read        (LatentLogregCl *lcl,
                                        gboolean        optimiser,
                                        GError        **error);
/* L-BFGS: self->w and self->b to the device, for the test predictions; and
 * the evaluation at them, as latent_logreg_reference_evaluate. */
gboolean  latent_logreg_cl_write       (LatentLogregCl *lcl,
                                        GError        **error);
gboolean  latent_logreg_cl_evaluate    (LatentLogregCl *lcl,
                                        double         *loss,
                                        guint          *right,
                                        double         *g,
                                        GCancellable   *cancellable,
                                        GError        **error);

G_END_DECLS
