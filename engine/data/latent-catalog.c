/* latent-catalog.c — named datasets, and loading any dataset from a spec or a path
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-catalog"

#include "latent-catalog.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <sys/stat.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "latent-csv.h"
#include "latent-idx.h"
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
  struct stat st;
  FILE *fp;

  if (g_stat (path, &st) != 0 || S_ISDIR (st.st_mode))
    {
      int saved = S_ISDIR (st.st_mode) ? EISDIR : errno;
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_IO,
                   "%s: %s", path, g_strerror (saved));
      return FALSE;
    }
  fp = g_fopen (path, "rb");
  if (fp == NULL)
    {
      int saved = errno;
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_IO,
                   "%s: %s", path, g_strerror (saved));
      return FALSE;
    }
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
is_png (const guchar *head,
        gsize         got)
{
  return got >= 8 && memcmp (head, "\x89PNG\r\n\x1a\n", 8) == 0;
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
  guchar head[4];
  gsize got = 0;

  if (!sniff (labels_path, head, sizeof head, &got, error))
    return FALSE;

  if (is_gzip (head, got) || is_idx (head, got))
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
  else if (has_extension (lower, ".csv") || has_extension (lower, ".tsv") ||
           has_extension (lower, ".txt"))
    dataset = latent_csv_load (path, NULL, error);
  else if (has_extension (lower, ".png"))
    dataset = latent_png_load (path, error);
  else if (strstr (lower, "idx") != NULL)
    dataset = latent_idx_load (path, NULL, error);
  else
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_UNSUPPORTED,
                   _("%s: unknown file format (Latent reads CSV, TSV, IDX and PNG files)"), path);
      return NULL;
    }

  if (dataset == NULL)
    return NULL;
  if (labels_path != NULL && !attach_labels (dataset, labels_path, error))
    return NULL;
  return g_steal_pointer (&dataset);
}

/* Options ---------------------------------------------------------------- */

typedef struct {
  const char *key;
  gboolean    is_double;
  guint64     max;        /* for whole numbers */
  guint64     u;
  double      d;
  gboolean    set;
} Option;

static Option *
find_option (Option     *options,
             const char *key)
{
  for (Option *o = options; o->key != NULL; o++)
    if (strcmp (o->key, key) == 0)
      return o;
  return NULL;
}

/* "n=100,seed=3" into @options (terminated by a NULL key). */
static gboolean
parse_options (const char  *dataset,
               const char  *text,
               Option      *options,
               GError     **error)
{
  g_auto(GStrv) items = NULL;

  if (text == NULL || text[0] == '\0')
    return TRUE;

  items = g_strsplit (text, ",", -1);
  for (guint i = 0; items[i] != NULL; i++)
    {
      g_autofree char *key = NULL;
      const char *value;
      char *eq;
      Option *o;

      g_strstrip (items[i]);
      if (items[i][0] == '\0')
        continue;
      eq = strchr (items[i], '=');
      key = g_strstrip (g_strndup (items[i], eq ? (gsize) (eq - items[i]) : strlen (items[i])));
      value = eq ? g_strstrip (eq + 1) : NULL;

      o = find_option (options, key);
      if (o == NULL)
        {
          g_autoptr(GString) known = g_string_new (NULL);
          for (Option *k = options; k->key != NULL; k++)
            g_string_append_printf (known, "%s%s", k == options ? "" : ", ", k->key);
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

      if (o->is_double)
        {
          char *end = NULL;
          double d = g_ascii_strtod (value, &end);

          if (end == value || *end != '\0' || !isfinite (d))
            {
              g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                           _("%s: option “%s”: “%s” is not a number"), dataset, key, value);
              return FALSE;
            }
          o->d = d;
        }
      else
        {
          g_autoptr(GError) local_error = NULL;

          if (!g_ascii_string_to_unsigned (value, 10, 0, o->max, &o->u, &local_error))
            {
              g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                           _("%s: option “%s”: “%s” is not a whole number from 0 to %llu"),
                           dataset, key, value, (unsigned long long) o->max);
              return FALSE;
            }
        }
      o->set = TRUE;
    }
  return TRUE;
}

#define OPT_UINT(name, def)   { name, FALSE, G_MAXUINT, def, 0, FALSE }
#define OPT_SEED(def)         { "seed", FALSE, G_MAXUINT64, def, 0, FALSE }
#define OPT_DOUBLE(name, def) { name, TRUE, 0, 0, def, FALSE }
#define OPT_END               { NULL, FALSE, 0, 0, 0, FALSE }

/* Built-ins -------------------------------------------------------------- */

/* The first @n rows, with everything that describes them. */
static LatentDataset *
dataset_head (LatentDataset  *full,
              const Option   *n,
              const char     *what,
              GError        **error)
{
  g_autoptr(LatentDataset) head = NULL;
  guint rows = latent_dataset_get_n_rows (full);
  guint cols = latent_dataset_get_n_cols (full);
  guint width, height, channels;
  gboolean single;

  if (!n->set || n->u == rows)
    return g_object_ref (full);
  if (n->u == 0 || n->u > rows)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                   _("%s: n (%llu) must be between 1 and the %u rows available"),
                   what, (unsigned long long) n->u, rows);
      return NULL;
    }

  head = latent_dataset_new (latent_dataset_get_name (full), n->u, cols, error);
  if (head == NULL)
    return NULL;
  memcpy (latent_dataset_get_data (head), latent_dataset_get_data (full),
          sizeof (float) * n->u * cols);
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
  Option opts[] = { OPT_UINT ("n", 0), OPT_END };
  g_autoptr(LatentDataset) dataset = NULL;
  g_autofree char *path = NULL;

  if (!parse_options ("iris", options, opts, error))
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
  return dataset_head (dataset, &opts[0], "iris", error);
}

static LatentDataset *
load_fashion_mnist (const char  *name,
                    const char  *prefix,
                    const char  *options,
                    GError     **error)
{
  Option opts[] = { OPT_UINT ("n", 0), OPT_END };
  g_autoptr(LatentDataset) dataset = NULL;
  g_autofree char *images_stem = g_strconcat (prefix, "-images-idx3-ubyte", NULL);
  g_autofree char *labels_stem = g_strconcat (prefix, "-labels-idx1-ubyte", NULL);
  g_autofree char *images = NULL;
  g_autofree char *labels = NULL;
  g_autofree gint32 *copy = NULL;
  const char *dir;

  if (!parse_options (name, options, opts, error))
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

  /* set_labels() frees the old labels first, so hand it a copy. */
  if (latent_dataset_get_n_classes (dataset) <= 10)
    {
      copy = g_memdup2 (latent_dataset_get_labels (dataset),
                        sizeof (gint32) * latent_dataset_get_n_rows (dataset));
      latent_dataset_set_labels (dataset, copy, 10, (GStrv) fashion_mnist_classes);
    }
  return dataset_head (dataset, &opts[0], name, error);
}

static LatentDataset *
load_blobs (const char  *options,
            GError     **error)
{
  Option opts[] = { OPT_UINT ("n", 1500), OPT_UINT ("k", 3), OPT_UINT ("dims", 2), OPT_SEED (1), OPT_END };

  if (!parse_options ("blobs", options, opts, error))
    return NULL;
  return latent_synthetic_blobs (opts[0].u, opts[2].u, opts[1].u, opts[3].u, error);
}

static LatentDataset *
load_moons (const char  *options,
            GError     **error)
{
  Option opts[] = { OPT_UINT ("n", 1000), OPT_DOUBLE ("noise", 0.1), OPT_SEED (1), OPT_END };

  if (!parse_options ("moons", options, opts, error))
    return NULL;
  return latent_synthetic_moons (opts[0].u, opts[1].d, opts[2].u, error);
}

static LatentDataset *
load_rings (const char  *options,
            GError     **error)
{
  Option opts[] = { OPT_UINT ("n", 1000), OPT_UINT ("rings", 3), OPT_DOUBLE ("noise", 0.05),
                    OPT_SEED (1), OPT_END };

  if (!parse_options ("rings", options, opts, error))
    return NULL;
  return latent_synthetic_rings (opts[0].u, opts[1].u, opts[2].d, opts[3].u, error);
}

static const char * const builtin_names[] = {
  "iris", "fashion-mnist", "fashion-mnist-test", "blobs", "moons", "rings",
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
  if (strcmp (name, "blobs") == 0)
    return load_blobs (options, error);
  if (strcmp (name, "moons") == 0)
    return load_moons (options, error);
  if (strcmp (name, "rings") == 0)
    return load_rings (options, error);
  g_return_val_if_reached (NULL);
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
  return entries;
}

LatentDataset *
latent_catalog_load (const char  *spec,
                     const char  *labels_path,
                     GError     **error)
{
  g_autoptr(LatentDataset) dataset = NULL;
  g_autofree char *name = NULL;
  const char *colon;

  g_return_val_if_fail (spec != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (spec[0] == '\0')
    {
      g_set_error_literal (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                           _("no dataset given (a file, or one of iris, fashion-mnist, fashion-mnist-test, "
                             "blobs, moons, rings)"));
      return NULL;
    }

  /* A built-in name wins over a file of the same name; "./iris" is the file. */
  colon = strchr (spec, ':');
  name = colon ? g_strndup (spec, colon - spec) : g_strdup (spec);
  for (guint i = 0; i < G_N_ELEMENTS (builtin_names); i++)
    if (strcmp (name, builtin_names[i]) == 0)
      {
        dataset = load_builtin (name, colon ? colon + 1 : NULL, error);
        if (dataset == NULL)
          return NULL;
        if (labels_path != NULL && !attach_labels (dataset, labels_path, error))
          return NULL;
        return g_steal_pointer (&dataset);
      }

  return load_file (spec, labels_path, error);
}
