/* test-linear-cl.c — the OpenCL path of PCA, PPCA and factor analysis
 * against the C reference, on fixed seeded data
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "latent-gemm.h"
#include "latent-registry.h"
#include "latent-linear.h"
#include "latent-linear-private.h"
#include "latent-test-util.h"

static LatentCl *cl;

/* Correlated rows far from the origin: the device must not lose the
 * covariance to cancellation against the mean. */
static LatentDataset *
correlated (guint   n,
            guint   d,
            double  offset,
            guint64 seed)
{
  LatentDataset *ds = latent_dataset_new ("correlated", n, d, NULL);
  float *x = latent_dataset_get_data (ds);
  guint64 state = seed * 7919 + 3;

  for (guint i = 0; i < n; i++)
    {
      double z1 = test_normal (&state), z2 = test_normal (&state);
      for (guint a = 0; a < d; a++)
        x[(gsize) i * d + a] = offset + (a % 5) + z1 * (1 + a % 3) + z2 * ((a % 2) ? 0.5 : -1) +
                               0.3 * test_normal (&state);
    }
  return ds;
}

/* How test_passes lays the values on an 8-bit grid. */
typedef enum {
  GRID_NONE,
  GRID_IMAGE,    /* q / 255: an 8-bit image as loaded */
  GRID_OFFSET,   /* 1000 + q / 2, the first row spanning the range: far from 0 */
  GRID_OFF,      /* as GRID_IMAGE, but one value of the last row between two points */
} Grid;

typedef struct {
  guint       n, d;
  double      offset;
  Grid        grid;
  const char *pairs;   /* LATENT_GEMM_PAIRS, NULL for the device's own choice */
} Shape;

static void
snap_to_grid (LatentDataset *ds,
              Grid           grid)
{
  const guint n = latent_dataset_get_n_rows (ds), d = latent_dataset_get_n_cols (ds);
  float *x = latent_dataset_get_data (ds);

  for (gsize i = 0; i < (gsize) n * d; i++)
    {
      const float q = CLAMP (rint (x[i] * 10 + 128), 0, 255);

      x[i] = grid == GRID_OFFSET ? 1000 + q / 2 : q / 255.0f;
    }
  if (grid == GRID_OFFSET)
    {
      x[0] = 1000;
      x[d - 1] = 1000 + 255 / 2.0f;
    }
  if (grid == GRID_OFF)
    x[(gsize) n * d - 1] += 1 / 765.0f;
}

/* How the Gram matrix of rows on an 8-bit grid comes (rows of random
 * floats may still lie on one: two values always do): the portable forms
 * where asked for, else row quads where the device has them, else row
 * pairs where it has them. Called with LATENT_GEMM_PAIRS set. */
static const char *
expect_form (const Shape *shape)
{
  g_autoptr(LatentGemm) gemm = NULL;

  if (shape->grid == GRID_OFF ||
      latent_cl_get_shape (cl) == LATENT_KERNEL_SHAPE_GPU || g_strcmp0 (shape->pairs, "off") == 0)
    return "floats";
  if (g_strcmp0 (shape->pairs, "generic") == 0)
    return "quads";
  if (g_strcmp0 (shape->pairs, "generic-pairs") == 0)
    return "pairs";
  gemm = latent_gemm_new (cl, NULL);
  return gemm == NULL ? "floats" : latent_gemm_has_quads (gemm) ? "quads"
                                 : latent_gemm_has_pairs (gemm) ? "pairs" : "floats";
}

static void
test_passes (gconstpointer data)
{
  const Shape *shape = data;
  const guint n = shape->n, d = shape->d, m = MIN (d, 5);
  g_autoptr(LatentDataset) ds = NULL;
  g_autoptr(GError) error = NULL;
  LatentLinearCl *lcl;
  g_autofree double *mean = g_new (double, d), *mean_ref = g_new (double, d);
  g_autofree double *cov = g_new (double, (gsize) d * d), *cov_ref = g_new (double, (gsize) d * d);
  g_autofree double *v = g_new (double, (gsize) d * m);
  g_autofree double *sv = g_new (double, (gsize) d * m), *sv_ref = g_new (double, (gsize) d * m);
  g_autofree float *z = g_new (float, (gsize) n * m), *z_ref = g_new (float, (gsize) n * m);
  guint64 state = 5;
  double scale = 0, zscale = 0;
  const char *form;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  ds = correlated (n, d, shape->offset, n + d);
  if (shape->grid != GRID_NONE)
    snap_to_grid (ds, shape->grid);
  if (shape->pairs)
    g_setenv ("LATENT_GEMM_PAIRS", shape->pairs, TRUE);
  lcl = latent_linear_cl_new (cl, latent_dataset_get_data (ds), n, d, &error);
  form = shape->grid != GRID_NONE ? expect_form (shape) : NULL;
  g_setenv ("LATENT_GEMM_PAIRS", "", TRUE);
  g_assert_no_error (error);
  g_assert_true (latent_linear_cl_moments (lcl, mean, cov, NULL, &error));
  g_assert_no_error (error);
  if (form)
    g_assert_cmpstr (latent_linear_cl_gram_form (lcl), ==, form);
  latent_linear_reference_moments (latent_dataset_get_data (ds), n, d, mean_ref, cov_ref);

  for (guint a = 0; a < d; a++)
    scale = MAX (scale, cov_ref[(gsize) a * d + a]);
  for (guint a = 0; a < d; a++)
    {
      g_assert_cmpfloat_with_epsilon (mean[a], mean_ref[a], 1e-5 * (fabs (mean_ref[a]) + sqrt (scale)));
      for (guint b = 0; b < d; b++)
        g_assert_cmpfloat_with_epsilon (cov[(gsize) a * d + b], cov_ref[(gsize) a * d + b], 1e-5 * scale);
    }

  for (gsize i = 0; i < (gsize) d * m; i++)
    v[i] = test_normal (&state);
  g_assert_true (latent_linear_cl_cov_times (lcl, v, m, sv, NULL, &error));
  g_assert_no_error (error);
  latent_linear_reference_cov_times (cov_ref, d, v, m, sv_ref);
  for (gsize i = 0; i < (gsize) d * m; i++)
    g_assert_cmpfloat_with_epsilon (sv[i], sv_ref[i], 1e-5 * scale * sqrt (d) * 4);

  /* Every component, then the first two only, as snapshots ask. */
  for (guint dims = m; dims >= 1; dims = dims > 2 ? 2 : 0)
    {
      g_assert_true (latent_linear_cl_project (lcl, v, m, dims, z, NULL, &error));
      g_assert_no_error (error);
      latent_linear_reference_project (latent_dataset_get_data (ds), n, d, mean_ref, v, m, dims, z_ref);
      zscale = 0;
      for (gsize i = 0; i < (gsize) n * dims; i++)
        zscale = MAX (zscale, fabs (z_ref[i]));
      for (gsize i = 0; i < (gsize) n * dims; i++)
        g_assert_cmpfloat_with_epsilon (z[i], z_ref[i], 1e-4 * (zscale + 1));
    }
  latent_linear_cl_free (lcl);
}

typedef struct {
  const char *algorithm;
  const char *params[4];
} Model;

static LatentSnapshot *
run (const Model   *model,
     LatentDataset *ds,
     LatentCl      *device,
     GArray        *history)
{
  const LatentAlgorithm *alg = latent_registry_lookup (model->algorithm, NULL);
  g_autoptr(LatentParams) params = latent_algorithm_new_params (alg);
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentFit) result = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (model->params) && model->params[i]; i++)
    g_assert_true (latent_params_parse (params, model->params[i], NULL));
  result = latent_algorithm_fit (alg, ds, params, 3, device, test_append_objective, history, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (result);
  return g_steal_pointer (&result->snapshot);
}

static void
test_models (gconstpointer data)
{
  const Model *model = data;
  g_autoptr(LatentDataset) ds = correlated (3000, 40, 100, 9);
  g_autoptr(GArray) h_cl = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) h_ref = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(LatentSnapshot) a = NULL, b = NULL;
  const guint d = 40;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  a = run (model, ds, cl, h_cl);
  b = run (model, ds, NULL, h_ref);
  g_assert_cmpstr (b->device, ==, "CPU reference");
  g_assert_cmpstr (a->device, !=, "CPU reference");
  g_assert_null (a->message);

  g_assert_cmpuint (h_cl->len, ==, h_ref->len);
  for (guint i = 0; i < h_cl->len; i++)
    g_assert_cmpfloat_with_epsilon (g_array_index (h_cl, double, i), g_array_index (h_ref, double, i),
                                    1e-4 * fabs (g_array_index (h_ref, double, i)));
  g_assert_cmpuint (a->linear.n_components, ==, b->linear.n_components);
  for (guint j = 0; j < a->linear.n_components; j++)
    {
      g_assert_cmpfloat_with_epsilon (a->linear.explained_variance[j], b->linear.explained_variance[j],
                                      1e-4 * b->linear.explained_variance[0]);
      for (guint f = 0; f < d; f++)
        g_assert_cmpfloat_with_epsilon (a->linear.components[(gsize) j * d + f], b->linear.components[(gsize) j * d + f],
                                        2e-3 * sqrt (b->linear.explained_variance[0]));
    }
  for (guint f = 0; f < a->linear.n_noise; f++)
    g_assert_cmpfloat_with_epsilon (a->linear.noise_variance[f], b->linear.noise_variance[f], 1e-3 * b->linear.noise_variance[f]);
  /* PCA and sparse PCA have none. */
  if (isnan (b->linear.log_likelihood))
    g_assert_true (isnan (a->linear.log_likelihood));
  else
    g_assert_cmpfloat_with_epsilon (a->linear.log_likelihood, b->linear.log_likelihood, 1e-4 * fabs (b->linear.log_likelihood));
  g_assert_cmpfloat_with_epsilon (a->linear.reconstruction_error, b->linear.reconstruction_error, 1e-3 * b->linear.reconstruction_error);
}

int
main (int    argc,
      char **argv)
{
  static const Shape shapes[] = {
    { 2, 1, 0 }, { 17, 2, 0 }, { 100, 7, 1000 }, { 1000, 16, -50 }, { 5000, 33, 3 }, { 999, 70, 0 },
    { 3001, 300, 10 },
    /* On an 8-bit grid: odd row counts (the last pair half empty), columns
     * past a multiple of 16, rows far from 0 (shifted for projections). */
    { 2, 1, 0, GRID_IMAGE, NULL }, { 999, 70, 0, GRID_IMAGE, NULL }, { 3001, 300, 0, GRID_IMAGE, NULL },
    { 1000, 16, 0, GRID_OFFSET, NULL }, { 601, 33, 0, GRID_OFFSET, NULL },
    { 17, 2, 0, GRID_IMAGE, "generic" }, { 999, 70, 0, GRID_IMAGE, "generic" },
    { 601, 33, 0, GRID_OFFSET, "generic" }, { 999, 70, 0, GRID_IMAGE, "off" },
    /* Row pairs where the device has row quads, and in the portable form;
     * row counts past a multiple of 4. */
    { 999, 70, 0, GRID_IMAGE, "pmaddwd" }, { 601, 33, 0, GRID_OFFSET, "pmaddwd" },
    { 17, 2, 0, GRID_IMAGE, "generic-pairs" }, { 999, 70, 0, GRID_IMAGE, "generic-pairs" },
    { 601, 33, 0, GRID_OFFSET, "generic-pairs" }, { 3, 5, 0, GRID_IMAGE, "generic" },
    /* One value off the grid, past the rows the grid is read from. */
    { 999, 70, 0, GRID_OFF, NULL }, { 999, 70, 0, GRID_OFF, "generic" }, { 999, 70, 0, GRID_OFF, "generic-pairs" },
  };
  static const char *const grids[] = { "", "-image", "-offset", "-off-grid" };
  static const Model models[] = {
    /* The iteration budgets keep the EM models short. */
    { "pca", { "components=5", "max-iterations=1" } },
    { "pca", { "components=5", "method=iterative", "max-iterations=15" } },
    { "pca", { "components=3", "whiten=true", "max-iterations=1" } },
    { "ppca", { "components=2", "max-iterations=25" } },
    { "fa", { "components=2", "max-iterations=25" } },
    { "spca", { "components=2", "max-iterations=20" } },
    { "spca", { "components=2", "alpha=30", "max-iterations=20" } },
  };
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  /* Set before the driver's threads start and only overwritten later
   * (empty: the device's own choice), so the environment is never moved
   * under them. */
  g_setenv ("LATENT_GEMM_PAIRS", "", TRUE);
  cl = latent_cl_new (LATENT_DEVICE_AUTO, &error);
  if (cl == NULL)
    g_test_message ("no OpenCL device: %s", error->message);

  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    {
      g_autofree char *path = g_strdup_printf ("/linear-cl/passes/%ux%u%s%s%s", shapes[i].n, shapes[i].d,
                                               grids[shapes[i].grid], shapes[i].pairs ? "-" : "",
                                               shapes[i].pairs ? shapes[i].pairs : "");
      g_test_add_data_func (path, &shapes[i], test_passes);
    }
  for (guint i = 0; i < G_N_ELEMENTS (models); i++)
    {
      g_autofree char *path = g_strdup_printf ("/linear-cl/%s/%u", models[i].algorithm, i);
      g_test_add_data_func (path, &models[i], test_models);
    }
  status = g_test_run ();
  g_clear_object (&cl);
  return status;
}
