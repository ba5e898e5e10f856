/* latent-arrays-dialog.c — which of an archive's arrays are the data and
 * which the labels, when their names do not say
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-arrays-dialog"

#include "latent-arrays-dialog.h"

#include <glib/gi18n-lib.h>

#include "latent-catalog.h"

struct _LatentArraysDialog
{
  GtkWindow    parent_instance;

  GtkLabel    *explanation;
  GtkDropDown *data_drop;
  GtkDropDown *labels_drop;

  char        *path;
  GStrv        arrays;
};

G_DEFINE_FINAL_TYPE (LatentArraysDialog, latent_arrays_dialog, GTK_TYPE_WINDOW)

enum { CHOSEN, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
on_open (LatentArraysDialog *self)
{
  guint data = gtk_drop_down_get_selected (self->data_drop);
  guint labels = gtk_drop_down_get_selected (self->labels_drop);
  /* The labels' first item is None. */
  g_autofree char *x = latent_catalog_escape (self->arrays[data]);
  g_autofree char *y = latent_catalog_escape (labels > 0 ? self->arrays[labels - 1] : "");
  g_autofree char *spec = g_strdup_printf ("%s:x=%s,y=%s", self->path, x, y);

  g_signal_emit (self, signals[CHOSEN], 0, spec);
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
latent_arrays_dialog_finalize (GObject *object)
{
  LatentArraysDialog *self = LATENT_ARRAYS_DIALOG (object);

  g_free (self->path);
  g_strfreev (self->arrays);
  G_OBJECT_CLASS (latent_arrays_dialog_parent_class)->finalize (object);
}

static void
latent_arrays_dialog_class_init (LatentArraysDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = latent_arrays_dialog_finalize;
  signals[CHOSEN] = g_signal_new ("chosen", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/latent/Latent/latent-arrays-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, LatentArraysDialog, explanation);
  gtk_widget_class_bind_template_child (widget_class, LatentArraysDialog, data_drop);
  gtk_widget_class_bind_template_child (widget_class, LatentArraysDialog, labels_drop);
  gtk_widget_class_bind_template_callback (widget_class, on_open);
  gtk_widget_class_bind_template_callback (widget_class, gtk_window_destroy);
  /* Escape closes, as in a dialog. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
latent_arrays_dialog_init (LatentArraysDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/* A name that reads as labels (y, labels, y_train …), guessed the way the
 * loader does, for the labels' first choice. */
static gboolean
looks_like_labels (const char *name)
{
  static const char * const words[] = { "y", "labels", "label", "target", "targets", "classes", NULL };
  g_autofree char *lower = g_ascii_strdown (name, -1);
  g_auto(GStrv) parts = g_strsplit_set (lower, "_-", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    if (g_strv_contains (words, parts[i]))
      return TRUE;
  return FALSE;
}

GtkWidget *
latent_arrays_dialog_new (GtkWindow          *parent,
                          const char         *path,
                          const char * const *arrays)
{
  LatentArraysDialog *self;
  g_autoptr(GtkStringList) data = gtk_string_list_new (arrays);
  g_autoptr(GtkStringList) labels = gtk_string_list_new (NULL);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *text = NULL;
  guint n = g_strv_length ((GStrv) arrays), guess = 0;

  g_return_val_if_fail (path != NULL && arrays != NULL && n > 0, NULL);

  self = g_object_new (LATENT_TYPE_ARRAYS_DIALOG, "transient-for", parent, NULL);
  self->path = g_strdup (path);
  self->arrays = g_strdupv ((GStrv) arrays);

  /* Translators: %s is a file name, such as "arrays.npz". */
  text = g_strdup_printf (_("“%s” holds several arrays. Choose the one that is the data, and its labels if it has any."),
                          base);
  gtk_label_set_text (self->explanation, text);
  gtk_string_list_append (labels, C_("labels", "None"));
  for (guint i = 0; i < n; i++)
    gtk_string_list_append (labels, arrays[i]);
  gtk_drop_down_set_model (self->data_drop, G_LIST_MODEL (data));
  gtk_drop_down_set_model (self->labels_drop, G_LIST_MODEL (labels));
  /* numpy.savez (x, y) names them arr_0, arr_1: the data first, then labels. */
  for (guint i = 0; i < n && guess == 0; i++)
    if (looks_like_labels (arrays[i]))
      guess = i + 1;
  if (guess == 0 && n == 2)
    guess = 2;
  gtk_drop_down_set_selected (self->labels_drop, guess);
  gtk_drop_down_set_selected (self->data_drop, guess == 1 && n > 1 ? 1 : 0);
  return GTK_WIDGET (self);
}
