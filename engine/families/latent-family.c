/* latent-family.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-family"

#include "latent-family.h"

#include <math.h>

void
latent_family_describe_objective (LatentSnapshot *snapshot,
                                  GString        *text)
{
  if (isfinite (snapshot->objective))
    g_string_append_printf (text, " · %s %.6g",
                            latent_algorithm_objective_name (snapshot->algorithm, snapshot->params),
                            snapshot->objective);
}

void
latent_family_describe_header (LatentSnapshot *snapshot,
                               GString        *text)
{
  g_return_if_fail (snapshot != NULL && text != NULL);

  switch (latent_snapshot_get_family (snapshot))
    {
    case LATENT_FAMILY_FILTER:
      latent_filters_describe_header (snapshot, text);
      break;
    case LATENT_FAMILY_CLUSTERS:
      latent_clusters_describe_header (snapshot, text);
      break;
    case LATENT_FAMILY_MIXTURE:
      latent_mixtures_describe_header (snapshot, text);
      break;
    case LATENT_FAMILY_LINEAR:
      latent_linear_models_describe_header (snapshot, text);
      break;
    case LATENT_FAMILY_AUTOENCODER:
      latent_autoencoders_describe_header (snapshot, text);
      break;
    case LATENT_FAMILY_CLASSIFIER:
      latent_classifiers_describe_header (snapshot, text);
      break;
    default:
      g_assert_not_reached ();
    }
}

char *
latent_family_describe_metrics (LatentSnapshot *snapshot)
{
  g_autoptr(GString) text = g_string_new (NULL);

  g_return_val_if_fail (snapshot != NULL, NULL);

  switch (latent_snapshot_get_family (snapshot))
    {
    case LATENT_FAMILY_FILTER:
      latent_filters_describe_metrics (snapshot, text);
      break;
    case LATENT_FAMILY_CLUSTERS:
      latent_clusters_describe_metrics (snapshot, text);
      break;
    case LATENT_FAMILY_MIXTURE:
      latent_mixtures_describe_metrics (snapshot, text);
      break;
    case LATENT_FAMILY_LINEAR:
      latent_linear_models_describe_metrics (snapshot, text);
      break;
    case LATENT_FAMILY_AUTOENCODER:
      latent_autoencoders_describe_metrics (snapshot, text);
      break;
    case LATENT_FAMILY_CLASSIFIER:
      latent_classifiers_describe_metrics (snapshot, text);
      break;
    default:
      g_assert_not_reached ();
    }
  if (text->len > 0 && text->str[text->len - 1] == '\n')
    g_string_truncate (text, text->len - 1);
  return g_string_free (g_steal_pointer (&text), FALSE);
}
