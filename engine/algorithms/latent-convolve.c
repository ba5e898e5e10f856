/* latent-convolve.c — image convolution as an algorithm: one pass of the
 * filter per iteration
 *
 * The dataset is one image (a PNG: its rows are its pixels). Initialisation
 * builds the filter from the parameters and races every OpenCL method that
 * can run it once on the image, so the person sees what each costs; "auto"
 * then takes the fastest. Each step applies the filter once more to the
 * result of the last (repeat mode), on the device without a round trip:
 * the pass's change (the objective) is summed there too, so a step reads
 * back a few partial sums, never the image. Only a snapshot reads the
 * image back, and a run takes one at most once a frame.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-convolve"

#include "latent-convolve.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "latent-json.h"
#include "latent-png.h"

/* Stored untranslated: it goes into result JSON; displays translate it. */
#define CPU_REFERENCE N_("CPU reference")

static const char * const filter_choices[] = {
  "gaussian", "box", "sharpen", "unsharp", "sobel-x", "sobel-y", "gradient", "laplacian", "emboss", "motion", NULL
};
static const char * const filter_labels[] = {
  N_("Gaussian blur"), N_("Box blur"), N_("Sharpen"), N_("Unsharp mask"), N_("Sobel X"), N_("Sobel Y"),
  N_("Gradient magnitude"), N_("Laplacian"), N_("Emboss"), N_("Motion blur"), NULL
};
static const char * const kernel_choices[] = { "none", NULL };
static const char * const kernel_labels[] = { N_("None"), NULL };
static const char * const border_choices[] = { "mirror", "clamp", "wrap", "zero", NULL };
static const char * const border_labels[] = { N_("Mirror"), N_("Clamp"), N_("Wrap"), N_("Zero"), NULL };
static const char * const method_choices[] = { "auto", "direct", "tiled", "separable", "fft", NULL };
static const char * const method_labels[] = {
  N_("Fastest"), N_("Direct 2-D"), N_("Tiled 2-D"), N_("Separable"), N_("FFT"), NULL
};

/* Each row names its field of LatentConvolveParams (latent-filter.h), which
 * the filter is built from. */
static const LatentParamSpec convolve_params[] = {
  { .name = "filter", LATENT_PARAM_CHOICE_AT (LatentConvolveParams, filter),
    .label = N_("Filter"),
    .tooltip = N_("A preset, or a kernel of your own from a text file (From file…)"),
    .default_choice = "gaussian",
    .choices = filter_choices,
    .allow_file = TRUE,
    .choice_labels = filter_labels },
  { .name = "kernel", LATENT_PARAM_CHOICE_AT (LatentConvolveParams, kernel),
    .label = N_("Kernel file"),
    .tooltip = N_("A kernel of your own from a text file, used instead of the filter"),
    .default_choice = "none",
    .choices = kernel_choices,
    .allow_file = TRUE,
    .choice_labels = kernel_labels },
  { .name = "size", LATENT_PARAM_INT_AT (LatentConvolveParams, size),
    .label = N_("Size"),
    .tooltip = N_("Kernel width and height, odd, 1 to 31; 0 chooses from σ (Gaussian, unsharp) or the preset"),
    .min = 0, .max = LATENT_FILTER_MAX_SIZE, .default_value = 0,
    .zero_label = N_("Automatic") },
  { .name = "sigma", LATENT_PARAM_DOUBLE_AT (LatentConvolveParams, sigma),
    .label = N_("σ"),
    .tooltip = N_("Gaussian and unsharp mask: the blur’s standard deviation in pixels"),
    .min = 0.05, .max = 50, .default_value = 2,
    .applies_when = "filter=gaussian|unsharp" },
  { .name = "amount", LATENT_PARAM_DOUBLE_AT (LatentConvolveParams, amount),
    .label = N_("Amount"),
    .tooltip = N_("Unsharp mask: how much of the detail to add back"),
    .min = 0, .max = 20, .default_value = 1,
    .applies_when = "filter=unsharp" },
  { .name = "angle", LATENT_PARAM_DOUBLE_AT (LatentConvolveParams, angle),
    .label = N_("Angle"),
    .tooltip = N_("Motion blur: direction in degrees, counter-clockwise"),
    .min = -360, .max = 360, .default_value = 0,
    .applies_when = "filter=motion" },
  { .name = "normalize", LATENT_PARAM_BOOL_AT (LatentConvolveParams, normalize),
    .label = N_("Normalise"),
    .tooltip = N_("Divide by the sum of the weights, so a flat image stays flat"),
    .default_value = FALSE },
  { .name = "border", LATENT_PARAM_CHOICE_AT (LatentConvolveParams, border),
    .label = N_("Border"),
    .tooltip = N_("What lies beyond the edges of the image"),
    .default_choice = "mirror",
    .choices = border_choices,
    .choice_labels = border_labels },
  { .name = "method", LATENT_PARAM_CHOICE_AT (LatentConvolveParams, method),
    .label = N_("Method"),
    .tooltip = N_("The OpenCL implementation; Fastest takes the quickest in the race at the start"),
    .default_choice = "auto",
    .choices = method_choices,
    .choice_labels = method_labels },
  { .name = "iterations", LATENT_PARAM_INT_AT (LatentConvolveParams, iterations),
    .label = N_("Passes"),
    .tooltip = N_("Apply the filter this many times, each pass to the last result"),
    .min = 1, .max = 10000, .default_value = 1,
    .role = LATENT_PARAM_ROLE_BUDGET, .unit = LATENT_PARAM_UNIT_PASSES },
};

typedef struct {
  LatentDataset        *dataset;
  LatentParams         *params;
  guint64               seed;
  guint                 width, height, channels;
  LatentFilter         *filter;
  LatentBorder          border;
  LatentConvolveMethod  method;

  float                *planes;     /* the image after pass host_iteration, planar */
  float                *previous;   /* the reference path's other buffer */
  guint                 iteration, passes;
  guint                 host_iteration;  /* iteration, or less while on the device */
  double                change;     /* RMS change of the last pass */
  double                pass_ms;

  GPtrArray            *raced;      /* method names */
  GArray               *raced_ms;
  GString              *message;    /* of the last step */
  char                 *fallback;   /* why the run left OpenCL; kept */

  LatentConvolveCl     *cl;
  LatentCl             *runtime;    /* the device cl runs on, where failures count */
  char                 *device;
} LatentConvolve;

static const LatentAlgorithm convolve_algorithm;

static void
convolve_free (gpointer data)
{
  LatentConvolve *self = data;

  if (self == NULL)
    return;
  g_clear_pointer (&self->cl, latent_convolve_cl_free);
  g_clear_object (&self->runtime);
  g_clear_object (&self->dataset);
  g_clear_pointer (&self->params, latent_params_unref);
  g_clear_pointer (&self->filter, latent_filter_free);
  g_free (self->planes);
  g_free (self->previous);
  g_clear_pointer (&self->raced, g_ptr_array_unref);
  g_clear_pointer (&self->raced_ms, g_array_unref);
  g_free (self->device);
  g_free (self->fallback);
  if (self->message)
    g_string_free (self->message, TRUE);
  g_free (self);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentConvolve, convolve_free)

static void
fall_back (LatentConvolve *self,
           const GError   *error)
{
  g_free (self->fallback);
  self->fallback = latent_cl_fall_back (self->runtime, "convolve", error);
  g_clear_pointer (&self->cl, latent_convolve_cl_free);
  g_clear_object (&self->runtime);
  g_free (self->device);
  self->device = g_strdup (CPU_REFERENCE);
}

/* Timed passes of every method that can run the filter; the fastest is
 * what "auto" runs. Each method's best of up to three counts, and one race
 * runs at a time in the process: a window prepares the programs in the
 * background, and a run's race beside it timed the other queue's work too
 * (Direct 2-D at 507 ms a pass where it takes 6.7). Preparing only builds
 * the programs: one pass each, no timing. */
#define RACE_PASSES 3
static GMutex race_lock;
static gboolean
race (LatentConvolve  *self,
      GError         **error)
{
  static const LatentConvolveMethod methods[] = {
    LATENT_CONVOLVE_DIRECT, LATENT_CONVOLVE_TILED, LATENT_CONVOLVE_SEPARABLE, LATENT_CONVOLVE_FFT,
  };
  const gboolean preparing = latent_algorithm_is_preparing ();
  const guint n_methods = G_N_ELEMENTS (methods) - !latent_filter_is_separable (self->filter);
  LatentConvolveMethod fastest = LATENT_CONVOLVE_AUTO;
  double best = INFINITY;
  guint tried = 0;

  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&race_lock);

  /* A pass costs the same whatever the pixels: the methods filter one
   * upload in turn, and the original goes up again once at the end. */
  if (!latent_convolve_cl_upload (self->cl, self->planes, self->width, self->height, self->channels, error))
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (methods); i++)
    {
      g_autoptr(GError) local_error = NULL;
      double ms = NAN;

      if (methods[i] == LATENT_CONVOLVE_SEPARABLE && !latent_filter_is_separable (self->filter))
        continue;
      /* A first run on PoCL compiles each method at its first pass, seconds each. */
      latent_algorithm_init_progress (LATENT_INIT_METHODS, tried++, n_methods);
      /* Once to build and warm up, then to time. */
      if (!latent_convolve_cl_pass (self->cl, self->filter, self->border, methods[i], 1, &ms, NULL, &local_error))
        {
          g_debug ("%s: %s", latent_convolve_method_to_string (methods[i]), local_error->message);
          continue;
        }
      if (preparing)
        continue;
      ms = INFINITY;
      for (guint p = 0; p < RACE_PASSES && local_error == NULL; p++)
        {
          double pass_ms = NAN;

          if (latent_convolve_cl_pass (self->cl, self->filter, self->border, methods[i], 1, &pass_ms, NULL,
                                       &local_error))
            ms = MIN (ms, pass_ms);
          /* Far behind the best so far: more passes would not change the choice. */
          if (ms > 4 * best)
            break;
        }
      if (local_error != NULL)
        {
          g_debug ("%s: %s", latent_convolve_method_to_string (methods[i]), local_error->message);
          continue;
        }
      g_ptr_array_add (self->raced, (gpointer) latent_convolve_method_to_string (methods[i]));
      g_array_append_val (self->raced_ms, ms);
      if (ms < best)
        best = ms, fastest = methods[i];
    }
  if (self->method == LATENT_CONVOLVE_AUTO)
    self->method = fastest != LATENT_CONVOLVE_AUTO ? fastest : latent_convolve_cl_choose (self->cl, self->filter,
                                                                                         self->width, self->height);
  return latent_convolve_cl_upload (self->cl, self->planes, self->width, self->height, self->channels, error);
}

gboolean
latent_convolve_check_image (guint    width,
                             guint    height,
                             guint    channels,
                             GError **error)
{
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (width == 0 || height == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("image: %u × %u pixels — an image needs at least one pixel"), width, height);
      return FALSE;
    }
  if ((guint64) width * height > LATENT_PNG_MAX_PIXELS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("image: %u × %u pixels is above the limit of 8192 × 8192"), width, height);
      return FALSE;
    }
  if (channels < 1 || channels > 4)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("image: %u channels — expected 1 to 4 (grey, grey and alpha, RGB, RGBA)"), channels);
      return FALSE;
    }
  return TRUE;
}

static gboolean
convolve_check (LatentDataset  *dataset,
                LatentParams   *params,
                GError        **error)
{
  guint width, height, channels;
  gboolean single = FALSE;

  if (!latent_dataset_get_image_shape (dataset, &width, &height, &channels, &single) || !single)
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("Convolution filters an image: “%s” is not one (open a PNG, or make a test pattern)"),
                   latent_dataset_get_name (dataset));
      return FALSE;
    }
  return latent_convolve_check_image (width, height, channels, error);
}

static gpointer
convolve_init (LatentDataset  *dataset,
               LatentParams   *params,
               guint64         seed,
               LatentCl       *cl,
               GCancellable   *cancellable,
               GError        **error)
{
  g_autoptr(LatentConvolve) self = g_new0 (LatentConvolve, 1);
  LatentConvolveParams p;
  gsize values;

  if (!convolve_check (dataset, params, error))
    return NULL;
  latent_params_read (params, &p);
  latent_dataset_get_image_shape (dataset, &self->width, &self->height, &self->channels, NULL);

  self->dataset = g_object_ref (dataset);
  self->params = latent_params_ref (params);
  self->seed = seed;
  self->message = g_string_new (NULL);
  self->raced = g_ptr_array_new ();
  self->raced_ms = g_array_new (FALSE, FALSE, sizeof (double));
  self->passes = p.iterations;
  if (!(self->filter = latent_filter_new_from_values (&p, error)) ||
      !latent_border_parse (p.border, &self->border, error) ||
      !latent_convolve_method_parse (p.method, &self->method, error))
    return NULL;
  if (self->method == LATENT_CONVOLVE_SEPARABLE && !latent_filter_is_separable (self->filter))
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("method = separable: the %s kernel is not separable (not the product of a column and a row)"),
                   latent_filter_get_name (self->filter));
      return NULL;
    }

  values = (gsize) self->width * self->height * self->channels;
  self->planes = g_new (float, values);
  self->previous = g_new (float, values);
  latent_convolve_planar_from_interleaved (latent_dataset_get_data (dataset), self->planes,
                                           (gsize) self->width * self->height, self->channels);
  if (cl)
    {
      g_autoptr(GError) local_error = NULL;

      self->runtime = g_object_ref (cl);
      self->device = latent_cl_describe (cl);
      if (!(self->cl = latent_convolve_cl_new (cl, &local_error)) || !race (self, &local_error))
        fall_back (self, local_error);
    }
  else
    self->device = g_strdup (CPU_REFERENCE);
  if (self->cl == NULL && self->method == LATENT_CONVOLVE_AUTO)
    self->method = LATENT_CONVOLVE_DIRECT;
  return g_steal_pointer (&self);
}

/* Passes of the C reference from the image on the host up to pass TARGET,
 * and the change of the last. */
static gboolean
catch_up (LatentConvolve  *self,
          guint            target,
          GError         **error)
{
  const gsize values = (gsize) self->width * self->height * self->channels;

  while (self->host_iteration < target)
    {
      float *swap = self->previous;
      double sum = 0;

      self->previous = self->planes;
      self->planes = swap;
      if (!latent_convolve_reference (self->filter, self->border, self->previous, self->planes, self->width,
                                      self->height, self->channels, error))
        {
          self->planes = self->previous;
          self->previous = swap;
          return FALSE;
        }
      for (gsize i = 0; i < values; i++)
        {
          const double delta = (double) self->planes[i] - self->previous[i];
          sum += delta * delta;
        }
      self->change = sqrt (sum / values);
      self->host_iteration++;
    }
  return TRUE;
}

/* The OpenCL path failed: on with the reference from the last image the
 * host has, up to pass TARGET. */
static gboolean
fall_back_to (LatentConvolve  *self,
              const GError    *cause,
              guint            target,
              GError         **error)
{
  fall_back (self, cause);
  return catch_up (self, target, error);
}

static gboolean
convolve_step (gpointer       data,
               GCancellable  *cancellable,
               GError       **error)
{
  LatentConvolve *self = data;
  g_autoptr(GError) local_error = NULL;
  gint64 start = g_get_monotonic_time ();

  g_return_val_if_fail (self->iteration < self->passes, FALSE);

  g_string_truncate (self->message, 0);
  /* The pass runs on the image already on the device, which stays there
   * until a snapshot asks for it. */
  if (self->cl)
    {
      if (latent_convolve_cl_step (self->cl, self->filter, self->border, self->method, &self->change,
                                   &self->pass_ms, cancellable, &local_error))
        {
          self->iteration++;
          return TRUE;
        }
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      if (!fall_back_to (self, local_error, self->iteration + 1, error))
        return FALSE;
    }
  else if (!catch_up (self, self->iteration + 1, error))
    return FALSE;
  self->pass_ms = (g_get_monotonic_time () - start) / 1000.0;
  self->iteration++;
  return TRUE;
}

/* The image of the current pass on the host, for a snapshot. */
static void
sync_image (LatentConvolve *self)
{
  g_autoptr(GError) error = NULL;

  if (self->host_iteration == self->iteration)
    return;
  if (self->cl && latent_convolve_cl_download (self->cl, self->planes, &error))
    {
      self->host_iteration = self->iteration;
      return;
    }
  if (self->cl)
    {
      /* The reference recomputes the passes; the change it sums is the
       * same pass's, as the history has it. */
      const double change = self->change;

      if (fall_back_to (self, error, self->iteration, NULL))
        {
          self->change = change;
          return;
        }
    }
  else if (catch_up (self, self->iteration, NULL))
    return;
  g_warning ("convolve: could not recompute pass %u on the host", self->iteration);
}

static LatentSnapshot *
convolve_snapshot (gpointer data)
{
  LatentConvolve *self = data;
  LatentSnapshot *snap;
  const guint size = latent_filter_get_size (self->filter);
  const gsize pixels = (gsize) self->width * self->height;

  sync_image (self);
  snap = latent_snapshot_new (&convolve_algorithm, self->dataset, self->params);

  snap->seed = self->seed;
  snap->iteration = self->iteration;
  snap->final = snap->converged = self->iteration >= self->passes;
  snap->objective = self->iteration > 0 ? self->change : NAN;
  snap->n_rows = latent_dataset_get_n_rows (self->dataset);
  snap->n_cols = self->channels;
  snap->device = g_strdup (self->device);
  snap->filter.image = g_new (float, pixels * self->channels);
  latent_convolve_interleaved_from_planar (self->planes, snap->filter.image, pixels, self->channels);
  snap->filter.kernel_size = size;
  snap->filter.kernel = g_memdup2 (latent_filter_get_weights (self->filter), sizeof (float) * size * size);
  snap->filter.kernel_separable = latent_filter_is_separable (self->filter);
  snap->filter.method = g_strdup (self->cl ? latent_convolve_method_to_string (self->method) : "reference");
  snap->filter.method_names = g_new0 (char *, self->raced->len + 1);
  snap->filter.method_ms = g_new (double, self->raced->len + 1);
  for (guint i = 0; i < self->raced->len; i++)
    {
      snap->filter.method_names[i] = g_strdup (g_ptr_array_index (self->raced, i));
      snap->filter.method_ms[i] = g_array_index (self->raced_ms, double, i);
    }
  snap->step_ms = self->pass_ms;
  if (self->fallback || self->message->len > 0)
    snap->message = g_strconcat (self->fallback ? self->fallback : "", self->message->str, NULL);
  return snap;
}

static double
convolve_objective (gpointer data)
{
  return ((LatentConvolve *) data)->change;
}

static gboolean
convolve_converged (gpointer data)
{
  LatentConvolve *self = data;

  return self->iteration >= self->passes;
}

/* The kernel, the method that ran, and the race. */
static void
convolve_write_json (LatentSnapshot *snap,
                     JsonBuilder    *b)
{
  latent_json_add_matrix_member (b, "kernel", snap->filter.kernel, snap->filter.kernel_size, snap->filter.kernel_size);
  json_builder_set_member_name (b, "method");
  json_builder_add_string_value (b, snap->filter.method);
  json_builder_set_member_name (b, "method_ms");
  json_builder_begin_object (b);
  for (guint i = 0; snap->filter.method_names && snap->filter.method_names[i]; i++)
    latent_json_add_number_member (b, snap->filter.method_names[i], snap->filter.method_ms[i]);
  json_builder_end_object (b);
}

static const char * const convolve_figures[] = { "filter", "kernel", NULL };

static const LatentAlgorithm convolve_algorithm = {
  .id = "convolve",
  .title = N_("Convolution filter"),
  .short_title = N_("convolution"),
  .objective_name = N_("change per pass (RMS)"),
  .pace = 0,
  .pace_unit = N_("passes/s"),
  .family = LATENT_FAMILY_FILTER,
  .flags = LATENT_ALGORITHM_INSTANT | LATENT_ALGORITHM_IMAGE,
  .figures = convolve_figures,
  .params = convolve_params,
  .n_params = G_N_ELEMENTS (convolve_params),
  .check = convolve_check,
  .max_int = latent_algorithm_no_max_int,
  .init = convolve_init,
  .step = convolve_step,
  .snapshot = convolve_snapshot,
  .objective = convolve_objective,
  .converged = convolve_converged,
  .free = convolve_free,
  .write_json = convolve_write_json,
};

const LatentAlgorithm *
latent_convolve_get_algorithm (void)
{
  return &convolve_algorithm;
}
