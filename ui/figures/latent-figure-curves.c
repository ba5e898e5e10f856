/* latent-figure-curves.c — an autoencoder's training curves: the loss of
 * every mini-batch with its moving average and the validation loss of each
 * epoch above, the share of dead units after each epoch below, both on the
 * same axis of mini-batches so epochs line up
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-figure-curves"

#include "latent-figure-private.h"
#include "latent-palette.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#define MIN_PLOT_SIZE 40.0
/* The dead units' panel is dropped below this height. */
#define MIN_DEAD_PANEL 30.0
/* Palette entries of the curves. */
#define COLOR_LOSS 0
#define COLOR_VALIDATION 1
#define COLOR_DEAD 3

typedef struct {
  guint   n;                /* mini-batches */
  guint   per_epoch;        /* mini-batches an epoch, 0 if unknown */
  guint   n_epochs;
  guint   window;           /* of the moving average */
  double *smooth;           /* n: the moving average, NaN where no value */
  gboolean validation;      /* some epoch has a validation loss */
  double  x_max;            /* the step axis ends here */
  double  lo, hi;           /* the loss axis */
  LatentFigureTicks x_ticks, loss_ticks, dead_ticks, epoch_ticks;
  double  plot_x, plot_w;
  double  loss_y, loss_h;   /* the upper panel */
  double  dead_y, dead_h;   /* the lower one; dead_h 0 when it is left out */
} Curves;

static void
curves_clear (Curves *c)
{
  g_clear_pointer (&c->smooth, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Curves, curves_clear)

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

/* Centred, so it does not lag; near the ends the window shrinks to stay
 * centred (the first step is its own mean). */
static double *
moving_average (const float *values,
                guint        n,
                guint        window)
{
  g_autofree double *sum = g_new (double, n + 1);
  g_autofree guint *count = g_new (guint, n + 1);
  double *out = g_new (double, n);
  guint half = window / 2;

  sum[0] = 0.0;
  count[0] = 0;
  for (guint i = 0; i < n; i++)
    {
      gboolean ok = isfinite (values[i]);

      sum[i + 1] = sum[i] + (ok ? values[i] : 0.0);
      count[i + 1] = count[i] + ok;
    }
  for (guint i = 0; i < n; i++)
    {
      guint h = MIN (half, MIN (i, n - 1 - i)), a = i - h, b = i + h + 1, c = count[b] - count[a];

      out[i] = c > 0 ? (sum[b] - sum[a]) / c : NAN;
    }
  return out;
}

/* The raw losses, faint; a dark background needs more of them to show. */
static double
raw_alpha (const LatentFigureStyle *style)
{
  return style->dark ? 0.55 : 0.35;
}

/* Points at the epochs' ends only while they stay apart. */
static gboolean
epoch_markers (const Curves *c,
               double        font)
{
  return c->per_epoch / c->x_max * c->plot_w >= font * 0.9;
}

static double
epoch_x (const Curves *c,
         guint         epoch)
{
  return (double) (epoch + 1) * c->per_epoch;
}

static double
to_x (const Curves *c,
      double        step)
{
  return c->plot_x + step / c->x_max * c->plot_w;
}

static double
to_y (double y0,
      double h,
      double lo,
      double hi,
      double v)
{
  return y0 + (hi - v) / (hi - lo) * h;
}

/* Ticks whose top (and bottom) lie on the range, so both ends are labelled. */
static void
round_range (double            *lo,
             double            *hi,
             double             target,
             LatentFigureTicks *ticks)
{
  _latent_figure_nice_ticks (*lo, *hi, target, ticks);
  if (ticks->n >= 2)
    {
      double step = ticks->values[1] - ticks->values[0];

      *lo = floor (*lo / step + 1e-9) * step;
      *hi = ceil (*hi / step - 1e-9) * step;
      _latent_figure_nice_ticks (*lo, *hi, target, ticks);
    }
}

static void
loss_range (LatentSnapshot *snapshot,
            Curves         *c)
{
  const LatentAutoencoderPart *part = &snapshot->autoencoder;
  double lo = INFINITY, hi = -INFINITY, pad;
  gboolean negative = FALSE;

  /* The moving average and the validation loss set the range: the raw
   * losses of the first steps would flatten everything after them. */
  for (guint i = 0; i < c->n; i++)
    {
      double v = part->epochs.step_loss[i];

      if (isfinite (c->smooth[i]))
        lo = MIN (lo, c->smooth[i]), hi = MAX (hi, c->smooth[i]);
      if (isfinite (v))
        lo = MIN (lo, v), negative |= v < 0.0;
    }
  for (guint e = 0; c->validation && e < c->n_epochs; e++)
    if (isfinite (part->epochs.held_out_loss[e]))
      {
        lo = MIN (lo, part->epochs.held_out_loss[e]);
        hi = MAX (hi, part->epochs.held_out_loss[e]);
      }
  if (!isfinite (lo) || !isfinite (hi))
    lo = 0.0, hi = 1.0;
  if (!(hi > lo))
    {
      pad = MAX (fabs (hi) * 0.1, 1e-6);
      lo -= pad, hi += pad;
    }
  pad = (hi - lo) * 0.05;
  lo -= pad;
  hi += pad;
  /* A loss is not negative: the axis stops at zero. */
  if (!negative)
    lo = MAX (lo, 0.0);
  c->lo = lo;
  c->hi = hi;
}

static gboolean
curves_layout (LatentSnapshot          *snapshot,
               const LatentFigureStyle *style,
               double                   top,
               int                      width,
               int                      height,
               Curves                  *c)
{
  const LatentAutoencoderPart *part = &snapshot->autoencoder;
  const double f = MAX (style->font_size, 1.0);
  const double below = f * 0.4 + f * 1.2 + f * 1.6 + f * 0.4;   /* marks, labels, title */
  cairo_t *cr;
  double label_w = 0.0, avail, plot_y, last_w;
  char buf[64];

  c->n = part->epochs.n_steps;
  c->n_epochs = part->epochs.train_loss || part->epochs.held_out_loss || part->epoch_dead_fraction
                ? part->epochs.n_epochs : 0;
  c->per_epoch = part->epochs.steps_per_epoch;
  if (c->per_epoch == 0 && c->n_epochs > 0)
    c->per_epoch = c->n / c->n_epochs;
  if (c->per_epoch == 0)
    c->n_epochs = 0;
  /* A tenth of an epoch, and at least the steps of about a pixel of the
   * plot (the figure's width less its margins is near enough): a mean
   * narrower than a pixel would smooth nothing one can see. */
  c->window = c->per_epoch > 0 ? MAX (1u, c->per_epoch / 10) : MAX (1u, c->n / 50);
  c->window = MAX (c->window, (guint) ceil (c->n / MAX (width - f * 10.0, 50.0)));
  /* Odd, so it centres on its step. */
  c->window = MIN (c->window | 1, MAX (1u, c->n / 4));
  if (c->window % 2 == 0)
    c->window--;
  c->smooth = moving_average (part->epochs.step_loss, c->n, c->window);
  for (guint e = 0; part->epochs.held_out_loss && e < c->n_epochs; e++)
    c->validation |= isfinite (part->epochs.held_out_loss[e]);
  c->x_max = MAX ((double) c->n, (double) c->n_epochs * c->per_epoch);
  loss_range (snapshot, c);

  plot_y = round (top + f * 2.4);
  avail = height - f - plot_y - below;
  if (c->n_epochs > 0 && part->epoch_dead_fraction != NULL)
    {
      c->dead_h = floor ((avail - below - f) * 0.3);
      if (c->dead_h < MIN_DEAD_PANEL)
        c->dead_h = 0.0;
    }
  c->loss_y = plot_y;
  c->loss_h = floor (c->dead_h > 0.0 ? avail - below - f - c->dead_h : avail);
  c->dead_y = round (c->loss_y + c->loss_h + below + f);
  if (c->loss_h < MIN_PLOT_SIZE)
    return FALSE;

  round_range (&c->lo, &c->hi, CLAMP (c->loss_h / (f * 3.0), 2.0, 8.0), &c->loss_ticks);
  _latent_figure_nice_ticks (0.0, 100.0, CLAMP (c->dead_h / (f * 2.0), 1.0, 4.0), &c->dead_ticks);
  /* Steps of 25, 50 or 100: whole per cents. */
  c->dead_ticks.decimals = 0;

  /* The widest label on either left axis sets where both plots start. */
  cr = _latent_figure_measure_context (style);
  _latent_figure_set_font (cr, style, 0.9, FALSE);
  for (guint i = 0; i < c->loss_ticks.n; i++)
    {
      _latent_figure_format_tick (c->loss_ticks.values[i], c->loss_ticks.decimals, buf, sizeof buf);
      label_w = MAX (label_w, _latent_figure_text_width (cr, buf));
    }
  for (guint i = 0; c->dead_h > 0.0 && i < c->dead_ticks.n; i++)
    {
      format_percent (c->dead_ticks.values[i], c->dead_ticks.decimals, buf, sizeof buf);
      label_w = MAX (label_w, _latent_figure_text_width (cr, buf));
    }
  _latent_figure_format_tick (c->x_max, 0, buf, sizeof buf);
  last_w = _latent_figure_text_width (cr, buf);
  cairo_destroy (cr);

  c->plot_x = round (f + f * 1.2 + f * 0.5 + label_w + f * 0.7);
  c->plot_w = floor (width - f - last_w / 2.0 - c->plot_x);
  if (c->plot_w < MIN_PLOT_SIZE)
    return FALSE;
  _latent_figure_nice_ticks (0.0, c->x_max, CLAMP (c->plot_w / (last_w + f * 3.0), 2.0, 10.0), &c->x_ticks);
  if (c->n_epochs > 0)
    _latent_figure_nice_ticks (0.0, c->n_epochs, CLAMP (c->plot_w / (f * 4.0), 1.0, 10.0), &c->epoch_ticks);
  return TRUE;
}

/* Swatches and names above the plots. */
static void
draw_legend (cairo_t                 *cr,
             const LatentFigureStyle *style,
             const Curves            *c,
             double                   y,
             int                      width)
{
  const double f = MAX (style->font_size, 1.0), swatch = round (f * 1.6);
  g_autofree char *mean = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "mean of %u mini-batch",
                                                        "mean of %u mini-batches", c->window), c->window);
  const char *names[3] = { _("loss per mini-batch"), mean, _("validation loss per epoch") };
  double x = c->plot_x, r, g, b;

  cairo_save (cr);
  _latent_figure_set_font (cr, style, 1.0, FALSE);
  for (guint i = 0; i < 3; i++)
    {
      double w = swatch + f * 0.5 + _latent_figure_text_width (cr, names[i]);

      if ((i == 1 && c->window < 2) || (i == 2 && !c->validation))
        continue;
      /* What does not fit is left out, not cut. */
      if (x + w > width - f)
        break;
      latent_palette_color (i == 2 ? COLOR_VALIDATION : COLOR_LOSS, &r, &g, &b);
      /* The raw losses are drawn strong when nothing smooths them. */
      cairo_set_source_rgba (cr, r, g, b, i == 0 && c->window > 1 ? raw_alpha (style) : 1.0);
      cairo_set_line_width (cr, i == 0 && c->window > 1 ? 1.0 : 2.0);
      cairo_move_to (cr, x, y);
      cairo_rel_line_to (cr, swatch, 0);
      cairo_stroke (cr);
      if (i == 2)
        {
          cairo_arc (cr, x + swatch / 2.0, y, MAX (3.0, f * 0.3), 0, 2 * G_PI);
          cairo_fill (cr);
        }
      _latent_figure_set_color_mix (cr, style, 1.0);
      cairo_move_to (cr, x + swatch + f * 0.5, y + f * 0.35);
      _latent_figure_show_text (cr, names[i]);
      x += w + f * 1.5;
    }
  cairo_restore (cr);
}

static void
draw_loss_axes (cairo_t                 *cr,
                const LatentFigureStyle *style,
                const Curves            *c)
{
  g_auto(GStrv) left_labels = _latent_figure_tick_labels (&c->loss_ticks, NULL);
  g_auto(GStrv) bottom_labels = _latent_figure_tick_labels (&c->x_ticks, NULL);
  double left_at[_LATENT_FIGURE_MAX_TICKS], bottom_at[_LATENT_FIGURE_MAX_TICKS];
  LatentFigureAxes axes;

  for (guint i = 0; i < c->loss_ticks.n; i++)
    left_at[i] = to_y (c->loss_y, c->loss_h, c->lo, c->hi, c->loss_ticks.values[i]);
  for (guint i = 0; i < c->x_ticks.n; i++)
    bottom_at[i] = to_x (c, c->x_ticks.values[i]);
  _latent_figure_axes_init (&axes, style, c->plot_x, c->loss_y, c->plot_w, c->loss_h);
  axes.left = (LatentFigureAxis) { c->loss_ticks.n, left_at, (const char * const *) left_labels, TRUE, _("loss") };
  axes.bottom = (LatentFigureAxis) { c->x_ticks.n, bottom_at, (const char * const *) bottom_labels, TRUE,
                                     _("mini-batch") };
  _latent_figure_draw_grid (cr, style, &axes);
  _latent_figure_draw_axes (cr, style, &axes);
}

static void
draw_losses (cairo_t                 *cr,
             LatentSnapshot          *snapshot,
             const LatentFigureStyle *style,
             const Curves            *c)
{
  const LatentAutoencoderPart *part = &snapshot->autoencoder;
  const double f = MAX (style->font_size, 1.0);
  const float *raw = part->epochs.step_loss;
  double r, g, b;
  guint stride;

  cairo_save (cr);
  cairo_rectangle (cr, c->plot_x, c->loss_y, c->plot_w, c->loss_h);
  cairo_clip (cr);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  latent_palette_color (COLOR_LOSS, &r, &g, &b);

  /* Every mini-batch, faint: a line while the steps are a pixel or more
   * apart, else each pixel column's lowest to highest. */
  cairo_set_source_rgba (cr, r, g, b, c->window > 1 ? raw_alpha (style) : 1.0);
  cairo_set_line_width (cr, c->window > 1 ? 1.0 : 2.0);
  if (c->n <= 2 * c->plot_w)
    {
      cairo_new_path (cr);
      for (guint i = 0; i < c->n; i++)
        if (isfinite (raw[i]))
          cairo_line_to (cr, to_x (c, i + 1), to_y (c->loss_y, c->loss_h, c->lo, c->hi, raw[i]));
        else
          cairo_new_sub_path (cr);
      cairo_stroke (cr);
    }
  else
    {
      guint i = 0;

      for (guint px = 0; px < (guint) c->plot_w; px++)
        {
          double mn = INFINITY, mx = -INFINITY, x = c->plot_x + px + 0.5;

          for (; i < c->n && to_x (c, i + 1) < c->plot_x + px + 1; i++)
            if (isfinite (raw[i]))
              mn = MIN (mn, raw[i]), mx = MAX (mx, raw[i]);
          if (!isfinite (mn))
            continue;
          cairo_move_to (cr, x, to_y (c->loss_y, c->loss_h, c->lo, c->hi, mn) + 0.5);
          cairo_line_to (cr, x, to_y (c->loss_y, c->loss_h, c->lo, c->hi, mx) - 0.5);
        }
      cairo_stroke (cr);
    }

  /* The moving average, about two points a pixel. */
  if (c->window > 1)
    {
      cairo_set_source_rgb (cr, r, g, b);
      cairo_set_line_width (cr, 2.0);
      cairo_new_path (cr);
      stride = MAX (1u, (guint) (c->n / (2.0 * c->plot_w)));
      for (guint i = 0; i < c->n; i += stride)
        if (isfinite (c->smooth[i]))
          cairo_line_to (cr, to_x (c, i + 1), to_y (c->loss_y, c->loss_h, c->lo, c->hi, c->smooth[i]));
      if (isfinite (c->smooth[c->n - 1]))
        cairo_line_to (cr, to_x (c, c->n), to_y (c->loss_y, c->loss_h, c->lo, c->hi, c->smooth[c->n - 1]));
      cairo_stroke (cr);
    }
  cairo_restore (cr);

  /* The validation loss at each epoch's end, joined; unclipped, so a point
   * on the edge stays whole. */
  if (c->validation)
    {
      const double radius = MAX (3.0, f * 0.3);

      cairo_save (cr);
      latent_palette_color (COLOR_VALIDATION, &r, &g, &b);
      cairo_set_source_rgb (cr, r, g, b);
      cairo_set_line_width (cr, 2.0);
      cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
      cairo_new_path (cr);
      for (guint e = 0; e < c->n_epochs; e++)
        if (isfinite (part->epochs.held_out_loss[e]))
          cairo_line_to (cr, to_x (c, epoch_x (c, e)),
                         to_y (c->loss_y, c->loss_h, c->lo, c->hi, part->epochs.held_out_loss[e]));
      cairo_stroke (cr);
      for (guint e = 0; epoch_markers (c, f) && e < c->n_epochs; e++)
        if (isfinite (part->epochs.held_out_loss[e]))
          {
            cairo_new_sub_path (cr);
            cairo_arc (cr, to_x (c, epoch_x (c, e)),
                       to_y (c->loss_y, c->loss_h, c->lo, c->hi, part->epochs.held_out_loss[e]), radius, 0, 2 * G_PI);
          }
      cairo_fill (cr);
      cairo_restore (cr);
    }
}

/* The share of units without a win in each epoch, at the epoch's end. */
static void
draw_dead (cairo_t                 *cr,
           LatentSnapshot          *snapshot,
           const LatentFigureStyle *style,
           const Curves            *c)
{
  const LatentAutoencoderPart *part = &snapshot->autoencoder;
  const double f = MAX (style->font_size, 1.0), radius = MAX (2.5, f * 0.25);
  g_auto(GStrv) left_labels = _latent_figure_tick_labels (&c->dead_ticks, format_percent);
  g_autoptr(GPtrArray) epoch_labels = g_ptr_array_new_with_free_func (g_free);
  double left_at[_LATENT_FIGURE_MAX_TICKS], bottom_at[_LATENT_FIGURE_MAX_TICKS];
  double r, g, b, base = c->dead_y + c->dead_h;
  LatentFigureAxes axes;
  guint n_bottom = 0;

  for (guint i = 0; i < c->dead_ticks.n; i++)
    left_at[i] = to_y (c->dead_y, c->dead_h, 0.0, 100.0, c->dead_ticks.values[i]);
  /* Whole epochs, at the mini-batch where each ends. */
  for (guint i = 0; i < c->epoch_ticks.n; i++)
    {
      double e = c->epoch_ticks.values[i];

      if (fabs (e - round (e)) > 1e-9)
        continue;
      bottom_at[n_bottom++] = to_x (c, e * c->per_epoch);
      g_ptr_array_add (epoch_labels, g_strdup_printf ("%.0f", e));
    }
  _latent_figure_axes_init (&axes, style, c->plot_x, c->dead_y, c->plot_w, c->dead_h);
  axes.left = (LatentFigureAxis) { c->dead_ticks.n, left_at, (const char * const *) left_labels, TRUE,
                                   _("dead units") };
  axes.bottom = (LatentFigureAxis) { n_bottom, bottom_at, (const char * const *) epoch_labels->pdata, TRUE,
                                     _("epoch") };
  _latent_figure_draw_grid (cr, style, &axes);
  _latent_figure_draw_axes (cr, style, &axes);

  cairo_save (cr);
  latent_palette_color (COLOR_DEAD, &r, &g, &b);
  /* A faint area under the line, so the share reads as a share. */
  {
    double first = -1.0, last = 0.0;

    cairo_new_path (cr);
    for (guint e = 0; e < c->n_epochs; e++)
      {
        double v = part->epoch_dead_fraction[e] * 100.0;

        if (!isfinite (v))
          continue;
        last = to_x (c, epoch_x (c, e));
        if (first < 0.0)
          {
            first = last;
            cairo_move_to (cr, first, base);
          }
        cairo_line_to (cr, last, to_y (c->dead_y, c->dead_h, 0.0, 100.0, CLAMP (v, 0.0, 100.0)));
      }
    if (first >= 0.0)
      {
        cairo_line_to (cr, last, base);
        cairo_close_path (cr);
        cairo_set_source_rgba (cr, r, g, b, 0.2);
        cairo_fill (cr);
      }
  }

  cairo_set_source_rgb (cr, r, g, b);
  cairo_set_line_width (cr, 2.0);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  for (guint e = 0; e < c->n_epochs; e++)
    {
      double v = part->epoch_dead_fraction[e] * 100.0;

      if (!isfinite (v))
        continue;
      cairo_line_to (cr, to_x (c, epoch_x (c, e)), to_y (c->dead_y, c->dead_h, 0.0, 100.0, CLAMP (v, 0.0, 100.0)));
    }
  cairo_stroke (cr);
  for (guint e = 0; epoch_markers (c, f) && e < c->n_epochs; e++)
    {
      double v = part->epoch_dead_fraction[e] * 100.0;

      if (!isfinite (v))
        continue;
      cairo_new_sub_path (cr);
      cairo_arc (cr, to_x (c, epoch_x (c, e)), to_y (c->dead_y, c->dead_h, 0.0, 100.0, CLAMP (v, 0.0, 100.0)),
                 radius, 0, 2 * G_PI);
    }
  cairo_fill (cr);
  cairo_restore (cr);
}

static void
_latent_figure_curves_draw (LatentSnapshot          *snapshot,
                            const LatentFigureStyle *style,
                            cairo_t                 *cr,
                            double                   top,
                            int                      width,
                            int                      height)
{
  const double f = MAX (style->font_size, 1.0);
  g_auto(Curves) c = { 0 };

  cairo_save (cr);
  if (snapshot->autoencoder.epochs.step_loss == NULL || snapshot->autoencoder.epochs.n_steps < 2)
    _latent_figure_message (cr, style, width, height, _("No training steps yet"));
  else if (curves_layout (snapshot, style, top, width, height, &c))
    {
      draw_legend (cr, style, &c, top + f * 0.9, width);
      draw_loss_axes (cr, style, &c);
      draw_losses (cr, snapshot, style, &c);
      if (c.dead_h > 0.0)
        draw_dead (cr, snapshot, style, &c);
    }
  cairo_restore (cr);
}

const LatentFigureKindRow _latent_figure_curves_kinds[] = {
  { .kind = LATENT_FIGURE_CURVES,
    .title = N_("Training curves"),
    .draw = _latent_figure_curves_draw,
    .only_some = TRUE,
    .per_family = TRUE, .family = LATENT_FAMILY_AUTOENCODER },
  { .kind = LATENT_FIGURE_AUTO }
};
