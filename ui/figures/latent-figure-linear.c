/* latent-figure-linear.c — the model figures of PCA, probabilistic PCA and
 * factor analysis: the scree plot and the components
 *
 * The matrices (loadings, cosines between components) are in
 * latent-figure-linear-matrices.c, the figures of rows (biplot,
 * reconstructions, samples) in latent-figure-linear-examples.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-figure-linear"

#include "latent-figure-private.h"
#include "latent-palette.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#define MIN_PLOT_SIZE 40.0
/* Components drawn as tiles at most; more are summed up in a line. */
#define MAX_COMPONENT_TILES 100

static void
format_percent (double  value,
                int     decimals,
                char   *buf,
                gsize   size)
{
  char number[64];

  _latent_figure_format_tick (value, decimals, number, sizeof number);
  g_snprintf (buf, size, "%s %%", number);
}

/* Scree plot -------------------------------------------------------------- */

typedef struct {
  double font;
  double legend_y;
  double plot_x, plot_y, plot_w, plot_h;
  /* The axis' top, in per cent: 100 unless the shares add up to more. The
   * bars and the running sum share it, so a bar and a point of the same
   * value stand at the same height. */
  double hi;
  LatentFigureTicks ticks;
  double group_w, bar_w;
  guint  label_every;
} Scree;

static gboolean
scree_layout (LatentSnapshot          *snapshot,
              const LatentFigureStyle *style,
              double                   top,
              int                      width,
              int                      height,
              Scree                   *l)
{
  const double f = MAX (style->font_size, 1.0);
  const guint m = snapshot->linear.n_components;
  cairo_t *cr = _latent_figure_measure_context (style);
  double sum = 0.0, left_w = 0.0, widest_k, target;
  char buf[64];

  memset (l, 0, sizeof *l);
  l->font = f;
  for (guint i = 0; i < m; i++)
    {
      double r = _latent_figure_linear_ratio (snapshot, i);

      if (isfinite (r))
        sum += MAX (r, 0.0);
    }
  /* All of the variance, so the running sum shows how much of it the
   * model explains; more only for a fit whose shares add up past it. */
  l->hi = MAX (100.0, sum * 100.0);

  _latent_figure_set_font (cr, style, 0.9, FALSE);
  _latent_figure_nice_ticks (0.0, l->hi, CLAMP ((height - top) / (f * 3.5), 3.0, 10.0), &l->ticks);
  for (guint i = 0; i < l->ticks.n; i++)
    {
      format_percent (l->ticks.values[i], l->ticks.decimals, buf, sizeof buf);
      left_w = MAX (left_w, _latent_figure_text_width (cr, buf));
    }
  g_snprintf (buf, sizeof buf, "%u", m);
  widest_k = _latent_figure_text_width (cr, buf);
  cairo_destroy (cr);

  l->legend_y = top + f * 0.4;
  l->plot_x = round (f + f * 1.2 + f * 0.5 + left_w + f * 0.7);
  l->plot_y = round (top + f * 2.4);
  l->plot_w = floor (width - 2.0 * f - l->plot_x);
  l->plot_h = floor (height - (f * 0.4 + f * 1.2 + f * 0.4 + f * 1.2 + f * 0.8) - l->plot_y);
  if (l->plot_w < MIN_PLOT_SIZE || l->plot_h < MIN_PLOT_SIZE)
    return FALSE;

  /* At most ten ticks: the axis then ends on one, so its top is labelled. */
  target = CLAMP (l->plot_h / (f * 3.5), 3.0, 10.0);
  _latent_figure_nice_ticks (0.0, l->hi, target, &l->ticks);
  if (l->ticks.n >= 2 && l->ticks.values[l->ticks.n - 1] < l->hi - 1e-9)
    {
      double step = l->ticks.values[1] - l->ticks.values[0];

      l->hi = ceil (l->hi / step - 1e-9) * step;
      _latent_figure_nice_ticks (0.0, l->hi, target, &l->ticks);
    }

  l->group_w = l->plot_w / m;
  l->bar_w = MAX (1.0, MIN (floor (l->group_w * 0.7), round (f * 5.0)));
  /* Every 1st, 2nd, 5th, 10th… component labelled, as many as fit. */
  l->label_every = 1;
  for (guint step = 1; l->label_every * l->group_w < widest_k + f; step++)
    l->label_every = (step % 3 == 1 ? 2 : step % 3 == 2 ? 5 : 10) * (guint) pow (10, (step - 1) / 3);
  return TRUE;
}

static double
scree_y (const Scree *l,
         double       percent)
{
  return l->plot_y + l->plot_h - percent / l->hi * l->plot_h;
}

/* Round numbers, and the first component when the next label is far. */
static gboolean
scree_labelled (const Scree *l,
                guint        index)
{
  return (index + 1) % l->label_every == 0 || (index == 0 && l->label_every >= 5);
}

static void
draw_scree_axes (cairo_t                 *cr,
                 LatentSnapshot          *snapshot,
                 const LatentFigureStyle *style,
                 const Scree             *l)
{
  const guint m = snapshot->linear.n_components;
  g_auto(GStrv) left_labels = _latent_figure_tick_labels (&l->ticks, format_percent);
  g_autoptr(GPtrArray) numbers = g_ptr_array_new_with_free_func (g_free);
  g_autofree double *left_at = g_new (double, l->ticks.n);
  g_autofree double *bottom_at = g_new (double, MAX (m, 1));
  LatentFigureAxes axes;

  _latent_figure_axes_init (&axes, style, l->plot_x, l->plot_y, l->plot_w, l->plot_h);
  for (guint i = 0; i < l->ticks.n; i++)
    left_at[i] = scree_y (l, l->ticks.values[i]);
  for (guint i = 0; i < m; i++)
    if (scree_labelled (l, i))
      {
        bottom_at[numbers->len] = l->plot_x + (i + 0.5) * l->group_w;
        g_ptr_array_add (numbers, g_strdup_printf ("%u", i + 1));
      }

  axes.left = (LatentFigureAxis) { l->ticks.n, left_at, (const char * const *) left_labels, TRUE,
                                   _("explained variance") };
  axes.bottom = (LatentFigureAxis) { numbers->len, bottom_at, (const char * const *) numbers->pdata, FALSE,
                                     _latent_figure_linear_is_fa (snapshot) ? _("factor") : _("component") };
  _latent_figure_draw_grid (cr, style, &axes);
  _latent_figure_draw_axes (cr, style, &axes);
}

/* Swatches and names above the plot, and the noise the model keeps aside. */
static void
draw_scree_legend (cairo_t                 *cr,
                   LatentSnapshot          *snapshot,
                   const LatentFigureStyle *style,
                   const Scree             *l)
{
  const LatentLinearPart *part = &snapshot->linear;
  const double f = l->font, swatch = round (f * 0.8), y = l->legend_y + f * 0.5;
  const char *bars = _latent_figure_linear_is_fa (snapshot) ? _("each factor") : _("each component"), *line = _("cumulative");
  double x = l->plot_x, r, g, b;

  cairo_save (cr);
  _latent_figure_set_font (cr, style, 1.0, FALSE);
  latent_palette_color (0, &r, &g, &b);
  cairo_set_source_rgb (cr, r, g, b);
  cairo_rectangle (cr, x, y - swatch / 2.0, swatch, swatch);
  cairo_fill (cr);
  _latent_figure_set_color_mix (cr, style, 1.0);
  cairo_move_to (cr, x + swatch + f * 0.5, y + f * 0.35);
  _latent_figure_show_text (cr, bars);
  x += swatch + f * 0.5 + _latent_figure_text_width (cr, bars) + f * 1.5;

  latent_palette_color (1, &r, &g, &b);
  cairo_set_source_rgb (cr, r, g, b);
  cairo_set_line_width (cr, 2.0);
  cairo_move_to (cr, x, y);
  cairo_rel_line_to (cr, swatch * 2.0, 0);
  cairo_stroke (cr);
  cairo_arc (cr, x + swatch, y, MAX (3.0, f * 0.3), 0, 2 * G_PI);
  cairo_fill (cr);
  _latent_figure_set_color_mix (cr, style, 1.0);
  cairo_move_to (cr, x + swatch * 2.0 + f * 0.5, y + f * 0.35);
  _latent_figure_show_text (cr, line);

  if (part->noise_variance != NULL && part->n_noise > 0)
    {
      g_autofree char *noise = NULL;
      double mean = 0.0;

      for (guint i = 0; i < part->n_noise; i++)
        mean += part->noise_variance[i];
      mean /= part->n_noise;
      noise = part->n_noise == 1 ? g_strdup_printf (_("noise variance %.3g"), mean)
                                     : g_strdup_printf (_("mean noise variance %.3g"), mean);
      _latent_figure_set_color_mix (cr, style, 0.7);
      cairo_move_to (cr, l->plot_x + l->plot_w - _latent_figure_text_width (cr, noise), y + f * 0.35);
      if (isfinite (mean))
        _latent_figure_show_text (cr, noise);
    }
  cairo_restore (cr);
}

static void
_latent_figure_scree_draw (LatentSnapshot          *snapshot,
                           const LatentFigureStyle *style,
                           cairo_t                 *cr,
                           double                   top,
                           int                      width,
                           int                      height)
{
  const guint m = snapshot->linear.n_components;
  double cum = 0.0, r, g, b, last_x = 0.0, last_y = 0.0;
  char buf[64];
  Scree l;

  cairo_save (cr);
  if (m == 0 || snapshot->linear.explained_variance_ratio == NULL)
    {
      _latent_figure_message (cr, style, width, height, _("No explained variance in this snapshot yet"));
      goto out;
    }
  if (!scree_layout (snapshot, style, top, width, height, &l))
    goto out;

  draw_scree_legend (cr, snapshot, style, &l);
  draw_scree_axes (cr, snapshot, style, &l);

  /* Bars, clipped: a negative ratio (a broken fit) stays inside. */
  cairo_save (cr);
  cairo_rectangle (cr, l.plot_x, l.plot_y, l.plot_w, l.plot_h);
  cairo_clip (cr);
  latent_palette_color (0, &r, &g, &b);
  cairo_set_source_rgb (cr, r, g, b);
  for (guint i = 0; i < m; i++)
    {
      double v = _latent_figure_linear_ratio (snapshot, i) * 100.0, x, y;

      if (!isfinite (v) || v <= 0.0)
        continue;
      x = round (l.plot_x + (i + 0.5) * l.group_w - l.bar_w / 2.0);
      y = round (CLAMP (scree_y (&l, v), l.plot_y, l.plot_y + l.plot_h));
      cairo_rectangle (cr, x, y, l.bar_w, l.plot_y + l.plot_h - y);
    }
  cairo_fill (cr);
  cairo_restore (cr);

  /* Each bar's share, where it fits: inside the top of a tall bar (the
   * running sum starts on that top), else above it. */
  _latent_figure_set_font (cr, style, 0.85, FALSE);
  for (guint i = 0; i < m; i++)
    {
      double v = _latent_figure_linear_ratio (snapshot, i) * 100.0, w, top_y, x;

      if (!isfinite (v) || v <= 0.0)
        continue;
      format_percent (v, 1, buf, sizeof buf);
      w = _latent_figure_text_width (cr, buf);
      if (w + l.font * 0.3 > l.group_w)
        break;
      top_y = scree_y (&l, v);
      x = l.plot_x + (i + 0.5) * l.group_w - w / 2.0;
      if (l.plot_y + l.plot_h - top_y >= l.font * 2.2 && w + l.font * 0.4 <= l.bar_w)
        {
          cairo_set_source_rgb (cr, 1.0, 1.0, 1.0);
          cairo_move_to (cr, x, top_y + l.font * 1.4);
          _latent_figure_show_text (cr, buf);
        }
      else
        {
          _latent_figure_set_color_mix (cr, style, 0.8);
          _latent_figure_halo_text (cr, style, x, top_y - l.font * 0.4, buf);
        }
    }

  /* The running sum, on the bars' axis; not clipped, so the last point of a
   * model that explains everything sits whole on the top edge. */
  latent_palette_color (1, &r, &g, &b);
  cairo_set_source_rgb (cr, r, g, b);
  cairo_set_line_width (cr, 2.0);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  /* Text leaves a current point behind; the line starts afresh. */
  cairo_new_path (cr);
  for (guint i = 0; i < m; i++)
    {
      double v = _latent_figure_linear_ratio (snapshot, i);

      if (isfinite (v))
        cum += MAX (v, 0.0);
      last_x = l.plot_x + (i + 0.5) * l.group_w;
      last_y = scree_y (&l, cum * 100.0);
      cairo_line_to (cr, last_x, last_y);
    }
  cairo_stroke (cr);
  /* Points only while they stay apart. */
  if (l.group_w >= l.font * 0.9)
    {
      double running = 0.0;

      for (guint i = 0; i < m; i++)
        {
          double v = _latent_figure_linear_ratio (snapshot, i);

          if (isfinite (v))
            running += MAX (v, 0.0);
          cairo_new_sub_path (cr);
          cairo_arc (cr, l.plot_x + (i + 0.5) * l.group_w, scree_y (&l, running * 100.0),
                     MAX (3.0, l.font * 0.3), 0, 2 * G_PI);
        }
      cairo_fill (cr);
    }

  /* The total, under the last point: the line rises to it from the left. */
  format_percent (cum * 100.0, 1, buf, sizeof buf);
  _latent_figure_set_font (cr, style, 0.9, TRUE);
  cairo_set_source_rgb (cr, r, g, b);
  {
    double w = _latent_figure_text_width (cr, buf);
    double x = CLAMP (last_x - w / 2.0, l.plot_x + l.font * 0.3, l.plot_x + l.plot_w - w - l.font * 0.3);
    double y = CLAMP (last_y + l.font * 1.7, l.plot_y + l.font * 1.2, l.plot_y + l.plot_h - l.font * 0.4);

    _latent_figure_halo_text (cr, style, x, y, buf);
  }

out:
  cairo_restore (cr);
}

/* The grid of component images under @top, and how many it shows. */
static gboolean
component_grid (LatentSnapshot          *snapshot,
                const LatentFigureStyle *style,
                double                   top,
                int                      width,
                int                      height,
                LatentFigureTileGrid    *grid,
                guint                   *n)
{
  const double f = MAX (style->font_size, 1.0);
  guint w, h, channels;
  gboolean single;

  *n = MIN (snapshot->linear.n_components, MAX_COMPONENT_TILES);
  latent_dataset_get_image_shape (snapshot->dataset, &w, &h, &channels, &single);
  /* Room below for the colour bar. */
  return _latent_figure_tile_grid (style, w, h, *n, 1, f, top, width - 2.0 * f, height - top - f - f * 3.4, grid);
}

/* Component @i as an image on its own symmetric scale. */
static cairo_surface_t *
component_tile (LatentSnapshot          *snapshot,
                const LatentFigureStyle *style,
                guint                    i)
{
  const guint d = latent_dataset_get_n_cols (snapshot->dataset);
  const float *values = snapshot->linear.components + (gsize) i * d;
  guint w, h, channels;
  gboolean single;
  double scale = 0.0;

  latent_dataset_get_image_shape (snapshot->dataset, &w, &h, &channels, &single);
  for (guint j = 0; j < d; j++)
    if (isfinite (values[j]))
      scale = MAX (scale, fabs (values[j]));
  return _latent_figure_diverging_tile (values, w, h, channels, scale, style->dark);
}

/* Components as images, each on its own symmetric scale. */
static void
draw_component_tiles (cairo_t                 *cr,
                      LatentSnapshot          *snapshot,
                      const LatentFigureStyle *style,
                      double                   top,
                      int                      width,
                      int                      height)
{
  const LatentLinearPart *part = &snapshot->linear;
  const double f = MAX (style->font_size, 1.0);
  const double footer = f * 3.4;
  const char *scale_note = _("each component on its own scale");
  LatentFigureTileGrid grid;
  guint n;
  double bar_w, bar_x, bar_y;

  if (!component_grid (snapshot, style, top, width, height, &grid, &n))
    return;

  for (guint i = 0; i < n; i++)
    {
      cairo_surface_t *image = component_tile (snapshot, style, i);
      double x, y;

      _latent_figure_tile_origin (&grid, i, 0, &x, &y);
      cairo_save (cr);
      _latent_figure_set_color_mix (cr, style, 0.3);
      _latent_figure_draw_tile (cr, image, x, y, grid.tile_w, grid.tile_h, grid.frame);
      cairo_restore (cr);
      cairo_surface_destroy (image);
      if (grid.caption > 0)
        {
          g_autofree char *caption = _latent_figure_linear_component_caption (snapshot, i);
          g_autofree char *name = _latent_figure_linear_component_name (snapshot, i);

          _latent_figure_tile_caption (cr, style, x - grid.frame, y + grid.tile_h + grid.frame + grid.caption * 0.75,
                                       grid.tile_w + 2 * grid.frame, caption, name);
        }
    }

  /* One colour bar explains every tile: their scales differ, their map not. */
  cairo_save (cr);
  _latent_figure_set_font (cr, style, 0.9, FALSE);
  bar_w = MIN (f * 14.0, width * 0.3);
  /* Just under the grid, or at the foot of the figure when that is nearer. */
  bar_y = round (MIN (grid.y0 - grid.frame + grid.rows * grid.pitch_y - round (f * 0.8) + f * 0.9,
                      height - f - footer + f * 0.9));
  bar_x = round ((width - bar_w - f - _latent_figure_text_width (cr, scale_note)) / 2.0);
  if (bar_x < f)
    bar_x = f;
  _latent_figure_colorbar (cr, style, bar_x, bar_y, bar_w, round (f * 0.8), _("−max"), "0", _("+max"));
  _latent_figure_set_font (cr, style, 0.9, FALSE);
  _latent_figure_set_color_mix (cr, style, 0.7);
  cairo_move_to (cr, bar_x + bar_w + f * 1.2, bar_y + f * 0.7);
  _latent_figure_show_text (cr, scale_note);
  if (n < part->n_components)
    {
      g_autofree char *more = g_strdup_printf (_("the first %u of %u components"), n, part->n_components);

      cairo_move_to (cr, f, bar_y + f * 0.7);
      _latent_figure_show_text (cr, more);
    }
  cairo_restore (cr);
}

static void
_latent_figure_component_tiles_draw (LatentSnapshot          *snapshot,
                                     const LatentFigureStyle *style,
                                     cairo_t                 *cr,
                                     double                   top,
                                     int                      width,
                                     int                      height)
{
  draw_component_tiles (cr, snapshot, style, top, width, height);
}

/* A linear model's components: images where the rows are images, a heat
 * map of the loadings otherwise. */
static void
draw_components (LatentSnapshot          *snapshot,
                 const LatentFigureStyle *style,
                 cairo_t                 *cr,
                 double                   top,
                 int                      width,
                 int                      height)
{
  /* Images of image rows; a heat map of loadings otherwise. */
  cairo_save (cr);
  if (!_latent_figure_linear_has_components (snapshot))
    _latent_figure_message (cr, style, width, height, _("No components in this snapshot yet"));
  else if (_latent_figure_dataset_has_image_rows (snapshot->dataset))
    _latent_figure_component_tiles_draw (snapshot, style, cr, top, width, height);
  else
    _latent_figure_loadings_draw (snapshot, style, cr, top, width, height);
  cairo_restore (cr);
}

static gint64
pick_component (LatentSnapshot          *snapshot,
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
  LatentFigureTileGrid grid;
  guint n;
  gint64 i;

  if (!_latent_figure_linear_has_components (snapshot) || !_latent_figure_dataset_has_image_rows (snapshot->dataset)
      || !component_grid (snapshot, style, top, width, height, &grid, &n))
    return -1;
  i = _latent_figure_tile_at (&grid, n, x, y);
  if (i < 0)
    return -1;
  if (text != NULL)
    *text = _latent_figure_linear_component_caption (snapshot, (guint) i);
  if (image != NULL)
    *image = _latent_figure_enlarge_tile (component_tile (snapshot, style, (guint) i), size);
  return i;
}

const LatentFigureKindRow _latent_figure_linear_kinds[] = {
  { .kind = LATENT_FIGURE_SCREE,
    .title = N_("Scree plot"),
    .draw = _latent_figure_scree_draw,
    .applies = _latent_figure_applies_with_data,
    .only_some = TRUE },
  { .kind = LATENT_FIGURE_COMPONENTS,
    .title = N_("Components"),
    .draw = draw_components,
    .applies = _latent_figure_applies_with_data,
    .pick = pick_component,
    .only_some = TRUE },
  { .kind = LATENT_FIGURE_AUTO }
};
