/* latent-snapshot.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-snapshot"

#include "latent-snapshot.h"

#include <math.h>

LatentSnapshot *
latent_snapshot_new (const char    *algorithm,
                     LatentDataset *dataset,
                     LatentParams  *params)
{
  LatentSnapshot *self = g_atomic_rc_box_new0 (LatentSnapshot);

  self->algorithm = g_strdup (algorithm);
  self->dataset = dataset ? g_object_ref (dataset) : NULL;
  self->params = params ? latent_params_ref (params) : NULL;
  self->objective = NAN;
  self->log_likelihood = NAN;
  self->bic = NAN;
  self->aic = NAN;
  self->total_variance = NAN;
  self->reconstruction_error = NAN;
  return self;
}

LatentSnapshot *
latent_snapshot_ref (LatentSnapshot *self)
{
  return g_atomic_rc_box_acquire (self);
}

static void
latent_snapshot_clear (LatentSnapshot *self)
{
  g_free (self->algorithm);
  g_clear_object (&self->dataset);
  g_clear_pointer (&self->params, latent_params_unref);
  g_free (self->device);
  g_free (self->labels);
  g_free (self->means);
  g_free (self->cluster_sizes);
  g_free (self->weights);
  g_free (self->covariances);
  g_free (self->responsibilities);
  g_free (self->components);
  g_free (self->data_mean);
  g_free (self->explained_variance);
  g_free (self->explained_variance_ratio);
  g_free (self->noise_variance);
  g_free (self->projection);
  g_free (self->example_rows);
  g_free (self->reconstructions);
  g_free (self->samples);
  g_free (self->image);
  g_free (self->kernel);
  g_free (self->method);
  g_strfreev (self->method_names);
  g_free (self->method_ms);
  g_free (self->message);
}

void
latent_snapshot_unref (LatentSnapshot *self)
{
  g_atomic_rc_box_release_full (self, (GDestroyNotify) latent_snapshot_clear);
}
