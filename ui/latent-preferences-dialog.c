/* latent-preferences-dialog.c — the settings a person may change
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-preferences"

#include "latent-preferences-dialog.h"

#include "latent-ui-util.h"

struct _LatentPreferencesDialog
{
  GtkWindow    parent_instance;

  GtkDropDown *device_dropdown;
  GtkSwitch   *dark_switch;
};

G_DEFINE_FINAL_TYPE (LatentPreferencesDialog, latent_preferences_dialog, GTK_TYPE_WINDOW)

/* In the order of the drop-down's items. */
static const char * const devices[] = { "auto", "cpu", "gpu", "off" };

static gboolean
device_to_index (GValue   *value,
                 GVariant *variant,
                 gpointer  user_data)
{
  const char *device = g_variant_get_string (variant, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (devices); i++)
    if (g_str_equal (device, devices[i]))
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  return FALSE;
}

static GVariant *
index_to_device (const GValue       *value,
                 const GVariantType *type,
                 gpointer            user_data)
{
  guint i = g_value_get_uint (value);

  return i < G_N_ELEMENTS (devices) ? g_variant_new_string (devices[i]) : NULL;
}

static void
latent_preferences_dialog_class_init (LatentPreferencesDialogClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/latent/Latent/latent-preferences-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, LatentPreferencesDialog, device_dropdown);
  gtk_widget_class_bind_template_child (widget_class, LatentPreferencesDialog, dark_switch);
  /* Escape closes, as in a dialog. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
latent_preferences_dialog_init (LatentPreferencesDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  latent_drop_downs_name_buttons (GTK_WIDGET (self));
}

GtkWidget *
latent_preferences_dialog_new (GtkWindow *parent,
                               GSettings *settings)
{
  LatentPreferencesDialog *self = g_object_new (LATENT_TYPE_PREFERENCES_DIALOG, "transient-for", parent, NULL);

  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  g_settings_bind_with_mapping (settings, "device", self->device_dropdown, "selected", G_SETTINGS_BIND_DEFAULT,
                                device_to_index, index_to_device, NULL, NULL);
  g_settings_bind (settings, "dark-figures", self->dark_switch, "active", G_SETTINGS_BIND_DEFAULT);
  return GTK_WIDGET (self);
}
