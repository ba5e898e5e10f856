/* latent-synthetic-dialog.h — choose a synthetic generator's parameters
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define LATENT_TYPE_SYNTHETIC_DIALOG (latent_synthetic_dialog_get_type ())
G_DECLARE_FINAL_TYPE (LatentSyntheticDialog, latent_synthetic_dialog, LATENT, SYNTHETIC_DIALOG, GtkWindow)

/* generator: blobs, moons or rings. ::chosen (const char *spec) on Generate. */
GtkWidget *latent_synthetic_dialog_new (GtkWindow  *parent,
                                        const char *generator);

G_END_DECLS
