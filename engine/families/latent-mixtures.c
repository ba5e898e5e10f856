/* latent-mixtures.c — the mixtures family (GMM): clusters with a
 * likelihood, so scores that compare models (BIC, AIC)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-mixtures"

#include "latent-family.h"

#include <glib/gi18n-lib.h>
#include <math.h>

void
latent_mixtures_describe_metrics (LatentSnapshot *snap,
                                  GString        *text)
{
  g_string_append_printf (text, _("Mean log-likelihood %.6g\nBIC %.8g\nAIC %.8g\n"),
                          snap->log_likelihood, snap->bic, snap->aic);
  /* And what every clustering says. */
  latent_clusters_describe_metrics (snap, text);
}

void
latent_mixtures_describe_header (LatentSnapshot *snap,
                                 GString        *text)
{
  if (snap->weights && isfinite (snap->log_likelihood))
    g_string_append_printf (text, _(" · log-likelihood %.5g · BIC %.6g"), snap->log_likelihood, snap->bic);
  else
    latent_family_describe_objective (snap, text);
}
