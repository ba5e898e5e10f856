/* latent-figure-sweep.c — model selection: BIC and AIC of a sweep over K
 *
 * Grouped bars, one group per K, BIC and AIC side by side, the best K by BIC
 * outlined and named. BIC and AIC are only defined up to a constant shared by
 * every K of one dataset, and with many rows they are large numbers whose
 * differences are a few per cent of their size. So each bar is how much
 * worse its K is than the best by that criterion (ΔBIC, ΔAIC), from zero:
 * twice as long is twice as much worse, which is all the criteria mean. (An
 * axis of the values themselves starting near the smallest made small
 * differences look large.) The best K's bar is a stub at zero. The heading
 * says what every fit shared, and suggests a wider range when the best K
 * is an end of the one tried.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-figure-sweep"

#include "latent-figure-private.h"
#include "latent-palette.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#define MIN_PLOT_SIZE 40.0
/* Room above the largest difference, as a part of it. */
#define TOP_ROOM 0.18
/* The best K's bar, of length zero, still shows as a stub this high. */
#define STUB 2.0

typedef struct {
  double   font;
  double   plot_x, plot_y, plot_w, plot_h;
  double   lo, hi;              /* the value axis */
  LatentFigureTicks ticks;
  double   group_w, bar_w, gap;
  guint    label_every;         /* K labels under every n-th group */
  double   legend_x;
} Layout;

const char *
_latent_figure_sweep_title (void)
{
  return _("Model selection: BIC and AIC by K");
}

static const LatentSweepPoint *
sweep_point (const LatentSweep *sweep,
             guint              index)
{
  return &g_array_index (sweep->points, LatentSweepPoint, index);
}

/* The smallest finite BIC (0) or AIC (1) of the sweep; NaN if none. */
static double
lowest (const LatentSweep *sweep,
        guint              which)
{
  double mn = INFINITY;

  for (guint i = 0; i < sweep->points->len; i++)
    {
      const LatentSweepPoint *p = sweep_point (sweep, i);
      double v = which == 0 ? p->bic : p->aic;

      if (isfinite (v))
        mn = MIN (mn, v);
    }
  return isfinite (mn) ? mn : NAN;
}

/* How much worse than the best by BIC (0) or AIC (1) point @index is: ≥ 0,
 * or not finite for a failed fit. */
static double
criterion (const LatentSweep *sweep,
           guint              index,
           guint              which)
{
  const LatentSweepPoint *p = sweep_point (sweep, index);
  double v = which == 0 ? p->bic : p->aic;

  return isfinite (v) ? MAX (v - lowest (sweep, which), 0.0) : NAN;
}

static gboolean
value_range (const LatentSweep *sweep,
             double            *lo,
             double            *hi)
{
  double mx = -INFINITY;

  for (guint i = 0; i < sweep->points->len; i++)
    for (guint which = 0; which < 2; which++)
      {
        double v = criterion (sweep, i, which);

        if (isfinite (v))
          mx = MAX (mx, v);
      }
  if (!isfinite (mx))
    return FALSE;
  /* All alike still needs a visible range. */
  *lo = 0.0;
  *hi = mx > 0.0 ? mx * (1.0 + TOP_ROOM) : 1.0;
  return isfinite (*hi);
}

static char *
subtitle_text (const LatentSweep *sweep)
{
  guint n = sweep->points->len;
  g_autofree char *edge = latent_sweep_describe_edge (sweep);

  if (sweep->best_bic < n && sweep->best_aic < n)
    return g_strdup_printf (_("Best K = %u by BIC, %u by AIC%s%s"),
                            sweep_point (sweep, sweep->best_bic)->k,
                            sweep_point (sweep, sweep->best_aic)->k, edge ? " · " : "", edge ? edge : "");
  return g_strdup (_("Lower is better"));
}

/* The heading every figure has: the title, the best K (and a wider range
 * to try), then what every fit shared. */
static double
draw_header (cairo_t                 *cr,
             const LatentSweep       *sweep,
             const LatentFigureStyle *style,
             int                      width)
{
  g_autofree char *subtitle = subtitle_text (sweep);
  g_autofree char *fits = latent_sweep_describe_fits (sweep);

  return _latent_figure_heading (cr, style, width, _latent_figure_sweep_title (), subtitle, fits);
}

static gboolean
compute_layout (const LatentSweep       *sweep,
                const LatentFigureStyle *style,
                int                      width,
                int                      height,
                Layout                  *l)
{
  cairo_t *cr = _latent_figure_measure_context (style);
  const double f = MAX (style->font_size, 1.0);
  const guint n = sweep->points->len;
  double widest = 0.0, legend_w, left, right, bottom, k_label = 0.0, top;
  char buf[64];

  memset (l, 0, sizeof *l);
  l->font = f;
  if (n == 0 || !value_range (sweep, &l->lo, &l->hi))
    {
      cairo_destroy (cr);
      return FALSE;
    }

  _latent_figure_set_font (cr, style, 0.9, FALSE);
  top = draw_header (NULL, sweep, style, width);
  _latent_figure_nice_ticks (l->lo, l->hi, MAX ((height - top) / (f * 3.5), 3.0), &l->ticks);
  for (guint i = 0; i < l->ticks.n; i++)
    {
      _latent_figure_format_tick (l->ticks.values[i], l->ticks.decimals, buf, sizeof buf);
      widest = MAX (widest, _latent_figure_text_width (cr, buf));
    }
  for (guint i = 0; i < n; i++)
    {
      g_snprintf (buf, sizeof buf, "%u", sweep_point (sweep, i)->k);
      k_label = MAX (k_label, _latent_figure_text_width (cr, buf));
    }
  _latent_figure_set_font (cr, style, 1.0, FALSE);
  legend_w = round (f * 0.8) + f * 0.5 + MAX (_latent_figure_text_width (cr, "BIC"), _latent_figure_text_width (cr, "AIC"));
  cairo_destroy (cr);

  left = f + f * 1.2 + f * 0.5 + widest + f * 0.4 + f * 0.3;
  right = legend_w + f * 2.5;
  bottom = f * 0.4 + f * 1.2 + f * 0.4 + f * 1.2 + f * 0.8;
  l->plot_x = round (left);
  l->plot_y = round (top);
  l->plot_w = floor (width - right - l->plot_x);
  l->plot_h = floor (height - bottom - l->plot_y);
  l->legend_x = l->plot_x + l->plot_w + f * 1.5;
  if (l->plot_w < MIN_PLOT_SIZE || l->plot_h < MIN_PLOT_SIZE)
    return FALSE;

  /* Tick count from the real plot height, now that it is known; the axis
   * then starts on a tick, so the value the bars rise from is labelled. */
  _latent_figure_nice_ticks (l->lo, l->hi, MAX (l->plot_h / (f * 3.5), 3.0), &l->ticks);
  if (l->ticks.n >= 2)
    {
      double step = l->ticks.values[1] - l->ticks.values[0];

      l->lo = floor (l->lo / step + 1e-9) * step;
      _latent_figure_nice_ticks (l->lo, l->hi, MAX (l->plot_h / (f * 3.5), 3.0), &l->ticks);
    }

  l->group_w = l->plot_w / n;
  l->gap = MAX (1.0, round (l->group_w * 0.04));
  l->bar_w = MIN (floor (l->group_w * 0.36), round (f * 3.0));
  l->bar_w = MAX (l->bar_w, 1.0);
  l->label_every = MAX (1u, (guint) ceil ((k_label + f) / l->group_w));
  return TRUE;
}

static inline double
map_value (const Layout *l,
           double        v)
{
  return l->plot_y + (l->hi - v) / (l->hi - l->lo) * l->plot_h;
}

/* The bar of point @index, criterion @which, in whole pixels. */
static void
bar_rect (const Layout *l,
          guint         index,
          guint         which,
          double        value,
          double       *x,
          double       *y,
          double       *w,
          double       *h)
{
  double centre = l->plot_x + (index + 0.5) * l->group_w;
  double bottom = l->plot_y + l->plot_h;
  double top = round (CLAMP (map_value (l, value), l->plot_y, bottom - STUB));

  *x = which == 0 ? round (centre - l->gap / 2.0 - l->bar_w) : round (centre + l->gap / 2.0);
  *w = l->bar_w;
  *y = top;
  *h = bottom - top;
}

static void
draw_grid_and_axes (cairo_t                 *cr,
                    const LatentSweep       *sweep,
                    const LatentFigureStyle *style,
                    const Layout            *l)
{
  const guint n = sweep->points->len;
  g_auto(GStrv) values = _latent_figure_tick_labels (&l->ticks, NULL);
  g_autoptr(GPtrArray) ks = g_ptr_array_new_with_free_func (g_free);
  g_autofree double *k_at = g_new (double, n);
  double value_at[_LATENT_FIGURE_MAX_TICKS];
  LatentFigureAxes axes;

  for (guint i = 0; i < l->ticks.n; i++)
    value_at[i] = map_value (l, l->ticks.values[i]);
  for (guint i = 0; i < n; i += l->label_every)
    {
      k_at[ks->len] = l->plot_x + (i + 0.5) * l->group_w;
      g_ptr_array_add (ks, g_strdup_printf ("%u", sweep_point (sweep, i)->k));
    }
  _latent_figure_axes_init (&axes, style, l->plot_x, l->plot_y, l->plot_w, l->plot_h);
  axes.left = (LatentFigureAxis) { l->ticks.n, value_at, (const char * const *) values, TRUE,
                                   _("above the lowest (ΔBIC, ΔAIC)") };
  axes.bottom = (LatentFigureAxis) { ks->len, k_at, (const char * const *) ks->pdata, FALSE,
                                     _("number of components K") };
  _latent_figure_draw_grid (cr, style, &axes);
  _latent_figure_draw_axes (cr, style, &axes);
}

static void
draw_bars (cairo_t                 *cr,
           const LatentSweep       *sweep,
           const Layout            *l)
{
  cairo_save (cr);
  cairo_rectangle (cr, l->plot_x, l->plot_y, l->plot_w, l->plot_h);
  cairo_clip (cr);
  for (guint which = 0; which < 2; which++)
    {
      double r, g, b;

      latent_palette_color (which, &r, &g, &b);
      cairo_set_source_rgb (cr, r, g, b);
      for (guint i = 0; i < sweep->points->len; i++)
        {
          double v = criterion (sweep, i, which), x, y, w, h;

          /* A failed fit has no bar, and no say in the axis. */
          if (!isfinite (v))
            continue;
          bar_rect (l, i, which, v, &x, &y, &w, &h);
          cairo_rectangle (cr, x, y, w, h);
        }
      cairo_fill (cr);
    }
  cairo_restore (cr);
}

/* The best K by BIC: its bar outlined, and named above it. */
static void
draw_best (cairo_t                 *cr,
           const LatentSweep       *sweep,
           const LatentFigureStyle *style,
           const Layout            *l)
{
  const double f = l->font;
  const LatentSweepPoint *best;
  g_autofree char *text = NULL;
  cairo_text_extents_t ext;
  double x, y, w, h, top, tx, ty, br, bg, bb;

  if (sweep->best_bic >= sweep->points->len)
    return;
  best = sweep_point (sweep, sweep->best_bic);
  if (!isfinite (best->bic))
    return;

  bar_rect (l, sweep->best_bic, 0, criterion (sweep, sweep->best_bic, 0), &x, &y, &w, &h);
  cairo_save (cr);
  _latent_figure_set_color_mix (cr, style, 1.0);
  cairo_set_line_width (cr, 2.0);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_MITER);
  /* Outside the bar, so its colour stays whole; open at the axis. */
  cairo_move_to (cr, x - 1.0, y + h);
  cairo_line_to (cr, x - 1.0, y - 1.0);
  cairo_line_to (cr, x + w + 1.0, y - 1.0);
  cairo_line_to (cr, x + w + 1.0, y + h);
  cairo_stroke (cr);

  text = g_strdup_printf (_("best K = %u (BIC)"), best->k);
  _latent_figure_set_font (cr, style, 1.0, TRUE);
  cairo_text_extents (cr, text, &ext);
  tx = CLAMP (x + w / 2.0 - ext.x_advance / 2.0, l->plot_x + f * 0.3,
              l->plot_x + l->plot_w - ext.x_advance - f * 0.3);
  /* Above every bar it spans, a neighbour's too, so it hides no data. */
  top = y;
  for (guint i = 0; i < sweep->points->len; i++)
    for (guint which = 0; which < 2; which++)
      {
        double v = criterion (sweep, i, which), bx, by, bw, bh;

        if (!isfinite (v))
          continue;
        bar_rect (l, i, which, v, &bx, &by, &bw, &bh);
        if (bx <= tx + ext.x_advance + 2.0 && bx + bw >= tx - 2.0)
          top = MIN (top, by);
      }
  ty = MAX (top - f * 0.6, l->plot_y + f * 1.2);
  /* A halo keeps it readable where there is no room above a tall bar. */
  latent_figure_style_get_background (style, &br, &bg, &bb);
  _latent_figure_set_color_mix (cr, style, 1.0);
  cairo_move_to (cr, tx, ty);
  _latent_figure_show_halo_text (cr, text, br, bg, bb, 1.0, 3.0);
  /* The best bar is a stub at zero, the label perhaps far above it over
   * taller neighbours: a dotted line joins them. */
  if (y - 3.0 > ty + f * 0.5)
    {
      const double dots[] = { 1.0, 3.0 };

      _latent_figure_set_color_mix (cr, style, 0.6);
      cairo_set_line_width (cr, 1.0);
      cairo_set_dash (cr, dots, G_N_ELEMENTS (dots), 0.0);
      cairo_move_to (cr, floor (x + w / 2.0) + 0.5, ty + f * 0.5);
      cairo_line_to (cr, floor (x + w / 2.0) + 0.5, y - 3.0);
      cairo_stroke (cr);
    }
  cairo_restore (cr);
}

static void
draw_legend (cairo_t                 *cr,
             const LatentFigureStyle *style,
             const Layout            *l)
{
  const double f = l->font, line = f * 1.5, swatch = round (f * 0.8);
  double y = l->plot_y + f * 0.4;

  cairo_save (cr);
  _latent_figure_set_font (cr, style, 1.0, FALSE);
  for (guint which = 0; which < 2; which++)
    {
      double r, g, b;

      y += line;
      latent_palette_color (which, &r, &g, &b);
      cairo_set_source_rgb (cr, r, g, b);
      cairo_rectangle (cr, l->legend_x, y - f * 0.5 - swatch / 2.0, swatch, swatch);
      cairo_fill (cr);
      _latent_figure_set_color_mix (cr, style, 1.0);
      cairo_move_to (cr, l->legend_x + swatch + f * 0.5, y - f * 0.5 + f * 0.35);
      _latent_figure_show_text (cr, which == 0 ? "BIC" : "AIC");
    }
  cairo_restore (cr);
}

void
latent_figure_sweep_render (const LatentSweep       *sweep,
                            const LatentFigureStyle *style,
                            cairo_t                 *cr,
                            int                      width,
                            int                      height)
{
  Layout layout;

  g_return_if_fail (sweep != NULL && sweep->points != NULL);
  g_return_if_fail (style != NULL);
  g_return_if_fail (cr != NULL);

  cairo_save (cr);
  _latent_figure_paint_background (cr, style, width, height);
  draw_header (cr, sweep, style, width);

  if (compute_layout (sweep, style, width, height, &layout))
    {
      draw_grid_and_axes (cr, sweep, style, &layout);
      draw_bars (cr, sweep, &layout);
      draw_best (cr, sweep, style, &layout);
      draw_legend (cr, style, &layout);
    }
  else if (!value_range (sweep, &layout.lo, &layout.hi))
    _latent_figure_message (cr, style, width, height, _("No model of this sweep has a BIC or AIC"));
  cairo_restore (cr);
}
