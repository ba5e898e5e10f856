/* latent-preferences-dialog.c — the settings a person may change
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-preferences"

#include "latent-preferences-dialog.h"

#include "latent-ui-util.h"

struct _LatentPreferencesDialog
{
  AdwPreferencesWindow parent_instance;

  GtkDropDown *device_dropdown;
  GtkSpinButton *memory_spin;
  GtkDropDown *style_dropdown;
};

G_DEFINE_FINAL_TYPE (LatentPreferencesDialog, latent_preferences_dialog, ADW_TYPE_PREFERENCES_WINDOW)

/* A string setting and its drop-down: the choices in the items' order. */
static gboolean
choice_to_index (GValue   *value,
                 GVariant *variant,
                 gpointer  user_data)
{
  const char * const *choices = user_data;
  const char *choice = g_variant_get_string (variant, NULL);

  for (guint i = 0; choices[i]; i++)
    if (g_str_equal (choice, choices[i]))
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  return FALSE;
}

static GVariant *
index_to_choice (const GValue       *value,
                 const GVariantType *type,
                 gpointer            user_data)
{
  const char * const *choices = user_data;
  guint i = g_value_get_uint (value);

  return i < g_strv_length ((char **) choices) ? g_variant_new_string (choices[i]) : NULL;
}

static void
bind_choice (GSettings          *settings,
             const char         *key,
             GtkDropDown        *dropdown,
             const char * const *choices)
{
  g_settings_bind_with_mapping (settings, key, dropdown, "selected", G_SETTINGS_BIND_DEFAULT,
                                choice_to_index, index_to_choice, (gpointer) choices, NULL);
}

static void
latent_preferences_dialog_class_init (LatentPreferencesDialogClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/latent/Latent/latent-preferences-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, LatentPreferencesDialog, device_dropdown);
  gtk_widget_class_bind_template_child (widget_class, LatentPreferencesDialog, memory_spin);
  gtk_widget_class_bind_template_child (widget_class, LatentPreferencesDialog, style_dropdown);
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

  static const char * const devices[] = { "auto", "cpu", "gpu", "off", NULL };
  static const char * const styles[] = { "system", "light", "dark", NULL };

  bind_choice (settings, "device", self->device_dropdown, devices);
  bind_choice (settings, "style", self->style_dropdown, styles);
  g_settings_bind (settings, "memory-budget", self->memory_spin, "value", G_SETTINGS_BIND_DEFAULT);
  return GTK_WIDGET (self);
}
