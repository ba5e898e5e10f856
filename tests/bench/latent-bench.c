/* latent-bench.c — time algorithms in-process, print JSON lines
 *
 * Not a test: it asserts nothing about speed. The bench-*.py drivers run the peers
 * in the same session and compare.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>

#include "latent-registry.h"
#include "latent-bench-util.h"
#include "latent-algorithm.h"
#include "latent-catalog.h"
#include "latent-cl.h"

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *data = NULL;
  g_autofree char *init = NULL;
  g_autofree char *device = NULL;
  g_autofree char *iterations = NULL;
  g_auto(GStrv) extra = NULL;
  int k = 10, repeat = 1;
  const GOptionEntry entries[] = {
    { "data", 0, 0, G_OPTION_ARG_STRING, &data, "Dataset spec", "SPEC" },
    { "k", 0, 0, G_OPTION_ARG_INT, &k, "Clusters", "K" },
    { "init", 0, 0, G_OPTION_ARG_STRING, &init, "kmeans++, random or @CENTERS.csv", "INIT" },
    { "iterations", 0, 0, G_OPTION_ARG_STRING, &iterations, "Comma-separated iteration counts", "N,M" },
    { "device", 0, 0, G_OPTION_ARG_STRING, &device, "auto, cpu, gpu or off", "DEVICE" },
    { "repeat", 0, 0, G_OPTION_ARG_INT, &repeat, "Runs per iteration count", "R" },
    { "param", 0, 0, G_OPTION_ARG_STRING_ARRAY, &extra, "Any other parameter", "NAME=VALUE" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("kmeans");
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentDataset) dataset = NULL;
  g_autoptr(LatentCl) cl = NULL;
  g_auto(GStrv) counts = NULL;
  const LatentAlgorithm *algorithm;
  LatentDeviceChoice choice;
  g_autofree char *device_name = NULL;
  gint64 t0;
  double load_ms;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 2 ||
      !(algorithm = latent_registry_lookup (argv[1], &error)) ||
      !latent_device_choice_parse (device, &choice, &error))
    {
      g_printerr ("latent-bench: %s\n", error ? error->message : "usage: latent-bench kmeans --data SPEC …");
      return 2;
    }

  t0 = g_get_monotonic_time ();
  dataset = latent_catalog_load (data ? data : "fashion-mnist", NULL, &error);
  if (dataset == NULL)
    {
      g_printerr ("latent-bench: %s\n", error->message);
      return 2;
    }
  load_ms = (g_get_monotonic_time () - t0) / 1000.0;

  if (choice != LATENT_DEVICE_OFF && !(cl = latent_cl_new (choice, &error)))
    {
      g_printerr ("latent-bench: %s\n", error->message);
      return 1;
    }
  device_name = cl ? latent_cl_describe (cl) : g_strdup ("CPU reference");

  counts = g_strsplit (iterations ? iterations : "5,25", ",", -1);
  for (guint c = 0; counts[c]; c++)
    for (int r = 0; r < repeat; r++)
      {
        g_autoptr(LatentParams) params = latent_algorithm_new_params (algorithm);
        g_autoptr(JsonBuilder) b = json_builder_new ();
        g_autofree char *k_text = g_strdup_printf ("%d", k);
        g_autoptr(GArray) steps = g_array_new (FALSE, FALSE, sizeof (double));
        g_autoptr(LatentFit) fit = NULL;
        double iterations_ms = 0;

        /* --k and --init for the clustering algorithms; --param for all. */
        if ((latent_params_has (params, "k") && !latent_params_set (params, "k", k_text, &error)) ||
            (latent_params_has (params, "init") &&
             !latent_params_set (params, "init", init ? init : "kmeans++", &error)) ||
            !latent_params_set (params, "tol", "0", &error) ||
            !latent_params_set (params, "max-iterations", counts[c], &error))
          {
            g_printerr ("latent-bench: %s\n", error->message);
            return 2;
          }
        for (guint e = 0; extra && extra[e]; e++)
          if (!latent_params_parse (params, extra[e], &error))
            {
              g_printerr ("latent-bench: %s\n", error->message);
              return 2;
            }

        fit = latent_algorithm_fit (algorithm, dataset, params, 0, cl, NULL, NULL, NULL, &error);
        if (fit == NULL)
          {
            g_printerr ("latent-bench: %s\n", error->message);
            return 1;
          }
        /* The final snapshot is not timed, as before the shared loop. */
        for (guint i = 0; i < fit->history->len; i++)
          {
            const LatentIterationRecord *record = &g_array_index (fit->history, LatentIterationRecord, i);

            g_array_append_val (steps, record->step_ms);
            iterations_ms += record->step_ms;
          }

        json_builder_begin_object (b);
        json_builder_set_member_name (b, "bench");
        json_builder_add_string_value (b, algorithm->id);
        json_builder_set_member_name (b, "impl");
        json_builder_add_string_value (b, cl ? "latent-opencl" : "latent-reference");
        json_builder_set_member_name (b, "device");
        json_builder_add_string_value (b, device_name);
        json_builder_set_member_name (b, "dataset");
        json_builder_add_string_value (b, latent_dataset_get_name (dataset));
        json_builder_set_member_name (b, "n");
        json_builder_add_int_value (b, latent_dataset_get_n_rows (dataset));
        json_builder_set_member_name (b, "d");
        json_builder_add_int_value (b, latent_dataset_get_n_cols (dataset));
        json_builder_set_member_name (b, "k");
        json_builder_add_int_value (b, k);
        json_builder_set_member_name (b, "iterations");
        json_builder_add_int_value (b, fit->history->len);
        json_builder_set_member_name (b, "objective");
        json_builder_add_double_value (b, fit->snapshot->objective);
        json_builder_set_member_name (b, "load_ms");
        json_builder_add_double_value (b, load_ms);
        /* Not every objective is defined before the first step. */
        json_builder_set_member_name (b, "initial_objective");
        if (isfinite (fit->initial_objective))
          json_builder_add_double_value (b, fit->initial_objective);
        else
          json_builder_add_null_value (b);
        json_builder_set_member_name (b, "init_ms");
        json_builder_add_double_value (b, fit->init_ms);
        json_builder_set_member_name (b, "total_ms");
        json_builder_add_double_value (b, fit->init_ms + iterations_ms);
        json_builder_set_member_name (b, "iterations_ms");
        json_builder_add_double_value (b, iterations_ms);
        /* Each iteration's objective and time, so a driver can read the
         * time to a given objective (a peer's) off one run. */
        json_builder_set_member_name (b, "history");
        json_builder_begin_array (b);
        for (guint i = 0; i < fit->history->len; i++)
          {
            const LatentIterationRecord *record = &g_array_index (fit->history, LatentIterationRecord, i);

            json_builder_begin_array (b);
            json_builder_add_double_value (b, record->objective);
            json_builder_add_double_value (b, record->step_ms);
            json_builder_end_array (b);
          }
        json_builder_end_array (b);
        if (steps->len > 0)
          {
            g_array_sort (steps, compare_double);
            json_builder_set_member_name (b, "iteration_ms_median");
            json_builder_add_double_value (b, g_array_index (steps, double, steps->len / 2));
          }
        json_builder_end_object (b);
        latent_bench_emit (b);
      }
  return 0;
}
