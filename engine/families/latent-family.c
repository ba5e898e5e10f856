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

const float *
latent_family_components (LatentSnapshot *snapshot,
                          guint          *n)
{
  const float *rows = NULL;
  guint count = 0;

  g_return_val_if_fail (snapshot != NULL, NULL);

  switch (latent_snapshot_get_family (snapshot))
    {
    case LATENT_FAMILY_LINEAR:
      rows = snapshot->linear.components;
      count = snapshot->linear.n_components;
      break;
    case LATENT_FAMILY_AUTOENCODER:
      rows = snapshot->autoencoder.encoder_weights;
      count = snapshot->autoencoder.n_units;
      break;
    case LATENT_FAMILY_CLASSIFIER:
      rows = snapshot->classifier.class_weights ? snapshot->classifier.class_weights : snapshot->classifier.means;
      count = snapshot->classifier.n_classes;
      break;
    case LATENT_FAMILY_CLUSTERS:
    case LATENT_FAMILY_MIXTURE:
    case LATENT_FAMILY_FILTER:
    default:
      break;
    }
  if (n)
    *n = count;
  return rows;
}

const LatentExamples *
latent_family_examples (LatentSnapshot *snapshot)
{
  static const LatentExamples none;

  g_return_val_if_fail (snapshot != NULL, &none);

  switch (latent_snapshot_get_family (snapshot))
    {
    case LATENT_FAMILY_LINEAR:
      return &snapshot->linear.examples;
    case LATENT_FAMILY_AUTOENCODER:
      return &snapshot->autoencoder.examples;
    default:
      return &none;
    }
}

const LatentEpochs *
latent_family_epochs (LatentSnapshot *snapshot)
{
  static const LatentEpochs none;

  g_return_val_if_fail (snapshot != NULL, &none);

  switch (latent_snapshot_get_family (snapshot))
    {
    case LATENT_FAMILY_AUTOENCODER:
      return &snapshot->autoencoder.epochs;
    case LATENT_FAMILY_CLASSIFIER:
      return &snapshot->classifier.epochs;
    default:
      return &none;
    }
}

gboolean
latent_family_has_encoder (LatentSnapshot *snapshot)
{
  g_return_val_if_fail (snapshot != NULL, FALSE);

  switch (latent_snapshot_get_family (snapshot))
    {
    case LATENT_FAMILY_LINEAR:
      return snapshot->linear.encoder != NULL;
    case LATENT_FAMILY_AUTOENCODER:
      return snapshot->autoencoder.input_scale != NULL;
    default:
      return FALSE;
    }
}
