/* latent-catalog.c — named datasets, and loading any dataset from a spec or a path
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-catalog"

#include "latent-catalog.h"
#include "latent-file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/stat.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "latent-arff.h"
#include "latent-csv.h"
#include "latent-hdf5.h"
#include "latent-image-folder.h"
#include "latent-idx.h"
#include "latent-jpeg.h"
#include "latent-npy.h"
#include "latent-png.h"
#include "latent-synthetic.h"

#define FASHION_MNIST_DEFAULT_DIR "/usr/share/datasets/fashion-mnist"

static const char * const fashion_mnist_classes[] = {
  "T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
  "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot", NULL
};

/* Files ------------------------------------------------------------------ */

/* "DIR/STEM.gz", else "DIR/STEM", else NULL. */
static char *
find_with_gz (const char *dir,
              const char *stem)
{
  g_autofree char *plain = g_build_filename (dir, stem, NULL);
  g_autofree char *gz = g_strconcat (plain, ".gz", NULL);

  if (g_file_test (gz, G_FILE_TEST_IS_REGULAR))
    return g_steal_pointer (&gz);
  if (g_file_test (plain, G_FILE_TEST_IS_REGULAR))
    return g_steal_pointer (&plain);
  return NULL;
}

const char *
latent_catalog_fashion_mnist_dir (void)
{
  const char *dir = g_getenv ("LATENT_FASHION_MNIST_DIR");
  g_autofree char *images = NULL;

  if (dir == NULL || dir[0] == '\0')
    dir = FASHION_MNIST_DEFAULT_DIR;
  images = find_with_gz (dir, "train-images-idx3-ubyte");
  return images != NULL ? dir : NULL;
}

char *
latent_catalog_find_data_file (const char *basename)
{
  const char *dirs[] = {
    g_getenv ("LATENT_DATA_DIR"),
#ifdef LATENT_SOURCE_DATADIR
    LATENT_SOURCE_DATADIR,
#endif
#ifdef LATENT_DATADIR
    LATENT_DATADIR,
#endif
  };

  g_return_val_if_fail (basename != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      g_autofree char *path = NULL;

      if (dirs[i] == NULL || dirs[i][0] == '\0')
        continue;
      path = g_build_filename (dirs[i], basename, NULL);
      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        return g_steal_pointer (&path);
    }
  return NULL;
}

/* Reads the first bytes of @path; fails only when it cannot be opened. */
static gboolean
sniff (const char  *path,
       guchar      *head,
       gsize        size,
       gsize       *got,
       GError     **error)
{
  FILE *fp = latent_file_fopen (path, NULL, error);

  if (fp == NULL)
    return FALSE;
  memset (head, 0, size);
  *got = fread (head, 1, size, fp);
  fclose (fp);
  return TRUE;
}

static gboolean
is_gzip (const guchar *head,
         gsize         got)
{
  return got >= 2 && head[0] == 0x1f && head[1] == 0x8b;
}

static gboolean
is_idx (const guchar *head,
        gsize         got)
{
  return got >= 4 && head[0] == 0 && head[1] == 0 &&
         (head[2] == 0x08 || head[2] == 0x09 || (head[2] >= 0x0B && head[2] <= 0x0E)) &&
         head[3] >= 1 && head[3] <= 4;
}

static gboolean
is_jpeg (const guchar *head,
         gsize         got)
{
  return got >= 3 && head[0] == 0xFF && head[1] == 0xD8 && head[2] == 0xFF;
}

static gboolean
is_png (const guchar *head,
        gsize         got)
{
  return got >= 8 && memcmp (head, "\x89PNG\r\n\x1a\n", 8) == 0;
}

static gboolean
is_npy (const guchar *head,
        gsize         got)
{
  return got >= 6 && memcmp (head, "\x93NUMPY", 6) == 0;
}

static gboolean
is_hdf5 (const guchar *head,
         gsize         got)
{
  return got >= 8 && memcmp (head, "\x89HDF\r\n\x1a\n", 8) == 0;
}

static gboolean
is_zip (const guchar *head,
        gsize         got)
{
  return got >= 4 && head[0] == 'P' && head[1] == 'K' && ((head[2] == 3 && head[3] == 4) || (head[2] == 5 && head[3] == 6));
}

/* Labels ----------------------------------------------------------------- */

static gboolean
attach_labels (LatentDataset  *dataset,
               const char     *labels_path,
               GError        **error)
{
  g_autofree gint32 *labels = NULL;
  g_auto(GStrv) class_names = NULL;
  guint n_labels = 0, n_classes = 0;
  guchar head[6];
  gsize got = 0;

  if (!sniff (labels_path, head, sizeof head, &got, error))
    return FALSE;

  if (is_npy (head, got))
    {
      g_autoptr(GBytes) bytes = latent_file_read (labels_path, G_MAXINT32, _("a NumPy file"), error);

      if (bytes == NULL)
        return FALSE;
      labels = latent_npy_load_labels (bytes, labels_path, &n_labels, &n_classes, &class_names, error);
      if (labels == NULL)
        return FALSE;
    }
  else if (is_gzip (head, got) || is_idx (head, got))
    {
      labels = latent_idx_load_labels (labels_path, &n_labels, error);
      if (labels == NULL)
        return FALSE;
      for (guint i = 0; i < n_labels; i++)
        n_classes = MAX (n_classes, (guint) labels[i] + 1);
    }
  else
    {
      labels = latent_csv_load_labels (labels_path, &n_labels, &n_classes, &class_names, error);
      if (labels == NULL)
        return FALSE;
    }

  if (n_labels != latent_dataset_get_n_rows (dataset))
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_MISMATCH,
                   _("%s has %u labels but %s has %u rows"), labels_path, n_labels,
                   latent_dataset_get_source (dataset), latent_dataset_get_n_rows (dataset));
      return FALSE;
    }
  latent_dataset_set_labels (dataset, labels, n_classes, class_names);
  return TRUE;
}

/* Fashion-MNIST's labels are the codes 0–9: name them as its classes. */
static void
name_fashion_mnist_classes (LatentDataset *dataset)
{
  g_autofree gint32 *copy = NULL;

  if (!latent_dataset_has_labels (dataset) || latent_dataset_get_n_classes (dataset) > 10)
    return;
  /* set_labels () frees the old labels first, so hand it a copy. */
  copy = g_memdup2 (latent_dataset_get_labels (dataset), sizeof (gint32) * latent_dataset_get_n_rows (dataset));
  latent_dataset_set_labels (dataset, copy, 10, (GStrv) fashion_mnist_classes);
}

/* Whether @path is a file in the installed Fashion-MNIST's folder (opened
 * as a file, it is still Fashion-MNIST). */
static gboolean
in_fashion_mnist_dir (const char *path)
{
  const char *dir = latent_catalog_fashion_mnist_dir ();
  g_autofree char *parent = g_path_get_dirname (path);
  g_autofree char *real_dir = NULL, *real_parent = NULL;

  if (dir == NULL)
    return FALSE;
  real_dir = realpath (dir, NULL);
  real_parent = realpath (parent, NULL);
  return real_dir != NULL && real_parent != NULL && strcmp (real_dir, real_parent) == 0;
}

static gboolean
has_extension (const char *lower,
               const char *ext)
{
  return g_str_has_suffix (lower, ext);
}

static LatentDataset *
load_file (const char  *path,
           const char  *labels_path,
           GError     **error)
{
  g_autoptr(LatentDataset) dataset = NULL;
  g_autofree char *basename = g_path_get_basename (path);
  g_autofree char *lower = g_ascii_strdown (basename, -1);
  g_autofree char *guessed = NULL;
  guchar head[8];
  gsize got = 0;

  if (!sniff (path, head, sizeof head, &got, error))
    return NULL;

  if (is_png (head, got))
    dataset = latent_png_load (path, error);
  else if (is_jpeg (head, got))
    dataset = latent_jpeg_load (path, error);
  else if (is_npy (head, got))
    dataset = latent_npy_load (path, error);
  else if (is_zip (head, got) && has_extension (lower, ".npz"))
    dataset = latent_npz_load (path, NULL, NULL, error);
  else if (is_hdf5 (head, got))
    dataset = latent_hdf5_load (path, NULL, NULL, error);
  else if (is_idx (head, got) || (is_gzip (head, got) && strstr (lower, "idx") != NULL))
    {
      dataset = latent_idx_load (path, NULL, error);
      if (dataset != NULL && labels_path == NULL)
        labels_path = guessed = latent_idx_guess_labels_path (path);
    }
  else if (is_gzip (head, got))
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_UNSUPPORTED,
                   _("%s: a compressed file that is not an IDX file (only IDX files may be gzip-compressed)"),
                   path);
      return NULL;
    }
  else if (has_extension (lower, ".arff"))
    dataset = latent_arff_load (path, NULL, error);
  else if (has_extension (lower, ".csv") || has_extension (lower, ".tsv") ||
           has_extension (lower, ".txt"))
    dataset = latent_csv_load (path, NULL, error);
  else if (has_extension (lower, ".png"))
    dataset = latent_png_load (path, error);
  else if (has_extension (lower, ".jpg") || has_extension (lower, ".jpeg"))
    dataset = latent_jpeg_load (path, error);
  else if (strstr (lower, "idx") != NULL)
    dataset = latent_idx_load (path, NULL, error);
  else
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_UNSUPPORTED,
                   _("%s: unknown file format (Latent reads CSV, TSV, ARFF, NumPy (.npy, .npz), HDF5, IDX, PNG and JPEG files)"), path);
      return NULL;
    }

  if (dataset == NULL)
    return NULL;
  if (labels_path != NULL && !attach_labels (dataset, labels_path, error))
    return NULL;
  if (guessed != NULL && in_fashion_mnist_dir (path) && in_fashion_mnist_dir (guessed))
    name_fashion_mnist_classes (dataset);
  return g_steal_pointer (&dataset);
}

/* Options ---------------------------------------------------------------- */

/* @value against the bounds of @name in @params, in the catalog's words. */
static gboolean
set_option (const char    *dataset,
            LatentParams  *params,
            const char    *name,
            const char    *value,
            GError       **error)
{
  const LatentParamSpec *spec = NULL;
  char min[G_ASCII_DTOSTR_BUF_SIZE], max[G_ASCII_DTOSTR_BUF_SIZE];

  if (latent_params_set (params, name, value, NULL))
    return TRUE;
  for (guint i = 0; spec == NULL; i++)
    if (g_str_equal (latent_params_get_spec (params, i)->name, name))
      spec = latent_params_get_spec (params, i);
  g_ascii_formatd (min, sizeof min, "%.17g", spec->min);
  g_ascii_formatd (max, sizeof max, "%.17g", spec->max);
  if (spec->type == LATENT_PARAM_INT)
    g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                 _("%s: option “%s”: “%s” is not a whole number from %s to %s"),
                 dataset, name, value, min, max);
  else
    g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                 _("%s: option “%s”: “%s” is not a number from %s to %s"),
                 dataset, name, value, min, max);
  return FALSE;
}

/* "n=100,seed=3" into @params; bit i of @given says whether the i-th
 * option was given. */
static gboolean
parse_options (const char    *dataset,
               const char    *text,
               LatentParams  *params,
               guint64       *given,
               GError       **error)
{
  g_auto(GStrv) items = NULL;

  if (given != NULL)
    *given = 0;
  if (text == NULL || text[0] == '\0')
    return TRUE;

  items = g_strsplit (text, ",", -1);
  for (guint i = 0; items[i] != NULL; i++)
    {
      g_autofree char *key = NULL;
      const char *value;
      char *eq;

      g_strstrip (items[i]);
      if (items[i][0] == '\0')
        continue;
      eq = strchr (items[i], '=');
      key = g_strstrip (g_strndup (items[i], eq ? (gsize) (eq - items[i]) : strlen (items[i])));
      value = eq ? g_strstrip (eq + 1) : NULL;

      if (!latent_params_has (params, key))
        {
          g_autoptr(GString) known = g_string_new (NULL);
          for (guint j = 0; j < latent_params_get_n_specs (params); j++)
            g_string_append_printf (known, "%s%s", j == 0 ? "" : ", ",
                                    latent_params_get_spec (params, j)->name);
          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                       _("%s: unknown option “%s” (known: %s)"), dataset, key,
                       known->len ? known->str : _("none"));
          return FALSE;
        }
      if (value == NULL || value[0] == '\0')
        {
          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                       _("%s: option “%s” needs a value (%s=…)"), dataset, key, key);
          return FALSE;
        }
      if (!set_option (dataset, params, key, value, error))
        return FALSE;
      for (guint j = 0; given != NULL && j < latent_params_get_n_specs (params); j++)
        if (g_str_equal (latent_params_get_spec (params, j)->name, key))
          *given |= G_GUINT64_CONSTANT (1) << j;
    }
  return TRUE;
}

/* The files' one option: how many of their first rows to keep (checked
 * against the rows there are). No window shows it. */
static const LatentParamSpec head_specs[] = {
  { .name = "n", .type = LATENT_PARAM_INT,
    .min = 0, .max = (double) LATENT_DATASET_MAX_VALUES, .default_value = 0 },
};

/* Built-ins -------------------------------------------------------------- */

/* The first @n rows, with everything that describes them; all of them
 * when @n was not given. */
static LatentDataset *
dataset_head (LatentDataset  *full,
              LatentParams   *options,
              guint64         given,
              const char     *what,
              GError        **error)
{
  g_autoptr(LatentDataset) head = NULL;
  guint rows = latent_dataset_get_n_rows (full);
  guint cols = latent_dataset_get_n_cols (full);
  gint64 n = latent_params_get_int (options, "n");
  guint width, height, channels;
  gboolean single;

  if (!(given & 1) || n == rows)
    return g_object_ref (full);
  if (n == 0 || n > rows)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                   _("%s: n (%llu) must be between 1 and the %u rows available"),
                   what, (unsigned long long) n, rows);
      return NULL;
    }

  head = latent_dataset_new (latent_dataset_get_name (full), n, cols, error);
  if (head == NULL)
    return NULL;
  memcpy (latent_dataset_get_data (head), latent_dataset_get_data (full),
          sizeof (float) * n * cols);
  latent_dataset_set_source (head, latent_dataset_get_source (full));

  if (latent_dataset_get_column_name (full, 0) != NULL)
    {
      g_auto(GStrv) names = g_new0 (char *, cols + 1);
      for (guint j = 0; j < cols; j++)
        names[j] = g_strdup (latent_dataset_get_column_name (full, j));
      latent_dataset_set_column_names (head, names);
    }
  if (latent_dataset_has_labels (full))
    {
      guint n_classes = latent_dataset_get_n_classes (full);
      g_auto(GStrv) names = NULL;

      if (latent_dataset_get_class_name (full, 0) != NULL)
        {
          names = g_new0 (char *, n_classes + 1);
          for (guint c = 0; c < n_classes; c++)
            names[c] = g_strdup (latent_dataset_get_class_name (full, c));
        }
      latent_dataset_set_labels (head, latent_dataset_get_labels (full), n_classes, names);
    }
  if (latent_dataset_get_image_shape (full, &width, &height, &channels, &single) && !single)
    latent_dataset_set_image_shape (head, width, height, channels, FALSE);

  return g_steal_pointer (&head);
}

static LatentDataset *
load_iris (const char  *options,
           GError     **error)
{
  g_autoptr(LatentParams) opts = latent_params_new (head_specs, G_N_ELEMENTS (head_specs));
  g_autoptr(LatentDataset) dataset = NULL;
  g_autofree char *path = NULL;
  guint64 given;

  if (!parse_options ("iris", options, opts, &given, error))
    return NULL;
  path = latent_catalog_find_data_file ("iris.csv");
  if (path == NULL)
    {
      g_set_error_literal (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_IO,
                           _("iris: the data file iris.csv was not found "
                             "(set LATENT_DATA_DIR to the folder holding it)"));
      return NULL;
    }
  dataset = latent_csv_load (path, NULL, error);
  if (dataset == NULL)
    return NULL;
  latent_dataset_set_name (dataset, "iris");
  return dataset_head (dataset, opts, given, "iris", error);
}

static LatentDataset *
load_fashion_mnist (const char  *name,
                    const char  *prefix,
                    const char  *options,
                    GError     **error)
{
  g_autoptr(LatentParams) opts = latent_params_new (head_specs, G_N_ELEMENTS (head_specs));
  g_autoptr(LatentDataset) dataset = NULL;
  g_autofree char *images_stem = g_strconcat (prefix, "-images-idx3-ubyte", NULL);
  g_autofree char *labels_stem = g_strconcat (prefix, "-labels-idx1-ubyte", NULL);
  g_autofree char *images = NULL;
  g_autofree char *labels = NULL;
  const char *dir;
  guint64 given;

  if (!parse_options (name, options, opts, &given, error))
    return NULL;

  dir = latent_catalog_fashion_mnist_dir ();
  if (dir != NULL)
    {
      images = find_with_gz (dir, images_stem);
      labels = find_with_gz (dir, labels_stem);
    }
  if (images == NULL || labels == NULL)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_IO,
                   _("%s: not installed (install the Debian package dataset-fashion-mnist, "
                     "or set LATENT_FASHION_MNIST_DIR to a folder holding %s.gz and %s.gz)"),
                   name, images_stem, labels_stem);
      return NULL;
    }

  dataset = latent_idx_load (images, labels, error);
  if (dataset == NULL)
    return NULL;
  latent_dataset_set_name (dataset, name);

  name_fashion_mnist_classes (dataset);
  return dataset_head (dataset, opts, given, name, error);
}

/* Blobs, moons, rings or the test pattern, their options held to the generator's own specs. */
static LatentDataset *
load_synthetic (const char  *name,
                const char  *options,
                GError     **error)
{
  g_autoptr(LatentParams) params = NULL;
  const LatentParamSpec *specs;
  guint n_specs;

  specs = latent_synthetic_get_specs (name, &n_specs);
  g_return_val_if_fail (specs != NULL, NULL);
  params = latent_params_new (specs, n_specs);
  if (!parse_options (name, options, params, NULL, error))
    return NULL;
  return latent_synthetic_generate (name, params, error);
}

static const char * const builtin_names[] = {
  "iris", "fashion-mnist", "fashion-mnist-test", "blobs", "moons", "rings", "pattern",
};

static LatentDataset *
load_builtin (const char  *name,
              const char  *options,
              GError     **error)
{
  if (strcmp (name, "iris") == 0)
    return load_iris (options, error);
  if (strcmp (name, "fashion-mnist") == 0)
    return load_fashion_mnist (name, "train", options, error);
  if (strcmp (name, "fashion-mnist-test") == 0)
    return load_fashion_mnist (name, "t10k", options, error);
  return load_synthetic (name, options, error);
}

/* Public ----------------------------------------------------------------- */

static void
catalog_entry_free (gpointer data)
{
  LatentCatalogEntry *entry = data;

  g_free (entry->path);
  g_free (entry);
}

static void
add_entry (GPtrArray  *entries,
           const char *name,
           const char *description,
           gboolean    available,
           char       *path)
{
  LatentCatalogEntry *entry = g_new0 (LatentCatalogEntry, 1);

  entry->name = name;
  entry->description = description;
  entry->available = available;
  entry->path = path;
  g_ptr_array_add (entries, entry);
}

GPtrArray *
latent_catalog_list (void)
{
  GPtrArray *entries = g_ptr_array_new_with_free_func (catalog_entry_free);
  const char *fashion = latent_catalog_fashion_mnist_dir ();
  char *iris = latent_catalog_find_data_file ("iris.csv");
  char *train = fashion ? find_with_gz (fashion, "train-images-idx3-ubyte") : NULL;
  char *test = fashion ? find_with_gz (fashion, "t10k-images-idx3-ubyte") : NULL;

  add_entry (entries, "iris",
             N_("Fisher’s iris flowers: 150 samples, 4 measurements, 3 species"),
             iris != NULL, iris);
  add_entry (entries, "fashion-mnist",
             N_("Fashion-MNIST training set: 60,000 clothing images of 28 × 28 pixels, 10 classes"),
             train != NULL, train);
  add_entry (entries, "fashion-mnist-test",
             N_("Fashion-MNIST test set: 10,000 clothing images of 28 × 28 pixels, 10 classes"),
             test != NULL, test);
  add_entry (entries, "blobs",
             N_("Gaussian blobs with random covariances (options: n, k, dims, seed)"),
             TRUE, NULL);
  add_entry (entries, "moons",
             N_("Two interleaving half circles (options: n, noise, seed)"),
             TRUE, NULL);
  add_entry (entries, "rings",
             N_("Concentric rings (options: n, rings, noise, seed)"),
             TRUE, NULL);
  add_entry (entries, "pattern",
             N_("A test image for the filters: a zone plate, bars and shapes (options: width, height, noise, seed)"),
             TRUE, NULL);
  return entries;
}

/* The built-in that @spec names ("rings" of "rings:n=9"), or NULL. */
static const char *
builtin_of (const char *spec)
{
  gsize length = strcspn (spec, ":");

  for (guint i = 0; i < G_N_ELEMENTS (builtin_names); i++)
    if (strlen (builtin_names[i]) == length && strncmp (spec, builtin_names[i], length) == 0)
      return builtin_names[i];
  return NULL;
}

gboolean
latent_catalog_builtin_gives_rows (const char *spec)
{
  const char *name = builtin_of (spec);

  return name != NULL && strcmp (name, "pattern") != 0;
}

/* A spec's options: after the path's last ':' not escaped, separated by
 * ',' not escaped; a backslash escapes the character after it, so that
 * any array or column name can be given (latent_catalog_escape ()). */
static const char *
options_colon (const char *spec)
{
  const char *colon = NULL;

  for (const char *p = spec; *p; p++)
    if (*p == '\\' && p[1] != '\0')
      p++;
    else if (*p == ':')
      colon = p;
  return colon;
}

static GStrv
split_options (const char *options)
{
  g_autoptr(GStrvBuilder) pairs = g_strv_builder_new ();
  g_autoptr(GString) pair = g_string_new (NULL);

  if (options == NULL || *options == '\0')
    return g_strv_builder_end (pairs);
  for (const char *p = options; ; p++)
    {
      if (*p == '\\' && p[1] != '\0')
        g_string_append_c (pair, *++p);
      else if (*p == ',' || *p == '\0')
        {
          g_strv_builder_add (pairs, pair->str);
          g_string_truncate (pair, 0);
          if (*p == '\0')
            break;
        }
      else
        g_string_append_c (pair, *p);
    }
  return g_strv_builder_end (pairs);
}

char *
latent_catalog_spec_file (const char *spec)
{
  const char *colon;

  g_return_val_if_fail (spec != NULL, NULL);

  if (g_file_test (spec, G_FILE_TEST_EXISTS) || (colon = options_colon (spec)) == NULL)
    return g_strdup (spec);
  return g_strndup (spec, colon - spec);
}

char *
latent_catalog_escape (const char *value)
{
  GString *escaped = g_string_new (NULL);

  g_return_val_if_fail (value != NULL, NULL);

  for (const char *p = value; *p; p++)
    {
      if (*p == '\\' || *p == ',' || *p == ':')
        g_string_append_c (escaped, '\\');
      g_string_append_c (escaped, *p);
    }
  return g_string_free (escaped, FALSE);
}

/* "photos/:size=32x32,colour=grey": a folder of images, at a size and in
 * grey or colour. */
static LatentDataset *
load_folder (const char  *folder,
             const char  *options,
             const char  *labels_path,
             GError     **error)
{
  g_auto(GStrv) pairs = split_options (options);
  g_autoptr(LatentDataset) dataset = NULL;
  LatentImageFolderColour colour = LATENT_IMAGE_FOLDER_AUTO;
  guint64 width = 0, height = 0;

  for (guint i = 0; pairs[i] != NULL && pairs[i][0] != '\0'; i++)
    {
      g_auto(GStrv) size = NULL;

      if (g_str_has_prefix (pairs[i], "size=")
          && g_strv_length (size = g_strsplit (pairs[i] + 5, "x", 3)) == 2
          && g_ascii_string_to_unsigned (size[0], 10, 1, LATENT_PNG_MAX_SIDE, &width, NULL)
          && g_ascii_string_to_unsigned (size[1], 10, 1, LATENT_PNG_MAX_SIDE, &height, NULL))
        continue;
      if (g_str_equal (pairs[i], "colour=grey") || g_str_equal (pairs[i], "color=grey"))
        colour = LATENT_IMAGE_FOLDER_GREY;
      else if (g_str_equal (pairs[i], "colour=rgb") || g_str_equal (pairs[i], "color=rgb"))
        colour = LATENT_IMAGE_FOLDER_COLOUR;
      else
        {
          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                       _("%s: option “%s”: a folder of images takes size=WIDTHxHEIGHT (1 to %u each) "
                         "and colour=grey or colour=rgb"), folder, pairs[i], LATENT_PNG_MAX_SIDE);
          return NULL;
        }
    }
  if ((width == 0) != (height == 0))
    width = height = 0;
  dataset = latent_image_folder_load (folder, width, height, colour, error);
  if (dataset == NULL || (labels_path != NULL && !attach_labels (dataset, labels_path, error)))
    return NULL;
  return g_steal_pointer (&dataset);
}

static gboolean
is_arff (const char *path)
{
  g_autofree char *lower = g_ascii_strdown (path, -1);

  return g_str_has_suffix (lower, ".arff");
}

/* "table.csv:label=species,ignore=id,missing=mean,text=onehot,standardise":
 * a table read with the import choices (latent-csv.h). */
static LatentDataset *
load_table_spec (const char       *path,
                 const char       *options,
                 const char       *labels_path,
                 LatentCsvReport  *report,
                 GError          **error)
{
  g_auto(GStrv) pairs = split_options (options);
  g_autoptr(GPtrArray) ignore = g_ptr_array_new ();
  g_autoptr(LatentDataset) dataset = NULL;
  LatentCsvOptions choices = { .report = report };

  for (guint i = 0; pairs[i] != NULL; i++)
    {
      const char *p = pairs[i];

      if (g_str_has_prefix (p, "label=") && p[6] != '\0')
        choices.label_column = p + 6;
      else if (g_str_has_prefix (p, "ignore=") && p[7] != '\0')
        g_ptr_array_add (ignore, (gpointer) (p + 7));
      else if (g_str_equal (p, "missing=drop"))
        choices.missing = LATENT_CSV_MISSING_DROP;
      else if (g_str_equal (p, "missing=mean"))
        choices.missing = LATENT_CSV_MISSING_MEAN;
      else if (g_str_equal (p, "missing=refuse"))
        choices.missing = LATENT_CSV_MISSING_REFUSE;
      else if (g_str_equal (p, "text=missing"))
        choices.text = LATENT_CSV_TEXT_MISSING;
      else if (g_str_equal (p, "text=onehot"))
        choices.text = LATENT_CSV_TEXT_ONE_HOT;
      else if (g_str_equal (p, "text=refuse"))
        choices.text = LATENT_CSV_TEXT_REFUSE;
      else if (g_str_equal (p, "standardise") || g_str_equal (p, "standardize"))
        choices.standardise = TRUE;
      else
        {
          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                       _("%s: option “%s”: a table takes label=COLUMN, ignore=COLUMN, missing=drop|mean|refuse, "
                         "text=missing|onehot|refuse and standardise"), path, p);
          return NULL;
        }
    }
  if (ignore->len > 0)
    {
      g_ptr_array_add (ignore, NULL);
      choices.ignore = (const char * const *) ignore->pdata;
    }
  /* ARFF's nominal attributes are one-hot already: text does not apply. */
  if (is_arff (path))
    dataset = latent_arff_load (path, &choices, error);
  else
    dataset = latent_csv_load (path, &choices, error);
  if (dataset == NULL || (labels_path != NULL && !attach_labels (dataset, labels_path, error)))
    return NULL;
  return g_steal_pointer (&dataset);
}

static gboolean
is_table (const char *path)
{
  g_autofree char *lower = g_ascii_strdown (path, -1);

  return g_str_has_suffix (lower, ".csv") || g_str_has_suffix (lower, ".tsv") || g_str_has_suffix (lower, ".txt")
         || g_str_has_suffix (lower, ".arff");
}

LatentDataset *
latent_catalog_load_table (const char       *spec,
                           LatentCsvReport  *report,
                           GError          **error)
{
  const char *colon = options_colon (spec);
  g_autofree char *path = NULL;

  g_return_val_if_fail (spec != NULL, NULL);

  if (colon == NULL || g_file_test (spec, G_FILE_TEST_EXISTS))
    return load_table_spec (spec, "", NULL, report, error);
  path = g_strndup (spec, colon - spec);
  return load_table_spec (path, colon + 1, NULL, report, error);
}

/* Files of several named arrays, whose arrays a spec may choose. */
static gboolean
holds_arrays (const char *path)
{
  g_autofree char *lower = g_ascii_strdown (path, -1);

  return g_str_has_suffix (lower, ".npz") || g_str_has_suffix (lower, ".h5") || g_str_has_suffix (lower, ".hdf5")
         || g_str_has_suffix (lower, ".he5") || g_str_has_suffix (lower, ".hdf");
}

static LatentDataset *
load_arrays (const char  *path,
             const char  *data,
             const char  *labels,
             GError     **error)
{
  guchar head[8];
  gsize got = 0;

  if (!sniff (path, head, sizeof head, &got, error))
    return NULL;
  if (is_hdf5 (head, got))
    return latent_hdf5_load (path, data, labels, error);
  return latent_npz_load (path, data, labels, error);
}

GStrv
latent_catalog_list_arrays (const char  *path,
                            GError     **error)
{
  guchar head[8];
  gsize got = 0;

  g_return_val_if_fail (path != NULL, NULL);

  if (!sniff (path, head, sizeof head, &got, error))
    return NULL;
  if (is_hdf5 (head, got))
    return latent_hdf5_list (path, error);
  return latent_npz_list (path, error);
}

/* "mnist.npz:x=x_train,y=y_train", "cells.h5:x=train/images": a file's
 * arrays, chosen. */
static LatentDataset *
load_arrays_spec (const char  *path,
                  const char  *options,
                  const char  *labels_path,
                  GError     **error)
{
  g_auto(GStrv) pairs = split_options (options);
  g_autoptr(LatentDataset) dataset = NULL;
  const char *data = NULL, *labels = NULL;

  for (guint i = 0; pairs[i] != NULL; i++)
    {
      const char *eq = strchr (pairs[i], '=');

      if (eq != NULL && eq - pairs[i] == 1 && pairs[i][0] == 'x' && eq[1] != '\0')
        data = eq + 1;
      else if (eq != NULL && eq - pairs[i] == 1 && pairs[i][0] == 'y')
        labels = eq + 1;   /* "y=": none */
      else
        {
          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                       _("%s: option “%s”: an archive takes x=ARRAY (the data) and y=ARRAY (the labels)"),
                       path, pairs[i]);
          return NULL;
        }
    }
  dataset = load_arrays (path, data, labels, error);
  if (dataset == NULL || (labels_path != NULL && !attach_labels (dataset, labels_path, error)))
    return NULL;
  return g_steal_pointer (&dataset);
}

LatentDataset *
latent_catalog_load (const char  *spec,
                     const char  *labels_path,
                     GError     **error)
{
  g_autoptr(LatentDataset) dataset = NULL;
  const char *name;
  const char *colon;

  g_return_val_if_fail (spec != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (spec[0] == '\0')
    {
      g_set_error_literal (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                           _("no dataset given (a file, or one of iris, fashion-mnist, fashion-mnist-test, "
                             "blobs, moons, rings, pattern)"));
      return NULL;
    }

  /* A built-in name wins over a file of the same name; "./iris" is the file. */
  colon = strchr (spec, ':');
  if ((name = builtin_of (spec)) != NULL)
    {
      dataset = load_builtin (name, colon ? colon + 1 : NULL, error);
      if (dataset == NULL)
        return NULL;
      if (labels_path != NULL && !attach_labels (dataset, labels_path, error))
        return NULL;
      return g_steal_pointer (&dataset);
    }

  if (g_file_test (spec, G_FILE_TEST_IS_DIR))
    return load_folder (spec, NULL, labels_path, error);
  /* A file's arrays, or a folder's images, chosen after its path. */
  colon = options_colon (spec);
  if (colon != NULL && !g_file_test (spec, G_FILE_TEST_EXISTS))
    {
      g_autofree char *path = g_strndup (spec, colon - spec);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        return load_folder (path, colon + 1, labels_path, error);
      if (holds_arrays (path))
        return load_arrays_spec (path, colon + 1, labels_path, error);
      if (is_table (path))
        return load_table_spec (path, colon + 1, labels_path, NULL, error);
    }
  return load_file (spec, labels_path, error);
}
