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

G_END_DECLS
