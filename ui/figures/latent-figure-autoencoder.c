/* latent-figure-autoencoder.c — an autoencoder's hidden units: each unit's
 * weights as an image (rows that are images) or a row of a heat map, in
 * unit order or with the units that win most first
 *
 * Each unit is on its own symmetric scale (±max |w| of that unit): what a
 * unit responds to is its pattern, and units' magnitudes differ widely.
 * Units without a win in the last whole epoch are dead; they are dimmed and
 * crossed out. Hundreds of units pack into a grid of small tiles without
 * frames or captions; past what fits at MIN_TILE pixels, the first ones.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-figure-autoencoder"

#include "latent-figure-private.h"
#include "latent-palette.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* The smallest tile (or heat map row) drawn, in pixels. */
#define MIN_TILE 4.0
/* Framed tiles with captions are kept while they are at least this share of
 * the packed tiles' size, and this many font sizes wide; past it their
 * frames and gaps cost too much. */
#define FRAMED_SHARE 0.6
#define FRAMED_MIN_FONTS 3.0
/* A square number of units is laid out as a square while its tiles are at
 * least this share of the largest. */
#define SQUARE_SHARE 0.75

typedef struct {
  guint    d;
  guint    n_units;
  guint    n_shown;        /* the first n_shown of order */
  guint   *order;          /* n_units: the unit at each position */
  gboolean by_wins;
  gboolean counted;        /* a whole epoch done: units without a win are dead */
  guint    n_dead;

  /* Image rows only: */
  gboolean images;
  guint    img_w, img_h, channels;
  double   legend_y;       /* top of the legend line */
  double   footer_y;       /* top of the colour bar */
  LatentFigureTileGrid grid;
} Layout;

static void
layout_clear (Layout *layout)
{
  g_clear_pointer (&layout->order, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Layout, layout_clear)

static gboolean
has_weights (LatentSnapshot *snapshot)
{
  return _latent_figure_linear_has_components (snapshot);
}

static gboolean
is_dead (LatentSnapshot *snapshot,
         const Layout   *layout,
         guint           unit)
{
  return layout->counted && snapshot->autoencoder.unit_wins[unit] == 0;
}

static int
by_wins (gconstpointer a,
         gconstpointer b,
         gpointer      data)
{
  const guint *wins = data;
  guint i = *(const guint *) a, j = *(const guint *) b;

  if (wins[i] != wins[j])
    return wins[i] > wins[j] ? -1 : 1;
  return i < j ? -1 : i > j;
}

/* The order the units are shown in, and which are dead. */
static void
order_units (LatentSnapshot *snapshot,
             gboolean        wins_first,
             Layout         *layout)
{
  const LatentAutoencoderPart *part = &snapshot->autoencoder;

  layout->d = latent_dataset_get_n_cols (snapshot->dataset);
  layout->n_units = part->n_units;
  layout->n_shown = layout->n_units;
  layout->by_wins = wins_first && part->unit_wins != NULL;
  layout->order = g_new (guint, layout->n_units);
  for (guint i = 0; i < layout->n_units; i++)
    layout->order[i] = i;
  if (layout->by_wins)
    g_qsort_with_data (layout->order, layout->n_units, sizeof (guint), by_wins, part->unit_wins);

  /* Before the first whole epoch, a unit without a win may simply not have
   * had its turn yet. */
  layout->counted = part->unit_wins != NULL && part->epochs.n_epochs > 0;
  layout->n_dead = layout->counted ? 0 : part->n_dead;
  for (guint i = 0; layout->counted && i < layout->n_units; i++)
    layout->n_dead += part->unit_wins[i] == 0;
}

/* The largest tile side (along x) for @n tiles in @cols columns. */
static double
packed_tile (guint  n,
             guint  cols,
             double gap,
             double width,
             double height,
             double aspect)
{
  guint rows = (n + cols - 1) / cols;
  double w = (width - (cols - 1) * gap) / cols, h = (height - (rows - 1) * gap) / rows;

  return MIN (w, h * aspect);
}

static double
best_packed (guint   n,
             double  gap,
             double  width,
             double  height,
             double  aspect,
             guint  *best_cols)
{
  double best = 0.0;
  guint side = (guint) round (sqrt (n));

  *best_cols = 1;
  for (guint cols = 1; cols <= n; cols++)
    {
      double t = packed_tile (n, cols, gap, width, height, aspect);

      if (t > best)
        {
          best = t;
          *best_cols = cols;
        }
    }
  /* 1024 units read best as 32 × 32, unless that wastes much of the room. */
  if (side * side == n && packed_tile (n, side, gap, width, height, aspect) >= best * SQUARE_SHARE)
    {
      *best_cols = side;
      best = packed_tile (n, side, gap, width, height, aspect);
    }
  return best;
}

/* Tiles without frames or captions, a small gap apart. */
static gboolean
packed_grid (const LatentFigureStyle *style,
             guint                    img_w,
             guint                    img_h,
             guint                    n,
             double                   x,
             double                   y,
             double                   width,
             double                   height,
             LatentFigureTileGrid    *grid)
{
  const double f = MAX (style->font_size, 1.0), aspect = (double) img_w / img_h;
  const double min_w = MIN_TILE * MAX (1.0, aspect);
  double tile, gap = 1.0, scale;
  guint cols;

  tile = best_packed (n, gap, width, height, aspect, &cols);
  /* Gaps grow with the tiles, up to the framed grid's. */
  gap = CLAMP (round (tile * 0.08), 1.0, round (f * 0.5));
  if (gap > 1.0)
    tile = best_packed (n, gap, width, height, aspect, &cols);
  if (tile < min_w)
    return FALSE;

  memset (grid, 0, sizeof *grid);
  grid->per_cell = 1;
  grid->cols = cols;
  grid->rows = (n + cols - 1) / cols;
  /* Whole multiples of the image keep its pixels square; shrunk, whole
   * pixels keep the tiles evenly spaced. */
  scale = tile / img_w;
  if (scale >= 1.0 && floor (scale) / scale >= 0.8)
    scale = floor (scale);
  grid->tile_w = floor (img_w * scale);
  grid->tile_h = MAX (1.0, floor (grid->tile_w / aspect));
  grid->pitch_x = grid->tile_w + gap;
  grid->pitch_y = grid->tile_h + gap;
  grid->x0 = round (x + (width - (grid->cols * grid->pitch_x - gap)) / 2.0);
  grid->y0 = round (y + (height - (grid->rows * grid->pitch_y - gap)) / 2.0);
  return TRUE;
}

/* How many tiles fit at MIN_TILE pixels a gap of one apart. */
static guint
tiles_that_fit (guint  img_w,
                guint  img_h,
                double width,
                double height)
{
  const double aspect = (double) img_w / img_h, min_w = MIN_TILE * MAX (1.0, aspect);
  double cols = floor ((width + 1.0) / (min_w + 1.0)), rows = floor ((height + 1.0) / (min_w / aspect + 1.0));

  if (!(cols >= 1.0) || !(rows >= 1.0))
    return 0;
  return (guint) MIN (cols * rows, (double) G_MAXUINT);
}

/* The grid of image tiles under the legend line, above the colour bar. */
static gboolean
compute_layout (LatentSnapshot          *snapshot,
                const LatentFigureStyle *style,
                gboolean                 wins_first,
                double                   top,
                int                      width,
                int                      height,
                Layout                  *layout)
{
  const double f = MAX (style->font_size, 1.0), footer = f * 3.0;
  LatentFigureTileGrid framed, packed;
  gboolean single, have_framed, have_packed;
  double x, y, w, h;

  memset (layout, 0, sizeof *layout);
  if (!has_weights (snapshot))
    return FALSE;
  order_units (snapshot, wins_first, layout);
  layout->images = _latent_figure_dataset_has_image_rows (snapshot->dataset);
  layout->legend_y = top + f * 0.2;
  if (!layout->images)
    return TRUE;

  latent_dataset_get_image_shape (snapshot->dataset, &layout->img_w, &layout->img_h, &layout->channels, &single);
  x = f;
  y = round (top + f * 2.0);
  w = width - 2.0 * f;
  h = height - y - f - footer;
  if (w < MIN_TILE || h < MIN_TILE)
    return FALSE;
  layout->n_shown = MIN (layout->n_units, tiles_that_fit (layout->img_w, layout->img_h, w, h));
  if (layout->n_shown == 0)
    return FALSE;

  have_framed = _latent_figure_tile_grid (style, layout->img_w, layout->img_h, layout->n_shown, 1,
                                          x, y, w, h, &framed);
  have_packed = packed_grid (style, layout->img_w, layout->img_h, layout->n_shown, x, y, w, h, &packed);
  if (have_framed && (!have_packed || (framed.tile_w >= packed.tile_w * FRAMED_SHARE
                                       && framed.tile_w >= f * FRAMED_MIN_FONTS)))
    layout->grid = framed;
  else if (have_packed)
    layout->grid = packed;
  else
    return FALSE;
  layout->footer_y = round (MIN (layout->grid.y0 - layout->grid.frame + layout->grid.rows * layout->grid.pitch_y
                                 + f * 0.6,
                                 height - f - footer + f * 0.6));
  return TRUE;
}

/* Dead units are crossed out in the figure's ink. */
static void
set_dead_color (cairo_t                 *cr,
                const LatentFigureStyle *style)
{
  _latent_figure_set_color_mix (cr, style, 1.0);
}

/* Washed towards the background and crossed out. */
static void
mark_dead (cairo_t                 *cr,
           const LatentFigureStyle *style,
           double                   x,
           double                   y,
           double                   w,
           double                   h,
           double                   line)
{
  double r, g, b, inset = line / 2.0;

  cairo_save (cr);
  latent_figure_style_get_background (style, &r, &g, &b);
  cairo_set_source_rgba (cr, r, g, b, 0.6);
  cairo_rectangle (cr, x, y, w, h);
  cairo_fill (cr);
  cairo_rectangle (cr, x, y, w, h);
  cairo_clip (cr);
  set_dead_color (cr, style);
  cairo_set_line_width (cr, line);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_BUTT);
  cairo_move_to (cr, x + inset, y + inset);
  cairo_line_to (cr, x + w - inset, y + h - inset);
  cairo_move_to (cr, x + w - inset, y + inset);
  cairo_line_to (cr, x + inset, y + h - inset);
  cairo_stroke (cr);
  cairo_restore (cr);
}

static double
cross_width (const LatentFigureStyle *style,
             double                   size)
{
  return CLAMP (round (size / 12.0), 2.0, MAX (2.0, round (MAX (style->font_size, 1.0) * 0.25)));
}

static double
unit_scale (const float *values,
            guint        d)
{
  double scale = 0.0;

  for (guint j = 0; j < d; j++)
    if (isfinite (values[j]))
      scale = MAX (scale, fabs (values[j]));
  return scale;
}

static char *
unit_caption (LatentSnapshot *snapshot,
              const Layout   *layout,
              guint           unit,
              gboolean        long_form)
{
  if (layout->by_wins)
    {
      guint wins = snapshot->autoencoder.unit_wins[unit];

      /* Translators: a hidden unit and how often it won, "unit 17 · 412 wins". */
      return long_form ? g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "unit %u · %u win", "unit %u · %u wins", wins),
                                          unit + 1, wins)
                       : g_strdup_printf ("%u · %u", unit + 1, wins);
    }
  return long_form ? g_strdup_printf (_("unit %u"), unit + 1) : g_strdup_printf ("%u", unit + 1);
}

/* "unit 3 · dead" in unit order, where the wins do not say so already. */
static char *
unit_caption_dead (LatentSnapshot *snapshot,
                   const Layout   *layout,
                   guint           unit)
{
  if (layout->by_wins || !is_dead (snapshot, layout, unit))
    return NULL;
  /* Translators: a hidden unit without a win in the last epoch. */
  return g_strdup_printf (_("unit %u · dead"), unit + 1);
}

/* "1024 units · 103 dead (no win in the last epoch)", a crossed swatch
 * before it when some are dead. */
static void
draw_legend (cairo_t                 *cr,
             LatentSnapshot          *snapshot,
             const LatentFigureStyle *style,
             const Layout            *layout,
             int                      width)
{
  const double f = MAX (style->font_size, 1.0), swatch = round (f * 0.9);
  g_autofree char *units = NULL;
  g_autofree char *dead = NULL;
  g_autofree char *line = NULL;
  double x = f, y = layout->legend_y;

  if (layout->n_shown < layout->n_units)
    units = g_strdup_printf (_("first %u of %u units"), layout->n_shown, layout->n_units);
  else
    units = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u unit", "%u units", layout->n_units),
                             layout->n_units);
  if (layout->counted || snapshot->autoencoder.epochs.n_epochs > 0)
    dead = layout->n_dead == 0 ? g_strdup (_("none dead (each won in the last epoch)"))
                               : g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u dead (no win in the last epoch)",
                                                               "%u dead (no win in the last epoch)", layout->n_dead),
                                                  layout->n_dead);
  else
    dead = g_strdup (_("dead units are known after the first epoch"));
  line = layout->by_wins ? g_strdup_printf (_("%s · %s · most wins first"), units, dead)
                         : g_strdup_printf ("%s · %s", units, dead);

  cairo_save (cr);
  if (layout->n_dead > 0 && layout->counted)
    {
      double r, g, b;

      latent_palette_diverging (0.6, style->dark, &r, &g, &b);
      cairo_set_source_rgb (cr, r, g, b);
      cairo_rectangle (cr, x, y + f * 0.25, swatch, swatch);
      cairo_fill (cr);
      mark_dead (cr, style, x, y + f * 0.25, swatch, swatch, 2.0);
      x += swatch + f * 0.5;
    }
  _latent_figure_set_font (cr, style, 1.0, FALSE);
  _latent_figure_set_color_mix (cr, style, 0.85);
  cairo_move_to (cr, x, y + f * 1.05);
  if (x + _latent_figure_text_width (cr, line) <= width - f)
    _latent_figure_show_text (cr, line);
  else if (x + _latent_figure_text_width (cr, units) <= width - f)
    _latent_figure_show_text (cr, units);
  cairo_restore (cr);
}

static void
draw_tiles (cairo_t                 *cr,
            LatentSnapshot          *snapshot,
            const LatentFigureStyle *style,
            const Layout            *layout,
            int                      width)
{
  const double f = MAX (style->font_size, 1.0);
  const LatentFigureTileGrid *grid = &layout->grid;
  const char *scale_note = _("each unit on its own scale");
  gboolean long_captions = grid->caption > 0;
  double bar_w, bar_x;

  /* All captions long or all short, so the grid reads evenly. */
  cairo_save (cr);
  _latent_figure_set_font (cr, style, 0.9, FALSE);
  for (guint pos = 0; long_captions && pos < layout->n_shown; pos++)
    {
      g_autofree char *caption = unit_caption (snapshot, layout, layout->order[pos], TRUE);

      long_captions = _latent_figure_text_width (cr, caption) <= grid->tile_w + 2 * grid->frame;
    }
  cairo_restore (cr);

  for (guint pos = 0; pos < layout->n_shown; pos++)
    {
      guint unit = layout->order[pos];
      const float *values = snapshot->autoencoder.encoder_weights + (gsize) unit * layout->d;
      gboolean dead = is_dead (snapshot, layout, unit);
      cairo_surface_t *image;
      double x, y;

      _latent_figure_tile_origin (grid, pos, 0, &x, &y);
      image = _latent_figure_diverging_tile (values, layout->img_w, layout->img_h, layout->channels,
                                             unit_scale (values, layout->d), style->dark);
      cairo_save (cr);
      if (dead)
        set_dead_color (cr, style);
      else
        _latent_figure_set_color_mix (cr, style, 0.3);
      _latent_figure_draw_tile (cr, image, x, y, grid->tile_w, grid->tile_h, grid->frame);
      cairo_restore (cr);
      cairo_surface_destroy (image);
      if (dead)
        mark_dead (cr, style, x, y, grid->tile_w, grid->tile_h, cross_width (style, MIN (grid->tile_w, grid->tile_h)));
      if (grid->caption > 0)
        {
          g_autofree char *caption = unit_caption (snapshot, layout, unit, long_captions);
          g_autofree char *dead_caption = long_captions ? unit_caption_dead (snapshot, layout, unit) : NULL;

          _latent_figure_tile_caption (cr, style, x - grid->frame, y + grid->tile_h + grid->frame + grid->caption * 0.75,
                                       grid->tile_w + 2 * grid->frame, dead_caption ? dead_caption : caption, caption);
        }
    }

  /* One colour bar explains every tile: their scales differ, their map not. */
  cairo_save (cr);
  _latent_figure_set_font (cr, style, 0.9, FALSE);
  bar_w = MIN (f * 14.0, width * 0.3);
  bar_x = round ((width - bar_w - f * 1.2 - _latent_figure_text_width (cr, scale_note)) / 2.0);
  if (bar_x < f)
    bar_x = f;
  _latent_figure_colorbar (cr, style, bar_x, layout->footer_y, bar_w, round (f * 0.8), _("−max"), "0", _("+max"));
  _latent_figure_set_font (cr, style, 0.9, FALSE);
  _latent_figure_set_color_mix (cr, style, 0.7);
  cairo_move_to (cr, bar_x + bar_w + f * 1.2, layout->footer_y + f * 0.7);
  _latent_figure_show_text (cr, scale_note);
  cairo_restore (cr);
}

/* Rows that are not images: a heat map, one row per unit, one column per
 * column of the data; as many units as fit at MIN_TILE pixels a row. */
static void
draw_heatmap (cairo_t                 *cr,
              LatentSnapshot          *snapshot,
              const LatentFigureStyle *style,
              Layout                  *layout,
              double                   top,
              int                      width,
              int                      height)
{
  const double f = MAX (style->font_size, 1.0);
  const guint d = layout->d, m = layout->n_units;
  double map_top = round (top + f * 2.0), cells[4];
  g_autofree double *values = g_new (double, (gsize) m * d);
  g_autofree double *scales = g_new (double, m);
  g_autofree char *note = g_strdup (_("Weights: each unit's row on its own scale"));
  LatentFigureHeatmap hm = {
    .rows = m, .cols = d, .values = values, .scale = 1.0, .row_scales = scales,
    .note = note, .min_cell_width = round (f * 2.5),
  };
  double largest = 0.0;

  hm.row_labels = g_new0 (char *, m + 1);
  hm.col_labels = g_new0 (char *, d + 1);
  for (guint i = 0; i < m; i++)
    {
      guint unit = layout->order[i];
      const float *w = snapshot->autoencoder.encoder_weights + (gsize) unit * d;

      scales[i] = unit_scale (w, d);
      /* A flat zero unit stays neutral. */
      if (!(scales[i] > 0.0))
        scales[i] = 1.0;
      for (guint j = 0; j < d; j++)
        values[(gsize) i * d + j] = w[j];
      hm.row_labels[i] = unit_caption_dead (snapshot, layout, unit);
      if (hm.row_labels[i] == NULL)
        hm.row_labels[i] = unit_caption (snapshot, layout, unit, TRUE);
      largest = MAX (largest, scales[i]);
    }
  for (guint j = 0; j < d; j++)
    hm.col_labels[j] = latent_dataset_dup_column_label (snapshot->dataset, j);
  hm.bar_low = g_strdup (_("−max"));
  hm.bar_high = g_strdup (_("+max"));
  /* Two significant digits of the largest weight: weights are often small.
   * Cells may grow wider than square to print them. */
  hm.decimals = largest > 0.0 ? CLAMP (1 - (int) floor (log10 (largest)), 0, 6) : 2;
  {
    cairo_t *measure = _latent_figure_measure_context (style);
    char buf[64];

    _latent_figure_format_tick (-largest, hm.decimals, buf, sizeof buf);
    hm.min_cell_width = MAX (hm.min_cell_width, ceil (_latent_figure_text_width (measure, buf) + f * 0.6));
    cairo_destroy (measure);
  }

  /* Rows thinner than MIN_TILE: the first units whose rows are not. */
  if (!_latent_figure_heatmap_draw (NULL, style, &hm, map_top, width, height, cells))
    goto out;
  if (cells[3] < MIN_TILE)
    hm.rows = layout->n_shown = (guint) MAX (1.0, floor (cells[3] * m / MIN_TILE));

  draw_legend (cr, snapshot, style, layout, width);
  if (!_latent_figure_heatmap_draw (cr, style, &hm, map_top, width, height, cells))
    _latent_figure_message (cr, style, width, height, _("Too many columns for a heat map at this size"));
  else
    for (guint i = 0; i < hm.rows; i++)
      if (is_dead (snapshot, layout, layout->order[i]))
        {
          double y = round (cells[1] + i * cells[3]), h = round (cells[1] + (i + 1) * cells[3]) - y;

          mark_dead (cr, style, cells[0], y, round (cells[2] * d), h, MAX (1.0, MIN (2.0, h / 3.0)));
        }

out:
  g_strfreev (hm.row_labels);
  g_strfreev (hm.col_labels);
  g_free (hm.bar_low);
  g_free (hm.bar_high);
}

static void
draw_weights (LatentSnapshot          *snapshot,
              const LatentFigureStyle *style,
              cairo_t                 *cr,
              double                   top,
              int                      width,
              int                      height,
              gboolean                 wins_first)
{
  g_auto(Layout) layout = { 0 };

  cairo_save (cr);
  if (!has_weights (snapshot))
    _latent_figure_message (cr, style, width, height, _("No weights in this snapshot yet"));
  else if (wins_first && snapshot->autoencoder.unit_wins == NULL)
    _latent_figure_message (cr, style, width, height, _("No wins counted in this snapshot yet"));
  else if (compute_layout (snapshot, style, wins_first, top, width, height, &layout))
    {
      if (!layout.images)
        draw_heatmap (cr, snapshot, style, &layout, top, width, height);
      else
        {
          draw_legend (cr, snapshot, style, &layout, width);
          draw_tiles (cr, snapshot, style, &layout, width);
        }
    }
  cairo_restore (cr);
}

static void
_latent_figure_weights_draw (LatentSnapshot          *snapshot,
                             const LatentFigureStyle *style,
                             cairo_t                 *cr,
                             double                   top,
                             int                      width,
                             int                      height)
{
  draw_weights (snapshot, style, cr, top, width, height, FALSE);
}

static void
_latent_figure_winners_draw (LatentSnapshot          *snapshot,
                             const LatentFigureStyle *style,
                             cairo_t                 *cr,
                             double                   top,
                             int                      width,
                             int                      height)
{
  draw_weights (snapshot, style, cr, top, width, height, TRUE);
}

gboolean
latent_figure_weights_locate (LatentSnapshot          *snapshot,
                              LatentFigureKind         kind,
                              const LatentFigureStyle *style,
                              int                      width,
                              int                      height,
                              guint                    unit,
                              double                  *x,
                              double                  *y,
                              double                  *tile_width,
                              double                  *tile_height)
{
  g_auto(Layout) layout = { 0 };
  double top, tx, ty;

  g_return_val_if_fail (snapshot != NULL, FALSE);
  g_return_val_if_fail (style != NULL, FALSE);
  g_return_val_if_fail (kind == LATENT_FIGURE_WEIGHTS || kind == LATENT_FIGURE_WINNERS, FALSE);

  /* The dispatcher calls this file, so its table is asked by name here. */
  if (!latent_algorithm_offers_figure (snapshot->algorithm, kind == LATENT_FIGURE_WINNERS ? "winners" : "weights")
      || snapshot->dataset == NULL || (kind == LATENT_FIGURE_WINNERS && snapshot->autoencoder.unit_wins == NULL))
    return FALSE;
  top = _latent_figure_header (NULL, snapshot, style, width, NULL);
  if (!compute_layout (snapshot, style, kind == LATENT_FIGURE_WINNERS, top, width, height, &layout)
      || !layout.images)
    return FALSE;
  for (guint pos = 0; pos < layout.n_shown; pos++)
    if (layout.order[pos] == unit)
      {
        _latent_figure_tile_origin (&layout.grid, pos, 0, &tx, &ty);
        if (x) *x = tx;
        if (y) *y = ty;
        if (tile_width) *tile_width = layout.grid.tile_w;
        if (tile_height) *tile_height = layout.grid.tile_h;
        return TRUE;
      }
  return FALSE;
}

static gint64
pick_unit (LatentSnapshot          *snapshot,
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
  g_auto(Layout) layout = { 0 };
  const LatentAutoencoderPart *part = &snapshot->autoencoder;
  const gboolean by_wins = kind == LATENT_FIGURE_WINNERS;
  gint64 pos;
  guint unit;

  if (snapshot->dataset == NULL || part->encoder_weights == NULL || (by_wins && part->unit_wins == NULL)
      || !compute_layout (snapshot, style, by_wins, top, width, height, &layout) || !layout.images)
    return -1;
  pos = _latent_figure_tile_at (&layout.grid, layout.n_shown, x, y);
  if (pos < 0)
    return -1;
  unit = layout.order[pos];
  if (text != NULL)
    {
      g_autoptr(GString) s = g_string_new (NULL);
      guint64 total = 0;

      /* Translators: a hidden unit in a tooltip, counting from 1. */
      g_string_append_printf (s, _("Unit %u"), unit + 1);
      for (guint u = 0; part->unit_wins != NULL && u < layout.n_units; u++)
        total += part->unit_wins[u];
      if (part->unit_wins != NULL && total > 0)
        /* Translators: how often a unit won its rows, "· 412 wins (4.1 %)". */
        g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, " · %u win (%.1f %%)", " · %u wins (%.1f %%)",
                                                part->unit_wins[unit]),
                                part->unit_wins[unit], 100.0 * part->unit_wins[unit] / total);
      if (is_dead (snapshot, &layout, unit))
        g_string_append (s, _(" · dead: no win in the last epoch"));
      *text = g_string_free (g_steal_pointer (&s), FALSE);
    }
  if (image != NULL)
    {
      const float *values = part->encoder_weights + (gsize) unit * layout.d;

      *image = _latent_figure_enlarge_tile (_latent_figure_diverging_tile (values, layout.img_w, layout.img_h,
                                                                           layout.channels,
                                                                           unit_scale (values, layout.d), FALSE),
                                            size);
    }
  return unit;
}

const LatentFigureKindRow _latent_figure_autoencoder_kinds[] = {
  { .kind = LATENT_FIGURE_WEIGHTS,
    .title = N_("Weights"),
    .draw = _latent_figure_weights_draw,
    .applies = _latent_figure_applies_with_data,
    .pick = pick_unit,
    .only_some = TRUE,
    .per_family = TRUE, .family = LATENT_FAMILY_AUTOENCODER },
  { .kind = LATENT_FIGURE_WINNERS,
    .title = N_("Weights by wins"),
    .draw = _latent_figure_winners_draw,
    .applies = _latent_figure_applies_with_data,
    .pick = pick_unit,
    .only_some = TRUE },
  { .kind = LATENT_FIGURE_AUTO }
};
