/* latent-sweep-dialog.h — fit a mixture for each K and compare BIC and AIC
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "latent-algorithm.h"

G_BEGIN_DECLS

#define LATENT_TYPE_SWEEP_DIALOG (latent_sweep_dialog_get_type ())
G_DECLARE_FINAL_TYPE (LatentSweepDialog, latent_sweep_dialog, LATENT, SWEEP_DIALOG, GtkWindow)

/* ::use-k (guint k) when the person takes the best K. */
GtkWidget *latent_sweep_dialog_new (GtkWindow             *parent,
                                    const LatentAlgorithm *algorithm,
                                    LatentDataset         *dataset,
                                    LatentParams          *params,
                                    guint64                seed,
                                    LatentCl              *cl);

/* The algorithm it compares runs of. */
const LatentAlgorithm *latent_sweep_dialog_get_algorithm (LatentSweepDialog *self);

G_END_DECLS
