/* test-umap-cl.c — UMAP's OpenCL path against its reference: the same
 * embedding epoch by epoch from the same graph, as good at the end, and a
 * failing device that leaves the run going
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-test-umap-cl"

#include <math.h>
#include <string.h>

#include "latent-test-util.h"
#include "latent-umap.h"

static LatentFit *
fit (LatentDataset *ds,
     guint          epochs,
     LatentCl      *cl)
{
  const LatentAlgorithm *umap = latent_umap_get_algorithm ();
  g_autoptr(LatentParams) params = latent_algorithm_new_params (umap);
  g_autoptr(GError) error = NULL;
  LatentFit *result;

  latent_params_set_int (params, "epochs", epochs, &error);
  g_assert_no_error (error);
  result = latent_algorithm_fit (umap, ds, params, 3, cl, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_test_message ("%s, %u epochs: cross-entropy %.3f, trustworthiness %.4f, %.1f ms", result->snapshot->device,
                  epochs, result->snapshot->embedding.cross_entropy, result->snapshot->embedding.trustworthiness,
                  result->total_ms);
  return result;
}

static void
test_same_run (void)
{
  LatentCl *cl = test_get_cl ();
  g_autoptr(LatentDataset) ds = test_blobs (700, 12, 4, 2.0, 5);
  double worst = 0, scale = 0;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  /* A few epochs: float against double, the same moves. */
  {
    g_autoptr(LatentFit) ref = fit (ds, 5, NULL);
    g_autoptr(LatentFit) dev = fit (ds, 5, cl);

    g_assert_null (dev->snapshot->message);
    for (guint i = 0; i < 2 * 700; i++)
      {
        worst = MAX (worst, fabs ((double) ref->snapshot->embedding.positions[i] - dev->snapshot->embedding.positions[i]));
        scale = MAX (scale, fabs (ref->snapshot->embedding.positions[i]));
      }
    g_test_message ("after 5 epochs the positions differ by %.3g at most, of %.3g", worst, scale);
    g_assert_cmpfloat (worst, <, 1e-3 * scale);
    for (guint e = 0; e < 5; e++)
      g_assert_cmpfloat (fabs (g_array_index (dev->history, LatentIterationRecord, e).objective /
                               g_array_index (ref->history, LatentIterationRecord, e).objective - 1), <, 1e-3);
  }
  /* The whole run: as good an embedding (they part as rounding grows). */
  {
    g_autoptr(LatentFit) ref = fit (ds, 200, NULL);
    g_autoptr(LatentFit) dev = fit (ds, 200, cl);

    g_assert_cmpfloat (fabs (dev->snapshot->embedding.trustworthiness - ref->snapshot->embedding.trustworthiness), <, 0.01);
    g_assert_cmpfloat (dev->snapshot->embedding.trustworthiness, >, 0.9);
  }
}

static void
test_failing_device (void)
{
  LatentCl *cl = test_get_cl ();
  g_autoptr(LatentDataset) ds = test_blobs (300, 6, 3, 2.0, 6);
  g_autoptr(LatentFit) result = NULL;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  {
    g_autoptr(LatentCl) own = latent_cl_new (LATENT_DEVICE_AUTO, NULL);

    latent_cl_inject_failures (1);
    result = fit (ds, 50, own);
    latent_cl_inject_failures (0);
  }
  g_assert_nonnull (result->snapshot->message);
  g_assert_nonnull (strstr (result->snapshot->device, "reference"));
  g_assert_cmpuint (result->history->len, ==, 50);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/umap-cl/same-run", test_same_run);
  g_test_add_func ("/umap-cl/failing-device", test_failing_device);
  return g_test_run ();
}
