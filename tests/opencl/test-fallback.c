/* test-fallback.c — an OpenCL failure mid-run: the run carries on with the
 * reference path from where it was, says so, and repeated failures switch
 * OpenCL off for the session
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "latent-registry.h"
#include "latent-test-util.h"

static LatentCl *cl;

typedef struct {
  const char *algorithm;
  const char *param;     /* one setting that makes a run of several steps */
  const char *budget;    /* and the parameter that bounds them */
} Case;

static const Case cases[] = {
  { "kmeans", "k=4", "max-iterations" },
  { "gmm", "k=4", "max-iterations" },
  { "ppca", "components=2", "max-iterations" },
  { "convolve", "filter=gaussian", "iterations" },
};

/* Blobs for the models; a 64 × 48 RGB image for the filter. */
static LatentDataset *
dataset_for (const Case *c)
{
  LatentDataset *ds;
  float *x;
  guint64 state = 9;

  if (!g_str_equal (c->algorithm, "convolve"))
    return test_blobs (400, 6, 4, 1.0, 11);
  ds = latent_dataset_new ("test image", 64 * 48, 3, NULL);
  x = latent_dataset_get_data (ds);
  for (guint i = 0; i < 64 * 48 * 3; i++)
    x[i] = test_uniform (&state);
  latent_dataset_set_image_shape (ds, 64, 48, 3, TRUE);
  return ds;
}

/* After the first step, the next OpenCL enqueue fails. */
static void
fail_after_first (const LatentIterationRecord *record,
                  gpointer                     user_data)
{
  if (record->iteration == 1 && GPOINTER_TO_INT (user_data))
    latent_cl_inject_failures (1);
}

static LatentFit *
fit_case (const Case    *c,
          LatentDataset *ds,
          LatentCl      *device,
          gboolean       fail)
{
  const LatentAlgorithm *alg = latent_registry_lookup (c->algorithm, NULL);
  g_autoptr(LatentParams) params = latent_algorithm_new_params (alg);
  g_autoptr(GError) error = NULL;
  LatentFit *fit;

  g_assert_true (latent_params_parse (params, c->param, NULL));
  g_assert_true (latent_params_set_int (params, c->budget, g_str_equal (c->budget, "iterations") ? 3 : 30, NULL));
  fit = latent_algorithm_fit (alg, ds, params, 5, device, fail_after_first, GINT_TO_POINTER (fail), NULL, &error);
  g_assert_no_error (error);
  latent_cl_inject_failures (0);
  /* It failed mid-run, not at the last step. */
  g_assert_cmpuint (fit->history->len, >=, 2);
  return fit;
}

static void
test_fall_back (gconstpointer data)
{
  const Case *c = data;
  g_autoptr(LatentDataset) ds = dataset_for (c);
  g_autoptr(LatentCl) device = NULL;
  g_autoptr(LatentFit) reference = NULL;
  g_autoptr(LatentFit) failed = NULL;
  LatentSnapshot *ref, *snap;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  /* A device of its own: the failures it counts are this test's. */
  device = latent_cl_new (LATENT_DEVICE_AUTO, NULL);
  g_assert_nonnull (device);

  reference = fit_case (c, ds, NULL, FALSE);
  failed = fit_case (c, ds, device, TRUE);
  ref = reference->snapshot;
  snap = failed->snapshot;

  g_assert_cmpuint (latent_cl_get_failures (device), ==, 1);
  g_assert_nonnull (snap->message);
  g_assert_nonnull (strstr (snap->message, "OpenCL failed"));
  g_assert_nonnull (strstr (snap->message, "CL_OUT_OF_RESOURCES"));
  g_assert_nonnull (strstr (snap->message, "CPU reference"));
  g_assert_cmpstr (snap->device, ==, "CPU reference");
  /* It went on to the end, to the reference path's answer. */
  g_assert_true (snap->final);
  g_assert_cmpfloat_with_epsilon (snap->objective, ref->objective, 1e-3 * MAX (1.0, fabs (ref->objective)));
  if (ref->clusters.labels)
    {
      guint differ = 0;

      for (guint i = 0; i < ref->n_rows; i++)
        differ += ref->clusters.labels[i] != snap->clusters.labels[i];
      g_assert_cmpuint (differ, ==, 0);
    }
  if (ref->filter.image)
    for (gsize i = 0; i < (gsize) ref->n_rows * ref->n_cols; i++)
      g_assert_cmpfloat_with_epsilon (snap->filter.image[i], ref->filter.image[i], 1e-4);
}

static void
test_switch_off (void)
{
  const Case *c = &cases[0];
  g_autoptr(LatentDataset) ds = test_blobs (300, 4, 4, 1.0, 3);
  g_autoptr(LatentCl) device = NULL;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  device = latent_cl_new (LATENT_DEVICE_AUTO, NULL);
  g_assert_nonnull (device);

  for (guint i = 1; i <= LATENT_CL_MAX_FAILURES; i++)
    {
      g_autoptr(LatentFit) fit = NULL;

      g_assert_true (latent_cl_usable (device) == device);
      fit = fit_case (c, ds, device, TRUE);
      g_assert_cmpuint (latent_cl_get_failures (device), ==, i);
      g_assert_cmpstr (fit->snapshot->device, ==, "CPU reference");
    }
  /* Off for the rest of the session: new runs start on the reference
   * path, with nothing failing and nothing more counted. */
  g_assert_null (latent_cl_usable (device));
  {
    const LatentAlgorithm *alg = latent_registry_lookup (c->algorithm, NULL);
    g_autoptr(LatentParams) params = latent_algorithm_new_params (alg);
    g_autoptr(GError) error = NULL;
    g_autoptr(LatentFit) fit = NULL;

    g_assert_true (latent_params_parse (params, c->param, NULL));
    fit = latent_algorithm_fit (alg, ds, params, 1, device, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (fit->snapshot->device, ==, "CPU reference");
    g_assert_null (fit->snapshot->message);
    g_assert_cmpuint (latent_cl_get_failures (device), ==, LATENT_CL_MAX_FAILURES);
  }
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  /* The fall-back reports itself with g_message, which must not be fatal. */
  cl = latent_cl_new (LATENT_DEVICE_AUTO, &error);
  if (cl == NULL)
    g_test_message ("no OpenCL device: %s", error->message);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/fallback/mid-run/%s", cases[i].algorithm);
      g_test_add_data_func (path, &cases[i], test_fall_back);
    }
  g_test_add_func ("/fallback/switch-off", test_switch_off);
  status = g_test_run ();
  g_clear_object (&cl);
  return status;
}
