/* latent-run-history.h — the runs since the window opened, to compare
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "latent-session.h"

G_BEGIN_DECLS

#define LATENT_TYPE_RUN_RECORD (latent_run_record_get_type ())
G_DECLARE_FINAL_TYPE (LatentRunRecord, latent_run_record, LATENT, RUN_RECORD, GObject)

/* One run as it ended: its last snapshot and what a person reads of it.
 * Properties (read-only): "label" ("Run 3 · k-means"), "parameters",
 * "result" (its iteration and objective or accuracy), "thumbnail"
 * (GdkTexture of its figure). */
LatentSnapshot *latent_run_record_get_snapshot   (LatentRunRecord *self);
const char     *latent_run_record_get_label      (LatentRunRecord *self);
const char     *latent_run_record_get_parameters (LatentRunRecord *self);
const char     *latent_run_record_get_result     (LatentRunRecord *self);
GdkTexture     *latent_run_record_get_thumbnail  (LatentRunRecord *self);
/* The objective the run ended at (inertia, log-likelihood, loss…), NaN
 * without one. */
double          latent_run_record_get_objective  (LatentRunRecord *self);

#define LATENT_TYPE_RUN_HISTORY (latent_run_history_get_type ())
G_DECLARE_FINAL_TYPE (LatentRunHistory, latent_run_history, LATENT, RUN_HISTORY, GObject)

/* Follows @session: a run that ends (finished or stopped) or that a new
 * run replaces after an iteration or more is recorded, newest last, the
 * oldest dropped past LATENT_RUN_HISTORY_MAX. */
#define LATENT_RUN_HISTORY_MAX 50
LatentRunHistory *latent_run_history_new       (LatentSession    *session);
/* The records (LatentRunRecord), oldest first. */
GListModel       *latent_run_history_get_model (LatentRunHistory *self);

G_END_DECLS
