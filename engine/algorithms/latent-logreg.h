/* latent-logreg.h — multinomial logistic regression (softmax regression)
 * by gradient descent
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-algorithm.h"

G_BEGIN_DECLS

const LatentAlgorithm *latent_logreg_get_algorithm (void);

G_END_DECLS
