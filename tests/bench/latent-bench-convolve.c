/* latent-bench-convolve.c — time the OpenCL convolution methods; filter raw float files
 *
 * Not a test. Two uses:
 *
 * Timing (bench-convolve.py runs it beside OpenCV): for each kernel size,
 * kind and method, a random grey float32 image of --width × --height is
 * uploaded once, two passes warm up, then --repeat batches of passes run
 * back to back on the device (repeat mode; at least --passes, and enough
 * for about 25 ms); a batch's wall time over its passes is one sample, and
 * the median counts. Single-pass
 * latency (one pass, enqueue to completion) is reported beside it, and so
 * is a step's (the pass the run loop makes: one pass that also sums its
 * change, whose partial sums are read back and waited for). One JSON
 * line per case: size, kernel size, kind, method (and what auto chose), ms
 * per pass, megapixels per second.
 *
 * Filtering (test-peers-convolve.py compares it with OpenCV): --input reads
 * raw little-endian float32 planes (--width × --height × --channels), the
 * filter (--filter preset or --kernel FILE.txt) runs with --border and
 * --method (or --reference, the C path), and --output gets the result in
 * the same layout.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-bench-convolve"

#include <json-glib/json-glib.h>
#include <stdio.h>
#include <stdlib.h>

#include "latent-convolve.h"
#include "latent-bench-util.h"

typedef struct {
  char     *device;
  guint     width, height, channels;
  char     *sizes;
  char     *kinds;
  char     *methods;
  int       repeat;
  int       passes;
  /* filtering */
  char     *input;
  char     *output;
  char     *filter;
  char     *kernel;
  double    sigma;
  double    amount;
  double    angle;
  int       size;
  char     *border;
  char     *method;
  gboolean  reference;
  gboolean  normalise;
} Options;

static void
options_clear (Options *o)
{
  g_free (o->device);
  g_free (o->sizes);
  g_free (o->kinds);
  g_free (o->methods);
  g_free (o->input);
  g_free (o->output);
  g_free (o->filter);
  g_free (o->kernel);
  g_free (o->border);
  g_free (o->method);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Options, options_clear)

/* The builder's open object, closed and written as one line. */
static void
emit (JsonBuilder *b)
{
  json_builder_end_object (b);
  latent_bench_emit (b);
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  const double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static double
median (double *v,
        guint   n)
{
  qsort (v, n, sizeof *v, compare_doubles);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The kernels bench-convolve.py gives OpenCV: uniform random weights
 * normalised to sum 1 (filter2D), or OpenCV's default Gaussian for the
 * size, σ = 0.3 · ((k − 1) / 2 − 1) + 0.8 (sepFilter2D). */
static LatentFilter *
bench_filter (const char  *kind,
              guint        size,
              GError     **error)
{
  if (g_str_equal (kind, "gaussian"))
    return latent_filter_new_gaussian (0.3 * ((size - 1) * 0.5 - 1) + 0.8, size, error);
  if (g_str_equal (kind, "random"))
    {
      g_autofree float *w = g_new (float, size * size);
      guint64 state = size;
      LatentFilter *filter;

      for (guint i = 0; i < size * size; i++)
        {
          state = state * 6364136223846793005ULL + 1442695040888963407ULL;
          w[i] = (float) ((state >> 40) / 16777216.0);
        }
      filter = latent_filter_new (size, w, 1.0, 0.0, error);
      if (filter != NULL && !latent_filter_normalise (filter, error))
        g_clear_pointer (&filter, latent_filter_free);
      return filter;
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "--kinds: unknown kind “%s”", kind);
  return NULL;
}

static gboolean
time_case (LatentConvolveCl      *conv,
           const Options         *o,
           const char            *kind,
           guint                  size,
           LatentConvolveMethod   method,
           const char            *device,
           GError               **error)
{
  g_autoptr(LatentFilter) filter = bench_filter (kind, size, error);
  g_autofree double *batch = g_new (double, o->repeat);
  g_autofree double *single = g_new (double, o->repeat);
  g_autofree double *step = g_new (double, o->repeat);
  g_autoptr(JsonBuilder) b = json_builder_new ();
  LatentConvolveMethod used = method;
  guint passes;
  double ms, change;

  if (filter == NULL)
    return FALSE;
  if (method == LATENT_CONVOLVE_SEPARABLE && !latent_filter_is_separable (filter))
    return TRUE;
  if (method == LATENT_CONVOLVE_AUTO)
    used = latent_convolve_cl_choose (conv, filter, o->width, o->height);

  /* Warm-up, which also sizes the batches: at least --passes passes and
   * about 25 ms each, so that a batch outlasts the scheduler's hiccups. */
  if (!latent_convolve_cl_pass (conv, filter, LATENT_BORDER_MIRROR, method, 1, &ms, NULL, error) ||
      !latent_convolve_cl_pass (conv, filter, LATENT_BORDER_MIRROR, method, 1, &ms, NULL, error))
    return FALSE;
  passes = CLAMP ((guint) (25.0 / MAX (ms, 1e-3)), (guint) o->passes, 500u);
  for (int r = 0; r < o->repeat; r++)
    if (!latent_convolve_cl_pass (conv, filter, LATENT_BORDER_MIRROR, method, passes, &batch[r], NULL, error) ||
        !latent_convolve_cl_pass (conv, filter, LATENT_BORDER_MIRROR, method, 1, &single[r], NULL, error) ||
        !latent_convolve_cl_step (conv, filter, LATENT_BORDER_MIRROR, method, &change, &step[r], NULL, error))
      return FALSE;
  ms = median (batch, o->repeat);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "impl");
  json_builder_add_string_value (b, "latent-opencl");
  json_builder_set_member_name (b, "width");
  json_builder_add_int_value (b, o->width);
  json_builder_set_member_name (b, "height");
  json_builder_add_int_value (b, o->height);
  json_builder_set_member_name (b, "kernel");
  json_builder_add_int_value (b, size);
  json_builder_set_member_name (b, "kind");
  json_builder_add_string_value (b, kind);
  json_builder_set_member_name (b, "method");
  json_builder_add_string_value (b, latent_convolve_method_to_string (method));
  json_builder_set_member_name (b, "method_used");
  json_builder_add_string_value (b, latent_convolve_method_to_string (used));
  json_builder_set_member_name (b, "ms");
  json_builder_add_double_value (b, ms);
  json_builder_set_member_name (b, "passes");
  json_builder_add_int_value (b, passes);
  json_builder_set_member_name (b, "min_ms");
  json_builder_add_double_value (b, batch[0]);
  json_builder_set_member_name (b, "latency_ms");
  json_builder_add_double_value (b, median (single, o->repeat));
  json_builder_set_member_name (b, "step_ms");
  json_builder_add_double_value (b, median (step, o->repeat));
  json_builder_set_member_name (b, "mpix_s");
  json_builder_add_double_value (b, (double) o->width * o->height / (ms * 1e3));
  json_builder_set_member_name (b, "device");
  json_builder_add_string_value (b, device);
  emit (b);
  return TRUE;
}

static gboolean
run_timing (LatentCl       *cl,
            const Options  *o,
            GError        **error)
{
  g_autoptr(LatentConvolveCl) conv = NULL;
  g_auto(GStrv) sizes = g_strsplit (o->sizes, ",", -1);
  g_auto(GStrv) kinds = g_strsplit (o->kinds, ",", -1);
  g_auto(GStrv) methods = g_strsplit (o->methods, ",", -1);
  g_autofree float *image = NULL;
  g_autofree char *device = latent_cl_describe (cl);
  const gsize n = (gsize) o->width * o->height;
  guint64 state = 1;

  if (!(conv = latent_convolve_cl_new (cl, error)))
    return FALSE;
  image = g_new (float, n);
  for (gsize i = 0; i < n; i++)
    {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      image[i] = (float) ((state >> 40) / 16777216.0);
    }
  if (!latent_convolve_cl_upload (conv, image, o->width, o->height, 1, error))
    return FALSE;
  /* A third of a second of passes before the first case: the first case
   * of a run timed half as fast as the same case later (640 × 480, 3 × 3,
   * direct: 2,749 against 5,484 MP/s) while the device's threads woke. */
  {
    g_autoptr(LatentFilter) warm = latent_filter_new_box (3, error);
    double ms = 0;

    if (warm == NULL)
      return FALSE;
    for (double spent = 0; spent < 300; spent += 10 * ms)
      if (!latent_convolve_cl_pass (conv, warm, LATENT_BORDER_MIRROR, LATENT_CONVOLVE_DIRECT, 10, &ms, NULL, error))
        return FALSE;
  }
  /* The passes filtered the image in place: the random one again. */
  if (!latent_convolve_cl_upload (conv, image, o->width, o->height, 1, error))
    return FALSE;

  for (guint s = 0; sizes[s] != NULL; s++)
    for (guint k = 0; kinds[k] != NULL; k++)
      for (guint m = 0; methods[m] != NULL; m++)
        {
          LatentConvolveMethod method;
          guint64 size;

          if (!g_ascii_string_to_unsigned (sizes[s], 10, 1, LATENT_FILTER_MAX_SIZE, &size, error) ||
              !latent_convolve_method_parse (methods[m], &method, error) ||
              !time_case (conv, o, kinds[k], size, method, device, error))
            return FALSE;
        }
  return TRUE;
}

static gboolean
run_filter (LatentCl       *cl,
            const Options  *o,
            GError        **error)
{
  g_autoptr(LatentConvolveCl) conv = NULL;
  g_autoptr(LatentFilter) filter = NULL;
  g_autofree char *contents = NULL;
  g_autofree float *out = NULL;
  const gsize n = (gsize) o->width * o->height * o->channels;
  LatentConvolveMethod method;
  LatentBorder border;
  gsize length = 0;

  if (!latent_border_parse (o->border ? o->border : "mirror", &border, error) ||
      !latent_convolve_method_parse (o->method ? o->method : "auto", &method, error))
    return FALSE;
  if (o->kernel != NULL)
    filter = latent_filter_load (o->kernel, error);
  else
    filter = latent_filter_new_preset (o->filter ? o->filter : "gaussian", o->size, o->sigma,
                                       o->amount, o->angle, error);
  if (filter == NULL || (o->normalise && !latent_filter_normalise (filter, error)))
    return FALSE;

  if (!g_file_get_contents (o->input, &contents, &length, error))
    return FALSE;
  if (length != n * sizeof (float))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: %zu bytes, expected %u × %u × %u float32 values", o->input,
                   (size_t) length, o->width, o->height, o->channels);
      return FALSE;
    }

  out = g_new (float, n);
  if (o->reference || cl == NULL)
    {
      if (!latent_convolve_reference (filter, border, (const float *) contents, out,
                                      o->width, o->height, o->channels, error))
        return FALSE;
    }
  else if (!(conv = latent_convolve_cl_new (cl, error)) ||
           !latent_convolve_cl_run (conv, filter, border, method, (const float *) contents, out,
                                    o->width, o->height, o->channels, NULL, NULL, error))
    return FALSE;
  return g_file_set_contents (o->output, (const char *) out, n * sizeof (float), error);
}

int
main (int    argc,
      char **argv)
{
  g_auto(Options) o = {
    .width = 3840, .height = 2160, .channels = 1, .repeat = 7, .passes = 3,
    .sigma = 2.0, .amount = 1.0,
  };
  const GOptionEntry entries[] = {
    { "device", 0, 0, G_OPTION_ARG_STRING, &o.device, "auto, cpu or gpu", "DEVICE" },
    { "width", 0, 0, G_OPTION_ARG_INT, &o.width, "Image width (3840)", "W" },
    { "height", 0, 0, G_OPTION_ARG_INT, &o.height, "Image height (2160)", "H" },
    { "channels", 0, 0, G_OPTION_ARG_INT, &o.channels, "Channels of --input (1)", "C" },
    { "sizes", 0, 0, G_OPTION_ARG_STRING, &o.sizes, "Kernel sizes (3,7,11,15,31)", "LIST" },
    { "kinds", 0, 0, G_OPTION_ARG_STRING, &o.kinds, "random, gaussian (both)", "LIST" },
    { "methods", 0, 0, G_OPTION_ARG_STRING, &o.methods, "auto, direct, tiled, separable (all)", "LIST" },
    { "repeat", 0, 0, G_OPTION_ARG_INT, &o.repeat, "Timed batches per case; the median counts (7)", "R" },
    { "passes", 0, 0, G_OPTION_ARG_INT, &o.passes, "Least passes per batch (3)", "P" },
    { "input", 0, 0, G_OPTION_ARG_FILENAME, &o.input, "Filter this raw float32 planar image", "FILE" },
    { "output", 0, 0, G_OPTION_ARG_FILENAME, &o.output, "Write the filtered image here", "FILE" },
    { "filter", 0, 0, G_OPTION_ARG_STRING, &o.filter, "A preset (gaussian)", "NAME" },
    { "kernel", 0, 0, G_OPTION_ARG_FILENAME, &o.kernel, "A kernel file instead of a preset", "FILE" },
    { "size", 0, 0, G_OPTION_ARG_INT, &o.size, "Preset size (0: its default)", "N" },
    { "sigma", 0, 0, G_OPTION_ARG_DOUBLE, &o.sigma, "Preset σ (2)", "S" },
    { "amount", 0, 0, G_OPTION_ARG_DOUBLE, &o.amount, "Unsharp amount (1)", "A" },
    { "angle", 0, 0, G_OPTION_ARG_DOUBLE, &o.angle, "Motion angle in degrees (0)", "DEG" },
    { "border", 0, 0, G_OPTION_ARG_STRING, &o.border, "clamp, mirror, wrap, zero (mirror)", "MODE" },
    { "method", 0, 0, G_OPTION_ARG_STRING, &o.method, "auto, direct, tiled, separable (auto)", "M" },
    { "normalize", 0, 0, G_OPTION_ARG_NONE, &o.normalise, "Divide the kernel by its sum", NULL },
    { "reference", 0, 0, G_OPTION_ARG_NONE, &o.reference, "Use the C reference path", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("— time or run the OpenCL convolution");
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentCl) cl = NULL;
  LatentDeviceChoice choice;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) ||
      !latent_device_choice_parse (o.device, &choice, &error))
    {
      g_printerr ("latent-bench-convolve: %s\n", error->message);
      return 2;
    }
  if (o.repeat < 1 || o.passes < 1 || (o.input != NULL) != (o.output != NULL))
    {
      g_printerr ("latent-bench-convolve: --repeat and --passes must be at least 1; "
                  "--input and --output go together\n");
      return 2;
    }
  if (o.sizes == NULL)
    o.sizes = g_strdup ("3,7,11,15,31");
  if (o.kinds == NULL)
    o.kinds = g_strdup ("random,gaussian");
  if (o.methods == NULL)
    o.methods = g_strdup ("auto,direct,tiled,separable");

  if (!(o.input != NULL && o.reference) && !(cl = latent_cl_new (choice, &error)))
    {
      g_printerr ("latent-bench-convolve: %s\n", error->message);
      return 1;
    }
  if (!(o.input != NULL ? run_filter (cl, &o, &error) : run_timing (cl, &o, &error)))
    {
      g_printerr ("latent-bench-convolve: %s\n", error->message);
      return 1;
    }
  return 0;
}
