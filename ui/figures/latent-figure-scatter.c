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
  else if (snapshot->embedding.positions != NULL && snapshot->embedding.n_dims >= 2 && snapshot->n_rows == n_rows)
    {
      /* An embedding's own axes have no meaning beyond their names. */
      points->xy = snapshot->embedding.positions;
      points->stride = snapshot->embedding.n_dims;
      points->n = n_rows;
      for (guint a = 0; a < 2; a++)
        points->axis_label[a] = g_strdup_printf ("%s %u", _(snapshot->algorithm->short_title), a + 1);
      return TRUE;
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

/* The points' own extent: a pass over every row, which a density image
 * keeps so that redrawing ten million points does not repeat it. */
static void
points_extent (const Points *points,
               double       *b)
{
  b[0] = b[2] = INFINITY;
  b[1] = b[3] = -INFINITY;
  for (guint i = 0; i < points->n; i++)
    grow_bounds (point_x (points, i), point_y (points, i), b);
}

static void
data_bounds (const Points *points,
             const double *extent,
             Layout       *layout)
{
  const LatentScatterExtras *extras = points->extras;
  double b[4];
  double xmin, xmax, ymin, ymax, pad;

  if (extent != NULL)
    memcpy (b, extent, sizeof b);
  else
    points_extent (points, b);
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

/* Axes whose spans are within this factor of each other are taken to
 * measure the same kind of thing (blobs' coordinates, an embedding, Iris'
 * centimetres): one unit is as long across as up, so a spherical
 * component is drawn round. Spans further apart (age against income)
 * fill the plot each. */
#define SAME_UNITS_RATIO 4.0

/* The shorter span widened about its middle to the plot's proportion. */
static void
equal_aspect (Layout *layout)
{
  double xspan = layout->xmax - layout->xmin, yspan = layout->ymax - layout->ymin;
  double per_x = xspan / layout->plot_w, per_y = yspan / layout->plot_h;

  if (!(xspan > 0 && yspan > 0) || MAX (xspan, yspan) > SAME_UNITS_RATIO * MIN (xspan, yspan))
    return;
  if (per_x > per_y)
    {
      double grow = (per_x * layout->plot_h - yspan) / 2;

      layout->ymin -= grow;
      layout->ymax += grow;
    }
  else
    {
      double grow = (per_y * layout->plot_w - xspan) / 2;

      layout->xmin -= grow;
      layout->xmax += grow;
    }
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
                const double            *extent,
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
    data_bounds (points, extent, layout);

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
  if (!(style->has_view && style->view[1] > style->view[0] && style->view[3] > style->view[2]))
    equal_aspect (layout);

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
                  double                   scale,
                  gboolean                 regions_only)
{
  const LatentClustersPart *part = &snapshot->clusters;
  const guint n = regions_only ? 0 : points->n;
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

/* Density ------------------------------------------------------------------
 *
 * More points than pixels hide each other: drawn one by one, the last
 * drawn wins and a pixel of a thousand points looks like one of a single
 * point. Counted per pixel instead, each pixel takes the colour most of its
 * points have and an opacity from the log of its count. The counting is a
 * single pass over the rows with integer pixel indices, split between
 * threads for large sets; the image keeps what it was binned for, so a view
 * can bin on a thread of its own and its draws only paint the image. */

/* Points per thread below which another thread costs more than it saves. */
#define DENSITY_ROWS_PER_THREAD 500000
#define DENSITY_MAX_THREADS 4
/* Counters of one binning (pixels × colours), all threads together: a
 * larger image is binned at a lower resolution and drawn stretched. */
#define DENSITY_MAX_CELLS (24u << 20)

typedef struct {
  LatentSnapshot *snapshot;       /* compared, not held */
  guint           iteration;      /* the snapshot's, so a new one at a freed
                                   * one's address is told apart */
  const float    *xy;             /* the rows binned: compared, not held */
  gsize           stride;
  guint           n;
  double          extent[4];      /* the points' own extent (points_extent) */
  double          window[4];      /* xmin, xmax, ymin, ymax binned */
  int             fig_width, fig_height;
  double          scale;          /* the pixel scale asked for */
  gboolean        by_class, dark, has_labels;
  guint           n_colors;       /* slot n_colors: points with no colour */
  int             w, h;           /* the image's pixels */
  guint32        *counts;         /* w × h */
  guint16        *majority;       /* w × h */
} DensityInfo;

static const cairo_user_data_key_t density_key;
static gint density_n_binned;

static void
density_info_free (gpointer data)
{
  DensityInfo *info = data;

  g_free (info->counts);
  g_free (info->majority);
  g_free (info);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DensityInfo, density_info_free)

static DensityInfo *
density_info (cairo_surface_t *density)
{
  if (density == NULL || cairo_surface_status (density) != CAIRO_STATUS_SUCCESS)
    return NULL;
  return cairo_surface_get_user_data (density, &density_key);
}

guint
_latent_figure_density_n_binned (void)
{
  return (guint) g_atomic_int_get (&density_n_binned);
}

static gboolean
density_applies (const Points *points,
                 const Layout *layout)
{
  return (double) points->n > layout->plot_w * layout->plot_h;
}

/* The extent a density image of these same rows already knows, or NULL. */
static const double *
known_extent (const LatentFigureStyle *style,
              const Points            *points)
{
  DensityInfo *info = density_info (style->density);

  if (info == NULL || info->xy != points->xy || info->n != points->n || info->stride != points->stride)
    return NULL;
  return info->extent;
}

/* Which colour each row has, as the point layer chooses it: classes,
 * clusters (a mixture's most responsible component), or none. */
static const gint32 *
density_labels (LatentSnapshot *snapshot,
                const Points   *points,
                const Layout   *layout,
                guint          *n_colors)
{
  *n_colors = 0;
  if (layout->by_class)
    {
      *n_colors = latent_dataset_get_n_classes (snapshot->dataset);
      return latent_dataset_get_labels (snapshot->dataset);
    }
  if (labels_usable (snapshot, points))
    {
      *n_colors = snapshot->clusters.k;
      return snapshot->clusters.labels;
    }
  return NULL;
}

typedef struct {
  const float  *xy;
  gsize         stride;
  const gint32 *labels;
  guint         n_colors;
  guint         first, last;
  float         xmin, ymax, sx, sy;
  int           w, h;
  /* Counters, pixels × (n_colors + 1), zeroed: 16 bits (half the memory
   * each row's random write touches, so more of it stays in cache) unless
   * a counter overflowed once already; then 32. */
  guint16      *cells16;
  guint32      *cells32;
  gboolean      overflow;
  GCancellable *cancellable;
} BinJob;

/* Row @i's counter, or −1 outside the image (or not finite). */
static inline gssize
row_cell (const BinJob *job,
          guint         i)
{
  const float *p = job->xy + (gsize) i * job->stride;
  float fx = (p[0] - job->xmin) * job->sx, fy = (job->ymax - p[1]) * job->sy;
  guint slot = job->n_colors;

  /* Also keeps NaN out of the integer conversion. */
  if (!(fx >= 0.0f && fx < (float) job->w && fy >= 0.0f && fy < (float) job->h))
    return -1;
  if (job->labels != NULL && job->labels[i] >= 0 && (guint) job->labels[i] < job->n_colors)
    slot = (guint) job->labels[i];
  return (gssize) (((gsize) (int) fy * job->w + (int) fx) * (job->n_colors + 1) + slot);
}

static gpointer
bin_rows (gpointer data)
{
  BinJob *job = data;

  for (guint i = job->first; i < job->last; i++)
    {
      gssize cell;

      /* A cancelled view stops within a million rows. */
      if ((i & 0xfffff) == 0 && g_cancellable_is_cancelled (job->cancellable))
        break;
      cell = row_cell (job, i);
      if (cell < 0)
        continue;
      if (job->cells32 != NULL)
        job->cells32[cell]++;
      else if (G_UNLIKELY (++job->cells16[cell] == 0))
        {
          /* Rare (65,536 rows of one colour in one pixel): the caller
           * starts again with 32-bit counters. */
          job->overflow = TRUE;
          break;
        }
    }
  return NULL;
}

static cairo_surface_t *
bin_density (LatentSnapshot          *snapshot,
             const LatentFigureStyle *style,
             const Points            *points,
             const Layout            *layout,
             const double            *extent,
             int                      width,
             int                      height,
             GCancellable            *cancellable)
{
  const double scale = style->pixel_scale > 0.0 ? CLAMP (style->pixel_scale, 0.25, 8.0) : 1.0;
  double s = MIN (scale, MAX_VECTOR_LAYER_SIZE / MAX (layout->plot_w, layout->plot_h));
  g_autofree guint32 *cells = NULL;
  g_autofree guint16 *cells16 = NULL;
  g_autofree guint32 *colors = NULL;
  g_autofree guint8 *alphas = NULL;
  guint n_alphas;
  g_autofree GThread **threads = NULL;
  g_autofree BinJob *jobs = NULL;
  g_autoptr(DensityInfo) info_auto = NULL;
  cairo_surface_t *surface;
  DensityInfo *info;
  guint n_colors, m, n_threads, max_count = 0;
  const gint32 *labels;
  guint32 *pixels;
  gsize n_px, per_thread;
  int stride;
  double log_max;

  labels = density_labels (snapshot, points, layout, &n_colors);
  /* Past 65,535 colours the palette has long repeated: those rows go grey. */
  if (n_colors > G_MAXUINT16 - 1)
    {
      n_colors = 0;
      labels = NULL;
    }
  m = n_colors + 1;
  n_threads = CLAMP (points->n / DENSITY_ROWS_PER_THREAD, 1, MIN (g_get_num_processors (), DENSITY_MAX_THREADS));
  /* The counters fit in DENSITY_MAX_CELLS: fewer threads, then fewer pixels. */
  while (n_threads > 1 && ceil (layout->plot_w * s) * ceil (layout->plot_h * s) * m * n_threads > DENSITY_MAX_CELLS)
    n_threads--;
  while (s > 0.01 && ceil (layout->plot_w * s) * ceil (layout->plot_h * s) * m > DENSITY_MAX_CELLS)
    s *= 0.8;

  info_auto = g_new0 (DensityInfo, 1);
  info = info_auto;
  info->snapshot = snapshot;
  info->iteration = snapshot->iteration;
  info->xy = points->xy;
  info->stride = points->stride;
  info->n = points->n;
  memcpy (info->extent, extent, sizeof info->extent);
  info->window[0] = layout->xmin;
  info->window[1] = layout->xmax;
  info->window[2] = layout->ymin;
  info->window[3] = layout->ymax;
  info->fig_width = width;
  info->fig_height = height;
  info->scale = scale;
  info->by_class = layout->by_class;
  info->dark = style->dark;
  info->has_labels = labels != NULL;
  info->n_colors = n_colors;
  info->w = MAX (1, (int) ceil (layout->plot_w * s));
  info->h = MAX (1, (int) ceil (layout->plot_h * s));
  n_px = (gsize) info->w * info->h;

  jobs = g_new0 (BinJob, n_threads);
  threads = g_new0 (GThread *, n_threads);
  per_thread = (points->n + n_threads - 1) / n_threads;
  for (gboolean wide = FALSE, again = TRUE; again; wide = TRUE)
    {
      again = FALSE;
      g_clear_pointer (&cells16, g_free);
      if (wide)
        cells = g_try_new0 (guint32, n_px * m * n_threads);
      else
        cells16 = g_try_new0 (guint16, n_px * m * n_threads);
      if (cells == NULL && cells16 == NULL)
        return NULL;
      for (guint t = 0; t < n_threads; t++)
        {
          jobs[t] = (BinJob) {
            .xy = points->xy, .stride = points->stride, .labels = labels, .n_colors = n_colors,
            .first = (guint) MIN ((gsize) points->n, t * per_thread),
            .last = (guint) MIN ((gsize) points->n, (t + 1) * per_thread),
            .xmin = (float) layout->xmin, .ymax = (float) layout->ymax,
            .sx = (float) (info->w / (layout->xmax - layout->xmin)),
            .sy = (float) (info->h / (layout->ymax - layout->ymin)),
            .w = info->w, .h = info->h,
            .cells16 = wide ? NULL : cells16 + n_px * m * t,
            .cells32 = wide ? cells + n_px * m * t : NULL,
            .cancellable = cancellable,
          };
          /* The calling thread takes the first share itself. */
          if (t > 0)
            threads[t] = g_thread_new ("latent-density", bin_rows, &jobs[t]);
        }
      bin_rows (&jobs[0]);
      for (guint t = 1; t < n_threads; t++)
        g_thread_join (threads[t]);
      for (guint t = 0; t < n_threads; t++)
        again |= jobs[t].overflow;
    }
  if (g_cancellable_is_cancelled (cancellable))
    return NULL;
  g_atomic_int_inc (&density_n_binned);

  /* Each pixel's count and majority; ties go to the lower colour. */
  info->counts = g_new (guint32, n_px);
  info->majority = g_new (guint16, n_px);
  for (gsize p = 0; p < n_px; p++)
    {
      guint32 total = 0, best = 0;
      guint16 major = (guint16) n_colors;

      for (guint c = 0; c < m; c++)
        {
          guint32 count = 0;

          for (guint t = 0; t < n_threads; t++)
            count += cells ? cells[n_px * m * t + p * m + c] : cells16[n_px * m * t + p * m + c];
          total += count;
          if (count > best)
            {
              best = count;
              major = (guint16) c;
            }
        }
      info->counts[p] = total;
      info->majority[p] = major;
      max_count = MAX (max_count, total);
    }

  colors = g_new (guint32, m);
  for (guint c = 0; c < m; c++)
    colors[c] = c < n_colors ? latent_palette_argb (c)
                : points->linear ? latent_palette_argb (0)
                : (style->dark ? 0xff8c8c90u : 0xff8a8a8eu);

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, info->w, info->h);
  if (cairo_surface_status (surface) != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (surface);
      return NULL;
    }
  cairo_surface_flush (surface);
  pixels = (guint32 *) cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface) / 4;
  /* A lone point stays visible (a third opaque); the densest pixel is solid. */
  log_max = log1p ((double) max_count);
  /* Counts repeat: their opacities from a table, not a logarithm a pixel. */
  n_alphas = MIN (max_count, 65535u) + 1;
  alphas = g_new (guint8, n_alphas);
  for (guint c = 0; c < n_alphas; c++)
    alphas[c] = max_count <= 1 ? 255 : (guint8) lround (255.0 * (0.33 + 0.67 * log1p ((double) c) / log_max));
  for (int y = 0; y < info->h; y++)
    for (int x = 0; x < info->w; x++)
      {
        gsize p = (gsize) y * info->w + x;
        guint32 argb = colors[info->majority[p]], a, r, g, b;

        if (info->counts[p] == 0)
          {
            pixels[(gsize) y * stride + x] = 0;
            continue;
          }
        a = info->counts[p] < n_alphas ? alphas[info->counts[p]]
            : (guint32) lround (255.0 * (0.33 + 0.67 * log1p ((double) info->counts[p]) / log_max));
        r = ((argb >> 16) & 0xff) * a / 255;
        g = ((argb >> 8) & 0xff) * a / 255;
        b = (argb & 0xff) * a / 255;
        pixels[(gsize) y * stride + x] = (a << 24) | (r << 16) | (g << 8) | b;
      }
  cairo_surface_mark_dirty (surface);
  cairo_surface_set_user_data (surface, &density_key, g_steal_pointer (&info_auto), density_info_free);
  return surface;
}

/* Whether @info was binned for what (snapshot, style, size) draws now. */
static gboolean
density_fits (const DensityInfo       *info,
              LatentSnapshot          *snapshot,
              const LatentFigureStyle *style,
              const Points            *points,
              const Layout            *layout,
              int                      width,
              int                      height)
{
  const double scale = style->pixel_scale > 0.0 ? CLAMP (style->pixel_scale, 0.25, 8.0) : 1.0;

  return info != NULL && info->snapshot == snapshot && info->iteration == snapshot->iteration
         && info->xy == points->xy && info->n == points->n
         && info->stride == points->stride && info->fig_width == width && info->fig_height == height
         && info->scale == scale && info->by_class == layout->by_class && info->dark == style->dark
         && info->window[0] == layout->xmin && info->window[1] == layout->xmax
         && info->window[2] == layout->ymin && info->window[3] == layout->ymax;
}

/* @density over the plot, its window mapped onto the one shown: one to
 * one when it fits, stretched (an older image while a view rebins). */
static void
paint_density (cairo_t          *cr,
               cairo_surface_t  *density,
               const Layout     *layout,
               gboolean          fits)
{
  DensityInfo *info = density_info (density);
  double x0, x1, y0, y1;

  x0 = layout->plot_x + map_x (layout, info->window[0]);
  x1 = layout->plot_x + map_x (layout, info->window[1]);
  y0 = layout->plot_y + map_y (layout, info->window[3]);
  y1 = layout->plot_y + map_y (layout, info->window[2]);
  /* Far outside a zoomed view: nothing to see, and Cairo would overflow. */
  if (!(x1 > x0 && y1 > y0) || fabs (x0) > 1e6 || fabs (x1) > 1e6 || fabs (y0) > 1e6 || fabs (y1) > 1e6)
    return;
  cairo_save (cr);
  cairo_rectangle (cr, layout->plot_x, layout->plot_y, layout->plot_w, layout->plot_h);
  cairo_clip (cr);
  cairo_translate (cr, x0, y0);
  cairo_scale (cr, (x1 - x0) / info->w, (y1 - y0) / info->h);
  cairo_set_source_surface (cr, density, 0.0, 0.0);
  /* Counts are pixels: no smoothing between them, except in a stand-in. */
  cairo_pattern_set_filter (cairo_get_source (cr), fits ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD);
  cairo_paint (cr);
  cairo_restore (cr);
}

/* "10,000,000 points as density (counts per pixel)", in the plot's top
 * right corner on a veil of the background, so a figure says how it was
 * drawn. */
static void
draw_density_note (cairo_t                 *cr,
                   const LatentFigureStyle *style,
                   const Points            *points,
                   const Layout            *layout)
{
  g_autofree char *text = _latent_figure_density_note (points->n);
  const double f = layout->font * 0.85;
  double w, r, g, b;

  cairo_save (cr);
  _latent_figure_set_font (cr, style, 0.85, FALSE);
  w = _latent_figure_text_width (cr, text);
  if (w + f * 1.5 <= layout->plot_w)
    {
      double x = layout->plot_x + layout->plot_w - w - f * 0.75, y = layout->plot_y + f * 0.4;

      latent_figure_style_get_background (style, &r, &g, &b);
      cairo_set_source_rgba (cr, r, g, b, 0.8);
      cairo_rectangle (cr, x - f * 0.4, y, w + f * 0.8, f * 1.5);
      cairo_fill (cr);
      _latent_figure_set_color_mix (cr, style, 0.8);
      cairo_move_to (cr, x, y + f * 1.1);
      _latent_figure_show_text (cr, text);
    }
  cairo_restore (cr);
}

char *
_latent_figure_density_note (guint n)
{
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%'u point as density (counts per pixel)",
                                       "%'u points as density (counts per pixel)", n), n);
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
  _latent_figure_set_color_mix (cr, style, 1.0);
  cairo_move_to (cr, x, y);
  _latent_figure_show_halo_text (cr, text, br, bg, bb, 1.0, MAX (3.0, font * 0.25));
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
  _latent_figure_show_text (cr, legend_title (l));
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
      _latent_figure_show_text (cr, text);
    }
  if (l->n_more > 0)
    {
      g_autofree char *more = more_text (l->n_more);

      y += line;
      _latent_figure_set_color_mix (cr, style, 0.6);
      cairo_move_to (cr, l->legend_x, y - f * 0.5 + f * 0.35);
      _latent_figure_show_text (cr, more);
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
      _latent_figure_show_text (cr, rows_text ());
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
      _latent_figure_show_text (cr, model_text (l));
    }
  if (l->extra_entry && y + line <= l->plot_y + l->plot_h)
    {
      y += line;
      draw_cross (cr, style, l->legend_x + l->swatch / 2.0, y - f * 0.5, cross_radius (l, points->extras->n_extra));
      _latent_figure_set_color_mix (cr, style, 1.0);
      cairo_move_to (cr, l->legend_x + l->swatch + f * 0.5, y - f * 0.5 + f * 0.35);
      _latent_figure_show_text (cr, points->extras->extra_name);
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
          _latent_figure_show_text (cr, sigma == 1 ? "1σ" : "2σ");
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
  const double *extent;
  double own_extent[4];
  const char *message;
  gboolean density;
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
  /* One pass for the extent, shared by the layout and a density's binning. */
  extent = known_extent (style, &points);
  if (extent == NULL)
    {
      points_extent (&points, own_extent);
      extent = own_extent;
    }
  if (!compute_layout (snapshot, style, &points, extent, width, height, &layout))
    {
      points_clear (&points);
      cairo_restore (cr);
      return;
    }

  draw_frame (cr, style, &points, &layout, TRUE);

  density = density_applies (&points, &layout);
  scale = limit_layer_scale (cr, layer_scale (cr, style), &layout);
  /* As a density, the layer holds only the regions, if any. */
  layer = density && !style->voronoi ? NULL
          : draw_point_layer (snapshot, style, &points, &layout, scale, density);
  if (layer != NULL && cairo_surface_status (layer) == CAIRO_STATUS_SUCCESS)
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
  g_clear_pointer (&layer, cairo_surface_destroy);
  if (density)
    {
      DensityInfo *info = density_info (style->density);
      gboolean fits = density_fits (info, snapshot, style, &points, &layout, width, height);

      /* A stand-in only where nothing better comes from this draw: a
       * fresh image has holes the old one would show through. */
      if (fits || (style->density_later && info != NULL && info->xy == points.xy && info->n == points.n))
        paint_density (cr, style->density, &layout, fits);
      else if (!style->density_later)
        {
          LatentFigureStyle own = *style;
          cairo_surface_t *binned;

          /* The target's resolution, as the point layer has it. */
          own.pixel_scale = scale;
          binned = bin_density (snapshot, &own, &points, &layout, extent, width, height, NULL);
          if (binned != NULL)
            paint_density (cr, binned, &layout, TRUE);
          g_clear_pointer (&binned, cairo_surface_destroy);
        }
    }

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
  if (density)
    draw_density_note (cr, style, &points, &layout);
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
  if (!compute_layout (snapshot, style, points, known_extent (style, points), width, height, layout))
    {
      points_clear (points);
      return FALSE;
    }
  return TRUE;
}

gboolean
latent_figure_scatter_row_at (LatentSnapshot          *snapshot,
                              const LatentFigureStyle *style,
                              int                      width,
                              int                      height,
                              guint                    row,
                              double                  *px,
                              double                  *py)
{
  Points points;
  Layout layout;
  gboolean inside = FALSE;

  g_return_val_if_fail (snapshot != NULL && style != NULL, FALSE);

  if (!scatter_layout (snapshot, style, width, height, &points, &layout))
    return FALSE;
  if (row < points.n)
    {
      double x = map_x (&layout, point_x (&points, row)), y = map_y (&layout, point_y (&points, row));

      inside = x >= 0 && x <= layout.plot_w && y >= 0 && y <= layout.plot_h;
      *px = layout.plot_x + x;
      *py = layout.plot_y + y;
    }
  points_clear (&points);
  return inside;
}

/* Even–odd rule: a ray to the right crosses the outline an odd number
 * of times from inside. */
static gboolean
inside_polygon (const double *polygon,
                guint         n_points,
                double        x,
                double        y)
{
  gboolean inside = FALSE;

  for (guint i = 0, j = n_points - 1; i < n_points; j = i++)
    {
      double xi = polygon[2 * i], yi = polygon[2 * i + 1], xj = polygon[2 * j], yj = polygon[2 * j + 1];

      if ((yi > y) != (yj > y) && x < xi + (y - yi) / (yj - yi) * (xj - xi))
        inside = !inside;
    }
  return inside;
}

GArray *
latent_figure_scatter_rows_in (LatentSnapshot          *snapshot,
                               const LatentFigureStyle *style,
                               int                      width,
                               int                      height,
                               const double            *polygon,
                               guint                    n_points)
{
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (guint));
  double lo_x = G_MAXDOUBLE, lo_y = G_MAXDOUBLE, hi_x = -G_MAXDOUBLE, hi_y = -G_MAXDOUBLE;
  Points points;
  Layout layout;

  g_return_val_if_fail (snapshot != NULL && style != NULL, rows);
  g_return_val_if_fail (polygon != NULL || n_points == 0, rows);

  if (n_points < 3 || !scatter_layout (snapshot, style, width, height, &points, &layout))
    return rows;
  for (guint i = 0; i < n_points; i++)
    {
      lo_x = MIN (lo_x, polygon[2 * i]), hi_x = MAX (hi_x, polygon[2 * i]);
      lo_y = MIN (lo_y, polygon[2 * i + 1]), hi_y = MAX (hi_y, polygon[2 * i + 1]);
    }
  for (guint row = 0; row < points.n; row++)
    {
      double x = map_x (&layout, point_x (&points, row)), y = map_y (&layout, point_y (&points, row));

      /* Only points drawn: inside the plot. */
      if (!(x >= 0 && x <= layout.plot_w && y >= 0 && y <= layout.plot_h))
        continue;
      x += layout.plot_x;
      y += layout.plot_y;
      if (x >= lo_x && x <= hi_x && y >= lo_y && y <= hi_y && inside_polygon (polygon, n_points, x, y))
        g_array_append_val (rows, row);
    }
  points_clear (&points);
  return rows;
}

guint
latent_figure_scatter_rows_at (LatentSnapshot          *snapshot,
                               const LatentFigureStyle *style,
                               int                      width,
                               int                      height,
                               const guint             *rows,
                               guint                    n_rows,
                               double                  *xy)
{
  Points points;
  Layout layout;
  guint n = 0;

  g_return_val_if_fail (snapshot != NULL && style != NULL, 0);

  if (n_rows == 0 || !scatter_layout (snapshot, style, width, height, &points, &layout))
    return 0;
  for (guint i = 0; i < n_rows; i++)
    {
      double x, y;

      if (rows[i] >= points.n)
        continue;
      x = map_x (&layout, point_x (&points, rows[i]));
      y = map_y (&layout, point_y (&points, rows[i]));
      if (!(x >= 0 && x <= layout.plot_w && y >= 0 && y <= layout.plot_h))
        continue;
      xy[2 * n] = layout.plot_x + x;
      xy[2 * n + 1] = layout.plot_y + y;
      n++;
    }
  points_clear (&points);
  return n;
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

gboolean
latent_figure_scatter_uses_density (LatentSnapshot          *snapshot,
                                    const LatentFigureStyle *style,
                                    int                      width,
                                    int                      height)
{
  gboolean density;
  Points points;
  Layout layout;

  g_return_val_if_fail (snapshot != NULL && style != NULL, FALSE);

  if (!scatter_layout (snapshot, style, width, height, &points, &layout))
    return FALSE;
  density = density_applies (&points, &layout);
  points_clear (&points);
  return density;
}

cairo_surface_t *
latent_figure_scatter_density (LatentSnapshot          *snapshot,
                               const LatentFigureStyle *style,
                               int                      width,
                               int                      height,
                               GCancellable            *cancellable)
{
  cairo_surface_t *density = NULL;
  const double *extent;
  const char *message;
  double b[4];
  Points points;
  Layout layout;

  g_return_val_if_fail (snapshot != NULL && style != NULL, NULL);

  if (!points_init (&points, snapshot, style, NULL, &message))
    return NULL;
  extent = known_extent (style, &points);
  if (extent == NULL)
    {
      points_extent (&points, b);
      extent = b;
    }
  if (compute_layout (snapshot, style, &points, extent, width, height, &layout)
      && density_applies (&points, &layout) && !g_cancellable_is_cancelled (cancellable))
    density = bin_density (snapshot, style, &points, &layout, extent, width, height, cancellable);
  points_clear (&points);
  return density;
}

gboolean
latent_figure_scatter_density_fits (cairo_surface_t         *density,
                                    LatentSnapshot          *snapshot,
                                    const LatentFigureStyle *style,
                                    int                      width,
                                    int                      height)
{
  LatentFigureStyle own;
  gboolean fits;
  Points points;
  Layout layout;

  g_return_val_if_fail (snapshot != NULL && style != NULL, FALSE);

  if (density_info (density) == NULL)
    return FALSE;
  /* Its own extent, so that asking costs no pass over the rows. */
  own = *style;
  own.density = density;
  if (!scatter_layout (snapshot, &own, width, height, &points, &layout))
    return FALSE;
  fits = density_fits (density_info (density), snapshot, style, &points, &layout, width, height);
  points_clear (&points);
  return fits;
}

gboolean
latent_figure_density_get_pixel (cairo_surface_t *density,
                                 int              x,
                                 int              y,
                                 guint           *count,
                                 guint           *colour)
{
  DensityInfo *info = density_info (density);
  gsize p;

  if (info == NULL || x < 0 || y < 0 || x >= info->w || y >= info->h)
    return FALSE;
  p = (gsize) y * info->w + x;
  if (count)
    *count = info->counts[p];
  if (colour)
    *colour = info->majority[p];
  return info->counts[p] > 0;
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
  /* A model's own coordinates are drawn on its own axes. */
  return !_latent_figure_is_linear (snapshot) && snapshot->embedding.positions == NULL;
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
