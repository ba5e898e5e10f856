/* latent-kmeans-reference.c — the k-means assignment pass in plain C
 *
 * The oracle for the OpenCL path and the fallback when there is no device:
 * straightforward loops, squared distances by differences, in double.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-kmeans"

#include "latent-kmeans-private.h"

void
latent_kmeans_reference_assign (LatentKmeans        *self,
                                LatentKmeansPass    *pass,
                                LatentKmeansPassKind kind)
{
  const guint n = self->n, d = self->d, k = self->k;
  const gboolean accumulate = kind != LATENT_KMEANS_LABELS;

  pass->inertia = 0;
  pass->full = TRUE;
  pass->dist_exact = TRUE;
  pass->visited = (guint64) n * k;
  if (accumulate)
    {
      memset (pass->sums, 0, sizeof (double) * k * d);
      memset (pass->counts, 0, sizeof (guint) * k);
    }

  for (guint i = 0; i < n; i++)
    {
      const float *row = self->x + (gsize) i * d;
      double best = G_MAXDOUBLE;
      guint label = 0;

      for (guint c = 0; c < k; c++)
        {
          const double *center = self->centers + (gsize) c * d;
          double dist = 0;

          for (guint f = 0; f < d; f++)
            dist += (row[f] - center[f]) * (row[f] - center[f]);
          /* Strictly smaller: ties go to the lowest index, as on the device. */
          if (dist < best)
            {
              best = dist;
              label = c;
            }
        }

      self->labels[i] = label;
      self->dist[i] = best;
      pass->inertia += best;
      if (accumulate)
        {
          for (guint f = 0; f < d; f++)
            pass->sums[(gsize) label * d + f] += row[f];
          pass->counts[label]++;
        }
    }
}
