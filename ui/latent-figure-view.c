/* latent-figure-view.c — the live figure of a run, with zoom, pan and hover
 *
 * Drawing is the same Cairo renderer the CLI and the export use. A new
 * snapshot only queues a draw, so however fast the worker publishes, the
 * view draws at most once per frame. The scatter zooms in data
 * coordinates; the filter figure in the image's pixels, with a split line
 * that drags. Both zoom with the wheel about the pointer, and, when the
 * figure has the keyboard, with + and − about the centre; the arrows pan
 * and 0 shows everything. The accessible description says which part is
 * shown, so a person who cannot see the figure knows where the zoom went.
 * Hovering a point of the scatter names its row; a cell of a classifier's
 * confusion matrix, its count and some of its test images. A scatter of
 * more points than pixels is a density, binned on a worker thread and kept
 * between draws.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-figure-view"

#include "latent-figure-view.h"
#include "latent-family.h"
#include "latent-ui-util.h"

#include <glib/gi18n-lib.h>
#include <math.h>

/* Closer than this to the split line, a drag moves the line. */
#define SPLIT_GRAB 12.0
/* The filter figure zooms in until an image pixel is this many figure units. */
#define MAX_PIXEL_SIZE 64.0
/* One notch of the wheel, one press of + or −, one press of an arrow (a
 * share of the window shown). */
#define WHEEL_ZOOM 1.2
#define KEY_ZOOM 1.5
#define KEY_PAN 0.1
/* Tiles are magnified up to this: a 10 px tile to 160. */
#define TILES_MAX_MAGNIFY 16.0

typedef enum {
  DRAG_NONE,
  DRAG_PAN,
  DRAG_SPLIT,
  DRAG_LASSO,
} DragMode;

/* Selected rows past this many are not ringed one by one: a ring per
 * point would cover the figure. */
#define MAX_RINGED 20000

struct _LatentFigureView
{
  GtkWidget       parent_instance;

  LatentSnapshot *snapshot;
  LatentFigureKind kind;
  GArray         *trail;        /* floats: earlier means, LATENT_FIGURE_TRAIL_LENGTH at most */
  guint           n_trail;

  gboolean        dark;
  gboolean        colour_by_class;
  guint           axis_columns[2];
  gboolean        has_view;     /* zoomed or panned */
  double          view[4];
  double          drag_view[4];

  /* GTK 4 scroll events carry no position: the wheel zooms about where
   * the motion controller last saw the pointer. */
  gboolean        has_pointer;
  double          pointer_x;
  double          pointer_y;
  char           *description;  /* the accessible description last set */
  char           *placeholder;  /* said in the middle while there is no figure */
  GtkBitset      *selected;     /* the rows selected here or in the data table */
  GArray         *lasso;        /* double x, y pairs while Shift-dragging */
  gint64          hover_row;    /* the scatter's row under the pointer, ringed; -1 for none */
  GtkWidget      *enlarged;     /* a tile clicked, large in a popover; NULL */
  guint           enlarge_source; /* waits out a double-click before it opens */
  double          click_x, click_y;
  cairo_surface_t *placeholder_image; /* shown under it, faded */
  LatentDataset  *placeholder_photo;  /* whose image that is */

  /* The filter figure: where the split is, what a drag moves, and the
   * images as surfaces, made once for each dataset and snapshot. */
  double          split;
  DragMode        drag_mode;
  double          drag_x, drag_y;
  cairo_surface_t *before;
  LatentDataset  *before_dataset;
  cairo_surface_t *after;
  LatentSnapshot *after_snapshot; /* not a reference: only compared */

  /* A scatter of more points than pixels, as a density: binned on a
   * worker thread (one task at a time, its end asks for a draw) and kept,
   * so a redraw only paints it; until a fitting one comes, the last one
   * stands in, stretched to the window shown. */
  cairo_surface_t *density;
  GCancellable    *density_cancel;  /* while a task bins */
};

G_DEFINE_FINAL_TYPE (LatentFigureView, latent_figure_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_KIND,
  PROP_SNAPSHOT,
  PROP_SPLIT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum { ROWS_SELECTED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* The filter figure is on screen: the images, not the scatter, zoom. */
static gboolean
is_filter (LatentFigureView *self)
{
  return self->snapshot && latent_figure_view_get_shown_kind (self) == LATENT_FIGURE_FILTER;
}

/* Figures laid out as the scatter: zoom, pan and hover work on them. */
static gboolean
is_scatter (LatentFigureView *self)
{
  LatentFigureKind shown = latent_figure_view_get_shown_kind (self);

  return self->snapshot && (shown == LATENT_FIGURE_SCATTER || shown == LATENT_FIGURE_BIPLOT);
}

static void view_changed (LatentFigureView *self);

/* Figures of tiles: zoomed as a picture, magnified about the pointer;
 * view[] is then the window of the figure shown, in its own pixels (x0,
 * x1, y0, y1, y down). */
static gboolean
is_tiles (LatentFigureView *self)
{
  switch (self->snapshot ? latent_figure_view_get_shown_kind (self) : LATENT_FIGURE_AUTO)
    {
    case LATENT_FIGURE_IMAGES:
    case LATENT_FIGURE_COMPONENTS:
    case LATENT_FIGURE_WEIGHTS:
    case LATENT_FIGURE_WINNERS:
    case LATENT_FIGURE_PROTOTYPES:
    case LATENT_FIGURE_UNITS:
      return TRUE;
    default:
      return FALSE;
    }
}

/* Widget position → position in the unmagnified figure. */
static void
tiles_to_figure (LatentFigureView *self,
                 double            x,
                 double            y,
                 double           *fx,
                 double           *fy)
{
  const double m = self->has_view ? gtk_widget_get_width (GTK_WIDGET (self)) / (self->view[1] - self->view[0]) : 1.0;

  *fx = self->has_view ? self->view[0] + x / m : x;
  *fy = self->has_view ? self->view[2] + y / m : y;
}

/* The window @span wide with its top left at (@x0, @y0), kept inside the
 * figure; the whole figure again when it is that wide. */
static void
set_tiles_window (LatentFigureView *self,
                  double            x0,
                  double            y0,
                  double            span)
{
  const double w = gtk_widget_get_width (GTK_WIDGET (self)), h = gtk_widget_get_height (GTK_WIDGET (self));
  const double tall = span * h / w;

  if (span >= w - 0.5)
    {
      self->has_view = FALSE;
      view_changed (self);
      return;
    }
  span = MAX (span, w / TILES_MAX_MAGNIFY);
  x0 = CLAMP (x0, 0.0, w - span);
  y0 = CLAMP (y0, 0.0, h - span * h / w);
  self->view[0] = x0;
  self->view[1] = x0 + span;
  self->view[2] = y0;
  self->view[3] = y0 + tall;
  self->has_view = TRUE;
  view_changed (self);
}

static void
tiles_zoom (LatentFigureView *self,
            double            px,
            double            py,
            double            factor)
{
  const double w = gtk_widget_get_width (GTK_WIDGET (self));
  const double span = (self->has_view ? self->view[1] - self->view[0] : w) * factor;
  double fx, fy;

  tiles_to_figure (self, px, py, &fx, &fy);
  /* The point under the pointer stays under it. */
  set_tiles_window (self, fx - px * span / w, fy - py * span / w, span);
}

/* How the figure is zoomed, in words; NULL for figures that do not zoom. */
static const char *
keys_hint (LatentFigureView *self)
{
  if (is_filter (self))
    return _("Scroll or press + and − to zoom, 1 for actual pixels, drag or press the arrow keys "
             "to pan, 0 or a double-click to see the whole image.");
  if (is_scatter (self))
    return _("Scroll or press + and − to zoom, drag or press the arrow keys to pan, "
             "0 or a double-click to see all the data.");
  if (is_tiles (self))
    return _("Scroll or press + and − to magnify the tiles, drag or press the arrow keys to pan, "
             "0 or a double-click to see them all; a tile's tooltip shows it large.");
  return NULL;
}

/* Enough decimals to tell the edges of a window this wide apart. */
static char *
format_coordinate (double value,
                   double width)
{
  int decimals = width > 0.0 ? CLAMP ((int) ceil (-log10 (width)) + 3, 0, 12) : 3;

  return g_strdup_printf ("%.*f", decimals, value);
}

/* TEXT (taken; NULL for none) as the accessible description. */
static void
set_description (LatentFigureView *self,
                 char             *text)
{
  if (g_strcmp0 (text, self->description) == 0)
    {
      g_free (text);
      return;
    }
  if (text != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
  else
    gtk_accessible_reset_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
  g_free (self->description);
  self->description = text;
}

/* The accessible description says how to zoom and what is shown now; it
 * changes only with the view or the kind of figure, and is set only when
 * its words change, as each setting is a message to the screen reader. */
static void
update_description (LatentFigureView *self)
{
  const char *hint = keys_hint (self);
  const double *v = self->view;
  g_autofree char *where = NULL;
  g_autofree char *selected = NULL;

  /* With no figure, what it waits for. */
  if (self->snapshot == NULL && self->placeholder != NULL)
    {
      set_description (self, g_strdup (self->placeholder));
      return;
    }
  if (hint == NULL)
    {
      set_description (self, NULL);
      return;
    }
  if (is_filter (self))
    {
      if (self->has_view)
        /* Translators: the part of the image the figure shows when zoomed,
         * in the image's pixels counted from 0 at the top left. */
        where = g_strdup_printf (_("Showing pixels %.0f to %.0f across and %.0f to %.0f down."),
                                 floor (v[0]), MAX (ceil (v[1]) - 1.0, floor (v[0])),
                                 floor (v[2]), MAX (ceil (v[3]) - 1.0, floor (v[2])));
      else
        where = g_strdup (_("Showing the whole image."));
    }
  else if (is_tiles (self))
    {
      if (self->has_view)
        /* Translators: how much the tiles are magnified, "Magnified 3.2 times." */
        where = g_strdup_printf (_("Magnified %.1f times."),
                                 gtk_widget_get_width (GTK_WIDGET (self)) / (v[1] - v[0]));
      else
        where = g_strdup (_("Showing every tile."));
    }
  else if (self->has_view)
    {
      g_autofree char *x0 = format_coordinate (v[0], v[1] - v[0]);
      g_autofree char *x1 = format_coordinate (v[1], v[1] - v[0]);
      g_autofree char *y0 = format_coordinate (v[2], v[3] - v[2]);
      g_autofree char *y1 = format_coordinate (v[3], v[3] - v[2]);

      /* Translators: the window of data coordinates the zoomed scatter shows. */
      where = g_strdup_printf (_("Showing x from %s to %s and y from %s to %s."), x0, x1, y0, y1);
    }
  else
    where = g_strdup (_("Showing all the data."));

  if (is_scatter (self) && self->selected != NULL && !gtk_bitset_is_empty (self->selected))
    {
      guint64 n = gtk_bitset_get_size (self->selected);

      /* Translators: rows selected in the data table or with the lasso, ringed in the scatter. */
      selected = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%lu row selected.", "%lu rows selected.", n),
                                  (unsigned long) n);
    }
  set_description (self, g_strdup_printf ("%s %s%s%s", hint, where, selected ? " " : "", selected ? selected : ""));
}

/* Zoom or pan changed what is shown. */
static void
view_changed (LatentFigureView *self)
{
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
clear_surfaces (LatentFigureView *self)
{
  g_clear_pointer (&self->before, cairo_surface_destroy);
  g_clear_object (&self->before_dataset);
  g_clear_pointer (&self->after, cairo_surface_destroy);
  self->after_snapshot = NULL;
}

/* Turning millions of pixels into a surface is the costly part of a draw:
 * once per dataset for the original, once per snapshot for the result. */
static void
update_surfaces (LatentFigureView *self)
{
  if (self->snapshot == NULL)
    {
      clear_surfaces (self);
      return;
    }
  if (self->before == NULL || self->before_dataset != self->snapshot->dataset)
    {
      g_clear_pointer (&self->before, cairo_surface_destroy);
      g_set_object (&self->before_dataset, self->snapshot->dataset);
      self->before = latent_figure_filter_surface (self->snapshot, FALSE);
    }
  if (self->after == NULL || self->after_snapshot != self->snapshot)
    {
      g_clear_pointer (&self->after, cairo_surface_destroy);
      self->after_snapshot = self->snapshot;
      self->after = latent_figure_filter_surface (self->snapshot, TRUE);
    }
}

void
latent_figure_view_get_style (LatentFigureView  *self,
                              LatentFigureStyle *style)
{
  g_return_if_fail (LATENT_IS_FIGURE_VIEW (self));

  latent_figure_style_init (style);
  style->pixel_scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  style->dark = self->dark;
  style->colour_by_class = self->colour_by_class;
  memcpy (style->axis_columns, self->axis_columns, sizeof style->axis_columns);
  style->has_view = self->has_view;
  memcpy (style->view, self->view, sizeof style->view);
  style->trail = self->n_trail ? (const float *) self->trail->data : NULL;
  style->n_trail = self->n_trail;
  style->split = self->split;
  if (is_scatter (self) && latent_figure_view_get_shown_kind (self) == LATENT_FIGURE_SCATTER)
    {
      style->density = self->density;
      style->density_later = TRUE;
    }
  if (is_filter (self))
    {
      update_surfaces (self);
      style->before = self->before;
      style->after = self->after;
    }
}

/* The placeholder in grey, centred: a start of many rounds takes seconds,
 * and a blank figure looks stuck. */
static void
draw_placeholder (LatentFigureView *self,
                  GtkSnapshot      *snapshot,
                  int               width,
                  int               height)
{
  const float grey = self->dark ? 0.62f : 0.45f;
  const GdkRGBA colour = { grey, grey, grey, 1.0f };
  g_autoptr(PangoLayout) layout = NULL;
  PangoAttrList *attrs;
  int text_height;

  if (self->placeholder == NULL)
    return;
  if (self->placeholder_image != NULL)
    {
      const int iw = cairo_image_surface_get_width (self->placeholder_image);
      const int ih = cairo_image_surface_get_height (self->placeholder_image);
      const double scale = MIN ((double) width / iw, (double) height / ih);
      const double r = self->dark ? 0.14 : 0.98;
      cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));

      /* The image as it is, faded behind the words so both read. */
      cairo_translate (cr, (width - iw * scale) / 2, (height - ih * scale) / 2);
      cairo_scale (cr, scale, scale);
      cairo_set_source_surface (cr, self->placeholder_image, 0, 0);
      cairo_paint (cr);
      cairo_identity_matrix (cr);
      cairo_set_source_rgba (cr, r, r, r, 0.6);
      cairo_paint (cr);
      cairo_destroy (cr);
    }
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), self->placeholder);
  attrs = pango_attr_list_new ();
  pango_attr_list_insert (attrs, pango_attr_scale_new (1.4));
  pango_layout_set_attributes (layout, attrs);
  pango_attr_list_unref (attrs);
  pango_layout_set_alignment (layout, PANGO_ALIGN_CENTER);
  pango_layout_set_width (layout, (width - 32) * PANGO_SCALE);
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_get_pixel_size (layout, NULL, &text_height);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (16, (height - text_height) / 2.0f));
  gtk_snapshot_append_layout (snapshot, layout, &colour);
  gtk_snapshot_restore (snapshot);
}

typedef struct {
  LatentSnapshot   *snapshot;
  LatentFigureStyle style;
  int               width, height;
} DensityJob;

static void
density_job_free (gpointer data)
{
  DensityJob *job = data;

  latent_snapshot_unref (job->snapshot);
  g_clear_pointer (&job->style.density, cairo_surface_destroy);
  g_free (job);
}

static void
density_thread (GTask        *task,
                gpointer      source,
                gpointer      data,
                GCancellable *cancellable)
{
  DensityJob *job = data;

  g_task_return_pointer (task, latent_figure_scatter_density (job->snapshot, &job->style, job->width,
                                                              job->height, cancellable),
                         (GDestroyNotify) cairo_surface_destroy);
}

static void
density_done (GObject      *source,
              GAsyncResult *result,
              gpointer      data)
{
  LatentFigureView *self = LATENT_FIGURE_VIEW (source);
  cairo_surface_t *density = g_task_propagate_pointer (G_TASK (result), NULL);

  /* A view reset or disposed while it binned has moved on. */
  if (g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))))
    {
      g_clear_pointer (&density, cairo_surface_destroy);
      return;
    }
  g_clear_object (&self->density_cancel);
  if (density != NULL)
    {
      g_clear_pointer (&self->density, cairo_surface_destroy);
      self->density = density;
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Bins the scatter on a worker thread when it is drawn as a density and
 * the image kept does not fit what is shown now. */
static void
request_density (LatentFigureView        *self,
                 const LatentFigureStyle *style,
                 int                      width,
                 int                      height)
{
  g_autoptr(GTask) task = NULL;
  DensityJob *job;

  if (self->density_cancel != NULL)
    return;
  if (self->density != NULL
      && latent_figure_scatter_density_fits (self->density, self->snapshot, style, width, height))
    return;
  if (!latent_figure_scatter_uses_density (self->snapshot, style, width, height))
    return;
  job = g_new0 (DensityJob, 1);
  job->snapshot = latent_snapshot_ref (self->snapshot);
  job->style = *style;
  /* The thread needs none of the view's arrays; the kept image only for
   * the data's extent, which spares it a pass over the rows. */
  job->style.trail = NULL;
  job->style.n_trail = 0;
  job->style.before = job->style.after = NULL;
  job->style.density = self->density ? cairo_surface_reference (self->density) : NULL;
  job->width = width;
  job->height = height;
  self->density_cancel = g_cancellable_new ();
  task = g_task_new (self, self->density_cancel, density_done, NULL);
  g_task_set_source_tag (task, request_density);
  g_task_set_task_data (task, job, density_job_free);
  g_task_run_in_thread (task, density_thread);
}

static void
cancel_density (LatentFigureView *self)
{
  if (self->density_cancel != NULL)
    g_cancellable_cancel (self->density_cancel);
  g_clear_object (&self->density_cancel);
}

/* The row the tooltip describes, ringed in the figure's ink over a halo,
 * so a person sees which point it is among its neighbours. */
static void
ring_hovered (LatentFigureView        *self,
              const LatentFigureStyle *style,
              cairo_t                 *cr,
              int                      width,
              int                      height)
{
  double x, y, r, g, b;

  if (self->hover_row < 0 || !is_scatter (self)
      || !latent_figure_scatter_row_at (self->snapshot, style, width, height, (guint) self->hover_row, &x, &y))
    return;
  cairo_save (cr);
  cairo_new_path (cr);
  cairo_arc (cr, x, y, 7.0, 0, 2 * G_PI);
  latent_figure_style_get_background (style, &r, &g, &b);
  cairo_set_source_rgb (cr, r, g, b);
  cairo_set_line_width (cr, 4.0);
  cairo_stroke_preserve (cr);
  latent_figure_style_get_foreground (style, &r, &g, &b);
  cairo_set_source_rgb (cr, r, g, b);
  cairo_set_line_width (cr, 2.0);
  cairo_stroke (cr);
  cairo_restore (cr);
}

/* The selected rows ringed in the accent colour over a halo, and the
 * lasso being drawn. */
static void
draw_selection (LatentFigureView        *self,
                const LatentFigureStyle *style,
                cairo_t                 *cr,
                int                      width,
                int                      height)
{
  double r, g, b;

  if (!is_scatter (self))
    return;
  cairo_save (cr);
  if (!gtk_bitset_is_empty (self->selected))
    {
      guint64 n = MIN (gtk_bitset_get_size (self->selected), MAX_RINGED);
      g_autofree guint *rows = g_new (guint, n);
      g_autofree double *xy = g_new (double, 2 * n);
      GtkBitsetIter iter;
      guint row, k = 0, drawn;

      for (gboolean more = gtk_bitset_iter_init_first (&iter, self->selected, &row); more && k < n;
           more = gtk_bitset_iter_next (&iter, &row))
        rows[k++] = row;
      drawn = latent_figure_scatter_rows_at (self->snapshot, style, width, height, rows, k, xy);
      for (guint pass = 0; pass < 2; pass++)
        {
          for (guint i = 0; i < drawn; i++)
            {
              cairo_new_sub_path (cr);
              cairo_arc (cr, xy[2 * i], xy[2 * i + 1], 4.5, 0, 2 * G_PI);
            }
          if (pass == 0)
            {
              latent_figure_style_get_background (style, &r, &g, &b);
              cairo_set_line_width (cr, 3.5);
            }
          else
            {
              /* GNOME's accent blue: the selection's colour in the table too. */
              r = 0.21, g = 0.52, b = 0.89;
              cairo_set_line_width (cr, 1.6);
            }
          cairo_set_source_rgb (cr, r, g, b);
          cairo_stroke (cr);
        }
    }
  if (self->drag_mode == DRAG_LASSO && self->lasso->len >= 4)
    {
      const double *p = (const double *) self->lasso->data;
      const double dash[] = { 4.0, 3.0 };

      cairo_move_to (cr, p[0], p[1]);
      for (guint i = 1; i < self->lasso->len / 2; i++)
        cairo_line_to (cr, p[2 * i], p[2 * i + 1]);
      cairo_close_path (cr);
      cairo_set_source_rgba (cr, 0.21, 0.52, 0.89, 0.12);
      cairo_fill_preserve (cr);
      cairo_set_source_rgb (cr, 0.21, 0.52, 0.89);
      cairo_set_line_width (cr, 1.5);
      cairo_set_dash (cr, dash, 2, 0);
      cairo_stroke (cr);
    }
  cairo_restore (cr);
}

void
latent_figure_view_set_selected_rows (LatentFigureView *self,
                                      GtkBitset        *rows)
{
  g_return_if_fail (LATENT_IS_FIGURE_VIEW (self));

  g_clear_pointer (&self->selected, gtk_bitset_unref);
  self->selected = rows ? gtk_bitset_copy (rows) : gtk_bitset_new_empty ();
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

GtkBitset *
latent_figure_view_get_selected_rows (LatentFigureView *self)
{
  g_return_val_if_fail (LATENT_IS_FIGURE_VIEW (self), NULL);
  return self->selected;
}

static void
set_hover_row (LatentFigureView *self,
               gint64            row)
{
  if (row == self->hover_row)
    return;
  self->hover_row = row;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
latent_figure_view_snapshot (GtkWidget   *widget,
                             GtkSnapshot *snapshot)
{
  LatentFigureView *self = LATENT_FIGURE_VIEW (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  LatentFigureStyle style;
  cairo_t *cr;

  if (width < 16 || height < 16)
    return;
  if (self->snapshot == NULL)
    {
      draw_placeholder (self, snapshot, width, height);
      return;
    }
  latent_figure_view_get_style (self, &style);
  if (style.density_later)
    request_density (self, &style, width, height);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  /* Magnified tiles: the same figure, drawn larger, so it stays sharp. */
  if (is_tiles (self) && self->has_view)
    {
      const double m = width / (self->view[1] - self->view[0]);

      cairo_scale (cr, m, m);
      cairo_translate (cr, -self->view[0], -self->view[2]);
    }
  latent_figure_render (self->snapshot, self->kind, &style, cr, width, height);
  draw_selection (self, &style, cr, width, height);
  ring_hovered (self, &style, cr, width, height);
  cairo_destroy (cr);
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

/* The filter figure ------------------------------------------------------- */

static gboolean
filter_layout (LatentFigureView         *self,
               LatentFigureFilterLayout *layout)
{
  LatentFigureStyle style;

  latent_figure_view_get_style (self, &style);
  return latent_figure_filter_layout (self->snapshot, &style, gtk_widget_get_width (GTK_WIDGET (self)),
                                      gtk_widget_get_height (GTK_WIDGET (self)), layout);
}

/* The panel under (x, y), and the image position there; −1 if none. */
static int
filter_pick (const LatentFigureFilterLayout *layout,
             double                          x,
             double                          y,
             double                         *ix,
             double                         *iy)
{
  for (guint i = 0; i < layout->n_panels; i++)
    {
      const double *p = layout->panels[i];

      if (x >= p[0] && x < p[0] + p[2] && y >= p[1] && y < p[1] + p[3])
        {
          *ix = layout->view[0] + (x - p[0]) / p[2] * (layout->view[1] - layout->view[0]);
          *iy = layout->view[2] + (y - p[1]) / p[3] * (layout->view[3] - layout->view[2]);
          return i;
        }
    }
  return -1;
}

/* A window inside the image, as large as it at most; the whole image is no
 * zoom at all. */
static void
set_filter_view (LatentFigureView               *self,
                 const LatentFigureFilterLayout *layout,
                 const double                   *view)
{
  const double iw = layout->image_width, ih = layout->image_height;
  double w = view[1] - view[0], h = view[3] - view[2], x0 = view[0], y0 = view[2];

  if (w >= iw - 1e-9 || h >= ih - 1e-9)
    {
      self->has_view = FALSE;
      view_changed (self);
      return;
    }
  x0 = CLAMP (x0, 0.0, iw - w);
  y0 = CLAMP (y0, 0.0, ih - h);
  self->view[0] = x0;
  self->view[1] = x0 + w;
  self->view[2] = y0;
  self->view[3] = y0 + h;
  self->has_view = TRUE;
  view_changed (self);
}

/* Zoom by @factor (below 1 closer) about the image point (x, y). */
static void
filter_zoom (LatentFigureView               *self,
             const LatentFigureFilterLayout *layout,
             double                          x,
             double                          y,
             double                          factor)
{
  const double *v = layout->view;
  double view[4];

  /* No closer than MAX_PIXEL_SIZE units a pixel. */
  factor = MAX (factor, layout->panels[0][2] / MAX_PIXEL_SIZE / (v[1] - v[0]));
  view[0] = x - (x - v[0]) * factor;
  view[1] = x + (v[1] - x) * factor;
  view[2] = y - (y - v[2]) * factor;
  view[3] = y + (v[3] - y) * factor;
  set_filter_view (self, layout, view);
}

static double
split_x (LatentFigureView               *self,
         const LatentFigureFilterLayout *layout)
{
  return layout->panels[0][0] + CLAMP (self->split, 0.0, 1.0) * layout->panels[0][2];
}

static void
move_split (LatentFigureView               *self,
            const LatentFigureFilterLayout *layout,
            double                          x)
{
  latent_figure_view_set_split (self, CLAMP ((x - layout->panels[0][0]) / layout->panels[0][2], 0.0, 1.0));
}

/* Zoom the scatter by @factor (below 1 closer) about the data point (x, y)
 * of the window @view now shown: that point stays where it is. The caller
 * calls view_changed (). */
static void
scatter_zoom (LatentFigureView *self,
              const double     *view,
              double            x,
              double            y,
              double            factor)
{
  self->view[0] = x - (x - view[0]) * factor;
  self->view[1] = x + (view[1] - x) * factor;
  self->view[2] = y - (y - view[2]) * factor;
  self->view[3] = y + (view[3] - y) * factor;
  self->has_view = TRUE;
}

/* Zoom about the figure position (px, py): what is under the pointer stays
 * under it. */
static gboolean
zoom_at (LatentFigureView *self,
         double            px,
         double            py,
         double            factor)
{
  double x, y, nx, ny, view[4];

  if (is_tiles (self))
    {
      tiles_zoom (self, px, py, factor);
      return TRUE;
    }
  if (is_filter (self))
    {
      LatentFigureFilterLayout layout;

      if (!filter_layout (self, &layout) || filter_pick (&layout, px, py, &x, &y) < 0)
        return FALSE;
      filter_zoom (self, &layout, x, y, factor);
      return TRUE;
    }
  if (!is_scatter (self) || !to_data (self, px, py, &x, &y, view))
    return FALSE;
  scatter_zoom (self, view, x, y, factor);
  /* The plot's margin follows the width of its tick labels, which the zoom
   * changed: shift the new window so that (x, y) is under the pointer in
   * the new layout too, and notches in then out come back where they began. */
  if (to_data (self, px, py, &nx, &ny, view))
    {
      self->view[0] += x - nx;
      self->view[1] += x - nx;
      self->view[2] += y - ny;
      self->view[3] += y - ny;
    }
  view_changed (self);
  return TRUE;
}

/* The keyboard has no pointer: zoom about the centre of what is shown. */
static gboolean
zoom_centre (LatentFigureView *self,
             double            factor)
{
  LatentFigureStyle style;
  double view[4];

  if (is_tiles (self))
    {
      tiles_zoom (self, gtk_widget_get_width (GTK_WIDGET (self)) / 2.0,
                  gtk_widget_get_height (GTK_WIDGET (self)) / 2.0, factor);
      return TRUE;
    }
  if (is_filter (self))
    {
      LatentFigureFilterLayout layout;
      const double *v = layout.view;

      if (!filter_layout (self, &layout))
        return FALSE;
      filter_zoom (self, &layout, (v[0] + v[1]) / 2.0, (v[2] + v[3]) / 2.0, factor);
      return TRUE;
    }
  latent_figure_view_get_style (self, &style);
  if (!latent_figure_scatter_bounds (self->snapshot, &style, gtk_widget_get_width (GTK_WIDGET (self)),
                                     gtk_widget_get_height (GTK_WIDGET (self)), view, NULL))
    return FALSE;
  scatter_zoom (self, view, (view[0] + view[1]) / 2.0, (view[2] + view[3]) / 2.0, factor);
  view_changed (self);
  return TRUE;
}

/* Move the window shown by (dx, dy) times its size; dy up the figure. */
static gboolean
pan (LatentFigureView *self,
     double            dx,
     double            dy)
{
  double w = self->view[1] - self->view[0], h = self->view[3] - self->view[2];

  if (is_tiles (self))
    {
      /* Its rows count down from the top, as an image's. */
      set_tiles_window (self, self->view[0] + dx * w, self->view[2] - dy * h, w);
      return TRUE;
    }
  if (is_filter (self))
    {
      LatentFigureFilterLayout layout;
      double view[4];

      if (!filter_layout (self, &layout))
        return FALSE;
      /* The image's rows count down from the top. */
      view[0] = self->view[0] + dx * w;
      view[1] = self->view[1] + dx * w;
      view[2] = self->view[2] - dy * h;
      view[3] = self->view[3] - dy * h;
      set_filter_view (self, &layout, view);
      return TRUE;
    }
  self->view[0] += dx * w;
  self->view[1] += dx * w;
  self->view[2] += dy * h;
  self->view[3] += dy * h;
  view_changed (self);
  return TRUE;
}

static void
show_all (LatentFigureView *self)
{
  self->has_view = FALSE;
  view_changed (self);
}

/* With the keyboard on the figure: + (or =) and − zoom about the centre, 0
 * shows everything, 1 the image's actual pixels, and the arrows pan what is
 * zoomed. Unzoomed, the arrows are left to the window (Right steps the run,
 * which asks latent_figure_view_get_zoomed ()). */
static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                LatentFigureView      *self)
{
  if ((!is_filter (self) && !is_scatter (self) && !is_tiles (self)) || (state & (GDK_CONTROL_MASK | GDK_ALT_MASK)))
    return FALSE;
  switch (keyval)
    {
    case GDK_KEY_plus:
    case GDK_KEY_equal:
    case GDK_KEY_KP_Add:
      return zoom_centre (self, 1.0 / KEY_ZOOM);
    case GDK_KEY_minus:
    case GDK_KEY_KP_Subtract:
      return zoom_centre (self, KEY_ZOOM);
    case GDK_KEY_0:
    case GDK_KEY_KP_0:
      show_all (self);
      return TRUE;
    case GDK_KEY_1:
    case GDK_KEY_KP_1:
      if (!is_filter (self))
        return FALSE;
      latent_figure_view_zoom_actual (self);
      return TRUE;
    case GDK_KEY_Left:
    case GDK_KEY_KP_Left:
      return self->has_view && pan (self, -KEY_PAN, 0.0);
    case GDK_KEY_Right:
    case GDK_KEY_KP_Right:
      return self->has_view && pan (self, KEY_PAN, 0.0);
    case GDK_KEY_Up:
    case GDK_KEY_KP_Up:
      return self->has_view && pan (self, 0.0, KEY_PAN);
    case GDK_KEY_Down:
    case GDK_KEY_KP_Down:
      return self->has_view && pan (self, 0.0, -KEY_PAN);
    default:
      return FALSE;
    }
}

static void
on_motion (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           LatentFigureView         *self)
{
  LatentFigureFilterLayout layout;
  const char *cursor = NULL;

  self->has_pointer = TRUE;
  self->pointer_x = x;
  self->pointer_y = y;

  /* The split line says it can be moved. */
  if (is_filter (self) && self->split >= 0.0 && filter_layout (self, &layout) && layout.n_panels == 1
      && fabs (x - split_x (self, &layout)) <= SPLIT_GRAB
      && y >= layout.panels[0][1] && y < layout.panels[0][1] + layout.panels[0][3])
    cursor = "col-resize";
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), cursor);
}

static void
on_leave (GtkEventControllerMotion *controller,
          LatentFigureView         *self)
{
  self->has_pointer = FALSE;
  set_hover_row (self, -1);
}

static gboolean
on_scroll (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           LatentFigureView         *self)
{
  double px = gtk_widget_get_width (GTK_WIDGET (self)) / 2.0;
  double py = gtk_widget_get_height (GTK_WIDGET (self)) / 2.0;

  if (!is_scatter (self) && !is_filter (self) && !is_tiles (self))
    return FALSE;
  /* Scrolls come to the widget under the pointer, so the pointer is known;
   * the centre only if the scroll came before any motion. */
  if (self->has_pointer)
    {
      px = self->pointer_x;
      py = self->pointer_y;
    }
  return zoom_at (self, px, py, pow (WHEEL_ZOOM, dy));
}

static void
on_drag_begin (GtkGestureDrag   *gesture,
               double            x,
               double            y,
               LatentFigureView *self)
{
  LatentFigureFilterLayout layout;
  double dx, dy;

  self->drag_mode = DRAG_NONE;
  if (is_filter (self) && filter_layout (self, &layout))
    {
      /* The split line moves when grabbed, or from anywhere while there is
       * nothing to pan; otherwise a zoomed image pans. */
      if (self->split >= 0.0 && (fabs (x - split_x (self, &layout)) <= SPLIT_GRAB || !self->has_view)
          && filter_pick (&layout, x, y, &dx, &dy) >= 0)
        {
          self->drag_mode = DRAG_SPLIT;
          self->drag_x = x;
          move_split (self, &layout, x);
          return;
        }
      if (self->has_view && filter_pick (&layout, x, y, &dx, &dy) >= 0)
        {
          self->drag_mode = DRAG_PAN;
          memcpy (self->drag_view, layout.view, sizeof self->drag_view);
          return;
        }
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  if (is_tiles (self) && self->has_view)
    {
      self->drag_mode = DRAG_PAN;
      memcpy (self->drag_view, self->view, sizeof self->drag_view);
      return;
    }
  if (!is_scatter (self) || !to_data (self, x, y, &dx, &dy, self->drag_view))
    gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
  else if (gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture)) & GDK_SHIFT_MASK)
    {
      /* Shift-drag draws a lasso around the rows to select. */
      self->drag_mode = DRAG_LASSO;
      self->drag_x = x;
      self->drag_y = y;
      g_array_set_size (self->lasso, 0);
      g_array_append_vals (self->lasso, (double[2]) { x, y }, 2);
    }
  else
    self->drag_mode = DRAG_PAN;
}

/* The lasso closed: the rows inside become the selection. */
static void
on_drag_end (GtkGestureDrag   *gesture,
             double            offset_x,
             double            offset_y,
             LatentFigureView *self)
{
  LatentFigureStyle style;
  g_autoptr(GArray) rows = NULL;
  g_autoptr(GtkBitset) selected = gtk_bitset_new_empty ();

  if (self->drag_mode != DRAG_LASSO)
    return;
  self->drag_mode = DRAG_NONE;
  latent_figure_view_get_style (self, &style);
  rows = latent_figure_scatter_rows_in (self->snapshot, &style, gtk_widget_get_width (GTK_WIDGET (self)),
                                        gtk_widget_get_height (GTK_WIDGET (self)),
                                        (const double *) self->lasso->data, self->lasso->len / 2);
  g_array_set_size (self->lasso, 0);
  for (guint i = 0; i < rows->len; i++)
    gtk_bitset_add (selected, g_array_index (rows, guint, i));
  latent_figure_view_set_selected_rows (self, selected);
  g_signal_emit (self, signals[ROWS_SELECTED], 0, self->selected);
}

static void
on_filter_drag_update (LatentFigureView *self,
                       double            offset_x,
                       double            offset_y)
{
  LatentFigureFilterLayout layout;
  double view[4], sx, sy;

  if (!filter_layout (self, &layout))
    return;
  if (self->drag_mode == DRAG_SPLIT)
    {
      move_split (self, &layout, self->drag_x + offset_x);
      return;
    }
  sx = (self->drag_view[1] - self->drag_view[0]) / layout.panels[0][2];
  sy = (self->drag_view[3] - self->drag_view[2]) / layout.panels[0][3];
  view[0] = self->drag_view[0] - offset_x * sx;
  view[1] = self->drag_view[1] - offset_x * sx;
  view[2] = self->drag_view[2] - offset_y * sy;
  view[3] = self->drag_view[3] - offset_y * sy;
  set_filter_view (self, &layout, view);
}

static void
on_drag_update (GtkGestureDrag   *gesture,
                double            offset_x,
                double            offset_y,
                LatentFigureView *self)
{
  LatentFigureStyle style;
  double plot[4], view[4];

  if (self->drag_mode == DRAG_NONE)
    return;
  if (self->drag_mode == DRAG_LASSO)
    {
      g_array_append_vals (self->lasso, (double[2]) { self->drag_x + offset_x, self->drag_y + offset_y }, 2);
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }
  if (is_filter (self))
    {
      on_filter_drag_update (self, offset_x, offset_y);
      return;
    }
  if (is_tiles (self))
    {
      const double m = gtk_widget_get_width (GTK_WIDGET (self)) / (self->drag_view[1] - self->drag_view[0]);

      set_tiles_window (self, self->drag_view[0] - offset_x / m, self->drag_view[2] - offset_y / m,
                        self->drag_view[1] - self->drag_view[0]);
      return;
    }
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
  view_changed (self);
}

/* A click on a tile: its image large in a popover that stays
 * until clicked away, where the tooltip leaves with the pointer. Opened
 * once no second click came, so a double-click still shows every tile. */
#define ENLARGED_SIZE 336

static gboolean
open_enlarged (gpointer user_data)
{
  LatentFigureView *self = user_data;
  LatentFigureStyle style;
  g_autofree char *text = NULL;
  cairo_surface_t *image = NULL;
  GtkWidget *box, *label, *picture;
  double fx, fy;

  self->enlarge_source = 0;
  latent_figure_view_get_style (self, &style);
  tiles_to_figure (self, self->click_x, self->click_y, &fx, &fy);
  if (self->snapshot == NULL
      || latent_figure_tile_pick (self->snapshot, latent_figure_view_get_shown_kind (self), &style,
                                     gtk_widget_get_width (GTK_WIDGET (self)),
                                     gtk_widget_get_height (GTK_WIDGET (self)), fx, fy, ENLARGED_SIZE, &text,
                                     &image) < 0)
    return G_SOURCE_REMOVE;
  g_clear_pointer (&self->enlarged, gtk_widget_unparent);
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  label = gtk_label_new (text);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_box_append (GTK_BOX (box), label);
  {
    g_autoptr(GdkTexture) texture = latent_texture_new_for_surface (image);

    picture = gtk_picture_new_for_paintable (GDK_PAINTABLE (texture));
    gtk_picture_set_can_shrink (GTK_PICTURE (picture), FALSE);
  }
  cairo_surface_destroy (image);
  gtk_accessible_update_property (GTK_ACCESSIBLE (picture), GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
  gtk_box_append (GTK_BOX (box), picture);
  self->enlarged = gtk_popover_new ();
  gtk_popover_set_child (GTK_POPOVER (self->enlarged), box);
  gtk_popover_set_pointing_to (GTK_POPOVER (self->enlarged),
                               &(GdkRectangle) { (int) self->click_x, (int) self->click_y, 1, 1 });
  gtk_widget_set_parent (self->enlarged, GTK_WIDGET (self));
  gtk_popover_popup (GTK_POPOVER (self->enlarged));
  return G_SOURCE_REMOVE;
}

static void
on_double_click (GtkGestureClick  *gesture,
                 int               n_press,
                 double            x,
                 double            y,
                 LatentFigureView *self)
{
  gtk_widget_grab_focus (GTK_WIDGET (self));
  g_clear_handle_id (&self->enlarge_source, g_source_remove);
  if (n_press == 2 && self->has_view)
    show_all (self);
}

static void
on_click_released (GtkGestureClick  *gesture,
                   int               n_press,
                   double            x,
                   double            y,
                   LatentFigureView *self)
{
  int wait = 400;

  if (n_press != 1 || self->snapshot == NULL || !is_tiles (self))
    return;
  g_object_get (gtk_widget_get_settings (GTK_WIDGET (self)), "gtk-double-click-time", &wait, NULL);
  self->click_x = x;
  self->click_y = y;
  g_clear_handle_id (&self->enlarge_source, g_source_remove);
  self->enlarge_source = g_timeout_add (wait, open_enlarged, self);
}

static void
append_values (GString     *text,
               const float *values,
               guint        channels)
{
  for (guint c = 0; c < channels; c++)
    g_string_append_printf (text, c ? " %.3f" : "%.3f", values[c]);
}

/* Zoomed to pixels, a person reads their values: before and after. */
static gboolean
filter_tooltip (LatentFigureView *self,
                int               x,
                int               y,
                GtkTooltip       *tooltip)
{
  LatentFigureFilterLayout layout;
  g_autoptr(GString) text = g_string_new (NULL);
  guint width, height, channels;
  gboolean single;
  double ix, iy;
  gsize at;

  if (!filter_layout (self, &layout) || filter_pick (&layout, x, y, &ix, &iy) < 0
      || !latent_dataset_get_image_shape (self->snapshot->dataset, &width, &height, &channels, &single)
      || ix < 0 || iy < 0 || ix >= width || iy >= height)
    return FALSE;
  at = ((gsize) iy * width + (gsize) ix) * channels;
  /* Translators: a pixel's position in the image, counted from 0 at the top left. */
  g_string_append_printf (text, _("Pixel %u, %u"), (guint) ix, (guint) iy);
  g_string_append (text, "\n");
  g_string_append_printf (text, "%s: ", _("Original"));
  append_values (text, latent_dataset_get_data (self->snapshot->dataset) + at, channels);
  if (latent_filters_get_image (self->snapshot))
    {
      g_string_append_printf (text, "\n%s: ", _("Result"));
      append_values (text, latent_filters_get_image (self->snapshot) + at, channels);
    }
  gtk_tooltip_set_text (tooltip, text->str);
  return TRUE;
}

/* @text above @image (consumed) as the tooltip. */
static void
tooltip_with_image (GtkTooltip      *tooltip,
                    const char      *text,
                    cairo_surface_t *image)
{
  g_autoptr(GdkTexture) texture = latent_texture_new_for_surface (image);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *label = gtk_label_new (text);
  GtkWidget *picture = gtk_picture_new_for_paintable (GDK_PAINTABLE (texture));

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_box_append (GTK_BOX (box), label);
  gtk_picture_set_can_shrink (GTK_PICTURE (picture), FALSE);
  gtk_widget_set_halign (picture, GTK_ALIGN_START);
  gtk_box_append (GTK_BOX (box), picture);
  cairo_surface_destroy (image);
  gtk_tooltip_set_custom (tooltip, box);
}

/* The confusion matrix: what a cell counts, and for image rows a few of
 * its test images, so a person sees what the model mistakes for what. */
#define TOOLTIP_IMAGES 8
#define TOOLTIP_IMAGE_SIZE 56
#define TOOLTIP_ROW_IMAGE_SIZE 112

static gboolean
confusion_tooltip (LatentFigureView *self,
                   int               x,
                   int               y,
                   GtkTooltip       *tooltip)
{
  LatentSnapshot *snapshot = self->snapshot;
  LatentFigureStyle style;
  g_autofree char *truth = NULL;
  g_autofree char *predicted = NULL;
  g_autofree char *text = NULL;
  cairo_surface_t *examples;
  guint t, p, count, total = 0;

  latent_figure_view_get_style (self, &style);
  if (!latent_figure_confusion_cell_at (snapshot, &style, gtk_widget_get_width (GTK_WIDGET (self)),
                                        gtk_widget_get_height (GTK_WIDGET (self)), x, y, &t, &p))
    return FALSE;
  count = latent_classifiers_get_confusion (snapshot, t, p, &total);
  truth = latent_figure_dup_class_name (snapshot, t);
  predicted = latent_figure_dup_class_name (snapshot, p);
  if (t == p)
    /* Translators: a class, then how many of its test rows were classified
     * as it, of how many: "T-shirt classified right: 870 of 1000". */
    text = g_strdup_printf (_("%s classified right: %u of %u"), truth, count, total);
  else
    /* Translators: the true class, the class predicted, then how many of
     * the first class's test rows: "T-shirt classified as Shirt: 103 of 1000". */
    text = g_strdup_printf (_("%s classified as %s: %u of %u"), truth, predicted, count, total);

  /* Images, without dark figures' background: the tooltip has its own. */
  style.dark = FALSE;
  examples = latent_figure_confusion_examples (snapshot, &style, t, p, TOOLTIP_IMAGES, TOOLTIP_IMAGE_SIZE, NULL);
  if (examples == NULL)
    {
      gtk_tooltip_set_text (tooltip, text);
      return TRUE;
    }
  tooltip_with_image (tooltip, text, examples);
  return TRUE;
}

/* Every column of a narrow table, one a line ("petal_length 1.4"); of a
 * wide one, the columns on the axes. */
#define TOOLTIP_MAX_COLUMNS 8

static void
append_row_values (GString                 *text,
                   LatentDataset           *dataset,
                   guint                    row,
                   const LatentFigureStyle *style)
{
  const guint d = latent_dataset_get_n_cols (dataset);
  const float *x;

  /* A file streamed from disk keeps no rows in memory. */
  if (latent_dataset_get_data (dataset) == NULL || row >= latent_dataset_get_n_rows (dataset))
    return;
  x = latent_dataset_get_row (dataset, row);
  for (guint j = 0; j < d; j++)
    {
      const char *name = latent_dataset_get_column_name (dataset, j);
      gboolean on_axis = style->axis_columns[0] == j + 1 || style->axis_columns[1] == j + 1;

      if (d > TOOLTIP_MAX_COLUMNS && !on_axis)
        continue;
      if (name)
        g_string_append_printf (text, "\n%s %g", name, x[j]);
      else
        /* Translators: an unnamed column's value in a tooltip, "column 3  0.25" */
        g_string_append_printf (text, _("\ncolumn %u %g"), j + 1, x[j]);
    }
}

/* A tile: what it is (a unit and how often it wins, a cluster and its
 * size, a class) and its image large: 1,024 tiles of 10 px each say
 * little by themselves. */
#define TOOLTIP_TILE_SIZE 168

static gboolean
tile_tooltip (LatentFigureView *self,
              int               x,
              int               y,
              GtkTooltip       *tooltip)
{
  LatentFigureStyle style;
  g_autofree char *text = NULL;
  cairo_surface_t *image = NULL;
  double fx, fy;

  latent_figure_view_get_style (self, &style);
  tiles_to_figure (self, x, y, &fx, &fy);
  if (latent_figure_tile_pick (self->snapshot, latent_figure_view_get_shown_kind (self), &style,
                                  gtk_widget_get_width (GTK_WIDGET (self)), gtk_widget_get_height (GTK_WIDGET (self)),
                                  fx, fy, TOOLTIP_TILE_SIZE, &text, &image) < 0)
    return FALSE;
  tooltip_with_image (tooltip, text, image);
  return TRUE;
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
  cairo_surface_t *image;
  gint64 row;

  if (!keyboard && is_filter (self))
    return filter_tooltip (self, x, y, tooltip);
  /* From the keyboard (Ctrl+F1), say how the figure zooms. */
  if (keyboard)
    {
      if (keys_hint (self) == NULL)
        return FALSE;
      gtk_tooltip_set_text (tooltip, keys_hint (self));
      return TRUE;
    }
  if (self->snapshot != NULL && latent_figure_view_get_shown_kind (self) == LATENT_FIGURE_CONFUSION)
    return confusion_tooltip (self, x, y, tooltip);
  if (self->snapshot != NULL && is_tiles (self))
    return tile_tooltip (self, x, y, tooltip);
  if (!is_scatter (self))
    return FALSE;
  latent_figure_view_get_style (self, &style);
  row = latent_figure_scatter_pick (self->snapshot, &style, gtk_widget_get_width (widget),
                                    gtk_widget_get_height (widget), x, y, 6.0);
  set_hover_row (self, row);
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
  if (latent_clusters_get_labels (self->snapshot) && (guint64) row < self->snapshot->n_rows)
    g_string_append_printf (text, _(" · cluster %d"), latent_clusters_get_labels (self->snapshot)[row] + 1);
  /* Where the row sits in the model's latent space, as plotted. */
  if (self->snapshot->n_rows == latent_dataset_get_n_rows (ds) && (guint64) row < self->snapshot->n_rows)
    {
      const float *z = latent_linear_models_get_position (self->snapshot, row);

      if (z == NULL)
        z = latent_embeddings_get_position (self->snapshot, row);
      if (z != NULL)
        g_string_append_printf (text, " · (%.3g, %.3g)", z[0], z[1]);
    }
  /* An image row shows itself, so a person sees what lies where; a row
   * of a table its values. */
  image = latent_figure_row_image (ds, (guint) row, TOOLTIP_ROW_IMAGE_SIZE);
  if (image == NULL)
    append_row_values (text, ds, (guint) row, &style);
  if (image != NULL)
    tooltip_with_image (tooltip, text->str, image);
  else
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

  if (snapshot == NULL || self->snapshot == NULL || snapshot->dataset != self->snapshot->dataset)
    {
      self->hover_row = -1;
      /* Rows of other data. */
      if (self->selected != NULL)
        gtk_bitset_remove_all (self->selected);
    }
  /* The trail comes from the frames before it: set_history. */
  g_array_set_size (self->trail, 0);
  self->n_trail = 0;

  g_clear_pointer (&self->after, cairo_surface_destroy);
  self->after_snapshot = NULL;
  g_clear_pointer (&self->snapshot, latent_snapshot_unref);
  self->snapshot = snapshot ? latent_snapshot_ref (snapshot) : NULL;
  /* Another algorithm may show another kind of figure. */
  update_description (self);
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
  view_changed (self);
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

/* Clusters' points in their class's colour (see LatentFigureStyle). */
void
latent_figure_view_set_colour_by_class (LatentFigureView *self,
                                        gboolean          colour_by_class)
{
  g_return_if_fail (LATENT_IS_FIGURE_VIEW (self));

  if (self->colour_by_class == !!colour_by_class)
    return;
  self->colour_by_class = !!colour_by_class;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The scatter's axes (see LatentFigureStyle): new coordinates, so zoom
 * and pan are forgotten. */
void
latent_figure_view_set_axis_columns (LatentFigureView *self,
                                     guint             across,
                                     guint             up)
{
  g_return_if_fail (LATENT_IS_FIGURE_VIEW (self));

  if (self->axis_columns[0] == across && self->axis_columns[1] == up)
    return;
  self->axis_columns[0] = across;
  self->axis_columns[1] = up;
  self->has_view = FALSE;
  view_changed (self);
}

void
latent_figure_view_set_split (LatentFigureView *self,
                              double            split)
{
  g_return_if_fail (LATENT_IS_FIGURE_VIEW (self));

  split = split < 0.0 || isnan (split) ? -1.0 : MIN (split, 1.0);
  if (split == self->split)
    return;
  self->split = split;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SPLIT]);
}

double
latent_figure_view_get_split (LatentFigureView *self)
{
  g_return_val_if_fail (LATENT_IS_FIGURE_VIEW (self), -1.0);
  return self->split;
}

void
latent_figure_view_zoom_actual (LatentFigureView *self)
{
  LatentFigureFilterLayout layout;
  double cx, cy, w, h, view[4];
  int scale;

  g_return_if_fail (LATENT_IS_FIGURE_VIEW (self));

  if (!is_filter (self) || !filter_layout (self, &layout))
    return;
  /* One image pixel to one pixel of the screen, about the centre shown. */
  scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  cx = (layout.view[0] + layout.view[1]) / 2.0;
  cy = (layout.view[2] + layout.view[3]) / 2.0;
  w = layout.panels[0][2] * scale;
  h = layout.panels[0][3] * scale;
  view[0] = cx - w / 2.0;
  view[1] = cx + w / 2.0;
  view[2] = cy - h / 2.0;
  view[3] = cy + h / 2.0;
  set_filter_view (self, &layout, view);
}

gboolean
latent_figure_view_get_zoomed (LatentFigureView *self)
{
  g_return_val_if_fail (LATENT_IS_FIGURE_VIEW (self), FALSE);
  return self->has_view && (is_scatter (self) || is_filter (self));
}

LatentSnapshot *
latent_figure_view_get_snapshot (LatentFigureView *self)
{
  g_return_val_if_fail (LATENT_IS_FIGURE_VIEW (self), NULL);
  return self->snapshot;
}

void
latent_figure_view_set_placeholder (LatentFigureView *self,
                                    const char       *text,
                                    LatentDataset    *photo)
{
  g_return_if_fail (LATENT_IS_FIGURE_VIEW (self));

  if (g_strcmp0 (text, self->placeholder) == 0 && photo == self->placeholder_photo)
    return;
  /* A photo's pixels made into an image once, not on every status line. */
  if (photo != self->placeholder_photo)
    {
      g_clear_pointer (&self->placeholder_image, cairo_surface_destroy);
      g_set_object (&self->placeholder_photo, photo);
      if (photo != NULL)
        self->placeholder_image = latent_figure_dataset_image (photo);
    }
  g_free (self->placeholder);
  self->placeholder = g_strdup (text);
  update_description (self);
  if (self->snapshot == NULL)
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
latent_figure_view_set_history (LatentFigureView  *self,
                                LatentSnapshot   **earlier,
                                guint              n)
{
  g_return_if_fail (LATENT_IS_FIGURE_VIEW (self));

  if (self->snapshot == NULL || latent_clusters_get_means (self->snapshot, NULL) == NULL)
    return;
  g_array_set_size (self->trail, 0);
  self->n_trail = latent_figure_collect_trail (self->snapshot, earlier, n, LATENT_FIGURE_TRAIL_LENGTH, self->trail);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
latent_figure_view_reset (LatentFigureView *self)
{
  g_return_if_fail (LATENT_IS_FIGURE_VIEW (self));

  g_array_set_size (self->trail, 0);
  self->n_trail = 0;
  self->has_view = FALSE;
  clear_surfaces (self);
  cancel_density (self);
  g_clear_pointer (&self->density, cairo_surface_destroy);
  g_clear_pointer (&self->snapshot, latent_snapshot_unref);
  view_changed (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SNAPSHOT]);
}

/* A popover is placed by its parent. */
static void
latent_figure_view_size_allocate (GtkWidget *widget,
                                  int        width,
                                  int        height,
                                  int        baseline)
{
  LatentFigureView *self = LATENT_FIGURE_VIEW (widget);

  if (self->enlarged != NULL)
    gtk_popover_present (GTK_POPOVER (self->enlarged));
}

static void
latent_figure_view_dispose (GObject *object)
{
  LatentFigureView *self = LATENT_FIGURE_VIEW (object);

  clear_surfaces (self);
  cancel_density (self);
  g_clear_handle_id (&self->enlarge_source, g_source_remove);
  g_clear_pointer (&self->enlarged, gtk_widget_unparent);
  g_clear_pointer (&self->density, cairo_surface_destroy);
  g_clear_pointer (&self->snapshot, latent_snapshot_unref);
  g_clear_pointer (&self->trail, g_array_unref);
  g_clear_pointer (&self->selected, gtk_bitset_unref);
  g_clear_pointer (&self->lasso, g_array_unref);
  g_clear_pointer (&self->description, g_free);
  g_clear_pointer (&self->placeholder, g_free);
  g_clear_pointer (&self->placeholder_image, cairo_surface_destroy);
  g_clear_object (&self->placeholder_photo);
  G_OBJECT_CLASS (latent_figure_view_parent_class)->dispose (object);
}

/* A tooltip-text given in a template (set after init) becomes the
 * description too; once shown, the figure's own words replace it. */
static void
latent_figure_view_map (GtkWidget *widget)
{
  LatentFigureView *self = LATENT_FIGURE_VIEW (widget);

  GTK_WIDGET_CLASS (latent_figure_view_parent_class)->map (widget);
  g_clear_pointer (&self->description, g_free);
  update_description (self);
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
    case PROP_SPLIT:
      g_value_set_double (value, self->split);
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
    case PROP_SPLIT:
      latent_figure_view_set_split (self, g_value_get_double (value));
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

  /* ::rows-selected (GtkBitset *rows): a lasso selected these rows. */
  signals[ROWS_SELECTED] = g_signal_new ("rows-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                         NULL, NULL, G_TYPE_NONE, 1, GTK_TYPE_BITSET);

  properties[PROP_KIND] =
    g_param_spec_enum ("kind", NULL, NULL, LATENT_TYPE_FIGURE_KIND, LATENT_FIGURE_AUTO,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* The LatentSnapshot shown, or NULL; notified with each new one. */
  properties[PROP_SNAPSHOT] =
    g_param_spec_pointer ("snapshot", NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /* The filter figure: the split at this fraction of the image, or side
   * by side below 0. */
  properties[PROP_SPLIT] =
    g_param_spec_double ("split", NULL, NULL, -1.0, 1.0, -1.0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  widget_class->snapshot = latent_figure_view_snapshot;
  widget_class->size_allocate = latent_figure_view_size_allocate;
  widget_class->query_tooltip = latent_figure_view_query_tooltip;
  widget_class->map = latent_figure_view_map;
  gtk_widget_class_set_css_name (widget_class, "latentfigureview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
latent_figure_view_init (LatentFigureView *self)
{
  GtkEventController *scroll, *motion, *keys;
  GtkGesture *drag, *click;

  self->trail = g_array_new (FALSE, FALSE, sizeof (float));
  self->selected = gtk_bitset_new_empty ();
  self->lasso = g_array_new (FALSE, FALSE, sizeof (double));
  self->split = -1.0;
  self->hover_row = -1;
  /* Focusable, so the run's keys work without a text field taking them,
   * and + − 0 and the arrows zoom and pan. */
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
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  click = gtk_gesture_click_new ();
  g_signal_connect (click, "pressed", G_CALLBACK (on_double_click), self);
  g_signal_connect (click, "released", G_CALLBACK (on_click_released), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));

  motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "enter", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);

  /* + − 0 1 and the arrows zoom and pan for those who do not scroll. */
  keys = gtk_event_controller_key_new ();
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);
}

GtkWidget *
latent_figure_view_new (void)
{
  return g_object_new (LATENT_TYPE_FIGURE_VIEW, NULL);
}
