/* latent-ui-util.h — pieces of GTK plumbing every window needs
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

/* GTK 4.8 names the toggle button inside a GtkDropDown, which is what
 * takes the keyboard focus, by its type: a screen reader says
 * "GtkToggleButton". This labels it by the drop-down, so it is announced
 * by the drop-down's accessible name. */
void                  latent_drop_down_name_button (GtkDropDown     *drop_down);
/* The same for every drop-down at or below root: call it once a template
 * is built. Drop-downs made later need latent_drop_down_name_button (). */
void                  latent_drop_downs_name_buttons (GtkWidget     *root);

/* What a header drop-down chooses, said on its button before the choice
 * ("Algorithm  k-means"), small and dim; the list shows the choices alone,
 * or as @list_factory (may be NULL) draws them. The model's items are
 * GtkStringObjects. */
void                  latent_drop_down_set_caption (GtkDropDown        *drop_down,
                                                    const char         *caption,
                                                    GtkListItemFactory *list_factory);

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

/* The settings, or NULL when the schema is not installed (uninstalled,
 * without GSETTINGS_SCHEMA_DIR): then nothing is kept. */
GSettings            *latent_settings_open    (void);

/* What a Save dialog saves: where it opens the first time. */
typedef enum {
  LATENT_SAVE_PICTURE,   /* figures, images: Pictures */
  LATENT_SAVE_DOCUMENT,  /* results, experiments: Documents */
} LatentSaveKind;

/* One policy for every Save: the folder saved in last (kept across
 * sessions), else the desktop's folder for @kind, else home. */
char                 *latent_save_folder_dup  (LatentSaveKind        kind);
/* A file was written at @path: its folder is where the next Save opens,
 * and @widget's window says so in a toast with Open Folder (through
 * win.show-notice); @extra, when not NULL, is added in brackets. */
void                  latent_saved            (GtkWidget            *widget,
                                               const char           *path,
                                               const char           *extra);
/* A Save chooser opening in latent_save_folder_dup (@kind) on @name. */
GtkFileChooserNative *latent_save_chooser_new (GtkWindow            *parent,
                                               const char           *title,
                                               const char           *name,
                                               LatentSaveKind        kind,
                                               LatentPathChosen      chosen,
                                               gpointer              user_data);

/* A file name for something made from @dataset_name: without its file
 * extension (iris.csv → iris, photo.v2.jpg → photo.v2,
 * t10k-images-idx3-ubyte.gz → t10k-images-idx3-ubyte) and without
 * characters that would make it a path. */
char                 *latent_dup_file_stem    (const char           *dataset_name);

/* A texture of @surface's pixels (a flushed Cairo ARGB32 image surface,
 * which stays the caller's): for a GtkPicture, a tooltip, the clipboard. */
GdkTexture           *latent_texture_new_for_surface (cairo_surface_t *surface);

G_END_DECLS
