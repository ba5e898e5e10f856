/* test-formats.c — the same values in every format Latent reads as a
 * table (CSV, NumPy, ARFF, HDF5) give the same dataset and the same k-means:
 * labels and inertia, to the bit
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "test-formats"

#include <string.h>

#include "latent-catalog.h"
#include "latent-family.h"
#include "latent-kmeans.h"
#include "latent-test-files.h"
#include "latent-test-hdf5.h"
#include "latent-test-npy.h"

#define N_ROWS 300
#define N_COLS 3

/* Three shifted clouds of values that print exactly with %.9g. */
static void
make_values (float  *values,
             gint32 *classes)
{
  guint64 state = 12345;

  for (guint i = 0; i < N_ROWS * N_COLS; i++)
    {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      values[i] = (float) ((state >> 40) % 10000) / 997.0f + (float) (i / N_COLS % 3) * 4;
    }
  for (guint i = 0; i < N_ROWS; i++)
    classes[i] = i % 3;
}

static void
test_kmeans_agrees (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree float *values = g_new (float, N_ROWS * N_COLS);
  g_autofree gint32 *classes = g_new (gint32, N_ROWS);
  g_autofree gint64 *classes64 = g_new (gint64, N_ROWS);
  g_autoptr(GString) csv = g_string_new ("a,b,c,class\n");
  g_autoptr(GString) arff = g_string_new ("@relation same\n@attribute a numeric\n@attribute b numeric\n"
                                          "@attribute c real\n@attribute class {c0,c1,c2}\n@data\n");
  g_autofree char *shape = g_strdup_printf ("(%u, %u)", N_ROWS, N_COLS);
  g_autofree char *labels_shape = g_strdup_printf ("(%u,)", N_ROWS);
  g_autoptr(GBytes) x = NULL, y = NULL;
  /* Freed at the end: g_autofree frees one pointer, not an array of them. */
  char *paths[4] = { NULL };
  g_autofree char *npy_labels = NULL;
  const char *const formats[4] = { "CSV", "NumPy", "ARFF", "HDF5" };
  const hsize_t dims[] = { N_ROWS, N_COLS }, label_dims[] = { N_ROWS };
  char *texts[N_ROWS];
  LatentFit *fits[4];
  hid_t file, text;

  make_values (values, classes);
  for (guint i = 0; i < N_ROWS; i++)
    {
      classes64[i] = classes[i];
      for (guint j = 0; j < N_COLS; j++)
        {
          g_string_append_printf (csv, "%.9g,", values[i * N_COLS + j]);
          g_string_append_printf (arff, "%.9g,", values[i * N_COLS + j]);
        }
      g_string_append_printf (csv, "c%d\n", classes[i]);
      g_string_append_printf (arff, "c%d\n", classes[i]);
    }
  x = test_npy ("<f4", FALSE, shape, values, sizeof (float) * N_ROWS * N_COLS);
  y = test_npy ("<i8", FALSE, labels_shape, classes64, sizeof (gint64) * N_ROWS);
  paths[0] = write_file (f, "same.csv", csv->str, csv->len);
  paths[1] = write_file (f, "same.npy", g_bytes_get_data (x, NULL), g_bytes_get_size (x));
  paths[2] = write_file (f, "same.arff", arff->str, arff->len);
  npy_labels = write_file (f, "same-labels.npy", g_bytes_get_data (y, NULL), g_bytes_get_size (y));
  paths[3] = g_build_filename (f->dir, "same.h5", NULL);
  file = test_hdf5_create (paths[3]);
  text = H5Tcopy (H5T_C_S1);
  H5Tset_size (text, H5T_VARIABLE);
  for (guint i = 0; i < N_ROWS; i++)
    texts[i] = g_strdup_printf ("c%d", classes[i]);
  test_hdf5_write (file, "features", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, 2, dims, values);
  test_hdf5_write (file, "target", text, text, 1, label_dims, texts);
  for (guint i = 0; i < N_ROWS; i++)
    g_free (texts[i]);
  H5Tclose (text);
  H5Fclose (file);

  for (guint k = 0; k < G_N_ELEMENTS (paths); k++)
    {
      const LatentAlgorithm *kmeans = latent_kmeans_get_algorithm ();
      g_autoptr(LatentParams) params = latent_algorithm_new_params (kmeans);
      g_autoptr(GError) error = NULL;
      g_autoptr(LatentDataset) dataset = latent_catalog_load (paths[k], k == 1 ? npy_labels : NULL, &error);

      g_test_message ("%s", formats[k]);
      g_assert_no_error (error);
      g_assert_cmpuint (latent_dataset_get_n_rows (dataset), ==, N_ROWS);
      g_assert_cmpuint (latent_dataset_get_n_cols (dataset), ==, N_COLS);
      g_assert_cmpmem (latent_dataset_get_data (dataset), sizeof (float) * N_ROWS * N_COLS,
                       values, sizeof (float) * N_ROWS * N_COLS);
      g_assert_cmpmem (latent_dataset_get_labels (dataset), sizeof (gint32) * N_ROWS,
                       classes, sizeof (gint32) * N_ROWS);
      latent_params_parse (params, "k=3", &error);
      g_assert_no_error (error);
      fits[k] = latent_algorithm_fit (kmeans, dataset, params, 7, NULL, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
    }
  for (guint k = 1; k < G_N_ELEMENTS (paths); k++)
    {
      g_assert_cmpfloat (fits[0]->snapshot->objective, ==, fits[k]->snapshot->objective);
      g_assert_cmpmem (latent_clusters_get_labels (fits[0]->snapshot), N_ROWS * sizeof (gint32),
                       latent_clusters_get_labels (fits[k]->snapshot), N_ROWS * sizeof (gint32));
      g_assert_cmpfloat (fits[0]->snapshot->metrics.ari, ==, fits[k]->snapshot->metrics.ari);
    }
  for (guint k = 0; k < G_N_ELEMENTS (paths); k++)
    {
      latent_fit_free (fits[k]);
      g_free (paths[k]);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  ADD ("/formats/kmeans-agrees", test_kmeans_agrees);
  return g_test_run ();
}
