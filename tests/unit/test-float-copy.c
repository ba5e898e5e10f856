/* test-float-copy.c — HDF5 and IDX data beyond the memory budget, streamed
 * from a float32 copy in the cache folder
 *
 * Each loads held in memory (a large budget) and streamed (a budget of
 * 16 KiB): the same rows, names, labels and image shape. The copy is made
 * once and used again; another dataset of the same file, or an edited
 * file, has its own. A value not finite is refused naming its row and
 * column, and leaves no copy behind.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include "latent-catalog.h"
#include "latent-memory.h"
#include "latent-test-files.h"
#include "latent-test-hdf5.h"

#define ROWS 3000
#define COLS 8

static char *cache_dir;

static LatentDataset *
load (const char *spec,
      guint64     budget)
{
  g_autoptr(GError) error = NULL;
  LatentDataset *dataset;

  latent_memory_set_budget (budget);
  dataset = latent_catalog_load (spec, NULL, &error);
  g_assert_no_error (error);
  return dataset;
}

/* @spec held and streamed, row for row; the streamed one. */
static LatentDataset *
assert_streamed_equal (const char *spec)
{
  g_autoptr(LatentDataset) held = load (spec, (guint64) 1 << 30);
  LatentDataset *streamed = load (spec, 16 << 10);
  g_autofree char *storage = latent_dataset_describe_storage (streamed);
  const guint n = latent_dataset_get_n_rows (held), d = latent_dataset_get_n_cols (held);
  guint w1, h1, c1, w2, h2, c2;
  gboolean s1, s2;

  g_assert_false (latent_dataset_is_streamed (held));
  g_assert_true (latent_dataset_is_streamed (streamed));
  g_assert_nonnull (strstr (storage, "float32 copy"));
  g_assert_cmpstr (latent_dataset_get_name (streamed), ==, latent_dataset_get_name (held));
  g_assert_cmpuint (latent_dataset_get_n_rows (streamed), ==, n);
  g_assert_cmpuint (latent_dataset_get_n_cols (streamed), ==, d);
  g_assert_cmpmem (latent_dataset_get_data (streamed), (gsize) n * d * sizeof (float),
                   latent_dataset_get_data (held), (gsize) n * d * sizeof (float));
  g_assert_cmpint (latent_dataset_get_image_shape (streamed, &w1, &h1, &c1, &s1), ==,
                   latent_dataset_get_image_shape (held, &w2, &h2, &c2, &s2));
  g_assert_cmpint (latent_dataset_has_labels (streamed), ==, latent_dataset_has_labels (held));
  if (latent_dataset_has_labels (held))
    g_assert_cmpmem (latent_dataset_get_labels (streamed), n * sizeof (gint32),
                     latent_dataset_get_labels (held), n * sizeof (gint32));
  return streamed;
}

static guint
count_copies (void)
{
  g_autofree char *dir = g_build_filename (cache_dir, "latent", "streams", NULL);
  g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
  guint n = 0;

  while (listing && g_dir_read_name (listing))
    n++;
  return n;
}

static void
write_hdf5 (const char *path,
            float       shift,
            gboolean    nan)
{
  g_autofree float *x = g_new (float, ROWS * COLS);
  g_autofree float *other = g_new (float, ROWS * COLS);
  g_autofree gint32 *labels = g_new (gint32, ROWS);
  const hsize_t dims[] = { ROWS, COLS }, label_dims[] = { ROWS };
  hid_t file = test_hdf5_create (path);

  for (guint i = 0; i < ROWS * COLS; i++)
    {
      x[i] = sinf (i * 0.37f) * 5 + shift;
      other[i] = cosf (i * 0.11f);
    }
  for (guint i = 0; i < ROWS; i++)
    labels[i] = i % 3;
  if (nan)
    x[1234 * COLS + 5] = NAN;
  /* Big-endian doubles: nothing a copy-free stream could use. */
  test_hdf5_write (file, "x", H5T_IEEE_F64BE, H5T_NATIVE_FLOAT, 2, dims, x);
  test_hdf5_write (file, "other", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, 2, dims, other);
  test_hdf5_write (file, "y", H5T_STD_I32LE, H5T_NATIVE_INT32, 1, label_dims, labels);
  H5Fclose (file);
}

static void
test_hdf5 (Fixture *f, gconstpointer data)
{
  g_autofree char *path = g_build_filename (f->dir, "rows.h5", NULL);
  g_autofree char *x = g_strconcat (path, ":x=x,y=y", NULL);
  g_autofree char *other = g_strconcat (path, ":x=other,y=y", NULL);
  g_autoptr(LatentDataset) first = NULL, again = NULL, second = NULL, edited = NULL;
  guint copies;

  write_hdf5 (path, 0, FALSE);
  copies = count_copies ();
  first = assert_streamed_equal (x);
  g_assert_cmpuint (count_copies (), ==, copies + 1);
  /* Made once: loaded again, the same copy. */
  again = load (x, 16 << 10);
  g_assert_cmpuint (count_copies (), ==, copies + 1);
  g_assert_cmpmem (latent_dataset_get_data (again), ROWS * COLS * sizeof (float),
                   latent_dataset_get_data (first), ROWS * COLS * sizeof (float));
  /* Another dataset of the file has its own. */
  second = assert_streamed_equal (other);
  g_assert_cmpuint (count_copies (), ==, copies + 2);
  /* An edited file is copied again, as it is now. */
  g_usleep (20000);
  write_hdf5 (path, 1, FALSE);
  edited = assert_streamed_equal (x);
  g_assert_cmpuint (count_copies (), ==, copies + 3);
  g_assert_cmpfloat (latent_dataset_get_data (edited)[0], ==, latent_dataset_get_data (first)[0] + 1);
}

static void
test_not_finite (Fixture *f, gconstpointer data)
{
  g_autofree char *path = g_build_filename (f->dir, "nan.h5", NULL);
  g_autofree char *x = g_strconcat (path, ":x=x,y=y", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentDataset) dataset = NULL;
  guint copies = count_copies ();

  write_hdf5 (path, 0, TRUE);
  latent_memory_set_budget (16 << 10);
  dataset = latent_catalog_load (x, NULL, &error);
  g_assert_null (dataset);
  g_assert_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_NOT_FINITE);
  g_assert_nonnull (strstr (error->message, "1234"));
  g_assert_cmpuint (count_copies (), ==, copies);
}

/* An IDX file of bytes, 28 × 28 images as Fashion-MNIST's, with labels. */
static void
test_idx (Fixture *f, gconstpointer data)
{
  g_autofree char *images = g_build_filename (f->dir, "small-images-idx3-ubyte", NULL);
  g_autofree char *labels = g_build_filename (f->dir, "small-labels-idx1-ubyte", NULL);
  const guint n = 200;
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  g_autoptr(GByteArray) label_bytes = g_byte_array_new ();
  const guint8 image_head[] = { 0, 0, 8, 3, 0, 0, 0, n, 0, 0, 0, 28, 0, 0, 0, 28 };
  const guint8 label_head[] = { 0, 0, 8, 1, 0, 0, 0, n };
  g_autoptr(LatentDataset) streamed = NULL;
  guint width, height, channels;
  gboolean single;

  g_byte_array_append (bytes, image_head, sizeof image_head);
  g_byte_array_append (label_bytes, label_head, sizeof label_head);
  for (guint i = 0; i < n * 28 * 28; i++)
    {
      guint8 v = (i * 7 + i / 28) % 256;

      g_byte_array_append (bytes, &v, 1);
    }
  for (guint i = 0; i < n; i++)
    {
      guint8 v = i % 10;

      g_byte_array_append (label_bytes, &v, 1);
    }
  g_assert_true (g_file_set_contents (images, (const char *) bytes->data, bytes->len, NULL));
  g_assert_true (g_file_set_contents (labels, (const char *) label_bytes->data, label_bytes->len, NULL));
  streamed = assert_streamed_equal (images);
  g_assert_true (latent_dataset_get_image_shape (streamed, &width, &height, &channels, &single));
  g_assert_cmpuint (width, ==, 28);
  g_assert_cmpuint (height, ==, 28);
  g_assert_true (latent_dataset_has_labels (streamed));
}

int
main (int argc, char **argv)
{
  /* Before GLib reads it: the copies go to a folder of the test's own. */
  cache_dir = g_dir_make_tmp ("latent-copies-XXXXXX", NULL);
  g_setenv ("XDG_CACHE_HOME", cache_dir, TRUE);
  g_test_init (&argc, &argv, NULL);

  ADD ("/float-copy/hdf5", test_hdf5);
  ADD ("/float-copy/not-finite", test_not_finite);
  ADD ("/float-copy/idx", test_idx);
  {
    int status = g_test_run ();

    remove_tree (cache_dir);
    return status;
  }
}
