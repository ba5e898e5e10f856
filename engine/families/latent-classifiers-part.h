/* latent-classifiers-part.h — a classifier's part of a snapshot
 *
 * Read by the engine and the family's own figures (tests/check-layers.py).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-part-shapes.h"
#include "latent-dataset.h"

G_BEGIN_DECLS

/* Classifiers (logistic regression, prototypes, the MLP). They learn from the
 * training rows of the dataset and are judged on test rows: the rows of
 * test_dataset listed in test_rows, which is the dataset's test companion
 * (latent_dataset_get_test) or the dataset itself, its held-out rows.
 * Classes are the dataset's, n_classes of them.
 *
 * The model scores a row x for class c as class_weights[c]·x +
 * class_bias[c] (logistic regression, in data units: standardising is
 * folded in) or as −distance (x, means[c]) (prototypes, the class means;
 * or cosine, or x · means[c]);
 * the prediction is the class of the highest score. Either has n_classes
 * rows of n_cols values, the other is NULL. A network (the MLP) has
 * neither: its n_layers affine maps (latent_classifiers_forward) take
 * layer_sizes[l] values to layer_sizes[l + 1], from n_cols to n_classes,
 * with ReLU (tanh with tanh_units) between them; network holds them in
 * order, each layer's weights (out × in, row-major, in data units: the
 * standardising is folded into the first) then its biases (out).
 *
 * test_predictions has one class per test row; confusion is n_classes ×
 * n_classes counts over the test rows, row = true class, column =
 * predicted. Accuracies are fractions in [0, 1]; the training one is NaN
 * where it is not computed. */
typedef struct {
  guint          n_classes;
  float         *class_weights;         /* n_classes × n_cols, logistic regression */
  float         *class_bias;            /* n_classes, logistic regression */
  float         *means;                 /* n_classes × n_cols, prototypes */
  gboolean       cosine;                /* prototypes scored by cosine distance */
  gboolean       dot_product;           /* prototypes scored by x · p */
  guint          n_layers;              /* a network's; 0 for other models */
  guint         *layer_sizes;           /* n_layers + 1 */
  float         *network;               /* every layer's weights, then its biases */
  gboolean       tanh_units;
  /* Logistic regression's and the network's standardisation, x' = (x − offset) · scale. */
  float         *input_offset;          /* n_cols */
  float         *input_scale;           /* n_cols */
  LatentDataset *test_dataset;
  guint          n_test;
  gint32        *test_rows;             /* n_test, rows of test_dataset */
  gint32        *test_predictions;      /* n_test */
  guint         *confusion;             /* n_classes × n_classes */
  double         train_accuracy;
  double         test_accuracy;
  double         test_loss;             /* logistic regression's, on the test rows */
  LatentEpochs   epochs;
  double        *epoch_train_accuracy;  /* epochs.n_epochs */
  double        *epoch_test_accuracy;   /* epochs.n_epochs */
  /* Few-shot episodes (prototypes; n_episodes = 0 otherwise): the accuracy
   * of each episode so far, their mean and the half-width of its 95 %
   * interval. The last episode: its classes (n_ways), its support rows
   * (n_ways × n_shots, class by class) and queries (n_queries, with the
   * predicted class), all rows of test_dataset; its prototypes are
   * episode_prototypes (n_ways × n_cols). */
  guint          n_episodes;
  double        *episode_accuracy;      /* n_episodes */
  double         episode_mean_accuracy;
  double         episode_ci95;
  guint          n_ways;
  guint          n_shots;
  gint32        *episode_classes;       /* n_ways */
  gint32        *support_rows;          /* n_ways × n_shots */
  float         *episode_prototypes;    /* n_ways × n_cols */
  guint          n_queries;
  gint32        *query_rows;            /* n_queries */
  gint32        *query_predictions;     /* n_queries, classes of the dataset */
  /* The shots curve (prototypes, when asked): the support sizes, and for
   * the class means, matching networks and logistic regression on the
   * support rows (in that order, n_curve_shots each), the mean accuracy
   * over the episodes so far and the half-width of its 95 % interval. */
  guint          n_curve_shots;
  guint         *curve_shots;           /* n_curve_shots */
  double        *curve_accuracy;        /* 3 × n_curve_shots */
  double        *curve_ci95;            /* 3 × n_curve_shots */
} LatentClassifierPart;

G_END_DECLS
