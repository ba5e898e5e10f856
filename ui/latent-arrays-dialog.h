/* latent-arrays-dialog.h — choose an archive's data and labels
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define LATENT_TYPE_ARRAYS_DIALOG (latent_arrays_dialog_get_type ())
G_DECLARE_FINAL_TYPE (LatentArraysDialog, latent_arrays_dialog, LATENT, ARRAYS_DIALOG, GtkWindow)

/* For @path, an archive holding @arrays whose data could not be told
 * apart. ::chosen (const char *spec) on Open: "PATH:x=DATA,y=LABELS", the
 * spec latent_catalog_load () takes ("y=" for no labels). */
GtkWidget *latent_arrays_dialog_new (GtkWindow          *parent,
                                     const char         *path,
                                     const char * const *arrays);

G_END_DECLS
