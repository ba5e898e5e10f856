/* latent-family.h — what a family of algorithms says about its results,
 * asked by family: each family's own file (latent-clusters.c,
 * latent-mixtures.c, latent-linear-models.c, latent-filters.c,
 * latent-autoencoders.c, latent-classifiers.c) answers for it, and reads
 * its part of a snapshot for the window and the programs, which do not
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-algorithm.h"

G_BEGIN_DECLS

/* What a family answers for: each family's file defines one, const
 * (latent_clusters_family…), listed in engine/meson.build (latent_families,
 * generated into latent-families.h); the functions below and the snapshot's
 * parts go through that list, so a new family adds its files and that line,
 * no switch. A NULL member: the family has none of it. */
typedef struct {
  LatentFamily family;
  /* Its metrics lines (each ending in a newline), and what a figure's
   * header says of the result, appended to the text. */
  void  (*describe_metrics) (LatentSnapshot *snapshot,
                             GString        *text);
  void  (*describe_header)  (LatentSnapshot *snapshot,
                             GString        *text);
  /* Its part in a new snapshot (values not yet measured are NaN), freed,
   * and its arrays' bytes. Every snapshot asks every family, so a part
   * left zeroed must free and count nothing. */
  void  (*init_part)        (LatentSnapshot *snapshot);
  void  (*clear_part)       (LatentSnapshot *snapshot);
  gsize (*get_part_size)    (LatentSnapshot *snapshot);
  /* Writes or reads its part, field by field (latent-codec.h). */
  void  (*transfer_part)    (LatentSnapshot *snapshot,
                             LatentCodec    *codec);
  /* What the shared figures read, below. */
  const float          *(*components)  (LatentSnapshot *snapshot,
                                        guint          *n);
  const LatentExamples *(*examples)    (LatentSnapshot *snapshot);
  const LatentEpochs   *(*epochs)      (LatentSnapshot *snapshot);
  gboolean              (*has_encoder) (LatentSnapshot *snapshot);
} LatentFamilyClass;

/* The class of @family; never NULL for a listed family. */
const LatentFamilyClass *latent_family_class (LatentFamily family);

/* The metrics lines under a result (the window's): what the family of
 * @snapshot's algorithm measures, one per line, without a last newline;
 * "" when it has none yet. */
char *latent_family_describe_metrics (LatentSnapshot *snapshot);

/* What a figure's header says of the result after the data's size
 * (" · test accuracy 91.2 % (10000 rows)"), appended to @text. */
void  latent_family_describe_header  (LatentSnapshot *snapshot,
                                      GString        *text);

/* " · inertia 78.85": the objective the history records, when finite. */
void  latent_family_describe_objective (LatentSnapshot *snapshot,
                                        GString        *text);

/* What figures shared by several families read of whichever part the
 * snapshot's family fills. The rows it calls components: the linear
 * models' components, the autoencoder's encoder weights, logistic
 * regression's class weights or the prototypes' means; NULL (and 0 in
 * @n) for the other families. */
const float          *latent_family_components (LatentSnapshot *snapshot,
                                                guint          *n);
/* The examples with their reconstructions (linear models, autoencoders)
 * and the training histories (autoencoders, classifiers); an empty one
 * for the other families, never NULL. */
const LatentExamples *latent_family_examples   (LatentSnapshot *snapshot);
const LatentEpochs   *latent_family_epochs     (LatentSnapshot *snapshot);

/* What the window and the programs read of a family's part, which only
 * the engine and that family's figures read themselves (check-layers). */

/* Whether @snapshot's model holds what encoding rows needs: a linear
 * model's encoder or an autoencoder's input scaling. */
gboolean     latent_family_has_encoder     (LatentSnapshot *snapshot);
/* A clustering's label (from 0) of each of its n_rows rows, or NULL. */
const gint32 *latent_clusters_get_labels   (LatentSnapshot *snapshot);
/* A clustering's means, k × n_cols, with k in @k; NULL without them. */
const float *latent_clusters_get_means     (LatentSnapshot *snapshot,
                                            guint          *k);
/* Where @row sits in a linear model's latent space: its first two
 * coordinates, or NULL without a projection of the dataset's rows. */
const float *latent_linear_models_get_position (LatentSnapshot *snapshot,
                                                guint           row);
/* Where @row sits in an embedding: its first two coordinates, or NULL. */
const float *latent_embeddings_get_position (LatentSnapshot *snapshot,
                                             guint           row);
/* A classifier's count of test rows of class @truth predicted as
 * @predicted, and in @total those of class @truth. */
guint        latent_classifiers_get_confusion (LatentSnapshot *snapshot,
                                               guint           truth,
                                               guint           predicted,
                                               guint          *total);
/* A classifier's predicted class of each of @n test rows (@rows, rows of
 * @dataset), or NULL before any. */
const gint32 *latent_classifiers_get_predictions (LatentSnapshot *snapshot,
                                                  LatentDataset **dataset,
                                                  const gint32  **rows,
                                                  guint          *n);
/* The filtered image, interleaved as the dataset's pixels; NULL before it. */
const float *latent_filters_get_image      (LatentSnapshot *snapshot);
/* The method that ran ("direct"), or NULL. */
const char  *latent_filters_get_method     (LatentSnapshot *snapshot);
/* Milliseconds per pass: the race's time of the method that ran, which is
 * the kernel's own, or else the last step's wall time. */
double       latent_filters_get_ms_per_pass (LatentSnapshot *snapshot);

/* What every clustering says, which the mixtures say too. */
void  latent_clusters_describe_metrics     (LatentSnapshot *snapshot,
                                            GString        *text);

/* The filter family in words, from the convolution's own parameters
 * (latent-filters.c, the one family file that reads them by name). */

/* The filter as a person says it: "Gaussian blur σ = 2", "kernel
 * sharpen.txt"; NULL without a filter parameter. */
char       *latent_filters_describe     (LatentSnapshot *snapshot);
/* How a person names a method: "Separable" for "separable", "CPU
 * reference" for "reference". */
const char *latent_filters_method_label (LatentSnapshot *snapshot,
                                         const char     *method);
/* The filter parameter ("gaussian", "@FILE.txt"), or NULL. */
const char *latent_filters_value        (LatentSnapshot *snapshot);
/* The passes it makes (its budget), 0 if unknown. */
guint       latent_filters_passes       (LatentSnapshot *snapshot);

G_END_DECLS
