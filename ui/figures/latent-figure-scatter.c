/* latent-figure-scatter.c — the points, coloured by cluster, with centroids
 *
 * Points go straight into the pixels of an image surface (one cairo_arc per
 * point would take a second for 70,000 points); axes, markers and text are
 * ordinary Cairo paths on top. Mixtures shade each point by its
 * responsibilities and add each component's 1σ and 2σ ellipses. PCA, PPCA
 * and FA draw their own latent coordinates, coloured by class, and their
 * other figures add crosses (samples) or arrows (a biplot) on top.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-figure-scatter"

#include "latent-figure-private.h"
#include "latent-palette.h"
#include "latent-projection.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#define MAX_LEGEND_ENTRIES 12
#define MIN_PLOT_SIZE 40.0
/* Vector output gets the point layer at this many pixels per unit. */
#define VECTOR_LAYER_SCALE 2.0
#define MAX_LAYER_SIZE 16384.0
#define MAX_VECTOR_LAYER_SIZE 4096.0

/* The points drawn: the dataset's own 2-D projection, or the latent
 * coordinates of a linear model. */
typedef struct {
  LatentProjection *projection;    /* NULL for latent coordinates */
  const float      *xy;            /* row i at xy[i * stride], xy[i * stride + 1] */
  gsize             stride;
  guint             n;
  char             *axis_label[2];
  gboolean          linear;        /* PCA, PPCA, FA: no clusters to show */
  const LatentScatterExtras *extras;
} Points;

typedef struct {
  double   font;
  double   header;                 /* y below the title lines */
  double   plot_x, plot_y, plot_w, plot_h;
  double   xmin, xmax, ymin, ymax;
  LatentFigureTicks xticks, yticks;
  gboolean legend;
  double   legend_x;
  double   swatch;
  gboolean by_class;               /* points coloured by class label: no clustering
                                    * yet, or style->colour_by_class */
  gboolean mixture;                /* components with weights, not clusters */
  gboolean compact;                /* legend says "1 (n = 50)" */
  guint    n_entries;              /* legend entries drawn, "… more" excluded */
  guint    n_more;
  gboolean rows_entry;             /* one colour for every row, named in the legend */
  gboolean extra_entry;            /* the crosses, named in the legend */
  gboolean neutral_model;          /* points by class: the model's centres, trails,
                                    * ellipses and regions in no class's colour */
} Layout;

static void
points_clear (Points *points)
{
  g_clear_pointer (&points->projection, latent_projection_unref);
  g_clear_pointer (&points->axis_label[0], g_free);
  g_clear_pointer (&points->axis_label[1], g_free);
}

/* FALSE (with nothing to clear) when there is nothing to draw; @message then
 * says why, or is NULL when the figure is simply too small. */
static gboolean
points_init (Points                    *points,
             LatentSnapshot            *snapshot,
             const LatentFigureStyle   *style,
             const LatentScatterExtras *extras,
             const char               **message)
{
  guint n_rows;

  memset (points, 0, sizeof *points);
  points->extras = extras;
  *message = NULL;
  if (snapshot->dataset == NULL)
    {
      *message = _("No data");
      return FALSE;
    }
  n_rows = latent_dataset_get_n_rows (snapshot->dataset);
  points->linear = _latent_figure_is_linear (snapshot);

  if (extras != NULL && extras->points != NULL)
    {
      points->xy = extras->points;
      points->stride = 2;
      points->n = n_rows;
    }
  else if (points->linear && snapshot->linear.projection != NULL && snapshot->linear.projection_dims >= 2
           && snapshot->n_rows == n_rows)
    {
      points->xy = snapshot->linear.projection;
      points->stride = snapshot->linear.projection_dims;
      points->n = n_rows;
    }
  if (points->xy != NULL)
    {
      gboolean own = points->xy == snapshot->linear.projection;

      points->axis_label[0] = _latent_figure_linear_axis_label (snapshot, 0, own);
      points->axis_label[1] = _latent_figure_linear_axis_label (snapshot, 1, own);
      return TRUE;
    }

  /* Before a linear model has coordinates, and for every clustering: the
   * dataset's own view, on the axes chosen. */
  points->projection = latent_projection_get_for_axes (snapshot->dataset, style->axis_columns);
  if (points->projection == NULL)
    {
      *message = _("This dataset cannot be projected to 2-D");
      return FALSE;
    }
  points->xy = latent_projection_get_points (points->projection);
  points->stride = 2;
  points->n = latent_projection_get_n_rows (points->projection);
  points->axis_label[0] = g_strdup (latent_projection_get_axis_label (points->projection, 0));
  points->axis_label[1] = g_strdup (latent_projection_get_axis_label (points->projection, 1));
  return TRUE;
}

static inline double
point_x (const Points *points,
         guint         i)
{
  return points->xy[(gsize) i * points->stride];
}

static inline double
point_y (const Points *points,
         guint         i)
{
  return points->xy[(gsize) i * points->stride + 1];
}

static double
auto_point_size (guint n)
{
  const double lo = log10 (150.0), hi = log10 (70000.0);
  double t;

  if (n <= 50)
    return 6.0;
  t = (log10 ((double) n) - lo) / (hi - lo);
  return CLAMP (round (5.0 - 4.0 * t), 1.0, 5.0);
}

/* Dense clouds are blended so overlaps show density; sparse ones stay opaque. */
static double
auto_alpha (guint n)
{
  const double lo = log10 (3000.0), hi = log10 (70000.0);

  if (n <= 3000)
    return 1.0;
  return CLAMP (1.0 - 0.45 * (log10 ((double) n) - lo) / (hi - lo), 0.55, 1.0);
}

static gboolean
labels_usable (LatentSnapshot *snapshot,
               const Points   *points)
{
  return !points->linear && snapshot->clusters.labels != NULL && snapshot->clusters.k > 0
         && snapshot->n_rows == points->n;
}

static gboolean
is_mixture (LatentSnapshot *snapshot)
{
  return snapshot->mixture.weights != NULL && snapshot->clusters.k > 0;
}

/* Clusters drawn in their classes' colours, as the style asks: only where
 * there are clusters and the data has a class for each point. */
static gboolean
class_colours_apply (LatentSnapshot          *snapshot,
                     const LatentFigureStyle *style,
                     const Points            *points)
{
  return style->colour_by_class && labels_usable (snapshot, points)
         && latent_dataset_has_labels (snapshot->dataset)
         && latent_dataset_get_n_rows (snapshot->dataset) == points->n;
}

static gboolean
responsibilities_usable (LatentSnapshot *snapshot,
                         const Points   *points)
{
  return is_mixture (snapshot) && snapshot->mixture.responsibilities != NULL
         && snapshot->n_rows == points->n;
}

static guint
cluster_size (LatentSnapshot *snapshot,
              guint           cluster)
{
  const LatentClustersPart *part = &snapshot->clusters;
  guint n = 0;

  if (part->cluster_sizes != NULL)
    return part->cluster_sizes[cluster];
  for (guint i = 0; i < snapshot->n_rows; i++)
    n += part->labels[i] == (gint32) cluster;
  return n;
}

/* The legend's last line when it cannot list every entry. */
static char *
more_text (guint n_more)
{
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "… and %u more", "… and %u more", n_more), n_more);
}

static char *
legend_text (LatentSnapshot *snapshot,
             const Layout   *layout,
             guint           entry)
{
  const gboolean by_class = layout->by_class, compact = layout->compact;
  const char *name;

  if (layout->mixture && !by_class)
    {
      double w = snapshot->mixture.weights[entry];

      /* A broken weight is left out rather than printed as "nan". */
      if (!isfinite (w))
        return compact ? g_strdup_printf ("%u", entry + 1)
                       : g_strdup_printf (_("component %u"), entry + 1);
      return compact ? g_strdup_printf ("%u (w = %.2f)", entry + 1, w)
                     : g_strdup_printf (_("component %u (w = %.2f)"), entry + 1, w);
    }
  if (!by_class && compact)
    return g_strdup_printf ("%u (n = %u)", entry + 1, cluster_size (snapshot, entry));
  if (!by_class)
    return g_strdup_printf (_("cluster %u (n = %u)"), entry + 1, cluster_size (snapshot, entry));
  name = latent_dataset_get_class_name (snapshot->dataset, entry);
  return name ? g_strdup (name) : g_strdup_printf (_("class %u"), entry + 1);
}

static const char *
legend_title (const Layout *layout)
{
  if (layout->mixture && !layout->by_class)
    return _("components");
  if (layout->n_entries == 0)
    return _("data");
  return layout->by_class ? _("classes") : _("clusters");
}

static const char *
rows_text (void)
{
  return _("rows");
}

/* The legend's entry for the model's marks when the colours are the classes'. */
static const char *
model_text (const Layout *layout)
{
  return layout->mixture ? _("component means") : _("cluster centres");
}

static void
grow_bounds (double  x,
             double  y,
             double *b)
{
  if (!isfinite (x) || !isfinite (y))
    return;
  b[0] = MIN (b[0], x);
  b[1] = MAX (b[1], x);
  b[2] = MIN (b[2], y);
  b[3] = MAX (b[3], y);
}

static void
data_bounds (const Points *points,
             Layout       *layout)
{
  const LatentScatterExtras *extras = points->extras;
  double b[4] = { INFINITY, -INFINITY, INFINITY, -INFINITY };
  double xmin, xmax, ymin, ymax, pad;

  for (guint i = 0; i < points->n; i++)
    grow_bounds (point_x (points, i), point_y (points, i), b);
  for (guint i = 0; extras && extras->extra && i < extras->n_extra; i++)
    grow_bounds (extras->extra[2 * (gsize) i], extras->extra[2 * (gsize) i + 1], b);
  xmin = b[0];
  xmax = b[1];
  ymin = b[2];
  ymax = b[3];

  if (!isfinite (xmin))
    xmin = xmax = ymin = ymax = 0.0;
  /* One value (or one column) still needs a visible range. */
  if (!(xmax > xmin))
    {
      pad = MAX (fabs (xmin) * 0.5, 1.0);
      xmin -= pad;
      xmax += pad;
    }
  if (!(ymax > ymin))
    {
      pad = MAX (fabs (ymin) * 0.5, 1.0);
      ymin -= pad;
      ymax += pad;
    }
  pad = (xmax - xmin) * 0.04;
  layout->xmin = xmin - pad;
  layout->xmax = xmax + pad;
  pad = (ymax - ymin) * 0.04;
  layout->ymin = ymin - pad;
  layout->ymax = ymax + pad;
}

static double
widest_tick (cairo_t                 *cr,
             const LatentFigureTicks *ticks)
{
  double widest = 0.0;
  char buf[64];

  for (guint i = 0; i < ticks->n; i++)
    {
      _latent_figure_format_tick (ticks->values[i], ticks->decimals, buf, sizeof buf);
      widest = MAX (widest, _latent_figure_text_width (cr, buf));
    }
  return widest;
}

static gboolean
compute_layout (LatentSnapshot          *snapshot,
                const LatentFigureStyle *style,
                const Points            *points,
                int                      width,
                int                      height,
                Layout                  *layout)
{
  const LatentClustersPart *part = &snapshot->clusters;
  cairo_t *cr = _latent_figure_measure_context (style);
  const double f = MAX (style->font_size, 1.0);
  double left, right, bottom, legend_w = 0.0;
  guint n_labels = 0;

  memset (layout, 0, sizeof *layout);
  layout->font = f;
  layout->swatch = round (f * 0.8);
  layout->header = _latent_figure_header (NULL, snapshot, style, width, NULL);
  if (style->has_view && style->view[1] > style->view[0] && style->view[3] > style->view[2])
    {
      layout->xmin = style->view[0];
      layout->xmax = style->view[1];
      layout->ymin = style->view[2];
      layout->ymax = style->view[3];
    }
  else
    data_bounds (points, layout);

  /* A mixture keeps its ellipses when its points take the classes' colours. */
  layout->mixture = is_mixture (snapshot);
  if (class_colours_apply (snapshot, style, points))
    {
      layout->by_class = TRUE;
      n_labels = latent_dataset_get_n_classes (snapshot->dataset);
    }
  else if (layout->mixture)
    n_labels = part->k;
  else if (labels_usable (snapshot, points))
    n_labels = part->k;
  else if (latent_dataset_has_labels (snapshot->dataset))
    {
      layout->by_class = TRUE;
      n_labels = latent_dataset_get_n_classes (snapshot->dataset);
    }
  layout->extra_entry = points->extras && points->extras->n_extra > 0 && points->extras->extra_name;
  /* A cluster's colour on its centre would read as a class: the palette
   * belongs to the classes, the centres are numbered instead. */
  layout->neutral_model = layout->by_class && part->means != NULL && part->k > 0
                          && points->projection != NULL;
  /* Rows in one colour need no legend, unless beside the crosses. */
  layout->rows_entry = layout->extra_entry && n_labels == 0;

  if (n_labels > 0 || layout->extra_entry)
    {
      layout->n_entries = n_labels > MAX_LEGEND_ENTRIES + 1 ? MAX_LEGEND_ENTRIES : n_labels;
      layout->n_more = n_labels - layout->n_entries;
      /* The long form, else a compact one; a legend that would squeeze the
       * plot is left out. */
      for (guint form = 0; form < 2 && !layout->legend; form++)
        {
          g_autofree char *more = more_text (layout->n_more);

          layout->compact = form == 1;
          _latent_figure_set_font (cr, style, 1.0, TRUE);
          legend_w = _latent_figure_text_width (cr, legend_title (layout));
          _latent_figure_set_font (cr, style, 1.0, FALSE);
          if (layout->n_more > 0)
            legend_w = MAX (legend_w, _latent_figure_text_width (cr, more));
          for (guint i = 0; i < layout->n_entries; i++)
            {
              g_autofree char *text = legend_text (snapshot, layout, i);
              legend_w = MAX (legend_w, layout->swatch + f * 0.5 + _latent_figure_text_width (cr, text));
            }
          if (layout->rows_entry)
            legend_w = MAX (legend_w, layout->swatch + f * 0.5 + _latent_figure_text_width (cr, rows_text ()));
          if (layout->neutral_model)
            legend_w = MAX (legend_w, layout->swatch + f * 0.5 + _latent_figure_text_width (cr, model_text (layout)));
          if (layout->extra_entry)
            legend_w = MAX (legend_w, layout->swatch + f * 0.5 + _latent_figure_text_width (cr, points->extras->extra_name));
          layout->legend = legend_w + f * 2.5 <= width * 0.35;
        }
    }

  /* Tick counts depend on the plot size and the margins on the tick labels:
   * estimate with the whole figure, then measure the labels. */
  _latent_figure_nice_ticks (layout->ymin, layout->ymax, MAX ((height - layout->header) / (f * 3.5), 3.0),
              &layout->yticks);
  left = f + f * 1.2 + f * 0.5 + widest_tick (cr, &layout->yticks) + f * 0.4 + f * 0.3;
  right = layout->legend ? legend_w + f * 2.5 : f * 1.5;
  bottom = f * 0.4 + f * 1.2 + f * 0.4 + f * 1.2 + f * 0.8;

  layout->plot_x = round (left);
  layout->plot_y = round (layout->header);
  layout->plot_w = floor (width - right - layout->plot_x);
  layout->plot_h = floor (height - bottom - layout->plot_y);
  layout->legend_x = layout->plot_x + layout->plot_w + f * 1.5;
  cairo_destroy (cr);
  if (layout->plot_w < MIN_PLOT_SIZE || layout->plot_h < MIN_PLOT_SIZE)
    return FALSE;

  _latent_figure_nice_ticks (layout->xmin, layout->xmax, MAX (layout->plot_w / (f * 7.0), 3.0), &layout->xticks);
  _latent_figure_nice_ticks (layout->ymin, layout->ymax, MAX (layout->plot_h / (f * 3.5), 3.0), &layout->yticks);
  return TRUE;
}

static inline double
map_x (const Layout *layout,
       double        x)
{
  return (x - layout->xmin) / (layout->xmax - layout->xmin) * layout->plot_w;
}

static inline double
map_y (const Layout *layout,
       double        y)
{
  return (layout->ymax - y) / (layout->ymax - layout->ymin) * layout->plot_h;
}

/* Premultiplied source-over of one constant colour. */
static inline guint32
blend (guint32 src,
       guint32 dst,
       guint   inv)
{
  guint32 rb = (dst & 0x00ff00ffu) * inv;
  guint32 ag = ((dst >> 8) & 0x00ff00ffu) * inv;

  rb = ((rb + ((rb >> 8) & 0x00ff00ffu) + 0x00800080u) >> 8) & 0x00ff00ffu;
  ag = (ag + ((ag >> 8) & 0x00ff00ffu) + 0x00800080u) & 0xff00ff00u;
  return src + (rb | ag);
}

/* Each center's region (the points nearest to it) tinted with its colour, for
 * data that is drawn without a projection: only then are the regions in the
 * plane the true ones. */
static void
draw_regions (LatentSnapshot          *snapshot,
              const LatentFigureStyle *style,
              const Points            *points,
              const Layout            *layout,
              guint32                 *pixels,
              int                      stride,
              int                      w,
              int                      h)
{
  const LatentClustersPart *part = &snapshot->clusters;
  const guint k = part->k;
  const double tint = style->dark ? 0.16 : 0.10;
  double br, bg, bb;
  g_autofree guint32 *colors = NULL;
  g_autofree float *centers = NULL;
  g_autofree guint *nearests = NULL;
  guint32 border = 0;

  /* Regions belong to k-means; a mixture's boundaries are not Voronoi
   * cells, nor are these on two columns chosen from more. */
  if (part->means == NULL || k < 2 || k > 256 || snapshot->n_cols != 2 ||
      is_mixture (snapshot) || points->projection == NULL || !latent_projection_is_exact (points->projection))
    return;
  if (layout->neutral_model)
    {
      double fr, fg, fb;

      latent_figure_style_get_background (style, &br, &bg, &bb);
      latent_figure_style_get_foreground (style, &fr, &fg, &fb);
      nearests = g_new (guint, (gsize) w * h);
      border = 0xff000000u
               | (guint32) lround ((br + (fr - br) * 0.35) * 255) << 16
               | (guint32) lround ((bg + (fg - bg) * 0.35) * 255) << 8
               | (guint32) lround ((bb + (fb - bb) * 0.35) * 255);
    }
  /* The centers as drawn: the columns may be swapped. */
  centers = g_new (float, 2 * k);
  for (guint c = 0; c < k; c++)
    latent_projection_apply (points->projection, part->means + 2 * c, centers + 2 * c);

  latent_figure_style_get_background (style, &br, &bg, &bb);
  colors = g_new (guint32, k);
  for (guint c = 0; c < k; c++)
    {
      double r, g, b;

      /* Points by class: the cells in one grey, their borders drawn below. */
      if (layout->neutral_model)
        latent_figure_style_get_foreground (style, &r, &g, &b);
      else
        latent_palette_color (c, &r, &g, &b);
      colors[c] = 0xff000000u
                  | (guint32) lround ((br + (r - br) * tint) * 255) << 16
                  | (guint32) lround ((bg + (g - bg) * tint) * 255) << 8
                  | (guint32) lround ((bb + (b - bb) * tint) * 255);
    }

  for (int py = 0; py < h; py++)
    {
      double y = layout->ymax - (py + 0.5) / h * (layout->ymax - layout->ymin);

      for (int px = 0; px < w; px++)
        {
          double x = layout->xmin + (px + 0.5) / w * (layout->xmax - layout->xmin);
          double best = INFINITY;
          guint nearest = 0;

          for (guint c = 0; c < k; c++)
            {
              double dx = x - centers[2 * c], dy = y - centers[2 * c + 1];
              double d = dx * dx + dy * dy;

              if (d < best)
                {
                  best = d;
                  nearest = c;
                }
            }
          pixels[(gsize) py * stride + px] = colors[nearest];
          if (layout->neutral_model)
            nearests[(gsize) py * w + px] = nearest;
        }
    }
  if (!layout->neutral_model)
    return;
  for (int py = 0; py < h; py++)
    for (int px = 0; px < w; px++)
      {
        guint here = nearests[(gsize) py * w + px];

        if ((px > 0 && nearests[(gsize) py * w + px - 1] != here)
            || (py > 0 && nearests[(gsize) (py - 1) * w + px] != here))
          pixels[(gsize) py * stride + px] = border;
      }
}

/* The palette squared: mixing in (roughly) linear light keeps a half-and-half
 * point as bright as its parents instead of a muddy darker shade. */
static float *
linear_palette (guint k)
{
  float *lin = g_new (float, 3 * (gsize) k);

  for (guint c = 0; c < k; c++)
    {
      double rgb[3];

      latent_palette_color (c, &rgb[0], &rgb[1], &rgb[2]);
      for (guint i = 0; i < 3; i++)
        lin[3 * c + i] = (float) (rgb[i] * rgb[i]);
    }
  return lin;
}

/* Σ r_ik · palette(k) for one row, premultiplied by alpha; FALSE when the row
 * has no usable responsibility (all zero, negative or not finite). */
static gboolean
mix_color (const float *resp,
           const float *lin,
           guint        k,
           guint        alpha,
           guint32     *color)
{
  float acc[3] = { 0.0f, 0.0f, 0.0f }, total = 0.0f;

  for (guint c = 0; c < k; c++)
    {
      float r = resp[c];

      if (!(r > 0.0f) || !isfinite (r))
        continue;
      total += r;
      acc[0] += r * lin[3 * c];
      acc[1] += r * lin[3 * c + 1];
      acc[2] += r * lin[3 * c + 2];
    }
  if (!(total > 0.0f) || !isfinite (total))
    return FALSE;

  *color = alpha << 24;
  for (guint i = 0; i < 3; i++)
    {
      /* Dividing by the total forgives rows that do not sum to one. */
      float v = sqrtf (CLAMP (acc[i] / total, 0.0f, 1.0f));
      *color |= (guint32) lrintf (v * alpha) << (16 - 8 * i);
    }
  return TRUE;
}

static cairo_surface_t *
draw_point_layer (LatentSnapshot          *snapshot,
                  const LatentFigureStyle *style,
                  const Points            *points,
                  const Layout            *layout,
                  double                   scale)
{
  const LatentClustersPart *part = &snapshot->clusters;
  const guint n = points->n;
  const gint32 *labels = NULL;
  int w = (int) ceil (layout->plot_w * scale), h = (int) ceil (layout->plot_h * scale);
  double sx = w / (layout->xmax - layout->xmin), sy = h / (layout->ymax - layout->ymin);
  double point_size = style->point_size > 0 ? style->point_size : auto_point_size (n);
  int size = MAX (1, (int) lround (point_size * scale));
  guint alpha = (guint) lround (auto_alpha (n) * 255.0), inv = 255 - alpha;
  g_autofree guint32 *colors = NULL;
  g_autofree int *offsets = NULL;
  g_autofree float *lin = NULL;
  const float *resp = NULL;
  guint n_colors, n_offsets = 0;
  guint32 neutral;
  cairo_surface_t *surface;
  guint32 *pixels;
  int stride;

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  if (cairo_surface_status (surface) != CAIRO_STATUS_SUCCESS)
    return surface;
  cairo_surface_flush (surface);
  pixels = (guint32 *) cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface) / 4;

  if (layout->by_class)
    {
      labels = latent_dataset_get_labels (snapshot->dataset);
      n_colors = latent_dataset_get_n_classes (snapshot->dataset);
    }
  else if (labels_usable (snapshot, points))
    {
      labels = part->labels;
      n_colors = part->k;
    }
  else
    n_colors = 0;

  /* Premultiplied once per colour, not once per point. */
  colors = g_new (guint32, n_colors + 1);
  for (guint c = 0; c <= n_colors; c++)
    {
      /* Unclustered rows are grey; a linear model's rows without classes
       * are simply the data, in the first colour. */
      guint32 argb = c < n_colors ? latent_palette_argb (c)
                     : points->linear ? latent_palette_argb (0)
                     : (style->dark ? 0xff8c8c90u : 0xff8a8a8eu);
      guint32 r = ((argb >> 16) & 0xff) * alpha / 255;
      guint32 g = ((argb >> 8) & 0xff) * alpha / 255;
      guint32 b = (argb & 0xff) * alpha / 255;
      colors[c] = (alpha << 24) | (r << 16) | (g << 8) | b;
    }
  neutral = colors[n_colors];
  if (!layout->by_class && responsibilities_usable (snapshot, points))
    {
      resp = snapshot->mixture.responsibilities;
      lin = linear_palette (part->k);
    }

  if (style->voronoi)
    draw_regions (snapshot, style, points, layout, pixels, stride, w, h);

  /* Pixel offsets of one point's footprint: a square, or a disc from 4 px. */
  offsets = g_new (int, 2 * size * size);
  for (int dy = 0; dy < size; dy++)
    for (int dx = 0; dx < size; dx++)
      {
        double cx = dx + 0.5 - size / 2.0, cy = dy + 0.5 - size / 2.0;
        if (size < 4 || cx * cx + cy * cy <= size * size / 4.0 + 0.25)
          {
            offsets[2 * n_offsets] = dx - size / 2;
            offsets[2 * n_offsets + 1] = dy - size / 2;
            n_offsets++;
          }
      }

  for (guint i = 0; i < n; i++)
    {
      double fx = (point_x (points, i) - layout->xmin) * sx;
      double fy = (layout->ymax - point_y (points, i)) * sy;
      guint32 color = neutral;
      int px, py;

      /* Also keeps NaN out of the integer conversion. */
      if (!(fx > -size && fx < w + size && fy > -size && fy < h + size))
        continue;
      px = (int) floor (fx);
      py = (int) floor (fy);

      if (resp == NULL || !mix_color (resp + (gsize) i * part->k, lin, part->k, alpha, &color))
        if (labels != NULL && labels[i] >= 0 && (guint) labels[i] < n_colors)
          color = colors[labels[i]];

      if (size == 1)
        {
          if (px >= 0 && py >= 0 && px < w && py < h)
            {
              guint32 *p = pixels + (gsize) py * stride + px;
              *p = alpha == 255 ? color : blend (color, *p, inv);
            }
          continue;
        }
      for (guint o = 0; o < n_offsets; o++)
        {
          int x = px + offsets[2 * o], y = py + offsets[2 * o + 1];
          if (x >= 0 && y >= 0 && x < w && y < h)
            {
              guint32 *p = pixels + (gsize) y * stride + x;
              *p = alpha == 255 ? color : blend (color, *p, inv);
            }
        }
    }

  cairo_surface_mark_dirty (surface);
  cairo_surface_set_device_scale (surface, scale, scale);
  return surface;
}

/* Device pixels per user unit, so the layer is as sharp as the target. */
static double
layer_scale (cairo_t                 *cr,
             const LatentFigureStyle *style)
{
  cairo_surface_t *target = cairo_get_target (cr);
  double dx = 1.0, dy = 0.0, sx = 1.0, sy = 1.0;

  if (style->pixel_scale > 0.0)
    return CLAMP (style->pixel_scale, 0.25, 8.0);
  /* PDF, SVG, recordings: no pixels to match, so a sharp enough layer. */
  if (cairo_surface_get_type (target) != CAIRO_SURFACE_TYPE_IMAGE)
    return VECTOR_LAYER_SCALE;
  cairo_user_to_device_distance (cr, &dx, &dy);
  cairo_surface_get_device_scale (target, &sx, &sy);
  return CLAMP (hypot (dx, dy) * sx, 0.25, 8.0);
}

/* Cairo image surfaces stop at 32767 pixels a side; vector files need far
 * fewer pixels for points than a 16384-pixel PNG does. */
static double
limit_layer_scale (cairo_t      *cr,
                   double        scale,
                   const Layout *layout)
{
  gboolean image = cairo_surface_get_type (cairo_get_target (cr)) == CAIRO_SURFACE_TYPE_IMAGE;
  double limit = image ? MAX_LAYER_SIZE : MAX_VECTOR_LAYER_SIZE;

  return MIN (scale, limit / MAX (layout->plot_w, layout->plot_h));
}

/* The plot's axes: the data's ticks below and to the left, with grid lines. */
static void
draw_frame (cairo_t                 *cr,
            const LatentFigureStyle *style,
            const Points            *points,
            const Layout            *l,
            gboolean                 grid)
{
  g_auto(GStrv) x_labels = _latent_figure_tick_labels (&l->xticks, NULL);
  g_auto(GStrv) y_labels = _latent_figure_tick_labels (&l->yticks, NULL);
  double x_at[_LATENT_FIGURE_MAX_TICKS], y_at[_LATENT_FIGURE_MAX_TICKS];
  LatentFigureAxes axes;

  for (guint i = 0; i < l->xticks.n; i++)
    x_at[i] = l->plot_x + map_x (l, l->xticks.values[i]);
  for (guint i = 0; i < l->yticks.n; i++)
    y_at[i] = l->plot_y + map_y (l, l->yticks.values[i]);
  _latent_figure_axes_init (&axes, style, l->plot_x, l->plot_y, l->plot_w, l->plot_h);
  axes.bottom = (LatentFigureAxis) { l->xticks.n, x_at, (const char * const *) x_labels, TRUE,
                                     points->axis_label[0] };
  axes.left = (LatentFigureAxis) { l->yticks.n, y_at, (const char * const *) y_labels, TRUE,
                                   points->axis_label[1] };
  /* The grid goes under the points, the rest over them. */
  if (grid)
    _latent_figure_draw_grid (cr, style, &axes);
  else
    _latent_figure_draw_axes (cr, style, &axes);
}

/* Where each center has been: a line through its earlier positions. */
static void
draw_trails (cairo_t                 *cr,
             LatentSnapshot          *snapshot,
             const LatentFigureStyle *style,
             LatentProjection        *projection,
             const Layout            *l)
{
  const LatentClustersPart *part = &snapshot->clusters;
  const gsize stride = (gsize) part->k * snapshot->n_cols;

  if (style->trail == NULL || style->n_trail == 0 || part->means == NULL ||
      snapshot->n_cols != latent_projection_get_n_cols (projection))
    return;

  cairo_save (cr);
  cairo_set_line_width (cr, MAX (1.5, l->font * 0.14));
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  for (guint c = 0; c < part->k; c++)
    {
      double r, g, b;
      float xy[2];

      for (guint t = 0; t <= style->n_trail; t++)
        {
          const float *mean = t < style->n_trail ? style->trail + t * stride + (gsize) c * snapshot->n_cols
                                                 : part->means + (gsize) c * snapshot->n_cols;

          latent_projection_apply (projection, mean, xy);
          if (!isfinite (xy[0]) || !isfinite (xy[1]))
            continue;
          cairo_line_to (cr, l->plot_x + map_x (l, xy[0]), l->plot_y + map_y (l, xy[1]));
        }
      if (l->neutral_model)
        latent_figure_style_get_foreground (style, &r, &g, &b);
      else
        latent_palette_color (c, &r, &g, &b);
      cairo_set_source_rgba (cr, r, g, b, l->neutral_model ? 0.6 : 0.85);
      cairo_stroke (cr);
    }
  cairo_restore (cr);
}

/* Paths past this many pixels overflow Cairo's fixed-point coordinates. */
#define MAX_ELLIPSE_EXTENT 1e6

/* P Σ Pᵀ: component @c's covariance seen in the plane of the two axes. FALSE
 * when it holds a NaN or an infinity. */
static gboolean
projected_covariance (LatentSnapshot   *snapshot,
                      LatentProjection *projection,
                      guint             c,
                      double            s[3])
{
  const guint d = snapshot->n_cols;
  const gsize per = latent_snapshot_covariance_values (snapshot);
  const float *cov = snapshot->mixture.covariances + (gsize) c * per;
  const float *axis[2] = { latent_projection_get_axis (projection, 0),
                           latent_projection_get_axis (projection, 1) };
  double out[2][2] = { { 0.0, 0.0 }, { 0.0, 0.0 } };

  for (guint a = 0; a < 2; a++)
    for (guint b = a; b < 2; b++)
      {
        double sum = 0.0;

        for (guint i = 0; i < d; i++)
          {
            double row = 0.0;

            if (axis[a][i] == 0.0f)
              continue;
            /* Diagonal and spherical models keep only the variances. */
            if (snapshot->mixture.covariance_type != LATENT_COVARIANCE_FULL)
              row = (double) cov[snapshot->mixture.covariance_type == LATENT_COVARIANCE_DIAGONAL ? i : 0] * axis[b][i];
            else
              for (guint j = 0; j < d; j++)
                if (axis[b][j] != 0.0f)
                  row += (double) cov[(gsize) i * d + j] * axis[b][j];
            sum += axis[a][i] * row;
          }
        out[a][b] = sum;
      }
  s[0] = out[0][0];
  s[1] = out[0][1];
  s[2] = out[1][1];
  return isfinite (s[0]) && isfinite (s[1]) && isfinite (s[2]);
}

/* The symmetric 2 × 2 matrix [s0 s1; s1 s2] as V diag(λ) Vᵀ: the major axis
 * angle and both eigenvalues, the larger first; tiny negative eigenvalues
 * from rounding count as zero. */
static void
eigen_2x2 (const double  s[3],
           double       *angle,
           double       *major,
           double       *minor)
{
  double mid = (s[0] + s[2]) / 2.0;
  double radius = hypot ((s[0] - s[2]) / 2.0, s[1]);

  *major = MAX (mid + radius, 0.0);
  *minor = MAX (mid - radius, 0.0);
  *angle = 0.5 * atan2 (2.0 * s[1], s[0] - s[2]);
}

/* The unit circle as eight cubic Béziers, each control point sent through
 * the 2 × 2 map m and shifted to (x0, y0). Béziers survive any affine map, so
 * this is the ellipse exactly as a transformed circle would be, and a flat
 * ellipse (a one-column dataset) is a segment instead of a singular matrix. */
static void
ellipse_path (cairo_t      *cr,
              const double  m[4],
              double        x0,
              double        y0)
{
  const guint n = 8;
  const double h = 4.0 / 3.0 * tan (G_PI / (2.0 * n));

#define MAP_X(u, v) (x0 + m[0] * (u) + m[1] * (v))
#define MAP_Y(u, v) (y0 + m[2] * (u) + m[3] * (v))
  cairo_new_sub_path (cr);
  cairo_move_to (cr, MAP_X (1.0, 0.0), MAP_Y (1.0, 0.0));
  for (guint i = 0; i < n; i++)
    {
      double a = 2.0 * G_PI * i / n, b = 2.0 * G_PI * (i + 1) / n;
      double ca = cos (a), sa = sin (a), cb = cos (b), sb = sin (b);
      double u1 = ca - h * sa, v1 = sa + h * ca;
      double u2 = cb + h * sb, v2 = sb - h * cb;

      cairo_curve_to (cr, MAP_X (u1, v1), MAP_Y (u1, v1), MAP_X (u2, v2), MAP_Y (u2, v2),
                      MAP_X (cb, sb), MAP_Y (cb, sb));
    }
  cairo_close_path (cr);
#undef MAP_X
#undef MAP_Y
}

/* Each component's 1σ (solid) and 2σ (dashed) ellipse in its colour, over a
 * halo in the background colour so they read on top of the points. */
static void
draw_ellipses (cairo_t                 *cr,
               LatentSnapshot          *snapshot,
               const LatentFigureStyle *style,
               LatentProjection        *projection,
               const Layout            *l)
{
  const LatentClustersPart *part = &snapshot->clusters;
  const double dash[] = { 6.0, 4.0 };
  /* The halo's dashes reach 1 unit past each end of the line's. */
  const double halo_dash[] = { 8.0, 2.0 };
  const double sx = l->plot_w / (l->xmax - l->xmin), sy = l->plot_h / (l->ymax - l->ymin);
  double br, bg, bb;

  if (!is_mixture (snapshot) || snapshot->mixture.covariances == NULL || part->means == NULL
      || snapshot->n_cols != latent_projection_get_n_cols (projection))
    return;

  latent_figure_style_get_background (style, &br, &bg, &bb);
  cairo_save (cr);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  for (guint c = 0; c < part->k; c++)
    {
      double s[3], angle, major, minor, r, g, b, x0, y0, a1, a2, m[4];
      float xy[2];

      latent_projection_apply (projection, part->means + (gsize) c * snapshot->n_cols, xy);
      if (!isfinite (xy[0]) || !isfinite (xy[1])
          || !projected_covariance (snapshot, projection, c, s))
        continue;
      eigen_2x2 (s, &angle, &major, &minor);
      x0 = l->plot_x + map_x (l, xy[0]);
      y0 = l->plot_y + map_y (l, xy[1]);
      a1 = sqrt (major);
      a2 = sqrt (minor);

      /* Unit circle → data (rotate, scale by the standard deviations) →
       * pixels (scale, y pointing down). */
      m[0] = sx * cos (angle) * a1;
      m[1] = -sx * sin (angle) * a2;
      m[2] = -sy * sin (angle) * a1;
      m[3] = -sy * cos (angle) * a2;
      if (!isfinite (m[0] + m[1] + m[2] + m[3])
          || fabs (x0) + 2.0 * (fabs (m[0]) + fabs (m[1])) > MAX_ELLIPSE_EXTENT
          || fabs (y0) + 2.0 * (fabs (m[2]) + fabs (m[3])) > MAX_ELLIPSE_EXTENT)
        continue;

      if (l->neutral_model)
        latent_figure_style_get_foreground (style, &r, &g, &b);
      else
        latent_palette_color (c, &r, &g, &b);
      for (int sigma = 2; sigma >= 1; sigma--)
        {
          double ms[4] = { m[0] * sigma, m[1] * sigma, m[2] * sigma, m[3] * sigma };

          ellipse_path (cr, ms, x0, y0);
          cairo_set_source_rgba (cr, br, bg, bb, 0.75);
          cairo_set_line_width (cr, 4.0);
          if (sigma == 2)
            cairo_set_dash (cr, halo_dash, G_N_ELEMENTS (halo_dash), 1.0);
          cairo_stroke_preserve (cr);

          cairo_set_source_rgb (cr, r, g, b);
          cairo_set_line_width (cr, 1.5);
          if (sigma == 2)
            cairo_set_dash (cr, dash, G_N_ELEMENTS (dash), 0.0);
          cairo_stroke (cr);
          cairo_set_dash (cr, NULL, 0, 0.0);
        }
    }
  cairo_restore (cr);
}

/* The cluster's number beside its neutral marker, over a halo. */
static void
draw_centroid_number (cairo_t                 *cr,
                      const LatentFigureStyle *style,
                      guint                    cluster,
                      double                   x,
                      double                   y,
                      double                   font)
{
  char text[16];
  double br, bg, bb;

  g_snprintf (text, sizeof text, "%u", cluster + 1);
  cairo_save (cr);
  _latent_figure_set_font (cr, style, 0.85, TRUE);
  latent_figure_style_get_background (style, &br, &bg, &bb);
  cairo_move_to (cr, x, y);
  cairo_text_path (cr, text);
  cairo_set_source_rgb (cr, br, bg, bb);
  cairo_set_line_width (cr, MAX (3.0, font * 0.25));
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  cairo_stroke (cr);
  _latent_figure_set_color_mix (cr, style, 1.0);
  cairo_move_to (cr, x, y);
  cairo_show_text (cr, text);
  cairo_restore (cr);
}

static void
draw_centroids (cairo_t                 *cr,
                LatentSnapshot          *snapshot,
                const LatentFigureStyle *style,
                LatentProjection        *projection,
                const Layout            *l)
{
  const LatentClustersPart *part = &snapshot->clusters;
  const double r = MAX (5.0, l->font * 0.6);
  double br, bg, bb, fr, fg, fb;

  if (part->means == NULL || part->k == 0
      || snapshot->n_cols != latent_projection_get_n_cols (projection))
    return;

  latent_figure_style_get_background (style, &br, &bg, &bb);
  latent_figure_style_get_foreground (style, &fr, &fg, &fb);
  cairo_save (cr);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_MITER);
  for (guint c = 0; c < part->k; c++)
    {
      float xy[2];
      double x, y, cr_, cg, cb;

      latent_projection_apply (projection, part->means + (gsize) c * snapshot->n_cols, xy);
      if (!isfinite (xy[0]) || !isfinite (xy[1]))
        continue;
      x = l->plot_x + map_x (l, xy[0]);
      y = l->plot_y + map_y (l, xy[1]);

      cairo_move_to (cr, x, y - r * 1.25);
      cairo_line_to (cr, x + r, y);
      cairo_line_to (cr, x, y + r * 1.25);
      cairo_line_to (cr, x - r, y);
      cairo_close_path (cr);

      /* A halo in the background colour keeps the marker readable on top of
       * points of its own colour. */
      cairo_set_source_rgb (cr, br, bg, bb);
      cairo_set_line_width (cr, 4.5);
      cairo_stroke_preserve (cr);
      if (l->neutral_model)
        cairo_set_source_rgb (cr, br, bg, bb);
      else
        {
          latent_palette_color (c, &cr_, &cg, &cb);
          cairo_set_source_rgb (cr, cr_, cg, cb);
        }
      cairo_fill_preserve (cr);
      cairo_set_source_rgb (cr, fr, fg, fb);
      cairo_set_line_width (cr, 1.5);
      cairo_stroke (cr);
      if (l->neutral_model)
        draw_centroid_number (cr, style, c, x + r * 1.1, y - r * 0.9, l->font);
    }
  cairo_restore (cr);
}

/* Smaller as they get many, so they do not hide the rows beneath. */
static double
cross_radius (const Layout *l,
              guint         n)
{
  double scale = n <= 30 ? 0.4 : n <= 200 ? 0.3 : 0.22;

  return MAX (2.5, round (l->font * scale));
}

/* A sample: an × in the foreground colour over a halo of the background, so
 * it reads on points of any colour. */
static void
draw_cross (cairo_t                 *cr,
            const LatentFigureStyle *style,
            double                   x,
            double                   y,
            double                   r)
{
  double br, bg, bb;

  cairo_save (cr);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  cairo_move_to (cr, x - r, y - r);
  cairo_line_to (cr, x + r, y + r);
  cairo_move_to (cr, x - r, y + r);
  cairo_line_to (cr, x + r, y - r);
  latent_figure_style_get_background (style, &br, &bg, &bb);
  cairo_set_source_rgba (cr, br, bg, bb, 0.8);
  cairo_set_line_width (cr, MAX (3.0, r * 0.8));
  cairo_stroke_preserve (cr);
  _latent_figure_set_color_mix (cr, style, 1.0);
  cairo_set_line_width (cr, MAX (1.3, r * 0.3));
  cairo_stroke (cr);
  cairo_restore (cr);
}

static void
draw_extras (cairo_t                 *cr,
             const LatentFigureStyle *style,
             const Points            *points,
             const Layout            *l)
{
  const LatentScatterExtras *extras = points->extras;
  LatentFigurePlot plot;

  if (extras == NULL)
    return;
  for (guint i = 0; extras->extra && i < extras->n_extra; i++)
    {
      double x = extras->extra[2 * (gsize) i], y = extras->extra[2 * (gsize) i + 1];
      double px, py;

      if (!isfinite (x) || !isfinite (y))
        continue;
      px = l->plot_x + map_x (l, x);
      py = l->plot_y + map_y (l, y);
      /* Far outside a zoomed view: nothing to see, and Cairo would overflow. */
      if (fabs (px) > 1e6 || fabs (py) > 1e6)
        continue;
      draw_cross (cr, style, px, py, cross_radius (l, extras->n_extra));
    }
  if (extras->overlay == NULL)
    return;
  plot = (LatentFigurePlot) { l->plot_x, l->plot_y, l->plot_w, l->plot_h,
                              l->xmin, l->xmax, l->ymin, l->ymax };
  cairo_save (cr);
  extras->overlay (cr, style, &plot, extras->overlay_data);
  cairo_restore (cr);
}

static void
draw_legend (cairo_t                 *cr,
             LatentSnapshot          *snapshot,
             const LatentFigureStyle *style,
             const Points            *points,
             const Layout            *l)
{
  const double f = l->font, line = f * 1.5;
  double y = l->plot_y + f;

  cairo_save (cr);
  _latent_figure_set_font (cr, style, 1.0, TRUE);
  _latent_figure_set_color_mix (cr, style, 1.0);
  cairo_move_to (cr, l->legend_x, y);
  cairo_show_text (cr, legend_title (l));
  y += line * 0.4;

  _latent_figure_set_font (cr, style, 1.0, FALSE);
  for (guint i = 0; i < l->n_entries && y + line <= l->plot_y + l->plot_h; i++)
    {
      g_autofree char *text = legend_text (snapshot, l, i);
      double r, g, b;

      y += line;
      latent_palette_color (i, &r, &g, &b);
      cairo_set_source_rgb (cr, r, g, b);
      cairo_rectangle (cr, l->legend_x, y - f * 0.5 - l->swatch / 2.0, l->swatch, l->swatch);
      cairo_fill (cr);
      _latent_figure_set_color_mix (cr, style, 1.0);
      cairo_move_to (cr, l->legend_x + l->swatch + f * 0.5, y - f * 0.5 + f * 0.35);
      cairo_show_text (cr, text);
    }
  if (l->n_more > 0)
    {
      g_autofree char *more = more_text (l->n_more);

      y += line;
      _latent_figure_set_color_mix (cr, style, 0.6);
      cairo_move_to (cr, l->legend_x, y - f * 0.5 + f * 0.35);
      cairo_show_text (cr, more);
    }
  if (l->rows_entry && y + line <= l->plot_y + l->plot_h)
    {
      double r, g, b;

      y += line;
      latent_palette_color (0, &r, &g, &b);
      cairo_set_source_rgb (cr, r, g, b);
      cairo_rectangle (cr, l->legend_x, y - f * 0.5 - l->swatch / 2.0, l->swatch, l->swatch);
      cairo_fill (cr);
      _latent_figure_set_color_mix (cr, style, 1.0);
      cairo_move_to (cr, l->legend_x + l->swatch + f * 0.5, y - f * 0.5 + f * 0.35);
      cairo_show_text (cr, rows_text ());
    }
  if (l->neutral_model && y + line <= l->plot_y + l->plot_h)
    {
      double br, bg, bb, fr, fg, fb, cx = l->legend_x + l->swatch / 2.0, cy = y + line - f * 0.5;
      double r = l->swatch / 2.0;

      y += line;
      latent_figure_style_get_background (style, &br, &bg, &bb);
      latent_figure_style_get_foreground (style, &fr, &fg, &fb);
      cairo_move_to (cr, cx, cy - r * 1.25);
      cairo_line_to (cr, cx + r, cy);
      cairo_line_to (cr, cx, cy + r * 1.25);
      cairo_line_to (cr, cx - r, cy);
      cairo_close_path (cr);
      cairo_set_source_rgb (cr, br, bg, bb);
      cairo_fill_preserve (cr);
      cairo_set_source_rgb (cr, fr, fg, fb);
      cairo_set_line_width (cr, 1.5);
      cairo_stroke (cr);
      _latent_figure_set_color_mix (cr, style, 1.0);
      cairo_move_to (cr, l->legend_x + l->swatch + f * 0.5, y - f * 0.5 + f * 0.35);
      cairo_show_text (cr, model_text (l));
    }
  if (l->extra_entry && y + line <= l->plot_y + l->plot_h)
    {
      y += line;
      draw_cross (cr, style, l->legend_x + l->swatch / 2.0, y - f * 0.5, cross_radius (l, points->extras->n_extra));
      _latent_figure_set_color_mix (cr, style, 1.0);
      cairo_move_to (cr, l->legend_x + l->swatch + f * 0.5, y - f * 0.5 + f * 0.35);
      cairo_show_text (cr, points->extras->extra_name);
    }
  /* What the two line styles of the ellipses mean. */
  if (l->mixture && snapshot->mixture.covariances != NULL)
    {
      const double dash[] = { 6.0, 4.0 };

      y += line * 0.3;
      for (int sigma = 1; sigma <= 2 && y + line <= l->plot_y + l->plot_h; sigma++)
        {
          y += line;
          _latent_figure_set_color_mix (cr, style, 0.75);
          cairo_set_line_width (cr, 1.5);
          cairo_set_dash (cr, dash, sigma == 2 ? G_N_ELEMENTS (dash) : 0, 0.0);
          cairo_move_to (cr, l->legend_x, y - f * 0.5);
          cairo_rel_line_to (cr, l->swatch * 2.0, 0.0);
          cairo_stroke (cr);
          cairo_set_dash (cr, NULL, 0, 0.0);
          _latent_figure_set_color_mix (cr, style, 1.0);
          cairo_move_to (cr, l->legend_x + l->swatch * 2.0 + f * 0.5, y - f * 0.5 + f * 0.35);
          cairo_show_text (cr, sigma == 1 ? "1σ" : "2σ");
        }
    }
  cairo_restore (cr);
}

void
_latent_figure_scatter_draw_extras (LatentSnapshot            *snapshot,
                                    const LatentFigureStyle   *style,
                                    const LatentScatterExtras *extras,
                                    cairo_t                   *cr,
                                    int                        width,
                                    int                        height)
{
  cairo_surface_t *layer;
  const char *message;
  Points points;
  Layout layout;
  double scale;

  cairo_save (cr);
  if (!points_init (&points, snapshot, style, extras, &message))
    {
      _latent_figure_message (cr, style, width, height, message);
      cairo_restore (cr);
      return;
    }
  if (!compute_layout (snapshot, style, &points, width, height, &layout))
    {
      points_clear (&points);
      cairo_restore (cr);
      return;
    }

  draw_frame (cr, style, &points, &layout, TRUE);

  scale = limit_layer_scale (cr, layer_scale (cr, style), &layout);
  layer = draw_point_layer (snapshot, style, &points, &layout, scale);
  if (cairo_surface_status (layer) == CAIRO_STATUS_SUCCESS)
    {
      cairo_save (cr);
      cairo_rectangle (cr, layout.plot_x, layout.plot_y, layout.plot_w, layout.plot_h);
      cairo_clip (cr);
      cairo_set_source_surface (cr, layer, layout.plot_x, layout.plot_y);
      /* Points are already pixels: no smoothing between them. */
      cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
      cairo_paint (cr);
      cairo_restore (cr);
    }
  cairo_surface_destroy (layer);

  draw_frame (cr, style, &points, &layout, FALSE);
  cairo_save (cr);
  cairo_rectangle (cr, layout.plot_x, layout.plot_y, layout.plot_w, layout.plot_h);
  cairo_clip (cr);
  /* Centres, their trails and ellipses live in the dataset's own view. */
  if (points.projection != NULL)
    {
      draw_trails (cr, snapshot, style, points.projection, &layout);
      draw_ellipses (cr, snapshot, style, points.projection, &layout);
      draw_centroids (cr, snapshot, style, points.projection, &layout);
    }
  draw_extras (cr, style, &points, &layout);
  cairo_restore (cr);
  if (layout.legend)
    draw_legend (cr, snapshot, style, &points, &layout);
  points_clear (&points);
  cairo_restore (cr);
}

static void
_latent_figure_scatter_draw (LatentSnapshot          *snapshot,
                             const LatentFigureStyle *style,
                             cairo_t                 *cr,
                             double                   top,
                             int                      width,
                             int                      height)
{
  _latent_figure_scatter_draw_extras (snapshot, style, NULL, cr, width, height);
}

/* The plain scatter's points and layout, for hit tests; FALSE (with nothing
 * to clear) when it draws no plot. */
static gboolean
scatter_layout (LatentSnapshot          *snapshot,
                const LatentFigureStyle *style,
                int                      width,
                int                      height,
                Points                  *points,
                Layout                  *layout)
{
  const char *message;

  if (!points_init (points, snapshot, style, NULL, &message))
    return FALSE;
  if (!compute_layout (snapshot, style, points, width, height, layout))
    {
      points_clear (points);
      return FALSE;
    }
  return TRUE;
}

gboolean
latent_figure_scatter_locate (LatentSnapshot          *snapshot,
                              const LatentFigureStyle *style,
                              int                      width,
                              int                      height,
                              double                   x,
                              double                   y,
                              double                  *px,
                              double                  *py)
{
  Points points;
  Layout layout;

  g_return_val_if_fail (snapshot != NULL, FALSE);
  g_return_val_if_fail (style != NULL, FALSE);

  if (!scatter_layout (snapshot, style, width, height, &points, &layout))
    return FALSE;
  if (px) *px = layout.plot_x + map_x (&layout, x);
  if (py) *py = layout.plot_y + map_y (&layout, y);
  points_clear (&points);
  return TRUE;
}

gboolean
latent_figure_scatter_bounds (LatentSnapshot          *snapshot,
                              const LatentFigureStyle *style,
                              int                      width,
                              int                      height,
                              double                  *view,
                              double                  *plot)
{
  Points points;
  Layout layout;

  g_return_val_if_fail (snapshot != NULL && style != NULL, FALSE);

  if (!scatter_layout (snapshot, style, width, height, &points, &layout))
    return FALSE;
  if (view)
    {
      view[0] = layout.xmin;
      view[1] = layout.xmax;
      view[2] = layout.ymin;
      view[3] = layout.ymax;
    }
  if (plot)
    {
      plot[0] = layout.plot_x;
      plot[1] = layout.plot_y;
      plot[2] = layout.plot_w;
      plot[3] = layout.plot_h;
    }
  points_clear (&points);
  return TRUE;
}

gint64
latent_figure_scatter_pick (LatentSnapshot          *snapshot,
                            const LatentFigureStyle *style,
                            int                      width,
                            int                      height,
                            double                   x,
                            double                   y,
                            double                   radius)
{
  double best = radius * radius;
  gint64 nearest = -1;
  Points points;
  Layout layout;

  g_return_val_if_fail (snapshot != NULL && style != NULL, -1);

  if (!scatter_layout (snapshot, style, width, height, &points, &layout))
    return -1;
  for (guint i = 0; i < points.n; i++)
    {
      double dx = layout.plot_x + map_x (&layout, point_x (&points, i)) - x;
      double dy = layout.plot_y + map_y (&layout, point_y (&points, i)) - y;

      if (dx * dx + dy * dy <= best)
        {
          best = dx * dx + dy * dy;
          nearest = i;
        }
    }
  points_clear (&points);
  return nearest;
}

/* A linear model's scatter is its own projection, not the data's view. */
static gboolean
scatter_uses_axes (LatentSnapshot *snapshot)
{
  return !_latent_figure_is_linear (snapshot);
}

const LatentFigureKindRow _latent_figure_scatter_kinds[] = {
  { .kind = LATENT_FIGURE_SCATTER,
    .title = N_("Scatter"),
    .draw = _latent_figure_scatter_draw,
    .uses_axes = scatter_uses_axes },
  { .kind = LATENT_FIGURE_AUTO }
};

guint
latent_figure_collect_trail (LatentSnapshot          *shown,
                             LatentSnapshot   * const *earlier,
                             guint                    n,
                             guint                    max,
                             GArray                  *trail)
{
  guint k = 0, frame_k = 0, n_trail = 0;

  g_return_val_if_fail (trail != NULL, 0);

  if (shown == NULL || latent_clusters_get_means (shown, &k) == NULL)
    return 0;
  for (guint i = n > max ? n - max : 0; i < n; i++)
    {
      LatentSnapshot *frame = earlier[i];
      /* Another K, or a restart's state, is no trail of these centres. */
      const float *means = latent_clusters_get_means (frame, &frame_k);

      if (means == NULL || frame_k != k || frame->n_cols != shown->n_cols || frame->iteration >= shown->iteration)
        continue;
      g_array_append_vals (trail, means, (gsize) k * shown->n_cols);
      n_trail++;
    }
  return n_trail;
}
