/* latent-linear-models.c — the linear latent-variable family (PCA, PPCA,
 * factor analysis): what their fit explains, where label metrics do not
 * apply
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-linear-models"

#include "latent-family.h"

#include <glib/gi18n-lib.h>
#include <math.h>

void
latent_linear_models_describe_metrics (LatentSnapshot *snap,
                                       GString        *text)
{
  double kept = 0;

  if (snap->explained_variance_ratio == NULL)
    return;
  for (guint j = 0; j < snap->n_components; j++)
    kept += snap->explained_variance_ratio[j];
  /* Factor analysis names its components factors, as its title does. */
  if (latent_algorithm_has_flag (snap->algorithm, LATENT_ALGORITHM_FACTORS))
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "Variance explained %.1f %% (%u factor)\n",
                                               "Variance explained %.1f %% (%u factors)\n", snap->n_components),
                            100 * kept, snap->n_components);
  else
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "Variance explained %.1f %% (%u component)\n",
                                               "Variance explained %.1f %% (%u components)\n", snap->n_components),
                            100 * kept, snap->n_components);
  if (isfinite (snap->reconstruction_error))
    g_string_append_printf (text, _("Reconstruction error %.6g per value\n"), snap->reconstruction_error);
  if (isfinite (snap->log_likelihood))
    g_string_append_printf (text, _("Mean log-likelihood %.6g\n"), snap->log_likelihood);
}

void
latent_linear_models_describe_header (LatentSnapshot *snap,
                                      GString        *text)
{
  double explained = 0.0;

  /* Before it is solved a model has only its objective to show. */
  if (snap->components == NULL)
    {
      latent_family_describe_objective (snap, text);
      return;
    }
  for (guint i = 0; snap->explained_variance_ratio && i < snap->n_components; i++)
    explained += snap->explained_variance_ratio[i];
  if (snap->explained_variance_ratio && isfinite (explained))
    g_string_append_printf (text, _(" · %.1f %% of the variance"), 100.0 * explained);
  if (isfinite (snap->reconstruction_error))
    g_string_append_printf (text, _(" · reconstruction error %.4g"), snap->reconstruction_error);
  if (isfinite (snap->log_likelihood))
    g_string_append_printf (text, _(" · log-likelihood %.5g"), snap->log_likelihood);
}
