/* latent-kernel-dialog.c — draw a convolution kernel of your own
 *
 * The kernel as a heat map (latent-kernel-grid.c) that grows and shrinks
 * about its centre with the size, one entry for the selected weight, and
 * presets to start from. Apply writes the kernel file the engine reads
 * (filter = @FILE), so a kernel drawn here is also one latent-cli can use.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-kernel-dialog"

#include "latent-kernel-dialog.h"

#include <glib/gi18n-lib.h>
#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "latent-kernel-grid.h"
#include "latent-ui-util.h"

struct _LatentKernelDialog
{
  GtkWindow         parent_instance;

  GtkSpinButton    *size_spin;
  GtkCheckButton   *normalise_check;
  GtkSpinButton    *divisor_spin;
  GtkSpinButton    *offset_spin;
  LatentKernelGrid *grid;
  GtkLabel         *position_label;
  GtkEntry         *weight_entry;
  GtkLabel         *scale_label;
  GtkLabel         *summary_label;
  GtkLabel         *error_label;
  GtkButton        *apply_button;

  guint             size;       /* of the kernel shown: odd */
  GArray           *weights;    /* double, size × size, row-major: exact, so a
                                 * kernel opened here (a Gaussian) goes back
                                 * the same kernel, separable as it ran */
  gboolean          typed_ok;   /* the entry's text is a number */
  double            original;   /* the selected weight before typing */
  gboolean          filling;    /* setting the entry from code */
};

G_DEFINE_FINAL_TYPE (LatentKernelDialog, latent_kernel_dialog, GTK_TYPE_WINDOW)

enum { APPLIED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
show_error (LatentKernelDialog *self,
            const char         *message)
{
  latent_label_set_text (self->error_label, message ? message : "", _("Kernel Error"));
  /* One line for either: the window does not grow once open, and a line
   * more would take it from the weights. */
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->summary_label), message == NULL);
}

/* Entry text → weight; FALSE for text that is no finite number. Commas
 * are taken for decimal points, as a person in Germany types them. */
static gboolean
parse_weight (const char *text,
              double     *value)
{
  g_autofree char *copy = g_strstrip (g_strdelimit (g_strdup (text), ",", '.'));
  char *end = NULL;

  if (*copy == '\0')
    {
      *value = 0.0;
      return TRUE;
    }
  *value = g_ascii_strtod (copy, &end);
  return end != NULL && *end == '\0' && isfinite (*value) && fabs (*value) <= G_MAXFLOAT;
}

static double *
weight_ref (LatentKernelDialog *self,
            guint               cell)
{
  return &g_array_index (self->weights, double, cell);
}

static void on_changed (LatentKernelDialog *self);

/* The selected weight into the entry, in full: six significant digits, in
 * the person's locale as the grid's cells are. */
static void
fill_entry (LatentKernelDialog *self)
{
  guint cell = latent_kernel_grid_get_selected (self->grid);
  g_autofree char *text = NULL;
  g_autofree char *position = NULL;

  if (cell >= self->weights->len)
    return;
  text = g_strdup_printf ("%.6g", *weight_ref (self, cell));
  /* Translators: the row and column of the weight being edited. */
  position = g_strdup_printf (_("Row %u, column %u"), cell / self->size + 1, cell % self->size + 1);
  gtk_label_set_text (self->position_label, position);
  self->original = *weight_ref (self, cell);
  self->filling = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->weight_entry), text);
  self->filling = FALSE;
  self->typed_ok = TRUE;
}

/* @values (size × size) become the kernel shown. */
static void
set_weights (LatentKernelDialog *self,
             guint               size,
             const double       *values)
{
  g_array_set_size (self->weights, 0);
  g_array_append_vals (self->weights, values, size * size);
  self->size = size;
  latent_kernel_grid_set_weights (self->grid, size, values);
  fill_entry (self);
  on_changed (self);
}

LatentFilter *
latent_kernel_dialog_get_filter (LatentKernelDialog  *self,
                                 GError             **error)
{
  g_autofree float *weights = NULL;
  g_autoptr(LatentFilter) filter = NULL;
  double spin_size;

  g_return_val_if_fail (LATENT_IS_KERNEL_DIALOG (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  /* A typed size the grid could not take. */
  spin_size = gtk_spin_button_get_value (self->size_spin);
  if (spin_size != self->size)
    {
      g_set_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_SIZE,
                   _("Kernel size %g: a kernel needs a centre pixel; use an odd size from 1 to %d"),
                   spin_size, LATENT_FILTER_MAX_SIZE);
      return NULL;
    }
  if (!self->typed_ok)
    {
      guint cell = latent_kernel_grid_get_selected (self->grid);

      g_set_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_INVALID,
                   _("Weight %u,%u: “%s” is not a number"), cell / self->size + 1, cell % self->size + 1,
                   gtk_editable_get_text (GTK_EDITABLE (self->weight_entry)));
      return NULL;
    }
  weights = g_new (float, self->weights->len);
  for (guint k = 0; k < self->weights->len; k++)
    weights[k] = (float) *weight_ref (self, k);
  filter = latent_filter_new (self->size, weights, gtk_spin_button_get_value (self->divisor_spin),
                              gtk_spin_button_get_value (self->offset_spin), error);
  if (filter == NULL)
    return NULL;
  if (gtk_check_button_get_active (self->normalise_check) && !latent_filter_normalise (filter, error))
    return NULL;
  return g_steal_pointer (&filter);
}

/* Every edit: say what the kernel is, or what is wrong with it. */
static void
on_changed (LatentKernelDialog *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentFilter) filter = NULL;
  gboolean normalise = gtk_check_button_get_active (self->normalise_check);
  g_autofree char *summary = NULL;
  g_autofree char *scale = latent_kernel_grid_dup_scale (self->grid);
  g_autofree char *format = NULL;
  double sum;

  if (self->filling || self->weights->len == 0)
    return;
  /* The divisor is the sum while normalising: nothing to type. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->divisor_spin), !normalise);
  if (*scale != '\0')
    /* Translators: %s is a power of ten, "× 10⁻⁶": the cells' numbers are the weights divided by it. */
    format = g_strdup_printf (_("Cells show the weights %s"), scale);
  latent_label_set_text (self->scale_label, format ? format : "", _("Number Format"));
  filter = latent_kernel_dialog_get_filter (self, &error);
  show_error (self, error ? error->message : NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->apply_button), filter != NULL);
  if (filter == NULL)
    {
      latent_label_set_text (self->summary_label, "", _("Kernel Summary"));
      return;
    }
  sum = latent_filter_get_sum (filter);
  if (self->size == 1)
    summary = g_strdup_printf (_("Sum of the weights %.4g"), sum);
  else if (latent_filter_is_separable (filter))
    summary = g_strdup_printf (_("Sum of the weights %.4g · separable: the fast two-pass method can run it"), sum);
  else
    summary = g_strdup_printf (_("Sum of the weights %.4g · not separable"), sum);
  latent_label_set_text (self->summary_label, summary, _("Kernel Summary"));
}

static void
on_selected (LatentKernelDialog *self)
{
  fill_entry (self);
  on_changed (self);
}

/* The entry's text is the selected weight as soon as it is a number; text
 * that is none leaves the weight it had, kept when another is selected. */
static void
on_weight_changed (LatentKernelDialog *self)
{
  guint cell = latent_kernel_grid_get_selected (self->grid);
  double value;

  if (self->filling || cell >= self->weights->len)
    return;
  self->typed_ok = parse_weight (gtk_editable_get_text (GTK_EDITABLE (self->weight_entry)), &value);
  *weight_ref (self, cell) = self->typed_ok ? value : self->original;
  latent_kernel_grid_set_weights (self->grid, self->size, (const double *) self->weights->data);
  on_changed (self);
}

/* Enter: on to the next weight, back on the grid, as in a spreadsheet. */
static void
on_weight_activate (LatentKernelDialog *self)
{
  guint cell = latent_kernel_grid_get_selected (self->grid);

  if (!self->typed_ok)
    return;
  gtk_widget_grab_focus (GTK_WIDGET (self->grid));
  if (cell + 1 < self->weights->len)
    latent_kernel_grid_set_selected (self->grid, cell + 1);
}

/* Typing on the grid starts the entry with what was typed. */
static void
on_grid_edit (LatentKernelDialog *self,
              const char         *text)
{
  gtk_widget_grab_focus (GTK_WIDGET (self->weight_entry));
  if (text != NULL && *text != '\0')
    {
      gtk_editable_set_text (GTK_EDITABLE (self->weight_entry), text);
      gtk_editable_set_position (GTK_EDITABLE (self->weight_entry), -1);
    }
}

static void
on_clear_weight (LatentKernelDialog *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->weight_entry), "0");
}

static void
on_size_changed (LatentKernelDialog *self)
{
  double value = gtk_spin_button_get_value (self->size_spin);
  guint size = (guint) value;
  g_autofree double *values = NULL;
  int shift;

  if (value != size || size % 2 == 0 || size < 1 || size > LATENT_FILTER_MAX_SIZE || size == self->size)
    {
      /* Left as typed, and said why it cannot be. */
      on_changed (self);
      return;
    }
  values = g_new0 (double, (gsize) size * size);
  /* Grown or cut about the centre. */
  shift = ((int) self->size - (int) size) / 2;
  for (guint j = 0; j < size; j++)
    for (guint i = 0; i < size; i++)
      {
        int oj = (int) j + shift, oi = (int) i + shift;

        if (oj >= 0 && oi >= 0 && oj < (int) self->size && oi < (int) self->size)
          values[j * size + i] = *weight_ref (self, oj * self->size + oi);
      }
  set_weights (self, size, values);
}

static void
on_clear (LatentKernelDialog *self)
{
  g_autofree double *zeros = g_new0 (double, self->weights->len);

  set_weights (self, self->size, zeros);
}

/* @filter's weights, divisor and offset become the kernel shown. */
static void
show_filter (LatentKernelDialog *self,
             const LatentFilter *filter)
{
  guint size = latent_filter_get_size (filter);
  const float *weights = latent_filter_get_weights (filter);
  g_autofree double *values = g_new (double, (gsize) size * size);

  for (guint k = 0; k < size * size; k++)
    values[k] = weights[k];
  gtk_spin_button_set_value (self->divisor_spin, latent_filter_get_divisor (filter));
  gtk_spin_button_set_value (self->offset_spin, latent_filter_get_offset (filter));
  /* The weights first, so the size spin finds them the right size. */
  set_weights (self, size, values);
  gtk_spin_button_set_value (self->size_spin, size);
}

/* A preset at the size shown where it has one (a blur), else its own
 * 3 × 3; a Gaussian's σ fills the size as the engine's default size
 * (2·⌈3σ⌉ + 1) would for it. */
static void
on_preset (GtkWidget  *widget,
           const char *action,
           GVariant   *parameter)
{
  LatentKernelDialog *self = LATENT_KERNEL_DIALOG (widget);
  const char *name = g_variant_get_string (parameter, NULL);
  guint size = MAX (self->size, 3);
  g_autoptr(LatentFilter) filter = NULL;
  g_autoptr(GError) error = NULL;

  if (g_str_equal (name, "identity"))
    {
      g_autofree double *values = g_new0 (double, (gsize) self->size * self->size);

      values[self->weights->len / 2] = 1.0;
      gtk_spin_button_set_value (self->divisor_spin, 1.0);
      gtk_spin_button_set_value (self->offset_spin, 0.0);
      set_weights (self, self->size, values);
      return;
    }
  filter = latent_filter_new_preset (name, size, MAX ((size - 1) / 6.0, 0.5), 1.0, 0.0, &error);
  if (filter == NULL)
    {
      show_error (self, error->message);
      return;
    }
  gtk_check_button_set_active (self->normalise_check, FALSE);
  show_filter (self, filter);
}

char *
latent_kernel_file_save (const LatentFilter  *filter,
                         GError             **error)
{
  g_autofree char *text = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *name = NULL;
  g_autofree char *path = NULL;
  g_autofree char *digest = NULL;

  g_return_val_if_fail (filter != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  text = latent_filter_to_text (filter);
  if (text == NULL)
    {
      g_set_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_INVALID,
                   _("A gradient magnitude cannot be written as one kernel"));
      return NULL;
    }
  dir = g_build_filename (g_get_user_cache_dir (), "latent", "kernels", NULL);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Could not make the folder “%s”: %s"), dir, g_strerror (saved));
      return NULL;
    }
  /* Named after the contents: applying the same kernel twice is one file. */
  digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, text, -1);
  digest[16] = '\0';
  name = g_strdup_printf ("kernel-%s.txt", digest);
  path = g_build_filename (dir, name, NULL);
  if (!g_file_set_contents (path, text, -1, error))
    return NULL;
  return g_steal_pointer (&path);
}

static void
on_apply (LatentKernelDialog *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentFilter) filter = latent_kernel_dialog_get_filter (self, &error);
  g_autofree char *path = NULL;

  if (filter)
    path = latent_kernel_file_save (filter, &error);
  if (path == NULL)
    {
      show_error (self, error->message);
      return;
    }
  g_signal_emit (self, signals[APPLIED], 0, path);
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
latent_kernel_dialog_dispose (GObject *object)
{
  LatentKernelDialog *self = LATENT_KERNEL_DIALOG (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), LATENT_TYPE_KERNEL_DIALOG);
  G_OBJECT_CLASS (latent_kernel_dialog_parent_class)->dispose (object);
}

static void
latent_kernel_dialog_finalize (GObject *object)
{
  LatentKernelDialog *self = LATENT_KERNEL_DIALOG (object);

  g_clear_pointer (&self->weights, g_array_unref);
  G_OBJECT_CLASS (latent_kernel_dialog_parent_class)->finalize (object);
}

static void
latent_kernel_dialog_class_init (LatentKernelDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = latent_kernel_dialog_dispose;
  object_class->finalize = latent_kernel_dialog_finalize;

  signals[APPLIED] = g_signal_new ("applied", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                   NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  g_type_ensure (LATENT_TYPE_KERNEL_GRID);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/latent/Latent/latent-kernel-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, LatentKernelDialog, size_spin);
  gtk_widget_class_bind_template_child (widget_class, LatentKernelDialog, normalise_check);
  gtk_widget_class_bind_template_child (widget_class, LatentKernelDialog, divisor_spin);
  gtk_widget_class_bind_template_child (widget_class, LatentKernelDialog, offset_spin);
  gtk_widget_class_bind_template_child (widget_class, LatentKernelDialog, grid);
  gtk_widget_class_bind_template_child (widget_class, LatentKernelDialog, position_label);
  gtk_widget_class_bind_template_child (widget_class, LatentKernelDialog, weight_entry);
  gtk_widget_class_bind_template_child (widget_class, LatentKernelDialog, scale_label);
  gtk_widget_class_bind_template_child (widget_class, LatentKernelDialog, summary_label);
  gtk_widget_class_bind_template_child (widget_class, LatentKernelDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, LatentKernelDialog, apply_button);
  gtk_widget_class_bind_template_callback (widget_class, on_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_size_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_clear);
  gtk_widget_class_bind_template_callback (widget_class, on_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_weight_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_weight_activate);
  gtk_widget_class_bind_template_callback (widget_class, on_grid_edit);
  gtk_widget_class_bind_template_callback (widget_class, on_clear_weight);
  gtk_widget_class_bind_template_callback (widget_class, on_apply);
  gtk_widget_class_bind_template_callback (widget_class, gtk_window_destroy);
  gtk_widget_class_install_action (widget_class, "kernel.preset", "s", on_preset);
  /* Escape closes, as in a dialog. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
latent_kernel_dialog_init (LatentKernelDialog *self)
{
  self->weights = g_array_new (FALSE, FALSE, sizeof (double));
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_window_set_default_widget (GTK_WINDOW (self), GTK_WIDGET (self->apply_button));
}

GtkWidget *
latent_kernel_dialog_new (GtkWindow          *parent,
                          const LatentFilter *filter)
{
  LatentKernelDialog *self = g_object_new (LATENT_TYPE_KERNEL_DIALOG, "transient-for", parent, NULL);
  static const double identity[9] = { 0, 0, 0, 0, 1, 0, 0, 0, 0 };

  if (filter != NULL)
    show_filter (self, filter);
  else
    set_weights (self, 3, identity);
  gtk_widget_grab_focus (GTK_WIDGET (self->grid));
  return GTK_WIDGET (self);
}
