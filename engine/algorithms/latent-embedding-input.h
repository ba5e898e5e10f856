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

/* How far @y (n × 2) keeps the neighbours of @x (n × d): trustworthiness
 * with k = 10 (fewer for a few rows), from *@rows rows ranked against all
 * (1,000 at most). */
double latent_embedding_trustworthiness (const float  *x,
                                         guint         n,
                                         guint         d,
                                         const double *y,
                                         guint        *rows);
/* The embedding part's own fields: @y (n_rows × 2) centred as positions,
 * the trustworthiness from @trust_rows rows, the input's columns. */
void   latent_embedding_fill_part (LatentSnapshot *snapshot,
                                   const double   *y,
                                   double          trust,
                                   guint           trust_rows,
                                   guint           input_dims);
/* The result's members after the algorithm's objective: trustworthiness
 * and how it was taken, the input's columns, the embedding. */
void   latent_embedding_write_json (LatentSnapshot *snapshot,
                                    JsonBuilder    *builder);

/* One neighbour list's value at both of its ends. */
typedef struct {
  gint32 col;
  float  value;
} LatentEmbeddingEntry;

/* Each of the n rows' m neighbours (@index, n × m) with its @values,
 * counted in its own row at the neighbour's column and in the neighbour's
 * row at its own: row i's entries are (*entries)[(*start)[i] …
 * (*start)[i + 1]), sorted by column, so a pair met from both sides is two
 * entries side by side. For t-SNE's P and UMAP's fuzzy union. */
gboolean latent_embedding_both_ways (const gint32          *index,
                                     const float           *values,
                                     guint                  n,
                                     guint                  m,
                                     guint64              **start,
                                     LatentEmbeddingEntry **entries,
                                     GError               **error);

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
