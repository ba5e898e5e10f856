/* latent-linear-reference.c — the linear models' passes in plain C
 *
 * Double precision throughout: this is the oracle the OpenCL path is
 * tested against, and the fallback when there is no device.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-linear"

#include "latent-linear-private.h"

/* The moments' first pass: the column sums (d statistics). */
static gboolean
sum_columns (G_GNUC_UNUSED gpointer data,
             const LatentChunk     *chunk,
             double                *sums,
             G_GNUC_UNUSED GCancellable *cancellable,
             G_GNUC_UNUSED GError      **error)
{
  const guint d = chunk->d;

  for (guint i = 0; i < chunk->n; i++)
    for (guint a = 0; a < d; a++)
      sums[a] += chunk->values[(gsize) i * d + a];
  return TRUE;
}

/* The second: the scatter about the mean, Σ (x − mean)(x − mean)ᵀ, its
 * upper triangle in d × d statistics. */
static gboolean
sum_scatter (gpointer           data,
             const LatentChunk *chunk,
             double            *scatter,
             G_GNUC_UNUSED GCancellable *cancellable,
             G_GNUC_UNUSED GError      **error)
{
  const double *mean = data;
  const guint d = chunk->d;
  g_autofree double *row = g_new (double, d);

  for (guint i = 0; i < chunk->n; i++)
    {
      for (guint a = 0; a < d; a++)
        row[a] = chunk->values[(gsize) i * d + a] - mean[a];
      for (guint a = 0; a < d; a++)
        {
          double *c = scatter + (gsize) a * d;

          for (guint b = a; b < d; b++)
            c[b] += row[a] * row[b];
        }
    }
  return TRUE;
}

/* Two passes over @rows (latent_algorithm_pass_over, so chunk by chunk):
 * the mean, then the scatter about it, which keeps data far from the
 * origin from cancelling. Both are sums of the rows' own terms added in
 * row order, so every chunk size gives the same bits. */
gboolean
latent_linear_reference_moments_rows (LatentRows    *rows,
                                      double        *mean,
                                      double        *cov,
                                      GCancellable  *cancellable,
                                      GError       **error)
{
  const guint n = latent_rows_get_n_rows (rows), d = latent_rows_get_n_cols (rows);

  if (!latent_algorithm_pass_over (rows, sum_columns, NULL, mean, d, cancellable, error))
    return FALSE;
  for (guint a = 0; a < d; a++)
    mean[a] /= n;
  if (!latent_algorithm_pass_over (rows, sum_scatter, mean, cov, (gsize) d * d, cancellable, error))
    return FALSE;
  for (guint a = 0; a < d; a++)
    for (guint b = a; b < d; b++)
      cov[(gsize) b * d + a] = cov[(gsize) a * d + b] /= n;
  return TRUE;
}

/* The same over the rows of X (n × d) in memory, in one chunk. */
void
latent_linear_reference_moments (const float *x,
                                 guint        n,
                                 guint        d,
                                 double      *mean,
                                 double      *cov)
{
  g_autoptr(LatentDataset) dataset = latent_dataset_new ("moments", n, d, NULL);
  g_autoptr(LatentRows) rows = NULL;

  g_return_if_fail (dataset != NULL);
  memcpy (latent_dataset_get_data (dataset), x, sizeof (float) * n * d);
  rows = latent_rows_new_for_dataset (dataset, n);
  latent_linear_reference_moments_rows (rows, mean, cov, NULL, NULL);
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
