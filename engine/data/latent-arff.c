/* latent-arff.c — Weka's Attribute-Relation File Format
 *
 * A header of @relation and @attribute lines, then @data: one row per
 * line, values separated by commas (quoted with ' or " where they hold
 * commas or spaces), or sparse rows "{index value, …}" whose unlisted
 * attributes are 0 (a nominal's first value). '%' starts a comment line.
 * The import choices of a table (latent-csv.h) apply: the class, the
 * attributes left out, missing values (?) refused, dropped or filled, the
 * numeric columns standardised.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-arff"

#include "latent-arff.h"
#include "latent-csv.h"
#include "latent-file.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

typedef enum {
  ATTR_NUMERIC,
  ATTR_NOMINAL,
  ATTR_LEFT_OUT,    /* string, date: not a number of a row */
} AttrKind;

typedef struct {
  char      *name;
  AttrKind   kind;
  GPtrArray *values;      /* a nominal's, in declared order */
  guint      column;      /* its first column in the dataset */
} Attr;

typedef struct {
  const char *what;
  const char *p, *end;    /* what is left of the file */
  const char *line, *eol; /* the current line */
  guint       line_number;
  GArray     *attrs;      /* Attr */
  gint        klass;      /* the class attribute, or −1 */
  guint       n_cols;
  const LatentCsvOptions *options;
  gboolean    missing;    /* a value was missing (NaN in its columns) */
} Reader;

static void
attr_clear (gpointer data)
{
  Attr *attr = data;

  g_free (attr->name);
  g_clear_pointer (&attr->values, g_ptr_array_unref);
}

/* The next line that is neither blank nor a comment; FALSE at the end. */
static gboolean
next_line (Reader *r)
{
  while (r->p < r->end)
    {
      const char *nl = memchr (r->p, '\n', r->end - r->p);
      const char *start = r->p;

      r->eol = nl ? nl : r->end;
      r->p = nl ? nl + 1 : r->end;
      r->line_number++;
      while (r->eol > start && (r->eol[-1] == '\r' || g_ascii_isspace (r->eol[-1])))
        r->eol--;
      while (start < r->eol && g_ascii_isspace (*start))
        start++;
      if (start < r->eol && *start != '%')
        {
          r->line = start;
          return TRUE;
        }
    }
  return FALSE;
}

static void
skip_space (const char **p,
            const char  *end)
{
  while (*p < end && g_ascii_isspace (**p))
    (*p)++;
}

/* A value at *p: quoted ('…' or "…", with backslash escapes) or bare, up to
 * a comma, a brace, white space (@stop_at_space) or the end. NULL for a
 * quote that does not close. */
static char *
next_token (const char **p,
            const char  *end,
            gboolean     stop_at_space,
            gboolean    *quoted)
{
  GString *text = g_string_new (NULL);

  skip_space (p, end);
  *quoted = *p < end && (**p == '\'' || **p == '"');
  if (*quoted)
    {
      const char quote = *(*p)++;

      while (*p < end && **p != quote)
        {
          if (**p == '\\' && *p + 1 < end)
            (*p)++;
          g_string_append_c (text, *(*p)++);
        }
      if (*p >= end)
        {
          g_string_free (text, TRUE);
          return NULL;
        }
      (*p)++;
    }
  else
    {
      while (*p < end && **p != ',' && **p != '{' && **p != '}'
             && !(stop_at_space && g_ascii_isspace (**p)))
        g_string_append_c (text, *(*p)++);
      while (text->len > 0 && g_ascii_isspace (text->str[text->len - 1]))
        g_string_truncate (text, text->len - 1);
    }
  return g_string_free (text, FALSE);
}

static gboolean
line_error (Reader      *r,
            GError     **error,
            int          code,
            const char  *format,
            ...) G_GNUC_PRINTF (4, 5);

static gboolean
line_error (Reader      *r,
            GError     **error,
            int          code,
            const char  *format,
            ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, LATENT_DATA_ERROR, code, "%s:%u: %s", r->what, r->line_number, message);
  return FALSE;
}

static gboolean
starts_with_keyword (const char *line,
                     const char *eol,
                     const char *keyword)
{
  gsize n = strlen (keyword);

  return (gsize) (eol - line) >= n && g_ascii_strncasecmp (line, keyword, n) == 0
         && ((gsize) (eol - line) == n || g_ascii_isspace (line[n]) || line[n] == '{');
}

/* @attribute NAME TYPE */
static gboolean
parse_attribute (Reader  *r,
                 GError **error)
{
  const char *p = r->line + strlen ("@attribute");
  g_autofree char *type = NULL;
  gboolean quoted;
  Attr attr = { 0 };

  attr.name = next_token (&p, r->eol, TRUE, &quoted);
  if (attr.name == NULL || attr.name[0] == '\0')
    {
      g_free (attr.name);
      return line_error (r, error, LATENT_DATA_ERROR_PARSE, _("an attribute without a name"));
    }
  /* Names reach messages and column names: a Latin-1 file's too. */
  if (!g_utf8_validate (attr.name, -1, NULL))
    {
      char *valid = g_utf8_make_valid (attr.name, -1);

      g_free (attr.name);
      attr.name = valid;
    }
  skip_space (&p, r->eol);
  if (p < r->eol && *p == '{')
    {
      attr.kind = ATTR_NOMINAL;
      attr.values = g_ptr_array_new_with_free_func (g_free);
      p++;
      for (;;)
        {
          char *value = next_token (&p, r->eol, FALSE, &quoted);

          if (value == NULL)
            {
              attr_clear (&attr);
              return line_error (r, error, LATENT_DATA_ERROR_PARSE, _("a quote that does not close"));
            }
          if (value[0] != '\0' || quoted)
            g_ptr_array_add (attr.values, value);   /* compared as bytes; shown made valid */
          else
            g_free (value);
          skip_space (&p, r->eol);
          if (p < r->eol && *p == ',')
            p++;
          else if (p < r->eol && *p == '}')
            break;
          else
            {
              g_autofree char *name = g_strdup (attr.name);

              attr_clear (&attr);
              return line_error (r, error, LATENT_DATA_ERROR_PARSE,
                                 _("attribute “%s”: its list of values does not end with }"), name);
            }
        }
      if (attr.values->len == 0 || attr.values->len > 65536)
        {
          g_autofree char *name = g_strdup (attr.name);

          attr_clear (&attr);
          return line_error (r, error, LATENT_DATA_ERROR_PARSE,
                             _("attribute “%s”: a nominal attribute has 1 to 65,536 values"), name);
        }
    }
  else
    {
      type = next_token (&p, r->eol, TRUE, &quoted);
      if (type != NULL && (g_ascii_strcasecmp (type, "numeric") == 0 || g_ascii_strcasecmp (type, "real") == 0
                           || g_ascii_strcasecmp (type, "integer") == 0))
        attr.kind = ATTR_NUMERIC;
      else if (type != NULL && (g_ascii_strcasecmp (type, "string") == 0 || g_ascii_strcasecmp (type, "date") == 0))
        attr.kind = ATTR_LEFT_OUT;
      else
        {
          g_autofree char *name = g_steal_pointer (&attr.name);

          return line_error (r, error, LATENT_DATA_ERROR_UNSUPPORTED,
                             _("attribute “%s”: type “%s” is not read (numeric, real, integer, "
                               "{nominal values}, string and date are)"), name, type ? type : "");
        }
    }
  g_array_append_val (r->attrs, attr);
  return TRUE;
}

static gboolean
parse_header (Reader  *r,
              GError **error)
{
  while (next_line (r))
    {
      if (starts_with_keyword (r->line, r->eol, "@relation"))
        continue;
      if (starts_with_keyword (r->line, r->eol, "@attribute"))
        {
          if (r->attrs->len == 65536)
            return line_error (r, error, LATENT_DATA_ERROR_TOO_LARGE, _("more than 65,536 attributes"));
          if (!parse_attribute (r, error))
            return FALSE;
          continue;
        }
      if (starts_with_keyword (r->line, r->eol, "@data"))
        return TRUE;
      {
        g_autofree char *text = g_strndup (r->line, MIN (r->eol - r->line, 40));

        return line_error (r, error, LATENT_DATA_ERROR_PARSE,
                           _("“%s” is not an ARFF header line (@relation, @attribute or @data)"), text);
      }
    }
  g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
               _("%s: not an ARFF file (no @data line)"), r->what);
  return FALSE;
}

/* An attribute by name, or by number from 1; −1 naming it in @error. */
static gint
find_attribute (Reader      *r,
                const char  *name,
                const char  *option,
                GError     **error)
{
  guint64 number;

  for (guint i = 0; i < r->attrs->len; i++)
    if (g_str_equal (g_array_index (r->attrs, Attr, i).name, name))
      return i;
  if (r->attrs->len > 0 && g_ascii_string_to_unsigned (name, 10, 1, r->attrs->len, &number, NULL))
    return number - 1;
  /* Translators: the file, the option (label, ignore), the attribute */
  g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID, _("%s: %s=%s: no such attribute (1 to %u, or a name)"),
               r->what, option, name, r->attrs->len);
  return -1;
}

/* The class (chosen, or a nominal attribute named "class", or else the
 * last when nominal), the attributes left out, the columns and their
 * names. */
static GStrv
lay_out (Reader  *r,
         GError **error)
{
  const LatentCsvOptions *options = r->options;
  GPtrArray *names = NULL;

  r->klass = -1;
  for (guint i = 0; options->ignore && options->ignore[i]; i++)
    {
      gint at = find_attribute (r, options->ignore[i], "ignore", error);

      if (at < 0)
        return NULL;
      g_array_index (r->attrs, Attr, at).kind = ATTR_LEFT_OUT;
      if (options->report)
        options->report->columns_ignored++;
    }
  if (options->label_column && g_ascii_strcasecmp (options->label_column, "none") != 0)
    {
      Attr *a;

      if ((r->klass = find_attribute (r, options->label_column, "label", error)) < 0)
        return NULL;
      a = &g_array_index (r->attrs, Attr, r->klass);
      if (a->kind != ATTR_NOMINAL)
        {
          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                       _("%s: label=%s: the attribute “%s” is not nominal, so it names no classes"),
                       r->what, options->label_column, a->name);
          return NULL;
        }
    }
  else if (options->label_column == NULL)
    {
      for (guint i = 0; i < r->attrs->len && r->klass < 0; i++)
        {
          Attr *a = &g_array_index (r->attrs, Attr, i);

          if (a->kind == ATTR_NOMINAL && g_ascii_strcasecmp (a->name, "class") == 0)
            r->klass = i;
        }
      if (r->klass < 0 && r->attrs->len > 0
          && g_array_index (r->attrs, Attr, r->attrs->len - 1).kind == ATTR_NOMINAL)
        r->klass = r->attrs->len - 1;
    }

  names = g_ptr_array_new ();

  for (guint i = 0; i < r->attrs->len; i++)
    {
      Attr *a = &g_array_index (r->attrs, Attr, i);

      a->column = names->len;
      if ((gint) i == r->klass || a->kind == ATTR_LEFT_OUT)
        continue;
      if (a->kind == ATTR_NUMERIC)
        g_ptr_array_add (names, g_strdup (a->name));
      else
        {
          for (guint v = 0; v < a->values->len; v++)
            g_ptr_array_add (names, g_strdup_printf ("%s=%s", a->name, (char *) g_ptr_array_index (a->values, v)));
          if (options->report)
            options->report->columns_one_hot++;
        }
    }
  r->n_cols = names->len;
  g_ptr_array_add (names, NULL);
  if (r->n_cols == 0)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_EMPTY,
                   _("%s: no numeric or nominal attribute besides the class"), r->what);
      g_strfreev ((GStrv) g_ptr_array_free (names, FALSE));
      return NULL;
    }
  return (GStrv) g_ptr_array_free (names, FALSE);
}

/* Attribute @a's value @text into @row (and the class into @label). */
static gboolean
set_value (Reader      *r,
           guint        index,
           const char  *text,
           gboolean     quoted,
           float       *row,
           gint32      *label,
           GError     **error)
{
  Attr *a = &g_array_index (r->attrs, Attr, index);

  if (a->kind == ATTR_LEFT_OUT)
    return TRUE;
  if (!quoted && g_str_equal (text, "?"))
    {
      if (r->options->missing == LATENT_CSV_MISSING_REFUSE)
        return line_error (r, error, LATENT_DATA_ERROR_VALUE,
                           _("attribute “%s”: missing value (?; missing=drop leaves its row out, "
                             "missing=mean fills it in)"), a->name);
      /* Marked, then dropped or filled once every row is in. */
      r->missing = TRUE;
      if ((gint) index == r->klass)
        *label = -1;
      else
        for (guint k = 0; k < (a->kind == ATTR_NUMERIC ? 1 : a->values->len); k++)
          row[a->column + k] = NAN;
      return TRUE;
    }
  if (a->kind == ATTR_NUMERIC)
    {
      char *end = NULL;
      double value = g_ascii_strtod (text, &end);

      if (text[0] == '\0' || end == NULL || *end != '\0')
        return line_error (r, error, LATENT_DATA_ERROR_PARSE, _("attribute “%s”: “%s” is not a number"),
                           a->name, text);
      if (!isfinite (value) || fabs (value) > G_MAXFLOAT)
        return line_error (r, error, LATENT_DATA_ERROR_NOT_FINITE,
                           _("attribute “%s”: not a finite number (%s)"), a->name, text);
      row[a->column] = value;
      return TRUE;
    }
  for (guint v = 0; v < a->values->len; v++)
    if (g_str_equal (g_ptr_array_index (a->values, v), text))
      {
        if ((gint) index == r->klass)
          *label = v;
        else
          {
            for (guint k = 0; k < a->values->len; k++)
              row[a->column + k] = 0;
            row[a->column + v] = 1;
          }
        return TRUE;
      }
  return line_error (r, error, LATENT_DATA_ERROR_PARSE, _("attribute “%s”: “%s” is not one of its values"),
                     a->name, text);
}

/* A row's defaults: what a sparse row leaves out (0, a nominal's first value). */
static void
set_defaults (Reader *r,
              float  *row,
              gint32 *label)
{
  memset (row, 0, sizeof (float) * r->n_cols);
  *label = 0;
  for (guint i = 0; i < r->attrs->len; i++)
    {
      Attr *a = &g_array_index (r->attrs, Attr, i);

      if (a->kind == ATTR_NOMINAL && (gint) i != r->klass)
        row[a->column] = 1;
    }
}

static gboolean
parse_row (Reader  *r,
           float   *row,
           gint32  *label,
           GError **error)
{
  const char *p = r->line;
  gboolean sparse = *p == '{', quoted;

  set_defaults (r, row, label);
  if (sparse)
    p++;
  for (guint i = 0;; i++)
    {
      g_autofree char *text = NULL;
      guint index = i;

      skip_space (&p, r->eol);
      if (sparse && p < r->eol && *p == '}')
        break;
      if (sparse)
        {
          g_autofree char *digits = NULL;
          const char *start = p;
          guint64 at;

          while (p < r->eol && g_ascii_isdigit (*p))
            p++;
          digits = g_strndup (start, p - start);
          if (p == start || !g_ascii_string_to_unsigned (digits, 10, 0, r->attrs->len - 1, &at, NULL))
            return line_error (r, error, LATENT_DATA_ERROR_PARSE,
                               _("a sparse row's attribute index must be 0 to %u"), r->attrs->len - 1);
          index = at;
        }
      else if (index >= r->attrs->len)
        return line_error (r, error, LATENT_DATA_ERROR_PARSE,
                           _("more values than the %u attributes of the header"), r->attrs->len);
      text = next_token (&p, r->eol, sparse, &quoted);
      if (text == NULL)
        return line_error (r, error, LATENT_DATA_ERROR_PARSE, _("a quote that does not close"));
      if (!set_value (r, index, text, quoted, row, label, error))
        return FALSE;
      skip_space (&p, r->eol);
      if (p < r->eol && *p == ',')
        {
          p++;
          continue;
        }
      if (sparse && p < r->eol && *p == '}')
        break;
      if (!sparse && p >= r->eol)
        {
          if (i + 1 != r->attrs->len)
            return line_error (r, error, LATENT_DATA_ERROR_PARSE,
                               _("%u values; the header declares %u attributes"), i + 1, r->attrs->len);
          return TRUE;
        }
      return line_error (r, error, LATENT_DATA_ERROR_PARSE,
                         _("a value is followed by “%c”, not a comma"), p < r->eol ? *p : ' ');
    }
  skip_space (&p, r->eol);
  p++;
  skip_space (&p, r->eol);
  if (p < r->eol)
    return line_error (r, error, LATENT_DATA_ERROR_UNSUPPORTED,
                       _("something after a sparse row's } (instance weights are not read)"));
  return TRUE;
}

/* Rows with a missing value left out (missing=drop), or every row whose
 * class is missing; the rest filled with their column's mean
 * (missing=mean); numeric columns standardised. Returns the rows kept. */
static gboolean
finish_values (Reader   *r,
               GArray   *values,
               GArray   *labels,
               guint    *n_rows,
               GError  **error)
{
  const LatentCsvOptions *options = r->options;
  const guint d = r->n_cols;
  float *v = (float *) values->data;
  gint32 *y = (gint32 *) labels->data;
  guint kept = 0, dropped = 0, filled = 0;

  for (guint i = 0; i < *n_rows; i++)
    {
      gboolean any = y[i] < 0;

      for (guint j = 0; j < d && !any && options->missing == LATENT_CSV_MISSING_DROP; j++)
        any = isnan (v[(gsize) i * d + j]);
      if (any)
        {
          dropped++;
          continue;
        }
      if (kept != i)
        {
          memmove (v + (gsize) kept * d, v + (gsize) i * d, sizeof (float) * d);
          y[kept] = y[i];
        }
      kept++;
    }
  if (kept == 0)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_EMPTY,
                   _("%s: every row has a missing value (or a missing class), so none is left"), r->what);
      return FALSE;
    }
  g_array_set_size (values, (gsize) kept * d);
  g_array_set_size (labels, kept);
  v = (float *) values->data;
  for (guint j = 0; j < d; j++)
    {
      double sum = 0;
      guint count = 0;

      for (guint i = 0; i < kept; i++)
        if (!isnan (v[(gsize) i * d + j]))
          {
            sum += v[(gsize) i * d + j];
            count++;
          }
      if (count == 0)
        {
          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_EMPTY,
                       _("%s: column %u has no values, only missing ones"), r->what, j + 1);
          return FALSE;
        }
      for (guint i = 0; i < kept; i++)
        if (isnan (v[(gsize) i * d + j]))
          {
            v[(gsize) i * d + j] = sum / count;
            filled++;
          }
    }
  if (options->standardise)
    for (guint a = 0; a < r->attrs->len; a++)
      {
        const Attr *attr = &g_array_index (r->attrs, Attr, a);
        double mean = 0, sum2 = 0, sd;

        if (attr->kind != ATTR_NUMERIC || (gint) a == r->klass)
          continue;
        for (guint i = 0; i < kept; i++)
          mean += v[(gsize) i * d + attr->column];
        mean /= kept;
        for (guint i = 0; i < kept; i++)
          sum2 += (v[(gsize) i * d + attr->column] - mean) * (v[(gsize) i * d + attr->column] - mean);
        sd = sqrt (sum2 / kept);
        for (guint i = 0; i < kept; i++)
          v[(gsize) i * d + attr->column] = sd > 0 ? (v[(gsize) i * d + attr->column] - mean) / sd : 0;
      }
  if (options->report)
    {
      options->report->rows_dropped = dropped;
      options->report->cells_filled = filled;
    }
  *n_rows = kept;
  return TRUE;
}

LatentDataset *
latent_arff_load_bytes (GBytes                  *bytes,
                        const char              *what,
                        const LatentCsvOptions  *options,
                        GError                 **error)
{
  static const LatentCsvOptions defaults = { NULL };
  g_autoptr(GArray) attrs = g_array_new (FALSE, TRUE, sizeof (Attr));
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (float));
  g_autoptr(GArray) labels = g_array_new (FALSE, FALSE, sizeof (gint32));
  g_autoptr(LatentDataset) dataset = NULL;
  g_auto(GStrv) column_names = NULL;
  g_autofree float *row = NULL;
  g_autofree char *name = NULL;
  gsize len;
  Reader r = { .what = what, .attrs = attrs, .options = options ? options : &defaults };
  guint n_rows = 0;

  g_return_val_if_fail (bytes != NULL && what != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  g_array_set_clear_func (attrs, attr_clear);
  r.p = g_bytes_get_data (bytes, &len);
  r.end = r.p + len;
  if (len == 0)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_EMPTY, _("%s: empty file"), what);
      return NULL;
    }
  if (!parse_header (&r, error) || (column_names = lay_out (&r, error)) == NULL)
    return NULL;

  row = g_new (float, r.n_cols);
  while (next_line (&r))
    {
      gint32 label;

      if ((guint64) (n_rows + 1) * r.n_cols > LATENT_DATASET_MAX_VALUES)
        {
          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
                       _("%s:%u: more than %llu values, the limit"), what, r.line_number,
                       (unsigned long long) LATENT_DATASET_MAX_VALUES);
          return NULL;
        }
      if (!parse_row (&r, row, &label, error))
        return NULL;
      g_array_append_vals (values, row, r.n_cols);
      g_array_append_val (labels, label);
      n_rows++;
    }
  if (n_rows == 0)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_EMPTY, _("%s: no rows after @data"), what);
      return NULL;
    }
  if ((r.missing || r.options->standardise) && !finish_values (&r, values, labels, &n_rows, error))
    return NULL;

  name = latent_file_stem (what);
  dataset = latent_dataset_new (name, n_rows, r.n_cols, error);
  if (dataset == NULL)
    return NULL;
  memcpy (latent_dataset_get_data (dataset), values->data, sizeof (float) * values->len);
  latent_dataset_set_column_names (dataset, column_names);
  latent_dataset_set_source (dataset, what);
  if (r.klass >= 0)
    {
      Attr *a = &g_array_index (attrs, Attr, r.klass);

      g_ptr_array_add (a->values, NULL);
      latent_dataset_set_labels (dataset, (gint32 *) labels->data, a->values->len - 1, (GStrv) a->values->pdata);
      g_ptr_array_remove_index (a->values, a->values->len - 1);
    }
  return g_steal_pointer (&dataset);
}

LatentDataset *
latent_arff_load (const char              *path,
                  const LatentCsvOptions  *options,
                  GError                 **error)
{
  g_autoptr(GBytes) bytes = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  bytes = latent_file_read (path, (gsize) 64 << 30, _("a table"), error);
  return bytes ? latent_arff_load_bytes (bytes, path, options, error) : NULL;
}

/* One data line as text: a dense row's values, or a sparse row's with the
 * others as the loader takes them (0, a nominal's first value). NULL when
 * the line does not read: a preview shows the rows before it. */
static GStrv
preview_row (Reader *r)
{
  g_autoptr(GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);
  const char *p = r->line;
  const gboolean sparse = *p == '{';
  gboolean quoted;

  if (sparse)
    {
      for (guint i = 0; i < r->attrs->len; i++)
        {
          const Attr *a = &g_array_index (r->attrs, Attr, i);

          g_ptr_array_add (cells, g_strdup (a->kind == ATTR_NOMINAL ? g_ptr_array_index (a->values, 0) :
                                            a->kind == ATTR_NUMERIC ? "0" : ""));
        }
      p++;
    }
  while (p < r->eol)
    {
      guint64 at = cells->len;
      char *text;

      skip_space (&p, r->eol);
      if (sparse && (p >= r->eol || *p == '}'))
        break;
      if (sparse)
        {
          char *end = NULL;

          at = g_ascii_strtoull (p, &end, 10);
          if (end == p || at >= r->attrs->len)
            return NULL;
          p = end;
        }
      if ((text = next_token (&p, r->eol, sparse, &quoted)) == NULL)
        return NULL;
      if (sparse)
        {
          g_free (g_ptr_array_index (cells, at));
          g_ptr_array_index (cells, at) = text;
        }
      else
        g_ptr_array_add (cells, text);
      skip_space (&p, r->eol);
      if (p < r->eol && *p == ',')
        p++;
      else if (!sparse || p >= r->eol || *p != '}')
        break;
    }
  g_ptr_array_add (cells, NULL);
  return (GStrv) g_ptr_array_free (g_steal_pointer (&cells), FALSE);
}

GPtrArray *
latent_arff_preview (const char  *path,
                     guint        max_records,
                     GError     **error)
{
  static const LatentCsvOptions defaults = { NULL };
  g_autoptr(GArray) attrs = g_array_new (FALSE, TRUE, sizeof (Attr));
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_autoptr(GStrvBuilder) names = g_strv_builder_new ();
  gsize len;
  Reader r = { .what = path, .attrs = attrs, .options = &defaults };

  g_return_val_if_fail (path != NULL, NULL);

  g_array_set_clear_func (attrs, attr_clear);
  if (!(bytes = latent_file_read (path, (gsize) 64 << 30, _("a table"), error)))
    return NULL;
  r.p = g_bytes_get_data (bytes, &len);
  r.end = r.p + len;
  if (!parse_header (&r, error))
    return NULL;
  for (guint i = 0; i < attrs->len; i++)
    g_strv_builder_add (names, g_array_index (attrs, Attr, i).name);
  g_ptr_array_add (records, g_strv_builder_end (names));
  while (records->len < max_records && next_line (&r))
    {
      GStrv row = preview_row (&r);

      if (row == NULL)
        break;
      g_ptr_array_add (records, row);
    }
  return g_steal_pointer (&records);
}
