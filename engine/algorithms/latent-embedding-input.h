/* latent-embedding-input.h — what the embeddings (t-SNE, UMAP) share: the
 * rows or their principal components to start from, and the embedding as a
 * result
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-algorithm.h"

G_BEGIN_DECLS

/* The rows the neighbours are found among, n × *d floats: the first @pca
 * principal components of @dataset's rows (the PCA algorithm on @cl) when
 * they have more columns and @pca > 0, and *reduced TRUE; else a copy of
 * the rows. */
float *latent_embedding_input     (LatentDataset  *dataset,
                                   guint           pca,
                                   guint64         seed,
                                   LatentCl       *cl,
                                   guint          *d,
                                   gboolean       *reduced,
                                   GCancellable   *cancellable,
                                   GError        **error);
/* The rows' first two principal components, n × 2: @input's first two
 * columns when it is @reduced, else a PCA of the rows. At least two
 * columns are needed. */
float *latent_embedding_first_two (LatentDataset  *dataset,
                                   const float    *input,
                                   guint           d,
                                   gboolean        reduced,
                                   guint64         seed,
                                   LatentCl       *cl,
                                   GCancellable   *cancellable,
                                   GError        **error);

/* The algorithm's write_csv_row: the row's place. */
void   latent_embedding_write_csv_row (LatentSnapshot *snapshot,
                                       guint           row,
                                       GString        *out);
/* The algorithm's encode: the embedding as two features of the rows it
 * was made of; other rows have no place in it (an embedding learns no map). */
LatentDataset *latent_embedding_encode (LatentSnapshot *snapshot,
                                        LatentDataset  *dataset,
                                        GError        **error);

G_END_DECLS
