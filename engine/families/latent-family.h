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
 * "" when it has none yet. NULL for the filter family, whose words are
 * the figures' (latent_figure_filter_describe). */
char *latent_family_describe_metrics (LatentSnapshot *snapshot);

/* What a figure's header says of the result after the data's size
 * (" · test accuracy 91.2 % (10000 rows)"), appended to @text; nothing for
 * the filter family, whose words are the figures'. */
void  latent_family_describe_header  (LatentSnapshot *snapshot,
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

G_END_DECLS
