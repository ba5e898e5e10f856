/* latent-bench-wta.c — time the winner-take-all autoencoder's epochs, print
 * JSON lines
 *
 * One line per epoch (seconds, training and validation loss, dead units),
 * then one for the run: the reconstruction error of a test set under the
 * lifetime sparsity of training; with --json, the result with its weights.
 * Not a test: bench-wta.py runs NumPy and PyTorch beside it.
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
#include "latent-wta.h"
#include "latent-wta-private.h"

typedef struct {
  guint  epoch;
  double ms;
} Progress;

/* The loss ½‖x̂ − x‖² per row of @test in mini-batches of @batch, with the
 * same winners per unit as in training: the snapshot's model, on the host. */
static double
test_error (LatentSnapshot *snap,
            LatentDataset  *test,
            guint           batch,
            double          rate)
{
  const guint n = latent_dataset_get_n_rows (test), d = snap->n_cols, h = snap->autoencoder.n_units;
  const float *wd = snap->autoencoder.decoder_weights ? snap->autoencoder.decoder_weights : snap->autoencoder.encoder_weights;
  g_autoptr(LatentDataset) codes = latent_wta_encode (snap, test, NULL);
  g_autofree guint8 *mask = g_new (guint8, (gsize) batch * h);
  g_autofree double *xhat = g_new (double, d);
  double total = 0;

  for (guint first = 0; first < n; first += batch)
    {
      const guint rows = MIN (batch, n - first);
      const guint k = MAX (1, (guint) round (rate * rows));
      float *code = latent_dataset_get_data (codes) + (gsize) first * h;

      for (guint j = 0; j < h; j++)
        latent_wta_select (code + j, mask + j, rows, h, k);
      for (guint r = 0; r < rows; r++)
        {
          const float *x = latent_dataset_get_row (test, first + r);

          for (guint a = 0; a < d; a++)
            xhat[a] = snap->autoencoder.decoder_bias[a];
          for (guint j = 0; j < h; j++)
            if (mask[(gsize) r * h + j] && code[(gsize) r * h + j] > 0)
              for (guint a = 0; a < d; a++)
                xhat[a] += code[(gsize) r * h + j] * wd[(gsize) j * d + a];
          for (guint a = 0; a < d; a++)
            {
              const double diff = xhat[a] - (x[a] - snap->autoencoder.input_offset[a]) * snap->autoencoder.input_scale[a];

              total += 0.5 * diff * diff;
            }
        }
    }
  return total / n;
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
    { "test", 0, 0, G_OPTION_ARG_STRING, &test, "Test data for the reconstruction error", "SPEC" },
    { "device", 0, 0, G_OPTION_ARG_STRING, &device, "auto, cpu, gpu or off", "DEVICE" },
    { "param", 0, 0, G_OPTION_ARG_STRING_ARRAY, &extra, "A parameter of wta", "NAME=VALUE" },
    { "json", 0, 0, G_OPTION_ARG_FILENAME, &weights, "Write the result as JSON (the weights)", "FILE" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("— time wta epochs");
  const LatentAlgorithm *algorithm = latent_wta_get_algorithm ();
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
  gpointer state;
  gint64 t0, start;
  guint epoch = 0;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) ||
      !latent_device_choice_parse (device, &choice, &error))
    {
      g_printerr ("latent-bench-wta: %s\n", error->message);
      return 2;
    }
  for (guint e = 0; extra && extra[e]; e++)
    if (!latent_params_parse (params, extra[e], &error))
      {
        g_printerr ("latent-bench-wta: %s\n", error->message);
        return 2;
      }
  if (!(dataset = latent_catalog_load (data ? data : "fashion-mnist", NULL, &error)) ||
      (test && !(test_set = latent_catalog_load (test, NULL, &error))) ||
      (choice != LATENT_DEVICE_OFF && !(cl = latent_cl_new (choice, &error))))
    {
      g_printerr ("latent-bench-wta: %s\n", error->message);
      return 2;
    }
  device_name = cl ? latent_cl_describe (cl) : g_strdup ("CPU reference");

  /* Stepped by hand, so each epoch is timed on its own. */
  start = t0 = g_get_monotonic_time ();
  if (!(state = algorithm->init (dataset, params, 0, cl, NULL, &error)))
    {
      g_printerr ("latent-bench-wta: %s\n", error->message);
      return 1;
    }
  while (!algorithm->converged (state))
    {
      LatentWta *self = state;

      if (!algorithm->step (state, NULL, &error))
        {
          g_printerr ("latent-bench-wta: %s\n", error->message);
          return 1;
        }
      if (self->epoch > epoch)
        {
          g_autoptr(JsonBuilder) line = json_builder_new ();
          const gint64 now = g_get_monotonic_time ();
          guint dead = 0;

          epoch = self->epoch;
          for (guint j = 0; j < self->h; j++)
            dead += self->last_wins[j] == 0;
          json_builder_begin_object (line);
          json_builder_set_member_name (line, "bench");
          json_builder_add_string_value (line, "wta-epoch");
          json_builder_set_member_name (line, "impl");
          json_builder_add_string_value (line, cl ? "latent-opencl" : "latent-reference");
          json_builder_set_member_name (line, "epoch");
          json_builder_add_int_value (line, epoch);
          latent_json_add_number_member (line, "seconds", (now - t0) / 1e6);
          latent_json_add_number_member (line, "train_loss", g_array_index (self->epoch_train, double, epoch - 1));
          latent_json_add_number_member (line, "validation_loss", self->val_loss);
          latent_json_add_number_member (line, "dead_fraction", (double) dead / self->h);
          json_builder_end_object (line);
          latent_bench_emit (line);
          t0 = g_get_monotonic_time ();
        }
    }
  snap = algorithm->snapshot (state);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "bench");
  json_builder_add_string_value (b, "wta");
  json_builder_set_member_name (b, "impl");
  json_builder_add_string_value (b, cl ? "latent-opencl" : "latent-reference");
  json_builder_set_member_name (b, "device");
  json_builder_add_string_value (b, device_name);
  json_builder_set_member_name (b, "dataset");
  json_builder_add_string_value (b, latent_dataset_get_name (dataset));
  latent_json_add_number_member (b, "n", latent_dataset_get_n_rows (dataset));
  latent_json_add_number_member (b, "d", latent_dataset_get_n_cols (dataset));
  latent_json_add_number_member (b, "hidden", snap->autoencoder.n_units);
  latent_json_add_number_member (b, "epochs", snap->autoencoder.epochs.n_epochs);
  latent_json_add_number_member (b, "total_seconds", (g_get_monotonic_time () - start) / 1e6);
  latent_json_add_number_member (b, "dead_fraction", (double) snap->autoencoder.n_dead / snap->autoencoder.n_units);
  latent_json_add_number_member (b, "validation_loss", snap->autoencoder.validation_loss);
  if (test_set)
    latent_json_add_number_member (b, "test_loss",
                                   test_error (snap, test_set, latent_params_get_int (params, "batch"),
                                               latent_params_get_double (params, "rate")));
  json_builder_end_object (b);
  latent_bench_emit (b);
  if (weights && !latent_result_write_json (snap, no_history, 0, 0, weights, &error))
    g_printerr ("latent-bench-wta: %s\n", error->message);
  latent_snapshot_unref (snap);
  algorithm->free (state);
  return 0;
}
