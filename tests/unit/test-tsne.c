/* test-tsne.c — t-SNE's reference path: exact neighbours, each row's
 * perplexity, P's symmetry, the FFT repulsion against the exact sums, a
 * whole run against known answers, trustworthiness, and refusals
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-test-tsne"

#include <math.h>
#include <string.h>

#include "latent-test-util.h"
#include "latent-knn.h"
#include "latent-metrics.h"
#include "latent-tsne-private.h"

static float *
random_rows (guint    n,
             guint    d,
             guint32  seed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  float *x = g_new (float, (gsize) n * d);

  for (gsize i = 0; i < (gsize) n * d; i++)
    x[i] = g_rand_double_range (rand, -1, 1);
  return x;
}

static void
test_knn_exact (void)
{
  const guint n = 300, d = 7, k = 12;
  g_autofree float *x = random_rows (n, d, 1);
  g_autofree gint32 *index = g_new (gint32, n * k);
  g_autofree float *dist2 = g_new (float, n * k);
  g_autoptr(GError) error = NULL;

  g_assert_true (latent_knn_reference (x, n, d, k, index, dist2, NULL, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < n; i++)
    {
      /* No other row is nearer than the k-th kept, none is i itself, and
       * the list is ascending. */
      double kth = dist2[i * k + k - 1];
      guint nearer = 0;

      for (guint j = 0; j < n; j++)
        {
          double s = 0;

          for (guint f = 0; f < d; f++)
            s += ((double) x[i * d + f] - x[j * d + f]) * ((double) x[i * d + f] - x[j * d + f]);
          nearer += j != i && s < kth * (1 - 1e-6);
        }
      g_assert_cmpuint (nearer, <=, k - 1);
      for (guint q = 0; q < k; q++)
        {
          g_assert_cmpint (index[i * k + q], !=, (gint32) i);
          if (q > 0)
            g_assert_cmpfloat (dist2[i * k + q - 1], <=, dist2[i * k + q]);
        }
    }
  g_assert_false (latent_knn_reference (x, 5, d, 5, index, dist2, NULL, &error));
  g_assert_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER);
}

static void
test_perplexity (void)
{
  const guint n = 200, d = 5, k = 45;
  const double perplexity = 15;
  g_autofree float *x = random_rows (n, d, 2);
  g_autofree gint32 *index = g_new (gint32, n * k);
  g_autofree float *dist2 = g_new (float, n * k);
  g_autofree float *p_cond = g_new (float, n * k);
  LatentTsneAffinities aff = { 0 };
  double total = 0;

  g_assert_true (latent_knn_reference (x, n, d, k, index, dist2, NULL, NULL));
  latent_tsne_reference_calibrate (dist2, n, k, perplexity, p_cond);
  for (guint i = 0; i < n; i++)
    {
      double h = 0, sum = 0;

      for (guint q = 0; q < k; q++)
        {
          double p = p_cond[i * k + q];
          sum += p;
          if (p > 0)
            h -= p * log (p);
          /* Nearer rows weigh more. */
          if (q > 0)
            g_assert_cmpfloat (p_cond[i * k + q], <=, p_cond[i * k + q - 1] * (1 + 1e-6));
        }
      g_assert_cmpfloat_with_epsilon (sum, 1, 1e-5);
      g_assert_cmpfloat_with_epsilon (exp (h), perplexity, 1e-3);
    }

  g_assert_true (latent_tsne_symmetrise (index, p_cond, n, k, &aff, NULL));
  for (guint i = 0; i < n; i++)
    for (guint64 e = aff.row_start[i]; e < aff.row_start[i + 1]; e++)
      {
        gint32 j = aff.cols[e];
        gboolean found = FALSE;

        total += aff.p[e];
        if (e > aff.row_start[i])
          g_assert_cmpint (aff.cols[e - 1], <, j);
        for (guint64 f = aff.row_start[j]; f < aff.row_start[j + 1]; f++)
          if (aff.cols[f] == (gint32) i)
            {
              g_assert_cmpfloat (aff.p[f], ==, aff.p[e]);
              found = TRUE;
            }
        g_assert_true (found);
      }
  g_assert_cmpfloat_with_epsilon (total, 1, 1e-5);
  latent_tsne_affinities_clear (&aff);
}

/* Points in clusters of size @spread over @span, as an embedding is. */
static double *
embedding (guint    n,
           double   span,
           guint32  seed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  double *y = g_new (double, 2 * (gsize) n);

  for (guint i = 0; i < n; i++)
    {
      double cx = span * ((i % 7) / 6.0 - 0.5), cy = span * ((i % 5) / 4.0 - 0.5);

      y[2 * i] = cx + g_rand_double_range (rand, -2, 2);
      y[2 * i + 1] = cy + g_rand_double_range (rand, -2, 2);
    }
  return y;
}

static void
test_fft_repulsion (void)
{
  const guint n = 3000;
  const double spans[] = { 0.001, 5, 40, 120 };
  g_autoptr(LatentTsneFft) fft = latent_tsne_fft_new ();

  for (guint s = 0; s < G_N_ELEMENTS (spans); s++)
    {
      g_autofree double *y = embedding (n, spans[s], 3 + s);
      g_autofree double *exact = g_new (double, 2 * n);
      g_autofree double *fast = g_new (double, 2 * n);
      double z_exact = latent_tsne_exact_repulsion (y, n, exact), z_fast = 0, err = 0, norm = 0;
      g_autoptr(GError) error = NULL;

      g_assert_true (latent_tsne_fft_repulsion (fft, y, n, fast, &z_fast, &error));
      g_assert_no_error (error);
      for (guint i = 0; i < 2 * n; i++)
        {
          err += (fast[i] - exact[i]) * (fast[i] - exact[i]);
          norm += exact[i] * exact[i];
        }
      g_test_message ("span %g: Z %.9g against %.9g, force error %.3g relative", spans[s], z_fast, z_exact,
                      sqrt (err / norm));
      /* Three nodes a box of one unit (FIt-SNE's and openTSNE's choice):
       * measured 5e-6, 4e-5, 1.4e-2 and 1.9e-2 relative in the forces,
       * 1.3e-3 at most in Z. */
      g_assert_cmpfloat (fabs (z_fast - z_exact), <, 3e-3 * z_exact);
      g_assert_cmpfloat (sqrt (err / norm), <, spans[s] < 10 ? 1e-4 : 3e-2);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tsne/knn-exact", test_knn_exact);
  g_test_add_func ("/tsne/perplexity", test_perplexity);
  g_test_add_func ("/tsne/fft-repulsion", test_fft_repulsion);
  return g_test_run ();
}
