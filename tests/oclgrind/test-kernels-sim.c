/* test-kernels-sim.c — every kernel of Latent on tiny and ragged shapes,
 * the OpenCL path against the reference, for a simulated device
 *
 * Run under oclgrind (tests/oclgrind/run-oclgrind), which executes the
 * kernels with real work-groups, local memory and barriers and reports data
 * races, out-of-bounds accesses and API misuse. The shapes are tens of rows
 * (oclgrind interprets every work-item) and deliberately awkward: sizes
 * that are not a multiple of any work-group, tile or vector width, one row,
 * one column. Each case drives one kernel family through the engine's
 * public API, so a rewritten kernel is checked as it is used.
 *
 * When $OCLGRIND_LOG names oclgrind's log, a case fails as soon as
 * oclgrind wrote anything to it, and shows what.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "test-kernels-sim"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "latent-convolve.h"
#include "latent-gemm.h"
#include "latent-registry.h"
#include "latent-test-filters.h"

static LatentCl *cl;

/* ---- oclgrind's log ------------------------------------------------------ */

static goffset log_seen;

/* What oclgrind logged since the last call; NULL when nothing (or no log). */
static char *
read_new_log (void)
{
  const char *path = g_getenv ("OCLGRIND_LOG");
  g_autofree char *text = NULL;
  gsize length = 0;
  char *fresh;

  if (path == NULL || !g_file_get_contents (path, &text, &length, NULL) || (goffset) length <= log_seen)
    return NULL;
  fresh = g_strndup (text + log_seen, length - log_seen);
  log_seen = length;
  return fresh;
}

/* Fails the case, showing the report, if oclgrind logged anything since
 * the last call: called right after the device's work, before the results
 * are compared (wrong results are the usual consequence of what it finds). */
static void
assert_no_report (const char *after)
{
  g_autofree char *report = read_new_log ();

  if (report == NULL)
    return;
  /* TAP comments are single lines. */
  for (char *line = strtok (report, "\n"); line != NULL; line = strtok (NULL, "\n"))
    g_test_message ("oclgrind: %s", line);
  g_error ("oclgrind reported a problem in %s (above)", after);
}

typedef struct {
  GTestDataFunc  run;
  gconstpointer  data;
  GDestroyNotify free_data;
} Case;

static void
case_free (gpointer data)
{
  Case *c = data;

  if (c->free_data)
    c->free_data ((gpointer) c->data);
  g_free (c);
}

/* Runs the case, then fails it if oclgrind reported anything meanwhile. */
static void
run_case (gconstpointer data)
{
  const Case *c = data;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  g_free (read_new_log ());
  c->run (c->data);
  assert_no_report ("this case");
}

/* The cases under /sim/pairs run on their own (LATENT_SIM_PAIRS=1), the
 * others without them: see run-oclgrind. */
static void
add_case (const char     *path,
          GTestDataFunc   run,
          gconstpointer   data,
          GDestroyNotify  free_data)
{
  const gboolean pairs = g_str_has_prefix (path, "/sim/pairs/");
  Case *c;

  if (pairs != (g_strcmp0 (g_getenv ("LATENT_SIM_PAIRS"), "1") == 0))
    {
      if (free_data)
        free_data ((gpointer) data);
      return;
    }
  c = g_new (Case, 1);
  *c = (Case) { run, data, free_data };
  g_test_add_data_func_full (path, c, run_case, case_free);
}

/* ---- helpers ------------------------------------------------------------- */

static double
max_abs_difference (const float *a,
                    const float *b,
                    gsize        n)
{
  double worst = 0;

  for (gsize i = 0; i < n; i++)
    {
      const double d = fabs ((double) a[i] - b[i]);

      if (!(d <= worst))
        worst = isnan (d) ? INFINITY : d;
    }
  return worst;
}

static double
largest_abs (const float *a,
             gsize        n)
{
  double m = 0;

  for (gsize i = 0; i < n; i++)
    m = MAX (m, fabs (a[i]));
  return m;
}

/* A fit of @id with NULL-terminated "name=value" settings in @settings. */
static LatentFit *
fit (const char         *id,
     LatentDataset      *ds,
     const char * const *settings,
     LatentCl           *device,
     GArray             *history)
{
  const LatentAlgorithm *alg = latent_registry_lookup (id, NULL);
  g_autoptr(LatentParams) params = NULL;
  g_autoptr(GError) error = NULL;
  LatentFit *result;

  g_assert_nonnull (alg);
  params = latent_algorithm_new_params (alg);
  for (guint i = 0; settings[i] != NULL; i++)
    {
      latent_params_parse (params, settings[i], &error);
      g_assert_no_error (error);
    }
  result = latent_algorithm_fit (alg, ds, params, 5, device, test_append_objective, history, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (result);
  return result;
}

/* Both paths, the same per-iteration objectives within @tolerance
 * (relative, with 1e-6 absolute); the device really ran. */
static void
fit_both (const char         *id,
          LatentDataset      *ds,
          const char * const *settings,
          double              tolerance,
          LatentFit         **ref,
          LatentFit         **dev)
{
  g_autoptr(GArray) h_ref = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) h_dev = g_array_new (FALSE, FALSE, sizeof (double));

  *ref = fit (id, ds, settings, NULL, h_ref);
  *dev = fit (id, ds, settings, cl, h_dev);
  assert_no_report (id);
  g_assert_cmpstr ((*ref)->snapshot->device, ==, "CPU reference");
  g_assert_cmpstr ((*dev)->snapshot->device, !=, "CPU reference");
  /* A fallback to the reference (a note on the device only) would hide
   * the kernels. */
  g_assert_cmpstr ((*dev)->snapshot->message, ==, (*ref)->snapshot->message);
  g_assert_cmpuint (h_ref->len, ==, h_dev->len);
  for (guint i = 0; i < h_ref->len; i++)
    {
      const double a = g_array_index (h_ref, double, i), b = g_array_index (h_dev, double, i);

      if (!(fabs (a - b) <= tolerance * fabs (a) + 1e-6))
        g_error ("%s: iteration %u's objective is %.9g on the device, %.9g on the reference", id, i, b, a);
    }
}

/* ---- gemm.cl: the product, every transposition, ragged tiles ------------- */

typedef struct {
  guint m, n, k;
} GemmShape;

static cl_mem
upload (const float *host,
        gsize        count)
{
  g_autoptr(GError) error = NULL;
  cl_mem mem = NULL;

  g_assert_true (latent_cl_create_buffer (cl, &mem, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                          MAX (count, 1) * sizeof (float), (gpointer) host, "test", &error));
  g_assert_no_error (error);
  return mem;
}

static float *
random_floats (gsize    count,
               guint64 *state)
{
  float *x = g_new (float, MAX (count, 1));

  for (gsize i = 0; i < count; i++)
    x[i] = 2 * test_uniform (state) - 1;
  return x;
}

/* C = 1.5 op(A) op(B) + β C, and the Gram form, with one element of padding
 * per row of A and B (never read) and of C (never written). */
static void
test_gemm (gconstpointer data)
{
  const GemmShape *s = data;
  g_autoptr(LatentGemm) gemm = NULL;
  g_autoptr(GError) error = NULL;
  cl_command_queue queue = latent_cl_get_queue (cl);
  guint64 state = s->m * 7919u + s->n * 104729u + s->k;

  gemm = latent_gemm_new (cl, &error);
  g_assert_no_error (error);

  for (guint variant = 0; variant < 5; variant++)
    {
      /* 0–3: the four transpositions (β 0 and 0.5 alternately); 4: syrk. */
      const gboolean syrk = variant == 4;
      const gboolean ta = syrk || (variant & 1), tb = !syrk && (variant & 2);
      const guint m = syrk ? s->n : s->m, n = s->n, k = s->k;
      const float alpha = 1.5f, beta = variant % 2 ? 0.5f : 0.0f;
      const guint a_rows = ta ? k : m, a_cols = ta ? m : k;
      const guint b_rows = tb ? n : k, b_cols = tb ? k : n;
      const guint lda = a_cols + 1, ldb = b_cols + 1, ldc = n + 1;
      g_autofree float *a = random_floats ((gsize) a_rows * lda, &state);
      g_autofree float *b = random_floats ((gsize) b_rows * ldb, &state);
      g_autofree float *c = random_floats ((gsize) m * ldc, &state);
      g_autofree float *got = g_new (float, (gsize) m * ldc);
      cl_mem da = upload (a, (gsize) a_rows * lda);
      cl_mem db = upload (b, (gsize) b_rows * ldb);
      cl_mem dc = upload (c, (gsize) m * ldc);
      gboolean ok;

      if (syrk)
        ok = latent_gemm_syrk (gemm, queue, n, k, alpha, da, lda, beta, dc, ldc, NULL, &error);
      else
        ok = latent_gemm_run (gemm, queue, ta, tb, m, n, k, alpha, da, lda, db, ldb, beta, dc, ldc, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (ok);
      g_assert_cmpint (clEnqueueReadBuffer (queue, dc, CL_TRUE, 0, (gsize) m * ldc * sizeof (float), got,
                                            0, NULL, NULL), ==, CL_SUCCESS);
      clReleaseMemObject (da);
      clReleaseMemObject (db);
      clReleaseMemObject (dc);
      assert_no_report ("the product");

      for (guint i = 0; i < m; i++)
        {
          for (guint j = 0; j < n; j++)
            {
              const float *bb = syrk ? a : b;
              const gboolean tbb = syrk ? FALSE : tb;
              const guint ldbb = syrk ? lda : ldb;
              double sum = 0, size = 0, want;

              for (guint p = 0; p < k; p++)
                {
                  const double x = ta ? a[(gsize) p * lda + i] : a[(gsize) i * lda + p];
                  const double y = tbb ? bb[(gsize) j * ldbb + p] : bb[(gsize) p * ldbb + j];

                  sum += x * y;
                  size += fabs (x * y);
                }
              want = alpha * sum + (beta != 0 ? beta * c[(gsize) i * ldc + j] : 0);
              if (!(fabs (got[(gsize) i * ldc + j] - want) <= 1e-5 * (1 + size)))
                g_error ("gemm %u × %u × %u, variant %u: C[%u,%u] is %.7g, expected %.7g",
                         m, n, k, variant, i, j, got[(gsize) i * ldc + j], want);
            }
          /* The padding of C is never written. */
          g_assert_cmpfloat (got[(gsize) i * ldc + n], ==, c[(gsize) i * ldc + n]);
        }
    }
}

/* ---- kmeans.cl: every kind of bounds ------------------------------------- */

typedef struct {
  guint n, d, k;
  const char *bounds;
  const char *init;     /* k-means++ runs kmeans_seed, random does not */
  gboolean grid;        /* values on an 8-bit grid: kmeans_seed_copy */
  const char *product;  /* LATENT_KMEANS_PRODUCT: gemm reaches kmeans_nearest */
} KmeansCase;

static void
test_kmeans (gconstpointer data)
{
  const KmeansCase *tc = data;
  g_autoptr(LatentDataset) ds = test_blobs (tc->n, tc->d, tc->k, 4.0, tc->n + tc->d);
  g_autofree char *k = g_strdup_printf ("k=%u", tc->k);
  g_autofree char *init = g_strdup_printf ("init=%s", tc->init);
  const char * const settings[] = { k, init, "max-iterations=6", NULL };
  g_autoptr(LatentFit) ref = NULL;
  g_autoptr(LatentFit) dev = NULL;

  /* The CPU shape has one full pass: these would repeat the cases above. */
  if (tc->product && latent_cl_get_shape (cl) != LATENT_KERNEL_SHAPE_GPU)
    {
      g_test_skip ("the matrix product's pass is the GPU shape's");
      return;
    }
  if (tc->grid)
    test_on_grid (ds);
  g_setenv ("LATENT_KMEANS_BOUNDS", tc->bounds, TRUE);
  /* Overwritten, never added (see main): empty is the default pass. */
  g_setenv ("LATENT_KMEANS_PRODUCT", tc->product ? tc->product : "", TRUE);
  fit_both ("kmeans", ds, settings, 1e-5, &ref, &dev);
  g_unsetenv ("LATENT_KMEANS_BOUNDS");
  g_setenv ("LATENT_KMEANS_PRODUCT", "", TRUE);
  g_assert_cmpmem (dev->snapshot->clusters.labels, tc->n * sizeof (gint32), ref->snapshot->clusters.labels, tc->n * sizeof (gint32));
  g_assert_cmpfloat (max_abs_difference (dev->snapshot->clusters.means, ref->snapshot->clusters.means, (gsize) tc->k * tc->d), <=,
                     1e-4 * (1 + largest_abs (ref->snapshot->clusters.means, (gsize) tc->k * tc->d)));
}

/* ---- gmm.cl: every covariance type --------------------------------------- */

typedef struct {
  guint n, d, k;
  const char *covariance;
  const char *lanes;   /* LATENT_GMM_LANES, NULL: the device's choice */
  gboolean no_fp64;    /* LATENT_GMM_FP64=0: sums as without doubles */
} GmmCase;

static void
test_gmm (gconstpointer data)
{
  const GmmCase *tc = data;
  g_autoptr(LatentDataset) ds = test_blobs (tc->n, tc->d, tc->k, 1.5, 3 * tc->n + tc->d);
  g_autofree char *k = g_strdup_printf ("k=%u", tc->k);
  g_autofree char *covariance = g_strdup_printf ("covariance=%s", tc->covariance);
  const char * const settings[] = { k, covariance, "max-iterations=4", NULL };
  g_autoptr(LatentFit) ref = NULL;
  g_autoptr(LatentFit) dev = NULL;
  guint differ = 0;

  if (tc->lanes)
    g_setenv ("LATENT_GMM_LANES", tc->lanes, TRUE);
  if (tc->no_fp64)
    g_setenv ("LATENT_GMM_FP64", "0", TRUE);
  fit_both ("gmm", ds, settings, 1e-4, &ref, &dev);
  g_unsetenv ("LATENT_GMM_LANES");
  g_unsetenv ("LATENT_GMM_FP64");
  for (guint i = 0; i < tc->n; i++)
    differ += ref->snapshot->clusters.labels[i] != dev->snapshot->clusters.labels[i];
  g_assert_cmpuint (differ, ==, 0);
  g_assert_cmpfloat (fabs (ref->snapshot->mixture.log_likelihood - dev->snapshot->mixture.log_likelihood), <=,
                     1e-4 * fabs (ref->snapshot->mixture.log_likelihood) + 1e-4);
}

/* ---- linear.cl (and gemm.cl): PCA, PPCA, factor analysis ----------------- */

typedef struct {
  guint n, d;
  const char *algorithm;
  const char *settings[4];
  const char *grid;   /* on an 8-bit grid: LATENT_GEMM_PAIRS, the portable row quads or pairs */
} LinearCase;

/* Rows along a few directions with noise, off the origin. */
static LatentDataset *
correlated (guint   n,
            guint   d,
            guint64 seed)
{
  LatentDataset *ds = latent_dataset_new ("test correlated", n, d, NULL);
  float *x = latent_dataset_get_data (ds);
  guint64 state = seed;

  for (guint i = 0; i < n; i++)
    {
      const double z1 = 3 * test_normal (&state), z2 = test_normal (&state);

      for (guint f = 0; f < d; f++)
        x[(gsize) i * d + f] = 10 + f + z1 * cos (f) + z2 * sin (2.0 * f) + 0.3 * test_normal (&state);
    }
  return ds;
}

static void
test_linear (gconstpointer data)
{
  const LinearCase *tc = data;
  g_autoptr(LatentDataset) ds = correlated (tc->n, tc->d, tc->n * 31 + tc->d);
  g_autoptr(LatentFit) ref = NULL;
  g_autoptr(LatentFit) dev = NULL;
  LatentSnapshot *a, *b;

  if (tc->grid)
    {
      float *x = latent_dataset_get_data (ds);

      for (gsize i = 0; i < (gsize) tc->n * tc->d; i++)
        x[i] = CLAMP (rint (x[i] * 8), 0, 255) / 255.0f;
      g_setenv ("LATENT_GEMM_PAIRS", tc->grid, TRUE);
    }
  fit_both (tc->algorithm, ds, tc->settings, 1e-4, &ref, &dev);
  g_setenv ("LATENT_GEMM_PAIRS", "", TRUE);
  a = dev->snapshot;
  b = ref->snapshot;
  g_assert_cmpuint (a->linear.n_components, ==, b->linear.n_components);
  for (guint j = 0; j < a->linear.n_components; j++)
    g_assert_cmpfloat (fabs (a->linear.explained_variance[j] - b->linear.explained_variance[j]), <=,
                       1e-4 * b->linear.explained_variance[0] + 1e-6);
  g_assert_cmpfloat (fabs (a->linear.reconstruction_error - b->linear.reconstruction_error), <=,
                     1e-3 * b->linear.reconstruction_error + 1e-6);
}

/* ---- wta.cl (and gemm.cl): the autoencoder, two epochs ------------------- */

typedef struct {
  guint n, d, hidden, batch;
  const char *sparsity;
  const char *tied;
  const char *optimizer;
} WtaCase;

static void
test_wta (gconstpointer data)
{
  const WtaCase *tc = data;
  g_autoptr(LatentDataset) ds = test_blobs (tc->n, tc->d, 3, 2.0, tc->n + 7 * tc->d);
  g_autofree char *hidden = g_strdup_printf ("hidden=%u", tc->hidden);
  g_autofree char *batch = g_strdup_printf ("batch=%u", tc->batch);
  g_autofree char *sparsity = g_strdup_printf ("sparsity=%s", tc->sparsity);
  g_autofree char *tied = g_strdup_printf ("tied=%s", tc->tied);
  g_autofree char *optimizer = g_strdup_printf ("optimizer=%s", tc->optimizer);
  const char * const settings[] = { hidden, batch, sparsity, tied, optimizer, "k=2", "rate=0.4",
                                    "epochs=2", "validation=0.2", NULL };
  g_autoptr(LatentFit) ref = NULL;
  g_autoptr(LatentFit) dev = NULL;
  LatentSnapshot *a, *b;
  const gsize weights = (gsize) tc->hidden * tc->d;

  fit_both ("wta", ds, settings, 1e-4, &ref, &dev);
  a = dev->snapshot;
  b = ref->snapshot;
  g_assert_cmpuint (a->autoencoder.epochs.n_steps, ==, b->autoencoder.epochs.n_steps);
  g_assert_cmpmem (a->autoencoder.unit_wins, tc->hidden * sizeof (guint), b->autoencoder.unit_wins, tc->hidden * sizeof (guint));
  g_assert_cmpfloat (max_abs_difference (a->autoencoder.encoder_weights, b->autoencoder.encoder_weights, weights), <, 1e-4);
  if (b->autoencoder.decoder_weights)
    g_assert_cmpfloat (max_abs_difference (a->autoencoder.decoder_weights, b->autoencoder.decoder_weights, weights), <, 1e-4);
  g_assert_cmpfloat (max_abs_difference (a->autoencoder.decoder_bias, b->autoencoder.decoder_bias, tc->d), <, 1e-4);
  for (guint e = 0; e < b->autoencoder.epochs.n_epochs; e++)
    if (!isnan (b->autoencoder.epochs.held_out_loss[e]))
      g_assert_cmpfloat (fabs (a->autoencoder.epochs.held_out_loss[e] - b->autoencoder.epochs.held_out_loss[e]), <=, 1e-4 * (1 + b->autoencoder.epochs.held_out_loss[e]));
}

/* ---- logreg.cl (and gemm.cl) --------------------------------------------- */

typedef struct {
  guint n, d, classes, batch;
  const char *optimizer;
  const char *standardise;
  guint epochs;
} LogregCase;

static void
test_logreg (gconstpointer data)
{
  const LogregCase *tc = data;
  g_autoptr(LatentDataset) ds = test_blobs (tc->n, tc->d, tc->classes, 6.0, tc->n + tc->d);
  g_autofree char *batch = g_strdup_printf ("batch=%u", tc->batch);
  g_autofree char *optimizer = g_strdup_printf ("optimizer=%s", tc->optimizer);
  g_autofree char *standardise = g_strdup_printf ("standardise=%s", tc->standardise);
  g_autofree char *epochs = g_strdup_printf ("epochs=%u", tc->epochs);
  const char * const settings[] = { batch, optimizer, standardise, epochs, "test=0.25", NULL };
  g_autoptr(LatentFit) ref = NULL;
  g_autoptr(LatentFit) dev = NULL;
  LatentSnapshot *a, *b;

  fit_both ("logreg", ds, settings, 1e-4, &ref, &dev);
  a = dev->snapshot;
  b = ref->snapshot;
  g_assert_cmpuint (a->classifier.epochs.n_steps, ==, b->classifier.epochs.n_steps);
  for (guint s = 0; s < b->classifier.epochs.n_steps; s++)
    g_assert_cmpfloat (fabs (a->classifier.epochs.step_loss[s] - b->classifier.epochs.step_loss[s]), <=, 1e-4 * (1 + b->classifier.epochs.step_loss[s]));
  g_assert_cmpuint (a->classifier.n_test, ==, b->classifier.n_test);
  g_assert_cmpmem (a->classifier.test_predictions, b->classifier.n_test * sizeof (gint32), b->classifier.test_predictions, b->classifier.n_test * sizeof (gint32));
}

/* ---- mlp.cl (with logreg.cl's and gemm.cl's kernels) --------------------- */

typedef struct {
  guint n, d, classes, batch;
  const char *hidden;      /* "hidden-2=…" or another setting */
  const char *activation;
  const char *dropout;
} MlpCase;

static void
test_mlp (gconstpointer data)
{
  const MlpCase *tc = data;
  g_autoptr(LatentDataset) ds = test_blobs (tc->n, tc->d, tc->classes, 6.0, tc->n + tc->d);
  g_autofree char *batch = g_strdup_printf ("batch=%u", tc->batch);
  g_autofree char *activation = g_strdup_printf ("activation=%s", tc->activation);
  g_autofree char *dropout = g_strdup_printf ("dropout=%s", tc->dropout);
  const char * const settings[] = { batch, activation, dropout, tc->hidden, "hidden-1=5", "epochs=1",
                                    "test=0.25", NULL };
  g_autoptr(LatentFit) ref = NULL;
  g_autoptr(LatentFit) dev = NULL;
  LatentSnapshot *a, *b;

  fit_both ("mlp", ds, settings, 1e-4, &ref, &dev);
  a = dev->snapshot;
  b = ref->snapshot;
  g_assert_cmpuint (a->classifier.epochs.n_steps, ==, b->classifier.epochs.n_steps);
  for (guint s = 0; s < b->classifier.epochs.n_steps; s++)
    g_assert_cmpfloat (fabs (a->classifier.epochs.step_loss[s] - b->classifier.epochs.step_loss[s]), <=, 1e-4 * (1 + b->classifier.epochs.step_loss[s]));
  g_assert_cmpmem (a->classifier.test_predictions, b->classifier.n_test * sizeof (gint32), b->classifier.test_predictions, b->classifier.n_test * sizeof (gint32));
}

/* ---- prototype.cl -------------------------------------------------------- */

typedef struct {
  guint n, d, classes;
  const char *distance;
} PrototypeCase;

static void
test_prototype (gconstpointer data)
{
  const PrototypeCase *tc = data;
  g_autoptr(LatentDataset) ds = test_blobs (tc->n, tc->d, tc->classes, 5.0, tc->n + tc->d);
  g_autofree char *distance = g_strdup_printf ("distance=%s", tc->distance);
  g_autofree char *ways = g_strdup_printf ("ways=%u", MIN (tc->classes, 3));
  const char * const settings[] = { distance, ways, "shots=2", "queries=2", "episodes=2", "test=0.4", NULL };
  g_autoptr(LatentFit) ref = NULL;
  g_autoptr(LatentFit) dev = NULL;
  LatentSnapshot *a, *b;

  fit_both ("prototype", ds, settings, 1e-5, &ref, &dev);
  a = dev->snapshot;
  b = ref->snapshot;
  g_assert_cmpuint (a->classifier.n_test, ==, b->classifier.n_test);
  g_assert_cmpmem (a->classifier.test_predictions, b->classifier.n_test * sizeof (gint32), b->classifier.test_predictions, b->classifier.n_test * sizeof (gint32));
  g_assert_cmpuint (a->classifier.n_episodes, ==, b->classifier.n_episodes);
  if (b->classifier.n_episodes > 0)
    {
      g_assert_cmpmem (a->classifier.episode_accuracy, b->classifier.n_episodes * sizeof (double), b->classifier.episode_accuracy,
                       b->classifier.n_episodes * sizeof (double));
      g_assert_cmpmem (a->classifier.query_predictions, b->classifier.n_queries * sizeof (gint32), b->classifier.query_predictions,
                       b->classifier.n_queries * sizeof (gint32));
    }
}

/* ---- knn.cl and tsne.cl -------------------------------------------------- */

typedef struct {
  guint n, d;
  const char *repulsion;
} TsneCase;

static void
test_tsne (gconstpointer data)
{
  const TsneCase *tc = data;
  g_autoptr(LatentDataset) ds = test_blobs (tc->n, tc->d, 3, 2.0, tc->n + tc->d);
  g_autofree char *repulsion = g_strdup_printf ("repulsion=%s", tc->repulsion);
  const char * const settings[] = { repulsion, "perplexity=4", "iterations=4", "exaggeration-iterations=2", NULL };
  g_autoptr(LatentFit) ref = NULL;
  g_autoptr(LatentFit) dev = NULL;
  double worst = 0;

  fit_both ("tsne", ds, settings, 1e-3, &ref, &dev);
  for (guint i = 0; i < 2 * tc->n; i++)
    worst = MAX (worst, fabs ((double) ref->snapshot->embedding.positions[i] - dev->snapshot->embedding.positions[i]));
  g_assert_cmpfloat (worst, <, 1e-4);
}

/* ---- umap.cl -------------------------------------------------------------- */

static void
test_umap (gconstpointer data)
{
  const guint n = GPOINTER_TO_UINT (data);
  g_autoptr(LatentDataset) ds = test_blobs (n, 4, 3, 2.0, n);
  const char * const settings[] = { "neighbours=5", "epochs=3", NULL };
  g_autoptr(LatentFit) ref = NULL;
  g_autoptr(LatentFit) dev = NULL;
  double worst = 0;

  fit_both ("umap", ds, settings, 1e-3, &ref, &dev);
  for (guint i = 0; i < 2 * n; i++)
    worst = MAX (worst, fabs ((double) ref->snapshot->embedding.positions[i] - dev->snapshot->embedding.positions[i]));
  g_assert_cmpfloat (worst, <, 1e-3);
}

/* ---- convolve.cl: every method and border -------------------------------- */

typedef struct {
  guint width, height, channels;
  guint size;   /* of the random kernels; 0: the gradient magnitude preset */
  guint passes;
} ConvolveCase;

static const LatentConvolveMethod all_methods[] = {
  LATENT_CONVOLVE_AUTO, LATENT_CONVOLVE_DIRECT, LATENT_CONVOLVE_TILED, LATENT_CONVOLVE_SEPARABLE,
  LATENT_CONVOLVE_FFT,
};

static void
check_filter (LatentConvolveCl   *conv,
              const LatentFilter *filter,
              const ConvolveCase *tc,
              const float        *image)
{
  const gsize n = (gsize) tc->width * tc->height * tc->channels;
  g_autofree float *expected = g_new (float, n);
  g_autofree float *scratch = g_new (float, n);
  g_autofree float *got = g_new (float, n);
  const double tolerance = 2e-5 * tc->passes * filter_gain (filter);

  for (LatentBorder border = LATENT_BORDER_CLAMP; border <= LATENT_BORDER_ZERO; border++)
    {
      memcpy (expected, image, n * sizeof (float));
      for (guint p = 0; p < tc->passes; p++)
        {
          g_assert_true (latent_convolve_reference (filter, border, expected, scratch, tc->width, tc->height,
                                                    tc->channels, NULL));
          memcpy (expected, scratch, n * sizeof (float));
        }
      for (guint m = 0; m < G_N_ELEMENTS (all_methods); m++)
        {
          g_autoptr(GError) error = NULL;
          double worst;

          if (all_methods[m] == LATENT_CONVOLVE_SEPARABLE && !latent_filter_is_separable (filter))
            continue;
          g_assert_true (latent_convolve_cl_upload (conv, image, tc->width, tc->height, tc->channels, &error));
          g_assert_true (latent_convolve_cl_pass (conv, filter, border, all_methods[m], tc->passes, NULL, NULL,
                                                  &error));
          g_assert_true (latent_convolve_cl_download (conv, got, &error));
          g_assert_no_error (error);
          assert_no_report (latent_convolve_method_to_string (all_methods[m]));
          worst = max_abs_difference (expected, got, n);
          if (worst > tolerance)
            g_error ("%s, size %u, %s, %s: off by %g", latent_filter_get_name (filter),
                     latent_filter_get_size (filter), latent_border_to_string (border),
                     latent_convolve_method_to_string (all_methods[m]), worst);
        }
    }
}

static void
test_convolve (gconstpointer data)
{
  const ConvolveCase *tc = data;
  const gsize n = (gsize) tc->width * tc->height * tc->channels;
  g_autofree float *image = g_new (float, n);
  g_autoptr(LatentConvolveCl) conv = NULL;
  g_autoptr(GError) error = NULL;
  guint64 state = tc->width * 131u + tc->height * 17u + tc->size;

  conv = latent_convolve_cl_new (cl, &error);
  g_assert_no_error (error);
  for (gsize i = 0; i < n; i++)
    image[i] = (float) test_uniform (&state);

  if (tc->size == 0)
    {
      g_autoptr(LatentFilter) gradient = latent_filter_new_gradient ();

      check_filter (conv, gradient, tc, image);
      return;
    }
  {
    /* A generic full-rank kernel, and an outer product of two vectors. */
    g_autoptr(LatentFilter) full = random_filter (tc->size, state);
    g_autoptr(LatentFilter) rank1 = random_separable (tc->size, state + 1);

    check_filter (conv, full, tc, image);
    check_filter (conv, rank1, tc, image);
  }
}

/* The convolution as a run: each pass's change summed on the device
 * (convolve_change for the fft, the writing kernel's partial sums for the
 * others), the image read back only at the end. */
typedef struct {
  guint width, height, channels;
  const char *filter;
  const char *border;
} ConvolveRunCase;

static void
test_convolve_run (gconstpointer data)
{
  static const char * const methods[] = { "auto", "direct", "tiled", "separable", "fft" };
  const ConvolveRunCase *tc = data;
  const gsize n = (gsize) tc->width * tc->height * tc->channels;
  g_autoptr(LatentDataset) ds = latent_dataset_new ("noise", tc->width * tc->height, tc->channels, NULL);
  float *x = latent_dataset_get_data (ds);
  guint64 state = tc->width * 7u + tc->height;
  g_autofree char *filter = g_strdup_printf ("filter=%s", tc->filter);
  g_autofree char *border = g_strdup_printf ("border=%s", tc->border);

  for (gsize i = 0; i < n; i++)
    x[i] = (float) test_uniform (&state);
  latent_dataset_set_image_shape (ds, tc->width, tc->height, tc->channels, TRUE);
  for (guint m = 0; m < G_N_ELEMENTS (methods); m++)
    {
      g_autofree char *method = g_strdup_printf ("method=%s", methods[m]);
      const char * const settings[] = { filter, border, method, "sigma=1", "iterations=3", NULL };
      g_autoptr(LatentFit) ref = NULL;
      g_autoptr(LatentFit) dev = NULL;

      /* Only rank-1 kernels go separable. */
      if (g_str_equal (methods[m], "separable") && !g_str_equal (tc->filter, "gaussian"))
        continue;
      fit_both ("convolve", ds, settings, 1e-4, &ref, &dev);
      g_assert_cmpfloat (max_abs_difference (dev->snapshot->filter.image, ref->snapshot->filter.image, n), <=, 1e-4);
    }
}

/* ---- the cases ----------------------------------------------------------- */

int
main (int    argc,
      char **argv)
{
  /* m × n × k: one element, one row, one column, a thin inner dimension,
   * sizes past one tile that are a multiple of nothing, and a deep product
   * of one tile (which a device with idle units may split over the depth). */
  static const GemmShape gemm_shapes[] = {
    { 1, 1, 1 }, { 1, 9, 5 }, { 9, 1, 5 }, { 7, 6, 1 }, { 19, 17, 23 }, { 33, 35, 37 }, { 5, 3, 301 },
  };
  static const guint kmeans_shapes[][3] = {
    { 1, 3, 1 }, { 5, 2, 5 }, { 37, 1, 3 }, { 41, 3, 4 }, { 29, 9, 6 }, { 23, 17, 3 }, { 71, 4, 19 },
  };
  static const guint kmeans_product_shapes[][3] = { { 1, 3, 1 }, { 41, 3, 4 }, { 71, 4, 19 } };
  static const char * const bounds[] = { "none", "hamerly", "elkan" };
  /* Enough rows per component for a full covariance of that many columns. */
  static const guint gmm_shapes[][3] = {
    { 1, 3, 1 }, { 33, 1, 3 }, { 41, 3, 2 }, { 39, 7, 3 }, { 41, 17, 2 },
  };
  static const char * const covariances[] = { "full", "diag", "spherical" };
  static const LinearCase linear_cases[] = {
    { 2, 1, "pca", { "components=1", "max-iterations=1" } },
    { 29, 7, "pca", { "components=3", "max-iterations=1" } },
    { 29, 7, "pca", { "components=2", "whiten=true", "max-iterations=1" } },
    { 37, 11, "pca", { "components=3", "method=iterative", "max-iterations=5" } },
    { 31, 2, "ppca", { "components=1", "max-iterations=5" } },
    { 37, 11, "ppca", { "components=2", "max-iterations=5" } },
    { 37, 11, "fa", { "components=2", "max-iterations=5" } },
    /* 8-bit rows: odd n, d past a multiple of 16, a single pair or quad. */
    { 29, 7, "pca", { "components=3", "max-iterations=1" }, "generic-pairs" },
    { 37, 19, "pca", { "components=3", "max-iterations=1" }, "generic-pairs" },
    { 3, 2, "pca", { "components=1", "max-iterations=1" }, "generic-pairs" },
    { 29, 7, "pca", { "components=3", "max-iterations=1" }, "generic" },
    { 37, 19, "pca", { "components=3", "max-iterations=1" }, "generic" },
    { 3, 2, "pca", { "components=1", "max-iterations=1" }, "generic" },
  };
  static const WtaCase wta_cases[] = {
    { 41, 13, 6, 9, "lifetime", "true", "momentum" },
    { 41, 13, 6, 9, "lifetime", "false", "adam" },
    { 37, 5, 7, 10, "k-sparse", "false", "momentum" },
    { 37, 5, 7, 10, "k-sparse", "true", "adam" },
    { 23, 1, 3, 6, "none", "true", "momentum" },
  };
  /* One epoch mostly: each step is several products, slow on oclgrind. */
  static const LogregCase logreg_cases[] = {
    { 43, 7, 3, 10, "momentum", "true", 2 },
    { 43, 7, 3, 64, "adam", "false", 2 },
    { 29, 1, 2, 5, "adam", "true", 1 },
    { 37, 19, 5, 9, "momentum", "false", 1 },
    /* L-BFGS: all rows, logreg_gradient in place of the update. */
    { 37, 19, 5, 0, "lbfgs", "true", 2 },
  };
  static const MlpCase mlp_cases[] = {
    { 43, 7, 3, 10, "hidden-2=0", "relu", "0" },
    { 37, 19, 5, 9, "hidden-2=3", "tanh", "0.3" },
    { 29, 1, 2, 29, "hidden-2=0", "relu", "0.5" },
  };
  static const PrototypeCase prototype_cases[] = {
    { 41, 5, 3, "euclidean" }, { 41, 5, 3, "cosine" }, { 46, 1, 4, "euclidean" }, { 47, 19, 4, "cosine" },
    { 43, 17, 3, "dot" },
  };
  static const ConvolveCase convolve_cases[] = {
    { 1, 1, 1, 3, 1 }, { 17, 5, 2, 3, 1 }, { 5, 17, 3, 5, 1 }, { 33, 19, 1, 7, 1 }, { 19, 7, 4, 1, 1 },
    { 13, 11, 1, 3, 2 }, { 21, 9, 2, 0, 1 }, { 71, 37, 1, 5, 1 },
    /* Widths a multiple of 16: the CPU shape's stores past the caches. */
    { 32, 7, 1, 3, 1 }, { 48, 5, 2, 5, 2 },
  };
  static const ConvolveRunCase convolve_runs[] = {
    { 1, 1, 1, "gaussian", "mirror" }, { 23, 9, 3, "gaussian", "wrap" }, { 19, 13, 2, "emboss", "zero" },
    { 37, 5, 1, "gradient", "clamp" },
  };
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  /* Set before any thread starts and only overwritten later (empty: the
   * device's own choice): adding a variable reallocates the environment
   * under the simulator's threads, which read it. */
  g_setenv ("LATENT_GEMM_PAIRS", "", TRUE);
  g_setenv ("LATENT_KMEANS_PRODUCT", "", TRUE);
  cl = latent_cl_new (LATENT_DEVICE_AUTO, &error);
  if (cl == NULL)
    g_test_message ("no OpenCL device: %s", error->message);
  else
    {
      g_autofree char *described = latent_cl_describe (cl);

      g_test_message ("%s, %s-shaped kernels", described,
                      latent_kernel_shape_to_string (latent_cl_get_shape (cl)));
    }
  /* Nothing before the first case counts against it. */
  g_free (read_new_log ());
  /* Images this small fit any cache: force the streaming stores where the
   * width allows them, so they run here too. */
  g_setenv ("LATENT_CONVOLVE_STREAM", "1", TRUE);

  for (guint i = 0; i < G_N_ELEMENTS (gemm_shapes); i++)
    {
      g_autofree char *path = g_strdup_printf ("/sim/gemm/%ux%ux%u", gemm_shapes[i].m, gemm_shapes[i].n,
                                               gemm_shapes[i].k);
      add_case (path, test_gemm, &gemm_shapes[i], NULL);
    }
  for (guint i = 0; i < G_N_ELEMENTS (kmeans_shapes); i++)
    for (guint b = 0; b < G_N_ELEMENTS (bounds); b++)
      {
        KmeansCase *tc = g_new (KmeansCase, 1);
        g_autofree char *path = NULL;

        *tc = (KmeansCase) { kmeans_shapes[i][0], kmeans_shapes[i][1], kmeans_shapes[i][2], bounds[b], "random", FALSE };
        path = g_strdup_printf ("/sim/kmeans/%s/n%u-d%u-k%u", tc->bounds, tc->n, tc->d, tc->k);
        add_case (path, test_kmeans, tc, g_free);
      }
  /* The GPU shape's full pass from the matrix product (the tiles' above). */
  for (guint i = 0; i < G_N_ELEMENTS (kmeans_product_shapes); i++)
    for (guint b = 0; b < G_N_ELEMENTS (bounds); b++)
      {
        KmeansCase *tc = g_new (KmeansCase, 1);
        g_autofree char *path = NULL;

        *tc = (KmeansCase) { kmeans_product_shapes[i][0], kmeans_product_shapes[i][1], kmeans_product_shapes[i][2],
                             bounds[b], "random", FALSE, "gemm" };
        path = g_strdup_printf ("/sim/kmeans/product/%s/n%u-d%u-k%u", tc->bounds, tc->n, tc->d, tc->k);
        add_case (path, test_kmeans, tc, g_free);
      }
  for (guint i = 0; i < G_N_ELEMENTS (kmeans_shapes); i++)
    {
      KmeansCase *tc = g_new (KmeansCase, 1);
      g_autofree char *path = NULL;

      *tc = (KmeansCase) { kmeans_shapes[i][0], kmeans_shapes[i][1], kmeans_shapes[i][2], "none", "kmeans++", FALSE };
      path = g_strdup_printf ("/sim/kmeans/seed/n%u-d%u-k%u", tc->n, tc->d, tc->k);
      add_case (path, test_kmeans, tc, g_free);
    }
  /* With bounds (and so the 8-bit copy) on rows of an 8-bit grid. */
  for (guint i = 0; i < G_N_ELEMENTS (kmeans_shapes); i++)
    {
      KmeansCase *tc = g_new (KmeansCase, 1);
      g_autofree char *path = NULL;

      *tc = (KmeansCase) { kmeans_shapes[i][0], kmeans_shapes[i][1], kmeans_shapes[i][2], "elkan", "kmeans++", TRUE };
      path = g_strdup_printf ("/sim/kmeans/seed-copy/n%u-d%u-k%u", tc->n, tc->d, tc->k);
      add_case (path, test_kmeans, tc, g_free);
    }
  for (guint i = 0; i < G_N_ELEMENTS (gmm_shapes); i++)
    for (guint c = 0; c < G_N_ELEMENTS (covariances); c++)
      {
        GmmCase *tc = g_new0 (GmmCase, 1);
        g_autofree char *path = NULL;

        *tc = (GmmCase) { gmm_shapes[i][0], gmm_shapes[i][1], gmm_shapes[i][2], covariances[c], NULL, FALSE };
        path = g_strdup_printf ("/sim/gmm/%s/n%u-d%u-k%u", tc->covariance, tc->n, tc->d, tc->k);
        add_case (path, test_gmm, tc, g_free);
      }
  /* The compiled-in vector widths, and the sums without doubles. */
  for (guint c = 0; c < G_N_ELEMENTS (covariances); c++)
    {
      static const char * const lanes[] = { "1", "4", "16" };

      for (guint l = 0; l < G_N_ELEMENTS (lanes); l++)
        {
          GmmCase *tc = g_new0 (GmmCase, 1);
          g_autofree char *path = NULL;

          *tc = (GmmCase) { 21, 5, 3, covariances[c], lanes[l], l == 0 };
          path = g_strdup_printf ("/sim/gmm/%s/n%u-d%u-k%u-lanes%s%s", tc->covariance, tc->n, tc->d, tc->k,
                                  tc->lanes, tc->no_fp64 ? "-float" : "");
          add_case (path, test_gmm, tc, g_free);
        }
    }
  for (guint i = 0; i < G_N_ELEMENTS (linear_cases); i++)
    {
      /* 8-bit rows reach linear_pairs or linear_quads, which run apart
       * (run-oclgrind). */
      g_autofree char *path = g_strdup_printf ("/sim/%s/%s/n%u-d%u-%u", linear_cases[i].grid ? "pairs" : "linear",
                                               linear_cases[i].algorithm, linear_cases[i].n, linear_cases[i].d, i);
      add_case (path, test_linear, &linear_cases[i], NULL);
    }
  for (guint i = 0; i < G_N_ELEMENTS (wta_cases); i++)
    {
      const WtaCase *tc = &wta_cases[i];
      g_autofree char *path = g_strdup_printf ("/sim/wta/%s-%s-%s/n%u-d%u-h%u-b%u", tc->sparsity,
                                               g_str_equal (tc->tied, "true") ? "tied" : "untied",
                                               tc->optimizer, tc->n, tc->d, tc->hidden, tc->batch);
      add_case (path, test_wta, tc, NULL);
    }
  for (guint i = 0; i < G_N_ELEMENTS (logreg_cases); i++)
    {
      const LogregCase *tc = &logreg_cases[i];
      g_autofree char *path = g_strdup_printf ("/sim/logreg/%s/n%u-d%u-c%u-b%u%s", tc->optimizer, tc->n, tc->d,
                                               tc->classes, tc->batch,
                                               g_str_equal (tc->standardise, "true") ? "-standardised" : "");
      add_case (path, test_logreg, tc, NULL);
    }
  for (guint i = 0; i < G_N_ELEMENTS (mlp_cases); i++)
    {
      const MlpCase *tc = &mlp_cases[i];
      g_autofree char *path = g_strdup_printf ("/sim/mlp/%s-%s-dropout-%s/n%u-d%u-c%u-b%u", tc->hidden, tc->activation,
                                               tc->dropout, tc->n, tc->d, tc->classes, tc->batch);
      add_case (path, test_mlp, tc, NULL);
    }
  for (guint i = 0; i < G_N_ELEMENTS (prototype_cases); i++)
    {
      const PrototypeCase *tc = &prototype_cases[i];
      g_autofree char *path = g_strdup_printf ("/sim/prototype/%s/n%u-d%u-c%u", tc->distance, tc->n, tc->d,
                                               tc->classes);
      add_case (path, test_prototype, tc, NULL);
    }
  {
    /* Rows not a multiple of any vector, and affinity rows of every length. */
    static const TsneCase tsne_cases[] = { { 37, 5, "exact" }, { 29, 3, "fft" } };

    for (guint i = 0; i < G_N_ELEMENTS (tsne_cases); i++)
      {
        const TsneCase *tc = &tsne_cases[i];
        g_autofree char *path = g_strdup_printf ("/sim/tsne/%s/n%u-d%u", tc->repulsion, tc->n, tc->d);

        add_case (path, test_tsne, tc, NULL);
      }
    add_case ("/sim/umap/n23", test_umap, GUINT_TO_POINTER (23), NULL);
  }
  for (guint i = 0; i < G_N_ELEMENTS (convolve_cases); i++)
    {
      const ConvolveCase *tc = &convolve_cases[i];
      g_autofree char *path = NULL;

      if (tc->size == 0)
        path = g_strdup_printf ("/sim/convolve/gradient/%ux%ux%u", tc->width, tc->height, tc->channels);
      else
        path = g_strdup_printf ("/sim/convolve/size%u/%ux%ux%u-passes%u", tc->size, tc->width, tc->height,
                                tc->channels, tc->passes);
      add_case (path, test_convolve, tc, NULL);
    }

  for (guint i = 0; i < G_N_ELEMENTS (convolve_runs); i++)
    {
      const ConvolveRunCase *tc = &convolve_runs[i];
      g_autofree char *path = g_strdup_printf ("/sim/convolve/run/%s-%s/%ux%ux%u", tc->filter, tc->border,
                                               tc->width, tc->height, tc->channels);
      add_case (path, test_convolve_run, tc, NULL);
    }

  status = g_test_run ();
  g_clear_object (&cl);
  return status;
}
