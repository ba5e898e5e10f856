/* latent-embedding-input.c — what the embeddings share: their input
 * (principal components by the PCA algorithm itself, on the same device)
 * and their result as data
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-embedding"

#include "latent-embedding-input.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "latent-json.h"
#include "latent-metrics.h"
#include "latent-registry.h"

#define TRUST_ROWS 1000
#define TRUST_K 10

static float *
principal_components (LatentDataset  *dataset,
                      guint           m,
                      guint64         seed,
                      LatentCl       *cl,
                      GCancellable   *cancellable,
                      GError        **error)
{
  const LatentAlgorithm *pca = latent_registry_lookup ("pca", error);
  g_autoptr(LatentParams) params = NULL;
  g_autoptr(LatentFit) fit = NULL;
  g_autoptr(LatentDataset) features = NULL;

  if (pca == NULL)
    return NULL;
  params = latent_algorithm_new_params (pca);
  if (!latent_params_set_int (params, "components", m, error) ||
      !(fit = latent_algorithm_fit (pca, dataset, params, seed, cl, NULL, NULL, cancellable, error)) ||
      !(features = latent_algorithm_encode (fit->snapshot, dataset, error)))
    return NULL;
  return g_memdup2 (latent_dataset_get_data (features),
                    (gsize) latent_dataset_get_n_rows (dataset) * m * sizeof (float));
}

float *
latent_embedding_input (LatentDataset  *dataset,
                        guint           pca,
                        guint64         seed,
                        LatentCl       *cl,
                        guint          *d,
                        gboolean       *reduced,
                        GCancellable   *cancellable,
                        GError        **error)
{
  const guint n = latent_dataset_get_n_rows (dataset), cols = latent_dataset_get_n_cols (dataset);

  *reduced = pca > 0 && cols > pca;
  *d = *reduced ? pca : cols;
  if (*reduced)
    return principal_components (dataset, pca, seed, cl, cancellable, error);
  return g_memdup2 (latent_dataset_get_data (dataset), (gsize) n * cols * sizeof (float));
}

float *
latent_embedding_first_two (LatentDataset  *dataset,
                            const float    *input,
                            guint           d,
                            gboolean        reduced,
                            guint64         seed,
                            LatentCl       *cl,
                            GCancellable   *cancellable,
                            GError        **error)
{
  const guint n = latent_dataset_get_n_rows (dataset);
  float *two;

  g_return_val_if_fail (d >= 2, NULL);
  if (!reduced)
    return principal_components (dataset, 2, seed, cl, cancellable, error);
  two = g_new (float, 2 * (gsize) n);
  for (guint i = 0; i < n; i++)
    memcpy (two + 2 * (gsize) i, input + (gsize) i * d, 2 * sizeof (float));
  return two;
}

void
latent_embedding_write_csv_row (LatentSnapshot *snapshot,
                                guint           row,
                                GString        *out)
{
  const float *y = snapshot->embedding.positions + 2 * (gsize) row;

  g_string_append_printf (out, ",%.9g,%.9g", y[0], y[1]);
}

LatentDataset *
latent_embedding_encode (LatentSnapshot *snapshot,
                         LatentDataset  *dataset,
                         GError        **error)
{
  const guint n = latent_dataset_get_n_rows (dataset);
  g_autofree char *name = NULL;
  LatentDataset *out;

  if (snapshot->embedding.positions == NULL || snapshot->dataset == NULL || n != snapshot->n_rows ||
      (dataset != snapshot->dataset && g_strcmp0 (latent_dataset_get_source (dataset),
                                                  latent_dataset_get_source (snapshot->dataset)) != 0))
    {
      /* Translators: the algorithm ("t-SNE"), then the rows and name of the
       * data it ran on, then the other data's name. */
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("%s places only the rows it was run on (%u of “%s”), not those of “%s”"),
                   _(snapshot->algorithm->short_title), snapshot->n_rows,
                   snapshot->dataset ? latent_dataset_get_name (snapshot->dataset) : "?",
                   latent_dataset_get_name (dataset));
      return NULL;
    }
  name = g_strdup_printf ("%s → %s", latent_dataset_get_name (dataset), snapshot->algorithm->id);
  if (!(out = latent_dataset_new (name, n, 2, error)))
    return NULL;
  memcpy (latent_dataset_get_data (out), snapshot->embedding.positions, (gsize) n * 2 * sizeof (float));
  latent_dataset_copy_labels (out, dataset);
  return out;
}

double
latent_embedding_trustworthiness (const float  *x,
                                  guint         n,
                                  guint         d,
                                  const double *y,
                                  guint        *rows)
{
  g_autofree float *yf = g_new (float, 2 * (gsize) n);

  for (gsize i = 0; i < 2 * (gsize) n; i++)
    yf[i] = y[i];
  *rows = MIN (n, TRUST_ROWS);
  return latent_metrics_trustworthiness (x, n, d, yf, 2, MIN (TRUST_K, (n - 1) / 3), *rows);
}

void
latent_embedding_fill_part (LatentSnapshot *snapshot,
                            const double   *y,
                            double          trust,
                            guint           trust_rows,
                            guint           input_dims)
{
  LatentEmbeddingPart *part = &snapshot->embedding;
  const guint n = snapshot->n_rows;
  double mean[2] = { 0, 0 };

  for (guint i = 0; i < n; i++)
    for (guint c = 0; c < 2; c++)
      mean[c] += y[2 * (gsize) i + c] / n;
  part->n_dims = 2;
  part->positions = g_new (float, 2 * (gsize) n);
  for (guint i = 0; i < n; i++)
    for (guint c = 0; c < 2; c++)
      part->positions[2 * (gsize) i + c] = y[2 * (gsize) i + c] - mean[c];
  part->trustworthiness = trust;
  part->trust_k = MIN (TRUST_K, (n - 1) / 3);
  part->trust_rows = trust_rows;
  part->input_dims = input_dims;
}

void
latent_embedding_write_json (LatentSnapshot *snapshot,
                             JsonBuilder    *b)
{
  const LatentEmbeddingPart *part = &snapshot->embedding;

  latent_json_add_number_member (b, "trustworthiness", part->trustworthiness);
  json_builder_set_member_name (b, "trustworthiness_k");
  json_builder_add_int_value (b, part->trust_k);
  json_builder_set_member_name (b, "trustworthiness_rows");
  json_builder_add_int_value (b, part->trust_rows);
  json_builder_set_member_name (b, "input_columns");
  json_builder_add_int_value (b, part->input_dims);
  latent_json_add_matrix_member (b, "embedding", part->positions, part->positions ? snapshot->n_rows : 0,
                                 part->n_dims);
}

static int
compare_entries (const void *a,
                 const void *b)
{
  const LatentEmbeddingEntry *x = a, *y = b;

  return (x->col > y->col) - (x->col < y->col);
}

gboolean
latent_embedding_both_ways (const gint32          *index,
                            const float           *values,
                            guint                  n,
                            guint                  m,
                            guint64              **start,
                            LatentEmbeddingEntry **entries,
                            GError               **error)
{
  const guint64 total = (guint64) n * m * 2;
  g_autofree guint64 *first = g_new0 (guint64, (gsize) n + 1);
  g_autofree guint64 *fill = NULL;
  g_autofree LatentEmbeddingEntry *all = latent_algorithm_alloc (total, sizeof (LatentEmbeddingEntry),
                                                                 _("the neighbours"), error);

  if (all == NULL)
    return FALSE;
  for (guint i = 0; i < n; i++)
    for (guint q = 0; q < m; q++)
      {
        first[i + 1]++;
        first[index[(gsize) i * m + q] + 1]++;
      }
  for (guint i = 0; i < n; i++)
    first[i + 1] += first[i];
  fill = g_memdup2 (first, ((gsize) n + 1) * sizeof (guint64));
  for (guint i = 0; i < n; i++)
    for (guint q = 0; q < m; q++)
      {
        gint32 j = index[(gsize) i * m + q];
        float v = values[(gsize) i * m + q];

        all[fill[i]++] = (LatentEmbeddingEntry) { j, v };
        all[fill[j]++] = (LatentEmbeddingEntry) { (gint32) i, v };
      }
  for (guint i = 0; i < n; i++)
    qsort (all + first[i], first[i + 1] - first[i], sizeof (LatentEmbeddingEntry), compare_entries);
  *start = g_steal_pointer (&first);
  *entries = g_steal_pointer (&all);
  return TRUE;
}

