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

void
latent_gmm_reference_expect (LatentGmm      *self,
                             LatentGmmStats *stats)
{
  const guint n = self->n, d = self->d, k = self->k;
  g_autofree double *z = g_new (double, d);
  g_autofree double *lp = g_new (double, k);

  memset (stats->nk, 0, sizeof (double) * k);
  memset (stats->sx, 0, sizeof (double) * k * d);
  stats->loglik = 0;

  for (guint i = 0; i < n; i++)
    {
      const float *x = self->x + (gsize) i * d;
      double top = -INFINITY, sum = 0, lse;

      for (guint c = 0; c < k; c++)
        {
          lp[c] = log (self->weights[c]) + log_density (self, x, c, z);
          top = MAX (top, lp[c]);
        }
      for (guint c = 0; c < k; c++)
        sum += exp (lp[c] - top);
      lse = top + log (sum);
      stats->loglik += lse;

      for (guint c = 0; c < k; c++)
        {
          double r = exp (lp[c] - lse);

          self->resp[(gsize) i * k + c] = r;
          stats->nk[c] += r;
          for (guint f = 0; f < d; f++)
            stats->sx[(gsize) c * d + f] += r * x[f];
        }
    }
}

void
latent_gmm_reference_scatter (LatentGmm    *self,
                              const double *means,
                              double       *scatter)
{
  const guint n = self->n, d = self->d, k = self->k;
  const gsize per = latent_covariance_values (self->covariance, d);
  g_autofree double *diff = g_new (double, d);

  memset (scatter, 0, sizeof (double) * k * per);
  for (guint i = 0; i < n; i++)
    for (guint c = 0; c < k; c++)
      {
        double r = self->resp[(gsize) i * k + c];
        double *s = scatter + (gsize) c * per;

        for (guint f = 0; f < d; f++)
          diff[f] = self->x[(gsize) i * d + f] - means[(gsize) c * d + f];
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

  /* Only the lower triangle was summed. */
  if (self->covariance == LATENT_COVARIANCE_FULL)
    for (guint c = 0; c < k; c++)
      for (guint a = 0; a < d; a++)
        for (guint b = a + 1; b < d; b++)
          scatter[(gsize) c * d * d + (gsize) a * d + b] = scatter[(gsize) c * d * d + (gsize) b * d + a];
}
