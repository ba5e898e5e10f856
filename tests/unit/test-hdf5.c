/* test-hdf5.c — HDF5 files: tables and image stacks in groups, labels of
 * numbers and of text, the data chosen by names or given, and bad input
 * refused naming the file, the dataset and the element (the same k-means
 * as CSV: test-formats.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "test-hdf5"

#include <math.h>
#include <string.h>

#include "latent-catalog.h"
#include "latent-hdf5.h"
#include "latent-test-dataset.h"
#include "latent-test-files.h"
#include "latent-test-hdf5.h"

static const float table[] = { 1, 2, 3, 4, 5, 6 };

/* train/x, train/y (text) and test/x, test/y: the training data with its
 * labels and its test data, found by their names; big-endian doubles and
 * 16-bit integers read as the floats they are. */
static void
test_groups (Fixture       *f,
             gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "cells.h5", NULL);
  static const double test_x[] = { 7, 8 };
  static const gint16 ints[] = { 1, 2, 3, 4, 5, 6 };
  const char *train_y[] = { "b cells", "a cells", "b cells" }, *test_y[] = { "a cells" };
  const hsize_t dims[] = { 3, 2 }, test_dims[] = { 1, 2 }, label_dims[] = { 3 }, one[] = { 1 };
  hid_t file = test_hdf5_create (path), text = H5Tcopy (H5T_C_S1);
  g_autoptr(LatentDataset) dataset = NULL, ints_only = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;
  g_autofree char *spec = g_strconcat (path, ":x=/extra/ints,y=", NULL);
  LatentDataset *held_out;

  H5Tset_size (text, H5T_VARIABLE);
  test_hdf5_write (file, "train/x", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, 2, dims, table);
  test_hdf5_write (file, "train/y", text, text, 1, label_dims, train_y);
  test_hdf5_write (file, "test/x", H5T_IEEE_F64BE, H5T_NATIVE_DOUBLE, 2, test_dims, test_x);
  test_hdf5_write (file, "test/y", text, text, 1, one, test_y);
  test_hdf5_write (file, "extra/ints", H5T_STD_I16BE, H5T_NATIVE_INT16, 2, dims, ints);
  H5Tclose (text);
  H5Fclose (file);

  names = latent_hdf5_list (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (names), ==, 5);
  g_assert_true (g_strv_contains ((const char * const *) names, "train/x"));

  dataset = latent_catalog_load (path, NULL, &error);
  g_assert_no_error (error);
  test_assert_values (dataset, 3, 2, table);
  g_assert_cmpstr (latent_dataset_get_name (dataset), ==, "cells (train/x)");
  g_assert_cmpuint (latent_dataset_get_n_classes (dataset), ==, 2);
  g_assert_cmpstr (latent_dataset_get_class_name (dataset, 0), ==, "b cells");
  g_assert_cmpint (latent_dataset_get_labels (dataset)[1], ==, 1);
  held_out = latent_dataset_get_test (dataset);
  g_assert_nonnull (held_out);
  g_assert_cmpfloat (latent_dataset_get_data (held_out)[1], ==, 8);
  /* Matched by name: "a cells" is class 1 of the training data. */
  g_assert_cmpint (latent_dataset_get_labels (held_out)[0], ==, 1);

  ints_only = latent_catalog_load (spec, NULL, &error);
  g_assert_no_error (error);
  test_assert_values (ints_only, 3, 2, table);
  g_assert_false (latent_dataset_has_labels (ints_only));
}

/* (n, h, w) bytes are grey images in [0, 1]; (n, c, h, w) reads as the
 * (n, h, w, c) it transposes to; fixed-length text labels are trimmed. */
static void
test_images (Fixture       *f,
             gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "images.hdf5", NULL);
  guint8 grey[TEST_GREY_BYTES], chw[TEST_STACK_BYTES], hwc[TEST_STACK_BYTES];
  const hsize_t grey_dims[] = { 2, 3, 4 }, chw_dims[] = { 2, 3, 3, 5 }, hwc_dims[] = { 2, 3, 5, 3 }, label_dims[] = { 2 };
  const char fixed[2][4] = { "cat", "dog" };
  g_autofree char *grey_spec = g_strconcat (path, ":x=grey,y=labels", NULL);
  g_autofree char *chw_spec = g_strconcat (path, ":x=chw,y=", NULL);
  g_autofree char *hwc_spec = g_strconcat (path, ":x=hwc,y=", NULL);
  g_autoptr(LatentDataset) dg = NULL, da = NULL, db = NULL;
  g_autoptr(GError) error = NULL;
  hid_t file = test_hdf5_create (path), text = H5Tcopy (H5T_C_S1);
  guint width, height, channels;

  test_image_stacks (grey, chw, hwc);
  H5Tset_size (text, 4);
  test_hdf5_write (file, "grey", H5T_STD_U8LE, H5T_NATIVE_UINT8, 3, grey_dims, grey);
  test_hdf5_write (file, "chw", H5T_STD_U8LE, H5T_NATIVE_UINT8, 4, chw_dims, chw);
  test_hdf5_write (file, "hwc", H5T_STD_U8LE, H5T_NATIVE_UINT8, 4, hwc_dims, hwc);
  test_hdf5_write (file, "labels", text, text, 1, label_dims, fixed);
  H5Tclose (text);
  H5Fclose (file);

  dg = latent_catalog_load (grey_spec, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (latent_dataset_get_image_shape (dg, &width, &height, &channels, NULL));
  g_assert_cmpuint (width, ==, 4);
  g_assert_cmpuint (height, ==, 3);
  g_assert_cmpuint (channels, ==, 1);
  g_assert_cmpfloat_with_epsilon (latent_dataset_get_data (dg)[23], 115.0 / 255.0, 1e-7);
  g_assert_cmpstr (latent_dataset_get_class_name (dg, 1), ==, "dog");

  da = latent_catalog_load (chw_spec, NULL, &error);
  g_assert_no_error (error);
  db = latent_catalog_load (hwc_spec, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (latent_dataset_get_image_shape (da, &width, &height, &channels, NULL));
  g_assert_cmpuint (width, ==, 5);
  g_assert_cmpuint (channels, ==, 3);
  g_assert_cmpmem (latent_dataset_get_data (da), sizeof hwc * sizeof (float),
                   latent_dataset_get_data (db), sizeof hwc * sizeof (float));
}

static void
test_bad (Fixture       *f,
          gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "bad.h5", NULL);
  g_autofree char *not_hdf5 = write_file (f, "fake.h5", "\x89HDF\r\n\x1a\nnothing more", 20);
  g_autofree char *text_file = write_file (f, "text.h5", "hello", 5);
  double values[] = { 1, 2, 3, 4, 5, 6 };
  const double labels[] = { 0, 1.5, 2 };
  const hsize_t dims[] = { 3, 2 }, label_dims[] = { 3 }, two[] = { 2 }, five[] = { 1, 2, 1, 2 };
  struct { const char *options; int code; const char *fragment; } cases[] = {
    { "", LATENT_DATA_ERROR_AMBIGUOUS, "holds several arrays (a, half, nan, short, wide): choose the data" },
    { ":x=nan", LATENT_DATA_ERROR_NOT_FINITE, "dataset nan: element [1, 1]: not a finite number (nan)" },
    { ":x=a,y=half", LATENT_DATA_ERROR_PARSE, "dataset half: element [1]: 1.5 is not a class" },
    { ":x=a,y=short", LATENT_DATA_ERROR_MISMATCH, "dataset short has 2 labels" },
    { ":x=wide", LATENT_DATA_ERROR_UNSUPPORTED, "1, 3 or 4 channels" },
    { ":x=b", LATENT_DATA_ERROR_INVALID, "no array “b”" },
  };
  hid_t file = test_hdf5_create (path);
  g_autoptr(GError) error = NULL;

  test_hdf5_write (file, "a", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 2, dims, values);
  values[3] = NAN;
  test_hdf5_write (file, "nan", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 2, dims, values);
  test_hdf5_write (file, "half", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 1, label_dims, labels);
  test_hdf5_write (file, "short", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 1, two, labels);
  test_hdf5_write (file, "wide", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 4, five, values);
  H5Fclose (file);

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autofree char *spec = g_strconcat (path, cases[c].options, NULL);
      g_autoptr(LatentDataset) dataset = latent_catalog_load (spec, NULL, &error);

      g_test_message ("%s: %s", cases[c].options, error ? error->message : "loaded");
      g_assert_null (dataset);
      g_assert_error (error, LATENT_DATA_ERROR, cases[c].code);
      g_assert_nonnull (strstr (error->message, "bad.h5"));
      g_assert_nonnull (strstr (error->message, cases[c].fragment));
      g_clear_error (&error);
    }

  g_assert_null (latent_hdf5_load (not_hdf5, NULL, NULL, &error));
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "fake.h5"));
  g_clear_error (&error);
  g_assert_null (latent_hdf5_load (text_file, NULL, NULL, &error));
  g_assert_nonnull (strstr (error->message, "not an HDF5 file"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  ADD ("/hdf5/groups", test_groups);
  ADD ("/hdf5/images", test_images);
  ADD ("/hdf5/bad", test_bad);
  return g_test_run ();
}
