/* test-gmm-cl.c — the OpenCL passes of GMM-EM against the C reference
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <lapacke.h>
#include <stdio.h>

#include "latent-catalog.h"
#include "latent-gmm-private.h"
#include "latent-test-util.h"

static LatentCl *cl;

typedef struct {
  guint                n, d, k;
  LatentCovarianceType  covariance;
  gboolean             far;     /* a component away from the data, a row away from the components */
  guint                lanes;   /* 0: the device's choice */
  gboolean             no_fp64; /* sum as a device without doubles does */
  gboolean             odd;     /* small, uneven tunables: several tiles, chunks and stages */
} Case;

static const char * const covariance_names[] = { "full", "diag", "spherical" };

static void
gmm_free (LatentGmm *gmm)
{
  g_free ((float *) gmm->x);
  g_free (gmm->means);
  g_free (gmm->covariances);
  g_free (gmm->chol);
  g_free (gmm->log_det);
  g_free (gmm->weights);
  g_free (gmm->resp);
  g_free (gmm->scatter);
  g_free (gmm->stats.nk);
  g_free (gmm->stats.sx);
  g_free (gmm);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentGmm, gmm_free)

/* log p(x_i) by the reference, for one row. */
static double
row_log_density (LatentGmm *gmm,
                 guint      i)
{
  LatentGmm row = *gmm;
  g_autofree double *resp = g_new (double, gmm->k);
  g_autofree double *nk = g_new (double, gmm->k);
  g_autofree double *sx = g_new (double, (gsize) gmm->k * gmm->d);

  row.x = gmm->x + (gsize) i * gmm->d;
  row.n = 1;
  row.resp = resp;
  row.stats.nk = nk;
  row.stats.sx = sx;
  latent_gmm_reference_expect (&row, &row.stats);
  return row.stats.loglik;
}

/* A mixture with random means and covariances, rows drawn from it, and the
 * model the passes evaluate (the same, slightly moved, so that nothing
 * agrees by construction). */
static LatentGmm *
make_gmm (const Case *tc)
{
  LatentGmm *gmm = g_new0 (LatentGmm, 1);
  const guint n = tc->n, d = tc->d, k = tc->k;
  guint64 state = 7919u * n + 104729u * d + 31u * k + tc->covariance + 1;
  float *x = g_new (float, (gsize) n * d);
  const gsize per = latent_covariance_values (tc->covariance, d);
  double weight_sum = 0;

  gmm->n = n;
  gmm->d = d;
  gmm->k = k;
  gmm->covariance = tc->covariance;
  gmm->means = g_new (double, (gsize) k * d);
  gmm->covariances = g_new0 (double, k * per);
  gmm->chol = g_new0 (double, k * per);
  gmm->log_det = g_new (double, k);
  gmm->weights = g_new (double, k);
  gmm->resp = g_new (double, (gsize) n * k);
  gmm->scatter = g_new (double, k * per);
  gmm->stats.nk = g_new (double, k);
  gmm->stats.sx = g_new (double, (gsize) k * d);

  for (guint c = 0; c < k; c++)
    {
      double *cov = gmm->covariances + (gsize) c * per;
      double *l = gmm->chol + (gsize) c * per;
      const double scale = 0.5 + 2 * test_uniform (&state);

      for (guint f = 0; f < d; f++)
        gmm->means[(gsize) c * d + f] = 10 * test_uniform (&state) - 5;

      if (tc->covariance == LATENT_COVARIANCE_FULL)
        {
          /* A Aᵀ / d + scale I: well conditioned, far from diagonal. */
          g_autofree double *a = g_new (double, (gsize) d * d);

          for (guint i = 0; i < d * d; i++)
            a[i] = test_normal (&state);
          for (guint i = 0; i < d; i++)
            for (guint j = 0; j < d; j++)
              {
                double s = i == j ? scale : 0;

                for (guint m = 0; m < d; m++)
                  s += a[(gsize) i * d + m] * a[(gsize) j * d + m] / d;
                cov[(gsize) i * d + j] = s;
              }
        }
      else
        /* Diagonal and spherical models keep variances, and their roots. */
        for (gsize i = 0; i < per; i++)
          cov[i] = tc->covariance == LATENT_COVARIANCE_DIAGONAL ? scale * (0.3 + test_uniform (&state)) : scale;

      gmm->log_det[c] = 0;
      if (tc->covariance == LATENT_COVARIANCE_FULL)
        {
          memcpy (l, cov, sizeof (double) * d * d);
          g_assert_cmpint (LAPACKE_dpotrf (LAPACK_ROW_MAJOR, 'L', d, l, d), ==, 0);
          for (guint i = 0; i < d; i++)
            {
              for (guint j = i + 1; j < d; j++)
                l[(gsize) i * d + j] = 0;
              gmm->log_det[c] += 2 * log (l[(gsize) i * d + i]);
            }
        }
      else
        for (guint i = 0; i < d; i++)
          {
            const gsize at = tc->covariance == LATENT_COVARIANCE_DIAGONAL ? i : 0;

            l[at] = sqrt (cov[at]);
            gmm->log_det[c] += log (cov[at]);
          }

      gmm->weights[c] = 0.2 + test_uniform (&state);
      weight_sum += gmm->weights[c];
    }
  for (guint c = 0; c < k; c++)
    gmm->weights[c] /= weight_sum;

  for (guint i = 0; i < n; i++)
    {
      const guint c = i % k;
      const double *l = gmm->chol + (gsize) c * per;
      g_autofree double *e = g_new (double, d);

      for (guint f = 0; f < d; f++)
        e[f] = test_normal (&state);
      for (guint f = 0; f < d; f++)
        {
          double v = gmm->means[(gsize) c * d + f];

          if (tc->covariance == LATENT_COVARIANCE_FULL)
            for (guint j = 0; j <= f; j++)
              v += l[(gsize) f * d + j] * e[j];
          else
            v += l[tc->covariance == LATENT_COVARIANCE_DIAGONAL ? f : 0] * e[f];
          x[(gsize) i * d + f] = v;
        }
    }

  /* Evaluate a model a little off the one that drew the rows. */
  for (guint i = 0; i < k * d; i++)
    gmm->means[i] += 0.3 * test_normal (&state);

  if (tc->far)
    {
      /* No row comes near the last component; row 0 is far from all. */
      if (k > 1)
        for (guint f = 0; f < d; f++)
          gmm->means[(gsize) (k - 1) * d + f] = 1000;
      for (guint f = 0; f < d; f++)
        x[f] = -5 - 200 / sqrt (d);
    }
  gmm->x = x;
  return gmm;
}

static void
assert_close (double      got,
              double      want,
              double      tolerance,
              const char *what,
              guint       index)
{
  g_assert_false (isnan (got));
  if (fabs (got - want) > tolerance)
    g_error ("%s[%u]: %.9g, expected %.9g (tolerance %.3g)", what, index, got, want, tolerance);
}

static void
test_agrees (gconstpointer data)
{
  const Case *tc = data;
  g_autoptr(LatentGmm) gmm = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree double *ref_resp = NULL;
  g_autofree double *ref_nk = NULL;
  g_autofree double *ref_sx = NULL;
  g_autofree double *ref_scatter = NULL;
  g_autofree double *new_means = NULL;
  g_autofree double *magnitude = NULL;
  LatentGmmCl *gcl;
  double ref_loglik;
  guint n, d, k;
  gsize per;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  if (tc->lanes)
    {
      g_autofree char *lanes = g_strdup_printf ("%u", tc->lanes);
      g_setenv ("LATENT_GMM_LANES", lanes, TRUE);
    }
  else
    g_unsetenv ("LATENT_GMM_LANES");
  if (tc->no_fp64)
    g_setenv ("LATENT_GMM_FP64", "0", TRUE);
  else
    g_unsetenv ("LATENT_GMM_FP64");
  latent_cl_clear_tunables (cl, "gmm");
  if (tc->odd)
    {
      /* What a tuner may try; the CPU shape ignores them. */
      latent_cl_set_tunable (cl, "gmm", "EXPECT_WG", 64);
      latent_cl_set_tunable (cl, "gmm", "RESP_STAGE", 3);
      latent_cl_set_tunable (cl, "gmm", "SUM_ROWS", 16);
      latent_cl_set_tunable (cl, "gmm", "SUM_TILE_P", 8);
      latent_cl_set_tunable (cl, "gmm", "SUM_TILE_Q", 12);
      latent_cl_set_tunable (cl, "gmm", "SUM_BLOCK_P", 1);
      latent_cl_set_tunable (cl, "gmm", "SUM_BLOCK_Q", 3);
      latent_cl_set_tunable (cl, "gmm", "CHUNK_ROWS", 100);
      latent_cl_set_tunable (cl, "gmm", "REDUCE_WG", 32);
    }

  gmm = make_gmm (tc);
  n = gmm->n, d = gmm->d, k = gmm->k;

  latent_gmm_reference_expect (gmm, &gmm->stats);
  ref_resp = g_memdup2 (gmm->resp, sizeof (double) * n * k);
  ref_nk = g_memdup2 (gmm->stats.nk, sizeof (double) * k);
  ref_sx = g_memdup2 (gmm->stats.sx, sizeof (double) * k * d);
  ref_loglik = gmm->stats.loglik;
  g_assert_true (isfinite (ref_loglik));

  /* Σ_i r_ik max_f |x_if|: how large the float sums of component c get. */
  magnitude = g_new0 (double, k);
  for (guint i = 0; i < n; i++)
    {
      double m = 0;

      for (guint f = 0; f < d; f++)
        m = MAX (m, fabs (gmm->x[(gsize) i * d + f]));
      for (guint c = 0; c < k; c++)
        magnitude[c] += ref_resp[(gsize) i * k + c] * m;
    }

  gcl = latent_gmm_cl_new (gmm, cl, &error);
  g_assert_no_error (error);
  g_assert_nonnull (gcl);

  memset (gmm->resp, 0xff, sizeof (double) * n * k);   /* NaN until written */
  g_assert_true (latent_gmm_cl_expect (gcl, gmm, &gmm->stats, NULL, &error));
  g_assert_no_error (error);

  for (guint i = 0; i < n; i++)
    {
      /* Floats resolve log p(x) to a few units in its last place: the far
       * row's responsibilities (log p in the thousands) cannot be known
       * to 1e-5, only the structure of the answer. */
      const double tolerance = MAX (1e-5, 3e-7 * fabs (row_log_density (gmm, i)));
      double total = 0;

      for (guint c = 0; c < k; c++)
        {
          const gsize at = (gsize) i * k + c;

          assert_close (gmm->resp[at], ref_resp[at], tolerance, "resp", at);
          g_assert_cmpfloat (gmm->resp[at], >=, 0);
          g_assert_cmpfloat (gmm->resp[at], <=, 1);
          total += gmm->resp[at];
        }
      assert_close (total, 1, 1e-5, "Σ resp", i);
    }
  if (tc->far)
    g_assert_cmpfloat (row_log_density (gmm, 0), <, -800);   /* exp() of it is 0, even in double */
  for (guint c = 0; c < k; c++)
    {
      assert_close (gmm->stats.nk[c], ref_nk[c], 1e-5 * MAX (ref_nk[c], 1), "nk", c);
      for (guint f = 0; f < d; f++)
        assert_close (gmm->stats.sx[(gsize) c * d + f], ref_sx[(gsize) c * d + f],
                      1e-5 * (fabs (ref_sx[(gsize) c * d + f]) + magnitude[c]) + 1e-9, "sx", c * d + f);
    }
  assert_close (gmm->stats.loglik, ref_loglik, 1e-5 * fabs (ref_loglik), "loglik", 0);
  if (tc->far && k > 1)
    g_assert_cmpfloat (gmm->stats.nk[k - 1], <, 1e-6);

  /* The scatter about the means of the next M-step (the old ones where a
   * component has no weight), from the responsibilities on the device. */
  new_means = g_new (double, (gsize) k * d);
  for (guint c = 0; c < k; c++)
    for (guint f = 0; f < d; f++)
      new_means[(gsize) c * d + f] = ref_nk[c] > 1e-3 ? ref_sx[(gsize) c * d + f] / ref_nk[c]
                                                       : gmm->means[(gsize) c * d + f];
  memcpy (gmm->resp, ref_resp, sizeof (double) * n * k);
  per = latent_covariance_values (tc->covariance, d);
  ref_scatter = g_new (double, k * per);
  latent_gmm_reference_scatter (gmm, new_means, ref_scatter);
  /* The device must not read the host's responsibilities. */
  memset (gmm->resp, 0xff, sizeof (double) * n * k);

  memset (gmm->scatter, 0xff, sizeof (double) * k * per);
  g_assert_true (latent_gmm_cl_scatter (gcl, gmm, new_means, gmm->scatter, NULL, &error));
  g_assert_no_error (error);
  for (guint c = 0; c < k && tc->covariance != LATENT_COVARIANCE_FULL; c++)
    for (gsize at = 0; at < per; at++)
      {
        const double want = ref_scatter[c * per + at];

        assert_close (gmm->scatter[c * per + at], want, 1e-4 * fabs (want) + 1e-9, "scatter", c * per + at);
      }
  for (guint c = 0; c < k && tc->covariance == LATENT_COVARIANCE_FULL; c++)
    {
      const double *want = ref_scatter + (gsize) c * d * d;
      const double *got = gmm->scatter + (gsize) c * d * d;

      for (guint a = 0; a < d; a++)
        for (guint b = 0; b < d; b++)
          {
            const gsize at = (gsize) a * d + b;
            /* Cauchy–Schwarz: |S_ab| ≤ √(S_aa S_bb), the scale of the sums. */
            const double scale = sqrt (want[(gsize) a * d + a] * want[(gsize) b * d + b]);

            assert_close (got[at], want[at], 1e-4 * (fabs (want[at]) + scale) + 1e-9, "scatter",
                          c * d * d + at);
            g_assert_cmpfloat (got[at], ==, got[(gsize) b * d + a]);
          }
    }

  latent_gmm_cl_free (gcl);
  latent_cl_clear_tunables (cl, "gmm");
}

/* Errors a caller can cause: scatter before expect, and a cancelled run. */
static void
test_errors (void)
{
  const Case tc = { 300, 3, 2, LATENT_COVARIANCE_FULL, FALSE, 0, FALSE, FALSE };
  g_autoptr(LatentGmm) gmm = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  LatentGmmCl *gcl;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  g_unsetenv ("LATENT_GMM_LANES");
  g_unsetenv ("LATENT_GMM_FP64");
  gmm = make_gmm (&tc);
  gcl = latent_gmm_cl_new (gmm, cl, &error);
  g_assert_no_error (error);

  g_assert_false (latent_gmm_cl_scatter (gcl, gmm, gmm->means, gmm->scatter, NULL, &error));
  g_assert_error (error, LATENT_CL_ERROR, LATENT_CL_ERROR_CALL);
  g_clear_error (&error);

  g_cancellable_cancel (cancellable);
  g_assert_false (latent_gmm_cl_expect (gcl, gmm, &gmm->stats, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  /* A cancelled expect leaves nothing for a scatter to use. */
  g_assert_false (latent_gmm_cl_scatter (gcl, gmm, gmm->means, gmm->scatter, NULL, &error));
  g_assert_error (error, LATENT_CL_ERROR, LATENT_CL_ERROR_CALL);
  g_clear_error (&error);

  g_assert_true (latent_gmm_cl_expect (gcl, gmm, &gmm->stats, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (latent_gmm_cl_scatter (gcl, gmm, gmm->means, gmm->scatter, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  latent_gmm_cl_free (gcl);
}

static void
add_case (guint               n,
          guint               d,
          guint               k,
          LatentCovarianceType covariance,
          gboolean            far,
          guint               lanes,
          gboolean            no_fp64,
          gboolean            odd)
{
  Case *tc = g_new (Case, 1);
  g_autofree char *path = NULL;
  g_autofree char *lanes_part = lanes ? g_strdup_printf ("-lanes%u", lanes) : g_strdup ("");

  *tc = (Case) { n, d, k, covariance, far, lanes, no_fp64, odd };
  path = g_strdup_printf ("/gmm-cl/agrees/%s/n%u-d%u-k%u%s%s%s%s", covariance_names[covariance], n, d, k,
                          far ? "-far" : "", lanes_part, no_fp64 ? "-float" : "", odd ? "-odd-tunables" : "");
  g_test_add_data_func_full (path, tc, test_agrees, g_free);
}

/* Multiple restarts agree: every start ends at the same log-likelihood on
 * the device, the same start wins, and the run replayed from it is the
 * same. */
static void
test_restarts_agree (void)
{
  const LatentAlgorithm *alg = latent_gmm_get_algorithm ();
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentDataset) ds = latent_catalog_load ("blobs:n=800,k=8,dims=2,seed=4", NULL, &error);
  g_autoptr(LatentParams) params = latent_algorithm_new_params (alg);
  g_autoptr(LatentFit) ref = NULL;
  g_autoptr(LatentFit) dev = NULL;
  guint differ = 0;

  g_assert_no_error (error);
  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  g_assert_true (latent_params_parse (params, "k=8", NULL));
  g_assert_true (latent_params_parse (params, "restarts=5", NULL));
  ref = latent_algorithm_fit (alg, ds, params, 0, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  dev = latent_algorithm_fit (alg, ds, params, 0, cl, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  g_assert_cmpstr (ref->snapshot->device, ==, "CPU reference");
  g_assert_cmpstr (dev->snapshot->device, !=, "CPU reference");
  g_assert_cmpuint (ref->snapshot->clusters.n_starts, ==, 5);
  g_assert_cmpuint (dev->snapshot->clusters.n_starts, ==, 5);
  for (guint r = 0; r < 5; r++)
    {
      double a = ref->snapshot->clusters.start_objectives[r], b = dev->snapshot->clusters.start_objectives[r];

      g_test_message ("start %u: log-likelihood %.6f on the reference, %.6f on the device", r, a, b);
      g_assert_cmpfloat (fabs (a - b), <=, 1e-4);
    }
  g_assert_cmpuint (ref->snapshot->clusters.best_start, ==, dev->snapshot->clusters.best_start);
  g_assert_cmpfloat (fabs (ref->snapshot->mixture.log_likelihood - dev->snapshot->mixture.log_likelihood), <=, 1e-4);
  g_assert_cmpfloat (fabs (dev->snapshot->mixture.log_likelihood -
                           dev->snapshot->clusters.start_objectives[dev->snapshot->clusters.best_start]), <=, 1e-9);
  for (guint i = 0; i < ref->snapshot->n_rows; i++)
    differ += ref->snapshot->clusters.labels[i] != dev->snapshot->clusters.labels[i];
  /* Rows on a boundary may go either way within rounding. */
  g_assert_cmpuint (differ, <=, ref->snapshot->n_rows / 100);
}

/* Issue 15: wide data (20,000 columns, k = 16) in diagonal and spherical
 * models, which keep d values or one per component: a few iterations on
 * both paths, finite, and the same log-likelihoods. */
static void
test_wide_agrees (void)
{
  const LatentAlgorithm *alg = latent_gmm_get_algorithm ();
  g_autoptr(LatentDataset) ds = test_blobs (64, 20000, 16, 0.5, 11);
  const char *types[] = { "covariance=diag", "covariance=spherical" };

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  g_unsetenv ("LATENT_GMM_LANES");
  g_unsetenv ("LATENT_GMM_FP64");
  for (guint t = 0; t < G_N_ELEMENTS (types); t++)
    {
      g_autoptr(LatentParams) params = latent_algorithm_new_params (alg);
      g_autoptr(GArray) ref_history = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GArray) dev_history = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(LatentFit) ref = NULL;
      g_autoptr(LatentFit) dev = NULL;
      g_autoptr(GError) error = NULL;

      g_assert_true (latent_params_parse (params, "k=16", NULL));
      g_assert_true (latent_params_parse (params, types[t], NULL));
      g_assert_true (latent_params_parse (params, "max-iterations=3", NULL));
      ref = latent_algorithm_fit (alg, ds, params, 0, NULL, test_append_objective, ref_history, NULL, &error);
      g_assert_no_error (error);
      dev = latent_algorithm_fit (alg, ds, params, 0, cl, test_append_objective, dev_history, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (dev->snapshot->device, !=, "CPU reference");
      g_assert_cmpuint (ref_history->len, ==, dev_history->len);
      g_assert_cmpuint (ref_history->len, >=, 1);
      for (guint i = 0; i < ref_history->len; i++)
        {
          const double a = g_array_index (ref_history, double, i), b = g_array_index (dev_history, double, i);

          g_test_message ("%s iteration %u: log-likelihood %.6f on the reference, %.6f on the device",
                          types[t], i + 1, a, b);
          g_assert_true (isfinite (a) && isfinite (b));
          g_assert_cmpfloat (fabs (a - b), <=, 1e-5 * fabs (a));
        }
    }
}

int
main (int argc, char **argv)
{
  static const guint dims[] = { 1, 2, 7, 16, 33 };
  static const guint ks[] = { 1, 3, 10 };
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  cl = latent_cl_new (LATENT_DEVICE_AUTO, &error);
  if (cl == NULL)
    g_test_message ("no OpenCL device: %s", error->message);

  for (guint t = LATENT_COVARIANCE_FULL; t <= LATENT_COVARIANCE_SPHERICAL; t++)
    {
      for (guint i = 0; i < G_N_ELEMENTS (dims); i++)
        for (guint j = 0; j < G_N_ELEMENTS (ks); j++)
          for (guint far = 0; far < 2; far++)
            add_case (1001, dims[i], ks[j], t, far, 0, FALSE, FALSE);
      /* Every vector width, whatever the device would choose. */
      for (guint lanes = 1; lanes <= 16; lanes *= 2)
        if (lanes != 2)
          {
            add_case (999, 7, 3, t, TRUE, lanes, FALSE, FALSE);
            add_case (61, 33, 4, t, FALSE, lanes, FALSE, FALSE);
          }
      /* The log-likelihood summed in float, as without cl_khr_fp64. */
      add_case (20011, 5, 3, t, TRUE, 0, TRUE, FALSE);
      add_case (999, 7, 3, t, FALSE, 1, TRUE, FALSE);
      /* d past the compiled-in sizes: loops over a runtime d, several tiles. */
      add_case (301, 70, 3, t, TRUE, 0, FALSE, FALSE);
      add_case (301, 70, 3, t, FALSE, 1, FALSE, FALSE);
      add_case (77, 300, 2, t, FALSE, 0, FALSE, FALSE);
      /* Fewer rows than lanes, and a single row. */
      add_case (5, 4, 2, t, FALSE, 0, FALSE, FALSE);
      add_case (1, 3, 2, t, TRUE, 0, FALSE, FALSE);
      /* Odd shapes: one or two rows, rows not a multiple of any group or
       * tile, one column, 17 columns, one component, more components than
       * a stage or a tile. */
      add_case (1, 17, 1, t, FALSE, 0, FALSE, FALSE);
      add_case (2, 1, 2, t, FALSE, 0, FALSE, FALSE);
      add_case (2, 17, 3, t, TRUE, 0, FALSE, FALSE);
      add_case (129, 17, 1, t, FALSE, 0, FALSE, FALSE);
      add_case (257, 1, 5, t, TRUE, 0, FALSE, FALSE);
      add_case (333, 17, 33, t, FALSE, 0, FALSE, FALSE);
      add_case (1031, 70, 3, t, FALSE, 0, FALSE, FALSE);
      /* Small, uneven tunables: many tiles, chunks and stages. */
      add_case (1, 17, 1, t, FALSE, 0, FALSE, TRUE);
      add_case (333, 17, 5, t, TRUE, 0, FALSE, TRUE);
      add_case (1001, 33, 7, t, FALSE, 0, TRUE, TRUE);
      add_case (301, 70, 3, t, FALSE, 0, FALSE, TRUE);
    }
  g_test_add_func ("/gmm-cl/errors", test_errors);
  g_test_add_func ("/gmm-cl/restarts-agree", test_restarts_agree);
  g_test_add_func ("/gmm-cl/wide-agrees", test_wide_agrees);

  status = g_test_run ();
  g_clear_object (&cl);
  return status;
}
