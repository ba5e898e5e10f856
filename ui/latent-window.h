/* latent-window.h — the main window: a dataset, an algorithm, a live run
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define LATENT_TYPE_WINDOW (latent_window_get_type ())
G_DECLARE_FINAL_TYPE (LatentWindow, latent_window, LATENT, WINDOW, AdwApplicationWindow)

LatentWindow *latent_window_new          (GtkApplication *application);
/* NULL when the settings schema is not installed. */
GSettings    *latent_window_get_settings (LatentWindow   *self);
/* A catalog spec or a path; errors show in the window, the old data stays. */
/* Follows the run `latent-cli run … --follow @dir` writes: its
 * experiment's data, algorithm and parameters, then its iterations as they
 * come. A folder without a run says so in a toast; what is loaded stays. */
void          latent_window_follow       (LatentWindow   *self,
                                          const char     *dir);
void          latent_window_load_dataset (LatentWindow   *self,
                                          const char     *spec);

G_END_DECLS
