/* latent-arrays.c — choosing a file's arrays by their names; classes from
 * label values
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-arrays"

#include "latent-arrays.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef enum { ROLE_OTHER, ROLE_DATA, ROLE_LABELS } Role;
typedef enum { SPLIT_NONE, SPLIT_TRAIN, SPLIT_TEST } Split;

/* The separators of a name's words: x_train, train-images, /train/images. */
#define SEPARATORS "_-/"

/* What a name says an array is: x_train is data of the training split,
 * train/labels labels of it, y labels; any other word makes it neither. */
static Role
role_of (const char *name,
         Split      *split)
{
  static const char * const data_words[] = { "x", "data", "features", "images", "inputs", "samples", NULL };
  static const char * const label_words[] = { "y", "labels", "label", "target", "targets", "classes", NULL };
  g_autofree char *lower = g_ascii_strdown (name, -1);
  g_auto(GStrv) words = g_strsplit_set (lower, SEPARATORS, -1);
  Role role = ROLE_OTHER;

  *split = SPLIT_NONE;
  for (guint i = 0; words[i] != NULL; i++)
    {
      if (words[i][0] == '\0')
        continue;
      if (g_str_equal (words[i], "train"))
        *split = SPLIT_TRAIN;
      else if (g_str_equal (words[i], "test"))
        *split = SPLIT_TEST;
      else if (g_strv_contains (data_words, words[i]))
        role = ROLE_DATA;
      else if (g_strv_contains (label_words, words[i]))
        role = ROLE_LABELS;
      else
        return ROLE_OTHER;
    }
  return role;
}

/* The one array of @role whose split is @split (or any but test, for
 * SPLIT_NONE, the training split winning): its index, −1 for none, −2 for
 * several. */
static gint
pick (const char * const *names,
      guint               n_names,
      Role                role,
      Split               split)
{
  gint found = -1, in_train = -1, n_train = 0;

  for (guint i = 0; i < n_names; i++)
    {
      Split s;

      if (role_of (names[i], &s) != role || (split == SPLIT_NONE ? s == SPLIT_TEST : s != split))
        continue;
      if (s == SPLIT_TRAIN)
        in_train = i, n_train++;
      found = found == -1 ? (gint) i : -2;
    }
  if (found == -2 && split == SPLIT_NONE && n_train == 1)
    return in_train;
  return found;
}

static gint
find (const char * const *names,
      guint               n_names,
      const char         *name)
{
  for (guint i = 0; i < n_names; i++)
    if (g_str_equal (names[i], name))
      return i;
  return -1;
}

/* @name with its train word turned to test (x_train → x_test,
 * /train/images → /test/images), its case kept. */
static char *
test_name_of (const char *name)
{
  g_autoptr(GString) text = g_string_new (NULL);
  const char *p = name;

  while (*p != '\0')
    {
      gsize n = strcspn (p, SEPARATORS);

      if (n == 5 && g_ascii_strncasecmp (p, "train", 5) == 0)
        g_string_append (text, g_ascii_isupper (p[0]) ? (g_ascii_isupper (p[1]) ? "TEST" : "Test") : "test");
      else
        g_string_append_len (text, p, n);
      p += n;
      if (*p != '\0')
        g_string_append_c (text, *p++);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static char *
list_of (const char * const *names,
         guint               n_names)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < n_names; i++)
    g_string_append_printf (text, "%s%s", i ? ", " : "", names[i]);
  return g_string_free (text, FALSE);
}

gboolean
latent_arrays_choose (const char          *what,
                      const char * const  *names,
                      guint                n_names,
                      const char          *data_name,
                      const char          *labels_name,
                      LatentArrayChoice   *choice,
                      GError             **error)
{
  Split split = SPLIT_NONE;
  gint data, labels = -1;

  g_return_val_if_fail (what != NULL && names != NULL && choice != NULL, FALSE);

  *choice = (LatentArrayChoice) { -1, -1, -1, -1 };
  if (data_name != NULL)
    data = find (names, n_names, data_name);
  else if (n_names == 1)
    data = 0;
  else if ((data = pick (names, n_names, ROLE_DATA, SPLIT_NONE)) == -1)
    /* Nothing named as data: the one array that is named as nothing. */
    for (guint i = 0; i < n_names; i++)
      {
        Split s;

        if (role_of (names[i], &s) == ROLE_OTHER)
          data = data == -1 ? (gint) i : -2;
      }
  if (data < 0)
    {
      g_autofree char *list = list_of (names, n_names);

      if (data_name != NULL)
        g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                     _("%s: no array “%s” (it holds %s)"), what, data_name, list);
      else
        g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_AMBIGUOUS,
                     _("%s holds several arrays (%s): choose the data"), what, list);
      return FALSE;
    }
  role_of (names[data], &split);

  if (labels_name != NULL && labels_name[0] != '\0')
    {
      if ((labels = find (names, n_names, labels_name)) < 0)
        {
          g_autofree char *list = list_of (names, n_names);

          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                       _("%s: no array “%s” (it holds %s)"), what, labels_name, list);
          return FALSE;
        }
    }
  else if (labels_name == NULL && (data_name == NULL || role_of (data_name, &split) != ROLE_OTHER))
    {
      labels = pick (names, n_names, ROLE_LABELS, split);
      if (labels == -2)
        {
          g_autofree char *list = list_of (names, n_names);

          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_AMBIGUOUS,
                       _("%s holds several arrays of labels (%s): choose one"), what, list);
          return FALSE;
        }
    }
  choice->data = data;
  choice->labels = labels == data ? -1 : labels;

  /* x_train's test data: x_test, with y_test. */
  if (split == SPLIT_TRAIN)
    {
      g_autofree char *test_data = test_name_of (names[data]);

      choice->test_data = find (names, n_names, test_data);
      if (choice->test_data >= 0 && choice->labels >= 0)
        {
          g_autofree char *test_labels = test_name_of (names[choice->labels]);

          /* Labels with no train in their name (y beside x_train) are the
           * training rows' only: the test data goes without. */
          if (!g_str_equal (test_labels, names[choice->labels]))
            choice->test_labels = find (names, n_names, test_labels);
        }
    }
  return TRUE;
}

char *
latent_arrays_describe_shape (const guint64 *dims,
                              guint          ndim)
{
  GString *text = g_string_new (ndim == 0 ? "()" : NULL);

  for (guint i = 0; i < ndim; i++)
    g_string_append_printf (text, "%s%" G_GUINT64_FORMAT, i ? " × " : "", dims[i]);
  return g_string_free (text, FALSE);
}

gboolean
latent_arrays_rows_of (const char       *what,
                       const guint64    *dims,
                       guint             ndim,
                       guint64           max_values,
                       LatentArrayRows  *rows,
                       GError          **error)
{
  g_autofree char *shape = latent_arrays_describe_shape (dims, ndim);
  guint64 count = 1;

  *rows = (LatentArrayRows) { 0 };
  if (ndim == 0 || ndim > 4)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_UNSUPPORTED,
                   _("%s: an array of %u dimensions (%s): rows are read from 1 to 4 dimensions"), what, ndim, shape);
      return FALSE;
    }
  for (guint k = 0; k < ndim; k++)
    if (!g_uint64_checked_mul (&count, count, dims[k]))
      count = G_MAXUINT64;
  rows->rows = dims[0];
  rows->cols = dims[0] ? count / dims[0] : 0;
  if (ndim == 3)
    rows->height = dims[1], rows->width = dims[2], rows->channels = 1;
  else if (ndim == 4)
    {
      if (dims[3] == 1 || dims[3] == 3 || dims[3] == 4)
        rows->height = dims[1], rows->width = dims[2], rows->channels = dims[3];
      else if (dims[1] == 1 || dims[1] == 3)
        rows->height = dims[2], rows->width = dims[3], rows->channels = dims[1], rows->channels_first = TRUE;
      else
        {
          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_UNSUPPORTED,
                       _("%s: a 4-dimensional array (%s) is read as images of 1, 3 or 4 channels, "
                         "last or first after the images; this one has neither"), what, shape);
          return FALSE;
        }
    }
  if (count == 0)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_EMPTY, _("%s: no data (dimensions %s)"), what, shape);
      return FALSE;
    }
  /* Rows and columns are counted in 32 bits even where the values are not. */
  if (count > max_values || rows->rows > G_MAXUINT || rows->cols > G_MAXUINT)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
                   _("%s: %s values is above the limit of %llu values"), what, shape,
                   (unsigned long long) MIN (max_values, (guint64) G_MAXUINT * G_MAXUINT));
      return FALSE;
    }
  return TRUE;
}

static int
compare_gint64 (gconstpointer a,
                gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;
  return (x > y) - (x < y);
}

gint32 *
latent_labels_from_numbers (const double  *values,
                            gsize          n,
                            const char    *what,
                            guint         *n_classes,
                            GStrv         *class_names,
                            GError       **error)
{
  g_autofree gint64 *whole = g_try_new (gint64, MAX (n, 1));
  g_autofree gint64 *sorted = NULL;
  g_autofree gint32 *labels = g_try_new (gint32, MAX (n, 1));
  gsize n_distinct = 0;

  g_return_val_if_fail (n_classes != NULL, NULL);

  if (whole == NULL || labels == NULL)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
                   _("%s: not enough memory for %llu labels"), what, (unsigned long long) n);
      return NULL;
    }
  for (gsize i = 0; i < n; i++)
    {
      if (!isfinite (values[i]) || values[i] != floor (values[i]) || fabs (values[i]) > 9007199254740992.0)
        {
          g_autofree char *where = g_strdup_printf ("[%" G_GSIZE_FORMAT "]", i);

          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                       _("%s: element %s: %g is not a class (labels are whole numbers or text)"),
                       what, where, values[i]);
          return NULL;
        }
      whole[i] = (gint64) values[i];
    }
  sorted = g_memdup2 (whole, sizeof (gint64) * n);
  qsort (sorted, n, sizeof (gint64), compare_gint64);
  for (gsize i = 0; i < n; i++)
    if (n_distinct == 0 || sorted[n_distinct - 1] != sorted[i])
      sorted[n_distinct++] = sorted[i];
  for (gsize i = 0; i < n; i++)
    labels[i] = (gint64 *) bsearch (&whole[i], sorted, n_distinct, sizeof (gint64), compare_gint64) - sorted;
  *n_classes = n_distinct;
  if (class_names)
    {
      *class_names = g_new0 (char *, n_distinct + 1);
      for (gsize i = 0; i < n_distinct; i++)
        (*class_names)[i] = g_strdup_printf ("%" G_GINT64_FORMAT, sorted[i]);
    }
  return g_steal_pointer (&labels);
}

gint32 *
latent_labels_from_texts (char * const *texts,
                          gsize         n,
                          guint        *n_classes,
                          GStrv        *class_names)
{
  g_autoptr(GHashTable) index = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  gint32 *labels = g_new (gint32, MAX (n, 1));

  g_return_val_if_fail (n_classes != NULL, NULL);

  for (gsize i = 0; i < n; i++)
    {
      gpointer found;

      if (g_hash_table_lookup_extended (index, texts[i], NULL, &found))
        labels[i] = GPOINTER_TO_INT (found);
      else
        {
          labels[i] = names->len;
          g_hash_table_insert (index, texts[i], GINT_TO_POINTER (names->len));
          g_ptr_array_add (names, g_strdup (texts[i]));
        }
    }
  *n_classes = names->len;
  g_ptr_array_add (names, NULL);
  if (class_names)
    *class_names = (GStrv) g_ptr_array_steal (names, NULL);
  else
    g_strfreev ((GStrv) g_ptr_array_steal (names, NULL));
  return labels;
}
