/* test-algorithm.c — the registry, what algorithms declare, the fit loop,
 * snapshot sizes and typed parameters
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "latent-registry.h"
#include "latent-sweep.h"
#include "latent-test-util.h"

static void
test_registry (void)
{
  const LatentAlgorithm * const *all = latent_registry_list ();
  g_autoptr(GHashTable) ids = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GError) error = NULL;
  guint n = 0;

  for (; all[n]; n++)
    {
      const LatentAlgorithm *a = all[n];

      g_assert_true (g_hash_table_add (ids, (gpointer) a->id));
      g_assert_true (latent_registry_lookup (a->id, NULL) == a);
      g_assert_nonnull (a->title);
      g_assert_nonnull (a->short_title);
      g_assert_nonnull (a->objective_name);
      g_assert_nonnull (a->init);
      /* A step, or the pass contract's three functions. */
      g_assert_true ((a->step != NULL) != (a->pass != NULL));
      if (a->pass)
        g_assert_true (a->pass->n_stats && a->pass->begin && a->pass->accumulate && a->pass->finish);
      g_assert_nonnull (a->snapshot);
      g_assert_nonnull (a->objective);
      g_assert_nonnull (a->converged);
      g_assert_nonnull (a->free);
      g_assert_nonnull (a->write_json);
      /* Header and rows come together, or neither. */
      g_assert_true ((a->write_csv_header == NULL) == (a->write_csv_row == NULL));
      g_assert_nonnull (a->figures);
      g_assert_nonnull (a->figures[0]);
      g_assert_true (latent_algorithm_offers_figure (a, a->figures[0]));
      g_assert_false (latent_algorithm_offers_figure (a, "no-such-figure"));
      /* Every parameter has a field of the algorithm's own struct, none
       * shared: the algorithm reads fields, not names. */
      for (guint i = 0; i < a->n_params; i++)
        {
          g_assert_true (a->params[i].typed);
          for (guint j = 0; j < i; j++)
            g_assert_cmpuint (a->params[j].offset, !=, a->params[i].offset);
        }
      /* One budget, an INT, for --iterations and the window alike; at
       * most one parameter of each other role, of the type the front
       * ends take it as. */
      {
        guint budgets = 0, held_out = 0, tolerances = 0;
        const char *swept;

        for (guint i = 0; i < a->n_params; i++)
          if (a->params[i].role == LATENT_PARAM_ROLE_BUDGET)
            {
              g_assert_cmpint (a->params[i].type, ==, LATENT_PARAM_INT);
              budgets++;
            }
          else if (a->params[i].role == LATENT_PARAM_ROLE_TOLERANCE)
            {
              g_assert_cmpint (a->params[i].type, ==, LATENT_PARAM_DOUBLE);
              g_assert_cmpfloat (a->params[i].min, ==, 0);
              tolerances++;
            }
          else if (a->params[i].role == LATENT_PARAM_ROLE_HELD_OUT)
            {
              g_assert_cmpint (a->params[i].type, ==, LATENT_PARAM_DOUBLE);
              g_assert_true (latent_algorithm_has_flag (a, LATENT_ALGORITHM_SUPERVISED));
              held_out++;
            }
          else
            g_assert_cmpint (a->params[i].role, !=, LATENT_PARAM_ROLE_SEED);
        g_assert_cmpuint (budgets, ==, 1);
        g_assert_cmpuint (tolerances, <=, 1);
        g_assert_cmpuint (held_out, ==, latent_algorithm_has_flag (a, LATENT_ALGORITHM_SUPERVISED) ? 1 : 0);
        if ((swept = latent_algorithm_param_with_role (a, LATENT_PARAM_ROLE_SWEEP)))
          {
            g_autoptr(LatentParams) params = latent_algorithm_new_params (a);
            double min, max;

            g_assert_true (latent_params_get_range (params, swept, &min, &max));
          }
      }
    }
  g_assert_cmpuint (n, >=, 6);

  g_assert_null (latent_registry_lookup ("nope", &error));
  g_assert_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_UNKNOWN);
  g_assert_nonnull (strstr (error->message, "kmeans, gmm"));
}

/* An algorithm whose one step multiplies two floats into a subnormal. */
typedef struct {
  LatentDataset *dataset;
  float          product;
  guint          steps;
} Tiny;

static gpointer
tiny_init (LatentDataset *dataset, LatentParams *params, guint64 seed, LatentCl *cl,
           GCancellable *cancellable, GError **error)
{
  Tiny *tiny = g_new0 (Tiny, 1);

  tiny->dataset = dataset;
  tiny->product = 1;
  return tiny;
}

static gboolean
tiny_step (gpointer state, GCancellable *cancellable, GError **error)
{
  Tiny *tiny = state;
  volatile float a = 1e-30f, b = 1e-12f;

  tiny->product = a * b;
  tiny->steps++;
  return TRUE;
}

static const LatentAlgorithm tiny_algorithm;

static LatentSnapshot *
tiny_snapshot (gpointer state)
{
  return latent_snapshot_new (&tiny_algorithm, ((Tiny *) state)->dataset, NULL);
}

static double
tiny_objective (gpointer state)
{
  return ((Tiny *) state)->product;
}

static gboolean
tiny_converged (gpointer state)
{
  return ((Tiny *) state)->steps > 0;
}

static const LatentAlgorithm tiny_algorithm = {
  .id = "tiny", .init = tiny_init, .step = tiny_step, .snapshot = tiny_snapshot,
  .objective = tiny_objective, .converged = tiny_converged, .free = g_free,
};

static gpointer
refusing_init (LatentDataset *dataset, LatentParams *params, guint64 seed, LatentCl *cl,
               GCancellable *cancellable, GError **error)
{
  g_set_error_literal (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_NUMERIC, "refused");
  return NULL;
}

static const LatentAlgorithm refusing_algorithm = {
  .id = "refusing", .init = refusing_init, .free = g_free,
};

/* The fit loop flushes subnormals as the OpenCL programs do (the reference
 * paths are 1.6× slower without on Intel cores), and gives the caller's
 * mode back. */
static void
test_fit_flushes_denormals (void)
{
  g_autoptr(LatentDataset) dataset = latent_dataset_new ("tiny", 1, 1, NULL);
  g_autoptr(LatentParams) params = latent_params_new (NULL, 0);
  g_autoptr(LatentFit) fit = NULL;
  g_autoptr(GError) error = NULL;
  volatile float a = 1e-30f, b = 1e-12f;

#ifndef __SSE2__
  g_test_skip ("flushing subnormals is set for x86's SSE only");
  return;
#endif
  fit = latent_algorithm_fit (&tiny_algorithm, dataset, params, 0, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (fit->history->len, ==, 1);
  g_assert_cmpfloat (g_array_index (fit->history, LatentIterationRecord, 0).objective, ==, 0.0);
  /* Outside the fit, subnormals are as the caller had them, whichever way
   * it ended. */
  g_assert_cmpfloat (a * b, >, 0.0f);
  g_assert_null (latent_algorithm_fit (&refusing_algorithm, dataset, params, 0, NULL, NULL, NULL, NULL, &error));
  g_assert_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_NUMERIC);
  g_assert_cmpfloat (a * b, >, 0.0f);
}

static void
record_iteration (const LatentIterationRecord *record,
                  gpointer                     user_data)
{
  guint *calls = user_data;

  g_assert_cmpuint (record->iteration, ==, *calls + 1);
  (*calls)++;
}

static void
test_fit (void)
{
  const LatentAlgorithm *kmeans = latent_registry_lookup ("kmeans", NULL);
  g_autoptr(LatentDataset) ds = test_blobs (300, 2, 3, 1.0, 2);
  g_autoptr(LatentParams) params = latent_algorithm_new_params (kmeans);
  g_autoptr(LatentFit) fit = NULL;
  g_autoptr(GError) error = NULL;
  guint calls = 0;

  g_assert_true (latent_params_set_int (params, "k", 3, NULL));
  fit = latent_algorithm_fit (kmeans, ds, params, 1, NULL, record_iteration, &calls, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (fit->snapshot->final);
  g_assert_true (fit->snapshot->algorithm == kmeans);
  g_assert_cmpuint (fit->history->len, ==, fit->snapshot->iteration);
  g_assert_cmpuint (calls, ==, fit->history->len);
  g_assert_cmpfloat (g_array_index (fit->history, LatentIterationRecord, calls - 1).objective, ==,
                     fit->snapshot->objective);
  g_assert_cmpfloat (fit->total_ms, >=, fit->init_ms);

  /* The algorithm's check refuses before anything runs, naming the parameter. */
  g_assert_true (latent_params_set_int (params, "k", 301, NULL));
  g_assert_false (latent_algorithm_check (kmeans, ds, params, &error));
  g_assert_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER);
  g_assert_nonnull (strstr (error->message, "parameter k"));
  g_clear_error (&error);
  g_assert_null (latent_algorithm_fit (kmeans, ds, params, 1, NULL, NULL, NULL, NULL, &error));
  g_assert_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER);
}

/* Every array a snapshot holds is counted, the covariances of a mixture
 * too (a diagonal GMM keeps k × d variances, issue 15). */
static void
test_snapshot_size (void)
{
  const LatentAlgorithm *gmm = latent_registry_lookup ("gmm", NULL);
  const LatentAlgorithm *pca = latent_registry_lookup ("pca", NULL);
  const guint n = 240, d = 12, k = 3;
  g_autoptr(LatentDataset) ds = test_blobs (n, d, k, 1.0, 4);
  g_autoptr(LatentParams) params = latent_algorithm_new_params (gmm);
  g_autoptr(LatentParams) pca_params = latent_algorithm_new_params (pca);
  g_autoptr(LatentFit) fit = NULL;
  g_autoptr(LatentFit) linear = NULL;
  LatentSnapshot *snap;
  gsize expected, m;

  g_assert_true (latent_params_set_int (params, "k", k, NULL));
  g_assert_true (latent_params_set (params, "covariance", "diag", NULL));
  fit = latent_algorithm_fit (gmm, ds, params, 1, NULL, NULL, NULL, NULL, NULL);
  g_assert_nonnull (fit);
  snap = fit->snapshot;
  g_assert_nonnull (snap->mixture.covariances);
  g_assert_nonnull (snap->mixture.responsibilities);
  expected = sizeof (LatentSnapshot)
             + n * sizeof (gint32)                     /* labels */
             + k * d * sizeof (float)                  /* means */
             + k * sizeof (guint)                      /* cluster sizes */
             + k * sizeof (float)                      /* weights */
             + (gsize) k * d * sizeof (float)          /* covariances: the variances of a diagonal model */
             + (gsize) n * k * sizeof (float)          /* responsibilities */
             + strlen (snap->device) + 1
             + (snap->message ? strlen (snap->message) + 1 : 0);
  g_assert_cmpuint (latent_snapshot_get_size (snap), ==, expected);

  g_assert_true (latent_params_set_int (pca_params, "components", 3, NULL));
  linear = latent_algorithm_fit (pca, ds, pca_params, 1, NULL, NULL, NULL, NULL, NULL);
  g_assert_nonnull (linear);
  snap = linear->snapshot;
  m = snap->linear.n_components;
  g_assert_cmpuint (m, ==, 3);
  g_assert_nonnull (snap->linear.projection);
  g_assert_nonnull (snap->linear.samples);
  g_assert_null (snap->clusters.labels);
  /* The components, the projection, the reconstructions and the samples,
   * which the old budget left out, and the rest. */
  expected = sizeof (LatentSnapshot)
             + m * d * sizeof (float)                                  /* components */
             + m * d * sizeof (float)                                  /* encoder */
             + d * sizeof (float)                                      /* mean */
             + 2 * m * sizeof (double)                                 /* variances and ratios */
             + snap->linear.n_noise * sizeof (double)
             + (gsize) n * snap->linear.projection_dims * sizeof (float)
             + snap->linear.examples.n_examples * sizeof (gint32)
             + (gsize) snap->linear.examples.n_examples * d * sizeof (float)           /* reconstructions */
             + (gsize) snap->linear.n_samples * d * sizeof (float)
             + strlen (snap->device) + 1
             + (snap->message ? strlen (snap->message) + 1 : 0);
  g_assert_cmpuint (snap->linear.examples.n_examples, >, 0);
  g_assert_cmpuint (snap->linear.n_samples, >, 0);
  g_assert_cmpuint (latent_snapshot_get_size (snap), ==, expected);
}

/* A trained model's part is counted whole: the autoencoder's weights,
 * scaling, wins, examples and histories; a classifier's weights, test rows,
 * confusion and histories (each family's file counts its own part). */
static void
test_snapshot_size_trained (void)
{
  const LatentAlgorithm *wta = latent_registry_lookup ("wta", NULL);
  const LatentAlgorithm *logreg = latent_registry_lookup ("logreg", NULL);
  const guint n = 240, d = 12, k = 3, h = 5;
  g_autoptr(LatentDataset) ds = test_blobs (n, d, k, 1.0, 4);
  g_autoptr(LatentParams) wta_params = latent_algorithm_new_params (wta);
  g_autoptr(LatentParams) logreg_params = latent_algorithm_new_params (logreg);
  g_autoptr(LatentFit) fit = NULL;
  const LatentAutoencoderPart *ae;
  const LatentClassifierPart *cl;
  const LatentEpochs *e;
  LatentSnapshot *snap;
  gsize expected;

  g_assert_true (latent_params_set_int (wta_params, "hidden", h, NULL));
  g_assert_true (latent_params_set_int (wta_params, "epochs", 2, NULL));
  g_assert_true (latent_params_set (wta_params, "tied", "false", NULL));
  fit = latent_algorithm_fit (wta, ds, wta_params, 1, NULL, NULL, NULL, NULL, NULL);
  g_assert_nonnull (fit);
  snap = fit->snapshot;
  ae = &snap->autoencoder;
  e = &ae->epochs;
  g_assert_cmpuint (ae->n_units, ==, h);
  g_assert_nonnull (ae->decoder_weights);
  g_assert_cmpuint (ae->examples.n_examples, >, 0);
  g_assert_cmpuint (e->n_epochs, ==, 2);
  g_assert_nonnull (e->step_loss);
  expected = sizeof (LatentSnapshot)
             + 2 * h * d * sizeof (float)                      /* encoder and decoder weights */
             + h * sizeof (float) + d * sizeof (float)         /* biases */
             + 2 * d * sizeof (float)                          /* input offset and scale */
             + h * sizeof (guint)                              /* wins */
             + ae->examples.n_examples * (sizeof (gint32) + d * sizeof (float))
             + (e->train_loss ? e->n_epochs * sizeof (double) : 0)
             + (e->held_out_loss ? e->n_epochs * sizeof (double) : 0)
             + (ae->epoch_dead_fraction ? e->n_epochs * sizeof (double) : 0)
             + e->n_steps * sizeof (float)
             + strlen (snap->device) + 1
             + (snap->message ? strlen (snap->message) + 1 : 0);
  g_assert_cmpuint (latent_snapshot_get_size (snap), ==, expected);
  g_clear_pointer (&fit, latent_fit_free);

  g_assert_true (latent_params_set_int (logreg_params, "epochs", 2, NULL));
  fit = latent_algorithm_fit (logreg, ds, logreg_params, 1, NULL, NULL, NULL, NULL, NULL);
  g_assert_nonnull (fit);
  snap = fit->snapshot;
  cl = &snap->classifier;
  e = &cl->epochs;
  g_assert_cmpuint (cl->n_classes, ==, k);
  g_assert_nonnull (cl->class_weights);
  g_assert_null (cl->means);
  g_assert_cmpuint (cl->n_test, >, 0);
  expected = sizeof (LatentSnapshot)
             + k * d * sizeof (float) + k * sizeof (float)     /* class weights and bias */
             + 2 * d * sizeof (float)                          /* standardisation */
             + 2 * cl->n_test * sizeof (gint32)                /* test rows and predictions */
             + k * k * sizeof (guint)                          /* confusion */
             + (e->train_loss ? e->n_epochs * sizeof (double) : 0)
             + (e->held_out_loss ? e->n_epochs * sizeof (double) : 0)
             + (cl->epoch_train_accuracy ? e->n_epochs * sizeof (double) : 0)
             + (cl->epoch_test_accuracy ? e->n_epochs * sizeof (double) : 0)
             + (e->step_loss ? e->n_steps * sizeof (float) : 0)
             + strlen (snap->device) + 1
             + (snap->message ? strlen (snap->message) + 1 : 0);
  g_assert_cmpuint (latent_snapshot_get_size (snap), ==, expected);
}

static void
test_typed_params (void)
{
  const LatentAlgorithm *gmm = latent_registry_lookup ("gmm", NULL);
  g_autoptr(LatentParams) params = latent_algorithm_new_params (gmm);
  g_autoptr(GError) error = NULL;
  double min = 0, max = 0;
  guint first = 0, last = 0;

  g_assert_true (latent_params_set_int (params, "k", 7, &error));
  g_assert_cmpint (latent_params_get_int (params, "k"), ==, 7);
  g_assert_true (latent_params_set_double (params, "tol", 1e-4, &error));
  g_assert_cmpfloat (latent_params_get_double (params, "tol"), ==, 1e-4);
  g_assert_true (latent_params_set_bool (params, "save-responsibilities", TRUE, &error));
  g_assert_true (latent_params_get_bool (params, "save-responsibilities"));

  /* The same bounds as a typed value, stated once in the spec. */
  g_assert_true (latent_params_get_range (params, "k", &min, &max));
  g_assert_false (latent_params_set_int (params, "k", (gint64) max + 1, &error));
  g_assert_error (error, LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "parameter k"));
  g_clear_error (&error);
  g_assert_false (latent_params_set (params, "k", "0", &error));
  g_assert_error (error, LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (latent_params_set_double (params, "tol", NAN, &error));
  g_assert_error (error, LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (latent_params_set_int (params, "nope", 1, &error));
  g_assert_error (error, LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_UNKNOWN);
  g_clear_error (&error);
  g_assert_cmpint (latent_params_get_int (params, "k"), ==, 7);

  /* A sweep asks nothing a single run refuses. */
  g_assert_true (latent_sweep_parse_range (params, "k", "k=2..5", &first, &last, &error));
  g_assert_cmpuint (first, ==, 2);
  g_assert_cmpuint (last, ==, 5);
  g_assert_false (latent_sweep_parse_range (params, "k", "k=0..3", &first, &last, &error));
  g_assert_error (error, LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_INVALID);
  g_clear_error (&error);
  {
    g_autofree char *beyond = g_strdup_printf ("k=%u..%u", (guint) max, (guint) max + 1);

    g_assert_false (latent_sweep_parse_range (params, "k", beyond, &first, &last, &error));
    g_assert_error (error, LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_INVALID);
    g_assert_nonnull (strstr (error->message, "outside"));
  }
}

/* Sizes from the input are checked before anything is allocated: an
 * overflowing product and one beyond the machine's memory are errors that
 * name what needed it, and what is allocated is zeroed. */
static void
test_alloc (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree float *small = latent_algorithm_alloc (1000, sizeof (float), "the test's floats", &error);
  gpointer huge;

  g_assert_no_error (error);
  g_assert_nonnull (small);
  for (guint i = 0; i < 1000; i++)
    g_assert_cmpfloat (small[i], ==, 0);

  huge = latent_algorithm_alloc (G_MAXUINT64 / 4, 16, "parameter k: the bounds", &error);
  g_assert_null (huge);
  g_assert_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER);
  g_assert_nonnull (strstr (error->message, "parameter k: the bounds"));
  g_clear_error (&error);

  /* 1 PiB: no overflow, but no machine running these tests has it. */
  huge = latent_algorithm_alloc (G_GUINT64_CONSTANT (1) << 47, 8, "the responsibilities", &error);
  g_assert_null (huge);
  g_assert_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER);
  /* g_format_size puts a no-break space before the unit. */
  g_assert_true (g_str_has_prefix (error->message, "the responsibilities would need 1.1\u00a0PB"));
}

/* A check that takes k up to 37 and counts how often it is asked. */
static guint checks;

static gboolean
bounded_check (LatentDataset  *dataset,
               LatentParams   *params,
               GError        **error)
{
  checks++;
  return latent_params_get_int (params, "k") <= 37;
}

static const LatentParamSpec bounded_params[] = {
  { .name = "k", .type = LATENT_PARAM_INT, .min = 1, .max = 65536, .default_value = 3 },
};

/* The panel asks for every bound on every change: from the last bound, two
 * checks confirm it; a search is only for a bound that moved. */
static void
test_max_int_from (void)
{
  const LatentAlgorithm bounded = { .id = "bounded", .params = bounded_params,
                                    .n_params = G_N_ELEMENTS (bounded_params), .check = bounded_check };
  g_autoptr(LatentDataset) ds = latent_dataset_new ("d", 4, 2, NULL);
  g_autoptr(LatentParams) params = latent_algorithm_new_params (&bounded);
  guint searched;

  checks = 0;
  g_assert_cmpint (latent_algorithm_max_int (&bounded, ds, params, "k"), ==, 37);
  searched = checks;
  g_assert_cmpuint (searched, >, 10);

  checks = 0;
  g_assert_cmpint (latent_algorithm_max_int_from (&bounded, ds, params, "k", 37), ==, 37);
  g_assert_cmpuint (checks, ==, 2);
  /* A bound that moved is searched for again. */
  g_assert_cmpint (latent_algorithm_max_int_from (&bounded, ds, params, "k", 12), ==, 37);
  g_assert_cmpint (latent_algorithm_max_int_from (&bounded, ds, params, "k", 40), ==, 37);
  g_assert_cmpint (latent_algorithm_max_int_from (&bounded, ds, params, "k", 65536), ==, 37);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/algorithm/registry", test_registry);
  g_test_add_func ("/algorithm/fit", test_fit);
  g_test_add_func ("/algorithm/fit-flushes-denormals", test_fit_flushes_denormals);
  g_test_add_func ("/algorithm/snapshot-size", test_snapshot_size);
  g_test_add_func ("/algorithm/snapshot-size/trained", test_snapshot_size_trained);
  g_test_add_func ("/algorithm/typed-params", test_typed_params);
  g_test_add_func ("/algorithm/alloc", test_alloc);
  g_test_add_func ("/algorithm/max-int-from", test_max_int_from);
  return g_test_run ();
}
