/* latent-linear-models.h — the linear latent-variable family (PCA, PPCA,
 * factor analysis): what their results share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "latent-snapshot.h"

G_BEGIN_DECLS

/* The result members the three models share (scikit-learn's names where it
 * has them), and their CSV columns: each row's latent coordinates. */
void latent_linear_models_write_json       (LatentSnapshot *snapshot,
                                            JsonBuilder    *builder);
void latent_linear_models_write_csv_header (LatentSnapshot *snapshot,
                                            GString        *out);
void latent_linear_models_write_csv_row    (LatentSnapshot *snapshot,
                                            guint           row,
                                            GString        *out);

G_END_DECLS
