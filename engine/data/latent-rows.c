/* latent-rows.c — a dataset in memory as a source of rows in chunks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-rows"

#include "latent-rows.h"

#include <string.h>


struct _LatentRows
{
  gatomicrefcount ref_count;
  LatentDataset  *dataset;
  guint           n, d;
  guint           chunk_rows;   /* n for one chunk */
};

static guint default_chunk_rows;   /* atomic */

guint
latent_rows_default_chunk_rows (void)
{
  const char *env = g_getenv ("LATENT_CHUNK_ROWS");

  if (env != NULL)
    {
      guint64 value = g_ascii_strtoull (env, NULL, 10);

      if (value > 0 && value <= G_MAXUINT)
        return value;
    }
  return g_atomic_int_get (&default_chunk_rows);
}

void
latent_rows_set_default_chunk_rows (guint chunk_rows)
{
  g_atomic_int_set (&default_chunk_rows, chunk_rows);
}

LatentRows *
latent_rows_new_for_dataset (LatentDataset *dataset,
                             guint          chunk_rows)
{
  LatentRows *self;

  g_return_val_if_fail (LATENT_IS_DATASET (dataset), NULL);

  self = g_new0 (LatentRows, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->dataset = g_object_ref (dataset);
  self->n = latent_dataset_get_n_rows (dataset);
  self->d = latent_dataset_get_n_cols (dataset);
  if (chunk_rows == 0)
    chunk_rows = latent_rows_default_chunk_rows ();
  self->chunk_rows = chunk_rows == 0 || chunk_rows > self->n ? MAX (self->n, 1) : chunk_rows;
  return self;
}

LatentRows *
latent_rows_ref (LatentRows *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
latent_rows_unref (LatentRows *self)
{
  g_return_if_fail (self != NULL);
  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_object_unref (self->dataset);
  g_free (self);
}

guint
latent_rows_get_n_rows (LatentRows *self)
{
  return self->n;
}

guint
latent_rows_get_n_cols (LatentRows *self)
{
  return self->d;
}

guint
latent_rows_get_chunk_rows (LatentRows *self)
{
  return self->chunk_rows;
}

guint
latent_rows_get_n_chunks (LatentRows *self)
{
  return self->n == 0 ? 0 : (self->n - 1) / self->chunk_rows + 1;
}

LatentDataset *
latent_rows_get_dataset (LatentRows *self)
{
  return self->dataset;
}

gboolean
latent_rows_is_whole (LatentRows    *self,
                      LatentDataset *dataset)
{
  return self->dataset == dataset && self->chunk_rows >= self->n;
}

gboolean
latent_rows_get_chunk (LatentRows   *self,
                       guint         index,
                       LatentChunk  *chunk,
                       GError      **error)
{
  const gint32 *labels = latent_dataset_has_labels (self->dataset) ? latent_dataset_get_labels (self->dataset) : NULL;

  g_return_val_if_fail (index < latent_rows_get_n_chunks (self), FALSE);

  chunk->first = index * self->chunk_rows;
  chunk->n = MIN (self->chunk_rows, self->n - chunk->first);
  chunk->d = self->d;
  chunk->values = latent_dataset_get_data (self->dataset) + (gsize) chunk->first * self->d;
  chunk->labels = labels ? labels + chunk->first : NULL;
  return TRUE;
}

gboolean
latent_rows_gather (LatentRows   *self,
                    const guint  *indices,
                    guint         n,
                    float        *values,
                    gint32       *labels,
                    GError      **error)
{
  const guint d = self->d;
  LatentChunk chunk = { 0 };

  /* Through the chunks, as a source that holds one chunk at a time would
   * gather: the chunked source's tests check these index sums. */
  for (guint r = 0; r < n; r++)
    {
      const guint i = indices[r];

      g_return_val_if_fail (i < self->n, FALSE);
      if (chunk.n == 0 || i < chunk.first || i - chunk.first >= chunk.n)
        {
          if (!latent_rows_get_chunk (self, i / self->chunk_rows, &chunk, error))
            return FALSE;
          g_return_val_if_fail (labels == NULL || chunk.labels != NULL, FALSE);
        }
      memcpy (values + (gsize) r * d, chunk.values + (gsize) (i - chunk.first) * d, d * sizeof (float));
      if (labels)
        labels[r] = chunk.labels[i - chunk.first];
    }
  return TRUE;
}
