/* test-filter.c — convolution kernels: presets, normalisation, kernel files, separability
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "test-filter"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "latent-convolve.h"
#include "latent-filter.h"
#include "latent-test-util.h"

static double
weight_sum (const LatentFilter *f)
{
  const guint n = latent_filter_get_size (f);
  double sum = 0;

  for (guint i = 0; i < n * n; i++)
    sum += latent_filter_get_weights (f)[i];
  return sum;
}

static float
at (const LatentFilter *f,
    guint               row,
    guint               col)
{
  return latent_filter_get_weights (f)[row * latent_filter_get_size (f) + col];
}

static void
assert_weights (const LatentFilter *f,
                const float        *expected,
                guint               size)
{
  g_assert_cmpuint (latent_filter_get_size (f), ==, size);
  for (guint i = 0; i < size * size; i++)
    g_assert_cmpfloat (latent_filter_get_weights (f)[i], ==, expected[i]);
}

static void
test_fixed_presets (void)
{
  static const float sharpen[9] = { 0, -1, 0, -1, 5, -1, 0, -1, 0 };
  static const float sobel_x[9] = { -1, 0, 1, -2, 0, 2, -1, 0, 1 };
  static const float sobel_y[9] = { -1, -2, -1, 0, 0, 0, 1, 2, 1 };
  static const float laplacian[9] = { 0, 1, 0, 1, -4, 1, 0, 1, 0 };
  static const float emboss[9] = { -2, -1, 0, -1, 1, 1, 0, 1, 2 };
  g_autoptr(LatentFilter) s = latent_filter_new_sharpen ();
  g_autoptr(LatentFilter) sx = latent_filter_new_sobel_x ();
  g_autoptr(LatentFilter) sy = latent_filter_new_sobel_y ();
  g_autoptr(LatentFilter) lap = latent_filter_new_laplacian ();
  g_autoptr(LatentFilter) emb = latent_filter_new_emboss ();
  g_autoptr(LatentFilter) grad = latent_filter_new_gradient ();

  assert_weights (s, sharpen, 3);
  assert_weights (sx, sobel_x, 3);
  assert_weights (sy, sobel_y, 3);
  assert_weights (lap, laplacian, 3);
  assert_weights (emb, emboss, 3);
  g_assert_cmpfloat (weight_sum (s), ==, 1.0);
  g_assert_cmpfloat (weight_sum (sx), ==, 0.0);
  g_assert_cmpfloat (weight_sum (lap), ==, 0.0);
  g_assert_cmpfloat (weight_sum (emb), ==, 1.0);
  g_assert_false (latent_filter_is_magnitude (s));
  g_assert_null (latent_filter_get_weights_y (s));
  g_assert_cmpfloat (latent_filter_get_divisor (s), ==, 1.0);
  g_assert_cmpfloat (latent_filter_get_offset (s), ==, 0.0);

  /* Sobel Y is Sobel X transposed. */
  for (guint j = 0; j < 3; j++)
    for (guint i = 0; i < 3; i++)
      g_assert_cmpfloat (at (sx, j, i), ==, at (sy, i, j));

  /* The gradient magnitude holds both. */
  g_assert_true (latent_filter_is_magnitude (grad));
  g_assert_cmpstr (latent_filter_get_name (grad), ==, "gradient");
  g_assert_cmpmem (latent_filter_get_weights (grad), sizeof sobel_x, sobel_x, sizeof sobel_x);
  g_assert_cmpmem (latent_filter_get_weights_y (grad), sizeof sobel_y, sobel_y, sizeof sobel_y);
}

static void
test_box (void)
{
  for (guint n = 1; n <= 31; n += 2)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(LatentFilter) box = latent_filter_new_box (n, &error);

      g_assert_no_error (error);
      g_assert_cmpuint (latent_filter_get_size (box), ==, n);
      g_assert_cmpfloat (latent_filter_get_divisor (box), ==, (double) n * n);
      g_assert_cmpfloat (weight_sum (box), ==, (double) n * n);
      g_assert_cmpfloat (at (box, 0, n - 1), ==, 1.0f);
    }
}

static void
test_gaussian (void)
{
  static const struct { double sigma; guint size; } autos[] = {
    { 0.3, 3 }, { 1.0, 7 }, { 2.0, 13 }, { 4.9, 31 }, { 10.0, 31 },
  };

  for (guint c = 0; c < G_N_ELEMENTS (autos); c++)
    {
      g_autoptr(LatentFilter) g = latent_filter_new_gaussian (autos[c].sigma, 0, NULL);
      g_assert_cmpuint (latent_filter_get_size (g), ==, autos[c].size);
    }

  for (guint n = 1; n <= 31; n += 2)
    {
      const double sigma = 0.5 + n / 4.0;
      g_autoptr(LatentFilter) g = latent_filter_new_gaussian (sigma, n, NULL);
      const guint r = n / 2;

      g_assert_cmpfloat_with_epsilon (weight_sum (g), 1.0, 1e-6);
      g_assert_cmpfloat (latent_filter_get_divisor (g), ==, 1.0);
      for (guint j = 0; j < n; j++)
        for (guint i = 0; i < n; i++)
          {
            /* Symmetric under transposition and both mirrors. */
            g_assert_cmpfloat (at (g, j, i), ==, at (g, i, j));
            g_assert_cmpfloat (at (g, j, i), ==, at (g, n - 1 - j, i));
            g_assert_cmpfloat (at (g, j, i), ==, at (g, j, n - 1 - i));
            g_assert_cmpfloat (at (g, j, i), >, 0.0f);
          }
      /* Falls off from the centre, with the expected ratio. */
      for (guint i = r + 1; i < n; i++)
        g_assert_cmpfloat (at (g, r, i), <, at (g, r, i - 1));
      if (n > 1)
        g_assert_cmpfloat_with_epsilon (at (g, r, r + 1) / at (g, r, r), exp (-1 / (2 * sigma * sigma)), 1e-6);
    }
}

static void
test_unsharp_and_motion (void)
{
  g_autoptr(LatentFilter) u = latent_filter_new_unsharp (1.0, 1.5, 0, NULL);
  g_autoptr(LatentFilter) h = latent_filter_new_motion (9, 0.0, NULL);
  g_autoptr(LatentFilter) v = latent_filter_new_motion (9, 90.0, NULL);
  g_autoptr(LatentFilter) d = latent_filter_new_motion (15, 45.0, NULL);

  g_assert_cmpuint (latent_filter_get_size (u), ==, 7);
  g_assert_cmpfloat_with_epsilon (weight_sum (u), 1.0, 1e-6);
  g_assert_cmpfloat (at (u, 3, 3), >, 1.0f);
  g_assert_cmpfloat (at (u, 3, 4), <, 0.0f);

  /* Horizontal: the middle row, evenly; vertical: the middle column. */
  for (guint j = 0; j < 9; j++)
    for (guint i = 0; i < 9; i++)
      {
        g_assert_cmpfloat_with_epsilon (at (h, j, i), j == 4 ? 1.0 / 9 : 0.0, 1e-7);
        g_assert_cmpfloat_with_epsilon (at (v, j, i), i == 4 ? 1.0 / 9 : 0.0, 1e-7);
      }

  /* 45° counter-clockwise: from bottom left to top right, 15 pixels long
   * (so ±5.3 on each axis), point-symmetric. */
  g_assert_cmpfloat_with_epsilon (weight_sum (d), 1.0, 1e-6);
  g_assert_cmpfloat (at (d, 2, 12), >, 0.0f);
  g_assert_cmpfloat (at (d, 12, 2), >, 0.0f);
  g_assert_cmpfloat (at (d, 1, 13), ==, 0.0f);
  g_assert_cmpfloat (at (d, 2, 2), ==, 0.0f);
  g_assert_cmpfloat (at (d, 12, 12), ==, 0.0f);
  g_assert_cmpfloat (at (d, 7, 7), >, 0.0f);
  for (guint j = 0; j < 15; j++)
    for (guint i = 0; i < 15; i++)
      g_assert_cmpfloat_with_epsilon (at (d, j, i), at (d, 14 - j, 14 - i), 1e-7);
}

static void
assert_error_prefix (GError     *error,
                     int         code,
                     const char *prefix)
{
  g_assert_error (error, LATENT_FILTER_ERROR, code);
  if (!g_str_has_prefix (error->message, prefix))
    g_error ("“%s” does not start with “%s”", error->message, prefix);
}

static void
test_bad_parameters (void)
{
  static const guint bad_sizes[] = { 0, 2, 4, 30, 32, 33, 1000 };
  const float w[9] = { 1, 1, 1, 1, NAN, 1, 1, 1, 1 };
  const float ok[9] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 };
  const float zeros[9] = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentFilter) f = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (bad_sizes); i++)
    {
      g_assert_null (latent_filter_new_box (bad_sizes[i], &error));
      assert_error_prefix (error, LATENT_FILTER_ERROR_SIZE, "size:");
      g_clear_error (&error);
      g_assert_null (latent_filter_new_gaussian (1.0, bad_sizes[i] ? bad_sizes[i] : 2, &error));
      assert_error_prefix (error, LATENT_FILTER_ERROR_SIZE, "size:");
      g_clear_error (&error);
      g_assert_null (latent_filter_new_motion (bad_sizes[i], 0, &error));
      assert_error_prefix (error, LATENT_FILTER_ERROR_SIZE, "size:");
      g_clear_error (&error);
      g_assert_null (latent_filter_new (bad_sizes[i], ok, 1, 0, &error));
      assert_error_prefix (error, LATENT_FILTER_ERROR_SIZE, "size:");
      g_clear_error (&error);
    }

  g_assert_null (latent_filter_new_gaussian (0.0, 5, &error));
  assert_error_prefix (error, LATENT_FILTER_ERROR_INVALID, "sigma:");
  g_clear_error (&error);
  g_assert_null (latent_filter_new_gaussian (NAN, 0, &error));
  assert_error_prefix (error, LATENT_FILTER_ERROR_INVALID, "sigma:");
  g_clear_error (&error);
  g_assert_null (latent_filter_new_unsharp (1.0, -1.0, 5, &error));
  assert_error_prefix (error, LATENT_FILTER_ERROR_INVALID, "amount:");
  g_clear_error (&error);
  g_assert_null (latent_filter_new_motion (9, INFINITY, &error));
  assert_error_prefix (error, LATENT_FILTER_ERROR_INVALID, "angle:");
  g_clear_error (&error);
  g_assert_null (latent_filter_new_preset ("blur", 3, 1, 1, 0, &error));
  assert_error_prefix (error, LATENT_FILTER_ERROR_INVALID, "filter:");
  g_assert_nonnull (strstr (error->message, "gaussian"));
  g_clear_error (&error);

  g_assert_null (latent_filter_new (3, w, 1, 0, &error));
  assert_error_prefix (error, LATENT_FILTER_ERROR_INVALID, "kernel:");
  g_assert_nonnull (strstr (error->message, "row 2, column 2"));
  g_clear_error (&error);
  g_assert_null (latent_filter_new (3, ok, 0.0, 0, &error));
  assert_error_prefix (error, LATENT_FILTER_ERROR_INVALID, "divisor:");
  g_clear_error (&error);
  g_assert_null (latent_filter_new (3, ok, 1.0, NAN, &error));
  assert_error_prefix (error, LATENT_FILTER_ERROR_INVALID, "offset:");
  g_clear_error (&error);

  /* A refused setter leaves the filter as it was. */
  f = latent_filter_new (3, ok, 2.0, 0.5, &error);
  g_assert_no_error (error);
  g_assert_false (latent_filter_set_divisor (f, 0.0, &error));
  assert_error_prefix (error, LATENT_FILTER_ERROR_INVALID, "divisor:");
  g_clear_error (&error);
  g_assert_false (latent_filter_set_offset (f, INFINITY, &error));
  g_clear_error (&error);
  g_assert_cmpfloat (latent_filter_get_divisor (f), ==, 2.0);
  g_assert_cmpfloat (latent_filter_get_offset (f), ==, 0.5);
  g_clear_pointer (&f, latent_filter_free);

  /* Automatic normalisation of an all-zero kernel. */
  f = latent_filter_new (3, zeros, 1.0, 0.0, &error);
  g_assert_no_error (error);
  g_assert_false (latent_filter_normalise (f, &error));
  assert_error_prefix (error, LATENT_FILTER_ERROR_INVALID, "normalize:");
  g_clear_error (&error);
  g_assert_cmpfloat (latent_filter_get_divisor (f), ==, 1.0);
}

static void
test_normalise (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentFilter) lap = latent_filter_new_laplacian ();
  g_autoptr(LatentFilter) grad = latent_filter_new_gradient ();
  g_autoptr(LatentFilter) box = latent_filter_new_box (5, NULL);
  g_autoptr(LatentFilter) s = latent_filter_new_sharpen ();

  g_assert_false (latent_filter_normalise (lap, &error));
  assert_error_prefix (error, LATENT_FILTER_ERROR_INVALID, "normalize:");
  g_clear_error (&error);
  g_assert_false (latent_filter_normalise (grad, &error));
  assert_error_prefix (error, LATENT_FILTER_ERROR_INVALID, "normalize:");
  g_clear_error (&error);

  g_assert_true (latent_filter_set_divisor (box, 1.0, NULL));
  g_assert_true (latent_filter_normalise (box, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (latent_filter_get_divisor (box), ==, 25.0);
  g_assert_true (latent_filter_normalise (s, &error));
  g_assert_cmpfloat (latent_filter_get_divisor (s), ==, 1.0);
}

static LatentFilter *
parse_ok (const char *text)
{
  g_autoptr(GError) error = NULL;
  LatentFilter *f = latent_filter_parse (text, -1, "k.txt", &error);

  g_assert_no_error (error);
  g_assert_nonnull (f);
  return f;
}

static void
test_parse (void)
{
  static const float expected[9] = { 1, 2, 1, 2, 4, 2, 1, 2, 1 };
  g_autoptr(LatentFilter) a = parse_ok ("# a blur\r\n"
                                        "divisor = 16\r\n"
                                        "\r\n"
                                        "1 2 1   # top\r\n"
                                        "2, 4,\t2,\r\n"
                                        "  1,2,1\r\n"
                                        "OFFSET=0.25\r\n");
  g_autoptr(LatentFilter) b = parse_ok ("-1.5e0");
  g_autoptr(LatentFilter) c = NULL;
  g_autofree char *text = NULL;

  assert_weights (a, expected, 3);
  g_assert_cmpfloat (latent_filter_get_divisor (a), ==, 16.0);
  g_assert_cmpfloat (latent_filter_get_offset (a), ==, 0.25);
  g_assert_cmpstr (latent_filter_get_name (a), ==, "custom");
  g_assert_cmpuint (latent_filter_get_size (b), ==, 1);
  g_assert_cmpfloat (latent_filter_get_weights (b)[0], ==, -1.5f);
  g_assert_cmpfloat (latent_filter_get_divisor (b), ==, 1.0);

  /* The text form reads back as the same filter. */
  text = latent_filter_to_text (a);
  c = parse_ok (text);
  assert_weights (c, expected, 3);
  g_assert_cmpfloat (latent_filter_get_divisor (c), ==, 16.0);
  g_assert_cmpfloat (latent_filter_get_offset (c), ==, 0.25);
  g_clear_pointer (&c, latent_filter_free);
  g_clear_pointer (&text, g_free);
  {
    g_autoptr(LatentFilter) g = latent_filter_new_gaussian (1.7, 9, NULL);
    text = latent_filter_to_text (g);
    c = parse_ok (text);
    g_assert_cmpmem (latent_filter_get_weights (c), 81 * sizeof (float),
                     latent_filter_get_weights (g), 81 * sizeof (float));
  }
  {
    g_autoptr(LatentFilter) grad = latent_filter_new_gradient ();
    g_assert_null (latent_filter_to_text (grad));
  }
}

static void
test_parse_errors (void)
{
  static const struct {
    const char *text;
    int         code;
    const char *message;
  } cases[] = {
    { "", LATENT_FILTER_ERROR_PARSE, "k.txt: no kernel rows" },
    { "# only a comment\n\n", LATENT_FILTER_ERROR_PARSE, "k.txt: no kernel rows" },
    { "1 1 1\n1 x 1\n1 1 1\n", LATENT_FILTER_ERROR_PARSE, "k.txt:2:3: “x” is not a number" },
    { "1 1 1\n1 1 1\n1 1.5.2 1\n", LATENT_FILTER_ERROR_PARSE, "k.txt:3:3: “1.5.2” is not a number" },
    { "1 2 3\n4 5\n6 7 8\n", LATENT_FILTER_ERROR_PARSE, "k.txt:2: 2 values, but the first row (line 1) has 3" },
    { "\n1 2 3\n4 5 6\n", LATENT_FILTER_ERROR_SIZE, "k.txt:2: 2 rows of 3 values; a kernel must be square" },
    { "1 2\n3 4\n", LATENT_FILTER_ERROR_SIZE, "k.txt:1: a 2 × 2 kernel" },
    { "1,,2,3\n", LATENT_FILTER_ERROR_PARSE, "k.txt:1:3: a value is missing between two commas" },
    { "1 inf 1\n1 1 1\n1 1 1\n", LATENT_FILTER_ERROR_PARSE, "k.txt:1:3: “inf” is not a finite number" },
    { "1 1 1\n1 1 1\n1 1 1\nscale = 2\n", LATENT_FILTER_ERROR_PARSE, "k.txt:4:1: unknown setting “scale”" },
    { "divisor = 0\n1\n", LATENT_FILTER_ERROR_PARSE, "k.txt:1: divisor = 0" },
    { "divisor = 2\n1\ndivisor = 3\n", LATENT_FILTER_ERROR_PARSE, "k.txt:3: divisor is given again (first on line 1)" },
    { "offset = \n1\n", LATENT_FILTER_ERROR_PARSE, "k.txt:1:9: offset has no value" },
    { "offset = 1 2\n1\n", LATENT_FILTER_ERROR_PARSE, "k.txt:1:12: unexpected “2” after the offset" },
    { "1\n\xff\n", LATENT_FILTER_ERROR_PARSE, "k.txt:2: not UTF-8 text" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(LatentFilter) f = latent_filter_parse (cases[i].text, -1, "k.txt", &error);

      g_assert_null (f);
      g_assert_error (error, LATENT_FILTER_ERROR, cases[i].code);
      if (!g_str_has_prefix (error->message, cases[i].message))
        g_error ("case %u: “%s” does not start with “%s”", i, error->message, cases[i].message);
    }

  /* 32 values in a row, then 33 rows of 31. */
  {
    g_autoptr(GString) wide = g_string_new (NULL);
    g_autoptr(GString) tall = g_string_new (NULL);
    g_autoptr(GError) error = NULL;

    for (guint i = 0; i < 32; i++)
      g_string_append (wide, "1 ");
    g_assert_null (latent_filter_parse (wide->str, -1, "k.txt", &error));
    assert_error_prefix (error, LATENT_FILTER_ERROR_SIZE, "k.txt:1: more than 31 values");
    g_clear_error (&error);

    for (guint j = 0; j < 33; j++)
      {
        for (guint i = 0; i < 31; i++)
          g_string_append (tall, "1 ");
        g_string_append_c (tall, '\n');
      }
    g_assert_null (latent_filter_parse (tall->str, -1, "k.txt", &error));
    assert_error_prefix (error, LATENT_FILTER_ERROR_SIZE, "k.txt:32: more than 31 rows");
  }
}

static void
test_load (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-filter-XXXXXX", &error);
  g_autofree char *good = g_build_filename (dir, "sharpen.txt", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.txt", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing.txt", NULL);
  g_autofree char *expected = NULL;
  g_autoptr(LatentFilter) f = NULL;

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (good, "0 -1 0\n-1 5 -1\n0 -1 0\n", -1, NULL));
  g_assert_true (g_file_set_contents (bad, "0 -1 0\n-1 5 -1\n0 -1\n", -1, NULL));

  f = latent_filter_load (good, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (at (f, 1, 1), ==, 5.0f);

  /* The message names the file and the line. */
  g_assert_null (latent_filter_load (bad, &error));
  g_assert_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_PARSE);
  expected = g_strdup_printf ("%s:3: 2 values", bad);
  g_assert_true (g_str_has_prefix (error->message, expected));
  g_clear_error (&error);

  g_assert_null (latent_filter_load (missing, &error));
  g_assert_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "missing.txt"));
  g_clear_error (&error);

  g_assert_null (latent_filter_load (dir, &error));
  g_assert_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_IO);
  g_clear_error (&error);

  g_unlink (good);
  g_unlink (bad);
  g_rmdir (dir);
}

/* outer (column, row) reproduces the weights. */
static void
assert_factors (const LatentFilter *f,
                guint               kernel)
{
  const guint n = latent_filter_get_size (f);
  const float *w = kernel ? latent_filter_get_weights_y (f) : latent_filter_get_weights (f);
  const float *column, *row;
  double biggest = 0;

  g_assert_true (latent_filter_get_factors (f, kernel, &column, &row));
  for (guint i = 0; i < n * n; i++)
    biggest = MAX (biggest, fabs (w[i]));
  for (guint j = 0; j < n; j++)
    for (guint i = 0; i < n; i++)
      g_assert_cmpfloat (fabs ((double) column[j] * row[i] - w[j * n + i]), <=, 1e-6 * biggest);
}

static void
test_separable (void)
{
  const float *column, *row;
  guint64 state = 42;

  for (guint n = 1; n <= 31; n += 2)
    {
      g_autoptr(LatentFilter) box = latent_filter_new_box (n, NULL);
      g_autoptr(LatentFilter) gauss = latent_filter_new_gaussian (n / 3.0 + 0.2, n, NULL);
      g_autoptr(LatentFilter) line = latent_filter_new_motion (n, 0.0, NULL);

      g_assert_true (latent_filter_is_separable (box));
      g_assert_true (latent_filter_is_separable (gauss));
      g_assert_true (latent_filter_is_separable (line));
      assert_factors (box, 0);
      assert_factors (gauss, 0);
      assert_factors (line, 0);
      /* Positive factors for positive kernels. */
      g_assert_true (latent_filter_get_factors (gauss, 0, &column, &row));
      for (guint i = 0; i < n; i++)
        g_assert_cmpfloat (column[i], >, 0.0f);
    }

  {
    g_autoptr(LatentFilter) sx = latent_filter_new_sobel_x ();
    g_autoptr(LatentFilter) sy = latent_filter_new_sobel_y ();
    g_autoptr(LatentFilter) grad = latent_filter_new_gradient ();
    g_autoptr(LatentFilter) lap = latent_filter_new_laplacian ();
    g_autoptr(LatentFilter) emb = latent_filter_new_emboss ();
    g_autoptr(LatentFilter) sharp = latent_filter_new_sharpen ();
    g_autoptr(LatentFilter) unsharp = latent_filter_new_unsharp (2.0, 1.0, 0, NULL);
    g_autoptr(LatentFilter) slant = latent_filter_new_motion (9, 30.0, NULL);

    g_assert_true (latent_filter_is_separable (sx));
    g_assert_true (latent_filter_is_separable (sy));
    g_assert_true (latent_filter_is_separable (grad));
    assert_factors (sx, 0);
    assert_factors (sy, 0);
    assert_factors (grad, 0);
    assert_factors (grad, 1);
    /* Sobel X: column ∝ (1, 2, 1), row ∝ (−1, 0, 1). */
    g_assert_true (latent_filter_get_factors (sx, 0, &column, &row));
    g_assert_cmpfloat_with_epsilon (column[1] / column[0], 2.0, 1e-6);
    g_assert_cmpfloat_with_epsilon (row[2] / row[0], -1.0, 1e-6);
    g_assert_cmpfloat (fabs (row[1]), <, 1e-7);

    g_assert_false (latent_filter_is_separable (lap));
    g_assert_false (latent_filter_is_separable (emb));
    g_assert_false (latent_filter_is_separable (sharp));
    g_assert_false (latent_filter_is_separable (unsharp));
    g_assert_false (latent_filter_is_separable (slant));
    g_assert_false (latent_filter_get_factors (lap, 0, &column, &row));
    g_assert_null (column);
    g_assert_null (row);
    g_assert_false (latent_filter_get_factors (sx, 1, &column, &row));
    g_assert_cmpfloat (latent_filter_get_rank1_residual (lap), >, 0.1);
  }

  /* Random kernels are full rank; a random rank-1 kernel is not, and a
   * small perturbation of it is again. */
  for (guint n = 3; n <= 31; n += 4)
    {
      g_autofree float *w = g_new (float, n * n);
      g_autofree float *u = g_new (float, n);
      g_autofree float *v = g_new (float, n);
      g_autoptr(LatentFilter) random = NULL;
      g_autoptr(LatentFilter) rank1 = NULL;
      g_autoptr(LatentFilter) nudged = NULL;

      for (guint i = 0; i < n * n; i++)
        w[i] = (float) (2 * test_uniform (&state) - 1);
      random = latent_filter_new (n, w, 1, 0, NULL);
      g_assert_false (latent_filter_is_separable (random));
      g_assert_cmpfloat (latent_filter_get_rank1_residual (random), >, 1e-3);

      for (guint i = 0; i < n; i++)
        {
          u[i] = (float) (2 * test_uniform (&state) - 1);
          v[i] = (float) (2 * test_uniform (&state) - 1);
        }
      for (guint j = 0; j < n; j++)
        for (guint i = 0; i < n; i++)
          w[j * n + i] = u[j] * v[i];
      rank1 = latent_filter_new (n, w, 3, 0, NULL);
      g_assert_true (latent_filter_is_separable (rank1));
      g_assert_cmpfloat (latent_filter_get_rank1_residual (rank1), <=, LATENT_FILTER_SEPARABLE_TOLERANCE);
      assert_factors (rank1, 0);

      w[0] += 1e-3f;
      nudged = latent_filter_new (n, w, 1, 0, NULL);
      g_assert_false (latent_filter_is_separable (nudged));
    }

  /* All zeros: rank 0, separable with zero factors. */
  {
    const float zeros[25] = { 0 };
    g_autoptr(LatentFilter) z = latent_filter_new (5, zeros, 1, 0, NULL);

    g_assert_true (latent_filter_is_separable (z));
    g_assert_cmpfloat (latent_filter_get_rank1_residual (z), ==, 0.0);
    assert_factors (z, 0);
  }
}

static void
test_copy (void)
{
  g_autoptr(LatentFilter) g = latent_filter_new_gradient ();
  g_autoptr(LatentFilter) c = latent_filter_copy (g);
  gpointer boxed;
  const float *col_a, *row_a, *col_b, *row_b;

  g_assert_true (latent_filter_set_offset (g, 0.5, NULL));
  g_assert_cmpfloat (latent_filter_get_offset (c), ==, 0.0);
  g_assert_true (c != g);
  g_assert_true (latent_filter_get_weights (c) != latent_filter_get_weights (g));
  g_assert_cmpmem (latent_filter_get_weights_y (c), 9 * sizeof (float),
                   latent_filter_get_weights_y (g), 9 * sizeof (float));
  g_assert_true (latent_filter_get_factors (g, 1, &col_a, &row_a));
  g_assert_true (latent_filter_get_factors (c, 1, &col_b, &row_b));
  g_assert_cmpmem (col_a, 3 * sizeof (float), col_b, 3 * sizeof (float));
  g_assert_true (latent_filter_is_magnitude (c));

  boxed = g_boxed_copy (LATENT_TYPE_FILTER, c);
  g_assert_cmpuint (latent_filter_get_size (boxed), ==, 3);
  g_boxed_free (LATENT_TYPE_FILTER, boxed);
}

/* The kernel editor's file replaces the preset and any kernel file, and is
 * not normalised again. */
static void
test_params_use_file (void)
{
  g_autoptr(LatentParams) params = latent_algorithm_new_params (latent_convolve_get_algorithm ());
  g_autoptr(GError) error = NULL;

  g_assert_true (latent_params_set (params, "kernel", "@/tmp/old.txt", NULL));
  g_assert_true (latent_params_set_bool (params, "normalize", TRUE, NULL));
  g_assert_true (latent_filter_params_use_file (params, "/tmp/edited.txt", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (latent_params_get_choice (params, "filter"), ==, "@/tmp/edited.txt");
  g_assert_cmpstr (latent_params_get_choice (params, "kernel"), ==, "none");
  g_assert_false (latent_params_get_bool (params, "normalize"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/filter/fixed-presets", test_fixed_presets);
  g_test_add_func ("/filter/box", test_box);
  g_test_add_func ("/filter/gaussian", test_gaussian);
  g_test_add_func ("/filter/unsharp-and-motion", test_unsharp_and_motion);
  g_test_add_func ("/filter/bad-parameters", test_bad_parameters);
  g_test_add_func ("/filter/normalise", test_normalise);
  g_test_add_func ("/filter/parse", test_parse);
  g_test_add_func ("/filter/parse-errors", test_parse_errors);
  g_test_add_func ("/filter/load", test_load);
  g_test_add_func ("/filter/separable", test_separable);
  g_test_add_func ("/filter/copy", test_copy);
  g_test_add_func ("/filter/params-use-file", test_params_use_file);

  return g_test_run ();
}
