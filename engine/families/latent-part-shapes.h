/* latent-part-shapes.h — shapes that several families' parts of a
 * snapshot hold, each inside every part that has it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* How a mixture's covariances are stored, per component: a full
 * n_cols × n_cols matrix, the n_cols variances of a diagonal one, or the
 * one variance of a spherical one. */
typedef enum {
  LATENT_COVARIANCE_FULL,
  LATENT_COVARIANCE_DIAGONAL,
  LATENT_COVARIANCE_SPHERICAL,
} LatentCovarianceType;

/* Values per component: a full d × d matrix, d variances or one. */
static inline gsize
latent_covariance_values (LatentCovarianceType type,
                          guint                d)
{
  return type == LATENT_COVARIANCE_FULL ? (gsize) d * d : type == LATENT_COVARIANCE_DIAGONAL ? d : 1;
}

/* Two families' shared shapes, each used inside both parts rather than
 * shared between them: so no field has two owners. */

/* A few rows of the dataset and their reconstructions, for the view
 * (linear models: rows of the dataset; autoencoders: validation rows). */
typedef struct {
  guint          n_examples;
  gint32        *rows;              /* n_examples */
  float         *reconstructions;   /* n_examples × n_cols, in data units */
} LatentExamples;

/* The histories of a model trained by mini-batches (autoencoders,
 * logistic regression). */
typedef struct {
  guint          n_epochs;          /* whole epochs done */
  double        *train_loss;        /* n_epochs: mean of the epoch's steps */
  double        *held_out_loss;     /* n_epochs: the autoencoder's validation rows,
                                     * the classifier's test rows; NaN without them */
  guint          steps_per_epoch;
  guint          n_steps;
  float         *step_loss;         /* n_steps: the loss of every mini-batch */
} LatentEpochs;

G_END_DECLS
