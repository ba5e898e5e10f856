/* latent-runs-window.h — two runs of the history side by side
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "latent-run-history.h"

G_BEGIN_DECLS

#define LATENT_TYPE_RUNS_WINDOW (latent_runs_window_get_type ())
G_DECLARE_FINAL_TYPE (LatentRunsWindow, latent_runs_window, LATENT, RUNS_WINDOW, GtkWindow)

/* The runs of @history, the last two side by side; a run clicked in the
 * list goes on the right, the one there to the left. */
GtkWidget *latent_runs_window_new (GtkWindow        *parent,
                                   LatentRunHistory *history);

G_END_DECLS
