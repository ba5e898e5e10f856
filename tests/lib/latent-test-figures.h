/* latent-test-figures.h — rendering a figure for the figure tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <math.h>

#include "latent-figure.h"
#include "latent-test-pixels.h"

/* SNAP's figure KIND at WIDTH × HEIGHT on an ARGB32 image, flushed. */
static inline cairo_surface_t *
render (LatentSnapshot          *snap,
        LatentFigureKind         kind,
        const LatentFigureStyle *style,
        int                      width,
        int                      height)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cairo_t *cr = cairo_create (surface);

  latent_figure_render (snap, kind, style, cr, width, height);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

/* Optionally keeps what the tests draw, to look at: LATENT_TEST_FIGURES=DIR. */
static inline void
keep_figure (cairo_surface_t *surface,
             const char      *name)
{
  const char *dir = g_getenv ("LATENT_TEST_FIGURES");
  g_autofree char *path = NULL;

  if (dir == NULL || *dir == '\0')
    return;
  path = g_strdup_printf ("%s/%s.png", dir, name);
  g_assert_cmpint (cairo_surface_write_to_png (surface, path), ==, CAIRO_STATUS_SUCCESS);
}

/* Checks latent_figure_tile_pick () on SNAP's figure KIND at 640 × 480:
 * the points that pick tile 0 form one rectangle of at least 8 px a side
 * where the figure draws it, its text starts with @text_prefix, and its
 * enlarged image has the drawn tile's mean colour (the same values on the
 * same scale). Returns how many tiles the scan met. */
static inline guint
check_tile_pick (LatentSnapshot   *snap,
                 LatentFigureKind  kind,
                 const char       *text_prefix)
{
  const int width = 640, height = 480;
  LatentFigureStyle style;
  cairo_surface_t *surface;
  cairo_surface_t *image = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  int x0 = width, y0 = height, x1 = -1, y1 = -1;
  double drawn[3] = { 0 }, large[3] = { 0 };
  guint n_drawn = 0, n_large = 0;

  latent_figure_style_init (&style);
  surface = render (snap, kind, &style, width, height);
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      {
        gint64 index = latent_figure_tile_pick (snap, kind, &style, width, height, x + 0.5, y + 0.5, 64, NULL, NULL);

        if (index >= 0)
          g_hash_table_add (seen, GINT_TO_POINTER (index + 1));
        if (index == 0)
          {
            x0 = MIN (x0, x), y0 = MIN (y0, y), x1 = MAX (x1, x), y1 = MAX (y1, y);
          }
      }
  g_test_message ("%s: tile 0 at %d,%d–%d,%d; %u tiles picked", latent_figure_kind_to_string (kind), x0, y0, x1, y1,
                  g_hash_table_size (seen));
  g_assert_cmpint (x1 - x0 + 1, >=, 8);
  g_assert_cmpint (y1 - y0 + 1, >=, 8);
  g_assert_cmpint (latent_figure_tile_pick (snap, kind, &style, width, height, (x0 + x1) / 2.0, (y0 + y1) / 2.0, 168,
                                            &text, &image), ==, 0);
  g_test_message ("  tile 0: “%s”, %d × %d", text, cairo_image_surface_get_width (image),
                  cairo_image_surface_get_height (image));
  g_assert_true (g_str_has_prefix (text, text_prefix));
  g_assert_cmpint (MAX (cairo_image_surface_get_width (image), cairo_image_surface_get_height (image)), ==, 168);
  /* Inside the rectangle, one pixel in from its edge (the frame). */
  for (int y = y0 + 1; y < y1; y++)
    for (int x = x0 + 1; x < x1; x++)
      {
        guint32 p = latent_test_pixel (surface, x, y);

        drawn[0] += (p >> 16) & 0xff, drawn[1] += (p >> 8) & 0xff, drawn[2] += p & 0xff;
        n_drawn++;
      }
  cairo_surface_flush (image);
  for (int y = 0; y < cairo_image_surface_get_height (image); y++)
    for (int x = 0; x < cairo_image_surface_get_width (image); x++)
      {
        guint32 p = latent_test_pixel (image, x, y);

        large[0] += (p >> 16) & 0xff, large[1] += (p >> 8) & 0xff, large[2] += p & 0xff;
        n_large++;
      }
  for (guint c = 0; c < 3; c++)
    {
      g_test_message ("  channel %u: drawn %.1f, enlarged %.1f", c, drawn[c] / n_drawn, large[c] / n_large);
      g_assert_cmpfloat (fabs (drawn[c] / n_drawn - large[c] / n_large), <=, 12.0);
    }
  cairo_surface_destroy (image);
  cairo_surface_destroy (surface);
  /* Between the tiles and in the header: none. */
  g_assert_cmpint (latent_figure_tile_pick (snap, kind, &style, width, height, 2, 2, 64, NULL, NULL), ==, -1);
  return g_hash_table_size (seen);
}
