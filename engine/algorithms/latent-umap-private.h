/* latent-umap-private.h — UMAP's state and the arithmetic its two paths
 * share
 *
 * The model (McInnes, Healy and Melville 2018; the defaults are
 * umap-learn's, docs/EMBEDDINGS-RESEARCH.md): each row's k − 1 nearest
 * other rows (k = neighbours, the row itself counted as umap-learn does)
 * weigh w_ij = exp (−max (0, d_ij − ρ_i) / σ_i), ρ_i the distance to the
 * nearest and σ_i bisected so Σ_j w_ij = log₂ k; the graph is their fuzzy
 * union W = A + Aᵀ − A ∘ Aᵀ, edges below max W / epochs dropped. The
 * embedding's similarity is v = 1 / (1 + a d^2b), a and b fitted to
 * min-dist and spread. Each epoch, every edge whose turn it is (edge e
 * every max W / w_e epochs) pulls its two ends together with the gradient
 * −2ab d^2(b−1) / (1 + a d^2b) (y_i − y_j), and its head is pushed from
 * `negative-sample-rate` random rows with 2γb / ((0.001 + d²)(1 + a d^2b))
 * (y_i − y_k), each component clipped to ±4, times the learning rate,
 * which falls linearly to 0 over the epochs.
 *
 * umap-learn moves the points one edge after another; here every point's
 * move in an epoch is gathered from the embedding as the epoch began (its
 * own edges' pulls and its negative samples, drawn by a hash of the seed,
 * the edge and the epoch), then all move at once: the same on any device,
 * run after run. umap-learn pulls both ends of each of an edge's two
 * directions, so a point twice, the second time from where the first left
 * it; pulled once from where the epoch began, the embedding keeps more of
 * the neighbours (trustworthiness 0.9883 against 0.9855 twice on the
 * digits, 0.9804 against 0.9755 on 3,000 Fashion-MNIST images; umap-learn
 * 0.9887 and 0.9795).
 *
 * The history records the cross-entropy of the graph's edges,
 * Σ_e w log (w / v) + (1 − w) log ((1 − w) / (1 − v)) over the edges (the
 * repulsion over the pairs without an edge is left out: it would take every
 * pair), as the epoch began, every tenth epoch and the last.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-umap.h"

G_BEGIN_DECLS

typedef struct _LatentUmapCl LatentUmapCl;

/* The graph as compressed rows, symmetric: row i's edges are
 * cols[row_start[i] … row_start[i + 1]), with their weight, the epochs
 * between their samples, and when each is next sampled and next pushes
 * from random rows (the per-edge state of umap-learn's schedule). */
typedef struct {
  guint    n;
  guint64  n_edges;
  guint64 *row_start;          /* n + 1 */
  gint32  *cols;
  float   *w;
  float   *every;              /* epochs per sample */
  float   *next;               /* epoch of the next sample */
  float   *next_negative;      /* epoch of the next negative samples */
} LatentUmapGraph;

typedef struct {
  const LatentAlgorithm *algorithm;
  LatentDataset         *dataset;
  LatentParams          *params;
  guint64                seed;
  guint32                hash_seed;           /* the seed folded to 32 bits */
  guint                  n, d;
  float                 *x;
  gboolean               reduced;
  guint                  k;
  guint                  epochs;
  double                 a, b;
  double                 learning_rate;
  double                 repulsion;
  double                 negative_rate;
  LatentUmapGraph        graph;

  guint                  epoch;
  double                 cross_entropy;
  double                 trustworthiness;
  guint                  trust_rows;
  double                *y;                   /* n × 2 */
  double                *y_next;              /* n × 2 scratch */

  LatentCl              *runtime;
  LatentUmapCl          *ucl;
  char                  *device;
  char                  *fallback;
} LatentUmap;

/* a and b of 1 / (1 + a x^2b) fitted by least squares to 1 below
 * @min_dist and exp (−(x − min_dist) / spread) above, on 300 points of
 * [0, 3 spread] (umap-learn's find_ab_params). */
void     latent_umap_fit_ab          (double           spread,
                                      double           min_dist,
                                      double          *a,
                                      double          *b);
/* The fuzzy graph from each row's k − 1 neighbours (n × (k − 1), nearest
 * first, squared distances), pruned and scheduled for @epochs. */
gboolean latent_umap_graph           (const gint32    *index,
                                      const float     *dist2,
                                      guint            n,
                                      guint            k,
                                      guint            epochs,
                                      double           negative_rate,
                                      LatentUmapGraph *graph,
                                      GError         **error);
void     latent_umap_graph_clear     (LatentUmapGraph *graph);
/* The row the s-th negative sample of edge @e in @epoch pushes from:
 * murmur3's finaliser over the sample's coordinates, 32-bit (cheap on every
 * device), mapped onto the rows by a multiply and a shift. */
static inline guint
latent_umap_negative (guint32 seed,
                      guint32 e,
                      guint32 epoch,
                      guint32 s,
                      guint32 n)
{
  guint32 z = seed ^ (e * 0x9e3779b9u) ^ (epoch * 0x85ebca6bu) ^ (s * 0xc2b2ae35u);

  z ^= z >> 16;
  z *= 0x85ebca6bu;
  z ^= z >> 13;
  z *= 0xc2b2ae35u;
  z ^= z >> 16;
  return (guint) (((guint64) z * n) >> 32);
}
/* Whether @epoch measures the cross-entropy: every tenth and the last;
 * the others keep the last measured (it takes two logarithms an edge). */
static inline gboolean
latent_umap_measures (guint epoch,
                      guint epochs)
{
  return epoch % 10 == 0 || epoch + 1 == epochs;
}
/* One epoch on the reference path. */
void     latent_umap_reference_epoch (LatentUmap      *self);

/* The OpenCL path. */
LatentUmapCl *latent_umap_cl_new     (LatentUmap      *self,
                                      LatentCl        *cl,
                                      GError         **error);
void     latent_umap_cl_free         (LatentUmapCl    *ucl);
gboolean latent_umap_cl_epoch        (LatentUmapCl    *ucl,
                                      LatentUmap      *self,
                                      GCancellable    *cancellable,
                                      GError         **error);
/* The embedding and the schedule now, into self->y and self->graph. */
gboolean latent_umap_cl_read         (LatentUmapCl    *ucl,
                                      LatentUmap      *self,
                                      GError         **error);

G_END_DECLS
