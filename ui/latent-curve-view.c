/* latent-curve-view.c — the objective of every iteration as a small plot
 *
 * The drawing is the figures' (latent_figure_strip_draw ()); this widget
 * keeps the values, follows the pointer for the value under it, and hides
 * while there is no curve: a one-shot method or a single step leave one
 * value, which a plot would only surround with an invented range.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-curve-view"

#include "latent-curve-view.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "latent-figure.h"

/* Smaller than the figure's: the strip is a side note. */
#define FONT_SIZE 11.0

struct _LatentCurveView
{
  GtkWidget  parent_instance;

  char      *name;
  GArray    *values;    /* doubles; values[i] belongs to iteration first + i */
  guint      first;     /* 0 once the initialisation's value is known, else 1 */
  guint      marker;
  gint64     hover;     /* index of the value under the pointer, −1 for none */
  double     pointer_x, pointer_y;
  gboolean   pointer_in;
  gboolean   dark;
};

G_DEFINE_FINAL_TYPE (LatentCurveView, latent_curve_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_DARK,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static void
get_strip (LatentCurveView   *self,
           LatentFigureStrip *strip)
{
  strip->values = (const double *) self->values->data;
  strip->n = self->values->len;
  strip->first = self->first;
  strip->name = self->name;
  /* Scrubbed back to the initialisation, whose value some models do not
   * have, the strip still marks it. */
  strip->marker = self->marker;
  strip->hover = self->hover;
}

static void
get_style (LatentCurveView   *self,
           LatentFigureStyle *style)
{
  latent_figure_style_init (style);
  style->font_size = FONT_SIZE;
  style->dark = self->dark;
}

static void
latent_curve_view_snapshot (GtkWidget   *widget,
                            GtkSnapshot *snapshot)
{
  LatentCurveView *self = LATENT_CURVE_VIEW (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  LatentFigureStrip strip;
  LatentFigureStyle style;

  get_strip (self, &strip);
  get_style (self, &style);
  latent_figure_strip_draw (&strip, &style, cr, width, height);
  cairo_destroy (cr);
}

static guint
count_finite (LatentCurveView *self)
{
  guint n = 0;

  for (guint i = 0; i < self->values->len; i++)
    n += isfinite (g_array_index (self->values, double, i));
  return n;
}

/* What the curve shows, in words, for people who do not see it. */
static void
describe (LatentCurveView *self)
{
  guint n = self->values->len;
  gboolean rising = TRUE, falling = TRUE;
  g_autofree char *text = NULL;
  g_autofree char *shown = NULL;
  LatentFigureStrip strip;
  double last = NAN;

  for (guint i = 0; i < n; i++)
    {
      double v = g_array_index (self->values, double, i);

      if (!isfinite (v))
        continue;
      if (isfinite (last))
        {
          rising = rising && v >= last;
          falling = falling && v <= last;
        }
      last = v;
    }
  /* The iteration the figure shows, as the readout says it. */
  get_strip (self, &strip);
  strip.hover = -1;
  shown = latent_figure_strip_dup_readout (&strip);
  if (n == 0)
    text = g_strdup (_("No iterations yet"));
  else
    text = g_strdup_printf (_("%s: %g at iteration %u, %g at iteration %u; %s; shown: %s"),
                            self->name ? self->name : "",
                            g_array_index (self->values, double, 0), self->first,
                            g_array_index (self->values, double, n - 1), self->first + n - 1,
                            rising && falling ? _("unchanged")
                            : rising ? _("rises at every iteration")
                            : falling ? _("falls at every iteration") : _("goes up and down"),
                            shown ? shown : "");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

/* The pointer stays where it is while values arrive: the value under it
 * changes with the axis. */
static void
update_hover (LatentCurveView *self)
{
  gint64 hover = -1;

  if (self->pointer_in)
    {
      LatentFigureStrip strip;
      LatentFigureStyle style;

      get_strip (self, &strip);
      get_style (self, &style);
      hover = latent_figure_strip_pick (&strip, &style, gtk_widget_get_width (GTK_WIDGET (self)),
                                        gtk_widget_get_height (GTK_WIDGET (self)), self->pointer_x,
                                        self->pointer_y);
    }
  if (hover != self->hover)
    {
      self->hover = hover;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
changed (LatentCurveView *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self), count_finite (self) >= 2);
  describe (self);
  update_hover (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
latent_curve_view_clear (LatentCurveView *self,
                         const char      *name)
{
  g_return_if_fail (LATENT_IS_CURVE_VIEW (self));

  g_free (self->name);
  self->name = g_strdup (name);
  g_array_set_size (self->values, 0);
  self->first = 1;
  self->marker = 0;
  self->hover = -1;
  changed (self);
}

void
latent_curve_view_set_initial (LatentCurveView *self,
                               double           value)
{
  g_return_if_fail (LATENT_IS_CURVE_VIEW (self));

  /* Some models have no value before their first step. */
  if (!isfinite (value))
    return;
  if (self->first == 0)
    g_array_index (self->values, double, 0) = value;
  else
    {
      g_array_prepend_val (self->values, value);
      self->first = 0;
    }
  changed (self);
}

void
latent_curve_view_append (LatentCurveView *self,
                          double           value)
{
  g_return_if_fail (LATENT_IS_CURVE_VIEW (self));

  g_array_append_val (self->values, value);
  changed (self);
}

void
latent_curve_view_set_marker (LatentCurveView *self,
                              guint            iteration)
{
  g_return_if_fail (LATENT_IS_CURVE_VIEW (self));

  if (self->marker != iteration)
    {
      self->marker = iteration;
      describe (self);
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

void
latent_curve_view_truncate (LatentCurveView *self,
                            guint            iteration)
{
  g_return_if_fail (LATENT_IS_CURVE_VIEW (self));

  if (iteration + 1 < self->first)
    g_array_set_size (self->values, 0);
  else if (iteration + 1 - self->first < self->values->len)
    g_array_set_size (self->values, iteration + 1 - self->first);
  self->hover = -1;
  changed (self);
}

void
latent_curve_view_set_dark (LatentCurveView *self,
                            gboolean         dark)
{
  g_return_if_fail (LATENT_IS_CURVE_VIEW (self));

  dark = !!dark;
  if (self->dark == dark)
    return;
  self->dark = dark;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_DARK]);
}

static void
on_motion (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           LatentCurveView          *self)
{
  self->pointer_in = TRUE;
  self->pointer_x = x;
  self->pointer_y = y;
  update_hover (self);
}

static void
on_leave (GtkEventControllerMotion *controller,
          LatentCurveView          *self)
{
  self->pointer_in = FALSE;
  update_hover (self);
}

static void
latent_curve_view_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  LatentCurveView *self = LATENT_CURVE_VIEW (object);

  switch (prop_id)
    {
    case PROP_DARK:
      g_value_set_boolean (value, self->dark);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
latent_curve_view_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  LatentCurveView *self = LATENT_CURVE_VIEW (object);

  switch (prop_id)
    {
    case PROP_DARK:
      latent_curve_view_set_dark (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
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
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = latent_curve_view_get_property;
  object_class->set_property = latent_curve_view_set_property;
  object_class->finalize = latent_curve_view_finalize;
  widget_class->snapshot = latent_curve_view_snapshot;
  gtk_widget_class_set_css_name (widget_class, "latentcurveview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);

  /* Dark like the figures; the window binds it to the style's. */
  props[PROP_DARK] = g_param_spec_boolean ("dark", NULL, NULL, FALSE,
                                           G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
latent_curve_view_init (LatentCurveView *self)
{
  GtkEventController *motion = gtk_event_controller_motion_new ();

  self->values = g_array_new (FALSE, FALSE, sizeof (double));
  self->first = 1;
  self->hover = -1;
  gtk_widget_set_size_request (GTK_WIDGET (self), -1, 120);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  /* No curve yet. */
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);

  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
}

GtkWidget *
latent_curve_view_new (void)
{
  return g_object_new (LATENT_TYPE_CURVE_VIEW, NULL);
}
