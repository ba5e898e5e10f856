/* latent-export-dialog.h — write the figure on screen to PNG, SVG or PDF,
 * or the run's kept frames as an animation
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "latent-figure.h"

G_BEGIN_DECLS

#define LATENT_TYPE_EXPORT_DIALOG (latent_export_dialog_get_type ())
G_DECLARE_FINAL_TYPE (LatentExportDialog, latent_export_dialog, LATENT, EXPORT_DIALOG, GtkWindow)

/* Exports exactly what the view draws: the snapshot in that style, as the
 * figure @parent's win.figure-kind action names (AUTO without one), at the
 * on-screen size (@width × @height) unless the person changes it. The size
 * keeps that aspect ratio until unlinked, and a larger file is the view's
 * layout magnified. Once saved, it activates @parent's win.show-notice
 * action, when it has one, with ("Saved NAME in FOLDER", FOLDER). */
GtkWidget *latent_export_dialog_new (GtkWindow               *parent,
                                     LatentSnapshot          *snapshot,
                                     const LatentFigureStyle *style,
                                     int                      width,
                                     int                      height);
/* The frames an animation of the run is made of (oldest first), offered
 * as the WebM, GIF and PNG sequence formats; references are taken. */
void       latent_export_dialog_set_frames (LatentExportDialog *self,
                                            LatentSnapshot    **frames,
                                            guint               n_frames);

G_END_DECLS
