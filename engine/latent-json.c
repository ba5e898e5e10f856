/* latent-json.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-json"

#include "latent-json.h"

#include <gio/gio.h>
#include <glib/gi18n-lib.h>

#include <math.h>
#include <string.h>

#include "latent-dataset.h"
#include "latent-dataset-save.h"
#include "latent-file.h"

void
latent_json_add_double (JsonBuilder *builder,
                        double       value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_return_if_fail (JSON_IS_BUILDER (builder));

  if (!isfinite (value))
    {
      json_builder_add_null_value (builder);
      return;
    }
  g_ascii_dtostr (buf, sizeof buf, value);
  if (strpbrk (buf, "eE") && !strchr (buf, '.'))
    value = nextafter (value, 0);
  json_builder_add_double_value (builder, value);
}

void
latent_json_add_int_vector_member (JsonBuilder  *builder,
                                   const char   *name,
                                   const gint32 *values,
                                   guint         n)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_array (builder);
  for (guint i = 0; i < n; i++)
    json_builder_add_int_value (builder, values[i]);
  json_builder_end_array (builder);
}

void
latent_json_add_uint_vector_member (JsonBuilder *builder,
                                    const char  *name,
                                    const guint *values,
                                    guint        n)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_array (builder);
  for (guint i = 0; i < n; i++)
    json_builder_add_int_value (builder, values[i]);
  json_builder_end_array (builder);
}

void
latent_json_add_number_member (JsonBuilder *builder,
                               const char  *name,
                               double       value)
{
  json_builder_set_member_name (builder, name);
  latent_json_add_double (builder, value);
}

void
latent_json_add_vector_member (JsonBuilder  *builder,
                               const char   *name,
                               const double *values,
                               guint         n)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_array (builder);
  for (guint i = 0; i < n; i++)
    latent_json_add_double (builder, values[i]);
  json_builder_end_array (builder);
}

void
latent_json_add_float_vector_member (JsonBuilder *builder,
                                     const char  *name,
                                     const float *values,
                                     guint        n)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_array (builder);
  for (guint i = 0; i < n; i++)
    latent_json_add_double (builder, values[i]);
  json_builder_end_array (builder);
}

void
latent_json_add_matrix (JsonBuilder *builder,
                        const float *values,
                        guint        rows,
                        guint        cols)
{
  json_builder_begin_array (builder);
  for (guint r = 0; r < rows; r++)
    {
      json_builder_begin_array (builder);
      for (guint c = 0; c < cols; c++)
        latent_json_add_double (builder, values[(gsize) r * cols + c]);
      json_builder_end_array (builder);
    }
  json_builder_end_array (builder);
}

void
latent_json_add_matrix_member (JsonBuilder *builder,
                               const char  *name,
                               const float *values,
                               guint        rows,
                               guint        cols)
{
  json_builder_set_member_name (builder, name);
  latent_json_add_matrix (builder, values, rows, cols);
}

gboolean
latent_json_read_numbers (JsonNode *node,
                          double   *out,
                          guint     count)
{
  guint filled = 0;
  gboolean rest;
  GQueue todo = G_QUEUE_INIT;

  /* Depth first with a queue, not recursion: nesting cannot exhaust the stack. */
  g_queue_push_tail (&todo, node);
  while (!g_queue_is_empty (&todo))
    {
      JsonNode *n = g_queue_pop_head (&todo);

      if (n && JSON_NODE_HOLDS_ARRAY (n))
        {
          JsonArray *a = json_node_get_array (n);

          for (guint i = json_array_get_length (a); i > 0; i--)
            g_queue_push_head (&todo, json_array_get_element (a, i - 1));
        }
      else if (n && JSON_NODE_HOLDS_VALUE (n) && filled < count &&
               (json_node_get_value_type (n) == G_TYPE_DOUBLE || json_node_get_value_type (n) == G_TYPE_INT64) &&
               isfinite (json_node_get_double (n)))
        out[filled++] = json_node_get_double (n);
      else
        break;
    }
  rest = !g_queue_is_empty (&todo);
  g_queue_clear (&todo);
  return filled == count && !rest;
}

guint
latent_json_array_length (JsonObject *object,
                          const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  return node && JSON_NODE_HOLDS_ARRAY (node) ? json_array_get_length (json_node_get_array (node)) : 0;
}

float *
latent_json_read_floats (JsonObject  *object,
                         const char  *name,
                         gsize        count,
                         const char  *path,
                         GError     **error)
{
  g_autofree double *values = NULL;
  float *out;

  if (count == 0 || count > G_MAXUINT / 2 || !json_object_has_member (object, name) ||
      !(values = g_try_new (double, count)) ||
      !latent_json_read_numbers (json_object_get_member (object, name), values, count))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: “%s” must hold %lu finite numbers"), path, name, (unsigned long) count);
      return NULL;
    }
  out = g_new (float, count);
  for (gsize i = 0; i < count; i++)
    {
      if (fabs (values[i]) > G_MAXFLOAT)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("%s: “%s” holds %g, too large for single precision"), path, name, values[i]);
          g_free (out);
          return NULL;
        }
      out[i] = values[i];
    }
  return out;
}

/* What json-glib cannot be trusted with, before it parses: nesting deeper
 * than @max (its parser recurses) and integers beyond 64 bits (it reads
 * them as −1 or wraps them). The line of the first such, or 0. */
static guint
unsafe_line (const char  *text,
             gsize        length,
             guint        max,
             gboolean    *deep)
{
  gboolean in_string = FALSE;
  guint depth = 0, line = 1;

  for (gsize i = 0; i < length; i++)
    {
      const char c = text[i];

      if (c == '\n')
        line++;
      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
        }
      else if (c == '"')
        in_string = TRUE;
      else if ((c == '[' || c == '{') && ++depth > max)
        return *deep = TRUE, line;
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
      else if (g_ascii_isdigit (c))
        {
          gsize digits = 0;
          gboolean whole = TRUE;

          /* The whole number token: 18 digits always fit, and a fraction or
           * an exponent makes it a double, which json-glib reads well. */
          for (; i < length && text[i] && (g_ascii_isdigit (text[i]) || strchr (".eE+-", text[i])); i++)
            if (g_ascii_isdigit (text[i]))
              digits++;
            else
              whole = FALSE;
          if (whole && digits > 18)
            return *deep = FALSE, line;
          i--;
        }
    }
  return 0;
}

JsonParser *
latent_json_load_file (const char  *path,
                       gsize        max_bytes,
                       const char  *what,
                       GError     **error)
{
  g_autoptr(GBytes) bytes = latent_file_read (path, max_bytes, what, error);
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *display = NULL;
  const char *text;
  gsize length;
  gboolean deep = FALSE;
  guint line;

  if (bytes == NULL)
    return NULL;
  display = g_filename_display_name (path);
  text = g_bytes_get_data (bytes, &length);
  if ((line = unsafe_line (text, length, LATENT_JSON_MAX_DEPTH, &deep)) > 0)
    {
      if (deep)
        g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                     _("%s:%u: nested more than %d levels deep; this is not %s"), display, line,
                     LATENT_JSON_MAX_DEPTH, what);
      else
        g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                     _("%s:%u: a whole number of more than 18 digits, too large to read"), display, line);
      return NULL;
    }
  parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, text, length, &local_error))
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE, "%s: %s", display, local_error->message);
      return NULL;
    }
  if (json_parser_get_root (parser) == NULL)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_EMPTY, _("%s: empty file"), display);
      return NULL;
    }
  return g_steal_pointer (&parser);
}

gboolean
latent_json_write_file (JsonNode    *root,
                        gboolean     pretty,
                        const char  *path,
                        GError     **error)
{
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autofree char *text = NULL;
  gsize length = 0;

  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, pretty);
  text = json_generator_to_data (gen, &length);
  return latent_save_file_contents (path, text, length, error);
}
