/* latent-mlp.h — a multilayer perceptron (a small neural network) trained
 * by mini-batch gradient descent
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-algorithm.h"

G_BEGIN_DECLS

const LatentAlgorithm *latent_mlp_get_algorithm   (void);
/* Its parameters, the defaults but for the first layer, which starts from
 * the wta result at @wta_result (init=@FILE). */
LatentParams          *latent_mlp_new_params_from (const char *wta_result);

G_END_DECLS
