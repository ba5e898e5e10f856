/* latent-export-dialog.c — write the figure on screen to PNG, SVG or PDF,
 * or the run's kept frames as an animation
 *
 * Through the same renderer and exporter as latent-cli. The style is copied
 * with the trail, and the figure kind read from the window's figure-kind
 * action, so the file shows what the window showed. Width and height keep
 * the view's aspect ratio until unlinked, and the figure is laid out at the
 * view's size and magnified to the file's, so a larger file is a sharper
 * copy of the view. An animation draws every frame the same way, each
 * scatter with the trail of the frames before it, on a thread. A saved
 * file is announced in the window that opened the dialog, through its
 * win.show-notice action.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-export-dialog"

#include "latent-export-dialog.h"
#include "latent-family.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "latent-animation.h"
#include "latent-ui-util.h"

struct _LatentExportDialog
{
  GtkWindow          parent_instance;

  GtkEntry          *name_entry;
  GtkDropDown       *format_dropdown;
  GtkSpinButton     *width_spin;
  GtkSpinButton     *height_spin;
  GtkToggleButton   *link_button;
  GtkLabel          *folder_label;
  GtkLabel          *message_label;
  GtkSpinButton     *fps_spin;
  GtkLabel          *frames_label;
  GtkWidget         *frames_box;
  GtkWidget         *frames_caption;
  GtkWidget         *export_button;

  int                view_width;   /* the view's size: the ratio kept, and */
  int                view_height;  /* the layout magnified for the file */
  gboolean           syncing;      /* one spin button is following the other */

  LatentSnapshot    *snapshot;
  LatentFigureKind   kind;
  LatentFigureStyle  style;
  float             *trail;     /* our copy: the view may move on */
  GPtrArray         *frames;    /* the run's kept frames, oldest first */
  GCancellable      *recording; /* while an animation is written */
};

G_DEFINE_FINAL_TYPE (LatentExportDialog, latent_export_dialog, GTK_TYPE_WINDOW)

/* In the order of the Format drop-down: stills, then animations of the run. */
static const char * const extensions[] = { ".png", ".svg", ".pdf", ".webm", ".gif", ".png" };
#define FIRST_ANIMATION 3

static gboolean
is_animation (LatentExportDialog *self)
{
  return gtk_drop_down_get_selected (self->format_dropdown) >= FIRST_ANIMATION;
}

static void
show_message (LatentExportDialog *self,
              const char         *message)
{
  latent_label_set_text (self->message_label, message ? message : "", _("Export Error"));
  gtk_widget_set_visible (GTK_WIDGET (self->message_label), message != NULL);
}

/* The extension follows the format, and the format the extension. */
static void
on_format_changed (LatentExportDialog *self)
{
  const char *name = gtk_editable_get_text (GTK_EDITABLE (self->name_entry));
  guint format = gtk_drop_down_get_selected (self->format_dropdown);
  const char *dot = strrchr (name, '.');
  g_autofree char *stem = dot ? g_strndup (name, dot - name) : g_strdup (name);
  g_autofree char *renamed = NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->frames_box), format >= FIRST_ANIMATION);
  gtk_widget_set_visible (self->frames_caption, format >= FIRST_ANIMATION);
  if (format >= G_N_ELEMENTS (extensions) || (dot && g_ascii_strcasecmp (dot, extensions[format]) == 0))
    return;
  renamed = g_strconcat (stem, extensions[format], NULL);
  gtk_editable_set_text (GTK_EDITABLE (self->name_entry), renamed);
}

/* Where the file goes: a bare name goes where files were saved last
 * (latent_save_folder_dup ()), and a name without the format's extension
 * gets it, so that typing "figure" with SVG chosen writes figure.svg. */
static char *
dup_path (LatentExportDialog *self)
{
  const char *name = gtk_editable_get_text (GTK_EDITABLE (self->name_entry));
  guint format = gtk_drop_down_get_selected (self->format_dropdown);
  const char *dot = strrchr (name, '.');
  g_autofree char *folder = NULL;
  g_autofree char *named = NULL;

  if (format < G_N_ELEMENTS (extensions) && (dot == NULL || g_ascii_strcasecmp (dot, extensions[format]) != 0))
    name = named = g_strconcat (name, extensions[format], NULL);
  if (g_path_is_absolute (name))
    return g_strdup (name);
  folder = latent_save_folder_dup (LATENT_SAVE_PICTURE);
  return g_build_filename (folder, name, NULL);
}

static void
update_folder (LatentExportDialog *self)
{
  g_autofree char *path = dup_path (self);
  g_autofree char *folder = g_path_get_dirname (path);
  g_autofree char *shown = g_filename_display_name (folder);

  latent_label_set_text (self->folder_label, shown, _("Folder"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->folder_label), shown);
}

static void
on_name_changed (LatentExportDialog *self)
{
  const char *name = gtk_editable_get_text (GTK_EDITABLE (self->name_entry));
  const char *dot = strrchr (name, '.');

  guint format = gtk_drop_down_get_selected (self->format_dropdown);

  show_message (self, NULL);
  update_folder (self);
  /* A PNG sequence's name ends in .png too: it stays one. */
  if (dot == NULL || (format < G_N_ELEMENTS (extensions) && g_ascii_strcasecmp (dot, extensions[format]) == 0))
    return;
  for (guint i = 0; i < G_N_ELEMENTS (extensions); i++)
    if (g_ascii_strcasecmp (dot, extensions[i]) == 0)
      {
        gtk_drop_down_set_selected (self->format_dropdown, i);
        break;
      }
}

/* Linked, each spin button follows the other by the view's aspect ratio. */
static void
follow (LatentExportDialog *self,
        GtkSpinButton      *from,
        GtkSpinButton      *to,
        double              ratio)
{
  if (self->syncing || !gtk_toggle_button_get_active (self->link_button))
    return;
  self->syncing = TRUE;
  gtk_spin_button_set_value (to, CLAMP (round (gtk_spin_button_get_value (from) * ratio),
                                        LATENT_FIGURE_MIN_SIZE, LATENT_FIGURE_MAX_SIZE));
  self->syncing = FALSE;
}

static void
on_width_changed (LatentExportDialog *self)
{
  follow (self, self->width_spin, self->height_spin, (double) self->view_height / self->view_width);
}

static void
on_height_changed (LatentExportDialog *self)
{
  follow (self, self->height_spin, self->width_spin, (double) self->view_width / self->view_height);
}

/* Linked again: the height follows the width. */
static void
on_link_toggled (LatentExportDialog *self)
{
  on_width_changed (self);
}

/* File units per view unit: the layout of the view, magnified. Unlinked,
 * the smaller of the two, so the figure never has less room than the view
 * in either direction. */
static double
export_scale (LatentExportDialog *self,
              int                 width,
              int                 height)
{
  return MIN ((double) width / self->view_width, (double) height / self->view_height);
}

static void
on_chosen (const char *path,
           gpointer    user_data)
{
  LatentExportDialog *self = user_data;

  if (path)
    gtk_editable_set_text (GTK_EDITABLE (self->name_entry), path);
}

static void
on_choose (LatentExportDialog *self)
{
  g_autofree char *path = dup_path (self);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *folder = g_path_get_dirname (path);
  g_autoptr(GFile) start = g_file_new_for_path (folder);
  GtkFileChooserNative *dialog = latent_file_chooser_new (GTK_WINDOW (self), _("Export Figure"),
                                                         GTK_FILE_CHOOSER_ACTION_SAVE, _("_Select"),
                                                         on_chosen, self);

  gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), start, NULL);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), base);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* Said where it went, in the window, with a way to get there; the size
 * and format are the next export's. */
static void
announce (LatentExportDialog *self,
          const char         *path,
          const char         *extra)
{
  g_autoptr(GSettings) settings = latent_settings_open ();

  if (settings)
    {
      g_settings_set (settings, "export-size", "(ii)", gtk_spin_button_get_value_as_int (self->width_spin),
                      gtk_spin_button_get_value_as_int (self->height_spin));
      g_settings_set_uint (settings, "export-format", gtk_drop_down_get_selected (self->format_dropdown));
    }
  latent_saved (GTK_WIDGET (self), path, extra);
}

/* What a recording thread draws: its own references and copies, so the
 * dialog may go while it runs. */
typedef struct {
  GPtrArray         *frames;
  LatentFigureKind   kind;
  LatentFigureStyle  style;
  char              *path;
  int                width, height, fps;
  double             scale;
  guint              n_frames;   /* written */
  double             duration;
  GApplication      *application; /* held while writing */
} Recording;

static void
recording_free (Recording *r)
{
  g_clear_object (&r->application);
  g_ptr_array_unref (r->frames);
  g_free (r->path);
  g_free (r);
}

static void
record_thread (GTask        *task,
               gpointer      source,
               gpointer      task_data,
               GCancellable *cancellable)
{
  Recording *r = task_data;
  g_autoptr(GArray) trail = g_array_new (FALSE, FALSE, sizeof (float));
  LatentAnimation *animation;
  GError *error = NULL;

  if (!(animation = latent_animation_new (r->path, r->width, r->height, r->fps, &error)))
    {
      g_task_return_error (task, error);
      return;
    }
  for (guint i = 0; i < r->frames->len; i++)
    {
      LatentSnapshot *frame = g_ptr_array_index (r->frames, i);

      if (g_cancellable_set_error_if_cancelled (cancellable, &error))
        break;
      /* Each scatter with its own trail, as the timeline shows it. */
      g_array_set_size (trail, 0);
      r->style.n_trail = latent_figure_collect_trail (frame, (LatentSnapshot **) r->frames->pdata, i,
                                                      LATENT_FIGURE_TRAIL_LENGTH, trail);
      r->style.trail = (const float *) trail->data;
      if (!latent_animation_add_snapshot (animation, frame, r->kind, &r->style, r->scale, &error))
        break;
    }
  if (error == NULL && latent_animation_finish (animation, &error))
    {
      r->n_frames = latent_animation_get_n_frames (animation);
      r->duration = latent_animation_get_duration (animation);
    }
  latent_animation_free (animation);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
on_recorded (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  LatentExportDialog *self = LATENT_EXPORT_DIALOG (source);
  Recording *r = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autofree char *extra = NULL;
  LatentAnimationFormat format;

  /* The application stayed while the file was written (record_animation). */
  if (r->application != NULL)
    g_application_release (r->application);
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_clear_object (&self->recording);
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      gtk_widget_set_sensitive (self->export_button, TRUE);
      show_message (self, error->message);
      return;
    }
  g_clear_object (&self->recording);
  /* TRANSLATORS: the frames of an animation and how long it plays: "24 frames, 2.4 s" */
  extra = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u frame, %.1f s", "%u frames, %.1f s", r->n_frames),
                           r->n_frames, r->duration);
  /* A sequence is found by its first file. */
  if (latent_animation_format_from_path (r->path, &format, NULL) && format == LATENT_ANIMATION_PNG)
    {
      g_autofree char *first = latent_animation_dup_frame_path (r->path, 1);

      announce (self, first, extra);
    }
  else
    announce (self, r->path, extra);
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
record_animation (LatentExportDialog *self,
                  const char         *path,
                  int                 width,
                  int                 height)
{
  Recording *r;
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  int fps = gtk_spin_button_get_value_as_int (self->fps_spin);
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));
  LatentAnimationFormat format;

  if (self->frames == NULL || self->frames->len < 2)
    {
      show_message (self, _("The run kept one frame so far: run the algorithm, then record its frames."));
      return;
    }
  /* VP8 takes even sizes only: the nearest below. */
  if (latent_animation_format_from_path (path, &format, NULL) && format == LATENT_ANIMATION_WEBM)
    {
      width &= ~1;
      height &= ~1;
    }
  if (!latent_animation_check (path, width, height, fps, &error))
    {
      show_message (self, error->message);
      return;
    }
  r = g_new0 (Recording, 1);
  r->frames = g_ptr_array_ref (self->frames);
  r->kind = self->kind;
  r->style = self->style;
  r->path = g_strdup (path);
  r->width = width;
  r->height = height;
  r->fps = fps;
  r->scale = export_scale (self, width, height);
  /* Quitting waits for the file (or its temporary file's removal). */
  if (parent != NULL && gtk_window_get_application (parent) != NULL)
    {
      r->application = G_APPLICATION (g_object_ref (gtk_window_get_application (parent)));
      g_application_hold (r->application);
    }
  self->recording = g_cancellable_new ();
  task = g_task_new (self, self->recording, on_recorded, NULL);
  g_task_set_task_data (task, r, (GDestroyNotify) recording_free);
  g_task_run_in_thread (task, record_thread);
  gtk_widget_set_sensitive (self->export_button, FALSE);
  {
    /* TRANSLATORS: while an animation is written */
    g_autofree char *said = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Recording %u frame…",
                                                          "Recording %u frames…", self->frames->len),
                                             self->frames->len);

    latent_label_set_text (self->message_label, said, _("Export Progress"));
    gtk_widget_set_visible (GTK_WIDGET (self->message_label), TRUE);
  }
}

static void
on_export (LatentExportDialog *self)
{
  const char *name = gtk_editable_get_text (GTK_EDITABLE (self->name_entry));
  int width = gtk_spin_button_get_value_as_int (self->width_spin);
  int height = gtk_spin_button_get_value_as_int (self->height_spin);
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;

  if (*name == '\0')
    {
      show_message (self, _("Give the file a name."));
      return;
    }
  path = dup_path (self);
  if (is_animation (self))
    {
      record_animation (self, path, width, height);
      return;
    }
  if (!latent_figure_export_scaled (self->snapshot, self->kind, &self->style, path, width, height,
                                    export_scale (self, width, height), &error))
    {
      show_message (self, error->message);
      return;
    }
  announce (self, path, NULL);
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
on_copy (LatentExportDialog *self)
{
  int width = gtk_spin_button_get_value_as_int (self->width_spin);
  int height = gtk_spin_button_get_value_as_int (self->height_spin);
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GError) error = NULL;
  /* Magnified as the file would be. */
  cairo_surface_t *surface = latent_figure_render_image (self->snapshot, self->kind, &self->style, width, height,
                                                         export_scale (self, width, height), &error);

  if (surface == NULL)
    {
      show_message (self, error->message);
      return;
    }
  texture = latent_texture_new_for_surface (surface);
  gdk_clipboard_set_texture (gtk_widget_get_clipboard (GTK_WIDGET (self)), texture);
  cairo_surface_destroy (surface);
  show_message (self, NULL);
}

/* The figure the parent window shows: the state of its win.figure-kind
 * action, when it has one. */
static LatentFigureKind
shown_kind (GtkWindow *parent)
{
  g_autoptr(GVariant) state = NULL;
  LatentFigureKind kind = LATENT_FIGURE_AUTO;

  if (G_IS_ACTION_GROUP (parent) && g_action_group_has_action (G_ACTION_GROUP (parent), "figure-kind"))
    state = g_action_group_get_action_state (G_ACTION_GROUP (parent), "figure-kind");
  if (state != NULL && g_variant_is_of_type (state, G_VARIANT_TYPE_STRING))
    latent_figure_kind_from_string (g_variant_get_string (state, NULL), &kind);
  return kind;
}

/* Closed (Cancel, Escape), a recording under way stops: its task holds
 * the dialog, so finalize would come only after it. */
static void
on_destroy (LatentExportDialog *self)
{
  if (self->recording)
    g_cancellable_cancel (self->recording);
}

static void
latent_export_dialog_finalize (GObject *object)
{
  LatentExportDialog *self = LATENT_EXPORT_DIALOG (object);

  g_clear_object (&self->recording);
  g_clear_pointer (&self->frames, g_ptr_array_unref);
  g_clear_pointer (&self->snapshot, latent_snapshot_unref);
  g_free (self->trail);
  G_OBJECT_CLASS (latent_export_dialog_parent_class)->finalize (object);
}

static void
latent_export_dialog_class_init (LatentExportDialogClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = latent_export_dialog_finalize;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/latent/Latent/latent-export-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, LatentExportDialog, name_entry);
  gtk_widget_class_bind_template_child (widget_class, LatentExportDialog, format_dropdown);
  gtk_widget_class_bind_template_child (widget_class, LatentExportDialog, width_spin);
  gtk_widget_class_bind_template_child (widget_class, LatentExportDialog, height_spin);
  gtk_widget_class_bind_template_child (widget_class, LatentExportDialog, link_button);
  gtk_widget_class_bind_template_child (widget_class, LatentExportDialog, folder_label);
  gtk_widget_class_bind_template_child (widget_class, LatentExportDialog, message_label);
  gtk_widget_class_bind_template_child (widget_class, LatentExportDialog, fps_spin);
  gtk_widget_class_bind_template_child (widget_class, LatentExportDialog, frames_label);
  gtk_widget_class_bind_template_child (widget_class, LatentExportDialog, frames_box);
  gtk_widget_class_bind_template_child (widget_class, LatentExportDialog, frames_caption);
  gtk_widget_class_bind_template_child (widget_class, LatentExportDialog, export_button);
  gtk_widget_class_bind_template_callback (widget_class, on_format_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_name_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_choose);
  gtk_widget_class_bind_template_callback (widget_class, on_width_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_height_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_link_toggled);
  gtk_widget_class_bind_template_callback (widget_class, on_export);
  gtk_widget_class_bind_template_callback (widget_class, on_copy);
  gtk_widget_class_bind_template_callback (widget_class, gtk_window_destroy);
  /* Escape closes, as in a dialog. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
latent_export_dialog_init (LatentExportDialog *self)
{
  self->view_width = self->view_height = 1;
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect (self, "destroy", G_CALLBACK (on_destroy), NULL);
  latent_drop_downs_name_buttons (GTK_WIDGET (self));
}

/* The format and width exported last; the height follows this view's
 * ratio, as the link says. */
static void
restore_choices (LatentExportDialog *self)
{
  g_autoptr(GSettings) settings = latent_settings_open ();
  int width = 0, height = 0;
  guint format;

  if (settings == NULL)
    return;
  g_settings_get (settings, "export-size", "(ii)", &width, &height);
  format = g_settings_get_uint (settings, "export-format");
  if (format < G_N_ELEMENTS (extensions))
    gtk_drop_down_set_selected (self->format_dropdown, format);
  if (width < LATENT_FIGURE_MIN_SIZE || height < LATENT_FIGURE_MIN_SIZE)
    return;
  gtk_spin_button_set_value (self->width_spin, width);
}

GtkWidget *
latent_export_dialog_new (GtkWindow               *parent,
                          LatentSnapshot          *snapshot,
                          const LatentFigureStyle *style,
                          int                      width,
                          int                      height)
{
  LatentExportDialog *self = g_object_new (LATENT_TYPE_EXPORT_DIALOG, "transient-for", parent, NULL);
  g_autofree char *name = NULL, *stem = NULL;

  g_return_val_if_fail (snapshot != NULL && style != NULL, NULL);

  self->snapshot = latent_snapshot_ref (snapshot);
  self->kind = latent_figure_resolve_kind (snapshot, shown_kind (parent));
  self->style = *style;
  if (style->trail && style->n_trail)
    {
      guint k = 0;

      latent_clusters_get_means (snapshot, &k);
      self->trail = g_memdup2 (style->trail, sizeof (float) * style->n_trail * k * snapshot->n_cols);
      self->style.trail = self->trail;
    }
  /* The on-screen point layer resolution is the file's own business. */
  self->style.pixel_scale = 0;
  /* The ratio kept and the layout magnified are the view's, set before the
   * spin buttons so that neither follows the other on the way in. */
  self->view_width = CLAMP (width, LATENT_FIGURE_MIN_SIZE, LATENT_FIGURE_MAX_SIZE);
  self->view_height = CLAMP (height, LATENT_FIGURE_MIN_SIZE, LATENT_FIGURE_MAX_SIZE);
  self->syncing = TRUE;
  gtk_spin_button_set_value (self->width_spin, self->view_width);
  gtk_spin_button_set_value (self->height_spin, self->view_height);
  self->syncing = FALSE;
  /* Named after the figure too when the result has several. */
  stem = latent_dup_file_stem (latent_dataset_get_name (snapshot->dataset));
  if (self->kind != latent_figure_resolve_kind (snapshot, LATENT_FIGURE_AUTO))
    name = g_strdup_printf ("%s-%s-%u-%s.png", stem, snapshot->algorithm->id, snapshot->iteration,
                            latent_figure_kind_to_string (self->kind));
  else
    name = g_strdup_printf ("%s-%s-%u.png", stem, snapshot->algorithm->id, snapshot->iteration);
  gtk_editable_set_text (GTK_EDITABLE (self->name_entry), name);
  /* After the name, which the format then renames. */
  restore_choices (self);
  return GTK_WIDGET (self);
}

void
latent_export_dialog_set_frames (LatentExportDialog *self,
                                 LatentSnapshot    **frames,
                                 guint               n_frames)
{
  g_autofree char *said = NULL;

  g_return_if_fail (LATENT_IS_EXPORT_DIALOG (self));

  g_clear_pointer (&self->frames, g_ptr_array_unref);
  self->frames = g_ptr_array_new_full (n_frames, (GDestroyNotify) latent_snapshot_unref);
  for (guint i = 0; i < n_frames; i++)
    g_ptr_array_add (self->frames, latent_snapshot_ref (frames[i]));
  if (n_frames == 0)
    said = g_strdup (_("no frame kept yet"));
  else
    /* TRANSLATORS: what an animation of the run shows: "24 frames kept, iterations 0 to 23" */
    said = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u frame kept, iterations %u to %u",
                                         "%u frames kept, iterations %u to %u", n_frames),
                            n_frames, frames[0]->iteration, frames[n_frames - 1]->iteration);
  latent_label_set_text (self->frames_label, said, _("Frames Kept"));
}
