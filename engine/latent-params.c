/* latent-params.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-params"

#include "latent-params.h"

#include "latent-json.h"

#include <glib/gi18n-lib.h>
#include <math.h>

struct _LatentParams
{
  const LatentParamSpec *specs;
  guint                  n_specs;
  double                *numbers;  /* INT, DOUBLE, BOOL */
  char                 **choices;  /* CHOICE */
};

G_DEFINE_QUARK (latent-param-error-quark, latent_param_error)

static void
latent_params_clear (LatentParams *self)
{
  for (guint i = 0; i < self->n_specs; i++)
    g_free (self->choices[i]);
  g_free (self->choices);
  g_free (self->numbers);
}

LatentParams *
latent_params_new (const LatentParamSpec *specs,
                   guint                  n_specs)
{
  LatentParams *self = g_atomic_rc_box_new0 (LatentParams);

  self->specs = specs;
  self->n_specs = n_specs;
  self->numbers = g_new0 (double, n_specs);
  self->choices = g_new0 (char *, n_specs);
  for (guint i = 0; i < n_specs; i++)
    {
      self->numbers[i] = specs[i].default_value;
      self->choices[i] = g_strdup (specs[i].default_choice);
    }
  return self;
}

LatentParams *
latent_params_ref (LatentParams *self)
{
  return g_atomic_rc_box_acquire (self);
}

void
latent_params_unref (LatentParams *self)
{
  g_atomic_rc_box_release_full (self, (GDestroyNotify) latent_params_clear);
}

LatentParams *
latent_params_copy (LatentParams *self)
{
  LatentParams *copy = latent_params_new (self->specs, self->n_specs);

  for (guint i = 0; i < self->n_specs; i++)
    {
      copy->numbers[i] = self->numbers[i];
      g_free (copy->choices[i]);
      copy->choices[i] = g_strdup (self->choices[i]);
    }
  return copy;
}

guint
latent_params_get_n_specs (LatentParams *self)
{
  return self->n_specs;
}

const LatentParamSpec *
latent_params_get_spec (LatentParams *self,
                        guint         i)
{
  g_return_val_if_fail (i < self->n_specs, NULL);
  return &self->specs[i];
}

static int
find_spec (LatentParams *self,
           const char   *name)
{
  for (guint i = 0; i < self->n_specs; i++)
    if (g_str_equal (self->specs[i].name, name))
      return i;
  for (guint i = 0; i < self->n_specs; i++)
    if (self->specs[i].renamed_from && g_str_equal (self->specs[i].renamed_from, name))
      return i;
  return -1;
}

static gsize
field_size (LatentParamType type)
{
  switch (type)
    {
    case LATENT_PARAM_INT: return sizeof (gint64);
    case LATENT_PARAM_DOUBLE: return sizeof (double);
    case LATENT_PARAM_BOOL: return sizeof (gboolean);
    case LATENT_PARAM_CHOICE: return sizeof (const char *);
    default: g_assert_not_reached ();
    }
}

void
latent_params_read_sized (LatentParams *self,
                          gpointer      out,
                          gsize         size)
{
  g_return_if_fail (self != NULL && out != NULL);

  for (guint i = 0; i < self->n_specs; i++)
    g_return_if_fail (self->specs[i].typed && self->specs[i].offset + field_size (self->specs[i].type) <= size);
  for (guint i = 0; i < self->n_specs; i++)
    {
      const LatentParamSpec *spec = &self->specs[i];
      gpointer field = (guint8 *) out + spec->offset;

      switch (spec->type)
        {
        case LATENT_PARAM_INT:
          *(gint64 *) field = (gint64) self->numbers[i];
          break;
        case LATENT_PARAM_DOUBLE:
          *(double *) field = self->numbers[i];
          break;
        case LATENT_PARAM_BOOL:
          *(gboolean *) field = self->numbers[i] != 0;
          break;
        case LATENT_PARAM_CHOICE:
          *(const char **) field = self->choices[i];
          break;
        default:
          g_assert_not_reached ();
        }
    }
}

gboolean
latent_params_has (LatentParams *self,
                   const char   *name)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  return find_spec (self, name) >= 0;
}

const char *
latent_params_find_role (LatentParams    *self,
                         LatentParamRole  role)
{
  g_return_val_if_fail (self != NULL, NULL);

  for (guint i = 0; i < self->n_specs; i++)
    if (self->specs[i].role == role)
      return self->specs[i].name;
  return NULL;
}

static char *
known_names (LatentParams *self)
{
  g_autoptr(GString) s = g_string_new (NULL);

  for (guint i = 0; i < self->n_specs; i++)
    g_string_append_printf (s, "%s%s", i ? ", " : "", self->specs[i].name);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static int
find_spec_or_fail (LatentParams  *self,
                   const char    *name,
                   GError       **error)
{
  int i = find_spec (self, name);

  if (i < 0)
    {
      g_autofree char *names = known_names (self);
      g_set_error (error, LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_UNKNOWN,
                   _("unknown parameter “%s” (known: %s)"), name, names);
    }
  return i;
}

/* The one place a number is held against its parameter's bounds. */
static gboolean
set_number (LatentParams  *self,
            int            i,
            double         number,
            const char    *text,
            GError       **error)
{
  const LatentParamSpec *spec = &self->specs[i];

  if (spec->type == LATENT_PARAM_INT && number != floor (number))
    {
      g_set_error (error, LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_INVALID,
                   _("parameter %s: “%s” is not a whole number"), spec->name, text);
      return FALSE;
    }
  if (number < spec->min || number > spec->max)
    {
      g_set_error (error, LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_INVALID,
                   _("parameter %s: %s is outside [%g, %g]"), spec->name, text, spec->min, spec->max);
      return FALSE;
    }
  self->numbers[i] = number;
  return TRUE;
}

static gboolean
set_typed (LatentParams     *self,
           const char       *name,
           LatentParamType   type,
           double            number,
           GError          **error)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];
  int i = find_spec_or_fail (self, name, error);

  if (i < 0)
    return FALSE;
  /* A caller's mistake, not a person's. */
  g_return_val_if_fail (self->specs[i].type == type, FALSE);
  g_ascii_formatd (text, sizeof text, "%.17g", number);
  return set_number (self, i, number, text, error);
}

gboolean
latent_params_set_int (LatentParams  *self,
                       const char    *name,
                       gint64         value,
                       GError       **error)
{
  return set_typed (self, name, LATENT_PARAM_INT, (double) value, error);
}

gboolean
latent_params_set_double (LatentParams  *self,
                          const char    *name,
                          double         value,
                          GError       **error)
{
  if (!isfinite (value))
    {
      g_set_error (error, LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_INVALID,
                   _("parameter %s: “%g” is not a number"), name, value);
      return FALSE;
    }
  return set_typed (self, name, LATENT_PARAM_DOUBLE, value, error);
}

gboolean
latent_params_set_bool (LatentParams  *self,
                        const char    *name,
                        gboolean       value,
                        GError       **error)
{
  int i = find_spec_or_fail (self, name, error);

  if (i < 0)
    return FALSE;
  g_return_val_if_fail (self->specs[i].type == LATENT_PARAM_BOOL, FALSE);
  self->numbers[i] = value ? 1 : 0;
  return TRUE;
}

gboolean
latent_params_get_range (LatentParams *self,
                         const char   *name,
                         double       *min,
                         double       *max)
{
  int i = find_spec (self, name);

  if (i < 0 || (self->specs[i].type != LATENT_PARAM_INT && self->specs[i].type != LATENT_PARAM_DOUBLE))
    return FALSE;
  *min = self->specs[i].min;
  *max = self->specs[i].max;
  return TRUE;
}

gboolean
latent_params_set (LatentParams  *self,
                   const char    *name,
                   const char    *value,
                   GError       **error)
{
  const LatentParamSpec *spec;
  int i = find_spec_or_fail (self, name, error);
  char *end = NULL;
  double number;

  if (i < 0)
    return FALSE;
  spec = &self->specs[i];
  value = value ? value : "";

  switch (spec->type)
    {
    case LATENT_PARAM_INT:
    case LATENT_PARAM_DOUBLE:
      number = g_ascii_strtod (value, &end);
      if (*value == '\0' || end == NULL || *end != '\0' || !isfinite (number))
        {
          g_set_error (error, LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_INVALID,
                       _("parameter %s: “%s” is not a number"), name, value);
          return FALSE;
        }
      return set_number (self, i, number, value, error);

    case LATENT_PARAM_BOOL:
      if (g_str_equal (value, "true") || g_str_equal (value, "1") || g_str_equal (value, "yes"))
        self->numbers[i] = 1;
      else if (g_str_equal (value, "false") || g_str_equal (value, "0") || g_str_equal (value, "no"))
        self->numbers[i] = 0;
      else
        {
          g_set_error (error, LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_INVALID,
                       _("parameter %s: “%s” is not true or false"), name, value);
          return FALSE;
        }
      return TRUE;

    case LATENT_PARAM_CHOICE:
      if ((spec->allow_file && value[0] == '@' && value[1] != '\0') ||
          (spec->choices && g_strv_contains ((const char * const *) spec->choices, value)))
        {
          g_free (self->choices[i]);
          self->choices[i] = g_strdup (value);
          return TRUE;
        }
      else
        {
          g_autofree char *list = g_strjoinv ("|", (char **) spec->choices);
          g_set_error (error, LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_INVALID,
                       _("parameter %s: “%s” is not one of %s%s"), name, value, list,
                       spec->allow_file ? "|@FILE" : "");
          return FALSE;
        }
    default:
      g_assert_not_reached ();
    }
}

gboolean
latent_params_parse (LatentParams  *self,
                     const char    *assignment,
                     GError       **error)
{
  const char *eq = strchr (assignment, '=');
  g_autofree char *name = NULL;

  if (eq == NULL || eq == assignment)
    {
      g_set_error (error, LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_INVALID,
                   _("parameter “%s”: expected NAME=VALUE"), assignment);
      return FALSE;
    }
  name = g_strndup (assignment, eq - assignment);
  return latent_params_set (self, name, eq + 1, error);
}

static int
lookup (LatentParams    *self,
        const char      *name,
        LatentParamType  type)
{
  int i = find_spec (self, name);

  if (i < 0 || self->specs[i].type != type)
    g_error ("parameter %s of that type is not declared", name);
  return i;
}

gint64
latent_params_get_int (LatentParams *self,
                       const char   *name)
{
  return (gint64) self->numbers[lookup (self, name, LATENT_PARAM_INT)];
}

double
latent_params_get_double (LatentParams *self,
                          const char   *name)
{
  return self->numbers[lookup (self, name, LATENT_PARAM_DOUBLE)];
}

gboolean
latent_params_get_bool (LatentParams *self,
                        const char   *name)
{
  return self->numbers[lookup (self, name, LATENT_PARAM_BOOL)] != 0;
}

const char *
latent_params_get_choice (LatentParams *self,
                          const char   *name)
{
  return self->choices[lookup (self, name, LATENT_PARAM_CHOICE)];
}

static char *
value_to_string (LatentParams *self,
                 guint         i)
{
  switch (self->specs[i].type)
    {
    case LATENT_PARAM_INT:
      return g_strdup_printf ("%" G_GINT64_FORMAT, (gint64) self->numbers[i]);
    case LATENT_PARAM_DOUBLE:
      {
        char buf[G_ASCII_DTOSTR_BUF_SIZE];
        return g_strdup (g_ascii_dtostr (buf, sizeof buf, self->numbers[i]));
      }
    case LATENT_PARAM_BOOL:
      return g_strdup (self->numbers[i] != 0 ? "true" : "false");
    case LATENT_PARAM_CHOICE:
      return g_strdup (self->choices[i]);
    default:
      g_assert_not_reached ();
    }
}

gboolean
latent_params_applies (LatentParams          *self,
                       const LatentParamSpec *spec)
{
  g_auto(GStrv) condition = NULL;
  g_auto(GStrv) values = NULL;
  g_autofree char *value = NULL;
  int i;

  if (spec->applies_when == NULL)
    return TRUE;
  condition = g_strsplit (spec->applies_when, "=", 2);
  i = find_spec (self, condition[0]);
  g_return_val_if_fail (i >= 0 && condition[1] != NULL, TRUE);
  value = value_to_string (self, i);
  values = g_strsplit (condition[1], "|", -1);
  return g_strv_contains ((const char * const *) values, value);
}

char *
latent_params_to_string (LatentParams *self)
{
  g_autoptr(GString) s = g_string_new (NULL);

  for (guint i = 0; i < self->n_specs; i++)
    {
      g_autofree char *v = value_to_string (self, i);
      g_string_append_printf (s, "%s%s=%s", i ? " " : "", self->specs[i].name, v);
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

JsonNode *
latent_params_to_json (LatentParams *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  for (guint i = 0; i < self->n_specs; i++)
    {
      json_builder_set_member_name (b, self->specs[i].name);
      switch (self->specs[i].type)
        {
        case LATENT_PARAM_INT:
          json_builder_add_int_value (b, (gint64) self->numbers[i]);
          break;
        case LATENT_PARAM_DOUBLE:
          latent_json_add_double (b, self->numbers[i]);
          break;
        case LATENT_PARAM_BOOL:
          json_builder_add_boolean_value (b, self->numbers[i] != 0);
          break;
        case LATENT_PARAM_CHOICE:
          json_builder_add_string_value (b, self->choices[i]);
          break;
        }
    }
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

gboolean
latent_params_set_from_json (LatentParams  *self,
                             JsonObject    *object,
                             GError       **error)
{
  g_autoptr(GList) members = json_object_get_members (object);

  for (GList *l = members; l; l = l->next)
    {
      const char *name = l->data;
      JsonNode *node = json_object_get_member (object, name);
      g_autofree char *text = NULL;

      if (!JSON_NODE_HOLDS_VALUE (node))
        {
          g_set_error (error, LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_INVALID,
                       _("parameter %s: expected a number, string or boolean"), name);
          return FALSE;
        }
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_INT64:
          text = g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
          break;
        case G_TYPE_DOUBLE:
          {
            char buf[G_ASCII_DTOSTR_BUF_SIZE];
            text = g_strdup (g_ascii_dtostr (buf, sizeof buf, json_node_get_double (node)));
          }
          break;
        case G_TYPE_BOOLEAN:
          text = g_strdup (json_node_get_boolean (node) ? "true" : "false");
          break;
        default:
          text = g_strdup (json_node_get_string (node));
          break;
        }
      if (!latent_params_set (self, name, text, error))
        return FALSE;
    }
  return TRUE;
}
