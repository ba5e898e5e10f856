/* test-features.c — models that feed each other, and the test data beside a
 * dataset: an encoder's result JSON read back encodes rows as the run's own
 * projection did; test data is checked and its classes matched by name; the
 * held-out split is seeded, disjoint and refuses what cannot be learned
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <math.h>

#include "latent-classify.h"
#include "latent-registry.h"
#include "latent-result.h"
#include "latent-test-util.h"

/* Fits @id on @ds (C reference path), writes its JSON, reads the model back
 * and encodes @ds with it. */
static void
check_round_trip (const char    *id,
                  LatentDataset *ds,
                  const char    *param,
                  double         tolerance)
{
  const LatentAlgorithm *algorithm = latent_registry_lookup (id, NULL);
  g_autoptr(LatentParams) params = latent_algorithm_new_params (algorithm);
  g_autoptr(LatentFit) fit = NULL;
  g_autoptr(LatentSnapshot) model = NULL;
  g_autoptr(LatentDataset) direct = NULL;
  g_autoptr(LatentDataset) read_back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("latent-features-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "model.json", NULL);
  const guint n = latent_dataset_get_n_rows (ds);
  double worst = 0, scale = 0;
  guint m;

  g_assert_true (latent_params_parse (params, param, &error));
  fit = latent_algorithm_fit (algorithm, ds, params, 7, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (latent_result_write_json (fit->snapshot, fit->history, 0, 0, path, &error));
  g_assert_no_error (error);
  model = latent_result_read_model (path, &error);
  g_assert_no_error (error);
  g_assert_true (model->algorithm == algorithm);

  direct = algorithm->encode (fit->snapshot, ds, &error);
  g_assert_no_error (error);
  read_back = algorithm->encode (model, ds, &error);
  g_assert_no_error (error);
  m = latent_dataset_get_n_cols (read_back);
  g_assert_cmpuint (m, ==, latent_dataset_get_n_cols (direct));
  g_assert_cmpuint (latent_dataset_get_n_rows (read_back), ==, n);
  /* The labels come along. */
  g_assert_cmpmem (latent_dataset_get_labels (read_back), n * sizeof (gint32),
                   latent_dataset_get_labels (ds), n * sizeof (gint32));
  for (gsize i = 0; i < (gsize) n * m; i++)
    {
      double a = latent_dataset_get_data (read_back)[i], b = latent_dataset_get_data (direct)[i];

      worst = MAX (worst, fabs (a - b));
      scale = MAX (scale, fabs (b));
    }
  g_test_message ("%s: %u × %u features, largest difference %g of %g", id, n, m, worst, scale);
  g_assert_cmpfloat (worst, <=, tolerance * scale);

  /* A linear model's projection of its own rows is the same encoding. */
  if (fit->snapshot->linear.projection && fit->snapshot->linear.projection_dims == m)
    for (gsize i = 0; i < (gsize) n * m; i++)
      g_assert_cmpfloat (fabs (latent_dataset_get_data (read_back)[i] - fit->snapshot->linear.projection[i]), <=,
                         1e-4 * scale);
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_round_trip_linear (void)
{
  g_autoptr(LatentDataset) ds = test_blobs (300, 12, 4, 1.5, 3);

  check_round_trip ("pca", ds, "components=5", 1e-5);
  check_round_trip ("ppca", ds, "components=3", 1e-5);
  check_round_trip ("fa", ds, "components=3", 1e-5);
}

static void
test_round_trip_wta (void)
{
  g_autoptr(LatentDataset) ds = test_blobs (400, 16, 4, 1.0, 5);

  check_round_trip ("wta", ds, "hidden=32", 1e-5);
}

/* A model for other data, or a result with no encoder, is refused. */
static void
test_refused (void)
{
  const LatentAlgorithm *pca = latent_registry_lookup ("pca", NULL);
  const LatentAlgorithm *kmeans = latent_registry_lookup ("kmeans", NULL);
  g_autoptr(LatentDataset) ds = test_blobs (100, 6, 2, 1.0, 1);
  g_autoptr(LatentDataset) wide = test_blobs (100, 7, 2, 1.0, 1);
  g_autoptr(LatentParams) params = latent_algorithm_new_params (pca);
  g_autoptr(LatentParams) kparams = latent_algorithm_new_params (kmeans);
  g_autoptr(LatentFit) fit = NULL;
  g_autoptr(LatentFit) kfit = NULL;
  g_autoptr(LatentSnapshot) model = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("latent-features-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "model.json", NULL);

  fit = latent_algorithm_fit (pca, ds, params, 1, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_null (pca->encode (fit->snapshot, wide, &error));
  g_assert_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER);
  g_assert_nonnull (strstr (error->message, "6 columns"));
  g_assert_nonnull (strstr (error->message, "7"));
  g_clear_error (&error);

  kfit = latent_algorithm_fit (kmeans, ds, kparams, 1, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (latent_result_write_json (kfit->snapshot, kfit->history, 0, 0, path, &error));
  model = latent_result_read_model (path, &error);
  g_assert_null (model);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, "kmeans"));
  g_clear_error (&error);

  g_assert_true (g_file_set_contents (path, "{\"algorithm\": \"pca\", \"mean\": [1, 2], \"encoder\": [[1, 1e400]]}", -1, NULL));
  g_assert_null (latent_result_read_model (path, &error));
  g_assert_nonnull (strstr (error->message, "encoder"));
  g_clear_error (&error);

  g_assert_null (latent_result_read_model ("/dev/null", &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_unlink (path);
  g_rmdir (dir);
}

static LatentDataset *
named_classes (const char        *name,
               const char *const *classes,
               guint              n_classes,
               const gint32      *labels,
               guint              n,
               guint              d)
{
  LatentDataset *ds = latent_dataset_new (name, n, d, NULL);

  latent_dataset_set_labels (ds, labels, n_classes, (GStrv) classes);
  return ds;
}

/* Test data must have the same columns; its classes are the training
 * data's, matched by name whatever order its file listed them in. */
static void
test_test_companion (void)
{
  const char *train_names[] = { "setosa", "versicolor", "virginica", NULL };
  const char *test_names[] = { "virginica", "setosa", NULL };
  const char *odd_names[] = { "setosa", "tulip", NULL };
  const gint32 train_labels[] = { 0, 1, 2, 0 };
  const gint32 test_labels[] = { 0, 1, 1 };
  g_autoptr(LatentDataset) train = named_classes ("train", train_names, 3, train_labels, 4, 2);
  g_autoptr(LatentDataset) test = named_classes ("test", test_names, 2, test_labels, 3, 2);
  g_autoptr(LatentDataset) odd = named_classes ("odd", odd_names, 2, test_labels, 3, 2);
  g_autoptr(LatentDataset) wide = latent_dataset_new ("wide", 3, 5, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_false (latent_dataset_set_test (train, wide, &error));
  g_assert_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_MISMATCH);
  g_assert_nonnull (strstr (error->message, "“wide” has 5 columns"));
  g_assert_nonnull (strstr (error->message, "“train” has 2"));
  g_clear_error (&error);
  g_assert_false (latent_dataset_set_test (train, odd, &error));
  g_assert_nonnull (strstr (error->message, "tulip"));
  g_clear_error (&error);
  g_assert_null (latent_dataset_get_test (train));

  g_assert_true (latent_dataset_set_test (train, test, &error));
  g_assert_no_error (error);
  g_assert_true (latent_dataset_get_test (train) == test);
  g_assert_cmpuint (latent_dataset_get_n_classes (test), ==, 3);
  g_assert_cmpint (latent_dataset_get_labels (test)[0], ==, 2);   /* virginica */
  g_assert_cmpint (latent_dataset_get_labels (test)[1], ==, 0);   /* setosa */
  g_assert_cmpstr (latent_dataset_get_class_name (test, 2), ==, "virginica");
}

/* The held-out split: seeded, disjoint, covering, refusing the hopeless. */
static void
test_split (void)
{
  g_autoptr(LatentDataset) ds = test_blobs (200, 3, 4, 1.0, 2);
  g_autoptr(LatentSplit) a = latent_split_new (ds, 0.25, 9, NULL);
  g_autoptr(LatentSplit) b = latent_split_new (ds, 0.25, 9, NULL);
  g_autoptr(LatentSplit) c = latent_split_new (ds, 0.25, 10, NULL);
  g_autofree guint *seen = g_new0 (guint, 200);
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentDataset) unlabelled = latent_dataset_new ("plain", 10, 2, NULL);
  g_autoptr(LatentDataset) one_class = latent_dataset_new ("one class", 10, 2, NULL);
  const gint32 zeros[10] = { 0 };

  g_assert_nonnull (a);
  g_assert_cmpuint (a->n_test, ==, 50);
  g_assert_cmpuint (a->n_train, ==, 150);
  g_assert_true (a->test == ds);
  g_assert_cmpmem (a->test_rows, 50 * sizeof (gint32), b->test_rows, 50 * sizeof (gint32));
  g_assert_true (memcmp (a->test_rows, c->test_rows, 50 * sizeof (gint32)) != 0);
  for (guint i = 0; i < a->n_test; i++)
    seen[a->test_rows[i]]++;
  for (guint i = 0; i < a->n_train; i++)
    seen[a->train_rows[i]]++;
  for (guint i = 0; i < 200; i++)
    g_assert_cmpuint (seen[i], ==, 1);

  g_assert_null (latent_split_new (unlabelled, 0.2, 1, &error));
  g_assert_nonnull (strstr (error->message, "no labels"));
  g_clear_error (&error);
  latent_dataset_set_labels (one_class, zeros, 2, NULL);
  g_assert_null (latent_split_new (one_class, 0.2, 1, &error));
  g_assert_nonnull (strstr (error->message, "one class"));
  g_clear_error (&error);
  g_assert_null (latent_split_new (ds, 0.001, 1, &error));
  g_assert_nonnull (strstr (error->message, "test = 0.001"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/features/round-trip/linear", test_round_trip_linear);
  g_test_add_func ("/features/round-trip/wta", test_round_trip_wta);
  g_test_add_func ("/features/refused", test_refused);
  g_test_add_func ("/features/test-companion", test_test_companion);
  g_test_add_func ("/features/split", test_split);
  return g_test_run ();
}
