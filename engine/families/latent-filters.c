/* latent-filters.c — the filter family (convolution) in words: its filter
 * ("Gaussian blur σ = 2"), its passes, its methods and what a run of it
 * measured, from the convolution's own parameters, which it reads by name
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-filters"

#include "latent-family.h"
#include "latent-codec.h"

#include <glib/gi18n-lib.h>
#include <math.h>

static const LatentParamSpec *
find_spec (LatentParams *params,
           const char   *name)
{
  for (guint i = 0; params != NULL && i < latent_params_get_n_specs (params); i++)
    {
      const LatentParamSpec *spec = latent_params_get_spec (params, i);

      if (g_str_equal (spec->name, name))
        return spec;
    }
  return NULL;
}

/* What the window calls a choice: "Gaussian blur" for "gaussian". */
static const char *
choice_label (LatentParams *params,
              const char   *name,
              const char   *value)
{
  const LatentParamSpec *spec = find_spec (params, name);

  for (guint i = 0; spec && spec->type == LATENT_PARAM_CHOICE && spec->choices && spec->choices[i]; i++)
    if (g_str_equal (spec->choices[i], value))
      return spec->choice_labels ? _(spec->choice_labels[i]) : value;
  return value;
}

const char *
latent_filters_method_label (LatentSnapshot *snapshot,
                                   const char     *method)
{
  if (g_strcmp0 (method, "reference") == 0)
    return _("CPU reference");
  return choice_label (snapshot->params, "method", method);
}

static double
param_double (LatentParams *params,
              const char   *name)
{
  const LatentParamSpec *spec = find_spec (params, name);

  if (spec == NULL)
    return NAN;
  if (spec->type == LATENT_PARAM_INT)
    return latent_params_get_int (params, name);
  return spec->type == LATENT_PARAM_DOUBLE ? latent_params_get_double (params, name) : NAN;
}

const char *
latent_filters_value (LatentSnapshot *snapshot)
{
  const LatentParamSpec *spec = find_spec (snapshot->params, "filter");

  if (spec == NULL || spec->type != LATENT_PARAM_CHOICE)
    return NULL;
  return latent_params_get_choice (snapshot->params, "filter");
}

char *
latent_filters_describe (LatentSnapshot *snapshot)
{
  const char *value = latent_filters_value (snapshot);
  const char *label;
  guint size = snapshot->filter.kernel ? snapshot->filter.kernel_size : 0;
  char sigma[32], amount[32], angle[32];

  if (value == NULL)
    return NULL;
  if (value[0] == '@')
    {
      g_autofree char *base = g_path_get_basename (value + 1);
      g_autofree char *dir = g_path_get_dirname (value + 1);
      g_autofree char *edited = g_build_filename (g_get_user_cache_dir (), "latent", "kernels", NULL);

      /* The window's kernel editor names its files after their contents:
       * nothing a person would call them. */
      if (g_str_equal (dir, edited))
        return g_strdup (_("custom kernel"));
      /* Translators: a kernel read from a file, e.g. "kernel blur.txt". */
      return g_strdup_printf (_("kernel %s"), base);
    }
  label = choice_label (snapshot->params, "filter", value);
  g_ascii_formatd (sigma, sizeof sigma, "%g", param_double (snapshot->params, "sigma"));
  g_ascii_formatd (amount, sizeof amount, "%g", param_double (snapshot->params, "amount"));
  g_ascii_formatd (angle, sizeof angle, "%g", param_double (snapshot->params, "angle"));
  if (g_str_equal (value, "gaussian"))
    /* Translators: "Gaussian blur σ = 2"; the filter, then its σ. */
    return g_strdup_printf (_("%s σ = %s"), label, sigma);
  if (g_str_equal (value, "unsharp"))
    return g_strdup_printf (_("%s σ = %s, amount %s"), label, sigma, amount);
  if (g_str_equal (value, "motion") && size > 0)
    /* Translators: "Motion blur 9 px at 30°". */
    return g_strdup_printf (_("%s %u px at %s°"), label, size, angle);
  if (g_str_equal (value, "box") && size > 0)
    return g_strdup_printf ("%s %u × %u", label, size, size);
  return g_strdup (label);
}

guint
latent_filters_passes (LatentSnapshot *snapshot)
{
  const char *budget = snapshot->params ? latent_params_find_role (snapshot->params, LATENT_PARAM_ROLE_BUDGET) : NULL;
  double passes = budget ? param_double (snapshot->params, budget) : NAN;

  return isfinite (passes) && passes >= 0 ? (guint) passes : 0;
}

static void
latent_filters_describe_header (LatentSnapshot *snap,
                                GString        *text)
{
  if (snap->filter.method != NULL)
    g_string_append_printf (text, " · %s", latent_filters_method_label (snap, snap->filter.method));
  if (snap->iteration > 0 && isfinite (snap->objective))
    g_string_append_printf (text, _(" · RMS change of the last pass %.4g"), snap->objective);
}

/* @line, taken, and a newline. */
static void
add_line (GString *text,
          char    *line)
{
  g_string_append (text, line);
  g_string_append_c (text, '\n');
  g_free (line);
}

static void
latent_filters_describe_metrics (LatentSnapshot *snap,
                                 GString        *text)
{
  g_autofree char *filter = latent_filters_describe (snap);

  if (filter)
    add_line (text, g_strdup_printf (_("Filter: %s"), filter));
  if (snap->filter.kernel)
    add_line (text, g_strdup_printf (_("Kernel %u × %u"), snap->filter.kernel_size, snap->filter.kernel_size));
  if (snap->iteration > 0 && isfinite (snap->objective))
    add_line (text, g_strdup_printf (_("RMS change of the last pass %.4g"), snap->objective));
  for (guint i = 0; snap->filter.method_names && snap->filter.method_ms && snap->filter.method_names[i]; i++)
    {
      const char *name = latent_filters_method_label (snap, snap->filter.method_names[i]);

      if (g_strcmp0 (snap->filter.method_names[i], snap->filter.method) == 0)
        /* Translators: "Separable: 2.1 ms per pass, used"; the method that ran. */
        add_line (text, g_strdup_printf (_("%s: %.3g ms per pass, used"), name, snap->filter.method_ms[i]));
      else
        add_line (text, g_strdup_printf (_("%s: %.3g ms per pass"), name, snap->filter.method_ms[i]));
    }
}

static void
latent_filters_clear_part (LatentSnapshot *self)
{
  LatentFilterPart *part = &self->filter;

  g_free (part->image);
  g_free (part->kernel);
  g_free (part->method);
  g_strfreev (part->method_names);
  g_free (part->method_ms);
}

static gsize
latent_filters_get_part_size (LatentSnapshot *self)
{
  const LatentFilterPart *part = &self->filter;
  gsize size = 0;

  if (part->image) size += (gsize) self->n_rows * self->n_cols * sizeof (float);
  if (part->kernel) size += (gsize) part->kernel_size * part->kernel_size * sizeof (float);
  for (guint i = 0; part->method_names && part->method_names[i]; i++)
    size += sizeof (char *) + latent_snapshot_string_size (part->method_names[i]) + sizeof (double);
  return size + latent_snapshot_string_size (part->method);
}

const float *
latent_filters_get_image (LatentSnapshot *snapshot)
{
  g_return_val_if_fail (snapshot != NULL, NULL);

  return snapshot->filter.image;
}

const char *
latent_filters_get_method (LatentSnapshot *snapshot)
{
  g_return_val_if_fail (snapshot != NULL, NULL);

  return snapshot->filter.method;
}

double
latent_filters_get_ms_per_pass (LatentSnapshot *snapshot)
{
  const LatentFilterPart *part;

  g_return_val_if_fail (snapshot != NULL, NAN);

  /* The race's time of the method that ran is the kernel's own; the last
   * step's wall time also holds reading the image back. */
  part = &snapshot->filter;
  for (guint i = 0; part->method_names && part->method_ms && part->method_names[i]; i++)
    if (g_strcmp0 (part->method_names[i], part->method) == 0 && isfinite (part->method_ms[i]))
      return part->method_ms[i];
  return snapshot->step_ms;
}

static void
latent_filters_transfer_part (LatentSnapshot *self,
                              LatentCodec    *codec)
{
  LatentFilterPart *part = &self->filter;

  latent_codec_floats (codec, &part->image, (gsize) self->n_rows * self->n_cols, "image");
  latent_codec_uint (codec, &part->kernel_size);
  latent_codec_floats (codec, &part->kernel, (gsize) part->kernel_size * part->kernel_size, "kernel");
  latent_codec_boolean (codec, &part->kernel_separable);
  latent_codec_string (codec, &part->method);
  latent_codec_strv (codec, &part->method_names);
  latent_codec_doubles (codec, &part->method_ms, part->method_names ? g_strv_length (part->method_names) : 0,
                        "method_ms");
}

/* Listed in engine/meson.build (latent_families). */
extern const LatentFamilyClass latent_filters_family;
const LatentFamilyClass latent_filters_family = {
  .family = LATENT_FAMILY_FILTER,
  .describe_metrics = latent_filters_describe_metrics,
  .describe_header = latent_filters_describe_header,
  .clear_part = latent_filters_clear_part,
  .get_part_size = latent_filters_get_part_size,
  .transfer_part = latent_filters_transfer_part,
};
