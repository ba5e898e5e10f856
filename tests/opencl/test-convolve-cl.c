/* test-convolve-cl.c — every OpenCL convolution method against the C reference
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "test-convolve-cl"

#include <math.h>
#include <string.h>

#include "latent-convolve.h"
#include "latent-png.h"
#include "latent-test-filters.h"

/* Absolute, for inputs in [0, 1] and kernels whose |weights| / divisor sum
 * to 1; scaled up by that sum for the others (Sobel, sharpen). */
#define TOLERANCE 1e-5

static LatentCl *cl;
static LatentConvolveCl *conv;

static const LatentConvolveMethod all_methods[] = {
  LATENT_CONVOLVE_AUTO, LATENT_CONVOLVE_DIRECT, LATENT_CONVOLVE_TILED, LATENT_CONVOLVE_SEPARABLE,
  LATENT_CONVOLVE_FFT,
};

static gboolean
have_device (void)
{
  if (conv != NULL)
    return TRUE;
  g_test_skip ("no OpenCL device");
  return FALSE;
}

static float *
random_image (guint   width,
              guint   height,
              guint   channels,
              guint64 seed)
{
  const gsize n = (gsize) width * height * channels;
  float *x = g_new (float, n);
  guint64 state = seed * 2654435761u + 17;

  for (gsize i = 0; i < n; i++)
    x[i] = (float) test_uniform (&state);
  return x;
}

static double
max_difference (const float *a,
                const float *b,
                gsize        n)
{
  double worst = 0;

  for (gsize i = 0; i < n; i++)
    {
      const double d = fabs ((double) a[i] - b[i]);
      if (!(d <= worst))
        worst = isnan (d) ? INFINITY : d;
    }
  return worst;
}

/* The RMS of B − A over N values. */
static double
rms_change (const float *a,
            const float *b,
            gsize        n)
{
  double sum = 0;

  for (gsize i = 0; i < n; i++)
    sum += ((double) b[i] - a[i]) * ((double) b[i] - a[i]);
  return sqrt (sum / n);
}

/* PASSES of FILTER with every method that applies, against as many passes
 * of the reference: as one batch, and (images up to 150 × 70) as steps,
 * each with the change it made (summed on the device) against the
 * reference's. */
static void
check_filter (const LatentFilter *filter,
              LatentBorder        border,
              const float        *image,
              guint               width,
              guint               height,
              guint               channels,
              guint               passes)
{
  const gsize n = (gsize) width * height * channels;
  g_autofree float *expected = g_new (float, n);
  g_autofree float *scratch = g_new (float, n);
  g_autofree float *got = g_new (float, n);
  const double tolerance = TOLERANCE * filter_gain (filter) * passes;
  g_autofree double *changes = g_new (double, passes);

  memcpy (expected, image, n * sizeof (float));
  for (guint p = 0; p < passes; p++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_true (latent_convolve_reference (filter, border, expected, scratch, width, height, channels, &error));
      g_assert_no_error (error);
      changes[p] = rms_change (expected, scratch, n);
      memcpy (expected, scratch, n * sizeof (float));
    }

  for (guint m = 0; m < G_N_ELEMENTS (all_methods); m++)
    {
      g_autoptr(GError) error = NULL;
      double ms = -1, worst;

      if (all_methods[m] == LATENT_CONVOLVE_SEPARABLE && !latent_filter_is_separable (filter))
        continue;
      g_assert_true (latent_convolve_cl_upload (conv, image, width, height, channels, &error));
      g_assert_no_error (error);
      g_assert_true (latent_convolve_cl_pass (conv, filter, border, all_methods[m], passes, &ms, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpfloat (ms, >=, 0.0);
      g_assert_true (latent_convolve_cl_download (conv, got, &error));
      g_assert_no_error (error);

      worst = max_difference (expected, got, n);
      if (worst > tolerance)
        g_test_message ("%s %u × %u × %u, %s, size %u, %s, %u passes: off by %g",
                        latent_filter_get_name (filter), width, height, channels,
                        latent_border_to_string (border), latent_filter_get_size (filter),
                        latent_convolve_method_to_string (all_methods[m]), passes, worst);
      g_assert_cmpfloat (worst, <=, tolerance);

      /* Step by step: each change within what the pixels may be off by
       * (before and after the pass), and the same image at the end; on
       * the small images (the large ones add no new edge cases, only
       * time). */
      if ((gsize) width * height > 150 * 70)
        continue;
      g_assert_true (latent_convolve_cl_upload (conv, image, width, height, channels, &error));
      for (guint p = 0; p < passes; p++)
        {
          double change = -1;

          ms = -1;
          g_assert_true (latent_convolve_cl_step (conv, filter, border, all_methods[m], &change, &ms, NULL, &error));
          g_assert_no_error (error);
          g_assert_cmpfloat (ms, >=, 0.0);
          if (!(fabs (change - changes[p]) <= 2 * tolerance + 1e-5 * changes[p]))
            g_test_message ("%s %u × %u × %u, %s, size %u, %s, pass %u: change %.9g, reference %.9g",
                            latent_filter_get_name (filter), width, height, channels,
                            latent_border_to_string (border), latent_filter_get_size (filter),
                            latent_convolve_method_to_string (all_methods[m]), p + 1, change, changes[p]);
          g_assert_cmpfloat (fabs (change - changes[p]), <=, 2 * tolerance + 1e-5 * changes[p]);
        }
      g_assert_true (latent_convolve_cl_download (conv, got, &error));
      g_assert_no_error (error);
      g_assert_cmpfloat (max_difference (expected, got, n), <=, tolerance);
    }
}

/* Every odd size and border mode on images smaller than one work-group,
 * smaller than the kernel, and not a multiple of anything. */
static void
test_small_images (void)
{
  static const guint sizes[][2] = { { 1, 1 }, { 17, 5 }, { 5, 17 }, { 33, 19 } };

  if (!have_device ())
    return;

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint k = 1; k <= LATENT_FILTER_MAX_SIZE; k += 2)
      {
        const guint width = sizes[s][0], height = sizes[s][1], channels = 1 + (k / 2 + s) % 4;
        g_autofree float *image = random_image (width, height, channels, k + 100 * s);
        g_autoptr(LatentFilter) full = random_filter (k, k + s);
        g_autoptr(LatentFilter) rank1 = random_separable (k, k + s);

        for (LatentBorder b = LATENT_BORDER_CLAMP; b <= LATENT_BORDER_ZERO; b++)
          {
            check_filter (full, b, image, width, height, channels, 1);
            check_filter (rank1, b, image, width, height, channels, 1);
          }
      }
}

/* 641 × 479: several work-groups, ragged on both edges. */
static void
test_large_image (void)
{
  static const guint kernel_sizes[] = { 1, 3, 5, 9, 15, 31 };
  const guint width = 641, height = 479;

  if (!have_device ())
    return;

  for (guint s = 0; s < G_N_ELEMENTS (kernel_sizes); s++)
    {
      const guint k = kernel_sizes[s], channels = k == 5 ? 3 : 1;
      g_autofree float *image = random_image (width, height, channels, 7 + k);
      g_autoptr(LatentFilter) full = random_filter (k, 3 * k);
      g_autoptr(LatentFilter) rank1 = random_separable (k, 5 * k);

      for (LatentBorder b = LATENT_BORDER_CLAMP; b <= LATENT_BORDER_ZERO; b++)
        {
          check_filter (full, b, image, width, height, channels, 1);
          check_filter (rank1, b, image, width, height, channels, 1);
        }
    }
}

/* Stores past the caches (what the direct and separable kernels do on a
 * CPU for images larger than the cache), forced on for images that are
 * not: widths a multiple of 16, ragged heights, the sizes with a radius
 * compiled in and one without, full and rank-1 kernels. */
static void
test_streaming (void)
{
  static const guint sizes[][2] = { { 16, 1 }, { 48, 7 }, { 64, 19 } };
  static const guint kernel_sizes[] = { 1, 3, 5, 7 };

  if (!have_device ())
    return;
  if (latent_cl_get_shape (cl) != LATENT_KERNEL_SHAPE_CPU)
    {
      g_test_skip ("streaming stores are the CPU shape's only");
      return;
    }

  g_setenv ("LATENT_CONVOLVE_STREAM", "1", TRUE);
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint i = 0; i < G_N_ELEMENTS (kernel_sizes); i++)
      {
        const guint width = sizes[s][0], height = sizes[s][1], k = kernel_sizes[i], channels = 1 + (s + i) % 3;
        g_autofree float *image = random_image (width, height, channels, 60 + k + s);
        g_autoptr(LatentFilter) full = random_filter (k, 7 * k + s);
        g_autoptr(LatentFilter) rank1 = random_separable (k, 3 * k + s);

        for (LatentBorder b = LATENT_BORDER_CLAMP; b <= LATENT_BORDER_ZERO; b++)
          {
            check_filter (full, b, image, width, height, channels, 2);
            check_filter (rank1, b, image, width, height, channels, 2);
            if (i == 1)
              {
                g_autoptr(LatentFilter) gradient = latent_filter_new_gradient ();

                check_filter (gradient, b, image, width, height, channels, 2);
              }
          }
      }
  g_unsetenv ("LATENT_CONVOLVE_STREAM");
}

/* Each channel count once on the large image, with a Gaussian. */
static void
test_channels (void)
{
  const guint width = 641, height = 479;

  if (!have_device ())
    return;

  for (guint channels = 1; channels <= 4; channels++)
    {
      g_autofree float *image = random_image (width, height, channels, 40 + channels);
      g_autoptr(LatentFilter) gauss = latent_filter_new_gaussian (1.5, 7, NULL);

      check_filter (gauss, LATENT_BORDER_MIRROR, image, width, height, channels, 1);
    }
}

/* The presets, the gradient magnitude (two kernels) among them. */
static void
test_presets (void)
{
  const guint width = 127, height = 61, channels = 2;
  g_autofree float *image = NULL;

  if (!have_device ())
    return;

  image = random_image (width, height, channels, 99);
  for (guint i = 0; latent_filter_preset_names ()[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(LatentFilter) filter = latent_filter_new_preset (latent_filter_preset_names ()[i],
                                                                 0, 1.2, 0.8, 30.0, &error);

      g_assert_no_error (error);
      for (LatentBorder b = LATENT_BORDER_CLAMP; b <= LATENT_BORDER_ZERO; b++)
        check_filter (filter, b, image, width, height, channels, 1);
    }
}

/* Repeat mode: passes on the device equal as many reference passes. */
static void
test_repeated_passes (void)
{
  static const guint sizes[][2] = { { 17, 5 }, { 150, 70 } };

  if (!have_device ())
    return;

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      const guint width = sizes[s][0], height = sizes[s][1];
      g_autofree float *image = random_image (width, height, 2, 11 + s);
      g_autoptr(LatentFilter) gauss = latent_filter_new_gaussian (2.0, 0, NULL);
      g_autoptr(LatentFilter) sharpen = latent_filter_new_sharpen ();
      g_autoptr(LatentFilter) full = random_filter (9, 21);
      g_autoptr(LatentFilter) gradient = latent_filter_new_gradient ();

      for (LatentBorder b = LATENT_BORDER_CLAMP; b <= LATENT_BORDER_ZERO; b++)
        {
          check_filter (gauss, b, image, width, height, 2, 5);
          check_filter (sharpen, b, image, width, height, 2, 3);
          check_filter (full, b, image, width, height, 2, 4);
          check_filter (gradient, b, image, width, height, 2, 2);
        }
    }
}

/* A kernel swapped between passes takes effect, also back and forth. */
static void
test_filter_change (void)
{
  const guint width = 40, height = 30;
  g_autofree float *image = NULL;
  g_autofree float *a = g_new (float, width * height);
  g_autofree float *b = g_new (float, width * height);
  g_autofree float *got = g_new (float, width * height);
  g_autoptr(LatentFilter) blur = NULL;
  g_autoptr(LatentFilter) edge = NULL;
  g_autoptr(GError) error = NULL;

  if (!have_device ())
    return;

  image = random_image (width, height, 1, 5);
  blur = latent_filter_new_box (5, NULL);
  edge = latent_filter_new_laplacian ();
  g_assert_true (latent_convolve_reference (blur, LATENT_BORDER_WRAP, image, a, width, height, 1, NULL));
  g_assert_true (latent_convolve_reference (edge, LATENT_BORDER_WRAP, a, b, width, height, 1, NULL));

  g_assert_true (latent_convolve_cl_upload (conv, image, width, height, 1, &error));
  g_assert_true (latent_convolve_cl_pass (conv, blur, LATENT_BORDER_WRAP, LATENT_CONVOLVE_DIRECT, 1, NULL, NULL, &error));
  g_assert_true (latent_convolve_cl_pass (conv, edge, LATENT_BORDER_WRAP, LATENT_CONVOLVE_TILED, 1, NULL, NULL, &error));
  g_assert_true (latent_convolve_cl_download (conv, got, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (max_difference (b, got, width * height), <=, 8 * TOLERANCE);

  /* The divisor changes the weights the device holds. */
  g_assert_true (latent_filter_set_divisor (blur, 5.0, NULL));
  g_assert_true (latent_convolve_reference (blur, LATENT_BORDER_WRAP, image, a, width, height, 1, NULL));
  g_assert_true (latent_convolve_cl_run (conv, blur, LATENT_BORDER_WRAP, LATENT_CONVOLVE_SEPARABLE,
                                         image, got, width, height, 1, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (max_difference (a, got, width * height), <=, 5 * TOLERANCE);

  /* Kernels whose weights agree as far as the smaller goes: a 1 × 1 and a
   * 3 × 3 with zeros after its first tap. Every method must see the size. */
  {
    const float one = 2.0f, corner[9] = { 2.0f };
    g_autoptr(LatentFilter) small = latent_filter_new (1, &one, 1.0, 0.0, NULL);
    g_autoptr(LatentFilter) shifted = latent_filter_new (3, corner, 1.0, 0.0, NULL);

    for (guint i = 0; i < width * height; i++)
      b[i] = 2 * image[i];
    g_assert_true (latent_convolve_reference (shifted, LATENT_BORDER_CLAMP, image, a, width, height, 1, NULL));
    for (guint m = 1; m < G_N_ELEMENTS (all_methods); m++)
      {
        g_assert_true (latent_convolve_cl_run (conv, small, LATENT_BORDER_CLAMP, all_methods[m],
                                               image, got, width, height, 1, NULL, NULL, &error));
        g_assert_no_error (error);
        g_assert_cmpfloat (max_difference (b, got, width * height), <=, 2 * TOLERANCE);
        g_assert_true (latent_convolve_cl_run (conv, shifted, LATENT_BORDER_CLAMP, all_methods[m],
                                               image, got, width, height, 1, NULL, NULL, &error));
        g_assert_no_error (error);
        g_assert_cmpfloat (max_difference (a, got, width * height), <=, 2 * TOLERANCE);
      }
  }
}

/* The convolution as a run: each pass's change in the history and the
 * image of the snapshot at the end, from the device (which reads back only
 * partial sums per pass) against the reference path, for each method. */
static void
test_algorithm (void)
{
  static const char * const methods[] = { "direct", "tiled", "separable", "fft" };
  const LatentAlgorithm *alg = latent_convolve_get_algorithm ();
  const guint width = 83, height = 37, channels = 3, passes = 6;
  g_autofree float *planes = random_image (width, height, channels, 8);
  g_autoptr(LatentDataset) ds = NULL;

  if (!have_device ())
    return;

  ds = latent_dataset_new ("noise", width * height, channels, NULL);
  latent_convolve_interleaved_from_planar (planes, latent_dataset_get_data (ds), (gsize) width * height, channels);
  latent_dataset_set_image_shape (ds, width, height, channels, TRUE);
  for (guint m = 0; m < G_N_ELEMENTS (methods); m++)
    {
      g_autofree char *method = g_strdup_printf ("method=%s", methods[m]);
      g_autoptr(LatentParams) params = test_params (alg, "filter=gaussian", "sigma=1.5", "border=wrap",
                                                    "iterations=6", method, NULL);
      g_autoptr(LatentFit) device = NULL;
      g_autoptr(LatentFit) reference = NULL;
      g_autoptr(GError) error = NULL;

      reference = latent_algorithm_fit (alg, ds, params, 1, NULL, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      device = latent_algorithm_fit (alg, ds, params, 1, cl, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (device->snapshot->filter.method, ==, methods[m]);
      g_assert_cmpuint (device->history->len, ==, passes);
      g_assert_cmpuint (reference->history->len, ==, passes);
      for (guint i = 0; i < passes; i++)
        {
          const LatentIterationRecord *a = &g_array_index (device->history, LatentIterationRecord, i);
          const LatentIterationRecord *b = &g_array_index (reference->history, LatentIterationRecord, i);

          g_assert_cmpuint (a->iteration, ==, i + 1);
          g_assert_cmpfloat (a->objective, >, 0.0);
          g_assert_cmpfloat (fabs (a->objective - b->objective), <=, 1e-5 + 1e-4 * b->objective);
        }
      g_assert_cmpfloat (device->snapshot->objective, ==,
                         g_array_index (device->history, LatentIterationRecord, passes - 1).objective);
      g_assert_cmpfloat (max_difference (device->snapshot->filter.image, reference->snapshot->filter.image,
                                         (gsize) width * height * channels), <=, passes * TOLERANCE);
    }
}

static void
test_errors (void)
{
  g_autoptr(LatentFilter) emboss = latent_filter_new_emboss ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  float pixel = 0.5f, out = 0;

  if (!have_device ())
    return;

  /* Above the PNG limit: refused before anything is allocated. */
  g_assert_false (latent_convolve_cl_upload (conv, &pixel, 8193, 8192, 1, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "8193 × 8192"));
  g_clear_error (&error);
  g_assert_false (latent_convolve_cl_upload (conv, &pixel, 0, 4, 1, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (latent_convolve_cl_upload (conv, &pixel, 1, 1, 5, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* Separable asked for a kernel of rank 3. */
  g_assert_false (latent_convolve_cl_run (conv, emboss, LATENT_BORDER_CLAMP, LATENT_CONVOLVE_SEPARABLE,
                                          &pixel, &out, 1, 1, 1, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_assert_true (g_str_has_prefix (error->message, "method:"));
  g_clear_error (&error);

  /* A cancelled run stops before the first pass. */
  g_cancellable_cancel (cancellable);
  g_assert_true (latent_convolve_cl_upload (conv, &pixel, 1, 1, 1, &error));
  g_assert_false (latent_convolve_cl_pass (conv, emboss, LATENT_BORDER_CLAMP, LATENT_CONVOLVE_DIRECT, 3,
                                           NULL, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  /* AUTO never picks separable for a kernel that is not. */
  g_assert_cmpint (latent_convolve_cl_choose (conv, emboss, 3840, 2160), !=, LATENT_CONVOLVE_SEPARABLE);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  LatentDeviceChoice choice = LATENT_DEVICE_AUTO;
  int status;

  g_test_init (&argc, &argv, NULL);

  /* LATENT_OPENCL=off runs the skips. */
  if (latent_device_choice_parse (NULL, &choice, &error))
    cl = latent_cl_new (choice, &error);
  if (cl != NULL)
    conv = latent_convolve_cl_new (cl, &error);
  if (conv == NULL)
    {
      /* Without a device every test skips; a build failure is a failure. */
      if (cl != NULL || !g_error_matches (error, LATENT_CL_ERROR, LATENT_CL_ERROR_NO_DEVICE))
        g_error ("%s", error->message);
      g_test_message ("no OpenCL device: %s", error->message);
    }

  g_test_add_func ("/convolve-cl/small-images", test_small_images);
  g_test_add_func ("/convolve-cl/large-image", test_large_image);
  g_test_add_func ("/convolve-cl/channels", test_channels);
  g_test_add_func ("/convolve-cl/streaming", test_streaming);
  g_test_add_func ("/convolve-cl/presets", test_presets);
  g_test_add_func ("/convolve-cl/repeated-passes", test_repeated_passes);
  g_test_add_func ("/convolve-cl/filter-change", test_filter_change);
  g_test_add_func ("/convolve-cl/algorithm", test_algorithm);
  g_test_add_func ("/convolve-cl/errors", test_errors);
  status = g_test_run ();

  latent_convolve_cl_free (conv);
  g_clear_object (&cl);
  return status;
}
