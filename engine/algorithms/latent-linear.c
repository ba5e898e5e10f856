/* latent-linear.c — what PCA, probabilistic PCA and factor analysis share:
 * checking parameters, the moments, the path switch, and snapshots
 *
 * A snapshot describes every model the same way: an encoder E (m × d) gives
 * a row's latent coordinates z = E (x − mean), a decoder D (d × m) maps them
 * back, x̂ = mean + D z. With S the covariance, everything the views show
 * follows from S and these two without another pass over the rows, except
 * the projections themselves.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-linear"

#include "latent-linear-private.h"
#include "latent-linear.h"

#include <cblas.h>
#include <glib/gi18n-lib.h>
#include <lapacke.h>
#include <math.h>

#include "latent-json.h"

/* Stored untranslated: it goes into result JSON; displays translate it. */
#define CPU_REFERENCE N_("CPU reference")

/* Projections of every component are kept up to this many values; beyond,
 * and in snapshots taken while running, the first two. */
#define MAX_SNAPSHOT_PROJECTION (4u << 20)
#define N_EXAMPLES 8

void
latent_linear_free (gpointer data)
{
  LatentLinear *self = data;

  if (self == NULL)
    return;
  g_clear_pointer (&self->cl, latent_linear_cl_free);
  g_clear_object (&self->runtime);
  g_clear_object (&self->dataset);
  g_clear_pointer (&self->params, latent_params_unref);
  g_free (self->mean);
  g_free (self->cov);
  g_free (self->w);
  g_free (self->psi);
  g_free (self->eigenvalues);
  g_free (self->sw);
  g_free (self->basis);
  g_free (self->a);
  g_free (self->sa);
  g_free (self->device);
  g_free (self->fallback);
  if (self->message)
    g_string_free (self->message, TRUE);
  g_free (self);
}

static void
fall_back (LatentLinear *self,
           const GError *error)
{
  /* The darktable policy: carry on with the reference path, and say so. */
  g_free (self->fallback);
  self->fallback = latent_cl_fall_back (self->runtime, self->algorithm->id, error);
  g_clear_pointer (&self->cl, latent_linear_cl_free);
  g_clear_object (&self->runtime);
  g_free (self->device);
  self->device = g_strdup (CPU_REFERENCE);
}

void
latent_linear_params_read (LatentParams       *params,
                           LatentLinearParams *out)
{
  /* What PPCA's and FA's tables lack stays 0, NULL, FALSE. */
  *out = (LatentLinearParams) { 0 };
  latent_params_read (params, out);
}

static const char *
model_name (LatentLinearModel model)
{
  switch (model)
    {
    case LATENT_LINEAR_PCA:
      return _("PCA");
    case LATENT_LINEAR_PPCA:
      return _("Probabilistic PCA");
    case LATENT_LINEAR_SPCA:
      return _("Sparse PCA");
    case LATENT_LINEAR_FA:
    default:
      return _("Factor analysis");
    }
}

/* PCA and sparse PCA keep no noise apart: as many components as columns. */
static gboolean
may_span_all (LatentLinearModel model)
{
  return model == LATENT_LINEAR_PCA || model == LATENT_LINEAR_SPCA;
}

gboolean
latent_linear_check (LatentLinearModel   model,
                     LatentDataset      *dataset,
                     LatentParams       *params,
                     GError            **error)
{
  const guint n = latent_dataset_get_n_rows (dataset), d = latent_dataset_get_n_cols (dataset);
  const char *name = latent_dataset_get_name (dataset);
  LatentLinearParams p;
  guint m;

  latent_linear_params_read (params, &p);
  m = p.components;
  if (n < 2)
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("%s needs at least 2 rows; “%s” has %u"), model_name (model), name, n);
      return FALSE;
    }
  if (d > LATENT_LINEAR_MAX_COLS)
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("%s works on the %u × %u covariance of “%s”: above the limit of %u columns"),
                   model_name (model), d, d, name, LATENT_LINEAR_MAX_COLS);
      return FALSE;
    }
  if (may_span_all (model) && m > d)
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("components = %u is more than the %u columns of “%s”"), m, d, name);
      return FALSE;
    }
  if (!may_span_all (model) && m >= d)
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   g_dngettext (GETTEXT_PACKAGE,
                                "components = %u: %s needs fewer components than the %u column of “%s”, "
                                "or no variance is left for the noise",
                                "components = %u: %s needs fewer components than the %u columns of “%s”, "
                                "or no variance is left for the noise", d),
                   m, model_name (model), d, name);
      return FALSE;
    }
  return TRUE;
}

gint64
latent_linear_max_int (LatentLinearModel      model,
                       LatentDataset         *dataset,
                       const LatentParamSpec *spec)
{
  const guint n = latent_dataset_get_n_rows (dataset), d = latent_dataset_get_n_cols (dataset);

  /* Refused whatever the components: no bound to give. */
  if (!g_str_equal (spec->name, "components") || n < 2 || d > LATENT_LINEAR_MAX_COLS)
    return G_MAXINT64;
  /* As latent_linear_check: up to the columns, fewer for a noise model. */
  return may_span_all (model) ? (gint64) d : (gint64) d - 1;
}

/* A streamed dataset's moments on the device, a chunk at a time: each
 * chunk's mean and covariance there, merged here in double (Chan, Golub
 * and LeVeque), in one read of the file. */
static gboolean
streamed_moments (LatentLinear  *self,
                  LatentRows    *rows,
                  LatentCl      *cl,
                  GError       **error)
{
  const guint d = self->d;
  g_autofree double *chunk_mean = g_new (double, d), *chunk_cov = g_new (double, (gsize) d * d);
  double seen = 0;

  memset (self->mean, 0, d * sizeof (double));
  memset (self->cov, 0, (gsize) d * d * sizeof (double));
  for (guint c = 0; c < latent_rows_get_n_chunks (rows); c++)
    {
      g_autoptr(LatentLinearCl) lcl = NULL;
      LatentChunk chunk;
      double after, weight;

      if (!latent_rows_get_chunk (rows, c, &chunk, error) ||
          !(lcl = latent_linear_cl_new (cl, chunk.values, chunk.n, d, error)) ||
          !latent_linear_cl_moments (lcl, chunk_mean, chunk_cov, NULL, error))
        return FALSE;
      after = seen + chunk.n;
      weight = seen * chunk.n / after;
      /* Σ (x − mean)(x − mean)ᵀ so far, in cov until the end. */
      for (guint a = 0; a < d; a++)
        chunk_mean[a] -= self->mean[a];
      for (guint a = 0; a < d; a++)
        for (guint b = 0; b < d; b++)
          self->cov[(gsize) a * d + b] += chunk.n * chunk_cov[(gsize) a * d + b] +
                                          weight * chunk_mean[a] * chunk_mean[b];
      for (guint a = 0; a < d; a++)
        self->mean[a] += chunk_mean[a] * chunk.n / after;
      seen = after;
    }
  for (gsize i = 0; i < (gsize) d * d; i++)
    self->cov[i] /= seen;
  return TRUE;
}

/* A streamed dataset's rows on @dims components (et's first, d × m), a
 * chunk at a time in floats: what a figure draws. */
static gboolean
project_streamed (LatentLinear  *self,
                  const double  *et,
                  guint          m,
                  guint          dims,
                  float         *z,
                  GError       **error)
{
  const guint d = self->d;
  g_autoptr(LatentRows) rows = latent_rows_new_for_dataset (self->dataset, 0);
  g_autofree float *basis = g_new (float, (gsize) d * dims);
  g_autofree double *offset = g_new0 (double, dims);

  for (guint a = 0; a < d; a++)
    for (guint j = 0; j < dims; j++)
      {
        basis[(gsize) a * dims + j] = et[(gsize) a * m + j];
        offset[j] += self->mean[a] * et[(gsize) a * m + j];
      }
  for (guint c = 0; c < latent_rows_get_n_chunks (rows); c++)
    {
      LatentChunk chunk;
      float *out;

      if (!latent_rows_get_chunk (rows, c, &chunk, error))
        return FALSE;
      out = z + (gsize) chunk.first * dims;
      cblas_sgemm (CblasRowMajor, CblasNoTrans, CblasNoTrans, chunk.n, dims, d, 1.0f, chunk.values, d,
                   basis, dims, 0.0f, out, dims);
      for (gsize i = 0; i < (gsize) chunk.n * dims; i++)
        out[i] -= offset[i % dims];
    }
  return TRUE;
}

LatentLinear *
latent_linear_new (LatentLinearModel      model,
                   const LatentAlgorithm *algorithm,
                   LatentDataset      *dataset,
                   LatentParams       *params,
                   guint64             seed,
                   LatentCl           *cl,
                   GError            **error)
{
  g_autoptr(LatentLinear) self = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(LatentRows) rows = NULL;
  LatentLinearParams p;
  gboolean have_moments = FALSE;
  guint n, d, m;

  g_return_val_if_fail (LATENT_IS_DATASET (dataset), NULL);
  g_return_val_if_fail (params != NULL, NULL);

  if (!latent_linear_check (model, dataset, params, error))
    return NULL;
  latent_linear_params_read (params, &p);
  m = p.components;

  self = g_new0 (LatentLinear, 1);
  self->model = model;
  self->algorithm = algorithm;
  self->dataset = g_object_ref (dataset);
  self->params = latent_params_ref (params);
  self->seed = seed;
  self->x = latent_dataset_get_data (dataset);
  self->n = n = latent_dataset_get_n_rows (dataset);
  self->d = d = latent_dataset_get_n_cols (dataset);
  self->m = m;
  self->tol = p.tol;
  self->max_iterations = p.max_iterations;
  self->message = g_string_new (NULL);
  self->log_likelihood = NAN;
  self->objective = NAN;
  self->change = INFINITY;
  self->mean = g_new (double, d);
  self->cov = g_new (double, (gsize) d * d);
  self->w = g_new0 (double, (gsize) d * m);
  self->sw = g_new0 (double, (gsize) d * m);
  self->psi = g_new0 (double, d);
  self->eigenvalues = g_new0 (double, m);

  /* The moments are a pass over the rows, in the chunks the source gives.
   * The device takes them from its own copy of every row, which only one
   * chunk of them all matches; in chunks, the run stays on the host. */
  rows = latent_algorithm_new_rows (dataset);
  if (cl && latent_dataset_is_streamed (dataset) && !latent_rows_is_shared (rows))
    {
      if ((have_moments = streamed_moments (self, rows, cl, &local_error)))
        self->device = latent_cl_describe (cl);
      else if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
               g_error_matches (local_error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_NOT_FINITE))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }
      else
        {
          self->fallback = latent_cl_fall_back (cl, algorithm->id, local_error);
          self->device = g_strdup (CPU_REFERENCE);
        }
    }
  else if (cl && latent_rows_is_whole (rows, dataset))
    {
      self->runtime = g_object_ref (cl);
      self->device = latent_cl_describe (cl);
      self->cl = latent_linear_cl_new (cl, self->x, n, d, &local_error);
      if (self->cl && !latent_linear_cl_moments (self->cl, self->mean, self->cov, NULL, &local_error))
        g_clear_pointer (&self->cl, latent_linear_cl_free);
      /* A run stopped while its programs were building: the moments on the
       * CPU, over every row and with no cancellable, would hold it longer. */
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }
      if (local_error)
        fall_back (self, local_error);
    }
  else
    self->device = g_strdup (CPU_REFERENCE);
  if (self->cl == NULL && !have_moments &&
      !latent_linear_reference_moments_rows (rows, self->mean, self->cov, NULL, error))
    return NULL;

  self->total_variance = 0;
  for (guint a = 0; a < d; a++)
    self->total_variance += self->cov[(gsize) a * d + a];
  if (!isfinite (self->total_variance))
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_NUMERIC,
                   _("“%s” holds values too large or not finite: its variance overflows"),
                   latent_dataset_get_name (dataset));
      return NULL;
    }
  if (!(self->total_variance > 0))
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_DATA,
                   _("Every row of “%s” is the same: there is no variance to explain"),
                   latent_dataset_get_name (dataset));
      return NULL;
    }
  return g_steal_pointer (&self);
}

gboolean
latent_linear_cov_times (LatentLinear  *self,
                         const double  *v,
                         double        *out,
                         GCancellable  *cancellable,
                         GError       **error)
{
  g_autoptr(GError) local_error = NULL;

  if (self->cl && latent_linear_cl_cov_times (self->cl, v, self->m, out, cancellable, &local_error))
    return TRUE;
  if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (local_error)
    fall_back (self, local_error);
  latent_linear_reference_cov_times (self->cov, self->d, v, self->m, out);
  return TRUE;
}

void
latent_linear_cov_times_double (LatentLinear *self,
                                const double *v,
                                guint         cols,
                                double       *out)
{
  if (self->cl)
    cblas_dsymm (CblasRowMajor, CblasLeft, CblasUpper, self->d, cols, 1.0, self->cov, self->d, v, cols,
                 0.0, out, cols);
  else
    latent_linear_reference_cov_times (self->cov, self->d, v, cols, out);
}

/* QR by Householder reflections (LAPACKE), keeping each column's direction:
 * subspace iteration relies on column j staying near where it was. */
gboolean
latent_linear_orthonormalise (double *v,
                              guint   rows,
                              guint   cols)
{
  g_autofree double *tau = g_new (double, cols);
  g_autofree double *r = g_new (double, cols);

  if (LAPACKE_dgeqrf (LAPACK_ROW_MAJOR, rows, cols, v, cols, tau) != 0)
    return FALSE;
  for (guint j = 0; j < cols; j++)
    r[j] = v[(gsize) j * cols + j];
  if (LAPACKE_dorgqr (LAPACK_ROW_MAJOR, rows, cols, cols, v, cols, tau) != 0)
    return FALSE;
  for (guint j = 0; j < cols; j++)
    if (r[j] < 0)
      for (guint a = 0; a < rows; a++)
        v[(gsize) a * cols + j] = -v[(gsize) a * cols + j];
  return TRUE;
}

gboolean
latent_linear_rayleigh_ritz (double   *v,
                             double   *y,
                             guint     rows,
                             guint     cols,
                             gboolean  rotate_y,
                             double   *theta)
{
  g_autofree double *h = g_new (double, (gsize) cols * cols);
  g_autofree double *q = g_new (double, (gsize) cols * cols);
  g_autofree double *values = g_new (double, cols);
  g_autofree double *rotated = g_new (double, (gsize) rows * cols);

  cblas_dgemm (CblasRowMajor, CblasTrans, CblasNoTrans, cols, cols, rows, 1.0, v, cols, y, cols, 0.0, h, cols);
  if (LAPACKE_dsyev (LAPACK_ROW_MAJOR, 'V', 'U', cols, h, cols, values) != 0)
    return FALSE;
  /* dsyev sorts ascending: column j of Q is eigenvector cols − 1 − j. */
  for (guint j = 0; j < cols; j++)
    {
      theta[j] = values[cols - 1 - j];
      for (guint i = 0; i < cols; i++)
        q[(gsize) i * cols + j] = h[(gsize) i * cols + cols - 1 - j];
    }
  cblas_dgemm (CblasRowMajor, CblasNoTrans, CblasNoTrans, rows, cols, cols, 1.0, v, cols, q, cols, 0.0, rotated, cols);
  memcpy (v, rotated, sizeof (double) * rows * cols);
  if (rotate_y)
    {
      cblas_dgemm (CblasRowMajor, CblasNoTrans, CblasNoTrans, rows, cols, cols, 1.0, y, cols, q, cols, 0.0,
                   rotated, cols);
      memcpy (y, rotated, sizeof (double) * rows * cols);
    }
  return TRUE;
}

/* Solves A X = B for symmetric positive definite A (n × n, overwritten by
 * its Cholesky factor); B (n × nrhs) becomes X. */
gboolean
latent_linear_solve_spd (double *a,
                         guint   n,
                         double *b,
                         guint   nrhs,
                         double *log_det)
{
  if (LAPACKE_dposv (LAPACK_ROW_MAJOR, 'L', n, nrhs, a, n, b, nrhs) != 0)
    return FALSE;
  if (log_det)
    {
      *log_det = 0;
      for (guint i = 0; i < n; i++)
        *log_det += 2 * log (a[(gsize) i * n + i]);
    }
  return TRUE;
}

/* A standard normal draw (Box–Muller). */
static double
gaussian (GRand *rand)
{
  double u = g_rand_double_range (rand, DBL_MIN, 1), t = g_rand_double (rand);

  return sqrt (-2 * log (u)) * cos (2 * G_PI * t);
}

void
latent_linear_random_basis (LatentLinear *self,
                            double       *out,
                            guint         cols,
                            double        scale)
{
  const guint32 words[2] = { self->seed & 0xffffffffu, self->seed >> 32 };
  g_autoptr(GRand) rand = g_rand_new_with_seed_array (words, 2);
  const gsize size = (gsize) self->d * cols;

  /* Gaussian entries give a uniformly random subspace. */
  for (gsize i = 0; i < size; i++)
    out[i] = gaussian (rand);
  latent_linear_orthonormalise (out, self->d, cols);
  for (gsize i = 0; i < size; i++)
    out[i] *= scale;
}

void
latent_linear_random_w (LatentLinear *self,
                        double        scale)
{
  latent_linear_random_basis (self, self->w, self->m, scale);
}

void
latent_linear_end_em_step (LatentLinear *self)
{
  self->iteration++;
  self->converged = fabs (self->change) < self->tol;
  self->finished = self->converged || self->iteration >= self->max_iterations;
}

double
latent_linear_objective (gpointer data)
{
  LatentLinear *self = data;

  return self->objective;
}

gboolean
latent_linear_converged (gpointer data)
{
  return ((LatentLinear *) data)->finished;
}

/* ---- snapshots ---------------------------------------------------------- */

/* c (rows × cols) = a (rows × inner) · b (inner × cols), or aᵀ · b. */
static void
product (gboolean      trans_a,
         guint         rows,
         guint         cols,
         guint         inner,
         const double *a,
         const double *b,
         double       *c)
{
  cblas_dgemm (CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans, CblasNoTrans, rows, cols, inner,
               1.0, a, trans_a ? rows : inner, b, cols, 0.0, c, cols);
}

void
latent_linear_inner (LatentLinear *self,
                     const double *a,
                     const double *b,
                     double        diagonal,
                     double       *out)
{
  product (TRUE, self->m, self->m, self->d, a, b, out);
  for (guint j = 0; j < self->m; j++)
    out[(gsize) j * self->m + j] += diagonal;
}

double
latent_linear_unbiased (LatentLinear *self)
{
  return self->model == LATENT_LINEAR_PCA ? (double) self->n / (self->n - 1) : 1.0;
}

/* The encoder as Eᵀ (d × m) and the decoder D (d × m) of the current model. */
static gboolean
coders (LatentLinear *self,
        double       *et,
        double       *dec)
{
  const guint d = self->d, m = self->m;
  g_autofree double *mm = g_new (double, (gsize) m * m);
  g_autofree double *rhs = NULL;

  switch (self->model)
    {
    case LATENT_LINEAR_PCA:
      {
        LatentLinearParams p;

        latent_linear_params_read (self->params, &p);
        for (guint a = 0; a < d; a++)
          for (guint j = 0; j < m; j++)
            {
              const double w = self->w[(gsize) a * m + j];
              const double s = p.whiten ? sqrt (self->eigenvalues[j] * latent_linear_unbiased (self)) : 1;

              et[(gsize) a * m + j] = s > 0 ? w / s : 0;
              dec[(gsize) a * m + j] = w * s;
            }
        return TRUE;
      }

    case LATENT_LINEAR_PPCA:
      {
        /* E = M⁻¹ Wᵀ with M = WᵀW + σ²; D = W (WᵀW)⁻¹ M, so that D E is
         * the orthogonal projection onto the span of W (Tipping & Bishop). */
        const double sigma2 = self->psi[0];
        g_autofree double *wtw = g_new (double, (gsize) m * m);

        product (TRUE, m, m, d, self->w, self->w, wtw);
        memcpy (mm, wtw, sizeof (double) * m * m);
        for (guint j = 0; j < m; j++)
          mm[(gsize) j * m + j] += sigma2;
        /* Eᵀ = W M⁻¹: solve M Eᵀᵀ = Wᵀ, i.e. M X = Wᵀ with X = E. */
        rhs = g_new (double, (gsize) m * d);
        for (guint a = 0; a < d; a++)
          for (guint j = 0; j < m; j++)
            rhs[(gsize) j * d + a] = self->w[(gsize) a * m + j];
        {
          g_autofree double *mcopy = g_memdup2 (mm, sizeof (double) * m * m);

          if (!latent_linear_solve_spd (mcopy, m, rhs, d, NULL))
            return FALSE;
        }
        for (guint a = 0; a < d; a++)
          for (guint j = 0; j < m; j++)
            et[(gsize) a * m + j] = rhs[(gsize) j * d + a];
        /* D = W (WᵀW)⁻¹ M: solve (WᵀW) Y = M, then W Y. */
        if (!latent_linear_solve_spd (wtw, m, mm, m, NULL))
          return FALSE;
        product (FALSE, d, m, m, self->w, mm, dec);
        return TRUE;
      }

    case LATENT_LINEAR_SPCA:
      {
        /* scikit-learn's transform: with Vn the components made unit,
         * E = (Vn Vnᵀ + 0.01 I)⁻¹ Vn, a ridge regression onto them, and
         * D = Vnᵀ. A component the penalty emptied stays 0. */
        g_autofree double *vn = g_new (double, (gsize) d * m);

        for (guint j = 0; j < m; j++)
          {
            double norm = 0;

            for (guint a = 0; a < d; a++)
              norm += self->w[(gsize) a * m + j] * self->w[(gsize) a * m + j];
            norm = norm > 0 ? sqrt (norm) : 1;
            for (guint a = 0; a < d; a++)
              vn[(gsize) a * m + j] = self->w[(gsize) a * m + j] / norm;
          }
        latent_linear_inner (self, vn, vn, 0.01, mm);
        rhs = g_new (double, (gsize) m * d);
        for (guint a = 0; a < d; a++)
          for (guint j = 0; j < m; j++)
            rhs[(gsize) j * d + a] = vn[(gsize) a * m + j];
        if (!latent_linear_solve_spd (mm, m, rhs, d, NULL))
          return FALSE;
        for (guint a = 0; a < d; a++)
          for (guint j = 0; j < m; j++)
            et[(gsize) a * m + j] = rhs[(gsize) j * d + a];
        memcpy (dec, vn, sizeof (double) * d * m);
        return TRUE;
      }

    case LATENT_LINEAR_FA:
    default:
      {
        /* E = M⁻¹ Wᵀ Ψ⁻¹ with M = I + Wᵀ Ψ⁻¹ W; D = W. */
        g_autofree double *g = g_new (double, (gsize) d * m);

        for (guint a = 0; a < d; a++)
          for (guint j = 0; j < m; j++)
            g[(gsize) a * m + j] = self->w[(gsize) a * m + j] / self->psi[a];
        latent_linear_inner (self, self->w, g, 1, mm);
        rhs = g_new (double, (gsize) m * d);
        for (guint a = 0; a < d; a++)
          for (guint j = 0; j < m; j++)
            rhs[(gsize) j * d + a] = g[(gsize) a * m + j];
        if (!latent_linear_solve_spd (mm, m, rhs, d, NULL))
          return FALSE;
        for (guint a = 0; a < d; a++)
          for (guint j = 0; j < m; j++)
            et[(gsize) a * m + j] = rhs[(gsize) j * d + a];
        memcpy (dec, self->w, sizeof (double) * d * m);
        return TRUE;
      }
    }
}

/* Components in order of decreasing variance, each signed so that its
 * largest entry is positive: the same picture every time, whatever sign
 * or order the fit happened to take. */
static void
arrange (LatentLinear *self,
         double       *variance,
         guint        *order,
         double       *sign)
{
  const guint d = self->d, m = self->m;

  for (guint j = 0; j < m; j++)
    {
      double largest = 0;

      variance[j] = 0;
      sign[j] = 1;
      for (guint a = 0; a < d; a++)
        {
          const double w = self->w[(gsize) a * m + j];

          variance[j] += w * w;
          if (fabs (w) > fabs (largest))
            largest = w;
        }
      if (largest < 0)
        sign[j] = -1;
      if (self->model == LATENT_LINEAR_PCA)
        variance[j] = self->eigenvalues[j] * latent_linear_unbiased (self);
      /* A sparse axis: the data's variance along it, v̂ᵀ S v̂. */
      if (self->model == LATENT_LINEAR_SPCA)
        {
          double vsv = 0;

          for (guint a = 0; a < d; a++)
            for (guint b = 0; b < d; b++)
              vsv += self->w[(gsize) a * m + j] * self->cov[(gsize) a * d + b] * self->w[(gsize) b * m + j];
          variance[j] = variance[j] > 0 ? vsv / variance[j] : 0;
        }
      order[j] = j;
    }
  /* Insertion sort: m is small. */
  for (guint j = 1; j < m; j++)
    for (guint i = j; i > 0 && variance[order[i]] > variance[order[i - 1]]; i--)
      {
        guint t = order[i];
        order[i] = order[i - 1];
        order[i - 1] = t;
      }
}

gboolean
latent_linear_top_eigenvectors (LatentLinear  *self,
                                GError       **error)
{
  const guint d = self->d, m = self->m;
  g_autofree double *values = g_new (double, d);
  g_autofree double *vectors = g_new (double, (gsize) d * m);
  g_autofree lapack_int *support = g_new (lapack_int, 2 * (gsize) d);
  lapack_int found = 0, info;

  /* Only the m largest: the reduction to tridiagonal form dominates, and
   * no eigenvector beyond those is formed. */
  if (self->cl)
    {
      g_autofree float *a = g_new (float, (gsize) d * d);
      g_autofree float *fvalues = g_new (float, d);
      g_autofree float *fvectors = g_new (float, (gsize) d * m);

      for (gsize i = 0; i < (gsize) d * d; i++)
        a[i] = self->cov[i];
      info = LAPACKE_ssyevr (LAPACK_ROW_MAJOR, 'V', 'I', 'U', d, a, d, 0, 0, d - m + 1, d, 0,
                             &found, fvalues, fvectors, m, support);
      for (guint j = 0; j < MIN ((guint) MAX (found, 0), m); j++)
        values[j] = fvalues[j];
      for (gsize i = 0; i < (gsize) d * m; i++)
        vectors[i] = fvectors[i];
    }
  else
    {
      g_autofree double *a = g_memdup2 (self->cov, sizeof (double) * d * d);

      info = LAPACKE_dsyevr (LAPACK_ROW_MAJOR, 'V', 'I', 'U', d, a, d, 0, 0, d - m + 1, d, 0,
                             &found, values, vectors, m, support);
    }
  if (info != 0 || found != (lapack_int) m)
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_NUMERIC,
                   _("%s: the eigensolver failed on the %u × %u covariance (LAPACK info %d)"),
                   model_name (self->model), d, d, (int) info);
      return FALSE;
    }
  /* They come in ascending order. */
  for (guint j = 0; j < m; j++)
    {
      const guint src = m - 1 - j;

      self->eigenvalues[j] = MAX (0, values[src]);
      for (guint r = 0; r < d; r++)
        self->w[(gsize) r * m + j] = vectors[(gsize) r * m + src];
    }
  return TRUE;
}

/* Rows shown with their reconstructions: one of each class when there are
 * labels, else rows spread evenly. */
static guint
pick_examples (LatentLinear *self,
               gint32       *rows)
{
  const guint n = self->n;
  guint count = 0;

  if (latent_dataset_has_labels (self->dataset))
    {
      const gint32 *labels = latent_dataset_get_labels (self->dataset);
      const guint classes = latent_dataset_get_n_classes (self->dataset);

      for (guint c = 0; c < classes && count < N_EXAMPLES; c++)
        for (guint i = 0; i < n; i++)
          if (labels[i] == (gint32) c)
            {
              rows[count++] = i;
              break;
            }
    }
  if (count < MIN (N_EXAMPLES, 2))
    {
      count = MIN (n, N_EXAMPLES);
      for (guint e = 0; e < count; e++)
        rows[e] = (gint32) ((guint64) e * n / count);
    }
  return count;
}

static gboolean
rows_are_images (LatentDataset *dataset)
{
  gboolean single = FALSE;

  return latent_dataset_get_image_shape (dataset, NULL, NULL, NULL, &single) && !single;
}

/* Latent vectors from N(0, Σz), Σz = E S Eᵀ the covariance of the
 * projections, mapped back through D. The draws are seeded the same in
 * every snapshot, so the samples change only as the model does. */
static void
draw_samples (LatentLinear   *self,
              const double   *sigma_z,
              const double   *dec,
              LatentSnapshot *snap)
{
  const guint d = self->d, m = self->m;
  const guint32 words[2] = { (self->seed ^ 0x5a3) & 0xffffffffu, self->seed >> 32 };
  g_autoptr(GRand) rand = g_rand_new_with_seed_array (words, 2);
  g_autofree double *l = g_memdup2 (sigma_z, sizeof (double) * m * m);
  g_autofree double *z = g_new (double, m);
  g_autofree double *e = g_new (double, m);
  double jitter = 0;

  for (guint j = 0; j < m; j++)
    jitter = MAX (jitter, sigma_z[(gsize) j * m + j]);
  for (guint j = 0; j < m; j++)
    l[(gsize) j * m + j] += 1e-12 * jitter + DBL_MIN;
  if (LAPACKE_dpotrf (LAPACK_ROW_MAJOR, 'L', m, l, m) != 0)
    return;

  snap->linear.n_samples = rows_are_images (self->dataset) ? 16 : MIN (self->n, 500);
  snap->linear.samples = g_new (float, (gsize) snap->linear.n_samples * d);
  for (guint s = 0; s < snap->linear.n_samples; s++)
    {
      for (guint j = 0; j < m; j++)
        e[j] = gaussian (rand);
      for (guint j = 0; j < m; j++)
        {
          z[j] = 0;
          for (guint i = 0; i <= j; i++)
            z[j] += l[(gsize) j * m + i] * e[i];
        }
      for (guint a = 0; a < d; a++)
        {
          double v = self->mean[a];

          for (guint j = 0; j < m; j++)
            v += dec[(gsize) a * m + j] * z[j];
          snap->linear.samples[(gsize) s * d + a] = v;
        }
    }
}

static void
fill_model (LatentLinear   *self,
            LatentSnapshot *snap,
            GCancellable   *cancellable)
{
  const guint n = self->n, d = self->d, m = self->m;
  g_autofree double *et0 = g_new (double, (gsize) d * m);
  g_autofree double *dec0 = g_new (double, (gsize) d * m);
  g_autofree double *et = g_new (double, (gsize) d * m);
  g_autofree double *dec = g_new (double, (gsize) d * m);
  g_autofree double *s_et = g_new (double, (gsize) d * m);
  g_autofree double *s_dec = g_new (double, (gsize) d * m);
  g_autofree double *sigma_z = g_new (double, (gsize) m * m);
  g_autofree double *dtd = g_new (double, (gsize) m * m);
  g_autofree double *variance = g_new (double, m);
  g_autofree double *sign = g_new (double, m);
  g_autofree guint *order = g_new (guint, m);
  g_autoptr(GError) error = NULL;
  double cross = 0, kept = 0;

  if (!coders (self, et0, dec0))
    {
      g_string_append (self->message, _("The model is singular; its projections are not shown. "));
      return;
    }
  arrange (self, variance, order, sign);
  snap->linear.n_components = m;
  snap->linear.components = g_new (float, (gsize) m * d);
  snap->linear.explained_variance = g_new (double, m);
  snap->linear.explained_variance_ratio = g_new (double, m);
  for (guint j = 0; j < m; j++)
    {
      const guint src = order[j];

      snap->linear.explained_variance[j] = variance[src];
      snap->linear.explained_variance_ratio[j] = variance[src] / (self->total_variance * latent_linear_unbiased (self));
      for (guint a = 0; a < d; a++)
        {
          /* Sparse PCA's are unit, as scikit-learn reports them: its decoder. */
          snap->linear.components[(gsize) j * d + a] =
            sign[src] * (self->model == LATENT_LINEAR_SPCA ? dec0 : self->w)[(gsize) a * m + src];
          et[(gsize) a * m + j] = sign[src] * et0[(gsize) a * m + src];
          dec[(gsize) a * m + j] = sign[src] * dec0[(gsize) a * m + src];
        }
    }
  snap->linear.encoder = g_new (float, (gsize) m * d);
  for (guint j = 0; j < m; j++)
    for (guint a = 0; a < d; a++)
      snap->linear.encoder[(gsize) j * d + a] = et[(gsize) a * m + j];
  snap->linear.total_variance = self->total_variance * latent_linear_unbiased (self);
  snap->linear.data_mean = g_new (float, d);
  for (guint a = 0; a < d; a++)
    snap->linear.data_mean[a] = self->mean[a];
  snap->linear.n_noise = self->model == LATENT_LINEAR_FA ? d : 1;
  snap->linear.noise_variance = g_new (double, snap->linear.n_noise);
  for (guint a = 0; a < snap->linear.n_noise; a++)
    snap->linear.noise_variance[a] = self->psi[a];

  /* E‖r‖² = tr S − 2 tr(E S D) + tr(DᵀD · E S Eᵀ), r = x − x̂, centred. */
  cblas_dsymm (CblasRowMajor, CblasLeft, CblasUpper, d, m, 1.0, self->cov, d, et, m, 0.0, s_et, m);
  cblas_dsymm (CblasRowMajor, CblasLeft, CblasUpper, d, m, 1.0, self->cov, d, dec, m, 0.0, s_dec, m);
  product (TRUE, m, m, d, et, s_et, sigma_z);
  product (TRUE, m, m, d, dec, dec, dtd);
  for (gsize i = 0; i < (gsize) d * m; i++)
    cross += et[i] * s_dec[i];
  for (gsize i = 0; i < (gsize) m * m; i++)
    kept += dtd[i] * sigma_z[i];
  snap->linear.reconstruction_error = MAX (0, self->total_variance - 2 * cross + kept) / d;

  /* Projections: every component in the final snapshot, if not too many. */
  snap->linear.projection_dims = snap->final && (guint64) n * m <= MAX_SNAPSHOT_PROJECTION ? m : MIN (m, 2);
  snap->linear.projection = g_new (float, (gsize) n * snap->linear.projection_dims);
  if (latent_dataset_is_streamed (self->dataset))
    {
      /* A value not finite would have stopped the moments' pass. */
      if (!project_streamed (self, et, m, snap->linear.projection_dims, snap->linear.projection, &error))
        g_warning ("%s", error->message);
    }
  else if (self->cl == NULL ||
      !latent_linear_cl_project (self->cl, et, m, snap->linear.projection_dims, snap->linear.projection, cancellable, &error))
    {
      if (error)
        fall_back (self, error);
      latent_linear_reference_project (self->x, n, d, self->mean, et, m, snap->linear.projection_dims,
                                       snap->linear.projection);
    }

  snap->linear.examples.rows = g_new (gint32, N_EXAMPLES);
  snap->linear.examples.n_examples = pick_examples (self, snap->linear.examples.rows);
  snap->linear.examples.reconstructions = g_new (float, (gsize) snap->linear.examples.n_examples * d);
  for (guint e = 0; e < snap->linear.examples.n_examples; e++)
    {
      const float *x = self->x + (gsize) snap->linear.examples.rows[e] * d;
      g_autofree double *z = g_new0 (double, m);

      for (guint a = 0; a < d; a++)
        for (guint j = 0; j < m; j++)
          z[j] += (x[a] - self->mean[a]) * et[(gsize) a * m + j];
      for (guint a = 0; a < d; a++)
        {
          double v = self->mean[a];

          for (guint j = 0; j < m; j++)
            v += dec[(gsize) a * m + j] * z[j];
          snap->linear.examples.reconstructions[(gsize) e * d + a] = v;
        }
    }
  draw_samples (self, sigma_z, dec, snap);
}

LatentSnapshot *
latent_linear_snapshot (gpointer data)
{
  LatentLinear *self = data;
  LatentSnapshot *snap = latent_snapshot_new (self->algorithm, self->dataset, self->params);
  LatentLinearParams p;

  latent_linear_params_read (self->params, &p);
  snap->linear.whitened = p.whiten;
  snap->seed = self->seed;
  snap->iteration = self->iteration;
  snap->converged = self->converged;
  snap->final = self->finished;
  snap->n_rows = self->n;
  snap->n_cols = self->d;
  snap->linear.log_likelihood = self->log_likelihood;
  /* PCA before it is solved has only its covariance to show. */
  if (self->model != LATENT_LINEAR_PCA || self->iteration > 0 ||
      g_strcmp0 (p.method, "iterative") == 0)
    fill_model (self, snap, NULL);
  snap->objective = self->objective;
  snap->device = g_strdup (self->device);
  if (self->fallback || self->message->len > 0)
    snap->message = g_strconcat (self->fallback ? self->fallback : "", self->message->str, NULL);
  return snap;
}

const char * const latent_linear_figures[] = {
  "scatter", "scree", "components", "biplot", "reconstructions", "samples", "dots", NULL
};

/* Rows as E (x − mean), in blocks so that the centred copy stays small. */
LatentDataset *
latent_linear_encode (LatentSnapshot  *snap,
                      LatentDataset   *dataset,
                      GError         **error)
{
  const guint n = latent_dataset_get_n_rows (dataset), d = latent_dataset_get_n_cols (dataset);
  const guint m = snap->linear.n_components, block = 1024;
  g_autoptr(LatentDataset) out = NULL;
  g_autofree char *name = NULL;
  g_autofree float *x = NULL;

  g_return_val_if_fail (snap->linear.encoder != NULL && snap->linear.data_mean != NULL, NULL);

  if (d != snap->n_cols)
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("The model encodes rows of %u columns; “%s” has %u"), snap->n_cols,
                   latent_dataset_get_name (dataset), d);
      return NULL;
    }
  name = g_strdup_printf ("%s → %s %u", latent_dataset_get_name (dataset), snap->algorithm->id, m);
  if (!(out = latent_dataset_new (name, n, m, error)))
    return NULL;
  x = g_new (float, (gsize) MIN (block, n) * d);
  for (guint first = 0; first < n; first += block)
    {
      const guint rows = MIN (block, n - first);
      const float *src = latent_dataset_get_row (dataset, first);

      for (gsize i = 0; i < (gsize) rows * d; i++)
        x[i] = src[i] - snap->linear.data_mean[i % d];
      cblas_sgemm (CblasRowMajor, CblasNoTrans, CblasTrans, rows, m, d, 1.0f, x, d,
                   snap->linear.encoder, d, 0.0f, latent_dataset_get_data (out) + (gsize) first * m, m);
    }
  latent_dataset_copy_labels (out, dataset);
  return g_steal_pointer (&out);
}

/* The encoder of a result written by latent_linear_models_write_json. */
gboolean
latent_linear_read_model (LatentSnapshot  *snap,
                          JsonObject      *result,
                          const char      *path,
                          GError         **error)
{
  const guint d = latent_json_array_length (result, "mean");
  const guint m = latent_json_array_length (result, "encoder");

  if (d == 0 || m == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: the result holds no “encoder” and “mean” (written by an older Latent? Run it again)"),
                   path);
      return FALSE;
    }
  if ((guint64) m * d > LATENT_MODEL_MAX_WEIGHTS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: an encoder of %u × %u, more weights than any model Latent trains (%llu)"),
                   path, m, d, (unsigned long long) LATENT_MODEL_MAX_WEIGHTS);
      return FALSE;
    }
  snap->n_cols = d;
  snap->linear.n_components = m;
  return (snap->linear.data_mean = latent_json_read_floats (result, "mean", d, path, error)) &&
         (snap->linear.encoder = latent_json_read_floats (result, "encoder", (gsize) m * d, path, error));
}
