/* latent-fa.c — factor analysis by expectation–maximisation
 *
 * Rubin & Thayer's EM on the sample covariance S, with a noise variance ψ
 * per column. With G = Ψ⁻¹W, M = I + WᵀG and β = M⁻¹Gᵀ (the posterior
 * mean of the factors is β (x − mean)):
 *   W' = S βᵀ (I − βW + β S βᵀ)⁻¹,
 *   Ψ' = diag(S − W' β S),
 * one product S · G per step, which also gives the log-likelihood of the
 * model it belongs to. That product runs in double on the host: near a
 * Heywood case (a ψ going to zero, as on Iris) G grows without bound and
 * float products cancel to noise. The device computes the covariance and
 * the projections.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-fa"

#include "latent-linear-private.h"
#include "latent-linear.h"

#include <glib/gi18n-lib.h>
#include <math.h>

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
  { "components", LATENT_PARAM_INT, N_("Factors"), N_("Number of latent factors"),
    1, LATENT_LINEAR_MAX_COLS, 2, NULL, NULL, FALSE },
  { "tol", LATENT_PARAM_DOUBLE, N_("Tolerance"),
    N_("Stop when the mean log-likelihood per row changes less than this"),
    0, 1, DEFAULT_TOL, NULL, NULL, FALSE },
  { "max-iterations", LATENT_PARAM_INT, N_("Maximum iterations"), N_("Stop after this many iterations"),
    1, 100000, 1000, NULL, NULL, FALSE },
};

static gboolean
singular (GError **error)
{
  g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_NUMERIC,
               _("Factor analysis: the model became singular"));
  return FALSE;
}

/* G = Ψ⁻¹ W (d × m) and M = I + Wᵀ G (m × m). */
static void
inner (LatentLinear *self,
       double       *g,
       double       *mm)
{
  const guint d = self->d, m = self->m;

  for (guint r = 0; r < d; r++)
    for (guint j = 0; j < m; j++)
      g[(gsize) r * m + j] = self->w[(gsize) r * m + j] / self->psi[r];
  latent_linear_inner (self, self->w, g, 1, mm);
}

/* Mean log-likelihood per row of N(mean, WWᵀ + Ψ), from self->sw = S G:
 * log|C| = Σ log ψ + log|M|, tr(C⁻¹S) = Σ S_aa/ψ_a − tr(M⁻¹ Gᵀ S G). */
static gboolean
log_likelihood (LatentLinear *self,
                double       *result)
{
  const guint d = self->d, m = self->m;
  g_autofree double *g = g_new (double, (gsize) d * m);
  g_autofree double *mm = g_new (double, (gsize) m * m);
  g_autofree double *gtsg = g_new (double, (gsize) m * m);
  double log_det, trace = 0, sum = 0;

  inner (self, g, mm);
  latent_linear_inner (self, g, self->sw, 0, gtsg);
  if (!latent_linear_solve_spd (mm, m, gtsg, m, &log_det))
    return FALSE;
  for (guint j = 0; j < m; j++)
    trace += gtsg[(gsize) j * m + j];
  for (guint r = 0; r < d; r++)
    sum += log (self->psi[r]) + self->cov[(gsize) r * d + r] / self->psi[r];
  *result = -0.5 * (d * log (2 * G_PI) + sum + log_det - trace);
  return TRUE;
}

static gboolean
update (LatentLinear *self,
        GError      **error)
{
  const guint d = self->d, m = self->m;
  g_autofree double *g = g_new (double, (gsize) d * m);
  g_autofree double *mm = g_new (double, (gsize) m * m);
  g_autofree double *sbt = g_new (double, (gsize) m * d);   /* (S βᵀ)ᵀ = M⁻¹ (S G)ᵀ */
  g_autofree double *beta = g_new (double, (gsize) m * d);  /* M⁻¹ Gᵀ */
  g_autofree double *a = g_new (double, (gsize) m * m);
  const double floor = PSI_FLOOR * self->total_variance / d;

  inner (self, g, mm);
  for (guint r = 0; r < d; r++)
    for (guint j = 0; j < m; j++)
      {
        sbt[(gsize) j * d + r] = self->sw[(gsize) r * m + j];
        beta[(gsize) j * d + r] = g[(gsize) r * m + j];
      }
  {
    g_autofree double *copy = g_memdup2 (mm, sizeof (double) * m * m);

    if (!latent_linear_solve_spd (copy, m, sbt, d, NULL) ||
        !latent_linear_solve_spd (mm, m, beta, d, NULL))
      return singular (error);
  }

  /* A = I − βW + β S βᵀ, the average posterior second moment of the
   * factors; symmetric positive definite. */
  for (guint i = 0; i < m; i++)
    for (guint j = 0; j < m; j++)
      {
        double bw = 0, bsb = 0;
        for (guint r = 0; r < d; r++)
          {
            bw += beta[(gsize) i * d + r] * self->w[(gsize) r * m + j];
            bsb += beta[(gsize) i * d + r] * sbt[(gsize) j * d + r];
          }
        a[(gsize) i * m + j] = (i == j) - bw + bsb;
      }
  /* W'ᵀ = A⁻¹ (S βᵀ)ᵀ; keep S βᵀ for Ψ'. */
  {
    g_autofree double *next = g_memdup2 (sbt, sizeof (double) * m * d);

    if (!latent_linear_solve_spd (a, m, next, d, NULL))
      return singular (error);
    for (guint r = 0; r < d; r++)
      {
        double explained = 0;

        for (guint j = 0; j < m; j++)
          {
            self->w[(gsize) r * m + j] = next[(gsize) j * d + r];
            explained += next[(gsize) j * d + r] * sbt[(gsize) j * d + r];
          }
        self->psi[r] = MAX (self->cov[(gsize) r * d + r] - explained, floor);
      }
  }
  return TRUE;
}

/* S G for the new model, and its log-likelihood. */
static gboolean
refresh (LatentLinear  *self,
         GError       **error)
{
  const guint d = self->d, m = self->m;
  g_autofree double *g = g_new (double, (gsize) d * m);
  double ll;

  for (guint r = 0; r < d; r++)
    for (guint j = 0; j < m; j++)
      g[(gsize) r * m + j] = self->w[(gsize) r * m + j] / self->psi[r];
  latent_linear_cov_times_double (self, g, self->sw);
  if (!log_likelihood (self, &ll))
    return singular (error);
  self->change = ll - self->log_likelihood;
  self->objective = self->log_likelihood = ll;
  return TRUE;
}

static const LatentAlgorithm fa_algorithm;

static gboolean
fa_check (LatentDataset  *dataset,
            LatentParams   *params,
            GError        **error)
{
  return latent_linear_check (LATENT_LINEAR_FA, dataset, params, error);
}

static gpointer
fa_init (LatentDataset  *dataset,
         LatentParams   *params,
         guint64         seed,
         LatentCl       *cl,
         GError        **error)
{
  g_autoptr(LatentLinear) self = NULL;
  guint d;

  self = latent_linear_new (LATENT_LINEAR_FA, &fa_algorithm, dataset, params, seed, cl, error);
  if (self == NULL)
    return NULL;
  d = self->d;
  /* Random loadings carrying the average variance; each column's noise
   * starts at its whole variance. */
  latent_linear_random_w (self, sqrt (self->total_variance / d));
  for (guint r = 0; r < d; r++)
    self->psi[r] = MAX (self->cov[(gsize) r * d + r], PSI_FLOOR * self->total_variance / d);
  if (!refresh (self, error))
    return NULL;
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

  g_return_val_if_fail (!self->finished, FALSE);

  g_string_truncate (self->message, 0);
  if (!update (self, error) || !refresh (self, error))
    return FALSE;
  latent_linear_end_em_step (self);
  if (self->finished)
    note_floor (self);
  return TRUE;
}

static const LatentAlgorithm fa_algorithm = {
  .id = "fa",
  .title = N_("Factor analysis (EM)"),
  .short_title = N_("factor analysis"),
  .objective_name = N_("mean log-likelihood"),
  .family = LATENT_FAMILY_LINEAR,
  .flags = LATENT_ALGORITHM_ENCODER | LATENT_ALGORITHM_FACTORS,
  .figures = latent_linear_figures,
  /* Translators: a factor of factor analysis; %u counts from 1. */
  .component_name = N_("Factor %u"),
  .params = fa_params,
  .n_params = G_N_ELEMENTS (fa_params),
  .check = fa_check,
  .init = fa_init,
  .step = fa_step,
  .snapshot = latent_linear_snapshot,
  .objective = latent_linear_objective,
  .converged = latent_linear_converged,
  .free = latent_linear_free,
  .write_json = latent_linear_write_json,
  .encode = latent_linear_encode,
  .read_model = latent_linear_read_model,
  .write_csv_header = latent_linear_write_csv_header,
  .write_csv_row = latent_linear_write_csv_row,
};

const LatentAlgorithm *
latent_fa_get_algorithm (void)
{
  return &fa_algorithm;
}
