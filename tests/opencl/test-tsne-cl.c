/* test-tsne-cl.c — t-SNE's OpenCL path against its reference: the same
 * neighbours, the same affinities, the same divergence step after step,
 * and a failing device that leaves the run going
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-test-tsne-cl"

#include <math.h>
#include <string.h>

#include "latent-test-util.h"
#include "latent-knn.h"
#include "latent-tsne-private.h"

/* @data: rows; 2,500 pass several blocks of rows and tiles of columns. */
static void
test_neighbours (gconstpointer data)
{
  LatentCl *cl = test_get_cl ();
  const guint n = GPOINTER_TO_UINT (data), d = 20, k = 30;
  g_autoptr(LatentDataset) ds = test_blobs (n, d, 5, 2.0, 4);
  const float *x = latent_dataset_get_data (ds);
  g_autofree gint32 *ref_index = g_new (gint32, n * k);
  g_autofree gint32 *dev_index = g_new (gint32, n * k);
  g_autofree float *ref_d = g_new (float, n * k);
  g_autofree float *dev_d = g_new (float, n * k);
  g_autofree float *ref_p = g_new (float, n * k);
  g_autofree float *dev_p = g_new (float, n * k);
  g_autoptr(GError) error = NULL;
  double worst = 0;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  g_assert_true (latent_knn_reference (x, n, d, k, ref_index, ref_d, NULL, &error));
  g_assert_true (latent_knn_cl (cl, x, n, d, k, dev_index, dev_d, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (dev_index, n * k * sizeof (gint32), ref_index, n * k * sizeof (gint32));
  g_assert_cmpmem (dev_d, n * k * sizeof (float), ref_d, n * k * sizeof (float));

  latent_tsne_reference_calibrate (ref_d, n, k, 10, ref_p);
  g_assert_true (latent_tsne_cl_calibrate (cl, dev_d, n, k, 10, dev_p, NULL, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < n * k; i++)
    worst = MAX (worst, fabs ((double) dev_p[i] - ref_p[i]));
  g_test_message ("largest difference in p_j|i: %.3g", worst);
  g_assert_cmpfloat (worst, <, 1e-5);
}

typedef struct {
  GArray *kl;
} Curve;

static void
record (const LatentIterationRecord *record,
        gpointer                     user_data)
{
  g_array_append_val (((Curve *) user_data)->kl, record->objective);
}

static LatentFit *
fit (LatentDataset *ds,
     const char    *repulsion,
     LatentCl      *cl,
     GArray        *kl)
{
  const LatentAlgorithm *tsne = latent_tsne_get_algorithm ();
  g_autoptr(LatentParams) params = latent_algorithm_new_params (tsne);
  g_autoptr(GError) error = NULL;
  Curve curve = { kl };
  LatentFit *result;

  latent_params_set (params, "repulsion", repulsion, &error);
  latent_params_set_int (params, "iterations", 300, &error);
  latent_params_set_double (params, "perplexity", 20, &error);
  g_assert_no_error (error);
  result = latent_algorithm_fit (tsne, ds, params, 3, cl, record, &curve, NULL, &error);
  g_assert_no_error (error);
  g_test_message ("%s, %s: KL %.5f, trustworthiness %.4f, %.1f ms", result->snapshot->device, repulsion,
                  result->snapshot->embedding.kl_divergence, result->snapshot->embedding.trustworthiness,
                  result->total_ms);
  return result;
}

static void
test_same_run (gconstpointer data)
{
  const char *repulsion = data;
  LatentCl *cl = test_get_cl ();
  g_autoptr(LatentDataset) ds = test_blobs (600, 10, 4, 3.0, 5);
  g_autoptr(GArray) ref_kl = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) dev_kl = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(LatentFit) ref = NULL;
  g_autoptr(LatentFit) dev = NULL;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  ref = fit (ds, repulsion, NULL, ref_kl);
  dev = fit (ds, repulsion, cl, dev_kl);
  g_assert_null (dev->snapshot->message);
  g_assert_cmpuint (dev_kl->len, ==, 300);
  g_assert_cmpuint (ref_kl->len, ==, 300);
  /* Float against double: the same path for the first steps, and as good
   * an embedding at the end (the paths part as rounding grows, as two
   * seeds' do). */
  for (guint i = 0; i < 20; i++)
    g_assert_cmpfloat (fabs (g_array_index (dev_kl, double, i) / g_array_index (ref_kl, double, i) - 1), <, 1e-3);
  g_assert_cmpfloat (fabs (dev->snapshot->embedding.kl_divergence / ref->snapshot->embedding.kl_divergence - 1), <, 0.03);
  g_assert_cmpfloat (fabs (dev->snapshot->embedding.trustworthiness - ref->snapshot->embedding.trustworthiness), <, 0.01);
  g_assert_cmpfloat (dev->snapshot->embedding.trustworthiness, >, 0.95);
}

static void
test_failing_device (void)
{
  LatentCl *cl = test_get_cl ();
  g_autoptr(LatentDataset) ds = test_blobs (300, 6, 3, 2.0, 6);
  g_autoptr(GArray) kl = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(LatentFit) result = NULL;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  {
    g_autoptr(LatentCl) own = latent_cl_new (LATENT_DEVICE_AUTO, NULL);

    /* The first call on the device, the neighbours' product, fails. */
    latent_cl_inject_failures (1);
    result = fit (ds, "exact", own, kl);
    latent_cl_inject_failures (0);
  }
  g_assert_nonnull (result->snapshot->message);
  g_assert_nonnull (strstr (result->snapshot->device, "reference"));
  g_assert_cmpuint (kl->len, ==, 300);
  g_assert_cmpfloat (result->snapshot->embedding.trustworthiness, >, 0.95);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/tsne-cl/neighbours/700", GUINT_TO_POINTER (700), test_neighbours);
  g_test_add_data_func ("/tsne-cl/neighbours/2500", GUINT_TO_POINTER (2500), test_neighbours);
  g_test_add_data_func ("/tsne-cl/exact", "exact", test_same_run);
  g_test_add_data_func ("/tsne-cl/fft", "fft", test_same_run);
  g_test_add_func ("/tsne-cl/failing-device", test_failing_device);
  return g_test_run ();
}
