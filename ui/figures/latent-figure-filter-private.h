/* latent-figure-filter-private.h — what the two figures of a convolution share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-figure-private.h"

G_BEGIN_DECLS

/* The largest |weight|, the ends of the colour map (1 for an all-zero kernel). */
double      _latent_figure_kernel_scale      (const float             *weights,
                                              guint                    size);
/* size × size cells of side @cell from (x, y) on the diverging map; the
 * weights printed in them when @annotate and they fit. */
void        _latent_figure_kernel_cells      (cairo_t                 *cr,
                                              const LatentFigureStyle *style,
                                              const float             *weights,
                                              guint                    size,
                                              double                   x,
                                              double                   y,
                                              double                   cell,
                                              gboolean                 annotate);
/* "−0.25", "2": a weight for the colour bar's ends. */
char       *_latent_figure_kernel_weight_label (double                 value);
/* "Kernel 13 × 13", and what a gradient magnitude leaves out of it. */
char       *_latent_figure_kernel_heading    (LatentSnapshot          *snapshot);
/* A bold line at baseline y, cut with an ellipsis to @room; one that does
 * not fit but has a bracket goes on in a second line from it ("(x; y
 * transposed)"). Returns the lines drawn, 1 or 2. */
guint       _latent_figure_filter_heading    (cairo_t                 *cr,
                                              const LatentFigureStyle *style,
                                              double                   x,
                                              double                   y,
                                              double                   room,
                                              const char              *text);
/* The height the timings take: a heading and a row per method. */
double      _latent_figure_filter_timings_height (LatentSnapshot      *snapshot,
                                              const LatentFigureStyle *style);
/* "Time per pass": a bar per method raced, the one that ran in colour;
 * as many rows as fit in @room. Returns the height used. */
double      _latent_figure_filter_timings    (cairo_t                 *cr,
                                              const LatentFigureStyle *style,
                                              LatentSnapshot          *snapshot,
                                              double                   x,
                                              double                   y,
                                              double                   width,
                                              double                   room);

G_END_DECLS
