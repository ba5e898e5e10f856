/* latent-window-filter.c — what an image filter (convolution) adds to the
 * window: the split between before and after, the kernel editor, the
 * filtered image saved (as the source: its channels and bit depth), and its
 * passes in the status line
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-window"

#include "latent-window-private.h"

#include "latent-family.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "latent-filter.h"
#include "latent-kernel-dialog.h"
#include "latent-png-save.h"
#include "latent-ui-util.h"

static gboolean
is_filter (LatentWindow *self)
{
  return latent_session_get_algorithm (self->session)->family == LATENT_FAMILY_FILTER;
}

/* The status line and the metrics ------------------------------------------- */

void
_latent_window_append_filter_status (LatentWindow   *self,
                                     LatentSnapshot *frame,
                                     GString        *text)
{
  const char *passes = frame->params ? latent_params_find_role (frame->params, LATENT_PARAM_ROLE_BUDGET) : NULL;
  double ms = latent_filters_get_ms_per_pass (frame);

  g_string_append_printf (text, _(" · pass %u of %u"), frame->iteration,
                          passes ? (guint) latent_params_get_int (frame->params, passes) : frame->iteration);
  if (latent_filters_get_method (frame))
    g_string_append_printf (text, " · %s", latent_filters_method_label (frame, latent_filters_get_method (frame)));
  if (ms > 0 && isfinite (ms))
    g_string_append_printf (text, _(" · %.3g ms per pass"), ms);
}

/* The split ------------------------------------------------------------------- */

void
_latent_window_update_filter_bar (LatentWindow *self)
{
  gboolean filter = latent_figure_view_get_shown_kind (self->figure_view) == LATENT_FIGURE_FILTER;

  gtk_widget_set_visible (self->filter_bar, is_filter (self));
  gtk_widget_set_sensitive (GTK_WIDGET (self->split_check), filter);
  gtk_widget_set_sensitive (GTK_WIDGET (self->split_scale),
                            filter && gtk_check_button_get_active (self->split_check));
}

static void
on_split_changed (LatentWindow *self)
{
  gboolean split = gtk_check_button_get_active (self->split_check);

  if (self->splitting)
    return;
  latent_figure_view_set_split (self->figure_view,
                                split ? gtk_adjustment_get_value (self->split_adjustment) / 100.0 : -1.0);
  _latent_window_update_filter_bar (self);
}

/* A drag on the figure moves the scale, and the scale the line. */
static void
on_view_split (LatentWindow *self)
{
  double split = latent_figure_view_get_split (self->figure_view);

  self->splitting = TRUE;
  gtk_check_button_set_active (self->split_check, split >= 0.0);
  if (split >= 0.0)
    gtk_adjustment_set_value (self->split_adjustment, round (split * 1000.0) / 10.0);
  self->splitting = FALSE;
  _latent_window_update_filter_bar (self);
}

static void
on_actual_size (LatentWindow *self)
{
  latent_figure_view_zoom_actual (self->figure_view);
  gtk_widget_grab_focus (GTK_WIDGET (self->figure_view));
}

/* The kernel editor -------------------------------------------------------------- */

static void
on_kernel_applied (LatentKernelDialog *dialog,
                   const char         *path,
                   LatentWindow       *self)
{
  LatentParams *params = latent_session_get_params (self->session);
  g_autoptr(GError) error = NULL;

  if (!latent_filter_params_use_file (params, path, &error))
    {
      _latent_window_show_error (self, error->message);
      return;
    }
  latent_param_panel_set_params (self->param_panel, params);
  latent_session_edited (self->session);
}

/* Closed either way: the drop-down shows the value that holds. */
static void
on_kernel_dialog_destroyed (LatentWindow *self)
{
  latent_param_panel_set_params (self->param_panel, latent_session_get_params (self->session));
}

static void
open_kernel_editor (LatentWindow *self)
{
  g_autoptr(LatentFilter) filter = NULL;
  GtkWidget *dialog;

  if (!is_filter (self))
    return;
  /* NULL when the parameters make none: the run says why. */
  filter = latent_filter_new_from_params (latent_session_get_params (self->session), NULL);
  dialog = latent_kernel_dialog_new (GTK_WINDOW (self), filter);
  g_signal_connect_object (dialog, "applied", G_CALLBACK (on_kernel_applied), self, 0);
  g_signal_connect_object (dialog, "destroy", G_CALLBACK (on_kernel_dialog_destroyed), self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
on_edit_kernel_action (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  open_kernel_editor (user_data);
}

static void
on_param_edit (LatentParamPanel *panel,
               const char       *name,
               LatentWindow     *self)
{
  if (g_str_equal (name, "filter"))
    open_kernel_editor (self);
}

/* Saving the filtered image -------------------------------------------------------- */

typedef struct {
  LatentWindow   *window;
  LatentSnapshot *frame;
} SaveImage;

static void
save_image_free (SaveImage *save)
{
  g_object_unref (save->window);
  latent_snapshot_unref (save->frame);
  g_free (save);
}

static void
on_save_image_chosen (const char *chosen,
                      gpointer    user_data)
{
  SaveImage *save = user_data;
  LatentSnapshot *frame = save->frame;
  g_autofree char *base = NULL;
  g_autofree char *path = NULL;
  g_autofree char *params = NULL;
  g_autofree char *iteration = NULL;
  g_autofree char *title = NULL;
  g_autoptr(GError) error = NULL;
  guint width, height, channels, depth = latent_dataset_get_bit_depth (frame->dataset);
  gboolean single;

  if (chosen == NULL)
    {
      save_image_free (save);
      return;
    }
  /* A name without an extension is a PNG all the same. */
  base = g_path_get_basename (chosen);
  path = strchr (base, '.') ? g_strdup (chosen) : g_strconcat (chosen, ".png", NULL);
  params = frame->params ? latent_params_to_string (frame->params) : g_strdup ("");
  iteration = g_strdup_printf ("%u", frame->iteration);
  title = latent_figure_dup_title (frame);
  {
    const char * const text[] = {
      "Software", "Latent",
      "Title", title,
      "latent:algorithm", frame->algorithm->id,
      "latent:params", params,
      "latent:iteration", iteration,
      NULL,
    };

    if (!latent_dataset_get_image_shape (frame->dataset, &width, &height, &channels, &single)
        || !latent_png_save (path, latent_filters_get_image (frame), width, height, channels, LATENT_PNG_INTERLEAVED,
                             depth == 16 ? 16 : 8, text, &error))
      _latent_window_show_error (save->window, error ? error->message : _("The result is not an image"));
    else
      latent_saved (GTK_WIDGET (save->window), path, NULL);
  }
  save_image_free (save);
}

static void
on_save_image_action (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  LatentWindow *self = user_data;
  LatentSnapshot *frame = latent_session_get_shown (self->session);
  GtkFileChooserNative *dialog;
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  g_autofree char *stem = NULL;
  g_autofree char *name = NULL;
  SaveImage *save;

  if (frame == NULL || latent_filters_get_image (frame) == NULL)
    return;
  /* What is shown now is what is saved, whatever the run does meanwhile. */
  save = g_new (SaveImage, 1);
  save->window = g_object_ref (self);
  save->frame = latent_snapshot_ref (frame);
  stem = latent_dup_file_stem (latent_dataset_get_name (frame->dataset));
  name = g_strdup_printf ("%s-filtered.png", stem);
  dialog = latent_save_chooser_new (GTK_WINDOW (self), _("Save Filtered Image"), name, LATENT_SAVE_PICTURE,
                                    on_save_image_chosen, save);
  gtk_file_filter_set_name (filter, _("Images (PNG)"));
  gtk_file_filter_add_pattern (filter, "*.png");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static const GActionEntry filter_actions[] = {
  { "edit-kernel", on_edit_kernel_action },
  { "save-image", on_save_image_action },
};

void
_latent_window_init_filter (LatentWindow *self)
{
  g_autofree char *kernels = g_build_filename (g_get_user_cache_dir (), "latent", "kernels", NULL);

  g_action_map_add_action_entries (G_ACTION_MAP (self), filter_actions, G_N_ELEMENTS (filter_actions), self);
  /* Kernels typed in the editor are files there (latent_kernel_file_save ()). */
  latent_param_panel_add_editor (self->param_panel, "filter", _("Custom…"), kernels);
  g_signal_connect (self->param_panel, "edit", G_CALLBACK (on_param_edit), self);
  g_signal_connect_swapped (self->figure_view, "notify::split", G_CALLBACK (on_view_split), self);
  g_signal_connect_swapped (self->split_check, "toggled", G_CALLBACK (on_split_changed), self);
  g_signal_connect_swapped (self->split_adjustment, "value-changed", G_CALLBACK (on_split_changed), self);
  g_signal_connect_swapped (gtk_widget_get_template_child (GTK_WIDGET (self), LATENT_TYPE_WINDOW, "actual_size_button"),
                            "clicked", G_CALLBACK (on_actual_size), self);
}
