/* latent-classifiers.h — the classifier family (logistic regression,
 * prototypes): what their results share
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

G_END_DECLS
