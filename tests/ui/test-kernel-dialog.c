/* test-kernel-dialog.c — the kernel editor shows a kernel whole and gives
 * it back as it came: a heat map in one number format that fits the
 * screen at any size, presets that are the engine's, and a Gaussian as
 * separable as the window ran it
 *
 * Needs a display (the ui suite runs it under xvfb-run); skips without one.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-test-kernel-dialog"

#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "latent-filter.h"
#include "latent-kernel-dialog.h"
#include "latent-kernel-grid.h"
#include "latent-ui-resources.h"

/* Every descendant of @widget of @type, depth first. */
static void
collect (GtkWidget *widget,
         GType      type,
         GPtrArray *out)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      if (G_TYPE_CHECK_INSTANCE_TYPE (child, type))
        g_ptr_array_add (out, child);
      collect (child, type, out);
    }
}

static LatentFilter *
gaussian_13 (void)
{
  g_autoptr(GError) error = NULL;
  LatentFilter *filter = latent_filter_new_preset ("gaussian", 13, 2.0, 1.0, 0.0, &error);

  g_assert_no_error (error);
  g_assert_nonnull (filter);
  g_assert_cmpuint (latent_filter_get_size (filter), ==, 13);
  /* The window runs it with the separable method. */
  g_assert_true (latent_filter_is_separable (filter));
  return filter;
}

/* The one entry and the heat map's cells of @dialog. */
static GtkEditable *
weight_entry (GtkWidget *dialog)
{
  g_autoptr(GPtrArray) entries = g_ptr_array_new ();

  /* The spin buttons are editables too, not entries. */
  collect (dialog, GTK_TYPE_ENTRY, entries);
  g_assert_cmpuint (entries->len, ==, 1);
  return entries->pdata[0];
}

static LatentKernelGrid *
grid_of (GtkWidget *dialog)
{
  g_autoptr(GPtrArray) grids = g_ptr_array_new ();

  collect (dialog, LATENT_TYPE_KERNEL_GRID, grids);
  g_assert_cmpuint (grids->len, ==, 1);
  return grids->pdata[0];
}

static const char *
visible_label_containing (GtkWidget  *dialog,
                          const char *part)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();

  collect (dialog, GTK_TYPE_LABEL, labels);
  for (guint i = 0; i < labels->len; i++)
    if (gtk_widget_get_visible (labels->pdata[i]) && strstr (gtk_label_get_text (labels->pdata[i]), part))
      return gtk_label_get_text (labels->pdata[i]);
  return NULL;
}

/* Decimals after the point (or comma) of @text. */
static int
decimals_of (const char *text)
{
  const char *point = strpbrk (text, ".,");

  return point ? (int) strlen (point + 1) : 0;
}

/* Opened on a 13 × 13 Gaussian, the dialog gives the same kernel back,
 * separable, and says so. Its cells share one number format: the same
 * decimals for every weight, no exponents, each within half a unit of the
 * last place shown (the grid of entries mixed 1.23e-6 with 0.001309). */
static void
test_gaussian_as_it_came (void)
{
  g_autoptr(LatentFilter) gaussian = gaussian_13 ();
  g_autoptr(LatentFilter) typed = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *dialog = latent_kernel_dialog_new (NULL, gaussian);
  LatentKernelGrid *grid = grid_of (dialog);
  const float *want = latent_filter_get_weights (gaussian);
  const char *summary;
  int decimals = -1;

  typed = latent_kernel_dialog_get_filter (LATENT_KERNEL_DIALOG (dialog), &error);
  g_assert_no_error (error);
  g_assert_nonnull (typed);
  g_assert_cmpuint (latent_filter_get_size (typed), ==, 13);
  for (guint k = 0; k < 13 * 13; k++)
    g_assert_cmpfloat (latent_filter_get_weights (typed)[k], ==, want[k]);
  g_assert_true (latent_filter_is_separable (typed));

  summary = visible_label_containing (dialog, "Sum of the weights");
  g_test_message ("summary: %s", summary);
  g_assert_nonnull (summary);
  g_assert_null (strstr (summary, "not separable"));
  g_assert_nonnull (strstr (summary, "separable"));

  for (guint k = 0; k < 13 * 13; k++)
    {
      g_autofree char *text = latent_kernel_grid_dup_cell_text (grid, k);
      double shown = g_ascii_strtod (g_strdelimit (text, ",", '.'), NULL);

      if (k == 0 || k == 13 * 6 + 6)
        g_test_message ("weight %u: %.9g shown as “%s”", k, want[k], text);
      g_assert_null (strchr (text, 'e'));
      if (decimals < 0)
        decimals = decimals_of (text);
      g_assert_cmpint (decimals_of (text), ==, decimals);
      g_assert_cmpfloat (fabs (shown - want[k]), <=, 0.5 * pow (10, -decimals) * 1.0001);
    }
  /* Three significant digits of the largest weight (0.0398). */
  g_assert_cmpint (decimals, ==, 4);
  {
    g_autofree char *scale = latent_kernel_grid_dup_scale (grid);
    g_assert_cmpstr (scale, ==, "");
  }

  /* The centre is selected; its entry holds it in full. */
  g_assert_cmpuint (latent_kernel_grid_get_selected (grid), ==, 13 * 6 + 6);
  g_assert_cmpfloat (fabs (g_ascii_strtod (gtk_editable_get_text (weight_entry (dialog)), NULL) - want[13 * 6 + 6]),
                     <=, 5.0001e-6 * want[13 * 6 + 6]);

  /* A weight typed over is the weight typed; the others stay exact. */
  latent_kernel_grid_set_selected (grid, 0);
  gtk_editable_set_text (weight_entry (dialog), "0.5");
  g_clear_pointer (&typed, latent_filter_free);
  typed = latent_kernel_dialog_get_filter (LATENT_KERNEL_DIALOG (dialog), &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (latent_filter_get_weights (typed)[0], ==, 0.5f);
  g_assert_cmpfloat (latent_filter_get_weights (typed)[1], ==, want[1]);
  g_assert_false (latent_filter_is_separable (typed));
  /* 0.5 is now the largest: three decimals. */
  {
    g_autofree char *text = latent_kernel_grid_dup_cell_text (grid, 0);
    g_assert_cmpint (decimals_of (text), ==, 3);
  }
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* Tiny weights share a power of ten instead of each an exponent;
 * integer kernels show integers. */
static void
test_number_format (void)
{
  g_autoptr(GError) error = NULL;
  float tiny[9] = { 1.23e-6f, 0, 0, 0, 1.309e-4f, 0, 0, 0, -2e-5f };
  g_autoptr(LatentFilter) small = latent_filter_new (3, tiny, 1.0, 0.0, &error);
  g_autoptr(LatentFilter) sobel = latent_filter_new_sobel_x ();
  GtkWidget *dialog = latent_kernel_dialog_new (NULL, small);
  LatentKernelGrid *grid = grid_of (dialog);
  g_autofree char *scale = latent_kernel_grid_dup_scale (grid);
  g_autofree char *corner = latent_kernel_grid_dup_cell_text (grid, 0);
  g_autofree char *centre = latent_kernel_grid_dup_cell_text (grid, 4);
  g_autofree char *last = latent_kernel_grid_dup_cell_text (grid, 8);

  g_test_message ("%s, %s, %s %s", corner, centre, last, scale);
  g_assert_cmpstr (scale, ==, "× 10⁻⁶");
  g_assert_cmpstr (g_strdelimit (centre, ",", '.'), ==, "131");
  g_assert_cmpstr (corner, ==, "1");
  g_assert_cmpstr (last, ==, "-20");
  g_assert_nonnull (visible_label_containing (dialog, "× 10⁻⁶"));
  gtk_window_destroy (GTK_WINDOW (dialog));

  dialog = latent_kernel_dialog_new (NULL, sobel);
  grid = grid_of (dialog);
  for (guint k = 0; k < 9; k++)
    {
      g_autofree char *text = latent_kernel_grid_dup_cell_text (grid, k);
      g_autofree char *want = g_strdup_printf ("%g", latent_filter_get_weights (sobel)[k]);
      g_assert_cmpstr (text, ==, want);
    }
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* A preset from the menu is the engine's kernel: a blur at the size
 * shown, a 3 × 3 one at its own size. */
static void
test_presets (void)
{
  g_autoptr(LatentFilter) gaussian = gaussian_13 ();
  g_autoptr(LatentFilter) sobel = latent_filter_new_sobel_x ();
  g_autoptr(LatentFilter) typed = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *dialog = latent_kernel_dialog_new (NULL, NULL);
  g_autoptr(GPtrArray) spins = g_ptr_array_new ();

  collect (dialog, GTK_TYPE_SPIN_BUTTON, spins);
  /* Size, divisor, offset. */
  g_assert_cmpuint (spins->len, ==, 3);
  gtk_spin_button_set_value (spins->pdata[0], 13);
  g_assert_true (gtk_widget_activate_action (dialog, "kernel.preset", "s", "gaussian"));
  typed = latent_kernel_dialog_get_filter (LATENT_KERNEL_DIALOG (dialog), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (latent_filter_get_size (typed), ==, 13);
  for (guint k = 0; k < 13 * 13; k++)
    g_assert_cmpfloat (latent_filter_get_weights (typed)[k], ==, latent_filter_get_weights (gaussian)[k]);
  g_clear_pointer (&typed, latent_filter_free);

  g_assert_true (gtk_widget_activate_action (dialog, "kernel.preset", "s", "sobel-x"));
  typed = latent_kernel_dialog_get_filter (LATENT_KERNEL_DIALOG (dialog), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (latent_filter_get_size (typed), ==, 3);
  g_assert_cmpfloat (gtk_spin_button_get_value (spins->pdata[0]), ==, 3);
  for (guint k = 0; k < 9; k++)
    g_assert_cmpfloat (latent_filter_get_weights (typed)[k], ==, latent_filter_get_weights (sobel)[k]);
  g_clear_pointer (&typed, latent_filter_free);

  g_assert_true (gtk_widget_activate_action (dialog, "kernel.preset", "s", "identity"));
  typed = latent_kernel_dialog_get_filter (LATENT_KERNEL_DIALOG (dialog), &error);
  g_assert_no_error (error);
  for (guint k = 0; k < 9; k++)
    g_assert_cmpfloat (latent_filter_get_weights (typed)[k], ==, k == 4 ? 1.0f : 0.0f);
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static gboolean
on_timeout (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

static void
wait_ms (guint ms)
{
  gboolean waited = FALSE;

  g_timeout_add (ms, on_timeout, &waited);
  while (!waited)
    g_main_context_iteration (NULL, TRUE);
}

/* On screen: a 13 × 13 kernel prints every value in its cell; a 31 × 31
 * one, the largest, fits a 1280 × 800 screen whole (625 entries did not
 * fit at 25 × 25), its cells at least 14 px. */
static void
test_fits_the_screen (void)
{
  g_autoptr(LatentFilter) gaussian = gaussian_13 ();
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentFilter) large = latent_filter_new_box (31, &error);
  GtkWidget *dialog = latent_kernel_dialog_new (NULL, gaussian);
  LatentKernelGrid *grid = grid_of (dialog);
  graphene_rect_t bounds;

  gtk_window_present (GTK_WINDOW (dialog));
  wait_ms (1200);
  g_test_message ("13 × 13: dialog %d × %d, grid %d × %d", gtk_widget_get_width (dialog),
                  gtk_widget_get_height (dialog), gtk_widget_get_width (GTK_WIDGET (grid)),
                  gtk_widget_get_height (GTK_WIDGET (grid)));
  g_assert_true (latent_kernel_grid_get_shows_values (grid));
  g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (grid), dialog, &bounds));
  g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=, gtk_widget_get_width (dialog));
  gtk_window_destroy (GTK_WINDOW (dialog));

  dialog = latent_kernel_dialog_new (NULL, large);
  grid = grid_of (dialog);
  gtk_window_present (GTK_WINDOW (dialog));
  wait_ms (1200);
  g_test_message ("31 × 31: dialog %d × %d, grid %d × %d", gtk_widget_get_width (dialog),
                  gtk_widget_get_height (dialog), gtk_widget_get_width (GTK_WIDGET (grid)),
                  gtk_widget_get_height (GTK_WIDGET (grid)));
  g_assert_cmpint (gtk_widget_get_width (dialog), <=, 1280);
  g_assert_cmpint (gtk_widget_get_height (dialog), <=, 800);
  g_assert_cmpint (MIN (gtk_widget_get_width (GTK_WIDGET (grid)), gtk_widget_get_height (GTK_WIDGET (grid))), >=, 31 * 14);
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* A weight that is not a number: the error names it and takes the
 * summary's line; Apply cannot; selecting another weight drops the text. */
static void
test_error_names_the_weight (void)
{
  g_autoptr(LatentFilter) gaussian = gaussian_13 ();
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentFilter) typed = NULL;
  GtkWidget *dialog = latent_kernel_dialog_new (NULL, gaussian);
  LatentKernelGrid *grid = grid_of (dialog);
  const char *message;

  gtk_editable_set_text (weight_entry (dialog), "abc");
  g_assert_null (latent_kernel_dialog_get_filter (LATENT_KERNEL_DIALOG (dialog), &error));
  g_assert_nonnull (error);
  message = visible_label_containing (dialog, "not a number");
  g_test_message ("error: %s", message);
  g_assert_nonnull (message);
  g_assert_nonnull (strstr (message, "Weight 7,7"));
  g_assert_null (visible_label_containing (dialog, "Sum of the weights"));

  latent_kernel_grid_set_selected (grid, 0);
  typed = latent_kernel_dialog_get_filter (LATENT_KERNEL_DIALOG (dialog), NULL);
  g_assert_nonnull (typed);
  g_assert_cmpfloat (latent_filter_get_weights (typed)[13 * 6 + 6], ==, latent_filter_get_weights (gaussian)[13 * 6 + 6]);
  g_assert_null (visible_label_containing (dialog, "not a number"));
  gtk_window_destroy (GTK_WINDOW (dialog));
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
  /* The templates' resource, which the static library would drop. */
  g_resources_register (latent_ui_get_resource ());

  g_test_add_func ("/kernel-dialog/gaussian", test_gaussian_as_it_came);
  g_test_add_func ("/kernel-dialog/number-format", test_number_format);
  g_test_add_func ("/kernel-dialog/presets", test_presets);
  g_test_add_func ("/kernel-dialog/fits-the-screen", test_fits_the_screen);
  g_test_add_func ("/kernel-dialog/error-names-the-weight", test_error_names_the_weight);
  return g_test_run ();
}
