/* latent-idx.h — MNIST-style IDX files, plain or gzip-compressed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-dataset.h"

G_BEGIN_DECLS

/* Images (n × rows × cols) or a plain n × features table, of unsigned bytes
 * (scaled to [0, 1]) or of big-endian float32 (taken as they are; NaN and
 * infinities refused); @labels_path (nullable) is a matching IDX label file
 * of unsigned bytes. */
LatentDataset *latent_idx_load             (const char  *images_path,
                                            const char  *labels_path,
                                            GError     **error);
/* Returns *n_labels class indices (the byte values); free with g_free(). */
gint32        *latent_idx_load_labels      (const char  *labels_path,
                                            guint       *n_labels,
                                            GError     **error);
/* "…/train-images-idx3-ubyte.gz" → "…/train-labels-idx1-ubyte.gz", or
 * "…/features.idx" → "…/features-labels.idx", when that file exists (plain
 * or gzip-compressed), else NULL. */
char          *latent_idx_guess_labels_path (const char *images_path);
/* Float32 values, n × height × width for grey images, else n × columns; with
 * labels, also the unsigned-byte label file latent_idx_guess_labels_path ()
 * finds for @path (so @path must end in .idx or hold "images"; at most 256
 * classes; class names are not kept). Each file is replaced whole or not at
 * all. A label file already there is left alone when @dataset has none. */
gboolean       latent_idx_save             (LatentDataset  *dataset,
                                            const char     *path,
                                            GError        **error);
/* Whether the labels of @dataset fit the label file latent_idx_save ()
 * writes beside @path (at most 256 classes): checkable before the work
 * that makes the dataset to save. */
gboolean       latent_idx_check_labels     (LatentDataset  *dataset,
                                            const char     *path,
                                            GError        **error);

G_END_DECLS
