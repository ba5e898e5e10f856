/* latent-runs-window.c — two runs of the history side by side
 *
 * The runs since the window opened, each with its thumbnail, parameters
 * and result, in a list; two of them large side by side, with what
 * differs between their parameters and how far apart their objectives
 * ended. A run clicked in the list goes on the right and the one there
 * moves left, so clicking two runs in turn compares them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-runs-window"

#include "latent-runs-window.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "latent-algorithm.h"
#include "latent-figure-view.h"
#include "latent-ui-util.h"

struct _LatentRunsWindow
{
  GtkWindow         parent_instance;

  GtkListView      *runs_list;
  GtkDropDown      *left_dropdown;
  GtkDropDown      *right_dropdown;
  LatentFigureView *left_view;
  LatentFigureView *right_view;
  GtkLabel         *left_label;
  GtkLabel         *right_label;
  GtkLabel         *comparison_label;

  LatentRunHistory *history;
};

G_DEFINE_FINAL_TYPE (LatentRunsWindow, latent_runs_window, GTK_TYPE_WINDOW)

static LatentRunRecord *
chosen (GtkDropDown *dropdown)
{
  return gtk_drop_down_get_selected_item (dropdown);
}

/* "k 3 → 4 · init random → k-means++": the parameters set differently. */
static char *
parameter_changes (LatentRunRecord *a,
                   LatentRunRecord *b)
{
  g_auto(GStrv) from = g_strsplit (latent_run_record_get_parameters (a), " ", -1);
  g_auto(GStrv) to = g_strsplit (latent_run_record_get_parameters (b), " ", -1);
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; from[i] != NULL; i++)
    {
      const char *eq = strchr (from[i], '=');

      if (eq == NULL)
        continue;
      for (guint j = 0; to[j] != NULL; j++)
        if (strncmp (from[i], to[j], eq - from[i] + 1) == 0 && !g_str_equal (from[i], to[j]))
          g_string_append_printf (text, "%s%.*s %s → %s", text->len ? " · " : "", (int) (eq - from[i]), from[i],
                                  eq + 1, strchr (to[j], '=') + 1);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
show_side (LatentFigureView *view,
           GtkLabel         *label,
           LatentRunRecord  *record)
{
  g_autofree char *text = NULL;

  latent_figure_view_set_snapshot (view, record ? latent_run_record_get_snapshot (record) : NULL);
  if (record != NULL)
    text = g_strdup_printf ("%s\n%s\n%s", latent_run_record_get_label (record), latent_run_record_get_result (record),
                            latent_run_record_get_parameters (record));
  gtk_label_set_text (label, text ? text : "");
}

/* What differs between the two, and where their objectives ended. */
static char *
compare (LatentRunRecord *a,
         LatentRunRecord *b)
{
  LatentSnapshot *sa = latent_run_record_get_snapshot (a), *sb = latent_run_record_get_snapshot (b);
  double oa = latent_run_record_get_objective (a), ob = latent_run_record_get_objective (b);
  g_autofree char *changes = NULL;
  g_autoptr(GString) text = g_string_new (NULL);

  if (a == b)
    return g_strdup (_("The same run on both sides: choose another on one"));
  if (sa->algorithm != sb->algorithm)
    return g_strdup (_("Two algorithms: their objectives do not compare; their figures do"));
  changes = parameter_changes (a, b);
  if (*changes != '\0')
    /* Translators: the parameters set differently between the two runs compared. */
    g_string_append_printf (text, _("Changed: %s"), changes);
  else
    g_string_append (text, _("Same parameters"));
  if (sa->dataset != sb->dataset)
    g_string_append (text, _(" · other data"));
  if (isfinite (oa) && isfinite (ob))
    {
      const char *name = latent_algorithm_objective_name (sa->algorithm, sa->params);

      /* Translators: "inertia 80.12 → 78.85 (−1.6 %)": left run's objective, then the right one's. */
      g_string_append_printf (text, _(" · %s %.6g → %.6g"), name, oa, ob);
      if (oa != 0.0)
        g_string_append_printf (text, " (%+.1f %%)", 100.0 * (ob - oa) / fabs (oa));
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
on_choice_changed (LatentRunsWindow *self)
{
  LatentRunRecord *a = chosen (self->left_dropdown), *b = chosen (self->right_dropdown);
  g_autofree char *comparison = NULL;

  show_side (self->left_view, self->left_label, a);
  show_side (self->right_view, self->right_label, b);
  if (a == NULL || b == NULL)
    comparison = g_strdup (_("Each run that ends, or that a new run replaces, is kept here: run twice to compare"));
  else
    comparison = compare (a, b);
  latent_label_set_text (self->comparison_label, comparison, _("Comparison"));
}

/* A run clicked: on the right, the one there to the left. */
static void
on_run_activated (LatentRunsWindow *self,
                  guint             position)
{
  guint right = gtk_drop_down_get_selected (self->right_dropdown);

  if (position == right)
    return;
  if (right != GTK_INVALID_LIST_POSITION)
    gtk_drop_down_set_selected (self->left_dropdown, right);
  gtk_drop_down_set_selected (self->right_dropdown, position);
}

/* The last two runs, when the window opens and as runs come. */
static void
on_items_changed (LatentRunsWindow *self,
                  guint             position,
                  guint             removed,
                  guint             added)
{
  guint n = g_list_model_get_n_items (latent_run_history_get_model (self->history));

  if (added == 0 || n == 0)
    return;
  gtk_drop_down_set_selected (self->left_dropdown, n >= 2 ? n - 2 : 0);
  gtk_drop_down_set_selected (self->right_dropdown, n - 1);
}

static void
setup_row (GtkSignalListItemFactory *factory,
           GtkListItem              *item)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 10);
  GtkWidget *texts = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *picture = gtk_picture_new ();

  gtk_widget_set_size_request (picture, 120, 90);
  gtk_picture_set_can_shrink (GTK_PICTURE (picture), TRUE);
  gtk_box_append (GTK_BOX (box), picture);
  for (guint i = 0; i < 3; i++)
    {
      GtkWidget *label = gtk_label_new (NULL);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_widget_add_css_class (label, i == 0 ? "heading" : "dim-label");
      if (i == 2)
        gtk_widget_add_css_class (label, "caption");
      gtk_box_append (GTK_BOX (texts), label);
    }
  gtk_widget_set_valign (texts, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (box), texts);
  gtk_widget_set_margin_top (box, 4);
  gtk_widget_set_margin_bottom (box, 4);
  gtk_widget_set_margin_start (box, 6);
  gtk_list_item_set_child (item, box);
}

static void
bind_row (GtkSignalListItemFactory *factory,
          GtkListItem              *item)
{
  LatentRunRecord *record = gtk_list_item_get_item (item);
  GtkWidget *box = gtk_list_item_get_child (item);
  GtkWidget *picture = gtk_widget_get_first_child (box);
  GtkWidget *label = gtk_widget_get_first_child (gtk_widget_get_next_sibling (picture));

  gtk_picture_set_paintable (GTK_PICTURE (picture), GDK_PAINTABLE (latent_run_record_get_thumbnail (record)));
  gtk_label_set_text (GTK_LABEL (label), latent_run_record_get_label (record));
  label = gtk_widget_get_next_sibling (label);
  gtk_label_set_text (GTK_LABEL (label), latent_run_record_get_result (record));
  label = gtk_widget_get_next_sibling (label);
  gtk_label_set_text (GTK_LABEL (label), latent_run_record_get_parameters (record));
  /* A person's screen reader reads the row as one. */
  gtk_accessible_update_property (GTK_ACCESSIBLE (box), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  latent_run_record_get_label (record), -1);
}

static void
latent_runs_window_dispose (GObject *object)
{
  LatentRunsWindow *self = LATENT_RUNS_WINDOW (object);

  if (self->history != NULL)
    g_signal_handlers_disconnect_by_data (latent_run_history_get_model (self->history), self);
  gtk_widget_dispose_template (GTK_WIDGET (self), LATENT_TYPE_RUNS_WINDOW);
  g_clear_object (&self->history);
  G_OBJECT_CLASS (latent_runs_window_parent_class)->dispose (object);
}

static void
latent_runs_window_class_init (LatentRunsWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = latent_runs_window_dispose;
  g_type_ensure (LATENT_TYPE_FIGURE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/latent/Latent/latent-runs-window.ui");
  gtk_widget_class_bind_template_child (widget_class, LatentRunsWindow, runs_list);
  gtk_widget_class_bind_template_child (widget_class, LatentRunsWindow, left_dropdown);
  gtk_widget_class_bind_template_child (widget_class, LatentRunsWindow, right_dropdown);
  gtk_widget_class_bind_template_child (widget_class, LatentRunsWindow, left_view);
  gtk_widget_class_bind_template_child (widget_class, LatentRunsWindow, right_view);
  gtk_widget_class_bind_template_child (widget_class, LatentRunsWindow, left_label);
  gtk_widget_class_bind_template_child (widget_class, LatentRunsWindow, right_label);
  gtk_widget_class_bind_template_child (widget_class, LatentRunsWindow, comparison_label);
  gtk_widget_class_bind_template_callback (widget_class, on_choice_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_run_activated);
  /* A side window: Escape closes it as it does the dialogs, Ctrl+W as a window. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close", NULL);
}

static void
latent_runs_window_init (LatentRunsWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
latent_runs_window_new (GtkWindow        *parent,
                        LatentRunHistory *history)
{
  LatentRunsWindow *self;
  GListModel *model;
  GtkListItemFactory *factory;
  g_autoptr(GtkExpression) expression = NULL;
  g_autoptr(GtkNoSelection) selection = NULL;

  g_return_val_if_fail (LATENT_IS_RUN_HISTORY (history), NULL);

  self = g_object_new (LATENT_TYPE_RUNS_WINDOW, "transient-for", parent, "destroy-with-parent", TRUE, NULL);
  self->history = g_object_ref (history);
  model = latent_run_history_get_model (history);
  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_row), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row), NULL);
  gtk_list_view_set_factory (self->runs_list, factory);
  g_object_unref (factory);
  selection = gtk_no_selection_new (g_object_ref (model));
  gtk_list_view_set_model (self->runs_list, GTK_SELECTION_MODEL (selection));
  expression = gtk_property_expression_new (LATENT_TYPE_RUN_RECORD, NULL, "label");
  for (guint i = 0; i < 2; i++)
    {
      GtkDropDown *dropdown = i ? self->right_dropdown : self->left_dropdown;

      gtk_drop_down_set_expression (dropdown, expression);
      gtk_drop_down_set_model (dropdown, model);
    }
  latent_drop_downs_name_buttons (GTK_WIDGET (self));
  g_signal_connect_swapped (model, "items-changed", G_CALLBACK (on_items_changed), self);
  on_items_changed (self, 0, 0, g_list_model_get_n_items (model));
  on_choice_changed (self);
  return GTK_WIDGET (self);
}
