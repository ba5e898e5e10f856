/* latent-data-table.c — the loaded rows in a table to look at, sortable
 *
 * The model is the rows' indices (a GtkStringList of "0", "1", …); each cell
 * reads its value from the dataset, which the window keeps a reference to.
 * The column view's sorter, from the column whose header was clicked, sorts
 * the indices by the values (or the class names) they point at.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-data-table"

#include "latent-data-table.h"

#include <glib/gi18n-lib.h>

/* Which column a factory or a sorter is for: a dataset column, or these. */
#define COLUMN_ROW   G_MAXUINT
#define COLUMN_LABEL (G_MAXUINT - 1)

struct _LatentDataTable
{
  GtkWindow      parent_instance;

  GtkColumnView *view;
  GtkLabel      *more_label;
  LatentDataset *dataset;
};

G_DEFINE_FINAL_TYPE (LatentDataTable, latent_data_table, GTK_TYPE_WINDOW)

typedef struct {
  LatentDataset *dataset;   /* not owned: the window holds it */
  guint          column;
} Column;

static guint
row_of (gpointer item)
{
  return (guint) g_ascii_strtoull (gtk_string_object_get_string (GTK_STRING_OBJECT (item)), NULL, 10);
}

/* The class's name, or its number when the dataset names none. */
static const char *
class_of (LatentDataset *dataset,
          guint          row,
          char          *buffer,
          gsize          size)
{
  const gint32 label = latent_dataset_get_labels (dataset)[row];
  const char *name = latent_dataset_get_class_name (dataset, (guint) label);

  if (name)
    return name;
  g_snprintf (buffer, size, "%d", label);
  return buffer;
}

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  user_data)
{
  Column *column = user_data;
  GtkWidget *label = gtk_label_new (NULL);

  /* Numbers line up on the right, names on the left. */
  gtk_label_set_xalign (GTK_LABEL (label), column->column == COLUMN_LABEL ? 0.0f : 1.0f);
  gtk_widget_add_css_class (label, column->column == COLUMN_LABEL ? "cell-text" : "numeric");
  gtk_list_item_set_child (item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  user_data)
{
  Column *column = user_data;
  GtkLabel *label = GTK_LABEL (gtk_list_item_get_child (item));
  guint row = row_of (gtk_list_item_get_item (item));
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  if (column->column == COLUMN_LABEL)
    {
      gtk_label_set_text (label, class_of (column->dataset, row, text, sizeof text));
      return;
    }
  if (column->column == COLUMN_ROW)
    g_snprintf (text, sizeof text, "%u", row + 1);
  else
    g_snprintf (text, sizeof text, "%g",
                (double) latent_dataset_get_row (column->dataset, row)[column->column]);
  gtk_label_set_text (label, text);
}

static int
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  Column *column = user_data;
  guint ra = row_of ((gpointer) a), rb = row_of ((gpointer) b);

  if (column->column == COLUMN_LABEL)
    {
      /* In the classes' order, which is their names' when they have any. */
      const gint32 *labels = latent_dataset_get_labels (column->dataset);

      if (labels[ra] != labels[rb])
        return labels[ra] < labels[rb] ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;
    }
  else if (column->column != COLUMN_ROW)
    {
      float va = latent_dataset_get_row (column->dataset, ra)[column->column];
      float vb = latent_dataset_get_row (column->dataset, rb)[column->column];

      if (va != vb)
        return va < vb ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;
    }
  /* Equal values keep the rows' order. */
  return ra < rb ? GTK_ORDERING_SMALLER : ra > rb ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
}

static void
add_column (LatentDataTable *self,
            const char      *title,
            guint            which)
{
  Column *column = g_new0 (Column, 1);
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *view_column;
  GtkSorter *sorter;

  column->dataset = self->dataset;
  column->column = which;
  /* The column, its factory and its sorter go with the factory. */
  g_object_set_data_full (G_OBJECT (factory), "latent-column", column, g_free);
  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), column);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), column);
  view_column = gtk_column_view_column_new (title, factory);
  sorter = GTK_SORTER (gtk_custom_sorter_new (compare_rows, column, NULL));
  gtk_column_view_column_set_sorter (view_column, sorter);
  gtk_column_view_column_set_resizable (view_column, TRUE);
  gtk_column_view_append_column (self->view, view_column);
  g_object_unref (sorter);
  g_object_unref (view_column);
}

/* GTK 4.8 gives the headers' title widgets no name of their own (they are
 * GtkColumnViewTitle fillers with a label inside): name each after its
 * column, in the order the columns were added. */
static void
name_headers (LatentDataTable *self)
{
  GListModel *columns = gtk_column_view_get_columns (self->view);
  guint n = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->view));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    for (GtkWidget *title = gtk_widget_get_first_child (child);
         title != NULL; title = gtk_widget_get_next_sibling (title))
      {
        g_autoptr(GtkColumnViewColumn) column = NULL;

        if (g_strcmp0 (G_OBJECT_TYPE_NAME (title), "GtkColumnViewTitle") != 0)
          continue;
        column = g_list_model_get_item (columns, n++);
        if (column == NULL)
          return;
        gtk_accessible_update_property (GTK_ACCESSIBLE (title), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                        gtk_column_view_column_get_title (column), -1);
      }
}

static void
latent_data_table_dispose (GObject *object)
{
  LatentDataTable *self = LATENT_DATA_TABLE (object);

  /* The columns read the dataset until the view goes. */
  gtk_window_set_child (GTK_WINDOW (self), NULL);
  self->view = NULL;
  G_OBJECT_CLASS (latent_data_table_parent_class)->dispose (object);
}

static void
latent_data_table_finalize (GObject *object)
{
  LatentDataTable *self = LATENT_DATA_TABLE (object);

  g_clear_object (&self->dataset);
  G_OBJECT_CLASS (latent_data_table_parent_class)->finalize (object);
}

static void
latent_data_table_class_init (LatentDataTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = latent_data_table_dispose;
  object_class->finalize = latent_data_table_finalize;
  /* A side window: Escape closes it as it does the dialogs, Ctrl+W as a window. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close", NULL);
}

static void
latent_data_table_init (LatentDataTable *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  self->view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  gtk_column_view_set_show_column_separators (self->view, TRUE);
  gtk_column_view_set_show_row_separators (self->view, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->view), "data-table");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->view),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Data"), -1);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->view));
  gtk_widget_set_vexpand (scrolled, TRUE);

  self->more_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->more_label, 0.0f);
  gtk_label_set_wrap (self->more_label, TRUE);
  gtk_widget_set_margin_start (GTK_WIDGET (self->more_label), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (self->more_label), 12);
  gtk_widget_set_margin_top (GTK_WIDGET (self->more_label), 6);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->more_label), 6);
  gtk_widget_set_visible (GTK_WIDGET (self->more_label), FALSE);

  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->more_label));
  gtk_box_append (GTK_BOX (box), scrolled);
  gtk_window_set_child (GTK_WINDOW (self), box);
  gtk_window_set_default_size (GTK_WINDOW (self), 720, 560);
}

static void
fill (LatentDataTable *self)
{
  LatentDataset *dataset = self->dataset;
  const guint n_rows = latent_dataset_get_n_rows (dataset);
  const guint n_cols = latent_dataset_get_n_cols (dataset);
  const guint shown = MIN (n_cols, LATENT_DATA_TABLE_MAX_COLUMNS);
  g_autoptr(GtkStringList) rows = gtk_string_list_new (NULL);
  g_autofree char *title = NULL;
  GtkSortListModel *sorted;
  GtkSelectionModel *selection;

  title = g_strdup_printf (_("Data — %s (%u × %u)"), latent_dataset_get_name (dataset), n_rows, n_cols);
  gtk_window_set_title (GTK_WINDOW (self), title);

  for (guint i = 0; i < n_rows; i++)
    {
      char index[16];

      g_snprintf (index, sizeof index, "%u", i);
      gtk_string_list_append (rows, index);
    }

  add_column (self, _("Row"), COLUMN_ROW);
  for (guint c = 0; c < shown; c++)
    {
      const char *name = latent_dataset_get_column_name (dataset, c);
      g_autofree char *fallback = name ? NULL : g_strdup_printf ("x%u", c + 1);

      add_column (self, name ? name : fallback, c);
    }
  if (latent_dataset_has_labels (dataset))
    add_column (self, _("Label"), COLUMN_LABEL);

  if (shown < n_cols)
    {
      g_autofree char *more = g_strdup_printf (_("Showing the first %u of %u columns."), shown, n_cols);

      gtk_label_set_text (self->more_label, more);
      gtk_widget_set_visible (GTK_WIDGET (self->more_label), TRUE);
    }

  name_headers (self);

  sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_steal_pointer (&rows)),
                                    g_object_ref (gtk_column_view_get_sorter (self->view)));
  selection = GTK_SELECTION_MODEL (gtk_single_selection_new (G_LIST_MODEL (sorted)));
  gtk_single_selection_set_autoselect (GTK_SINGLE_SELECTION (selection), FALSE);
  gtk_column_view_set_model (self->view, selection);
  g_object_unref (selection);
}

GtkWidget *
latent_data_table_new (GtkWindow     *parent,
                       LatentDataset *dataset)
{
  LatentDataTable *self;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (LATENT_IS_DATASET (dataset), NULL);

  self = g_object_new (LATENT_TYPE_DATA_TABLE,
                       "transient-for", parent,
                       "destroy-with-parent", TRUE,
                       NULL);
  self->dataset = g_object_ref (dataset);
  fill (self);
  return GTK_WIDGET (self);
}
