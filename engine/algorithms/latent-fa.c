/* latent-fa.c — factor analysis at the likelihood's fixed point
 *
 * For noise variances Ψ the loadings that maximise the likelihood are
 * W = Ψ^½ U (Λ − I)₊^½, with Λ, U the m leading eigenpairs of the scaled
 * covariance S̃ = Ψ^-½ S Ψ^-½; then Ψ' = diag(S − W Wᵀ), floored. A step
 * is Ψ from the last W, then W from Ψ: the iteration scikit-learn's
 * FactorAnalysis makes, which converges in far fewer steps than Rubin &
 * Thayer's EM (one EM step is one power iteration on this subspace).
 *
 * scikit-learn takes the eigenpairs from an SVD of the scaled data every
 * step. Here they come from subspace iteration on a basis of m + OVERSAMPLE
 * columns kept from step to step: Ψ moves little between steps, so SWEEPS
 * products S̃ V, each followed by a Rayleigh–Ritz rotation, bring the last
 * basis to the new S̃'s. The Ritz values θ give the exact log-likelihood
 * of the model (W, Ψ) built from them, per row:
 *   log|C| = Σ log ψ + Σ_j log max(θ_j, 1),
 *   tr(C⁻¹S) = tr S̃ − Σ_j max(θ_j − 1, 0).
 * The host works in double (near a Heywood case a ψ goes to zero and S̃
 * grows without bound); the device computes the covariance and the
 * projections.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-fa"

#include "latent-linear-private.h"
#include "latent-linear.h"
#include "latent-linear-models.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* No noise variance falls below this share of the average variance: a
 * column the factors explain completely (a Heywood case) or a constant one
 * would otherwise divide by zero. */
#define PSI_FLOOR 1e-6

/* The default tolerance. Where a noise variance goes to zero (a Heywood
 * case, as on Iris with two factors) EM crawls, gaining about 1e-6 per row
 * and iteration for thousands of iterations: 1e-6 ran Iris into the limit
 * of 1000 iterations. 1e-4 stops it after about 130, near where
 * scikit-learn's default (1e-2 on the whole log-likelihood, 6.7e-5 per
 * row on Iris's 150 rows) stops its own, and within 0.01 per row of its
 * result; Fashion-MNIST (784 columns, two factors) stops before the limit
 * too. */
#define DEFAULT_TOL 1e-4

static const LatentParamSpec fa_params[] = {
  { .name = "components", LATENT_PARAM_INT_AT (LatentLinearParams, components),
    .label = N_("Factors"),
    .tooltip = N_("Number of latent factors"),
    .min = 1, .max = LATENT_LINEAR_MAX_COLS, .default_value = 2 },
  { .name = "tol", LATENT_PARAM_DOUBLE_AT (LatentLinearParams, tol),
    .label = N_("Tolerance"),
    .tooltip = N_("Stop when the mean log-likelihood per row changes less than this"),
    .min = 0, .max = 1, .default_value = DEFAULT_TOL,
    .role = LATENT_PARAM_ROLE_TOLERANCE },
  { .name = "max-iterations", LATENT_PARAM_INT_AT (LatentLinearParams, max_iterations),
    .label = N_("Maximum iterations"),
    .tooltip = N_("Stop after this many iterations"),
    .min = 1, .max = 100000, .default_value = 1000,
    .role = LATENT_PARAM_ROLE_BUDGET },
};

/* Basis columns beyond the m wanted: the gap to the (m + OVERSAMPLE)th
 * eigenvalue sets how fast subspace iteration converges. */
#define OVERSAMPLE 10
/* Products S̃ V per step, and from the random start. */
#define SWEEPS 2
#define FIRST_SWEEPS 12

static gboolean
singular (GError **error)
{
  g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_NUMERIC,
               _("Factor analysis: the model became singular"));
  return FALSE;
}

/* Y = S̃ V = Ψ^-½ S Ψ^-½ V for the basis V (d × b); isd = Ψ^-½; SCALED
 * is d × b of room. */
static void
scaled_cov_times (LatentLinear *self,
                  const double *isd,
                  const double *v,
                  double       *y,
                  double       *scaled)
{
  const guint d = self->d, b = self->basis_cols;

  for (guint r = 0; r < d; r++)
    for (guint j = 0; j < b; j++)
      scaled[(gsize) r * b + j] = v[(gsize) r * b + j] * isd[r];
  latent_linear_cov_times_double (self, scaled, b, y);
  for (guint r = 0; r < d; r++)
    for (guint j = 0; j < b; j++)
      y[(gsize) r * b + j] *= isd[r];
}

/* W from Ψ by SWEEPS sweeps of subspace iteration on self->basis, and the
 * log-likelihood of (W, Ψ). */
static gboolean
fit_loadings (LatentLinear  *self,
              guint          sweeps,
              GError       **error)
{
  const guint d = self->d, m = self->m, b = self->basis_cols;
  g_autofree double *isd = g_new (double, d);
  g_autofree double *y = g_new (double, (gsize) d * b);
  g_autofree double *scaled = g_new (double, (gsize) d * b);
  g_autofree double *theta = g_new (double, b);
  double *v = self->basis;
  double trace = 0, sum = 0;

  for (guint r = 0; r < d; r++)
    {
      isd[r] = 1 / sqrt (self->psi[r]);
      trace += self->cov[(gsize) r * d + r] / self->psi[r];
      sum += log (self->psi[r]);
    }

  for (guint sweep = 0; sweep < sweeps; sweep++)
    {
      if (sweep > 0)
        {
          memcpy (v, y, sizeof (double) * d * b);
          if (!latent_linear_orthonormalise (v, d, b))
            return singular (error);
        }
      scaled_cov_times (self, isd, v, y, scaled);
      /* The last sweep's images are not needed again. */
      if (!latent_linear_rayleigh_ritz (v, y, d, b, sweep + 1 < sweeps, theta))
        return singular (error);
    }

  for (guint j = 0; j < m; j++)
    {
      const double excess = MAX (theta[j] - 1, 0);

      if (!isfinite (theta[j]))
        return singular (error);
      for (guint r = 0; r < d; r++)
        self->w[(gsize) r * m + j] = v[(gsize) r * b + j] * sqrt (excess * self->psi[r]);
      sum += log (MAX (theta[j], 1));
      trace -= excess;
    }
  self->log_likelihood = -0.5 * (d * log (2 * G_PI) + sum + trace);
  return TRUE;
}

/* Ψ = diag(S − W Wᵀ), floored. */
static void
update_noise (LatentLinear *self)
{
  const guint d = self->d, m = self->m;
  const double floor = PSI_FLOOR * self->total_variance / d;

  for (guint r = 0; r < d; r++)
    {
      double explained = 0;

      for (guint j = 0; j < m; j++)
        explained += self->w[(gsize) r * m + j] * self->w[(gsize) r * m + j];
      self->psi[r] = MAX (self->cov[(gsize) r * d + r] - explained, floor);
    }
}

static const LatentAlgorithm fa_algorithm;

static gboolean
fa_check (LatentDataset  *dataset,
            LatentParams   *params,
            GError        **error)
{
  return latent_linear_check (LATENT_LINEAR_FA, dataset, params, error);
}

static gint64
fa_max_int (LatentDataset         *dataset,
            LatentParams          *params,
            const LatentParamSpec *spec)
{
  return latent_linear_max_int (LATENT_LINEAR_FA, dataset, spec);
}

static gpointer
fa_init (LatentDataset  *dataset,
         LatentParams   *params,
         guint64         seed,
         LatentCl       *cl,
         GCancellable   *cancellable,
         GError        **error)
{
  g_autoptr(LatentLinear) self = NULL;
  guint d;

  self = latent_linear_new (LATENT_LINEAR_FA, &fa_algorithm, dataset, params, seed, cl, error);
  if (self == NULL)
    return NULL;
  d = self->d;
  /* Each column's noise starts at its whole variance, the basis at random. */
  for (guint r = 0; r < d; r++)
    self->psi[r] = MAX (self->cov[(gsize) r * d + r], PSI_FLOOR * self->total_variance / d);
  self->basis_cols = MIN (d, self->m + OVERSAMPLE);
  self->basis = g_new (double, (gsize) d * self->basis_cols);
  latent_linear_random_basis (self, self->basis, self->basis_cols, 1);
  if (!fit_loadings (self, FIRST_SWEEPS, error))
    return NULL;
  self->objective = self->log_likelihood;
  return g_steal_pointer (&self);
}

/* A noise variance on the floor makes the likelihood the floor's choice:
 * say which columns. */
static void
note_floor (LatentLinear *self)
{
  const double floor = PSI_FLOOR * self->total_variance / self->d;
  guint count = 0, first = 0;

  for (guint r = 0; r < self->d; r++)
    if (self->psi[r] <= floor * (1 + 1e-9) && count++ == 0)
      first = r;
  if (count > 0)
    g_string_append_printf (self->message,
                            g_dngettext (GETTEXT_PACKAGE,
                                         "Column %u has no noise variance left: it is constant or explained "
                                         "entirely by the factors, and the log-likelihood there depends on the "
                                         "floor of 1e-6 of the mean variance. ",
                                         "%u columns, the first %u, have no noise variance left: they are "
                                         "constant or explained entirely by the factors, and the log-likelihood "
                                         "there depends on the floor of 1e-6 of the mean variance. ",
                                         count),
                            count > 1 ? count : first + 1, first + 1);
}

static gboolean
fa_step (gpointer       data,
         GCancellable  *cancellable,
         GError       **error)
{
  LatentLinear *self = data;
  double previous;

  g_return_val_if_fail (!self->finished, FALSE);

  g_string_truncate (self->message, 0);
  previous = self->log_likelihood;
  update_noise (self);
  if (!fit_loadings (self, SWEEPS, error))
    return FALSE;
  self->change = self->log_likelihood - previous;
  self->objective = self->log_likelihood;
  latent_linear_end_em_step (self);
  if (self->finished)
    note_floor (self);
  return TRUE;
}

static const LatentAlgorithm fa_algorithm = {
  .id = "fa",
  .title = N_("Factor analysis"),
  .short_title = N_("factor analysis"),
  .objective_name = N_("mean log-likelihood"),
  .pace = 10,
  .family = LATENT_FAMILY_LINEAR,
  .flags = LATENT_ALGORITHM_ENCODER | LATENT_ALGORITHM_FACTORS,
  .figures = latent_linear_figures,
  /* Translators: a factor of factor analysis; %u counts from 1. */
  .component_name = N_("Factor %u"),
  .params = fa_params,
  .n_params = G_N_ELEMENTS (fa_params),
  .check = fa_check,
  .max_int = fa_max_int,
  .init = fa_init,
  .step = fa_step,
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
latent_fa_get_algorithm (void)
{
  return &fa_algorithm;
}
