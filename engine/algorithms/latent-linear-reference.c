/* latent-linear-reference.c — the linear models' passes in plain C
 *
 * Double precision throughout: this is the oracle the OpenCL path is
 * tested against, and the fallback when there is no device.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-linear"

#include "latent-linear-private.h"

/* Two passes: the mean, then the scatter about it, which keeps data far from
 * the origin from cancelling. Only the upper triangle is summed. */
void
latent_linear_reference_moments (const float *x,
                                 guint        n,
                                 guint        d,
                                 double      *mean,
                                 double      *cov)
{
  g_autofree double *row = g_new (double, d);

  memset (mean, 0, sizeof (double) * d);
  memset (cov, 0, sizeof (double) * d * d);
  for (guint i = 0; i < n; i++)
    for (guint a = 0; a < d; a++)
      mean[a] += x[(gsize) i * d + a];
  for (guint a = 0; a < d; a++)
    mean[a] /= n;

  for (guint i = 0; i < n; i++)
    {
      for (guint a = 0; a < d; a++)
        row[a] = x[(gsize) i * d + a] - mean[a];
      for (guint a = 0; a < d; a++)
        {
          double *c = cov + (gsize) a * d;

          for (guint b = a; b < d; b++)
            c[b] += row[a] * row[b];
        }
    }
  for (guint a = 0; a < d; a++)
    for (guint b = a; b < d; b++)
      cov[(gsize) b * d + a] = cov[(gsize) a * d + b] /= n;
}

void
latent_linear_reference_cov_times (const double *cov,
                                   guint         d,
                                   const double *v,
                                   guint         m,
                                   double       *out)
{
  memset (out, 0, sizeof (double) * d * m);
  for (guint a = 0; a < d; a++)
    for (guint b = 0; b < d; b++)
      {
        const double s = cov[(gsize) a * d + b];

        for (guint j = 0; j < m; j++)
          out[(gsize) a * m + j] += s * v[(gsize) b * m + j];
      }
}

/* z[i, j] = Σ_a (x[i, a] − mean[a]) · et[a, j] for j < dims; et is d × m. */
void
latent_linear_reference_project (const float  *x,
                                 guint         n,
                                 guint         d,
                                 const double *mean,
                                 const double *et,
                                 guint         m,
                                 guint         dims,
                                 float        *z)
{
  g_autofree double *acc = g_new (double, dims);

  for (guint i = 0; i < n; i++)
    {
      memset (acc, 0, sizeof (double) * dims);
      for (guint a = 0; a < d; a++)
        {
          const double centred = x[(gsize) i * d + a] - mean[a];

          for (guint j = 0; j < dims; j++)
            acc[j] += centred * et[(gsize) a * m + j];
        }
      for (guint j = 0; j < dims; j++)
        z[(gsize) i * dims + j] = acc[j];
    }
}
