/* latent-projection.h — a dataset projected on two axes for drawing
 *
 * Data with more than two columns is drawn on its first two principal
 * components; data with one or two columns is drawn as it is.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "data/latent-dataset.h"

G_BEGIN_DECLS

typedef struct _LatentProjection LatentProjection;

/* Mean and the top two principal axes of the covariance, plus every row
 * projected; above 65,536 rows, the mean and axes of as many rows spread
 * evenly through the data (a drawing's axes need no more). With n_cols ≤ 2 it is the identity on the columns (y = 0 when
 * n_cols = 1). Fails (naming the dataset) when memory is short or the
 * eigen-solver does. */
LatentProjection *latent_projection_new             (LatentDataset    *dataset,
                                                     GError          **error);
/* The projection kept on the dataset, computed at the first call; safe to
 * call from several threads at once. Returns a new reference, or NULL on
 * failure. The dataset's values must not change afterwards. */
LatentProjection *latent_projection_get_for_dataset (LatentDataset    *dataset);
/* The same with chosen axes: columns[a] is the dataset's column (from 1)
 * drawn on axis a (across, up) as it is, or 0 for the default projection's
 * axis a; NULL columns, or both 0, is the default projection, and so is a
 * column past the last. Kept on the dataset like it; NULL when the default
 * projection fails. */
LatentProjection *latent_projection_get_for_axes    (LatentDataset    *dataset,
                                                     const guint       columns[2]);

LatentProjection *latent_projection_ref             (LatentProjection *self);
void              latent_projection_unref           (LatentProjection *self);

guint             latent_projection_get_n_rows      (LatentProjection *self);
guint             latent_projection_get_n_cols      (LatentProjection *self);
/* TRUE when the axes are principal components, FALSE for the identity. */
gboolean          latent_projection_is_pca          (LatentProjection *self);
/* TRUE when the two axes are all the columns there are, each as it is (data
 * of two columns): distances in the picture are the data's. */
gboolean          latent_projection_is_exact        (LatentProjection *self);

/* One row of n_cols values → 2 values. */
void              latent_projection_apply           (LatentProjection *self,
                                                     const float      *row,
                                                     float            *xy);
/* All dataset rows projected, n_rows × 2 (x, y interleaved). */
const float      *latent_projection_get_points      (LatentProjection *self);
/* Unit axis (n_cols values) and the mean subtracted before projecting on
 * an axis that is not a column as it is. */
const float      *latent_projection_get_axis        (LatentProjection *self,
                                                     guint             axis);
const float      *latent_projection_get_mean        (LatentProjection *self);
/* Fraction of the total variance along axis 0 or 1; 0 for a column chosen
 * from wider data. */
double            latent_projection_get_explained   (LatentProjection *self,
                                                     guint             axis);
/* "PC 1 (72.9 %)", or the column name (or "column 1") for the identity. */
const char       *latent_projection_get_axis_label  (LatentProjection *self,
                                                     guint             axis);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentProjection, latent_projection_unref)

G_END_DECLS
