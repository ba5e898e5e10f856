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
  latent_family_init_parts (self);
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
  latent_family_clear_parts (self);
  g_free (self->message);
}

void
latent_snapshot_unref (LatentSnapshot *self)
{
  g_atomic_rc_box_release_full (self, (GDestroyNotify) latent_snapshot_clear);
}

gsize
latent_snapshot_string_size (const char *s)
{
  return s ? strlen (s) + 1 : 0;
}

void
latent_examples_clear (LatentExamples *examples)
{
  g_free (examples->rows);
  g_free (examples->reconstructions);
}

gsize
latent_examples_get_size (const LatentExamples *examples,
                          guint                 n_cols)
{
  gsize size = 0;

  if (examples->rows) size += examples->n_examples * sizeof (gint32);
  if (examples->reconstructions) size += (gsize) examples->n_examples * n_cols * sizeof (float);
  return size;
}

void
latent_epochs_clear (LatentEpochs *epochs)
{
  g_free (epochs->train_loss);
  g_free (epochs->held_out_loss);
  g_free (epochs->step_loss);
}

gsize
latent_epochs_get_size (const LatentEpochs *epochs)
{
  gsize size = 0;

  if (epochs->train_loss) size += epochs->n_epochs * sizeof (double);
  if (epochs->held_out_loss) size += epochs->n_epochs * sizeof (double);
  if (epochs->step_loss) size += epochs->n_steps * sizeof (float);
  return size;
}

gsize
latent_snapshot_covariance_values (LatentSnapshot *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return latent_covariance_values (self->mixture.covariance_type, self->n_cols);
}

gsize
latent_snapshot_get_size (LatentSnapshot *self)
{
  g_return_val_if_fail (self != NULL, 0);

  /* Every part asked: one a family did not fill counts nothing. */
  return sizeof *self
         + latent_family_get_parts_size (self)
         + latent_snapshot_string_size (self->device)
         + latent_snapshot_string_size (self->message);
}
