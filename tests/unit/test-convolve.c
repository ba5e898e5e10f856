/* test-convolve.c — the C reference convolution by hand, border rules, layouts, PNG writing
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "test-convolve"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "latent-convolve.h"
#include "latent-png.h"
#include "latent-png-save.h"
#include "latent-test-util.h"

/* OpenCV's borderInterpolate for a line of 4 (abcd = 0123), p = −6 … 9. */
static void
test_border_index (void)
{
  static const gint clamp[] = { 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 3, 3, 3, 3, 3, 3 };
  static const gint mirror[] = { 0, 1, 2, 3, 2, 1, 0, 1, 2, 3, 2, 1, 0, 1, 2, 3 };
  static const gint wrap[] = { 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1 };
  static const gint zero[] = { -1, -1, -1, -1, -1, -1, 0, 1, 2, 3, -1, -1, -1, -1, -1, -1 };

  for (gint p = -6; p <= 9; p++)
    {
      g_assert_cmpint (latent_border_index (LATENT_BORDER_CLAMP, p, 4), ==, clamp[p + 6]);
      g_assert_cmpint (latent_border_index (LATENT_BORDER_MIRROR, p, 4), ==, mirror[p + 6]);
      g_assert_cmpint (latent_border_index (LATENT_BORDER_WRAP, p, 4), ==, wrap[p + 6]);
      g_assert_cmpint (latent_border_index (LATENT_BORDER_ZERO, p, 4), ==, zero[p + 6]);
      /* A line of one pixel: everything but zero gives that pixel. */
      g_assert_cmpint (latent_border_index (LATENT_BORDER_MIRROR, p, 1), ==, 0);
      g_assert_cmpint (latent_border_index (LATENT_BORDER_WRAP, p, 1), ==, 0);
      g_assert_cmpint (latent_border_index (LATENT_BORDER_CLAMP, p, 1), ==, 0);
    }
  /* Two pixels: mirror alternates (period 2). */
  g_assert_cmpint (latent_border_index (LATENT_BORDER_MIRROR, -1, 2), ==, 1);
  g_assert_cmpint (latent_border_index (LATENT_BORDER_MIRROR, -2, 2), ==, 0);
  g_assert_cmpint (latent_border_index (LATENT_BORDER_MIRROR, 2, 2), ==, 0);
  g_assert_cmpint (latent_border_index (LATENT_BORDER_MIRROR, 3, 2), ==, 1);
}

static void
test_names (void)
{
  g_autoptr(GError) error = NULL;
  LatentBorder border;
  LatentConvolveMethod method;

  for (LatentBorder b = LATENT_BORDER_CLAMP; b <= LATENT_BORDER_ZERO; b++)
    {
      g_assert_true (latent_border_parse (latent_border_to_string (b), &border, &error));
      g_assert_cmpint (border, ==, b);
    }
  for (guint m = 0; m < LATENT_CONVOLVE_N_METHODS; m++)
    {
      g_assert_true (latent_convolve_method_parse (latent_convolve_method_to_string (m), &method, &error));
      g_assert_cmpint (method, ==, m);
    }
  g_assert_no_error (error);
  g_assert_false (latent_border_parse ("reflect", &border, &error));
  g_assert_true (g_str_has_prefix (error->message, "border:"));
  g_clear_error (&error);
  g_assert_false (latent_convolve_method_parse ("fast", &method, &error));
  g_assert_true (g_str_has_prefix (error->message, "method:"));
}

/* 1  2  3  4
 * 5  6  7  8
 * 9 10 11 12 */
static const float grid[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };

static float
filtered_at (const LatentFilter *filter,
             LatentBorder        border,
             guint               x,
             guint               y)
{
  float out[12];
  g_autoptr(GError) error = NULL;

  g_assert_true (latent_convolve_reference (filter, border, grid, out, 4, 3, 1, &error));
  g_assert_no_error (error);
  return out[y * 4 + x];
}

static void
test_hand_computed (void)
{
  const float ones[9] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 };
  /* A single 1 top right: out (x, y) = in (x + 1, y − 1), not flipped. */
  const float corner[9] = { 0, 0, 1, 0, 0, 0, 0, 0, 0 };
  g_autoptr(LatentFilter) sum = latent_filter_new (3, ones, 1.0, 0.0, NULL);
  g_autoptr(LatentFilter) mean = latent_filter_new (3, ones, 9.0, 0.5, NULL);
  g_autoptr(LatentFilter) shift = latent_filter_new (3, corner, 1.0, 0.0, NULL);
  static const struct { LatentBorder border; float top_left, bottom_right, shifted; } cases[] = {
    /*                       (0,0)  (3,2) shift at (3,0) */
    { LATENT_BORDER_CLAMP,   24,    93,   4 },
    { LATENT_BORDER_MIRROR,  39,    78,   7 },
    { LATENT_BORDER_WRAP,    57,    60,   9 },
    { LATENT_BORDER_ZERO,    14,    38,   0 },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      const LatentBorder b = cases[c].border;

      g_assert_cmpfloat (filtered_at (sum, b, 0, 0), ==, cases[c].top_left);
      g_assert_cmpfloat (filtered_at (sum, b, 3, 2), ==, cases[c].bottom_right);
      g_assert_cmpfloat (filtered_at (sum, b, 1, 1), ==, 54);
      g_assert_cmpfloat (filtered_at (mean, b, 1, 1), ==, 6.5);
      g_assert_cmpfloat (filtered_at (shift, b, 1, 1), ==, 3);
      g_assert_cmpfloat (filtered_at (shift, b, 3, 0), ==, cases[c].shifted);
    }
}

/* Sobel magnitude on a ramp in x: gx = 8 inside, gy = 0. */
static void
test_gradient_magnitude (void)
{
  float ramp[6 * 5], out[6 * 5];
  g_autoptr(LatentFilter) grad = latent_filter_new_gradient ();

  for (guint y = 0; y < 5; y++)
    for (guint x = 0; x < 6; x++)
      ramp[y * 6 + x] = x;
  g_assert_true (latent_filter_set_offset (grad, 1.0, NULL));
  g_assert_true (latent_convolve_reference (grad, LATENT_BORDER_CLAMP, ramp, out, 6, 5, 1, NULL));
  for (guint y = 0; y < 5; y++)
    {
      g_assert_cmpfloat (out[y * 6 + 2], ==, 9.0f);
      /* At the left edge the clamped ramp rises by 1, not 2. */
      g_assert_cmpfloat (out[y * 6], ==, 5.0f);
    }
}

/* A kernel far larger than the image folds back onto it again and again. */
static void
test_kernel_larger_than_image (void)
{
  const float one = 0.25f, pair[2] = { 1, 3 };
  float out[2];
  g_autoptr(LatentFilter) box = latent_filter_new_box (31, NULL);

  g_assert_true (latent_filter_set_divisor (box, 1.0, NULL));
  g_assert_true (latent_convolve_reference (box, LATENT_BORDER_MIRROR, &one, out, 1, 1, 1, NULL));
  g_assert_cmpfloat (out[0], ==, 961 * 0.25f);
  g_assert_true (latent_convolve_reference (box, LATENT_BORDER_ZERO, &one, out, 1, 1, 1, NULL));
  g_assert_cmpfloat (out[0], ==, 0.25f);
  /* 2 × 1, wrap: the 31 taps of a row at x = 0 fall on 15 even offsets
   * (pixel 0) and 16 odd ones (pixel 1); at x = 1 the other way round. */
  g_assert_true (latent_convolve_reference (box, LATENT_BORDER_WRAP, pair, out, 2, 1, 1, NULL));
  g_assert_cmpfloat (out[0], ==, 31 * (15 * 1 + 16 * 3));
  g_assert_cmpfloat (out[1], ==, 31 * (16 * 1 + 15 * 3));
}

/* Channels are filtered independently: a multi-channel image equals its
 * planes filtered one at a time. */
static void
test_channels_independent (void)
{
  const guint w = 9, h = 7, n = w * h;
  float image[4 * 9 * 7], all[4 * 9 * 7], one[9 * 7];
  g_autoptr(LatentFilter) emboss = latent_filter_new_emboss ();
  guint64 state = 3;

  for (guint i = 0; i < 4 * n; i++)
    image[i] = (float) test_uniform (&state);
  g_assert_true (latent_convolve_reference (emboss, LATENT_BORDER_MIRROR, image, all, w, h, 4, NULL));
  for (guint c = 0; c < 4; c++)
    {
      g_assert_true (latent_convolve_reference (emboss, LATENT_BORDER_MIRROR, image + c * n, one, w, h, 1, NULL));
      g_assert_cmpmem (one, sizeof one, all + c * n, sizeof one);
    }
}

static void
test_layouts (void)
{
  const gsize n = 5;
  float pixels[5 * 3], planes[5 * 3], back[5 * 3];

  for (guint i = 0; i < G_N_ELEMENTS (pixels); i++)
    pixels[i] = i;
  latent_convolve_planar_from_interleaved (pixels, planes, n, 3);
  /* Plane 1 holds the green values 1, 4, 7, … */
  g_assert_cmpfloat (planes[5], ==, 1);
  g_assert_cmpfloat (planes[6], ==, 4);
  g_assert_cmpfloat (planes[14], ==, 14);
  latent_convolve_interleaved_from_planar (planes, back, n, 3);
  g_assert_cmpmem (back, sizeof back, pixels, sizeof pixels);
}

static void
test_bad_images (void)
{
  g_autoptr(LatentFilter) box = latent_filter_new_box (3, NULL);
  g_autoptr(GError) error = NULL;
  float v = 0, out = 0;

  g_assert_false (latent_convolve_reference (box, LATENT_BORDER_ZERO, &v, &out, 0, 1, 1, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (latent_convolve_reference (box, LATENT_BORDER_ZERO, &v, &out, 8192, 8193, 1, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "8192 × 8193"));
  g_clear_error (&error);
  g_assert_false (latent_convolve_reference (box, LATENT_BORDER_ZERO, &v, &out, 1, 1, 0, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_true (latent_convolve_check_image (8192, 8192, 4, NULL));
}

/* ---- PNG writing ---- */

static char *
temp_dir (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("test-convolve-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

static guint
count_files (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  while (g_dir_read_name (d) != NULL)
    n++;
  return n;
}

static void
test_png_round_trip (void)
{
  static const guint depths[] = { 8, 16 };
  g_autofree char *dir = temp_dir ();
  const guint w = 13, h = 7;

  for (guint d = 0; d < G_N_ELEMENTS (depths); d++)
    for (guint channels = 1; channels <= 4; channels++)
      for (guint planar = 0; planar < 2; planar++)
        {
          const guint depth = depths[d], max = depth == 16 ? 65535 : 255;
          const gsize n = (gsize) w * h * channels;
          g_autofree float *pixels = g_new (float, n);
          g_autofree float *values = g_new (float, n);
          g_autofree char *path = g_strdup_printf ("%s/out-%u-%u-%u.png", dir, depth, channels, planar);
          g_autoptr(LatentDataset) back = NULL;
          g_autoptr(GError) error = NULL;
          guint64 state = depth * 10 + channels;
          guint bw, bh, bc;
          gboolean single;

          /* Values on the sample grid, plus some outside [0, 1] and a NaN. */
          for (gsize i = 0; i < n; i++)
            pixels[i] = (float) (guint) (test_uniform (&state) * (max + 1)) / max;
          pixels[0] = -0.5f;
          pixels[1] = 2.0f;
          pixels[2] = NAN;
          if (planar)
            latent_convolve_planar_from_interleaved (pixels, values, (gsize) w * h, channels);
          else
            memcpy (values, pixels, n * sizeof (float));
          pixels[0] = 0.0f;
          pixels[1] = 1.0f;
          pixels[2] = 0.0f;

          g_assert_true (latent_png_save (path, values, w, h, channels,
                                          planar ? LATENT_PNG_PLANAR : LATENT_PNG_INTERLEAVED,
                                          depth, NULL, &error));
          g_assert_no_error (error);
          back = latent_png_load (path, &error);
          g_assert_no_error (error);
          g_assert_true (latent_dataset_get_image_shape (back, &bw, &bh, &bc, &single));
          g_assert_cmpuint (bw, ==, w);
          g_assert_cmpuint (bh, ==, h);
          g_assert_cmpuint (bc, ==, channels);
          g_assert_true (single);
          for (gsize i = 0; i < n; i++)
            g_assert_cmpfloat_with_epsilon (latent_dataset_get_data (back)[i], pixels[i], 1e-7);

          /* The dataset writes back the same file. */
          g_assert_true (latent_png_save_dataset (back, path, depth, &error));
          g_assert_no_error (error);
        }
  /* One file per case: no temporary file left behind. */
  g_assert_cmpuint (count_files (dir), ==, 16);
}

/* Off-grid values round to the nearest sample. */
static void
test_png_rounding (void)
{
  g_autofree char *dir = temp_dir ();
  g_autofree char *path = g_build_filename (dir, "r.png", NULL);
  const float values[4] = { 0.5f, 0.1f / 255, 0.9f / 255, 1 - 0.4f / 255 };
  g_autoptr(LatentDataset) back = NULL;
  const float *got;

  g_assert_true (latent_png_save (path, values, 4, 1, 1, LATENT_PNG_INTERLEAVED, 8, NULL, NULL));
  back = latent_png_load (path, NULL);
  got = latent_dataset_get_data (back);
  g_assert_cmpfloat (got[0], ==, 128 / 255.0f);
  g_assert_cmpfloat (got[1], ==, 0.0f);
  g_assert_cmpfloat (got[2], ==, 1 / 255.0f);
  g_assert_cmpfloat (got[3], ==, 1.0f);
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_png_errors (void)
{
  g_autofree char *dir = temp_dir ();
  g_autofree char *missing = g_build_filename (dir, "no", "such", "dir", "x.png", NULL);
  g_autofree char *path = g_build_filename (dir, "keep.png", NULL);
  const char *text[] = { "Software", "Latent", NULL };
  const float v[4] = { 0.25f, 0.5f, 0.75f, 1.0f };
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentDataset) back = NULL;

  g_assert_false (latent_png_save (missing, v, 2, 2, 1, LATENT_PNG_INTERLEAVED, 8, NULL, &error));
  g_assert_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_IO);
  g_assert_true (g_str_has_prefix (error->message, missing));
  g_clear_error (&error);

  g_assert_false (latent_png_save (path, v, 2, 2, 1, LATENT_PNG_INTERLEAVED, 12, NULL, &error));
  g_assert_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID);
  g_assert_true (g_str_has_prefix (error->message, path));
  g_clear_error (&error);
  g_assert_false (latent_png_save (path, v, 1, 1, 5, LATENT_PNG_INTERLEAVED, 8, NULL, &error));
  g_assert_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (latent_png_save (path, v, 0, 1, 1, LATENT_PNG_INTERLEAVED, 8, NULL, &error));
  g_assert_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));

  /* A good write with text chunks, then a failed one leaves it alone. */
  g_assert_true (latent_png_save (path, v, 2, 2, 1, LATENT_PNG_INTERLEAVED, 16, text, &error));
  g_assert_no_error (error);
  g_assert_false (latent_png_save (path, v, 2, 2, 1, LATENT_PNG_INTERLEAVED, 7, NULL, &error));
  g_clear_error (&error);
  back = latent_png_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (latent_dataset_get_data (back)[3], ==, 1.0f);
  g_assert_cmpuint (count_files (dir), ==, 1);

  /* A dataset that is not one image. */
  {
    g_autoptr(LatentDataset) table = latent_dataset_new ("table", 4, 2, NULL);
    g_assert_false (latent_png_save_dataset (table, path, 8, &error));
    g_assert_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID);
  }
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/convolve/border-index", test_border_index);
  g_test_add_func ("/convolve/names", test_names);
  g_test_add_func ("/convolve/hand-computed", test_hand_computed);
  g_test_add_func ("/convolve/gradient-magnitude", test_gradient_magnitude);
  g_test_add_func ("/convolve/kernel-larger-than-image", test_kernel_larger_than_image);
  g_test_add_func ("/convolve/channels-independent", test_channels_independent);
  g_test_add_func ("/convolve/layouts", test_layouts);
  g_test_add_func ("/convolve/bad-images", test_bad_images);
  g_test_add_func ("/convolve/png-round-trip", test_png_round_trip);
  g_test_add_func ("/convolve/png-rounding", test_png_rounding);
  g_test_add_func ("/convolve/png-errors", test_png_errors);

  return g_test_run ();
}
