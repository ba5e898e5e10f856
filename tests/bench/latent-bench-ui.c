/* latent-bench-ui.c — how responsive the window's pipeline stays
 *
 * Runs k-means on a dataset as fast as it goes, with the live figure view on
 * screen, and measures the gaps between frames of the frame clock: a long
 * gap is the main loop stalling. Then times redrawing a 70,000-point
 * scatter. Prints JSON lines; asserts nothing. Needs a display (Xvfb is fine).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gtk/gtk.h>
#include <json-glib/json-glib.h>
#include <stdio.h>

#include "latent-catalog.h"
#include "latent-bench-util.h"
#include "latent-figure-view.h"
#include "latent-kmeans.h"
#include "latent-projection.h"
#include "latent-run.h"

typedef struct {
  GtkWidget *view;
  LatentRun *run;
  GArray    *gaps;        /* ms between frames while the run goes */
  GPtrArray *shown;       /* the snapshots shown, for the centres' trails */
  gint64     last_frame;
  guint      snapshots;
  guint      iterations;
  gboolean   finished;
  GMainLoop *loop;
} Bench;

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static gboolean
on_tick (GtkWidget     *widget,
         GdkFrameClock *clock,
         gpointer       data)
{
  Bench *b = data;
  gint64 now = g_get_monotonic_time ();

  if (b->last_frame && !b->finished)
    {
      double gap = (now - b->last_frame) / 1000.0;
      g_array_append_val (b->gaps, gap);
      if (gap > 40 && g_getenv ("LATENT_BENCH_VERBOSE"))
        g_printerr ("gap %.1f ms after %u iterations, %u snapshots\n", gap, b->iterations, b->snapshots);
    }
  b->last_frame = now;
  return G_SOURCE_CONTINUE;
}

static void
on_snapshot (LatentRun *run, LatentSnapshot *snapshot, Bench *b)
{
  /* As the window does: the snapshot, then the trail of those before it. */
  latent_figure_view_set_snapshot (LATENT_FIGURE_VIEW (b->view), snapshot);
  latent_figure_view_set_history (LATENT_FIGURE_VIEW (b->view), (LatentSnapshot **) b->shown->pdata, b->shown->len);
  g_ptr_array_add (b->shown, latent_snapshot_ref (snapshot));
  if (b->shown->len > 64)   /* more than a trail holds */
    g_ptr_array_remove_index (b->shown, 0);
  b->snapshots++;
}

static void
on_iteration (LatentRun *run, LatentIterationRecord *record, Bench *b)
{
  b->iterations = record->iteration;
}

static void
on_finished (LatentRun *run, GError *error, Bench *b)
{
  if (error)
    g_printerr ("latent-bench-ui: %s\n", error->message);
  b->finished = TRUE;
  g_main_loop_quit (b->loop);
}

static void
add (JsonBuilder *b, const char *name, double value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_double_value (b, value);
}

static void
bench_frames (const char *spec,
              const char *k)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentDataset) dataset = latent_catalog_load (spec, NULL, &error);
  g_autoptr(LatentCl) cl = latent_cl_new_background (LATENT_DEVICE_AUTO, NULL);
  g_autoptr(LatentParams) params = latent_algorithm_new_params (latent_kmeans_get_algorithm ());
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  Bench b = { 0 };
  GtkWidget *window;
  double total = 0;

  if (dataset == NULL)
    {
      g_printerr ("latent-bench-ui: %s\n", error->message);
      exit (2);
    }
  latent_params_parse (params, k, NULL);
  latent_params_parse (params, "max-iterations=300", NULL);
  /* The projection is computed when the data loads, as the window does. */
  {
    LatentProjection *projection = latent_projection_get_for_dataset (dataset);
    g_clear_pointer (&projection, latent_projection_unref);
  }

  b.gaps = g_array_new (FALSE, FALSE, sizeof (double));
  b.shown = g_ptr_array_new_with_free_func ((GDestroyNotify) latent_snapshot_unref);
  b.loop = g_main_loop_new (NULL, FALSE);
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  b.view = latent_figure_view_new ();
  gtk_window_set_child (GTK_WINDOW (window), b.view);
  gtk_window_present (GTK_WINDOW (window));
  gtk_widget_add_tick_callback (window, on_tick, &b, NULL);

  b.run = latent_run_new (latent_kmeans_get_algorithm (), dataset, params, 1, cl);
  g_signal_connect (b.run, "snapshot", G_CALLBACK (on_snapshot), &b);
  g_signal_connect (b.run, "iteration", G_CALLBACK (on_iteration), &b);
  g_signal_connect (b.run, "finished", G_CALLBACK (on_finished), &b);
  latent_run_set_speed (b.run, 0);
  latent_run_play (b.run);
  g_main_loop_run (b.loop);

  g_array_sort (b.gaps, compare_double);
  for (guint i = 0; i < b.gaps->len; i++)
    total += g_array_index (b.gaps, double, i);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "bench");
  json_builder_add_string_value (builder, "ui-frames");
  json_builder_set_member_name (builder, "dataset");
  json_builder_add_string_value (builder, spec);
  json_builder_set_member_name (builder, "params");
  json_builder_add_string_value (builder, k);
  json_builder_set_member_name (builder, "iterations");
  json_builder_add_int_value (builder, b.iterations);
  json_builder_set_member_name (builder, "snapshots_shown");
  json_builder_add_int_value (builder, b.snapshots);
  json_builder_set_member_name (builder, "frames");
  json_builder_add_int_value (builder, b.gaps->len);
  if (b.gaps->len)
    {
      add (builder, "mean_gap_ms", total / b.gaps->len);
      add (builder, "median_gap_ms", g_array_index (b.gaps, double, b.gaps->len / 2));
      add (builder, "p99_gap_ms", g_array_index (b.gaps, double, (guint) (b.gaps->len * 0.99)));
      add (builder, "max_gap_ms", g_array_index (b.gaps, double, b.gaps->len - 1));
    }
  json_builder_end_object (builder);
  latent_bench_emit (builder);

  g_object_unref (b.run);
  gtk_window_destroy (GTK_WINDOW (window));
  g_array_unref (b.gaps);
  g_ptr_array_unref (b.shown);
  g_main_loop_unref (b.loop);
}

/* The figure view's own drawing of 70,000 points, at its on-screen size,
 * against the design's budget of one frame. */
static void
bench_scatter (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentDataset) dataset = latent_catalog_load ("blobs:n=70000,k=5,dims=2,seed=1", NULL, &error);
  const LatentAlgorithm *alg = latent_kmeans_get_algorithm ();
  g_autoptr(LatentParams) params = latent_algorithm_new_params (alg);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(LatentFit) fit = NULL;
  LatentSnapshot *snapshot;
  LatentFigureStyle style;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1200, 900);

  latent_params_parse (params, "k=5", NULL);
  latent_params_parse (params, "max-iterations=1", NULL);
  fit = latent_algorithm_fit (alg, dataset, params, 1, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  snapshot = fit->snapshot;
  latent_figure_style_init (&style);
  for (int i = 0; i < 30; i++)
    {
      cairo_t *cr = cairo_create (surface);
      gint64 t0 = g_get_monotonic_time ();
      double ms;

      latent_figure_render (snapshot, LATENT_FIGURE_SCATTER, &style, cr, 1200, 900);
      cairo_destroy (cr);
      ms = (g_get_monotonic_time () - t0) / 1000.0;
      if (i > 0)   /* the first draw computes the projection */
        g_array_append_val (times, ms);
    }
  g_array_sort (times, compare_double);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "bench");
  json_builder_add_string_value (builder, "scatter-redraw");
  json_builder_set_member_name (builder, "points");
  json_builder_add_int_value (builder, 70000);
  json_builder_set_member_name (builder, "size");
  json_builder_add_string_value (builder, "1200x900");
  add (builder, "median_ms", g_array_index (times, double, times->len / 2));
  add (builder, "max_ms", g_array_index (times, double, times->len - 1));
  add (builder, "budget_ms", 16.0);
  json_builder_end_object (builder);
  latent_bench_emit (builder);

  cairo_surface_destroy (surface);
}

int
main (int    argc,
      char **argv)
{
  gtk_init ();
  bench_scatter ();
  bench_frames (argc > 1 ? argv[1] : "fashion-mnist", argc > 2 ? argv[2] : "k=10");
  return 0;
}
