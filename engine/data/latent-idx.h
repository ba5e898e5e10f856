/* latent-idx.h — MNIST-style IDX files, plain or gzip-compressed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-dataset.h"

G_BEGIN_DECLS

/* Images (n × rows × cols, scaled to [0, 1]) or a plain n × features table of
 * unsigned bytes; @labels_path (nullable) is a matching IDX label file. */
LatentDataset *latent_idx_load             (const char  *images_path,
                                            const char  *labels_path,
                                            GError     **error);
/* Returns *n_labels class indices (the byte values); free with g_free(). */
gint32        *latent_idx_load_labels      (const char  *labels_path,
                                            guint       *n_labels,
                                            GError     **error);
/* "…/train-images-idx3-ubyte.gz" → "…/train-labels-idx1-ubyte.gz" when that
 * file exists, else NULL. */
char          *latent_idx_guess_labels_path (const char *images_path);

G_END_DECLS
