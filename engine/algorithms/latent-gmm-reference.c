/* latent-gmm-reference.c — the GMM passes in plain C, in double
 *
 * The oracle for the OpenCL path: log-densities through the Cholesky factor
 * (a triangular solve, never an inverse), responsibilities by log-sum-exp.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-gmm"

#include "latent-gmm-private.h"

#include <math.h>

/* log N(x | μ_c, Σ_c) with Σ_c = L Lᵀ: solve L z = x − μ, then
 * −½ (d log 2π + log|Σ| + |z|²). */
static double
log_density (LatentGmm   *self,
             const float *x,
             guint        c,
             double      *z)
{
  const guint d = self->d;
  const double *mean = self->means + (gsize) c * d;
  const double *l = self->chol + (gsize) c * latent_covariance_values (self->covariance, d);
  double q = 0;

  /* Diagonal and spherical factors are the standard deviations. */
  if (self->covariance != LATENT_COVARIANCE_FULL)
    {
      for (guint i = 0; i < d; i++)
        {
          double v = (x[i] - mean[i]) / l[self->covariance == LATENT_COVARIANCE_DIAGONAL ? i : 0];
          q += v * v;
        }
      return -0.5 * (d * log (2 * G_PI) + self->log_det[c] + q);
    }
  for (guint i = 0; i < d; i++)
    {
      double v = x[i] - mean[i];

      for (guint j = 0; j < i; j++)
        v -= l[(gsize) i * d + j] * z[j];
      z[i] = v / l[(gsize) i * d + i];
      q += z[i] * z[i];
    }
  return -0.5 * (d * log (2 * G_PI) + self->log_det[c] + q);
}

/* The expectation over rows FIRST … FIRST + N − 1 (values X): their
 * responsibilities into self->resp, and N_k, S_k and Σ log p(x) added to
 * STATS (latent_gmm_stats_*). */
void
latent_gmm_reference_expect_rows (LatentGmm   *self,
                                  guint        first,
                                  guint        n,
                                  const float *rows,
                                  double      *stats)
{
  const guint d = self->d, k = self->k;
  double *nk = stats + latent_gmm_stats_nk (self);
  double *sx = stats + latent_gmm_stats_sx (self);
  double loglik = stats[latent_gmm_stats_loglik (self)];
  g_autofree double *z = g_new (double, d);
  g_autofree double *lp = g_new (double, k);

  for (guint i = 0; i < n; i++)
    {
      const float *x = rows + (gsize) i * d;
      double *resp = self->resp + (gsize) (first + i) * k;
      double top = -INFINITY, sum = 0, lse;

      for (guint c = 0; c < k; c++)
        {
          lp[c] = log (self->weights[c]) + log_density (self, x, c, z);
          top = MAX (top, lp[c]);
        }
      for (guint c = 0; c < k; c++)
        sum += exp (lp[c] - top);
      lse = top + log (sum);
      loglik += lse;

      for (guint c = 0; c < k; c++)
        {
          double r = exp (lp[c] - lse);

          resp[c] = r;
          nk[c] += r;
          for (guint f = 0; f < d; f++)
            sx[(gsize) c * d + f] += r * x[f];
        }
    }
  stats[latent_gmm_stats_loglik (self)] = loglik;
}

void
latent_gmm_reference_expect (LatentGmm      *self,
                             LatentGmmStats *stats)
{
  const guint d = self->d, k = self->k;
  g_autofree double *flat = g_new0 (double, latent_gmm_n_stats (self));

  latent_gmm_reference_expect_rows (self, 0, self->n, self->x, flat);
  memcpy (stats->nk, flat + latent_gmm_stats_nk (self), sizeof (double) * k);
  memcpy (stats->sx, flat + latent_gmm_stats_sx (self), sizeof (double) * k * d);
  stats->loglik = flat[latent_gmm_stats_loglik (self)];
}

/* The scatter about MEANS of rows FIRST … FIRST + N − 1 (values X), with
 * their responsibilities in self->resp, added to SCATTER (k × values;
 * of a full matrix, the lower triangle only). */
void
latent_gmm_reference_scatter_rows (LatentGmm    *self,
                                   const double *means,
                                   guint         first,
                                   guint         n,
                                   const float  *rows,
                                   double       *scatter)
{
  const guint d = self->d, k = self->k;
  const gsize per = latent_covariance_values (self->covariance, d);
  g_autofree double *diff = g_new (double, d);

  for (guint i = 0; i < n; i++)
    for (guint c = 0; c < k; c++)
      {
        double r = self->resp[(gsize) (first + i) * k + c];
        double *s = scatter + (gsize) c * per;

        for (guint f = 0; f < d; f++)
          diff[f] = rows[(gsize) i * d + f] - means[(gsize) c * d + f];
        for (guint a = 0; a < d; a++)
          {
            if (self->covariance == LATENT_COVARIANCE_DIAGONAL)
              s[a] += r * diff[a] * diff[a];
            else if (self->covariance == LATENT_COVARIANCE_SPHERICAL)
              s[0] += r * diff[a] * diff[a];
            else
              for (guint b = 0; b <= a; b++)
                s[(gsize) a * d + b] += r * diff[a] * diff[b];
          }
      }
}

/* Only the lower triangle of a full scatter was summed: its mirror. */
void
latent_gmm_reference_scatter_mirror (LatentGmm *self,
                                     double    *scatter)
{
  const guint d = self->d;

  if (self->covariance == LATENT_COVARIANCE_FULL)
    for (guint c = 0; c < self->k; c++)
      for (guint a = 0; a < d; a++)
        for (guint b = a + 1; b < d; b++)
          scatter[(gsize) c * d * d + (gsize) a * d + b] = scatter[(gsize) c * d * d + (gsize) b * d + a];
}

void
latent_gmm_reference_scatter (LatentGmm    *self,
                              const double *means,
                              double       *scatter)
{
  memset (scatter, 0, sizeof (double) * self->k * latent_covariance_values (self->covariance, self->d));
  latent_gmm_reference_scatter_rows (self, means, 0, self->n, self->x, scatter);
  latent_gmm_reference_scatter_mirror (self, scatter);
}
