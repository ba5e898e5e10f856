/* latent-tsne-reference.c — t-SNE's reference path in double: each row's
 * Gaussian, P made symmetric, the exact repulsion, and a step
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-tsne"

#include "latent-tsne-private.h"
#include "latent-embedding-input.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* The bisection on each row's precision: openTSNE's tolerance on the
 * entropy (nats) is tighter; 1e-5 is scikit-learn's and FIt-SNE's. */
#define ENTROPY_TOLERANCE 1e-5
#define MAX_BISECTIONS 200

void
latent_tsne_reference_calibrate (const float *dist2,
                                 guint        n,
                                 guint        k,
                                 double       perplexity,
                                 float       *p_cond)
{
  const double target = log (perplexity);
  g_autofree double *e = g_new (double, k);

  for (guint i = 0; i < n; i++)
    {
      const float *d = dist2 + (gsize) i * k;
      double beta = 1, lo = -INFINITY, hi = INFINITY, sum = 1;

      /* Distances from the nearest: the normalisation cancels the shift,
       * and the nearest's weight is 1, so the sum never underflows. */
      for (guint step = 0; step < MAX_BISECTIONS; step++)
        {
          double weighted = 0, h;

          sum = 0;
          for (guint q = 0; q < k; q++)
            {
              e[q] = exp (-beta * ((double) d[q] - d[0]));
              sum += e[q];
              weighted += e[q] * ((double) d[q] - d[0]);
            }
          h = log (sum) + beta * weighted / sum;
          if (fabs (h - target) < ENTROPY_TOLERANCE)
            break;
          if (h > target)
            {
              lo = beta;
              beta = isinf (hi) ? beta * 2 : (beta + hi) / 2;
            }
          else
            {
              hi = beta;
              beta = isinf (lo) ? beta / 2 : (beta + lo) / 2;
            }
        }
      for (guint q = 0; q < k; q++)
        p_cond[(gsize) i * k + q] = e[q] / sum;
    }
}

gboolean
latent_tsne_symmetrise (const gint32         *index,
                        const float          *p_cond,
                        guint                 n,
                        guint                 k,
                        LatentTsneAffinities *aff,
                        GError              **error)
{
  g_autofree guint64 *start = NULL;
  g_autofree LatentEmbeddingEntry *entries = NULL;
  guint64 kept = 0;

  if (!latent_embedding_both_ways (index, p_cond, n, k, &start, &entries, error))
    return FALSE;
  latent_tsne_affinities_clear (aff);
  aff->n = n;
  aff->row_start = g_new (guint64, (gsize) n + 1);
  aff->cols = g_new (gint32, start[n]);
  aff->p = g_new (float, start[n]);
  aff->p_log_p = 0;
  for (guint i = 0; i < n; i++)
    {
      aff->row_start[i] = kept;
      for (guint64 e = start[i]; e < start[i + 1]; e++)
        {
          double p = entries[e].value;

          /* Where j and i are each other's neighbours, both halves meet. */
          if (e + 1 < start[i + 1] && entries[e + 1].col == entries[e].col)
            p += entries[++e].value;
          p /= 2.0 * n;
          aff->cols[kept] = entries[e].col;
          aff->p[kept] = p;
          if (p > 0)
            aff->p_log_p += p * log (p);
          kept++;
        }
    }
  aff->row_start[n] = kept;
  aff->n_entries = kept;
  return TRUE;
}

void
latent_tsne_affinities_clear (LatentTsneAffinities *aff)
{
  g_clear_pointer (&aff->row_start, g_free);
  g_clear_pointer (&aff->cols, g_free);
  g_clear_pointer (&aff->p, g_free);
  aff->n = 0;
  aff->n_entries = 0;
}

double
latent_tsne_exact_repulsion (const double *y,
                             guint         n,
                             double       *rep)
{
  double z = 0;

  for (guint i = 0; i < n; i++)
    {
      double r0 = 0, r1 = 0;

      for (guint j = 0; j < n; j++)
        {
          double d0 = y[2 * i] - y[2 * j], d1 = y[2 * i + 1] - y[2 * j + 1];
          double w = 1 / (1 + d0 * d0 + d1 * d1);

          if (j == i)
            continue;
          z += w;
          r0 += w * w * d0;
          r1 += w * w * d1;
        }
      rep[2 * i] = r0;
      rep[2 * i + 1] = r1;
    }
  return z;
}

static inline int
sign (double v)
{
  return (v > 0) - (v < 0);
}

gboolean
latent_tsne_reference_step (LatentTsne  *self,
                            GError     **error)
{
  const guint n = self->n;
  const LatentTsneAffinities *aff = &self->aff;
  const double alpha = latent_tsne_exaggeration_at (self, self->iteration);
  const double lr = latent_tsne_learning_rate_at (self, self->iteration);
  double *y = self->y;
  double mean[2] = { 0, 0 }, log_w = 0;

  for (guint i = 0; i < n; i++)
    {
      mean[0] += y[2 * i];
      mean[1] += y[2 * i + 1];
    }
  for (guint i = 0; i < n; i++)
    {
      y[2 * i] -= mean[0] / n;
      y[2 * i + 1] -= mean[1] / n;
    }
  if (self->fft == NULL)
    self->z = latent_tsne_exact_repulsion (y, n, self->rep);
  else if (!latent_tsne_fft_repulsion (self->fft, y, n, self->rep, &self->z, error))
    return FALSE;

  for (guint i = 0; i < n; i++)
    {
      double a[2] = { 0, 0 };

      for (guint64 e = aff->row_start[i]; e < aff->row_start[i + 1]; e++)
        {
          const gint32 j = aff->cols[e];
          double d0 = y[2 * i] - y[2 * j], d1 = y[2 * i + 1] - y[2 * j + 1];
          double w = 1 / (1 + d0 * d0 + d1 * d1), p = aff->p[e];

          a[0] += p * w * d0;
          a[1] += p * w * d1;
          log_w += p * log (w);
        }
      for (guint c = 0; c < 2; c++)
        {
          const gsize at = 2 * (gsize) i + c;
          double g = alpha * a[c] - self->rep[at] / self->z;

          if (sign (self->update[at]) != sign (g))
            self->gains[at] += 0.2;
          else
            self->gains[at] = self->gains[at] * 0.8 + LATENT_TSNE_MIN_GAIN;
          self->update[at] = LATENT_TSNE_MOMENTUM * self->update[at] - lr * self->gains[at] * g;
        }
    }
  self->kl = aff->p_log_p - log_w + log (self->z);

  for (guint i = 0; i < n; i++)
    {
      double *u = self->update + 2 * (gsize) i;
      double norm = hypot (u[0], u[1]);

      if (norm > LATENT_TSNE_MAX_STEP)
        {
          u[0] *= LATENT_TSNE_MAX_STEP / norm;
          u[1] *= LATENT_TSNE_MAX_STEP / norm;
        }
      y[2 * i] += u[0];
      y[2 * i + 1] += u[1];
    }
  return TRUE;
}
