/* test-arff.c — Weka's ARFF tables: attributes and classes, nominal
 * attributes one-hot, sparse rows, quoting, and bad input refused with the
 * file, the line and the attribute named
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "test-arff"

#include <math.h>
#include <string.h>

#include "latent-arff.h"

static LatentDataset *
load (const char  *text,
      GError     **error)
{
  g_autoptr(GBytes) bytes = g_bytes_new (text, strlen (text));

  return latent_arff_load_bytes (bytes, "test.arff", NULL, error);
}

/* Numeric attributes are columns, named as declared (quotes and all); the
 * class gives labels named by its values in declared order. */
static void
test_classes (void)
{
  static const char text[] =
    "% a comment\n"
    "@RELATION iris\n"
    "\n"
    "@ATTRIBUTE sepallength\tREAL\n"
    "@ATTRIBUTE 'petal length' NUMERIC\n"
    "@ATTRIBUTE class {Iris-setosa,Iris-versicolor,Iris-virginica}\n"
    "@DATA\n"
    "5.1,1.4,Iris-virginica\r\n"
    "% a comment among the rows\n"
    "4.9 , 1.5 , Iris-setosa\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentDataset) dataset = load (text, &error);
  const float *values;

  g_assert_no_error (error);
  g_assert_cmpuint (latent_dataset_get_n_rows (dataset), ==, 2);
  g_assert_cmpuint (latent_dataset_get_n_cols (dataset), ==, 2);
  g_assert_cmpstr (latent_dataset_get_column_name (dataset, 1), ==, "petal length");
  values = latent_dataset_get_data (dataset);
  g_assert_cmpfloat (values[0], ==, 5.1f);
  g_assert_cmpfloat (values[3], ==, 1.5f);
  g_assert_cmpuint (latent_dataset_get_n_classes (dataset), ==, 3);
  g_assert_cmpstr (latent_dataset_get_class_name (dataset, 0), ==, "Iris-setosa");
  g_assert_cmpint (latent_dataset_get_labels (dataset)[0], ==, 2);
  g_assert_cmpint (latent_dataset_get_labels (dataset)[1], ==, 0);
}

/* Other nominal attributes are one column per value; strings and dates
 * are left out; quoted values hold commas; a sparse row's unlisted
 * attributes are 0 and a nominal's first value. */
static void
test_nominal_and_sparse (void)
{
  static const char text[] =
    "@relation weather\n"
    "@attribute outlook {sunny, overcast, 'light rain'}\n"
    "@attribute temperature numeric\n"
    "@attribute id string\n"
    "@attribute when date \"yyyy-MM-dd\"\n"
    "@attribute play {yes, no}\n"
    "@data\n"
    "'light rain',85,'a, 1',2024-01-01,no\n"
    "overcast,83,\"b \\\"2\\\"\",2024-01-02,yes\n"
    "{1 70, 4 no}\n";
  static const float expected[] = { 0, 0, 1, 85,   0, 1, 0, 83,   1, 0, 0, 70 };
  static const gint32 classes[] = { 1, 0, 1 };
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentDataset) dataset = load (text, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (latent_dataset_get_n_rows (dataset), ==, 3);
  g_assert_cmpuint (latent_dataset_get_n_cols (dataset), ==, 4);
  g_assert_cmpstr (latent_dataset_get_column_name (dataset, 2), ==, "outlook=light rain");
  g_assert_cmpmem (latent_dataset_get_data (dataset), sizeof expected, expected, sizeof expected);
  g_assert_cmpmem (latent_dataset_get_labels (dataset), sizeof classes, classes, sizeof classes);
}

/* Without a nominal class there are no labels. */
static void
test_no_class (void)
{
  g_autoptr(LatentDataset) dataset = load ("@relation r\n@attribute a numeric\n@attribute b integer\n@data\n1,2\n", NULL);

  g_assert_nonnull (dataset);
  g_assert_false (latent_dataset_has_labels (dataset));
}

/* A table's import choices: the class chosen (or none), attributes left
 * out, missing values dropped or filled (a nominal's by its values'
 * shares), numeric columns standardised, and what they did reported. */
static void
test_choices (void)
{
  static const char text[] =
    "@relation r\n"
    "@attribute id numeric\n"
    "@attribute a numeric\n"
    "@attribute colour {red,blue}\n"
    "@attribute size {small,large}\n"
    "@data\n"
    "1,1,red,small\n"
    "2,?,blue,large\n"
    "3,5,?,large\n"
    "4,3,red,?\n";
  g_autoptr(GBytes) bytes = g_bytes_new (text, strlen (text));
  static const char * const ignore[] = { "id", NULL };
  LatentCsvReport report = { 0 };
  LatentCsvOptions drop = { .ignore = ignore, .missing = LATENT_CSV_MISSING_DROP, .report = &report };
  LatentCsvOptions mean = { .ignore = ignore, .missing = LATENT_CSV_MISSING_MEAN, .label_column = "none",
                            .standardise = TRUE };
  LatentCsvOptions numeric = { .label_column = "a" };
  g_autoptr(LatentDataset) dropped = NULL, filled = NULL;
  g_autoptr(GError) error = NULL;
  const float *v;

  /* size is the class; the third row's colour is missing, and the last's
   * class: both rows go, and the second. */
  dropped = latent_arff_load_bytes (bytes, "t.arff", &drop, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (latent_dataset_get_n_rows (dropped), ==, 1);
  g_assert_cmpuint (latent_dataset_get_n_cols (dropped), ==, 3);   /* a, colour=red, colour=blue */
  g_assert_cmpuint (report.rows_dropped, ==, 3);
  g_assert_cmpuint (report.columns_ignored, ==, 1);
  g_assert_cmpuint (report.columns_one_hot, ==, 1);

  /* No class: size is a feature; a's mean (1+5+3)/3 = 3 fills row 2, then
   * a is standardised; colour's shares fill row 3. */
  filled = latent_arff_load_bytes (bytes, "t.arff", &mean, &error);
  g_assert_no_error (error);
  g_assert_false (latent_dataset_has_labels (filled));
  g_assert_cmpuint (latent_dataset_get_n_rows (filled), ==, 4);
  g_assert_cmpuint (latent_dataset_get_n_cols (filled), ==, 5);
  v = latent_dataset_get_data (filled);
  g_assert_cmpfloat_with_epsilon (v[0 * 5 + 0], (1 - 3) / sqrt (2.0), 1e-5);   /* sd of 1,3,5,3 is √2 */
  g_assert_cmpfloat_with_epsilon (v[1 * 5 + 0], 0, 1e-6);
  g_assert_cmpfloat_with_epsilon (v[2 * 5 + 1], 2 / 3.0, 1e-6);   /* red in 2 of the 3 known */
  g_assert_cmpfloat_with_epsilon (v[3 * 5 + 3], 1 / 3.0, 1e-6);   /* small in 1 of 3 */

  /* A class is nominal; an attribute not there is named. */
  g_assert_null (latent_arff_load_bytes (bytes, "t.arff", &numeric, &error));
  g_assert_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "label=a: the attribute “a” is not nominal"));
  g_clear_error (&error);
  numeric.label_column = NULL;
  numeric.ignore = (const char * const[]) { "weight", NULL };
  g_assert_null (latent_arff_load_bytes (bytes, "t.arff", &numeric, &error));
  g_assert_nonnull (strstr (error->message, "t.arff: ignore=weight: no such attribute"));
}

static void
test_bad (void)
{
  static const char head[] = "@relation r\n@attribute a numeric\n@attribute class {x,y}\n@data\n";
  struct { const char *text; int code; const char *fragment; } cases[] = {
    { "", LATENT_DATA_ERROR_EMPTY, "test.arff: empty file" },
    { "@relation r\n@attribute a numeric\n", LATENT_DATA_ERROR_PARSE, "no @data line" },
    { "@relation r\nhello\n", LATENT_DATA_ERROR_PARSE, "test.arff:2: “hello” is not an ARFF header line" },
    { "@relation r\n@attribute a relational\n", LATENT_DATA_ERROR_UNSUPPORTED, "test.arff:2: attribute “a”: type “relational”" },
    { "@relation r\n@attribute a {x,y\n", LATENT_DATA_ERROR_PARSE, "does not end with }" },
    { "@relation r\n@attribute class {x}\n@data\nx\n", LATENT_DATA_ERROR_EMPTY, "no numeric or nominal attribute besides the class" },
    { "@relation r\n@attribute a numeric\n@data\n", LATENT_DATA_ERROR_EMPTY, "no rows after @data" },
  };
  struct { const char *rows; int code; const char *fragment; } data[] = {
    { "1,x\n2,?\n", LATENT_DATA_ERROR_VALUE, "test.arff:6: attribute “class”: missing value (?" },
    { "?,x\n", LATENT_DATA_ERROR_VALUE, "test.arff:5: attribute “a”: missing value (?; missing=drop" },
    { "1,z\n", LATENT_DATA_ERROR_PARSE, "attribute “class”: “z” is not one of its values" },
    { "one,x\n", LATENT_DATA_ERROR_PARSE, "attribute “a”: “one” is not a number" },
    { "inf,x\n", LATENT_DATA_ERROR_NOT_FINITE, "attribute “a”: not a finite number (inf)" },
    { "1e39,x\n", LATENT_DATA_ERROR_NOT_FINITE, "not a finite number (1e39)" },
    { "1\n", LATENT_DATA_ERROR_PARSE, "test.arff:5: 1 values; the header declares 2 attributes" },
    { "1,x,3\n", LATENT_DATA_ERROR_PARSE, "more values than the 2 attributes" },
    { "'1,x\n", LATENT_DATA_ERROR_PARSE, "a quote that does not close" },
    { "{2 1}\n", LATENT_DATA_ERROR_PARSE, "index must be 0 to 1" },
    { "{0 1}, {3}\n", LATENT_DATA_ERROR_UNSUPPORTED, "instance weights" },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases) + G_N_ELEMENTS (data); c++)
    {
      g_autofree char *text = c < G_N_ELEMENTS (cases) ? g_strdup (cases[c].text)
                                                        : g_strconcat (head, data[c - G_N_ELEMENTS (cases)].rows, NULL);
      int code = c < G_N_ELEMENTS (cases) ? cases[c].code : data[c - G_N_ELEMENTS (cases)].code;
      const char *fragment = c < G_N_ELEMENTS (cases) ? cases[c].fragment : data[c - G_N_ELEMENTS (cases)].fragment;
      g_autoptr(GError) error = NULL;
      g_autoptr(LatentDataset) dataset = load (text, &error);

      g_test_message ("%s", error ? error->message : "loaded");
      g_assert_null (dataset);
      g_assert_error (error, LATENT_DATA_ERROR, code);
      g_assert_nonnull (strstr (error->message, fragment));
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/arff/classes", test_classes);
  g_test_add_func ("/arff/nominal-and-sparse", test_nominal_and_sparse);
  g_test_add_func ("/arff/no-class", test_no_class);
  g_test_add_func ("/arff/choices", test_choices);
  g_test_add_func ("/arff/bad", test_bad);
  return g_test_run ();
}
