/* latent-figure-view.c — the live figure of a run, with zoom, pan and hover
 *
 * Drawing is the same Cairo renderer the CLI and the export use. A new
 * snapshot only queues a draw, so however fast the worker publishes, the
 * view draws at most once per frame.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-figure-view"

#include "latent-figure-view.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#define TRAIL_LENGTH 40

struct _LatentFigureView
{
  GtkWidget       parent_instance;

  LatentSnapshot *snapshot;
  LatentFigureKind kind;
  GArray         *trail;        /* floats: earlier means, TRAIL_LENGTH at most */
  guint           n_trail;
  guint           last_iteration;

  gboolean        dark;
  gboolean        has_view;     /* zoomed or panned */
  double          view[4];
  double          drag_view[4];
};

G_DEFINE_FINAL_TYPE (LatentFigureView, latent_figure_view, GTK_TYPE_WIDGET)

G_DEFINE_ENUM_TYPE (LatentFigureKind, latent_figure_kind,
  G_DEFINE_ENUM_VALUE (LATENT_FIGURE_AUTO, "auto"),
  G_DEFINE_ENUM_VALUE (LATENT_FIGURE_SCATTER, "scatter"),
  G_DEFINE_ENUM_VALUE (LATENT_FIGURE_IMAGES, "images"),
  G_DEFINE_ENUM_VALUE (LATENT_FIGURE_SCREE, "scree"),
  G_DEFINE_ENUM_VALUE (LATENT_FIGURE_COMPONENTS, "components"),
  G_DEFINE_ENUM_VALUE (LATENT_FIGURE_BIPLOT, "biplot"),
  G_DEFINE_ENUM_VALUE (LATENT_FIGURE_RECONSTRUCTIONS, "reconstructions"),
  G_DEFINE_ENUM_VALUE (LATENT_FIGURE_SAMPLES, "samples"),
  G_DEFINE_ENUM_VALUE (LATENT_FIGURE_DOTS, "dots"))

enum {
  PROP_0,
  PROP_KIND,
  PROP_SNAPSHOT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

void
latent_figure_view_get_style (LatentFigureView  *self,
                              LatentFigureStyle *style)
{
  g_return_if_fail (LATENT_IS_FIGURE_VIEW (self));

  latent_figure_style_init (style);
  style->pixel_scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  style->dark = self->dark;
  style->has_view = self->has_view;
  memcpy (style->view, self->view, sizeof style->view);
  style->trail = self->n_trail ? (const float *) self->trail->data : NULL;
  style->n_trail = self->n_trail;
}

static void
latent_figure_view_snapshot (GtkWidget   *widget,
                             GtkSnapshot *snapshot)
{
  LatentFigureView *self = LATENT_FIGURE_VIEW (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  LatentFigureStyle style;
  cairo_t *cr;

  if (self->snapshot == NULL || width < 16 || height < 16)
    return;
  latent_figure_view_get_style (self, &style);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  latent_figure_render (self->snapshot, self->kind, &style, cr, width, height);
  cairo_destroy (cr);
}

/* Figures laid out as the scatter: zoom, pan and hover work on them. */
static gboolean
is_scatter (LatentFigureView *self)
{
  LatentFigureKind shown = latent_figure_view_get_shown_kind (self);

  return self->snapshot && (shown == LATENT_FIGURE_SCATTER || shown == LATENT_FIGURE_BIPLOT);
}

/* Figure position → data coordinates, for the window now shown. */
static gboolean
to_data (LatentFigureView *self,
         double            fx,
         double            fy,
         double           *x,
         double           *y,
         double           *view)
{
  LatentFigureStyle style;
  double plot[4];

  latent_figure_view_get_style (self, &style);
  if (!latent_figure_scatter_bounds (self->snapshot, &style, gtk_widget_get_width (GTK_WIDGET (self)),
                                     gtk_widget_get_height (GTK_WIDGET (self)), view, plot) ||
      plot[2] <= 0 || plot[3] <= 0)
    return FALSE;
  *x = view[0] + (fx - plot[0]) / plot[2] * (view[1] - view[0]);
  *y = view[3] - (fy - plot[1]) / plot[3] * (view[3] - view[2]);
  return TRUE;
}

static gboolean
on_scroll (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           LatentFigureView         *self)
{
  double px, py, x, y, view[4], factor = pow (1.2, dy);
  GdkEvent *event;

  if (!is_scatter (self))
    return FALSE;
  event = gtk_event_controller_get_current_event (GTK_EVENT_CONTROLLER (controller));
  if (!gdk_event_get_position (event, &px, &py))
    return FALSE;
  if (!to_data (self, px, py, &x, &y, view))
    return FALSE;

  /* Zoom about the pointer: the point under it stays under it. */
  self->view[0] = x - (x - view[0]) * factor;
  self->view[1] = x + (view[1] - x) * factor;
  self->view[2] = y - (y - view[2]) * factor;
  self->view[3] = y + (view[3] - y) * factor;
  self->has_view = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return TRUE;
}

static void
on_drag_begin (GtkGestureDrag   *gesture,
               double            x,
               double            y,
               LatentFigureView *self)
{
  double dx, dy;

  if (!is_scatter (self) || !to_data (self, x, y, &dx, &dy, self->drag_view))
    gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
}

static void
on_drag_update (GtkGestureDrag   *gesture,
                double            offset_x,
                double            offset_y,
                LatentFigureView *self)
{
  LatentFigureStyle style;
  double plot[4], view[4];

  latent_figure_view_get_style (self, &style);
  if (!latent_figure_scatter_bounds (self->snapshot, &style, gtk_widget_get_width (GTK_WIDGET (self)),
                                     gtk_widget_get_height (GTK_WIDGET (self)), view, plot))
    return;
  {
    double sx = (self->drag_view[1] - self->drag_view[0]) / plot[2];
    double sy = (self->drag_view[3] - self->drag_view[2]) / plot[3];

    self->view[0] = self->drag_view[0] - offset_x * sx;
    self->view[1] = self->drag_view[1] - offset_x * sx;
    self->view[2] = self->drag_view[2] + offset_y * sy;
    self->view[3] = self->drag_view[3] + offset_y * sy;
  }
  self->has_view = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_double_click (GtkGestureClick  *gesture,
                 int               n_press,
                 double            x,
                 double            y,
                 LatentFigureView *self)
{
  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (n_press == 2 && self->has_view)
    {
      self->has_view = FALSE;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static gboolean
latent_figure_view_query_tooltip (GtkWidget  *widget,
                                  int         x,
                                  int         y,
                                  gboolean    keyboard,
                                  GtkTooltip *tooltip)
{
  LatentFigureView *self = LATENT_FIGURE_VIEW (widget);
  LatentFigureStyle style;
  LatentDataset *ds;
  g_autoptr(GString) text = NULL;
  gint64 row;

  if (keyboard || !is_scatter (self))
    return FALSE;
  latent_figure_view_get_style (self, &style);
  row = latent_figure_scatter_pick (self->snapshot, &style, gtk_widget_get_width (widget),
                                    gtk_widget_get_height (widget), x, y, 6.0);
  if (row < 0)
    return FALSE;

  ds = self->snapshot->dataset;
  text = g_string_new (NULL);
  g_string_append_printf (text, _("Row %u"), (guint) (row + 1));
  if (latent_dataset_has_labels (ds))
    {
      guint klass = latent_dataset_get_labels (ds)[row];
      const char *name = latent_dataset_get_class_name (ds, klass);

      if (name)
        g_string_append_printf (text, _(" · label %s"), name);
      else
        g_string_append_printf (text, _(" · label %u"), klass);
    }
  if (self->snapshot->labels && (guint64) row < self->snapshot->n_rows)
    g_string_append_printf (text, _(" · cluster %d"), self->snapshot->labels[row] + 1);
  /* Where the row sits in the model's latent space, as plotted. */
  if (self->snapshot->components && self->snapshot->projection && self->snapshot->projection_dims >= 2
      && self->snapshot->n_rows == latent_dataset_get_n_rows (ds) && (guint64) row < self->snapshot->n_rows)
    {
      const float *z = self->snapshot->projection + (gsize) row * self->snapshot->projection_dims;

      g_string_append_printf (text, " · (%.3g, %.3g)", z[0], z[1]);
    }
  gtk_tooltip_set_text (tooltip, text->str);
  return TRUE;
}

void
latent_figure_view_set_snapshot (LatentFigureView *self,
                                 LatentSnapshot   *snapshot)
{
  g_return_if_fail (LATENT_IS_FIGURE_VIEW (self));

  if (snapshot == self->snapshot)
    return;

  /* Only moving forward extends the trail; scrubbing back replaces it. */
  if (snapshot && self->snapshot && snapshot->means && self->snapshot->means &&
      snapshot->k == self->snapshot->k && snapshot->n_cols == self->snapshot->n_cols &&
      snapshot->iteration > self->last_iteration)
    {
      gsize size = (gsize) snapshot->k * snapshot->n_cols;

      g_array_append_vals (self->trail, self->snapshot->means, size);
      self->n_trail++;
      if (self->n_trail > TRAIL_LENGTH)
        {
          g_array_remove_range (self->trail, 0, size);
          self->n_trail--;
        }
    }
  else
    {
      g_array_set_size (self->trail, 0);
      self->n_trail = 0;
    }

  g_clear_pointer (&self->snapshot, latent_snapshot_unref);
  self->snapshot = snapshot ? latent_snapshot_ref (snapshot) : NULL;
  self->last_iteration = snapshot ? snapshot->iteration : 0;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SNAPSHOT]);
}

void
latent_figure_view_set_kind (LatentFigureView *self,
                             LatentFigureKind  kind)
{
  g_return_if_fail (LATENT_IS_FIGURE_VIEW (self));
  g_return_if_fail (kind < LATENT_FIGURE_N_KINDS);

  if (kind == self->kind)
    return;
  self->kind = kind;
  self->has_view = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_KIND]);
}

LatentFigureKind
latent_figure_view_get_kind (LatentFigureView *self)
{
  g_return_val_if_fail (LATENT_IS_FIGURE_VIEW (self), LATENT_FIGURE_AUTO);
  return self->kind;
}

LatentFigureKind
latent_figure_view_get_shown_kind (LatentFigureView *self)
{
  g_return_val_if_fail (LATENT_IS_FIGURE_VIEW (self), LATENT_FIGURE_AUTO);
  if (self->snapshot == NULL)
    return self->kind;
  return latent_figure_resolve_kind (self->snapshot, self->kind);
}

void
latent_figure_view_set_dark (LatentFigureView *self,
                             gboolean          dark)
{
  g_return_if_fail (LATENT_IS_FIGURE_VIEW (self));

  self->dark = !!dark;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

LatentSnapshot *
latent_figure_view_get_snapshot (LatentFigureView *self)
{
  g_return_val_if_fail (LATENT_IS_FIGURE_VIEW (self), NULL);
  return self->snapshot;
}

void
latent_figure_view_reset (LatentFigureView *self)
{
  g_return_if_fail (LATENT_IS_FIGURE_VIEW (self));

  g_array_set_size (self->trail, 0);
  self->n_trail = 0;
  self->has_view = FALSE;
  g_clear_pointer (&self->snapshot, latent_snapshot_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SNAPSHOT]);
}

static void
latent_figure_view_dispose (GObject *object)
{
  LatentFigureView *self = LATENT_FIGURE_VIEW (object);

  g_clear_pointer (&self->snapshot, latent_snapshot_unref);
  g_clear_pointer (&self->trail, g_array_unref);
  G_OBJECT_CLASS (latent_figure_view_parent_class)->dispose (object);
}

static void
latent_figure_view_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  LatentFigureView *self = LATENT_FIGURE_VIEW (object);

  switch (prop_id)
    {
    case PROP_KIND:
      g_value_set_enum (value, self->kind);
      break;
    case PROP_SNAPSHOT:
      g_value_set_pointer (value, self->snapshot);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
latent_figure_view_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  LatentFigureView *self = LATENT_FIGURE_VIEW (object);

  switch (prop_id)
    {
    case PROP_KIND:
      latent_figure_view_set_kind (self, g_value_get_enum (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
latent_figure_view_class_init (LatentFigureViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = latent_figure_view_dispose;
  object_class->get_property = latent_figure_view_get_property;
  object_class->set_property = latent_figure_view_set_property;

  properties[PROP_KIND] =
    g_param_spec_enum ("kind", NULL, NULL, LATENT_TYPE_FIGURE_KIND, LATENT_FIGURE_AUTO,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* The LatentSnapshot shown, or NULL; notified with each new one. */
  properties[PROP_SNAPSHOT] =
    g_param_spec_pointer ("snapshot", NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  widget_class->snapshot = latent_figure_view_snapshot;
  widget_class->query_tooltip = latent_figure_view_query_tooltip;
  gtk_widget_class_set_css_name (widget_class, "latentfigureview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
latent_figure_view_init (LatentFigureView *self)
{
  GtkEventController *scroll;
  GtkGesture *drag, *click;

  self->trail = g_array_new (FALSE, FALSE, sizeof (float));
  /* Focusable, so the run's keys work without a text field taking them. */
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);

  scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);

  drag = gtk_gesture_drag_new ();
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  click = gtk_gesture_click_new ();
  g_signal_connect (click, "pressed", G_CALLBACK (on_double_click), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
}

GtkWidget *
latent_figure_view_new (void)
{
  return g_object_new (LATENT_TYPE_FIGURE_VIEW, NULL);
}
