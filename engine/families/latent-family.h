/* latent-family.h — what a family of algorithms says about its results,
 * asked by family: each family's own file (latent-clusters.c,
 * latent-mixtures.c, latent-linear-models.c, latent-autoencoders.c,
 * latent-classifiers.c) answers for it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-algorithm.h"

G_BEGIN_DECLS

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

/* Each family's part of them, appended to @text. */
void  latent_clusters_describe_metrics     (LatentSnapshot *snapshot,
                                            GString        *text);
void  latent_mixtures_describe_metrics     (LatentSnapshot *snapshot,
                                            GString        *text);
void  latent_linear_models_describe_metrics (LatentSnapshot *snapshot,
                                            GString        *text);
void  latent_autoencoders_describe_metrics (LatentSnapshot *snapshot,
                                            GString        *text);
void  latent_classifiers_describe_metrics  (LatentSnapshot *snapshot,
                                            GString        *text);
void  latent_clusters_describe_header      (LatentSnapshot *snapshot,
                                            GString        *text);
void  latent_mixtures_describe_header      (LatentSnapshot *snapshot,
                                            GString        *text);
void  latent_linear_models_describe_header (LatentSnapshot *snapshot,
                                            GString        *text);
void  latent_autoencoders_describe_header  (LatentSnapshot *snapshot,
                                            GString        *text);
void  latent_classifiers_describe_header   (LatentSnapshot *snapshot,
                                            GString        *text);
void  latent_filters_describe_metrics      (LatentSnapshot *snapshot,
                                            GString        *text);
void  latent_filters_describe_header       (LatentSnapshot *snapshot,
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
