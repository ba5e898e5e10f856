/* latent-csv.c — CSV/TSV reader: header detection, a label column, missing values
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-csv"

#include "latent-csv.h"
#include "latent-dataset-save.h"
#include "latent-file.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

/* Reading -------------------------------------------------------------- */

typedef struct {
  const char *what;        /* path or name, for messages */
  const char *p;
  const char *end;
  char        delim;
  guint       line;        /* line of *p, 1-based */
  guint       record_line; /* line where the current record starts */
  GString    *cells;       /* the record's cells, each NUL-terminated */
  GArray     *offsets;     /* guint: start of each cell in @cells */
  gsize       max_record;  /* bytes of cells a record may hold */
} CsvReader;

static void
csv_reader_init (CsvReader  *r,
                 const char *what,
                 const char *data,
                 gsize       len,
                 char        delim)
{
  r->what = what;
  r->p = data;
  r->end = data + len;
  r->delim = delim;
  r->line = 1;
  r->record_line = 0;
  r->cells = g_string_sized_new (256);
  r->offsets = g_array_new (FALSE, FALSE, sizeof (guint));
  /* Cells are found by guint offsets. LATENT_CSV_MAX_RECORD lowers the
   * limit so that tests reach it without gigabytes. */
  r->max_record = G_MAXUINT / 2;
  if (g_getenv ("LATENT_CSV_MAX_RECORD") != NULL)
    {
      guint64 max;

      if (g_ascii_string_to_unsigned (g_getenv ("LATENT_CSV_MAX_RECORD"), 10, 1, G_MAXUINT / 2, &max, NULL))
        r->max_record = max;
    }
}

/* Checked while a cell is read, before it grows: one 3 GiB cell read
 * whole doubled the buffer to 4 GiB (issue 35, 8). */
static gboolean
csv_record_fits (CsvReader  *r,
                 gsize       more,
                 GError    **error)
{
  if (more <= r->max_record && r->cells->len <= r->max_record - more)
    return TRUE;
  g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
               _("%s:%u: the record is too long"), r->what, r->record_line);
  return FALSE;
}

static void
csv_reader_clear (CsvReader *r)
{
  g_string_free (r->cells, TRUE);
  g_array_unref (r->offsets);
}

static inline gboolean
csv_is_space (const CsvReader *r,
              char             c)
{
  /* Whitespace is trimmed, unless it is what separates the cells. */
  return c != r->delim && (c == ' ' || c == '\r' || c == '\t');
}

static inline guint
csv_n_cells (const CsvReader *r)
{
  return r->offsets->len;
}

static inline const char *
csv_cell (const CsvReader *r,
          guint            i)
{
  return r->cells->str + g_array_index (r->offsets, guint, i);
}

static inline gsize
csv_cell_len (const CsvReader *r,
              guint            i)
{
  gsize start = g_array_index (r->offsets, guint, i);
  gsize next = i + 1 < r->offsets->len ? g_array_index (r->offsets, guint, i + 1)
                                       : r->cells->len;
  return next - start - 1;
}

/* Reads one record. Returns 1, 0 at the end of the input, -1 on error.
 * Blank lines and lines starting with '#' are skipped. */
static int
csv_reader_next (CsvReader  *r,
                 GError    **error)
{
  for (;;)
    {
      const char *q = r->p;

      while (q < r->end && csv_is_space (r, *q))
        q++;
      if (q >= r->end)
        {
          r->p = r->end;
          return 0;
        }
      if (*q == '\n' || *q == '#')
        {
          const char *nl = memchr (q, '\n', r->end - q);
          r->p = nl ? nl + 1 : r->end;
          r->line++;
          continue;
        }
      break;
    }

  r->record_line = r->line;
  g_string_truncate (r->cells, 0);
  g_array_set_size (r->offsets, 0);

  for (;;)
    {
      guint offset = r->cells->len;

      if (!csv_record_fits (r, 1, error))
        return -1;
      g_array_append_val (r->offsets, offset);

      while (r->p < r->end && csv_is_space (r, *r->p))
        r->p++;

      if (r->p < r->end && *r->p == '"')
        {
          guint opened = r->line;

          r->p++;
          for (;;)
            {
              if (!csv_record_fits (r, 2, error))
                return -1;
              if (r->p >= r->end)
                {
                  g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                               _("%s:%u: column %u: the quoted cell is never closed"),
                               r->what, opened, csv_n_cells (r));
                  return -1;
                }
              if (*r->p == '"')
                {
                  if (r->p + 1 < r->end && r->p[1] == '"')
                    {
                      g_string_append_c (r->cells, '"');
                      r->p += 2;
                      continue;
                    }
                  r->p++;
                  break;
                }
              if (*r->p == '\n')
                r->line++;
              g_string_append_c (r->cells, *r->p);
              r->p++;
            }
          while (r->p < r->end && csv_is_space (r, *r->p))
            r->p++;
          if (r->p < r->end && *r->p != r->delim && *r->p != '\n')
            {
              g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                           _("%s:%u: column %u: unexpected text after the closing quote"),
                           r->what, r->line, csv_n_cells (r));
              return -1;
            }
        }
      else
        {
          const char *s = r->p;
          const char *e;

          while (r->p < r->end && *r->p != r->delim && *r->p != '\n')
            r->p++;
          e = r->p;
          while (e > s && csv_is_space (r, e[-1]))
            e--;
          if (!csv_record_fits (r, (e - s) + 1, error))
            return -1;
          g_string_append_len (r->cells, s, e - s);
        }
      g_string_append_c (r->cells, '\0');

      if (r->p < r->end && *r->p == r->delim)
        {
          r->p++;
          continue;
        }
      if (r->p < r->end && *r->p == '\n')
        {
          r->p++;
          r->line++;
        }
      return 1;
    }
}

/* Cells ---------------------------------------------------------------- */

typedef enum {
  CELL_NUMBER,
  CELL_EMPTY,
  CELL_NOT_NUMBER,
  CELL_NOT_FINITE,
} CellKind;

/* Where cells are not split at commas (semicolons or tabs, as spreadsheets
 * write them in most of Europe), a cell with one comma and no point has a
 * decimal comma: "1,5" is 1.5. */
static CellKind
parse_number (const char *cell,
              gsize       len,
              char        delim,
              double     *value)
{
  char decimal[G_ASCII_DTOSTR_BUF_SIZE];
  const char *comma;
  char *endptr = NULL;
  double v;

  /* Quoted cells keep their spaces; numbers do not need them. */
  while (len > 0 && g_ascii_isspace (cell[len - 1]))
    len--;
  while (len > 0 && g_ascii_isspace (*cell))
    {
      cell++;
      len--;
    }
  if (len == 0)
    return CELL_EMPTY;
  comma = delim != ',' ? memchr (cell, ',', len) : NULL;
  if (comma != NULL && len < sizeof decimal && !memchr (cell, '.', len) &&
      !memchr (comma + 1, ',', len - (comma + 1 - cell)))
    {
      memcpy (decimal, cell, len);
      decimal[len] = '\0';
      decimal[comma - cell] = '.';
      cell = decimal;
    }
  v = g_ascii_strtod (cell, &endptr);
  if (endptr != cell + len || endptr == cell)
    return CELL_NOT_NUMBER;
  if (value)
    *value = v;
  /* A finite double may still overflow the float the dataset stores. */
  if (!isfinite (v) || !isfinite ((float) v))
    return CELL_NOT_FINITE;
  return CELL_NUMBER;
}

static gboolean
is_number (const char *cell,
           gsize       len,
           char        delim)
{
  CellKind kind = parse_number (cell, len, delim, NULL);
  return kind == CELL_NUMBER || kind == CELL_NOT_FINITE;
}

/* Cell text for a message: valid UTF-8, not too long. */
static char *
quote_cell (const char *cell,
            gsize       len)
{
  g_autofree char *valid = g_utf8_make_valid (cell, MIN (len, 64));

  /* Translatable: the quotes are the language's own. */
  if (len > 64)
    return g_strdup_printf (_("“%s…”"), valid);
  return g_strdup_printf (_("“%s”"), valid);
}

static char *
describe_column (GStrv header,
                 guint col)
{
  if (header != NULL && header[col] != NULL && header[col][0] != '\0')
    {
      g_autofree char *name = quote_cell (header[col], strlen (header[col]));
      return g_strdup_printf (_("column %u (%s)"), col + 1, name);
    }
  return g_strdup_printf (_("column %u"), col + 1);
}

static GStrv
csv_record_to_strv (const CsvReader *r)
{
  GStrv strv = g_new0 (char *, csv_n_cells (r) + 1);

  for (guint i = 0; i < csv_n_cells (r); i++)
    strv[i] = g_strndup (csv_cell (r, i), csv_cell_len (r, i));
  return strv;
}

/* Labels --------------------------------------------------------------- */

/* Text labels number classes in order of first appearance; when every
 * distinct text is an integer, classes are renumbered in integer order. */
typedef struct {
  GHashTable *index;  /* text → class + 1 */
  GPtrArray  *names;
} LabelMap;

static void
label_map_init (LabelMap *map)
{
  map->index = g_hash_table_new (g_str_hash, g_str_equal);
  map->names = g_ptr_array_new_with_free_func (g_free);
}

static void
label_map_clear (LabelMap *map)
{
  g_hash_table_unref (map->index);
  g_ptr_array_unref (map->names);
}

static gint32
label_map_add (LabelMap   *map,
               const char *text)
{
  gpointer found = g_hash_table_lookup (map->index, text);
  char *copy;

  if (found != NULL)
    return GPOINTER_TO_INT (found) - 1;
  copy = g_strdup (text);
  g_ptr_array_add (map->names, copy);
  g_hash_table_insert (map->index, copy, GINT_TO_POINTER (map->names->len));
  return map->names->len - 1;
}

static int
compare_gint64 (gconstpointer a,
                gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;
  return (x > y) - (x < y);
}

/* Rewrites @labels in place and returns the class names. */
static GStrv
label_map_finish (LabelMap *map,
                  gint32   *labels,
                  gsize     n_labels,
                  guint    *n_classes)
{
  guint n = map->names->len;
  g_autofree gint64 *values = g_new (gint64, n);
  g_autofree gint64 *sorted = NULL;
  g_autofree gint32 *rank = NULL;
  GStrv names;
  guint n_distinct = 0;

  for (guint i = 0; i < n; i++)
    {
      const char *text = g_ptr_array_index (map->names, i);
      if (!g_ascii_string_to_signed (text, 10, G_MININT64, G_MAXINT64, &values[i], NULL))
        {
          names = g_new0 (char *, n + 1);
          for (guint j = 0; j < n; j++)
            names[j] = g_strdup (g_ptr_array_index (map->names, j));
          *n_classes = n;
          return names;
        }
    }

  sorted = g_memdup2 (values, sizeof (gint64) * n);
  qsort (sorted, n, sizeof (gint64), compare_gint64);
  for (guint i = 0; i < n; i++)
    if (n_distinct == 0 || sorted[n_distinct - 1] != sorted[i])
      sorted[n_distinct++] = sorted[i];

  rank = g_new (gint32, n);
  for (guint i = 0; i < n; i++)
    {
      gint64 *hit = bsearch (&values[i], sorted, n_distinct, sizeof (gint64), compare_gint64);
      rank[i] = hit - sorted;
    }
  for (gsize i = 0; i < n_labels; i++)
    labels[i] = rank[labels[i]];

  names = g_new0 (char *, n_distinct + 1);
  for (guint i = 0; i < n_distinct; i++)
    names[i] = g_strdup_printf ("%" G_GINT64_FORMAT, sorted[i]);
  *n_classes = n_distinct;
  return names;
}

/* Layout --------------------------------------------------------------- */

static gboolean
has_suffix_nocase (const char *name,
                   const char *suffix)
{
  gsize n = strlen (name), s = strlen (suffix);
  return n >= s && g_ascii_strcasecmp (name + n - s, suffix) == 0;
}

static char
guess_delimiter (const char *name,
                 const char *data,
                 gsize       len)
{
  const char *p = data, *end = data + len;

  if (name != NULL && has_suffix_nocase (name, ".tsv"))
    return '\t';

  /* The first line that is neither blank nor a comment decides. */
  while (p < end)
    {
      const char *nl = memchr (p, '\n', end - p);
      const char *eol = nl ? nl : end;
      const char *q = p;
      gboolean tab = FALSE, semicolon = FALSE;
      /* No commas, or only between digits: decimal commas (1,5;2,25). */
      gboolean decimal_commas = TRUE;

      while (q < eol && g_ascii_isspace (*q))
        q++;
      if (q < eol && *q != '#')
        {
          const char *start = q;

          for (; q < eol; q++)
            {
              tab |= *q == '\t';
              semicolon |= *q == ';';
              if (*q == ',' && (q == start || q + 1 == eol || !g_ascii_isdigit (q[-1]) || !g_ascii_isdigit (q[1])))
                decimal_commas = FALSE;
            }
          if (tab && decimal_commas)
            return '\t';
          if (semicolon && decimal_commas)
            return ';';
          return ',';
        }
      p = eol + 1;
    }
  return ',';
}

/* The header of the label column latent_csv_save writes. */
#define CSV_LABEL_HEADER "label"

/* -1 = automatic, -2 = none; otherwise the 0-based column. */
#define LABEL_AUTO (-1)
#define LABEL_NONE (-2)

static gboolean
resolve_label_column (const char  *what,
                      const char  *spec,
                      GStrv        first,
                      guint        n_cols,
                      int         *label_col,
                      gboolean    *by_name,
                      GError     **error)
{
  guint64 index;

  *by_name = FALSE;
  if (spec == NULL || spec[0] == '\0' || g_ascii_strcasecmp (spec, "auto") == 0)
    {
      /* A last column headed "label" holds labels even when they are
       * integers (latent_csv_save writes them so). */
      if (n_cols > 1 && g_ascii_strcasecmp (first[n_cols - 1], CSV_LABEL_HEADER) == 0)
        {
          *label_col = n_cols - 1;
          *by_name = TRUE;
          return TRUE;
        }
      *label_col = LABEL_AUTO;
      return TRUE;
    }
  if (g_ascii_strcasecmp (spec, "none") == 0)
    {
      *label_col = LABEL_NONE;
      return TRUE;
    }
  if (g_ascii_string_to_unsigned (spec, 10, 0, G_MAXUINT, &index, NULL))
    {
      if (index < 1 || index > n_cols)
        {
          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                       g_dngettext (GETTEXT_PACKAGE,
                                    "%s: label column %s is out of range (the file has %u column)",
                                    "%s: label column %s is out of range (the file has %u columns)", n_cols),
                       what, spec, n_cols);
          return FALSE;
        }
      *label_col = index - 1;
      return TRUE;
    }

  for (guint i = 0; i < n_cols; i++)
    if (strcmp (first[i], spec) == 0)
      {
        *label_col = i;
        *by_name = TRUE;
        return TRUE;
      }
  for (guint i = 0; i < n_cols; i++)
    if (g_ascii_strcasecmp (first[i], spec) == 0)
      {
        *label_col = i;
        *by_name = TRUE;
        return TRUE;
      }

  {
    g_autofree char *joined = g_strjoinv (", ", first);
    g_autofree char *quoted = quote_cell (spec, strlen (spec));
    g_autofree char *columns = g_utf8_make_valid (joined, MIN (strlen (joined), 200));
    g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                 _("%s: label column %s not found (columns: %s)"), what, quoted, columns);
  }
  return FALSE;
}

static gboolean
any_text (GStrv cells,
          int   skip,
          int   skip2,
          char  delim)
{
  for (int i = 0; cells[i] != NULL; i++)
    if (i != skip && i != skip2 && cells[i][0] != '\0' && !is_number (cells[i], strlen (cells[i]), delim))
      return TRUE;
  return FALSE;
}

/* Parsing -------------------------------------------------------------- */

static gboolean
check_columns (const CsvReader  *r,
               guint             n_cols,
               GError          **error)
{
  if (csv_n_cells (r) == n_cols)
    return TRUE;
  g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
               g_dngettext (GETTEXT_PACKAGE, "%s:%u: expected %u column, found %u",
                            "%s:%u: expected %u columns, found %u", n_cols),
               r->what, r->record_line, n_cols, csv_n_cells (r));
  return FALSE;
}

static gboolean
cell_error (const CsvReader  *r,
            GStrv             header,
            guint             col,
            CellKind          kind,
            GError          **error)
{
  g_autofree char *column = describe_column (header, col);
  g_autofree char *text = quote_cell (csv_cell (r, col), csv_cell_len (r, col));

  switch (kind)
    {
    case CELL_EMPTY:
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_VALUE,
                   _("%s:%u: %s is empty (missing value)"), r->what, r->record_line, column);
      break;
    case CELL_NOT_FINITE:
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_NOT_FINITE,
                   _("%s:%u: %s: not a finite number (%s)"), r->what, r->record_line, column, text);
      break;
    case CELL_NOT_NUMBER:
    case CELL_NUMBER:
    default:
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_VALUE,
                   _("%s:%u: %s: %s is not a number"), r->what, r->record_line, column, text);
      break;
    }
  return FALSE;
}

/* Import choices ---------------------------------------------------------- */

/* Per column of the file: left out, a label, numbers, or categories. */
typedef struct {
  gboolean  skip;          /* ignored, or the label column */
  gboolean  categorical;   /* a 0/1 column per value */
  gboolean  too_many;      /* more distinct values than a categorical column takes */
  LabelMap  values;        /* distinct cells, in order of first appearance */
  guint     out;           /* its first column in the dataset */
  guint     width;         /* its columns in the dataset */
} Column;

gboolean
latent_csv_is_missing (const char *cell,
                       gsize       len)
{
  static const char * const markers[] = { "NA", "N/A", "NaN", "null", "?", "-", "#N/A", NULL };

  while (len > 0 && g_ascii_isspace (cell[len - 1]))
    len--;
  while (len > 0 && g_ascii_isspace (*cell))
    cell++, len--;
  for (guint i = 0; markers[i] != NULL; i++)
    if (strlen (markers[i]) == len && g_ascii_strncasecmp (cell, markers[i], len) == 0)
      return TRUE;
  return FALSE;
}

typedef enum {
  KIND_NUMBER,
  KIND_MISSING,
  KIND_TEXT,      /* a category of a categorical column */
  KIND_REFUSED,   /* refused as the choices say: @kind tells why */
} ImportKind;

/* What a cell is under the choices; *refused gets the reason of KIND_REFUSED. */
static ImportKind
classify (const char             *cell,
          gsize                   len,
          char                    delim,
          const LatentCsvOptions *options,
          double                 *value,
          CellKind               *refused)
{
  const gboolean fill = options != NULL && options->missing != LATENT_CSV_MISSING_REFUSE;
  const LatentCsvText text = options ? options->text : LATENT_CSV_TEXT_REFUSE;
  CellKind kind = parse_number (cell, len, delim, value);

  *refused = kind;
  if (kind == CELL_NUMBER)
    return KIND_NUMBER;
  if (fill && (kind == CELL_EMPTY || latent_csv_is_missing (cell, len)))
    return KIND_MISSING;
  if (kind == CELL_NOT_NUMBER && text == LATENT_CSV_TEXT_ONE_HOT)
    return KIND_TEXT;
  if (kind == CELL_NOT_NUMBER && text == LATENT_CSV_TEXT_MISSING)
    return fill ? KIND_MISSING : (*refused = CELL_EMPTY, KIND_REFUSED);
  return KIND_REFUSED;
}

/* The columns named in @ignore (names, or numbers from 1) marked to skip. */
static gboolean
resolve_ignored (const char          *what,
                 const char * const  *ignore,
                 GStrv                header,
                 guint                n_cols,
                 Column              *columns,
                 GError             **error)
{
  for (guint i = 0; ignore != NULL && ignore[i] != NULL; i++)
    {
      guint64 index;
      gboolean found = FALSE;

      if (g_ascii_string_to_unsigned (ignore[i], 10, 1, n_cols, &index, NULL))
        columns[index - 1].skip = found = TRUE;
      for (guint c = 0; !found && header != NULL && c < n_cols; c++)
        if (g_ascii_strcasecmp (header[c], ignore[i]) == 0)
          columns[c].skip = found = TRUE;
      if (!found)
        {
          g_autofree char *joined = header ? g_strjoinv (", ", header) : g_strdup_printf ("1 … %u", n_cols);
          g_autofree char *quoted = quote_cell (ignore[i], strlen (ignore[i]));
          g_autofree char *list = g_utf8_make_valid (joined, MIN (strlen (joined), 200));

          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                       _("%s: column %s to ignore not found (columns: %s)"), what, quoted, list);
          return FALSE;
        }
    }
  return TRUE;
}

/* Pass one over a record: whether a cell is missing (*missing), which
 * columns hold text, and (of rows kept) the distinct values of columns
 * that may be categorical. */
static gboolean
survey_record (const CsvReader         *r,
               GStrv                    header,
               int                      label_col,
               const LatentCsvOptions  *options,
               Column                  *columns,
               guint                    n_cols,
               gboolean                *missing,
               GError                 **error)
{
  *missing = FALSE;
  for (guint c = 0; c < n_cols; c++)
    {
      CellKind refused;
      ImportKind kind;
      double v;

      if ((int) c == label_col)
        *missing = *missing || csv_cell_len (r, c) == 0;
      if (columns[c].skip)
        continue;
      kind = classify (csv_cell (r, c), csv_cell_len (r, c), r->delim, options, &v, &refused);
      if (kind == KIND_REFUSED)
        return cell_error (r, header, c, refused, error);
      *missing = *missing || kind == KIND_MISSING;
      columns[c].categorical = columns[c].categorical || kind == KIND_TEXT;
    }
  if (options->text != LATENT_CSV_TEXT_ONE_HOT || (*missing && options->missing == LATENT_CSV_MISSING_DROP))
    return TRUE;

  /* Every value of a column that turns out categorical is a category,
   * numbers too: kept while there are few enough. */
  for (guint c = 0; c < n_cols; c++)
    {
      Column *col = &columns[c];
      g_autofree char *text = NULL;
      CellKind refused;
      double v;

      /* What pass two takes for a category is one here: a missing-value
       * marker too, where missing values are not filled in. */
      if (col->skip || col->too_many
          || classify (csv_cell (r, c), csv_cell_len (r, c), r->delim, options, &v, &refused) == KIND_MISSING)
        continue;
      text = g_strndup (csv_cell (r, c), csv_cell_len (r, c));
      if (!g_hash_table_contains (col->values.index, text))
        {
          if (col->values.names->len == LATENT_CSV_MAX_CATEGORIES)
            col->too_many = TRUE;
          else
            label_map_add (&col->values, text);
        }
    }
  for (guint c = 0; c < n_cols; c++)
    if (columns[c].categorical && columns[c].too_many)
      {
        g_autofree char *name = describe_column (header, c);

        g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                     _("%s:%u: %s has more than %u different values, too many to make a 0/1 column of each: "
                       "ignore it, or take its text as missing values"),
                     r->what, r->record_line, name, LATENT_CSV_MAX_CATEGORIES);
        return FALSE;
      }
  return TRUE;
}

/* After the values: missing ones (NaN) filled with their column's mean,
 * number columns standardised, as @options say. */
static gboolean
finish_values (LatentDataset           *dataset,
               const char              *what,
               const Column            *columns,
               guint                    n_cols,
               GStrv                    header,
               const LatentCsvOptions  *options,
               guint                   *filled,
               GError                 **error)
{
  const guint n = latent_dataset_get_n_rows (dataset), d = latent_dataset_get_n_cols (dataset);
  float *values = latent_dataset_get_data (dataset);

  *filled = 0;
  for (guint c = 0; c < n_cols; c++)
    {
      const guint j = columns[c].out;
      double sum = 0, sum2 = 0, mean, sd;
      guint count = 0;

      if (columns[c].skip || columns[c].categorical)
        continue;
      for (guint i = 0; i < n; i++)
        if (!isnan (values[(gsize) i * d + j]))
          {
            sum += values[(gsize) i * d + j];
            count++;
          }
      if (count == 0)
        {
          g_autofree char *name = describe_column (header, c);

          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_EMPTY,
                       _("%s: %s has no values, only missing ones"), what, name);
          return FALSE;
        }
      mean = sum / count;
      for (guint i = 0; i < n; i++)
        if (isnan (values[(gsize) i * d + j]))
          {
            values[(gsize) i * d + j] = mean;
            (*filled)++;
          }
      if (!options->standardise)
        continue;
      for (guint i = 0; i < n; i++)
        sum2 += (values[(gsize) i * d + j] - mean) * (values[(gsize) i * d + j] - mean);
      sd = sqrt (sum2 / n);
      for (guint i = 0; i < n; i++)
        values[(gsize) i * d + j] = sd > 0 ? (values[(gsize) i * d + j] - mean) / sd : 0;
    }
  return TRUE;
}

static LatentDataset *
csv_parse (const char              *data,
           gsize                    len,
           const char              *what,
           const char              *source,
           const LatentCsvOptions  *options,
           GError                 **error)
{
  g_autoptr(LatentDataset) dataset = NULL;
  g_autoptr(GError) local_error = NULL;
  g_auto(GStrv) first = NULL;
  g_auto(GStrv) header = NULL;
  g_autofree gint32 *labels = NULL;
  g_autofree char *basename = g_path_get_basename (what);
  CsvReader r;
  LabelMap map;
  g_autofree Column *columns = NULL;
  gboolean chosen, missing;
  guint n_cols, n_features, n_dropped = 0, n_one_hot = 0, n_ignored = 0;
  guint64 n_rows = 0;
  int label_col;
  gboolean by_name, has_header;
  char delim;
  int status;
  float *values;
  guint row = 0;

  /* A UTF-8 byte order mark is not part of the first cell. */
  if (len >= 3 && memcmp (data, "\xEF\xBB\xBF", 3) == 0)
    {
      data += 3;
      len -= 3;
    }

  delim = options && options->delimiter ? options->delimiter : guess_delimiter (what, data, len);
  if (delim == '\n' || delim == '"' || delim == '\r')
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                   _("%s: the delimiter cannot be a quote or a line break"), what);
      return NULL;
    }

  csv_reader_init (&r, what, data, len, delim);
  label_map_init (&map);

  /* First pass: the layout, the row count and the column count of every row,
   * so that nothing is allocated for a file that is going to be refused. */
  status = csv_reader_next (&r, &local_error);
  if (status <= 0)
    {
      if (status == 0)
        g_set_error (&local_error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_EMPTY,
                     _("%s: empty file"), what);
      goto fail;
    }
  first = csv_record_to_strv (&r);
  n_cols = csv_n_cells (&r);

  if (!resolve_label_column (what, options ? options->label_column : NULL,
                             first, n_cols, &label_col, &by_name, &local_error))
    goto fail;

  if (by_name)
    has_header = TRUE;
  else if (label_col == LABEL_AUTO)
    {
      /* The last cell may be a label; a single column cannot be. */
      has_header = any_text (first, n_cols > 1 ? (int) n_cols - 1 : -1, -1, delim);
      if (!has_header && n_cols > 1 && any_text (first, -1, -1, delim))
        {
          /* Only the last cell is text: a header if the next row's is a number. */
          CsvReader peek = r;
          peek.cells = g_string_new (NULL);
          peek.offsets = g_array_new (FALSE, FALSE, sizeof (guint));
          if (csv_reader_next (&peek, NULL) == 1 && csv_n_cells (&peek) == n_cols)
            has_header = is_number (csv_cell (&peek, n_cols - 1), csv_cell_len (&peek, n_cols - 1), delim);
          csv_reader_clear (&peek);
        }
    }
  else
    has_header = any_text (first, label_col, -1, delim);

  if (has_header)
    {
      header = g_steal_pointer (&first);
      status = csv_reader_next (&r, &local_error);
      if (status < 0)
        goto fail;
      if (status == 0)
        {
          g_set_error (&local_error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_EMPTY,
                       _("%s: no data rows (only a header)"), what);
          goto fail;
        }
      if (!check_columns (&r, n_cols, &local_error))
        goto fail;
    }

  if (label_col == LABEL_AUTO)
    {
      /* The first data row decides: a text last cell makes the column labels. */
      if (n_cols > 1 && csv_cell_len (&r, n_cols - 1) > 0 &&
          !is_number (csv_cell (&r, n_cols - 1), csv_cell_len (&r, n_cols - 1), delim))
        label_col = n_cols - 1;
      else
        label_col = LABEL_NONE;
    }

  /* Choices beyond the label column make the first pass look at every
   * cell: what is missing, which columns are categories. */
  chosen = options != NULL && (options->ignore != NULL || options->text != LATENT_CSV_TEXT_REFUSE
                               || options->missing != LATENT_CSV_MISSING_REFUSE || options->standardise);
  columns = g_new0 (Column, n_cols);
  for (guint c = 0; c < n_cols; c++)
    {
      label_map_init (&columns[c].values);
      columns[c].skip = (int) c == label_col;
    }
  if (chosen && !resolve_ignored (what, options->ignore, header, n_cols, columns, &local_error))
    goto fail;
  for (guint c = 0; c < n_cols; c++)
    n_ignored += columns[c].skip && (int) c != label_col;

  /* Count the rows and check their widths; @r holds the first data row. */
  n_rows = 0;
  status = 1;
  do
    {
      if (!check_columns (&r, n_cols, &local_error))
        goto fail;
      if (chosen && !survey_record (&r, header, label_col, options, columns, n_cols, &missing, &local_error))
        goto fail;
      if (chosen && missing && options->missing == LATENT_CSV_MISSING_DROP)
        {
          n_dropped++;
          continue;
        }
      n_rows++;
      if (n_rows > G_MAXUINT || n_rows * n_cols > LATENT_DATASET_MAX_VALUES)
        {
          g_set_error (&local_error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
                       _("%s:%u: more than %llu values is above the limit of %llu"),
                       what, r.record_line, (unsigned long long) (n_rows * n_cols),
                       (unsigned long long) LATENT_DATASET_MAX_VALUES);
          goto fail;
        }
    }
  while ((status = csv_reader_next (&r, &local_error)) == 1);
  if (status < 0)
    goto fail;

  /* The dataset's columns: one per number column, one per category. */
  n_features = 0;
  for (guint c = 0; c < n_cols; c++)
    {
      columns[c].out = n_features;
      columns[c].width = columns[c].skip ? 0 : columns[c].categorical ? columns[c].values.names->len : 1;
      n_features += columns[c].width;
      n_one_hot += columns[c].categorical;
    }
  if (n_features == 0)
    {
      if (n_ignored > 0)
        g_set_error (&local_error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                     _("%s: no columns left besides those ignored and the label"), what);
      else
        g_set_error (&local_error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                     _("%s: no columns left besides the label column %d"), what, label_col + 1);
      goto fail;
    }
  if (n_rows == 0)
    {
      g_set_error (&local_error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_EMPTY,
                   _("%s: every row has a missing value, and rows with one are left out"), what);
      goto fail;
    }
  if (n_rows * n_features > LATENT_DATASET_MAX_VALUES)
    {
      g_set_error (&local_error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
                   _("%s: more than %llu values is above the limit of %llu"), what,
                   (unsigned long long) (n_rows * n_features), (unsigned long long) LATENT_DATASET_MAX_VALUES);
      goto fail;
    }

  dataset = latent_dataset_new (basename, n_rows, n_features, &local_error);
  if (dataset == NULL)
    goto fail;
  values = latent_dataset_get_data (dataset);
  if (label_col >= 0)
    labels = g_new (gint32, n_rows);

  /* Second pass: the values. */
  csv_reader_clear (&r);
  csv_reader_init (&r, what, data, len, delim);
  if (has_header && csv_reader_next (&r, &local_error) != 1)
    goto fail;

  while ((status = csv_reader_next (&r, &local_error)) == 1 && row < n_rows)
    {
      float *out = values + (gsize) row * n_features;

      if (chosen && options->missing == LATENT_CSV_MISSING_DROP
          && (!survey_record (&r, header, label_col, options, columns, n_cols, &missing, &local_error) || missing))
        {
          if (local_error != NULL)
            goto fail;
          continue;
        }
      for (guint c = 0; c < n_cols; c++)
        {
          const char *cell = csv_cell (&r, c);
          gsize cell_len = csv_cell_len (&r, c);
          double v = 0;
          CellKind refused;

          if ((int) c == label_col)
            {
              if (cell_len == 0)
                {
                  cell_error (&r, header, c, CELL_EMPTY, &local_error);
                  goto fail;
                }
              labels[row] = label_map_add (&map, cell);
              continue;
            }
          if (columns[c].skip)
            continue;
          switch (classify (cell, cell_len, delim, options, &v, &refused))
            {
            case KIND_NUMBER:
            case KIND_TEXT:
              if (columns[c].categorical)
                {
                  g_autofree char *text = g_strndup (cell, cell_len);
                  gpointer category = g_hash_table_lookup (columns[c].values.index, text);

                  /* Pass one saw every category; one it did not is a bug, refused. */
                  if (category == NULL || GPOINTER_TO_UINT (category) > columns[c].width)
                    {
                      cell_error (&r, header, c, CELL_NOT_NUMBER, &local_error);
                      goto fail;
                    }
                  for (guint k = 0; k < columns[c].width; k++)
                    out[columns[c].out + k] = 0;
                  out[columns[c].out + GPOINTER_TO_UINT (category) - 1] = 1;
                }
              else
                out[columns[c].out] = (float) v;
              break;
            case KIND_MISSING:
              /* A category missing is none of them; a number, filled in below. */
              for (guint k = 0; k < columns[c].width; k++)
                out[columns[c].out + k] = columns[c].categorical ? 0 : NAN;
              break;
            case KIND_REFUSED:
            default:
              cell_error (&r, header, c, refused, &local_error);
              goto fail;
            }
        }
      row++;
    }
  if (status < 0)
    goto fail;

  if (labels != NULL)
    {
      guint n_classes = 0;
      g_auto(GStrv) class_names = label_map_finish (&map, labels, n_rows, &n_classes);
      latent_dataset_set_labels (dataset, labels, n_classes, class_names);
    }

  if (header != NULL || n_one_hot > 0)
    {
      g_auto(GStrv) names = g_new0 (char *, n_features + 1);
      guint j = 0;

      for (guint c = 0; c < n_cols; c++)
        {
          g_autofree char *name = header != NULL && header[c][0] != '\0' ? g_strdup (header[c])
                                                                         : g_strdup_printf (_("column %u"), c + 1);

          if (columns[c].skip)
            continue;
          if (!columns[c].categorical)
            names[j++] = g_steal_pointer (&name);
          else
            for (guint k = 0; k < columns[c].values.names->len; k++)
              names[j++] = g_strdup_printf ("%s=%s", name, (char *) g_ptr_array_index (columns[c].values.names, k));
        }
      latent_dataset_set_column_names (dataset, names);
    }

  if (chosen)
    {
      guint filled = 0;

      if (!finish_values (dataset, what, columns, n_cols, header, options, &filled, &local_error))
        goto fail;
      if (options->report != NULL)
        *options->report = (LatentCsvReport) { n_dropped, filled, n_one_hot, n_ignored };
    }

  latent_dataset_set_source (dataset, source);
  if (!latent_dataset_check_finite (dataset, what, &local_error))
    goto fail;

  csv_reader_clear (&r);
  label_map_clear (&map);
  for (guint c = 0; columns != NULL && c < n_cols; c++)
    label_map_clear (&columns[c].values);
  return g_steal_pointer (&dataset);

fail:
  csv_reader_clear (&r);
  label_map_clear (&map);
  for (guint c = 0; columns != NULL && c < n_cols; c++)
    label_map_clear (&columns[c].values);
  g_propagate_error (error, g_steal_pointer (&local_error));
  return NULL;
}

/* Files ---------------------------------------------------------------- */

static GBytes *
read_file (const char  *path,
           GError     **error)
{
  /* Mapped: the limit is the address space, and no copy is made. A table
   * of LATENT_DATASET_MAX_VALUES numbers needs less. */
  return latent_file_read (path, (gsize) 64 << 30, _("a table"), error);
}

/* Public --------------------------------------------------------------- */

GPtrArray *
latent_csv_preview (const char  *path,
                    guint        max_records,
                    GError     **error)
{
  g_autoptr(GBytes) bytes = read_file (path, error);
  g_autoptr(GPtrArray) records = NULL;
  const char *data;
  gsize len;
  CsvReader r;
  int status = 1;

  if (bytes == NULL)
    return NULL;
  data = g_bytes_get_data (bytes, &len);
  if (len >= 3 && memcmp (data, "\xEF\xBB\xBF", 3) == 0)
    data += 3, len -= 3;
  records = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  csv_reader_init (&r, path, data, len, guess_delimiter (path, data, len));
  while (records->len < max_records && (status = csv_reader_next (&r, error)) == 1)
    g_ptr_array_add (records, csv_record_to_strv (&r));
  csv_reader_clear (&r);
  if (status < 0)
    return NULL;
  if (records->len == 0)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_EMPTY, _("%s: empty file"), path);
      return NULL;
    }
  return g_steal_pointer (&records);
}

LatentDataset *
latent_csv_load_bytes (GBytes                  *bytes,
                       const char              *name,
                       const LatentCsvOptions  *options,
                       GError                 **error)
{
  gsize len = 0;
  const char *data;

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (name == NULL)
    name = "data.csv";
  data = g_bytes_get_data (bytes, &len);
  return csv_parse (data ? data : "", len, name, name, options, error);
}

LatentDataset *
latent_csv_load (const char              *path,
                 const LatentCsvOptions  *options,
                 GError                 **error)
{
  g_autoptr(GBytes) bytes = NULL;
  gsize len = 0;
  const char *data;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  bytes = read_file (path, error);
  if (bytes == NULL)
    return NULL;
  data = g_bytes_get_data (bytes, &len);
  return csv_parse (data ? data : "", len, path, path, options, error);
}

gint32 *
latent_csv_load_labels (const char  *path,
                        guint       *n_labels,
                        guint       *n_classes,
                        GStrv       *class_names,
                        GError     **error)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GPtrArray) texts = NULL;
  g_autofree gint32 *labels = NULL;
  g_auto(GStrv) names = NULL;
  CsvReader r;
  LabelMap map;
  const char *data;
  gsize len = 0;
  guint skip = 0;
  guint classes = 0;
  gboolean rest_integers = TRUE;
  int status;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (n_labels != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  bytes = read_file (path, error);
  if (bytes == NULL)
    return NULL;
  data = g_bytes_get_data (bytes, &len);

  texts = g_ptr_array_new_with_free_func (g_free);
  csv_reader_init (&r, path, data ? data : "", len, guess_delimiter (path, data ? data : "", len));
  while ((status = csv_reader_next (&r, &local_error)) == 1)
    {
      if (!check_columns (&r, 1, &local_error))
        break;
      if (csv_cell_len (&r, 0) == 0)
        {
          cell_error (&r, NULL, 0, CELL_EMPTY, &local_error);
          break;
        }
      if (texts->len >= LATENT_DATASET_MAX_VALUES)
        {
          g_set_error (&local_error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
                       _("%s: more than %llu labels"), path,
                       (unsigned long long) LATENT_DATASET_MAX_VALUES);
          break;
        }
      g_ptr_array_add (texts, g_strdup (csv_cell (&r, 0)));
    }
  csv_reader_clear (&r);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  /* A header is a text first line above integer labels. */
  for (guint i = 1; i < texts->len && rest_integers; i++)
    rest_integers = g_ascii_string_to_signed (g_ptr_array_index (texts, i), 10,
                                              G_MININT64, G_MAXINT64, NULL, NULL);
  if (texts->len > 1 && rest_integers &&
      !g_ascii_string_to_signed (g_ptr_array_index (texts, 0), 10, G_MININT64, G_MAXINT64, NULL, NULL))
    skip = 1;

  if (texts->len <= skip)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_EMPTY,
                   "%s: %s", path, texts->len == 0 ? _("empty file") : _("no labels (only a header)"));
      return NULL;
    }

  label_map_init (&map);
  labels = g_new (gint32, texts->len - skip);
  for (guint i = skip; i < texts->len; i++)
    labels[i - skip] = label_map_add (&map, g_ptr_array_index (texts, i));
  names = label_map_finish (&map, labels, texts->len - skip, &classes);
  label_map_clear (&map);

  *n_labels = texts->len - skip;
  if (n_classes)
    *n_classes = classes;
  if (class_names)
    *class_names = g_steal_pointer (&names);
  return g_steal_pointer (&labels);
}

/* Writing -------------------------------------------------------------- */

/* @text as a cell the reader gives back unchanged: quoted when it holds the
 * delimiter, a quote or a line break, could start a comment or a byte order
 * mark, or has spaces at either end that the reader would trim. */
static void
append_cell (GString    *out,
             const char *text,
             char        delim)
{
  gsize len = strlen (text);
  gboolean quote = len > 0 && (text[0] == '#' || g_ascii_isspace (text[0]) ||
                               g_ascii_isspace (text[len - 1]) ||
                               g_str_has_prefix (text, "\xEF\xBB\xBF"));

  for (const char *p = text; *p != '\0' && !quote; p++)
    quote = *p == delim || *p == '"' || *p == '\n' || *p == '\r';
  if (!quote)
    {
      g_string_append_len (out, text, len);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

/* Whether the dataset's column names, written as the first row, are read
 * back as a header with the same names. */
static gboolean
column_names_fit (LatentDataset *dataset,
                  gboolean       labelled,
                  char           delim)
{
  const guint n_cols = latent_dataset_get_n_cols (dataset);
  const char *last = latent_dataset_get_column_name (dataset, n_cols - 1);
  gboolean any_text = FALSE;

  for (guint c = 0; c < n_cols; c++)
    {
      const char *name = latent_dataset_get_column_name (dataset, c);

      /* The reader names an empty header cell "column N" itself. */
      if (name == NULL || name[0] == '\0')
        return FALSE;
      any_text |= !is_number (name, strlen (name), delim);
    }
  /* Without labels, a last column headed "label" would be taken for them. */
  if (!labelled && g_ascii_strcasecmp (last, CSV_LABEL_HEADER) == 0)
    return FALSE;
  /* A row of numbers alone reads as data, unless a label header follows. */
  return any_text || labelled;
}

/**
 * latent_csv_save:
 *
 * Writes @dataset so that latent_csv_load () reads it back: a header row (the
 * column names, or f1, f2, …), the values with nine significant digits (a
 * float exactly), and, when it has labels, a last column "label" holding each
 * row's class name, or its class index when the classes have no names.
 */
gboolean
latent_csv_save (LatentDataset  *dataset,
                 const char     *path,
                 GError        **error)
{
  g_autoptr(LatentSaveFile) file = NULL;
  g_autoptr(GString) line = NULL;
  const guint n_rows = latent_dataset_get_n_rows (dataset);
  const guint n_cols = latent_dataset_get_n_cols (dataset);
  const gint32 *labels;
  gboolean named_classes;
  gboolean own_names;
  char delim;

  g_return_val_if_fail (LATENT_IS_DATASET (dataset), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* The reader refuses what is not finite: better not to write it. */
  if (!latent_dataset_check_finite (dataset, path, error))
    return FALSE;

  labels = latent_dataset_get_labels (dataset);
  named_classes = labels != NULL && latent_dataset_get_class_name (dataset, 0) != NULL;
  for (guint c = 0; named_classes && c < latent_dataset_get_n_classes (dataset); c++)
    if (latent_dataset_get_class_name (dataset, c)[0] == '\0')
      {
        /* An empty cell is a missing label to the reader. */
        g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                     _("%s: class %u has an empty name, which a CSV file cannot hold"), path, c + 1);
        return FALSE;
      }

  delim = has_suffix_nocase (path, ".tsv") ? '\t' : ',';
  own_names = column_names_fit (dataset, labels != NULL, delim);
  line = g_string_sized_new (256);
  for (guint c = 0; c < n_cols; c++)
    {
      if (c > 0)
        g_string_append_c (line, delim);
      if (own_names)
        append_cell (line, latent_dataset_get_column_name (dataset, c), delim);
      else
        g_string_append_printf (line, "f%u", c + 1);
    }
  if (labels != NULL)
    {
      g_string_append_c (line, delim);
      g_string_append (line, CSV_LABEL_HEADER);
    }
  g_string_append_c (line, '\n');

  if (!(file = latent_save_file_open (path, error)) ||
      !latent_save_file_write (file, line->str, line->len, error))
    return FALSE;

  for (guint i = 0; i < n_rows; i++)
    {
      const float *row = latent_dataset_get_row (dataset, i);
      char number[G_ASCII_DTOSTR_BUF_SIZE];

      g_string_truncate (line, 0);
      for (guint c = 0; c < n_cols; c++)
        {
          if (c > 0)
            g_string_append_c (line, delim);
          /* In the C locale whatever the person's: "0.5", never "0,5". */
          g_string_append (line, g_ascii_formatd (number, sizeof number, "%.9g", row[c]));
        }
      if (labels != NULL)
        {
          g_string_append_c (line, delim);
          if (named_classes)
            append_cell (line, latent_dataset_get_class_name (dataset, labels[i]), delim);
          else
            g_string_append_printf (line, "%d", labels[i]);
        }
      g_string_append_c (line, '\n');
      if (!latent_save_file_write (file, line->str, line->len, error))
        return FALSE;
    }

  return latent_save_file_commit (file, error);
}
