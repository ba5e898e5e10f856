/* latent-png.h — a PNG image as a single-image dataset, one row per pixel
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-dataset.h"

G_BEGIN_DECLS

#define LATENT_PNG_MAX_PIXELS ((guint64) 8192 * 8192)
/* The longest side: a 1 × 67 million strip is no picture either. */
#define LATENT_PNG_MAX_SIDE   65536

/* Any PNG (1–16 bit grey, grey+alpha, RGB, RGBA, palette, tRNS) → width × height
 * rows of 1–4 channels in [0, 1]; palette images become RGB or RGBA. */
LatentDataset *latent_png_load (const char  *path,
                                GError     **error);

G_END_DECLS
