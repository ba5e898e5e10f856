/* latent-synthetic-dialog.c — choose a synthetic generator's parameters
 *
 * The generators' options are described like an algorithm's parameters, by
 * the engine's own table (latent_synthetic_get_specs), so the same panel
 * shows them with the bounds the spec parser holds them to; the result is a
 * catalog spec such as "blobs:n=1500,k=3,dims=2,seed=1".
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-synthetic-dialog"

#include "latent-synthetic-dialog.h"

#include <glib/gi18n-lib.h>

#include "latent-param-panel.h"
#include "latent-synthetic.h"

struct _LatentSyntheticDialog
{
  GtkWindow     parent_instance;

  char         *generator;
  LatentParams *params;
};

G_DEFINE_FINAL_TYPE (LatentSyntheticDialog, latent_synthetic_dialog, GTK_TYPE_WINDOW)

enum { CHOSEN, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
on_generate (LatentSyntheticDialog *self)
{
  g_autofree char *assignments = latent_params_to_string (self->params);
  g_auto(GStrv) parts = g_strsplit (assignments, " ", -1);
  g_autofree char *joined = g_strjoinv (",", parts);
  g_autofree char *spec = g_strdup_printf ("%s:%s", self->generator, joined);

  g_signal_emit (self, signals[CHOSEN], 0, spec);
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
latent_synthetic_dialog_finalize (GObject *object)
{
  LatentSyntheticDialog *self = LATENT_SYNTHETIC_DIALOG (object);

  g_free (self->generator);
  g_clear_pointer (&self->params, latent_params_unref);
  G_OBJECT_CLASS (latent_synthetic_dialog_parent_class)->finalize (object);
}

static void
latent_synthetic_dialog_class_init (LatentSyntheticDialogClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = latent_synthetic_dialog_finalize;
  signals[CHOSEN] = g_signal_new ("chosen", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  /* Escape closes, as in a dialog. */
  gtk_widget_class_add_binding_action (GTK_WIDGET_CLASS (klass), GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
latent_synthetic_dialog_init (LatentSyntheticDialog *self)
{
}

GtkWidget *
latent_synthetic_dialog_new (GtkWindow  *parent,
                             const char *generator)
{
  LatentSyntheticDialog *self = g_object_new (LATENT_TYPE_SYNTHETIC_DIALOG,
                                              "transient-for", parent, "modal", TRUE,
                                              "resizable", FALSE, NULL);
  GtkWidget *header = gtk_header_bar_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *panel = latent_param_panel_new ();
  GtkWidget *generate = gtk_button_new_with_mnemonic (_("_Generate"));
  GtkWidget *cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
  const LatentParamSpec *specs;
  const char *title;
  guint n_specs;

  if (g_str_equal (generator, "moons"))
    title = _("Two Moons");
  else if (g_str_equal (generator, "rings"))
    title = _("Concentric Rings");
  else if (g_str_equal (generator, "pattern"))
    title = _("Test Pattern Image");
  else
    {
      generator = "blobs";
      title = _("Gaussian Blobs");
    }
  specs = latent_synthetic_get_specs (generator, &n_specs);
  self->params = latent_params_new (specs, n_specs);
  self->generator = g_strdup (generator);

  gtk_window_set_title (GTK_WINDOW (self), title);
  gtk_header_bar_set_show_title_buttons (GTK_HEADER_BAR (header), FALSE);
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header), cancel);
  gtk_header_bar_pack_end (GTK_HEADER_BAR (header), generate);
  gtk_widget_add_css_class (generate, "suggested-action");
  gtk_window_set_titlebar (GTK_WINDOW (self), header);
  gtk_window_set_default_widget (GTK_WINDOW (self), generate);

  latent_param_panel_set_params (LATENT_PARAM_PANEL (panel), self->params);
  gtk_widget_set_margin_start (box, 18);
  gtk_widget_set_margin_end (box, 18);
  gtk_widget_set_margin_top (box, 18);
  gtk_widget_set_margin_bottom (box, 18);
  gtk_widget_set_size_request (box, 320, -1);
  gtk_box_append (GTK_BOX (box), panel);
  gtk_window_set_child (GTK_WINDOW (self), box);

  g_signal_connect_swapped (generate, "clicked", G_CALLBACK (on_generate), self);
  g_signal_connect_swapped (cancel, "clicked", G_CALLBACK (gtk_window_destroy), self);
  return GTK_WIDGET (self);
}
