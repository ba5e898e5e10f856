/* latent-snapshot.h — one immutable picture of a run after an iteration
 *
 * The worker fills a snapshot, then hands it over; from then on nobody writes
 * to it, so the main thread and the renderers read it without locks.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "data/latent-dataset.h"
#include "latent-params.h"

G_BEGIN_DECLS

typedef struct {
  double accuracy;  /* after Hungarian matching of clusters to classes */
  double ari;       /* adjusted Rand index */
  double nmi;       /* normalised mutual information (arithmetic mean) */
} LatentLabelMetrics;

/* Which parts of a snapshot an algorithm's snapshots fill: each family owns
 * one (a mixture fills the clusters' part and its own). */
typedef enum {
  LATENT_FAMILY_CLUSTERS,   /* clusters: labels, means, cluster sizes (k-means) */
  LATENT_FAMILY_MIXTURE,    /* clusters and mixture: weights, covariances, responsibilities, BIC/AIC */
  LATENT_FAMILY_LINEAR,     /* linear: components, projection, reconstructions, samples (PCA, PPCA, FA) */
  LATENT_FAMILY_FILTER,     /* filter: the filtered image, its kernel and the method race */
  LATENT_FAMILY_AUTOENCODER, /* autoencoder: weights, wins per unit, losses, reconstructions */
  LATENT_FAMILY_CLASSIFIER, /* classifier: class scores, test predictions, confusion, accuracies */
} LatentFamily;

/* How a mixture's covariances are stored, per component: a full
 * n_cols × n_cols matrix, the n_cols variances of a diagonal one, or the
 * one variance of a spherical one. */
typedef enum {
  LATENT_COVARIANCE_FULL,
  LATENT_COVARIANCE_DIAGONAL,
  LATENT_COVARIANCE_SPHERICAL,
} LatentCovarianceType;

/* Values per component: a full d × d matrix, d variances or one. */
static inline gsize
latent_covariance_values (LatentCovarianceType type,
                          guint                d)
{
  return type == LATENT_COVARIANCE_FULL ? (gsize) d * d : type == LATENT_COVARIANCE_DIAGONAL ? d : 1;
}

/* Two families' shared shapes, each used inside both parts rather than
 * shared between them: so no field has two owners. */

/* A few rows of the dataset and their reconstructions, for the view
 * (linear models: rows of the dataset; autoencoders: validation rows). */
typedef struct {
  guint          n_examples;
  gint32        *rows;              /* n_examples */
  float         *reconstructions;   /* n_examples × n_cols, in data units */
} LatentExamples;

/* The histories of a model trained by mini-batches (autoencoders,
 * logistic regression). */
typedef struct {
  guint          n_epochs;          /* whole epochs done */
  double        *train_loss;        /* n_epochs: mean of the epoch's steps */
  double        *held_out_loss;     /* n_epochs: the autoencoder's validation rows,
                                     * the classifier's test rows; NaN without them */
  guint          steps_per_epoch;
  guint          n_steps;
  float         *step_loss;         /* n_steps: the loss of every mini-batch */
} LatentEpochs;

/* Clusterings (k-means and the mixtures): one label per row, k means of
 * n_cols values each. */
typedef struct {
  gint32        *labels;
  guint          k;
  float         *means;
  guint         *cluster_sizes;
  /* Clusterings run from several starts (the restarts parameter): the
   * objective each start ended at, in the order of their seeds (the run's
   * seed + 0, + 1, …), and which of them the snapshot is. n_starts is 0
   * for a run from one start. */
  guint          n_starts;
  guint          best_start;
  double        *start_objectives;   /* n_starts */
} LatentClustersPart;

/* Mixtures, beside the clusters' part: weights (k), covariances (k ×
 * latent_snapshot_covariance_values: full matrices, or only the variances
 * of diagonal and spherical models, as covariance_type says),
 * responsibilities (n_rows × k, or NULL when too big to keep), and the
 * mean log-likelihood per row with BIC and AIC. */
typedef struct {
  float         *weights;
  LatentCovarianceType covariance_type;
  float         *covariances;
  float         *responsibilities;
  double         log_likelihood;
  double         bic;
  double         aic;
} LatentMixturePart;

/* Linear latent-variable models (PCA, PPCA, factor analysis). Components
 * are rows of n_cols values: unit principal axes for PCA, the columns of
 * the loading matrix W for PPCA and FA (so not orthogonal for FA).
 * explained_variance[i] is the variance along component i (PCA: its
 * eigenvalue; PPCA/FA: |w_i|²), the ratio divides by total_variance, the
 * trace of the sample covariance (1/n). noise_variance has n_noise values:
 * one σ² for PCA and PPCA, one ψ per column for FA. */
typedef struct {
  guint          n_components;
  float         *components;
  float         *data_mean;
  double        *explained_variance;
  double        *explained_variance_ratio;
  double         total_variance;
  guint          n_noise;
  double        *noise_variance;
  /* The encoder E (n_components × n_cols): a row's latent coordinates are
   * E (x − data_mean), what projection holds for the dataset's rows. */
  float         *encoder;
  /* Latent coordinates of every row (PCA: onto the axes, whitened when
   * asked; PPCA/FA: posterior means), projection_dims ≤ n_components of
   * them per row; intermediate snapshots keep 2. */
  guint          projection_dims;
  float         *projection;
  gboolean       whitened;
  /* Mean squared error per value of the reconstructions of every row. */
  double         reconstruction_error;
  /* The mean log-likelihood per row (PPCA and FA). */
  double         log_likelihood;
  LatentExamples examples;
  /* Rows generated by the model: latent vectors drawn from a Gaussian
   * fitted to the projections, mapped back to data space. */
  guint          n_samples;
  float         *samples;           /* n_samples × n_cols */
} LatentLinearPart;

/* Image filters: the filtered image, pixels interleaved as the dataset's
 * (its image shape says width, height and channels); the kernel applied
 * (kernel_size², the X kernel of a gradient magnitude); the method that
 * ran; and, for each method raced on the image at the start, its name and
 * milliseconds per pass. */
typedef struct {
  float         *image;
  guint          kernel_size;
  float         *kernel;
  /* The filter is a column times a row (for a gradient magnitude, both of
   * its kernels are), so the separable method may run: the engine's test,
   * which the kernel figure reports rather than repeats. */
  gboolean       kernel_separable;
  char          *method;
  GStrv          method_names;
  double        *method_ms;
} LatentFilterPart;

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

/* Classifiers (logistic regression, prototypes). They learn from the
 * training rows of the dataset and are judged on test rows: the rows of
 * test_dataset listed in test_rows, which is the dataset's test companion
 * (latent_dataset_get_test) or the dataset itself, its held-out rows.
 * Classes are the dataset's, n_classes of them.
 *
 * The model scores a row x for class c as class_weights[c]·x +
 * class_bias[c] (logistic regression, in data units: standardising is
 * folded in) or as −distance (x, means[c]) (prototypes, the class means);
 * the prediction is the class of the highest score. Either has n_classes
 * rows of n_cols values, the other is NULL.
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
  /* Logistic regression's standardisation, x' = (x − offset) · scale. */
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
} LatentClassifierPart;

typedef struct _LatentAlgorithm LatentAlgorithm;   /* latent-algorithm.h */
typedef struct _LatentSnapshot LatentSnapshot;

struct _LatentSnapshot
{
  /* The algorithm that made it: its id, titles and family. Registered
   * algorithms live as long as the program. */
  const LatentAlgorithm *algorithm;
  LatentDataset *dataset;      /* the data the run works on */
  LatentParams  *params;
  guint64        seed;
  char          *device;       /* "PoCL: pthread-…" or "CPU reference" */

  guint          iteration;    /* 0 = after initialisation */
  gboolean       converged;
  gboolean       final;        /* no more iterations will follow */
  double         objective;    /* k-means: inertia */

  /* The rows and columns of the data the parts' arrays are sized by. */
  guint          n_rows;
  guint          n_cols;

  /* Each family's part: the one of the algorithm's family (a mixture's and
   * the clusters'); the others stay zeroed. Read by the engine and the
   * family's own figures (tests/check-layers.py); the window and the
   * programs ask latent-family.h. */
  LatentClustersPart    clusters;
  LatentMixturePart     mixture;
  LatentLinearPart      linear;
  LatentFilterPart      filter;
  LatentAutoencoderPart autoencoder;
  LatentClassifierPart  classifier;

  gboolean       has_label_metrics;
  LatentLabelMetrics metrics;

  double         step_ms;      /* wall time of the last iteration */
  double         elapsed_ms;   /* since the run started, initialisation included */
  char          *message;      /* something the person should know, or NULL */
};

LatentSnapshot *latent_snapshot_new      (const LatentAlgorithm *algorithm,
                                          LatentDataset         *dataset,
                                          LatentParams          *params);
LatentSnapshot *latent_snapshot_ref      (LatentSnapshot        *self);
void            latent_snapshot_unref    (LatentSnapshot        *self);
/* Bytes the snapshot holds itself, every array counted (not the dataset or
 * parameters it shares): what keeping it in a history costs. */
gsize           latent_snapshot_get_size (LatentSnapshot        *self);
/* Each family's part, every family asked (latent-family.c's list): set
 * up in a new snapshot, freed, and its arrays' bytes; a part the
 * algorithm's family did not fill frees and counts nothing. */
void            latent_family_init_parts          (LatentSnapshot *self);
void            latent_family_clear_parts         (LatentSnapshot *self);
gsize           latent_family_get_parts_size      (LatentSnapshot *self);
/* The shared shapes' arrays, freed and counted (@n_cols per reconstruction). */
void            latent_examples_clear             (LatentExamples       *examples);
gsize           latent_examples_get_size          (const LatentExamples *examples,
                                                   guint                 n_cols);
void            latent_epochs_clear               (LatentEpochs         *epochs);
gsize           latent_epochs_get_size            (const LatentEpochs   *epochs);
/* Bytes of a string a snapshot holds, its end included; 0 for NULL. */
gsize           latent_snapshot_string_size       (const char     *s);
/* Values per component in covariances: n_cols², n_cols or 1. */
gsize           latent_snapshot_covariance_values (LatentSnapshot *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentSnapshot, latent_snapshot_unref)

G_END_DECLS
