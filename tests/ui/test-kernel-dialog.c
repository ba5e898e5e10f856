/* test-kernel-dialog.c — the kernel editor shows a kernel whole and gives
 * it back as it came: every weight readable in its entry, every column in
 * the window, and a Gaussian as separable as the window ran it
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

/* Opened on a 13 × 13 Gaussian, the dialog gives the same kernel back,
 * separable, and says so; each entry shows its whole weight. */
static void
test_gaussian_as_it_came (void)
{
  g_autoptr(LatentFilter) gaussian = gaussian_13 ();
  g_autoptr(LatentFilter) typed = NULL;
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  g_autoptr(GPtrArray) entries = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  GtkWidget *dialog = latent_kernel_dialog_new (NULL, gaussian);
  const float *want = latent_filter_get_weights (gaussian);
  const char *summary = NULL;

  typed = latent_kernel_dialog_get_filter (LATENT_KERNEL_DIALOG (dialog), &error);
  g_assert_no_error (error);
  g_assert_nonnull (typed);
  g_assert_cmpuint (latent_filter_get_size (typed), ==, 13);
  for (guint k = 0; k < 13 * 13; k++)
    g_assert_cmpfloat (latent_filter_get_weights (typed)[k], ==, want[k]);
  g_assert_true (latent_filter_is_separable (typed));

  collect (dialog, GTK_TYPE_LABEL, labels);
  for (guint i = 0; i < labels->len; i++)
    if (g_str_has_prefix (gtk_label_get_text (labels->pdata[i]), "Sum of the weights"))
      summary = gtk_label_get_text (labels->pdata[i]);
  g_test_message ("summary: %s", summary);
  g_assert_nonnull (summary);
  g_assert_null (strstr (summary, "not separable"));
  g_assert_nonnull (strstr (summary, "separable"));

  collect (dialog, GTK_TYPE_ENTRY, entries);
  /* The size's spin button is an editable too, not an entry. */
  g_assert_cmpuint (entries->len, ==, 13 * 13);
  for (guint k = 0; k < entries->len; k++)
    {
      GtkEditable *entry = entries->pdata[k];
      const char *text = gtk_editable_get_text (entry);
      double shown = g_ascii_strtod (text, NULL);

      if (k < 2 || k == 13 * 6 + 6)
        g_test_message ("weight %u: %.9g shown as “%s” in %d characters", k, want[k], text,
                        gtk_editable_get_width_chars (entry));
      g_assert_cmpint ((int) g_utf8_strlen (text, -1), <=, gtk_editable_get_width_chars (entry));
      /* Three significant digits at least. */
      g_assert_cmpfloat (fabs (shown - want[k]), <=, 5e-3 * fabs (want[k]));
    }

  /* A weight typed over is the weight typed. */
  gtk_editable_set_text (entries->pdata[0], "0.5");
  g_clear_pointer (&typed, latent_filter_free);
  typed = latent_kernel_dialog_get_filter (LATENT_KERNEL_DIALOG (dialog), &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (latent_filter_get_weights (typed)[0], ==, 0.5f);
  g_assert_cmpfloat (latent_filter_get_weights (typed)[1], ==, want[1]);
  g_assert_false (latent_filter_is_separable (typed));
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static gboolean
on_timeout (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* On screen, every column of a 13 × 13 kernel lies inside the window, and
 * each weight inside its entry. */
static void
test_every_column_shows (void)
{
  g_autoptr(LatentFilter) gaussian = gaussian_13 ();
  g_autoptr(GPtrArray) entries = g_ptr_array_new ();
  GtkWidget *dialog = latent_kernel_dialog_new (NULL, gaussian);
  gboolean waited = FALSE;
  int width;

  gtk_window_present (GTK_WINDOW (dialog));
  g_timeout_add (1500, on_timeout, &waited);
  while (!waited)
    g_main_context_iteration (NULL, TRUE);
  width = gtk_widget_get_width (dialog);
  g_test_message ("dialog %d × %d", width, gtk_widget_get_height (dialog));
  g_assert_true (gtk_widget_get_mapped (dialog));

  collect (dialog, GTK_TYPE_ENTRY, entries);
  g_assert_cmpuint (entries->len, ==, 13 * 13);
  for (guint k = 0; k < entries->len; k++)
    {
      GtkWidget *entry = entries->pdata[k];
      g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (entry, gtk_editable_get_text (GTK_EDITABLE (entry)));
      graphene_rect_t bounds;
      int text_width;

      g_assert_true (gtk_widget_compute_bounds (entry, dialog, &bounds));
      pango_layout_get_pixel_size (layout, &text_width, NULL);
      if (k % 13 == 12 && k / 13 == 6)
        g_test_message ("last column: x %.0f–%.0f of %d; “%s” %d px in %d", bounds.origin.x,
                        bounds.origin.x + bounds.size.width, width, gtk_editable_get_text (GTK_EDITABLE (entry)),
                        text_width, gtk_widget_get_width (entry));
      g_assert_cmpfloat (bounds.origin.x, >=, 0.0);
      g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=, width);
      g_assert_cmpint (text_width, <=, gtk_widget_get_width (entry));
    }
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static void
wait_ms (guint ms)
{
  gboolean waited = FALSE;

  g_timeout_add (ms, on_timeout, &waited);
  while (!waited)
    g_main_context_iteration (NULL, TRUE);
}

/* How many of @entries lie wholly inside @viewport on screen. */
static guint
count_inside (GPtrArray *entries,
              GtkWidget *viewport)
{
  const int w = gtk_widget_get_width (viewport), h = gtk_widget_get_height (viewport);
  guint inside = 0;

  for (guint k = 0; k < entries->len; k++)
    {
      graphene_rect_t b;

      if (gtk_widget_compute_bounds (entries->pdata[k], viewport, &b) && b.origin.x >= 0 && b.origin.y >= 0 &&
          b.origin.x + b.size.width <= w && b.origin.y + b.size.height <= h)
        inside++;
    }
  return inside;
}

/* A weight that is not a number: the error takes the summary's line, so
 * the grid keeps its room. It used to add a line below the (emptied)
 * summary, the weights lost their last row to scroll bars, and the window,
 * sized when it opened, did not grow. */
static void
test_error_keeps_the_grid (void)
{
  g_autoptr(LatentFilter) gaussian = gaussian_13 ();
  g_autoptr(GPtrArray) entries = g_ptr_array_new ();
  g_autoptr(GPtrArray) scrolled = g_ptr_array_new ();
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  GtkWidget *dialog = latent_kernel_dialog_new (NULL, gaussian);
  GtkWidget *viewport;
  const char *message = NULL;

  gtk_window_present (GTK_WINDOW (dialog));
  wait_ms (1500);
  collect (dialog, GTK_TYPE_ENTRY, entries);
  collect (dialog, GTK_TYPE_SCROLLED_WINDOW, scrolled);
  g_assert_cmpuint (scrolled->len, ==, 1);
  viewport = scrolled->pdata[0];
  g_assert_cmpuint (count_inside (entries, viewport), ==, 13 * 13);

  gtk_editable_set_text (entries->pdata[13 * 6 + 6], "abc");
  wait_ms (700);
  g_assert_null (latent_kernel_dialog_get_filter (LATENT_KERNEL_DIALOG (dialog), &error));
  g_assert_nonnull (error);
  collect (dialog, GTK_TYPE_LABEL, labels);
  for (guint i = 0; i < labels->len; i++)
    if (gtk_widget_is_visible (labels->pdata[i]) && strstr (gtk_label_get_text (labels->pdata[i]), "not a number"))
      message = gtk_label_get_text (labels->pdata[i]);
  g_test_message ("error: %s; %u of %u weights in view", message, count_inside (entries, viewport), 13 * 13);
  g_assert_nonnull (message);
  g_assert_cmpuint (count_inside (entries, viewport), ==, 13 * 13);
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
  g_test_add_func ("/kernel-dialog/columns", test_every_column_shows);
  g_test_add_func ("/kernel-dialog/error-keeps-the-grid", test_error_keeps_the_grid);
  return g_test_run ();
}
