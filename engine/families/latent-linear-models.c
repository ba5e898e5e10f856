/* latent-linear-models.c — the linear latent-variable family (PCA, PPCA,
 * factor analysis): what their fit explains, where label metrics do not
 * apply
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-linear-models"

#include "latent-family.h"
#include "latent-codec.h"
#include "latent-linear-models.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "latent-json.h"

static void
latent_linear_models_describe_metrics (LatentSnapshot *snap,
                                       GString        *text)
{
  const LatentLinearPart *part = &snap->linear;
  double kept = 0;

  if (part->explained_variance_ratio == NULL)
    return;
  for (guint j = 0; j < part->n_components; j++)
    kept += part->explained_variance_ratio[j];
  /* Factor analysis names its components factors, as its title does. */
  if (latent_algorithm_has_flag (snap->algorithm, LATENT_ALGORITHM_FACTORS))
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "Variance explained %.1f %% (%u factor)\n",
                                               "Variance explained %.1f %% (%u factors)\n", part->n_components),
                            100 * kept, part->n_components);
  else
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "Variance explained %.1f %% (%u component)\n",
                                               "Variance explained %.1f %% (%u components)\n", part->n_components),
                            100 * kept, part->n_components);
  if (isfinite (part->reconstruction_error))
    g_string_append_printf (text, _("Reconstruction error %.6g per value\n"), part->reconstruction_error);
  if (isfinite (part->log_likelihood))
    g_string_append_printf (text, _("Mean log-likelihood %.6g\n"), part->log_likelihood);
}

static void
latent_linear_models_describe_header (LatentSnapshot *snap,
                                      GString        *text)
{
  const LatentLinearPart *part = &snap->linear;
  double explained = 0.0;

  /* Before it is solved a model has only its objective to show. */
  if (part->components == NULL)
    {
      latent_family_describe_objective (snap, text);
      return;
    }
  for (guint i = 0; part->explained_variance_ratio && i < part->n_components; i++)
    explained += part->explained_variance_ratio[i];
  if (part->explained_variance_ratio && isfinite (explained))
    g_string_append_printf (text, _(" · %.1f %% of the variance"), 100.0 * explained);
  if (isfinite (part->reconstruction_error))
    g_string_append_printf (text, _(" · reconstruction error %.4g"), part->reconstruction_error);
  if (isfinite (part->log_likelihood))
    g_string_append_printf (text, _(" · log-likelihood %.5g"), part->log_likelihood);
}

static void
latent_linear_models_clear_part (LatentSnapshot *self)
{
  LatentLinearPart *part = &self->linear;

  g_free (part->components);
  g_free (part->data_mean);
  g_free (part->explained_variance);
  g_free (part->explained_variance_ratio);
  g_free (part->noise_variance);
  g_free (part->encoder);
  g_free (part->projection);
  latent_examples_clear (&part->examples);
  g_free (part->samples);
}

static gsize
latent_linear_models_get_part_size (LatentSnapshot *self)
{
  const LatentLinearPart *part = &self->linear;
  gsize m = part->n_components, cols = self->n_cols, size = 0;

  if (part->components) size += m * cols * sizeof (float);
  if (part->data_mean) size += cols * sizeof (float);
  if (part->explained_variance) size += m * sizeof (double);
  if (part->explained_variance_ratio) size += m * sizeof (double);
  if (part->noise_variance) size += part->n_noise * sizeof (double);
  if (part->encoder) size += m * cols * sizeof (float);
  if (part->projection) size += (gsize) self->n_rows * part->projection_dims * sizeof (float);
  size += latent_examples_get_size (&part->examples, self->n_cols);
  if (part->samples) size += (gsize) part->n_samples * cols * sizeof (float);
  return size;
}

const float *
latent_linear_models_get_position (LatentSnapshot *snapshot,
                                   guint           row)
{
  const LatentLinearPart *part;

  g_return_val_if_fail (snapshot != NULL, NULL);

  part = &snapshot->linear;
  if (part->components == NULL || part->projection == NULL || part->projection_dims < 2 || row >= snapshot->n_rows)
    return NULL;
  return part->projection + (gsize) row * part->projection_dims;
}

/* The names scikit-learn uses where it has them. */
void
latent_linear_models_write_json (LatentSnapshot *snap,
                                 JsonBuilder    *b)
{
  const LatentLinearPart *part = &snap->linear;
  const guint m = part->n_components, d = snap->n_cols;

  /* PCA before its first step has no model yet. */
  if (part->components == NULL)
    return;
  latent_json_add_matrix_member (b, "components", part->components, m, d);
  latent_json_add_float_vector_member (b, "mean", part->data_mean, d);
  if (part->encoder)
    latent_json_add_matrix_member (b, "encoder", part->encoder, m, d);
  latent_json_add_vector_member (b, "explained_variance", part->explained_variance, m);
  latent_json_add_vector_member (b, "explained_variance_ratio", part->explained_variance_ratio, m);
  latent_json_add_number_member (b, "total_variance", part->total_variance);
  /* One σ² for PCA and PPCA, one ψ per column for factor analysis. */
  if (part->n_noise == 1)
    latent_json_add_number_member (b, "noise_variance", part->noise_variance[0]);
  else
    latent_json_add_vector_member (b, "noise_variance", part->noise_variance, part->n_noise);
  latent_json_add_number_member (b, "log_likelihood", part->log_likelihood);
  latent_json_add_number_member (b, "reconstruction_error", part->reconstruction_error);
  latent_json_add_matrix_member (b, "projection", part->projection, snap->n_rows, part->projection_dims);
}

void
latent_linear_models_write_csv_header (LatentSnapshot *snap,
                                       GString        *out)
{
  for (guint j = 0; j < snap->linear.projection_dims; j++)
    g_string_append_printf (out, ",z%u", j + 1);
}

void
latent_linear_models_write_csv_row (LatentSnapshot *snap,
                                    guint           row,
                                    GString        *out)
{
  const LatentLinearPart *part = &snap->linear;

  for (guint j = 0; j < part->projection_dims; j++)
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];

      /* The C locale, and enough digits to read back the same float. */
      g_string_append_c (out, ',');
      g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.9g",
                                             part->projection[(gsize) row * part->projection_dims + j]));
    }
}

static void
latent_linear_models_init_part (LatentSnapshot *self)
{
  self->linear.total_variance = NAN;
  self->linear.reconstruction_error = NAN;
  self->linear.log_likelihood = NAN;
}

static const float *
latent_linear_models_components (LatentSnapshot *snapshot,
                                 guint          *n)
{
  *n = snapshot->linear.n_components;
  return snapshot->linear.components;
}

static const LatentExamples *
latent_linear_models_examples (LatentSnapshot *snapshot)
{
  return &snapshot->linear.examples;
}

static gboolean
latent_linear_models_has_encoder (LatentSnapshot *snapshot)
{
  return snapshot->linear.encoder != NULL;
}

static void
latent_linear_models_transfer_part (LatentSnapshot *self,
                                    LatentCodec    *codec)
{
  LatentLinearPart *part = &self->linear;
  gsize cols = self->n_cols;

  latent_codec_uint (codec, &part->n_components);
  latent_codec_floats (codec, &part->components, part->n_components * cols, "components");
  latent_codec_floats (codec, &part->data_mean, cols, "data_mean");
  latent_codec_doubles (codec, &part->explained_variance, part->n_components, "explained_variance");
  latent_codec_doubles (codec, &part->explained_variance_ratio, part->n_components, "explained_variance_ratio");
  latent_codec_double (codec, &part->total_variance);
  latent_codec_uint (codec, &part->n_noise);
  latent_codec_doubles (codec, &part->noise_variance, part->n_noise, "noise_variance");
  latent_codec_floats (codec, &part->encoder, part->n_components * cols, "encoder");
  latent_codec_uint (codec, &part->projection_dims);
  if (latent_codec_is_reading (codec) && part->projection_dims > part->n_components)
    part->projection_dims = part->n_components;
  latent_codec_floats (codec, &part->projection, (gsize) self->n_rows * part->projection_dims, "projection");
  latent_codec_boolean (codec, &part->whitened);
  latent_codec_double (codec, &part->reconstruction_error);
  latent_codec_double (codec, &part->log_likelihood);
  latent_codec_examples (codec, &part->examples, self->n_rows, self->n_cols);
  latent_codec_uint (codec, &part->n_samples);
  latent_codec_floats (codec, &part->samples, (gsize) part->n_samples * cols, "samples");
}

/* Listed in engine/meson.build (latent_families). */
extern const LatentFamilyClass latent_linear_models_family;
const LatentFamilyClass latent_linear_models_family = {
  .family = LATENT_FAMILY_LINEAR,
  .describe_metrics = latent_linear_models_describe_metrics,
  .describe_header = latent_linear_models_describe_header,
  .init_part = latent_linear_models_init_part,
  .clear_part = latent_linear_models_clear_part,
  .get_part_size = latent_linear_models_get_part_size,
  .transfer_part = latent_linear_models_transfer_part,
  .components = latent_linear_models_components,
  .examples = latent_linear_models_examples,
  .has_encoder = latent_linear_models_has_encoder,
};
