/* test-layout.c — the main window at its default 1200 × 800 shows every
 * label whole, for every algorithm: none ellipsized, none pushed outside the
 * window or the scrolled pane it sits in, and the window does not grow;
 * at 800 × 600 it fits, the timeline is long enough to scrub, and shrunk
 * and grown again the sidebar keeps its width (issue 40, item 16)
 *
 * Needs a display (the ui suite runs it under xvfb-run); skips without one.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-test-layout"

#include <gtk/gtk.h>
#include <string.h>

#include "latent-application.h"
#include "latent-registry.h"
#include "latent-ui-resources.h"
#include "latent-figure-view.h"
#include "latent-window.h"
#include "latent-window-private.h"

#define WIDTH  1200
#define HEIGHT 800

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

/* Lets the window lay itself out and draw: a few frames' worth. */
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

/* One application for every test: a second one could not register the
 * same name while the first is exported. */
static LatentApplication *
shared_application (void)
{
  static LatentApplication *application;

  if (application == NULL)
    {
      g_autoptr(GError) error = NULL;

      application = latent_application_new ();
      g_application_register (G_APPLICATION (application), NULL, &error);
      g_assert_no_error (error);
    }
  return application;
}

/* The drop-down listing the algorithms by title. */
static GtkDropDown *
find_algorithm_dropdown (GtkWidget *window)
{
  const LatentAlgorithm * const *all = latent_registry_list ();
  g_autoptr(GPtrArray) dropdowns = g_ptr_array_new ();

  collect (window, GTK_TYPE_DROP_DOWN, dropdowns);
  for (guint i = 0; i < dropdowns->len; i++)
    {
      GListModel *model = gtk_drop_down_get_model (dropdowns->pdata[i]);

      if (GTK_IS_STRING_LIST (model) && g_list_model_get_n_items (model) > 0 &&
          g_strcmp0 (gtk_string_list_get_string (GTK_STRING_LIST (model), 0), all[0]->title) == 0)
        return dropdowns->pdata[i];
    }
  return NULL;
}

/* Whether @label is shown whole: not ellipsized, and inside @window and
 * every scrolled window around it (a label pushed past a pane's edge is
 * cut off as surely as an ellipsized one). */
static gboolean
label_whole (GtkLabel   *label,
             GtkWidget  *window,
             char      **why)
{
  GtkWidget *widget = GTK_WIDGET (label);
  graphene_rect_t bounds;

  if (pango_layout_is_ellipsized (gtk_label_get_layout (label)))
    {
      *why = g_strdup ("ellipsized");
      return FALSE;
    }
  for (GtkWidget *clip = gtk_widget_get_parent (widget); clip; clip = gtk_widget_get_parent (clip))
    {
      graphene_rect_t area;

      if (clip != window && !GTK_IS_SCROLLED_WINDOW (clip))
        continue;
      if (!gtk_widget_compute_bounds (widget, clip, &bounds))
        continue;
      area = GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (clip), gtk_widget_get_height (clip));
      /* Vertical scrolling shows the rest; across, nothing does. */
      if (bounds.origin.x < -0.5 || bounds.origin.x + bounds.size.width > area.size.width + 0.5)
        {
          *why = g_strdup_printf ("x %.0f to %.0f outside the %s, 0 to %.0f wide",
                                  bounds.origin.x, bounds.origin.x + bounds.size.width,
                                  G_OBJECT_TYPE_NAME (clip), area.size.width);
          return FALSE;
        }
    }
  return TRUE;
}

static guint
check_labels (GtkWidget  *window,
              const char *algorithm)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  guint checked = 0;

  collect (window, GTK_TYPE_LABEL, labels);
  for (guint i = 0; i < labels->len; i++)
    {
      GtkLabel *label = labels->pdata[i];
      g_autofree char *why = NULL;

      if (!gtk_widget_get_mapped (GTK_WIDGET (label)) || gtk_label_get_text (label)[0] == '\0')
        continue;
      checked++;
      if (!label_whole (label, window, &why))
        g_test_fail_printf ("%s: the label \"%s\" is cut: %s", algorithm, gtk_label_get_text (label), why);
    }
  return checked;
}

static void
test_every_algorithm (void)
{
  const LatentAlgorithm * const *all = latent_registry_list ();
  LatentApplication *application = shared_application ();
  GtkWidget *window;
  GtkDropDown *dropdown;
  int width, height;

  window = GTK_WIDGET (latent_window_new (GTK_APPLICATION (application)));
  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT);
  gtk_window_present (GTK_WINDOW (window));
  settle ();
  /* Less the decorations drawn without a window manager. */
  width = gtk_widget_get_width (window);
  height = gtk_widget_get_height (window);
  g_assert_cmpint (width, >, WIDTH - 40);
  g_assert_cmpint (height, >, HEIGHT - 80);
  dropdown = find_algorithm_dropdown (window);
  g_assert_nonnull (dropdown);

  for (guint a = 0; all[a]; a++)
    {
      guint checked;

      gtk_drop_down_set_selected (dropdown, a);
      settle ();
      checked = check_labels (window, all[a]->id);
      g_test_message ("%s: %u labels shown, window %d × %d", all[a]->id, checked,
                      gtk_widget_get_width (window), gtk_widget_get_height (window));
      /* The labels are the parameters, the status and the metrics' heads. */
      g_assert_cmpuint (checked, >=, 5);
      g_assert_cmpint (gtk_widget_get_width (window), ==, width);
      g_assert_cmpint (gtk_widget_get_height (window), ==, height);
    }
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The first shown label whose text holds @needle, or NULL. */
static GtkLabel *
find_label_with (GtkWidget  *window,
                 const char *needle)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();

  collect (window, GTK_TYPE_LABEL, labels);
  for (guint i = 0; i < labels->len; i++)
    if (gtk_widget_get_mapped (labels->pdata[i]) && strstr (gtk_label_get_text (labels->pdata[i]), needle))
      return labels->pdata[i];
  return NULL;
}

/* Runs @algorithm on Iris to its end and returns the status line. */
static char *
status_after_run (GtkWidget  *window,
                  const char *algorithm)
{
  const LatentAlgorithm * const *all = latent_registry_list ();
  GtkDropDown *dropdown = find_algorithm_dropdown (window);
  gint64 deadline;
  GtkLabel *status = NULL;

  for (guint a = 0; all[a]; a++)
    if (g_str_equal (all[a]->id, algorithm))
      gtk_drop_down_set_selected (dropdown, a);
  settle ();
  g_action_group_activate_action (G_ACTION_GROUP (window), "run", NULL);
  deadline = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
  while (g_get_monotonic_time () < deadline)
    {
      const char *text;

      settle ();
      status = find_label_with (window, " · iteration ");
      text = status ? gtk_label_get_text (status) : "";
      if (strstr (text, "converged") || strstr (text, "finished") || strstr (text, "limit")
          || strstr (text, "failed") || strstr (text, "done"))
        {
          g_autofree char *why = NULL;

          g_test_message ("%s: %s", algorithm, text);
          /* The end of the line says how the run ended: it must show. */
          if (!label_whole (status, window, &why))
            g_test_fail_printf ("%s: the status \"%s\" is cut: %s", algorithm, text, why);
          return g_strdup (text);
        }
    }
  g_test_fail_printf ("%s: the run did not end within 120 s", algorithm);
  return g_strdup ("");
}

/* A learner that trained all its epochs did what it was asked: the status
 * says so instead of "iteration limit reached", which reads like a failure,
 * and the autoencoder's long loss name does not push it off the line
 * (issue 34, 3b.4). */
static void
test_finished_epochs (void)
{
  LatentApplication *application = shared_application ();
  g_autofree char *wta = NULL;
  GtkWidget *window;
  gint64 deadline;

  window = GTK_WIDGET (latent_window_new (GTK_APPLICATION (application)));
  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT);
  gtk_window_present (GTK_WINDOW (window));
  latent_window_load_dataset (LATENT_WINDOW (window), "iris");
  deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while (find_label_with (window, " × ") == NULL && g_get_monotonic_time () < deadline)
    settle ();

  wta = status_after_run (window, "wta");
  g_assert_null (strstr (wta, "limit"));
  g_assert_nonnull (strstr (wta, "finished 5 epochs"));
  g_assert_null (strstr (wta, "½‖x̂ − x‖²"));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Scrubbed back to iteration 2 and gone on from there, k-means keeps the
 * trails of its centres from iteration 0, as the first run had them; they
 * vanished (issue 34, 3b.1). */
static void
test_timeline_trails (void)
{
  LatentApplication *application = shared_application ();
  g_autoptr(GPtrArray) scales = g_ptr_array_new ();
  g_autoptr(GPtrArray) views = g_ptr_array_new ();
  g_autofree char *first = NULL;
  g_autofree char *again = NULL;
  GtkRange *timeline = NULL;
  LatentFigureStyle style;
  GtkWidget *window;
  guint trail_first, trail_again;
  gint64 deadline;

  window = GTK_WIDGET (latent_window_new (GTK_APPLICATION (application)));
  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT);
  gtk_window_present (GTK_WINDOW (window));
  latent_window_load_dataset (LATENT_WINDOW (window), "iris");
  deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while (find_label_with (window, " × ") == NULL && g_get_monotonic_time () < deadline)
    settle ();
  collect (window, GTK_TYPE_SCALE, scales);
  for (guint i = 0; i < scales->len; i++)
    if (g_strcmp0 (gtk_buildable_get_buildable_id (scales->pdata[i]), "timeline") == 0)
      timeline = scales->pdata[i];
  g_assert_nonnull (timeline);
  collect (window, LATENT_TYPE_FIGURE_VIEW, views);
  g_assert_cmpuint (views->len, ==, 1);

  /* The trail is the frames kept before the one shown (the last), as many
   * as the window kept: on a loaded machine an iteration may go by
   * without a frame. */
  first = status_after_run (window, "kmeans");
  g_assert_nonnull (strstr (first, "converged"));
  latent_figure_view_get_style (views->pdata[0], &style);
  trail_first = style.n_trail;
  g_test_message ("%s: trail of %u, %u frames", first, trail_first, latent_frames_get_n_frames (latent_session_get_frames (LATENT_WINDOW (window)->session)));
  g_assert_cmpuint (trail_first, >=, 3);
  g_assert_cmpuint (trail_first, ==, latent_frames_get_n_frames (latent_session_get_frames (LATENT_WINDOW (window)->session)) - 1);

  gtk_range_set_value (timeline, 2);
  settle ();
  g_action_group_activate_action (G_ACTION_GROUP (window), "run", NULL);
  deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  do
    {
      GtkLabel *status;

      settle ();
      status = find_label_with (window, " · iteration ");
      g_clear_pointer (&again, g_free);
      again = g_strdup (status ? gtk_label_get_text (status) : "");
    }
  while (!strstr (again, "converged") && g_get_monotonic_time () < deadline);
  latent_figure_view_get_style (views->pdata[0], &style);
  trail_again = style.n_trail;
  g_test_message ("%s: trail of %u, %u frames", again, trail_again, latent_frames_get_n_frames (latent_session_get_frames (LATENT_WINDOW (window)->session)));
  g_assert_nonnull (strstr (again, "converged"));
  g_assert_cmpuint (trail_again, ==, latent_frames_get_n_frames (latent_session_get_frames (LATENT_WINDOW (window)->session)) - 1);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The widest child's minimum, for saying what does not fit. */
static void
say_widest (GtkWidget *widget,
            int        depth)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      int minimum = 0;

      gtk_widget_measure (child, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
      if (minimum > 300 && depth < 12)
        {
          g_test_message ("%*s%s %s: at least %d wide", depth * 2, "", G_OBJECT_TYPE_NAME (child),
                          gtk_widget_get_name (child), minimum);
          say_widest (child, depth + 1);
        }
    }
}

static GtkWidget *
find_by_id (GtkWidget  *window,
            GType       type,
            const char *id)
{
  g_autoptr(GPtrArray) all = g_ptr_array_new ();

  collect (window, type, all);
  for (guint i = 0; i < all->len; i++)
    if (g_strcmp0 (gtk_buildable_get_buildable_id (all->pdata[i]), id) == 0)
      return all->pdata[i];
  return NULL;
}

/* 800 × 600, every algorithm: the window's minimum fits in it, the
 * timeline has room to scrub (it was a 15 px stub), and the sidebar is
 * the width it was at 1200 after the window shrank and grew (it kept
 * half the window). */
static void
test_narrow (void)
{
  const LatentAlgorithm * const *all = latent_registry_list ();
  LatentApplication *application = shared_application ();
  GtkWidget *window, *timeline, *paned;
  GtkDropDown *dropdown;
  int minimum = 0, sidebar_wide, sidebar_again;

  window = GTK_WIDGET (latent_window_new (GTK_APPLICATION (application)));
  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT);
  gtk_window_present (GTK_WINDOW (window));
  settle ();
  timeline = find_by_id (window, GTK_TYPE_SCALE, "timeline");
  g_assert_nonnull (timeline);
  paned = gtk_widget_get_ancestor (GTK_WIDGET (find_by_id (window, LATENT_TYPE_FIGURE_VIEW, "figure_view")),
                                   GTK_TYPE_PANED);
  g_assert_nonnull (paned);
  sidebar_wide = gtk_widget_get_width (gtk_paned_get_start_child (GTK_PANED (paned)));

  gtk_window_set_default_size (GTK_WINDOW (window), 800, 600);
  settle ();
  dropdown = find_algorithm_dropdown (window);
  for (guint a = 0; all[a]; a++)
    {
      gtk_drop_down_set_selected (dropdown, a);
      settle ();
      gtk_widget_measure (window, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
      g_test_message ("%s at 800 × 600: window %d × %d, at least %d wide; timeline %d wide", all[a]->id,
                      gtk_widget_get_width (window), gtk_widget_get_height (window), minimum,
                      gtk_widget_get_width (timeline));
      if (minimum > 800)
        {
          say_widest (window, 0);
          g_test_fail_printf ("%s: the window needs %d pixels, more than 800", all[a]->id, minimum);
        }
      g_assert_cmpint (gtk_widget_get_width (timeline), >=, 400);
    }

  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT);
  settle ();
  sidebar_again = gtk_widget_get_width (gtk_paned_get_start_child (GTK_PANED (paned)));
  g_test_message ("sidebar %d wide at 1200, %d after 800 and back", sidebar_wide, sidebar_again);
  g_assert_cmpint (ABS (sidebar_again - sidebar_wide), <=, 2);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  /* The remembered window size must not stand in for the default. */
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  if (!gtk_init_check ())
    {
      g_print ("1..0 # SKIP no display\n");
      return 0;
    }
  g_resources_register (latent_ui_get_resource ());

  g_test_add_func ("/layout/every-algorithm", test_every_algorithm);
  g_test_add_func ("/layout/narrow", test_narrow);
  g_test_add_func ("/layout/finished-epochs", test_finished_epochs);
  g_test_add_func ("/layout/timeline-trails", test_timeline_trails);
  return g_test_run ();
}
