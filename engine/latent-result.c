/* latent-result.c — everything needed to check a run, as JSON (json-glib)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-result"

#include "latent-result.h"

#include "latent-json.h"

#include <glib/gi18n-lib.h>
#include <math.h>

static void
add_number (JsonBuilder *b,
            const char  *name,
            double       value)
{
  json_builder_set_member_name (b, name);
  latent_json_add_double (b, value);
}

static void
add_matrix (JsonBuilder *b,
            const float *values,
            guint        rows,
            guint        cols)
{
  json_builder_begin_array (b);
  for (guint r = 0; r < rows; r++)
    {
      json_builder_begin_array (b);
      for (guint c = 0; c < cols; c++)
        latent_json_add_double (b, values[(gsize) r * cols + c]);
      json_builder_end_array (b);
    }
  json_builder_end_array (b);
}

static void
add_clustering (JsonBuilder    *b,
                LatentSnapshot *snap)
{
  json_builder_set_member_name (b, "labels");
  json_builder_begin_array (b);
  for (guint i = 0; i < snap->n_rows; i++)
    json_builder_add_int_value (b, snap->labels[i]);
  json_builder_end_array (b);

  /* k-means calls its means centroids; a mixture adds its other parameters. */
  json_builder_set_member_name (b, snap->weights ? "means" : "centroids");
  add_matrix (b, snap->means, snap->k, snap->n_cols);
  if (snap->weights)
    {
      json_builder_set_member_name (b, "covariances");
      json_builder_begin_array (b);
      for (guint c = 0; c < snap->k; c++)
        add_matrix (b, snap->covariances + (gsize) c * snap->n_cols * snap->n_cols, snap->n_cols, snap->n_cols);
      json_builder_end_array (b);
      json_builder_set_member_name (b, "weights");
      json_builder_begin_array (b);
      for (guint c = 0; c < snap->k; c++)
        latent_json_add_double (b, snap->weights[c]);
      json_builder_end_array (b);
      add_number (b, "log_likelihood", snap->log_likelihood);
      add_number (b, "bic", snap->bic);
      add_number (b, "aic", snap->aic);
      if (snap->responsibilities && latent_params_get_bool (snap->params, "save-responsibilities"))
        {
          json_builder_set_member_name (b, "responsibilities");
          add_matrix (b, snap->responsibilities, snap->n_rows, snap->k);
        }
    }

  json_builder_set_member_name (b, "cluster_sizes");
  json_builder_begin_array (b);
  for (guint c = 0; c < snap->k; c++)
    json_builder_add_int_value (b, snap->cluster_sizes[c]);
  json_builder_end_array (b);

  if (snap->weights == NULL)
    add_number (b, "inertia", snap->objective);
}

static void
add_vector (JsonBuilder  *b,
            const char   *name,
            const double *values,
            guint         n)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  for (guint i = 0; i < n; i++)
    latent_json_add_double (b, values[i]);
  json_builder_end_array (b);
}

/* PCA, PPCA and FA: the names scikit-learn uses where it has them. */
static void
add_linear (JsonBuilder    *b,
            LatentSnapshot *snap)
{
  const guint m = snap->n_components, d = snap->n_cols;

  json_builder_set_member_name (b, "components");
  add_matrix (b, snap->components, m, d);
  json_builder_set_member_name (b, "mean");
  json_builder_begin_array (b);
  for (guint a = 0; a < d; a++)
    latent_json_add_double (b, snap->data_mean[a]);
  json_builder_end_array (b);
  add_vector (b, "explained_variance", snap->explained_variance, m);
  add_vector (b, "explained_variance_ratio", snap->explained_variance_ratio, m);
  add_number (b, "total_variance", snap->total_variance);
  /* One σ² for PCA and PPCA, one ψ per column for factor analysis. */
  if (snap->n_noise == 1)
    add_number (b, "noise_variance", snap->noise_variance[0]);
  else
    add_vector (b, "noise_variance", snap->noise_variance, snap->n_noise);
  add_number (b, "log_likelihood", snap->log_likelihood);
  add_number (b, "reconstruction_error", snap->reconstruction_error);
  json_builder_set_member_name (b, "projection");
  add_matrix (b, snap->projection, snap->n_rows, snap->projection_dims);
}

/* Convolution: the kernel, the method that ran, and the race. */
static void
add_filter (JsonBuilder    *b,
            LatentSnapshot *snap)
{
  json_builder_set_member_name (b, "kernel");
  add_matrix (b, snap->kernel, snap->kernel_size, snap->kernel_size);
  json_builder_set_member_name (b, "method");
  json_builder_add_string_value (b, snap->method);
  json_builder_set_member_name (b, "method_ms");
  json_builder_begin_object (b);
  for (guint i = 0; snap->method_names && snap->method_names[i]; i++)
    {
      json_builder_set_member_name (b, snap->method_names[i]);
      latent_json_add_double (b, snap->method_ms[i]);
    }
  json_builder_end_object (b);
}

JsonNode *
latent_result_to_json (LatentSnapshot *snap,
                       const GArray   *history,
                       double          init_ms,
                       double          total_ms)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  LatentDataset *ds = snap->dataset;
  double step_total = 0;

  g_return_val_if_fail (snap != NULL, NULL);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "algorithm");
  json_builder_add_string_value (b, snap->algorithm);

  json_builder_set_member_name (b, "dataset");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, latent_dataset_get_name (ds));
  json_builder_set_member_name (b, "source");
  json_builder_add_string_value (b, latent_dataset_get_source (ds));
  json_builder_set_member_name (b, "rows");
  json_builder_add_int_value (b, latent_dataset_get_n_rows (ds));
  json_builder_set_member_name (b, "columns");
  json_builder_add_int_value (b, latent_dataset_get_n_cols (ds));
  json_builder_set_member_name (b, "sha256");
  json_builder_add_string_value (b, latent_dataset_get_hash (ds));
  json_builder_end_object (b);

  json_builder_set_member_name (b, "params");
  json_builder_add_value (b, latent_params_to_json (snap->params));
  json_builder_set_member_name (b, "seed");
  json_builder_add_int_value (b, (gint64) snap->seed);
  json_builder_set_member_name (b, "device");
  json_builder_add_string_value (b, snap->device);
  json_builder_set_member_name (b, "iterations");
  json_builder_add_int_value (b, snap->iteration);
  json_builder_set_member_name (b, "converged");
  json_builder_add_boolean_value (b, snap->converged);

  json_builder_set_member_name (b, "history");
  json_builder_begin_array (b);
  for (guint i = 0; i < history->len; i++)
    latent_json_add_double (b, g_array_index (history, LatentIterationRecord, i).objective);
  json_builder_end_array (b);

  if (snap->components)
    add_linear (b, snap);
  else if (snap->image)
    add_filter (b, snap);
  else if (snap->labels)
    add_clustering (b, snap);

  json_builder_set_member_name (b, "metrics");
  if (snap->has_label_metrics)
    {
      json_builder_begin_object (b);
      add_number (b, "accuracy", snap->metrics.accuracy);
      add_number (b, "ari", snap->metrics.ari);
      add_number (b, "nmi", snap->metrics.nmi);
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);

  json_builder_set_member_name (b, "timings");
  json_builder_begin_object (b);
  add_number (b, "init_ms", init_ms);
  add_number (b, "total_ms", total_ms);
  json_builder_set_member_name (b, "iteration_ms");
  json_builder_begin_array (b);
  for (guint i = 0; i < history->len; i++)
    {
      double ms = g_array_index (history, LatentIterationRecord, i).step_ms;
      latent_json_add_double (b, ms);
      step_total += ms;
    }
  json_builder_end_array (b);
  add_number (b, "mean_iteration_ms", history->len ? step_total / history->len : NAN);
  json_builder_end_object (b);

  if (snap->message)
    {
      json_builder_set_member_name (b, "message");
      json_builder_add_string_value (b, snap->message);
    }
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

gboolean
latent_result_write_json (LatentSnapshot  *snapshot,
                          const GArray    *history,
                          double           init_ms,
                          double           total_ms,
                          const char      *path,
                          GError         **error)
{
  g_autoptr(JsonNode) root = latent_result_to_json (snapshot, history, init_ms, total_ms);
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(GError) local_error = NULL;

  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, FALSE);
  if (!json_generator_to_file (gen, path, &local_error))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s", path, local_error->message);
      return FALSE;
    }
  return TRUE;
}

gboolean
latent_result_write_csv (LatentSnapshot  *snap,
                         const char      *path,
                         GError         **error)
{
  g_autoptr(GString) out = g_string_new (NULL);
  const gint32 *classes = latent_dataset_get_labels (snap->dataset);
  g_autoptr(GError) local_error = NULL;

  if (snap->components == NULL && snap->labels == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("%s: %s gives no value per row to write"), path, snap->algorithm);
      return FALSE;
    }
  /* One line per row: its cluster, or its latent coordinates. */
  g_string_append (out, "row");
  if (snap->components)
    for (guint j = 0; j < snap->projection_dims; j++)
      g_string_append_printf (out, ",z%u", j + 1);
  else
    g_string_append (out, ",cluster");
  g_string_append (out, classes ? ",class\n" : "\n");
  for (guint i = 0; i < snap->n_rows; i++)
    {
      g_string_append_printf (out, "%u", i);
      if (snap->components)
        for (guint j = 0; j < snap->projection_dims; j++)
          {
            char buf[G_ASCII_DTOSTR_BUF_SIZE];

            g_string_append_c (out, ',');
            g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.9g",
                                                   snap->projection[(gsize) i * snap->projection_dims + j]));
          }
      else
        g_string_append_printf (out, ",%d", snap->labels[i]);
      if (classes)
        {
          const char *name = latent_dataset_get_class_name (snap->dataset, classes[i]);
          if (name)
            g_string_append_printf (out, ",%s", name);
          else
            g_string_append_printf (out, ",%d", classes[i]);
        }
      g_string_append_c (out, '\n');
    }
  if (!g_file_set_contents (path, out->str, out->len, &local_error))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", local_error->message);
      return FALSE;
    }
  return TRUE;
}
