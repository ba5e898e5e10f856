/* test-spca.c — sparse PCA on its reference path: two hidden factors that
 * each drive their own five of twenty columns are found as two components
 * that use those columns and no others; the cost never rises; with no
 * penalty the fit is PCA's; a larger penalty leaves more zeros; a penalty
 * that empties a component restarts it and says so
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-test-spca"

#include <math.h>
#include <string.h>

#include "latent-test-util.h"
#include "latent-linear.h"

#define N 2000
#define D 20

/* Columns 0–4 follow one factor, 5–9 another (with weights 1 … 2), the
 * other ten are noise of a tenth of their spread. */
static LatentDataset *
two_factors (void)
{
  LatentDataset *ds = latent_dataset_new ("two factors", N, D, NULL);
  float *x = latent_dataset_get_data (ds);
  guint64 state = 41;

  for (guint i = 0; i < N; i++)
    {
      const double f1 = 2 * test_normal (&state), f2 = 1.5 * test_normal (&state);

      for (guint a = 0; a < D; a++)
        {
          const double w = 1 + (a % 5) * 0.25;

          x[(gsize) i * D + a] = 3 + (a < 5 ? w * f1 : a < 10 ? w * f2 : 0) + 0.1 * test_normal (&state);
        }
    }
  return ds;
}

static LatentFit *
fit (LatentDataset *ds,
     const char    *first,
     ...)
{
  g_autoptr(LatentParams) params = latent_algorithm_new_params (latent_spca_get_algorithm ());
  g_autoptr(GError) error = NULL;
  LatentFit *result;
  va_list args;

  va_start (args, first);
  for (const char *a = first; a != NULL; a = va_arg (args, const char *))
    g_assert_true (latent_params_parse (params, a, NULL));
  va_end (args);
  result = latent_algorithm_fit (latent_spca_get_algorithm (), ds, params, 1, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  return result;
}

static guint
zeros (const LatentSnapshot *snap)
{
  guint count = 0;

  for (gsize i = 0; i < (gsize) snap->linear.n_components * D; i++)
    count += snap->linear.components[i] == 0;
  return count;
}

static void
test_finds_the_factors (void)
{
  g_autoptr(LatentDataset) ds = two_factors ();
  g_autoptr(LatentFit) result = fit (ds, "components=2", "alpha=40", NULL);
  const LatentSnapshot *snap = result->snapshot;
  gboolean block_seen[2] = { FALSE, FALSE };

  g_assert_true (snap->converged);
  for (guint j = 0; j < 2; j++)
    {
      const float *c = snap->linear.components + (gsize) j * D;
      double norm = 0;
      guint block = fabs (c[0]) > fabs (c[5]) ? 0 : 1;

      for (guint a = 0; a < D; a++)
        {
          norm += (double) c[a] * c[a];
          /* Its own five columns, each with the factor's sign; none else. */
          if (a / 5 == block)
            g_assert_cmpfloat (c[a] * c[block * 5], >, 0);
          else
            g_assert_cmpfloat (c[a], ==, 0);
        }
      g_assert_cmpfloat (fabs (norm - 1), <, 1e-5);
      block_seen[block] = TRUE;
    }
  g_assert_true (block_seen[0] && block_seen[1]);
  /* The larger factor (spread 2 against 1.5) first: columns 0–4. */
  g_assert_cmpfloat (snap->linear.components[0], !=, 0);
  g_assert_cmpfloat (snap->linear.components[5], ==, 0);
}

static void
test_cost_falls (void)
{
  g_autoptr(LatentDataset) ds = two_factors ();
  g_autoptr(LatentFit) result = fit (ds, "components=4", "alpha=10", "tol=0", "max-iterations=40", NULL);
  const GArray *h = result->history;

  g_assert_cmpuint (h->len, ==, 40);
  for (guint i = 1; i < h->len; i++)
    {
      const double before = g_array_index (h, LatentIterationRecord, i - 1).objective;
      const double after = g_array_index (h, LatentIterationRecord, i).objective;

      g_assert_cmpfloat (after, <=, before * (1 + 1e-9));
    }
}

/* Without a penalty the best fit of m components is PCA's subspace: the
 * same mean squared residual (sparse PCA's noise variance; its
 * reconstruction error is through scikit-learn's ridge transform, which
 * shrinks the codes by a hundredth). */
static void
test_no_penalty_is_pca (void)
{
  g_autoptr(LatentDataset) ds = two_factors ();
  g_autoptr(LatentFit) sparse = fit (ds, "components=3", "alpha=0", "tol=1e-12", NULL);
  g_autoptr(LatentParams) params = latent_algorithm_new_params (latent_pca_get_algorithm ());
  g_autoptr(LatentFit) pca = NULL;

  g_assert_true (latent_params_parse (params, "components=3", NULL));
  pca = latent_algorithm_fit (latent_pca_get_algorithm (), ds, params, 1, NULL, NULL, NULL, NULL, NULL);
  g_test_message ("mean squared residual: sparse PCA %.9g, PCA %.9g", sparse->snapshot->linear.noise_variance[0],
                  pca->snapshot->linear.reconstruction_error);
  g_assert_cmpfloat (fabs (sparse->snapshot->linear.noise_variance[0] - pca->snapshot->linear.reconstruction_error),
                     <, 1e-4 * pca->snapshot->linear.reconstruction_error);
  g_assert_cmpuint (zeros (sparse->snapshot), <, 3 * D / 4);
}

static void
test_more_penalty_more_zeros (void)
{
  g_autoptr(LatentDataset) ds = two_factors ();
  g_autoptr(LatentFit) light = fit (ds, "components=2", "alpha=0.01", NULL);
  g_autoptr(LatentFit) heavy = fit (ds, "components=2", "alpha=40", NULL);

  g_test_message ("zeros: α = 0.01 %u, α = 40 %u of %u", zeros (light->snapshot), zeros (heavy->snapshot), 2 * D);
  g_assert_cmpuint (zeros (heavy->snapshot), >, zeros (light->snapshot));
  g_assert_cmpfloat (heavy->snapshot->objective, >, light->snapshot->objective);
}

/* So large a penalty that a component has nothing left: it starts again
 * from a column, the run says so and ends with finite numbers. */
static void
test_emptied_component (void)
{
  g_autoptr(LatentDataset) ds = two_factors ();
  g_autoptr(LatentFit) result = fit (ds, "components=3", "alpha=2000", "max-iterations=5", NULL);

  g_assert_nonnull (result->snapshot->message);
  g_assert_nonnull (strstr (result->snapshot->message, "starts again from column"));
  g_assert_true (isfinite (result->snapshot->objective));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/spca/finds-the-factors", test_finds_the_factors);
  g_test_add_func ("/spca/cost-falls", test_cost_falls);
  g_test_add_func ("/spca/no-penalty-is-pca", test_no_penalty_is_pca);
  g_test_add_func ("/spca/more-penalty-more-zeros", test_more_penalty_more_zeros);
  g_test_add_func ("/spca/emptied-component", test_emptied_component);
  return g_test_run ();
}
