/* latent-bench-soak.c — resident memory over many runs in one process
 *
 * Two soaks, each one JSON line per checkpoint on standard output:
 *
 *   fit    k-means on Fashion-MNIST (a large synthetic set where it is not
 *          installed) through latent_algorithm_fit on the OpenCL path, the
 *          loop latent-cli and the benchmarks share;
 *   cycle  the window's Run / Reset: a LatentRun created, played, its
 *          snapshots kept as the window's timeline keeps them, then stopped
 *          and dropped, on a GMainLoop as ui/latent-window-run.c does.
 *
 * The resident size (VmRSS) is taken after the first cycle, when the driver's
 * caches and the allocator's arenas are warm, then every --every cycles and
 * at the end. A growth of more than 5 % from that start is a leak to find;
 * the program says so and exits 1 (it is a benchmark, run by hand, not part
 * of meson test: 2 × 200 cycles of Fashion-MNIST take minutes).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-bench-soak"

#include <json-glib/json-glib.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latent-algorithm.h"
#include "latent-bench-util.h"
#include "latent-catalog.h"
#include "latent-cl.h"
#include "latent-registry.h"
#include "latent-run.h"
#include "latent-synthetic.h"

#define GROWTH_LIMIT 0.05

/* VmRSS of this process in KiB, 0 where /proc cannot say. */
static guint64
resident_kib_now (void)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return 0;
  line = strstr (status, "\nVmRSS:");
  if (line == NULL)
    return 0;
  return g_ascii_strtoull (line + strlen ("\nVmRSS:"), NULL, 10);
}

/* glibc keeps freed heap pages and moves its mmap threshold up after a
 * large block is freed, so the raw figure swings by the size of a run's
 * buffers (±180 MiB on Fashion-MNIST) from one cycle to the next. Giving
 * the free pages back first leaves what is still in use: the figure a leak
 * makes grow. The raw one is reported too. */
static guint64 last_untrimmed_kib;

static guint64 baseline_kib;

static guint64
resident_kib (void)
{
  guint64 kib;

  last_untrimmed_kib = resident_kib_now ();
  malloc_trim (0);
  kib = resident_kib_now ();
  /* PoCL frees a released buffer when its last command is done, on its own
   * thread: just after a fit, a Fashion-MNIST copy (180 MiB) may still be
   * there. Waiting up to a second lets that settle; a leak stays. */
  for (guint tries = 0; baseline_kib > 0 && kib > baseline_kib && tries < 20; tries++)
    {
      g_usleep (50000);
      malloc_trim (0);
      kib = MIN (kib, resident_kib_now ());
    }
  return kib;
}

typedef struct {
  const char *soak;
  const char *dataset;
  const char *device;
  guint       cycles;
  guint64     start_kib;
  guint64     peak_kib;
  gint64      start_time;
} Soak;

static void
report (Soak       *soak,
        guint       cycle,
        const char *when)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  const guint64 kib = resident_kib ();
  const double growth = soak->start_kib ? ((double) kib - soak->start_kib) / soak->start_kib : 0;

  soak->peak_kib = MAX (soak->peak_kib, kib);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "bench");
  json_builder_add_string_value (b, "soak");
  json_builder_set_member_name (b, "soak");
  json_builder_add_string_value (b, soak->soak);
  json_builder_set_member_name (b, "when");
  json_builder_add_string_value (b, when);
  json_builder_set_member_name (b, "cycle");
  json_builder_add_int_value (b, cycle);
  json_builder_set_member_name (b, "dataset");
  json_builder_add_string_value (b, soak->dataset);
  json_builder_set_member_name (b, "device");
  json_builder_add_string_value (b, soak->device);
  json_builder_set_member_name (b, "rss_kib");
  json_builder_add_int_value (b, (gint64) kib);
  json_builder_set_member_name (b, "untrimmed_rss_kib");
  json_builder_add_int_value (b, (gint64) last_untrimmed_kib);
  json_builder_set_member_name (b, "start_rss_kib");
  json_builder_add_int_value (b, (gint64) soak->start_kib);
  json_builder_set_member_name (b, "growth_percent");
  json_builder_add_double_value (b, 100.0 * growth);
  json_builder_set_member_name (b, "elapsed_s");
  json_builder_add_double_value (b, (g_get_monotonic_time () - soak->start_time) / 1e6);
  json_builder_end_object (b);
  latent_bench_emit (b);
}

/* After each cycle: the start after the first, a line every @every. */
static void
checkpoint (Soak  *soak,
            guint  cycle,
            guint  every)
{
  if (cycle == 1)
    {
      /* The start, too, without a buffer still on its way out. */
      baseline_kib = 0;
      g_usleep (G_USEC_PER_SEC);
      soak->start_kib = baseline_kib = resident_kib ();
      soak->start_time = g_get_monotonic_time ();
      report (soak, cycle, "start");
    }
  else if (cycle == soak->cycles)
    report (soak, cycle, "end");
  else if (every > 0 && cycle % every == 0)
    report (soak, cycle, "during");
}

static gboolean
within_limit (Soak *soak)
{
  const guint64 end = resident_kib ();

  if (soak->start_kib == 0 || end <= soak->start_kib * (1 + GROWTH_LIMIT))
    return TRUE;
  g_printerr ("latent-bench-soak: %s: resident memory grew from %" G_GUINT64_FORMAT " KiB to %"
              G_GUINT64_FORMAT " KiB (%.1f %%, more than %.0f %%)\n", soak->soak, soak->start_kib, end,
              100.0 * ((double) end - soak->start_kib) / soak->start_kib, 100 * GROWTH_LIMIT);
  return FALSE;
}

/* ---- fit: latent_algorithm_fit again and again ------------------------- */

static gboolean
soak_fit (Soak                  *soak,
          const LatentAlgorithm *kmeans,
          LatentDataset         *dataset,
          LatentParams          *params,
          LatentCl              *cl,
          guint                  every,
          GError               **error)
{
  for (guint cycle = 1; cycle <= soak->cycles; cycle++)
    {
      /* A new seed each time, as a person changing it between runs. */
      g_autoptr(LatentFit) fit = latent_algorithm_fit (kmeans, dataset, params, cycle, cl,
                                                       NULL, NULL, NULL, error);

      if (fit == NULL)
        return FALSE;
      checkpoint (soak, cycle, every);
    }
  return TRUE;
}

/* ---- cycle: the window's Run and Reset ---------------------------------- */

typedef struct {
  GMainLoop *loop;
  GPtrArray *frames;    /* the timeline's snapshots, as the window keeps them */
  guint      wanted;    /* snapshots to see before Reset */
  gboolean   finished;
  GError    *error;
} Cycle;

static void
on_snapshot (LatentRun      *run,
             LatentSnapshot *snapshot,
             Cycle          *cycle)
{
  g_ptr_array_add (cycle->frames, latent_snapshot_ref (snapshot));
  if (cycle->frames->len >= cycle->wanted)
    g_main_loop_quit (cycle->loop);
}

static void
on_finished (LatentRun    *run,
             const GError *error,
             Cycle        *cycle)
{
  cycle->finished = TRUE;
  if (error != NULL && cycle->error == NULL)
    cycle->error = g_error_copy (error);
  g_main_loop_quit (cycle->loop);
}

/* What _latent_window_retire_run does, then waits for the worker to end so
 * that every cycle's memory is given back before the next one's is taken. */
static void
reset (LatentRun *run,
       Cycle     *cycle)
{
  LatentRunState state = latent_run_get_state (run);

  if (state != LATENT_RUN_FINISHED && state != LATENT_RUN_STOPPED && state != LATENT_RUN_FAILED)
    {
      cycle->finished = FALSE;
      latent_run_stop (run);
      while (!cycle->finished)
        g_main_loop_run (cycle->loop);
    }
  g_signal_handlers_disconnect_by_data (run, cycle);
  g_object_unref (run);
  g_ptr_array_set_size (cycle->frames, 0);
}

static gboolean
soak_cycle (Soak                  *soak,
            const LatentAlgorithm *kmeans,
            LatentDataset         *dataset,
            LatentParams          *params,
            LatentCl              *cl,
            guint                  every,
            GError               **error)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GPtrArray) frames = g_ptr_array_new_with_free_func ((GDestroyNotify) latent_snapshot_unref);

  for (guint n = 1; n <= soak->cycles; n++)
    {
      Cycle cycle = { loop, frames, 3, FALSE, NULL };
      LatentRun *run = latent_run_new (kmeans, dataset, params, n, cl);

      g_signal_connect (run, "snapshot", G_CALLBACK (on_snapshot), &cycle);
      g_signal_connect (run, "finished", G_CALLBACK (on_finished), &cycle);
      latent_run_play (run);
      /* Reset while it runs, as a person does; a run that ends first is
       * reset finished. */
      while (!cycle.finished && frames->len < cycle.wanted)
        g_main_loop_run (loop);
      reset (run, &cycle);
      if (cycle.error != NULL)
        {
          g_propagate_error (error, cycle.error);
          return FALSE;
        }
      checkpoint (soak, n, every);
    }
  return TRUE;
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *data = NULL;
  g_autofree char *device = NULL;
  g_autofree char *only = NULL;
  int cycles = 200, every = 20, k = 10, iterations = 10;
  const GOptionEntry entries[] = {
    { "data", 0, 0, G_OPTION_ARG_STRING, &data, "Dataset spec (default fashion-mnist)", "SPEC" },
    { "cycles", 0, 0, G_OPTION_ARG_INT, &cycles, "Runs per soak (default 200)", "N" },
    { "every", 0, 0, G_OPTION_ARG_INT, &every, "A line every N cycles (default 20)", "N" },
    { "k", 0, 0, G_OPTION_ARG_INT, &k, "Clusters (default 10)", "K" },
    { "iterations", 0, 0, G_OPTION_ARG_INT, &iterations, "Iterations a fit (default 10)", "N" },
    { "device", 0, 0, G_OPTION_ARG_STRING, &device, "auto, cpu or gpu", "DEVICE" },
    { "only", 0, 0, G_OPTION_ARG_STRING, &only, "fit or cycle (default both)", "SOAK" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("— resident memory over many runs");
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentDataset) dataset = NULL;
  g_autoptr(LatentParams) params = NULL;
  g_autoptr(LatentCl) cl = NULL;
  g_autofree char *device_name = NULL;
  const LatentAlgorithm *kmeans;
  LatentDeviceChoice choice;
  gboolean ok = TRUE;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) ||
      !latent_device_choice_parse (device, &choice, &error))
    {
      g_printerr ("latent-bench-soak: %s\n", error->message);
      return 2;
    }
  if (cycles < 2 || every < 0 || k < 1 || iterations < 1 || choice == LATENT_DEVICE_OFF ||
      (only && !g_str_equal (only, "fit") && !g_str_equal (only, "cycle")))
    {
      g_printerr ("latent-bench-soak: --cycles ≥ 2, --k ≥ 1, --iterations ≥ 1, --only fit|cycle, "
                  "and an OpenCL device\n");
      return 2;
    }

  dataset = latent_catalog_load (data ? data : "fashion-mnist", NULL, &error);
  if (dataset == NULL && data == NULL)
    {
      /* No Fashion-MNIST here: a synthetic set of its size stands in. */
      g_printerr ("latent-bench-soak: %s; using 70000 synthetic rows of 784 columns\n", error->message);
      g_clear_error (&error);
      dataset = latent_synthetic_blobs (70000, 784, 10, 1, &error);
    }
  if (dataset == NULL)
    {
      g_printerr ("latent-bench-soak: %s\n", error->message);
      return 2;
    }

  kmeans = latent_registry_lookup ("kmeans", &error);
  params = kmeans ? latent_algorithm_new_params (kmeans) : NULL;
  if (params == NULL ||
      !latent_params_set_int (params, "k", k, &error) ||
      !latent_params_set_int (params, "max-iterations", iterations, &error) ||
      !latent_params_set (params, "tol", "0", &error))
    {
      g_printerr ("latent-bench-soak: %s\n", error->message);
      return 2;
    }

  cl = latent_cl_new (choice, &error);
  if (cl == NULL)
    {
      g_printerr ("latent-bench-soak: %s\n", error->message);
      return 1;
    }
  device_name = latent_cl_describe (cl);

  if (only == NULL || g_str_equal (only, "fit"))
    {
      Soak soak = { "fit", latent_dataset_get_name (dataset), device_name, cycles, 0, 0, 0 };

      if (!soak_fit (&soak, kmeans, dataset, params, cl, every, &error))
        {
          g_printerr ("latent-bench-soak: fit: %s\n", error->message);
          return 1;
        }
      ok = within_limit (&soak) && ok;
    }

  if (only == NULL || g_str_equal (only, "cycle"))
    {
      Soak soak = { "cycle", latent_dataset_get_name (dataset), device_name, cycles, 0, 0, 0 };

      if (!soak_cycle (&soak, kmeans, dataset, params, cl, every, &error))
        {
          g_printerr ("latent-bench-soak: cycle: %s\n", error->message);
          return 1;
        }
      ok = within_limit (&soak) && ok;
    }

  return ok ? 0 : 1;
}
