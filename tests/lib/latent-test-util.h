/* latent-test-util.h — fixed, seeded test data shared by the test programs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <math.h>
#include <stdarg.h>

#include "latent-algorithm.h"
#include "latent-dataset.h"

/* A tiny LCG so the data never depends on a library's generator. */
static inline double
test_uniform (guint64 *state)
{
  *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
  return ((*state >> 11) + 0.5) / 9007199254740992.0;
}

static inline double
test_normal (guint64 *state)
{
  double u = test_uniform (state), v = test_uniform (state);
  return sqrt (-2 * log (u)) * cos (2 * G_PI * v);
}

/* k well-separated isotropic blobs in d dimensions, n rows, labels = blob. */
static inline LatentDataset *
test_blobs (guint   n,
            guint   d,
            guint   k,
            double  spread,
            guint64 seed)
{
  LatentDataset *ds = latent_dataset_new ("test blobs", n, d, NULL);
  float *x = latent_dataset_get_data (ds);
  g_autofree double *centers = g_new (double, (gsize) k * d);
  g_autofree gint32 *labels = g_new (gint32, n);
  guint64 state = seed * 2654435761u + 1;

  for (guint i = 0; i < k * d; i++)
    centers[i] = 20 * test_uniform (&state) - 10;
  for (guint i = 0; i < n; i++)
    {
      labels[i] = i % k;
      for (guint f = 0; f < d; f++)
        x[(gsize) i * d + f] = centers[(gsize) labels[i] * d + f] + spread * test_normal (&state);
    }
  latent_dataset_set_labels (ds, labels, k, NULL);
  return ds;
}

/* @ds's values moved onto 256 levels between 0 and 1, q / 255 as an 8-bit
 * image's are, the lowest at 0 and the highest at 1. */
static inline void
test_on_grid (LatentDataset *ds)
{
  float *x = latent_dataset_get_data (ds);
  const gsize count = (gsize) latent_dataset_get_n_rows (ds) * latent_dataset_get_n_cols (ds);
  float lo = x[0], hi = x[0];

  for (gsize i = 0; i < count; i++)
    {
      lo = MIN (lo, x[i]);
      hi = MAX (hi, x[i]);
    }
  for (gsize i = 0; i < count; i++)
    x[i] = rint (255.0 * (x[i] - lo) / MAX (hi - lo, 1e-30f)) / 255.0f;
}

/* A LatentFitFunc: each iteration's objective onto the GArray of doubles
 * in @user_data (NULL: none kept). */
static inline void
test_append_objective (const LatentIterationRecord *record,
                       gpointer                     user_data)
{
  if (user_data != NULL)
    g_array_append_val ((GArray *) user_data, record->objective);
}

/* Runs @algorithm (a clustering one) step by step and checks that every
 * snapshot, the initial one included, belongs together: each row's label is
 * a nearest of that snapshot's means (ties within rounding either way) and
 * the objective is the rows' squared distances to them (k-means' inertia;
 * @check_objective FALSE skips it). Returns how many steps ran. */
static inline guint
test_assert_snapshots_coherent (const LatentAlgorithm *algorithm,
                                LatentDataset         *ds,
                                LatentParams          *params,
                                guint64                seed,
                                LatentCl              *cl,
                                gboolean               check_objective)
{
  g_autoptr(GError) error = NULL;
  gpointer state = algorithm->init (ds, params, seed, cl, NULL, &error);
  g_autoptr(LatentRows) rows = latent_rows_new_for_dataset (ds, 0);
  const float *x = latent_dataset_get_data (ds);
  guint steps = 0;

  g_assert_no_error (error);
  g_assert_nonnull (state);
  for (;;)
    {
      g_autoptr(LatentSnapshot) snap = algorithm->snapshot (state);
      const guint d = snap->n_cols;
      guint wrong = 0;
      double inertia = 0;

      for (guint i = 0; i < snap->n_rows; i++)
        {
          double best = G_MAXDOUBLE, own = 0;

          for (guint c = 0; c < snap->clusters.k; c++)
            {
              double dd = 0;

              for (guint f = 0; f < d; f++)
                {
                  double u = x[(gsize) i * d + f] - snap->clusters.means[(gsize) c * d + f];
                  dd += u * u;
                }
              best = MIN (best, dd);
              if ((gint32) c == snap->clusters.labels[i])
                own = dd;
            }
          /* The means are floats here and doubles in the engine. */
          if (own > best + 1e-5 * (1 + best))
            wrong++;
          inertia += best;
        }
      if (wrong > 0)
        g_test_message ("iteration %u: %u of %u rows are labelled with a center that is not their nearest",
                        snap->iteration, wrong, snap->n_rows);
      g_assert_cmpuint (wrong, ==, 0);
      if (check_objective)
        g_assert_cmpfloat (fabs (snap->objective - inertia), <=, 1e-4 * inertia);
      if (algorithm->converged (state))
        break;
      g_assert_true (latent_algorithm_step (algorithm, state, rows, NULL, &error));
      g_assert_no_error (error);
      steps++;
    }
  algorithm->free (state);
  return steps;
}

/* The parameters of @algorithm with NULL-terminated "name=value" settings,
 * each of which must parse. */
static G_GNUC_UNUSED G_GNUC_NULL_TERMINATED LatentParams *
test_params (const LatentAlgorithm *algorithm,
             const char            *first,
             ...)
{
  LatentParams *params = latent_algorithm_new_params (algorithm);
  va_list args;

  va_start (args, first);
  for (const char *a = first; a != NULL; a = va_arg (args, const char *))
    {
      g_autoptr(GError) error = NULL;

      latent_params_parse (params, a, &error);
      g_assert_no_error (error);
    }
  va_end (args);
  return params;
}

/* The default OpenCL device, opened once; NULL (said once) without one. */
static G_GNUC_UNUSED LatentCl *
test_get_cl (void)
{
  static LatentCl *cl;
  static gboolean tried;

  if (!tried)
    {
      g_autoptr(GError) error = NULL;

      tried = TRUE;
      cl = latent_cl_new (LATENT_DEVICE_AUTO, &error);
      if (cl == NULL)
        g_test_message ("no OpenCL: %s", error->message);
    }
  return cl;
}
