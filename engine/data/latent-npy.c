/* latent-npy.c — NumPy's .npy format (version 1 to 3) and .npz archives
 *
 * A .npy file is a magic string, a header that is a Python dict literal
 * ({'descr': '<f4', 'fortran_order': False, 'shape': (60000, 784), })
 * and the raw elements. The header is parsed here, strictly: only those
 * three keys, literal values, no code. An .npz file is a zip archive of
 * .npy files, read through libzip from the bytes latent_file_read () gave,
 * so a FIFO or a device is refused as for every other format.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-npy"

#include "latent-npy.h"
#include "latent-float-copy.h"
#include "latent-memory.h"
#include "latent-arrays.h"
#include "latent-file.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zip.h>

#define NPY_MAX_DIMS 8
/* NumPy itself refuses headers over 10,000 bytes unless told otherwise. */
#define NPY_MAX_HEADER 65536

typedef struct {
  const char   *what;      /* the file, or "FILE, array NAME" */
  char          kind;      /* 'b' boolean, 'i', 'u', 'f', 'U' text (UCS-4), 'S' bytes */
  guint         size;      /* bytes per element */
  gboolean      swap;      /* stored in the other byte order than this machine's */
  gboolean      fortran;
  guint         ndim;
  guint64       shape[NPY_MAX_DIMS];
  guint64       count;
  const guint8 *data;
} NpyArray;

/* The header ------------------------------------------------------------ */

typedef struct {
  const char *start, *p, *end;
} Cursor;

static void
skip_space (Cursor *c)
{
  while (c->p < c->end && g_ascii_isspace (*c->p))
    c->p++;
}

static gboolean
take (Cursor *c,
      char    ch)
{
  skip_space (c);
  if (c->p < c->end && *c->p == ch)
    {
      c->p++;
      return TRUE;
    }
  return FALSE;
}

/* A quoted string without escapes, into @out (at most @size − 1 bytes). */
static gboolean
take_string (Cursor *c,
             char   *out,
             gsize   size)
{
  char quote;
  gsize n = 0;

  skip_space (c);
  if (c->p >= c->end || (*c->p != '\'' && *c->p != '"'))
    return FALSE;
  quote = *c->p++;
  while (c->p < c->end && *c->p != quote)
    {
      if (*c->p == '\\' || n + 1 >= size)
        return FALSE;
      out[n++] = *c->p++;
    }
  if (c->p >= c->end)
    return FALSE;
  c->p++;
  out[n] = '\0';
  return TRUE;
}

static gboolean
take_word (Cursor     *c,
           const char *word)
{
  gsize n = strlen (word);

  skip_space (c);
  if ((gsize) (c->end - c->p) >= n && memcmp (c->p, word, n) == 0)
    {
      c->p += n;
      return TRUE;
    }
  return FALSE;
}

/* (60000, 784) or (60000,) or (); Python 2's 784L too. */
static gboolean
take_shape (Cursor   *c,
            NpyArray *a)
{
  a->ndim = 0;
  if (!take (c, '('))
    return FALSE;
  for (;;)
    {
      guint64 value = 0;

      if (take (c, ')'))
        return TRUE;
      if (a->ndim == NPY_MAX_DIMS || c->p >= c->end || !g_ascii_isdigit (*c->p))
        return FALSE;
      while (c->p < c->end && g_ascii_isdigit (*c->p))
        {
          /* Far beyond any limit, and no overflow. */
          if (value > ((guint64) 1 << 48))
            return FALSE;
          value = value * 10 + (guint64) (*c->p++ - '0');
        }
      if (c->p < c->end && *c->p == 'L')
        c->p++;
      a->shape[a->ndim++] = value;
      if (!take (c, ',') && !(skip_space (c), c->p < c->end && *c->p == ')'))
        return FALSE;
    }
}

/* '<f4', '|u1', '>i8', '<U12' … */
static gboolean
parse_descr (const char  *descr,
             NpyArray    *a,
             GError     **error)
{
  const char *p = descr;
  gboolean big = G_BYTE_ORDER == G_BIG_ENDIAN;
  guint64 size = 0;
  char kind;

  if (*p == '<' || *p == '>' || *p == '|' || *p == '=')
    {
      if (*p == '<')
        big = FALSE;
      else if (*p == '>')
        big = TRUE;
      p++;
    }
  kind = *p;
  if (kind == '?')
    kind = 'b', size = 1, p++;
  else if (kind != '\0')
    {
      p++;
      if (!g_ascii_isdigit (*p))
        size = 0;
      while (g_ascii_isdigit (*p) && size < 1u << 20)
        size = size * 10 + (guint64) (*p++ - '0');
    }

  switch (kind)
    {
    case 'O':
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_UNSUPPORTED,
                   _("%s: an array of Python objects is not read (it would need unpickling, which can run code)"),
                   a->what);
      return FALSE;
    case 'c':
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_UNSUPPORTED,
                   _("%s: complex numbers are not read"), a->what);
      return FALSE;
    case 'M':
    case 'm':
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_UNSUPPORTED,
                   _("%s: dates and times are not read"), a->what);
      return FALSE;
    case 'V':
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_UNSUPPORTED,
                   _("%s: structured arrays (with fields) are not read; save each field as an array of its own"),
                   a->what);
      return FALSE;
    default:
      break;
    }

  if (*p != '\0'
      || !((kind == 'b' && size == 1)
           || ((kind == 'i' || kind == 'u') && (size == 1 || size == 2 || size == 4 || size == 8))
           || (kind == 'f' && (size == 2 || size == 4 || size == 8))
           || (kind == 'S' && size >= 1 && size <= 4096)
           || (kind == 'U' && size >= 1 && size <= 1024)))
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_UNSUPPORTED,
                   _("%s: NumPy type “%s” is not read (only booleans, integers and floats, and text for labels)"),
                   a->what, descr);
      return FALSE;
    }
  a->kind = kind;
  a->size = kind == 'U' ? (guint) size * 4 : (guint) size;
  a->swap = a->size > 1 && kind != 'S' && big != (G_BYTE_ORDER == G_BIG_ENDIAN);
  return TRUE;
}

static gboolean
header_error (Cursor      *c,
              NpyArray    *a,
              GError     **error)
{
  g_autofree char *near = g_strndup (c->p, MIN (c->end - c->p, 24));

  g_strdelimit (near, "\n\r\t", ' ');
  g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
               _("%s: malformed .npy header at byte %u (“%s”)"), a->what,
               (guint) (c->p - c->start), near);
  return FALSE;
}

static gboolean
parse_array (const guint8  *bytes,
             gsize          len,
             NpyArray      *a,
             GError       **error)
{
  static const guint8 magic[6] = { 0x93, 'N', 'U', 'M', 'P', 'Y' };
  gboolean have_descr = FALSE, have_order = FALSE, have_shape = FALSE;
  guint64 header_len, data_start, needed;
  guint major;
  Cursor c;

  if (len == 0)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_EMPTY, _("%s: empty file"), a->what);
      return FALSE;
    }
  if (len < 10 || memcmp (bytes, magic, sizeof magic) != 0)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                   _("%s: not a NumPy .npy file (it does not start with \\x93NUMPY)"), a->what);
      return FALSE;
    }
  major = bytes[6];
  if (major == 1)
    header_len = bytes[8] | (guint) bytes[9] << 8, data_start = 10;
  else if ((major == 2 || major == 3) && len >= 12)
    header_len = bytes[8] | (guint) bytes[9] << 8 | (guint) bytes[10] << 16 | (guint64) bytes[11] << 24,
    data_start = 12;
  else
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_UNSUPPORTED,
                   _("%s: .npy format version %u.%u is not read (versions 1.0 to 3.0 are)"),
                   a->what, major, bytes[7]);
      return FALSE;
    }
  if (header_len > NPY_MAX_HEADER)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
                   _("%s: a .npy header of %llu bytes is over the limit of %u"),
                   a->what, (unsigned long long) header_len, NPY_MAX_HEADER);
      return FALSE;
    }
  if (data_start + header_len > len)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                   _("%s: truncated in its .npy header"), a->what);
      return FALSE;
    }

  c.start = c.p = (const char *) bytes + data_start;
  c.end = c.p + header_len;
  if (!take (&c, '{'))
    return header_error (&c, a, error);
  while (!take (&c, '}'))
    {
      char key[32], descr[64];

      if (!take_string (&c, key, sizeof key) || !take (&c, ':'))
        return header_error (&c, a, error);
      if (strcmp (key, "descr") == 0 && !have_descr)
        {
          if ((skip_space (&c), c.p < c.end && *c.p == '['))
            {
              g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_UNSUPPORTED,
                           _("%s: structured arrays (with fields) are not read; save each field as an array of its own"),
                           a->what);
              return FALSE;
            }
          if (!take_string (&c, descr, sizeof descr))
            return header_error (&c, a, error);
          if (!parse_descr (descr, a, error))
            return FALSE;
          have_descr = TRUE;
        }
      else if (strcmp (key, "fortran_order") == 0 && !have_order)
        {
          if (take_word (&c, "True"))
            a->fortran = TRUE;
          else if (take_word (&c, "False"))
            a->fortran = FALSE;
          else
            return header_error (&c, a, error);
          have_order = TRUE;
        }
      else if (strcmp (key, "shape") == 0 && !have_shape)
        {
          if (!take_shape (&c, a))
            return header_error (&c, a, error);
          have_shape = TRUE;
        }
      else
        return header_error (&c, a, error);
      if (!take (&c, ',') && !(skip_space (&c), c.p < c.end && *c.p == '}'))
        return header_error (&c, a, error);
    }
  if (!have_descr || !have_order || !have_shape)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                   _("%s: the .npy header lacks “%s”"), a->what,
                   !have_descr ? "descr" : !have_order ? "fortran_order" : "shape");
      return FALSE;
    }

  a->count = 1;
  for (guint i = 0; i < a->ndim; i++)
    if (!g_uint64_checked_mul (&a->count, a->count, a->shape[i]) || a->count > ((guint64) 1 << 48))
      {
        g_autofree char *shape = latent_arrays_describe_shape (a->shape, a->ndim);

        g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
                     _("%s: %s values is above the limit of %llu values"), a->what, shape,
                     (unsigned long long) LATENT_DATASET_MAX_VALUES);
        return FALSE;
      }
  data_start += header_len;
  needed = a->count * a->size;
  if (len - data_start < needed)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                   _("%s: truncated: expected %llu bytes of data, found %llu"), a->what,
                   (unsigned long long) needed, (unsigned long long) (len - data_start));
      return FALSE;
    }
  if (len - data_start > needed)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                   _("%s: the file goes on after the data its header describes"), a->what);
      return FALSE;
    }
  a->data = bytes + data_start;
  return TRUE;
}

/* Elements -------------------------------------------------------------- */

/* IEEE half precision, as NumPy's float16. */
static float
half_to_float (guint16 h)
{
  const guint sign = h >> 15, exponent = (h >> 10) & 0x1f, fraction = h & 0x3ff;
  float value;

  if (exponent == 0)
    value = ldexpf ((float) fraction, -24);
  else if (exponent == 31)
    value = fraction ? NAN : INFINITY;
  else
    value = ldexpf ((float) (fraction | 0x400), (int) exponent - 25);
  return sign ? -value : value;
}

/* Element @i (in storage order) as a double. */
static double
element (const NpyArray *a,
         guint64         i)
{
  const guint8 *p = a->data + i * a->size;
  guint8 swapped[8];

  if (a->swap)
    {
      for (guint k = 0; k < a->size; k++)
        swapped[k] = p[a->size - 1 - k];
      p = swapped;
    }
  switch (a->kind)
    {
    case 'b':
      return p[0] != 0;
    case 'u':
      switch (a->size)
        {
        case 1: return p[0];
        case 2: { guint16 v; memcpy (&v, p, 2); return v; }
        case 4: { guint32 v; memcpy (&v, p, 4); return v; }
        default: { guint64 v; memcpy (&v, p, 8); return (double) v; }
        }
    case 'i':
      switch (a->size)
        {
        case 1: return (gint8) p[0];
        case 2: { gint16 v; memcpy (&v, p, 2); return v; }
        case 4: { gint32 v; memcpy (&v, p, 4); return v; }
        default: { gint64 v; memcpy (&v, p, 8); return (double) v; }
        }
    case 'f':
      switch (a->size)
        {
        case 2: { guint16 v; memcpy (&v, p, 2); return half_to_float (v); }
        case 4: { float v; memcpy (&v, p, 4); return v; }
        default: { double v; memcpy (&v, p, 8); return v; }
        }
    default:
      g_return_val_if_reached (NAN);
    }
}

/* "[12, 3]": NumPy's index of element @i of the logical (C-order) array. */
static char *
describe_index (const NpyArray *a,
                guint64         i)
{
  guint64 index[NPY_MAX_DIMS];
  GString *text = g_string_new ("[");

  for (guint k = a->ndim; k-- > 0;)
    {
      index[k] = i % a->shape[k];
      i /= a->shape[k];
    }
  for (guint k = 0; k < a->ndim; k++)
    g_string_append_printf (text, "%s%" G_GUINT64_FORMAT, k ? ", " : "", index[k]);
  g_string_append_c (text, ']');
  return g_string_free (text, FALSE);
}

/* Every element into @out (a->count floats) with the axes in the order
 * @perm gives (out's axis k is the array's axis perm[k]), times @scale;
 * refused at the first value that is not a finite float32. */
static gboolean
gather (const NpyArray  *a,
        const guint     *perm,
        double           scale,
        guint64          first_row,
        guint64          n_rows,
        float           *out,
        GError         **error)
{
  guint64 stride[NPY_MAX_DIMS], index[NPY_MAX_DIMS] = { 0 }, offset = 0;
  const guint64 per_row = a->count / MAX (a->shape[0], 1);
  gboolean identity = TRUE;

  for (guint k = 0; k < a->ndim; k++)
    identity = identity && perm[k] == k;
  /* Storage strides, in elements. */
  for (guint k = 0; k < a->ndim; k++)
    {
      guint axis = a->fortran ? k : a->ndim - 1 - k;
      stride[axis] = k == 0 ? 1 : stride[a->fortran ? axis - 1 : axis + 1]
                                   * a->shape[a->fortran ? axis - 1 : axis + 1];
    }

  /* From @first_row on: rows are the first axis, in the output as stored. */
  index[0] = first_row;
  offset = first_row * stride[perm[0]];
  for (guint64 j = first_row * per_row; j < (first_row + n_rows) * per_row; j++)
    {
      double value = element (a, offset) * scale;

      if (!isfinite (value) || fabs (value) > G_MAXFLOAT)
        {
          /* The logical index of the storage offset. */
          guint64 logical = 0;
          g_autofree char *where = NULL;

          for (guint k = 0; k < a->ndim && !(identity && !a->fortran); k++)
            {
              guint64 at = 0;

              for (guint m = 0; m < a->ndim; m++)
                if (perm[m] == k)
                  at = index[m];
              logical = logical * a->shape[k] + at;
            }
          where = describe_index (a, identity && !a->fortran ? j : logical);
          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_NOT_FINITE,
                       isfinite (value) ? _("%s: element %s: %g is beyond the range of 32-bit floats")
                                        : _("%s: element %s: not a finite number (%g)"),
                       a->what, where, value);
          return FALSE;
        }
      out[j - first_row * per_row] = value;
      /* The next output element: the last output axis moves fastest. */
      if (identity && !a->fortran)
        offset++;
      else
        for (guint k = a->ndim; k-- > 0;)
          {
            const guint axis = perm[k];

            offset += stride[axis];
            if (++index[k] < a->shape[axis])
              break;
            offset -= stride[axis] * a->shape[axis];
            index[k] = 0;
          }
    }
  return TRUE;
}

/* Floats as a dataset keeps them, each finite: the array's own bytes
 * serve as the dataset's values, with no copy. Streamed, in chunks of
 * @stream_rows, its values are checked as they are read instead. */
static LatentDataset *
dataset_in_place (const NpyArray          *a,
                  const LatentArrayRows   *layout,
                  const char              *name,
                  GBytes                  *bytes,
                  guint                    stream_rows,
                  GError                 **error)
{
  g_autoptr(LatentDataset) dataset = NULL;
  const guint8 *base = g_bytes_get_data (bytes, NULL);
  const float *values = (const float *) a->data;

  for (guint64 j = 0; stream_rows == 0 && j < a->count; j++)
    if (!isfinite (values[j]))
      {
        g_autofree char *where = describe_index (a, j);

        g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_NOT_FINITE,
                     _("%s: element %s: not a finite number (%g)"), a->what, where, values[j]);
        return NULL;
      }
  dataset = latent_dataset_new_for_bytes (name, layout->rows, layout->cols, bytes, a->data - base, error);
  if (dataset != NULL)
    latent_dataset_set_stream_chunk_rows (dataset, stream_rows);
  if (dataset != NULL && layout->channels > 0)
    latent_dataset_set_image_shape (dataset, layout->width, layout->height, layout->channels, FALSE);
  return g_steal_pointer (&dataset);
}

/* A mapped array read for its float32 copy (latent-float-copy.h). */
typedef struct {
  const NpyArray *a;
  const guint    *perm;
  double          scale;
} NpyCopy;

static gboolean
npy_copy_rows (gpointer   source,
               guint64    first,
               guint      n,
               float     *out,
               GError   **error)
{
  const NpyCopy *copy = source;
  const NpyArray *a = copy->a;
  const gsize page = sysconf (_SC_PAGESIZE);
  const guint64 row_bytes = a->count / MAX (a->shape[0], 1) * a->size;
  guintptr from, to;

  if (!gather (a, copy->perm, copy->scale, first, n, out, error))
    return FALSE;
  /* Rows stored in order are let go once copied, so the copy of a file
   * larger than memory keeps none of it resident. */
  if (a->fortran)
    return TRUE;
  from = ((guintptr) a->data + first * row_bytes + page - 1) / page * page;
  to = ((guintptr) a->data + (first + n) * row_bytes) / page * page;
  if (to > from)
    madvise ((void *) from, to - from, MADV_DONTNEED);
  return TRUE;
}

/* @bytes (may be NULL) hold @a: a C-order array of this machine's floats,
 * rows as they are stored, is used where it lies, and with @stream (the
 * bytes being a mapped file) streamed. */
static LatentDataset *
dataset_of (const NpyArray  *a,
            GBytes          *bytes,
            const char      *name,
            gboolean         stream,
            GError         **error)
{
  g_autoptr(LatentDataset) dataset = NULL;
  guint perm[NPY_MAX_DIMS] = { 0, 1, 2, 3 };
  LatentArrayRows layout;
  double scale = 1;

  if (a->kind == 'U' || a->kind == 'S')
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_UNSUPPORTED,
                   _("%s: an array of text is read as labels, not as data"), a->what);
      return NULL;
    }
  if (!latent_arrays_rows_of (a->what, a->shape, a->ndim, stream ? G_MAXUINT64 : LATENT_DATASET_MAX_VALUES,
                              &layout, error))
    return NULL;
  if (bytes != NULL && a->kind == 'f' && a->size == sizeof (float) && !a->swap && !a->fortran &&
      !layout.channels_first && (guintptr) a->data % G_ALIGNOF (float) == 0)
    return dataset_in_place (a, &layout, name, bytes,
                             stream ? latent_memory_chunk_rows ((guint64) layout.cols * sizeof (float)) : 0, error);
  /* PyTorch's (n, channels, height, width), interleaved as images are here. */
  if (layout.channels_first)
    perm[1] = 2, perm[2] = 3, perm[3] = 1;
  /* Bytes of images are 0 … 255, as an IDX file's or a PNG's. */
  if (layout.channels > 0 && a->kind == 'u' && a->size == 1)
    scale = 1.0 / 255.0;
  /* Values that cannot stream where they lie (another type, order or
   * byte order) stream from a float32 copy. */
  if (stream)
    {
      NpyCopy copy = { a, perm, scale };

      dataset = latent_float_copy_stream (a->what, NULL, layout.rows, layout.cols, npy_copy_rows, &copy, error);
      if (dataset)
        latent_dataset_set_name (dataset, name);
      if (dataset && layout.channels > 0)
        latent_dataset_set_image_shape (dataset, layout.width, layout.height, layout.channels, FALSE);
      return g_steal_pointer (&dataset);
    }

  dataset = latent_dataset_new (name, layout.rows, layout.cols, error);
  if (dataset == NULL)
    return NULL;
  if (!gather (a, perm, scale, 0, layout.rows, latent_dataset_get_data (dataset), error))
    return NULL;
  if (layout.channels > 0)
    latent_dataset_set_image_shape (dataset, layout.width, layout.height, layout.channels, FALSE);
  return g_steal_pointer (&dataset);
}

/* @bytes hold a .npy file, @stream when they are a mapped file larger than
 * the memory budget. */
static LatentDataset *
load_bytes (GBytes      *bytes,
            const char  *what,
            gboolean     stream,
            GError     **error)
{
  g_autofree char *name = NULL;
  LatentDataset *dataset;
  NpyArray a = { .what = what };
  gsize len;
  const guint8 *data;

  data = g_bytes_get_data (bytes, &len);
  if (!parse_array (data, len, &a, error))
    return NULL;
  name = latent_file_stem (what);
  dataset = dataset_of (&a, bytes, name, stream, error);
  if (dataset != NULL)
    latent_dataset_set_source (dataset, what);
  return dataset;
}

LatentDataset *
latent_npy_load_bytes (GBytes      *bytes,
                       const char  *what,
                       GError     **error)
{
  g_return_val_if_fail (bytes != NULL && what != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return load_bytes (bytes, what, FALSE, error);
}

/* Largest .npy read whole: the most values a dataset holds, as doubles. */
static gsize
max_file_bytes (void)
{
  return (gsize) MIN ((guint64) G_MAXSIZE, LATENT_DATASET_MAX_VALUES * 8 + NPY_MAX_HEADER + 16);
}

LatentDataset *
latent_npy_load (const char  *path,
                 GError     **error)
{
  g_autoptr(GBytes) bytes = NULL;
  goffset size = 0;
  gboolean stream;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);

  /* Larger than the memory budget: mapped, to be streamed if its values
   * can be used where they lie. */
  if ((fd = latent_file_open (path, &size, error)) < 0)
    return NULL;
  g_close (fd, NULL);
  stream = (guint64) size > latent_memory_budget ();
  bytes = stream ? latent_file_map (path, error) : latent_file_read (path, max_file_bytes (), _("a NumPy file"), error);
  return bytes ? load_bytes (bytes, path, stream, error) : NULL;
}

/* Labels ----------------------------------------------------------------- */

/* Element @i of a text array, as UTF-8 without its padding. */
static char *
text_element (const NpyArray *a,
              guint64         i)
{
  const guint8 *p = a->data + i * a->size;

  if (a->kind == 'S')
    {
      gsize n = a->size;

      while (n > 0 && p[n - 1] == 0)
        n--;
      return g_utf8_make_valid ((const char *) p, n);
    }
  else
    {
      const guint n_chars = a->size / 4;
      g_autofree gunichar *chars = g_new (gunichar, n_chars + 1);
      guint n = 0;

      for (guint k = 0; k < n_chars; k++)
        {
          const guint8 *q = p + 4 * k;
          gunichar ch = (a->swap == (G_BYTE_ORDER == G_LITTLE_ENDIAN))
                        ? (gunichar) q[0] << 24 | (gunichar) q[1] << 16 | (gunichar) q[2] << 8 | q[3]
                        : (gunichar) q[3] << 24 | (gunichar) q[2] << 16 | (gunichar) q[1] << 8 | q[0];

          if (ch == 0)
            break;
          chars[n++] = g_unichar_validate (ch) ? ch : 0xfffd;
        }
      chars[n] = 0;
      return g_ucs4_to_utf8 (chars, n, NULL, NULL, NULL);
    }
}

gint32 *
latent_npy_load_labels (GBytes      *bytes,
                        const char  *what,
                        guint       *n_labels,
                        guint       *n_classes,
                        GStrv       *class_names,
                        GError     **error)
{
  g_autofree gint32 *labels = NULL;
  NpyArray a = { .what = what };
  const guint8 *data;
  gsize len;

  g_return_val_if_fail (bytes != NULL && what != NULL && n_labels != NULL && n_classes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  data = g_bytes_get_data (bytes, &len);
  if (!parse_array (data, len, &a, error))
    return NULL;
  if (!(a.ndim == 1 || (a.ndim == 2 && a.shape[1] == 1)))
    {
      g_autofree char *shape = latent_arrays_describe_shape (a.shape, a.ndim);

      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                   _("%s: labels are one per row, (n) or (n, 1); this array is %s"), what, shape);
      return NULL;
    }
  if (a.count == 0)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_EMPTY, _("%s: no labels"), what);
      return NULL;
    }
  if (a.count > G_MAXINT32)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
                   _("%s: not enough memory for %llu labels"), what, (unsigned long long) a.count);
      return NULL;
    }
  if (a.kind == 'U' || a.kind == 'S')
    {
      g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);

      for (guint64 i = 0; i < a.count; i++)
        g_ptr_array_add (texts, text_element (&a, i));
      labels = latent_labels_from_texts ((char **) texts->pdata, a.count, n_classes, class_names);
    }
  else
    {
      g_autofree double *values = g_try_new (double, a.count);

      if (values == NULL)
        {
          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
                       _("%s: not enough memory for %llu labels"), what, (unsigned long long) a.count);
          return NULL;
        }
      for (guint64 i = 0; i < a.count; i++)
        values[i] = element (&a, i);
      labels = latent_labels_from_numbers (values, a.count, what, n_classes, class_names, error);
      if (labels == NULL)
        return NULL;
    }
  *n_labels = a.count;
  return g_steal_pointer (&labels);
}

/* Archives --------------------------------------------------------------- */

typedef struct {
  zip_t      *zip;
  const char *path;
  GPtrArray  *names;     /* of the arrays, without ".npy" */
  GArray     *indices;   /* their entries in the archive */
  gsize       len;       /* bytes of the archive */
} Archive;

static void
archive_clear (Archive *archive)
{
  if (archive->zip != NULL)
    zip_discard (archive->zip);
  g_clear_pointer (&archive->names, g_ptr_array_unref);
  g_clear_pointer (&archive->indices, g_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Archive, archive_clear)

static gboolean
archive_open (Archive     *archive,
              GBytes      *bytes,
              const char  *path,
              GError     **error)
{
  zip_error_t zerror;
  zip_source_t *source;
  gsize len;
  const void *data = g_bytes_get_data (bytes, &len);
  zip_int64_t n;

  archive->path = path;
  archive->len = len;
  archive->names = g_ptr_array_new_with_free_func (g_free);
  archive->indices = g_array_new (FALSE, FALSE, sizeof (zip_uint64_t));
  zip_error_init (&zerror);
  source = zip_source_buffer_create (data, len, 0, &zerror);
  if (source != NULL)
    {
      archive->zip = zip_open_from_source (source, ZIP_RDONLY, &zerror);
      if (archive->zip == NULL)
        zip_source_free (source);
    }
  if (archive->zip == NULL)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                   _("%s: not a readable .npz archive (%s)"), path, zip_error_strerror (&zerror));
      zip_error_fini (&zerror);
      return FALSE;
    }
  zip_error_fini (&zerror);

  n = zip_get_num_entries (archive->zip, 0);
  for (zip_int64_t i = 0; i < n; i++)
    {
      const char *name = zip_get_name (archive->zip, i, ZIP_FL_ENC_GUESS);
      zip_uint64_t index = i;

      if (name != NULL && g_str_has_suffix (name, ".npy") && strlen (name) > 4)
        {
          g_ptr_array_add (archive->names, g_utf8_make_valid (name, strlen (name) - 4));
          g_array_append_val (archive->indices, index);
        }
    }
  if (archive->names->len == 0)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_EMPTY,
                   _("%s: an archive without NumPy arrays (no .npy inside)"), path);
      return FALSE;
    }
  return TRUE;
}

/* Array @i's .npy bytes, read whole after its size is checked. */
static GBytes *
archive_read (Archive     *archive,
              guint        i,
              const char  *what,
              GError     **error)
{
  zip_uint64_t index = g_array_index (archive->indices, zip_uint64_t, i);
  g_autofree guint8 *data = NULL;
  zip_stat_t stat;
  zip_file_t *file;
  zip_int64_t got;

  zip_stat_init (&stat);
  if (zip_stat_index (archive->zip, index, 0, &stat) != 0 || !(stat.valid & ZIP_STAT_SIZE))
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                   _("%s: corrupt in the archive (%s)"), what, zip_strerror (archive->zip));
      return NULL;
    }
  /* A few bytes of deflate cannot hold gigabytes (1,032 to 1 at most):
   * what a member says it holds is checked before memory is given to it. */
  if (!(stat.valid & ZIP_STAT_COMP_SIZE) || stat.comp_size > archive->len)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                   _("%s: declares %llu compressed bytes, more than the whole archive's %llu"), what,
                   (unsigned long long) stat.comp_size, (unsigned long long) archive->len);
      return NULL;
    }
  if (stat.size / 1032 > stat.comp_size + 64)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                   _("%s: declares %llu bytes, more than its %llu compressed bytes can hold"), what,
                   (unsigned long long) stat.size, (unsigned long long) stat.comp_size);
      return NULL;
    }
  if (stat.size > max_file_bytes ())
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
                   _("%s: %llu bytes is above the limit of %llu bytes"), what,
                   (unsigned long long) stat.size, (unsigned long long) max_file_bytes ());
      return NULL;
    }
  data = g_try_malloc (MAX (stat.size, 1));
  if (data == NULL)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
                   _("%s: not enough memory for %llu bytes"), what, (unsigned long long) stat.size);
      return NULL;
    }
  file = zip_fopen_index (archive->zip, index, 0);
  if (file == NULL)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                   _("%s: cannot be read from the archive (%s)"), what, zip_strerror (archive->zip));
      return NULL;
    }
  /* libzip checks the CRC when a read meets the end, so one more read
   * must give nothing: a lying size or a damaged member is an error here,
   * not garbage. */
  got = zip_fread (file, data, stat.size);
  if (got >= 0 && (zip_uint64_t) got == stat.size)
    {
      guint8 more;

      got = zip_fread (file, &more, 1);
      if (got == 0)
        got = stat.size;
      else if (got > 0)
        got = stat.size + 1;
    }
  if (got < 0 || (zip_uint64_t) got != stat.size)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                   _("%s: corrupt in the archive (%s)"), what,
                   got < 0 ? zip_file_strerror (file) : _("not the size its entry says"));
      zip_fclose (file);
      return NULL;
    }
  zip_fclose (file);
  return g_bytes_new_take (g_steal_pointer (&data), stat.size);
}

static LatentDataset *
load_member (Archive     *archive,
             gint         data,
             gint         labels,
             GError     **error)
{
  g_autofree char *what = g_strdup_printf (_("%s, array %s"), archive->path,
                                           (char *) g_ptr_array_index (archive->names, data));
  g_autoptr(GBytes) bytes = archive_read (archive, data, what, error);
  g_autoptr(LatentDataset) dataset = NULL;
  g_autofree char *stem = NULL, *name = NULL;
  NpyArray a = { .what = what };

  if (bytes == NULL)
    return NULL;
  if (!parse_array (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &a, error))
    return NULL;
  /* "mnist (x_train)": the archive, and which of its arrays. */
  stem = latent_file_stem (archive->path);
  name = g_strdup_printf ("%s (%s)", stem, (char *) g_ptr_array_index (archive->names, data));
  dataset = dataset_of (&a, bytes, name, FALSE, error);
  if (dataset == NULL)
    return NULL;
  latent_dataset_set_source (dataset, archive->path);

  if (labels >= 0)
    {
      g_autofree char *labels_what = g_strdup_printf (_("%s, array %s"), archive->path,
                                                      (char *) g_ptr_array_index (archive->names, labels));
      g_autoptr(GBytes) label_bytes = archive_read (archive, labels, labels_what, error);
      g_autofree gint32 *values = NULL;
      g_auto(GStrv) names = NULL;
      guint n_labels = 0, n_classes = 0;

      if (label_bytes == NULL)
        return NULL;
      values = latent_npy_load_labels (label_bytes, labels_what, &n_labels, &n_classes, &names, error);
      if (values == NULL)
        return NULL;
      if (n_labels != latent_dataset_get_n_rows (dataset))
        {
          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_MISMATCH,
                       _("%s has %u labels but %s has %u rows"), labels_what, n_labels,
                       what, latent_dataset_get_n_rows (dataset));
          return NULL;
        }
      latent_dataset_set_labels (dataset, values, n_classes, names);
    }
  return g_steal_pointer (&dataset);
}

LatentDataset *
latent_npz_load_bytes (GBytes      *bytes,
                       const char  *what,
                       const char  *data_name,
                       const char  *labels_name,
                       GError     **error)
{
  g_auto(Archive) archive = { 0 };
  g_autoptr(LatentDataset) dataset = NULL;
  LatentArrayChoice choice;

  g_return_val_if_fail (bytes != NULL && what != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!archive_open (&archive, bytes, what, error)
      || !latent_arrays_choose (what, (const char * const *) archive.names->pdata, archive.names->len,
                                data_name, labels_name, &choice, error))
    return NULL;
  dataset = load_member (&archive, choice.data, choice.labels, error);
  if (dataset == NULL)
    return NULL;
  if (choice.test_data >= 0)
    {
      g_autoptr(LatentDataset) test = load_member (&archive, choice.test_data, choice.test_labels, error);

      if (test == NULL || !latent_dataset_set_test (dataset, test, error))
        return NULL;
    }
  return g_steal_pointer (&dataset);
}

LatentDataset *
latent_npz_load (const char  *path,
                 const char  *data_name,
                 const char  *labels_name,
                 GError     **error)
{
  g_autoptr(GBytes) bytes = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  bytes = latent_file_read (path, max_file_bytes (), _("a NumPy archive"), error);
  return bytes ? latent_npz_load_bytes (bytes, path, data_name, labels_name, error) : NULL;
}

GStrv
latent_npz_list (const char  *path,
                 GError     **error)
{
  g_auto(Archive) archive = { 0 };
  g_autoptr(GBytes) bytes = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  bytes = latent_file_read (path, max_file_bytes (), _("a NumPy archive"), error);
  if (bytes == NULL || !archive_open (&archive, bytes, path, error))
    return NULL;
  g_ptr_array_add (archive.names, NULL);
  return (GStrv) g_ptr_array_steal (archive.names, NULL);
}
