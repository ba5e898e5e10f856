/* latent-png-save.h — float images written as 8- or 16-bit PNG (grey, grey+alpha, RGB, RGBA)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-dataset.h"

G_BEGIN_DECLS

typedef enum {
  LATENT_PNG_INTERLEAVED,  /* pixel after pixel, CHANNELS values each (a PNG dataset's rows) */
  LATENT_PNG_PLANAR,       /* CHANNELS planes of width × height (latent-convolve.h) */
} LatentPngLayout;

/* Writes VALUES (clamped to [0, 1], NaN as 0) as a PNG of CHANNELS (1 grey,
 * 2 grey + alpha, 3 RGB, 4 RGBA) and BIT_DEPTH (8 or 16) bits per sample.
 * The image goes to a temporary file beside PATH, renamed over PATH once
 * complete, so a failure never leaves half a file. TEXT, if not NULL, is
 * NULL-terminated key, value pairs stored as tEXt chunks. Errors
 * (LATENT_DATA_ERROR) name PATH. */
gboolean latent_png_save         (const char          *path,
                                  const float         *values,
                                  guint                width,
                                  guint                height,
                                  guint                channels,
                                  LatentPngLayout      layout,
                                  guint                bit_depth,
                                  const char * const  *text,
                                  GError             **error);

/* A single-image dataset (latent_png_load ()) back to PATH. */
gboolean latent_png_save_dataset (LatentDataset       *dataset,
                                  const char          *path,
                                  guint                bit_depth,
                                  GError             **error);

G_END_DECLS
