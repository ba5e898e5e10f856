/* test-density-view.c — the live figure view draws a big scatter as a
 * density binned on a worker thread and kept: redraws bin nothing, a new
 * size bins once more, and the image it keeps fits what it shows
 *
 * Needs a display (the ui suite runs it under xvfb-run); skips without one.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-test-density-view"

#include <gtk/gtk.h>

#include "latent-figure-private.h"
#include "latent-figure-view.h"
#include "latent-registry.h"

#define N_ROWS 400000

/* Runs the main loop until @binned binnings have been done, or 10 s. */
static gboolean
wait_for_binned (guint binned)
{
  gint64 until = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (_latent_figure_density_n_binned () < binned && g_get_monotonic_time () < until)
    {
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (5 * 1000);
    }
  return _latent_figure_density_n_binned () >= binned;
}

/* A few frames' worth of the main loop. */
static void
settle (void)
{
  gint64 until = g_get_monotonic_time () + 300 * 1000;

  while (g_get_monotonic_time () < until)
    {
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (10 * 1000);
    }
}

static LatentSnapshot *
big_snapshot (void)
{
  g_autoptr(GError) error = NULL;
  const LatentAlgorithm *kmeans = latent_registry_lookup ("kmeans", &error);
  g_autoptr(LatentDataset) ds = latent_dataset_new ("big", N_ROWS, 2, NULL);
  g_autoptr(LatentParams) params = NULL;
  float *x = latent_dataset_get_data (ds);
  LatentSnapshot *snap;

  g_assert_no_error (error);
  params = latent_algorithm_new_params (kmeans);
  snap = latent_snapshot_new (kmeans, ds, params);
  snap->n_rows = N_ROWS;
  snap->n_cols = 2;
  snap->clusters.k = 2;
  snap->clusters.labels = g_new (gint32, N_ROWS);
  snap->clusters.cluster_sizes = g_new0 (guint, 2);
  for (guint i = 0; i < N_ROWS; i++)
    {
      x[2 * i] = (float) (i % 997) + (i % 2) * 1000.0f;
      x[2 * i + 1] = (float) (i % 991);
      snap->clusters.labels[i] = i % 2;
      snap->clusters.cluster_sizes[i % 2]++;
    }
  return snap;
}

static void
test_density_kept (void)
{
  g_autoptr(LatentSnapshot) snap = big_snapshot ();
  GtkWidget *window = gtk_window_new ();
  GtkWidget *view = latent_figure_view_new ();
  LatentFigureStyle style;
  guint before;

  gtk_window_set_default_size (GTK_WINDOW (window), 700, 500);
  gtk_window_set_child (GTK_WINDOW (window), view);
  before = _latent_figure_density_n_binned ();
  latent_figure_view_set_snapshot (LATENT_FIGURE_VIEW (view), snap);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (wait_for_binned (before + 1));
  settle ();

  latent_figure_view_get_style (LATENT_FIGURE_VIEW (view), &style);
  g_assert_true (style.density_later);
  g_assert_nonnull (style.density);
  g_assert_true (latent_figure_scatter_uses_density (snap, &style, gtk_widget_get_width (view),
                                                     gtk_widget_get_height (view)));
  g_assert_true (latent_figure_scatter_density_fits (style.density, snap, &style, gtk_widget_get_width (view),
                                                     gtk_widget_get_height (view)));

  /* Redraws paint the kept image. */
  before = _latent_figure_density_n_binned ();
  for (int i = 0; i < 5; i++)
    {
      gtk_widget_queue_draw (view);
      settle ();
    }
  g_assert_cmpuint (_latent_figure_density_n_binned (), ==, before);

  /* Another size bins once more, and that image fits. */
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 560);
  g_assert_true (wait_for_binned (before + 1));
  settle ();
  latent_figure_view_get_style (LATENT_FIGURE_VIEW (view), &style);
  g_assert_true (latent_figure_scatter_density_fits (style.density, snap, &style, gtk_widget_get_width (view),
                                                     gtk_widget_get_height (view)));

  gtk_window_destroy (GTK_WINDOW (window));
  settle ();
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    {
      g_print ("1..0 # SKIP no display\n");
      return 0;
    }
  g_test_add_func ("/density-view/kept", test_density_kept);
  return g_test_run ();
}
