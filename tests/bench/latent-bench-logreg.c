/* latent-bench-logreg.c — time logistic regression's epochs, print JSON lines
 *
 * One line per epoch: the seconds since the run started (initialisation
 * included: standardising, buffers, kernels; not loading the data), the
 * training loss and accuracy, the test loss and accuracy; then one for the
 * run. With --json, the result with its weights. Not a test:
 * bench-logreg.py runs scikit-learn beside it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>

#include "latent-catalog.h"
#include "latent-bench-util.h"
#include "latent-cl.h"
#include "latent-json.h"
#include "latent-result.h"
#include "latent-logreg.h"
#include "latent-logreg-private.h"

static double
last (GArray *values)
{
  return values->len ? g_array_index (values, double, values->len - 1) : NAN;
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *data = NULL;
  g_autofree char *test = NULL;
  g_autofree char *device = NULL;
  g_autofree char *weights = NULL;
  g_auto(GStrv) extra = NULL;
  const GOptionEntry entries[] = {
    { "data", 0, 0, G_OPTION_ARG_STRING, &data, "Training data (default fashion-mnist)", "SPEC" },
    { "test", 0, 0, G_OPTION_ARG_STRING, &test, "Test data (default: a held-out share)", "SPEC" },
    { "device", 0, 0, G_OPTION_ARG_STRING, &device, "auto, cpu, gpu or off", "DEVICE" },
    { "param", 0, 0, G_OPTION_ARG_STRING_ARRAY, &extra, "A parameter of logreg", "NAME=VALUE" },
    { "json", 0, 0, G_OPTION_ARG_FILENAME, &weights, "Write the result as JSON (the weights)", "FILE" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("— time logreg epochs");
  const LatentAlgorithm *algorithm = latent_logreg_get_algorithm ();
  g_autoptr(LatentParams) params = latent_algorithm_new_params (algorithm);
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentDataset) dataset = NULL;
  g_autoptr(LatentDataset) test_set = NULL;
  g_autoptr(LatentCl) cl = NULL;
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(GArray) no_history = g_array_new (FALSE, FALSE, sizeof (LatentIterationRecord));
  g_autofree char *device_name = NULL;
  LatentDeviceChoice choice;
  LatentSnapshot *snap;
  LatentLogreg *self;
  gint64 start, init_done;
  guint epoch = 0;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) ||
      !latent_device_choice_parse (device, &choice, &error))
    {
      g_printerr ("latent-bench-logreg: %s\n", error->message);
      return 2;
    }
  for (guint e = 0; extra && extra[e]; e++)
    if (!latent_params_parse (params, extra[e], &error))
      {
        g_printerr ("latent-bench-logreg: %s\n", error->message);
        return 2;
      }
  if (!(dataset = latent_catalog_load (data ? data : "fashion-mnist", NULL, &error)) ||
      (test && !(test_set = latent_catalog_load (test, NULL, &error))) ||
      (test_set && !latent_dataset_set_test (dataset, test_set, &error)) ||
      (choice != LATENT_DEVICE_OFF && !(cl = latent_cl_new (choice, &error))))
    {
      g_printerr ("latent-bench-logreg: %s\n", error->message);
      return 2;
    }
  device_name = cl ? latent_cl_describe (cl) : g_strdup ("CPU reference");

  /* Stepped by hand, so each epoch's end is timed. */
  start = g_get_monotonic_time ();
  if (!(self = algorithm->init (dataset, params, 0, cl, NULL, &error)))
    {
      g_printerr ("latent-bench-logreg: %s\n", error->message);
      return 1;
    }
  init_done = g_get_monotonic_time ();
  while (!algorithm->converged (self))
    {
      if (!algorithm->step (self, NULL, &error))
        {
          g_printerr ("latent-bench-logreg: %s\n", error->message);
          return 1;
        }
      if (self->log.epoch > epoch)
        {
          g_autoptr(JsonBuilder) line = json_builder_new ();

          epoch = self->log.epoch;
          json_builder_begin_object (line);
          json_builder_set_member_name (line, "bench");
          json_builder_add_string_value (line, "logreg-epoch");
          json_builder_set_member_name (line, "impl");
          json_builder_add_string_value (line, cl ? "latent-opencl" : "latent-reference");
          json_builder_set_member_name (line, "epoch");
          json_builder_add_int_value (line, epoch);
          latent_json_add_number_member (line, "seconds", (g_get_monotonic_time () - start) / 1e6);
          latent_json_add_number_member (line, "train_loss", last (self->log.train_loss));
          latent_json_add_number_member (line, "train_accuracy", last (self->log.train_accuracy));
          latent_json_add_number_member (line, "test_loss", last (self->log.test_loss));
          latent_json_add_number_member (line, "test_accuracy", last (self->log.test_accuracy));
          json_builder_end_object (line);
          latent_bench_emit (line);
        }
    }
  snap = algorithm->snapshot (self);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "bench");
  json_builder_add_string_value (b, "logreg");
  json_builder_set_member_name (b, "impl");
  json_builder_add_string_value (b, cl ? "latent-opencl" : "latent-reference");
  json_builder_set_member_name (b, "device");
  json_builder_add_string_value (b, device_name);
  json_builder_set_member_name (b, "dataset");
  json_builder_add_string_value (b, latent_dataset_get_name (dataset));
  latent_json_add_number_member (b, "n_train", self->n_train);
  latent_json_add_number_member (b, "n_test", self->n_test);
  latent_json_add_number_member (b, "d", self->d);
  latent_json_add_number_member (b, "classes", self->c);
  latent_json_add_number_member (b, "steps_per_epoch", self->steps_per_epoch);
  latent_json_add_number_member (b, "epochs", snap->classifier.epochs.n_epochs);
  latent_json_add_number_member (b, "init_seconds", (init_done - start) / 1e6);
  latent_json_add_number_member (b, "total_seconds", (g_get_monotonic_time () - start) / 1e6);
  latent_json_add_number_member (b, "train_accuracy", snap->classifier.train_accuracy);
  latent_json_add_number_member (b, "test_accuracy", snap->classifier.test_accuracy);
  json_builder_end_object (b);
  latent_bench_emit (b);
  if (weights && !latent_result_write_json (snap, no_history, 0, 0, weights, &error))
    g_printerr ("latent-bench-logreg: %s\n", error->message);
  latent_snapshot_unref (snap);
  algorithm->free (self);
  return 0;
}
