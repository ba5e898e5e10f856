/* latent-data-table.c — the loaded rows in a table to look at, sortable,
 * with the result shown beside them
 *
 * The model is the rows' indices (a GtkStringList of "0", "1", …); each cell
 * reads its value from the dataset, or from the snapshot the session shows
 * (the cluster, the code, the prediction), which it follows. The column
 * view's sorter, from the column whose header was clicked, sorts the
 * indices by the values (or the class names) they point at. Rows selected
 * here are given out as a set of dataset rows (::rows-selected), and a set
 * from the figure's lasso selects them here.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-data-table"

#include "latent-data-table.h"

#include <glib/gi18n-lib.h>

#include "latent-family.h"
#include "latent-session.h"
#include "latent-ui-util.h"

/* Which column a factory or a sorter is for: a dataset column, or these. */
#define COLUMN_ROW        G_MAXUINT
#define COLUMN_LABEL      (G_MAXUINT - 1)
#define COLUMN_CLUSTER    (G_MAXUINT - 2)
#define COLUMN_CODE_1     (G_MAXUINT - 3)
#define COLUMN_CODE_2     (G_MAXUINT - 4)
#define COLUMN_PREDICTION (G_MAXUINT - 5)

/* The results a snapshot has for the rows: which columns it adds. */
enum {
  RESULT_CLUSTER    = 1 << 0,
  RESULT_CODE       = 1 << 1,
  RESULT_PREDICTION = 1 << 2,
};

/* The result columns refresh at most this often while a run goes on, and
 * a tenth as often for each 100,000 rows more: each refresh sorts the rows
 * again (incrementally, but in full), 0.2 s for a million. */
#define REFRESH_MS      500
#define REFRESH_MAX_MS  5000
#define REFRESH_ROWS    100000

struct _LatentDataTable
{
  GtkWindow          parent_instance;

  GtkColumnView     *view;
  GtkLabel          *more_label;
  GtkLabel          *selection_label;
  LatentDataset     *dataset;
  LatentSession     *session;
  LatentSnapshot    *snapshot;      /* the session's shown one, for the results */
  gint32            *predictions;   /* per dataset row, -1 for none */
  guint              results;       /* RESULT_* the columns show */
  GPtrArray         *result_columns;
  GtkStringList     *rows;
  GtkMultiSelection *selection;
  GtkBitset         *selected;      /* dataset rows selected */
  guint              refresh_source;
  gboolean           selecting;     /* selecting from code */
};

G_DEFINE_FINAL_TYPE (LatentDataTable, latent_data_table, GTK_TYPE_WINDOW)

enum { ROWS_SELECTED, N_SIGNALS };
static guint signals[N_SIGNALS];

typedef struct {
  LatentDataTable *table;   /* not owned: the table owns its columns */
  guint            column;
} Column;

/* Row @row's result for @column (a cluster from 1, a coordinate, a class
 * index); FALSE when the snapshot has none for it. */
static gboolean
result_of (LatentDataTable *self,
           guint            column,
           guint            row,
           double          *value)
{
  LatentSnapshot *snap = self->snapshot;
  const float *z;

  if (snap == NULL || row >= snap->n_rows)
    return FALSE;
  switch (column)
    {
    case COLUMN_CLUSTER:
      if (latent_clusters_get_labels (snap) == NULL)
        return FALSE;
      *value = latent_clusters_get_labels (snap)[row] + 1;
      return TRUE;
    case COLUMN_CODE_1:
    case COLUMN_CODE_2:
      z = latent_linear_models_get_position (snap, row);
      if (z == NULL)
        z = latent_embeddings_get_position (snap, row);
      if (z == NULL)
        return FALSE;
      *value = z[column == COLUMN_CODE_1 ? 0 : 1];
      return TRUE;
    case COLUMN_PREDICTION:
      if (self->predictions == NULL || self->predictions[row] < 0)
        return FALSE;
      *value = self->predictions[row];
      return TRUE;
    default:
      return FALSE;
    }
}

static gboolean
is_result (guint column)
{
  return column >= COLUMN_PREDICTION && column <= COLUMN_CLUSTER;
}

static guint
row_of (gpointer item)
{
  return (guint) g_ascii_strtoull (gtk_string_object_get_string (GTK_STRING_OBJECT (item)), NULL, 10);
}

/* Class @label's name, or its number when the dataset names none. */
static const char *
class_of (LatentDataset *dataset,
          gint32         label,
          char          *buffer,
          gsize          size)
{
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

  const gboolean text = column->column == COLUMN_LABEL || column->column == COLUMN_PREDICTION;

  /* Numbers line up on the right, names on the left. */
  gtk_label_set_xalign (GTK_LABEL (label), text ? 0.0f : 1.0f);
  gtk_widget_add_css_class (label, text ? "cell-text" : "numeric");
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
  LatentDataset *dataset = column->table->dataset;
  char text[G_ASCII_DTOSTR_BUF_SIZE];
  double value;

  if (column->column == COLUMN_LABEL)
    {
      gtk_label_set_text (label, class_of (dataset, latent_dataset_get_labels (dataset)[row], text, sizeof text));
      return;
    }
  if (is_result (column->column))
    {
      if (!result_of (column->table, column->column, row, &value))
        gtk_label_set_text (label, "");
      else if (column->column == COLUMN_PREDICTION)
        gtk_label_set_text (label, class_of (dataset, (gint32) value, text, sizeof text));
      else
        {
          g_snprintf (text, sizeof text, column->column == COLUMN_CLUSTER ? "%.0f" : "%.4g", value);
          gtk_label_set_text (label, text);
        }
      return;
    }
  if (column->column == COLUMN_ROW)
    g_snprintf (text, sizeof text, "%u", row + 1);
  else
    g_snprintf (text, sizeof text, "%g", (double) latent_dataset_get_row (dataset, row)[column->column]);
  gtk_label_set_text (label, text);
}

static int
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  Column *column = user_data;
  LatentDataset *dataset = column->table->dataset;
  guint ra = row_of ((gpointer) a), rb = row_of ((gpointer) b);

  if (column->column == COLUMN_LABEL)
    {
      /* In the classes' order, which is their names' when they have any. */
      const gint32 *labels = latent_dataset_get_labels (dataset);

      if (labels[ra] != labels[rb])
        return labels[ra] < labels[rb] ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;
    }
  else if (is_result (column->column))
    {
      double va, vb;
      gboolean ha = result_of (column->table, column->column, ra, &va);
      gboolean hb = result_of (column->table, column->column, rb, &vb);

      /* Rows without a result (training rows for a prediction) last. */
      if (ha != hb)
        return ha ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;
      if (ha && va != vb)
        return va < vb ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;
    }
  else if (column->column != COLUMN_ROW)
    {
      float va = latent_dataset_get_row (dataset, ra)[column->column];
      float vb = latent_dataset_get_row (dataset, rb)[column->column];

      if (va != vb)
        return va < vb ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;
    }
  /* Equal values keep the rows' order. */
  return ra < rb ? GTK_ORDERING_SMALLER : ra > rb ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
}

static GtkColumnViewColumn *
add_column (LatentDataTable *self,
            const char      *title,
            guint            which)
{
  Column *column = g_new0 (Column, 1);
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *view_column;
  GtkSorter *sorter;

  column->table = self;
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
  return view_column;
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

/* The result columns for @results, after the data's. */
static void
set_result_columns (LatentDataTable *self,
                    guint            results)
{
  const char *component = self->snapshot ? self->snapshot->algorithm->component_name : NULL;

  for (guint i = 0; i < self->result_columns->len; i++)
    gtk_column_view_remove_column (self->view, self->result_columns->pdata[i]);
  g_ptr_array_set_size (self->result_columns, 0);
  self->results = results;
  if (results & RESULT_CLUSTER)
    g_ptr_array_add (self->result_columns, add_column (self, _("Cluster"), COLUMN_CLUSTER));
  if (results & RESULT_CODE)
    for (guint k = 0; k < 2; k++)
      {
        /* The model's name for its components ("PC 1"), else "Code 1". */
        g_autofree char *title = component ? g_strdup_printf (_(component), k + 1)
                                           : g_strdup_printf (_("Code %u"), k + 1);

        g_ptr_array_add (self->result_columns, add_column (self, title, k ? COLUMN_CODE_2 : COLUMN_CODE_1));
      }
  if (results & RESULT_PREDICTION)
    g_ptr_array_add (self->result_columns, add_column (self, _("Prediction"), COLUMN_PREDICTION));
  name_headers (self);
}

/* Visible cells read the new results; a sort by a result column sorts
 * again. */
static void select_rows (LatentDataTable *self, GtkBitset *rows, gboolean scroll);

static gboolean
refresh (gpointer user_data)
{
  LatentDataTable *self = user_data;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->rows));
  g_autoptr(GtkBitset) selected = gtk_bitset_copy (self->selected);

  self->refresh_source = 0;
  self->selecting = TRUE;
  g_list_model_items_changed (G_LIST_MODEL (self->rows), 0, n, n);
  self->selecting = FALSE;
  /* The rows changed drop out of the selection: select them again. */
  select_rows (self, selected, FALSE);
  return G_SOURCE_REMOVE;
}

/* The session shows another snapshot: its results beside the rows. */
static void
on_shown (LatentDataTable *self)
{
  LatentSnapshot *shown = latent_session_get_shown (self->session);
  LatentDataset *test = NULL;
  const gint32 *test_rows = NULL, *predicted;
  guint results = 0, n_test = 0;

  if (shown != NULL && shown->dataset != self->dataset)
    shown = NULL;
  g_clear_pointer (&self->snapshot, latent_snapshot_unref);
  g_clear_pointer (&self->predictions, g_free);
  self->snapshot = shown ? latent_snapshot_ref (shown) : NULL;
  if (shown != NULL)
    {
      const guint n_rows = latent_dataset_get_n_rows (self->dataset);

      if (latent_clusters_get_labels (shown) != NULL && shown->n_rows == n_rows)
        results |= RESULT_CLUSTER;
      if (shown->n_rows == n_rows
          && (latent_linear_models_get_position (shown, 0) || latent_embeddings_get_position (shown, 0)))
        results |= RESULT_CODE;
      predicted = latent_classifiers_get_predictions (shown, &test, &test_rows, &n_test);
      /* Predictions of this table's rows: a split of the data, not a
       * test file of its own. */
      if (predicted != NULL && test == self->dataset)
        {
          self->predictions = g_new (gint32, n_rows);
          for (guint i = 0; i < n_rows; i++)
            self->predictions[i] = -1;
          for (guint i = 0; i < n_test; i++)
            if ((guint) test_rows[i] < n_rows)
              self->predictions[test_rows[i]] = predicted[i];
          results |= RESULT_PREDICTION;
        }
    }
  if (results != self->results)
    set_result_columns (self, results);
  if (results != 0 && self->refresh_source == 0)
    {
      const guint n_rows = latent_dataset_get_n_rows (self->dataset);

      self->refresh_source = g_timeout_add (MIN (REFRESH_MS * (1 + n_rows / REFRESH_ROWS), REFRESH_MAX_MS),
                                            refresh, self);
    }
}

static void
show_selection_count (LatentDataTable *self,
                      guint64          n)
{
  g_autofree char *text = NULL;

  if (n == 0)
    text = g_strdup (_("Select rows to ring them in the figure; Shift-drag in a scatter to lasso points"));
  else
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%lu row selected", "%lu rows selected", n),
                            (unsigned long) n);
  latent_label_set_text (self->selection_label, text, _("Selection"));
}

/* Rows selected by a person: the dataset's rows, for the figure. */
static void
on_selection_changed (LatentDataTable *self)
{
  g_autoptr(GtkBitset) positions = NULL;
  g_autoptr(GtkBitset) rows = gtk_bitset_new_empty ();
  GListModel *model = G_LIST_MODEL (self->selection);
  GtkBitsetIter iter;
  guint position;

  if (self->selecting)
    return;
  positions = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  for (gboolean more = gtk_bitset_iter_init_first (&iter, positions, &position); more;
       more = gtk_bitset_iter_next (&iter, &position))
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, position);

      gtk_bitset_add (rows, row_of (item));
    }
  gtk_bitset_unref (self->selected);
  self->selected = gtk_bitset_copy (rows);
  show_selection_count (self, gtk_bitset_get_size (rows));
  g_signal_emit (self, signals[ROWS_SELECTED], 0, rows);
}

/* The column view's list, which scrolls. */
static GtkWidget *
list_of (LatentDataTable *self)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->view)); child;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      return child;
  return NULL;
}

static void
select_rows (LatentDataTable *self,
             GtkBitset       *rows,
             gboolean         scroll)
{
  g_autoptr(GtkBitset) positions = gtk_bitset_new_empty ();
  g_autoptr(GtkBitset) all = NULL;
  GListModel *model = G_LIST_MODEL (self->selection);
  guint n, first = G_MAXUINT;


  n = g_list_model_get_n_items (model);
  /* Positions in the sorted order of the rows' indices. */
  for (guint position = 0; position < n && !gtk_bitset_is_empty (rows); position++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, position);

      if (gtk_bitset_contains (rows, row_of (item)))
        {
          gtk_bitset_add (positions, position);
          first = MIN (first, position);
        }
    }
  all = gtk_bitset_new_range (0, n);
  self->selecting = TRUE;
  gtk_selection_model_set_selection (GTK_SELECTION_MODEL (self->selection), positions, all);
  self->selecting = FALSE;
  if (rows != self->selected)
    {
      gtk_bitset_unref (self->selected);
      self->selected = gtk_bitset_copy (rows);
    }
  show_selection_count (self, gtk_bitset_get_size (positions));
  /* The first selected row in view. */
  if (scroll && first != G_MAXUINT && list_of (self) != NULL)
    gtk_widget_activate_action (list_of (self), "list.scroll-to-item", "u", first);
}

void
latent_data_table_select_rows (LatentDataTable *self,
                               GtkBitset       *rows)
{
  g_return_if_fail (LATENT_IS_DATA_TABLE (self));
  g_return_if_fail (rows != NULL);

  select_rows (self, rows, TRUE);
}

static void
latent_data_table_dispose (GObject *object)
{
  LatentDataTable *self = LATENT_DATA_TABLE (object);

  g_clear_handle_id (&self->refresh_source, g_source_remove);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  /* The columns read the dataset until the view goes. */
  gtk_window_set_child (GTK_WINDOW (self), NULL);
  self->view = NULL;
  g_clear_object (&self->session);
  g_clear_pointer (&self->snapshot, latent_snapshot_unref);
  G_OBJECT_CLASS (latent_data_table_parent_class)->dispose (object);
}

static void
latent_data_table_finalize (GObject *object)
{
  LatentDataTable *self = LATENT_DATA_TABLE (object);

  g_clear_object (&self->dataset);
  g_clear_pointer (&self->predictions, g_free);
  g_clear_pointer (&self->result_columns, g_ptr_array_unref);
  g_clear_pointer (&self->selected, gtk_bitset_unref);
  G_OBJECT_CLASS (latent_data_table_parent_class)->finalize (object);
}

static void
latent_data_table_class_init (LatentDataTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = latent_data_table_dispose;
  object_class->finalize = latent_data_table_finalize;
  signals[ROWS_SELECTED] = g_signal_new ("rows-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                         NULL, NULL, G_TYPE_NONE, 1, GTK_TYPE_BITSET);
  /* A side window: Escape closes it as it does the dialogs, Ctrl+W as a window. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close", NULL);
}

static void
latent_data_table_init (LatentDataTable *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  self->result_columns = g_ptr_array_new ();
  self->selected = gtk_bitset_new_empty ();
  self->view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  gtk_column_view_set_show_column_separators (self->view, TRUE);
  gtk_column_view_set_show_row_separators (self->view, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->view), "data-table");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->view),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Data"), -1);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->view));
  gtk_widget_set_vexpand (scrolled, TRUE);

  self->more_label = GTK_LABEL (gtk_label_new (NULL));
  self->selection_label = GTK_LABEL (gtk_label_new (NULL));
  for (guint i = 0; i < 2; i++)
    {
      GtkWidget *label = GTK_WIDGET (i ? self->selection_label : self->more_label);

      gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_widget_set_margin_start (label, 12);
      gtk_widget_set_margin_end (label, 12);
      gtk_widget_set_margin_top (label, 6);
      gtk_widget_set_margin_bottom (label, 6);
    }
  gtk_widget_add_css_class (GTK_WIDGET (self->selection_label), "dim-label");
  gtk_widget_set_visible (GTK_WIDGET (self->more_label), FALSE);

  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->more_label));
  gtk_box_append (GTK_BOX (box), scrolled);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->selection_label));
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
  g_autofree char *title = NULL;
  GtkSortListModel *sorted;

  title = g_strdup_printf (_("Data — %s (%u × %u)"), latent_dataset_get_name (dataset), n_rows, n_cols);
  gtk_window_set_title (GTK_WINDOW (self), title);

  self->rows = gtk_string_list_new (NULL);
  for (guint i = 0; i < n_rows; i++)
    {
      char index[16];

      g_snprintf (index, sizeof index, "%u", i);
      gtk_string_list_append (self->rows, index);
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

  /* The sort model and the view hold the list from here. */
  sorted = gtk_sort_list_model_new (G_LIST_MODEL (self->rows),
                                    g_object_ref (gtk_column_view_get_sorter (self->view)));
  /* Sorted a slice at a time between frames: a million rows sorted again
   * at each refresh of the results held the window 0.7 s. */
  gtk_sort_list_model_set_incremental (sorted, TRUE);
  self->selection = gtk_multi_selection_new (G_LIST_MODEL (sorted));
  g_signal_connect_swapped (self->selection, "selection-changed", G_CALLBACK (on_selection_changed), self);
  gtk_column_view_set_model (self->view, GTK_SELECTION_MODEL (self->selection));
  g_object_unref (self->selection);
  show_selection_count (self, 0);
}

GtkWidget *
latent_data_table_new (GtkWindow     *parent,
                       LatentSession *session)
{
  LatentDataTable *self;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (LATENT_IS_SESSION (session), NULL);
  g_return_val_if_fail (latent_session_get_dataset (session) != NULL, NULL);

  self = g_object_new (LATENT_TYPE_DATA_TABLE,
                       "transient-for", parent,
                       "destroy-with-parent", TRUE,
                       NULL);
  self->dataset = g_object_ref (latent_session_get_dataset (session));
  self->session = g_object_ref (session);
  fill (self);
  g_signal_connect_swapped (session, "notify::shown", G_CALLBACK (on_shown), self);
  on_shown (self);
  return GTK_WIDGET (self);
}
