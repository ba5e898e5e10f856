/* latent-window.c — the main window: a dataset, an algorithm, a live run
 *
 * The session (engine/run/latent-session.c) holds the dataset, the
 * parameters and the run. This file, the window's core, sets the window up
 * and shows the session: the frame shown, the status line, the metrics,
 * the error bar, which actions apply and the View drop-down (which figure
 * of the result is shown). The other parts (latent-window-private.h) each
 * add their controls.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-window"

#include "latent-window-private.h"

#include "latent-family.h"
#include "latent-memory.h"
#include "latent-metrics.h"
#include "latent-registry.h"
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "latent-catalog.h"
#include "latent-ui-util.h"

G_DEFINE_FINAL_TYPE (LatentWindow, latent_window, ADW_TYPE_APPLICATION_WINDOW)

/* Errors */

void
_latent_window_show_error (LatentWindow *self,
                           const char   *message)
{
  latent_label_set_text (self->error_label, message, _("Error"));
  gtk_info_bar_set_revealed (self->error_bar, TRUE);
  self->error_source = LATENT_WINDOW_ERROR_OTHER;
}

static void
on_error_dismissed (LatentWindow *self)
{
  gtk_info_bar_set_revealed (self->error_bar, FALSE);
  self->error_source = LATENT_WINDOW_ERROR_OTHER;
}

/* The session's refusal of the parameters, or its run's failure: shown
 * while it holds, gone when a change puts it right. Any other error stays
 * until dismissed. */
static void
show_session_error (LatentWindow      *self,
                    const char        *message,
                    LatentWindowError  source)
{
  if (message)
    {
      _latent_window_show_error (self, message);
      self->error_source = source;
    }
  else if (self->error_source == source)
    {
      gtk_info_bar_set_revealed (self->error_bar, FALSE);
      self->error_source = LATENT_WINDOW_ERROR_OTHER;
    }
}

static void
on_refusal (LatentWindow *self)
{
  show_session_error (self, latent_session_get_refusal (self->session), LATENT_WINDOW_ERROR_REFUSAL);
}

static void
on_failure (LatentWindow *self)
{
  show_session_error (self, latent_session_get_failure (self->session), LATENT_WINDOW_ERROR_FAILURE);
}

/* Notices: what was done and where ("Saved NAME in FOLDER"), as a toast
 * with Open Folder that leaves by itself. Others ask through
 * win.show-notice (text, folder): the export dialog does. */

/* libadwaita 1.2 leaves a toast's close button nameless (an icon): a
 * screen reader says "button". Named once the toast is shown, which for a
 * toast queued behind another is after that one leaves. */
static void
name_toast_buttons (GtkWidget *widget,
                    gboolean   in_toast)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    if (in_toast && GTK_IS_BUTTON (child) && gtk_button_get_label (GTK_BUTTON (child)) == NULL)
      gtk_accessible_update_property (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Dismiss"), -1);
    else if (in_toast || g_str_equal (G_OBJECT_TYPE_NAME (child), "AdwToastWidget"))
      name_toast_buttons (child, TRUE);
}

static gboolean
name_toast_buttons_later (gpointer user_data)
{
  name_toast_buttons (user_data, FALSE);
  return G_SOURCE_REMOVE;
}

static void
on_toast_dismissed (AdwToast  *toast,
                    GtkWidget *overlay)
{
  g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, name_toast_buttons_later, g_object_ref (overlay), g_object_unref);
}

static void
on_show_notice (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  LatentWindow *self = user_data;
  const char *text, *folder;
  AdwToast *toast;

  g_variant_get (parameter, "(&s&s)", &text, &folder);
  toast = adw_toast_new (text);
  /* Long enough to read a path and reach the button. */
  adw_toast_set_timeout (toast, 8);
  if (*folder != '\0')
    {
      adw_toast_set_button_label (toast, _("_Open Folder"));
      adw_toast_set_action_name (toast, "win.show-folder");
      adw_toast_set_action_target_value (toast, g_variant_new_string (folder));
    }
  g_signal_connect_object (toast, "dismissed", G_CALLBACK (on_toast_dismissed), self->toast_overlay, 0);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
  name_toast_buttons (GTK_WIDGET (self->toast_overlay), FALSE);
}

/* In the file manager; a failure is said in the error bar, nothing more. */
static void
on_show_folder (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  LatentWindow *self = user_data;
  const char *folder = g_variant_get_string (parameter, NULL);
  g_autoptr(GdkAppLaunchContext) context = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (folder);
  g_autofree char *uri = g_file_get_uri (file);
  g_autoptr(GError) error = NULL;

  context = gdk_display_get_app_launch_context (gtk_widget_get_display (GTK_WIDGET (self)));
  if (!g_app_info_launch_default_for_uri (uri, G_APP_LAUNCH_CONTEXT (context), &error))
    {
      g_autofree char *shown = g_filename_display_name (folder);
      g_autofree char *message = g_strdup_printf (_("Could not open “%s”: %s"), shown, error->message);

      _latent_window_show_error (self, message);
    }
}

/* Status */

/* Where the figure will be, while a start takes seconds (restarts, many
 * centers, a first run's compiler): what it waits for, big enough to see. */
static void
update_placeholder (LatentWindow   *self,
                    LatentSnapshot *frame)
{
  LatentSession *session = self->session;
  g_autoptr(GString) text = NULL;
  LatentDataset *photo = NULL;

  LatentDataset *dataset = latent_session_get_dataset (session);
  const LatentAlgorithm *algorithm = latent_session_get_algorithm (session);
  guint width, height, channels;
  gboolean single = FALSE;

  /* A classifier chosen for a photo cannot start: say what works on one
   * instead of leaving the figure blank. */
  if (frame == NULL && dataset != NULL && latent_algorithm_has_flag (algorithm, LATENT_ALGORITHM_SUPERVISED) &&
      !latent_dataset_has_labels (dataset) &&
      latent_dataset_get_image_shape (dataset, &width, &height, &channels, &single) && single)
    {
      text = g_string_new (_("A classifier learns from labelled rows; this image’s pixels have none.\n"
                             "The convolution filter (under Filters) works on the image itself,\n"
                             "and k-means shows its colours as segments."));
      photo = dataset;
    }
  else if (frame == NULL && latent_session_get_end (session) == NULL &&
      latent_session_get_state (session) == LATENT_SESSION_INITIALISING)
    {
      text = g_string_new (_("Initialising…"));
      if (latent_session_get_init_progress (session))
        g_string_append_printf (text, "\n%s", latent_session_get_init_progress (session));
      if (latent_session_get_compiling (session))
        g_string_append_printf (text, "\n%s", _("Compiling kernels…"));
    }
  latent_figure_view_set_placeholder (self->figure_view, text ? text->str : NULL, photo);
}

void
_latent_window_follow_pending (LatentWindow *self)
{
  g_autofree char *dir = g_steal_pointer (&self->pending_follow);

  if (dir)
    latent_session_follow (self->session, dir);
}

void
_latent_window_update_status (LatentWindow *self)
{
  LatentSession *session = self->session;
  LatentSnapshot *frame = latent_session_get_shown (session);
  LatentDataset *dataset = latent_session_get_dataset (session);
  const LatentAlgorithm *algorithm = latent_session_get_algorithm (session);
  LatentParams *params = latent_session_get_params (session);
  const char *end = latent_session_get_end (session);
  const char *init_progress = latent_session_get_init_progress (session);
  gboolean running = latent_session_get_running (session);
  const char *following = latent_session_get_following (session);
  g_autoptr(GString) s = g_string_new (NULL);
  const char *held_out;

  if (dataset == NULL)
    {
      latent_label_set_text (self->status_label, self->loading ? _("Loading…") : _("No data"), _("Status"));
      return;
    }
  {
    guint width, height, channels;
    gboolean single = FALSE;

    /* An image is its size; a table its rows and columns. */
    if (latent_dataset_get_image_shape (dataset, &width, &height, &channels, &single) && single)
      g_string_append_printf (s, "%s · %u × %u px · %s", latent_dataset_get_name (dataset),
                              width, height, _(algorithm->title));
    else
      {
        g_autofree char *storage = latent_dataset_describe_storage (dataset);

        g_string_append_printf (s, "%s · %u × %u%s%s · %s", latent_dataset_get_name (dataset),
                                latent_dataset_get_n_rows (dataset), latent_dataset_get_n_cols (dataset),
                                storage ? " · " : "", storage ? storage : "", _(algorithm->title));
      }
  }
  if (frame && latent_snapshot_get_family (frame) == LATENT_FAMILY_FILTER)
    _latent_window_append_filter_status (self, frame, s);
  else if (frame)
    {
      g_string_append_printf (s, _(" · iteration %u of %u"), frame->iteration, latent_session_get_newest (session));
      /* Before the first step some objectives are not defined yet (NaN). */
      if (isfinite (frame->objective))
        {
          /* Without its formula: one line, whose end says how the run is. */
          g_autofree char *name = latent_algorithm_dup_objective_brief (frame->algorithm, frame->params);

          g_string_append_printf (s, " · %s %.8g", name, frame->objective);
        }
      if (running && latent_session_get_rate (session) > 0)
        {
          const char *unit = algorithm->pace_unit ? _(algorithm->pace_unit) : _("iterations/s");
          double pace = latent_session_get_speed (session), rate = latent_session_get_rate (session);

          /* Said when the pace is what holds the run back, so that a slow
           * run is not taken for slow work. */
          if (pace > 0 && rate > 0.7 * pace)
            /* TRANSLATORS: " · paced at 4 iterations/s" */
            g_string_append_printf (s, _(" · paced at %g %s"), pace, unit);
          else
            /* TRANSLATORS: " · 250 iterations/s", " · 1.2 epochs/s" */
            g_string_append_printf (s, _(" · %.*f %s"), rate < 10 ? 1 : 0, rate, unit);
        }
    }
  else if (end == NULL)  /* a failed start is only "failed" */
    {
      g_string_append (s, _(" · initialising"));
      if (init_progress)
        g_string_append_printf (s, " · %s", init_progress);
    }
  /* The first run of an algorithm waits seconds for the OpenCL compiler. */
  if (latent_session_get_compiling (session))
    g_string_append_printf (s, " · %s", _("compiling kernels…"));
  if (end)
    g_string_append_printf (s, " · %s", end);
  else if (running && following)
    g_string_append (s, _(" · running in latent-cli"));
  else if (running)
    g_string_append (s, _(" · running"));
  /* Whose run it is: its folder says where latent-cli writes it. */
  if (following && end)
    g_string_append_printf (s, _(" · followed from %s"), following);
  else if (following)
    g_string_append_printf (s, _(" · following %s"), following);
  else if (frame && !running && end == NULL)
    g_string_append (s, _(" · paused"));
  /* Run now, and the new data will replace this run when it comes. */
  if (self->loading)
    g_string_append (s, _(" · loading new data…"));
  /* What a classifier is judged on. */
  if (latent_dataset_get_test (dataset))
    g_string_append_printf (s, _(" · test data %s"), latent_dataset_get_name (latent_dataset_get_test (dataset)));
  else if ((held_out = latent_params_find_role (params, LATENT_PARAM_ROLE_HELD_OUT)))
    g_string_append_printf (s, _(" · %.0f %% held out to test"), 100 * latent_params_get_double (params, held_out));
  /* One line that fits the window: the device is on its button, and what
   * the run has to say is under the metrics, where it may wrap. */
  latent_label_set_text (self->status_label, s->str, _("Status"));
  update_placeholder (self, frame);
}

/* The table's scroll bar across shows whenever the table is wider than
 * the sidebar: GTK's automatic one overlays the last row, and shows only
 * under the pointer, so a clipped column looked like the table's end. */
static gboolean
fit_table_bar (gpointer data)
{
  g_autoptr(GtkScrolledWindow) scrolled = data;
  GtkAdjustment *adjustment = gtk_scrolled_window_get_hadjustment (scrolled);
  gboolean wider = gtk_adjustment_get_upper (adjustment) > gtk_adjustment_get_page_size (adjustment) + 0.5;

  /* External, not never: the table must not widen the sidebar. */
  gtk_scrolled_window_set_policy (scrolled, wider ? GTK_POLICY_ALWAYS : GTK_POLICY_EXTERNAL, GTK_POLICY_NEVER);
  return G_SOURCE_REMOVE;
}

static void
on_table_scrolled (GtkAdjustment     *adjustment,
                   GtkScrolledWindow *scrolled)
{
  /* The adjustment changes while the window lays itself out, when a new
   * policy would not take: after it. */
  g_idle_add (fit_table_bar, g_object_ref (scrolled));
}

/* Clusters against classes: the table under the metrics, and the choice of
 * colouring the points by class, where the data has classes. */
static void
update_classes (LatentWindow   *self,
                LatentSnapshot *frame)
{
  GtkWidget *label = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (self), LATENT_TYPE_WINDOW,
                                                                "confusion_label"));
  GtkWidget *check = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (self), LATENT_TYPE_WINDOW,
                                                                "colour_by_class_check"));
  LatentFamily family = latent_session_get_algorithm (self->session)->family;
  LatentDataset *dataset = latent_session_get_dataset (self->session);
  gboolean clusters = family == LATENT_FAMILY_CLUSTERS || family == LATENT_FAMILY_MIXTURE;
  g_autofree char *table = NULL;
  GtkWidget *scrolled;

  gtk_widget_set_sensitive (check, clusters && dataset != NULL && latent_dataset_has_labels (dataset));
  if (frame != NULL && frame->has_label_metrics)
    table = latent_metrics_snapshot_confusion (frame);
  if (table != NULL)
    {
      /* Translators: Weka's name for the table of clusters (rows) × classes (columns) that follows */
      g_autofree char *text = g_strdup_printf ("%s\n%s", _("Classes to clusters (* matched):"), table);

      latent_label_set_text (GTK_LABEL (label), text, _("Classes to clusters"));
    }
  scrolled = gtk_widget_get_ancestor (label, GTK_TYPE_SCROLLED_WINDOW);
  if (!g_object_get_data (G_OBJECT (scrolled), "latent-watched"))
    {
      g_signal_connect_object (gtk_scrolled_window_get_hadjustment (GTK_SCROLLED_WINDOW (scrolled)), "changed",
                               G_CALLBACK (on_table_scrolled), scrolled, 0);
      g_object_set_data (G_OBJECT (scrolled), "latent-watched", GINT_TO_POINTER (TRUE));
    }
  gtk_widget_set_visible (scrolled, table != NULL);
}

static void
on_colour_by_class_toggled (LatentWindow   *self,
                            GtkCheckButton *check)
{
  latent_figure_view_set_colour_by_class (self->figure_view, gtk_check_button_get_active (check));
}

/* Item 0 is the default axis, item c the column c (from 1). */
static void
on_axes_changed (LatentWindow *self)
{
  guint across = gtk_drop_down_get_selected (self->across_dropdown);
  guint up = gtk_drop_down_get_selected (self->up_dropdown);

  latent_figure_view_set_axis_columns (self->figure_view,
                                       across == GTK_INVALID_LIST_POSITION ? 0 : across,
                                       up == GTK_INVALID_LIST_POSITION ? 0 : up);
}

/* The figure shown draws the data's rows (a clustering's scatter, an
 * episode) of more than two columns: two of them can replace the principal
 * components. */
static void
update_axes (LatentWindow *self)
{
  LatentSnapshot *frame = latent_session_get_shown (self->session);
  LatentDataset *dataset = latent_session_get_dataset (self->session);

  gtk_widget_set_visible (self->axes_grid,
                          frame != NULL && dataset != NULL && latent_dataset_get_n_cols (dataset) > 2 &&
                          latent_figure_kind_uses_axes (frame, latent_figure_view_get_kind (self->figure_view)));
}

/* The axes a new dataset offers: its columns, and the default first. */
static void
fill_axes (LatentWindow *self)
{
  LatentDataset *dataset = latent_session_get_dataset (self->session);
  const guint n_cols = dataset ? latent_dataset_get_n_cols (dataset) : 0;
  g_autoptr(GtkStringList) across = gtk_string_list_new (NULL);
  g_autoptr(GtkStringList) up = gtk_string_list_new (NULL);

  gtk_string_list_append (across, _("Principal component 1"));
  gtk_string_list_append (up, _("Principal component 2"));
  for (guint c = 0; c < n_cols && n_cols > 2; c++)
    {
      g_autofree char *text = latent_dataset_dup_column_label (dataset, c);

      gtk_string_list_append (across, text);
      gtk_string_list_append (up, text);
    }
  gtk_drop_down_set_model (self->across_dropdown, G_LIST_MODEL (across));
  gtk_drop_down_set_model (self->up_dropdown, G_LIST_MODEL (up));
  gtk_drop_down_set_selected (self->across_dropdown, 0);
  gtk_drop_down_set_selected (self->up_dropdown, 0);
  on_axes_changed (self);
  update_axes (self);
}

static void
update_metrics (LatentWindow *self)
{
  LatentSnapshot *frame = latent_session_get_shown (self->session);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *metrics = NULL;

  update_classes (self, frame);
  update_axes (self);

  /* No result (yet, or the run failed): nothing from an earlier one. */
  if (frame == NULL)
    {
      latent_label_set_text (self->metrics_label, "", _("Metrics"));
      return;
    }
  metrics = latent_family_describe_metrics (frame);
  g_string_append (text, metrics);
  if (frame->message)
    g_string_append_printf (text, "%s%s", text->len > 0 && text->str[text->len - 1] != '\n' ? "\n" : "",
                            frame->message);
  if (text->len > 0 && text->str[text->len - 1] == '\n')
    g_string_truncate (text, text->len - 1);
  latent_label_set_text (self->metrics_label, text->str, _("Metrics"));
}

static void
enable (LatentWindow *self,
        const char   *name,
        gboolean      enabled)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), name);

  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), enabled);
}

static void
update_actions (LatentWindow *self)
{
  LatentSession *session = self->session;
  LatentDataset *dataset = latent_session_get_dataset (session);
  const LatentAlgorithm *algorithm = latent_session_get_algorithm (session);
  LatentSnapshot *frame = latent_session_get_shown (session);

  enable (self, "run", latent_session_can_play (session));
  enable (self, "pause", latent_session_can_pause (session));
  enable (self, "step", latent_session_can_step (session));
  enable (self, "back", latent_session_can_go_back (session));
  enable (self, "reset", dataset != NULL);
  enable (self, "data-table", dataset != NULL);
  enable (self, "export", frame != NULL);
  enable (self, "save-result", frame != NULL);
  /* Only an algorithm with a score to compare across a parameter sweeps it
   * (a mixture's BIC and AIC across K). */
  enable (self, "sweep", dataset != NULL && latent_algorithm_param_with_role (algorithm, LATENT_PARAM_ROLE_SWEEP) != NULL);
  enable (self, "save-image", frame != NULL && latent_filters_get_image (frame) != NULL);
  enable (self, "edit-kernel", algorithm->family == LATENT_FAMILY_FILTER);
  _latent_window_update_feature_actions (self);
  enable (self, "hold-out", dataset != NULL && latent_dataset_get_test (dataset) != NULL);
}

/* What the run is doing changed: the status line and the controls. */
static void
on_run_changed (LatentWindow *self)
{
  _latent_window_update_status (self);
  update_actions (self);
}

/* The frame the session shows, with the trails from the frames kept
 * before it, whichever way the timeline moved and whichever run computed
 * them. */
static void
on_shown (LatentWindow *self)
{
  LatentSnapshot *frame = latent_session_get_shown (self->session);
  LatentFrames *frames = latent_session_get_frames (self->session);

  latent_figure_view_set_snapshot (self->figure_view, frame);
  if (frame)
    latent_figure_view_set_history (self->figure_view, latent_frames_peek (frames, NULL),
                                    latent_frames_index_of (frames, frame->iteration));
  latent_curve_view_set_marker (self->curve_view, frame ? frame->iteration : 0);
  _latent_window_update_status (self);
  update_metrics (self);
  update_actions (self);
}

/* New data from a file, a generator or a model's features. */
static void
on_dataset (LatentWindow *self)
{
  LatentDataset *dataset = latent_session_get_dataset (self->session);
  const char *spec = latent_session_get_dataset_spec (self->session);
  g_autofree char *storage = latent_dataset_describe_storage (dataset);
  g_autofree char *tooltip = NULL;

  gtk_label_set_text (GTK_LABEL (gtk_widget_get_template_child (GTK_WIDGET (self), LATENT_TYPE_WINDOW, "dataset_label")),
                      latent_dataset_get_name (dataset));
  /* The whole story where there is room: the copy streamed, if any. */
  tooltip = g_strjoin ("\n", spec ? spec : latent_dataset_get_name (dataset), storage,
                       latent_dataset_get_stream_copy (dataset), NULL);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->dataset_button), tooltip);
  gtk_info_bar_set_revealed (self->error_bar, FALSE);
  fill_axes (self);
}

/* Views: the figures of the result shown. The choice is the stateful action
 * win.figure-kind (a kind's name, "auto" at first), so the Export dialog
 * exports what is on screen. */

static guint
view_index (LatentWindow     *self,
            LatentFigureKind  kind)
{
  for (guint i = 0; i < self->n_view_kinds; i++)
    if (self->view_kinds[i] == kind)
      return i;
  return GTK_INVALID_LIST_POSITION;
}

/* The drop-down names the figure on screen, AUTO resolved. */
static void
select_shown_view (LatentWindow *self)
{
  guint index = view_index (self, latent_figure_view_get_shown_kind (self->figure_view));

  if (index == GTK_INVALID_LIST_POSITION)
    return;
  self->listing_views = TRUE;
  gtk_drop_down_set_selected (self->view_dropdown, index);
  self->listing_views = FALSE;
}

static gboolean
same_views (LatentWindow           *self,
            const LatentFigureKind *kinds,
            const char * const     *titles,
            guint                   n)
{
  GListModel *model = gtk_drop_down_get_model (self->view_dropdown);

  if (n != self->n_view_kinds || memcmp (kinds, self->view_kinds, n * sizeof *kinds) != 0
      || model == NULL || g_list_model_get_n_items (model) != n)
    return FALSE;
  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (gtk_string_list_get_string (GTK_STRING_LIST (model), i), titles[i]) != 0)
      return FALSE;
  return TRUE;
}

/* Each new frame may be of another algorithm or dataset: offer its figures.
 * Only a change of the list touches the drop-down, so a run's frames cost a
 * comparison each. */
static void
update_views (LatentWindow *self)
{
  LatentSnapshot *frame = latent_figure_view_get_snapshot (self->figure_view);
  LatentFigureKind kinds[LATENT_FIGURE_N_KINDS], chosen;
  const char *titles[LATENT_FIGURE_N_KINDS + 1] = { NULL };
  guint n;

  _latent_window_update_filter_bar (self);
  if (frame == NULL)
    return;
  n = latent_figure_list_kinds (frame, kinds);
  for (guint i = 0; i < n; i++)
    titles[i] = latent_figure_kind_get_title (kinds[i], frame);
  if (!same_views (self, kinds, titles, n))
    {
      g_autoptr(GtkStringList) model = gtk_string_list_new (titles);

      memcpy (self->view_kinds, kinds, n * sizeof *kinds);
      self->n_view_kinds = n;
      self->listing_views = TRUE;
      gtk_drop_down_set_model (self->view_dropdown, G_LIST_MODEL (model));
      self->listing_views = FALSE;
      gtk_widget_set_sensitive (GTK_WIDGET (self->view_dropdown), n > 1);
    }

  /* A figure this result does not have: back to the automatic choice. */
  chosen = latent_figure_view_get_kind (self->figure_view);
  if (chosen != LATENT_FIGURE_AUTO
      && view_index (self, latent_figure_resolve_kind (frame, chosen)) == GTK_INVALID_LIST_POSITION)
    g_action_group_change_action_state (G_ACTION_GROUP (self), "figure-kind", g_variant_new_string ("auto"));
  select_shown_view (self);
}

static void
on_view_selected (LatentWindow *self)
{
  guint selected = gtk_drop_down_get_selected (self->view_dropdown);

  if (self->listing_views || selected >= self->n_view_kinds)
    return;
  g_action_group_change_action_state (G_ACTION_GROUP (self), "figure-kind",
                                      g_variant_new_string (latent_figure_kind_to_string (self->view_kinds[selected])));
}

static void
on_figure_kind_changed (GSimpleAction *action,
                        GVariant      *state,
                        gpointer       user_data)
{
  LatentWindow *self = user_data;
  LatentFigureKind kind;

  if (!latent_figure_kind_from_string (g_variant_get_string (state, NULL), &kind))
    return;
  g_simple_action_set_state (action, state);
  latent_figure_view_set_kind (self->figure_view, kind);
  select_shown_view (self);
  update_axes (self);
  _latent_window_update_filter_bar (self);
}

static const GActionEntry view_actions[] = {
  { "figure-kind", NULL, "s", "'auto'", on_figure_kind_changed },
  { "show-notice", on_show_notice, "(ss)" },
  { "show-folder", on_show_folder, "s" },
};

/* Set-up */

static GSettings *
open_settings (void)
{
  GSettings *settings = latent_settings_open ();

  /* Uninstalled and without GSETTINGS_SCHEMA_DIR: run, just forget. */
  if (settings == NULL)
    g_message ("GSettings schema org.latent.Latent not found; preferences will not be kept");
  return settings;
}

/* The panel shows the algorithm's parameters; the drop-down names it (an
 * experiment opened sets it too), and its handler then finds nothing new. */
static void
on_algorithm (LatentWindow *self)
{
  const LatentAlgorithm * const *all = latent_registry_list ();
  const LatentAlgorithm *algorithm = latent_session_get_algorithm (self->session);

  for (guint i = 0; all[i]; i++)
    if (all[i] == algorithm)
      gtk_drop_down_set_selected (self->algorithm_dropdown, i);
  _latent_window_update_filter_bar (self);
}

static void
on_params (LatentWindow *self)
{
  latent_param_panel_set_params (self->param_panel, latent_session_get_params (self->session));
}

/* The algorithm list in groups, a group's name above its first: families
 * as a person sorts them (k-means and mixtures both cluster). The
 * registry lists each group's algorithms together. */
static const char *
group_of (const LatentAlgorithm *algorithm)
{
  switch (algorithm->family)
    {
    case LATENT_FAMILY_CLUSTERS:
    case LATENT_FAMILY_MIXTURE:
      return C_("algorithm group", "Clustering");
    case LATENT_FAMILY_LINEAR:
      return C_("algorithm group", "Decomposition");
    case LATENT_FAMILY_EMBEDDING:
      return C_("algorithm group", "Embeddings");
    case LATENT_FAMILY_AUTOENCODER:
      return C_("algorithm group", "Autoencoders");
    case LATENT_FAMILY_CLASSIFIER:
      return C_("algorithm group", "Classifiers");
    case LATENT_FAMILY_FILTER:
      return C_("algorithm group", "Filters");
    default:
      return NULL;
    }
}

static void
setup_algorithm_row (GtkSignalListItemFactory *factory,
                     GtkListItem              *item)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *group = gtk_label_new (NULL);
  GtkWidget *name = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (group), 0);
  gtk_widget_add_css_class (group, "list-group");
  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_box_append (GTK_BOX (box), group);
  gtk_box_append (GTK_BOX (box), name);
  gtk_list_item_set_child (item, box);
}

static void
bind_algorithm_row (GtkSignalListItemFactory *factory,
                    GtkListItem              *item)
{
  const LatentAlgorithm * const *all = latent_registry_list ();
  GtkWidget *box = gtk_list_item_get_child (item);
  GtkWidget *group = gtk_widget_get_first_child (box);
  guint i = gtk_list_item_get_position (item);
  const char *title = group_of (all[i]);

  gtk_label_set_text (GTK_LABEL (group), title);
  gtk_widget_set_visible (group, i == 0 || g_strcmp0 (title, group_of (all[i - 1])) != 0);
  gtk_label_set_text (GTK_LABEL (gtk_widget_get_last_child (box)),
                      gtk_string_object_get_string (gtk_list_item_get_item (item)));
}

static void
on_algorithm_selected (LatentWindow *self)
{
  const LatentAlgorithm * const *all = latent_registry_list ();
  guint selected = gtk_drop_down_get_selected (self->algorithm_dropdown);
  guint n = 0;

  while (all[n])
    n++;
  if (selected >= n || all[selected] == latent_session_get_algorithm (self->session))
    return;
  latent_session_set_algorithm (self->session, all[selected], NULL);
  latent_session_restart (self->session, FALSE);
}

/* The panel or the seed changed. */
static void
on_params_changed (LatentWindow *self)
{
  latent_session_set_seed (self->session, (guint64) gtk_spin_button_get_value (self->seed_spin));
  latent_session_edited (self->session);
}

/* An experiment opened sets the seed. */
static void
on_seed (LatentWindow *self)
{
  g_signal_handlers_block_by_func (self->seed_spin, on_params_changed, self);
  gtk_spin_button_set_value (self->seed_spin, latent_session_get_seed (self->session));
  g_signal_handlers_unblock_by_func (self->seed_spin, on_params_changed, self);
}

GSettings *
latent_window_get_settings (LatentWindow *self)
{
  g_return_val_if_fail (LATENT_IS_WINDOW (self), NULL);
  return self->settings;
}

/* Light or dark, for every window: the style manager is the application's. */
static void
apply_style (GSettings *settings)
{
  g_autofree char *style = g_settings_get_string (settings, "style");
  AdwColorScheme scheme = ADW_COLOR_SCHEME_DEFAULT;

  if (g_str_equal (style, "light"))
    scheme = ADW_COLOR_SCHEME_FORCE_LIGHT;
  else if (g_str_equal (style, "dark"))
    scheme = ADW_COLOR_SCHEME_FORCE_DARK;
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), scheme);
}

/* The figures drawn dark when the window is. */
static void
on_dark_changed (LatentWindow *self)
{
  latent_figure_view_set_dark (self->figure_view, adw_style_manager_get_dark (adw_style_manager_get_default ()));
}

/* The preferences dialog edits the settings; the window follows. */
static void
on_setting_changed (GSettings    *settings,
                    const char   *key,
                    LatentWindow *self)
{
  if (g_str_equal (key, "style"))
    apply_style (settings);
  else if (g_str_equal (key, "memory-budget"))
    latent_memory_set_budget ((guint64) g_settings_get_uint (settings, key) << 20);
  else if (g_str_equal (key, "device"))
    {
      g_autofree char *device = g_settings_get_string (settings, key);

      if (g_strcmp0 (device, latent_session_get_device (self->session)) != 0)
        g_action_group_change_action_state (G_ACTION_GROUP (self), "device", g_variant_new_string (device));
    }
}

static void
latent_window_constructed (GObject *object)
{
  LatentWindow *self = LATENT_WINDOW (object);
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  g_autoptr(GtkListItemFactory) rows = gtk_signal_list_item_factory_new ();
  const LatentAlgorithm * const *all = latent_registry_list ();
  g_autofree char *device = NULL;
  g_autofree char *last = NULL;

  G_OBJECT_CLASS (latent_window_parent_class)->constructed (object);

  for (guint i = 0; all[i]; i++)
    gtk_string_list_append (names, _(all[i]->title));
  gtk_drop_down_set_model (self->algorithm_dropdown, G_LIST_MODEL (names));
  g_signal_connect (rows, "setup", G_CALLBACK (setup_algorithm_row), NULL);
  g_signal_connect (rows, "bind", G_CALLBACK (bind_algorithm_row), NULL);
  latent_drop_down_set_caption (self->algorithm_dropdown, C_("header", "Algorithm"), rows);
  latent_drop_down_set_caption (self->view_dropdown, C_("header", "View"), NULL);
  g_signal_connect_swapped (self->algorithm_dropdown, "notify::selected",
                            G_CALLBACK (on_algorithm_selected), self);
  on_algorithm (self);
  on_params (self);

  g_object_bind_property (adw_style_manager_get_default (), "dark", self->curve_view, "dark", G_BINDING_SYNC_CREATE);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark", G_CALLBACK (on_dark_changed), self,
                           G_CONNECT_SWAPPED);
  on_dark_changed (self);
  self->settings = open_settings ();
  if (self->settings)
    {
      int width = g_settings_get_int (self->settings, "window-width");
      int height = g_settings_get_int (self->settings, "window-height");

      gtk_window_set_default_size (GTK_WINDOW (self), width, height);
      if (g_settings_get_boolean (self->settings, "window-maximized"))
        gtk_window_maximize (GTK_WINDOW (self));
      device = g_settings_get_string (self->settings, "device");
      latent_memory_set_budget ((guint64) g_settings_get_uint (self->settings, "memory-budget") << 20);
      apply_style (self->settings);
      g_signal_connect_object (self->settings, "changed", G_CALLBACK (on_setting_changed), self, 0);
      last = g_settings_get_string (self->settings, "last-dataset");
    }
  /* LATENT_OPENCL, when set, wins over the remembered device. */
  if (g_getenv ("LATENT_OPENCL") && *g_getenv ("LATENT_OPENCL"))
    {
      g_free (device);
      device = g_strdup (g_getenv ("LATENT_OPENCL"));
    }
  g_action_group_change_action_state (G_ACTION_GROUP (self), "device",
                                      g_variant_new_string (device ? device : "auto"));

  /* Fashion-MNIST is offered when Debian's dataset-fashion-mnist is there. */
  enable (self, "load-installed", latent_catalog_fashion_mnist_dir () != NULL);
  enable (self, "test-installed", latent_catalog_fashion_mnist_dir () != NULL);
  latent_window_load_dataset (self, last && *last ? last : "blobs:n=1500,k=3,dims=2,seed=1");
  gtk_widget_grab_focus (GTK_WIDGET (self->figure_view));
}

static gboolean
latent_window_close_request (GtkWindow *window)
{
  LatentWindow *self = LATENT_WINDOW (window);

  if (self->settings)
    {
      int width, height;

      gtk_window_get_default_size (window, &width, &height);
      g_settings_set_int (self->settings, "window-width", width);
      g_settings_set_int (self->settings, "window-height", height);
      g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
    }
  return GTK_WINDOW_CLASS (latent_window_parent_class)->close_request (window);
}

static void
latent_window_dispose (GObject *object)
{
  LatentWindow *self = LATENT_WINDOW (object);

  if (self->loading)
    g_cancellable_cancel (self->loading);
  g_clear_object (&self->loading);
  g_clear_object (&self->runs);
  /* Before the window and its device go, no thread may be left in the
   * compiler; the window is off the screen before the session waits for
   * a build under way. */
  if (self->session)
    {
      g_signal_handlers_disconnect_by_data (self->session, self);
      gdk_display_flush (gtk_widget_get_display (GTK_WIDGET (self)));
      latent_session_shutdown (self->session);
    }
  gtk_widget_dispose_template (GTK_WIDGET (self), LATENT_TYPE_WINDOW);
  G_OBJECT_CLASS (latent_window_parent_class)->dispose (object);
}

static void
latent_window_finalize (GObject *object)
{
  LatentWindow *self = LATENT_WINDOW (object);

  g_clear_object (&self->settings);
  g_clear_object (&self->session);
  g_free (self->test_spec);
  g_clear_pointer (&self->pending_view, latent_experiment_free);
  g_clear_pointer (&self->pending_follow, g_free);
  G_OBJECT_CLASS (latent_window_parent_class)->finalize (object);
}

static void
latent_window_class_init (LatentWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = latent_window_constructed;
  object_class->dispose = latent_window_dispose;
  object_class->finalize = latent_window_finalize;
  GTK_WINDOW_CLASS (klass)->close_request = latent_window_close_request;

  g_type_ensure (LATENT_TYPE_PARAM_PANEL);
  g_type_ensure (LATENT_TYPE_FIGURE_VIEW);
  g_type_ensure (LATENT_TYPE_CURVE_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/latent/Latent/latent-window.ui");
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, dataset_button);
  gtk_widget_class_bind_template_child_full (widget_class, "dataset_label", FALSE, 0);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, algorithm_dropdown);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, view_dropdown);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, axes_grid);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, across_dropdown);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, up_dropdown);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, device_button);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, error_bar);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, error_label);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, param_panel);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, seed_spin);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, metrics_label);
  /* Found by name (update_classes), not kept in the structure. */
  gtk_widget_class_bind_template_child_full (widget_class, "confusion_label", FALSE, 0);
  gtk_widget_class_bind_template_child_full (widget_class, "colour_by_class_check", FALSE, 0);
  gtk_widget_class_bind_template_callback (widget_class, on_colour_by_class_toggled);
  gtk_widget_class_bind_template_callback (widget_class, on_axes_changed);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, figure_view);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, curve_view);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, speed_scale);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, pace_unit_label);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, fast_check);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, timeline);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, timeline_adjustment);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, status_label);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, recent_section);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, filter_bar);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, split_check);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, split_scale);
  gtk_widget_class_bind_template_child (widget_class, LatentWindow, split_adjustment);
  gtk_widget_class_bind_template_callback (widget_class, on_error_dismissed);
  gtk_widget_class_bind_template_callback (widget_class, on_params_changed);
  /* Found by name (latent-window-filter.c). */
  gtk_widget_class_bind_template_child_full (widget_class, "actual_size_button", FALSE, 0);
}

static const struct {
  const char *property;
  GCallback   callback;
} session_notes[] = {
  { "notify::shown", G_CALLBACK (on_shown) },
  { "notify::dataset", G_CALLBACK (on_dataset) },
  { "notify::algorithm", G_CALLBACK (on_algorithm) },
  { "notify::params", G_CALLBACK (on_params) },
  { "notify::seed", G_CALLBACK (on_seed) },
  { "notify::refusal", G_CALLBACK (on_refusal) },
  { "notify::failure", G_CALLBACK (on_failure) },
  { "notify::state", G_CALLBACK (on_run_changed) },
  { "notify::running", G_CALLBACK (on_run_changed) },
  { "notify::end", G_CALLBACK (on_run_changed) },
  { "notify::init-progress", G_CALLBACK (on_run_changed) },
  { "notify::compiling", G_CALLBACK (on_run_changed) },
  { "notify::rate", G_CALLBACK (_latent_window_update_status) },
  { "notify::following", G_CALLBACK (_latent_window_update_status) },
};

static void
latent_window_init (LatentWindow *self)
{
  self->session = latent_session_new ();
  self->runs = latent_run_history_new (self->session);
  gtk_widget_init_template (GTK_WIDGET (self));
  for (guint i = 0; i < G_N_ELEMENTS (session_notes); i++)
    g_signal_connect_swapped (self->session, session_notes[i].property, session_notes[i].callback, self);
  /* Typing in an axis' list finds a column by name (784 of them for images). */
  for (guint i = 0; i < 2; i++)
    gtk_drop_down_set_expression (i == 0 ? self->across_dropdown : self->up_dropdown,
                                  gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL, "string"));
  latent_drop_downs_name_buttons (GTK_WIDGET (self));
  g_action_map_add_action_entries (G_ACTION_MAP (self), view_actions, G_N_ELEMENTS (view_actions), self);
  g_signal_connect_swapped (self->figure_view, "notify::snapshot", G_CALLBACK (update_views), self);
  g_signal_connect_swapped (self->view_dropdown, "notify::selected", G_CALLBACK (on_view_selected), self);
  _latent_window_init_run (self);
  _latent_window_init_files (self);
  _latent_window_init_features (self);
  _latent_window_init_filter (self);
}

LatentWindow *
latent_window_new (GtkApplication *application)
{
  return g_object_new (LATENT_TYPE_WINDOW, "application", application, NULL);
}
