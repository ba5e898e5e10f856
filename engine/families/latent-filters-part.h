/* latent-filters-part.h — an image filter's part of a snapshot
 *
 * Read by the engine and the family's own figures (tests/check-layers.py).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-part-shapes.h"

G_BEGIN_DECLS

/* Image filters: the filtered image, pixels interleaved as the dataset's
 * (its image shape says width, height and channels); the kernel applied
 * (kernel_size², the X kernel of a gradient magnitude); the method that
 * ran; and, for each method raced on the image at the start, its name and
 * milliseconds per pass. */
typedef struct {
  float         *image;
  guint          kernel_size;
  float         *kernel;
  /* The filter is a column times a row (for a gradient magnitude, both of
   * its kernels are), so the separable method may run: the engine's test,
   * which the kernel figure reports rather than repeats. */
  gboolean       kernel_separable;
  char          *method;
  GStrv          method_names;
  double        *method_ms;
} LatentFilterPart;

G_END_DECLS
