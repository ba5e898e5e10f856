/* latent-autoencoders-part.h — an autoencoder's part of a snapshot
 *
 * Read by the engine and the family's own figures (tests/check-layers.py).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-part-shapes.h"

G_BEGIN_DECLS

/* Autoencoders (winner-take-all). The encoder's weights are one row of
 * n_cols values per hidden unit, n_units of them; the examples are
 * validation rows with their reconstructions, in data units. A unit wins a
 * row when it is selected with a positive activation: unit_wins counts that
 * over the last whole epoch (the running one before the first ends), and a
 * unit without a win in a whole epoch is dead (n_dead). Rows are scaled as
 * x' = (x − input_offset) · input_scale, per column, before encoding. */
typedef struct {
  guint          n_units;
  float         *encoder_weights;      /* n_units × n_cols */
  float         *hidden_bias;          /* n_units */
  float         *decoder_weights;      /* n_units × n_cols; NULL when tied */
  float         *decoder_bias;         /* n_cols */
  float         *input_offset;         /* n_cols */
  float         *input_scale;          /* n_cols */
  guint         *unit_wins;            /* n_units */
  guint          n_dead;
  double         validation_loss;      /* mean squared error on the validation rows */
  LatentExamples examples;
  LatentEpochs   epochs;
  double        *epoch_dead_fraction;  /* epochs.n_epochs */
} LatentAutoencoderPart;

G_END_DECLS
