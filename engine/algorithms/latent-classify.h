/* latent-classify.h — what every classifier shares: the rows it learns
 * from and is judged on, and how it is judged
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-snapshot.h"

G_BEGIN_DECLS

/* Training rows are rows of @train; test rows are rows of @test, which is
 * the dataset's test companion, or the dataset itself and then disjoint
 * from the training rows. Labels of both are classes in [0, n_classes). */
typedef struct {
  LatentDataset *train;
  guint          n_train;
  gint32        *train_rows;   /* ascending */
  LatentDataset *test;
  guint          n_test;
  gint32        *test_rows;    /* ascending */
  guint          n_classes;
} LatentSplit;

/* The dataset's test companion, or a held-out share @test_fraction of its
 * rows drawn with @seed. Refused, with a message that says what to do, when
 * the dataset or its test set has no labels, when a side would be empty, or
 * when the training rows are all of one class. */
LatentSplit *latent_split_new   (LatentDataset  *dataset,
                                 double          test_fraction,
                                 guint64         seed,
                                 GError        **error);
void         latent_split_free  (LatentSplit    *split);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentSplit, latent_split_free)

/* The share of @n rows of @dataset (their indices @rows) whose label is the
 * prediction. */
double       latent_classify_accuracy (LatentDataset *dataset,
                                       const gint32  *rows,
                                       const gint32  *predictions,
                                       guint          n);

/* Fills the snapshot's test side from @predictions (one per test row):
 * n_classes, test_dataset, n_test, test_rows, test_predictions, confusion
 * and test_accuracy. */
void         latent_classify_judge    (LatentSnapshot    *snapshot,
                                       const LatentSplit *split,
                                       const gint32      *predictions);

G_END_DECLS
