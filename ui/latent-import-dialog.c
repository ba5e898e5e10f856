/* latent-import-dialog.c — reading a table as people have it
 *
 * The first rows are shown as they are; the choices start from what those
 * rows suggest (a first column of names all different is an identifier to
 * leave out, text among numbers is a category, empty cells are filled in),
 * and each change reads the whole table again on a thread, saying how many
 * rows and columns the choices give, or why they give none.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-import-dialog"

#include "latent-import-dialog.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "latent-arff.h"
#include "latent-catalog.h"
#include "latent-csv.h"

#define PREVIEW_ROWS 8

struct _LatentImportDialog
{
  GtkWindow        parent_instance;

  GtkLabel        *explanation;
  GtkGrid         *preview;
  GtkDropDown     *labels_drop;
  GtkFlowBox      *ignore_box;
  GtkDropDown     *text_drop;
  GtkDropDown     *missing_drop;
  GtkCheckButton  *standardise_check;
  GtkLabel        *summary;
  GtkWidget       *open_button;

  char            *path;
  guint            n_cols;
  GPtrArray       *ignore_checks;   /* GtkCheckButton, one per column */
  GCancellable    *trying;          /* the read of the choices under way */
  guint            try_source;      /* a read to start once the choices rest */
  char            *spec;            /* the choices that read, for Open */
};

G_DEFINE_FINAL_TYPE (LatentImportDialog, latent_import_dialog, GTK_TYPE_WINDOW)

enum { CHOSEN, N_SIGNALS };
static guint signals[N_SIGNALS];

/* The choices, as the catalog reads them after the path. */
static char *
choices_spec (LatentImportDialog *self)
{
  g_autoptr(GString) options = g_string_new (NULL);
  static const char * const texts[] = { NULL, "missing", "onehot" };
  static const char * const missings[] = { NULL, "drop", "mean" };
  guint label = gtk_drop_down_get_selected (self->labels_drop);
  guint text = gtk_drop_down_get_selected (self->text_drop);
  guint missing = gtk_drop_down_get_selected (self->missing_drop);

  /* Columns by number: a name may hold a comma. */
  if (label == 1)
    g_string_append (options, ",label=none");
  else if (label >= 2)
    g_string_append_printf (options, ",label=%u", label - 1);
  for (guint c = 0; c < self->ignore_checks->len; c++)
    if (gtk_check_button_get_active (g_ptr_array_index (self->ignore_checks, c)))
      g_string_append_printf (options, ",ignore=%u", c + 1);
  /* An ARFF file's nominal attributes are categories already. */
  if (gtk_widget_get_visible (GTK_WIDGET (self->text_drop)) && text < G_N_ELEMENTS (texts) && texts[text])
    g_string_append_printf (options, ",text=%s", texts[text]);
  if (missing < G_N_ELEMENTS (missings) && missings[missing])
    g_string_append_printf (options, ",missing=%s", missings[missing]);
  if (gtk_check_button_get_active (self->standardise_check))
    g_string_append (options, ",standardise");
  if (options->len == 0)
    return g_strdup (self->path);
  return g_strconcat (self->path, ":", options->str + 1, NULL);
}

/* The table read with the choices, on a thread, as Open will read it. */
typedef struct {
  char            *spec;
  LatentCsvReport  report;
} Trial;

static void
trial_free (gpointer data)
{
  Trial *trial = data;

  g_free (trial->spec);
  g_free (trial);
}

static void
try_thread (GTask        *task,
            gpointer      source,
            gpointer      data,
            GCancellable *cancellable)
{
  Trial *trial = data;
  GError *error = NULL;
  LatentDataset *dataset = latent_catalog_load_table (trial->spec, &trial->report, &error);

  if (dataset == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, dataset, g_object_unref);
}

static void
on_tried (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(LatentImportDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentDataset) dataset = g_task_propagate_pointer (G_TASK (result), &error);
  const Trial *trial = g_task_get_task_data (G_TASK (result));
  g_autoptr(GString) text = NULL;
  g_autofree char *rows = NULL, *columns = NULL;
  guint n, d;

  if (g_task_get_cancellable (G_TASK (result)) != self->trying)
    return;
  g_clear_object (&self->trying);
  if (dataset == NULL)
    {
      gtk_label_set_text (self->summary, error->message);
      gtk_widget_set_sensitive (self->open_button, FALSE);
      return;
    }
  n = latent_dataset_get_n_rows (dataset);
  d = latent_dataset_get_n_cols (dataset);
  text = g_string_new (NULL);
  /* Translators: the rows and columns the choices give, "150 rows × 4 columns". */
  rows = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u row", "%u rows", n), n);
  columns = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u column", "%u columns", d), d);
  g_string_append_printf (text, _("%s × %s"), rows, columns);
  if (latent_dataset_has_labels (dataset))
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, " · labels of %u class", " · labels of %u classes",
                                               latent_dataset_get_n_classes (dataset)),
                            latent_dataset_get_n_classes (dataset));
  if (trial->report.rows_dropped > 0)
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, " · %u row with a missing value left out",
                                               " · %u rows with a missing value left out", trial->report.rows_dropped),
                            trial->report.rows_dropped);
  if (trial->report.cells_filled > 0)
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, " · %u missing value filled in with its column’s mean",
                                               " · %u missing values filled in with their column’s mean",
                                               trial->report.cells_filled),
                            trial->report.cells_filled);
  if (trial->report.columns_one_hot > 0)
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, " · %u column of categories as 0/1 columns",
                                               " · %u columns of categories as 0/1 columns",
                                               trial->report.columns_one_hot),
                            trial->report.columns_one_hot);
  gtk_label_set_text (self->summary, text->str);
  gtk_widget_set_sensitive (self->open_button, TRUE);
}

/* Reads the table with the choices as they are now. */
static void
try_choices (LatentImportDialog *self)
{
  g_autoptr(GTask) task = NULL;
  Trial *trial = g_new0 (Trial, 1);

  g_free (self->spec);
  self->spec = choices_spec (self);
  trial->spec = g_strdup (self->spec);
  if (self->trying)
    g_cancellable_cancel (self->trying);
  g_clear_object (&self->trying);
  self->trying = g_cancellable_new ();

  gtk_widget_set_sensitive (self->open_button, FALSE);
  gtk_label_set_text (self->summary, _("Reading the table with these choices…"));
  task = g_task_new (self, self->trying, on_tried, g_object_ref (self));
  g_task_set_task_data (task, trial, trial_free);
  g_task_run_in_thread (task, try_thread);
}

/* Clicking through the choices starts one read, once they rest: each read
 * is of the whole table. */
static gboolean
try_when_resting (gpointer data)
{
  LatentImportDialog *self = data;

  self->try_source = 0;
  try_choices (self);
  return G_SOURCE_REMOVE;
}

static void
on_choice_changed (LatentImportDialog *self)
{
  g_clear_handle_id (&self->try_source, g_source_remove);
  gtk_widget_set_sensitive (self->open_button, FALSE);
  self->try_source = g_timeout_add (250, try_when_resting, self);
}

static void
on_open (LatentImportDialog *self)
{
  if (self->spec == NULL)
    return;
  g_signal_emit (self, signals[CHOSEN], 0, self->spec);
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
latent_import_dialog_dispose (GObject *object)
{
  LatentImportDialog *self = LATENT_IMPORT_DIALOG (object);

  if (self->trying)
    g_cancellable_cancel (self->trying);
  g_clear_object (&self->trying);
  g_clear_handle_id (&self->try_source, g_source_remove);
  G_OBJECT_CLASS (latent_import_dialog_parent_class)->dispose (object);
}

static void
latent_import_dialog_finalize (GObject *object)
{
  LatentImportDialog *self = LATENT_IMPORT_DIALOG (object);

  g_free (self->path);
  g_free (self->spec);
  g_clear_pointer (&self->ignore_checks, g_ptr_array_unref);
  G_OBJECT_CLASS (latent_import_dialog_parent_class)->finalize (object);
}

static void
latent_import_dialog_class_init (LatentImportDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = latent_import_dialog_dispose;
  object_class->finalize = latent_import_dialog_finalize;
  signals[CHOSEN] = g_signal_new ("chosen", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/latent/Latent/latent-import-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, LatentImportDialog, explanation);
  gtk_widget_class_bind_template_child (widget_class, LatentImportDialog, preview);
  gtk_widget_class_bind_template_child (widget_class, LatentImportDialog, labels_drop);
  gtk_widget_class_bind_template_child (widget_class, LatentImportDialog, ignore_box);
  gtk_widget_class_bind_template_child (widget_class, LatentImportDialog, text_drop);
  gtk_widget_class_bind_template_child_full (widget_class, "text_label", FALSE, 0);
  gtk_widget_class_bind_template_child (widget_class, LatentImportDialog, missing_drop);
  gtk_widget_class_bind_template_child (widget_class, LatentImportDialog, standardise_check);
  gtk_widget_class_bind_template_child (widget_class, LatentImportDialog, summary);
  gtk_widget_class_bind_template_child (widget_class, LatentImportDialog, open_button);
  gtk_widget_class_bind_template_callback (widget_class, on_open);
  gtk_widget_class_bind_template_callback (widget_class, gtk_window_destroy);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
latent_import_dialog_init (LatentImportDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->ignore_checks = g_ptr_array_new ();
}

static gboolean
is_number (const char *cell)
{
  char *end = NULL;

  g_ascii_strtod (cell, &end);
  return end != cell && end != NULL && *end == '\0';
}

static gboolean
is_missing (const char *cell)
{
  return cell[0] == '\0' || latent_csv_is_missing (cell, strlen (cell));
}

/* The preview's cells, and the choices they suggest. */
static void
show_preview (LatentImportDialog *self,
              GPtrArray          *records,
              gboolean            header)
{
  GStrv first = g_ptr_array_index (records, 0);
  gboolean any_text = FALSE, any_missing = FALSE;
  g_autoptr(GtkStringList) labels = gtk_string_list_new (NULL);

  self->n_cols = g_strv_length (first);
  for (guint c = 0; c < self->n_cols; c++)
    header = header || (!is_number (first[c]) && !is_missing (first[c]));

  gtk_string_list_append (labels, C_("labels", "Automatic"));
  gtk_string_list_append (labels, C_("labels", "None"));
  for (guint c = 0; c < self->n_cols; c++)
    {
      g_autofree char *name = header && first[c][0] ? g_utf8_make_valid (first[c], -1)
                                                    : g_strdup_printf (_("column %u"), c + 1);
      GtkWidget *check = gtk_check_button_new_with_label (name);
      g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
      guint n_text = 0, n_cells = 0;

      gtk_string_list_append (labels, name);
      g_ptr_array_add (self->ignore_checks, check);
      gtk_flow_box_append (self->ignore_box, check);

      /* A first column of text, every value different, names the rows. */
      for (guint r = header ? 1 : 0; r < records->len; r++)
        {
          GStrv cells = g_ptr_array_index (records, r);

          if (c >= g_strv_length (cells))
            continue;
          n_cells++;
          if (is_missing (cells[c]))
            any_missing = TRUE;
          else if (!is_number (cells[c]))
            {
              n_text++;
              g_hash_table_add (seen, cells[c]);
            }
        }
      if (n_text > 0 && n_text == n_cells && g_hash_table_size (seen) == n_text && n_cells > 2
          && c + 1 < self->n_cols)
        gtk_check_button_set_active (GTK_CHECK_BUTTON (check), TRUE);
      else if (n_text > 0 && c + 1 < self->n_cols)
        any_text = TRUE;
    }
  gtk_drop_down_set_model (self->labels_drop, G_LIST_MODEL (labels));
  gtk_drop_down_set_selected (self->text_drop, any_text ? LATENT_CSV_TEXT_ONE_HOT : LATENT_CSV_TEXT_REFUSE);
  gtk_drop_down_set_selected (self->missing_drop, any_missing ? LATENT_CSV_MISSING_MEAN : LATENT_CSV_MISSING_REFUSE);

  for (guint r = 0; r < records->len && r <= PREVIEW_ROWS; r++)
    {
      GStrv cells = g_ptr_array_index (records, r);

      for (guint c = 0; cells[c] != NULL && c < self->n_cols; c++)
        {
          g_autofree char *text = g_utf8_make_valid (cells[c], -1);
          GtkWidget *label = gtk_label_new (text);

          gtk_label_set_xalign (GTK_LABEL (label), 0);
          gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
          gtk_label_set_max_width_chars (GTK_LABEL (label), 16);
          if (r == 0 && header)
            gtk_widget_add_css_class (label, "heading");
          gtk_grid_attach (self->preview, label, c, r, 1, 1);
        }
    }
}

GtkWidget *
latent_import_dialog_new (GtkWindow   *parent,
                          const char  *path,
                          const char  *problem,
                          GError     **error)
{
  g_autoptr(GPtrArray) records = NULL;
  g_autofree char *base = NULL, *text = NULL;
  g_autofree char *lower = NULL;
  LatentImportDialog *self;
  gboolean arff;

  g_return_val_if_fail (path != NULL, NULL);

  lower = g_ascii_strdown (path, -1);
  arff = g_str_has_suffix (lower, ".arff");
  records = arff ? latent_arff_preview (path, PREVIEW_ROWS + 1, error) : latent_csv_preview (path, PREVIEW_ROWS + 1, error);
  if (records == NULL)
    return NULL;
  self = g_object_new (LATENT_TYPE_IMPORT_DIALOG, "transient-for", parent, NULL);
  self->path = g_strdup (path);
  base = g_path_get_basename (path);
  /* Translators: a file name, then why it could not be read as it is. */
  text = problem ? g_strdup_printf (_("“%s” cannot be read as it is: %s\nChoose how to read it."), base, problem)
                 : g_strdup_printf (_("Choose how to read “%s”."), base);
  gtk_label_set_text (self->explanation, text);
  /* ARFF: its attributes' names head the preview, and its nominal
   * attributes are categories already. */
  gtk_widget_set_visible (GTK_WIDGET (self->text_drop), !arff);
  gtk_widget_set_visible (GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (self), LATENT_TYPE_IMPORT_DIALOG,
                                                                     "text_label")), !arff);
  show_preview (self, records, arff);

  g_signal_connect_swapped (self->labels_drop, "notify::selected", G_CALLBACK (on_choice_changed), self);
  g_signal_connect_swapped (self->text_drop, "notify::selected", G_CALLBACK (on_choice_changed), self);
  g_signal_connect_swapped (self->missing_drop, "notify::selected", G_CALLBACK (on_choice_changed), self);
  g_signal_connect_swapped (self->standardise_check, "toggled", G_CALLBACK (on_choice_changed), self);
  for (guint c = 0; c < self->ignore_checks->len; c++)
    g_signal_connect_swapped (g_ptr_array_index (self->ignore_checks, c), "toggled",
                              G_CALLBACK (on_choice_changed), self);
  try_choices (self);
  return GTK_WIDGET (self);
}
