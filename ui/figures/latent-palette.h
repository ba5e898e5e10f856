/* latent-palette.h — the one colour-blind-safe palette every figure uses
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Number of base colours; indices past it cycle with lighter/darker shades. */
#define LATENT_PALETTE_SIZE 10

void    latent_palette_color (guint   index,
                              double *r,
                              double *g,
                              double *b);
/* Premultiplied, opaque ARGB32 (as cairo stores it) for direct pixel writes. */
guint32 latent_palette_argb  (guint   index);

/* Diverging, for signed values: t = −1 blue, 0 neutral, +1 red (Paul Tol's
 * colour-blind-safe BuRd). The neutral is near white, or near the
 * background on dark figures, and colours grow away from it. t is clamped;
 * NaN is neutral. */
void    latent_palette_diverging      (double    t,
                                       gboolean  dark,
                                       double   *r,
                                       double   *g,
                                       double   *b);
guint32 latent_palette_diverging_argb (double    t,
                                       gboolean  dark);

/* Right and wrong (a classifier's answers): Okabe & Ito's bluish green and
 * vermillion, told apart by every common colour vision; figures mark the
 * wrong ones with a cross as well. */
void    latent_palette_verdict        (gboolean  right,
                                       double   *r,
                                       double   *g,
                                       double   *b);

G_END_DECLS
