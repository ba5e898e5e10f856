/* latent-param-panel.c — controls built from an algorithm's parameter specs
 *
 * Nothing here knows a particular algorithm: each LatentParamSpec becomes a
 * labelled spin button, drop-down or switch, so a new algorithm gets its
 * panel for free. A choice that takes "@PATH" offers a file, and an editor
 * of the window's own when one is added (the convolution's kernel). Given
 * the algorithm and the dataset, the numbers stop where the algorithm's own
 * check would refuse them, so no run has to fail to say so.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-param-panel"

#include "latent-param-panel.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "latent-ui-util.h"

struct _LatentParamPanel
{
  GtkWidget     parent_instance;

  GtkWidget    *grid;
  LatentParams *params;
  gboolean      updating;   /* setting controls from params: no ::changed */
  GHashTable   *editors;    /* parameter name → Editor */
  GtkWidget    *note;       /* a label under the controls, or NULL */

  /* What bounds the numbers besides their specs; may be NULL. */
  const LatentAlgorithm *algorithm;
  LatentDataset         *dataset;
};

/* A dialog of the window's own for a parameter that takes "@PATH". */
typedef struct {
  char *label;
  char *dir;                /* files it writes; their values show as its item */
} Editor;

static void
editor_free (gpointer data)
{
  Editor *editor = data;

  g_free (editor->label);
  g_free (editor->dir);
  g_free (editor);
}

G_DEFINE_FINAL_TYPE (LatentParamPanel, latent_param_panel, GTK_TYPE_WIDGET)

enum { CHANGED, EDIT, N_SIGNALS };
static guint signals[N_SIGNALS];

static void show_value (LatentParamPanel *self,
                        GtkWidget        *control);
static void update_sensitivity (LatentParamPanel *self);
static void apply_limits (LatentParamPanel *self);

static const LatentParamSpec *
spec_of (GtkWidget *control)
{
  return g_object_get_data (G_OBJECT (control), "latent-spec");
}

/* After a control set its value: the others' sensitivity, and ::changed. */
static void
committed (LatentParamPanel *self,
           gboolean          ok,
           GError           *error)
{
  if (!ok)
    {
      /* The controls keep values in range, so this is a bug, not input. */
      g_warning ("%s", error->message);
      return;
    }
  update_sensitivity (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

/* A choice, or "@PATH". */
static void
set_choice (LatentParamPanel *self,
            GtkWidget        *control,
            const char       *value)
{
  g_autoptr(GError) error = NULL;

  if (!self->updating)
    committed (self, latent_params_set (self->params, spec_of (control)->name, value, &error), error);
}

/* A parameter that does not matter with the others as they are (exact PCA's
 * tolerance) is greyed out, label and all, where it stays: the panel does
 * not jump. */
static void
update_sensitivity (LatentParamPanel *self)
{
  for (GtkWidget *child = gtk_widget_get_first_child (self->grid); child; child = gtk_widget_get_next_sibling (child))
    {
      const LatentParamSpec *spec = spec_of (child);
      gboolean applies;

      if (spec == NULL)
        continue;
      applies = latent_params_applies (self->params, spec);
      /* Test data given: the share held out is not used. */
      if (spec->role == LATENT_PARAM_ROLE_HELD_OUT && self->dataset && latent_dataset_get_test (self->dataset))
        applies = FALSE;
      gtk_widget_set_sensitive (child, applies);
      gtk_widget_set_sensitive (g_object_get_data (G_OBJECT (child), "latent-label"), applies);
    }
}

/* 0 shown as what it means ("Automatic"), and read back. */
static gboolean
on_spin_output (GtkSpinButton *spin)
{
  const LatentParamSpec *spec = spec_of (GTK_WIDGET (spin));

  if (gtk_spin_button_get_value (spin) != 0)
    return FALSE;
  gtk_editable_set_text (GTK_EDITABLE (spin), _(spec->zero_label));
  return TRUE;
}

static int
on_spin_input (GtkSpinButton *spin,
               double        *value)
{
  const LatentParamSpec *spec = spec_of (GTK_WIDGET (spin));

  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (spin)), _(spec->zero_label)) != 0)
    return FALSE;
  *value = 0;
  return TRUE;
}

static void
on_spin_changed (GtkSpinButton    *spin,
                 LatentParamPanel *self)
{
  const LatentParamSpec *spec = spec_of (GTK_WIDGET (spin));
  double value = gtk_spin_button_get_value (spin);
  g_autoptr(GError) error = NULL;

  if (self->updating)
    return;
  committed (self, spec->type == LATENT_PARAM_INT
                   ? latent_params_set_int (self->params, spec->name, (gint64) llround (value), &error)
                   : latent_params_set_double (self->params, spec->name, value, &error), error);
}

static void
on_switch_changed (GtkSwitch        *toggle,
                   GParamSpec       *pspec,
                   LatentParamPanel *self)
{
  g_autoptr(GError) error = NULL;

  if (!self->updating)
    committed (self, latent_params_set_bool (self->params, spec_of (GTK_WIDGET (toggle))->name,
                                             gtk_switch_get_active (toggle), &error), error);
}

static void
on_file_chosen (const char *path,
                gpointer    user_data)
{
  GtkDropDown *dropdown = user_data;
  LatentParamPanel *self = g_object_get_data (G_OBJECT (dropdown), "latent-panel");

  if (path)
    {
      g_autofree char *value = g_strconcat ("@", path, NULL);
      set_choice (self, GTK_WIDGET (dropdown), value);
    }
  else
    {
      /* Nothing chosen: the drop-down shows the value that still holds. */
      self->updating = TRUE;
      show_value (self, GTK_WIDGET (dropdown));
      self->updating = FALSE;
    }
}

static void
on_choice_changed (GtkDropDown      *dropdown,
                   GParamSpec       *pspec,
                   LatentParamPanel *self)
{
  const LatentParamSpec *spec = spec_of (GTK_WIDGET (dropdown));
  guint selected = gtk_drop_down_get_selected (dropdown);
  guint n_choices = g_strv_length ((char **) spec->choices);

  if (self->updating)
    return;
  if (selected < n_choices)
    {
      set_choice (self, GTK_WIDGET (dropdown), spec->choices[selected]);
      return;
    }
  if (selected == n_choices + 1)
    {
      /* The window's editor; it sets the value, or the panel shows the
       * old one again. */
      g_signal_emit (self, signals[EDIT], 0, spec->name);
      return;
    }

  /* “From file…”: the value becomes @PATH. */
  {
    GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
    GtkFileChooserNative *dialog =
      latent_file_chooser_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, _("Choose a File"),
                               GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), on_file_chosen, dropdown);
    g_object_set_data (G_OBJECT (dropdown), "latent-panel", self);
    gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
  }
}

/* Enough decimals to show the default and a step of a tenth of it. */
static guint
digits_for (const LatentParamSpec *spec)
{
  double v = fabs (spec->default_value);

  if (spec->type == LATENT_PARAM_INT)
    return 0;
  if (v == 0)
    return 3;
  return CLAMP ((int) ceil (-log10 (v)) + 1, 2, 8);
}

static GtkWidget *
make_control (LatentParamPanel      *self,
              const LatentParamSpec *spec)
{
  GtkWidget *control = NULL;

  switch (spec->type)
    {
    case LATENT_PARAM_INT:
    case LATENT_PARAM_DOUBLE:
      {
        guint digits = digits_for (spec);
        double step = spec->type == LATENT_PARAM_INT ? 1 : pow (10, -(double) digits);

        control = gtk_spin_button_new_with_range (spec->min, spec->max, step);
        gtk_spin_button_set_digits (GTK_SPIN_BUTTON (control), digits);
        gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (control), TRUE);
        g_signal_connect (control, "value-changed", G_CALLBACK (on_spin_changed), self);
      }
      break;

    case LATENT_PARAM_BOOL:
      control = gtk_switch_new ();
      gtk_widget_set_halign (control, GTK_ALIGN_START);
      g_signal_connect (control, "notify::active", G_CALLBACK (on_switch_changed), self);
      break;

    case LATENT_PARAM_CHOICE:
      {
        g_autoptr(GtkStringList) items = gtk_string_list_new (NULL);

        /* Labels for people; the values (on the CLI, in JSON) stay as they are. */
        for (guint i = 0; spec->choices && spec->choices[i]; i++)
          gtk_string_list_append (items, spec->choice_labels ? _(spec->choice_labels[i]) : spec->choices[i]);
        if (spec->allow_file)
          gtk_string_list_append (items, _("From file…"));
        if (spec->allow_file && g_hash_table_contains (self->editors, spec->name))
          gtk_string_list_append (items, ((Editor *) g_hash_table_lookup (self->editors, spec->name))->label);
        control = gtk_drop_down_new (G_LIST_MODEL (g_steal_pointer (&items)), NULL);
        latent_drop_down_name_button (GTK_DROP_DOWN (control));
        g_signal_connect (control, "notify::selected", G_CALLBACK (on_choice_changed), self);
      }
      break;
    }

  g_object_set_data (G_OBJECT (control), "latent-spec", (gpointer) spec);
  if ((spec->type == LATENT_PARAM_INT || spec->type == LATENT_PARAM_DOUBLE) && spec->zero_label)
    {
      /* A numeric spin button would refuse the word. */
      gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (control), FALSE);
      g_signal_connect (control, "output", G_CALLBACK (on_spin_output), NULL);
      g_signal_connect (control, "input", G_CALLBACK (on_spin_input), NULL);
    }
  gtk_widget_set_hexpand (control, TRUE);
  gtk_widget_set_tooltip_text (control, _(spec->tooltip));
  gtk_accessible_update_property (GTK_ACCESSIBLE (control),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _(spec->label),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, _(spec->tooltip),
                                  -1);
  return control;
}

static void
show_value (LatentParamPanel *self,
            GtkWidget        *control)
{
  const LatentParamSpec *spec = spec_of (control);

  switch (spec->type)
    {
    case LATENT_PARAM_INT:
      gtk_spin_button_set_value (GTK_SPIN_BUTTON (control), latent_params_get_int (self->params, spec->name));
      break;
    case LATENT_PARAM_DOUBLE:
      gtk_spin_button_set_value (GTK_SPIN_BUTTON (control),
                                 latent_params_get_double (self->params, spec->name));
      break;
    case LATENT_PARAM_BOOL:
      gtk_switch_set_active (GTK_SWITCH (control), latent_params_get_bool (self->params, spec->name));
      break;
    case LATENT_PARAM_CHOICE:
      {
        const char *value = latent_params_get_choice (self->params, spec->name);
        guint n = g_strv_length ((char **) spec->choices);
        guint selected = n;   /* “From file…” */
        Editor *editor = g_hash_table_lookup (self->editors, spec->name);

        for (guint i = 0; i < n; i++)
          if (g_str_equal (spec->choices[i], value))
            selected = i;
        /* What the editor wrote is shown as the editor's. */
        if (selected == n && editor && editor->dir && value[0] == '@'
            && g_str_has_prefix (value + 1, editor->dir) && value[1 + strlen (editor->dir)] == G_DIR_SEPARATOR)
          selected = n + 1;
        gtk_widget_set_tooltip_text (control, value[0] == '@' ? value + 1 : _(spec->tooltip));
        gtk_drop_down_set_selected (GTK_DROP_DOWN (control), selected);
      }
      break;
    }
}

void
latent_param_panel_set_params (LatentParamPanel *self,
                               LatentParams     *params)
{
  GtkWidget *child;

  g_return_if_fail (LATENT_IS_PARAM_PANEL (self));

  if (params != self->params)
    {
      g_clear_pointer (&self->params, latent_params_unref);
      self->params = params ? latent_params_ref (params) : NULL;
      self->note = NULL;
      while ((child = gtk_widget_get_first_child (self->grid)))
        gtk_grid_remove (GTK_GRID (self->grid), child);
      if (params == NULL)
        return;

      self->updating = TRUE;
      for (guint i = 0; i < latent_params_get_n_specs (params); i++)
        {
          const LatentParamSpec *spec = latent_params_get_spec (params, i);
          GtkWidget *label = gtk_label_new (_(spec->label));
          GtkWidget *control = make_control (self, spec);

          gtk_label_set_xalign (GTK_LABEL (label), 0);
          /* Long names wrap rather than widen the panel: the figure beside it
           * stays where it is whichever algorithm is chosen. */
          gtk_label_set_wrap (GTK_LABEL (label), TRUE);
          gtk_label_set_max_width_chars (GTK_LABEL (label), 14);
          gtk_widget_add_css_class (label, "dim-label");
          g_object_set_data (G_OBJECT (control), "latent-label", label);
          gtk_grid_attach (GTK_GRID (self->grid), label, 0, i, 1, 1);
          gtk_grid_attach (GTK_GRID (self->grid), control, 1, i, 1, 1);
          show_value (self, control);
        }
      self->updating = FALSE;
      apply_limits (self);
      update_sensitivity (self);
      return;
    }

  /* Same parameters, new values: refresh the controls quietly, the
   * bounds first so that no value is clamped to the old ones. */
  apply_limits (self);
  self->updating = TRUE;
  for (child = gtk_widget_get_first_child (self->grid); child; child = gtk_widget_get_next_sibling (child))
    if (spec_of (child))
      show_value (self, child);
  self->updating = FALSE;
  update_sensitivity (self);
}

void
latent_param_panel_add_editor (LatentParamPanel *self,
                               const char       *name,
                               const char       *label,
                               const char       *dir)
{
  Editor *editor;

  g_return_if_fail (LATENT_IS_PARAM_PANEL (self));
  g_return_if_fail (name != NULL && label != NULL);

  editor = g_new0 (Editor, 1);
  editor->label = g_strdup (label);
  editor->dir = g_strdup (dir);
  g_hash_table_replace (self->editors, g_strdup (name), editor);
}

/* The parameters are the algorithm's own: the check reads them by name. */
static gboolean
params_of (LatentParams          *params,
           const LatentAlgorithm *algorithm)
{
  return algorithm && algorithm->n_params > 0 && latent_params_get_n_specs (params) == algorithm->n_params
         && latent_params_get_spec (params, 0) == &algorithm->params[0];
}

static void
apply_limits (LatentParamPanel *self)
{
  gboolean checked = self->params && self->dataset && params_of (self->params, self->algorithm);

  if (self->params == NULL)
    return;
  self->updating = TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (self->grid); child; child = gtk_widget_get_next_sibling (child))
    {
      const LatentParamSpec *spec = spec_of (child);
      double upper;

      if (spec == NULL || spec->type != LATENT_PARAM_INT)
        continue;
      /* The algorithm states its bounds: no check is called. */
      if (checked)
        upper = latent_algorithm_max_int (self->algorithm, self->dataset, self->params, spec->name);
      else
        upper = spec->max;
      /* A value past the bound stays until changed: the check names it. */
      upper = MAX (upper, (double) latent_params_get_int (self->params, spec->name));
      gtk_spin_button_set_range (GTK_SPIN_BUTTON (child), spec->min, upper);
    }
  self->updating = FALSE;
}

void
latent_param_panel_set_limits (LatentParamPanel      *self,
                               const LatentAlgorithm *algorithm,
                               LatentDataset         *dataset)
{
  g_return_if_fail (LATENT_IS_PARAM_PANEL (self));
  g_return_if_fail (dataset == NULL || LATENT_IS_DATASET (dataset));

  self->algorithm = algorithm;
  g_set_object (&self->dataset, dataset);
  apply_limits (self);
  update_sensitivity (self);
}

static void
latent_param_panel_dispose (GObject *object)
{
  LatentParamPanel *self = LATENT_PARAM_PANEL (object);

  g_clear_pointer (&self->grid, gtk_widget_unparent);
  g_clear_pointer (&self->params, latent_params_unref);
  g_clear_pointer (&self->editors, g_hash_table_unref);
  g_clear_object (&self->dataset);
  G_OBJECT_CLASS (latent_param_panel_parent_class)->dispose (object);
}

static void
latent_param_panel_class_init (LatentParamPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = latent_param_panel_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "latentparampanel");

  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* ::edit (const char *name): the person chose the editor's item. */
  signals[EDIT] = g_signal_new ("edit", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
latent_param_panel_init (LatentParamPanel *self)
{
  self->editors = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, editor_free);
  self->grid = gtk_grid_new ();
  gtk_grid_set_row_spacing (GTK_GRID (self->grid), 6);
  gtk_grid_set_column_spacing (GTK_GRID (self->grid), 12);
  gtk_widget_set_parent (self->grid, GTK_WIDGET (self));
}

void
latent_param_panel_set_note (LatentParamPanel *self,
                             const char       *note)
{
  g_return_if_fail (LATENT_IS_PARAM_PANEL (self));

  if (self->note)
    gtk_grid_remove (GTK_GRID (self->grid), g_steal_pointer (&self->note));
  if (note == NULL || self->params == NULL)
    return;
  self->note = gtk_label_new (note);
  gtk_label_set_wrap (GTK_LABEL (self->note), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (self->note), 28);
  gtk_label_set_xalign (GTK_LABEL (self->note), 0);
  gtk_widget_add_css_class (self->note, "caption");
  gtk_widget_set_name (self->note, "going-on-note");
  gtk_grid_attach (GTK_GRID (self->grid), self->note, 0,
                   (int) latent_params_get_n_specs (self->params), 2, 1);
}

GtkWidget *
latent_param_panel_new (void)
{
  return g_object_new (LATENT_TYPE_PARAM_PANEL, NULL);
}
