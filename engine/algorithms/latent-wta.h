/* latent-wta.h — the winner-take-all sparse autoencoder
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-algorithm.h"

G_BEGIN_DECLS

const LatentAlgorithm *latent_wta_get_algorithm (void);

/* The dense code ReLU(W x' + b) of every row of @dataset under the model of
 * @snapshot (a wta snapshot), without the sparsity of training, as the
 * features a classifier learns from: a dataset of hidden-unit columns with
 * @dataset's labels. The columns must match the model's. */
LatentDataset *latent_wta_encode (LatentSnapshot  *snapshot,
                                  LatentDataset   *dataset,
                                  GError         **error);

G_END_DECLS
