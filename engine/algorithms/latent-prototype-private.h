/* latent-prototype-private.h — the nearest-prototype classifier's state,
 * shared by its two paths
 *
 * Both paths do the same two things, on a list of rows of one dataset:
 *   means:    the mean of the rows of each slot (a class, or a class of an
 *             episode), n_slots × d floats;
 *   classify: the slot of the best-scoring prototype for each row.
 * The score of a row x against a prototype p is −‖x − p‖² (euclidean),
 * x·p / (‖x‖ ‖p‖) (cosine, 0 when a norm is 0) or x·p (dot); the best is the highest,
 * and of equal scores the lower slot. Slots are in ascending class order,
 * so the tie goes to the lower class.
 *
 * The reference computes every score in double from the float rows and
 * float prototypes. The device computes them in float and the host decides
 * the close calls (best and runner-up within LATENT_PROTOTYPE_CLOSE) again
 * with the reference's double scores, so the two paths predict the same
 * class for the same prototypes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-prototype.h"
#include "latent-classify.h"

G_BEGIN_DECLS

typedef enum {
  LATENT_PROTOTYPE_EUCLIDEAN,
  LATENT_PROTOTYPE_COSINE,
  LATENT_PROTOTYPE_DOT,
} LatentPrototypeDistance;

/* The device's float scores are within d · 2⁻²⁴ (relative, euclidean; absolute,
 * cosine) of the exact ones; d ≤ 1000 or so is well inside this. */
#define LATENT_PROTOTYPE_CLOSE 1e-4

/* The shots curve: the episodes' support sizes, and the three classifiers
 * it compares (in this order): the class means, matching networks'
 * attention over the support rows, and logistic regression trained on
 * them. */
#define LATENT_PROTOTYPE_CURVE_SHOTS 5
#define LATENT_PROTOTYPE_CURVE_METHODS 3
extern const guint latent_prototype_curve_shots[LATENT_PROTOTYPE_CURVE_SHOTS];

typedef struct _LatentPrototypeCl LatentPrototypeCl;

typedef struct {
  const LatentAlgorithm   *algorithm;
  LatentDataset           *dataset;
  LatentParams            *params;
  guint64                  seed;
  LatentSplit             *split;
  guint                    d, n_classes;
  LatentPrototypeDistance  distance;

  /* Nearest class mean over the whole training side. Slots are the
   * classes with training rows (a class without any is never predicted). */
  guint                    n_present;
  gint32                  *present;         /* n_present classes, ascending */
  float                   *prototypes;      /* n_classes × d, zero for absent classes */
  gint32                  *test_predictions;
  double                   train_accuracy;
  double                   test_accuracy;

  /* Episodes, drawn from the test rows: by_class lists the test rows class
   * after class (ascending within one), class_start[c] where class c
   * begins (n_classes + 1 entries). */
  gint32                  *by_class;
  guint                   *class_start;
  guint                    n_eligible;      /* classes with shots + queries test rows */
  gint32                  *eligible;
  guint                    ways, shots, queries, episodes;
  gboolean                 matching;         /* attention over the support rows, not their means */
  gboolean                 curve;            /* the shots curve, every episode */
  guint                    pool_shots;       /* support rows drawn per class: shots, or the curve's most */
  /* The shots curve: for each method and support size, the running mean
   * accuracy over the episodes and Welford's sum of squares; n_curve is
   * how many of latent_prototype_curve_shots fit the test rows. */
  guint                    n_curve;
  double                   curve_mean[LATENT_PROTOTYPE_CURVE_METHODS * LATENT_PROTOTYPE_CURVE_SHOTS];
  double                   curve_m2[LATENT_PROTOTYPE_CURVE_METHODS * LATENT_PROTOTYPE_CURVE_SHOTS];
  GArray                  *episode_accuracy; /* double */
  double                   episode_mean, episode_ci95;
  double                   episode_m2;       /* Σ (a − mean)², kept as episodes come */
  gint32                  *episode_classes;  /* ways */
  gint32                  *support_rows;     /* ways × shots */
  float                   *episode_prototypes; /* ways × d */
  gint32                  *query_rows;       /* ways × queries */
  gint32                  *query_predictions; /* ways × queries, classes */
  gboolean                 finished;

  LatentCl                *runtime;         /* where OpenCL failures count */
  LatentPrototypeCl       *pcl;             /* NULL on the reference path */
  char                    *device;
  char                    *fallback;        /* why the run left OpenCL, kept to the end */
  char                    *note;            /* what init changed or left out, kept */
} LatentPrototype;

/* The score of row @x against each of @n_slots prototypes (n_slots × d),
 * in double; and the best of @n_slots scores (the lower slot on a tie). */
void      latent_prototype_scores       (const float            *x,
                                         guint                   d,
                                         const float            *prototypes,
                                         guint                   n_slots,
                                         LatentPrototypeDistance distance,
                                         double                 *scores);
guint     latent_prototype_best         (const double           *scores,
                                         guint                   n_slots);
/* Matching networks' classifier: the attention of a query over the
 * support rows is the softmax of its @scores against them (n_support,
 * class after class, @shots of each), and its class the one whose rows
 * draw the most attention (the lower class on a tie); @weight gets that
 * class's attention and the runner-up's. */
guint     latent_prototype_attend       (const double           *scores,
                                         guint                   ways,
                                         guint                   shots,
                                         double                 *weight,
                                         double                 *runner_up);
/* Multinomial logistic regression on @n rows (n × d) of classes @y
 * (0 ..< ways), fitted on the host in double by accelerated gradient
 * descent (mean cross-entropy + λ/2 ‖W‖², λ = 10⁻³, 100 steps, from 0),
 * then the class of each of @m rows of @q. */
void      latent_prototype_support_lr   (const float            *x,
                                         const gint32           *y,
                                         guint                   n,
                                         guint                   d,
                                         guint                   ways,
                                         const float            *q,
                                         guint                   m,
                                         gint32                 *predicted);

/* Reference path. @means is n_slots × d; a slot without rows gets zeros. */
void      latent_prototype_reference_means    (LatentDataset           *dataset,
                                               const gint32            *rows,
                                               const gint32            *slots,
                                               guint                    n,
                                               guint                    n_slots,
                                               float                   *means);
gboolean  latent_prototype_reference_means_rows (LatentRows             *rows,
                                                 const gint32           *slot_of_row,
                                                 guint                   n_slots,
                                                 float                  *means,
                                                 GCancellable           *cancellable,
                                                 GError                **error);
void      latent_prototype_reference_classify (LatentDataset           *dataset,
                                               const gint32            *rows,
                                               guint                    n,
                                               const float             *prototypes,
                                               guint                    n_slots,
                                               LatentPrototypeDistance  distance,
                                               gint32                  *slot_of_row);

/* OpenCL path: the same two on the device. The training and the test
 * dataset of @self's split go to the device once, in _new. */
LatentPrototypeCl *latent_prototype_cl_new      (LatentPrototype         *self,
                                                 LatentCl                *cl,
                                                 GError                 **error);
void      latent_prototype_cl_free      (LatentPrototypeCl       *pcl);
gboolean  latent_prototype_cl_means     (LatentPrototypeCl       *pcl,
                                         LatentDataset           *dataset,
                                         const gint32            *rows,
                                         const gint32            *slots,
                                         guint                    n,
                                         guint                    n_slots,
                                         float                   *means,
                                         GCancellable            *cancellable,
                                         GError                 **error);
/* Every row's float score against every prototype, n × n_slots. */
gboolean  latent_prototype_cl_scores    (LatentPrototypeCl       *pcl,
                                         LatentDataset           *dataset,
                                         const gint32            *rows,
                                         guint                    n,
                                         const float             *prototypes,
                                         guint                    n_slots,
                                         float                   *scores,
                                         GCancellable            *cancellable,
                                         GError                 **error);
/* @rechecked, when not NULL, gets how many rows were close calls. */
gboolean  latent_prototype_cl_classify  (LatentPrototypeCl       *pcl,
                                         LatentDataset           *dataset,
                                         const gint32            *rows,
                                         guint                    n,
                                         const float             *prototypes,
                                         guint                    n_slots,
                                         gint32                  *slot_of_row,
                                         guint                   *rechecked,
                                         GCancellable            *cancellable,
                                         GError                 **error);

G_END_DECLS
