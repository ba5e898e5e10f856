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

/* Arrays kept out of json-glib's tree ----------------------------------------
 *
 * json-glib holds a node of ~90 bytes for every number it builds and ~27
 * bytes for every byte of numbers it parses: a 20,000-class confusion matrix
 * took 4.2 GB to write and a 200 MB model 5.4 GB to read. Large arrays of
 * numbers therefore stand in the tree as a string, a token, and their
 * numbers live elsewhere: on writing, the caller's own array, formatted
 * straight into the file; on reading, the file's bytes, parsed when a
 * reader asks for them. The token carries a random number chosen once per
 * process, so that no string in a file can pass for one. */

#define DEFERRED_KEY "latent-json-deferred"
/* Fewer numbers than this are built as nodes, as json-glib would. */
#define DEFER_MIN_NUMBERS 4096
/* A parsed array of numbers whose text is at least this long is packed. */
#define PACK_MIN_BYTES (256 * 1024)

static const char *
token_prefix (void)
{
  static char *prefix;

  if (g_once_init_enter (&prefix))
    g_once_init_leave (&prefix, g_strdup_printf ("latent-numbers-%08x%08x-", g_random_int (), g_random_int ()));
  return prefix;
}

/* The index a token carries, or -1 when @s is no token. */
static gint64
token_index (const char *s)
{
  const char *prefix = token_prefix ();
  gsize n = strlen (prefix);
  guint64 index;
  char *end;

  if (s == NULL || strncmp (s, prefix, n) != 0 || !g_ascii_isdigit (s[n]))
    return -1;
  index = g_ascii_strtoull (s + n, &end, 10);
  return *end == '\0' && index < G_MAXINT32 ? (gint64) index : -1;
}

/* Writing ------------------------------------------------------------------ */

typedef enum {
  NUMBERS_DOUBLE,
  NUMBERS_FLOAT,
  NUMBERS_INT32,
  NUMBERS_UINT,
} NumberType;

typedef struct {
  NumberType     type;
  gconstpointer  values;
  guint          rows;     /* 0: a flat array of cols numbers */
  guint          cols;
} Deferred;

/* As json-glib's generator writes the double latent_json_add_double ()
 * builds: the same bytes, checked by /json/deferred/identical. */
static void
append_double (GString *out,
               double   value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (value))
    {
      g_string_append (out, "null");
      return;
    }
  g_ascii_dtostr (buf, sizeof buf, value);
  if (strpbrk (buf, "eE") && !strchr (buf, '.'))
    g_ascii_dtostr (buf, sizeof buf, nextafter (value, 0));
  g_string_append (out, buf);
  if (!strchr (buf, '.'))
    g_string_append (out, ".0");
}

/* printf's %lld without its cost: a confusion matrix has 10⁸ of them. */
static void
append_integer (GString *out,
                gint64   value)
{
  char buf[24];
  guint64 v = value < 0 ? -(guint64) value : (guint64) value;
  int i = sizeof buf;

  do
    buf[--i] = '0' + v % 10;
  while ((v /= 10) > 0);
  if (value < 0)
    buf[--i] = '-';
  g_string_append_len (out, buf + i, sizeof buf - i);
}

static void
append_number (GString        *out,
               const Deferred *d,
               gsize           i)
{
  switch (d->type)
    {
    case NUMBERS_DOUBLE:
      append_double (out, ((const double *) d->values)[i]);
      break;
    case NUMBERS_FLOAT:
      append_double (out, ((const float *) d->values)[i]);
      break;
    case NUMBERS_INT32:
      append_integer (out, ((const gint32 *) d->values)[i]);
      break;
    case NUMBERS_UINT:
      append_integer (out, ((const guint *) d->values)[i]);
      break;
    default:
      g_assert_not_reached ();
    }
}

static void
add_number_node (JsonBuilder    *builder,
                 const Deferred *d,
                 gsize           i)
{
  switch (d->type)
    {
    case NUMBERS_DOUBLE:
      latent_json_add_double (builder, ((const double *) d->values)[i]);
      break;
    case NUMBERS_FLOAT:
      latent_json_add_double (builder, ((const float *) d->values)[i]);
      break;
    case NUMBERS_INT32:
      json_builder_add_int_value (builder, ((const gint32 *) d->values)[i]);
      break;
    case NUMBERS_UINT:
      json_builder_add_int_value (builder, ((const guint *) d->values)[i]);
      break;
    default:
      g_assert_not_reached ();
    }
}

/* The array @d describes, as nodes or, in a builder of
 * latent_json_builder_new () and when large, as a token. */
static void
add_numbers (JsonBuilder *builder,
             Deferred     d)
{
  GArray *deferred = g_object_get_data (G_OBJECT (builder), DEFERRED_KEY);

  if (deferred != NULL && (guint64) MAX (d.rows, 1) * d.cols >= DEFER_MIN_NUMBERS)
    {
      g_autofree char *token = g_strdup_printf ("%s%u", token_prefix (), deferred->len);

      g_array_append_val (deferred, d);
      json_builder_add_string_value (builder, token);
      return;
    }
  json_builder_begin_array (builder);
  for (guint r = 0; r < MAX (d.rows, 1); r++)
    {
      if (d.rows > 0)
        json_builder_begin_array (builder);
      for (guint c = 0; c < d.cols; c++)
        add_number_node (builder, &d, (gsize) r * d.cols + c);
      if (d.rows > 0)
        json_builder_end_array (builder);
    }
  json_builder_end_array (builder);
}

JsonBuilder *
latent_json_builder_new (void)
{
  JsonBuilder *builder = json_builder_new ();

  g_object_set_data_full (G_OBJECT (builder), DEFERRED_KEY, g_array_new (FALSE, FALSE, sizeof (Deferred)),
                          (GDestroyNotify) g_array_unref);
  return builder;
}

void
latent_json_builder_keep (JsonBuilder *builder,
                          gpointer     data)
{
  GPtrArray *kept = g_object_get_data (G_OBJECT (builder), "latent-json-kept");

  if (kept == NULL)
    {
      kept = g_ptr_array_new_with_free_func (g_free);
      g_object_set_data_full (G_OBJECT (builder), "latent-json-kept", kept, (GDestroyNotify) g_ptr_array_unref);
    }
  g_ptr_array_add (kept, data);
}

/* The array @d as compact JSON into @file, in pieces of about 64 KiB. */
static gboolean
write_deferred (LatentSaveFile  *file,
                const Deferred  *d,
                GError         **error)
{
  g_autoptr(GString) out = g_string_sized_new (65536 + 64);

  if (d->rows > 0)
    g_string_append_c (out, '[');
  for (guint r = 0; r < MAX (d->rows, 1); r++)
    {
      g_string_append (out, r > 0 ? ",[" : "[");
      for (guint c = 0; c < d->cols; c++)
        {
          if (c > 0)
            g_string_append_c (out, ',');
          append_number (out, d, (gsize) r * d->cols + c);
          if (out->len >= 65536)
            {
              if (!latent_save_file_write (file, out->str, out->len, error))
                return FALSE;
              g_string_truncate (out, 0);
            }
        }
      g_string_append_c (out, ']');
    }
  if (d->rows > 0)
    g_string_append_c (out, ']');
  return latent_save_file_write (file, out->str, out->len, error);
}

gboolean
latent_json_builder_write_file (JsonBuilder  *builder,
                                const char   *path,
                                GError      **error)
{
  g_autoptr(JsonNode) root = json_builder_get_root (builder);
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(LatentSaveFile) file = NULL;
  g_autofree char *quoted = g_strconcat ("\"", token_prefix (), NULL);
  GArray *deferred = g_object_get_data (G_OBJECT (builder), DEFERRED_KEY);
  g_autofree char *text = NULL;
  const char *at, *token;
  gsize length = 0;

  g_return_val_if_fail (root != NULL, FALSE);

  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, &length);
  if (deferred == NULL || deferred->len == 0)
    return latent_save_file_contents (path, text, length, error);

  if (!(file = latent_save_file_open (path, error)))
    return FALSE;
  /* The generator wrote each token as a string of its own: "prefixN". */
  for (at = text; (token = strstr (at, quoted)) != NULL;)
    {
      const char *digits = token + strlen (quoted);
      char *end;
      guint64 index = g_ascii_strtoull (digits, &end, 10);

      g_return_val_if_fail (end > digits && *end == '"' && index < deferred->len, FALSE);
      if (!latent_save_file_write (file, at, token - at, error) ||
          !write_deferred (file, &g_array_index (deferred, Deferred, index), error))
        return FALSE;
      at = end + 1;
    }
  return latent_save_file_write (file, at, text + length - at, error) &&
         latent_save_file_commit (file, error);
}

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
  add_numbers (builder, (Deferred) { NUMBERS_INT32, values, 0, n });
}

void
latent_json_add_uint_vector_member (JsonBuilder *builder,
                                    const char  *name,
                                    const guint *values,
                                    guint        n)
{
  json_builder_set_member_name (builder, name);
  add_numbers (builder, (Deferred) { NUMBERS_UINT, values, 0, n });
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
  add_numbers (builder, (Deferred) { NUMBERS_DOUBLE, values, 0, n });
}

void
latent_json_add_float_vector_member (JsonBuilder *builder,
                                     const char  *name,
                                     const float *values,
                                     guint        n)
{
  json_builder_set_member_name (builder, name);
  add_numbers (builder, (Deferred) { NUMBERS_FLOAT, values, 0, n });
}

void
latent_json_add_matrix (JsonBuilder *builder,
                        const float *values,
                        guint        rows,
                        guint        cols)
{
  /* An empty matrix is [] either way. */
  add_numbers (builder, (Deferred) { NUMBERS_FLOAT, values, rows, rows > 0 ? cols : 0 });
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

void
latent_json_add_uint_matrix_member (JsonBuilder *builder,
                                    const char  *name,
                                    const guint *values,
                                    guint        rows,
                                    guint        cols)
{
  json_builder_set_member_name (builder, name);
  add_numbers (builder, (Deferred) { NUMBERS_UINT, values, rows, rows > 0 ? cols : 0 });
}

/* Reading ------------------------------------------------------------------ */

typedef struct {
  GBytes *bytes;     /* the whole file */
  gsize   offset;    /* of the array's '[' */
  gsize   length;
  guint   outer;     /* elements of the outermost array */
  gsize   count;     /* numbers in all */
} Packed;

/* Every packed array of the parsers alive, by the index its token carries;
 * NULL once its parser is gone. */
G_LOCK_DEFINE_STATIC (packed);
static GPtrArray *packed_arrays;

static void
packed_free (Packed *p)
{
  g_bytes_unref (p->bytes);
  g_free (p);
}

static guint
packed_add (Packed *p)
{
  guint index;

  G_LOCK (packed);
  if (packed_arrays == NULL)
    packed_arrays = g_ptr_array_new ();
  index = packed_arrays->len;
  g_ptr_array_add (packed_arrays, p);
  G_UNLOCK (packed);
  return index;
}

/* A parser's packed arrays go with it. */
static void
packed_release (GArray *indices)
{
  G_LOCK (packed);
  for (guint i = 0; i < indices->len; i++)
    {
      guint index = g_array_index (indices, guint, i);

      g_clear_pointer (&g_ptr_array_index (packed_arrays, index), packed_free);
    }
  G_UNLOCK (packed);
  g_array_unref (indices);
}

/* A copy of the packed array @node stands for, its bytes referenced. */
static gboolean
packed_lookup (JsonNode *node,
               Packed   *out)
{
  gint64 index;
  Packed *p = NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING ||
      (index = token_index (json_node_get_string (node))) < 0)
    return FALSE;
  G_LOCK (packed);
  if (packed_arrays != NULL && index < packed_arrays->len && (p = g_ptr_array_index (packed_arrays, index)))
    {
      *out = *p;
      g_bytes_ref (out->bytes);
    }
  G_UNLOCK (packed);
  return p != NULL;
}

/* The end of the JSON number at @s, or NULL when there is none. */
static const char *
number_end (const char *s,
            const char *end)
{
  if (s < end && *s == '-')
    s++;
  if (s >= end || !g_ascii_isdigit (*s))
    return NULL;
  if (*s == '0')
    s++;
  else
    while (s < end && g_ascii_isdigit (*s))
      s++;
  if (s < end && *s == '.')
    {
      if (++s >= end || !g_ascii_isdigit (*s))
        return NULL;
      while (s < end && g_ascii_isdigit (*s))
        s++;
    }
  if (s < end && (*s == 'e' || *s == 'E'))
    {
      s++;
      if (s < end && (*s == '+' || *s == '-'))
        s++;
      if (s >= end || !g_ascii_isdigit (*s))
        return NULL;
      while (s < end && g_ascii_isdigit (*s))
        s++;
    }
  return s;
}

typedef enum {
  SCAN_NUMBERS,   /* only numbers and arrays of them */
  SCAN_OTHER,     /* holds another kind of value: for json-glib */
  SCAN_INVALID,   /* not JSON: *at is where */
} ScanResult;

/* Whether the array at @text[*at] ('[') holds only numbers, nested in any
 * way; if so, *at is moved past its ']'. Iterative: no recursion. */
static ScanResult
scan_numbers (const char *text,
              gsize       length,
              gsize      *at,
              guint      *outer,
              gsize      *count)
{
  const char *s = text + *at, *end = text + length;
  guint depth = 0;
  enum { VALUE_OR_CLOSE, VALUE, COMMA_OR_CLOSE } want = VALUE;

  *outer = 0;
  *count = 0;
  for (;;)
    {
      while (s < end && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'))
        s++;
      if (s >= end)
        break;
      if (want == COMMA_OR_CLOSE && *s == ',')
        want = VALUE, s++;
      else if (want != VALUE && *s == ']')
        {
          s++;
          if (--depth == 0)
            {
              *at = s - text;
              return SCAN_NUMBERS;
            }
          want = COMMA_OR_CLOSE;
        }
      else if (want != COMMA_OR_CLOSE && (*s == '[' || *s == '-' || g_ascii_isdigit (*s)))
        {
          if (depth == 1)
            (*outer)++;
          if (*s == '[')
            depth++, s++, want = VALUE_OR_CLOSE;
          else
            {
              const char *next = number_end (s, end);

              if (next == NULL)
                break;
              s = next, (*count)++, want = COMMA_OR_CLOSE;
            }
        }
      else if (want != COMMA_OR_CLOSE && strchr ("{\"tfn", *s))
        return SCAN_OTHER;
      else
        break;
    }
  *at = s - text;
  return SCAN_INVALID;
}

static guint
line_at (const char *text,
         gsize       at)
{
  guint line = 1;

  for (const char *s = text; (s = memchr (s, '\n', text + at - s)) != NULL; s++)
    line++;
  return line;
}

/* @bytes with every large array of numbers replaced by a token that
 * packed_lookup () finds, and as many newlines, so that json-glib's line
 * numbers stay true; NULL when there is none, or on an error. The tokens'
 * indices are added to @indices. */
static GString *
pack_arrays (GBytes      *bytes,
             GArray      *indices,
             const char  *display,
             GError     **error)
{
  gsize length;
  const char *text = g_bytes_get_data (bytes, &length);
  g_autoptr(GString) envelope = NULL;
  gsize copied = 0;

  for (gsize i = 0; i < length; i++)
    {
      gsize start = i, end = i;
      Packed *p;
      guint outer, index;
      gsize count;

      if (text[i] == '"')
        {
          for (i++; i < length && text[i] != '"'; i++)
            if (text[i] == '\\')
              i++;
          continue;
        }
      if (text[i] != '[')
        continue;
      switch (scan_numbers (text, length, &end, &outer, &count))
        {
        case SCAN_OTHER:
          continue;
        case SCAN_INVALID:
          /* A small one is json-glib's to describe, as ever. */
          if (end - start < PACK_MIN_BYTES)
            continue;
          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                       _("%s:%u: not a number, or a comma or bracket missing, in an array of numbers"),
                       display, line_at (text, end));
          return NULL;
        case SCAN_NUMBERS:
          i = end - 1;
          if (end - start < PACK_MIN_BYTES)
            continue;
          break;
        default:
          g_assert_not_reached ();
        }

      p = g_new (Packed, 1);
      *p = (Packed) { g_bytes_ref (bytes), start, end - start, outer, count };
      index = packed_add (p);
      g_array_append_val (indices, index);
      if (envelope == NULL)
        envelope = g_string_sized_new (MIN (length, 1 << 20));
      g_string_append_len (envelope, text + copied, start - copied);
      g_string_append_printf (envelope, "\"%s%u\"", token_prefix (), index);
      for (const char *s = text + start; (s = memchr (s, '\n', text + end - s)) != NULL; s++)
        g_string_append_c (envelope, '\n');
      copied = end;
    }
  if (envelope == NULL)
    return NULL;
  g_string_append_len (envelope, text + copied, length - copied);
  return g_steal_pointer (&envelope);
}

/* The packed array's numbers into @dout or @fout (whichever is not NULL);
 * FALSE at one that is not finite, or for @fout beyond a float (in *@bad). */
static gboolean
unpack (const Packed *p,
        double       *dout,
        float        *fout,
        double       *bad)
{
  const char *s = (const char *) g_bytes_get_data (p->bytes, NULL) + p->offset;
  const char *end = s + p->length;
  gsize filled = 0;

  while (s < end)
    {
      char *next;
      double v;

      if (*s != '-' && !g_ascii_isdigit (*s))
        {
          s++;
          continue;
        }
      v = g_ascii_strtod (s, &next);
      s = next;
      if (!isfinite (v) || (fout && fabs (v) > G_MAXFLOAT))
        return *bad = v, FALSE;
      if (dout)
        dout[filled++] = v;
      else
        fout[filled++] = v;
    }
  return TRUE;
}

typedef enum {
  READ_OK,
  READ_WRONG,      /* not COUNT finite numbers */
  READ_TOO_LARGE,  /* a number beyond a float, for floats */
} ReadResult;

/* Exactly @count finite numbers in @node, arrays (and packed arrays)
 * nested in any way read in order, into @dout or @fout. */
static ReadResult
read_into (JsonNode *node,
           double   *dout,
           float    *fout,
           gsize     count,
           double   *bad)
{
  gsize filled = 0;
  ReadResult result = READ_OK;
  GQueue todo = G_QUEUE_INIT;
  Packed p;

  /* Depth first with a queue, not recursion: nesting cannot exhaust the stack. */
  g_queue_push_tail (&todo, node);
  while (result == READ_OK && !g_queue_is_empty (&todo))
    {
      JsonNode *n = g_queue_pop_head (&todo);
      GType type = n && JSON_NODE_HOLDS_VALUE (n) ? json_node_get_value_type (n) : G_TYPE_INVALID;

      if (n && JSON_NODE_HOLDS_ARRAY (n))
        {
          JsonArray *a = json_node_get_array (n);

          for (guint i = json_array_get_length (a); i > 0; i--)
            g_queue_push_head (&todo, json_array_get_element (a, i - 1));
        }
      else if ((type == G_TYPE_DOUBLE || type == G_TYPE_INT64) && filled < count)
        {
          double v = json_node_get_double (n);

          if (!isfinite (v))
            result = READ_WRONG;
          else if (fout && fabs (v) > G_MAXFLOAT)
            *bad = v, result = READ_TOO_LARGE;
          else if (dout)
            dout[filled++] = v;
          else
            fout[filled++] = v;
        }
      else if (type == G_TYPE_STRING && packed_lookup (n, &p))
        {
          if (p.count > count - filled)
            result = READ_WRONG;
          else if (!unpack (&p, dout ? dout + filled : NULL, fout ? fout + filled : NULL, bad))
            result = isfinite (*bad) ? READ_TOO_LARGE : READ_WRONG;
          filled += p.count;
          g_bytes_unref (p.bytes);
        }
      else
        result = READ_WRONG;
    }
  if (result == READ_OK && (filled != count || !g_queue_is_empty (&todo)))
    result = READ_WRONG;
  g_queue_clear (&todo);
  return result;
}

gboolean
latent_json_read_numbers (JsonNode *node,
                          double   *out,
                          guint     count)
{
  double bad;

  return read_into (node, out, NULL, count, &bad) == READ_OK;
}

guint
latent_json_array_length (JsonObject *object,
                          const char *name)
{
  JsonNode *node = json_object_get_member (object, name);
  Packed p;

  if (packed_lookup (node, &p))
    {
      g_bytes_unref (p.bytes);
      return p.outer;
    }
  return node && JSON_NODE_HOLDS_ARRAY (node) ? json_array_get_length (json_node_get_array (node)) : 0;
}

float *
latent_json_read_floats (JsonObject  *object,
                         const char  *name,
                         gsize        count,
                         const char  *path,
                         GError     **error)
{
  g_autofree float *out = NULL;
  double bad = 0;
  ReadResult result = READ_WRONG;

  if (count > 0 && count <= G_MAXUINT / 2 && json_object_has_member (object, name) &&
      (out = g_try_new (float, count)))
    result = read_into (json_object_get_member (object, name), NULL, out, count, &bad);
  if (result == READ_TOO_LARGE)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                 _("%s: “%s” holds %g, too large for single precision"), path, name, bad);
  else if (result == READ_WRONG)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                 _("%s: “%s” must hold %lu finite numbers"), path, name, (unsigned long) count);
  return result == READ_OK ? g_steal_pointer (&out) : NULL;
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
  g_autoptr(GString) envelope = NULL;
  g_autofree char *display = NULL;
  GArray *indices;
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
  indices = g_array_new (FALSE, FALSE, sizeof (guint));
  g_object_set_data_full (G_OBJECT (parser), "latent-json-packed", indices, (GDestroyNotify) packed_release);
  if (!(envelope = pack_arrays (bytes, indices, display, &local_error)) && local_error)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  if (envelope)
    text = envelope->str, length = envelope->len;
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
