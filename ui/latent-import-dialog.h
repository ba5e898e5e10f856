/* latent-import-dialog.h — how to read a table: labels, columns left out,
 * text in columns of numbers, missing values, standardising
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define LATENT_TYPE_IMPORT_DIALOG (latent_import_dialog_get_type ())
G_DECLARE_FINAL_TYPE (LatentImportDialog, latent_import_dialog, LATENT, IMPORT_DIALOG, GtkWindow)

/* For the table at @path, with why it could not be read as it is
 * (@problem, or NULL when the person asked for the dialog). Its first
 * rows are previewed and the choices preset from them; each change reads
 * the table again and says what the choices do. NULL, with @error, when
 * the file cannot be previewed. ::chosen (const char *spec) on Open: the
 * path with the choices as options (latent-catalog.h). */
GtkWidget *latent_import_dialog_new (GtkWindow   *parent,
                                     const char  *path,
                                     const char  *problem,
                                     GError     **error);

G_END_DECLS
