/* latent-prototype-reference.c — class means and nearest prototypes in
 * plain C
 *
 * The test oracle and the fall-back: sums and scores in double, from the
 * float rows and the float prototypes both paths share.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-prototype"

#include "latent-prototype-private.h"

#include <math.h>

void
latent_prototype_reference_means (LatentDataset *dataset,
                                  const gint32  *rows,
                                  const gint32  *slots,
                                  guint          n,
                                  guint          n_slots,
                                  float         *means)
{
  const guint d = latent_dataset_get_n_cols (dataset);
  g_autofree double *sums = g_new0 (double, (gsize) n_slots * d);
  g_autofree guint *counts = g_new0 (guint, n_slots);

  for (guint i = 0; i < n; i++)
    {
      const float *x = latent_dataset_get_row (dataset, rows[i]);
      double *sum = sums + (gsize) slots[i] * d;

      for (guint f = 0; f < d; f++)
        sum[f] += x[f];
      counts[slots[i]]++;
    }
  for (guint c = 0; c < n_slots; c++)
    for (guint f = 0; f < d; f++)
      means[(gsize) c * d + f] = counts[c] ? (float) (sums[(gsize) c * d + f] / counts[c]) : 0.0f;
}

void
latent_prototype_reference_classify (LatentDataset           *dataset,
                                     const gint32            *rows,
                                     guint                    n,
                                     const float             *prototypes,
                                     guint                    n_slots,
                                     LatentPrototypeDistance  distance,
                                     gint32                  *slot_of_row)
{
  const guint d = latent_dataset_get_n_cols (dataset);
  g_autofree double *scores = g_new (double, n_slots);

  for (guint i = 0; i < n; i++)
    {
      latent_prototype_scores (latent_dataset_get_row (dataset, rows[i]), d, prototypes, n_slots,
                               distance, scores);
      slot_of_row[i] = latent_prototype_best (scores, n_slots);
    }
}
