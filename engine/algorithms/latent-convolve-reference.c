/* latent-convolve-reference.c — image convolution in plain C: borders, layouts, the reference
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-convolve"

#include "latent-convolve.h"

#include <math.h>
#include <glib/gi18n-lib.h>


static const char * const border_names[] = { "clamp", "mirror", "wrap", "zero" };
static const char * const method_names[] = { "auto", "direct", "tiled", "separable", "fft" };

gboolean
latent_border_parse (const char    *text,
                     LatentBorder  *border,
                     GError       **error)
{
  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (border != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (border_names); i++)
    if (g_ascii_strcasecmp (text, border_names[i]) == 0)
      {
        *border = (LatentBorder) i;
        return TRUE;
      }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
               _("border: unknown mode “%s” (expected clamp, mirror, wrap or zero)"), text);
  return FALSE;
}

const char *
latent_border_to_string (LatentBorder border)
{
  g_return_val_if_fail ((guint) border < G_N_ELEMENTS (border_names), "clamp");
  return border_names[border];
}

gint
latent_border_index (LatentBorder border,
                     gint64       p,
                     guint        len)
{
  g_return_val_if_fail (len > 0, -1);

  if (p >= 0 && p < len)
    return (gint) p;
  switch (border)
    {
    case LATENT_BORDER_CLAMP:
      return p < 0 ? 0 : (gint) len - 1;
    case LATENT_BORDER_MIRROR:
      {
        /* Reflection about the edge pixels repeats every 2·len − 2. */
        const gint64 period = 2 * (gint64) len - 2;

        if (period == 0)
          return 0;
        p %= period;
        if (p < 0)
          p += period;
        return (gint) (p < len ? p : period - p);
      }
    case LATENT_BORDER_WRAP:
      p %= len;
      return (gint) (p < 0 ? p + len : p);
    case LATENT_BORDER_ZERO:
    default:
      return -1;
    }
}

gboolean
latent_convolve_method_parse (const char            *text,
                              LatentConvolveMethod  *method,
                              GError               **error)
{
  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (method != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (method_names); i++)
    if (g_ascii_strcasecmp (text, method_names[i]) == 0)
      {
        *method = (LatentConvolveMethod) i;
        return TRUE;
      }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
               _("method: unknown method “%s” (expected auto, direct, tiled, separable or fft)"), text);
  return FALSE;
}

const char *
latent_convolve_method_to_string (LatentConvolveMethod method)
{
  g_return_val_if_fail ((guint) method < G_N_ELEMENTS (method_names), "auto");
  return method_names[method];
}

void
latent_convolve_planar_from_interleaved (const float *pixels,
                                         float       *planes,
                                         gsize        n_pixels,
                                         guint        channels)
{
  g_return_if_fail (pixels != NULL && planes != NULL);

  for (guint c = 0; c < channels; c++)
    for (gsize i = 0; i < n_pixels; i++)
      planes[c * n_pixels + i] = pixels[i * channels + c];
}

void
latent_convolve_interleaved_from_planar (const float *planes,
                                         float       *pixels,
                                         gsize        n_pixels,
                                         guint        channels)
{
  g_return_if_fail (pixels != NULL && planes != NULL);

  for (gsize i = 0; i < n_pixels; i++)
    for (guint c = 0; c < channels; c++)
      pixels[i * channels + c] = planes[c * n_pixels + i];
}

/* For every output coordinate and kernel tap, the input coordinate (−1:
 * zero), so the loops below need no border logic. */
static gint *
index_table (LatentBorder border,
             guint        len,
             guint        size)
{
  const int r = size / 2;
  gint *table = g_new (gint, (gsize) len * size);

  for (guint p = 0; p < len; p++)
    for (guint t = 0; t < size; t++)
      table[(gsize) p * size + t] = latent_border_index (border, (gint64) p + t - r, len);
  return table;
}

/* Σ w[j][i] · in(x + i − r, y + j − r) for one kernel, in double. */
static double
correlate (const double *w,
           guint         size,
           const float  *plane,
           guint         width,
           const gint   *xs,
           const gint   *ys)
{
  double sum = 0;

  for (guint j = 0; j < size; j++)
    {
      const float *row;

      if (ys[j] < 0)
        continue;
      row = plane + (gsize) ys[j] * width;
      for (guint i = 0; i < size; i++)
        if (xs[i] >= 0)
          sum += w[j * size + i] * row[xs[i]];
    }
  return sum;
}

gboolean
latent_convolve_reference (const LatentFilter  *filter,
                           LatentBorder         border,
                           const float         *src,
                           float               *dst,
                           guint                width,
                           guint                height,
                           guint                channels,
                           GError             **error)
{
  const guint size = filter ? latent_filter_get_size (filter) : 0;
  const gsize taps = (gsize) size * size, n_pixels = (gsize) width * height;
  const gboolean magnitude = filter && latent_filter_is_magnitude (filter);
  g_autofree double *wx = NULL;
  g_autofree double *wy = NULL;
  g_autofree gint *xtab = NULL;
  g_autofree gint *ytab = NULL;
  double divisor, offset;

  g_return_val_if_fail (filter != NULL, FALSE);
  g_return_val_if_fail (src != NULL && dst != NULL, FALSE);
  g_return_val_if_fail ((guint) border <= LATENT_BORDER_ZERO, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!latent_convolve_check_image (width, height, channels, error))
    return FALSE;

  divisor = latent_filter_get_divisor (filter);
  offset = latent_filter_get_offset (filter);
  wx = g_new (double, taps);
  wy = g_new (double, taps);
  for (gsize t = 0; t < taps; t++)
    {
      wx[t] = latent_filter_get_weights (filter)[t] / divisor;
      wy[t] = magnitude ? latent_filter_get_weights_y (filter)[t] / divisor : 0.0;
    }
  xtab = index_table (border, width, size);
  ytab = index_table (border, height, size);

  for (guint c = 0; c < channels; c++)
    {
      const float *in = src + c * n_pixels;
      float *out = dst + c * n_pixels;

      for (guint y = 0; y < height; y++)
        for (guint x = 0; x < width; x++)
          {
            const gint *xs = xtab + (gsize) x * size, *ys = ytab + (gsize) y * size;
            const double gx = correlate (wx, size, in, width, xs, ys);
            double value;

            if (magnitude)
              {
                const double gy = correlate (wy, size, in, width, xs, ys);
                value = sqrt (gx * gx + gy * gy);
              }
            else
              value = gx;
            out[(gsize) y * width + x] = (float) (value + offset);
          }
    }
  return TRUE;
}
