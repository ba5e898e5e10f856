/* test-rows.c — the row source and the pass contract
 *
 * A source in chunks gives every row once, in order, with its labels; an
 * algorithm of the pass contract fitted from a source in chunks (of one
 * row, of a size that does not divide the rows, of more than all of them)
 * gives the same result as from one chunk of every row. On the reference
 * path "the same" is bit for bit: the engine adds every chunk, in row
 * order, into one array of statistics, which is the order of the additions
 * in one chunk too, so the whole result JSON (timings aside) is compared
 * as bytes. The OpenCL path, which keeps the rows on the device and runs
 * one chunk of them all there, agrees with itself in chunks (which it
 * runs on the host) to the device's float rounding.
 *
 * The mini-batch learners (the autoencoder, logistic regression) gather
 * their batches from the source by row index: in chunks they give the
 * same bytes, and their device runs, which gather on the device, agree
 * with the host's gathering from chunks.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <math.h>

#include "latent-registry.h"
#include "latent-result.h"
#include "latent-rows.h"
#include "latent-test-util.h"

static const guint chunk_sizes[] = { 1, 7, 250, 1000, 5000 };

static void
test_chunks (void)
{
  g_autoptr(LatentDataset) ds = test_blobs (10, 3, 2, 1, 1);
  const float *x = latent_dataset_get_data (ds);
  const gint32 *labels = latent_dataset_get_labels (ds);
  static const guint sizes[] = { 1, 3, 4, 10, 25 };

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      g_autoptr(LatentRows) rows = latent_rows_new_for_dataset (ds, sizes[s]);
      const guint expect = (10 + MIN (sizes[s], 10) - 1) / MIN (sizes[s], 10);
      guint next = 0;

      g_assert_cmpuint (latent_rows_get_n_rows (rows), ==, 10);
      g_assert_cmpuint (latent_rows_get_n_cols (rows), ==, 3);
      g_assert_cmpuint (latent_rows_get_n_chunks (rows), ==, expect);
      g_assert_true (latent_rows_get_dataset (rows) == ds);
      g_assert_true (latent_rows_is_whole (rows, ds) == (sizes[s] >= 10));
      for (guint c = 0; c < latent_rows_get_n_chunks (rows); c++)
        {
          g_autoptr(GError) error = NULL;
          LatentChunk chunk;

          g_assert_true (latent_rows_get_chunk (rows, c, &chunk, &error));
          g_assert_no_error (error);
          /* Every row once, in order. */
          g_assert_cmpuint (chunk.first, ==, next);
          g_assert_cmpuint (chunk.n, >=, 1);
          g_assert_cmpuint (chunk.n, <=, sizes[s]);
          g_assert_cmpuint (chunk.d, ==, 3);
          g_assert_true (chunk.values == x + (gsize) chunk.first * 3);
          g_assert_true (chunk.labels == labels + chunk.first);
          next += chunk.n;
        }
      g_assert_cmpuint (next, ==, 10);
    }
}

/* Rows by index, in any order and repeated, from every chunk size: the
 * dataset's rows and labels, the chunk boundaries crossed back and forth. */
static void
test_gather (void)
{
  g_autoptr(LatentDataset) ds = test_blobs (10, 3, 2, 1, 1);
  const float *x = latent_dataset_get_data (ds);
  const gint32 *labels = latent_dataset_get_labels (ds);
  static const guint sizes[] = { 1, 3, 4, 10, 25 };
  static const guint indices[] = { 9, 0, 3, 3, 7, 1, 8, 2, 5, 4, 6, 9, 0 };
  const guint n = G_N_ELEMENTS (indices);

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      g_autoptr(LatentRows) rows = latent_rows_new_for_dataset (ds, sizes[s]);
      float values[G_N_ELEMENTS (indices) * 3];
      gint32 classes[G_N_ELEMENTS (indices)];
      float plain[G_N_ELEMENTS (indices) * 3];
      g_autoptr(GError) error = NULL;

      g_assert_true (latent_rows_gather (rows, indices, n, values, classes, &error));
      g_assert_no_error (error);
      for (guint r = 0; r < n; r++)
        {
          g_assert_cmpmem (values + r * 3, 3 * sizeof (float), x + (gsize) indices[r] * 3, 3 * sizeof (float));
          g_assert_cmpint (classes[r], ==, labels[indices[r]]);
        }
      /* Without labels, the same values. */
      g_assert_true (latent_rows_gather (rows, indices, n, plain, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpmem (plain, sizeof plain, values, sizeof values);
      /* No rows. */
      g_assert_true (latent_rows_gather (rows, indices, 0, NULL, NULL, &error));
      g_assert_no_error (error);
    }
}

/* One process's share (an MPI rank's): its chunks cover rows 3 … 9 only,
 * numbered in the whole set; the set is still 10 rows, a gather reaches
 * all of them, and it is never the whole, even of every row. */
static void
test_share (void)
{
  g_autoptr(LatentDataset) ds = test_blobs (10, 3, 2, 1, 1);
  const float *x = latent_dataset_get_data (ds);
  g_autoptr(LatentRows) rows = latent_rows_new_for_share (ds, 3, 7, 2);
  g_autoptr(LatentRows) all = latent_rows_new_for_share (ds, 0, 10, 0);
  g_autoptr(LatentRows) none = latent_rows_new_for_share (ds, 10, 0, 0);
  static const guint firsts[] = { 3, 5, 7, 9 }, counts[] = { 2, 2, 2, 1 };
  static const guint indices[] = { 0, 9 };
  float values[6];

  g_assert_cmpuint (latent_rows_get_n_rows (rows), ==, 10);
  g_assert_cmpuint (latent_rows_get_n_chunks (rows), ==, 4);
  g_assert_true (latent_rows_is_shared (rows));
  g_assert_false (latent_rows_is_whole (all, ds));
  g_assert_cmpuint (latent_rows_get_n_chunks (none), ==, 0);
  for (guint c = 0; c < 4; c++)
    {
      LatentChunk chunk;

      g_assert_true (latent_rows_get_chunk (rows, c, &chunk, NULL));
      g_assert_cmpuint (chunk.first, ==, firsts[c]);
      g_assert_cmpuint (chunk.n, ==, counts[c]);
      g_assert_true (chunk.values == x + (gsize) firsts[c] * 3);
    }
  g_assert_true (latent_rows_gather (rows, indices, 2, values, NULL, NULL));
  g_assert_cmpmem (values, 3 * sizeof (float), x, 3 * sizeof (float));
  g_assert_cmpmem (values + 3, 3 * sizeof (float), x + 27, 3 * sizeof (float));
}

static void
test_default_size (void)
{
  g_autoptr(LatentDataset) ds = test_blobs (10, 2, 2, 1, 1);
  g_autoptr(LatentDataset) other = test_blobs (10, 2, 2, 1, 1);

  {
    g_autoptr(LatentRows) rows = latent_rows_new_for_dataset (ds, 0);

    g_assert_cmpuint (latent_rows_get_n_chunks (rows), ==, 1);
    g_assert_true (latent_rows_is_whole (rows, ds));
    /* Whole only for the dataset it reads. */
    g_assert_false (latent_rows_is_whole (rows, other));
  }
  latent_rows_set_default_chunk_rows (4);
  {
    g_autoptr(LatentRows) rows = latent_rows_new_for_dataset (ds, 0);

    g_assert_cmpuint (latent_rows_get_chunk_rows (rows), ==, 4);
    g_assert_cmpuint (latent_rows_get_n_chunks (rows), ==, 3);
    g_assert_false (latent_rows_is_whole (rows, ds));
  }
  g_setenv ("LATENT_CHUNK_ROWS", "5", TRUE);
  g_assert_cmpuint (latent_rows_default_chunk_rows (), ==, 5);
  g_unsetenv ("LATENT_CHUNK_ROWS");
  latent_rows_set_default_chunk_rows (0);
  g_assert_cmpuint (latent_rows_default_chunk_rows (), ==, 0);
}

/* A fit of @id on @ds with the settings in @params, every source made in
 * chunks of @chunk_rows (0: one chunk), as its result JSON without the
 * timings. */
static char *
fit_json (const char    *id,
          LatentDataset *ds,
          const char    *params_text,
          LatentCl      *cl,
          guint          chunk_rows)
{
  const LatentAlgorithm *algorithm = latent_registry_lookup (id, NULL);
  g_autoptr(LatentParams) params = latent_algorithm_new_params (algorithm);
  g_auto(GStrv) settings = g_strsplit (params_text, " ", -1);
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentFit) fit = NULL;
  g_autofree char *dir = g_dir_make_tmp ("latent-rows-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "result.json", NULL);
  g_autofree char *text = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root;

  g_assert_nonnull (algorithm);
  for (guint i = 0; settings[i] != NULL; i++)
    if (settings[i][0] != '\0')
      {
        latent_params_parse (params, settings[i], &error);
        g_assert_no_error (error);
      }
  latent_rows_set_default_chunk_rows (chunk_rows);
  fit = latent_algorithm_fit (algorithm, ds, params, 3, cl, NULL, NULL, NULL, &error);
  latent_rows_set_default_chunk_rows (0);
  g_assert_no_error (error);
  g_assert_nonnull (fit);
  g_assert_true (latent_result_write_json (fit->snapshot, fit->history, 0, 0, path, &error));
  g_assert_no_error (error);
  g_assert_true (json_parser_load_from_file (parser, path, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  json_object_remove_member (root, "timings");
  text = json_to_string (json_parser_get_root (parser), FALSE);
  g_unlink (path);
  g_rmdir (dir);
  return g_steal_pointer (&text);
}

typedef struct {
  const char *id;
  const char *params;
} Case;

/* The algorithms of the pass contract, those whose initialisation makes
 * passes (the linear models' moments), and the mini-batch learners, which
 * gather their batches (every optimiser, a short last batch, L-BFGS's
 * batch of all rows, a validation share and a test share). */
static const Case cases[] = {
  { "kmeans", "k=5 init=kmeans++ tol=0 max-iterations=30" },
  { "kmeans", "k=4 init=random tol=0" },
  { "pca", "components=3" },
  { "pca", "components=2 method=iterative tol=0 max-iterations=20" },
  { "ppca", "components=2 max-iterations=30" },
  { "fa", "components=2 max-iterations=30" },
  { "gmm", "k=4 covariance=full max-iterations=15" },
  { "gmm", "k=4 covariance=diag init=random max-iterations=40" },
  { "gmm", "k=3 covariance=spherical tol=0 max-iterations=10" },
  { "prototype", "test=0.25 episodes=5 ways=3 shots=2" },
  { "prototype", "test=0.3 distance=cosine episodes=0" },
  { "wta", "hidden=8 batch=50 rate=0.1 epochs=2 learning-rate=0.05" },
  { "wta", "hidden=8 sparsity=k-sparse k=3 tied=false optimizer=adam learning-rate=0.003 batch=64 epochs=2" },
  { "logreg", "optimizer=adam batch=64 epochs=3 learning-rate=0.01" },
  { "logreg", "optimizer=momentum batch=100 epochs=2 learning-rate=0.05 test=0.3" },
  { "logreg", "epochs=10 tol=0" },
};

static void
test_reference_identical (gconstpointer data)
{
  const Case *c = data;
  /* Overlapping blobs: k-means moves for many iterations. */
  g_autoptr(LatentDataset) ds = test_blobs (1003, 5, 4, 2.5, 2);
  g_autofree char *whole = fit_json (c->id, ds, c->params, NULL, 0);

  for (guint s = 0; s < G_N_ELEMENTS (chunk_sizes); s++)
    {
      g_autofree char *chunked = fit_json (c->id, ds, c->params, NULL, chunk_sizes[s]);

      g_test_message ("%s %s, chunks of %u rows", c->id, c->params, chunk_sizes[s]);
      g_assert_cmpstr (chunked, ==, whole);
    }
}

/* Empty clusters re-seeded from the farthest rows: the distances are
 * per-row state, written chunk by chunk. */
static void
test_kmeans_empty_clusters (void)
{
  g_autoptr(LatentDataset) ds = test_blobs (90, 2, 3, 0.1, 4);
  g_autofree char *dir = g_dir_make_tmp ("latent-rows-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "centers.csv", NULL);
  g_autofree char *params = g_strdup_printf ("k=3 init=@%s max-iterations=5", path);
  g_autofree char *whole = NULL;

  g_assert_true (g_file_set_contents (path, "0,0\n1000,1000\n-1000,1000\n", -1, NULL));
  whole = fit_json ("kmeans", ds, params, NULL, 0);
  for (guint s = 0; s < G_N_ELEMENTS (chunk_sizes); s++)
    {
      g_autofree char *chunked = fit_json ("kmeans", ds, params, NULL, chunk_sizes[s]);

      g_assert_cmpstr (chunked, ==, whole);
    }
  g_unlink (path);
  g_rmdir (dir);
}

/* Whether @a and @b are the same JSON but for numbers within @tol of each
 * other (relative to the larger, absolute below 1), the device and the way
 * there: the device's sums are floats, the host's doubles, so a run that
 * goes on from the device's start in chunks may take one more step to find
 * its centers unmoved (tol = 0), or fewer. */
static void
assert_json_close (JsonNode   *a,
                   JsonNode   *b,
                   double      tol,
                   const char *where)
{
  g_assert_cmpint (json_node_get_node_type (a), ==, json_node_get_node_type (b));
  switch (json_node_get_node_type (a))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *oa = json_node_get_object (a), *ob = json_node_get_object (b);
        g_autoptr(GList) members = json_object_get_members (oa);

        g_assert_cmpuint (json_object_get_size (oa), ==, json_object_get_size (ob));
        for (GList *m = members; m != NULL; m = m->next)
          if (!g_str_equal (m->data, "device") && !g_str_equal (m->data, "history") &&
              !g_str_equal (m->data, "iterations"))
            {
              g_assert_true (json_object_has_member (ob, m->data));
              assert_json_close (json_object_get_member (oa, m->data), json_object_get_member (ob, m->data),
                                 tol, m->data);
            }
        break;
      }
    case JSON_NODE_ARRAY:
      {
        JsonArray *aa = json_node_get_array (a), *ab = json_node_get_array (b);

        g_assert_cmpuint (json_array_get_length (aa), ==, json_array_get_length (ab));
        for (guint i = 0; i < json_array_get_length (aa); i++)
          assert_json_close (json_array_get_element (aa, i), json_array_get_element (ab, i), tol, where);
        break;
      }
    case JSON_NODE_VALUE:
      if (json_node_get_value_type (a) == G_TYPE_STRING)
        g_assert_cmpstr (json_node_get_string (a), ==, json_node_get_string (b));
      else
        {
          const double x = json_node_get_double (a), y = json_node_get_double (b);

          if (!(fabs (x - y) <= tol * MAX (1, MAX (fabs (x), fabs (y)))))
            g_error ("%s: %.9g against %.9g", where, x, y);
        }
      break;
    case JSON_NODE_NULL:
      break;
    }
}

/* The device's run (one chunk of every row, on the device) against the
 * same run from chunks (on the host from the device's start). */
static void
test_cl_agrees (gconstpointer data)
{
  const Case *c = data;
  LatentCl *cl = test_get_cl ();
  g_autoptr(LatentDataset) ds = test_blobs (1003, 5, 4, 0.5, 2);
  g_autofree char *device = NULL;
  g_autoptr(JsonNode) whole = NULL;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  device = fit_json (c->id, ds, c->params, cl, 0);
  whole = json_from_string (device, NULL);
  /* It ran on the device. */
  g_assert_null (strstr (device, "\"device\":\"CPU reference\""));
  for (guint s = 1; s < 3; s++)
    {
      g_autofree char *chunked = fit_json (c->id, ds, c->params, cl, chunk_sizes[s]);
      g_autoptr(JsonNode) node = json_from_string (chunked, NULL);

      /* In chunks the device holds no copy of the rows: the host ran it. */
      g_assert_nonnull (strstr (chunked, "\"device\":\"CPU reference\""));
      assert_json_close (whole, node, 1e-3, c->id);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_unsetenv ("LATENT_CHUNK_ROWS");

  g_test_add_func ("/rows/chunks", test_chunks);
  g_test_add_func ("/rows/gather", test_gather);
  g_test_add_func ("/rows/share", test_share);
  g_test_add_func ("/rows/default-size", test_default_size);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("/rows/reference-identical/%s/%u", cases[i].id, i);
      g_autofree char *cl_name = g_strdup_printf ("/rows/cl-agrees/%s/%u", cases[i].id, i);

      g_test_add_data_func (name, &cases[i], test_reference_identical);
      g_test_add_data_func (cl_name, &cases[i], test_cl_agrees);
    }
  g_test_add_func ("/rows/kmeans-empty-clusters", test_kmeans_empty_clusters);
  return g_test_run ();
}
