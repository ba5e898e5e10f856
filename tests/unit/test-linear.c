/* test-linear.c — PCA, probabilistic PCA and factor analysis on the C
 * reference path: against the covariance computed here, the closed-form
 * PPCA solution, a known factor model, and degenerate data
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <lapacke.h>
#include <math.h>

#include "latent-catalog.h"
#include "latent-linear.h"
#include "latent-test-util.h"

/* Rows x = mean + A z + noise: z standard normal in `rank` dimensions,
 * A fixed, then `noise` times a standard normal per column. */
static LatentDataset *
test_low_rank (guint   n,
               guint   d,
               guint   rank,
               double  noise,
               double  offset,
               guint64 seed)
{
  LatentDataset *ds = latent_dataset_new ("low rank", n, d, NULL);
  float *x = latent_dataset_get_data (ds);
  g_autofree double *a = g_new (double, (gsize) d * rank);
  g_autofree double *z = g_new (double, rank);
  guint64 state = seed * 2654435761u + 7;

  for (guint i = 0; i < d * rank; i++)
    a[i] = test_normal (&state) * (1 + (i % rank));
  for (guint i = 0; i < n; i++)
    {
      for (guint j = 0; j < rank; j++)
        z[j] = test_normal (&state);
      for (guint f = 0; f < d; f++)
        {
          double v = offset + f;
          for (guint j = 0; j < rank; j++)
            v += a[(gsize) f * rank + j] * z[j];
          x[(gsize) i * d + f] = v + noise * test_normal (&state);
        }
    }
  return ds;
}

/* The covariance (1/n) in double, computed independently of the engine. */
static double *
covariance (LatentDataset *ds)
{
  const guint n = latent_dataset_get_n_rows (ds), d = latent_dataset_get_n_cols (ds);
  const float *x = latent_dataset_get_data (ds);
  g_autofree double *mean = g_new0 (double, d);
  double *cov = g_new0 (double, (gsize) d * d);

  for (guint i = 0; i < n; i++)
    for (guint a = 0; a < d; a++)
      mean[a] += x[(gsize) i * d + a] / n;
  for (guint i = 0; i < n; i++)
    for (guint a = 0; a < d; a++)
      for (guint b = 0; b < d; b++)
        cov[(gsize) a * d + b] += (x[(gsize) i * d + a] - mean[a]) * (x[(gsize) i * d + b] - mean[b]) / n;
  return cov;
}

/* Descending eigenvalues of the covariance (LAPACK, in the test). */
static double *
spectrum (const double *cov,
          guint         d,
          double       *vectors)
{
  g_autofree double *a = g_memdup2 (cov, sizeof (double) * d * d);
  double *values = g_new (double, d);
  g_autofree double *up = g_new (double, d);

  g_assert_cmpint (LAPACKE_dsyev (LAPACK_ROW_MAJOR, 'V', 'U', d, a, d, up), ==, 0);
  for (guint j = 0; j < d; j++)
    {
      values[j] = up[d - 1 - j];
      if (vectors)
        for (guint r = 0; r < d; r++)
          vectors[(gsize) r * d + j] = a[(gsize) r * d + d - 1 - j];
    }
  return values;
}

/* NULL, with @error set, when the parameters do not fit the data. */
static LatentSnapshot *
fit_full (const LatentAlgorithm *alg,
          LatentDataset         *ds,
          GArray                *history,
          GError               **error,
          const char            *first,
          ...)
{
  g_autoptr(LatentParams) params = latent_algorithm_new_params (alg);
  g_autoptr(LatentFit) result = NULL;
  va_list args;

  va_start (args, first);
  for (const char *a = first; a; a = va_arg (args, const char *))
    g_assert_true (latent_params_parse (params, a, NULL));
  va_end (args);

  result = latent_algorithm_fit (alg, ds, params, 11, NULL, test_append_objective, history, NULL, error);
  return result != NULL ? g_steal_pointer (&result->snapshot) : NULL;
}

#define fit(alg, ds, history, ...) fit_full (alg, ds, history, NULL, __VA_ARGS__, NULL)

/* Largest sine of the principal angles between two m-dimensional subspaces
 * given by orthonormal rows (m × d): the longest residual of a row of v
 * after projection onto span(u). (Not from the cosines, whose rounding
 * alone would give sines of 3e-4 in float.) */
static double
subspace_sine (const float *u,
               const float *v,
               guint        m,
               guint        d)
{
  g_autofree double *r = g_new (double, d);
  double largest = 0;

  for (guint j = 0; j < m; j++)
    {
      double norm = 0;

      for (guint a = 0; a < d; a++)
        r[a] = v[(gsize) j * d + a];
      for (guint i = 0; i < m; i++)
        {
          double dot = 0;
          for (guint a = 0; a < d; a++)
            dot += (double) u[(gsize) i * d + a] * v[(gsize) j * d + a];
          for (guint a = 0; a < d; a++)
            r[a] -= dot * u[(gsize) i * d + a];
        }
      for (guint a = 0; a < d; a++)
        norm += r[a] * r[a];
      largest = MAX (largest, sqrt (norm));
    }
  return largest;
}

static void
test_pca_exact (void)
{
  g_autoptr(LatentDataset) ds = test_low_rank (400, 7, 3, 0.3, 5, 1);
  g_autofree double *cov = covariance (ds);
  g_autofree double *values = spectrum (cov, 7, NULL);
  g_autoptr(LatentSnapshot) snap = fit (latent_pca_get_algorithm (), ds, NULL, "components=3");
  const guint d = 7, m = 3, n = 400;
  double total = 0, ratio = 0;

  g_assert_nonnull (snap);
  g_assert_true (snap->final && snap->converged);
  g_assert_cmpuint (snap->iteration, ==, 1);
  g_assert_cmpuint (snap->linear.n_components, ==, m);
  for (guint a = 0; a < d; a++)
    total += cov[(gsize) a * d + a];
  for (guint j = 0; j < m; j++)
    {
      const float *c = snap->linear.components + (gsize) j * d;
      double norm = 0, largest = 0;

      /* An eigenvector of the covariance: S c = λ c, λ with n − 1. */
      for (guint a = 0; a < d; a++)
        {
          double sc = 0;
          for (guint b = 0; b < d; b++)
            sc += cov[(gsize) a * d + b] * c[b];
          g_assert_cmpfloat_with_epsilon (sc, values[j] * c[a], 1e-5 * values[0]);
          norm += (double) c[a] * c[a];
          if (fabs (c[a]) > fabs (largest))
            largest = c[a];
        }
      g_assert_cmpfloat_with_epsilon (norm, 1, 1e-6);
      g_assert_cmpfloat (largest, >, 0);
      g_assert_cmpfloat_with_epsilon (snap->linear.explained_variance[j], values[j] * n / (n - 1), 1e-9 * values[0]);
      g_assert_cmpfloat_with_epsilon (snap->linear.explained_variance_ratio[j], values[j] / total, 1e-9);
      ratio += snap->linear.explained_variance_ratio[j];
      if (j > 0)
        g_assert_cmpfloat (snap->linear.explained_variance[j], <=, snap->linear.explained_variance[j - 1]);
    }
  g_assert_cmpfloat_with_epsilon (snap->objective, ratio, 1e-12);
  /* The discarded variance, per value, is the reconstruction error; per
   * direction (n − 1) it is the noise variance. */
  g_assert_cmpfloat_with_epsilon (snap->linear.reconstruction_error, (values[3] + values[4] + values[5] + values[6]) / d,
                                  1e-9);
  g_assert_cmpfloat_with_epsilon (snap->linear.noise_variance[0],
                                  (values[3] + values[4] + values[5] + values[6]) / 4 * n / (n - 1), 1e-9);
  g_assert_true (isfinite (snap->linear.log_likelihood));

  /* Every component in the final projections, with its variance. */
  g_assert_cmpuint (snap->linear.projection_dims, ==, m);
  for (guint j = 0; j < m; j++)
    {
      double sum = 0, sq = 0;
      for (guint i = 0; i < n; i++)
        {
          double z = snap->linear.projection[(gsize) i * m + j];
          sum += z;
          sq += z * z;
        }
      g_assert_cmpfloat_with_epsilon (sum / n, 0, 1e-4);
      g_assert_cmpfloat_with_epsilon (sq / (n - 1), snap->linear.explained_variance[j], 1e-4 * values[0]);
    }
  g_assert_cmpuint (snap->linear.examples.n_examples, >, 0);
  g_assert_cmpuint (snap->linear.n_samples, >, 0);
  for (gsize i = 0; i < (gsize) snap->linear.n_samples * d; i++)
    g_assert_true (isfinite (snap->linear.samples[i]));
}

static void
test_pca_whiten (void)
{
  g_autoptr(LatentDataset) ds = test_low_rank (300, 5, 2, 0.5, 0, 2);
  g_autoptr(LatentSnapshot) snap = fit (latent_pca_get_algorithm (), ds, NULL, "components=2", "whiten=true");
  g_autoptr(LatentSnapshot) plain = fit (latent_pca_get_algorithm (), ds, NULL, "components=2");
  const guint n = 300;

  /* What the figures label the axes by. */
  g_assert_true (snap->linear.whitened);
  g_assert_false (plain->linear.whitened);
  for (guint j = 0; j < 2; j++)
    {
      double sq = 0;
      for (guint i = 0; i < n; i++)
        sq += snap->linear.projection[(gsize) i * 2 + j] * snap->linear.projection[(gsize) i * 2 + j];
      g_assert_cmpfloat_with_epsilon (sq / (n - 1), 1, 1e-4);
    }
}

static void
test_pca_iterative (void)
{
  g_autoptr(LatentDataset) ds = test_low_rank (500, 12, 4, 0.2, -3, 3);
  g_autoptr(GArray) history = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(LatentSnapshot) exact = fit (latent_pca_get_algorithm (), ds, NULL, "components=4");
  g_autoptr(LatentSnapshot) iter = fit (latent_pca_get_algorithm (), ds, history, "components=4",
                                        "method=iterative", "tol=1e-9");

  g_assert_true (iter->converged);
  g_assert_cmpuint (iter->iteration, >, 1);
  g_assert_cmpfloat (subspace_sine (exact->linear.components, iter->linear.components, 4, 12), <, 1e-6);
  for (guint j = 0; j < 4; j++)
    g_assert_cmpfloat_with_epsilon (iter->linear.explained_variance[j], exact->linear.explained_variance[j],
                                    1e-8 * exact->linear.explained_variance[0]);
  /* The Ritz values only grow: the explained share rises every step. */
  for (guint i = 1; i < history->len; i++)
    g_assert_cmpfloat (g_array_index (history, double, i), >=, g_array_index (history, double, i - 1) - 1e-12);
}

/* Tipping & Bishop: σ² is the mean of the discarded eigenvalues and
 * W Wᵀ = U (Λ − σ²) Uᵀ over the kept ones. */
static void
test_ppca_closed_form (void)
{
  const guint n = 600, d = 8, m = 2;
  g_autoptr(LatentDataset) ds = test_low_rank (n, d, 3, 0.4, 1, 4);
  g_autofree double *cov = covariance (ds);
  g_autofree double *u = g_new (double, (gsize) d * d);
  g_autofree double *values = spectrum (cov, d, u);
  g_autoptr(GArray) history = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(LatentSnapshot) snap = fit (latent_ppca_get_algorithm (), ds, history, "components=2", "tol=1e-12",
                                        "max-iterations=20000");
  double sigma2 = 0, ll, log_det = 0, trace = 0, total = 0;

  g_assert_true (snap->converged);
  for (guint j = m; j < d; j++)
    sigma2 += values[j] / (d - m);
  g_assert_cmpfloat_with_epsilon (snap->linear.noise_variance[0], sigma2, 1e-6 * sigma2);
  for (guint a = 0; a < d; a++)
    for (guint b = 0; b < d; b++)
      {
        double expect = 0, got = 0;
        for (guint j = 0; j < m; j++)
          {
            expect += u[(gsize) a * d + j] * (values[j] - sigma2) * u[(gsize) b * d + j];
            got += (double) snap->linear.components[(gsize) j * d + a] * snap->linear.components[(gsize) j * d + b];
          }
        g_assert_cmpfloat_with_epsilon (got, expect, 1e-5 * values[0]);
      }
  /* Whatever the random start, the columns come out orthogonal. */
  {
    double dot = 0, n0 = 0, n1 = 0;
    for (guint a = 0; a < d; a++)
      {
        dot += (double) snap->linear.components[a] * snap->linear.components[d + a];
        n0 += (double) snap->linear.components[a] * snap->linear.components[a];
        n1 += (double) snap->linear.components[d + a] * snap->linear.components[d + a];
      }
    g_assert_cmpfloat (fabs (dot), <, 1e-5 * sqrt (n0 * n1));
    g_assert_cmpfloat (n0, >=, n1);
  }
  /* Its log-likelihood, from the eigenvalues alone. */
  for (guint a = 0; a < d; a++)
    total += cov[(gsize) a * d + a];
  for (guint j = 0; j < m; j++)
    log_det += log (values[j]), trace += 1;
  log_det += (d - m) * log (sigma2);
  trace += (d - m);
  ll = -0.5 * (d * log (2 * G_PI) + log_det + trace);
  g_assert_cmpfloat_with_epsilon (snap->linear.log_likelihood, ll, 1e-8 * fabs (ll));
  /* EM never lowers the likelihood. */
  for (guint i = 1; i < history->len; i++)
    g_assert_cmpfloat (g_array_index (history, double, i), >=, g_array_index (history, double, i - 1) - 1e-10);
  /* The reconstruction projects onto span(W): the PCA error. */
  g_assert_cmpfloat_with_epsilon (snap->linear.reconstruction_error, sigma2 * (d - m) / d, 1e-5 * sigma2);
}

/* Data drawn from a factor model: the fit finds its noise variances. */
static void
test_fa_recovers_noise (void)
{
  const guint n = 20000, d = 6, m = 2;
  const double psi[6] = { 0.1, 0.5, 0.2, 1.0, 0.3, 0.05 };
  const double w[6][2] = { { 1, 0 }, { 0.8, 0.5 }, { 0, 1 }, { -0.5, 0.7 }, { 1.2, -0.3 }, { 0.4, 0.9 } };
  g_autoptr(LatentDataset) ds = latent_dataset_new ("factor model", n, d, NULL);
  float *x = latent_dataset_get_data (ds);
  g_autoptr(GArray) history = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(LatentSnapshot) snap = NULL;
  guint64 state = 99;

  for (guint i = 0; i < n; i++)
    {
      double z[2] = { test_normal (&state), test_normal (&state) };
      for (guint a = 0; a < d; a++)
        x[(gsize) i * d + a] = 3 + w[a][0] * z[0] + w[a][1] * z[1] + sqrt (psi[a]) * test_normal (&state);
    }
  snap = fit (latent_fa_get_algorithm (), ds, history, "components=2", "tol=1e-10", "max-iterations=20000");
  g_assert_true (snap->converged);
  g_assert_cmpuint (snap->linear.n_noise, ==, d);
  for (guint a = 0; a < d; a++)
    g_assert_cmpfloat_with_epsilon (snap->linear.noise_variance[a], psi[a], 0.1 * psi[a] + 0.01);
  for (guint i = 1; i < history->len; i++)
    g_assert_cmpfloat (g_array_index (history, double, i), >=, g_array_index (history, double, i - 1) - 1e-10);
  /* Loadings need not be orthogonal, and the projections exist. */
  g_assert_cmpuint (snap->linear.projection_dims, ==, m);
  g_assert_true (isfinite (snap->linear.reconstruction_error));
}

static void
test_degenerate (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentDataset) rank2 = test_low_rank (50, 5, 2, 0, 0, 5);
  g_autoptr(LatentDataset) same = latent_dataset_new ("same", 10, 3, NULL);
  g_autoptr(LatentDataset) one = latent_dataset_new ("one", 1, 3, NULL);
  g_autoptr(LatentDataset) constant = test_low_rank (60, 4, 2, 0.1, 0, 6);
  g_autoptr(LatentSnapshot) snap = NULL;
  float *x;

  /* Rank-deficient data: a correct rank-limited result, and it says so. */
  snap = fit (latent_pca_get_algorithm (), rank2, NULL, "components=4");
  g_assert_nonnull (snap);
  g_assert_nonnull (snap->message);
  g_assert_nonnull (strstr (snap->message, "Only 2 of the 4"));
  g_assert_cmpfloat (snap->linear.explained_variance_ratio[0] + snap->linear.explained_variance_ratio[1], >, 1 - 1e-6);
  g_assert_cmpfloat (fabs (snap->linear.explained_variance[3]), <, 1e-6);
  g_clear_pointer (&snap, latent_snapshot_unref);

  /* More components than columns: refused, naming the parameter. */
  snap = fit_full (latent_pca_get_algorithm (), rank2, NULL, &error, "components=6", NULL);
  g_assert_null (snap);
  g_assert_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER);
  g_assert_nonnull (strstr (error->message, "components = 6"));
  g_clear_error (&error);
  snap = fit_full (latent_ppca_get_algorithm (), rank2, NULL, &error, "components=5", NULL);
  g_assert_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER);
  g_clear_error (&error);
  {
    g_autoptr(LatentDataset) column = test_low_rank (20, 1, 1, 0.1, 0, 8);

    /* One column, said so ("the 1 columns" before). */
    snap = fit_full (latent_fa_get_algorithm (), column, NULL, &error, "components=1", NULL);
    g_assert_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER);
    g_assert_nonnull (strstr (error->message, "than the 1 column of"));
    g_clear_error (&error);
  }

  /* No variance at all, or a single row. */
  memset (latent_dataset_get_data (same), 0, sizeof (float) * 30);
  snap = fit_full (latent_fa_get_algorithm (), same, NULL, &error, "components=1", NULL);
  g_assert_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_DATA);
  g_assert_nonnull (strstr (error->message, "same"));
  g_clear_error (&error);
  snap = fit_full (latent_pca_get_algorithm (), one, NULL, &error, "components=1", NULL);
  g_assert_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER);
  g_clear_error (&error);

  /* A constant column: every model stays finite and leaves it out. */
  x = latent_dataset_get_data (constant);
  for (guint i = 0; i < 60; i++)
    x[(gsize) i * 4 + 2] = 7;
  for (guint which = 0; which < 3; which++)
    {
      const LatentAlgorithm *alg = which == 0 ? latent_pca_get_algorithm ()
                                   : which == 1 ? latent_ppca_get_algorithm () : latent_fa_get_algorithm ();

      snap = fit (alg, constant, NULL, "components=2");
      g_assert_nonnull (snap);
      g_assert_true (isfinite (snap->linear.log_likelihood));
      for (guint j = 0; j < 2; j++)
        g_assert_cmpfloat (fabs (snap->linear.components[(gsize) j * 4 + 2]), <, 1e-3);
      for (gsize i = 0; i < (gsize) snap->n_rows * snap->linear.projection_dims; i++)
        g_assert_true (isfinite (snap->linear.projection[i]));
      g_clear_pointer (&snap, latent_snapshot_unref);
    }

  /* Two components of three columns, one constant: nothing is left for
   * PPCA's noise. Refused naming components and the column (it said only
   * "the model became singular"). */
  {
    g_autoptr(LatentDataset) three = test_low_rank (80, 3, 2, 0.5, 0, 7);
    char *names[] = { "a", "b", "c", NULL };

    x = latent_dataset_get_data (three);
    for (guint i = 0; i < 80; i++)
      x[(gsize) i * 3 + 1] = 5;
    latent_dataset_set_column_names (three, names);
    snap = fit_full (latent_ppca_get_algorithm (), three, NULL, &error, "components=2", NULL);
    g_assert_null (snap);
    g_assert_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER);
    g_test_message ("%s", error->message);
    g_assert_nonnull (strstr (error->message, "components = 2"));
    g_assert_nonnull (strstr (error->message, "1 column is constant (b)"));
    g_clear_error (&error);
  }
}

/* Factor analysis with its defaults converges on Iris before its iteration
 * limit. With two factors a noise variance goes to zero (a Heywood case),
 * where EM gains about 1e-6 per row and iteration for thousands of them: the
 * tolerance of 1e-6 ran it into the limit of 1000. A run cut short by the
 * limit is final but not converged. */
static void
test_fa_iris_defaults (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentDataset) iris = latent_catalog_load ("iris", NULL, &error);
  g_autoptr(LatentSnapshot) snap = NULL;
  g_autoptr(LatentSnapshot) cut = NULL;

  g_assert_no_error (error);
  snap = fit (latent_fa_get_algorithm (), iris, NULL, NULL);
  g_test_message ("%u iterations, %s, log-likelihood %.5f per row", snap->iteration,
                  snap->converged ? "converged" : "not converged", snap->linear.log_likelihood);
  g_assert_true (snap->final);
  g_assert_true (snap->converged);
  g_assert_cmpuint (snap->iteration, <, 1000);
  /* scikit-learn's FactorAnalysis with its defaults ends at −2.6069 per row. */
  g_assert_cmpfloat (snap->linear.log_likelihood, >, -2.615);

  cut = fit (latent_fa_get_algorithm (), iris, NULL, "max-iterations=5");
  g_assert_cmpuint (cut->iteration, ==, 5);
  g_assert_true (cut->final);
  g_assert_false (cut->converged);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/linear/pca/exact", test_pca_exact);
  g_test_add_func ("/linear/pca/whiten", test_pca_whiten);
  g_test_add_func ("/linear/pca/iterative", test_pca_iterative);
  g_test_add_func ("/linear/ppca/closed-form", test_ppca_closed_form);
  g_test_add_func ("/linear/fa/recovers-noise", test_fa_recovers_noise);
  g_test_add_func ("/linear/fa/iris-defaults", test_fa_iris_defaults);
  g_test_add_func ("/linear/degenerate", test_degenerate);
  return g_test_run ();
}
