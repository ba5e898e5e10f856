/* latent-figure-linear-private.h — what the figures of PCA, PPCA and FA share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-figure-private.h"

G_BEGIN_DECLS

/* Components drawn as tiles at most; more are summed up in a line. */
#define _LATENT_FIGURE_MAX_COMPONENT_TILES 100

/* "PC 1", "W 1" (PPCA) or "Factor 1" (FA). */
char       *_latent_figure_linear_component_name (LatentSnapshot      *snapshot,
                                              guint                    index);
/* "PC 1 · 29.1 %", or the name alone without a ratio. */
char       *_latent_figure_linear_component_caption (LatentSnapshot   *snapshot,
                                              guint                    index);
/* Factor analysis: its components are called factors. */
gboolean    _latent_figure_linear_is_fa      (LatentSnapshot          *snapshot);
/* Asked to whiten its coordinates (unit variance along each axis): only
 * PCA has the parameter. */
gboolean    _latent_figure_linear_whitened   (LatentSnapshot          *snapshot);
/* The snapshot's components fit its dataset: n_components rows of n_cols. */
gboolean    _latent_figure_linear_has_components (LatentSnapshot      *snapshot);
/* The loadings as a heat map below @top (latent-figure-linear-matrices.c). */
void        _latent_figure_linear_draw_loadings (cairo_t              *cr,
                                              LatentSnapshot          *snapshot,
                                              const LatentFigureStyle *style,
                                              double                   top,
                                              int                      width,
                                              int                      height);

G_END_DECLS
