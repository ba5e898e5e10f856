/* latent-application.c — the AdwApplication of the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-application"

#include "latent-application.h"

#include <glib-unix.h>
#include <glib/gi18n-lib.h>
#include <signal.h>

#include "latent-preferences-dialog.h"
#include "latent-ui-resources.h"
#include "latent-window.h"

struct _LatentApplication
{
  AdwApplication parent_instance;

  guint          terminate_sources[2];   /* SIGTERM, SIGINT */
  char          *follow;                 /* latent --follow DIR */
};

G_DEFINE_FINAL_TYPE (LatentApplication, latent_application, ADW_TYPE_APPLICATION)

static LatentWindow *
get_window (LatentApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (window == NULL)
    window = GTK_WINDOW (latent_window_new (GTK_APPLICATION (self)));
  return LATENT_WINDOW (window);
}

static void
latent_application_activate (GApplication *app)
{
  LatentApplication *self = LATENT_APPLICATION (app);
  LatentWindow *window = get_window (self);
  g_autofree char *follow = g_steal_pointer (&self->follow);

  if (follow)
    latent_window_follow (window, follow);
  gtk_window_present (GTK_WINDOW (window));
}

/* latent --follow DIR: the window follows the run latent-cli writes there. */
static int
latent_application_handle_local_options (GApplication *app,
                                         GVariantDict *options)
{
  LatentApplication *self = LATENT_APPLICATION (app);
  const char *follow = NULL;

  if (g_variant_dict_lookup (options, "follow", "^&ay", &follow))
    self->follow = g_canonicalize_filename (follow, NULL);
  return -1;
}

/* latent FILE: open the window on that dataset. */
static void
latent_application_open (GApplication  *app,
                         GFile        **files,
                         int            n_files,
                         const char    *hint)
{
  LatentWindow *window = get_window (LATENT_APPLICATION (app));
  g_autofree char *path = n_files > 0 ? g_file_get_path (files[0]) : NULL;

  if (path)
    latent_window_load_dataset (window, path);
  gtk_window_present (GTK_WINDOW (window));
}

static void
on_about (GSimpleAction *action,
          GVariant      *parameter,
          gpointer       user_data)
{
  static const char *developers[] = { "The Latent developers", NULL };
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (user_data));
  AdwAboutWindow *about = ADW_ABOUT_WINDOW (adw_about_window_new ());

  gtk_window_set_transient_for (GTK_WINDOW (about), window);
  /* The icon comes from the resource's icons folder, which GtkApplication
   * adds to the theme: found from the build tree as when installed. */
  adw_about_window_set_application_icon (about, "org.latent.Latent");
  adw_about_window_set_application_name (about, _("Latent"));
  adw_about_window_set_version (about, PACKAGE_VERSION);
  adw_about_window_set_comments (about, _("Watch machine-learning algorithms work, one iteration at a time"));
  adw_about_window_set_license_type (about, GTK_LICENSE_GPL_3_0);
  adw_about_window_set_developer_name (about, developers[0]);
  adw_about_window_set_developers (about, developers);
  adw_about_window_set_translator_credits (about, _("translator-credits"));
  gtk_window_present (GTK_WINDOW (about));
}

static void
on_quit (GSimpleAction *action,
         GVariant      *parameter,
         gpointer       user_data)
{
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (user_data));

  /* Closing the windows stores their size; the application then ends. */
  for (GList *l = g_list_copy (windows); l; l = g_list_delete_link (l, l))
    gtk_window_close (l->data);
}

static void
on_preferences (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (user_data));
  GSettings *settings = LATENT_IS_WINDOW (window) ? latent_window_get_settings (LATENT_WINDOW (window)) : NULL;
  GtkWidget *dialog;

  if (settings == NULL)
    {
      /* Uninstalled without GSETTINGS_SCHEMA_DIR: nothing could be kept. */
      dialog = gtk_message_dialog_new (window, GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                       GTK_MESSAGE_WARNING, GTK_BUTTONS_CLOSE, _("Preferences cannot be kept"));
      gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s",
                                                _("The settings schema org.latent.Latent is not installed. "
                                                  "Install Latent, or start it with GSETTINGS_SCHEMA_DIR set "
                                                  "to the build’s data folder."));
      g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
    }
  else
    dialog = latent_preferences_dialog_new (window, settings);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Asked to end (a session logging out, Ctrl+C, a test): as Quit does, so
 * the windows keep their size and stop their runs before the process ends. */
static gboolean
on_terminate (gpointer user_data)
{
  g_action_group_activate_action (G_ACTION_GROUP (user_data), "quit", NULL);
  return G_SOURCE_CONTINUE;
}

static const GActionEntry app_actions[] = {
  { "about", on_about },
  { "quit", on_quit },
  { "preferences", on_preferences },
};

static void
latent_application_startup (GApplication *app)
{
  static const struct { const char *action; const char *accels[3]; } accels[] = {
    { "app.quit", { "<Control>q", NULL } },
    { "win.open", { "<Control>o", NULL } },
    { "win.export", { "<Control>e", NULL } },
    { "win.save-experiment", { "<Control>s", NULL } },
    { "win.show-help-overlay", { "<Control>question", NULL } },
  };

  G_APPLICATION_CLASS (latent_application_parent_class)->startup (app);

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions), app);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), accels[i].action, accels[i].accels);
  gtk_window_set_default_icon_name ("org.latent.Latent");
  LATENT_APPLICATION (app)->terminate_sources[0] = g_unix_signal_add (SIGTERM, on_terminate, app);
  LATENT_APPLICATION (app)->terminate_sources[1] = g_unix_signal_add (SIGINT, on_terminate, app);
}

static void
latent_application_shutdown (GApplication *app)
{
  LatentApplication *self = LATENT_APPLICATION (app);

  for (guint i = 0; i < G_N_ELEMENTS (self->terminate_sources); i++)
    g_clear_handle_id (&self->terminate_sources[i], g_source_remove);
  g_clear_pointer (&self->follow, g_free);
  G_APPLICATION_CLASS (latent_application_parent_class)->shutdown (app);
}

static void
latent_application_class_init (LatentApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  /* A reference keeps the linker from dropping the templates' resource,
   * which registers itself, from the static library. */
  g_resources_register (latent_ui_get_resource ());

  app_class->activate = latent_application_activate;
  app_class->handle_local_options = latent_application_handle_local_options;
  app_class->open = latent_application_open;
  app_class->startup = latent_application_startup;
  app_class->shutdown = latent_application_shutdown;
}

static void
latent_application_init (LatentApplication *self)
{
  g_application_add_main_option (G_APPLICATION (self), "follow", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_FILENAME,
                                 _("Follow the run that latent-cli run … --follow DIR writes"), _("DIR"));
}

LatentApplication *
latent_application_new (void)
{
  return g_object_new (LATENT_TYPE_APPLICATION,
                       "application-id", "org.latent.Latent",
                       "flags", G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE,
                       NULL);
}
