/* latent-kernel-dialog.c — type the weights of a convolution kernel of your own
 *
 * A grid of entries, one per weight, that grows and shrinks about its
 * centre with the size. Apply writes the kernel file the engine reads
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

#include "latent-ui-util.h"

struct _LatentKernelDialog
{
  GtkWindow        parent_instance;

  GtkSpinButton   *size_spin;
  GtkCheckButton  *normalise_check;
  GtkSpinButton   *divisor_spin;
  GtkSpinButton   *offset_spin;
  GtkGrid         *weights_grid;
  GtkLabel        *summary_label;
  GtkLabel        *error_label;
  GtkButton       *apply_button;

  guint            size;        /* of the grid shown: odd */
  GPtrArray       *entries;     /* GtkEntry, size × size, row-major */
  GArray          *exact;       /* double, size × size: the weight each entry
                                 * was filled with, which its text rounds */
  gboolean         filling;     /* setting entries from code */
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

/* Characters an entry shows; format_weight () writes no more. */
#define WEIGHT_CHARS 8

/* "0.1134", "−2", "1.95e-5": up to four significant digits, in at most
 * WEIGHT_CHARS characters, so the whole number shows. */
static void
format_weight (double  value,
               char   *buf,
               gsize   size)
{
  static const char * const formats[] = { "%.4g", "%.3g", "%.2g", "%.1g" };
  char mantissa[G_ASCII_DTOSTR_BUF_SIZE];
  char *e;
  int exponent;

  if (value == 0.0 || !isfinite (value))
    {
      g_strlcpy (buf, value == 0.0 ? "0" : "nan", size);
      return;
    }
  if (fabs (value) >= 1e-3 && fabs (value) < 1e7)
    for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
      {
        g_ascii_formatd (buf, size, formats[i], value);
        if (strlen (buf) <= WEIGHT_CHARS && strchr (buf, 'e') == NULL)
          return;
      }
  /* Exponents without padding: "1.95e-5", not "1.95e-05". */
  for (guint digits = 2;; digits--)
    {
      g_autofree char *format = g_strdup_printf ("%%.%ue", digits);

      g_ascii_formatd (mantissa, sizeof mantissa, format, value);
      e = strchr (mantissa, 'e');
      exponent = atoi (e + 1);
      *e = '\0';
      /* Trailing zeros say nothing: "1.00" is "1". */
      if (strchr (mantissa, '.') != NULL)
        {
          char *end = mantissa + strlen (mantissa) - 1;

          while (*end == '0')
            *end-- = '\0';
          if (*end == '.')
            *end = '\0';
        }
      g_snprintf (buf, size, "%se%d", mantissa, exponent);
      if (strlen (buf) <= WEIGHT_CHARS || digits == 0)
        return;
    }
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
  return end != NULL && *end == '\0' && isfinite (*value);
}

/* Entry @k's weight: the one it was filled with while its text is still
 * that weight's, so a kernel opened here (a Gaussian) is the same kernel,
 * separable as the window ran it, not one rounded to what the entries
 * show; what a person typed otherwise. */
static gboolean
weight_at (LatentKernelDialog *self,
           guint               k,
           double             *value)
{
  const char *text = gtk_editable_get_text (g_ptr_array_index (self->entries, k));
  double exact = g_array_index (self->exact, double, k);
  char shown[G_ASCII_DTOSTR_BUF_SIZE];

  format_weight (exact, shown, sizeof shown);
  if (g_str_equal (text, shown))
    {
      *value = exact;
      return TRUE;
    }
  return parse_weight (text, value);
}

static void on_changed (LatentKernelDialog *self);

/* Builds a grid of @size, each weight from @values (size × size) or 0. */
static void
build_grid (LatentKernelDialog *self,
            guint               size,
            const double       *values)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->weights_grid))))
    gtk_grid_remove (self->weights_grid, child);
  g_ptr_array_set_size (self->entries, 0);
  g_array_set_size (self->exact, 0);
  self->size = size;

  self->filling = TRUE;
  for (guint j = 0; j < size; j++)
    for (guint i = 0; i < size; i++)
      {
        GtkWidget *entry = gtk_entry_new ();
        /* Translators: the accessible name of one weight; rows and columns count from 1. */
        g_autofree char *name = g_strdup_printf (_("Weight %u,%u"), j + 1, i + 1);
        double value = values ? values[j * size + i] : 0.0;
        char buf[G_ASCII_DTOSTR_BUF_SIZE];

        format_weight (value, buf, sizeof buf);
        gtk_editable_set_text (GTK_EDITABLE (entry), buf);
        /* Room for every character format_weight () writes. */
        gtk_editable_set_width_chars (GTK_EDITABLE (entry), WEIGHT_CHARS);
        gtk_editable_set_max_width_chars (GTK_EDITABLE (entry), WEIGHT_CHARS);
        gtk_editable_set_alignment (GTK_EDITABLE (entry), 1.0);
        gtk_entry_set_input_purpose (GTK_ENTRY (entry), GTK_INPUT_PURPOSE_NUMBER);
        gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
        g_signal_connect_swapped (entry, "changed", G_CALLBACK (on_changed), self);
        gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
        gtk_grid_attach (self->weights_grid, entry, i, j, 1, 1);
        g_ptr_array_add (self->entries, entry);
        g_array_append_val (self->exact, value);
      }
  self->filling = FALSE;
  on_changed (self);
}

/* The weights as typed, centre kept: for a grid of another size. */
static double *
current_values (LatentKernelDialog *self)
{
  double *values = g_new0 (double, (gsize) self->size * self->size);

  for (guint k = 0; k < self->entries->len; k++)
    if (!weight_at (self, k, &values[k]))
      values[k] = 0.0;
  return values;
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
  weights = g_new (float, (gsize) self->size * self->size);
  for (guint j = 0; j < self->size; j++)
    for (guint i = 0; i < self->size; i++)
      {
        const guint k = j * self->size + i;
        const char *text = gtk_editable_get_text (g_ptr_array_index (self->entries, k));
        double value;

        if (!weight_at (self, k, &value) || fabs (value) > G_MAXFLOAT)
          {
            g_set_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_INVALID,
                         _("Weight %u,%u: “%s” is not a number"), j + 1, i + 1, text);
            return NULL;
          }
        weights[j * self->size + i] = (float) value;
      }
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
  char sum[G_ASCII_DTOSTR_BUF_SIZE];
  g_autofree char *summary = NULL;

  if (self->filling)
    return;
  /* The divisor is the sum while normalising: nothing to type. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->divisor_spin), !normalise);
  filter = latent_kernel_dialog_get_filter (self, &error);
  show_error (self, error ? error->message : NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->apply_button), filter != NULL);
  if (filter == NULL)
    {
      latent_label_set_text (self->summary_label, "", _("Kernel Summary"));
      return;
    }
  format_weight (latent_filter_get_sum (filter), sum, sizeof sum);
  if (self->size == 1)
    summary = g_strdup_printf (_("Sum of the weights %s"), sum);
  else if (latent_filter_is_separable (filter))
    summary = g_strdup_printf (_("Sum of the weights %s · separable: the fast two-pass method can run it"), sum);
  else
    summary = g_strdup_printf (_("Sum of the weights %s · not separable"), sum);
  latent_label_set_text (self->summary_label, summary, _("Kernel Summary"));
}

static void
on_size_changed (LatentKernelDialog *self)
{
  double value = gtk_spin_button_get_value (self->size_spin);
  guint size = (guint) value;
  g_autofree double *old = NULL;
  g_autofree double *values = NULL;
  int shift;

  if (value != size || size % 2 == 0 || size < 1 || size > LATENT_FILTER_MAX_SIZE)
    {
      /* Left as typed, and said why it cannot be. */
      on_changed (self);
      return;
    }
  if (size == self->size)
    {
      on_changed (self);
      return;
    }
  old = current_values (self);
  values = g_new0 (double, (gsize) size * size);
  /* Grown or cut about the centre. */
  shift = ((int) self->size - (int) size) / 2;
  for (guint j = 0; j < size; j++)
    for (guint i = 0; i < size; i++)
      {
        int oj = (int) j + shift, oi = (int) i + shift;

        if (oj >= 0 && oi >= 0 && oj < (int) self->size && oi < (int) self->size)
          values[j * size + i] = old[oj * self->size + oi];
      }
  build_grid (self, size, values);
}

static void
on_clear (LatentKernelDialog *self)
{
  self->filling = TRUE;
  for (guint k = 0; k < self->entries->len; k++)
    gtk_editable_set_text (g_ptr_array_index (self->entries, k), "0");
  self->filling = FALSE;
  on_changed (self);
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

  g_clear_pointer (&self->entries, g_ptr_array_unref);
  g_clear_pointer (&self->exact, g_array_unref);
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

  gtk_widget_class_set_template_from_resource (widget_class, "/org/latent/Latent/latent-kernel-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, LatentKernelDialog, size_spin);
  gtk_widget_class_bind_template_child (widget_class, LatentKernelDialog, normalise_check);
  gtk_widget_class_bind_template_child (widget_class, LatentKernelDialog, divisor_spin);
  gtk_widget_class_bind_template_child (widget_class, LatentKernelDialog, offset_spin);
  gtk_widget_class_bind_template_child (widget_class, LatentKernelDialog, weights_grid);
  gtk_widget_class_bind_template_child (widget_class, LatentKernelDialog, summary_label);
  gtk_widget_class_bind_template_child (widget_class, LatentKernelDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, LatentKernelDialog, apply_button);
  gtk_widget_class_bind_template_callback (widget_class, on_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_size_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_clear);
  gtk_widget_class_bind_template_callback (widget_class, on_apply);
  gtk_widget_class_bind_template_callback (widget_class, gtk_window_destroy);
  /* Escape closes, as in a dialog. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
latent_kernel_dialog_init (LatentKernelDialog *self)
{
  self->entries = g_ptr_array_new ();
  self->exact = g_array_new (FALSE, FALSE, sizeof (double));
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_window_set_default_widget (GTK_WINDOW (self), GTK_WIDGET (self->apply_button));
}

GtkWidget *
latent_kernel_dialog_new (GtkWindow          *parent,
                          const LatentFilter *filter)
{
  LatentKernelDialog *self = g_object_new (LATENT_TYPE_KERNEL_DIALOG, "transient-for", parent, NULL);
  static const double identity[9] = { 0, 0, 0, 0, 1, 0, 0, 0, 0 };
  g_autofree double *values = NULL;
  guint size = 3;

  if (filter != NULL)
    {
      const float *weights = latent_filter_get_weights (filter);

      size = latent_filter_get_size (filter);
      values = g_new (double, (gsize) size * size);
      for (guint k = 0; k < size * size; k++)
        values[k] = weights[k];
      gtk_spin_button_set_value (self->divisor_spin, latent_filter_get_divisor (filter));
      gtk_spin_button_set_value (self->offset_spin, latent_filter_get_offset (filter));
    }
  /* The grid first, so the size spin finds it the right size. */
  build_grid (self, size, values ? values : identity);
  gtk_spin_button_set_value (self->size_spin, size);
  on_changed (self);
  return GTK_WIDGET (self);
}
