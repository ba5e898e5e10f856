/* latent-test-filters.h — seeded random filters for the convolution tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <math.h>

#include "latent-filter.h"
#include "latent-test-util.h"

/* Weights in (0, 1), normalised, with an offset: a generic full-rank kernel. */
static inline LatentFilter *
random_filter (guint   size,
               guint64 seed)
{
  g_autofree float *w = g_new (float, (gsize) size * size);
  guint64 state = seed * 7919u + size;
  LatentFilter *filter;

  for (guint i = 0; i < size * size; i++)
    w[i] = (float) test_uniform (&state);
  filter = latent_filter_new (size, w, 1.0, 0.125, NULL);
  g_assert_nonnull (filter);
  g_assert_true (latent_filter_normalise (filter, NULL));
  return filter;
}

/* outer (column, row) of positive random factors, normalised: rank 1. */
static inline LatentFilter *
random_separable (guint   size,
                  guint64 seed)
{
  g_autofree float *w = g_new (float, (gsize) size * size);
  float col[LATENT_FILTER_MAX_SIZE], row[LATENT_FILTER_MAX_SIZE];
  guint64 state = seed * 104729u + size;
  LatentFilter *filter;

  for (guint i = 0; i < size; i++)
    {
      col[i] = (float) (0.1 + test_uniform (&state));
      row[i] = (float) (0.1 + test_uniform (&state));
    }
  for (guint j = 0; j < size; j++)
    for (guint i = 0; i < size; i++)
      w[j * size + i] = col[j] * row[i];
  filter = latent_filter_new (size, w, 1.0, -0.0625, NULL);
  g_assert_nonnull (filter);
  g_assert_true (latent_filter_normalise (filter, NULL));
  g_assert_true (latent_filter_is_separable (filter));
  return filter;
}

/* How much a pass of FILTER can scale rounding errors: Σ|w| over the
 * divisor, at least 1, twice for a gradient magnitude (two kernels). */
static inline double
filter_gain (const LatentFilter *filter)
{
  const guint taps = latent_filter_get_size (filter) * latent_filter_get_size (filter);
  const float *w = latent_filter_get_weights (filter);
  double sum = 0;

  for (guint i = 0; i < taps; i++)
    sum += fabs (w[i]);
  if (latent_filter_is_magnitude (filter))
    sum *= 2;
  return MAX (1.0, sum / fabs (latent_filter_get_divisor (filter)));
}
