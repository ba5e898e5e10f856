/* latent-classifiers.c — the classifier family (logistic regression,
 * prototypes, the MLP): how it does on rows it did not learn from
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-classifiers"

#include "latent-classifiers.h"
#include "latent-family.h"
#include "latent-codec.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "latent-json.h"

static void
latent_classifiers_describe_metrics (LatentSnapshot *snap,
                                     GString        *text)
{
  const LatentClassifierPart *part = &snap->classifier;

  if (isfinite (part->test_accuracy))
    g_string_append_printf (text, _("Test accuracy %.2f %% (%u rows)\n"), 100 * part->test_accuracy, part->n_test);
  if (isfinite (part->train_accuracy))
    g_string_append_printf (text, _("Training accuracy %.2f %%\n"), 100 * part->train_accuracy);
  if (part->epochs.train_loss != NULL && part->epochs.n_epochs > 0)
    g_string_append_printf (text, _("Training loss %.6g (epoch %u)\n"),
                            part->epochs.train_loss[part->epochs.n_epochs - 1], part->epochs.n_epochs);
  if (part->n_episodes > 0)
    g_string_append_printf (text, _("Episodes %u: mean accuracy %.2f %% ± %.2f\n"), part->n_episodes,
                            100 * part->episode_mean_accuracy, 100 * part->episode_ci95);
}

static void
latent_classifiers_describe_header (LatentSnapshot *snap,
                                    GString        *text)
{
  const LatentClassifierPart *part = &snap->classifier;

  /* What a classifier is judged by: rows it did not learn from. */
  if (part->n_test > 0 && isfinite (part->test_accuracy))
    g_string_append_printf (text, _(" · test accuracy %.1f %% (%u rows)"), 100.0 * part->test_accuracy, part->n_test);
}

static void
latent_classifiers_clear_part (LatentSnapshot *self)
{
  LatentClassifierPart *part = &self->classifier;

  g_free (part->class_weights);
  g_free (part->class_bias);
  g_free (part->means);
  g_free (part->layer_sizes);
  g_free (part->network);
  g_free (part->input_offset);
  g_free (part->input_scale);
  g_clear_object (&part->test_dataset);
  g_free (part->test_rows);
  g_free (part->test_predictions);
  g_free (part->confusion);
  latent_epochs_clear (&part->epochs);
  g_free (part->epoch_train_accuracy);
  g_free (part->epoch_test_accuracy);
  g_free (part->episode_accuracy);
  g_free (part->episode_classes);
  g_free (part->support_rows);
  g_free (part->episode_prototypes);
  g_free (part->query_rows);
  g_free (part->query_predictions);
  g_free (part->curve_shots);
  g_free (part->curve_accuracy);
  g_free (part->curve_ci95);
}

static gsize
latent_classifiers_get_part_size (LatentSnapshot *self)
{
  const LatentClassifierPart *part = &self->classifier;
  gsize c = part->n_classes, cols = self->n_cols, size = 0;

  if (part->class_weights) size += c * cols * sizeof (float);
  if (part->class_bias) size += c * sizeof (float);
  if (part->means) size += c * cols * sizeof (float);
  if (part->layer_sizes) size += (part->n_layers + 1) * sizeof (guint);
  if (part->network) size += latent_classifiers_network_size (part) * sizeof (float);
  if (part->input_offset) size += cols * sizeof (float);
  if (part->input_scale) size += cols * sizeof (float);
  if (part->test_rows) size += part->n_test * sizeof (gint32);
  if (part->test_predictions) size += part->n_test * sizeof (gint32);
  if (part->confusion) size += c * c * sizeof (guint);
  size += latent_epochs_get_size (&part->epochs);
  if (part->epoch_train_accuracy) size += part->epochs.n_epochs * sizeof (double);
  if (part->epoch_test_accuracy) size += part->epochs.n_epochs * sizeof (double);
  if (part->episode_accuracy) size += part->n_episodes * sizeof (double);
  if (part->episode_classes) size += part->n_ways * sizeof (gint32);
  if (part->support_rows) size += (gsize) part->n_ways * part->n_shots * sizeof (gint32);
  if (part->episode_prototypes) size += (gsize) part->n_ways * cols * sizeof (float);
  if (part->query_rows) size += part->n_queries * sizeof (gint32);
  if (part->query_predictions) size += part->n_queries * sizeof (gint32);
  if (part->curve_shots) size += part->n_curve_shots * sizeof (guint);
  if (part->curve_accuracy) size += 2 * 3 * (gsize) part->n_curve_shots * sizeof (double);
  return size;
}

guint
latent_classifiers_get_confusion (LatentSnapshot *snapshot,
                                  guint           truth,
                                  guint           predicted,
                                  guint          *total)
{
  const LatentClassifierPart *part;
  guint sum = 0;

  g_return_val_if_fail (snapshot != NULL, 0);

  part = &snapshot->classifier;
  if (part->confusion == NULL || truth >= part->n_classes || predicted >= part->n_classes)
    {
      if (total)
        *total = 0;
      return 0;
    }
  for (guint j = 0; j < part->n_classes; j++)
    sum += part->confusion[(gsize) truth * part->n_classes + j];
  if (total)
    *total = sum;
  return part->confusion[(gsize) truth * part->n_classes + predicted];
}

const gint32 *
latent_classifiers_get_predictions (LatentSnapshot *snapshot,
                                    LatentDataset **dataset,
                                    const gint32  **rows,
                                    guint          *n)
{
  const LatentClassifierPart *part;

  g_return_val_if_fail (snapshot != NULL && dataset != NULL && rows != NULL && n != NULL, NULL);

  part = &snapshot->classifier;
  if (latent_snapshot_get_family (snapshot) != LATENT_FAMILY_CLASSIFIER || part->test_predictions == NULL
      || part->test_rows == NULL)
    return NULL;
  *dataset = part->test_dataset;
  *rows = part->test_rows;
  *n = part->n_test;
  return part->test_predictions;
}

void
latent_classifiers_write_json (LatentSnapshot *snap,
                               JsonBuilder    *builder)
{
  const LatentClassifierPart *part = &snap->classifier;
  guint c = part->n_classes;
  g_autofree double *precision = g_new (double, c);
  g_autofree double *recall = g_new (double, c);

  json_builder_set_member_name (builder, "classes");
  json_builder_begin_array (builder);
  for (guint k = 0; k < c; k++)
    {
      const char *name = latent_dataset_get_class_name (snap->dataset, k);
      g_autofree char *number = g_strdup_printf ("%u", k);

      json_builder_add_string_value (builder, name ? name : number);
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "test_data");
  json_builder_add_string_value (builder, part->test_dataset == snap->dataset ? "held out"
                                 : latent_dataset_get_name (part->test_dataset));
  json_builder_set_member_name (builder, "n_test");
  json_builder_add_int_value (builder, part->n_test);
  latent_json_add_int_vector_member (builder, "test_rows", part->test_rows, part->n_test);
  latent_json_add_int_vector_member (builder, "test_predictions", part->test_predictions, part->n_test);
  latent_json_add_number_member (builder, "test_accuracy", part->test_accuracy);
  latent_json_add_number_member (builder, "train_accuracy", part->train_accuracy);

  latent_json_add_uint_matrix_member (builder, "confusion", part->confusion, c, c);
  for (guint k = 0; k < c; k++)
    {
      guint predicted = 0, actual = 0;

      for (guint o = 0; o < c; o++)
        {
          predicted += part->confusion[(gsize) o * c + k];
          actual += part->confusion[(gsize) k * c + o];
        }
      precision[k] = predicted ? (double) part->confusion[(gsize) k * c + k] / predicted : NAN;
      recall[k] = actual ? (double) part->confusion[(gsize) k * c + k] / actual : NAN;
    }
  latent_json_add_vector_member (builder, "precision", precision, c);
  latent_json_add_vector_member (builder, "recall", recall, c);
  latent_json_builder_keep (builder, g_steal_pointer (&precision));
  latent_json_builder_keep (builder, g_steal_pointer (&recall));
  if (part->epoch_train_accuracy)
    latent_json_add_vector_member (builder, "epoch_train_accuracy", part->epoch_train_accuracy, part->epochs.n_epochs);
  if (part->epoch_test_accuracy)
    latent_json_add_vector_member (builder, "epoch_test_accuracy", part->epoch_test_accuracy, part->epochs.n_epochs);
}

static void
latent_classifiers_init_part (LatentSnapshot *self)
{
  self->classifier.train_accuracy = NAN;
  self->classifier.test_accuracy = NAN;
  self->classifier.test_loss = NAN;
  self->classifier.episode_mean_accuracy = NAN;
  self->classifier.episode_ci95 = NAN;
}

static const float *
latent_classifiers_components (LatentSnapshot *snapshot,
                               guint          *n)
{
  *n = snapshot->classifier.n_classes;
  return snapshot->classifier.class_weights ? snapshot->classifier.class_weights : snapshot->classifier.means;
}

static const LatentEpochs *
latent_classifiers_epochs (LatentSnapshot *snapshot)
{
  return &snapshot->classifier.epochs;
}

/* The test rows' dataset: none, the data's own rows (held out) or its test
 * data, which a reader has beside the data as the writer had. */
static void
transfer_test_dataset (LatentSnapshot *self,
                       LatentCodec    *codec)
{
  LatentClassifierPart *part = &self->classifier;
  LatentDataset *test = self->dataset ? latent_dataset_get_test (self->dataset) : NULL;
  guint which = part->test_dataset == NULL ? 0 : part->test_dataset == self->dataset ? 1 : 2;

  latent_codec_choice (codec, &which, 3, "test_dataset");
  if (!latent_codec_is_reading (codec))
    return;
  g_clear_object (&part->test_dataset);
  if (which == 1 && self->dataset)
    part->test_dataset = g_object_ref (self->dataset);
  else if (which == 2 && test)
    part->test_dataset = g_object_ref (test);
}

/* A network's layers: their sizes bound the weights read, and must lead
 * from the columns to the classes, or the network is dropped. */
static void
transfer_network (LatentSnapshot *self,
                  LatentCodec    *codec)
{
  LatentClassifierPart *part = &self->classifier;
  gboolean fits = TRUE;

  latent_codec_choice (codec, &part->n_layers, 6, "n_layers");
  latent_codec_uints (codec, &part->layer_sizes, part->n_layers ? part->n_layers + 1 : 0, "layer_sizes");
  for (guint l = 0; part->layer_sizes && l <= part->n_layers; l++)
    fits &= part->layer_sizes[l] > 0 && part->layer_sizes[l] <= 1 << 20;
  if (part->n_layers && part->layer_sizes &&
      (!fits || part->layer_sizes[0] != self->n_cols || part->layer_sizes[part->n_layers] != part->n_classes))
    {
      g_clear_pointer (&part->layer_sizes, g_free);
      part->n_layers = 0;
    }
  latent_codec_floats (codec, &part->network, latent_classifiers_network_size (part), "network");
  latent_codec_boolean (codec, &part->tanh_units);
}

static void
latent_classifiers_transfer_part (LatentSnapshot *self,
                                  LatentCodec    *codec)
{
  LatentClassifierPart *part = &self->classifier;
  gsize c, cols = self->n_cols;
  guint n_test_rows, n_classes_data;

  latent_codec_uint (codec, &part->n_classes);
  c = part->n_classes;
  latent_codec_floats (codec, &part->class_weights, c * cols, "class_weights");
  latent_codec_floats (codec, &part->class_bias, c, "class_bias");
  latent_codec_floats (codec, &part->means, c * cols, "means");
  latent_codec_boolean (codec, &part->cosine);
  latent_codec_boolean (codec, &part->dot_product);
  transfer_network (self, codec);
  latent_codec_floats (codec, &part->input_offset, cols, "input_offset");
  latent_codec_floats (codec, &part->input_scale, cols, "input_scale");
  transfer_test_dataset (self, codec);
  /* Rows and classes index the test data and the palette: bounded by them. */
  n_test_rows = part->test_dataset ? latent_dataset_get_n_rows (part->test_dataset) : 0;
  n_classes_data = self->dataset ? MAX (latent_dataset_get_n_classes (self->dataset), c) : c;
  latent_codec_uint (codec, &part->n_test);
  latent_codec_indices (codec, &part->test_rows, part->n_test, 0, n_test_rows, "test_rows");
  latent_codec_indices (codec, &part->test_predictions, part->n_test, 0, c, "test_predictions");
  latent_codec_uints (codec, &part->confusion, c * c, "confusion");
  latent_codec_double (codec, &part->train_accuracy);
  latent_codec_double (codec, &part->test_accuracy);
  latent_codec_double (codec, &part->test_loss);
  latent_codec_epochs (codec, &part->epochs);
  latent_codec_doubles (codec, &part->epoch_train_accuracy, part->epochs.n_epochs, "epoch_train_accuracy");
  latent_codec_doubles (codec, &part->epoch_test_accuracy, part->epochs.n_epochs, "epoch_test_accuracy");
  latent_codec_uint (codec, &part->n_episodes);
  latent_codec_doubles (codec, &part->episode_accuracy, part->n_episodes, "episode_accuracy");
  latent_codec_double (codec, &part->episode_mean_accuracy);
  latent_codec_double (codec, &part->episode_ci95);
  latent_codec_uint (codec, &part->n_ways);
  latent_codec_uint (codec, &part->n_shots);
  latent_codec_indices (codec, &part->episode_classes, part->n_ways, 0, n_classes_data, "episode_classes");
  latent_codec_indices (codec, &part->support_rows, (gsize) part->n_ways * part->n_shots, 0, n_test_rows,
                        "support_rows");
  latent_codec_floats (codec, &part->episode_prototypes, (gsize) part->n_ways * cols, "episode_prototypes");
  latent_codec_uint (codec, &part->n_queries);
  latent_codec_indices (codec, &part->query_rows, part->n_queries, 0, n_test_rows, "query_rows");
  latent_codec_indices (codec, &part->query_predictions, part->n_queries, 0, n_classes_data, "query_predictions");
  latent_codec_choice (codec, &part->n_curve_shots, 6, "n_curve_shots");
  latent_codec_uints (codec, &part->curve_shots, part->n_curve_shots, "curve_shots");
  latent_codec_doubles (codec, &part->curve_accuracy, 3 * (gsize) part->n_curve_shots, "curve_accuracy");
  latent_codec_doubles (codec, &part->curve_ci95, 3 * (gsize) part->n_curve_shots, "curve_ci95");
}

gsize
latent_classifiers_network_size (const LatentClassifierPart *part)
{
  gsize n = 0;

  for (guint l = 0; part->layer_sizes && l < part->n_layers; l++)
    n += (gsize) part->layer_sizes[l + 1] * (part->layer_sizes[l] + 1);
  return n;
}

void
latent_classifiers_forward (const LatentClassifierPart *part,
                            const float                *x,
                            double                     *units,
                            double                     *scores)
{
  guint widest = 0;
  const float *at = part->network;

  g_return_if_fail (part->n_layers > 0 && part->network != NULL);

  for (guint l = 1; l < part->n_layers; l++)
    widest = MAX (widest, part->layer_sizes[l]);
  {
    g_autofree double *in = g_new (double, MAX (part->layer_sizes[0], widest));
    g_autofree double *out = g_new (double, MAX (widest, 1u));

    for (guint a = 0; a < part->layer_sizes[0]; a++)
      in[a] = x[a];
    for (guint l = 0; l < part->n_layers; l++)
      {
        const guint n_in = part->layer_sizes[l], n_out = part->layer_sizes[l + 1];
        const gboolean last = l + 1 == part->n_layers;
        const float *bias = at + (gsize) n_out * n_in;
        double *to = last ? scores : out;
        double *swap;

        for (guint k = 0; k < n_out; k++)
          {
            double s = bias[k];

            for (guint a = 0; a < n_in; a++)
              s += at[(gsize) k * n_in + a] * in[a];
            to[k] = last ? s : part->tanh_units ? tanh (s) : MAX (s, 0.0);
          }
        at = bias + n_out;
        if (last)
          break;
        if (units)
          {
            memcpy (units, out, n_out * sizeof (double));
            units += n_out;
          }
        swap = in;
        in = out;
        out = swap;
      }
  }
}

/* Listed in engine/meson.build (latent_families). */
extern const LatentFamilyClass latent_classifiers_family;
const LatentFamilyClass latent_classifiers_family = {
  .family = LATENT_FAMILY_CLASSIFIER,
  .describe_metrics = latent_classifiers_describe_metrics,
  .describe_header = latent_classifiers_describe_header,
  .init_part = latent_classifiers_init_part,
  .clear_part = latent_classifiers_clear_part,
  .get_part_size = latent_classifiers_get_part_size,
  .transfer_part = latent_classifiers_transfer_part,
  .components = latent_classifiers_components,
  .epochs = latent_classifiers_epochs,
};
