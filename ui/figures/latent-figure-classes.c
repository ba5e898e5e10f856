/* latent-figure-classes.c — a classifier's model, class by class: each
 * class's weights (logistic regression) or prototype (the class mean) as
 * an image or a row of a heat map, and, for data of two columns, the
 * class the model gives every point of the plane with the rows on top
 *
 * Weights are shown times their column's standard deviation (what the
 * column can add to a class's score), on one diverging scale for all
 * classes, symmetric about 0, so a class's strong pixels compare with
 * another's: in data units a pixel that is nearly constant (a border) gets
 * an enormous weight that says nothing and would wash every other out. The
 * scale ends at a high percentile rather than the largest, for the same
 * reason. Prototypes of tables are shown in standard deviations from each
 * column's mean, so columns in different units compare.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-figure-classes"

#include "latent-figure-private.h"
#include "latent-palette.h"
#include "latent-classifiers.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The share of |weights| inside the colour scale of the weights' images. */
#define WEIGHT_PERCENTILE 0.995
/* The regions are computed on at most this many cells a side, then scaled;
 * a network's, whose every cell is a pass through its layers, on fewer. */
#define MAX_REGION_CELLS 1024
#define MAX_NETWORK_CELLS 320
#define MIN_PLOT_SIZE 40.0
/* How strongly a region takes its class's colour over the background. */
#define TINT_LIGHT 0.25
#define TINT_DARK 0.32

/* Shared --------------------------------------------------------------------- */

/* One row per class: logistic regression's weights or the prototypes'
 * means, whichever the classifier has. */
static const float *
class_rows (LatentSnapshot *snapshot)
{
  const LatentClassifierPart *part = &snapshot->classifier;

  return part->class_weights ? part->class_weights : part->means;
}

static char **
class_names (LatentSnapshot *snapshot)
{
  char **names = g_new0 (char *, snapshot->classifier.n_classes + 1);

  for (guint c = 0; c < snapshot->classifier.n_classes; c++)
    names[c] = latent_figure_dup_class_name (snapshot, c);
  return names;
}

static char **
column_names (LatentDataset *dataset)
{
  guint d = latent_dataset_get_n_cols (dataset);
  char **names = g_new0 (char *, d + 1);

  for (guint j = 0; j < d; j++)
    names[j] = latent_dataset_dup_column_label (dataset, j);
  return names;
}

/* Each column's mean and standard deviation over the dataset's rows (at
 * most MAX_STAT_ROWS of them, evenly spread: figures redraw while a run
 * goes on). A constant column's deviation is 1 where @safe, so it
 * divides; 0 otherwise. */
#define MAX_STAT_ROWS 2000

static void
column_stats (LatentDataset *dataset,
              gboolean       safe,
              double        *mean,
              double        *sd)
{
  guint n = latent_dataset_get_n_rows (dataset), d = latent_dataset_get_n_cols (dataset);
  guint stride = MAX (1u, n / MAX_STAT_ROWS), used = 0;
  const float *x = latent_dataset_get_data (dataset);

  for (guint j = 0; j < d; j++)
    mean[j] = sd[j] = 0.0;
  for (guint i = 0; i < n; i += stride, used++)
    for (guint j = 0; j < d; j++)
      mean[j] += x[(gsize) i * d + j];
  for (guint j = 0; j < d; j++)
    mean[j] /= MAX (used, 1u);
  for (guint i = 0; i < n; i += stride)
    for (guint j = 0; j < d; j++)
      {
        double v = x[(gsize) i * d + j] - mean[j];

        sd[j] += v * v;
      }
  for (guint j = 0; j < d; j++)
    {
      sd[j] = sqrt (sd[j] / MAX (used, 1u));
      if (safe && !(sd[j] > 0.0))
        sd[j] = 1.0;
    }
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* |value| below which WEIGHT_PERCENTILE of the finite values lie. */
static double
percentile_scale (const float *values,
                  gsize        n)
{
  g_autofree double *abs_values = g_new (double, MAX (n, 1));
  gsize m = 0;
  double scale;

  for (gsize i = 0; i < n; i++)
    if (isfinite (values[i]))
      abs_values[m++] = fabs (values[i]);
  if (m == 0)
    return 1.0;
  qsort (abs_values, m, sizeof (double), compare_doubles);
  scale = abs_values[MIN (m - 1, (gsize) floor (WEIGHT_PERCENTILE * (m - 1) + 0.5))];
  if (!(scale > 0.0))
    scale = abs_values[m - 1];
  return scale > 0.0 ? scale : 1.0;
}

static char *
scale_label (double value,
             gboolean negative)
{
  char buf[64];
  double v = negative ? -value : value;

  _latent_figure_format_tick (v, fabs (value) >= 10.0 ? 1 : fabs (value) >= 1.0 ? 2 : 3, buf, sizeof buf);
  return g_strdup (buf);
}

/* Weights and prototypes ------------------------------------------------------ */

/* The classes' images: weights times their pixel's spread on one
 * diverging scale, or prototypes on one grey range, as the data look. */
typedef struct {
  gboolean prototypes;
  guint    m, d, img_w, img_h, channels;
  float   *scaled;       /* weights × sd, m × d; NULL for prototypes */
  double   scale, lo, hi;
} ClassTiles;

static void
class_tiles_init (ClassTiles     *t,
                  LatentSnapshot *snapshot,
                  gboolean        prototypes)
{
  gboolean single;

  memset (t, 0, sizeof *t);
  t->prototypes = prototypes;
  t->m = snapshot->classifier.n_classes;
  t->d = snapshot->n_cols ? snapshot->n_cols : latent_dataset_get_n_cols (snapshot->dataset);
  t->scale = 1.0;
  t->hi = 1.0;
  latent_dataset_get_image_shape (snapshot->dataset, &t->img_w, &t->img_h, &t->channels, &single);
  if (!prototypes)
    {
      /* A weight times its pixel's spread is what the pixel can add to the
       * score: a border pixel that is always 0 adds nothing, however large
       * its weight in data units. */
      g_autofree double *mean = g_new (double, t->d);
      g_autofree double *sd = g_new (double, t->d);

      column_stats (snapshot->dataset, FALSE, mean, sd);
      t->scaled = g_new (float, (gsize) t->m * t->d);
      for (gsize i = 0; i < (gsize) t->m * t->d; i++)
        t->scaled[i] = (float) (class_rows (snapshot)[i] * sd[i % t->d]);
      t->scale = percentile_scale (t->scaled, (gsize) t->m * t->d);
    }
  else
    {
      g_autofree const float **images = g_new (const float *, MAX (t->m, 1u));

      for (guint c = 0; c < t->m; c++)
        images[c] = class_rows (snapshot) + (gsize) c * t->d;
      _latent_figure_image_range (images, t->m, t->d, &t->lo, &t->hi);
    }
}

static cairo_surface_t *
class_tile (const ClassTiles        *t,
            LatentSnapshot          *snapshot,
            const LatentFigureStyle *style,
            guint                    c)
{
  if (t->prototypes)
    return _latent_figure_grey_tile (class_rows (snapshot) + (gsize) c * t->d, t->img_w, t->img_h, t->channels,
                                     t->lo, t->hi);
  return _latent_figure_diverging_tile (t->scaled + (gsize) c * t->d, t->img_w, t->img_h, t->channels, t->scale,
                                        style->dark);
}

static void
class_tiles_clear (ClassTiles *t)
{
  g_clear_pointer (&t->scaled, g_free);
}

/* Where the class images lie under @top: the weights keep room for their
 * colour bar. */
static gboolean
class_grid (LatentSnapshot          *snapshot,
            const LatentFigureStyle *style,
            gboolean                 prototypes,
            double                   top,
            int                      width,
            int                      height,
            LatentFigureTileGrid    *grid)
{
  const double f = MAX (style->font_size, 1.0), footer = prototypes ? 0.0 : f * 3.2;
  const double y = round (top + f * 0.5);
  guint img_w, img_h, channels;
  gboolean single;

  latent_dataset_get_image_shape (snapshot->dataset, &img_w, &img_h, &channels, &single);
  return _latent_figure_tile_grid (style, img_w, img_h, snapshot->classifier.n_classes, 1, f, y, width - 2.0 * f,
                                   height - y - f - footer, grid);
}

/* The classes as images: weights on the diverging map, prototypes in grey
 * as the data look; each framed in its class's colour over its name. */
static void
draw_class_tiles (cairo_t                 *cr,
                  LatentSnapshot          *snapshot,
                  const LatentFigureStyle *style,
                  gboolean                 prototypes,
                  double                   top,
                  int                      width,
                  int                      height)
{
  const double f = MAX (style->font_size, 1.0), footer = prototypes ? 0.0 : f * 3.2;
  g_auto(GStrv) names = class_names (snapshot);
  LatentFigureTileGrid grid;
  ClassTiles tiles;
  double scale;

  if (!class_grid (snapshot, style, prototypes, top, width, height, &grid))
    {
      _latent_figure_message (cr, style, width, height, _("Too small to show the classes"));
      return;
    }
  class_tiles_init (&tiles, snapshot, prototypes);
  scale = tiles.scale;
  for (guint c = 0; c < tiles.m; c++)
    {
      cairo_surface_t *image = class_tile (&tiles, snapshot, style, c);
      double x0, y0, r, g, b;

      _latent_figure_tile_origin (&grid, c, 0, &x0, &y0);
      latent_palette_color (c, &r, &g, &b);
      cairo_set_source_rgb (cr, r, g, b);
      _latent_figure_draw_tile (cr, image, x0, y0, grid.tile_w, grid.tile_h, grid.frame);
      cairo_surface_destroy (image);
      if (grid.caption > 0.0)
        _latent_figure_tile_caption (cr, style, x0 - grid.frame, y0 + grid.tile_h + grid.frame + f * 1.15,
                                     grid.tile_w + 2 * grid.frame + round (f * 0.8) - f * 0.2, names[c], NULL);
    }
  class_tiles_clear (&tiles);

  if (!prototypes)
    {
      g_autofree char *low = scale_label (scale, TRUE);
      g_autofree char *high = scale_label (scale, FALSE);
      double bar_w = MIN (width - 2.0 * f, f * 16.0);
      double bar_y = MIN (grid.y0 - grid.frame + grid.rows * grid.pitch_y, height - f - footer) + f * 0.4;

      const char *note = _("weight × the pixel's standard deviation");

      _latent_figure_colorbar (cr, style, round ((width - bar_w) / 2.0), round (bar_y), bar_w, round (f * 0.7),
                               low, "0", high);
      /* What the colours are, beside the bar where it fits. */
      _latent_figure_set_font (cr, style, 0.85, FALSE);
      if ((width + bar_w) / 2.0 + f * 2.5 + _latent_figure_text_width (cr, note) <= width - f)
        {
          _latent_figure_set_color_mix (cr, style, 0.7);
          cairo_move_to (cr, round ((width + bar_w) / 2.0 + f * 2.5), round (bar_y) + f * 0.7);
          _latent_figure_show_text (cr, note);
        }
    }
}

static void
draw_class_heatmap (cairo_t                 *cr,
                    LatentSnapshot          *snapshot,
                    const LatentFigureStyle *style,
                    gboolean                 prototypes,
                    double                   top,
                    int                      width,
                    int                      height)
{
  const double f = MAX (style->font_size, 1.0);
  const guint m = snapshot->classifier.n_classes, d = latent_dataset_get_n_cols (snapshot->dataset);
  g_autofree double *values = g_new (double, (gsize) m * d);
  g_autofree double *mean = g_new (double, d);
  g_autofree double *sd = g_new (double, d);
  g_auto(GStrv) rows = class_names (snapshot);
  g_auto(GStrv) cols = column_names (snapshot->dataset);
  g_autofree char *low = NULL;
  g_autofree char *high = NULL;
  LatentFigureHeatmap hm = {
    .rows = m, .cols = d, .values = values, .decimals = 2, .min_cell_width = round (f * 3.0),
  };
  double scale = 0.0;

  column_stats (snapshot->dataset, TRUE, mean, sd);
  for (guint c = 0; c < m; c++)
    for (guint j = 0; j < d; j++)
      {
        double v = class_rows (snapshot)[(gsize) c * d + j];

        /* Prototypes: how far the class's mean sits from the column's;
         * weights: what one standard deviation of the column adds to the
         * class's score. Either is in the column's own units. */
        v = prototypes ? (v - mean[j]) / sd[j] : v * sd[j];
        values[(gsize) c * d + j] = v;
        if (isfinite (v))
          scale = MAX (scale, fabs (v));
      }
  hm.scale = scale > 0.0 ? scale : 1.0;
  hm.row_labels = rows;
  hm.col_labels = cols;
  low = scale_label (hm.scale, TRUE);
  high = scale_label (hm.scale, FALSE);
  hm.bar_low = low;
  hm.bar_high = high;
  hm.note = prototypes ? _("Class means, in standard deviations from each column's mean")
                       : _("Weights × each column's standard deviation");
  if (!_latent_figure_heatmap_draw (cr, style, &hm, top + f * 0.4, width, height, NULL))
    _latent_figure_message (cr, style, width, height, _("Too small to show the classes"));
  /* The strings are the autoptrs' to free. */
  hm.row_labels = hm.col_labels = NULL;
}

static void
draw_classes (LatentSnapshot          *snapshot,
              const LatentFigureStyle *style,
              cairo_t                 *cr,
              double                   top,
              int                      width,
              int                      height,
              gboolean                 prototypes)
{
  cairo_save (cr);
  if (!_latent_figure_classifier_has_model (snapshot))
    _latent_figure_message (cr, style, width, height,
                            prototypes ? _("No prototypes yet") : _("No weights yet"));
  else if (_latent_figure_dataset_has_image_rows (snapshot->dataset))
    draw_class_tiles (cr, snapshot, style, prototypes, top, width, height);
  else
    draw_class_heatmap (cr, snapshot, style, prototypes, top, width, height);
  cairo_restore (cr);
}

static void
_latent_figure_class_weights_draw (LatentSnapshot          *snapshot,
                                   const LatentFigureStyle *style,
                                   cairo_t                 *cr,
                                   double                   top,
                                   int                      width,
                                   int                      height)
{
  draw_classes (snapshot, style, cr, top, width, height, FALSE);
}

static void
_latent_figure_prototypes_draw (LatentSnapshot          *snapshot,
                                const LatentFigureStyle *style,
                                cairo_t                 *cr,
                                double                   top,
                                int                      width,
                                int                      height)
{
  draw_classes (snapshot, style, cr, top, width, height, TRUE);
}

/* The class whose image lies under (@x, @y): its name, and for
 * prototypes how many training rows it has. */
static gint64
pick_class (LatentSnapshot          *snapshot,
            LatentFigureKind         kind,
            const LatentFigureStyle *style,
            double                   top,
            int                      width,
            int                      height,
            double                   x,
            double                   y,
            int                      size,
            char                   **text,
            cairo_surface_t        **image)
{
  const gboolean prototypes = kind == LATENT_FIGURE_PROTOTYPES;
  LatentFigureTileGrid grid;
  gint64 c;

  if (!_latent_figure_classifier_has_model (snapshot) || !_latent_figure_dataset_has_image_rows (snapshot->dataset)
      || !class_grid (snapshot, style, prototypes, top, width, height, &grid))
    return -1;
  c = _latent_figure_tile_at (&grid, snapshot->classifier.n_classes, x, y);
  if (c < 0)
    return -1;
  if (text != NULL)
    {
      g_auto(GStrv) names = class_names (snapshot);

      *text = g_strdup_printf (prototypes ? _("Class %s · its mean") : _("Class %s · its weights"), names[c]);
    }
  if (image != NULL)
    {
      ClassTiles tiles;

      class_tiles_init (&tiles, snapshot, prototypes);
      *image = _latent_figure_enlarge_tile (class_tile (&tiles, snapshot, style, (guint) c), size);
      class_tiles_clear (&tiles);
    }
  return c;
}

/* Decision regions ------------------------------------------------------------ */

/* Prototypes compare by cosine when the run was asked to. */
/* The class of the highest score at (x, y), as the snapshot says models score. */
static guint
predict (LatentSnapshot *snapshot,
         gboolean        cosine,
         const double   *norms,
         double          x,
         double          y)
{
  const LatentClassifierPart *part = &snapshot->classifier;
  const float *w = class_rows (snapshot);
  double best = -INFINITY, row_norm = sqrt (x * x + y * y);
  guint best_c = 0;

  if (part->n_layers > 0)
    {
      const float row[2] = { x, y };
      g_autofree double *scores = g_new (double, part->n_classes);

      latent_classifiers_forward (part, row, NULL, scores);
      for (guint c = 0; c < part->n_classes; c++)
        if (scores[c] > best)
          {
            best = scores[c];
            best_c = c;
          }
      return best_c;
    }
  for (guint c = 0; c < part->n_classes; c++, w += 2)
    {
      double score;

      if (part->class_bias != NULL)
        score = w[0] * x + w[1] * y + part->class_bias[c];
      else if (part->dot_product)
        score = w[0] * x + w[1] * y;
      else if (cosine)
        score = norms[c] > 0.0 && row_norm > 0.0 ? (w[0] * x + w[1] * y) / (norms[c] * row_norm) : -1.0;
      else
        score = -((x - w[0]) * (x - w[0]) + (y - w[1]) * (y - w[1]));
      if (score > best)
        {
          best = score;
          best_c = c;
        }
    }
  return best_c;
}

typedef struct {
  double x, y, w, h;               /* the plot */
  double xmin, xmax, ymin, ymax;   /* the data it shows */
  LatentFigureTicks xt, yt;
  double legend_y;
} Plane;

static double
plane_x (const Plane *p,
         double       v)
{
  return p->x + (v - p->xmin) / (p->xmax - p->xmin) * p->w;
}

static double
plane_y (const Plane *p,
         double       v)
{
  return p->y + (p->ymax - v) / (p->ymax - p->ymin) * p->h;
}

static void
extend (double      *lo,
        double      *hi,
        const float *row)
{
  for (guint a = 0; a < 2; a++)
    if (isfinite (row[a]))
      {
        lo[a] = MIN (lo[a], row[a]);
        hi[a] = MAX (hi[a], row[a]);
      }
}

static gboolean
plane_layout (LatentSnapshot          *snapshot,
              const LatentFigureStyle *style,
              double                   top,
              int                      width,
              int                      height,
              Plane                   *p)
{
  const LatentClassifierPart *part = &snapshot->classifier;
  const double f = MAX (style->font_size, 1.0);
  LatentDataset *ds = snapshot->dataset;
  double lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY };
  double label_w = 0.0;
  cairo_t *cr;
  char buf[64];

  for (guint i = 0; i < latent_dataset_get_n_rows (ds); i++)
    extend (lo, hi, latent_dataset_get_row (ds, i));
  for (guint i = 0; part->test_dataset != NULL && part->test_rows != NULL && i < part->n_test; i++)
    extend (lo, hi, latent_dataset_get_row (part->test_dataset, part->test_rows[i]));
  for (guint a = 0; a < 2; a++)
    {
      double pad;

      if (!isfinite (lo[a]) || !isfinite (hi[a]))
        lo[a] = 0.0, hi[a] = 1.0;
      if (!(hi[a] > lo[a]))
        lo[a] -= 0.5, hi[a] += 0.5;
      pad = (hi[a] - lo[a]) * 0.06;
      lo[a] -= pad;
      hi[a] += pad;
    }
  p->xmin = lo[0], p->xmax = hi[0], p->ymin = lo[1], p->ymax = hi[1];

  p->legend_y = top + f * 0.9;
  p->y = round (top + f * 3.4);
  p->h = floor (height - p->y - f - f * 0.4 - f * 1.2 - f * 1.6);
  if (p->h < MIN_PLOT_SIZE)
    return FALSE;
  _latent_figure_nice_ticks (p->ymin, p->ymax, CLAMP (p->h / (f * 3.5), 2.0, 10.0), &p->yt);
  cr = _latent_figure_measure_context (style);
  _latent_figure_set_font (cr, style, 0.9, FALSE);
  for (guint i = 0; i < p->yt.n; i++)
    {
      _latent_figure_format_tick (p->yt.values[i], p->yt.decimals, buf, sizeof buf);
      label_w = MAX (label_w, _latent_figure_text_width (cr, buf));
    }
  cairo_destroy (cr);
  p->x = round (f + f * 1.2 + f * 0.5 + label_w + f * 0.7);
  p->w = floor (width - f * 2.0 - p->x);
  if (p->w < MIN_PLOT_SIZE)
    return FALSE;
  _latent_figure_nice_ticks (p->xmin, p->xmax, CLAMP (p->w / (f * 6.0), 2.0, 10.0), &p->xt);
  return TRUE;
}

static void
draw_plane_axes (cairo_t                 *cr,
                 LatentSnapshot          *snapshot,
                 const LatentFigureStyle *style,
                 const Plane             *p)
{
  g_auto(GStrv) xl = _latent_figure_tick_labels (&p->xt, NULL);
  g_auto(GStrv) yl = _latent_figure_tick_labels (&p->yt, NULL);
  g_auto(GStrv) names = column_names (snapshot->dataset);
  double xa[_LATENT_FIGURE_MAX_TICKS], ya[_LATENT_FIGURE_MAX_TICKS];
  LatentFigureAxes axes;

  for (guint i = 0; i < p->xt.n; i++)
    xa[i] = plane_x (p, p->xt.values[i]);
  for (guint i = 0; i < p->yt.n; i++)
    ya[i] = plane_y (p, p->yt.values[i]);
  _latent_figure_axes_init (&axes, style, p->x, p->y, p->w, p->h);
  axes.bottom = (LatentFigureAxis) { p->xt.n, xa, (const char * const *) xl, FALSE, names[0] };
  axes.left = (LatentFigureAxis) { p->yt.n, ya, (const char * const *) yl, FALSE, names[1] };
  _latent_figure_draw_axes (cr, style, &axes);
}

/* Every cell of the plot coloured by the class the model gives its centre. */
static void
draw_regions (cairo_t                 *cr,
              LatentSnapshot          *snapshot,
              const LatentFigureStyle *style,
              const Plane             *p)
{
  const LatentClassifierPart *part = &snapshot->classifier;
  const guint m = part->n_classes;
  const double most = part->n_layers > 0 ? MAX_NETWORK_CELLS : MAX_REGION_CELLS;
  const int nx = (int) MIN (ceil (p->w), most), ny = (int) MIN (ceil (p->h), most);
  const gboolean cosine = part->class_bias == NULL && part->cosine;
  const double tint = style->dark ? TINT_DARK : TINT_LIGHT;
  g_autofree guint32 *colors = g_new (guint32, m);
  g_autofree double *norms = g_new (double, m);
  cairo_surface_t *surface;
  double br, bg, bb;
  guint8 *data;
  int stride;

  latent_figure_style_get_background (style, &br, &bg, &bb);
  for (guint c = 0; c < m; c++)
    {
      const float *w = class_rows (snapshot) ? class_rows (snapshot) + (gsize) c * 2 : NULL;
      double r, g, b;

      latent_palette_color (c, &r, &g, &b);
      r = br + (r - br) * tint, g = bg + (g - bg) * tint, b = bb + (b - bb) * tint;
      colors[c] = 0xff000000u | ((guint32) lround (r * 255) << 16) | ((guint32) lround (g * 255) << 8)
                  | (guint32) lround (b * 255);
      norms[c] = w ? sqrt ((double) w[0] * w[0] + (double) w[1] * w[1]) : 0.0;
    }

  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, nx, ny);
  if (cairo_surface_status (surface) != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (surface);
      return;
    }
  cairo_surface_flush (surface);
  data = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);
  for (int j = 0; j < ny; j++)
    {
      guint32 *row = (guint32 *) (data + (gsize) j * stride);
      double y = p->ymax - (j + 0.5) / ny * (p->ymax - p->ymin);

      for (int i = 0; i < nx; i++)
        row[i] = colors[predict (snapshot, cosine, norms, p->xmin + (i + 0.5) / nx * (p->xmax - p->xmin), y)];
    }
  cairo_surface_mark_dirty (surface);

  cairo_save (cr);
  cairo_rectangle (cr, p->x, p->y, p->w, p->h);
  cairo_clip (cr);
  cairo_translate (cr, p->x, p->y);
  cairo_scale (cr, p->w / nx, p->h / ny);
  cairo_set_source_surface (cr, surface, 0, 0);
  /* Cells as large as the figure's pixels stay crisp; scaled up, smooth. */
  cairo_pattern_set_filter (cairo_get_source (cr), p->w / nx > 1.5 ? CAIRO_FILTER_BILINEAR : CAIRO_FILTER_NEAREST);
  cairo_paint (cr);
  cairo_restore (cr);
  cairo_surface_destroy (surface);
}

static double
point_radius (const LatentFigureStyle *style,
              guint                    n)
{
  const double f = MAX (style->font_size, 1.0);

  return n > 2000 ? CLAMP (f * 0.15, 1.5, 2.5) : CLAMP (f * 0.3, 2.5, 5.0);
}

static void
training_mark (cairo_t *cr,
               double   x,
               double   y,
               double   r)
{
  cairo_new_sub_path (cr);
  cairo_arc (cr, x, y, r, 0, 2 * G_PI);
}

/* Test rows are diamonds, larger, so they stand out from the training rows. */
static void
test_mark (cairo_t *cr,
           double   x,
           double   y,
           double   r)
{
  cairo_move_to (cr, x, y - r);
  cairo_line_to (cr, x + r, y);
  cairo_line_to (cr, x, y + r);
  cairo_line_to (cr, x - r, y);
  cairo_close_path (cr);
}

static void
draw_rows (cairo_t                 *cr,
           LatentSnapshot          *snapshot,
           const LatentFigureStyle *style,
           const Plane             *p)
{
  const LatentClassifierPart *part = &snapshot->classifier;
  LatentDataset *ds = snapshot->dataset;
  const guint n = latent_dataset_get_n_rows (ds);
  const gint32 *labels = latent_dataset_has_labels (ds) ? latent_dataset_get_labels (ds) : NULL;
  const double r = point_radius (style, n), tr = r * 1.5;
  g_autofree gboolean *held_out = g_new0 (gboolean, n);
  double fr, fg, fb;

  /* Rows of the dataset held out for testing are drawn as test rows. */
  for (guint i = 0; part->test_dataset == ds && part->test_rows != NULL && i < part->n_test; i++)
    if (part->test_rows[i] >= 0 && (guint) part->test_rows[i] < n)
      held_out[part->test_rows[i]] = TRUE;

  latent_figure_style_get_foreground (style, &fr, &fg, &fb);
  cairo_save (cr);
  cairo_rectangle (cr, p->x, p->y, p->w, p->h);
  cairo_clip (cr);
  cairo_set_line_width (cr, 1.0);
  for (guint c = 0; c < MAX (part->n_classes, 1u); c++)
    {
      double cr_, cg, cb;

      latent_palette_color (c, &cr_, &cg, &cb);
      for (guint i = 0; i < n; i++)
        {
          const float *row = latent_dataset_get_row (ds, i);

          if (held_out[i] || (labels != NULL ? (guint) labels[i] != c : c != 0) || !isfinite (row[0])
              || !isfinite (row[1]))
            continue;
          training_mark (cr, plane_x (p, row[0]), plane_y (p, row[1]), r);
        }
      cairo_set_source_rgb (cr, cr_, cg, cb);
      cairo_fill_preserve (cr);
      cairo_set_source_rgba (cr, fr, fg, fb, 0.35);
      cairo_stroke (cr);
    }

  /* Test rows in their true class's colour, outlined in the ink; wrong
   * ones crossed out, so an error reads without telling colours apart. */
  for (guint i = 0; part->test_dataset != NULL && part->test_rows != NULL && i < part->n_test; i++)
    {
      const float *row = latent_dataset_get_row (part->test_dataset, part->test_rows[i]);
      gint32 truth = _latent_figure_test_label (snapshot, i);
      double x = plane_x (p, row[0]), y = plane_y (p, row[1]), cr_, cg, cb;

      if (!isfinite (row[0]) || !isfinite (row[1]))
        continue;
      latent_palette_color (MAX (truth, 0), &cr_, &cg, &cb);
      test_mark (cr, x, y, tr);
      cairo_set_source_rgb (cr, cr_, cg, cb);
      cairo_fill_preserve (cr);
      cairo_set_source_rgb (cr, fr, fg, fb);
      cairo_set_line_width (cr, 1.2);
      cairo_stroke (cr);
      if (part->test_predictions != NULL && truth >= 0 && part->test_predictions[i] != truth)
        _latent_figure_cross (cr, x, y, tr * 2.6, MAX (1.5, r * 0.5));
    }
  cairo_restore (cr);
}

static void
draw_plane_legend (cairo_t                 *cr,
                   LatentSnapshot          *snapshot,
                   const LatentFigureStyle *style,
                   const Plane             *p,
                   int                      width)
{
  const double f = MAX (style->font_size, 1.0), r = CLAMP (f * 0.3, 2.5, 5.0);
  g_auto(GStrv) names = class_names (snapshot);
  const char *marks[3] = { _("training row"), _("test row"), _("wrong prediction") };
  double x = p->x, y = p->legend_y, fr, fg, fb;

  for (guint c = 0; c < snapshot->classifier.n_classes; c++)
    {
      double cr_, cg, cb, next;

      latent_palette_color (c, &cr_, &cg, &cb);
      next = _latent_figure_legend_entry (cr, style, x, y, width - f, cr_, cg, cb, names[c]);
      if (next == x)
        break;
      x = next;
    }

  /* The marks, on a line of their own. */
  latent_figure_style_get_foreground (style, &fr, &fg, &fb);
  x = p->x;
  y += f * 1.4;
  cairo_save (cr);
  _latent_figure_set_font (cr, style, 0.9, FALSE);
  for (guint i = 0; i < 3; i++)
    {
      double cx = x + r * 1.6, cy = y - f * 0.3;
      double w = r * 3.2 + f * 0.4 + _latent_figure_text_width (cr, marks[i]);

      if (x + w > width - f)
        break;
      _latent_figure_set_color_mix (cr, style, 0.6);
      cairo_set_line_width (cr, 1.2);
      if (i == 0)
        {
          training_mark (cr, cx, cy, r);
          cairo_fill (cr);
        }
      else if (i == 1)
        {
          test_mark (cr, cx, cy, r * 1.5);
          cairo_stroke (cr);
        }
      else
        {
          cairo_set_source_rgb (cr, fr, fg, fb);
          _latent_figure_cross (cr, cx, cy, r * 2.6, MAX (1.5, r * 0.5));
        }
      _latent_figure_set_color_mix (cr, style, 0.85);
      cairo_move_to (cr, x + r * 3.2 + f * 0.4, y);
      _latent_figure_show_text (cr, marks[i]);
      x += w + f * 1.2;
    }
  cairo_restore (cr);
}

static void
_latent_figure_regions_draw (LatentSnapshot          *snapshot,
                             const LatentFigureStyle *style,
                             cairo_t                 *cr,
                             double                   top,
                             int                      width,
                             int                      height)
{
  Plane p;

  cairo_save (cr);
  if (!_latent_figure_classifier_has_model (snapshot) || latent_dataset_get_n_cols (snapshot->dataset) != 2)
    _latent_figure_message (cr, style, width, height, _("No model yet"));
  else if (plane_layout (snapshot, style, top, width, height, &p))
    {
      draw_regions (cr, snapshot, style, &p);
      draw_rows (cr, snapshot, style, &p);
      draw_plane_axes (cr, snapshot, style, &p);
      draw_plane_legend (cr, snapshot, style, &p, width);
    }
  cairo_restore (cr);
}

/* Decision regions colour the plane of the data: two columns, no fewer
 * and no more (a projection's regions would not be the model's). */
static gboolean
applies_regions (LatentSnapshot  *snapshot,
                 GError         **error)
{
  guint n_cols;

  if (!_latent_figure_applies_with_data (snapshot, error))
    return FALSE;
  n_cols = latent_dataset_get_n_cols (snapshot->dataset);
  if (n_cols == 2)
    return TRUE;
  g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_KIND,
               g_dngettext (GETTEXT_PACKAGE,
                            "Decision regions: need data of 2 columns; this dataset has %u column",
                            "Decision regions: need data of 2 columns; this dataset has %u columns", n_cols),
               n_cols);
  return FALSE;
}

const LatentFigureKindRow _latent_figure_classes_kinds[] = {
  { .kind = LATENT_FIGURE_WEIGHTS,
    .title = N_("Class weights"),
    .draw = _latent_figure_class_weights_draw,
    .applies = _latent_figure_applies_with_data,
    .pick = pick_class,
    .only_some = TRUE,
    .per_family = TRUE, .family = LATENT_FAMILY_CLASSIFIER },
  { .kind = LATENT_FIGURE_REGIONS,
    .title = N_("Decision regions"),
    .draw = _latent_figure_regions_draw,
    .applies = applies_regions,
    .only_some = TRUE },
  { .kind = LATENT_FIGURE_PROTOTYPES,
    .title = N_("Class means"),
    .draw = _latent_figure_prototypes_draw,
    .applies = _latent_figure_applies_with_data,
    .pick = pick_class,
    .only_some = TRUE },
  { .kind = LATENT_FIGURE_AUTO }
};
