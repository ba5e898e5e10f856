/* latent-hdf5.c — HDF5 datasets as rows and labels, through libhdf5
 *
 * A file is refused before libhdf5 sees it unless it is a regular file
 * with HDF5's signature; its datasets are found by walking its hard links;
 * data are read a block of rows at a time as doubles (so that libhdf5's
 * conversions never clip: every value is checked here) and kept as floats.
 * libhdf5 prints its errors itself unless told not to, on every thread.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-hdf5"

#include "latent-hdf5.h"
#include "latent-arrays.h"
#include "latent-file.h"
#include "latent-float-copy.h"

#include <glib/gi18n-lib.h>
#include <hdf5.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#define MAX_DIMS 4
/* Rows are read in blocks of about this many bytes of doubles. */
#define BLOCK_BYTES (8 << 20)
/* A file of more datasets than this is not walked further. */
#define MAX_DATASETS 10000
/* Fixed-length text labels longer than this are refused. */
#define MAX_TEXT 4096

/* libhdf5's handles, closed by their own kind when they go out of scope. */
static void close_file (hid_t *id) { if (*id >= 0) H5Fclose (*id); }
static void close_dataset (hid_t *id) { if (*id >= 0) H5Dclose (*id); }
static void close_space (hid_t *id) { if (*id >= 0) H5Sclose (*id); }
static void close_type (hid_t *id) { if (*id >= 0) H5Tclose (*id); }
#define FILE_ID __attribute__ ((cleanup (close_file))) hid_t
#define DATASET_ID __attribute__ ((cleanup (close_dataset))) hid_t
#define SPACE_ID __attribute__ ((cleanup (close_space))) hid_t
#define TYPE_ID __attribute__ ((cleanup (close_type))) hid_t

/* Its rank and dimensions, and whether it holds numbers or text. */
typedef struct {
  int         ndim;
  hsize_t     dims[MAX_DIMS];
  H5T_class_t kind;
  gboolean    bytes;       /* unsigned 8-bit integers */
} Shape;

static gboolean
shape_of (hid_t  dataset,
          Shape *shape)
{
  SPACE_ID space = H5Dget_space (dataset);
  TYPE_ID type = H5Dget_type (dataset);

  if (space < 0 || type < 0)
    return FALSE;
  shape->ndim = H5Sget_simple_extent_ndims (space);
  shape->kind = H5Tget_class (type);
  shape->bytes = shape->kind == H5T_INTEGER && H5Tget_size (type) == 1 && H5Tget_sign (type) == H5T_SGN_NONE;
  if (shape->ndim < 1 || shape->ndim > MAX_DIMS)
    return FALSE;
  H5Sget_simple_extent_dims (space, shape->dims, NULL);
  return shape->kind == H5T_INTEGER || shape->kind == H5T_FLOAT || shape->kind == H5T_STRING;
}

/* Data kept in other files (external storage, virtual datasets) would be
 * read from paths the file names, past the checks on the file itself. */
static gboolean
stored_inside (hid_t        dataset,
               const char  *what,
               GError     **error)
{
  hid_t plist = H5Dget_create_plist (dataset);
  gboolean inside = plist >= 0 && H5Pget_layout (plist) != H5D_VIRTUAL && H5Pget_external_count (plist) == 0;

  if (plist >= 0)
    H5Pclose (plist);
  if (!inside)
    g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_UNSUPPORTED,
                 _("%s: its values are kept in other files, which are not read"), what);
  return inside;
}

/* Its dimensions as the arrays' helpers take them. */
static guint
dims_of (const Shape *shape,
         guint64     *dims)
{
  for (int k = 0; k < shape->ndim; k++)
    dims[k] = shape->dims[k];
  return shape->ndim;
}

static hid_t
open_file (const char  *path,
           GError     **error)
{
  int fd = latent_file_open (path, NULL, error);
  hid_t file;

  if (fd < 0)
    return -1;
  close (fd);
  /* Per thread: messages are ours, not libhdf5's on stderr. */
  H5Eset_auto2 (H5E_DEFAULT, NULL, NULL);
  if (H5Fis_hdf5 (path) <= 0)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                   _("%s: not an HDF5 file (no HDF5 signature)"), path);
      return -1;
    }
  file = H5Fopen (path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0)
    g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                 _("%s: an HDF5 file that libhdf5 cannot open (damaged?)"), path);
  return file;
}

#if H5_VERSION_GE (1, 12, 0)
typedef H5L_info2_t LinkInfo;
#else
typedef H5L_info_t LinkInfo;
#endif

static herr_t
visit_link (hid_t           group,
            const char     *name,
            const LinkInfo *info,
            void           *data)
{
  GPtrArray *names = data;
  hid_t object;
  Shape shape;

  if (info->type != H5L_TYPE_HARD)
    return 0;
  object = H5Oopen (group, name, H5P_DEFAULT);
  if (object < 0)
    return 0;
  if (H5Iget_type (object) == H5I_DATASET && shape_of (object, &shape))
    g_ptr_array_add (names, g_strdup (name));
  H5Oclose (object);
  return names->len >= MAX_DATASETS ? 1 : 0;
}

/* Its datasets' paths, in name order, NULL-terminated. */
static GPtrArray *
list_datasets (hid_t        file,
               const char  *path,
               GError     **error)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

  if (H5Lvisit (file, H5_INDEX_NAME, H5_ITER_INC, visit_link, names) < 0)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                   _("%s: its groups cannot be read (damaged?)"), path);
      return NULL;
    }
  if (names->len == 0)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_EMPTY,
                   _("%s: no dataset of numbers or text of 1 to 4 dimensions"), path);
      return NULL;
    }
  g_ptr_array_add (names, NULL);
  return g_steal_pointer (&names);
}

GStrv
latent_hdf5_list (const char  *path,
                  GError     **error)
{
  FILE_ID file = -1;
  GPtrArray *names;

  g_return_val_if_fail (path != NULL, NULL);

  file = open_file (path, error);
  if (file < 0 || (names = list_datasets (file, path, error)) == NULL)
    return NULL;
  return (GStrv) g_ptr_array_free (names, FALSE);
}

/* "[12, 3, 4]": the index of element @offset of row @row. */
static char *
describe_index (const Shape *shape,
                hsize_t      row,
                hsize_t      offset)
{
  hsize_t index[MAX_DIMS];
  GString *text = g_string_new ("[");

  for (int k = shape->ndim - 1; k > 0; k--)
    {
      index[k] = offset % shape->dims[k];
      offset /= shape->dims[k];
    }
  index[0] = row;
  for (int k = 0; k < shape->ndim; k++)
    g_string_append_printf (text, "%s%llu", k ? ", " : "", (unsigned long long) index[k]);
  g_string_append_c (text, ']');
  return g_string_free (text, FALSE);
}

/* What reading a dataset's rows as floats takes: blocks of rows read as
 * doubles, then scaled, interleaved and checked into float rows. */
typedef struct {
  hid_t          dataset;
  hid_t          space;
  const Shape   *shape;
  const char    *what;
  guint64        n_cols;
  guint          width, height, channels;
  gboolean       channels_first;
  double         scale;
  guint          block_rows;
  double        *block;
} RowReader;

/* Rows @first … @first + @n − 1 into @out, @n at most block_rows. */
static gboolean
read_block (RowReader  *r,
            guint64     first,
            guint       n,
            float      *out,
            GError    **error)
{
  hsize_t start[MAX_DIMS] = { first }, size[MAX_DIMS];
  SPACE_ID memory = -1;

  size[0] = n;
  for (int k = 1; k < r->shape->ndim; k++)
    size[k] = r->shape->dims[k];
  memory = H5Screate_simple (r->shape->ndim, size, NULL);
  if (memory < 0 || H5Sselect_hyperslab (r->space, H5S_SELECT_SET, start, NULL, size, NULL) < 0
      || H5Dread (r->dataset, H5T_NATIVE_DOUBLE, memory, r->space, H5P_DEFAULT, r->block) < 0)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                   _("%s: rows %llu to %llu cannot be read (damaged?)"), r->what,
                   (unsigned long long) first, (unsigned long long) (first + size[0] - 1));
      return FALSE;
    }
  for (hsize_t i = 0; i < size[0]; i++)
    for (guint64 j = 0; j < r->n_cols; j++)
      {
        /* Interleaved images from PyTorch's (channels, height, width). */
        const guint64 from = r->channels_first
                             ? ((j % r->channels) * r->height + j / r->channels / r->width) * r->width
                               + j / r->channels % r->width
                             : j;
        const double value = r->block[i * r->n_cols + from] * r->scale;

        if (!isfinite (value) || fabs (value) > G_MAXFLOAT)
          {
            g_autofree char *where = describe_index (r->shape, first + i, from);

            g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_NOT_FINITE,
                         isfinite (value) ? _("%s: element %s: %g is beyond the range of 32-bit floats")
                                          : _("%s: element %s: not a finite number (%g)"),
                         r->what, where, value);
            return FALSE;
          }
        out[i * r->n_cols + j] = value;
      }
  return TRUE;
}

/* A float32 copy's rows (latent-float-copy.h), a block at a time. */
static gboolean
copy_rows (gpointer   source,
           guint64    first,
           guint      n,
           float     *out,
           GError   **error)
{
  RowReader *r = source;

  for (guint done = 0; done < n; done += r->block_rows)
    if (!read_block (r, first + done, MIN (r->block_rows, n - done), out + (gsize) done * r->n_cols, error))
      return FALSE;
  return TRUE;
}

static LatentDataset *
read_rows (hid_t        file,
           const char  *path,
           const char  *what,
           const char  *name,
           const char  *dataset_name,
           GError     **error)
{
  DATASET_ID dataset = H5Dopen2 (file, name, H5P_DEFAULT);
  SPACE_ID space = -1;
  g_autoptr(LatentDataset) rows = NULL;
  g_autofree double *block = NULL;
  guint64 dims[MAX_DIMS], n_rows;
  LatentArrayRows layout;
  RowReader reader;
  Shape shape;

  if (dataset < 0 || !shape_of (dataset, &shape))
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE, _("%s: cannot be read"), what);
      return NULL;
    }
  if (!stored_inside (dataset, what, error))
    return NULL;
  if (shape.kind == H5T_STRING)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_UNSUPPORTED,
                   _("%s: an array of text is read as labels, not as data"), what);
      return NULL;
    }
  if (!latent_arrays_rows_of (what, dims, dims_of (&shape, dims), G_MAXUINT64, &layout, error))
    return NULL;
  n_rows = layout.rows;
  space = H5Dget_space (dataset);
  reader = (RowReader) {
    .dataset = dataset, .space = space, .shape = &shape, .what = what, .n_cols = layout.cols,
    .width = layout.width, .height = layout.height, .channels = layout.channels,
    .channels_first = layout.channels_first,
    .scale = layout.channels > 0 && shape.bytes ? 1.0 / 255.0 : 1,
    .block_rows = MAX (1, BLOCK_BYTES / sizeof (double) / layout.cols),
  };
  reader.block = block = g_new (double, (gsize) MIN (reader.block_rows, n_rows) * layout.cols);

  /* Too many for the memory budget: streamed from a float32 copy. */
  if (latent_float_copy_wanted (n_rows, layout.cols))
    {
      if (layout.cols > G_MAXUINT)
        {
          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
                       _("%s: %llu values a row is above the limit of %u"), what,
                       (unsigned long long) layout.cols, G_MAXUINT);
          return NULL;
        }
      rows = latent_float_copy_stream (path, name, n_rows, (guint) layout.cols, copy_rows, &reader, error);
      if (rows)
        latent_dataset_set_name (rows, dataset_name);
    }
  /* Held in memory: within its limit, refused as every loader refuses. */
  else if (!latent_arrays_rows_of (what, dims, dims_of (&shape, dims), LATENT_DATASET_MAX_VALUES, &layout, error))
    return NULL;
  else if ((rows = latent_dataset_new (dataset_name, n_rows, layout.cols, error)))
    {
      float *out = latent_dataset_get_data (rows);

      for (guint64 first = 0; first < n_rows; first += reader.block_rows)
        if (!read_block (&reader, first, (guint) MIN (reader.block_rows, n_rows - first),
                         out + first * layout.cols, error))
          return NULL;
    }
  if (rows && layout.channels > 0)
    latent_dataset_set_image_shape (rows, layout.width, layout.height, layout.channels, FALSE);
  return g_steal_pointer (&rows);
}

/* Text of fixed or variable length, one per row. */
static GPtrArray *
read_texts (hid_t        dataset,
            hid_t        space,
            guint64      n,
            const char  *what,
            GError     **error)
{
  TYPE_ID type = H5Dget_type (dataset);
  TYPE_ID memory = H5Tcopy (H5T_C_S1);
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  const gboolean variable = H5Tis_variable_str (type) > 0;
  const gsize size = variable ? sizeof (char *) : H5Tget_size (type);

  if (memory < 0 || (!variable && (size == 0 || size > MAX_TEXT)))
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_UNSUPPORTED,
                   _("%s: labels of text are 1 to %u bytes each"), what, MAX_TEXT);
      return NULL;
    }
  H5Tset_size (memory, variable ? H5T_VARIABLE : size);
  H5Tset_cset (memory, H5Tget_cset (type));
  if (variable)
    {
      g_autofree char **buffer = g_try_new0 (char *, n);

      if (buffer == NULL || H5Dread (dataset, memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer) < 0)
        {
          /* Strings read before a failure are libhdf5's to free. */
          if (buffer != NULL)
            H5Dvlen_reclaim (memory, space, H5P_DEFAULT, buffer);
          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE, _("%s: cannot be read"), what);
          return NULL;
        }
      for (guint64 i = 0; i < n; i++)
        g_ptr_array_add (texts, g_utf8_make_valid (buffer[i] ? buffer[i] : "", -1));
      H5Dvlen_reclaim (memory, space, H5P_DEFAULT, buffer);
    }
  else
    {
      g_autofree char *buffer = g_try_malloc0 (n * size);

      H5Tset_strpad (memory, H5T_STR_NULLPAD);
      if (buffer == NULL || H5Dread (dataset, memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer) < 0)
        {
          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE, _("%s: cannot be read"), what);
          return NULL;
        }
      for (guint64 i = 0; i < n; i++)
        {
          const char *text = buffer + i * size;
          gsize len = strnlen (text, size);

          while (len > 0 && text[len - 1] == ' ')
            len--;
          g_ptr_array_add (texts, g_utf8_make_valid (text, len));
        }
    }
  return g_steal_pointer (&texts);
}

static gboolean
read_labels (hid_t           file,
             const char     *what,
             const char     *name,
             LatentDataset  *rows,
             GError        **error)
{
  DATASET_ID dataset = H5Dopen2 (file, name, H5P_DEFAULT);
  SPACE_ID space = -1;
  g_autofree gint32 *labels = NULL;
  g_auto(GStrv) class_names = NULL;
  guint n_classes = 0;
  guint64 n;
  Shape shape;

  if (dataset < 0 || !shape_of (dataset, &shape))
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE, _("%s: cannot be read"), what);
      return FALSE;
    }
  if (!stored_inside (dataset, what, error))
    return FALSE;
  if (!(shape.ndim == 1 || (shape.ndim == 2 && shape.dims[1] == 1)))
    {
      guint64 dims[MAX_DIMS];
      g_autofree char *text = latent_arrays_describe_shape (dims, dims_of (&shape, dims));

      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                   _("%s: labels are one per row, (n) or (n, 1); this array is %s"), what, text);
      return FALSE;
    }
  n = shape.dims[0];
  if (n != latent_dataset_get_n_rows (rows))
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_MISMATCH,
                   _("%s has %u labels but %s has %u rows"), what, (guint) MIN (n, G_MAXUINT),
                   latent_dataset_get_name (rows), latent_dataset_get_n_rows (rows));
      return FALSE;
    }
  space = H5Dget_space (dataset);
  if (shape.kind == H5T_STRING)
    {
      g_autoptr(GPtrArray) texts = read_texts (dataset, space, n, what, error);

      if (texts == NULL)
        return FALSE;
      labels = latent_labels_from_texts ((char **) texts->pdata, n, &n_classes, &class_names);
    }
  else
    {
      g_autofree double *values = g_try_new (double, MAX (n, 1));

      if (values == NULL || H5Dread (dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values) < 0)
        {
          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE, _("%s: cannot be read"), what);
          return FALSE;
        }
      labels = latent_labels_from_numbers (values, n, what, &n_classes, &class_names, error);
      if (labels == NULL)
        return FALSE;
    }
  latent_dataset_set_labels (rows, labels, n_classes, class_names);
  return TRUE;
}

static LatentDataset *
load_one (hid_t        file,
          const char  *path,
          const char  *data,
          const char  *labels,
          GError     **error)
{
  g_autofree char *stem = latent_file_stem (path);
  g_autofree char *what = g_strdup_printf (_("%s, dataset %s"), path, data);
  g_autofree char *name = g_strdup_printf ("%s (%s)", stem, data);
  g_autoptr(LatentDataset) rows = NULL;

  rows = read_rows (file, path, what, data, name, error);
  if (rows == NULL)
    return NULL;
  latent_dataset_set_source (rows, path);
  if (labels != NULL)
    {
      g_autofree char *labels_what = g_strdup_printf (_("%s, dataset %s"), path, labels);

      if (!read_labels (file, labels_what, labels, rows, error))
        return NULL;
    }
  return g_steal_pointer (&rows);
}

LatentDataset *
latent_hdf5_load (const char  *path,
                  const char  *data_name,
                  const char  *labels_name,
                  GError     **error)
{
  FILE_ID file = -1;
  g_autoptr(GPtrArray) names = NULL;
  g_autoptr(LatentDataset) rows = NULL;
  const char *const *all;
  LatentArrayChoice choice;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  file = open_file (path, error);
  if (file < 0 || (names = list_datasets (file, path, error)) == NULL)
    return NULL;
  all = (const char *const *) names->pdata;
  /* "/train/images" is "train/images". */
  while (data_name != NULL && data_name[0] == '/')
    data_name++;
  while (labels_name != NULL && labels_name[0] == '/')
    labels_name++;
  if (!latent_arrays_choose (path, all, names->len - 1, data_name, labels_name, &choice, error))
    return NULL;

  rows = load_one (file, path, all[choice.data], choice.labels >= 0 ? all[choice.labels] : NULL, error);
  if (rows == NULL)
    return NULL;
  if (choice.test_data >= 0)
    {
      g_autoptr(LatentDataset) test = load_one (file, path, all[choice.test_data],
                                                choice.test_labels >= 0 ? all[choice.test_labels] : NULL, error);

      if (test == NULL || !latent_dataset_set_test (rows, test, error))
        return NULL;
    }
  return g_steal_pointer (&rows);
}
