/* latent-embeddings.c — the embedding family: a place for every row, the
 * divergence and how well neighbours are kept
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-embeddings"

#include "latent-family.h"
#include "latent-codec.h"

#include <glib/gi18n-lib.h>
#include <math.h>

static void
latent_embeddings_describe_metrics (LatentSnapshot *snap,
                                    GString        *text)
{
  const LatentEmbeddingPart *part = &snap->embedding;

  if (isfinite (part->kl_divergence))
    g_string_append_printf (text, _("KL divergence %.4f\n"), part->kl_divergence);
  if (isfinite (part->cross_entropy))
    g_string_append_printf (text, _("Cross-entropy of the edges %.6g\n"), part->cross_entropy);
  if (part->exaggeration > 1 && !snap->final)
    g_string_append_printf (text, _("Attraction exaggerated %g×\n"), part->exaggeration);
  if (isfinite (part->trustworthiness))
    g_string_append_printf (text, _("Trustworthiness %.4f (k = %u, from %u rows)\n"), part->trustworthiness,
                            part->trust_k, part->trust_rows);
}

static void
latent_embeddings_describe_header (LatentSnapshot *snap,
                                   GString        *text)
{
  const LatentEmbeddingPart *part = &snap->embedding;

  if (isfinite (part->kl_divergence))
    g_string_append_printf (text, _(" · KL %.3f"), part->kl_divergence);
  if (isfinite (part->cross_entropy))
    g_string_append_printf (text, _(" · cross-entropy %.4g"), part->cross_entropy);
  if (isfinite (part->trustworthiness))
    g_string_append_printf (text, _(" · trustworthiness %.3f"), part->trustworthiness);
}

static void
latent_embeddings_init_part (LatentSnapshot *self)
{
  self->embedding.kl_divergence = NAN;
  self->embedding.cross_entropy = NAN;
  self->embedding.trustworthiness = NAN;
  self->embedding.exaggeration = 1;
}

static void
latent_embeddings_clear_part (LatentSnapshot *self)
{
  g_free (self->embedding.positions);
}

static gsize
latent_embeddings_get_part_size (LatentSnapshot *self)
{
  const LatentEmbeddingPart *part = &self->embedding;

  return part->positions ? (gsize) self->n_rows * part->n_dims * sizeof (float) : 0;
}

static void
latent_embeddings_transfer_part (LatentSnapshot *self,
                                 LatentCodec    *codec)
{
  LatentEmbeddingPart *part = &self->embedding;

  latent_codec_choice (codec, &part->n_dims, 4, "n_dims");
  latent_codec_floats (codec, &part->positions, (gsize) self->n_rows * part->n_dims, "positions");
  latent_codec_double (codec, &part->kl_divergence);
  latent_codec_double (codec, &part->cross_entropy);
  latent_codec_double (codec, &part->trustworthiness);
  latent_codec_uint (codec, &part->trust_k);
  latent_codec_uint (codec, &part->trust_rows);
  latent_codec_uint (codec, &part->input_dims);
  latent_codec_double (codec, &part->exaggeration);
}

static gboolean
latent_embeddings_has_encoder (LatentSnapshot *snapshot)
{
  /* The embedding encodes the rows it was made of, and no others. */
  return snapshot->embedding.positions != NULL;
}

const float *
latent_embeddings_get_position (LatentSnapshot *snapshot,
                                guint           row)
{
  const LatentEmbeddingPart *part = &snapshot->embedding;

  if (part->positions == NULL || part->n_dims < 2 || row >= snapshot->n_rows)
    return NULL;
  return part->positions + (gsize) row * part->n_dims;
}

/* Listed in engine/meson.build (latent_families). */
extern const LatentFamilyClass latent_embeddings_family;
const LatentFamilyClass latent_embeddings_family = {
  .family = LATENT_FAMILY_EMBEDDING,
  .describe_metrics = latent_embeddings_describe_metrics,
  .describe_header = latent_embeddings_describe_header,
  .init_part = latent_embeddings_init_part,
  .clear_part = latent_embeddings_clear_part,
  .get_part_size = latent_embeddings_get_part_size,
  .transfer_part = latent_embeddings_transfer_part,
  .has_encoder = latent_embeddings_has_encoder,
};
