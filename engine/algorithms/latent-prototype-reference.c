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

/* Rows a streamed dataset's reads keep before they are let go. */
#define RELEASE_ROWS 4096

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
      /* A streamed dataset's rows read so far go now and then. */
      if (i % RELEASE_ROWS == RELEASE_ROWS - 1)
        latent_dataset_release_rows (dataset, 0, latent_dataset_get_n_rows (dataset));
    }
  latent_dataset_release_rows (dataset, 0, latent_dataset_get_n_rows (dataset));
  for (guint c = 0; c < n_slots; c++)
    for (guint f = 0; f < d; f++)
      means[(gsize) c * d + f] = counts[c] ? (float) (sums[(gsize) c * d + f] / counts[c]) : 0.0f;
}

typedef struct {
  const gint32 *slot_of_row;   /* per row of the source, −1 for rows left out */
  guint         n_slots;
} ClassSums;

/* Adds a chunk's rows to their slots' sums (n_slots × d) and counts
 * (n_slots), the statistics of the class means' pass. */
static gboolean
add_class_sums (gpointer           data,
                const LatentChunk *chunk,
                double            *stats,
                G_GNUC_UNUSED GCancellable *cancellable,
                G_GNUC_UNUSED GError      **error)
{
  const ClassSums *c = data;
  const guint d = chunk->d;
  double *counts = stats + (gsize) c->n_slots * d;

  for (guint i = 0; i < chunk->n; i++)
    {
      const gint32 slot = c->slot_of_row[chunk->first + i];
      const float *x = chunk->values + (gsize) i * d;
      double *sum = stats + (gsize) slot * d;

      if (slot < 0)
        continue;
      for (guint f = 0; f < d; f++)
        sum[f] += x[f];
      counts[slot]++;
    }
  return TRUE;
}

/* The class means as one pass over @rows (latent_algorithm_pass_over):
 * row r of the source goes to slot @slot_of_row[r], or nowhere for −1. The
 * rows are added in the order latent_prototype_reference_means adds an
 * ascending list of them, so the means are the same bits. */
gboolean
latent_prototype_reference_means_rows (LatentRows    *rows,
                                       const gint32  *slot_of_row,
                                       guint          n_slots,
                                       float         *means,
                                       GCancellable  *cancellable,
                                       GError       **error)
{
  const guint d = latent_rows_get_n_cols (rows);
  const gsize n_stats = (gsize) n_slots * d + n_slots;
  ClassSums c = { slot_of_row, n_slots };
  g_autofree double *stats = g_new (double, n_stats);
  const double *counts;

  if (!latent_algorithm_pass_over (rows, add_class_sums, &c, stats, n_stats, cancellable, error))
    return FALSE;
  counts = stats + (gsize) n_slots * d;
  for (guint s = 0; s < n_slots; s++)
    for (guint f = 0; f < d; f++)
      means[(gsize) s * d + f] = counts[s] ? (float) (stats[(gsize) s * d + f] / counts[s]) : 0.0f;
  return TRUE;
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
      if (i % RELEASE_ROWS == RELEASE_ROWS - 1)
        latent_dataset_release_rows (dataset, 0, latent_dataset_get_n_rows (dataset));
    }
  latent_dataset_release_rows (dataset, 0, latent_dataset_get_n_rows (dataset));
}
