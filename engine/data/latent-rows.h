/* latent-rows.h — a source of rows, given in chunks
 *
 * The algorithms whose iteration is a pass over the rows (the pass
 * contract, latent-algorithm.h) read them from a row source, a chunk at a
 * time, never from a whole dataset: a chunk is a run of consecutive rows,
 * its first row's index, its values and its labels. The source is a
 * dataset, in one chunk of every row or in chunks of a chosen size (the
 * chunked source proves that no pass relies on seeing all rows at once).
 * A streamed dataset (latent-dataset.h), larger than the memory budget,
 * comes in its own chunk size: each chunk is checked finite on the first
 * pass and let go when the next is asked for, which a thread has read in
 * from the file meanwhile (disk and computation overlap). One process's share of the rows under
 * MPI is another source (latent_rows_new_for_share,
 * latent_algorithm_new_rows).
 *
 * Mini-batch learners (the autoencoder, logistic regression) draw their
 * rows in an order of their own, so they ask the source for rows by index
 * (latent_rows_gather) rather than for chunks.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "latent-dataset.h"

G_BEGIN_DECLS

/* Consecutive rows first … first + n − 1. The pointers belong to the
 * source and hold until the next chunk is asked for. */
typedef struct {
  guint         first;    /* the index of the chunk's first row in the whole set */
  guint         n;        /* rows in the chunk, at least 1 */
  guint         d;        /* values per row */
  const float  *values;   /* n × d, row-major */
  const gint32 *labels;   /* n class indices, or NULL when the rows have none */
} LatentChunk;

typedef struct _LatentRows LatentRows;

/* The rows of @dataset (held by reference), in chunks of @chunk_rows rows
 * (the last may be shorter); 0 takes latent_rows_default_chunk_rows (),
 * else a streamed dataset's chunk size, else every row. */
LatentRows    *latent_rows_new_for_dataset (LatentDataset *dataset,
                                            guint          chunk_rows);
/* One process's share of the rows of @dataset, in a job of several (an
 * MPI rank's, latent-mpi.h): rows @first … @first + @count − 1, possibly
 * none. Its chunks cover the share only, their first rows numbered in the
 * whole set; n-rows stays the whole set's, and a gather reaches every
 * row. A pass over it (latent_algorithm_pass_over) sums its statistics
 * over the job's processes. */
LatentRows    *latent_rows_new_for_share   (LatentDataset *dataset,
                                            guint          first,
                                            guint          count,
                                            guint          chunk_rows);
LatentRows    *latent_rows_ref             (LatentRows    *self);
void           latent_rows_unref           (LatentRows    *self);

guint          latent_rows_get_n_rows      (LatentRows    *self);
guint          latent_rows_get_n_cols      (LatentRows    *self);
guint          latent_rows_get_chunk_rows  (LatentRows    *self);
/* Chunks of the share. */
guint          latent_rows_get_n_chunks    (LatentRows    *self);
/* One of several processes' shares: its passes are summed over them. */
gboolean       latent_rows_is_shared       (LatentRows    *self);
/* The dataset behind the source where it is one in memory, else NULL. */
LatentDataset *latent_rows_get_dataset     (LatentRows    *self);
/* TRUE when one chunk holds every row of @dataset, from @dataset itself:
 * an algorithm may then run the pass on its own copy of the rows (an
 * OpenCL device's) and keep the statistics there. */
gboolean       latent_rows_is_whole        (LatentRows    *self,
                                            LatentDataset *dataset);
/* Chunk @index (0 … n_chunks − 1) into @chunk. An in-memory source cannot
 * fail; a streamed one fails on a value that is not finite. */
gboolean       latent_rows_get_chunk       (LatentRows    *self,
                                            guint          index,
                                            LatentChunk   *chunk,
                                            GError       **error);

/* Rows @indices[0 ..< n] (each below n_rows, repeats allowed), in that
 * order, copied into @values (n × d, row-major) and their labels into
 * @labels when not NULL (the rows must have labels then). A copy, not a
 * pointer, because the rows of a batch are scattered over the chunks: an
 * in-memory source copies them and cannot fail; a streamed one reads them
 * from the file in the same order, and fails on a value not finite. */
gboolean       latent_rows_gather          (LatentRows    *self,
                                            const guint   *indices,
                                            guint          n,
                                            float         *values,
                                            gint32        *labels,
                                            GError       **error);

/* At most @max_rows rows of @dataset (all when it has fewer), drawn
 * uniformly without repeats from @seed and kept in their order, with their
 * labels, as a dataset in memory: where a streamed dataset's algorithm
 * starts (k-means++ on a sample). Fails on a value not finite. */
LatentDataset *latent_rows_sample          (LatentDataset *dataset,
                                            guint          max_rows,
                                            guint64        seed,
                                            GError       **error);

/* The chunk size of sources made with chunk_rows 0: the environment's
 * LATENT_CHUNK_ROWS when set to a positive number, else what
 * latent_rows_set_default_chunk_rows () last set, else 0 (one chunk of
 * every row). Tests and benchmarks set it; runs leave it alone. */
guint          latent_rows_default_chunk_rows     (void);
void           latent_rows_set_default_chunk_rows (guint chunk_rows);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentRows, latent_rows_unref)

G_END_DECLS
