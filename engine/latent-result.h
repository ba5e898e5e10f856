/* latent-result.h — a finished run written as JSON or CSV
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "latent-algorithm.h"

G_BEGIN_DECLS

gboolean  latent_result_write_json (LatentSnapshot  *snapshot,
                                    const GArray    *history,
                                    double           init_ms,
                                    double           total_ms,
                                    const char      *path,
                                    GError         **error);
/* One line per row: row, cluster, and the class when the data has labels. */
gboolean  latent_result_write_csv  (LatentSnapshot  *snapshot,
                                    const char      *path,
                                    GError         **error);
/* Whether latent_result_write_csv () can write a result of @algorithm to
 * @path: known before a run, so a caller can say so before it. */
gboolean  latent_result_check_csv  (const LatentAlgorithm  *algorithm,
                                    const char             *path,
                                    GError                **error);

/* The model of a result JSON written by an encoder (PCA, PPCA, FA, WTA):
 * a snapshot without a dataset, for its algorithm's encode. The error
 * names the file and what is wrong with it. */
LatentSnapshot *latent_result_read_model (const char *path,
                                          GError    **error);

G_END_DECLS
