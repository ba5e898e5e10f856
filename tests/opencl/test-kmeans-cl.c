/* test-kmeans-cl.c — the OpenCL k-means path against the C reference
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>

#include "latent-kmeans.h"
#include "latent-test-util.h"

static LatentCl *cl;

static LatentSnapshot *
fit (LatentDataset *ds,
     const char    *k,
     const char    *iterations,
     LatentCl      *device,
     GArray        *objectives)
{
  const LatentAlgorithm *alg = latent_kmeans_get_algorithm ();
  g_autoptr(LatentParams) params = latent_algorithm_new_params (alg);
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentFit) result = NULL;

  g_assert_true (latent_params_parse (params, k, NULL));
  g_assert_true (latent_params_parse (params, iterations, NULL));
  result = latent_algorithm_fit (alg, ds, params, 3, device, test_append_objective, objectives, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (result);
  return g_steal_pointer (&result->snapshot);
}

/* The device's run on n × d blobs with k clusters and BOUNDS agrees with
 * the reference: objectives, iterations, every label, the means. */
static void
assert_agrees (guint       n,
               guint       d,
               guint       kk,
               const char *bounds)
{
  g_autoptr(LatentDataset) ds = NULL;
  g_autofree char *k = NULL;
  g_autoptr(GArray) ref_obj = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) cl_obj = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(LatentSnapshot) ref = NULL;
  g_autoptr(LatentSnapshot) dev = NULL;
  guint differ = 0;

  g_setenv ("LATENT_KMEANS_BOUNDS", bounds, TRUE);
  /* Overlapping blobs, so rows keep changing cluster and the bounds work. */
  ds = test_blobs (n, d, kk, 4.0, n + d);
  k = g_strdup_printf ("k=%u", kk);
  ref = fit (ds, k, "max-iterations=20", NULL, ref_obj);
  dev = fit (ds, k, "max-iterations=20", cl, cl_obj);

  g_assert_cmpstr (ref->device, ==, "CPU reference");
  g_assert_cmpstr (dev->device, !=, "CPU reference");
  g_assert_null (dev->message);
  g_assert_cmpuint (ref->iteration, ==, dev->iteration);
  g_assert_cmpuint (ref_obj->len, ==, cl_obj->len);
  for (guint i = 0; i < ref_obj->len; i++)
    {
      double a = g_array_index (ref_obj, double, i), b = g_array_index (cl_obj, double, i);
      g_assert_cmpfloat (fabs (a - b), <=, 1e-5 * a + 1e-6);
    }
  for (guint i = 0; i < ref->n_rows; i++)
    differ += ref->clusters.labels[i] != dev->clusters.labels[i];
  g_assert_cmpuint (differ, ==, 0);
  for (guint i = 0; i < ref->clusters.k * ref->n_cols; i++)
    g_assert_cmpfloat (fabs (ref->clusters.means[i] - dev->clusters.means[i]), <=, 1e-4 * (1 + fabs (ref->clusters.means[i])));
}

/* Two million rows: a work-item's float sums of distances and rows stay
 * within float's own error of the reference's doubles (a share of 125,000
 * rows each read the inertia 0.03 % off; a photo's 750,000, 0.2 %). */
static void
test_many_rows (void)
{
  g_autoptr(LatentDataset) ds = NULL;
  g_autoptr(GArray) ref_obj = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) cl_obj = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(LatentSnapshot) ref = NULL, dev = NULL;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  ds = test_blobs (2000000, 2, 4, 4.0, 5);
  ref = fit (ds, "k=4", "max-iterations=6", NULL, ref_obj);
  dev = fit (ds, "k=4", "max-iterations=6", cl, cl_obj);
  g_assert_cmpuint (ref_obj->len, ==, cl_obj->len);
  for (guint i = 0; i < ref_obj->len; i++)
    {
      double a = g_array_index (ref_obj, double, i), b = g_array_index (cl_obj, double, i);

      g_test_message ("iteration %u: %.9g on the reference, %.9g on the device", i + 1, a, b);
      g_assert_cmpfloat (fabs (a - b), <=, 2e-6 * a);
    }
}

/* Centers started far from every row leave clusters empty; each is
 * re-seeded from the row farthest from its center, which the device's
 * passes bring back only when asked. Every bounds setting re-seeds the
 * same rows as the reference. */
static void
test_empty_reseeded (void)
{
  static const char * const bounds[] = { "none", "hamerly", "elkan", NULL };
  g_autoptr(LatentDataset) ds = test_blobs (3000, 3, 4, 0.5, 11);
  g_autofree char *dir = g_dir_make_tmp ("latent-kmeans-cl-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "centers.csv", NULL);
  g_autofree char *init = g_strdup_printf ("init=@%s", path);

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  g_assert_true (g_file_set_contents (path, "0,0,0\n900,900,900\n-900,900,900\n900,-900,900\n", -1, NULL));
  for (guint b = 0; bounds[b] != NULL; b++)
    {
      const LatentAlgorithm *alg = latent_kmeans_get_algorithm ();
      g_autoptr(LatentParams) params = latent_algorithm_new_params (alg);
      g_autoptr(LatentFit) ref = NULL, dev = NULL;
      g_autoptr(GError) error = NULL;
      guint differ = 0;

      g_setenv ("LATENT_KMEANS_BOUNDS", bounds[b], TRUE);
      g_assert_true (latent_params_parse (params, "k=4", NULL));
      g_assert_true (latent_params_parse (params, init, NULL));
      g_assert_true (latent_params_parse (params, "max-iterations=1", NULL));
      ref = latent_algorithm_fit (alg, ds, params, 0, NULL, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      dev = latent_algorithm_fit (alg, ds, params, 0, cl, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      g_test_message ("%s: %s", bounds[b], dev->snapshot->message);
      g_assert_nonnull (strstr (ref->snapshot->message, "3 empty clusters re-seeded"));
      g_assert_cmpstr (dev->snapshot->message, ==, ref->snapshot->message);
      for (guint i = 0; i < 3000; i++)
        differ += ref->snapshot->clusters.labels[i] != dev->snapshot->clusters.labels[i];
      g_assert_cmpuint (differ, ==, 0);
      for (guint c = 0; c < 4; c++)
        g_assert_cmpuint (dev->snapshot->clusters.cluster_sizes[c], >, 0);
    }
  g_unsetenv ("LATENT_KMEANS_BOUNDS");
  g_unlink (path);
  g_rmdir (dir);
}

/* Rows far from the origin for their spread (values around 3000 ± 1):
 * the device's distances, |x|² + |c|² − 2 x·c in floats, cancelled there,
 * and labels went to whichever center rounding favoured. With as many
 * clusters as rows, k-means++ makes every row a center and each row's own
 * is its nearest, so the start's inertia is 0 (the device's was 45.7); an
 * ordinary fit labels every row as the reference does. */
static void
test_far_from_origin (void)
{
  g_autoptr(LatentDataset) every = test_blobs (48, 3, 4, 1.0, 5);
  g_autoptr(LatentDataset) blobs = test_blobs (900, 5, 6, 4.0, 7);
  g_autoptr(LatentSnapshot) ref = NULL;
  g_autoptr(LatentSnapshot) dev = NULL;
  guint differ = 0;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  g_unsetenv ("LATENT_KMEANS_BOUNDS");
  for (guint i = 0; i < 48 * 3; i++)
    latent_dataset_get_data (every)[i] += 3000.0f;
  for (guint i = 0; i < 900 * 5; i++)
    latent_dataset_get_data (blobs)[i] += 3000.0f;

  for (guint pass = 0; pass < 2; pass++)
    {
      const LatentAlgorithm *alg = latent_kmeans_get_algorithm ();
      g_autoptr(LatentParams) params = latent_algorithm_new_params (alg);
      g_autoptr(LatentFit) result = NULL;
      g_autoptr(GError) error = NULL;

      g_assert_true (latent_params_parse (params, "k=48", NULL));
      g_assert_true (latent_params_parse (params, "max-iterations=1", NULL));
      result = latent_algorithm_fit (alg, every, params, 3, pass ? cl : NULL, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpint (g_str_equal (result->snapshot->device, "CPU reference"), ==, pass == 0);
      g_assert_cmpfloat (result->initial_objective, ==, 0.0);
    }

  ref = fit (blobs, "k=6", "max-iterations=10", NULL, NULL);
  dev = fit (blobs, "k=6", "max-iterations=10", cl, NULL);
  for (guint i = 0; i < 900; i++)
    differ += ref->clusters.labels[i] != dev->clusters.labels[i];
  g_assert_cmpuint (differ, ==, 0);
  g_assert_cmpfloat (fabs (ref->objective - dev->objective), <=, 1e-4 * ref->objective);
}

/* Rows on an 8-bit grid (images) take k-means++ from the copy of the rows
 * the bounds use (kmeans_seed_copy, a quarter of the bytes): the start is
 * the reference's, and so is the run from it. */
static void
test_seed_from_copy (void)
{
  g_autoptr(LatentDataset) ds = test_blobs (2000, 50, 25, 3.0, 9);
  g_autoptr(GArray) ref_obj = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) dev_obj = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(LatentSnapshot) ref = NULL;
  g_autoptr(LatentSnapshot) dev = NULL;
  guint differ = 0;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  g_unsetenv ("LATENT_KMEANS_BOUNDS");
  test_on_grid (ds);
  ref = fit (ds, "k=25", "max-iterations=8", NULL, ref_obj);
  dev = fit (ds, "k=25", "max-iterations=8", cl, dev_obj);
  g_assert_cmpuint (ref_obj->len, ==, dev_obj->len);
  for (guint i = 0; i < ref_obj->len; i++)
    g_assert_cmpfloat (fabs (g_array_index (ref_obj, double, i) - g_array_index (dev_obj, double, i)), <=,
                       1e-5 * g_array_index (ref_obj, double, i));
  for (guint i = 0; i < ref->n_rows; i++)
    differ += ref->clusters.labels[i] != dev->clusters.labels[i];
  g_assert_cmpuint (differ, ==, 0);
}

/* Shapes chosen to hit every kernel variant and edge: vector widths 4, 8
 * and 16, rows and clusters that are not multiples of the blocking. */
static void
test_agrees (gconstpointer data)
{
  guint shape[3];   /* n, d, k */
  char bounds[16];

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  g_assert_cmpint (sscanf (data, "%u %u %u %15s", &shape[0], &shape[1], &shape[2], bounds), ==, 4);
  assert_agrees (shape[0], shape[1], shape[2], bounds);
}

/* The GPU shape with other tiles than the defaults, as a tuner would try
 * them, and with tiles that cannot build (BLOCK_ROWS does not divide
 * TILE_ROWS), which fall back to the smallest ones. */
static void
test_tiles (void)
{
  static const struct {
    const char *name;
    int         value[9];
  } configs[] = {
    /* Larger tiles (128 rows, 4 × 8 blocks) pass too but take PoCL a
     * minute to compile. */
    { "small", { 32, 16, 8, 2, 2, 32, 8, 100, 64 } },
    /* The host's last resort, with chunks and blocks of clusters that
     * leave remainders everywhere. */
    { "tiny", { 4, 4, 8, 1, 1, 16, 4, 7, 16 } },
    { "invalid", { 64, 16, 32, 3, 2, 64, 64, 1024, 128 } },
  };
  static const char * const names[9] = {
    "TILE_ROWS", "TILE_CENTERS", "TILE_DEPTH", "BLOCK_ROWS", "BLOCK_CENTERS",
    "SUM_COLUMNS", "SUM_CLUSTERS", "SUM_ROWS", "ROW_GROUP",
  };

  if (cl == NULL || latent_cl_get_shape (cl) != LATENT_KERNEL_SHAPE_GPU)
    {
      g_test_skip ("the tiles are the GPU shape's");
      return;
    }
  for (guint c = 0; c < G_N_ELEMENTS (configs); c++)
    {
      g_test_message ("tiles: %s", configs[c].name);
      for (guint i = 0; i < G_N_ELEMENTS (names); i++)
        latent_cl_set_tunable (cl, "kmeans", names[i], configs[c].value[i]);
      /* Both 16 floats to a vector: one program per configuration. */
      assert_agrees (300, 70, 70, "none");
      assert_agrees (257, 50, 6, "elkan");
      latent_cl_clear_tunables (cl, "kmeans");
    }
}

/* The GPU shape's two full passes, each where the other is the default:
 * the matrix product and kmeans_nearest for few centers (one row, one
 * column, one cluster, 784 columns), the tiles for many. */
static void
test_product (void)
{
  static const struct {
    guint n, d, k;
    const char *product;
  } cases[] = {
    { 1, 3, 1, "gemm" }, { 130, 1, 4, "gemm" }, { 257, 37, 1, "gemm" }, { 600, 784, 10, "gemm" },
    { 200, 9, 17, "gemm" }, { 4003, 33, 100, "tiles" },
  };
  /* Their first pass leaves the bounds of the passes after. */
  static const char * const bounds[] = { "none", "hamerly", "elkan" };

  if (cl == NULL || latent_cl_get_shape (cl) != LATENT_KERNEL_SHAPE_GPU)
    {
      g_test_skip ("the product and the tiles are the GPU shape's");
      return;
    }
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_setenv ("LATENT_KMEANS_PRODUCT", cases[c].product, TRUE);
      for (guint b = 0; b < G_N_ELEMENTS (bounds); b++)
        assert_agrees (cases[c].n, cases[c].d, cases[c].k, bounds[b]);
    }
  g_unsetenv ("LATENT_KMEANS_PRODUCT");
  g_unsetenv ("LATENT_KMEANS_BOUNDS");
}

/* Every snapshot's labels are nearest centers of that snapshot on the
 * device too, with each kind of bounds. */
static void
test_snapshots_coherent (gconstpointer data)
{
  const char *bounds = data;
  g_autoptr(LatentDataset) ds = test_blobs (3000, 5, 6, 4.0, 8);
  g_autoptr(LatentParams) params = latent_algorithm_new_params (latent_kmeans_get_algorithm ());

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  g_setenv ("LATENT_KMEANS_BOUNDS", bounds, TRUE);
  g_assert_true (latent_params_parse (params, "k=6", NULL));
  g_assert_true (latent_params_parse (params, "init=random", NULL));
  g_assert_cmpuint (test_assert_snapshots_coherent (latent_kmeans_get_algorithm (), ds, params, 2, cl, TRUE), >, 3);
}

/* Multiple restarts agree: every start ends at the same inertia on the
 * device, the same start wins, and the run replayed from it is the same. */
static void
test_restarts_agree (void)
{
  const LatentAlgorithm *alg = latent_kmeans_get_algorithm ();
  g_autoptr(LatentDataset) ds = test_blobs (800, 2, 8, 0.6, 2);
  g_autoptr(LatentParams) params = latent_algorithm_new_params (alg);
  g_autoptr(LatentFit) ref = NULL;
  g_autoptr(LatentFit) dev = NULL;
  g_autoptr(GError) error = NULL;
  guint differ = 0;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  g_unsetenv ("LATENT_KMEANS_BOUNDS");
  g_assert_true (latent_params_parse (params, "k=8", NULL));
  g_assert_true (latent_params_parse (params, "init=random", NULL));
  g_assert_true (latent_params_parse (params, "restarts=5", NULL));
  ref = latent_algorithm_fit (alg, ds, params, 3, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  dev = latent_algorithm_fit (alg, ds, params, 3, cl, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  g_assert_cmpstr (ref->snapshot->device, ==, "CPU reference");
  g_assert_cmpstr (dev->snapshot->device, !=, "CPU reference");
  g_assert_cmpuint (ref->snapshot->clusters.n_starts, ==, 5);
  g_assert_cmpuint (dev->snapshot->clusters.n_starts, ==, 5);
  for (guint r = 0; r < 5; r++)
    {
      double a = ref->snapshot->clusters.start_objectives[r], b = dev->snapshot->clusters.start_objectives[r];

      g_test_message ("start %u: inertia %.6f on the reference, %.6f on the device", r, a, b);
      g_assert_cmpfloat (fabs (a - b), <=, 1e-5 * a + 1e-6);
    }
  g_assert_cmpuint (ref->snapshot->clusters.best_start, ==, dev->snapshot->clusters.best_start);
  g_assert_cmpuint (ref->snapshot->iteration, ==, dev->snapshot->iteration);
  g_assert_cmpfloat (fabs (ref->snapshot->objective - dev->snapshot->objective), <=,
                     1e-5 * ref->snapshot->objective);
  /* The device replays its own winner exactly. */
  g_assert_cmpfloat (dev->snapshot->objective, ==,
                     dev->snapshot->clusters.start_objectives[dev->snapshot->clusters.best_start]);
  for (guint i = 0; i < ref->snapshot->n_rows; i++)
    differ += ref->snapshot->clusters.labels[i] != dev->snapshot->clusters.labels[i];
  g_assert_cmpuint (differ, ==, 0);
}

/* After iteration 2, the next OpenCL call fails. */
static void
fail_after_second (const LatentIterationRecord *record,
                   gpointer                     user_data)
{
  test_append_objective (record, user_data);
  if (record->iteration == 2)
    latent_cl_inject_failures (1);
}

/* The GPU shape moves the centers on the device and the host's copy stays
 * behind until a snapshot asks. A device failure there leaves the run to
 * the reference from the centers the host last had (here the start), with
 * their own assignment: it repeats the steps since, so from the failure on
 * its objectives are the reference's from the start. */
static void
test_fall_back_on_device (void)
{
  const LatentAlgorithm *alg = latent_kmeans_get_algorithm ();
  g_autoptr(LatentDataset) ds = test_blobs (2000, 8, 6, 4.0, 21);
  g_autoptr(LatentParams) params = latent_algorithm_new_params (alg);
  g_autoptr(LatentCl) device = NULL;
  g_autoptr(LatentFit) ref = NULL, dev = NULL;
  g_autoptr(GArray) ref_obj = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) dev_obj = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GError) error = NULL;

  if (cl == NULL || latent_cl_get_shape (cl) != LATENT_KERNEL_SHAPE_GPU)
    {
      g_test_skip ("the centers move on the device in the GPU shape only");
      return;
    }
  g_setenv ("LATENT_KMEANS_BOUNDS", "none", TRUE);
  /* A device of its own: the failure it counts is this test's. */
  device = latent_cl_new (LATENT_DEVICE_AUTO, NULL);
  g_assert_true (latent_params_parse (params, "k=6", NULL));
  g_assert_true (latent_params_parse (params, "max-iterations=8", NULL));
  g_assert_true (latent_params_parse (params, "tol=0", NULL));
  ref = latent_algorithm_fit (alg, ds, params, 4, NULL, test_append_objective, ref_obj, NULL, &error);
  g_assert_no_error (error);
  dev = latent_algorithm_fit (alg, ds, params, 4, device, fail_after_second, dev_obj, NULL, &error);
  g_assert_no_error (error);
  latent_cl_inject_failures (0);
  g_unsetenv ("LATENT_KMEANS_BOUNDS");

  g_assert_cmpuint (latent_cl_get_failures (device), ==, 1);
  g_assert_cmpstr (dev->snapshot->device, ==, "CPU reference");
  /* It failed mid-run, and repeated two steps. */
  g_assert_cmpuint (ref_obj->len, >=, 3);
  g_assert_cmpuint (dev_obj->len, ==, MIN (8, ref_obj->len + 2));
  for (guint i = 0; i < dev_obj->len; i++)
    {
      const double want = g_array_index (ref_obj, double, i < 2 ? i : i - 2);
      const double got = g_array_index (dev_obj, double, i);

      g_test_message ("iteration %u: %.9g, the reference's %.9g", i + 1, got, want);
      g_assert_cmpfloat (fabs (got - want), <=, 1e-5 * want);
    }
}

int
main (int argc, char **argv)
{
  /* Every pass full, Hamerly's two bounds per row, Elkan's k per row. */
  static const char * const bounds[] = { "none", "hamerly", "elkan" };
  static const guint shapes[][3] = {
    { 1000, 2, 3 }, { 997, 4, 5 }, { 513, 7, 6 }, { 2048, 20, 10 },
    { 1501, 100, 13 }, { 600, 784, 10 }, { 64, 3, 64 }, { 5, 2, 5 },
    { 3000, 50, 40 }, { 4003, 33, 100 },
    /* Edges of the GPU shape's tiles (64 rows, 16–64 centers, 32 columns
     * deep): one or two rows, one column, one cluster, k just past a tile
     * and past the widest tile, columns not a multiple of the depth. */
    { 1, 3, 1 }, { 2, 784, 2 }, { 130, 1, 4 }, { 257, 37, 1 }, { 200, 9, 17 }, { 300, 70, 70 },
  };
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  cl = latent_cl_new (LATENT_DEVICE_AUTO, &error);
  if (cl == NULL)
    g_test_message ("no OpenCL device: %s", error->message);

  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    for (guint b = 0; b < G_N_ELEMENTS (bounds); b++)
      {
        g_autofree char *path = g_strdup_printf ("/kmeans-cl/agrees/%s/n%u-d%u-k%u", bounds[b],
                                                 shapes[i][0], shapes[i][1], shapes[i][2]);
        g_test_add_data_func_full (path, g_strdup_printf ("%u %u %u %s", shapes[i][0], shapes[i][1],
                                                          shapes[i][2], bounds[b]),
                                   test_agrees, g_free);
      }
  for (guint b = 0; b < G_N_ELEMENTS (bounds); b++)
    {
      g_autofree char *path = g_strdup_printf ("/kmeans-cl/snapshots-coherent/%s", bounds[b]);

      g_test_add_data_func (path, bounds[b], test_snapshots_coherent);
    }
  g_test_add_func ("/kmeans-cl/restarts-agree", test_restarts_agree);
  g_test_add_func ("/kmeans-cl/far-from-origin", test_far_from_origin);
  g_test_add_func ("/kmeans-cl/empty-reseeded", test_empty_reseeded);
  g_test_add_func ("/kmeans-cl/many-rows", test_many_rows);
  g_test_add_func ("/kmeans-cl/seed-from-copy", test_seed_from_copy);
  g_test_add_func ("/kmeans-cl/tiles", test_tiles);
  g_test_add_func ("/kmeans-cl/product", test_product);
  g_test_add_func ("/kmeans-cl/fall-back-on-device", test_fall_back_on_device);
  status = g_test_run ();
  g_clear_object (&cl);
  return status;
}
