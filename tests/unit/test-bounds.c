/* test-bounds.c — every algorithm's max_int agrees with its check
 *
 * The window's spin buttons take their upper bounds from max_int, which
 * states in closed form what the check decides (k ≤ rows): here both are
 * asked, for every registered algorithm, every integer parameter, every
 * value of its choices, on data of several shapes. The bound b must be
 * taken and b + 1 refused, as the search over the check found before.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "latent-algorithm.h"
#include "latent-registry.h"
#include "latent-test-util.h"

static gboolean
takes (const LatentAlgorithm *algorithm,
       LatentDataset         *dataset,
       LatentParams          *params,
       const char            *name,
       gint64                 value)
{
  g_autoptr(LatentParams) probe = latent_params_copy (params);

  return latent_params_set_int (probe, name, value, NULL) &&
         latent_algorithm_check (algorithm, dataset, probe, NULL);
}

/* The bound of every integer parameter of @algorithm under @params. */
static void
assert_bounds (const LatentAlgorithm *algorithm,
               LatentDataset         *dataset,
               LatentParams          *params,
               const char            *setting)
{
  for (guint i = 0; i < algorithm->n_params; i++)
    {
      const LatentParamSpec *spec = &algorithm->params[i];
      gint64 lo = (gint64) ceil (spec->min), hi = (gint64) floor (spec->max), bound;

      if (spec->type != LATENT_PARAM_INT)
        continue;
      bound = latent_algorithm_max_int (algorithm, dataset, params, spec->name);
      g_test_message ("%s %s on %s (%s): %" G_GINT64_FORMAT, algorithm->id, spec->name,
                      latent_dataset_get_name (dataset), setting, bound);
      g_assert_cmpint (bound, >=, lo);
      g_assert_cmpint (bound, <=, hi);
      /* Refused at its least value for another reason: no bound to agree on. */
      if (!takes (algorithm, dataset, params, spec->name, lo))
        continue;
      if (!takes (algorithm, dataset, params, spec->name, bound))
        g_error ("%s: %s = %" G_GINT64_FORMAT " is the bound on %s (%s), but the check refuses it",
                 algorithm->id, spec->name, bound, latent_dataset_get_name (dataset), setting);
      if (bound < hi && takes (algorithm, dataset, params, spec->name, bound + 1))
        g_error ("%s: %s = %" G_GINT64_FORMAT " is past the bound on %s (%s), but the check takes it",
                 algorithm->id, spec->name, bound + 1, latent_dataset_get_name (dataset), setting);
    }
}

/* The defaults, then each value of each choice. */
static void
assert_algorithm (const LatentAlgorithm *algorithm,
                  LatentDataset         *dataset)
{
  g_autoptr(LatentParams) defaults = latent_algorithm_new_params (algorithm);

  assert_bounds (algorithm, dataset, defaults, "defaults");
  for (guint i = 0; i < algorithm->n_params; i++)
    {
      const LatentParamSpec *spec = &algorithm->params[i];

      if (spec->type != LATENT_PARAM_CHOICE)
        continue;
      for (guint c = 0; spec->choices[c] != NULL; c++)
        {
          g_autoptr(LatentParams) params = latent_params_copy (defaults);
          g_autofree char *setting = g_strdup_printf ("%s=%s", spec->name, spec->choices[c]);

          g_assert_true (latent_params_parse (params, setting, NULL));
          assert_bounds (algorithm, dataset, params, setting);
        }
    }
}

/* @n rows of @d columns in @k classes of uneven sizes (the first holds
 * half the rows). */
static LatentDataset *
uneven (guint n,
        guint d,
        guint k)
{
  LatentDataset *ds = test_blobs (n, d, k, 1, 7);
  g_autofree gint32 *labels = g_new (gint32, n);

  for (guint i = 0; i < n; i++)
    labels[i] = i < n / 2 ? 0 : 1 + i % (k - 1);
  latent_dataset_set_labels (ds, labels, k, NULL);
  return ds;
}

static void
add (GPtrArray     *datasets,
     const char    *name,
     LatentDataset *dataset)
{
  latent_dataset_set_name (dataset, name);
  g_ptr_array_add (datasets, dataset);
}

static void
test_agree (void)
{
  g_autoptr(GPtrArray) datasets = g_ptr_array_new_with_free_func (g_object_unref);
  const LatentAlgorithm * const *algorithms = latent_registry_list ();
  LatentDataset *image;

  add (datasets, "a small table", test_blobs (40, 3, 3, 1, 1));
  add (datasets, "three rows", test_blobs (3, 5, 3, 1, 2));
  add (datasets, "one row", test_blobs (1, 4, 1, 1, 3));
  add (datasets, "1200 rows (k up to a quarter)", test_blobs (1200, 2, 4, 1, 4));
  add (datasets, "one column", test_blobs (30, 1, 2, 1, 5));
  add (datasets, "uneven classes", uneven (61, 4, 5));
  /* Wide rows: the weights bound the hidden units, and past the linear
   * models' and full covariances' columns. */
  add (datasets, "2048 columns", test_blobs (4, 2048, 2, 1, 9));
  add (datasets, "4100 columns", test_blobs (3, 4100, 2, 1, 10));
  /* Rows that are images, and one image whose rows are pixels. */
  image = test_blobs (20, 64, 2, 1, 6);
  latent_dataset_set_image_shape (image, 8, 8, 1, FALSE);
  add (datasets, "8 by 8 images", image);
  image = test_blobs (16 * 12, 3, 2, 1, 8);
  latent_dataset_set_image_shape (image, 16, 12, 3, TRUE);
  add (datasets, "a 16 by 12 RGB image", image);

  for (guint a = 0; algorithms[a] != NULL; a++)
    for (guint i = 0; i < datasets->len; i++)
      assert_algorithm (algorithms[a], g_ptr_array_index (datasets, i));
}

/* The bound costs the check nothing where the algorithm states it. */
static guint checks;
static const LatentAlgorithm *counted;

static gboolean
counting_check (LatentDataset  *dataset,
                LatentParams   *params,
                GError        **error)
{
  checks++;
  return counted->check (dataset, params, error);
}

static void
test_no_check (void)
{
  const LatentAlgorithm * const *algorithms = latent_registry_list ();
  g_autoptr(LatentDataset) ds = test_blobs (40, 3, 3, 1, 1);

  for (guint a = 0; algorithms[a] != NULL; a++)
    {
      LatentAlgorithm wrapped = *algorithms[a];
      g_autoptr(LatentParams) params = latent_algorithm_new_params (algorithms[a]);

      if (wrapped.check == NULL)
        continue;
      /* Every algorithm with a check states its bounds. */
      g_assert_nonnull (wrapped.max_int);
      counted = algorithms[a];
      wrapped.check = counting_check;
      checks = 0;
      for (guint i = 0; i < wrapped.n_params; i++)
        if (wrapped.params[i].type == LATENT_PARAM_INT)
          latent_algorithm_max_int (&wrapped, ds, params, wrapped.params[i].name);
      g_assert_cmpuint (checks, ==, 0);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bounds/agree", test_agree);
  g_test_add_func ("/bounds/no-check", test_no_check);
  return g_test_run ();
}
