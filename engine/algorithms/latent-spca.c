/* latent-spca.c — sparse PCA, scikit-learn's SparsePCA objective, on the
 * covariance
 *
 * Components V (m × d) and codes U (n × m) of the centred rows X minimise
 *   ½ ‖X − U V‖² + α ‖V‖₁   with every code column ‖U_j‖ ≤ 1,
 * by alternating, as scikit-learn's dictionary learning does on Xᵀ: V by
 * a lasso per column given U, then each U_j in turn by a block coordinate
 * step, projected onto the unit ball. The codes always lie in the span of
 * the rows (they start there, as X times the principal axes, and every
 * step adds multiples of X Vᵀ), so U = X A for a d × m matrix A, and every
 * quantity the steps need is a product with the covariance S (XᵀX = n S):
 *   UᵀX = n (S A)ᵀ,  UᵀU = n Aᵀ S A,  X Vᵀ = X · Vᵀ,  ‖X‖² = n tr S.
 * So an iteration costs two products S · (d × m) — the device's — and
 * O(d m²) on the host, whatever the number of rows.
 *
 * The V step is exact: coordinate descent on each column's lasso
 * (m unknowns, Gram UᵀU) until no value moves by 1e-10 of the largest. The
 * U step is scikit-learn's _update_dict: U_j += (X V_jᵀ − U H_j) / H_jj
 * with H = V Vᵀ, then U_j /= max (‖U_j‖, 1); a component the penalty
 * emptied (H_jj ≤ 1e-6) restarts from the column of the data with the most
 * variance that no component uses, as scikit-learn restarts it from a row
 * of Xᵀ (a random one, with noise).
 * The start is scikit-learn's: A = the principal axes (U = X times them,
 * unnormalised). The history records the cost, ½ ‖X − U V‖² + α ‖V‖₁
 * summed over the rows as scikit-learn's error_; the run stops when an
 * iteration lowers it by less than tol of itself.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-spca"

#include "latent-linear-private.h"
#include "latent-linear.h"
#include "latent-linear-models.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "latent-json.h"

/* Coordinate-descent sweeps of the V step at most. */
#define MAX_SWEEPS 500

static const LatentParamSpec spca_params[] = {
  { .name = "components", LATENT_PARAM_INT_AT (LatentLinearParams, components),
    .label = N_("Components"),
    .tooltip = N_("Number of sparse components"),
    .min = 1, .max = LATENT_LINEAR_MAX_COLS, .default_value = 2 },
  { .name = "alpha", LATENT_PARAM_DOUBLE_AT (LatentLinearParams, alpha),
    .label = N_("Sparsity"),
    .tooltip = N_("Weight α of the L1 penalty on the components (scikit-learn's alpha): the larger, the "
                  "fewer columns each component uses; it weighs against the squared error summed over "
                  "all rows, so more rows need a larger α for the same sparsity"),
    .min = 0, .max = 1e12, .default_value = 1 },
  { .name = "tol", LATENT_PARAM_DOUBLE_AT (LatentLinearParams, tol),
    .label = N_("Tolerance"),
    .tooltip = N_("Stop when an iteration lowers the cost by less than this share of it"),
    .min = 0, .max = 1, .default_value = 1e-8,
    .role = LATENT_PARAM_ROLE_TOLERANCE },
  { .name = "max-iterations", LATENT_PARAM_INT_AT (LatentLinearParams, max_iterations),
    .label = N_("Maximum iterations"),
    .tooltip = N_("Stop after this many iterations"),
    .min = 1, .max = 100000, .default_value = 1000,
    .role = LATENT_PARAM_ROLE_BUDGET },
};

static const LatentAlgorithm spca_algorithm;

static double
soft (double value,
      double threshold)
{
  return value > threshold ? value - threshold : value < -threshold ? value + threshold : 0;
}

/* G = UᵀU = n Aᵀ S A (m × m) and C = UᵀX = n (S A)ᵀ, as c[a m + j] (d × m). */
static void
gram (LatentLinear *self,
      double       *g)
{
  latent_linear_inner (self, self->a, self->sa, 0, g);
  for (gsize i = 0; i < (gsize) self->m * self->m; i++)
    g[i] *= self->n;
}

/* The lasso of every column given U, by coordinate descent, from the V
 * that w holds. */
static void
update_components (LatentLinear *self,
                   const double *g)
{
  const guint d = self->d, m = self->m;
  const double n = self->n;
  double *v = self->w;

  for (guint a = 0; a < d; a++)
    {
      double *va = v + (gsize) a * m;
      const double *ca = self->sa + (gsize) a * m;   /* C_a = n (S A)_a */

      for (guint sweep = 0; sweep < MAX_SWEEPS; sweep++)
        {
          double moved = 0, largest = 0;

          for (guint j = 0; j < m; j++)
            {
              const double gjj = g[(gsize) j * m + j];
              double r = n * ca[j], next;

              for (guint i = 0; i < m; i++)
                if (i != j)
                  r -= g[(gsize) j * m + i] * va[i];
              next = gjj > 0 ? soft (r, self->alpha) / gjj : 0;
              moved = MAX (moved, fabs (next - va[j]));
              largest = MAX (largest, fabs (next));
              va[j] = next;
            }
          if (moved <= 1e-10 * largest)
            break;
        }
    }
}

/* The column of the data with the most variance that no component uses:
 * a restart for an emptied component (any column, if all are used). */
static guint
restart_column (LatentLinear *self)
{
  const guint d = self->d, m = self->m;
  double best = -1, best_any = -1;
  guint best_a = 0, best_any_a = 0;

  for (guint a = 0; a < d; a++)
    {
      const double variance = self->cov[(gsize) a * d + a];
      gboolean used = FALSE;

      for (guint j = 0; j < m; j++)
        used |= self->w[(gsize) a * m + j] != 0;
      if (!used && variance > best)
        best = variance, best_a = a;
      if (variance > best_any)
        best_any = variance, best_any_a = a;
    }
  return best >= 0 ? best_a : best_any_a;
}

/* scikit-learn's _update_dict in the span of the rows, from svt = S Vᵀ:
 * A_j += (Vᵀ_j − A H_j) / H_jj, S A_j likewise, then both over
 * max (‖U_j‖, 1) with ‖U_j‖² = n A_jᵀ S A_j. */
static void
update_codes (LatentLinear *self,
              const double *svt)
{
  const guint d = self->d, m = self->m;
  g_autofree double *h = g_new (double, (gsize) m * m);

  latent_linear_inner (self, self->w, self->w, 0, h);
  for (guint j = 0; j < m; j++)
    {
      const double hjj = h[(gsize) j * m + j];
      double norm = 0;

      if (hjj > 1e-6)
        for (guint a = 0; a < d; a++)
          {
            double da = self->w[(gsize) a * m + j], dsa = svt[(gsize) a * m + j];

            for (guint i = 0; i < m; i++)
              {
                da -= self->a[(gsize) a * m + i] * h[(gsize) i * m + j];
                dsa -= self->sa[(gsize) a * m + i] * h[(gsize) i * m + j];
              }
            self->a[(gsize) a * m + j] += da / hjj;
            self->sa[(gsize) a * m + j] += dsa / hjj;
          }
      else
        {
          const guint col = restart_column (self);

          g_string_append_printf (self->message, _("Component %u was empty and starts again from column %u. "),
                                  j + 1, col + 1);
          for (guint a = 0; a < d; a++)
            {
              self->a[(gsize) a * m + j] = a == col;
              self->sa[(gsize) a * m + j] = self->cov[(gsize) a * d + col];
              self->w[(gsize) a * m + j] = 0;
            }
        }
      for (guint a = 0; a < d; a++)
        norm += self->a[(gsize) a * m + j] * self->sa[(gsize) a * m + j];
      norm = sqrt (MAX (norm * self->n, 0));
      if (norm > 1)
        for (guint a = 0; a < d; a++)
          {
            self->a[(gsize) a * m + j] /= norm;
            self->sa[(gsize) a * m + j] /= norm;
          }
    }
}

/* ½ ‖X − U V‖² + α ‖V‖₁ = ½ (n tr S − 2 Σ V∘C + Σ (G V)∘V) + α Σ |V|;
 * the residual's mean square per value becomes the noise variance. */
static double
cost (LatentLinear *self,
      const double *g)
{
  const guint d = self->d, m = self->m;
  double fit = self->n * self->total_variance, l1 = 0;

  for (guint a = 0; a < d; a++)
    {
      const double *va = self->w + (gsize) a * m;

      for (guint j = 0; j < m; j++)
        {
          double gv = 0;

          for (guint i = 0; i < m; i++)
            gv += g[(gsize) j * m + i] * va[i];
          fit += va[j] * (gv - 2 * self->n * self->sa[(gsize) a * m + j]);
          l1 += fabs (va[j]);
        }
    }
  self->psi[0] = MAX (fit, 0) / ((double) self->n * d);
  return 0.5 * MAX (fit, 0) + self->alpha * l1;
}

static gboolean
spca_check (LatentDataset  *dataset,
            LatentParams   *params,
            GError        **error)
{
  return latent_linear_check (LATENT_LINEAR_SPCA, dataset, params, error);
}

static gint64
spca_max_int (LatentDataset         *dataset,
              LatentParams          *params,
              const LatentParamSpec *spec)
{
  return latent_linear_max_int (LATENT_LINEAR_SPCA, dataset, spec);
}

static gpointer
spca_init (LatentDataset  *dataset,
           LatentParams   *params,
           guint64         seed,
           LatentCl       *cl,
           GCancellable   *cancellable,
           GError        **error)
{
  g_autoptr(LatentLinear) self = NULL;
  LatentLinearParams p;

  self = latent_linear_new (LATENT_LINEAR_SPCA, &spca_algorithm, dataset, params, seed, cl, error);
  if (self == NULL)
    return NULL;
  latent_linear_params_read (params, &p);
  self->alpha = p.alpha;
  self->a = g_new (double, (gsize) self->d * self->m);
  self->sa = g_new (double, (gsize) self->d * self->m);
  /* scikit-learn's start: the principal axes as A and as V. */
  if (!latent_linear_top_eigenvectors (self, error))
    return NULL;
  memcpy (self->a, self->w, sizeof (double) * self->d * self->m);
  if (!latent_linear_cov_times (self, self->a, self->sa, cancellable, error))
    return NULL;
  self->objective = NAN;
  return g_steal_pointer (&self);
}

static gboolean
spca_step (gpointer       data,
           GCancellable  *cancellable,
           GError       **error)
{
  LatentLinear *self = data;
  const guint m = self->m;
  g_autofree double *g = g_new (double, (gsize) m * m);
  g_autofree double *vt = g_new (double, (gsize) self->d * m);
  double last = self->objective;

  g_return_val_if_fail (!self->finished, FALSE);

  g_string_truncate (self->message, 0);
  gram (self, g);
  update_components (self, g);
  memcpy (vt, self->w, sizeof (double) * self->d * m);
  if (!latent_linear_cov_times (self, vt, self->sw, cancellable, error))
    return FALSE;
  update_codes (self, self->sw);
  /* S A afresh, so the sums carried along do not drift. */
  if (!latent_linear_cov_times (self, self->a, self->sa, cancellable, error))
    return FALSE;
  gram (self, g);
  self->objective = cost (self, g);
  self->change = isfinite (last) ? last - self->objective : INFINITY;
  self->iteration++;
  self->converged = self->tol > 0 && isfinite (last) && self->change < self->tol * self->objective;
  self->finished = self->converged || self->iteration >= self->max_iterations;
  return TRUE;
}

/* The linear models' members, the cost and how sparse the components are. */
static void
spca_write_json (LatentSnapshot *snap,
                 JsonBuilder    *b)
{
  const LatentLinearPart *part = &snap->linear;
  const gsize count = (gsize) part->n_components * snap->n_cols;
  gsize zeros = 0;

  latent_linear_models_write_json (snap, b);
  for (gsize i = 0; part->components && i < count; i++)
    zeros += part->components[i] == 0;
  latent_json_add_number_member (b, "cost", snap->objective);
  latent_json_add_number_member (b, "sparsity", count ? (double) zeros / count : NAN);
}

static const LatentAlgorithm spca_algorithm = {
  .id = "spca",
  .title = N_("Sparse PCA"),
  .short_title = N_("sparse PCA"),
  .objective_name = N_("cost"),
  .pace = 10,
  .family = LATENT_FAMILY_LINEAR,
  .flags = LATENT_ALGORITHM_ENCODER,
  .figures = latent_linear_figures,
  /* Translators: a sparse principal component, short; %u counts from 1. */
  .component_name = N_("SPC %u"),
  .params = spca_params,
  .n_params = G_N_ELEMENTS (spca_params),
  .check = spca_check,
  .max_int = spca_max_int,
  .init = spca_init,
  .step = spca_step,
  .snapshot = latent_linear_snapshot,
  .objective = latent_linear_objective,
  .converged = latent_linear_converged,
  .free = latent_linear_free,
  .write_json = spca_write_json,
  .encode = latent_linear_encode,
  .read_model = latent_linear_read_model,
  .write_csv_header = latent_linear_models_write_csv_header,
  .write_csv_row = latent_linear_models_write_csv_row,
};

const LatentAlgorithm *
latent_spca_get_algorithm (void)
{
  return &spca_algorithm;
}
