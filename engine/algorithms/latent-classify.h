/* latent-classify.h — what every classifier shares: the rows it learns
 * from and is judged on, and how it is judged
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-cl.h"
#include "latent-rows.h"
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

/* Mean and standard deviation (1/n, as scikit-learn's StandardScaler) of
 * every column over the training rows (read from @source, which holds
 * split->train's rows), two passes in double, into @mean and @scale
 * (1 / deviation): x' = (x − mean) · scale. A column whose spread is
 * rounding beside its mean is constant: it keeps scale 1, so it becomes
 * zeros instead of amplified rounding; so is one whose spread underflows
 * (subnormals only), whose inverse would overflow. Rows whose product with
 * weights would overflow single precision from the start are refused, as
 * k-means refuses them, rather than diverging with the learning rate
 * blamed. Without @standardise the mean is 0 and the scale 1, and only
 * that check is made. */
gboolean     latent_split_standardise (const LatentSplit  *split,
                                       LatentRows         *source,
                                       gboolean            standardise,
                                       float              *mean,
                                       float              *scale,
                                       GError            **error);

/* @values (@n of them) in a new order drawn from @seed: an epoch's
 * mini-batches. */
void         latent_classify_shuffle  (gint32             *values,
                                       guint               n,
                                       guint64             seed);

/* What a classifier trained by steps records (logistic regression, the
 * MLP): every step's loss, and per epoch the mean training loss and
 * accuracy (of the predictions made before each step), the test loss and
 * accuracy; and whether it should stop. */
typedef struct {
  GArray  *step_loss;                      /* float per step */
  GArray  *train_loss, *test_loss;         /* double per epoch */
  GArray  *train_accuracy, *test_accuracy; /* double per epoch */
  guint    epoch;                          /* whole epochs done */
  double   epoch_loss;                     /* this epoch's, summed per row */
  guint    epoch_right;
  double   first_loss, loss;               /* the first step's and the last's */
  double   best_loss;                      /* the lowest epoch loss so far */
  guint    stale_epochs;                   /* epochs since it fell by tol */
} LatentTrainingLog;

void         latent_training_log_init      (LatentTrainingLog  *log);
void         latent_training_log_clear     (LatentTrainingLog  *log);
/* Step @step's loss (before its update) over @rows rows, @right of them
 * predicted right. FALSE with an error when the loss is not finite, or
 * has grown a hundredfold since the first step: the error names the step
 * and @learning_rate, the usual cause. */
gboolean     latent_training_log_step      (LatentTrainingLog  *log,
                                            guint               step,
                                            double              loss,
                                            guint               rows,
                                            guint               right,
                                            double              learning_rate,
                                            GError            **error);
/* When an epoch counts as no better. */
typedef enum {
  /* Its loss is not below the best by more than tol × the best, and the
   * best moves only with a fall larger than that (logistic regression). */
  LATENT_STOP_RELATIVE,
  /* Its loss is not below the best by more than tol, and the best is the
   * lowest so far (scikit-learn's MLPClassifier). */
  LATENT_STOP_ABSOLUTE,
} LatentStopRule;

/* The end of an epoch of @n_train rows, with the test side. TRUE when the
 * run has converged: @patience epochs in a row no better by @rule and
 * @tol; never with tol 0. */
gboolean     latent_training_log_end_epoch (LatentTrainingLog  *log,
                                            guint               n_train,
                                            double              test_loss,
                                            double              test_accuracy,
                                            double              tol,
                                            LatentStopRule      rule,
                                            guint               patience);
/* The log into a snapshot's classifier part: its epochs and steps. */
void         latent_training_log_fill      (const LatentTrainingLog *log,
                                            guint               steps_per_epoch,
                                            LatentSnapshot     *snapshot);

/* A source's rows and classes on the device, from its one chunk of them
 * all (latent_rows_is_whole): the rows in place (the dataset outlives the
 * buffer; kernels that read them load unaligned), the classes copied. */
gboolean     latent_classify_upload_rows (LatentCl           *cl,
                                          LatentRows         *source,
                                          cl_mem             *data,
                                          cl_mem             *labels,
                                          GError            **error);

/* One optimiser step's constants, as kernels/common.h's
 * LATENT_OPTIMISER_STEP takes them: momentum (v = μ v − lr g, p += v) or
 * Adam (β₁ 0.9, β₂ 0.999, ε 1e-8) with its bias corrections after @t steps
 * folded into lr and eps: lr · m̂ / (√v̂ + ε) = lr √c₂ / c₁ · m / (√v + ε √c₂). */
typedef struct {
  gboolean adam;
  float    lr, mu, eps;
} LatentOptimiserStep;

void         latent_optimiser_prepare (LatentOptimiserStep       *step,
                                       gboolean                   adam,
                                       double                     learning_rate,
                                       double                     momentum,
                                       guint64                    t);
/* The step on @n parameters in float, exactly as the device's kernels take
 * it; @s is Adam's (NULL for momentum). */
void         latent_optimiser_apply   (const LatentOptimiserStep *step,
                                       float                     *param,
                                       const double              *grad,
                                       float                     *v,
                                       float                     *s,
                                       gsize                      n);

G_END_DECLS
