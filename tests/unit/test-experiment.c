/* test-experiment.c — experiments saved and read back, and bad files refused
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>

#include "latent-experiment.h"
#include "latent-kmeans.h"

static char *
temp_file (const char *name,
           const char *contents)
{
  g_autofree char *dir = g_dir_make_tmp ("latent-experiment-XXXXXX", NULL);
  char *path = g_build_filename (dir, name, NULL);

  if (contents)
    g_assert_true (g_file_set_contents (path, contents, -1, NULL));
  return path;
}

static void
remove_temp (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);

  g_unlink (path);
  g_rmdir (dir);
}

static void
test_round_trip (void)
{
  const LatentAlgorithm *kmeans = latent_kmeans_get_algorithm ();
  g_autoptr(LatentParams) params = latent_algorithm_new_params (kmeans);
  g_autofree char *path = temp_file ("e.json", NULL);
  g_autoptr(LatentExperiment) saved = NULL;
  g_autoptr(LatentExperiment) loaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *a = NULL, *b = NULL;

  g_assert_true (latent_params_parse (params, "k=7", NULL));
  g_assert_true (latent_params_parse (params, "init=random", NULL));
  g_assert_true (latent_params_parse (params, "tol=0.003", NULL));
  saved = latent_experiment_new ("blobs:n=100,k=3", "/tmp/labels.txt", kmeans, params, 4294967301ULL, "off");
  g_assert_true (latent_experiment_save (saved, path, &error));
  g_assert_no_error (error);

  loaded = latent_experiment_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (loaded->dataset, ==, "blobs:n=100,k=3");
  g_assert_cmpstr (loaded->labels, ==, "/tmp/labels.txt");
  g_assert_true (loaded->algorithm == kmeans);
  g_assert_cmpuint (loaded->seed, ==, 4294967301ULL);
  g_assert_cmpstr (loaded->device, ==, "off");
  a = latent_params_to_string (saved->params);
  b = latent_params_to_string (loaded->params);
  g_assert_cmpstr (a, ==, b);
  g_assert_cmpint (latent_params_get_int (loaded->params, "k"), ==, 7);
  /* Nothing said of the view: the defaults. */
  g_assert_null (loaded->test);
  g_assert_cmpstr (loaded->figure, ==, "auto");
  g_assert_false (loaded->colour_by_class);
  g_assert_cmpfloat (loaded->speed, <, 0);
  remove_temp (path);
}

/* The view and the test data come back as they were saved; a file of
 * version 1, from before them, still loads. */
static void
test_view (void)
{
  const LatentAlgorithm *kmeans = latent_kmeans_get_algorithm ();
  g_autoptr(LatentParams) params = latent_algorithm_new_params (kmeans);
  g_autofree char *path = temp_file ("v.json", NULL);
  g_autofree char *old = temp_file ("old.json", "{\"format\": \"latent-experiment\", \"version\": 1, "
                                               "\"dataset\": \"iris\", \"algorithm\": \"kmeans\"}");
  g_autoptr(LatentExperiment) saved = latent_experiment_new ("t.csv:ignore=id,missing=mean", NULL, kmeans, params, 3,
                                                             "auto");
  g_autoptr(LatentExperiment) loaded = NULL, from_old = NULL;
  g_autoptr(GError) error = NULL;

  saved->test = g_strdup ("test.csv:ignore=id");
  g_free (saved->figure);
  saved->figure = g_strdup ("images");
  saved->axes[0] = 3;
  saved->axes[1] = 1;
  saved->colour_by_class = TRUE;
  saved->speed = 25;
  g_assert_true (latent_experiment_save (saved, path, &error));
  loaded = latent_experiment_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (loaded->dataset, ==, "t.csv:ignore=id,missing=mean");
  g_assert_cmpstr (loaded->test, ==, "test.csv:ignore=id");
  g_assert_cmpstr (loaded->figure, ==, "images");
  g_assert_cmpuint (loaded->axes[0], ==, 3);
  g_assert_cmpuint (loaded->axes[1], ==, 1);
  g_assert_true (loaded->colour_by_class);
  g_assert_cmpfloat (loaded->speed, ==, 25);

  from_old = latent_experiment_load (old, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (from_old->figure, ==, "auto");
  remove_temp (path);
  remove_temp (old);
}

static void
expect_error (const char *contents,
              const char *fragment)
{
  g_autofree char *path = temp_file ("bad.json", contents);
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentExperiment) experiment = latent_experiment_load (path, &error);

  g_assert_null (experiment);
  g_assert_nonnull (error);
  /* The message names the file and what is wrong in it. */
  g_assert_nonnull (strstr (error->message, path));
  if (!strstr (error->message, fragment))
    g_error ("“%s” does not mention “%s”", error->message, fragment);
  remove_temp (path);
}

static void
test_bad_files (void)
{
  expect_error ("{ not json", "bad.json");
  expect_error ("[1, 2]", "not a Latent experiment");
  expect_error ("{\"format\": \"something-else\", \"version\": 1}", "not a Latent experiment");
  expect_error ("{\"format\": \"latent-experiment\", \"version\": 1, \"algorithm\": \"kmeans\"}", "dataset");
  expect_error ("{\"format\": \"latent-experiment\", \"version\": 1, \"dataset\": 3, \"algorithm\": \"kmeans\"}",
                "dataset");
  expect_error ("{\"format\": \"latent-experiment\", \"version\": 1, \"dataset\": \"iris\", \"algorithm\": \"magic\"}",
                "magic");
  expect_error ("{\"format\": \"latent-experiment\", \"version\": 1, \"dataset\": \"iris\", \"algorithm\": \"kmeans\","
                " \"params\": {\"k\": 0}}", "parameter k");
  expect_error ("{\"format\": \"latent-experiment\", \"version\": 1, \"dataset\": \"iris\", \"algorithm\": \"kmeans\","
                " \"params\": {\"colour\": \"red\"}}", "colour");
  expect_error ("{\"format\": \"latent-experiment\", \"version\": 1, \"dataset\": \"iris\", \"algorithm\": \"kmeans\","
                " \"seed\": -4}", "seed");
  expect_error ("{\"format\": \"latent-experiment\", \"version\": 3, \"dataset\": \"iris\", \"algorithm\": \"kmeans\"}",
                "version 2");
  expect_error ("{\"format\": \"latent-experiment\", \"version\": 2, \"dataset\": \"iris\", \"algorithm\": \"kmeans\","
                " \"view\": {\"axes\": [1]}}", "axes");
  expect_error ("{\"format\": \"latent-experiment\", \"version\": 2, \"dataset\": \"iris\", \"algorithm\": \"kmeans\","
                " \"view\": {\"speed\": -2}}", "speed");
  expect_error ("{\"format\": \"latent-experiment\", \"version\": 2, \"dataset\": \"iris\", \"algorithm\": \"kmeans\","
                " \"view\": {\"colour-by-class\": 1}}", "colour-by-class");
}

static void
test_missing_file (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentExperiment) experiment = latent_experiment_load ("/nonexistent/e.json", &error);

  g_assert_null (experiment);
  g_assert_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "/nonexistent/e.json"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/experiment/round-trip", test_round_trip);
  g_test_add_func ("/experiment/bad-files", test_bad_files);
  g_test_add_func ("/experiment/view", test_view);
  g_test_add_func ("/experiment/missing-file", test_missing_file);
  return g_test_run ();
}
