/* latent-ui-util.h — two pieces of GTK plumbing every window needs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Sets a label's text and keeps its accessible name: GTK 4.8 replaces the
 * name with the text on every gtk_label_set_text. */
void                  latent_label_set_text   (GtkLabel             *label,
                                               const char           *text,
                                               const char           *name);

/* path is NULL when the person cancelled. */
typedef void        (*LatentPathChosen)       (const char           *path,
                                               gpointer              user_data);

/* A native file chooser that hands its answer to chosen and frees itself;
 * add filters or a name, then gtk_native_dialog_show(). */
GtkFileChooserNative *latent_file_chooser_new (GtkWindow            *parent,
                                               const char           *title,
                                               GtkFileChooserAction  action,
                                               const char           *accept,
                                               LatentPathChosen      chosen,
                                               gpointer              user_data);

G_END_DECLS
