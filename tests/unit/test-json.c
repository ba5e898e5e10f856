/* test-json.c — large arrays of numbers written and read without a
 * json-glib node per number, and the same bytes and values as with one
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "latent-dataset.h"
#include "latent-json.h"

typedef struct {
  char *dir;
  char *path;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  f->dir = g_dir_make_tmp ("latent-json-XXXXXX", NULL);
  f->path = g_build_filename (f->dir, "t.json", NULL);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_unlink (f->path);
  g_rmdir (f->dir);
  g_free (f->path);
  g_free (f->dir);
}

/* Every helper, small and large, into @builder, from arrays that live as
 * long as the test. */
static void
build_all (JsonBuilder  *b,
           const double *doubles,
           const float  *floats,
           const gint32 *ints,
           const guint  *uints,
           guint         n)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, "a \"quoted\" name");
  latent_json_add_vector_member (b, "doubles", doubles, n);
  latent_json_add_vector_member (b, "few", doubles, 7);
  latent_json_add_float_vector_member (b, "floats", floats, n);
  latent_json_add_int_vector_member (b, "ints", ints, n);
  latent_json_add_uint_vector_member (b, "uints", uints, n);
  latent_json_add_matrix_member (b, "matrix", floats, n / 64, 64);
  latent_json_add_matrix_member (b, "empty", floats, 0, 64);
  latent_json_add_uint_matrix_member (b, "counts", uints, 64, n / 64);
  json_builder_set_member_name (b, "nested");
  json_builder_begin_array (b);
  latent_json_add_matrix (b, floats, 80, 80);
  latent_json_add_matrix (b, floats + 1, 3, 3);
  json_builder_end_array (b);
  latent_json_add_number_member (b, "after", 0.1);
  json_builder_end_object (b);
}

/* The file a deferring builder writes holds the bytes json-glib writes for
 * the same tree of nodes, values that need care (subnormals, exponents,
 * non-finite, extremes) included. */
static void
test_deferred_identical (Fixture       *f,
                         gconstpointer  data)
{
  const guint n = 64 * 100;
  g_autofree double *doubles = g_new (double, n);
  g_autofree float *floats = g_new (float, n);
  g_autofree gint32 *ints = g_new (gint32, n);
  g_autofree guint *uints = g_new (guint, n);
  const double special[] = { 0.0, -0.0, 0.1, 1e-10, 1e21, 1e300, -5e-324, 2.2250738585072014e-308, NAN, INFINITY,
                             -INFINITY, 3.0, 1.0 / 3.0, 123456789012345678.0 };
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  g_autoptr(JsonBuilder) plain = json_builder_new ();
  g_autoptr(JsonBuilder) deferring = latent_json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL, *written = NULL;
  gsize expected_length, written_length;

  for (guint i = 0; i < n; i++)
    {
      doubles[i] = i < G_N_ELEMENTS (special) ? special[i] : ldexp (g_rand_double_range (rand, -1, 1),
                                                                    g_rand_int_range (rand, -140, 140));
      floats[i] = i < G_N_ELEMENTS (special) ? (float) special[i] : (float) doubles[i];
      ints[i] = (gint32) g_rand_int (rand);
      uints[i] = i == 1 ? G_MAXUINT : g_rand_int (rand);
    }
  build_all (plain, doubles, floats, ints, uints, n);
  root = json_builder_get_root (plain);
  json_generator_set_root (gen, root);
  expected = json_generator_to_data (gen, &expected_length);

  build_all (deferring, doubles, floats, ints, uints, n);
  /* The large arrays really were kept out of the tree, the small one not. */
  {
    g_autoptr(JsonNode) tree = json_builder_get_root (deferring);
    JsonObject *object = json_node_get_object (tree);

    g_assert_true (JSON_NODE_HOLDS_VALUE (json_object_get_member (object, "doubles")));
    g_assert_true (JSON_NODE_HOLDS_VALUE (json_object_get_member (object, "counts")));
    g_assert_true (JSON_NODE_HOLDS_ARRAY (json_object_get_member (object, "few")));
  }
  g_assert_true (latent_json_builder_write_file (deferring, f->path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (f->path, &written, &written_length, NULL));
  g_assert_cmpmem (written, written_length, expected, expected_length);
}

/* A temporary array given to a deferring builder is kept until the write. */
static void
test_deferred_kept (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(JsonBuilder) b = latent_json_builder_new ();
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  double *values = g_new (double, 5000);
  JsonArray *array;

  for (guint i = 0; i < 5000; i++)
    values[i] = i;
  json_builder_begin_object (b);
  latent_json_add_vector_member (b, "v", values, 5000);
  latent_json_builder_keep (b, values);
  json_builder_end_object (b);
  g_assert_true (latent_json_builder_write_file (b, f->path, &error));
  g_assert_true (json_parser_load_from_file (parser, f->path, &error));
  array = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "v");
  g_assert_cmpuint (json_array_get_length (array), ==, 5000);
  g_assert_cmpfloat (json_array_get_double_element (array, 4999), ==, 4999);
}

static char *
number_text (guint i)
{
  /* Integers, fractions and exponents of both signs. */
  switch (i % 4)
    {
    case 0: return g_strdup_printf ("%u", i);
    case 1: return g_strdup_printf ("-%u.%03u", i, i % 1000);
    case 2: return g_strdup_printf ("%ue-%u", i % 97 + 1, i % 30);
    default: return g_strdup_printf ("%u.5E+%u", i % 13, i % 20);
    }
}

/* A file with a ROWS × COLS matrix "m" (pretty, one row a line), a small
 * vector "v" and "after" on the last line, whose line it returns. */
static guint
write_matrix_file (const char *path,
                   guint       rows,
                   guint       cols,
                   const char *replace_last)
{
  g_autoptr(GString) text = g_string_new ("{\n  \"v\": [1, 2.5, -3],\n  \"m\": [\n");
  guint line = 4;

  for (guint r = 0; r < rows; r++, line++)
    {
      g_string_append (text, "    [");
      for (guint c = 0; c < cols; c++)
        {
          g_autofree char *number = number_text (r * cols + c);

          if (c > 0)
            g_string_append (text, ", ");
          g_string_append (text, replace_last && r == rows - 1 && c == cols - 1 ? replace_last : number);
        }
      g_string_append (text, r + 1 < rows ? "],\n" : "]\n");
    }
  g_string_append (text, "  ],\n  \"after\": \"end\"\n}\n");
  g_assert_true (g_file_set_contents (path, text->str, text->len, NULL));
  return line + 1;
}

/* A matrix far beyond 256 KiB of text is read from the file's bytes: the
 * same numbers json-glib would give, its rows counted, the members around
 * it as ever. */
static void
test_packed_read (Fixture       *f,
                  gconstpointer  data)
{
  const guint rows = 500, cols = 100;
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree double *values = g_new (double, rows * cols + 1);
  g_autofree float *floats = NULL;
  JsonObject *root;
  double v[3];

  write_matrix_file (f->path, rows, cols, NULL);
  parser = latent_json_load_file (f->path, LATENT_MODEL_MAX_BYTES, "a test", &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  /* Packed: json-glib holds a string, not an array. */
  g_assert_false (JSON_NODE_HOLDS_ARRAY (json_object_get_member (root, "m")));
  g_assert_cmpuint (latent_json_array_length (root, "m"), ==, rows);
  g_assert_true (latent_json_read_numbers (json_object_get_member (root, "m"), values, rows * cols));
  for (guint i = 0; i < rows * cols; i++)
    {
      g_autofree char *number = number_text (i);

      g_assert_cmpfloat (values[i], ==, g_ascii_strtod (number, NULL));
    }
  g_assert_false (latent_json_read_numbers (json_object_get_member (root, "m"), values, rows * cols - 1));
  g_assert_false (latent_json_read_numbers (json_object_get_member (root, "m"), values, rows * cols + 1));
  floats = latent_json_read_floats (root, "m", (gsize) rows * cols, f->path, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (floats[rows * cols - 1], ==, (float) values[rows * cols - 1]);
  /* Small arrays stay json-glib's. */
  g_assert_true (JSON_NODE_HOLDS_ARRAY (json_object_get_member (root, "v")));
  g_assert_true (latent_json_read_numbers (json_object_get_member (root, "v"), v, 3));
  g_assert_cmpfloat (v[2], ==, -3);
  g_assert_cmpstr (json_object_get_string_member (root, "after"), ==, "end");
}

/* A large matrix whose last number is @last: parsed, then read as doubles
 * (@as_doubles: whether that works) and as floats (refused, saying @why). */
static void
read_out_of_range (const char *path,
                   guint       rows,
                   guint       cols,
                   const char *last,
                   gboolean    as_doubles,
                   const char *why)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = NULL;
  g_autofree double *values = g_new (double, rows * cols);
  g_autofree float *floats = NULL;
  JsonObject *root;

  write_matrix_file (path, rows, cols, last);
  parser = latent_json_load_file (path, LATENT_MODEL_MAX_BYTES, "a test", &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_true (latent_json_read_numbers (json_object_get_member (root, "m"), values, rows * cols) == as_doubles);
  floats = latent_json_read_floats (root, "m", (gsize) rows * cols, "t.json", &error);
  g_assert_null (floats);
  g_assert_nonnull (strstr (error->message, why));
}

/* What json-glib would refuse in a large array is refused naming the line;
 * numbers beyond a float or a double are refused as in a small one. */
static void
test_packed_refused (Fixture       *f,
                     gconstpointer  data)
{
  const struct { const char *last; const char *in_message; } cases[] = {
    { "1.2.3", NULL }, { "01", NULL }, { "1e", NULL }, { "- 1", NULL }, { "0x10", NULL }, { "NaN", NULL },
    { "1,", NULL }, { "1 2", NULL },
  };
  const guint rows = 500, cols = 100;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonParser) parser = NULL;
      guint last_line = write_matrix_file (f->path, rows, cols, cases[i].last) - 2;
      g_autofree char *where = g_strdup_printf ("t.json:%u:", last_line);

      parser = latent_json_load_file (f->path, LATENT_MODEL_MAX_BYTES, "a test", &error);
      g_test_message ("%s: %s", cases[i].last, error ? error->message : "accepted");
      g_assert_null (parser);
      g_assert_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE);
      g_assert_nonnull (strstr (error->message, where));
    }

  /* A number beyond a float is a double still; one beyond a double is not finite. */
  read_out_of_range (f->path, rows, cols, "1e39", TRUE, "single precision");
  read_out_of_range (f->path, rows, cols, "1e400", FALSE, "finite numbers");
}

/* json-glib's own errors after a packed array still name the right line. */
static void
test_packed_lines (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = NULL;
  g_autofree char *text = NULL;
  g_autofree char *where = NULL;
  g_autoptr(GString) broken = NULL;
  guint last = write_matrix_file (f->path, 500, 100, NULL);

  g_assert_true (g_file_get_contents (f->path, &text, NULL, NULL));
  broken = g_string_new (text);
  /* "after": "end" loses its colon. */
  g_string_replace (broken, "\"after\": \"end\"", "\"after\" \"end\"", 1);
  g_assert_true (g_file_set_contents (f->path, broken->str, broken->len, NULL));
  parser = latent_json_load_file (f->path, LATENT_MODEL_MAX_BYTES, "a test", &error);
  g_assert_null (parser);
  where = g_strdup_printf (":%u:", last);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, where));
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/json/deferred/identical", Fixture, NULL, fixture_set_up, test_deferred_identical, fixture_tear_down);
  g_test_add ("/json/deferred/kept", Fixture, NULL, fixture_set_up, test_deferred_kept, fixture_tear_down);
  g_test_add ("/json/packed/read", Fixture, NULL, fixture_set_up, test_packed_read, fixture_tear_down);
  g_test_add ("/json/packed/refused", Fixture, NULL, fixture_set_up, test_packed_refused, fixture_tear_down);
  g_test_add ("/json/packed/lines", Fixture, NULL, fixture_set_up, test_packed_lines, fixture_tear_down);
  return g_test_run ();
}
