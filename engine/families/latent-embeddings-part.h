/* latent-embeddings-part.h — an embedding's part of a snapshot
 *
 * Read by the engine and the family's own figures (tests/check-layers.py).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Embeddings (t-SNE, UMAP): every row's place in a space of n_dims
 * dimensions, centred; what the run minimises (NaN for the other's), and how far the embedding's
 * nearest neighbours are the input's (trustworthiness, Venna and Kaski: 1
 * when every row's trust_k nearest in the embedding are among its trust_k
 * nearest in the input), estimated from trust_rows rows ranked against all,
 * NaN until the run ends. input_dims: the columns the neighbours were found
 * in (after principal components). exaggeration: the multiplier of the
 * attraction at this iteration (1 when none). */
typedef struct {
  guint          n_dims;
  float         *positions;          /* n_rows × n_dims */
  double         kl_divergence;      /* t-SNE's */
  double         cross_entropy;      /* UMAP's, over the graph's edges */
  double         trustworthiness;
  guint          trust_k;
  guint          trust_rows;
  guint          input_dims;
  double         exaggeration;
} LatentEmbeddingPart;

G_END_DECLS
