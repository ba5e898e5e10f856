/* latent-test-dataset.h — what the loaders' tests check of a dataset, and
 * the image stacks they write in each format
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "latent-dataset.h"

/* @dataset is @rows × @cols of exactly @expected. */
static G_GNUC_UNUSED void
test_assert_values (LatentDataset *dataset,
                    guint          rows,
                    guint          cols,
                    const float   *expected)
{
  g_assert_nonnull (dataset);
  g_assert_cmpuint (latent_dataset_get_n_rows (dataset), ==, rows);
  g_assert_cmpuint (latent_dataset_get_n_cols (dataset), ==, cols);
  g_assert_cmpmem (latent_dataset_get_data (dataset), sizeof (float) * rows * cols, expected, sizeof (float) * rows * cols);
}

/* Row @row's first @n values are @expected, to 1e-6. */
static G_GNUC_UNUSED void
test_assert_row (LatentDataset *dataset,
                 guint          row,
                 guint          n,
                 const float   *expected)
{
  for (guint j = 0; j < n; j++)
    g_assert_cmpfloat_with_epsilon (latent_dataset_get_row (dataset, row)[j], expected[j], 1e-6);
}

/* Two images of 3 × 5 pixels in 3 channels, each byte telling where it is,
 * as PyTorch keeps them (@chw: n, channel, y, x) and interleaved (@hwc: n,
 * y, x, channel); and 2 grey 4 × 3 images (@grey: n, y, x). */
#define TEST_STACK_BYTES (2 * 3 * 3 * 5)
#define TEST_GREY_BYTES (2 * 3 * 4)

static G_GNUC_UNUSED void
test_image_stacks (guint8 *grey,
                   guint8 *chw,
                   guint8 *hwc)
{
  for (guint i = 0; i < TEST_GREY_BYTES; i++)
    grey[i] = i * 5;
  for (guint n = 0; n < 2; n++)
    for (guint c = 0; c < 3; c++)
      for (guint y = 0; y < 3; y++)
        for (guint x = 0; x < 5; x++)
          {
            guint8 v = n * 100 + c * 30 + y * 5 + x;

            chw[((n * 3 + c) * 3 + y) * 5 + x] = v;
            hwc[((n * 3 + y) * 5 + x) * 3 + c] = v;
          }
}
