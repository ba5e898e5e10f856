/* latent-test-pixels.c — looking at what a figure test drew
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "latent-test-pixels.h"

guint32
latent_test_pixel (cairo_surface_t *surface,
                   int              x,
                   int              y)
{
  const guint8 *data = cairo_image_surface_get_data (surface);
  int stride = cairo_image_surface_get_stride (surface);

  g_assert_cmpint (x, >=, 0);
  g_assert_cmpint (y, >=, 0);
  g_assert_cmpint (x, <, cairo_image_surface_get_width (surface));
  g_assert_cmpint (y, <, cairo_image_surface_get_height (surface));
  return ((const guint32 *) (data + (gsize) y * stride))[x];
}

gboolean
latent_test_colour_close (guint32 a,
                          guint32 b,
                          guint   tolerance)
{
  for (guint shift = 0; shift < 32; shift += 8)
    if ((guint) ABS ((int) ((a >> shift) & 0xff) - (int) ((b >> shift) & 0xff)) > tolerance)
      return FALSE;
  return TRUE;
}

guint
latent_test_colour_distance (guint32 a,
                             guint32 b)
{
  int dr = (int) ((a >> 16) & 0xff) - (int) ((b >> 16) & 0xff);
  int dg = (int) ((a >> 8) & 0xff) - (int) ((b >> 8) & 0xff);
  int db = (int) (a & 0xff) - (int) (b & 0xff);

  return (guint) (ABS (dr) + ABS (dg) + ABS (db));
}

double
latent_test_luminance (guint32 argb)
{
  return 0.2126 * ((argb >> 16) & 0xff) + 0.7152 * ((argb >> 8) & 0xff) + 0.0722 * (argb & 0xff);
}

guint
latent_test_count_colour (cairo_surface_t *surface,
                          guint32          argb,
                          guint            tolerance)
{
  int w = cairo_image_surface_get_width (surface), h = cairo_image_surface_get_height (surface);
  guint n = 0;

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      n += latent_test_colour_close (latent_test_pixel (surface, x, y), argb, tolerance);
  return n;
}

guint
latent_test_count_near (cairo_surface_t *surface,
                        guint32          argb,
                        guint            distance)
{
  int w = cairo_image_surface_get_width (surface), h = cairo_image_surface_get_height (surface);
  guint n = 0;

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      n += latent_test_colour_distance (latent_test_pixel (surface, x, y), argb) <= distance;
  return n;
}
