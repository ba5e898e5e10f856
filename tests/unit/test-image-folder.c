/* test-image-folder.c — a folder of class folders of PNG images as a
 * labelled dataset: classes, sizes, grey and colour, resizing by averaging,
 * and bad input refused naming the file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "test-image-folder"

#include <string.h>

#include "latent-catalog.h"
#include "latent-image-folder.h"
#include "latent-png-save.h"
#include "latent-registry.h"
#include "latent-test-files.h"

/* @name (with its folders) in the test's folder: a PNG of @values. */
static void
write_png (Fixture     *f,
           const char  *name,
           const float *values,
           guint        width,
           guint        height,
           guint        channels)
{
  g_autofree char *path = g_build_filename (f->dir, name, NULL);
  g_autofree char *folder = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  latent_png_save (path, values, width, height, channels, LATENT_PNG_INTERLEAVED, 8, NULL, &error);
  g_assert_no_error (error);
}

static LatentDataset *
load (Fixture     *f,
      const char  *options,
      GError     **error)
{
  g_autofree char *spec = g_strconcat (f->dir, options, NULL);

  return latent_catalog_load (spec, NULL, error);
}

/* Subfolders are classes in name order, images in name order within them;
 * hidden files, other files and empty subfolders are left out; the most
 * common size wins, and one colour image makes every row colour. */
static void
test_classes (Fixture       *f,
              gconstpointer  data)
{
  const float grey[2 * 2] = { 0, 1, 1, 0 }, white[4 * 2] = { 1, 1, 1, 1, 1, 1, 1, 1 };
  const float red[2 * 2 * 3] = { 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentDataset) dataset = NULL;
  guint width, height, channels;
  const float *row;

  write_png (f, "zebras/b.png", grey, 2, 2, 1);
  write_png (f, "zebras/a.png", red, 2, 2, 3);
  write_png (f, "ants/wide.png", white, 4, 2, 1);
  write_png (f, "ants/.hidden.png", grey, 2, 2, 1);
  write_png (f, "empty/.keep.png", grey, 2, 2, 1);
  g_free (write_file (f, "ants/notes.txt", "not an image", 12));

  dataset = load (f, "", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (latent_dataset_get_n_rows (dataset), ==, 3);
  g_assert_true (latent_dataset_get_image_shape (dataset, &width, &height, &channels, NULL));
  g_assert_cmpuint (width, ==, 2);
  g_assert_cmpuint (height, ==, 2);
  g_assert_cmpuint (channels, ==, 3);
  g_assert_cmpuint (latent_dataset_get_n_classes (dataset), ==, 2);
  g_assert_cmpstr (latent_dataset_get_class_name (dataset, 0), ==, "ants");
  g_assert_cmpstr (latent_dataset_get_class_name (dataset, 1), ==, "zebras");
  g_assert_cmpint (latent_dataset_get_labels (dataset)[0], ==, 0);
  g_assert_cmpint (latent_dataset_get_labels (dataset)[1], ==, 1);
  /* Row 1 is zebras/a.png, red; row 2 zebras/b.png, grey in three channels. */
  row = latent_dataset_get_row (dataset, 1);
  g_assert_cmpfloat (row[0], ==, 1);
  g_assert_cmpfloat (row[1], ==, 0);
  row = latent_dataset_get_row (dataset, 2);
  g_assert_cmpfloat (row[3], ==, 1);
  g_assert_cmpfloat (row[4], ==, 1);
  g_assert_cmpfloat (row[5], ==, 1);
  /* ants/wide.png, 4 × 2 of white, averaged to 2 × 2: still white. */
  g_assert_cmpfloat (latent_dataset_get_row (dataset, 0)[0], ==, 1);
}

/* A size given: each pixel of the smaller image is the mean of those it
 * covers; grey is luma; without subfolders the images are unlabelled. */
static void
test_size_and_grey (Fixture       *f,
                    gconstpointer  data)
{
  const float values[4 * 2] = { 0, 1, 0.2f, 0.4f,   1, 0, 0.6f, 0.8f };
  const float rgb[1 * 1 * 3] = { 1, 0, 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentDataset) small = NULL, grey = NULL;
  const float *row;

  write_png (f, "a.png", values, 4, 2, 1);
  write_png (f, "b.png", rgb, 1, 1, 3);
  small = load (f, ":size=2x1,colour=grey", &error);
  g_assert_no_error (error);
  g_assert_false (latent_dataset_has_labels (small));
  g_assert_cmpuint (latent_dataset_get_n_cols (small), ==, 2);
  row = latent_dataset_get_row (small, 0);
  /* Stored as bytes: (0 + 1 + 1 + 0) / 4 and (51 + 102 + 153 + 204) / 255 / 4. */
  g_assert_cmpfloat_with_epsilon (row[0], 0.5, 1e-6);
  g_assert_cmpfloat_with_epsilon (row[1], (51 + 102 + 153 + 204) / 255.0 / 4, 1e-6);
  /* Red as grey is its luma, in both pixels it grows to. */
  row = latent_dataset_get_row (small, 1);
  g_assert_cmpfloat_with_epsilon (row[0], 0.299, 1e-6);
  g_assert_cmpfloat_with_epsilon (row[1], 0.299, 1e-6);
}

/* The pixels of images are the CSV's values i / 255, so k-means agrees. */
static void
test_kmeans_as_csv (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GString) csv = g_string_new ("p1,p2,p3,p4,p5,p6,class\n");
  g_autofree char *images = g_build_filename (f->dir, "images", NULL);
  g_autofree char *csv_path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentDataset) from_folder = NULL, from_csv = NULL;
  const LatentAlgorithm *kmeans = latent_registry_lookup ("kmeans", NULL);
  g_autoptr(LatentParams) params = latent_algorithm_new_params (kmeans);
  LatentFit *fits[2];
  guint64 state = 99;

  for (guint i = 0; i < 60; i++)
    {
      const char *klass = i % 3 == 0 ? "a" : i % 3 == 1 ? "b" : "c";
      g_autofree char *name = g_strdup_printf ("images/%s/%02u.png", klass, i);
      float pixels[6];

      for (guint p = 0; p < 6; p++)
        {
          state = state * 6364136223846793005ull + 1442695040888963407ull;
          pixels[p] = (float) (((state >> 33) % 86) + (i % 3) * 85) / 255.0f;
        }
      write_png (f, name, pixels, 3, 2, 1);
    }
  /* The CSV lists rows as the folder does: class by class, by name. */
  for (guint k = 0; k < 3; k++)
    for (guint i = k; i < 60; i += 3)
      {
        g_autofree char *name = g_strdup_printf ("%s/%s/%02u.png", images, k == 0 ? "a" : k == 1 ? "b" : "c", i);
        g_autoptr(LatentDataset) image = latent_catalog_load (name, NULL, &error);

        g_assert_no_error (error);
        for (guint p = 0; p < 6; p++)
          g_string_append_printf (csv, "%.9g,", latent_dataset_get_data (image)[p]);
        g_string_append_printf (csv, "%s\n", k == 0 ? "a" : k == 1 ? "b" : "c");
      }
  csv_path = write_file (f, "images.csv", csv->str, csv->len);

  from_folder = latent_catalog_load (images, NULL, &error);
  g_assert_no_error (error);
  from_csv = latent_catalog_load (csv_path, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (latent_dataset_get_data (from_folder), 60 * 6 * sizeof (float),
                   latent_dataset_get_data (from_csv), 60 * 6 * sizeof (float));
  g_assert_cmpmem (latent_dataset_get_labels (from_folder), 60 * sizeof (gint32),
                   latent_dataset_get_labels (from_csv), 60 * sizeof (gint32));
  latent_params_parse (params, "k=3", &error);
  g_assert_no_error (error);
  fits[0] = latent_algorithm_fit (kmeans, from_folder, params, 3, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  fits[1] = latent_algorithm_fit (kmeans, from_csv, params, 3, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (fits[0]->snapshot->objective, ==, fits[1]->snapshot->objective);
  g_assert_cmpfloat (fits[0]->snapshot->metrics.ari, ==, fits[1]->snapshot->metrics.ari);
  latent_fit_free (fits[0]);
  latent_fit_free (fits[1]);
}

static void
test_bad (Fixture       *f,
          gconstpointer  data)
{
  const float grey[4] = { 0, 1, 1, 0 };
  g_autoptr(GError) error = NULL;
  g_autofree char *broken = NULL, *dogs = NULL;

  g_assert_null (load (f, "", &error));
  g_assert_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_EMPTY);
  g_assert_nonnull (strstr (error->message, "no PNG or JPEG images"));
  g_clear_error (&error);

  write_png (f, "cats/a.png", grey, 2, 2, 1);
  g_assert_null (load (f, ":size=2", &error));
  g_assert_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "option “size=2”"));
  g_clear_error (&error);
  g_assert_null (load (f, ":size=65536x65536", &error));
  g_assert_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, "choose a smaller size"));
  g_clear_error (&error);

  dogs = g_build_filename (f->dir, "dogs", NULL);
  g_assert_cmpint (g_mkdir_with_parents (dogs, 0700), ==, 0);
  broken = write_file (f, "dogs/broken.png", "\x89PNG\r\n\x1a\nno more", 15);
  g_assert_null (load (f, "", &error));
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "dogs/broken.png"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  ADD ("/image-folder/classes", test_classes);
  ADD ("/image-folder/size-and-grey", test_size_and_grey);
  ADD ("/image-folder/kmeans-as-csv", test_kmeans_as_csv);
  ADD ("/image-folder/bad", test_bad);
  return g_test_run ();
}
