/* latent-embedding-input.c — what the embeddings share: their input
 * (principal components by the PCA algorithm itself, on the same device)
 * and their result as data
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-embedding"

#include "latent-embedding-input.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "latent-registry.h"

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
