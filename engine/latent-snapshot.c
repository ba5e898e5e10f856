/* latent-snapshot.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-snapshot"

#include "latent-snapshot.h"

#include <math.h>
#include <string.h>

LatentSnapshot *
latent_snapshot_new (const LatentAlgorithm *algorithm,
                     LatentDataset         *dataset,
                     LatentParams          *params)
{
  LatentSnapshot *self;

  g_return_val_if_fail (algorithm != NULL, NULL);

  self = g_atomic_rc_box_new0 (LatentSnapshot);
  self->algorithm = algorithm;
  self->dataset = dataset ? g_object_ref (dataset) : NULL;
  self->params = params ? latent_params_ref (params) : NULL;
  self->objective = NAN;
  self->log_likelihood = NAN;
  self->bic = NAN;
  self->aic = NAN;
  self->total_variance = NAN;
  self->reconstruction_error = NAN;
  self->train_accuracy = NAN;
  self->test_accuracy = NAN;
  self->episode_mean_accuracy = NAN;
  self->episode_ci95 = NAN;
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
  g_free (self->encoder);
  g_free (self->projection);
  g_free (self->example_rows);
  g_free (self->reconstructions);
  g_free (self->samples);
  g_free (self->image);
  g_free (self->kernel);
  g_free (self->method);
  g_strfreev (self->method_names);
  g_free (self->method_ms);
  g_free (self->hidden_bias);
  g_free (self->decoder_weights);
  g_free (self->decoder_bias);
  g_free (self->unit_wins);
  g_free (self->epoch_train_loss);
  g_free (self->epoch_val_loss);
  g_free (self->epoch_dead_fraction);
  g_free (self->step_loss);
  g_free (self->input_offset);
  g_free (self->input_scale);
  g_free (self->class_bias);
  g_clear_object (&self->test_dataset);
  g_free (self->test_rows);
  g_free (self->test_predictions);
  g_free (self->confusion);
  g_free (self->epoch_train_accuracy);
  g_free (self->epoch_test_accuracy);
  g_free (self->episode_accuracy);
  g_free (self->episode_classes);
  g_free (self->support_rows);
  g_free (self->episode_prototypes);
  g_free (self->query_rows);
  g_free (self->query_predictions);
  g_free (self->start_objectives);
  g_free (self->message);
}

void
latent_snapshot_unref (LatentSnapshot *self)
{
  g_atomic_rc_box_release_full (self, (GDestroyNotify) latent_snapshot_clear);
}

static gsize
string_size (const char *s)
{
  return s ? strlen (s) + 1 : 0;
}

gsize
latent_snapshot_covariance_values (LatentSnapshot *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return latent_covariance_values (self->covariance_type, self->n_cols);
}

gsize
latent_snapshot_get_size (LatentSnapshot *self)
{
  gsize rows, cols, k, m, size = sizeof *self;

  g_return_val_if_fail (self != NULL, 0);

  rows = self->n_rows;
  cols = self->n_cols;
  k = self->k;
  m = self->n_components;

  /* Each array counted only when present: its length is what the
   * producer allocated for it. */
  if (self->labels) size += rows * sizeof (gint32);
  if (self->means) size += k * cols * sizeof (float);
  if (self->cluster_sizes) size += k * sizeof (guint);
  if (self->weights) size += k * sizeof (float);
  if (self->covariances) size += k * latent_snapshot_covariance_values (self) * sizeof (float);
  if (self->responsibilities) size += rows * k * sizeof (float);
  if (self->components) size += m * cols * sizeof (float);
  if (self->data_mean) size += cols * sizeof (float);
  if (self->explained_variance) size += m * sizeof (double);
  if (self->explained_variance_ratio) size += m * sizeof (double);
  if (self->noise_variance) size += self->n_noise * sizeof (double);
  if (self->encoder) size += m * cols * sizeof (float);
  if (self->projection) size += rows * self->projection_dims * sizeof (float);
  if (self->example_rows) size += self->n_examples * sizeof (gint32);
  if (self->reconstructions) size += (gsize) self->n_examples * cols * sizeof (float);
  if (self->samples) size += (gsize) self->n_samples * cols * sizeof (float);
  if (self->image) size += rows * cols * sizeof (float);
  if (self->kernel) size += (gsize) self->kernel_size * self->kernel_size * sizeof (float);
  if (self->hidden_bias) size += m * sizeof (float);
  if (self->decoder_weights) size += m * cols * sizeof (float);
  if (self->decoder_bias) size += cols * sizeof (float);
  if (self->unit_wins) size += m * sizeof (guint);
  if (self->epoch_train_loss) size += self->n_epochs * sizeof (double);
  if (self->epoch_val_loss) size += self->n_epochs * sizeof (double);
  if (self->epoch_dead_fraction) size += self->n_epochs * sizeof (double);
  if (self->step_loss) size += self->n_steps * sizeof (float);
  if (self->input_offset) size += cols * sizeof (float);
  if (self->input_scale) size += cols * sizeof (float);
  if (self->start_objectives) size += self->n_starts * sizeof (double);
  if (self->class_bias) size += self->n_classes * sizeof (float);
  if (self->test_rows) size += self->n_test * sizeof (gint32);
  if (self->test_predictions) size += self->n_test * sizeof (gint32);
  if (self->confusion) size += (gsize) self->n_classes * self->n_classes * sizeof (guint);
  if (self->epoch_train_accuracy) size += self->n_epochs * sizeof (double);
  if (self->epoch_test_accuracy) size += self->n_epochs * sizeof (double);
  if (self->episode_accuracy) size += self->n_episodes * sizeof (double);
  if (self->episode_classes) size += self->n_ways * sizeof (gint32);
  if (self->support_rows) size += (gsize) self->n_ways * self->n_shots * sizeof (gint32);
  if (self->episode_prototypes) size += (gsize) self->n_ways * cols * sizeof (float);
  if (self->query_rows) size += self->n_queries * sizeof (gint32);
  if (self->query_predictions) size += self->n_queries * sizeof (gint32);
  for (guint i = 0; self->method_names && self->method_names[i]; i++)
    size += sizeof (char *) + string_size (self->method_names[i]) + sizeof (double);
  size += string_size (self->device) + string_size (self->method) + string_size (self->message);
  return size;
}
