/* latent-test-pixels.h — looking at what a figure test drew
 *
 * Pixels of an ARGB32 image surface as 0xAARRGGBB, compared channel by
 * channel or by their distance in RGB, counted over the image.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

/* The pixel at (@x, @y), which must lie inside @surface. */
guint32 latent_test_pixel          (cairo_surface_t *surface,
                                    int              x,
                                    int              y);
/* Whether every channel of @a and @b, alpha included, is within @tolerance. */
gboolean latent_test_colour_close  (guint32          a,
                                    guint32          b,
                                    guint            tolerance);
/* |Δr| + |Δg| + |Δb|. */
guint   latent_test_colour_distance (guint32         a,
                                    guint32          b);
/* Rec. 709 luminance of a pixel, 0–255. */
double  latent_test_luminance      (guint32          argb);
/* The pixels of @surface close to @argb (latent_test_colour_close). */
guint   latent_test_count_colour   (cairo_surface_t *surface,
                                    guint32          argb,
                                    guint            tolerance);
/* The pixels of @surface within @distance of @argb
 * (latent_test_colour_distance). */
guint   latent_test_count_near     (cairo_surface_t *surface,
                                    guint32          argb,
                                    guint            distance);

G_END_DECLS
