/* latent-kmeans-reference.c — the k-means assignment pass in plain C
 *
 * The oracle for the OpenCL path and the fallback when there is no device:
 * straightforward loops, squared distances by differences, in double.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-kmeans"

#include "latent-kmeans-private.h"

/* Rows FIRST … FIRST + N − 1 (values X) to their nearest centers: their
 * labels and distances into self->labels and self->dist, their squared
 * distances into STATS' inertia, and with ACCUMULATE their sums and counts
 * into STATS' (latent_kmeans_stats_*), added to what is there. */
void
latent_kmeans_reference_accumulate (LatentKmeans *self,
                                    guint         first,
                                    guint         n,
                                    const float  *x,
                                    double       *stats,
                                    gboolean      accumulate)
{
  const guint d = self->d, k = self->k;
  double *sums = stats + latent_kmeans_stats_sums (self);
  double *counts = stats + latent_kmeans_stats_counts (self);
  double inertia = stats[latent_kmeans_stats_inertia (self)];

  for (guint i = 0; i < n; i++)
    {
      const float *row = x + (gsize) i * d;
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

      self->labels[first + i] = label;
      self->dist[first + i] = best;
      inertia += best;
      if (accumulate)
        {
          for (guint f = 0; f < d; f++)
            sums[(gsize) label * d + f] += row[f];
          counts[label]++;
        }
    }
  stats[latent_kmeans_stats_inertia (self)] = inertia;
}

/* The statistics of a pass, as latent_kmeans_reference_accumulate left
 * them, into PASS (the sums and counts only with ACCUMULATE). */
void
latent_kmeans_pass_from_stats (LatentKmeans     *self,
                               LatentKmeansPass *pass,
                               const double     *stats,
                               gboolean          accumulate)
{
  pass->inertia = stats[latent_kmeans_stats_inertia (self)];
  pass->full = TRUE;
  pass->dist_exact = TRUE;
  pass->visited = (guint64) self->n * self->k;
  if (accumulate)
    {
      const double *counts = stats + latent_kmeans_stats_counts (self);

      memcpy (pass->sums, stats + latent_kmeans_stats_sums (self), sizeof (double) * self->k * self->d);
      for (guint c = 0; c < self->k; c++)
        pass->counts[c] = counts[c];
    }
}

/* A pass over every row of the dataset in memory, as one chunk: what the
 * initialisation and a fall back from the device take. */
void
latent_kmeans_reference_assign (LatentKmeans        *self,
                                LatentKmeansPass    *pass,
                                LatentKmeansPassKind kind)
{
  const gboolean accumulate = kind != LATENT_KMEANS_LABELS;
  g_autofree double *stats = g_new0 (double, latent_kmeans_n_stats (self));

  latent_kmeans_reference_accumulate (self, 0, self->n, self->x, stats, accumulate);
  latent_kmeans_pass_from_stats (self, pass, stats, accumulate);
}
