/* latent-curve-view.c — the objective of every iteration as a line
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-curve-view"

#include "latent-curve-view.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "latent-palette.h"

struct _LatentCurveView
{
  GtkWidget  parent_instance;

  char      *name;
  GArray    *values;    /* doubles; values[i] belongs to iteration i + 1 */
  guint      marker;
  gboolean   rising;    /* every value so far ≥ the one before */
  gboolean   falling;   /* every value so far ≤ the one before */
};

G_DEFINE_FINAL_TYPE (LatentCurveView, latent_curve_view, GTK_TYPE_WIDGET)

/* Shows TEXT at (X, Y) and frees it. */
static void
show_text (cairo_t *cr,
           double   x,
           double   y,
           char    *text)
{
  cairo_move_to (cr, x, y);
  cairo_show_text (cr, text);
  g_free (text);
}

static void
draw (LatentCurveView *self,
      cairo_t         *cr,
      int              width,
      int              height)
{
  const double left = 64, right = 12, top = 22, bottom = 20;
  const double w = width - left - right, h = height - top - bottom;
  double lo = INFINITY, hi = -INFINITY, r, g, b;
  guint n = self->values->len;
  g_autofree char *title = NULL;   /* allocated: a translation may be longer than any fixed buffer */

  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, 11);
  cairo_set_source_rgb (cr, 0.25, 0.25, 0.28);
  title = g_strconcat (self->name ? self->name : "", n ? "" : _(" — press Run to start"), NULL);
  cairo_move_to (cr, left, 14);
  cairo_show_text (cr, title);
  if (n == 0 || w < 10 || h < 10)
    return;

  for (guint i = 0; i < n; i++)
    {
      double v = g_array_index (self->values, double, i);
      if (isfinite (v))
        {
          lo = MIN (lo, v);
          hi = MAX (hi, v);
        }
    }
  if (!isfinite (lo))
    return;
  if (!(hi > lo))
    {
      hi += fabs (hi) * 0.01 + 1e-9;
      lo -= fabs (lo) * 0.01 + 1e-9;
    }

  /* Axes: the last value and the range, as numbers a person can read. */
  cairo_set_source_rgb (cr, 0.8, 0.8, 0.82);
  cairo_rectangle (cr, left - 0.5, top - 0.5, w + 1, h + 1);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);
  cairo_set_source_rgb (cr, 0.35, 0.35, 0.38);
  show_text (cr, 4, top + 9, g_strdup_printf ("%.6g", hi));
  show_text (cr, 4, top + h, g_strdup_printf ("%.6g", lo));
  show_text (cr, left + w - 20, top + h + 14, g_strdup_printf ("%u", n));
  show_text (cr, left + w * 0.45, 14,
             g_strdup_printf (_("last %.8g"), g_array_index (self->values, double, n - 1)));

  latent_palette_color (0, &r, &g, &b);
  cairo_set_source_rgb (cr, r, g, b);
  cairo_set_line_width (cr, 1.8);
  cairo_new_path (cr);
  for (guint i = 0; i < n; i++)
    {
      double v = g_array_index (self->values, double, i);
      double x = left + (n > 1 ? (double) i / (n - 1) : 0.5) * w;
      double y = top + (hi - v) / (hi - lo) * h;

      if (isfinite (v))
        cairo_line_to (cr, x, y);
    }
  cairo_stroke (cr);

  if (self->marker >= 1 && self->marker <= n)
    {
      double x = left + (n > 1 ? (double) (self->marker - 1) / (n - 1) : 0.5) * w;
      cairo_set_source_rgba (cr, 0.1, 0.1, 0.1, 0.5);
      cairo_move_to (cr, round (x) + 0.5, top);
      cairo_line_to (cr, round (x) + 0.5, top + h);
      cairo_stroke (cr);
    }
}

static void
latent_curve_view_snapshot (GtkWidget   *widget,
                            GtkSnapshot *snapshot)
{
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));

  draw (LATENT_CURVE_VIEW (widget), cr, width, height);
  cairo_destroy (cr);
}

/* What the curve shows, in words, for people who do not see it. */
static void
describe (LatentCurveView *self)
{
  guint n = self->values->len;
  g_autofree char *text = NULL;

  if (n == 0)
    text = g_strdup (_("No iterations yet"));
  else
    text = g_strdup_printf (_("%s: %g at iteration 1, %g at iteration %u; %s"), self->name ? self->name : "",
                            g_array_index (self->values, double, 0), g_array_index (self->values, double, n - 1),
                            n, self->rising && self->falling ? _("unchanged")
                               : self->rising ? _("rises at every iteration")
                               : self->falling ? _("falls at every iteration") : _("goes up and down"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

void
latent_curve_view_clear (LatentCurveView *self,
                         const char      *name)
{
  g_return_if_fail (LATENT_IS_CURVE_VIEW (self));

  g_free (self->name);
  self->name = g_strdup (name);
  g_array_set_size (self->values, 0);
  self->marker = 0;
  self->rising = self->falling = TRUE;
  describe (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
latent_curve_view_append (LatentCurveView *self,
                          double           value)
{
  g_return_if_fail (LATENT_IS_CURVE_VIEW (self));

  if (self->values->len > 0)
    {
      double last = g_array_index (self->values, double, self->values->len - 1);
      self->rising = self->rising && value >= last;
      self->falling = self->falling && value <= last;
    }
  g_array_append_val (self->values, value);
  describe (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
latent_curve_view_set_marker (LatentCurveView *self,
                              guint            iteration)
{
  g_return_if_fail (LATENT_IS_CURVE_VIEW (self));

  if (self->marker != iteration)
    {
      self->marker = iteration;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
latent_curve_view_finalize (GObject *object)
{
  LatentCurveView *self = LATENT_CURVE_VIEW (object);

  g_free (self->name);
  g_array_unref (self->values);
  G_OBJECT_CLASS (latent_curve_view_parent_class)->finalize (object);
}

static void
latent_curve_view_class_init (LatentCurveViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = latent_curve_view_finalize;
  widget_class->snapshot = latent_curve_view_snapshot;
  gtk_widget_class_set_css_name (widget_class, "latentcurveview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
latent_curve_view_init (LatentCurveView *self)
{
  self->values = g_array_new (FALSE, FALSE, sizeof (double));
  gtk_widget_set_size_request (GTK_WIDGET (self), -1, 120);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
}

GtkWidget *
latent_curve_view_new (void)
{
  return g_object_new (LATENT_TYPE_CURVE_VIEW, NULL);
}
