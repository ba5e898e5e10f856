/* latent-pca.c — principal component analysis, exact or iterative
 *
 * Exact: the top eigenvectors of the covariance by LAPACKE's dsyevr, in one
 * step. Iterative: subspace iteration with Rayleigh–Ritz on the covariance,
 * one product S · W per step (on the device), so the components can be
 * watched turning into place; it converges to the same axes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-pca"

#include "latent-linear-private.h"
#include "latent-linear.h"
#include "latent-linear-models.h"

#include <glib/gi18n-lib.h>
#include <lapacke.h>
#include <math.h>

static const char * const method_choices[] = { "exact", "iterative", NULL };
static const char * const method_labels[] = { N_("Exact"), N_("Iterative"), NULL };

/* The iterative tolerance's default sits above the float rounding of the
 * device's products (on Fashion-MNIST the turn per step stalls near 2e-5):
 * exact is there for more digits. */
static const LatentParamSpec pca_params[] = {
  { .name = "components", LATENT_PARAM_INT_AT (LatentLinearParams, components),
    .label = N_("Components"),
    .tooltip = N_("Number of principal components to keep"),
    .min = 1, .max = LATENT_LINEAR_MAX_COLS, .default_value = 2 },
  { .name = "method", LATENT_PARAM_CHOICE_AT (LatentLinearParams, method),
    .label = N_("Method"),
    .tooltip = N_("Exact: one eigen-decomposition. Iterative: subspace iteration, every step shown"),
    .default_choice = "exact",
    .choices = method_choices,
    .choice_labels = method_labels },
  { .name = "whiten", LATENT_PARAM_BOOL_AT (LatentLinearParams, whiten),
    .label = N_("Whiten"),
    .tooltip = N_("Scale the projections to unit variance along every component"),
    .default_value = FALSE },
  { .name = "tol", LATENT_PARAM_DOUBLE_AT (LatentLinearParams, tol),
    .label = N_("Tolerance"),
    .tooltip = N_("Iterative: stop when no component turns by more than this (sine of the angle)"),
    .min = 0, .max = 1, .default_value = 1e-4,
    .applies_when = "method=iterative",
    .role = LATENT_PARAM_ROLE_TOLERANCE },
  { .name = "max-iterations", LATENT_PARAM_INT_AT (LatentLinearParams, max_iterations),
    .label = N_("Maximum iterations"),
    .tooltip = N_("Iterative: stop after this many iterations"),
    .min = 1, .max = 100000, .default_value = 1000,
    .applies_when = "method=iterative",
    .role = LATENT_PARAM_ROLE_BUDGET },
};

/* The variance the discarded directions leave, per direction (as the
 * noise of scikit-learn's PCA, with n − 1), and the log-likelihood of the
 * probabilistic PCA model those numbers define: scikit-learn's score. */
static void
score (LatentLinear *self)
{
  const guint d = self->d, m = self->m;
  const double unbiased = latent_linear_unbiased (self);
  double kept = 0, sigma2, log_det, trace;

  for (guint j = 0; j < m; j++)
    kept += self->eigenvalues[j];
  sigma2 = m < d ? MAX (0, self->total_variance - kept) / (d - m) * unbiased : 0;
  self->psi[0] = sigma2;
  self->objective = kept / self->total_variance;
  if (!(sigma2 > 0))
    {
      self->log_likelihood = NAN;
      return;
    }
  /* C = U diag(λ') Uᵀ + σ²(I − U Uᵀ) with λ' = max(λ·n/(n − 1), σ²). */
  log_det = (d - m) * log (sigma2);
  trace = (self->total_variance - kept) / sigma2;
  for (guint j = 0; j < m; j++)
    {
      const double lambda = MAX (self->eigenvalues[j] * unbiased, sigma2);

      log_det += log (lambda);
      trace += self->eigenvalues[j] / lambda;
    }
  self->log_likelihood = -0.5 * (d * log (2 * G_PI) + log_det + trace);
}

/* Components without variance are real results of rank-deficient data:
 * said once, not hidden. */
static void
note_rank (LatentLinear *self)
{
  /* Below rounding noise of the covariance: float from the device. */
  const double floor = (self->cl ? 1e-6 : 1e-12) * MAX (self->eigenvalues[0], DBL_MIN) * self->d;
  guint rank = 0;

  for (guint j = 0; j < self->m; j++)
    if (self->eigenvalues[j] > floor)
      rank++;
  if (rank < self->m)
    g_string_append_printf (self->message,
                            _("Only %u of the %u components carry variance: the data spans %u dimensions. "
                              "The others are directions without variance. "),
                            rank, self->m, rank);
}

/* The covariance from the device carries float precision only: solving it
 * in float (ssyevr) loses nothing and halves the time. The reference path
 * solves in double. */
/* Rayleigh quotients of the current w, from self->sw = S · w. */
static void
rayleigh (LatentLinear *self)
{
  const guint d = self->d, m = self->m;

  for (guint j = 0; j < m; j++)
    {
      double q = 0;

      for (guint r = 0; r < d; r++)
        q += self->w[(gsize) r * m + j] * self->sw[(gsize) r * m + j];
      self->eigenvalues[j] = MAX (0, q);
    }
}

/* One step of subspace iteration: the Ritz vectors of span(w), from
 * H = wᵀ S w, are multiplied by S and orthonormalised. */
static gboolean
iterate (LatentLinear  *self,
         GCancellable  *cancellable,
         GError       **error)
{
  const guint d = self->d, m = self->m;
  g_autofree double *theta = g_new (double, m);
  g_autofree double *ritz = g_memdup2 (self->w, sizeof (double) * d * m);
  g_autofree double *next = g_memdup2 (self->sw, sizeof (double) * d * m);
  double change = 0;

  /* Ritz vectors w·V and their images S·w·V, largest value first. */
  if (!latent_linear_rayleigh_ritz (ritz, next, d, m, TRUE, theta))
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_NUMERIC,
                   _("PCA: the Rayleigh–Ritz step failed"));
      return FALSE;
    }
  if (!latent_linear_orthonormalise (next, d, m))
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_NUMERIC,
                   _("PCA: the subspace collapsed; the data may have fewer dimensions than components"));
      return FALSE;
    }
  for (guint j = 0; j < m; j++)
    {
      double c = 0;

      for (guint r = 0; r < d; r++)
        c += ritz[(gsize) r * m + j] * next[(gsize) r * m + j];
      change = MAX (change, sqrt (MAX (0, 1 - c * c)));
    }
  memcpy (self->w, next, sizeof (double) * d * m);
  if (!latent_linear_cov_times (self, self->w, self->sw, cancellable, error))
    return FALSE;
  rayleigh (self);
  self->change = change;
  return TRUE;
}

static const LatentAlgorithm pca_algorithm;

static gboolean
pca_check (LatentDataset  *dataset,
             LatentParams   *params,
             GError        **error)
{
  return latent_linear_check (LATENT_LINEAR_PCA, dataset, params, error);
}

static gint64
pca_max_int (LatentDataset         *dataset,
             LatentParams          *params,
             const LatentParamSpec *spec)
{
  return latent_linear_max_int (LATENT_LINEAR_PCA, dataset, spec);
}

static gpointer
pca_init (LatentDataset  *dataset,
          LatentParams   *params,
          guint64         seed,
          LatentCl       *cl,
          GCancellable   *cancellable,
          GError        **error)
{
  g_autoptr(LatentLinear) self = NULL;
  LatentLinearParams p;

  self = latent_linear_new (LATENT_LINEAR_PCA, &pca_algorithm, dataset, params, seed, cl, error);
  if (self == NULL)
    return NULL;
  latent_linear_params_read (params, &p);
  if (g_str_equal (p.method, "iterative"))
    {
      latent_linear_random_w (self, 1);
      if (!latent_linear_cov_times (self, self->w, self->sw, NULL, error))
        return NULL;
      rayleigh (self);
      score (self);
    }
  return g_steal_pointer (&self);
}

static gboolean
pca_step (gpointer       data,
          GCancellable  *cancellable,
          GError       **error)
{
  LatentLinear *self = data;
  LatentLinearParams p;

  g_return_val_if_fail (!self->finished, FALSE);

  latent_linear_params_read (self->params, &p);
  g_string_truncate (self->message, 0);
  if (g_str_equal (p.method, "exact"))
    {
      if (!latent_linear_top_eigenvectors (self, error))
        return FALSE;
      self->converged = TRUE;
    }
  else
    {
      if (!iterate (self, cancellable, error))
        return FALSE;
      self->converged = self->change < self->tol;
    }
  self->iteration++;
  self->finished = self->converged || self->iteration >= self->max_iterations;
  score (self);
  if (self->finished)
    note_rank (self);
  return TRUE;
}

static const LatentAlgorithm pca_algorithm = {
  .id = "pca",
  .title = N_("Principal component analysis"),
  .short_title = N_("PCA"),
  .objective_name = N_("explained variance ratio"),
  .pace = 5,
  .family = LATENT_FAMILY_LINEAR,
  .flags = LATENT_ALGORITHM_ENCODER,
  .figures = latent_linear_figures,
  /* Translators: a principal component, short; %u counts from 1. */
  .component_name = N_("PC %u"),
  .params = pca_params,
  .n_params = G_N_ELEMENTS (pca_params),
  .check = pca_check,
  .max_int = pca_max_int,
  .init = pca_init,
  .step = pca_step,
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
latent_pca_get_algorithm (void)
{
  return &pca_algorithm;
}
