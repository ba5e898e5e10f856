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
  guint           first, count; /* the share of the rows the chunks give */
  gboolean        shared;       /* one of several processes' shares */
  guint           chunk_rows;   /* count for one chunk */
  /* A streamed dataset's rows (latent-dataset.h) given last, to let go
   * of when the next are asked for. */
  guint           held_first, held_n;
  GThreadPool    *reader;       /* one thread that reads the next chunk in */
};

typedef struct {
  LatentDataset *dataset;
  guint          first, n;
} ReadAhead;

static void
read_ahead_free (gpointer data)
{
  ReadAhead *job = data;

  g_object_unref (job->dataset);
  g_free (job);
}

static void
read_ahead (gpointer data,
            G_GNUC_UNUSED gpointer user_data)
{
  ReadAhead *job = data;

  latent_dataset_load_rows (job->dataset, job->first, job->n);
  read_ahead_free (job);
}

#define GATHER_RELEASE_ROWS 64

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
  self->n = self->count = latent_dataset_get_n_rows (dataset);
  self->d = latent_dataset_get_n_cols (dataset);
  if (chunk_rows == 0)
    chunk_rows = latent_rows_default_chunk_rows ();
  if (chunk_rows == 0)
    chunk_rows = latent_dataset_get_stream_chunk_rows (dataset);
  self->chunk_rows = chunk_rows == 0 || chunk_rows > self->n ? MAX (self->n, 1) : chunk_rows;
  return self;
}

LatentRows *
latent_rows_new_for_share (LatentDataset *dataset,
                           guint          first,
                           guint          count,
                           guint          chunk_rows)
{
  LatentRows *self = latent_rows_new_for_dataset (dataset, chunk_rows);

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (first <= self->n && count <= self->n - first, self);

  self->first = first;
  self->count = count;
  self->shared = TRUE;
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
  /* The reader finishes its chunk (it has at most one waiting); what it
   * read goes too: every row, which costs nothing where none is held. */
  if (self->reader)
    g_thread_pool_free (self->reader, FALSE, TRUE);
  latent_dataset_release_rows (self->dataset, 0, self->n);
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
  return self->count == 0 ? 0 : (self->count - 1) / self->chunk_rows + 1;
}

gboolean
latent_rows_is_shared (LatentRows *self)
{
  return self->shared;
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
  return self->dataset == dataset && !self->shared && self->chunk_rows >= self->n;
}

/* @n rows from row @first of the whole set. */
static void
rows_at (LatentRows  *self,
         guint        first,
         guint        n,
         LatentChunk *chunk)
{
  const gint32 *labels = latent_dataset_has_labels (self->dataset) ? latent_dataset_get_labels (self->dataset) : NULL;

  chunk->first = first;
  chunk->n = n;
  chunk->d = self->d;
  chunk->values = latent_dataset_get_data (self->dataset) + (gsize) first * self->d;
  chunk->labels = labels ? labels + first : NULL;
}

gboolean
latent_rows_get_chunk (LatentRows   *self,
                       guint         index,
                       LatentChunk  *chunk,
                       GError      **error)
{
  guint first;

  g_return_val_if_fail (index < latent_rows_get_n_chunks (self), FALSE);

  first = self->first + index * self->chunk_rows;
  rows_at (self, first, MIN (self->chunk_rows, self->first + self->count - first), chunk);
  if (!latent_dataset_is_streamed (self->dataset))
    return TRUE;

  /* Streamed: the last chunk's rows go, the next chunk's are read ahead
   * while this one is used, and this one's are checked as they come. */
  if (self->held_first != first)
    latent_dataset_release_rows (self->dataset, self->held_first, self->held_n);
  self->held_first = first;
  self->held_n = chunk->n;
  /* The next chunk (after the last, the first: passes come again) is read
   * in on a thread of its own while this one is used, so that the disk
   * and the computation overlap and using it takes no page faults; none
   * when the reader still has one waiting, which the computation has
   * caught up with. */
  if (latent_rows_get_n_chunks (self) > 1 &&
      (self->reader == NULL || g_thread_pool_unprocessed (self->reader) == 0))
    {
      const guint next = (index + 1) % latent_rows_get_n_chunks (self);
      const guint next_first = self->first + next * self->chunk_rows;
      ReadAhead *job = g_new (ReadAhead, 1);

      *job = (ReadAhead) { g_object_ref (self->dataset), next_first,
                           MIN (self->chunk_rows, self->first + self->count - next_first) };
      if (self->reader == NULL)
        self->reader = g_thread_pool_new_full (read_ahead, NULL, read_ahead_free, 1, TRUE, NULL);
      g_thread_pool_push (self->reader, job, NULL);
    }
  return latent_dataset_check_rows (self->dataset, first, chunk->n, error);
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
  const gboolean streamed = latent_dataset_is_streamed (self->dataset);
  LatentChunk chunk = { 0 };

  /* Through the chunks, as a source that holds one chunk at a time would
   * gather: the chunked source's tests check these index sums. */
  for (guint r = 0; r < n; r++)
    {
      const guint i = indices[r];

      g_return_val_if_fail (i < self->n, FALSE);
      /* Any row of the set, a share's or not: a batch is drawn from all. */
      if (chunk.n == 0 || i < chunk.first || i - chunk.first >= chunk.n)
        {
          const guint first = i / self->chunk_rows * self->chunk_rows;

          rows_at (self, first, MIN (self->chunk_rows, self->n - first), &chunk);
          g_return_val_if_fail (labels == NULL || chunk.labels != NULL, FALSE);
        }
      if (streamed && !latent_dataset_check_rows (self->dataset, i, 1, error))
        return FALSE;
      /* A row read alone maps the whole folio of the system's cache about
       * it (up to 2 MB): streamed, every row so far is let go every
       * GATHER_RELEASE_ROWS rows, which bounds what a batch maps. */
      if (streamed && r > 0 && r % GATHER_RELEASE_ROWS == 0)
        latent_dataset_release_rows (self->dataset, 0, self->n);
      memcpy (values + (gsize) r * d, chunk.values + (gsize) (i - chunk.first) * d, d * sizeof (float));
      if (labels)
        labels[r] = chunk.labels[i - chunk.first];
    }
  if (streamed)
    latent_dataset_release_rows (self->dataset, 0, self->n);
  return TRUE;
}

LatentDataset *
latent_rows_sample (LatentDataset  *dataset,
                    guint           max_rows,
                    guint64         seed,
                    GError        **error)
{
  const guint n = latent_dataset_get_n_rows (dataset), d = latent_dataset_get_n_cols (dataset);
  const guint step = MAX (latent_dataset_get_stream_chunk_rows (dataset), 1);
  const gint32 *labels = latent_dataset_has_labels (dataset) ? latent_dataset_get_labels (dataset) : NULL;
  guint32 seed_words[2] = { (guint32) seed, (guint32) (seed >> 32) };
  g_autoptr(GRand) rand = g_rand_new_with_seed_array (seed_words, 2);
  g_autoptr(LatentDataset) sample = NULL;
  g_autofree gint32 *sample_labels = NULL;
  const float *x = latent_dataset_get_row (dataset, 0);
  float *to;
  guint taken = 0;

  g_return_val_if_fail (LATENT_IS_DATASET (dataset), NULL);

  max_rows = MIN (MAX (max_rows, 1), n);
  if (!(sample = latent_dataset_new (latent_dataset_get_name (dataset), max_rows, d, error)))
    return NULL;
  to = latent_dataset_get_data (sample);
  if (labels)
    sample_labels = g_new (gint32, max_rows);
  /* Selection sampling (Knuth's algorithm S): each row in turn is taken
   * with the chance (still wanted) / (still left), so the rows come in
   * the file's order; each is read alone, not with the next 128 kB. */
  latent_dataset_expect_scattered (dataset, TRUE);
  for (guint i = 0; i < n && taken < max_rows; i++)
    {
      if ((double) (n - i) * g_rand_double (rand) < max_rows - taken)
        {
          if (!latent_dataset_check_rows (dataset, i, 1, error))
            {
              latent_dataset_expect_scattered (dataset, FALSE);
              return NULL;
            }
          memcpy (to + (gsize) taken * d, x + (gsize) i * d, d * sizeof (float));
          if (labels)
            sample_labels[taken] = labels[i];
          taken++;
        }
      if ((i + 1) % step == 0)
        latent_dataset_release_rows (dataset, i + 1 - step, step);
    }
  latent_dataset_release_rows (dataset, n / step * step, n % step);
  latent_dataset_expect_scattered (dataset, FALSE);
  if (labels)
    latent_dataset_set_labels (sample, sample_labels, latent_dataset_get_n_classes (dataset), NULL);
  return g_steal_pointer (&sample);
}
