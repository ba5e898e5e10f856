/* latent-idx.c — MNIST-style IDX files, plain or gzip-compressed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-idx"

#include "latent-idx.h"
#include "latent-file.h"
#include "latent-dataset-save.h"
#include "latent-float-copy.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#define IDX_CHUNK     (64 * 1024)
#define IDX_MAX_DIMS  3
#define IDX_UBYTE     0x08
#define IDX_FLOAT     0x0D

/* Reading ---------------------------------------------------------------- */

/* Reads a file incrementally, through a gzip decompressor when the file starts
 * with the gzip magic, so no size in the file is trusted before it is checked. */
typedef struct {
  const char *path;
  FILE       *fp;
  GConverter *gunzip;        /* NULL for a plain file */
  guchar      in[IDX_CHUNK];
  gsize       in_pos;
  gsize       in_len;
  gboolean    in_eof;
  gboolean    finished;      /* the gzip stream has ended */
  guint64     file_size;
} IdxReader;

static void
idx_reader_free (IdxReader *r)
{
  if (r->fp != NULL)
    fclose (r->fp);
  g_clear_object (&r->gunzip);
  g_free (r);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IdxReader, idx_reader_free)

static gboolean
idx_fill (IdxReader  *r,
          GError    **error)
{
  gsize n;

  /* Keep what the decompressor has not consumed yet. */
  if (r->in_pos > 0)
    {
      memmove (r->in, r->in + r->in_pos, r->in_len - r->in_pos);
      r->in_len -= r->in_pos;
      r->in_pos = 0;
    }
  n = fread (r->in + r->in_len, 1, IDX_CHUNK - r->in_len, r->fp);
  r->in_len += n;
  if (r->in_len < IDX_CHUNK)
    {
      if (ferror (r->fp))
        {
          int saved = errno;
          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_IO,
                       "%s: %s", r->path, g_strerror (saved));
          return FALSE;
        }
      r->in_eof = TRUE;
    }
  return TRUE;
}

static IdxReader *
idx_reader_open (const char  *path,
                 GError     **error)
{
  g_autoptr(IdxReader) r = g_new0 (IdxReader, 1);
  goffset size = 0;

  r->path = path;
  if (!(r->fp = latent_file_fopen (path, &size, error)))
    return NULL;
  r->file_size = size;

  if (!idx_fill (r, error))
    return NULL;
  if (r->in_len >= 2 && r->in[0] == 0x1f && r->in[1] == 0x8b)
    r->gunzip = G_CONVERTER (g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP));

  return g_steal_pointer (&r);
}

/* Reads up to @n bytes; *got < @n only at the end of the data. */
static gboolean
idx_read (IdxReader  *r,
          guchar     *buf,
          gsize       n,
          gsize      *got,
          GError    **error)
{
  gsize done = 0;

  while (done < n)
    {
      g_autoptr(GError) local_error = NULL;
      GConverterResult result;
      gsize bytes_read = 0, bytes_written = 0;

      if (r->in_pos == r->in_len && !r->in_eof)
        {
          if (!idx_fill (r, error))
            return FALSE;
          continue;
        }

      if (r->gunzip == NULL)
        {
          gsize take = MIN (n - done, r->in_len - r->in_pos);
          if (take == 0)
            break;
          memcpy (buf + done, r->in + r->in_pos, take);
          r->in_pos += take;
          done += take;
          continue;
        }

      if (r->finished)
        break;
      result = g_converter_convert (r->gunzip, r->in + r->in_pos, r->in_len - r->in_pos,
                                    buf + done, n - done,
                                    r->in_eof ? G_CONVERTER_INPUT_AT_END : G_CONVERTER_NO_FLAGS,
                                    &bytes_read, &bytes_written, &local_error);
      if (result == G_CONVERTER_ERROR)
        {
          if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT))
            {
              gsize before = r->in_len - r->in_pos;

              /* A gzip stream cut short: the caller reports what is missing. */
              if (r->in_eof)
                {
                  r->finished = TRUE;
                  break;
                }
              if (!idx_fill (r, error))
                return FALSE;
              if (r->in_len - r->in_pos == before && !r->in_eof)
                {
                  g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                               _("%s: corrupt gzip data"), r->path);
                  return FALSE;
                }
              continue;
            }
          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                       _("%s: corrupt gzip data (%s)"), r->path, local_error->message);
          return FALSE;
        }
      r->in_pos += bytes_read;
      done += bytes_written;
      if (result == G_CONVERTER_FINISHED)
        r->finished = TRUE;
    }

  *got = done;
  return TRUE;
}

/* Reads one byte past the data, so that a gzip file's CRC is checked too.
 * A byte there means the header does not describe the file (a wrong count,
 * files run together): refused, as a truncation is. */
static gboolean
idx_check_end (IdxReader  *r,
               GError    **error)
{
  guchar extra;
  gsize got = 0;

  if (!idx_read (r, &extra, 1, &got, error))
    return FALSE;
  if (got > 0)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                   _("%s: the file goes on after the data its header describes"), r->path);
      return FALSE;
    }
  return TRUE;
}

static void
set_truncated (GError     **error,
               const char  *path,
               guint64      expected,
               guint64      found)
{
  g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
               _("%s: truncated: expected %llu bytes of data, found %llu"),
               path, (unsigned long long) expected, (unsigned long long) found);
}

/* Header ----------------------------------------------------------------- */

typedef struct {
  guint8  type;
  guint   n_dims;
  guint32 dims[IDX_MAX_DIMS];
  guint64 n_values;      /* product of the dims */
  guint64 n_bytes;       /* of the values: n_values × the element size */
  guint64 header_size;
} IdxHeader;

static const char *
idx_type_name (guint8 type)
{
  switch (type)
    {
    case 0x08: return "unsigned byte";
    case 0x09: return "signed byte";
    case 0x0B: return "short";
    case 0x0C: return "int";
    case 0x0D: return "float";
    case 0x0E: return "double";
    default:   return NULL;
    }
}

static gboolean
idx_read_header (IdxReader   *r,
                 IdxHeader   *h,
                 guint        min_dims,
                 guint        max_dims,
                 gboolean     labels,
                 GError     **error)
{
  guchar magic[4];
  guchar raw[4 * IDX_MAX_DIMS];
  g_autoptr(GString) shape = g_string_new (NULL);
  gboolean overflow = FALSE;
  gsize got = 0;

  if (!idx_read (r, magic, sizeof magic, &got, error))
    return FALSE;
  if (got == 0)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_EMPTY, _("%s: empty file"), r->path);
      return FALSE;
    }
  if (got < sizeof magic)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                   _("%s: not an IDX file (only %zu bytes)"), r->path, (size_t) got);
      return FALSE;
    }
  if (magic[0] != 0 || magic[1] != 0 || idx_type_name (magic[2]) == NULL || magic[3] == 0)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                   _("%s: not an IDX file (magic %02x %02x %02x %02x)"),
                   r->path, magic[0], magic[1], magic[2], magic[3]);
      return FALSE;
    }

  h->type = magic[2];
  h->n_dims = magic[3];
  if (h->n_dims < min_dims || h->n_dims > max_dims)
    {
      g_autofree char *expected = NULL;

      if (min_dims == max_dims)
        expected = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u dimension", "%u dimensions", min_dims),
                                    min_dims);
      else
        expected = g_strdup_printf (_("%u to %u dimensions"), min_dims, max_dims);
      /* Whole sentences, so a translation can inflect “label” and “image”. */
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                   labels ? _("%s: an IDX label file has %s, this one has %u")
                          : _("%s: an IDX image file has %s, this one has %u"),
                   r->path, expected, h->n_dims);
      return FALSE;
    }
  /* Labels are class indices: bytes only. Data may also be float32. */
  if (labels && h->type != IDX_UBYTE)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_UNSUPPORTED,
                   _("%s: IDX element type 0x%02X (%s) is not supported, only unsigned bytes (0x08)"),
                   r->path, h->type, idx_type_name (h->type));
      return FALSE;
    }
  if (!labels && h->type != IDX_UBYTE && h->type != IDX_FLOAT)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_UNSUPPORTED,
                   _("%s: IDX element type 0x%02X (%s) is not supported, only unsigned bytes (0x08) and floats (0x0D)"),
                   r->path, h->type, idx_type_name (h->type));
      return FALSE;
    }

  if (!idx_read (r, raw, 4 * h->n_dims, &got, error))
    return FALSE;
  if (got < 4 * h->n_dims)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                   g_dngettext (GETTEXT_PACKAGE, "%s: truncated header (%u dimension announced)",
                                "%s: truncated header (%u dimensions announced)", h->n_dims),
                   r->path, h->n_dims);
      return FALSE;
    }

  h->n_values = 1;
  for (guint i = 0; i < h->n_dims; i++)
    {
      const guchar *d = raw + 4 * i;

      h->dims[i] = (guint32) d[0] << 24 | (guint32) d[1] << 16 | (guint32) d[2] << 8 | d[3];
      g_string_append_printf (shape, "%s%u", i ? " × " : "", h->dims[i]);
      if (h->dims[i] != 0 && h->n_values > G_MAXUINT64 / h->dims[i])
        overflow = TRUE;
      else
        h->n_values *= h->dims[i];
    }
  h->header_size = 4 + 4 * h->n_dims;
  /* Below the limit checked next, so this cannot overflow. */
  h->n_bytes = h->n_values * (h->type == IDX_FLOAT ? 4 : 1);

  for (guint i = 0; i < h->n_dims; i++)
    if (h->dims[i] == 0)
      {
        g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_EMPTY,
                     _("%s: no data (dimensions %s)"), r->path, shape->str);
        return FALSE;
      }
  /* Images too many for the memory budget are streamed from a copy
   * (latent-float-copy.h), past this limit. */
  if (overflow || (h->n_values > LATENT_DATASET_MAX_VALUES &&
                   (labels || !latent_float_copy_wanted (h->dims[0], h->n_values / h->dims[0]))))
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
                   _("%s: %s values is above the limit of %llu values"),
                   r->path, shape->str, (unsigned long long) LATENT_DATASET_MAX_VALUES);
      return FALSE;
    }

  /* A plain file can be checked against its size before anything is allocated. */
  if (r->gunzip == NULL && r->file_size >= h->header_size &&
      r->file_size - h->header_size < h->n_bytes)
    {
      set_truncated (error, r->path, h->n_bytes, r->file_size - h->header_size);
      return FALSE;
    }
  /* A compressed one too: deflate packs at most 1032 bytes into one, so a
   * 36-byte file that declares 300 MB is lying, and is refused before the
   * dataset is allocated (it was, whole, and then found truncated). */
  if (r->gunzip != NULL && h->n_bytes > 1032 * r->file_size + 4096)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                   _("%s: declares %s values, more than its %llu compressed bytes can hold"),
                   r->path, shape->str, (unsigned long long) r->file_size);
      return FALSE;
    }
  return TRUE;
}

/* Public ----------------------------------------------------------------- */

gint32 *
latent_idx_load_labels (const char  *labels_path,
                        guint       *n_labels,
                        GError     **error)
{
  g_autoptr(IdxReader) r = NULL;
  g_autofree gint32 *labels = NULL;
  g_autofree guchar *chunk = NULL;
  IdxHeader h;
  guint64 done = 0;

  g_return_val_if_fail (labels_path != NULL, NULL);
  g_return_val_if_fail (n_labels != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  r = idx_reader_open (labels_path, error);
  if (r == NULL || !idx_read_header (r, &h, 1, 1, TRUE, error))
    return NULL;

  labels = g_try_new (gint32, h.n_values);
  if (labels == NULL)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
                   _("%s: not enough memory for %llu labels"), labels_path, (unsigned long long) h.n_values);
      return NULL;
    }

  chunk = g_malloc (IDX_CHUNK);
  while (done < h.n_values)
    {
      gsize want = MIN ((guint64) IDX_CHUNK, h.n_values - done);
      gsize got = 0;

      if (!idx_read (r, chunk, want, &got, error))
        return NULL;
      for (gsize i = 0; i < got; i++)
        labels[done + i] = chunk[i];
      done += got;
      if (got < want)
        {
          set_truncated (error, labels_path, h.n_values, done);
          return NULL;
        }
    }
  if (!idx_check_end (r, error))
    return NULL;

  *n_labels = h.n_values;
  return g_steal_pointer (&labels);
}

/* Reads the next @count values of the image file as floats into @out:
 * bytes as pixels (0 … 1), float32 as they are. @done counts the value
 * bytes read so far. */
static gboolean
idx_read_values (IdxReader        *r,
                 const IdxHeader  *h,
                 guchar           *chunk,
                 float            *out,
                 guint64           count,
                 guint64          *done,
                 GError          **error)
{
  const guint size = h->type == IDX_FLOAT ? 4 : 1;
  guint64 left = count * size;

  while (left > 0)
    {
      gsize want = MIN ((guint64) IDX_CHUNK, left);
      gsize got = 0;

      if (!idx_read (r, chunk, want, &got, error))
        return FALSE;
      if (got < want)
        {
          set_truncated (error, r->path, h->n_bytes, *done + got);
          return FALSE;
        }
      if (h->type == IDX_FLOAT)
        /* Big-endian float32, taken as it is: features, not pixels. */
        for (gsize i = 0; i < got / 4; i++)
          {
            guint32 bits;

            memcpy (&bits, chunk + 4 * i, 4);
            bits = GUINT32_FROM_BE (bits);
            memcpy (&out[i], &bits, 4);
          }
      else
        for (gsize i = 0; i < got; i++)
          out[i] = chunk[i] / 255.0f;
      out += got / size;
      *done += got;
      left -= got;
    }
  return TRUE;
}

/* An image file read for a float32 copy, row after row. */
typedef struct {
  IdxReader       *reader;
  const IdxHeader *header;
  guchar          *chunk;
  guint64          done;
} IdxCopy;

static gboolean
idx_copy_rows (gpointer   source,
               guint64    first,
               guint      n,
               float     *out,
               GError   **error)
{
  IdxCopy *copy = source;
  const guint64 features = copy->header->n_values / copy->header->dims[0];

  return idx_read_values (copy->reader, copy->header, copy->chunk, out, n * features, &copy->done, error);
}

static LatentDataset *
idx_load_images (const char  *path,
                 GError     **error)
{
  g_autoptr(IdxReader) r = NULL;
  g_autoptr(LatentDataset) dataset = NULL;
  g_autofree char *basename = g_path_get_basename (path);
  g_autofree guchar *chunk = NULL;
  guint64 features;
  guint64 done = 0;      /* bytes */
  IdxHeader h;

  r = idx_reader_open (path, error);
  if (r == NULL || !idx_read_header (r, &h, 2, 3, FALSE, error))
    return NULL;

  features = h.n_values / h.dims[0];
  chunk = g_malloc (IDX_CHUNK);
  if (latent_float_copy_wanted (h.dims[0], features))
    {
      IdxCopy copy = { r, &h, chunk, 0 };

      if (features > G_MAXUINT)
        {
          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
                       _("%s: %llu values a row is above the limit of %u"), path,
                       (unsigned long long) features, G_MAXUINT);
          return NULL;
        }
      dataset = latent_float_copy_stream (path, NULL, h.dims[0], (guint) features, idx_copy_rows, &copy, error);
      /* A copy made now has read the whole file: it must end there. */
      if (dataset == NULL || (copy.done > 0 && !idx_check_end (r, error)))
        return NULL;
      latent_dataset_set_name (dataset, basename);
    }
  else
    {
      dataset = latent_dataset_new (basename, h.dims[0], features, error);
      if (dataset == NULL)
        return NULL;
      latent_dataset_set_source (dataset, path);
      if (!idx_read_values (r, &h, chunk, latent_dataset_get_data (dataset), h.n_values, &done, error) ||
          !idx_check_end (r, error))
        return NULL;
      if (h.type == IDX_FLOAT && !latent_dataset_check_finite (dataset, path, error))
        return NULL;
    }
  if (h.n_dims == 3)
    latent_dataset_set_image_shape (dataset, h.dims[2], h.dims[1], 1, FALSE);
  return g_steal_pointer (&dataset);
}

LatentDataset *
latent_idx_load (const char  *images_path,
                 const char  *labels_path,
                 GError     **error)
{
  g_autoptr(LatentDataset) dataset = NULL;
  g_autofree gint32 *labels = NULL;
  guint n_labels = 0;
  gint32 max_label = 0;

  g_return_val_if_fail (images_path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  dataset = idx_load_images (images_path, error);
  if (dataset == NULL)
    return NULL;
  if (labels_path == NULL)
    return g_steal_pointer (&dataset);

  labels = latent_idx_load_labels (labels_path, &n_labels, error);
  if (labels == NULL)
    return NULL;
  if (n_labels != latent_dataset_get_n_rows (dataset))
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_MISMATCH,
                   _("%s has %u labels but %s has %u images"),
                   labels_path, n_labels, images_path, latent_dataset_get_n_rows (dataset));
      return NULL;
    }

  /* Label values are bytes, so there are at most 256 classes. */
  for (guint i = 0; i < n_labels; i++)
    max_label = MAX (max_label, labels[i]);
  latent_dataset_set_labels (dataset, labels, max_label + 1, NULL);

  return g_steal_pointer (&dataset);
}

/* The label file's name for @images_path, whether it exists or not:
 * "…-images-idx3-ubyte" → "…-labels-idx1-ubyte" (MNIST), else
 * "<stem>.idx" → "<stem>-labels.idx" (what latent_idx_save writes); a
 * ".gz" stays. NULL when neither rule applies. */
static char *
idx_labels_path_for (const char *images_path)
{
  g_autofree char *dir = g_path_get_dirname (images_path);
  g_autofree char *base = g_path_get_basename (images_path);
  g_autoptr(GString) labels = g_string_new (base);
  gsize gz = g_str_has_suffix (base, ".gz") ? 3 : 0;
  gsize stem;

  if (g_string_replace (labels, "images", "labels", 1) > 0)
    g_string_replace (labels, "idx3", "idx1", 1);
  else
    {
      if (labels->len < gz + 4 ||
          g_ascii_strncasecmp (labels->str + labels->len - gz - 4, ".idx", 4) != 0)
        return NULL;
      stem = labels->len - gz - 4;
      /* Not a hidden file's whole name: ".idx" alone has no stem. */
      if (stem == 0)
        return NULL;
      g_string_insert (labels, stem, "-labels");
    }
  return g_build_filename (dir, labels->str, NULL);
}

char *
latent_idx_guess_labels_path (const char *images_path)
{
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;

  g_return_val_if_fail (images_path != NULL, NULL);

  first = idx_labels_path_for (images_path);
  if (first == NULL)
    return NULL;
  if (g_file_test (first, G_FILE_TEST_IS_REGULAR))
    return g_steal_pointer (&first);

  /* The label file may be compressed when the images are not, or the other way round. */
  if (g_str_has_suffix (first, ".gz"))
    second = g_strndup (first, strlen (first) - 3);
  else
    second = g_strconcat (first, ".gz", NULL);
  if (g_file_test (second, G_FILE_TEST_IS_REGULAR))
    return g_steal_pointer (&second);
  return NULL;
}

/* Writing ---------------------------------------------------------------- */

static gboolean
idx_write_header (LatentSaveFile  *file,
                  guint8           type,
                  guint            n_dims,
                  const guint32   *dims,
                  GError         **error)
{
  guchar header[4 + 4 * IDX_MAX_DIMS] = { 0, 0, type, n_dims };

  for (guint i = 0; i < n_dims; i++)
    {
      guint32 be = GUINT32_TO_BE (dims[i]);
      memcpy (header + 4 + 4 * i, &be, 4);
    }
  return latent_save_file_write (file, header, 4 + 4 * n_dims, error);
}

static gboolean
idx_write_values (LatentSaveFile  *file,
                  LatentDataset   *dataset,
                  GError         **error)
{
  const float *values = latent_dataset_get_row (dataset, 0);
  const gsize n = (gsize) latent_dataset_get_n_rows (dataset) * latent_dataset_get_n_cols (dataset);
  g_autofree guchar *chunk = g_malloc (IDX_CHUNK);

  for (gsize first = 0; first < n; first += IDX_CHUNK / 4)
    {
      gsize count = MIN ((gsize) IDX_CHUNK / 4, n - first);

      for (gsize i = 0; i < count; i++)
        {
          guint32 bits;

          memcpy (&bits, values + first + i, 4);
          bits = GUINT32_TO_BE (bits);
          memcpy (chunk + 4 * i, &bits, 4);
        }
      if (!latent_save_file_write (file, chunk, 4 * count, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
idx_write_labels (LatentSaveFile  *file,
                  LatentDataset   *dataset,
                  GError         **error)
{
  const guint n = latent_dataset_get_n_rows (dataset);
  const gint32 *labels = latent_dataset_get_labels (dataset);
  g_autofree guchar *bytes = g_malloc (n);
  const guint32 dims[] = { n };

  for (guint i = 0; i < n; i++)
    bytes[i] = labels[i];
  return idx_write_header (file, IDX_UBYTE, 1, dims, error) &&
         latent_save_file_write (file, bytes, n, error);
}

gboolean
latent_idx_check_labels (LatentDataset  *dataset,
                         const char     *path,
                         GError        **error)
{
  g_autofree char *labels_path = NULL;

  g_return_val_if_fail (LATENT_IS_DATASET (dataset), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!latent_dataset_has_labels (dataset))
    return TRUE;
  /* A label file holds bytes. */
  if (latent_dataset_get_n_classes (dataset) > 256)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                   _("%s: %u classes do not fit an IDX label file, which holds at most 256"),
                   path, latent_dataset_get_n_classes (dataset));
      return FALSE;
    }
  labels_path = idx_labels_path_for (path);
  if (labels_path == NULL)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                   _("%s: the labels need a file of their own, and only a name ending in .idx says which"),
                   path);
      return FALSE;
    }
  return TRUE;
}

gboolean
latent_idx_save (LatentDataset  *dataset,
                 const char     *path,
                 GError        **error)
{
  g_autoptr(LatentSaveFile) data_file = NULL;
  g_autoptr(LatentSaveFile) labels_file = NULL;
  g_autofree char *labels_path = NULL;
  guint32 dims[IDX_MAX_DIMS] = { latent_dataset_get_n_rows (dataset), latent_dataset_get_n_cols (dataset) };
  guint n_dims = 2;
  guint width, height, channels;
  gboolean single;

  g_return_val_if_fail (LATENT_IS_DATASET (dataset), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* The loader refuses what is not finite: better not to write it. */
  if (!latent_dataset_check_finite (dataset, path, error))
    return FALSE;

  if (!latent_idx_check_labels (dataset, path, error))
    return FALSE;
  if (latent_dataset_has_labels (dataset))
    labels_path = idx_labels_path_for (path);

  /* Grey images stay images (n × height × width); the rest is a table. */
  if (latent_dataset_get_image_shape (dataset, &width, &height, &channels, &single) &&
      !single && channels == 1)
    {
      n_dims = 3;
      dims[1] = height;
      dims[2] = width;
    }

  if (!(data_file = latent_save_file_open (path, error)) ||
      !idx_write_header (data_file, IDX_FLOAT, n_dims, dims, error) ||
      !idx_write_values (data_file, dataset, error))
    return FALSE;
  if (labels_path != NULL &&
      (!(labels_file = latent_save_file_open (labels_path, error)) ||
       !idx_write_labels (labels_file, dataset, error) ||
       !latent_save_file_close (labels_file, error)))
    return FALSE;
  /* Both complete before either replaces anything. */
  if (!latent_save_file_close (data_file, error))
    return FALSE;
  if (labels_file != NULL && !latent_save_file_commit (labels_file, error))
    return FALSE;
  return latent_save_file_commit (data_file, error);
}
