/* latent-bench-density.c — a scatter of millions of points as a density
 *
 * For 1 M and 10 M blobs clustered by k-means, times binning the points
 * into a density image (what a view does on its worker thread after a new
 * snapshot, zoom or resize; "bin_first_ms" includes the pass that finds
 * the data's extent, "bin_ms" reuses it as a view does), and redrawing the
 * scatter with that image kept (what a view does on each frame), into an
 * image surface, and as the view does: asking whether its image fits, then
 * drawing into a recording surface as GTK's Cairo nodes are.
 * Prints one JSON line each, with the CPU's model; asserts nothing and
 * needs no display.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

#include "latent-bench-util.h"
#include "latent-catalog.h"
#include "latent-figure.h"
#include "latent-kmeans.h"

#define WIDTH 1200
#define HEIGHT 900
#define REPEATS 15

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* lscpu's "Model name", else /proc/cpuinfo's, so results from different
 * machines are told apart. */
static char *
cpu_model (void)
{
  g_autofree char *out = NULL;
  g_auto(GStrv) lines = NULL;

  if (!g_spawn_command_line_sync ("lscpu", &out, NULL, NULL, NULL) || out == NULL)
    g_file_get_contents ("/proc/cpuinfo", &out, NULL, NULL);
  if (out == NULL)
    return g_strdup ("unknown");
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "Model name:") || g_str_has_prefix (lines[i], "model name"))
      return g_strstrip (g_strdup (strchr (lines[i], ':') + 1));
  return g_strdup ("unknown");
}

static double
median (GArray *times)
{
  g_array_sort (times, compare_double);
  return g_array_index (times, double, times->len / 2);
}

static void
add (JsonBuilder *b, const char *name, double value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_double_value (b, value);
}

static double
redraw_ms (LatentSnapshot          *snapshot,
           const LatentFigureStyle *style,
           gboolean                 recording)
{
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  cairo_rectangle_t extents = { 0, 0, WIDTH, HEIGHT };
  cairo_surface_t *target = recording ? cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, &extents)
                                      : cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);

  for (int i = 0; i < REPEATS; i++)
    {
      cairo_t *cr = cairo_create (target);
      gint64 t0 = g_get_monotonic_time ();
      double ms;

      /* As the view draws: it asks whether its image fits first. */
      if (recording && style->density != NULL)
        latent_figure_scatter_density_fits (style->density, snapshot, style, WIDTH, HEIGHT);
      latent_figure_render (snapshot, LATENT_FIGURE_SCATTER, style, cr, WIDTH, HEIGHT);
      cairo_destroy (cr);
      ms = (g_get_monotonic_time () - t0) / 1000.0;
      g_array_append_val (times, ms);
    }
  cairo_surface_destroy (target);
  return median (times);
}

static void
bench (guint       n,
       const char *cpu)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *spec = g_strdup_printf ("blobs:n=%u,k=5,dims=2,seed=1", n);
  g_autoptr(LatentDataset) dataset = latent_catalog_load (spec, NULL, &error);
  const LatentAlgorithm *alg = latent_kmeans_get_algorithm ();
  g_autoptr(LatentParams) params = latent_algorithm_new_params (alg);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(GArray) bins = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(LatentFit) fit = NULL;
  cairo_surface_t *density = NULL, *first;
  LatentFigureStyle style;
  double first_ms, uncached_ms;
  gint64 t0;

  if (dataset == NULL)
    {
      g_printerr ("latent-bench-density: %s\n", error->message);
      exit (2);
    }
  latent_params_parse (params, "k=5", NULL);
  latent_params_parse (params, "max-iterations=1", NULL);
  fit = latent_algorithm_fit (alg, dataset, params, 1, NULL, NULL, NULL, NULL, &error);
  if (fit == NULL)
    {
      g_printerr ("latent-bench-density: %s\n", error->message);
      exit (1);
    }
  latent_figure_style_init (&style);
  style.pixel_scale = 1.0;
  /* The first binning also makes the dataset's projection; untimed. */
  density = latent_figure_scatter_density (fit->snapshot, &style, WIDTH, HEIGHT, NULL);
  g_clear_pointer (&density, cairo_surface_destroy);

  t0 = g_get_monotonic_time ();
  first = latent_figure_scatter_density (fit->snapshot, &style, WIDTH, HEIGHT, NULL);
  first_ms = (g_get_monotonic_time () - t0) / 1000.0;
  if (first == NULL)
    {
      g_printerr ("latent-bench-density: %u points drew no density at %d × %d\n", n, WIDTH, HEIGHT);
      exit (1);
    }
  for (int i = 0; i < REPEATS; i++)
    {
      LatentFigureStyle with = style;
      double ms;

      /* As a view rebins: the extent from the image it has. */
      with.density = first;
      t0 = g_get_monotonic_time ();
      density = latent_figure_scatter_density (fit->snapshot, &with, WIDTH, HEIGHT, NULL);
      ms = (g_get_monotonic_time () - t0) / 1000.0;
      g_array_append_val (bins, ms);
      g_clear_pointer (&density, cairo_surface_destroy);
    }

  uncached_ms = redraw_ms (fit->snapshot, &style, FALSE);
  style.density = first;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "bench");
  json_builder_add_string_value (builder, "scatter-density");
  json_builder_set_member_name (builder, "cpu");
  json_builder_add_string_value (builder, cpu);
  json_builder_set_member_name (builder, "threads");
  json_builder_add_int_value (builder, g_get_num_processors ());
  json_builder_set_member_name (builder, "points");
  json_builder_add_int_value (builder, n);
  json_builder_set_member_name (builder, "size");
  json_builder_add_string_value (builder, G_STRINGIFY (WIDTH) "x" G_STRINGIFY (HEIGHT));
  json_builder_set_member_name (builder, "fits");
  json_builder_add_boolean_value (builder, latent_figure_scatter_density_fits (first, fit->snapshot, &style,
                                                                               WIDTH, HEIGHT));
  add (builder, "bin_first_ms", first_ms);
  add (builder, "bin_ms", median (bins));
  add (builder, "redraw_ms", redraw_ms (fit->snapshot, &style, FALSE));
  add (builder, "redraw_recording_ms", redraw_ms (fit->snapshot, &style, TRUE));
  add (builder, "redraw_uncached_ms", uncached_ms);
  add (builder, "budget_ms", 16.0);
  json_builder_end_object (builder);
  latent_bench_emit (builder);
  cairo_surface_destroy (first);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *cpu = cpu_model ();

  bench (1000000, cpu);
  bench (10000000, cpu);
  return 0;
}
