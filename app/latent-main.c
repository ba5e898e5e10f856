/* latent-main.c — the Latent window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent"

#include <glib/gi18n.h>
#include <locale.h>

#include "latent-application.h"

int
main (int    argc,
      char **argv)
{
  g_autoptr(LatentApplication) app = NULL;

  setlocale (LC_ALL, "");
  /* LATENT_LOCALEDIR: the build tree's catalogues, for uninstalled runs. */
  bindtextdomain (GETTEXT_PACKAGE, g_getenv ("LATENT_LOCALEDIR") ? g_getenv ("LATENT_LOCALEDIR") : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_set_application_name (_("Latent"));

  app = latent_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
