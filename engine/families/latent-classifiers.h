/* latent-classifiers.h — the classifier family (logistic regression,
 * prototypes, the MLP): what their results share, and a network's scores
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "latent-snapshot.h"

G_BEGIN_DECLS

/* The members every classifier's result has: classes, the test rows, their
 * predictions and accuracy, the confusion matrix, per-class precision and
 * recall, and the per-epoch accuracies when there are epochs. */
void latent_classifiers_write_json (LatentSnapshot *snapshot,
                                    JsonBuilder    *builder);

/* The values in a network's layers: its weights and biases, all layers. */
gsize latent_classifiers_network_size (const LatentClassifierPart *part);

/* A network's class scores for the row @x (part->layer_sizes[0] values) into
 * @scores (n_classes), and, when @units is not NULL, every hidden unit's
 * output, layer after layer, into it (the sum of the hidden layers' sizes). */
void  latent_classifiers_forward      (const LatentClassifierPart *part,
                                       const float                *x,
                                       double                     *units,
                                       double                     *scores);

G_END_DECLS
