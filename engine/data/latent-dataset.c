/* latent-dataset.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-dataset"

#include "latent-dataset.h"

#include <openssl/evp.h>

#include <glib/gi18n-lib.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>


#define DATA_ALIGNMENT 128

struct _LatentDataset
{
  GObject parent_instance;

  char    *name;
  char    *source;
  guint    n_rows;
  guint    n_cols;
  float   *data;
  GBytes  *storage;     /* what data points into, when not our own (a mapped file) */
  guint    stream_chunk_rows;   /* streamed from storage in chunks of so many rows; 0: in memory */
  char    *stream_copy;         /* the float32 copy streamed, or NULL: the source's own file */
  guint    finite_rows;         /* streamed: rows 0 … finite_rows − 1 are known finite (atomic) */
  GStrv    column_names;

  gint32  *labels;
  guint    n_classes;
  GStrv    class_names;

  guint    width, height, channels;
  gboolean single_image;
  guint    bit_depth;

  LatentDataset *test;
  LatentDataset *origin;

  char    *hash;
};

G_DEFINE_TYPE (LatentDataset, latent_dataset, G_TYPE_OBJECT)

/* Names reach figures, titles and messages: valid UTF-8 whatever the file
 * held, and short enough for a line. */
#define MAX_NAME_CHARS 200

static char *
display_text (const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);

  if (g_utf8_strlen (valid, -1) <= MAX_NAME_CHARS)
    return g_steal_pointer (&valid);
  *g_utf8_offset_to_pointer (valid, MAX_NAME_CHARS - 1) = '\0';
  return g_strconcat (valid, "…", NULL);
}

static GStrv
display_texts (GStrv texts)
{
  GStrv out;
  guint n;

  if (texts == NULL)
    return NULL;
  n = g_strv_length (texts);
  out = g_new (char *, n + 1);
  for (guint i = 0; i < n; i++)
    out[i] = display_text (texts[i]);
  out[n] = NULL;
  return out;
}
G_DEFINE_QUARK (latent-data-error-quark, latent_data_error)

static void
latent_dataset_finalize (GObject *object)
{
  LatentDataset *self = LATENT_DATASET (object);

  g_free (self->name);
  g_free (self->source);
  g_free (self->stream_copy);
  if (self->storage != NULL)
    g_bytes_unref (self->storage);
  else
    free (self->data);
  g_strfreev (self->column_names);
  g_free (self->labels);
  g_strfreev (self->class_names);
  g_clear_object (&self->test);
  g_clear_object (&self->origin);
  g_free (self->hash);

  G_OBJECT_CLASS (latent_dataset_parent_class)->finalize (object);
}

static void
latent_dataset_class_init (LatentDatasetClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = latent_dataset_finalize;
}

static void
latent_dataset_init (LatentDataset *self)
{
}

/* A dataset of that shape, its values not yet anywhere; NULL naming the
 * shape when it is empty or above the limit. */
static LatentDataset *
dataset_of_shape (const char  *name,
                  guint        n_rows,
                  guint        n_cols,
                  guint64      max_values,
                  GError     **error)
{
  LatentDataset *self;
  guint64 n_values = (guint64) n_rows * n_cols;

  if (n_rows == 0 || n_cols == 0)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_EMPTY,
                   _("%s: no data (%u rows × %u columns)"), name ? name : "dataset",
                   n_rows, n_cols);
      return NULL;
    }
  if (n_values > max_values)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
                   _("%s: %u rows × %u columns is above the limit of %llu values"),
                   name ? name : "dataset", n_rows, n_cols, (unsigned long long) LATENT_DATASET_MAX_VALUES);
      return NULL;
    }

  self = g_object_new (LATENT_TYPE_DATASET, NULL);
  self->name = display_text (name ? name : "dataset");
  self->n_rows = n_rows;
  self->n_cols = n_cols;
  return self;
}

/**
 * latent_dataset_new:
 *
 * Creates a zero-filled dataset. Fails, without allocating, when the size is
 * zero or above %LATENT_DATASET_MAX_VALUES, or when memory is short.
 */
LatentDataset *
latent_dataset_new (const char  *name,
                    guint        n_rows,
                    guint        n_cols,
                    GError     **error)
{
  g_autoptr(LatentDataset) self = dataset_of_shape (name, n_rows, n_cols, LATENT_DATASET_MAX_VALUES, error);
  const guint64 n_values = (guint64) n_rows * n_cols;

  if (self == NULL)
    return NULL;
  /* Aligned as OpenCL devices want their host memory (PoCL: 128 bytes),
   * so a device can read the rows in place instead of copying them. */
  if (posix_memalign ((void **) &self->data, DATA_ALIGNMENT, MAX (n_values, 1) * sizeof (float)) != 0)
    self->data = NULL;
  else
    memset (self->data, 0, n_values * sizeof (float));
  if (self->data == NULL)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
                   _("%s: not enough memory for %u × %u values"), self->name, n_rows, n_cols);
      return NULL;
    }

  return g_steal_pointer (&self);
}

LatentDataset *
latent_dataset_new_for_bytes (const char  *name,
                              guint        n_rows,
                              guint        n_cols,
                              GBytes      *bytes,
                              gsize        offset,
                              GError     **error)
{
  g_autoptr(LatentDataset) self = NULL;
  gsize len;
  const guint8 *base;

  g_return_val_if_fail (bytes != NULL, NULL);

  /* Any size: only what is used is read. */
  if (!(self = dataset_of_shape (name, n_rows, n_cols, G_MAXUINT64, error)))
    return NULL;
  base = g_bytes_get_data (bytes, &len);
  g_return_val_if_fail (offset <= len && (len - offset) / sizeof (float) / n_cols >= n_rows, NULL);
  g_return_val_if_fail (((guintptr) (base + offset)) % G_ALIGNOF (float) == 0, NULL);
  self->storage = g_bytes_ref (bytes);
  self->data = (float *) (base + offset);
  return g_steal_pointer (&self);
}

const char *
latent_dataset_get_name (LatentDataset *self)
{
  g_return_val_if_fail (LATENT_IS_DATASET (self), NULL);
  return self->name;
}

void
latent_dataset_set_name (LatentDataset *self,
                         const char    *name)
{
  g_return_if_fail (LATENT_IS_DATASET (self));
  g_free (self->name);
  self->name = name ? display_text (name) : NULL;
}

const char *
latent_dataset_get_source (LatentDataset *self)
{
  g_return_val_if_fail (LATENT_IS_DATASET (self), NULL);
  return self->source;
}

void
latent_dataset_set_source (LatentDataset *self,
                           const char    *source)
{
  g_return_if_fail (LATENT_IS_DATASET (self));
  g_free (self->source);
  self->source = g_strdup (source);
}

guint
latent_dataset_get_n_rows (LatentDataset *self)
{
  g_return_val_if_fail (LATENT_IS_DATASET (self), 0);
  return self->n_rows;
}

guint
latent_dataset_get_n_cols (LatentDataset *self)
{
  g_return_val_if_fail (LATENT_IS_DATASET (self), 0);
  return self->n_cols;
}

float *
latent_dataset_get_data (LatentDataset *self)
{
  g_return_val_if_fail (LATENT_IS_DATASET (self), NULL);
  g_clear_pointer (&self->hash, g_free);
  return self->data;
}

const float *
latent_dataset_get_row (LatentDataset *self,
                        guint          row)
{
  g_return_val_if_fail (LATENT_IS_DATASET (self), NULL);
  g_return_val_if_fail (row < self->n_rows, NULL);
  return self->data + (gsize) row * self->n_cols;
}

void
latent_dataset_set_column_names (LatentDataset *self,
                                 GStrv          names)
{
  g_return_if_fail (LATENT_IS_DATASET (self));
  g_return_if_fail (names == NULL || g_strv_length (names) == self->n_cols);
  g_strfreev (self->column_names);
  self->column_names = display_texts (names);
}

const char *
latent_dataset_get_column_name (LatentDataset *self,
                                guint          col)
{
  g_return_val_if_fail (LATENT_IS_DATASET (self), NULL);
  if (self->column_names == NULL || col >= self->n_cols)
    return NULL;
  return self->column_names[col];
}

/* Channel c of an image of @channels channels (grey or RGB, with or
 * without alpha). */
static const char *
channel_name (guint c,
              guint channels)
{
  static const char *const grey[] = { N_("grey"), N_("alpha") };
  static const char *const colour[] = { N_("red"), N_("green"), N_("blue"), N_("alpha") };

  if (channels <= 2)
    return _(grey[c]);
  return c < 4 ? _(colour[c]) : NULL;
}

void
latent_dataset_name_channels (LatentDataset *self)
{
  const char *names[5] = { NULL };

  g_return_if_fail (LATENT_IS_DATASET (self));
  g_return_if_fail (self->single_image && self->channels <= 4);

  for (guint c = 0; c < self->channels; c++)
    names[c] = channel_name (c, self->channels);
  latent_dataset_set_column_names (self, (GStrv) names);
}

char *
latent_dataset_dup_column_label (LatentDataset *self,
                                 guint          col)
{
  g_return_val_if_fail (LATENT_IS_DATASET (self), NULL);

  if (latent_dataset_get_column_name (self, col) != NULL)
    return g_strdup (latent_dataset_get_column_name (self, col));
  if (self->width > 0 && self->channels <= 4 && col < self->n_cols)
    {
      guint channel = col % self->channels, pixel = col / self->channels;

      if (self->single_image)
        return g_strdup (channel_name (channel, self->channels));
      if (self->channels == 1)
        /* Translators: a pixel of image data by its x and y, counted from 0 */
        return g_strdup_printf (_("pixel %u, %u"), pixel % self->width, pixel / self->width);
      /* Translators: a pixel by its x and y, then its channel: "pixel 3, 14 red" */
      return g_strdup_printf (_("pixel %u, %u %s"), pixel % self->width, pixel / self->width,
                              channel_name (channel, self->channels));
    }
  return g_strdup_printf (_("column %u"), col + 1);
}

void
latent_dataset_set_labels (LatentDataset *self,
                           const gint32  *labels,
                           guint          n_classes,
                           GStrv          class_names)
{
  g_return_if_fail (LATENT_IS_DATASET (self));
  g_return_if_fail (class_names == NULL || g_strv_length (class_names) == n_classes);

  g_clear_pointer (&self->labels, g_free);
  g_clear_pointer (&self->class_names, g_strfreev);
  g_clear_pointer (&self->hash, g_free);
  self->n_classes = 0;
  if (labels == NULL)
    return;

  for (guint i = 0; i < self->n_rows; i++)
    g_return_if_fail (labels[i] >= 0 && (guint) labels[i] < n_classes);

  self->labels = g_memdup2 (labels, sizeof (gint32) * self->n_rows);
  self->n_classes = n_classes;
  self->class_names = display_texts (class_names);
}

void
latent_dataset_copy_labels (LatentDataset *self,
                            LatentDataset *from)
{
  g_return_if_fail (LATENT_IS_DATASET (self) && LATENT_IS_DATASET (from));
  g_return_if_fail (self->n_rows == from->n_rows);

  latent_dataset_set_labels (self, from->labels, from->n_classes, from->class_names);
}

gboolean
latent_dataset_has_labels (LatentDataset *self)
{
  g_return_val_if_fail (LATENT_IS_DATASET (self), FALSE);
  return self->labels != NULL;
}

const gint32 *
latent_dataset_get_labels (LatentDataset *self)
{
  g_return_val_if_fail (LATENT_IS_DATASET (self), NULL);
  return self->labels;
}

guint
latent_dataset_get_n_classes (LatentDataset *self)
{
  g_return_val_if_fail (LATENT_IS_DATASET (self), 0);
  return self->n_classes;
}

const char *
latent_dataset_get_class_name (LatentDataset *self,
                               guint          klass)
{
  g_return_val_if_fail (LATENT_IS_DATASET (self), NULL);
  if (self->class_names == NULL || klass >= self->n_classes)
    return NULL;
  return self->class_names[klass];
}

void
latent_dataset_set_image_shape (LatentDataset *self,
                                guint          width,
                                guint          height,
                                guint          channels,
                                gboolean       single_image)
{
  g_return_if_fail (LATENT_IS_DATASET (self));
  g_return_if_fail (single_image
                    ? (guint64) width * height == self->n_rows && channels == self->n_cols
                    : (guint64) width * height * channels == self->n_cols);
  self->width = width;
  self->height = height;
  self->channels = channels;
  self->single_image = single_image;
  g_clear_pointer (&self->hash, g_free);
}

gboolean
latent_dataset_get_image_shape (LatentDataset *self,
                                guint         *width,
                                guint         *height,
                                guint         *channels,
                                gboolean      *single_image)
{
  g_return_val_if_fail (LATENT_IS_DATASET (self), FALSE);
  if (width) *width = self->width;
  if (height) *height = self->height;
  if (channels) *channels = self->channels;
  if (single_image) *single_image = self->single_image;
  return self->width > 0;
}

const char *
latent_dataset_get_hash (LatentDataset *self)
{
  g_return_val_if_fail (LATENT_IS_DATASET (self), NULL);

  if (self->hash == NULL)
    {
      /* libcrypto's SHA-256 (1.7 GB/s with the CPU's SHA instructions,
       * against GLib's 0.28): a 188 MB dataset took 0.67 s to hash. */
      EVP_MD_CTX *sum = EVP_MD_CTX_new ();
      guint32 shape[6] = { self->n_rows, self->n_cols, self->width, self->height,
                           self->channels, self->n_classes };
      unsigned char digest[EVP_MAX_MD_SIZE];
      unsigned int length = 0;
      GString *hex = g_string_new (NULL);

      if (sum == NULL || !EVP_DigestInit_ex (sum, EVP_sha256 (), NULL))
        g_error ("libcrypto gives no SHA-256");
      EVP_DigestUpdate (sum, shape, sizeof shape);
      /* A streamed dataset's rows a chunk at a time, each let go after. */
      for (guint first = 0, step = self->stream_chunk_rows ? self->stream_chunk_rows : self->n_rows;
           first < self->n_rows; first += MIN (step, self->n_rows - first))
        {
          const guint n = MIN (step, self->n_rows - first);

          EVP_DigestUpdate (sum, self->data + (gsize) first * self->n_cols, (gsize) n * self->n_cols * sizeof (float));
          latent_dataset_release_rows (self, first, n);
        }
      if (self->labels)
        EVP_DigestUpdate (sum, self->labels, self->n_rows * sizeof (gint32));
      EVP_DigestFinal_ex (sum, digest, &length);
      EVP_MD_CTX_free (sum);
      for (unsigned int i = 0; i < length; i++)
        g_string_append_printf (hex, "%02x", digest[i]);
      self->hash = g_string_free (hex, FALSE);
    }

  return self->hash;
}

gboolean
latent_dataset_check_finite (LatentDataset  *self,
                             const char     *what,
                             GError        **error)
{
  g_return_val_if_fail (LATENT_IS_DATASET (self), FALSE);

  for (guint i = 0; i < self->n_rows; i++)
    for (guint j = 0; j < self->n_cols; j++)
      if (!isfinite (self->data[(gsize) i * self->n_cols + j]))
        {
          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_NOT_FINITE,
                       _("%s: row %u, column %u is not a finite number"),
                       what ? what : self->name, i + 1, j + 1);
          return FALSE;
        }
  return TRUE;
}

void
latent_dataset_set_bit_depth (LatentDataset *self,
                              guint          bit_depth)
{
  g_return_if_fail (LATENT_IS_DATASET (self));
  self->bit_depth = bit_depth;
}

guint
latent_dataset_get_bit_depth (LatentDataset *self)
{
  g_return_val_if_fail (LATENT_IS_DATASET (self), 0);
  return self->bit_depth;
}

/* The index of @name among @names, or -1. */
static int
find_name (GStrv       names,
           const char *name)
{
  for (guint i = 0; names && names[i]; i++)
    if (g_strcmp0 (names[i], name) == 0)
      return i;
  return -1;
}

/**
 * latent_dataset_set_test:
 *
 * Makes @test the rows a supervised run is judged on. It must have the same
 * columns; labels named in both are matched by name, so "setosa" is the same
 * class whichever file listed it first (@test's labels are renumbered to
 * @self's). Refused, naming both, when the columns differ or @test has a
 * class @self does not know. %NULL removes the test set.
 */
gboolean
latent_dataset_set_test (LatentDataset  *self,
                         LatentDataset  *test,
                         GError        **error)
{
  g_return_val_if_fail (LATENT_IS_DATASET (self), FALSE);
  g_return_val_if_fail (test == NULL || (LATENT_IS_DATASET (test) && test != self), FALSE);

  if (test && test->n_cols != self->n_cols)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_MISMATCH,
                   _("The test data “%s” has %u columns; the training data “%s” has %u"),
                   test->name, test->n_cols, self->name, self->n_cols);
      return FALSE;
    }
  if (test && test->labels && self->labels && test->class_names && self->class_names)
    {
      g_autofree gint32 *map = g_new (gint32, test->n_classes);
      g_autofree gint32 *labels = g_new (gint32, test->n_rows);

      for (guint c = 0; c < test->n_classes; c++)
        {
          map[c] = find_name (self->class_names, test->class_names[c]);
          if (map[c] < 0)
            {
              g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_MISMATCH,
                           _("The test data “%s” has the class “%s”, which the training data “%s” does not"),
                           test->name, test->class_names[c], self->name);
              return FALSE;
            }
        }
      for (guint i = 0; i < test->n_rows; i++)
        labels[i] = map[test->labels[i]];
      latent_dataset_set_labels (test, labels, self->n_classes, self->class_names);
    }
  else if (test && test->labels && self->labels && test->n_classes > self->n_classes)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_MISMATCH,
                   _("The test data “%s” has %u classes; the training data “%s” has %u"),
                   test->name, test->n_classes, self->name, self->n_classes);
      return FALSE;
    }
  g_set_object (&self->test, test);
  return TRUE;
}

LatentDataset *
latent_dataset_get_test (LatentDataset *self)
{
  g_return_val_if_fail (LATENT_IS_DATASET (self), NULL);
  return self->test;
}

void
latent_dataset_set_origin (LatentDataset *self,
                           LatentDataset *origin)
{
  g_return_if_fail (LATENT_IS_DATASET (self));
  g_return_if_fail (origin == NULL || (LATENT_IS_DATASET (origin) && origin != self &&
                                       origin->n_rows == self->n_rows));
  g_set_object (&self->origin, origin);
}

LatentDataset *
latent_dataset_get_origin (LatentDataset *self)
{
  g_return_val_if_fail (LATENT_IS_DATASET (self), NULL);
  return self->origin;
}

void
latent_dataset_set_stream_chunk_rows (LatentDataset *self,
                                      guint          chunk_rows)
{
  g_return_if_fail (LATENT_IS_DATASET (self));
  /* Only a mapping's pages can be let go and read again. */
  g_return_if_fail (chunk_rows == 0 || self->storage != NULL);
  self->stream_chunk_rows = MIN (chunk_rows, self->n_rows);
}

guint
latent_dataset_get_stream_chunk_rows (LatentDataset *self)
{
  g_return_val_if_fail (LATENT_IS_DATASET (self), 0);
  return self->stream_chunk_rows;
}

const char *
latent_dataset_get_stream_copy (LatentDataset *self)
{
  g_return_val_if_fail (LATENT_IS_DATASET (self), NULL);
  return self->stream_copy;
}

void
latent_dataset_set_stream_copy (LatentDataset *self,
                                const char    *copy)
{
  g_return_if_fail (LATENT_IS_DATASET (self));
  g_free (self->stream_copy);
  self->stream_copy = g_strdup (copy);
}

gboolean
latent_dataset_is_streamed (LatentDataset *self)
{
  g_return_val_if_fail (LATENT_IS_DATASET (self), FALSE);
  return self->stream_chunk_rows > 0;
}

char *
latent_dataset_describe_storage (LatentDataset *self)
{
  g_autofree char *size = NULL, *chunk = NULL;
  const guint64 row_bytes = (guint64) self->n_cols * sizeof (float);

  g_return_val_if_fail (LATENT_IS_DATASET (self), NULL);
  if (self->stream_chunk_rows == 0)
    return NULL;
  size = g_format_size (row_bytes * self->n_rows);
  chunk = g_format_size (row_bytes * self->stream_chunk_rows);
  if (self->stream_copy)
    /* Translators: the dataset's size, then one chunk's */
    return g_strdup_printf (_("streamed from disk, %s, %s chunks, from a float32 copy"), size, chunk);
  /* Translators: the dataset's size, then one chunk's: "streamed from disk, 36 GB, 256 MB chunks" */
  return g_strdup_printf (_("streamed from disk, %s, %s chunks"), size, chunk);
}

/* The pages that hold rows @first … @first + @n − 1, to @advice; FALSE
 * when the system refused it. */
static gboolean
advise_rows (LatentDataset *self,
             guint          first,
             guint          n,
             int            advice)
{
  const guintptr page = sysconf (_SC_PAGESIZE);
  const guint64 row_bytes = (guint64) self->n_cols * sizeof (float);
  guintptr from, to;

  if (self->stream_chunk_rows == 0 || n == 0 || first >= self->n_rows)
    return TRUE;
  n = MIN (n, self->n_rows - first);
  from = (guintptr) self->data + first * row_bytes;
  to = from + n * row_bytes;
  /* Outward to whole pages: a neighbour's rows in a page let go are read
   * again from the file when used, since nothing writes them. */
  from = from / page * page;
  to = (to + page - 1) / page * page;
  if (madvise ((void *) from, to - from, advice) == 0)
    return TRUE;
  g_debug ("madvise (%d): %s", advice, g_strerror (errno));
  return FALSE;
}

void
latent_dataset_release_rows (LatentDataset *self,
                             guint          first,
                             guint          n)
{
  g_return_if_fail (LATENT_IS_DATASET (self));
  advise_rows (self, first, n, MADV_DONTNEED);
}

void
latent_dataset_expect_scattered (LatentDataset *self,
                                 gboolean       scattered)
{
  g_return_if_fail (LATENT_IS_DATASET (self));
  advise_rows (self, 0, self->n_rows, scattered ? MADV_RANDOM : MADV_NORMAL);
}

void
latent_dataset_load_rows (LatentDataset *self,
                          guint          first,
                          guint          n)
{
  g_return_if_fail (LATENT_IS_DATASET (self));
  /* Linux 5.14 and later; before, the system's read-ahead at least. */
  if (!advise_rows (self, first, n, MADV_POPULATE_READ))
    advise_rows (self, first, n, MADV_WILLNEED);
}

gboolean
latent_dataset_check_rows (LatentDataset  *self,
                           guint           first,
                           guint           n,
                           GError        **error)
{
  const float *values = self->data + (gsize) first * self->n_cols;
  const gsize count = (gsize) n * self->n_cols;
  gsize j = 0;

  g_return_val_if_fail (LATENT_IS_DATASET (self), FALSE);
  g_return_val_if_fail (first <= self->n_rows && n <= self->n_rows - first, FALSE);

  /* A streamed dataset's first pass checks its rows; the next ones need not. */
  if (self->stream_chunk_rows > 0 && first + n <= (guint) g_atomic_int_get (&self->finite_rows))
    return TRUE;

  /* An exponent of all ones is an infinity or a NaN: eight integer
   * tests at a time (GCC's and Clang's vectors; -O2 vectorises no loop
   * like this one), a block at a time. */
  for (gsize block = 0; block < count; block += 4096)
    {
      typedef guint32 Lanes __attribute__ ((vector_size (32)));
      const gsize end = MIN (count, block + 4096);
      Lanes any = { 0 };
      gsize i = block;

      for (; i + 8 <= end; i += 8)
        {
          Lanes v;

          memcpy (&v, values + i, sizeof v);
          any |= (Lanes) ((v & 0x7f800000u) == 0x7f800000u);
        }
      for (; i < end; i++)
        any[0] |= !isfinite (values[i]);
      if (!(any[0] | any[1] | any[2] | any[3] | any[4] | any[5] | any[6] | any[7]))
        continue;
      for (j = block; j < end && isfinite (values[j]); j++)
        ;
      /* Translators: the file, then a row and a column, counted from 1 */
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_NOT_FINITE,
                   _("%s: row %llu, column %u: not a finite number (%g)"),
                   self->source ? self->source : self->name,
                   (unsigned long long) (first + j / self->n_cols) + 1, (guint) (j % self->n_cols) + 1,
                   values[j]);
      return FALSE;
    }
  /* Rows checked in order extend what is known; a racing thread at worst
   * checks some again. */
  if (self->stream_chunk_rows > 0 && first <= (guint) g_atomic_int_get (&self->finite_rows) &&
      first + n > (guint) g_atomic_int_get (&self->finite_rows))
    g_atomic_int_set (&self->finite_rows, first + n);
  return TRUE;
}
