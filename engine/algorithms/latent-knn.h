/* latent-knn.h — the k nearest neighbours of every row, exactly
 *
 * What t-SNE's affinities and UMAP's graph start from: for each row of a
 * dataset, the k other rows nearest by Euclidean distance, nearest first
 * (ties to the lower row), with their squared distances. Two paths, as
 * every algorithm has: the reference in double, and the OpenCL one, whose
 * matrix product ‖x‖² + ‖y‖² − 2x·y picks candidates in float and whose
 * candidates are then measured again and ordered in double on the host, so
 * both paths give the same lists wherever no two distances are within a
 * float rounding of each other at the k-th place.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "latent-cl.h"

G_BEGIN_DECLS

/* The nearest rows of the n × d rows @x (row-major), k < n of them per
 * row: @index and @dist2 are n × k. Cancellable between blocks of rows. */
gboolean latent_knn_reference (const float   *x,
                               guint          n,
                               guint          d,
                               guint          k,
                               gint32        *index,
                               float         *dist2,
                               GCancellable  *cancellable,
                               GError       **error);
gboolean latent_knn_cl        (LatentCl      *cl,
                               const float   *x,
                               guint          n,
                               guint          d,
                               guint          k,
                               gint32        *index,
                               float         *dist2,
                               GCancellable  *cancellable,
                               GError       **error);

G_END_DECLS
