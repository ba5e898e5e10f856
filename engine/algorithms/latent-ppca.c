/* latent-ppca.c — probabilistic PCA by expectation–maximisation
 *
 * Tipping & Bishop's EM, written on the sample covariance S: with
 * M = WᵀW + σ²I,
 *   W' = S W (σ²I + M⁻¹ Wᵀ S W)⁻¹,
 *   σ²' = tr(S − S W M⁻¹ W'ᵀ) / d,
 * one product S · W per step. The maximum-likelihood fixed point is the
 * top eigenvectors scaled by √(λ − σ²), up to a rotation.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-ppca"

#include "latent-linear-private.h"
#include "latent-linear.h"
#include "latent-linear-models.h"

#include <glib/gi18n-lib.h>
#include <lapacke.h>
#include <math.h>

static const LatentParamSpec ppca_params[] = {
  { .name = "components", LATENT_PARAM_INT_AT (LatentLinearParams, components),
    .label = N_("Components"),
    .tooltip = N_("Dimension of the latent space"),
    .min = 1, .max = LATENT_LINEAR_MAX_COLS, .default_value = 2 },
  { .name = "tol", LATENT_PARAM_DOUBLE_AT (LatentLinearParams, tol),
    .label = N_("Tolerance"),
    .tooltip = N_("Stop when the mean log-likelihood per row changes less than this"),
    .min = 0, .max = 1, .default_value = 1e-6,
    .role = LATENT_PARAM_ROLE_TOLERANCE },
  { .name = "max-iterations", LATENT_PARAM_INT_AT (LatentLinearParams, max_iterations),
    .label = N_("Maximum iterations"),
    .tooltip = N_("Stop after this many iterations"),
    .min = 1, .max = 100000, .default_value = 1000,
    .role = LATENT_PARAM_ROLE_BUDGET },
};

/* Mean log-likelihood per row of N(mean, WWᵀ + σ²I) on data with
 * covariance S, from self->sw = S W:
 *   −½ (d log 2π + (d − m) log σ² + log|M| + (tr S − tr(M⁻¹ Wᵀ S W)) / σ²). */
static gboolean
log_likelihood (LatentLinear *self,
                double       *result)
{
  const guint d = self->d, m = self->m;
  const double sigma2 = self->psi[0];
  g_autofree double *mm = g_new (double, (gsize) m * m);
  g_autofree double *wtsw = g_new (double, (gsize) m * m);
  double log_det, trace = 0;

  latent_linear_inner (self, self->w, self->w, sigma2, mm);
  latent_linear_inner (self, self->w, self->sw, 0, wtsw);
  if (!latent_linear_solve_spd (mm, m, wtsw, m, &log_det))
    return FALSE;
  for (guint j = 0; j < m; j++)
    trace += wtsw[(gsize) j * m + j];
  *result = -0.5 * (d * log (2 * G_PI) + (d - m) * log (sigma2) + log_det +
                    (self->total_variance - trace) / sigma2);
  return TRUE;
}

/* The noise variance went to nothing: the components explain all of the
 * data, which happens when it varies in no more directions than there are
 * components (a constant column takes one away). Said as a parameter to
 * change, naming constant columns, the usual cause. */
static gboolean
is_constant (LatentLinear *self,
             guint         r)
{
  return !(self->cov[(gsize) r * self->d + r] > 1e-12 * self->total_variance / self->d);
}

static guint
varying_columns (LatentLinear *self)
{
  guint n = 0;

  for (guint r = 0; r < self->d; r++)
    n += !is_constant (self, r);
  return n;
}

static gboolean
singular (LatentLinear  *self,
          GError       **error)
{
  g_autoptr(GString) constant = g_string_new (NULL);
  guint n_constant = 0;

  for (guint r = 0; r < self->d; r++)
    if (is_constant (self, r))
      {
        if (n_constant++ < 3)
          {
            g_autofree char *label = latent_dataset_dup_column_label (self->dataset, r);

            if (constant->len > 0)
              g_string_append (constant, ", ");
            g_string_append (constant, label);
          }
      }
  if (n_constant > 3)
    g_string_append (constant, ", …");
  if (n_constant > 0)
    /* Translators: components, how many columns are constant, their names. */
    g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                 g_dngettext (GETTEXT_PACKAGE,
                              "components = %u: no variance is left for the noise, as %u column is constant (%s); "
                              "use fewer components",
                              "components = %u: no variance is left for the noise, as %u columns are constant (%s); "
                              "use fewer components", n_constant),
                 self->m, n_constant, constant->str);
  else
    /* Translators: components. */
    g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                 _("components = %u: no variance is left for the noise, as the data vary in no more "
                   "directions than that; use fewer components"), self->m);
  return FALSE;
}

/* W and W·R give the same model for any rotation R; with R the
 * eigenvectors of WᵀW the columns are orthogonal, the scaled principal
 * axes, whatever the random start. */
static gboolean
align (LatentLinear *self)
{
  const guint d = self->d, m = self->m;
  g_autofree double *wtw = g_new (double, (gsize) m * m);
  g_autofree double *values = g_new (double, m);
  g_autofree double *row = g_new (double, m);

  latent_linear_inner (self, self->w, self->w, 0, wtw);
  if (LAPACKE_dsyev (LAPACK_ROW_MAJOR, 'V', 'U', m, wtw, m, values) != 0)
    return TRUE;  /* unrotated is still the same model */
  for (guint r = 0; r < d; r++)
    {
      for (guint j = 0; j < m; j++)
        {
          row[j] = 0;
          for (guint i = 0; i < m; i++)
            row[j] += self->w[(gsize) r * m + i] * wtw[(gsize) i * m + (m - 1 - j)];
        }
      memcpy (self->w + (gsize) r * m, row, sizeof (double) * m);
    }
  return TRUE;
}

static gboolean
update (LatentLinear *self,
        GError      **error)
{
  const guint d = self->d, m = self->m;
  const double sigma2 = self->psi[0];
  g_autofree double *mm = g_new (double, (gsize) m * m);
  g_autofree double *a = g_new (double, (gsize) m * m);
  g_autofree double *swt = g_new (double, (gsize) m * d);
  g_autofree lapack_int *pivots = g_new (lapack_int, m);
  g_autofree double *next = g_new (double, (gsize) m * d);
  double explained = 0;

  /* M and M⁻¹ Swᵀ (m × d). */
  latent_linear_inner (self, self->w, self->w, sigma2, mm);
  for (guint r = 0; r < d; r++)
    for (guint j = 0; j < m; j++)
      swt[(gsize) j * d + r] = self->sw[(gsize) r * m + j];
  if (!latent_linear_solve_spd (mm, m, swt, d, NULL))
    return singular (self, error);

  /* A = σ²I + M⁻¹ Wᵀ S W; W' = S W A⁻¹, so W'ᵀ = A⁻ᵀ (S W)ᵀ. */
  for (guint i = 0; i < m; i++)
    for (guint j = 0; j < m; j++)
      {
        double s = 0;
        for (guint r = 0; r < d; r++)
          s += swt[(gsize) i * d + r] * self->w[(gsize) r * m + j];
        /* stored transposed, for the solve with Aᵀ */
        a[(gsize) j * m + i] = s + (i == j ? sigma2 : 0);
      }
  for (guint r = 0; r < d; r++)
    for (guint j = 0; j < m; j++)
      next[(gsize) j * d + r] = self->sw[(gsize) r * m + j];
  if (LAPACKE_dgesv (LAPACK_ROW_MAJOR, m, d, a, m, pivots, next, d) != 0)
    return singular (self, error);

  /* σ²' = (tr S − tr(S W M⁻¹ W'ᵀ)) / d, with S W M⁻¹ = (M⁻¹ Swᵀ)ᵀ. */
  for (guint r = 0; r < d; r++)
    for (guint j = 0; j < m; j++)
      {
        self->w[(gsize) r * m + j] = next[(gsize) j * d + r];
        explained += swt[(gsize) j * d + r] * next[(gsize) j * d + r];
      }
  self->psi[0] = (self->total_variance - explained) / d;
  if (!(self->psi[0] > 0))
    return singular (self, error);
  return align (self);
}

static gboolean
refresh (LatentLinear  *self,
         GCancellable  *cancellable,
         GError       **error)
{
  double ll;

  for (guint a = 1; a < self->d; a++)
    self->psi[a] = self->psi[0];
  if (!latent_linear_cov_times (self, self->w, self->sw, cancellable, error))
    return FALSE;
  if (!log_likelihood (self, &ll))
    return singular (self, error);
  self->change = ll - self->log_likelihood;
  self->objective = self->log_likelihood = ll;
  return TRUE;
}

static const LatentAlgorithm ppca_algorithm;

static gboolean
ppca_check (LatentDataset  *dataset,
              LatentParams   *params,
              GError        **error)
{
  return latent_linear_check (LATENT_LINEAR_PPCA, dataset, params, error);
}

static gint64
ppca_max_int (LatentDataset         *dataset,
              LatentParams          *params,
              const LatentParamSpec *spec)
{
  return latent_linear_max_int (LATENT_LINEAR_PPCA, dataset, spec);
}

static gpointer
ppca_init (LatentDataset  *dataset,
           LatentParams   *params,
           guint64         seed,
           LatentCl       *cl,
           GCancellable   *cancellable,
           GError        **error)
{
  g_autoptr(LatentLinear) self = NULL;
  double scale;

  self = latent_linear_new (LATENT_LINEAR_PPCA, &ppca_algorithm, dataset, params, seed, cl, error);
  if (self == NULL)
    return NULL;
  /* Too few columns that vary: the noise would go to nothing on the way,
   * at an iteration that depends on the rounding; refused at once. */
  if (varying_columns (self) <= self->m)
    {
      singular (self, error);
      return NULL;
    }
  /* A random subspace carrying the average variance, the rest noise. */
  scale = self->total_variance / self->d;
  latent_linear_random_w (self, sqrt (scale));
  self->psi[0] = scale;
  if (!refresh (self, NULL, error))
    return NULL;
  return g_steal_pointer (&self);
}

static gboolean
ppca_step (gpointer       data,
           GCancellable  *cancellable,
           GError       **error)
{
  LatentLinear *self = data;

  g_return_val_if_fail (!self->finished, FALSE);

  g_string_truncate (self->message, 0);
  if (!update (self, error) || !refresh (self, cancellable, error))
    return FALSE;
  latent_linear_end_em_step (self);
  return TRUE;
}

static const LatentAlgorithm ppca_algorithm = {
  .id = "ppca",
  .title = N_("Probabilistic PCA (EM)"),
  .short_title = N_("probabilistic PCA"),
  .objective_name = N_("mean log-likelihood"),
  .pace = 10,
  .family = LATENT_FAMILY_LINEAR,
  .flags = LATENT_ALGORITHM_ENCODER,
  .figures = latent_linear_figures,
  /* Translators: a column of the loading matrix W, short; %u counts from 1. */
  .component_name = N_("W %u"),
  .params = ppca_params,
  .n_params = G_N_ELEMENTS (ppca_params),
  .check = ppca_check,
  .max_int = ppca_max_int,
  .init = ppca_init,
  .step = ppca_step,
  .snapshot = latent_linear_snapshot,
  .objective = latent_linear_objective,
  .converged = latent_linear_converged,
  .free = latent_linear_free,
  .write_json = latent_linear_models_write_json,
  .encode = latent_linear_encode,
  .read_model = latent_linear_read_model,
  .write_csv_header = latent_linear_models_write_csv_header,
  .write_csv_row = latent_linear_models_write_csv_row,
};

const LatentAlgorithm *
latent_ppca_get_algorithm (void)
{
  return &ppca_algorithm;
}
