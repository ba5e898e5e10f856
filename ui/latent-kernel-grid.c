/* latent-kernel-grid.c — a convolution kernel as a heat map of its weights
 *
 * One square per weight, red for positive and blue for negative, as deep
 * as the weight is large against the largest; the value printed in the
 * square when it fits, every square in one number format. A grid of text
 * fields showed 625 entries larger than the window for a 25 × 25 kernel and
 * mixed 1.23e-6 with 0.001309; the heat map shows the kernel's shape at a
 * glance at any size, and the dialog's one entry edits the selected weight.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-kernel-grid"

#include "latent-kernel-grid.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* A cell's side when the grid has room, the least it shrinks to, and the
 * most it grows to in a large window. */
#define CELL_NATURAL 52
#define CELL_MIN     14
#define CELL_MAX     96
/* The grid's natural side is at most this: a 31 × 31 kernel fits a laptop screen with the controls. */
#define GRID_NATURAL 533

struct _LatentKernelGrid
{
  GtkWidget  parent_instance;

  guint      size;
  GArray    *weights;      /* double, size × size, row-major */
  guint      selected;
  /* The one number format: value / 10^exponent with @decimals decimals. */
  int        decimals;
  int        exponent;
  double     largest;      /* max |w|: the deepest colour */
};

G_DEFINE_FINAL_TYPE (LatentKernelGrid, latent_kernel_grid, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_SELECTED, N_PROPS };
static GParamSpec *props[N_PROPS];

enum { EDIT, CLEAR_WEIGHT, N_SIGNALS };
static guint signals[N_SIGNALS];

static double
weight (LatentKernelGrid *self,
        guint             cell)
{
  return g_array_index (self->weights, double, cell);
}

/* Enough decimals for three significant digits of the largest weight, the
 * same for all, so a column of values lines up and compares; integers stay
 * integers. Outside 0.001 … 10⁵ a shared power of ten, a multiple of
 * three, keeps the digits few. */
static void
update_format (LatentKernelGrid *self)
{
  gboolean integers = TRUE;
  double scaled;

  self->largest = 0.0;
  for (guint k = 0; k < self->weights->len; k++)
    {
      double w = weight (self, k);

      self->largest = MAX (self->largest, fabs (w));
      integers = integers && w == rint (w);
    }
  self->decimals = 0;
  self->exponent = 0;
  if (self->largest == 0.0 || (integers && self->largest < 1e5))
    return;
  if (self->largest < 1e-3 || self->largest >= 1e5)
    self->exponent = 3 * (int) floor (log10 (self->largest) / 3.0);
  scaled = self->largest / pow (10.0, self->exponent);
  self->decimals = CLAMP (2 - (int) floor (log10 (scaled)), 0, 4);
}

char *
latent_kernel_grid_dup_cell_text (LatentKernelGrid *self,
                                  guint             cell)
{
  char *text;

  g_return_val_if_fail (LATENT_IS_KERNEL_GRID (self), NULL);
  g_return_val_if_fail (cell < self->weights->len, NULL);

  if (weight (self, cell) == 0.0)
    return g_strdup ("0");
  /* In the person's locale, as the figures' numbers are. */
  text = g_strdup_printf ("%.*f", self->decimals, weight (self, cell) / pow (10.0, self->exponent));
  /* A tiny negative weight rounds to "-0.000": its colour says the sign. */
  if (text[0] == '-' && strspn (text + 1, "0.,") == strlen (text + 1))
    memmove (text, text + 1, strlen (text));
  return text;
}

char *
latent_kernel_grid_dup_scale (LatentKernelGrid *self)
{
  static const char * const superscripts[] = { "⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹" };
  g_autoptr(GString) text = NULL;
  g_autofree char *digits = NULL;

  g_return_val_if_fail (LATENT_IS_KERNEL_GRID (self), NULL);

  if (self->exponent == 0)
    return g_strdup ("");
  text = g_string_new ("× 10");
  if (self->exponent < 0)
    g_string_append (text, "⁻");
  digits = g_strdup_printf ("%d", ABS (self->exponent));
  for (const char *d = digits; *d; d++)
    g_string_append (text, superscripts[*d - '0']);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* The side of a cell and the grid's top left corner in the allocation. */
static int
layout (LatentKernelGrid *self,
        int              *x0,
        int              *y0)
{
  const int width = gtk_widget_get_width (GTK_WIDGET (self));
  const int height = gtk_widget_get_height (GTK_WIDGET (self));
  int cell = self->size ? MIN (width, height) / (int) self->size : 0;

  cell = MIN (cell, CELL_MAX);
  *x0 = (width - cell * (int) self->size) / 2;
  *y0 = (height - cell * (int) self->size) / 2;
  return cell;
}

/* The cell under (x, y), or -1. */
static int
cell_at (LatentKernelGrid *self,
         double            x,
         double            y)
{
  int x0, y0, cell = layout (self, &x0, &y0);
  int i, j;

  if (cell <= 0 || x < x0 || y < y0)
    return -1;
  i = (int) (x - x0) / cell;
  j = (int) (y - y0) / cell;
  if (i >= (int) self->size || j >= (int) self->size)
    return -1;
  return j * (int) self->size + i;
}

/* Cell @cell's value, in small print unless the cells are @side large. */
static PangoLayout *
cell_layout (LatentKernelGrid *self,
             guint             cell,
             int               side)
{
  g_autofree char *text = latent_kernel_grid_dup_cell_text (self, cell);
  PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
  PangoAttrList *attrs = pango_attr_list_new ();

  /* Digits of one width, so the values line up. */
  pango_attr_list_insert (attrs, pango_attr_font_features_new ("tnum=1"));
  pango_attr_list_insert (attrs, pango_attr_scale_new (side > CELL_NATURAL ? 1.0 : 0.75));
  pango_layout_set_attributes (layout, attrs);
  pango_attr_list_unref (attrs);
  return layout;
}

gboolean
latent_kernel_grid_get_shows_values (LatentKernelGrid *self)
{
  int x0, y0, cell, w, h;
  guint longest = 0;
  gsize chars = 0;
  g_autoptr(PangoLayout) text = NULL;

  g_return_val_if_fail (LATENT_IS_KERNEL_GRID (self), FALSE);

  if (self->weights->len == 0)
    return FALSE;
  cell = layout (self, &x0, &y0);
  /* Every cell in one format with digits of one width: the longest text
   * is the widest, and the only one to lay out. */
  for (guint k = 0; k < self->weights->len; k++)
    {
      g_autofree char *t = latent_kernel_grid_dup_cell_text (self, k);

      if (strlen (t) > chars)
        chars = strlen (t), longest = k;
    }
  text = cell_layout (self, longest, cell);
  pango_layout_get_pixel_size (text, &w, &h);
  return w + 4 <= cell && h + 2 <= cell;
}

/* White at 0, deepening to red (positive) or blue (negative) at the
 * largest weight: a diverging scale, readable without red–green. */
static void
cell_colour (LatentKernelGrid *self,
             double            w,
             GdkRGBA          *colour,
             double           *depth)
{
  static const double positive[3] = { 0.80, 0.22, 0.15 }, negative[3] = { 0.13, 0.38, 0.74 };
  const double *c = w >= 0.0 ? positive : negative;
  double t = self->largest > 0.0 ? fabs (w) / self->largest : 0.0;

  colour->red = (float) (1.0 + t * (c[0] - 1.0));
  colour->green = (float) (1.0 + t * (c[1] - 1.0));
  colour->blue = (float) (1.0 + t * (c[2] - 1.0));
  colour->alpha = 1.0f;
  *depth = t;
}

static void
latent_kernel_grid_snapshot (GtkWidget   *widget,
                             GtkSnapshot *snapshot)
{
  LatentKernelGrid *self = LATENT_KERNEL_GRID (widget);
  int x0, y0, cell = layout (self, &x0, &y0);
  gboolean values = latent_kernel_grid_get_shows_values (self);
  const GdkRGBA line = { 0.5f, 0.5f, 0.5f, 0.35f };

  if (cell <= 0)
    return;
  for (guint k = 0; k < self->weights->len; k++)
    {
      const int i = (int) (k % self->size), j = (int) (k / self->size);
      graphene_rect_t box = GRAPHENE_RECT_INIT (x0 + i * cell, y0 + j * cell, cell, cell);
      GdkRGBA colour;
      double depth;

      cell_colour (self, weight (self, k), &colour, &depth);
      gtk_snapshot_append_color (snapshot, &colour, &box);
      if (values)
        {
          g_autoptr(PangoLayout) text = cell_layout (self, k, cell);
          const GdkRGBA ink = depth > 0.55 ? (GdkRGBA) { 1, 1, 1, 1 } : (GdkRGBA) { 0.1f, 0.1f, 0.1f, 1 };
          int w, h;

          pango_layout_get_pixel_size (text, &w, &h);
          gtk_snapshot_save (snapshot);
          gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (box.origin.x + (cell - w) / 2,
                                                                  box.origin.y + (cell - h) / 2));
          gtk_snapshot_append_layout (snapshot, text, &ink);
          gtk_snapshot_restore (snapshot);
        }
    }
  /* Hairlines between cells, so equal neighbours still read as cells. */
  for (guint n = 0; n <= self->size; n++)
    {
      gtk_snapshot_append_color (snapshot, &line,
                                 &GRAPHENE_RECT_INIT (x0 + n * cell, y0, 1, cell * self->size));
      gtk_snapshot_append_color (snapshot, &line,
                                 &GRAPHENE_RECT_INIT (x0, y0 + n * cell, cell * self->size, 1));
    }
  if (self->selected < self->weights->len)
    {
      const int i = (int) (self->selected % self->size), j = (int) (self->selected / self->size);
      const gboolean focused = gtk_widget_has_focus (widget);
      const float width = focused ? 3.0f : 2.0f;
      GdkRGBA ring;
      GskRoundedRect outline;

      /* The theme's text colour: it contrasts with white and deep cells
       * alike in either style; thicker while the grid has the keyboard. */
      G_GNUC_BEGIN_IGNORE_DEPRECATIONS
      gtk_style_context_get_color (gtk_widget_get_style_context (widget), &ring);
      G_GNUC_END_IGNORE_DEPRECATIONS
      gsk_rounded_rect_init_from_rect (&outline, &GRAPHENE_RECT_INIT (x0 + i * cell, y0 + j * cell, cell + 1, cell + 1), 0);
      gtk_snapshot_append_border (snapshot, &outline, (float[4]) { width, width, width, width },
                                  (GdkRGBA[4]) { ring, ring, ring, ring });
    }
}

static void
latent_kernel_grid_measure (GtkWidget      *widget,
                            GtkOrientation  orientation,
                            int             for_size,
                            int            *minimum,
                            int            *natural,
                            int            *minimum_baseline,
                            int            *natural_baseline)
{
  LatentKernelGrid *self = LATENT_KERNEL_GRID (widget);
  const int size = MAX ((int) self->size, 1);

  *minimum = size * CELL_MIN + 1;
  *natural = size * CLAMP (GRID_NATURAL / size, CELL_MIN, CELL_NATURAL) + 1;
}

static void
announce (LatentKernelGrid *self)
{
  g_autofree char *text = NULL;
  g_autofree char *value = NULL;

  if (self->selected >= self->weights->len)
    return;
  value = g_strdup_printf ("%g", weight (self, self->selected));
  /* Translators: what a screen reader says of the selected cell of the kernel's heat map. */
  text = g_strdup_printf (_("Weight %u,%u of %u × %u: %s"), self->selected / self->size + 1,
                          self->selected % self->size + 1, self->size, self->size, value);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

void
latent_kernel_grid_set_selected (LatentKernelGrid *self,
                                 guint             cell)
{
  g_return_if_fail (LATENT_IS_KERNEL_GRID (self));

  if (self->weights->len == 0)
    return;
  cell = MIN (cell, self->weights->len - 1);
  if (cell == self->selected)
    return;
  self->selected = cell;
  announce (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SELECTED]);
}

guint
latent_kernel_grid_get_selected (LatentKernelGrid *self)
{
  g_return_val_if_fail (LATENT_IS_KERNEL_GRID (self), 0);
  return self->selected;
}

void
latent_kernel_grid_set_weights (LatentKernelGrid *self,
                                guint             size,
                                const double     *weights)
{
  guint row, column;

  g_return_if_fail (LATENT_IS_KERNEL_GRID (self));
  g_return_if_fail (size > 0 && weights != NULL);

  /* The selected cell keeps its place about the centre when the size changes. */
  row = self->size ? self->selected / self->size : 0;
  column = self->size ? self->selected % self->size : 0;
  if (size != self->size)
    {
      int shift = ((int) size - (int) self->size) / 2;

      row = (guint) CLAMP ((int) row + shift, 0, (int) size - 1);
      column = (guint) CLAMP ((int) column + shift, 0, (int) size - 1);
      if (self->size == 0)
        row = column = size / 2;
      self->size = size;
      gtk_widget_queue_resize (GTK_WIDGET (self));
    }
  g_array_set_size (self->weights, 0);
  g_array_append_vals (self->weights, weights, (guint) size * size);
  update_format (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (row * size + column != self->selected)
    latent_kernel_grid_set_selected (self, row * size + column);
  else
    announce (self);
}

static gboolean
on_query_tooltip (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip)
{
  LatentKernelGrid *self = LATENT_KERNEL_GRID (widget);
  int cell = keyboard ? (int) self->selected : cell_at (self, x, y);
  g_autofree char *text = NULL;

  if (cell < 0 || (guint) cell >= self->weights->len)
    return FALSE;
  /* Translators: a weight of the kernel in full, with its row and column. */
  text = g_strdup_printf (_("Weight %u,%u: %.6g"), cell / self->size + 1, cell % self->size + 1,
                          weight (self, cell));
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
on_pressed (GtkGestureClick *gesture,
            int              n_press,
            double           x,
            double           y,
            LatentKernelGrid *self)
{
  int cell = cell_at (self, x, y);

  if (cell < 0)
    return;
  gtk_widget_grab_focus (GTK_WIDGET (self));
  latent_kernel_grid_set_selected (self, (guint) cell);
  /* A double click edits, as in a spreadsheet. */
  if (n_press == 2)
    g_signal_emit (self, signals[EDIT], 0, "");
}

static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                LatentKernelGrid      *self)
{
  const int n = (int) self->size;
  int i = (int) self->selected % MAX (n, 1), j = (int) self->selected / MAX (n, 1);
  gunichar c = gdk_keyval_to_unicode (keyval);

  if (n == 0 || (state & (GDK_CONTROL_MASK | GDK_ALT_MASK)) != 0)
    return FALSE;
  switch (keyval)
    {
    case GDK_KEY_Left: case GDK_KEY_KP_Left: i--; break;
    case GDK_KEY_Right: case GDK_KEY_KP_Right: i++; break;
    case GDK_KEY_Up: case GDK_KEY_KP_Up: j--; break;
    case GDK_KEY_Down: case GDK_KEY_KP_Down: j++; break;
    case GDK_KEY_Home: i = 0; break;
    case GDK_KEY_End: i = n - 1; break;
    case GDK_KEY_Return: case GDK_KEY_KP_Enter: case GDK_KEY_F2:
      g_signal_emit (self, signals[EDIT], 0, "");
      return TRUE;
    case GDK_KEY_Delete: case GDK_KEY_KP_Delete: case GDK_KEY_BackSpace:
      g_signal_emit (self, signals[CLEAR_WEIGHT], 0);
      return TRUE;
    default:
      /* Typing a number starts editing the weight with it. */
      if (c != 0 && strchr ("0123456789-+.,", (int) c) != NULL)
        {
          char text[2] = { (char) c, '\0' };

          g_signal_emit (self, signals[EDIT], 0, text);
          return TRUE;
        }
      return FALSE;
    }
  if (i < 0 || j < 0 || i >= n || j >= n)
    return TRUE;
  latent_kernel_grid_set_selected (self, (guint) (j * n + i));
  return TRUE;
}

static void
latent_kernel_grid_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  LatentKernelGrid *self = LATENT_KERNEL_GRID (object);

  switch (prop_id)
    {
    case PROP_SELECTED:
      g_value_set_uint (value, self->selected);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
latent_kernel_grid_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  LatentKernelGrid *self = LATENT_KERNEL_GRID (object);

  switch (prop_id)
    {
    case PROP_SELECTED:
      latent_kernel_grid_set_selected (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
latent_kernel_grid_finalize (GObject *object)
{
  LatentKernelGrid *self = LATENT_KERNEL_GRID (object);

  g_clear_pointer (&self->weights, g_array_unref);
  G_OBJECT_CLASS (latent_kernel_grid_parent_class)->finalize (object);
}

static void
latent_kernel_grid_class_init (LatentKernelGridClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = latent_kernel_grid_finalize;
  object_class->get_property = latent_kernel_grid_get_property;
  object_class->set_property = latent_kernel_grid_set_property;
  widget_class->snapshot = latent_kernel_grid_snapshot;
  widget_class->measure = latent_kernel_grid_measure;

  props[PROP_SELECTED] = g_param_spec_uint ("selected", NULL, NULL, 0, G_MAXUINT, 0,
                                            G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);

  signals[EDIT] = g_signal_new ("edit", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[CLEAR_WEIGHT] = g_signal_new ("clear-weight", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                        NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_css_name (widget_class, "kernelgrid");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GRID);
}

static void
latent_kernel_grid_init (LatentKernelGrid *self)
{
  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *keys = gtk_event_controller_key_new ();

  self->weights = g_array_new (FALSE, FALSE, sizeof (double));
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);
  g_signal_connect (click, "pressed", G_CALLBACK (on_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);
  /* The ring thickens with focus. */
  g_signal_connect (self, "notify::has-focus", G_CALLBACK (gtk_widget_queue_draw), NULL);
}

GtkWidget *
latent_kernel_grid_new (void)
{
  return g_object_new (LATENT_TYPE_KERNEL_GRID, NULL);
}
