/* latent-window-files.c — what the window reads and writes: datasets,
 * devices, exported figures and experiments
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-window"

#include "latent-window-private.h"

#include <glib/gi18n-lib.h>

#include "latent-arrays-dialog.h"
#include "latent-catalog.h"
#include "latent-data-table.h"
#include "latent-experiment.h"
#include "latent-follow.h"
#include "latent-export-dialog.h"
#include "latent-image-folder.h"
#include "latent-import-dialog.h"
#include "latent-projection.h"
#include "latent-result.h"
#include "latent-synthetic-dialog.h"
#include "latent-ui-util.h"

#define RECENT_MAX 8

/* Devices */

/* The Device menu offers only the kinds of device this machine has. */
static void
offer_devices (LatentWindow *self)
{
  GMenuModel *menu = gtk_menu_button_get_menu_model (self->device_button);
  GMenu *section = G_MENU (g_menu_model_get_item_link (menu, 0, G_MENU_LINK_SECTION));
  gboolean gpu, cpu;

  latent_session_present_devices (&gpu, &cpu);
  /* From the end, so the indices ahead stay put. */
  for (int i = g_menu_model_get_n_items (G_MENU_MODEL (section)) - 1; i >= 0; i--)
    {
      g_autofree char *target = NULL;

      g_menu_model_get_item_attribute (G_MENU_MODEL (section), i, G_MENU_ATTRIBUTE_TARGET, "s", &target);
      if ((g_strcmp0 (target, "gpu") == 0 && !gpu) || (g_strcmp0 (target, "cpu") == 0 && !cpu))
        g_menu_remove (section, i);
    }
  g_object_unref (section);
}

static void
on_device_action (GSimpleAction *action,
                  GVariant      *value,
                  gpointer       user_data)
{
  LatentWindow *self = user_data;
  g_autoptr(GError) error = NULL;

  /* A device that is not there: the session says which it took instead. */
  if (!latent_session_set_device (self->session, g_variant_get_string (value, NULL), &error))
    _latent_window_show_error (self, error->message);
  g_simple_action_set_state (action, g_variant_new_string (latent_session_get_device (self->session)));
  if (self->settings)
    g_settings_set_string (self->settings, "device", latent_session_get_device (self->session));
}

static void
on_device_changed (LatentWindow *self)
{
  gtk_menu_button_set_label (self->device_button, latent_session_get_device_label (self->session));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->device_button), latent_session_get_device_name (self->session));
}

/* Datasets */

static void
remember_recent (LatentWindow *self,
                 const char   *spec)
{
  g_auto(GStrv) old = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) recent = NULL;
  guint n = 1;

  if (self->settings == NULL || !g_path_is_absolute (spec))
    return;
  old = g_settings_get_strv (self->settings, "recent-files");
  g_strv_builder_add (builder, spec);
  for (guint i = 0; old[i] && n < RECENT_MAX; i++)
    if (!g_str_equal (old[i], spec))
      {
        g_strv_builder_add (builder, old[i]);
        n++;
      }
  recent = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, "recent-files", (const char * const *) recent);
}

static void
update_recent_menu (LatentWindow *self)
{
  g_auto(GStrv) recent = NULL;

  g_menu_remove_all (self->recent_section);
  if (self->settings == NULL)
    return;
  recent = g_settings_get_strv (self->settings, "recent-files");
  for (guint i = 0; recent[i]; i++)
    {
      g_autofree char *base = g_path_get_basename (recent[i]);
      g_autoptr(GMenuItem) item = g_menu_item_new (base, NULL);

      g_menu_item_set_action_and_target_value (item, "win.load-dataset", g_variant_new_string (recent[i]));
      g_menu_append_item (self->recent_section, item);
    }
}

/* Data loaded from a spec are the last and a recent dataset; data made in
 * the window (features) are not remembered. */
static void
remember_dataset (LatentWindow *self)
{
  const char *spec = latent_session_get_dataset_spec (self->session);

  if (spec == NULL)
    return;
  if (self->settings)
    g_settings_set_string (self->settings, "last-dataset", spec);
  remember_recent (self, spec);
  update_recent_menu (self);
}

static void
load_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  GError *error = NULL;
  LatentDataset *dataset = latent_catalog_load (task_data, NULL, &error);

  if (dataset == NULL)
    {
      /* The archive's arrays for the person to choose from, listed here:
       * an HDF5 file's walk takes a while. */
      if (g_error_matches (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_AMBIGUOUS))
        {
          g_autofree char *path = latent_catalog_spec_file (task_data);

          g_object_set_data_full (G_OBJECT (task), "arrays", latent_catalog_list_arrays (path, NULL),
                                  (GDestroyNotify) g_strfreev);
        }
      g_task_return_error (task, error);
      return;
    }
  /* The projection takes a while for wide data: not on the main thread. */
  {
    LatentProjection *projection = latent_projection_get_for_dataset (dataset);
    g_clear_pointer (&projection, latent_projection_unref);
  }
  g_task_return_pointer (task, dataset, g_object_unref);
}

/* A dialog's ::chosen: the dataset spec it made (an archive's arrays, a
 * table's import choices, a generator's parameters). */
static void
on_spec_chosen (GtkWidget    *dialog,
                const char   *spec,
                LatentWindow *self)
{
  latent_window_load_dataset (self, spec);
}

/* An archive whose data its names do not tell: which arrays, asked of the
 * person; FALSE when its arrays could not be listed (load_thread). */
static gboolean
ask_for_arrays (LatentWindow *self,
                GTask        *task)
{
  const char * const *arrays = g_object_get_data (G_OBJECT (task), "arrays");
  g_autofree char *path = latent_catalog_spec_file (g_task_get_task_data (task));
  GtkWidget *dialog;

  if (arrays == NULL || arrays[0] == NULL)
    return FALSE;
  dialog = latent_arrays_dialog_new (GTK_WINDOW (self), path, arrays);
  g_signal_connect_object (dialog, "chosen", G_CALLBACK (on_spec_chosen), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
  _latent_window_update_status (self);
  return TRUE;
}

/* A table file that could not be read as it is (text among numbers, a
 * missing cell): how to read it, asked of the person; FALSE when @spec is
 * no such file. */
static gboolean
ask_how_to_read (LatentWindow *self,
                 const char   *spec,
                 const char   *problem)
{
  g_autofree char *lower = g_ascii_strdown (spec, -1);
  GtkWidget *dialog;

  if (!g_file_test (spec, G_FILE_TEST_IS_REGULAR)
      || !(g_str_has_suffix (lower, ".csv") || g_str_has_suffix (lower, ".tsv") || g_str_has_suffix (lower, ".txt")
           || g_str_has_suffix (lower, ".arff")))
    return FALSE;
  dialog = latent_import_dialog_new (GTK_WINDOW (self), spec, problem, NULL);
  if (dialog == NULL)
    return FALSE;
  g_signal_connect_object (dialog, "chosen", G_CALLBACK (on_spec_chosen), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
  _latent_window_update_status (self);
  return TRUE;
}

/* An opened experiment's view, once its data is there: the figure, the
 * axes (columns the data has), the classes' colours, the speed, and its
 * test data, loading. */
static void
show_experiment_view (LatentWindow *self)
{
  g_autoptr(LatentExperiment) view = g_steal_pointer (&self->pending_view);
  LatentDataset *dataset = latent_session_get_dataset (self->session);
  guint n_cols = dataset ? latent_dataset_get_n_cols (dataset) : 0;
  GtkCheckButton *colour = GTK_CHECK_BUTTON (gtk_widget_get_template_child (GTK_WIDGET (self), LATENT_TYPE_WINDOW,
                                                                           "colour_by_class_check"));

  g_action_group_change_action_state (G_ACTION_GROUP (self), "figure-kind", g_variant_new_string (view->figure));
  if (view->axes[0] <= n_cols && view->axes[1] <= n_cols)
    {
      gtk_drop_down_set_selected (self->across_dropdown, view->axes[0]);
      gtk_drop_down_set_selected (self->up_dropdown, view->axes[1]);
    }
  gtk_check_button_set_active (colour, view->colour_by_class);
  if (view->speed >= 0)
    latent_session_set_speed (self->session, view->speed);
  if (view->test)
    g_action_group_activate_action (G_ACTION_GROUP (self), "test-data", g_variant_new_string (view->test));
}

static void
on_loaded (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  LatentWindow *self = LATENT_WINDOW (source);
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentDataset) dataset = g_task_propagate_pointer (G_TASK (result), &error);
  const char *spec = g_task_get_task_data (G_TASK (result));
  gboolean waits_for_test;

  if (g_task_get_cancellable (G_TASK (result)) == self->loading)
    g_clear_object (&self->loading);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (dataset == NULL && g_error_matches (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_AMBIGUOUS)
      && ask_for_arrays (self, G_TASK (result)))
    return;
  if (dataset == NULL && (g_error_matches (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_VALUE)
                          || g_error_matches (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_NOT_FINITE))
      && ask_how_to_read (self, spec, error->message))
    return;
  if (dataset == NULL)
    {
      /* The message names the file and line; what was loaded stays, and
       * an experiment's view waits for no other data. */
      g_clear_pointer (&self->pending_view, latent_experiment_free);
      g_clear_pointer (&self->pending_follow, g_free);
      _latent_window_show_error (self, error->message);
      _latent_window_update_status (self);
      return;
    }
  /* New data has none of the old test data. */
  g_clear_pointer (&self->test_spec, g_free);
  /* A followed run with test data waits for it (latent-window-features.c);
   * without, it starts on the data at once. */
  waits_for_test = self->pending_view && self->pending_view->test;
  if (self->pending_follow && !waits_for_test)
    {
      g_autofree char *dir = g_steal_pointer (&self->pending_follow);

      latent_session_follow_on (self->session, dataset, spec, dir);
    }
  else
    latent_session_set_dataset (self->session, dataset, spec);
  if (self->pending_view)
    show_experiment_view (self);
}


void
latent_window_load_dataset (LatentWindow *self,
                            const char   *spec)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (LATENT_IS_WINDOW (self));
  g_return_if_fail (spec != NULL);

  if (self->loading)
    g_cancellable_cancel (self->loading);
  g_clear_object (&self->loading);
  self->loading = g_cancellable_new ();
  task = g_task_new (self, self->loading, on_loaded, NULL);
  g_task_set_task_data (task, g_strdup (spec), g_free);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, load_thread);
  _latent_window_update_status (self);
}

static void
on_open_chosen (const char *path,
                gpointer    user_data)
{
  if (path)
    latent_window_load_dataset (user_data, path);
}

static void
add_filter (GtkFileChooser *chooser,
            const char     *name,
            const char     *pattern,
            ...)
{
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  va_list args;

  gtk_file_filter_set_name (filter, name);
  va_start (args, pattern);
  /* A suffix matches in any case: cameras write photo.JPG. */
  for (const char *p = pattern; p; p = va_arg (args, const char *))
    if (g_str_has_prefix (p, "*.") && strchr (p + 2, '.') == NULL)
      gtk_file_filter_add_suffix (filter, p + 2);
    else
      gtk_file_filter_add_pattern (filter, p);
  va_end (args);
  gtk_file_chooser_add_filter (chooser, filter);
}

static void
on_open_action (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  LatentWindow *self = user_data;
  GtkFileChooserNative *dialog = latent_file_chooser_new (GTK_WINDOW (self), _("Open Dataset"),
                                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"),
                                                         on_open_chosen, self);

  add_filter (GTK_FILE_CHOOSER (dialog), _("All datasets"), "*.csv", "*.tsv", "*.txt", "*.arff", "*.npy", "*.npz", "*.h5", "*.hdf5",
              "*.png", "*.jpg", "*.jpeg", "*-ubyte", "*-ubyte.gz", NULL);
  add_filter (GTK_FILE_CHOOSER (dialog), _("Tables (CSV, TSV, ARFF)"), "*.csv", "*.tsv", "*.txt", "*.arff", NULL);
  add_filter (GTK_FILE_CHOOSER (dialog), _("NumPy arrays (.npy, .npz)"), "*.npy", "*.npz", NULL);
  add_filter (GTK_FILE_CHOOSER (dialog), _("HDF5 (.h5, .hdf5)"), "*.h5", "*.hdf5", "*.he5", NULL);
  add_filter (GTK_FILE_CHOOSER (dialog), _("Images (PNG, JPEG)"), "*.png", "*.jpg", "*.jpeg", NULL);
  add_filter (GTK_FILE_CHOOSER (dialog), _("MNIST-style IDX"), "*-ubyte", "*-ubyte.gz", NULL);
  add_filter (GTK_FILE_CHOOSER (dialog), _("All files"), "*", NULL);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
on_import_chosen (const char *path,
                  gpointer    user_data)
{
  LatentWindow *self = user_data;
  g_autoptr(GError) error = NULL;
  GtkWidget *dialog;

  if (path == NULL)
    return;
  dialog = latent_import_dialog_new (GTK_WINDOW (self), path, NULL, &error);
  if (dialog == NULL)
    {
      _latent_window_show_error (self, error->message);
      return;
    }
  g_signal_connect_object (dialog, "chosen", G_CALLBACK (on_spec_chosen), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* A table with the choices of how to read it, even one that reads as it is. */
static void
on_import_table_action (GSimpleAction *action,
                        GVariant      *parameter,
                        gpointer       user_data)
{
  LatentWindow *self = user_data;
  GtkFileChooserNative *dialog = latent_file_chooser_new (GTK_WINDOW (self), _("Import Table"),
                                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"),
                                                         on_import_chosen, self);

  add_filter (GTK_FILE_CHOOSER (dialog), _("Tables (CSV, TSV, ARFF)"), "*.csv", "*.tsv", "*.txt", "*.arff", NULL);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* A folder whose subfolders are classes of images: each image a row, at
 * the size and in the colours chosen beside the folder (the chooser's
 * choices, which the portal's choosers show too), as the catalog's
 * "FOLDER:size=WxH,colour=grey" says it. */
static const char * const folder_sizes[] = { "auto", "16x16", "28x28", "32x32", "64x64", NULL };
static const char * const folder_colours[] = { "auto", "grey", "rgb", NULL };

static void
on_folder_response (GtkNativeDialog *dialog,
                    int              response,
                    LatentWindow    *self)
{
  GtkFileChooser *chooser = GTK_FILE_CHOOSER (dialog);
  g_autoptr(GFile) file = response == GTK_RESPONSE_ACCEPT ? gtk_file_chooser_get_file (chooser) : NULL;
  g_autofree char *path = file ? g_file_get_path (file) : NULL;
  const char *size = gtk_file_chooser_get_choice (chooser, "size");
  const char *colour = gtk_file_chooser_get_choice (chooser, "colour");
  g_autoptr(GString) spec = NULL;

  if (path != NULL)
    {
      spec = g_string_new (path);
      if (size && !g_str_equal (size, "auto"))
        g_string_append_printf (spec, ":size=%s", size);
      if (colour && !g_str_equal (colour, "auto"))
        g_string_append_printf (spec, "%scolour=%s", strchr (spec->str + strlen (path), ':') ? "," : ":", colour);
      latent_window_load_dataset (self, spec->str);
    }
  g_object_unref (dialog);
}

static void
on_open_folder_action (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  LatentWindow *self = user_data;
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (_("Open Image Folder"), GTK_WINDOW (self),
                                                              GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                                              _("_Open"), _("_Cancel"));
  g_autofree char *most_common = g_strdup_printf (_("Most common (at most %u px)"), LATENT_IMAGE_FOLDER_DEFAULT_SIDE);
  const char *size_labels[] = { most_common, "16 × 16", "28 × 28", "32 × 32", "64 × 64", NULL };
  const char *colour_labels[] = { _("As the images are"), _("Grey"), _("Colour"), NULL };

  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (dialog), "size", _("Size"),
                               (const char **) folder_sizes, size_labels);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (dialog), "size", "auto");
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (dialog), "colour", _("Colour"),
                               (const char **) folder_colours, colour_labels);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (dialog), "colour", "auto");
  g_signal_connect (dialog, "response", G_CALLBACK (on_folder_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
on_load_dataset_action (GSimpleAction *action,
                        GVariant      *parameter,
                        gpointer       user_data)
{
  latent_window_load_dataset (user_data, g_variant_get_string (parameter, NULL));
}

static void
on_synthetic_action (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       user_data)
{
  LatentWindow *self = user_data;
  GtkWidget *dialog = latent_synthetic_dialog_new (GTK_WINDOW (self), g_variant_get_string (parameter, NULL));

  g_signal_connect (dialog, "chosen", G_CALLBACK (on_spec_chosen), self);
  gtk_window_present (GTK_WINDOW (dialog));
}

static gboolean
on_drop (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         LatentWindow  *self)
{
  GSList *files;
  g_autofree char *path = NULL;

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;
  files = g_value_get_boxed (value);
  if (files == NULL || !(path = g_file_get_path (files->data)))
    return FALSE;
  latent_window_load_dataset (self, path);
  return TRUE;
}

/* Export and experiments */

static void
on_export_action (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  LatentWindow *self = user_data;
  LatentSnapshot *frame = latent_session_get_shown (self->session);
  LatentFigureStyle style;
  LatentSnapshot **frames;
  guint n_frames;
  GtkWidget *dialog;

  if (frame == NULL)
    return;
  latent_figure_view_get_style (self->figure_view, &style);
  /* The view's images are its own to free; the export makes its own. */
  style.before = style.after = style.density = NULL;
  style.density_later = FALSE;
  dialog = latent_export_dialog_new (GTK_WINDOW (self), frame, &style,
                                     gtk_widget_get_width (GTK_WIDGET (self->figure_view)),
                                     gtk_widget_get_height (GTK_WIDGET (self->figure_view)));
  frames = latent_frames_peek (latent_session_get_frames (self->session), &n_frames);
  latent_export_dialog_set_frames (LATENT_EXPORT_DIALOG (dialog), frames, n_frames);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* The loaded rows in a table of their own, with the result shown; rows
 * selected there are ringed in the figure, and a lasso in the figure
 * selects its rows there. */
static void
on_data_table_action (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  LatentWindow *self = user_data;
  GtkWidget *table;

  if (latent_session_get_dataset (self->session) == NULL)
    return;
  table = latent_data_table_new (GTK_WINDOW (self), self->session);
  g_signal_connect_object (table, "rows-selected", G_CALLBACK (latent_figure_view_set_selected_rows),
                           self->figure_view, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->figure_view, "rows-selected", G_CALLBACK (latent_data_table_select_rows), table,
                           G_CONNECT_SWAPPED);
  if (!gtk_bitset_is_empty (latent_figure_view_get_selected_rows (self->figure_view)))
    latent_data_table_select_rows (LATENT_DATA_TABLE (table),
                                   latent_figure_view_get_selected_rows (self->figure_view));
  gtk_window_present (GTK_WINDOW (table));
}

/* The result shown, as latent-cli --json or --csv writes it: the name says
 * which. */
static void
on_save_result_chosen (const char *path,
                       gpointer    user_data)
{
  LatentWindow *self = user_data;
  LatentSnapshot *frame = latent_session_get_shown (self->session);
  g_autoptr(GError) error = NULL;
  gboolean ok;

  if (path == NULL || frame == NULL)
    return;
  if (g_str_has_suffix (path, ".csv"))
    ok = latent_result_write_csv (frame, path, &error);
  else
    {
      g_autoptr(GArray) history = g_array_new (FALSE, FALSE, sizeof (LatentIterationRecord));
      const GArray *all = latent_session_get_history (self->session);

      /* Up to the iteration shown, as a run stopped there would have it. */
      for (guint i = 0; all && i < all->len; i++)
        if (g_array_index (all, LatentIterationRecord, i).iteration <= frame->iteration)
          g_array_append_val (history, g_array_index (all, LatentIterationRecord, i));
      ok = latent_result_write_json (frame, history, latent_session_get_init_ms (self->session),
                                     frame->elapsed_ms, path, &error);
    }
  if (!ok)
    _latent_window_show_error (self, error->message);
  else
    latent_saved (GTK_WIDGET (self), path, NULL);
}

static void
on_save_result_action (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  LatentWindow *self = user_data;
  LatentSnapshot *frame = latent_session_get_shown (self->session);
  GtkFileChooserNative *dialog;
  g_autofree char *name = NULL;

  if (frame == NULL)
    return;
  name = g_strdup_printf ("%s-result.json", frame->algorithm->id);
  dialog = latent_save_chooser_new (GTK_WINDOW (self), _("Save Result"), name, LATENT_SAVE_DOCUMENT,
                                    on_save_result_chosen, self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
on_save_experiment_chosen (const char *path,
                           gpointer    user_data)
{
  LatentWindow *self = user_data;
  LatentSession *session = self->session;

  if (path && latent_session_get_dataset_spec (session))
    {
      g_autoptr(LatentExperiment) experiment =
        latent_experiment_new (latent_session_get_dataset_spec (session), NULL,
                               latent_session_get_algorithm (session), latent_session_get_params (session),
                               latent_session_get_seed (session), latent_session_get_device (session));
      g_autoptr(GVariant) figure = g_action_group_get_action_state (G_ACTION_GROUP (self), "figure-kind");
      GtkCheckButton *colour = GTK_CHECK_BUTTON (gtk_widget_get_template_child (GTK_WIDGET (self), LATENT_TYPE_WINDOW,
                                                                               "colour_by_class_check"));
      g_autoptr(GError) error = NULL;
      guint across = gtk_drop_down_get_selected (self->across_dropdown);
      guint up = gtk_drop_down_get_selected (self->up_dropdown);

      /* What the person sees, as well as what ran. */
      experiment->test = g_strdup (self->test_spec);
      g_free (experiment->figure);
      experiment->figure = g_variant_dup_string (figure, NULL);
      experiment->axes[0] = across == GTK_INVALID_LIST_POSITION ? 0 : across;
      experiment->axes[1] = up == GTK_INVALID_LIST_POSITION ? 0 : up;
      experiment->colour_by_class = gtk_check_button_get_active (colour);
      g_object_get (session, "speed", &experiment->speed, NULL);

      if (!latent_experiment_save (experiment, path, &error))
        _latent_window_show_error (self, error->message);
      else
        latent_saved (GTK_WIDGET (self), path, NULL);
    }
}

static void
on_save_experiment_action (GSimpleAction *action,
                           GVariant      *parameter,
                           gpointer       user_data)
{
  LatentWindow *self = user_data;
  GtkFileChooserNative *dialog = latent_save_chooser_new (GTK_WINDOW (self), _("Save Experiment"), "experiment.json",
                                                         LATENT_SAVE_DOCUMENT, on_save_experiment_chosen, self);

  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
apply_experiment (LatentWindow     *self,
                  LatentExperiment *experiment)
{
  /* The dataset loaded last starts the run. */
  latent_session_set_algorithm (self->session, experiment->algorithm, experiment->params);
  latent_session_set_seed (self->session, experiment->seed);
  g_action_group_change_action_state (G_ACTION_GROUP (self), "device",
                                      g_variant_new_string (experiment->device));
  g_clear_pointer (&self->pending_view, latent_experiment_free);
  self->pending_view = latent_experiment_copy (experiment);
  latent_window_load_dataset (self, experiment->dataset);
}

static void
on_open_experiment_chosen (const char *path,
                           gpointer    user_data)
{
  LatentWindow *self = user_data;

  if (path)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(LatentExperiment) experiment = latent_experiment_load (path, &error);

      if (experiment)
        apply_experiment (self, experiment);
      else
        _latent_window_show_error (self, error->message);
    }
}

static void
on_open_experiment_action (GSimpleAction *action,
                           GVariant      *parameter,
                           gpointer       user_data)
{
  LatentWindow *self = user_data;
  GtkFileChooserNative *dialog = latent_file_chooser_new (GTK_WINDOW (self), _("Open Experiment"),
                                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"),
                                                         on_open_experiment_chosen, self);

  add_filter (GTK_FILE_CHOOSER (dialog), _("Experiments (JSON)"), "*.json", NULL);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

void
latent_window_follow (LatentWindow *self,
                      const char   *dir)
{
  g_autofree char *path = NULL;
  g_autoptr(LatentExperiment) experiment = NULL;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (LATENT_IS_WINDOW (self));
  g_return_if_fail (dir != NULL);

  path = g_build_filename (dir, LATENT_FOLLOW_EXPERIMENT, NULL);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_autofree char *display = g_filename_display_name (dir);
      g_autofree char *message =
        g_strdup_printf (_("%s: no run to follow here (start one with latent-cli run … --follow %s)"),
                         display, display);

      _latent_window_show_error (self, message);
      return;
    }
  if (!(experiment = latent_experiment_load (path, &error)))
    {
      _latent_window_show_error (self, error->message);
      return;
    }
  apply_experiment (self, experiment);
  g_free (self->pending_follow);
  self->pending_follow = g_strdup (dir);
}

static void
on_follow_chosen (const char *path,
                  gpointer    user_data)
{
  if (path)
    latent_window_follow (LATENT_WINDOW (user_data), path);
}

static void
on_follow_action (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  LatentWindow *self = user_data;
  GtkFileChooserNative *dialog = latent_file_chooser_new (GTK_WINDOW (self), _("Follow a Run"),
                                                         GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _("_Follow"),
                                                         on_follow_chosen, self);

  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static const GActionEntry file_actions[] = {
  { "open", on_open_action },
  { "open-folder", on_open_folder_action },
  { "import-table", on_import_table_action },
  { "load-dataset", on_load_dataset_action, "s" },
  { "load-installed", on_load_dataset_action, "s" },
  { "synthetic", on_synthetic_action, "s" },
  { "device", NULL, "s", "'auto'", on_device_action },
  { "export", on_export_action },
  { "data-table", on_data_table_action },
  { "save-experiment", on_save_experiment_action },
  { "save-result", on_save_result_action },
  { "open-experiment", on_open_experiment_action },
  { "follow", on_follow_action },
};

void
_latent_window_init_files (LatentWindow *self)
{
  GtkDropTarget *drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);

  g_action_map_add_action_entries (G_ACTION_MAP (self), file_actions, G_N_ELEMENTS (file_actions), self);
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
  g_signal_connect_swapped (self->session, "notify::device-name", G_CALLBACK (on_device_changed), self);
  g_signal_connect_swapped (self->session, "notify::device-label", G_CALLBACK (on_device_changed), self);
  g_signal_connect_swapped (self->session, "notify::dataset", G_CALLBACK (remember_dataset), self);
  offer_devices (self);
  update_recent_menu (self);
}
