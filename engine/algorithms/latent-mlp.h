/* latent-mlp.h — a multilayer perceptron (a small neural network) trained
 * by mini-batch gradient descent
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-algorithm.h"

G_BEGIN_DECLS

const LatentAlgorithm *latent_mlp_get_algorithm (void);

G_END_DECLS
