/* latent-image-folder.h — a folder of images as a labelled image dataset
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-dataset.h"

G_BEGIN_DECLS

/* Without a size, the images' most common size, made smaller (its shape
 * kept) until neither side is over this: a photo collection becomes rows
 * a model can learn from. */
#define LATENT_IMAGE_FOLDER_DEFAULT_SIDE 64

typedef enum {
  LATENT_IMAGE_FOLDER_AUTO,    /* colour when any image has colour */
  LATENT_IMAGE_FOLDER_GREY,
  LATENT_IMAGE_FOLDER_COLOUR,
} LatentImageFolderColour;

/* The PNG and JPEG images of @folder: those of each subfolder are a class
 * named after it (subfolders and files in name order; hidden ones and
 * other files left out), or, without subfolders of images, the folder's
 * own images, unlabelled. Each becomes one row: resized (averaged over
 * the pixels it covers when smaller, bilinear when larger) to @width ×
 * @height, or with both 0 to the most common size (see above), grey or
 * colour as @colour says. A file that cannot be read is refused by name. */
LatentDataset *latent_image_folder_load (const char               *folder,
                                         guint                     width,
                                         guint                     height,
                                         LatentImageFolderColour   colour,
                                         GError                  **error);

G_END_DECLS
