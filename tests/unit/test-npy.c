/* test-npy.c — NumPy .npy files and .npz archives: every element type,
 * both orders, image stacks, labels, choosing an archive's arrays, the
 * same k-means as the same values in a CSV file, and bad input refused
 * with the file and the element named (the same k-means as CSV: test-formats.c)
 *
 * The files are written here byte by byte, as numpy.save writes them, so
 * the test needs no NumPy.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "test-npy"
#define _GNU_SOURCE   /* memmem */

#include <math.h>
#include <string.h>
#include <zip.h>

#include "latent-catalog.h"
#include "latent-npy.h"
#include "latent-test-dataset.h"
#include "latent-test-files.h"
#include "latent-test-npy.h"

static LatentDataset *
load (GBytes  *bytes,
      GError **error)
{
  return latent_npy_load_bytes (bytes, "test.npy", error);
}

/* Every element type and both byte orders give the same table. */
static void
test_types (void)
{
  static const float expected[] = { 1, -2, 3, 4, 0, 6 };
  static const gint16 i2[] = { 1, -2, 3, 4, 0, 6 };
  static const double f8[] = { 1, -2, 3, 4, 0, 6 };
  static const guint8 f8_big[] = {
    0x3f, 0xf0, 0, 0, 0, 0, 0, 0,  0xc0, 0x00, 0, 0, 0, 0, 0, 0,  0x40, 0x08, 0, 0, 0, 0, 0, 0,
    0x40, 0x10, 0, 0, 0, 0, 0, 0,  0x00, 0x00, 0, 0, 0, 0, 0, 0,  0x40, 0x18, 0, 0, 0, 0, 0, 0,
  };
  /* Half floats 1, −2, 3, 4, 0, 6. */
  static const guint16 f2[] = { 0x3c00, 0xc000, 0x4200, 0x4400, 0x0000, 0x4600 };
  static const gint64 i8[] = { 1, -2, 3, 4, 0, 6 };
  struct { const char *descr; const void *data; gsize len; } cases[] = {
    { "<f4", expected, sizeof expected },
    { "<f8", f8, sizeof f8 },
    { ">f8", f8_big, sizeof f8_big },
    { "<i2", i2, sizeof i2 },
    { "<i8", i8, sizeof i8 },
    { "<f2", f2, sizeof f2 },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(GBytes) bytes = test_npy (cases[c].descr, FALSE, "(3, 2)", cases[c].data, cases[c].len);
      g_autoptr(GError) error = NULL;
      g_autoptr(LatentDataset) dataset = load (bytes, &error);

      g_test_message ("%s", cases[c].descr);
      g_assert_no_error (error);
      test_assert_values (dataset, 3, 2, expected);
    }
}

/* Fortran order is the transpose in storage; one dimension is a column;
 * booleans are 0 and 1; bytes of a table are kept as they are. */
static void
test_orders (void)
{
  static const float expected[] = { 1, 2, 3, 4, 5, 6 };
  static const float fortran[] = { 1, 3, 5, 2, 4, 6 };
  static const guint8 bools[] = { 1, 0, 1 }, bytes_table[] = { 0, 128, 255, 7 };
  static const float bools_expected[] = { 1, 0, 1 }, bytes_expected[] = { 0, 128, 255, 7 };
  g_autoptr(GBytes) f = test_npy ("<f4", TRUE, "(3, 2)", fortran, sizeof fortran);
  g_autoptr(GBytes) b = test_npy ("|b1", FALSE, "(3,)", bools, sizeof bools);
  g_autoptr(GBytes) u = test_npy ("|u1", FALSE, "(2, 2)", bytes_table, sizeof bytes_table);
  g_autoptr(LatentDataset) from_f = load (f, NULL), from_b = load (b, NULL), from_u = load (u, NULL);

  test_assert_values (from_f, 3, 2, expected);
  test_assert_values (from_b, 3, 1, bools_expected);
  test_assert_values (from_u, 2, 2, bytes_expected);
  g_assert_false (latent_dataset_get_image_shape (from_u, NULL, NULL, NULL, NULL));
}

/* (n, h, w) bytes are grey images scaled to [0, 1]; (n, c, h, w) is read
 * as the (n, h, w, c) it transposes to. */
static void
test_images (void)
{
  guint8 grey[TEST_GREY_BYTES], chw[TEST_STACK_BYTES], hwc[TEST_STACK_BYTES];
  g_autoptr(GBytes) g = NULL, a = NULL, b = NULL;
  g_autoptr(LatentDataset) dg = NULL, da = NULL, db = NULL;
  guint width, height, channels;
  gboolean single;

  test_image_stacks (grey, chw, hwc);
  g = test_npy ("|u1", FALSE, "(2, 3, 4)", grey, sizeof grey);
  a = test_npy ("|u1", FALSE, "(2, 3, 3, 5)", chw, sizeof chw);
  b = test_npy ("|u1", FALSE, "(2, 3, 5, 3)", hwc, sizeof hwc);
  dg = load (g, NULL);
  da = load (a, NULL);
  db = load (b, NULL);

  g_assert_nonnull (dg);
  g_assert_true (latent_dataset_get_image_shape (dg, &width, &height, &channels, &single));
  g_assert_cmpuint (width, ==, 4);
  g_assert_cmpuint (height, ==, 3);
  g_assert_cmpuint (channels, ==, 1);
  g_assert_false (single);
  g_assert_cmpuint (latent_dataset_get_n_cols (dg), ==, 12);
  g_assert_cmpfloat_with_epsilon (latent_dataset_get_data (dg)[23], 115.0 / 255.0, 1e-7);

  g_assert_nonnull (da);
  g_assert_nonnull (db);
  g_assert_true (latent_dataset_get_image_shape (da, &width, &height, &channels, NULL));
  g_assert_cmpuint (width, ==, 5);
  g_assert_cmpuint (height, ==, 3);
  g_assert_cmpuint (channels, ==, 3);
  g_assert_cmpmem (latent_dataset_get_data (da), sizeof hwc * sizeof (float),
                   latent_dataset_get_data (db), sizeof hwc * sizeof (float));
}

/* Bad files, each refused with its code and what the message names. */
static void
test_bad (void)
{
  static const float one[6] = { 1, 2, 3, 4, 5, 6 };
  float nan_at[6] = { 1, 2, 3, 4, 5, 6 };
  static const double huge[2] = { 1, 1e300 };
  struct { const char *descr; gboolean fortran; const char *shape; const void *data; gsize len;
           int code; const char *fragment; } cases[] = {
    { "|O", FALSE, "(2,)", one, 16, LATENT_DATA_ERROR_UNSUPPORTED, "Python objects" },
    { "<c8", FALSE, "(3,)", one, 24, LATENT_DATA_ERROR_UNSUPPORTED, "complex" },
    { "<M8", FALSE, "(3,)", one, 24, LATENT_DATA_ERROR_UNSUPPORTED, "dates" },
    { "<f16", FALSE, "(1,)", one, 16, LATENT_DATA_ERROR_UNSUPPORTED, "“<f16”" },
    { "<U3", FALSE, "(2,)", one, 24, LATENT_DATA_ERROR_UNSUPPORTED, "labels, not as data" },
    { "<f4", FALSE, "(3, 2)", one, 20, LATENT_DATA_ERROR_PARSE, "expected 24 bytes of data, found 20" },
    { "<f4", FALSE, "(2, 2)", one, 24, LATENT_DATA_ERROR_PARSE, "goes on after the data" },
    { "<f4", FALSE, "(1, 1, 1, 1, 6)", one, 24, LATENT_DATA_ERROR_UNSUPPORTED, "5 dimensions" },
    { "<f4", FALSE, "()", one, 4, LATENT_DATA_ERROR_UNSUPPORTED, "0 dimensions" },
    { "<f4", FALSE, "(0, 3)", one, 0, LATENT_DATA_ERROR_EMPTY, "no data" },
    { "<f4", FALSE, "(1, 6, 5, 5)", one, 0, LATENT_DATA_ERROR_PARSE, "truncated" },
    { "<f4", FALSE, "(2, 3)", nan_at, 24, LATENT_DATA_ERROR_NOT_FINITE, "element [1, 1]" },
    { "<f4", TRUE, "(2, 3)", nan_at, 24, LATENT_DATA_ERROR_NOT_FINITE, "element [0, 2]" },
    { "<f8", FALSE, "(2,)", huge, 16, LATENT_DATA_ERROR_NOT_FINITE, "element [1]: 1e+300 is beyond" },
    { "<f4", FALSE, "(99999999, 99999999)", one, 24, LATENT_DATA_ERROR_TOO_LARGE, "above the limit" },
  };
  static const char *const headers[] = {
    "{'descr': '<f4', 'shape': (6,), }",                                   /* no fortran_order */
    "{'descr': '<f4', 'fortran_order': Maybe, 'shape': (6,), }",
    "{'descr': '<f4', 'fortran_order': False, 'shape': (6,), 'extra': 1, }",
    "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (6,), }",
    "{'descr': '<f4', 'fortran_order': False, 'shape': (-6,), }",
    "{'descr': '<f4', 'fortran_order': False, 'shape': __import__('os'), }",
  };
  static const char *const header_fragments[] = {
    "lacks “fortran_order”", "malformed .npy header", "malformed .npy header", "structured arrays",
    "malformed .npy header", "malformed .npy header",
  };

  nan_at[4] = NAN;
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(GBytes) bytes = test_npy (cases[c].descr, cases[c].fortran, cases[c].shape, cases[c].data, cases[c].len);
      g_autoptr(GError) error = NULL;
      g_autoptr(LatentDataset) dataset = load (bytes, &error);

      g_test_message ("%s %s: %s", cases[c].descr, cases[c].shape, error ? error->message : "loaded");
      g_assert_null (dataset);
      g_assert_error (error, LATENT_DATA_ERROR, cases[c].code);
      g_assert_nonnull (strstr (error->message, "test.npy"));
      g_assert_nonnull (strstr (error->message, cases[c].fragment));
    }

  for (guint c = 0; c < G_N_ELEMENTS (headers); c++)
    {
      g_autoptr(GByteArray) raw = g_byte_array_new ();
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(GError) error = NULL;
      guint8 head[10] = { 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, strlen (headers[c]) + 1, 0 };

      g_byte_array_append (raw, head, sizeof head);
      g_byte_array_append (raw, (const guint8 *) headers[c], strlen (headers[c]));
      g_byte_array_append (raw, (const guint8 *) "\n", 1);
      g_byte_array_append (raw, (const guint8 *) one, sizeof one);
      bytes = g_bytes_new (raw->data, raw->len);
      g_assert_null (load (bytes, &error));
      g_test_message ("%s: %s", headers[c], error->message);
      g_assert_nonnull (strstr (error->message, header_fragments[c]));
    }

  {
    /* Not NumPy at all; a version NumPy never wrote; a header longer than the file. */
    static const guint8 not_npy[] = "PK\3\4 a zip file";
    static const guint8 version9[12] = { 0x93, 'N', 'U', 'M', 'P', 'Y', 9, 0, 0, 0, 0, 0 };
    static const guint8 long_header[12] = { 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 0xff, 0x7f, '{', '}' };
    struct { const guint8 *data; gsize len; const char *fragment; } raw[] = {
      { not_npy, sizeof not_npy, "not a NumPy .npy file" },
      { version9, sizeof version9, "version 9.0" },
      { long_header, sizeof long_header, "truncated in its .npy header" },
    };

    for (guint c = 0; c < G_N_ELEMENTS (raw); c++)
      {
        g_autoptr(GBytes) bytes = g_bytes_new_static (raw[c].data, raw[c].len);
        g_autoptr(GError) error = NULL;

        g_assert_null (load (bytes, &error));
        g_assert_nonnull (error);
        g_assert_nonnull (strstr (error->message, raw[c].fragment));
      }
  }
}

/* Labels: integers become classes in sorted order named by their value,
 * text in order of first appearance; others are refused. */
static void
test_labels (void)
{
  static const gint64 ints[] = { 7, 3, 7, 10 };
  static const gint32 int_classes[] = { 1, 0, 1, 2 };
  /* '<U3' "cat", "dog", "cat" in UCS-4. */
  gunichar text[9] = { 'c', 'a', 't', 'd', 'o', 'g', 'c', 'a', 't' };
  static const gint32 text_classes[] = { 0, 1, 0 };
  static const double halves[] = { 1, 1.5 };
  g_autoptr(GBytes) a = test_npy ("<i8", FALSE, "(4,)", ints, sizeof ints);
  g_autoptr(GBytes) b = test_npy ("<U3", FALSE, "(3, 1)", text, sizeof text);
  g_autoptr(GBytes) c = test_npy ("<f8", FALSE, "(2,)", halves, sizeof halves);
  g_autoptr(GBytes) d = test_npy ("<i8", FALSE, "(2, 2)", ints, sizeof ints);
  g_autofree gint32 *la = NULL, *lb = NULL;
  g_auto(GStrv) na = NULL, nb = NULL;
  g_autoptr(GError) error = NULL;
  guint n = 0, k = 0;

  la = latent_npy_load_labels (a, "a.npy", &n, &k, &na, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpuint (k, ==, 3);
  g_assert_cmpmem (la, sizeof int_classes, int_classes, sizeof int_classes);
  g_assert_cmpstr (na[0], ==, "3");
  g_assert_cmpstr (na[2], ==, "10");

  lb = latent_npy_load_labels (b, "b.npy", &n, &k, &nb, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpuint (k, ==, 2);
  g_assert_cmpmem (lb, sizeof text_classes, text_classes, sizeof text_classes);
  g_assert_cmpstr (nb[0], ==, "cat");
  g_assert_cmpstr (nb[1], ==, "dog");

  g_assert_null (latent_npy_load_labels (c, "c.npy", &n, &k, NULL, &error));
  g_assert_nonnull (strstr (error->message, "element [1]: 1.5 is not a class"));
  g_clear_error (&error);
  g_assert_null (latent_npy_load_labels (d, "d.npy", &n, &k, NULL, &error));
  g_assert_nonnull (strstr (error->message, "2 × 2"));
}

/* An archive of @n_members name/.npy pairs at @path, stored as
 * numpy.savez does or deflated as numpy.savez_compressed does. */
static void
write_npz (const char *path,
           gboolean    deflate,
           guint       n_members,
           ...)
{
  zip_t *zip = zip_open (path, ZIP_CREATE | ZIP_TRUNCATE, NULL);
  va_list args;

  g_assert_nonnull (zip);
  va_start (args, n_members);
  for (guint i = 0; i < n_members; i++)
    {
      const char *name = va_arg (args, const char *);
      GBytes *bytes = va_arg (args, GBytes *);
      g_autofree char *entry = g_strconcat (name, ".npy", NULL);
      zip_source_t *source = zip_source_buffer (zip, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), 0);

      zip_int64_t index = zip_file_add (zip, entry, source, 0);

      g_assert_cmpint (index, >=, 0);
      g_assert_cmpint (zip_set_file_compression (zip, index, deflate ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0), ==, 0);
    }
  va_end (args);
  g_assert_cmpint (zip_close (zip), ==, 0);
}

/* Keras' layout gives data, labels and test data; numpy.savez's unnamed
 * arrays are ambiguous until named; a name not there is refused. */
static void
test_archive (Fixture       *f,
              gconstpointer  data)
{
  static const float train[] = { 1, 2, 3, 4, 5, 6 }, test[] = { 7, 8 };
  static const gint64 train_y[] = { 0, 1, 1 }, test_y[] = { 1 };
  g_autoptr(GBytes) x = test_npy ("<f4", FALSE, "(3, 2)", train, sizeof train);
  g_autoptr(GBytes) y = test_npy ("<i8", FALSE, "(3,)", train_y, sizeof train_y);
  g_autoptr(GBytes) xt = test_npy ("<f4", FALSE, "(1, 2)", test, sizeof test);
  g_autoptr(GBytes) yt = test_npy ("<i8", FALSE, "(1,)", test_y, sizeof test_y);
  g_autofree char *keras = g_build_filename (f->dir, "mnist.npz", NULL);
  g_autofree char *plain = g_build_filename (f->dir, "arrays.npz", NULL);
  g_autofree char *spec = g_strconcat (plain, ":x=arr_0,y=arr_1", NULL);
  g_autofree char *wrong = g_strconcat (plain, ":x=arr_9", NULL);
  g_autoptr(LatentDataset) dataset = NULL, named = NULL;
  g_autoptr(GError) error = NULL;
  LatentDataset *held_out;
  g_auto(GStrv) names = NULL;

  write_npz (keras, TRUE, 4, "x_train", x, "y_train", y, "x_test", xt, "y_test", yt);
  write_npz (plain, FALSE, 2, "arr_0", x, "arr_1", y);

  dataset = latent_catalog_load (keras, NULL, &error);
  g_assert_no_error (error);
  test_assert_values (dataset, 3, 2, train);
  g_assert_true (latent_dataset_has_labels (dataset));
  g_assert_cmpint (latent_dataset_get_labels (dataset)[2], ==, 1);
  held_out = latent_dataset_get_test (dataset);
  g_assert_nonnull (held_out);
  test_assert_values (held_out, 1, 2, test);
  g_assert_cmpint (latent_dataset_get_labels (held_out)[0], ==, 1);

  names = latent_npz_list (plain, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (names), ==, 2);
  g_assert_cmpstr (names[1], ==, "arr_1");
  g_assert_null (latent_catalog_load (plain, NULL, &error));
  g_assert_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_AMBIGUOUS);
  g_assert_nonnull (strstr (error->message, "arr_0, arr_1"));
  g_clear_error (&error);

  named = latent_catalog_load (spec, NULL, &error);
  g_assert_no_error (error);
  test_assert_values (named, 3, 2, train);
  g_assert_true (latent_dataset_has_labels (named));

  g_assert_null (latent_catalog_load (wrong, NULL, &error));
  g_assert_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "no array “arr_9”"));
  g_clear_error (&error);

  /* Labels without a train in their name label the training rows only:
   * the test data is not given them (found in review: it was). */
  {
    g_autofree char *mixed = g_build_filename (f->dir, "mixed.npz", NULL);
    g_autofree char *mixed_spec = g_strconcat (mixed, ":x=x_train,y=labels", NULL);
    g_autoptr(LatentDataset) trained = NULL;

    write_npz (mixed, FALSE, 3, "x_train", x, "x_test", xt, "labels", y);
    trained = latent_catalog_load (mixed_spec, NULL, &error);
    g_assert_no_error (error);
    g_assert_true (latent_dataset_has_labels (trained));
    g_assert_nonnull (latent_dataset_get_test (trained));
    g_assert_false (latent_dataset_has_labels (latent_dataset_get_test (trained)));
  }

  /* Any name can be chosen: a spec escapes its separators (found trying
   * the arrays dialog: "x=a,b" chose the array "a"). */
  {
    g_autofree char *odd = g_build_filename (f->dir, "odd.npz", NULL);
    g_autofree char *x_name = latent_catalog_escape ("run:1,x");
    g_autofree char *y_name = latent_catalog_escape ("y\\1");
    g_autofree char *odd_spec = g_strdup_printf ("%s:x=%s,y=%s", odd, x_name, y_name);
    g_autoptr(LatentDataset) chosen = NULL;

    g_assert_cmpstr (x_name, ==, "run\\:1\\,x");
    write_npz (odd, FALSE, 3, "run:1,x", x, "y\\1", y, "run", xt);
    chosen = latent_catalog_load (odd_spec, NULL, &error);
    g_assert_no_error (error);
    test_assert_values (chosen, 3, 2, train);
    g_assert_true (latent_dataset_has_labels (chosen));
  }
}

/* A C-order array of this machine's floats is used where it lies: the
 * dataset's values are the file's bytes (mapped, for a file of a
 * megabyte and more), not a copy; changing them leaves the file as it
 * was; another type is converted into values of its own. */
static void
test_in_place (Fixture       *f,
               gconstpointer  data)
{
  const guint n = 1 << 18;   /* a mebibyte of floats */
  g_autofree float *values = g_new (float, n);
  g_autofree double *doubles = g_new (double, 8);
  g_autofree char *path = g_build_filename (f->dir, "big.npy", NULL);
  g_autofree char *before = NULL, *after = NULL;
  g_autoptr(GBytes) file = NULL, small = NULL;
  g_autoptr(LatentDataset) mapped = NULL, in_bytes = NULL, converted = NULL;
  g_autoptr(GError) error = NULL;
  gsize len_before, len_after, len;
  const guint8 *base;

  for (guint i = 0; i < n; i++)
    values[i] = i % 1000;
  for (guint i = 0; i < 8; i++)
    doubles[i] = i;
  file = test_npy ("<f4", FALSE, "(65536, 4)", values, sizeof (float) * n);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (file, NULL), g_bytes_get_size (file), NULL));
  mapped = latent_npy_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (latent_dataset_get_n_rows (mapped), ==, 65536);
  g_assert_cmpfloat (latent_dataset_get_data (mapped)[4 * 1000 + 1], ==, 1);
  g_assert_true (g_file_get_contents (path, &before, &len_before, NULL));
  latent_dataset_get_data (mapped)[0] = 42;
  g_assert_true (g_file_get_contents (path, &after, &len_after, NULL));
  g_assert_cmpmem (before, len_before, after, len_after);

  /* From bytes: the dataset's values point into them. */
  in_bytes = latent_npy_load_bytes (file, "big.npy", &error);
  g_assert_no_error (error);
  base = g_bytes_get_data (file, &len);
  g_assert_true ((const guint8 *) latent_dataset_get_data (in_bytes) > base &&
                 (const guint8 *) latent_dataset_get_data (in_bytes) < base + len);
  small = test_npy ("<f8", FALSE, "(4, 2)", doubles, sizeof (double) * 8);
  converted = latent_npy_load_bytes (small, "small.npy", &error);
  g_assert_no_error (error);
  base = g_bytes_get_data (small, &len);
  g_assert_false ((const guint8 *) latent_dataset_get_data (converted) >= base &&
                  (const guint8 *) latent_dataset_get_data (converted) < base + len);
}

/* A member whose bytes were damaged after zipping fails its CRC; labels
 * of another length are refused naming both arrays. */
static void
test_archive_bad (Fixture       *f,
                  gconstpointer  data)
{
  static const float values[] = { 1, 2, 3, 4, 5, 6 };
  static const gint64 two[] = { 0, 1 };
  g_autoptr(GBytes) x = test_npy ("<f4", FALSE, "(3, 2)", values, sizeof values);
  g_autoptr(GBytes) y = test_npy ("<i8", FALSE, "(2,)", two, sizeof two);
  g_autofree char *path = g_build_filename (f->dir, "data.npz", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  gsize len;
  char *at;

  write_npz (path, FALSE, 2, "x", x, "y", y);
  g_assert_null (latent_catalog_load (path, NULL, &error));
  g_assert_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_MISMATCH);
  g_assert_nonnull (strstr (error->message, "array y has 2 labels"));
  g_assert_nonnull (strstr (error->message, "array x has 3 rows"));
  g_clear_error (&error);

  /* Stored, not compressed: the values are in the file as they are. */
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  at = memmem (contents, len, values, sizeof values);
  g_assert_nonnull (at);
  at[5] ^= 0x40;
  g_assert_true (g_file_set_contents (path, contents, len, NULL));
  g_assert_null (latent_catalog_load (path, NULL, &error));
  g_assert_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "array x: corrupt in the archive"));
}

/* Archives found by fuzzing, whose members say they hold gigabytes:
 * refused before any memory is given to them. */
static void
test_archive_declares_too_much (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fuzz", "corpus", "npz", "declares-4g.npz", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_null (latent_npz_load (path, NULL, NULL, &error));
  g_assert_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "declares 4294967120 bytes, more than its 176 compressed bytes can hold"));
  g_clear_error (&error);

  /* And one of 1,162 bytes whose x_train says it has 1.8 GB compressed. */
  g_free (path);
  path = g_test_build_filename (G_TEST_DIST, "fuzz", "corpus", "npz", "declares-2g-compressed.npz", NULL);
  g_assert_null (latent_npz_load (path, NULL, NULL, &error));
  g_assert_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "declares 1852399986 compressed bytes, more than the whole archive's"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/npy/types", test_types);
  g_test_add_func ("/npy/orders", test_orders);
  g_test_add_func ("/npy/images", test_images);
  g_test_add_func ("/npy/bad", test_bad);
  g_test_add_func ("/npy/labels", test_labels);
  ADD ("/npy/in-place", test_in_place);
  ADD ("/npz/choose", test_archive);
  ADD ("/npz/bad", test_archive_bad);
  g_test_add_func ("/npz/declares-too-much", test_archive_declares_too_much);
  return g_test_run ();
}
