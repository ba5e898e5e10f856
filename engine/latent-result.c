/* latent-result.c — everything needed to check a run, as JSON (json-glib)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-result"

#include "latent-result.h"

#include "latent-dataset-save.h"
#include "latent-json.h"
#include "latent-metrics.h"
#include "latent-registry.h"

#include <glib/gi18n-lib.h>
#include <math.h>

/* Weka's "classes to clusters": counts[cluster][class], the class names and
 * the class matched to each cluster (null for none). */
static void
add_confusion (JsonBuilder    *b,
               LatentSnapshot *snap)
{
  LatentDataset *ds = snap->dataset;
  guint n_classes = latent_dataset_get_n_classes (ds);
  g_autofree guint *counts = g_new0 (guint, (gsize) snap->clusters.k * MAX (n_classes, 1));
  g_autofree gint32 *mapping = g_new (gint32, snap->clusters.k);

  latent_metrics_confusion (snap->clusters.labels, snap->clusters.k, latent_dataset_get_labels (ds), n_classes,
                            snap->n_rows, counts, mapping);

  json_builder_set_member_name (b, "confusion");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "classes");
  json_builder_begin_array (b);
  for (guint c = 0; c < n_classes; c++)
    {
      const char *name = latent_dataset_get_class_name (ds, c);
      g_autofree char *number = name ? NULL : g_strdup_printf ("%u", c);

      json_builder_add_string_value (b, name ? name : number);
    }
  json_builder_end_array (b);
  latent_json_add_uint_matrix_member (b, "counts", counts, snap->clusters.k, n_classes);
  latent_json_builder_keep (b, g_steal_pointer (&counts));
  json_builder_set_member_name (b, "matched_class");
  json_builder_begin_array (b);
  for (guint k = 0; k < snap->clusters.k; k++)
    if (mapping[k] >= 0)
      json_builder_add_int_value (b, mapping[k]);
    else
      json_builder_add_null_value (b);
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static void
build_result (JsonBuilder    *b,
              LatentSnapshot *snap,
              const GArray   *history,
              double          init_ms,
              double          total_ms)
{
  LatentDataset *ds = snap->dataset;
  double step_total = 0;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "algorithm");
  json_builder_add_string_value (b, snap->algorithm->id);

  json_builder_set_member_name (b, "dataset");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, latent_dataset_get_name (ds));
  json_builder_set_member_name (b, "source");
  if (latent_dataset_get_source (ds))
    {
      /* JSON is UTF-8; a path need not be. */
      g_autofree char *source = g_filename_display_name (latent_dataset_get_source (ds));

      json_builder_add_string_value (b, source);
    }
  else
    json_builder_add_null_value (b);
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

  snap->algorithm->write_json (snap, b);

  json_builder_set_member_name (b, "metrics");
  if (snap->has_label_metrics)
    {
      json_builder_begin_object (b);
      latent_json_add_number_member (b, "accuracy", snap->metrics.accuracy);
      latent_json_add_number_member (b, "ari", snap->metrics.ari);
      latent_json_add_number_member (b, "nmi", snap->metrics.nmi);
      if (snap->clusters.labels != NULL && snap->clusters.k > 0)
        add_confusion (b, snap);
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);

  json_builder_set_member_name (b, "timings");
  json_builder_begin_object (b);
  latent_json_add_number_member (b, "init_ms", init_ms);
  latent_json_add_number_member (b, "total_ms", total_ms);
  json_builder_set_member_name (b, "iteration_ms");
  json_builder_begin_array (b);
  for (guint i = 0; i < history->len; i++)
    {
      double ms = g_array_index (history, LatentIterationRecord, i).step_ms;
      latent_json_add_double (b, ms);
      step_total += ms;
    }
  json_builder_end_array (b);
  latent_json_add_number_member (b, "mean_iteration_ms", history->len ? step_total / history->len : NAN);
  json_builder_end_object (b);

  if (snap->message)
    {
      json_builder_set_member_name (b, "message");
      json_builder_add_string_value (b, snap->message);
    }
  json_builder_end_object (b);
}

gboolean
latent_result_write_json (LatentSnapshot  *snapshot,
                          const GArray    *history,
                          double           init_ms,
                          double           total_ms,
                          const char      *path,
                          GError         **error)
{
  /* Its large arrays are written from the snapshot, not built as nodes. */
  g_autoptr(JsonBuilder) builder = latent_json_builder_new ();

  g_return_val_if_fail (snapshot != NULL, FALSE);

  build_result (builder, snapshot, history, init_ms, total_ms);
  return latent_json_builder_write_file (builder, path, error);
}

static void
append_class (GString       *out,
              LatentDataset *dataset,
              gint32         klass)
{
  const char *name = latent_dataset_get_class_name (dataset, klass);

  if (name)
    g_string_append_printf (out, ",%s", name);
  else
    g_string_append_printf (out, ",%d", klass);
}

/* A classifier's: one line per test row, its row in the test data, the
 * predicted class and the true one. */
static gboolean
write_predictions_csv (LatentSnapshot  *snap,
                       const char      *path,
                       GError         **error)
{
  g_autoptr(GString) out = g_string_new ("row,predicted,class\n");
  const gint32 *classes = latent_dataset_get_labels (snap->classifier.test_dataset);

  for (guint i = 0; i < snap->classifier.n_test; i++)
    {
      g_string_append_printf (out, "%d", snap->classifier.test_rows[i]);
      append_class (out, snap->dataset, snap->classifier.test_predictions[i]);
      append_class (out, snap->dataset, classes[snap->classifier.test_rows[i]]);
      g_string_append_c (out, '\n');
    }
  return latent_save_file_contents (path, out->str, out->len, error);
}

gboolean
latent_result_check_csv (const LatentAlgorithm  *algorithm,
                         const char             *path,
                         GError                **error)
{
  g_return_val_if_fail (algorithm != NULL && path != NULL, FALSE);

  if (algorithm->family != LATENT_FAMILY_CLASSIFIER && algorithm->write_csv_row == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("%s: %s gives no value per row to write"), path, algorithm->id);
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

  if (!latent_result_check_csv (snap->algorithm, path, error))
    return FALSE;
  if (latent_snapshot_get_family (snap) == LATENT_FAMILY_CLASSIFIER)
    return write_predictions_csv (snap, path, error);
  /* One line per row: what the algorithm gives it, and its class. */
  g_string_append (out, "row");
  snap->algorithm->write_csv_header (snap, out);
  g_string_append (out, classes ? ",class\n" : "\n");
  for (guint i = 0; i < snap->n_rows; i++)
    {
      g_string_append_printf (out, "%u", i);
      snap->algorithm->write_csv_row (snap, i, out);
      if (classes)
        append_class (out, snap->dataset, classes[i]);
      g_string_append_c (out, '\n');
    }
  return latent_save_file_contents (path, out->str, out->len, error);
}

LatentSnapshot *
latent_result_read_model (const char  *path,
                          GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(LatentSnapshot) snap = NULL;
  const LatentAlgorithm *algorithm;
  g_autofree char *display = g_filename_display_name (path);
  const char *id;
  JsonObject *root;
  JsonNode *node;

  if (!(parser = latent_json_load_file (path, LATENT_MODEL_MAX_BYTES, _("a result"), error)))
    return NULL;
  /* The type checked first: json-glib's getters are critical about an
   * object or an array where they expect a string. */
  if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)) ||
      !(root = json_node_get_object (json_parser_get_root (parser))) ||
      !(node = json_object_get_member (root, "algorithm")) ||
      json_node_get_value_type (node) != G_TYPE_STRING ||
      !(id = json_node_get_string (node)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: not a result of latent-cli run --json (no “algorithm”)"), display);
      return NULL;
    }
  algorithm = latent_registry_lookup (id, NULL);
  if (algorithm == NULL || algorithm->encode == NULL || algorithm->read_model == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: a result of “%.64s”, which has no encoder; PCA, PPCA, FA and WTA results have one"),
                   display, id);
      return NULL;
    }
  snap = latent_snapshot_new (algorithm, NULL, NULL);
  snap->final = TRUE;
  if (!algorithm->read_model (snap, root, display, error))
    return NULL;
  return g_steal_pointer (&snap);
}
