/* latent-preferences-dialog.h — the settings a person may change
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define LATENT_TYPE_PREFERENCES_DIALOG (latent_preferences_dialog_get_type ())
G_DECLARE_FINAL_TYPE (LatentPreferencesDialog, latent_preferences_dialog, LATENT, PREFERENCES_DIALOG, AdwPreferencesWindow)

/* Edits settings directly; windows follow their changes. */
GtkWidget *latent_preferences_dialog_new (GtkWindow *parent,
                                          GSettings *settings);

G_END_DECLS
