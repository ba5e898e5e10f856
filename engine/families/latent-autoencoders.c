/* latent-autoencoders.c — the autoencoder family: the losses it trains on,
 * and its units that stopped winning
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-autoencoders"

#include "latent-family.h"
#include "latent-codec.h"

#include <glib/gi18n-lib.h>
#include <math.h>

static void
latent_autoencoders_describe_metrics (LatentSnapshot *snap,
                                      GString        *text)
{
  const LatentAutoencoderPart *part = &snap->autoencoder;
  guint epochs = part->epochs.train_loss != NULL ? part->epochs.n_epochs : 0;

  if (epochs > 0)
    g_string_append_printf (text, _("Training loss %.6g (epoch %u)\n"), part->epochs.train_loss[epochs - 1], epochs);
  else if (part->epochs.step_loss != NULL && part->epochs.n_steps > 0)
    g_string_append_printf (text, _("Training loss %.6g (last mini-batch)\n"), part->epochs.step_loss[part->epochs.n_steps - 1]);
  if (isfinite (part->validation_loss))
    g_string_append_printf (text, _("Validation loss %.6g\n"), part->validation_loss);
  if (part->n_units > 0 && part->epochs.n_epochs > 0)
    g_string_append_printf (text, _("Dead units %u of %u (%.1f %%)\n"), part->n_dead, part->n_units,
                            100.0 * part->n_dead / part->n_units);
}

static void
latent_autoencoders_describe_header (LatentSnapshot *snap,
                                     GString        *text)
{
  const LatentAutoencoderPart *part = &snap->autoencoder;

  /* The last whole epoch's mean: a single mini-batch's loss jumps. */
  double train = part->epochs.n_epochs > 0 && part->epochs.train_loss != NULL
                 ? part->epochs.train_loss[part->epochs.n_epochs - 1] : snap->objective;

  if (isfinite (train))
    g_string_append_printf (text, _(" · training loss %.4g"), train);
  if (isfinite (part->validation_loss))
    g_string_append_printf (text, _(" · validation loss %.4g"), part->validation_loss);
}

static void
latent_autoencoders_clear_part (LatentSnapshot *self)
{
  LatentAutoencoderPart *part = &self->autoencoder;

  g_free (part->encoder_weights);
  g_free (part->hidden_bias);
  g_free (part->decoder_weights);
  g_free (part->decoder_bias);
  g_free (part->input_offset);
  g_free (part->input_scale);
  g_free (part->unit_wins);
  latent_examples_clear (&part->examples);
  latent_epochs_clear (&part->epochs);
  g_free (part->epoch_dead_fraction);
}

static gsize
latent_autoencoders_get_part_size (LatentSnapshot *self)
{
  const LatentAutoencoderPart *part = &self->autoencoder;
  gsize h = part->n_units, cols = self->n_cols, size = 0;

  if (part->encoder_weights) size += h * cols * sizeof (float);
  if (part->hidden_bias) size += h * sizeof (float);
  if (part->decoder_weights) size += h * cols * sizeof (float);
  if (part->decoder_bias) size += cols * sizeof (float);
  if (part->input_offset) size += cols * sizeof (float);
  if (part->input_scale) size += cols * sizeof (float);
  if (part->unit_wins) size += h * sizeof (guint);
  size += latent_examples_get_size (&part->examples, self->n_cols);
  size += latent_epochs_get_size (&part->epochs);
  if (part->epoch_dead_fraction) size += part->epochs.n_epochs * sizeof (double);
  return size;
}

static void
latent_autoencoders_init_part (LatentSnapshot *self)
{
  self->autoencoder.validation_loss = NAN;
}

static const float *
latent_autoencoders_components (LatentSnapshot *snapshot,
                                guint          *n)
{
  *n = snapshot->autoencoder.n_units;
  return snapshot->autoencoder.encoder_weights;
}

static const LatentExamples *
latent_autoencoders_examples (LatentSnapshot *snapshot)
{
  return &snapshot->autoencoder.examples;
}

static const LatentEpochs *
latent_autoencoders_epochs (LatentSnapshot *snapshot)
{
  return &snapshot->autoencoder.epochs;
}

static gboolean
latent_autoencoders_has_encoder (LatentSnapshot *snapshot)
{
  return snapshot->autoencoder.input_scale != NULL;
}

static void
latent_autoencoders_transfer_part (LatentSnapshot *self,
                                   LatentCodec    *codec)
{
  LatentAutoencoderPart *part = &self->autoencoder;
  gsize h, cols = self->n_cols;

  latent_codec_uint (codec, &part->n_units);
  h = part->n_units;
  latent_codec_floats (codec, &part->encoder_weights, h * cols, "encoder_weights");
  latent_codec_floats (codec, &part->hidden_bias, h, "hidden_bias");
  latent_codec_floats (codec, &part->decoder_weights, h * cols, "decoder_weights");
  latent_codec_floats (codec, &part->decoder_bias, cols, "decoder_bias");
  latent_codec_floats (codec, &part->input_offset, cols, "input_offset");
  latent_codec_floats (codec, &part->input_scale, cols, "input_scale");
  latent_codec_uints (codec, &part->unit_wins, h, "unit_wins");
  latent_codec_uint (codec, &part->n_dead);
  latent_codec_double (codec, &part->validation_loss);
  latent_codec_examples (codec, &part->examples, self->n_rows, self->n_cols);
  latent_codec_epochs (codec, &part->epochs);
  latent_codec_doubles (codec, &part->epoch_dead_fraction, part->epochs.n_epochs, "epoch_dead_fraction");
}

/* Listed in engine/meson.build (latent_families). */
extern const LatentFamilyClass latent_autoencoders_family;
const LatentFamilyClass latent_autoencoders_family = {
  .family = LATENT_FAMILY_AUTOENCODER,
  .describe_metrics = latent_autoencoders_describe_metrics,
  .describe_header = latent_autoencoders_describe_header,
  .init_part = latent_autoencoders_init_part,
  .clear_part = latent_autoencoders_clear_part,
  .get_part_size = latent_autoencoders_get_part_size,
  .transfer_part = latent_autoencoders_transfer_part,
  .components = latent_autoencoders_components,
  .examples = latent_autoencoders_examples,
  .epochs = latent_autoencoders_epochs,
  .has_encoder = latent_autoencoders_has_encoder,
};
