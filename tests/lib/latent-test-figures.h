/* latent-test-figures.h — rendering a figure for the figure tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>

#include "latent-figure.h"

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
