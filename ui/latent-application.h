/* latent-application.h — the AdwApplication of the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define LATENT_TYPE_APPLICATION (latent_application_get_type ())
G_DECLARE_FINAL_TYPE (LatentApplication, latent_application, LATENT, APPLICATION, AdwApplication)

LatentApplication *latent_application_new (void);

G_END_DECLS
