/* latent-experiment.c — experiments as JSON (json-glib)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-experiment"

#include "latent-experiment.h"

#include "latent-registry.h"
#include "latent-dataset.h"
#include "latent-json.h"

#include <glib/gi18n-lib.h>

#define FORMAT "latent-experiment"
/* Version 2 adds the test data and the view; version 1 files still load. */
#define VERSION 2
/* Experiments are a few lines; anything this large is something else. */
#define EXPERIMENT_MAX_BYTES ((gsize) 16 << 20)

LatentExperiment *
latent_experiment_new (const char            *dataset,
                       const char            *labels,
                       const LatentAlgorithm *algorithm,
                       LatentParams          *params,
                       guint64                seed,
                       const char            *device)
{
  LatentExperiment *self = g_new0 (LatentExperiment, 1);

  self->dataset = g_strdup (dataset);
  self->labels = g_strdup (labels);
  self->algorithm = algorithm;
  self->params = latent_params_copy (params);
  self->seed = seed;
  self->device = g_strdup (device ? device : "auto");
  self->figure = g_strdup ("auto");
  self->speed = -1;
  return self;
}

LatentExperiment *
latent_experiment_copy (const LatentExperiment *self)
{
  LatentExperiment *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = latent_experiment_new (self->dataset, self->labels, self->algorithm, self->params, self->seed, self->device);
  copy->test = g_strdup (self->test);
  g_free (copy->figure);
  copy->figure = g_strdup (self->figure);
  copy->axes[0] = self->axes[0];
  copy->axes[1] = self->axes[1];
  copy->colour_by_class = self->colour_by_class;
  copy->speed = self->speed;
  return copy;
}

void
latent_experiment_free (LatentExperiment *self)
{
  if (self == NULL)
    return;
  g_free (self->dataset);
  g_free (self->labels);
  g_clear_pointer (&self->params, latent_params_unref);
  g_free (self->device);
  g_free (self->test);
  g_free (self->figure);
  g_free (self);
}

gboolean
latent_experiment_save (LatentExperiment  *self,
                        const char        *path,
                        GError           **error)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  g_return_val_if_fail (self != NULL && path != NULL, FALSE);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "format");
  json_builder_add_string_value (b, FORMAT);
  json_builder_set_member_name (b, "version");
  json_builder_add_int_value (b, VERSION);
  json_builder_set_member_name (b, "dataset");
  json_builder_add_string_value (b, self->dataset);
  json_builder_set_member_name (b, "labels");
  if (self->labels)
    json_builder_add_string_value (b, self->labels);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "algorithm");
  json_builder_add_string_value (b, self->algorithm->id);
  json_builder_set_member_name (b, "params");
  json_builder_add_value (b, latent_params_to_json (self->params));
  json_builder_set_member_name (b, "seed");
  json_builder_add_int_value (b, (gint64) self->seed);
  json_builder_set_member_name (b, "device");
  json_builder_add_string_value (b, self->device);
  json_builder_set_member_name (b, "test");
  if (self->test)
    json_builder_add_string_value (b, self->test);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "view");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "figure");
  json_builder_add_string_value (b, self->figure ? self->figure : "auto");
  json_builder_set_member_name (b, "axes");
  json_builder_begin_array (b);
  json_builder_add_int_value (b, self->axes[0]);
  json_builder_add_int_value (b, self->axes[1]);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "colour-by-class");
  json_builder_add_boolean_value (b, self->colour_by_class);
  if (self->speed >= 0)
    {
      json_builder_set_member_name (b, "speed");
      json_builder_add_double_value (b, self->speed);
    }
  json_builder_end_object (b);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  return latent_json_write_file (root, TRUE, path, error);
}

static const char *
get_string (JsonObject  *object,
            const char  *member,
            gboolean     required,
            const char  *path,
            GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      if (required)
        g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                     _("%s: “%s” is missing"), path, member);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                   _("%s: “%s” must be a string"), path, member);
      return NULL;
    }
  return json_node_get_string (node);
}

/* "view": {"figure": "scatter", "axes": [3, 4], "colour-by-class": true,
 * "speed": 10}, each member optional. */
static gboolean
read_view (LatentExperiment  *self,
           JsonObject        *root,
           const char        *path,
           GError           **error)
{
  JsonNode *node = json_object_get_member (root, "view");
  g_autoptr(GError) local_error = NULL;
  JsonObject *view;
  const char *figure;

  self->figure = g_strdup ("auto");
  self->speed = -1;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE, _("%s: “view” must be an object"), path);
      return FALSE;
    }
  view = json_node_get_object (node);
  figure = get_string (view, "figure", FALSE, path, &local_error);
  if (local_error)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (figure)
    {
      g_free (self->figure);
      self->figure = g_strdup (figure);
    }

  node = json_object_get_member (view, "axes");
  if (node != NULL)
    {
      JsonArray *axes = JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;

      for (guint i = 0; axes != NULL && i < 2 && json_array_get_length (axes) == 2; i++)
        {
          JsonNode *axis = json_array_get_element (axes, i);

          if (!JSON_NODE_HOLDS_VALUE (axis) || json_node_get_value_type (axis) != G_TYPE_INT64
              || json_node_get_int (axis) < 0 || json_node_get_int (axis) > G_MAXINT)
            axes = NULL;
          else
            self->axes[i] = json_node_get_int (axis);
        }
      if (axes == NULL || json_array_get_length (axes) != 2)
        {
          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                       _("%s: “axes” must be two column numbers (0 for a principal component)"), path);
          return FALSE;
        }
    }
  node = json_object_get_member (view, "colour-by-class");
  if (node != NULL)
    {
      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
        {
          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                       _("%s: “colour-by-class” must be true or false"), path);
          return FALSE;
        }
      self->colour_by_class = json_node_get_boolean (node);
    }
  node = json_object_get_member (view, "speed");
  if (node != NULL)
    {
      double speed = JSON_NODE_HOLDS_VALUE (node) ? json_node_get_double (node) : -1;

      if (!JSON_NODE_HOLDS_VALUE (node) || !(speed >= 0 && speed <= 1000))
        {
          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                       _("%s: “speed” must be a number of iterations a second, 0 to 1000"), path);
          return FALSE;
        }
      self->speed = speed;
    }
  return TRUE;
}

LatentExperiment *
latent_experiment_load (const char  *path,
                        GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(LatentExperiment) self = g_new0 (LatentExperiment, 1);
  g_autoptr(GError) local_error = NULL;
  JsonObject *root, *params;
  const char *format, *algorithm, *dataset;
  JsonNode *node;

  g_return_val_if_fail (path != NULL, NULL);

  if (!(parser = latent_json_load_file (path, EXPERIMENT_MAX_BYTES, _("an experiment"), error)))
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                   _("%s: not a Latent experiment (expected a JSON object)"), path);
      return NULL;
    }
  root = json_node_get_object (json_parser_get_root (parser));

  format = get_string (root, "format", TRUE, path, error);
  if (format == NULL)
    return NULL;
  node = json_object_get_member (root, "version");
  if (!g_str_equal (format, FORMAT) || node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_INT64 || json_node_get_int (node) < 1
      || json_node_get_int (node) > VERSION)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_UNSUPPORTED,
                   _("%s: not a Latent experiment of version %d"), path, VERSION);
      return NULL;
    }
  if (!(dataset = get_string (root, "dataset", TRUE, path, error)) ||
      !(algorithm = get_string (root, "algorithm", TRUE, path, error)))
    return NULL;
  self->dataset = g_strdup (dataset);
  self->labels = g_strdup (get_string (root, "labels", FALSE, path, &local_error));
  if (local_error)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  self->device = g_strdup (get_string (root, "device", FALSE, path, &local_error));
  if (local_error)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  if (self->device == NULL)
    self->device = g_strdup ("auto");

  if (!(self->algorithm = latent_registry_lookup (algorithm, &local_error)))
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID, "%s: %s", path, local_error->message);
      return NULL;
    }
  self->params = latent_algorithm_new_params (self->algorithm);
  node = json_object_get_member (root, "params");
  if (node && !JSON_NODE_HOLDS_NULL (node))
    {
      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE, _("%s: “params” must be an object"), path);
          return NULL;
        }
      params = json_node_get_object (node);
      if (!latent_params_set_from_json (self->params, params, &local_error))
        {
          g_set_error (error, LATENT_PARAM_ERROR, local_error->code, "%s: %s", path, local_error->message);
          return NULL;
        }
    }
  node = json_object_get_member (root, "seed");
  if (node && (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64 ||
               json_node_get_int (node) < 0))
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                   _("%s: “seed” must be a whole number ≥ 0"), path);
      return NULL;
    }
  self->seed = node ? (guint64) json_node_get_int (node) : 0;
  self->test = g_strdup (get_string (root, "test", FALSE, path, &local_error));
  if (local_error || !read_view (self, root, path, error))
    {
      if (local_error)
        g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  return g_steal_pointer (&self);
}
