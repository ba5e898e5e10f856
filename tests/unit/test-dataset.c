/* test-dataset.c — LatentDataset: sizes, limits, labels, image shape, hash
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "test-dataset"

#include <math.h>
#include <string.h>

#include "latent-dataset.h"

static LatentDataset *
make_dataset (guint rows,
              guint cols)
{
  g_autoptr(GError) error = NULL;
  LatentDataset *dataset = latent_dataset_new ("test", rows, cols, &error);
  float *x;

  g_assert_no_error (error);
  g_assert_nonnull (dataset);
  x = latent_dataset_get_data (dataset);
  for (guint i = 0; i < rows * cols; i++)
    x[i] = 0.5f * i - 3;
  return dataset;
}

static void
test_new (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentDataset) dataset = latent_dataset_new ("numbers", 4, 3, &error);
  const float *data;

  g_assert_no_error (error);
  g_assert_cmpstr (latent_dataset_get_name (dataset), ==, "numbers");
  g_assert_null (latent_dataset_get_source (dataset));
  g_assert_cmpuint (latent_dataset_get_n_rows (dataset), ==, 4);
  g_assert_cmpuint (latent_dataset_get_n_cols (dataset), ==, 3);
  g_assert_false (latent_dataset_has_labels (dataset));
  g_assert_false (latent_dataset_get_image_shape (dataset, NULL, NULL, NULL, NULL));
  g_assert_null (latent_dataset_get_column_name (dataset, 0));

  data = latent_dataset_get_data (dataset);
  for (guint i = 0; i < 12; i++)
    g_assert_cmpfloat (data[i], ==, 0.0f);

  latent_dataset_get_data (dataset)[1 * 3 + 2] = 7.5f;
  g_assert_cmpfloat (latent_dataset_get_row (dataset, 1)[2], ==, 7.5f);
  g_assert_true (latent_dataset_get_row (dataset, 3) == data + 9);

  latent_dataset_set_name (dataset, "renamed");
  latent_dataset_set_source (dataset, "/some/where.csv");
  g_assert_cmpstr (latent_dataset_get_name (dataset), ==, "renamed");
  g_assert_cmpstr (latent_dataset_get_source (dataset), ==, "/some/where.csv");
}

static void
test_limits (void)
{
  g_autoptr(GError) error = NULL;
  LatentDataset *dataset;
  gint64 start;

  dataset = latent_dataset_new ("none", 0, 3, &error);
  g_assert_null (dataset);
  g_assert_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_EMPTY);
  g_assert_nonnull (strstr (error->message, "none"));
  g_clear_error (&error);

  dataset = latent_dataset_new ("none", 3, 0, &error);
  g_assert_null (dataset);
  g_assert_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_EMPTY);
  g_clear_error (&error);

  /* Above the limit: refused at once, without trying to allocate. */
  start = g_get_monotonic_time ();
  dataset = latent_dataset_new ("huge", G_MAXUINT, G_MAXUINT, &error);
  g_assert_null (dataset);
  g_assert_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, "huge"));
  g_clear_error (&error);

  dataset = latent_dataset_new ("just over", (guint) (LATENT_DATASET_MAX_VALUES / 4) + 1, 4, &error);
  g_assert_null (dataset);
  g_assert_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE);
  g_clear_error (&error);
  g_assert_cmpint (g_get_monotonic_time () - start, <, G_USEC_PER_SEC);
}

static void
test_columns (void)
{
  g_autoptr(LatentDataset) dataset = make_dataset (2, 3);
  char *names[] = { (char *) "a", (char *) "b", (char *) "c", NULL };

  latent_dataset_set_column_names (dataset, names);
  names[0] = (char *) "changed";   /* the dataset keeps its own copy */
  g_assert_cmpstr (latent_dataset_get_column_name (dataset, 0), ==, "a");
  g_assert_cmpstr (latent_dataset_get_column_name (dataset, 2), ==, "c");
  g_assert_null (latent_dataset_get_column_name (dataset, 3));

  latent_dataset_set_column_names (dataset, NULL);
  g_assert_null (latent_dataset_get_column_name (dataset, 0));
}

static void
test_labels (void)
{
  g_autoptr(LatentDataset) dataset = make_dataset (4, 2);
  gint32 labels[] = { 0, 2, 1, 2 };
  gint32 bad[] = { 0, 3, 1, 2 };
  char *names[] = { (char *) "zero", (char *) "one", (char *) "two", NULL };

  latent_dataset_set_labels (dataset, labels, 3, names);
  labels[0] = 1;   /* copied, not kept */
  g_assert_true (latent_dataset_has_labels (dataset));
  g_assert_cmpuint (latent_dataset_get_n_classes (dataset), ==, 3);
  g_assert_cmpint (latent_dataset_get_labels (dataset)[0], ==, 0);
  g_assert_cmpint (latent_dataset_get_labels (dataset)[3], ==, 2);
  g_assert_cmpstr (latent_dataset_get_class_name (dataset, 1), ==, "one");
  g_assert_null (latent_dataset_get_class_name (dataset, 3));

  /* Without names. */
  latent_dataset_set_labels (dataset, labels, 3, NULL);
  g_assert_cmpint (latent_dataset_get_labels (dataset)[0], ==, 1);
  g_assert_null (latent_dataset_get_class_name (dataset, 0));

  /* Cleared. */
  latent_dataset_set_labels (dataset, NULL, 0, NULL);
  g_assert_false (latent_dataset_has_labels (dataset));
  g_assert_cmpuint (latent_dataset_get_n_classes (dataset), ==, 0);

  /* A label outside [0, n_classes) is a programming error, and refused. */
  g_test_expect_message ("latent-dataset", G_LOG_LEVEL_CRITICAL, "*labels*");
  latent_dataset_set_labels (dataset, bad, 3, NULL);
  g_test_assert_expected_messages ();
  g_assert_false (latent_dataset_has_labels (dataset));
}

static void
test_image_shape (void)
{
  g_autoptr(LatentDataset) images = make_dataset (5, 12);
  g_autoptr(LatentDataset) picture = make_dataset (12, 3);
  guint width = 0, height = 0, channels = 0;
  gboolean single = TRUE;

  latent_dataset_set_image_shape (images, 4, 3, 1, FALSE);
  g_assert_true (latent_dataset_get_image_shape (images, &width, &height, &channels, &single));
  g_assert_cmpuint (width, ==, 4);
  g_assert_cmpuint (height, ==, 3);
  g_assert_cmpuint (channels, ==, 1);
  g_assert_false (single);

  latent_dataset_set_image_shape (picture, 3, 4, 3, TRUE);
  g_assert_true (latent_dataset_get_image_shape (picture, &width, &height, &channels, &single));
  g_assert_cmpuint (width, ==, 3);
  g_assert_cmpuint (height, ==, 4);
  g_assert_cmpuint (channels, ==, 3);
  g_assert_true (single);

  /* A shape that does not match the size is refused. */
  g_test_expect_message ("latent-dataset", G_LOG_LEVEL_CRITICAL, "*single_image*");
  latent_dataset_set_image_shape (images, 5, 5, 1, FALSE);
  g_test_assert_expected_messages ();
  g_assert_true (latent_dataset_get_image_shape (images, &width, NULL, NULL, NULL));
  g_assert_cmpuint (width, ==, 4);
}

/* What a column is called: its name; a pixel (x, y from 0), with its
 * channel; a photo's channel; or its number from 1. */
static void
test_column_labels (void)
{
  g_autoptr(LatentDataset) plain = make_dataset (2, 3);
  g_autoptr(LatentDataset) grey = make_dataset (2, 6);
  g_autoptr(LatentDataset) rgb = make_dataset (2, 12);
  g_autoptr(LatentDataset) photo = make_dataset (6, 4);
  const char *names[] = { "a", "b", "c", NULL };
  g_autofree char *named = NULL;
  struct { LatentDataset *dataset; guint col; const char *label; } cases[] = {
    { plain, 2, "column 3" },
    { grey, 0, "pixel 0, 0" }, { grey, 4, "pixel 1, 1" }, { grey, 5, "pixel 2, 1" },
    { rgb, 0, "pixel 0, 0 red" }, { rgb, 5, "pixel 1, 0 blue" }, { rgb, 10, "pixel 1, 1 green" },
    { photo, 0, "red" }, { photo, 3, "alpha" },
  };

  latent_dataset_set_image_shape (grey, 3, 2, 1, FALSE);
  latent_dataset_set_image_shape (rgb, 2, 2, 3, FALSE);
  latent_dataset_set_image_shape (photo, 3, 2, 4, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *label = latent_dataset_dup_column_label (cases[i].dataset, cases[i].col);

      g_assert_cmpstr (label, ==, cases[i].label);
    }
  latent_dataset_set_column_names (plain, (GStrv) names);
  named = latent_dataset_dup_column_label (plain, 1);
  g_assert_cmpstr (named, ==, "b");
}

static void
test_hash (void)
{
  g_autoptr(LatentDataset) a = make_dataset (6, 4);
  g_autoptr(LatentDataset) b = make_dataset (6, 4);
  g_autoptr(LatentDataset) wide = make_dataset (4, 6);
  g_autofree char *original = g_strdup (latent_dataset_get_hash (a));
  g_autofree char *with_labels = NULL;
  gint32 labels[] = { 0, 1, 0, 1, 0, 1 };
  gint32 other[] = { 1, 1, 0, 1, 0, 1 };
  float saved;

  /* Hex SHA-256, stable, and the same for the same content. */
  g_assert_cmpuint (strlen (original), ==, 64);
  g_assert_cmpstr (latent_dataset_get_hash (a), ==, original);
  g_assert_cmpstr (latent_dataset_get_hash (b), ==, original);
  latent_dataset_set_name (b, "another name");
  g_assert_cmpstr (latent_dataset_get_hash (b), ==, original);

  /* Same values, other shape. */
  g_assert_cmpstr (latent_dataset_get_hash (wide), !=, original);

  /* One value changes it; changing it back restores it. */
  saved = latent_dataset_get_data (a)[13];
  latent_dataset_get_data (a)[13] = saved + 1e-3f;
  g_assert_cmpstr (latent_dataset_get_hash (a), !=, original);
  latent_dataset_get_data (a)[13] = saved;
  g_assert_cmpstr (latent_dataset_get_hash (a), ==, original);

  /* Labels count, and which labels. */
  latent_dataset_set_labels (a, labels, 2, NULL);
  with_labels = g_strdup (latent_dataset_get_hash (a));
  g_assert_cmpstr (with_labels, !=, original);
  latent_dataset_set_labels (a, other, 2, NULL);
  g_assert_cmpstr (latent_dataset_get_hash (a), !=, with_labels);
  latent_dataset_set_labels (a, NULL, 0, NULL);
  g_assert_cmpstr (latent_dataset_get_hash (a), ==, original);

  /* So does an image shape. */
  latent_dataset_set_image_shape (b, 2, 2, 1, FALSE);
  g_assert_cmpstr (latent_dataset_get_hash (b), !=, original);
}

static void
test_check_finite (void)
{
  g_autoptr(LatentDataset) dataset = make_dataset (3, 4);
  g_autoptr(GError) error = NULL;

  g_assert_true (latent_dataset_check_finite (dataset, "fine.csv", &error));
  g_assert_no_error (error);

  latent_dataset_get_data (dataset)[1 * 4 + 2] = NAN;
  g_assert_false (latent_dataset_check_finite (dataset, "odd.csv", &error));
  g_assert_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_NOT_FINITE);
  g_assert_nonnull (strstr (error->message, "odd.csv"));
  g_assert_nonnull (strstr (error->message, "row 2, column 3"));
  g_clear_error (&error);

  latent_dataset_get_data (dataset)[1 * 4 + 2] = 0;
  latent_dataset_get_data (dataset)[2 * 4 + 0] = -INFINITY;
  g_assert_false (latent_dataset_check_finite (dataset, NULL, &error));
  g_assert_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_NOT_FINITE);
  g_assert_nonnull (strstr (error->message, "test"));
  g_assert_nonnull (strstr (error->message, "row 3, column 1"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/dataset/new", test_new);
  g_test_add_func ("/dataset/limits", test_limits);
  g_test_add_func ("/dataset/columns", test_columns);
  g_test_add_func ("/dataset/labels", test_labels);
  g_test_add_func ("/dataset/image-shape", test_image_shape);
  g_test_add_func ("/dataset/column-labels", test_column_labels);
  g_test_add_func ("/dataset/hash", test_hash);
  g_test_add_func ("/dataset/check-finite", test_check_finite);

  return g_test_run ();
}
