/* latent-jpeg.h — a JPEG photograph as a single-image dataset, one row per pixel
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-dataset.h"

G_BEGIN_DECLS

/* A baseline or progressive JPEG (grey, or colour in YCbCr or RGB) →
 * width × height rows of 1 or 3 channels in [0, 1], within the PNG
 * loader's limits, turned as its EXIF orientation says (a phone's
 * portrait photo stands up). CMYK files and truncated data are refused. */
LatentDataset *latent_jpeg_load (const char  *path,
                                 GError     **error);

G_END_DECLS
