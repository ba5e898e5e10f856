/* latent-mixtures.c — the mixtures family (GMM): clusters with a
 * likelihood, so scores that compare models (BIC, AIC)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-mixtures"

#include "latent-family.h"
#include "latent-codec.h"

#include <glib/gi18n-lib.h>
#include <math.h>

static void
latent_mixtures_describe_metrics (LatentSnapshot *snap,
                                  GString        *text)
{
  const LatentMixturePart *part = &snap->mixture;

  g_string_append_printf (text, _("Mean log-likelihood %.6g\nBIC %.8g\nAIC %.8g\n"),
                          part->log_likelihood, part->bic, part->aic);
  /* And what every clustering says. */
  latent_clusters_describe_metrics (snap, text);
}

static void
latent_mixtures_describe_header (LatentSnapshot *snap,
                                 GString        *text)
{
  const LatentMixturePart *part = &snap->mixture;

  if (part->weights && isfinite (part->log_likelihood))
    g_string_append_printf (text, _(" · log-likelihood %.5g · BIC %.6g"), part->log_likelihood, part->bic);
  else
    latent_family_describe_objective (snap, text);
}

static void
latent_mixtures_clear_part (LatentSnapshot *self)
{
  LatentMixturePart *part = &self->mixture;

  g_free (part->weights);
  g_free (part->covariances);
  g_free (part->responsibilities);
}

static gsize
latent_mixtures_get_part_size (LatentSnapshot *self)
{
  const LatentMixturePart *part = &self->mixture;
  gsize k = self->clusters.k, size = 0;   /* the components are the clusters */

  if (part->weights) size += k * sizeof (float);
  if (part->covariances) size += k * latent_snapshot_covariance_values (self) * sizeof (float);
  if (part->responsibilities) size += (gsize) self->n_rows * k * sizeof (float);
  return size;
}

static void
latent_mixtures_init_part (LatentSnapshot *self)
{
  self->mixture.log_likelihood = NAN;
  self->mixture.bic = NAN;
  self->mixture.aic = NAN;
}

static void
latent_mixtures_transfer_part (LatentSnapshot *self,
                               LatentCodec    *codec)
{
  LatentMixturePart *part = &self->mixture;
  gsize k = self->clusters.k;   /* read before: the clusters' part comes first */
  guint type = part->covariance_type;

  latent_codec_floats (codec, &part->weights, k, "weights");
  latent_codec_choice (codec, &type, LATENT_COVARIANCE_SPHERICAL + 1, "covariance_type");
  part->covariance_type = type;
  latent_codec_floats (codec, &part->covariances, k * latent_snapshot_covariance_values (self), "covariances");
  latent_codec_floats (codec, &part->responsibilities, (gsize) self->n_rows * k, "responsibilities");
  latent_codec_double (codec, &part->log_likelihood);
  latent_codec_double (codec, &part->bic);
  latent_codec_double (codec, &part->aic);
}

/* Listed in engine/meson.build (latent_families). */
extern const LatentFamilyClass latent_mixtures_family;
const LatentFamilyClass latent_mixtures_family = {
  .family = LATENT_FAMILY_MIXTURE,
  .describe_metrics = latent_mixtures_describe_metrics,
  .describe_header = latent_mixtures_describe_header,
  .init_part = latent_mixtures_init_part,
  .clear_part = latent_mixtures_clear_part,
  .get_part_size = latent_mixtures_get_part_size,
  .transfer_part = latent_mixtures_transfer_part,
};
