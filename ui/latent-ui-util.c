/* latent-ui-util.c — pieces of GTK plumbing every window needs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-ui"

#include "latent-ui-util.h"

#include <glib/gi18n-lib.h>
#include <string.h>

void
latent_label_set_text (GtkLabel   *label,
                       const char *text,
                       const char *name)
{
  g_return_if_fail (GTK_IS_LABEL (label));

  gtk_label_set_text (label, text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (label), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
}

void
latent_drop_down_name_button (GtkDropDown *drop_down)
{
  g_return_if_fail (GTK_IS_DROP_DOWN (drop_down));

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (drop_down)); child;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_TOGGLE_BUTTON (child))
      /* A relation, not a copy of the name: the button reads whatever name
       * the drop-down has, now or set later. */
      gtk_accessible_update_relation (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_RELATION_LABELLED_BY,
                                      drop_down, NULL, -1);
}

void
latent_drop_downs_name_buttons (GtkWidget *root)
{
  g_return_if_fail (GTK_IS_WIDGET (root));

  if (GTK_IS_DROP_DOWN (root))
    {
      latent_drop_down_name_button (GTK_DROP_DOWN (root));
      return;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
    latent_drop_downs_name_buttons (child);
}

static void
setup_captioned (GtkSignalListItemFactory *factory,
                 GtkListItem              *item,
                 const char               *caption)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *label = gtk_label_new (caption);
  GtkWidget *choice = gtk_label_new (NULL);

  gtk_widget_add_css_class (label, "header-caption");
  gtk_box_append (GTK_BOX (box), label);
  /* In a narrow window the choice gives way first ("Winner-take-…"),
   * its whole name in the list and the tooltip. */
  gtk_label_set_ellipsize (GTK_LABEL (choice), PANGO_ELLIPSIZE_END);
  gtk_label_set_width_chars (GTK_LABEL (choice), 4);
  gtk_box_append (GTK_BOX (box), choice);
  gtk_list_item_set_child (item, box);
}

static void
setup_plain (GtkSignalListItemFactory *factory,
             GtkListItem              *item)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_list_item_set_child (item, label);
}

/* The choice's label: the last child of the item's box, or the item's
 * label itself. */
static void
bind_string (GtkSignalListItemFactory *factory,
             GtkListItem              *item)
{
  GtkWidget *child = gtk_list_item_get_child (item);
  GtkStringObject *string = gtk_list_item_get_item (item);

  if (GTK_IS_BOX (child))
    child = gtk_widget_get_last_child (child);
  gtk_label_set_text (GTK_LABEL (child), string ? gtk_string_object_get_string (string) : "");
}

void
latent_drop_down_set_caption (GtkDropDown        *drop_down,
                              const char         *caption,
                              GtkListItemFactory *list_factory)
{
  g_autoptr(GtkListItemFactory) button = gtk_signal_list_item_factory_new ();
  g_autoptr(GtkListItemFactory) list = NULL;

  g_return_if_fail (GTK_IS_DROP_DOWN (drop_down));

  g_signal_connect_data (button, "setup", G_CALLBACK (setup_captioned), g_strdup (caption),
                         (GClosureNotify) (void (*) (void)) g_free, 0);
  g_signal_connect (button, "bind", G_CALLBACK (bind_string), NULL);
  if (list_factory == NULL)
    {
      list = gtk_signal_list_item_factory_new ();
      g_signal_connect (list, "setup", G_CALLBACK (setup_plain), NULL);
      g_signal_connect (list, "bind", G_CALLBACK (bind_string), NULL);
      list_factory = list;
    }
  gtk_drop_down_set_factory (drop_down, button);
  gtk_drop_down_set_list_factory (drop_down, list_factory);
}

typedef struct {
  LatentPathChosen chosen;
  gpointer         user_data;
} Answer;

static void
on_response (GtkNativeDialog *dialog,
             int              response,
             Answer          *answer)
{
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  if (file)
    path = g_file_get_path (file);
  answer->chosen (path, answer->user_data);
  g_object_unref (dialog);
}

GtkFileChooserNative *
latent_file_chooser_new (GtkWindow            *parent,
                         const char           *title,
                         GtkFileChooserAction  action,
                         const char           *accept,
                         LatentPathChosen      chosen,
                         gpointer              user_data)
{
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (title, parent, action, accept, _("_Cancel"));
  Answer *answer = g_new (Answer, 1);

  answer->chosen = chosen;
  answer->user_data = user_data;
  g_signal_connect_data (dialog, "response", G_CALLBACK (on_response), answer,
                         (GClosureNotify) (void (*) (void)) g_free, 0);
  return dialog;
}

GSettings *
latent_settings_open (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source)
    schema = g_settings_schema_source_lookup (source, "org.latent.Latent", TRUE);
  if (schema == NULL)
    return NULL;
  return g_settings_new_full (schema, NULL, NULL);
}

/* The folder saved in last, for this process when there are no settings. */
static char *last_folder;

char *
latent_save_folder_dup (LatentSaveKind kind)
{
  g_autoptr(GSettings) settings = latent_settings_open ();
  g_autofree char *last = settings ? g_settings_get_string (settings, "save-folder") : g_strdup (last_folder);
  const char *desktop = g_get_user_special_dir (kind == LATENT_SAVE_PICTURE ? G_USER_DIRECTORY_PICTURES
                                                                            : G_USER_DIRECTORY_DOCUMENTS);

  /* Never the working directory: under ./bootstrap run that is the source. */
  if (last && *last && g_file_test (last, G_FILE_TEST_IS_DIR))
    return g_steal_pointer (&last);
  if (desktop && g_file_test (desktop, G_FILE_TEST_IS_DIR))
    return g_strdup (desktop);
  return g_strdup (g_get_home_dir ());
}

void
latent_saved (GtkWidget  *widget,
              const char *path,
              const char *extra)
{
  g_autoptr(GSettings) settings = latent_settings_open ();
  g_autofree char *folder = g_path_get_dirname (path);
  g_autofree char *base = g_filename_display_basename (path);
  g_autofree char *shown_folder = g_filename_display_name (folder);
  /* TRANSLATORS: "Saved iris-kmeans-12.png in /home/me/Pictures" */
  g_autofree char *notice = g_strdup_printf (_("Saved %s in %s"), base, shown_folder);
  GtkRoot *root = widget ? gtk_widget_get_root (widget) : NULL;
  GtkWindow *window = GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL;

  g_return_if_fail (path != NULL);

  g_free (last_folder);
  last_folder = g_strdup (folder);
  if (settings)
    g_settings_set_string (settings, "save-folder", folder);
  if (extra != NULL)
    {
      g_autofree char *said = notice;

      notice = g_strdup_printf ("%s (%s)", said, extra);
    }
  /* A dialog's notice shows in the window it belongs to. */
  while (window && gtk_window_get_transient_for (window))
    window = gtk_window_get_transient_for (window);
  if (window)
    gtk_widget_activate_action (GTK_WIDGET (window), "win.show-notice", "(ss)", notice, folder);
}

GtkFileChooserNative *
latent_save_chooser_new (GtkWindow        *parent,
                         const char       *title,
                         const char       *name,
                         LatentSaveKind    kind,
                         LatentPathChosen  chosen,
                         gpointer          user_data)
{
  GtkFileChooserNative *dialog = latent_file_chooser_new (parent, title, GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"),
                                                         chosen, user_data);
  g_autofree char *path = latent_save_folder_dup (kind);
  g_autoptr(GFile) folder = g_file_new_for_path (path);

  gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), folder, NULL);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  return dialog;
}

char *
latent_dup_file_stem (const char *dataset_name)
{
  char *stem, *dot;
  gboolean word;

  g_return_val_if_fail (dataset_name != NULL, NULL);

  stem = g_strdup (dataset_name);
  if (g_str_has_suffix (stem, ".gz") && strlen (stem) > 3)
    stem[strlen (stem) - 3] = '\0';
  /* One extension: a dot, then up to five letters and digits ("blobs:n=1000"
   * and "fashion-mnist → pca 50" have none). */
  dot = strrchr (stem, '.');
  word = dot != NULL && dot != stem && dot[1] != '\0' && strlen (dot + 1) <= 5;
  for (const char *c = dot ? dot + 1 : ""; *c && word; c++)
    word = g_ascii_isalnum (*c);
  if (word)
    *dot = '\0';
  g_strdelimit (stem, "/\\:", '-');
  return stem;
}

GdkTexture *
latent_texture_new_for_surface (cairo_surface_t *surface)
{
  const int height = cairo_image_surface_get_height (surface), stride = cairo_image_surface_get_stride (surface);
  g_autoptr(GBytes) bytes = NULL;

  g_return_val_if_fail (cairo_image_surface_get_format (surface) == CAIRO_FORMAT_ARGB32, NULL);

  /* Cairo's ARGB32 is premultiplied native-endian: GDK's default format. */
  bytes = g_bytes_new (cairo_image_surface_get_data (surface), (gsize) stride * height);
  return gdk_memory_texture_new (cairo_image_surface_get_width (surface), height, GDK_MEMORY_DEFAULT, bytes,
                                 stride);
}
