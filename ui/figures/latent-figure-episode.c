/* latent-figure-episode.c — how a classifier learns: logistic regression's
 * loss and accuracies per epoch, the prototypes' accuracy episode by
 * episode with its running mean and interval, the shots curve (accuracy
 * against the examples per class, by method), and the last few-shot
 * episode itself, its support rows and its queries right or wrong
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-figure-episode"

#include "latent-figure-private.h"
#include "latent-palette.h"
#include "latent-projection.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#define MIN_PLOT_SIZE 40.0
/* Query images smaller than this many pixels are too small to judge; the
 * figure shows fewer queries a way instead. */
#define MIN_EPISODE_TILE 14.0
/* Palette entries of the curves. */
#define COLOR_LOSS 0
#define COLOR_TRAIN 1
#define COLOR_TEST 2

/* Plots --------------------------------------------------------------------- */

typedef struct {
  double x, y, w, h;
  double xmin, xmax, ymin, ymax;
  LatentFigureTicks xt, yt;
} Panel;

static double
px (const Panel *p,
    double       v)
{
  return p->x + (v - p->xmin) / (p->xmax - p->xmin) * p->w;
}

static double
py (const Panel *p,
    double       v)
{
  return p->y + (p->ymax - v) / (p->ymax - p->ymin) * p->h;
}

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

/* Ticks whose ends lie on the range, so both ends are labelled. */
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

/* Ticks on whole numbers from 0 to @max (epochs, episodes): the finest
 * round steps that are whole. */
static void
whole_ticks (double             max,
             double             target,
             LatentFigureTicks *ticks)
{
  for (; target >= 1.0; target -= 1.0)
    {
      _latent_figure_nice_ticks (0.0, max, target, ticks);
      if (ticks->n < 2 || fabs (ticks->values[1] - ticks->values[0] - round (ticks->values[1] - ticks->values[0])) < 1e-9)
        break;
    }
  ticks->decimals = 0;
}

/* The widest tick label of @ticks. */
static double
ticks_width (const LatentFigureStyle *style,
             const LatentFigureTicks *ticks,
             gboolean                 percent)
{
  cairo_t *cr = _latent_figure_measure_context (style);
  double w = 0.0;
  char buf[64];

  _latent_figure_set_font (cr, style, 0.9, FALSE);
  for (guint i = 0; i < ticks->n; i++)
    {
      if (percent)
        format_percent (ticks->values[i], ticks->decimals, buf, sizeof buf);
      else
        _latent_figure_format_tick (ticks->values[i], ticks->decimals, buf, sizeof buf);
      w = MAX (w, _latent_figure_text_width (cr, buf));
    }
  cairo_destroy (cr);
  return w;
}

static void
draw_panel_axes (cairo_t                 *cr,
                 const LatentFigureStyle *style,
                 const Panel             *p,
                 gboolean                 percent,
                 const char              *x_title,
                 const char              *y_title)
{
  g_auto(GStrv) xl = _latent_figure_tick_labels (&p->xt, NULL);
  g_auto(GStrv) yl = _latent_figure_tick_labels (&p->yt, percent ? format_percent : NULL);
  double xa[_LATENT_FIGURE_MAX_TICKS], ya[_LATENT_FIGURE_MAX_TICKS];
  LatentFigureAxes axes;

  for (guint i = 0; i < p->xt.n; i++)
    xa[i] = px (p, p->xt.values[i]);
  for (guint i = 0; i < p->yt.n; i++)
    ya[i] = py (p, p->yt.values[i]);
  _latent_figure_axes_init (&axes, style, p->x, p->y, p->w, p->h);
  axes.bottom = (LatentFigureAxis) { p->xt.n, xa, (const char * const *) xl, TRUE, x_title };
  axes.left = (LatentFigureAxis) { p->yt.n, ya, (const char * const *) yl, TRUE, y_title };
  _latent_figure_draw_grid (cr, style, &axes);
  _latent_figure_draw_axes (cr, style, &axes);
}

/* A line legend entry: a short stroke (with a dot, or faint) and a name. */
static double
line_entry (cairo_t                 *cr,
            const LatentFigureStyle *style,
            double                   x,
            double                   y,
            double                   right,
            guint                    color,
            double                   alpha,
            gboolean                 dot,
            const char              *name)
{
  const double f = MAX (style->font_size, 1.0), swatch = round (f * 1.6);
  double w, r, g, b;

  cairo_save (cr);
  _latent_figure_set_font (cr, style, 0.9, FALSE);
  w = swatch + f * 0.5 + _latent_figure_text_width (cr, name);
  if (x + w > right)
    {
      cairo_restore (cr);
      return x;
    }
  latent_palette_color (color, &r, &g, &b);
  cairo_set_source_rgba (cr, r, g, b, alpha);
  cairo_set_line_width (cr, alpha < 1.0 ? 1.0 : 2.0);
  cairo_move_to (cr, x, y - f * 0.3);
  cairo_rel_line_to (cr, swatch, 0);
  cairo_stroke (cr);
  if (dot)
    {
      cairo_arc (cr, x + swatch / 2.0, y - f * 0.3, MAX (3.0, f * 0.25), 0, 2 * G_PI);
      cairo_fill (cr);
    }
  _latent_figure_set_color_mix (cr, style, 0.85);
  cairo_move_to (cr, x + swatch + f * 0.5, y);
  _latent_figure_show_text (cr, name);
  cairo_restore (cr);
  return x + w + f * 1.5;
}

/* A series joined by a line, with dots at its values while they stay apart. */
static void
draw_series (cairo_t     *cr,
             const Panel *p,
             const double *values,
             guint        n,
             double       scale,
             guint        color,
             double       radius)
{
  double r, g, b;
  gboolean dots = n > 0 && p->w / n >= radius * 3.0;

  cairo_save (cr);
  latent_palette_color (color, &r, &g, &b);
  cairo_set_source_rgb (cr, r, g, b);
  cairo_set_line_width (cr, 2.0);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  cairo_new_path (cr);
  for (guint e = 0; e < n; e++)
    if (isfinite (values[e]))
      cairo_line_to (cr, px (p, e + 1), py (p, values[e] * scale));
    else
      cairo_new_sub_path (cr);
  cairo_stroke (cr);
  for (guint e = 0; dots && e < n; e++)
    if (isfinite (values[e]))
      {
        cairo_new_sub_path (cr);
        cairo_arc (cr, px (p, e + 1), py (p, values[e] * scale), radius, 0, 2 * G_PI);
      }
  cairo_fill (cr);
  cairo_restore (cr);
}

/* Centred moving average; the window shrinks near the ends. */
static double *
moving_average (const float *values,
                guint        n,
                guint        window)
{
  double *out = g_new (double, n);
  guint half = window / 2;

  for (guint i = 0; i < n; i++)
    {
      guint h = MIN (half, MIN (i, n - 1 - i)), count = 0;
      double sum = 0.0;

      for (guint k = i - h; k <= i + h; k++)
        if (isfinite (values[k]))
          sum += values[k], count++;
      out[i] = count > 0 ? sum / count : NAN;
    }
  return out;
}

/* Logistic regression's curves ----------------------------------------------- */

static void
value_range (const double *values,
             guint         n,
             double        scale,
             double       *lo,
             double       *hi)
{
  for (guint i = 0; values != NULL && i < n; i++)
    if (isfinite (values[i]))
      {
        *lo = MIN (*lo, values[i] * scale);
        *hi = MAX (*hi, values[i] * scale);
      }
}

static void
draw_epoch_curves (cairo_t                 *cr,
                   LatentSnapshot          *snapshot,
                   const LatentFigureStyle *style,
                   double                   top,
                   int                      width,
                   int                      height)
{
  const LatentClassifierPart *part = &snapshot->classifier;
  const double f = MAX (style->font_size, 1.0), below = f * 0.4 + f * 1.2 + f * 1.6, legend = f * 1.8;
  const double radius = MAX (2.5, f * 0.25);
  const guint n = part->epochs.n_epochs;
  /* One step an epoch (the whole batch) is the epoch's loss again. */
  const gboolean steps = part->epochs.step_loss != NULL && part->epochs.n_steps > 1 && n > 0
                         && (part->epochs.steps_per_epoch > 1
                             || (part->epochs.steps_per_epoch == 0 && part->epochs.n_steps >= 2 * n));
  g_autofree double *smooth = NULL;
  Panel loss = { 0 }, acc = { 0 };
  double avail, per_epoch = 0.0, lo = INFINITY, hi = -INFINITY, label_w, x, r, g, b;
  guint window = 1;

  /* Both panels share the epoch axis; the steps sit between epochs. */
  if (steps)
    {
      per_epoch = part->epochs.steps_per_epoch > 0 ? part->epochs.steps_per_epoch : (double) part->epochs.n_steps / n;
      /* A quarter of an epoch, three steps at least: enough to see the
       * trend through the mini-batches' noise. */
      window = MAX (3u, (guint) (per_epoch / 4.0)) | 1;
      window = MIN (window, MAX (1u, part->epochs.n_steps / 4) | 1);
      smooth = moving_average (part->epochs.step_loss, part->epochs.n_steps, window);
    }
  loss.xmin = acc.xmin = 0.0;
  loss.xmax = acc.xmax = MAX (1.0, MAX ((double) n, steps ? part->epochs.n_steps / per_epoch : 0.0));

  value_range (part->epochs.train_loss, n, 1.0, &lo, &hi);
  value_range (smooth, smooth ? part->epochs.n_steps : 0, 1.0, &lo, &hi);
  if (!isfinite (lo))
    lo = 0.0, hi = 1.0;
  if (!(hi > lo))
    hi = lo + MAX (fabs (lo) * 0.1, 1e-3);
  lo = MAX (0.0, lo - (hi - lo) * 0.05);
  hi += (hi - lo) * 0.05;
  loss.ymin = lo, loss.ymax = hi;

  lo = INFINITY, hi = -INFINITY;
  value_range (part->epoch_train_accuracy, n, 100.0, &lo, &hi);
  value_range (part->epoch_test_accuracy, n, 100.0, &lo, &hi);
  if (!isfinite (lo))
    lo = 0.0;
  acc.ymin = MAX (0.0, lo - 5.0), acc.ymax = 100.0;

  avail = height - top - f - 2.0 * (legend + below);
  loss.h = acc.h = floor (avail / 2.0);
  if (loss.h < MIN_PLOT_SIZE)
    {
      _latent_figure_message (cr, style, width, height, _("Too small to show the curves"));
      return;
    }
  loss.y = round (top + legend + f * 0.4);
  acc.y = round (loss.y + loss.h + below + legend);
  round_range (&loss.ymin, &loss.ymax, CLAMP (loss.h / (f * 3.0), 2.0, 8.0), &loss.yt);
  round_range (&acc.ymin, &acc.ymax, CLAMP (acc.h / (f * 3.0), 2.0, 8.0), &acc.yt);
  acc.ymax = MIN (acc.ymax, 100.0);
  label_w = MAX (ticks_width (style, &loss.yt, FALSE), ticks_width (style, &acc.yt, TRUE));
  loss.x = acc.x = round (f + f * 1.2 + f * 0.5 + label_w + f * 0.7);
  loss.w = acc.w = floor (width - f * 2.0 - loss.x);
  if (loss.w < MIN_PLOT_SIZE)
    {
      _latent_figure_message (cr, style, width, height, _("Too small to show the curves"));
      return;
    }
  whole_ticks (loss.xmax, CLAMP (loss.w / (f * 5.0), 2.0, 10.0), &loss.xt);
  acc.xt = loss.xt;

  /* Loss: the mini-batches faint, their mean, each epoch's mean. */
  x = loss.x;
  if (steps)
    {
      g_autofree char *mean = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "mean of %u mini-batch",
                                                            "mean of %u mini-batches", window), window);

      x = line_entry (cr, style, x, loss.y - f * 0.6, width - f, COLOR_LOSS,
                      window > 1 ? (style->dark ? 0.55 : 0.35) : 1.0, FALSE,
                      _("loss per mini-batch"));
      if (window > 1)
        x = line_entry (cr, style, x, loss.y - f * 0.6, width - f, COLOR_LOSS, 1.0, FALSE, mean);
    }
  line_entry (cr, style, x, loss.y - f * 0.6, width - f, COLOR_TRAIN, 1.0, TRUE, _("training loss per epoch"));
  draw_panel_axes (cr, style, &loss, FALSE, _("epoch"), _("loss"));
  cairo_save (cr);
  cairo_rectangle (cr, loss.x, loss.y, loss.w, loss.h);
  cairo_clip (cr);
  if (steps)
    {
      latent_palette_color (COLOR_LOSS, &r, &g, &b);
      for (int pass = 0; pass < (window > 1 ? 2 : 1); pass++)
        {
          cairo_set_source_rgba (cr, r, g, b, pass == 0 && window > 1 ? (style->dark ? 0.55 : 0.35) : 1.0);
          cairo_set_line_width (cr, pass == 0 && window > 1 ? 1.0 : 2.0);
          cairo_new_path (cr);
          for (guint i = 0; i < part->epochs.n_steps; i++)
            {
              double v = pass == 0 ? part->epochs.step_loss[i] : smooth[i];

              if (isfinite (v))
                cairo_line_to (cr, px (&loss, (i + 1) / per_epoch), py (&loss, v));
              else
                cairo_new_sub_path (cr);
            }
          cairo_stroke (cr);
        }
    }
  cairo_restore (cr);
  if (part->epochs.train_loss != NULL)
    {
      /* The epoch's mean is a point at the epoch's end, drawn after the
       * steps so it stays on top. */
      g_autofree double *epoch = g_new (double, n);

      for (guint e = 0; e < n; e++)
        epoch[e] = part->epochs.train_loss[e];
      draw_series (cr, &loss, epoch, n, 1.0, COLOR_TRAIN, radius);
    }

  /* Accuracies in per cent. */
  x = line_entry (cr, style, acc.x, acc.y - f * 0.6, width - f, COLOR_TRAIN, 1.0, TRUE, _("training accuracy"));
  line_entry (cr, style, x, acc.y - f * 0.6, width - f, COLOR_TEST, 1.0, TRUE, _("test accuracy"));
  draw_panel_axes (cr, style, &acc, TRUE, _("epoch"), _("accuracy"));
  if (part->epoch_train_accuracy != NULL)
    draw_series (cr, &acc, part->epoch_train_accuracy, n, 100.0, COLOR_TRAIN, radius);
  if (part->epoch_test_accuracy != NULL)
    draw_series (cr, &acc, part->epoch_test_accuracy, n, 100.0, COLOR_TEST, radius);
}

/* The prototypes' episodes -------------------------------------------------- */

static void
draw_episode_curve (cairo_t                 *cr,
                    LatentSnapshot          *snapshot,
                    const LatentFigureStyle *style,
                    double                   top,
                    int                      width,
                    int                      height)
{
  const LatentClassifierPart *part = &snapshot->classifier;
  const double f = MAX (style->font_size, 1.0), below = f * 0.4 + f * 1.2 + f * 1.6, legend = f * 1.8;
  const guint n = part->n_episodes;
  const double radius = n > 200 ? MAX (1.5, f * 0.12) : MAX (2.5, f * 0.22);
  g_autofree double *mean = g_new (double, n);
  g_autofree double *half = g_new (double, n);
  double sum = 0.0, sum2 = 0.0, lo = INFINITY, hi = -INFINITY, x, r, g, b;
  guint count = 0;
  Panel p = { 0 };

  /* The running mean and its 95 % interval after each episode. */
  for (guint e = 0; e < n; e++)
    {
      double v = part->episode_accuracy[e] * 100.0;

      if (isfinite (v))
        {
          sum += v, sum2 += v * v, count++;
          lo = MIN (lo, v), hi = MAX (hi, v);
        }
      mean[e] = count > 0 ? sum / count : NAN;
      half[e] = count > 1 ? 1.96 * sqrt (MAX (0.0, (sum2 - sum * sum / count) / (count - 1)) / count) : NAN;
    }
  if (!isfinite (lo))
    lo = 0.0;
  p.xmin = 0.0, p.xmax = MAX (1.0, (double) n);
  p.ymin = MAX (0.0, lo - 5.0), p.ymax = 100.0;
  p.y = round (top + legend + f * 0.4);
  p.h = floor (height - p.y - f - below);
  if (p.h < MIN_PLOT_SIZE)
    {
      _latent_figure_message (cr, style, width, height, _("Too small to show the curves"));
      return;
    }
  round_range (&p.ymin, &p.ymax, CLAMP (p.h / (f * 3.0), 2.0, 8.0), &p.yt);
  p.ymax = MIN (p.ymax, 100.0);
  p.x = round (f + f * 1.2 + f * 0.5 + ticks_width (style, &p.yt, TRUE) + f * 0.7);
  p.w = floor (width - f * 2.0 - p.x);
  if (p.w < MIN_PLOT_SIZE)
    {
      _latent_figure_message (cr, style, width, height, _("Too small to show the curves"));
      return;
    }
  whole_ticks (p.xmax, CLAMP (p.w / (f * 5.0), 2.0, 10.0), &p.xt);

  x = line_entry (cr, style, p.x, p.y - f * 0.6, width - f, COLOR_LOSS, 1.0, TRUE, _("each episode"));
  x = line_entry (cr, style, x, p.y - f * 0.6, width - f, COLOR_TEST, 1.0, FALSE, _("running mean"));
  /* The band's swatch: a faint block. */
  {
    const char *band = _("interval (95 %)");

    cairo_save (cr);
    _latent_figure_set_font (cr, style, 0.9, FALSE);
    if (x + f * 2.1 + _latent_figure_text_width (cr, band) <= width - f)
      {
        latent_palette_color (COLOR_TEST, &r, &g, &b);
        cairo_set_source_rgba (cr, r, g, b, 0.25);
        cairo_rectangle (cr, x, p.y - f * 1.3, f * 1.6, f * 0.9);
        cairo_fill (cr);
        _latent_figure_set_color_mix (cr, style, 0.85);
        cairo_move_to (cr, x + f * 2.1, p.y - f * 0.6);
        _latent_figure_show_text (cr, band);
      }
    cairo_restore (cr);
  }
  draw_panel_axes (cr, style, &p, TRUE, _("episode"), _("accuracy"));

  cairo_save (cr);
  cairo_rectangle (cr, p.x, p.y, p.w, p.h);
  cairo_clip (cr);
  latent_palette_color (COLOR_TEST, &r, &g, &b);
  /* The band, from the second episode (one alone has no spread). */
  cairo_new_path (cr);
  for (guint e = 1; e < n; e++)
    if (isfinite (half[e]))
      cairo_line_to (cr, px (&p, e + 1), py (&p, mean[e] + half[e]));
  for (guint e = n; e-- > 1;)
    if (isfinite (half[e]))
      cairo_line_to (cr, px (&p, e + 1), py (&p, mean[e] - half[e]));
  cairo_close_path (cr);
  cairo_set_source_rgba (cr, r, g, b, 0.25);
  cairo_fill (cr);
  /* Each episode, faint points. */
  latent_palette_color (COLOR_LOSS, &r, &g, &b);
  cairo_set_source_rgb (cr, r, g, b);
  for (guint e = 0; e < n; e++)
    if (isfinite (part->episode_accuracy[e]))
      {
        cairo_new_sub_path (cr);
        cairo_arc (cr, px (&p, e + 1), py (&p, part->episode_accuracy[e] * 100.0), radius, 0, 2 * G_PI);
      }
  cairo_fill (cr);
  /* The running mean on top. */
  latent_palette_color (COLOR_TEST, &r, &g, &b);
  cairo_set_source_rgb (cr, r, g, b);
  cairo_set_line_width (cr, 2.0);
  cairo_new_path (cr);
  for (guint e = 0; e < n; e++)
    if (isfinite (mean[e]))
      cairo_line_to (cr, px (&p, e + 1), py (&p, mean[e]));
  cairo_stroke (cr);
  cairo_restore (cr);
}

static void
_latent_figure_classifier_curves_draw (LatentSnapshot          *snapshot,
                                       const LatentFigureStyle *style,
                                       cairo_t                 *cr,
                                       double                   top,
                                       int                      width,
                                       int                      height)
{
  const LatentClassifierPart *part = &snapshot->classifier;
  cairo_save (cr);
  if (part->n_episodes > 0 && part->episode_accuracy != NULL)
    draw_episode_curve (cr, snapshot, style, top, width, height);
  else if (part->epochs.n_epochs > 0 && (part->epochs.train_loss != NULL || part->epoch_test_accuracy != NULL))
    draw_epoch_curves (cr, snapshot, style, top, width, height);
  else
    _latent_figure_message (cr, style, width, height,
                            part->class_bias == NULL ? _("No episodes yet")
                                                         : _("No epochs yet: the curves start after the first"));
  cairo_restore (cr);
}

/* The shots curve --------------------------------------------------------------- */

/* Few-shot accuracy against the examples per class, on a log scale, one
 * line per method with its 95 % interval as bars: the seed's figure. */
static void
_latent_figure_shots_draw (LatentSnapshot          *snapshot,
                           const LatentFigureStyle *style,
                           cairo_t                 *cr,
                           double                   top,
                           int                      width,
                           int                      height)
{
  const LatentClassifierPart *part = &snapshot->classifier;
  const double f = MAX (style->font_size, 1.0), below = f * 0.4 + f * 1.2 + f * 1.6, legend = f * 1.8;
  const guint k = part->n_curve_shots;
  const char *names[3] = { _("class means"), _("matching network"), _("logistic regression") };
  char labels[_LATENT_FIGURE_MAX_TICKS][16];
  const char *label_of[_LATENT_FIGURE_MAX_TICKS];
  double xa[_LATENT_FIGURE_MAX_TICKS], ya[_LATENT_FIGURE_MAX_TICKS];
  double lo = INFINITY, x;
  g_auto(GStrv) yl = NULL;
  LatentFigureAxes axes;
  Panel p = { 0 };

  cairo_save (cr);
  if (k == 0 || part->curve_accuracy == NULL)
    {
      _latent_figure_message (cr, style, width, height,
                              part->n_episodes > 0 ? _("No shots curve: turn on Shots curve and run again")
                                                   : _("No episodes yet"));
      cairo_restore (cr);
      return;
    }
  for (guint i = 0; i < 3 * k; i++)
    if (isfinite (part->curve_accuracy[i]))
      lo = MIN (lo, 100 * (part->curve_accuracy[i] - (isfinite (part->curve_ci95[i]) ? part->curve_ci95[i] : 0)));
  p.xmin = log (part->curve_shots[0]) - 0.25, p.xmax = log (part->curve_shots[k - 1]) + 0.25;
  p.ymin = isfinite (lo) ? MAX (0.0, lo - 3.0) : 0.0, p.ymax = 100.0;
  p.y = round (top + legend + f * 0.4);
  p.h = floor (height - p.y - f - below);
  if (p.h < MIN_PLOT_SIZE)
    {
      _latent_figure_message (cr, style, width, height, _("Too small to show the curves"));
      cairo_restore (cr);
      return;
    }
  round_range (&p.ymin, &p.ymax, CLAMP (p.h / (f * 3.0), 2.0, 8.0), &p.yt);
  p.ymax = MIN (p.ymax, 100.0);
  p.x = round (f + f * 1.2 + f * 0.5 + ticks_width (style, &p.yt, TRUE) + f * 0.7);
  p.w = floor (width - f * 2.0 - p.x);
  if (p.w < MIN_PLOT_SIZE)
    {
      _latent_figure_message (cr, style, width, height, _("Too small to show the curves"));
      cairo_restore (cr);
      return;
    }

  x = p.x;
  for (guint m = 0; m < 3; m++)
    x = line_entry (cr, style, x, p.y - f * 0.6, width - f, m, 1.0, TRUE, names[m]);
  /* The examples per class where they are: a log axis of whole numbers. */
  for (guint j = 0; j < k && j < _LATENT_FIGURE_MAX_TICKS; j++)
    {
      g_snprintf (labels[j], sizeof labels[j], "%u", part->curve_shots[j]);
      label_of[j] = labels[j];
      xa[j] = px (&p, log (part->curve_shots[j]));
    }
  for (guint i = 0; i < p.yt.n; i++)
    ya[i] = py (&p, p.yt.values[i]);
  yl = _latent_figure_tick_labels (&p.yt, format_percent);
  _latent_figure_axes_init (&axes, style, p.x, p.y, p.w, p.h);
  axes.bottom = (LatentFigureAxis) { MIN (k, _LATENT_FIGURE_MAX_TICKS), xa, label_of, TRUE, _("examples per class") };
  axes.left = (LatentFigureAxis) { p.yt.n, ya, (const char * const *) yl, TRUE, _("accuracy") };
  _latent_figure_draw_grid (cr, style, &axes);
  _latent_figure_draw_axes (cr, style, &axes);

  cairo_rectangle (cr, p.x, p.y, p.w, p.h);
  cairo_clip (cr);
  for (guint m = 0; m < 3; m++)
    {
      const double *acc = part->curve_accuracy + m * k, *ci = part->curve_ci95 + m * k;
      const double radius = MAX (2.5, f * 0.25), shift = (m - 1.0) * radius * 1.2;
      double r, g, b;

      latent_palette_color (m, &r, &g, &b);
      cairo_set_source_rgb (cr, r, g, b);
      cairo_set_line_width (cr, 2.0);
      cairo_new_path (cr);
      for (guint j = 0; j < k; j++)
        if (isfinite (acc[j]))
          cairo_line_to (cr, px (&p, log (part->curve_shots[j])) + shift, py (&p, 100 * acc[j]));
      cairo_stroke (cr);
      cairo_set_line_width (cr, 1.5);
      for (guint j = 0; j < k; j++)
        if (isfinite (acc[j]))
          {
            const double cx = px (&p, log (part->curve_shots[j])) + shift;

            if (isfinite (ci[j]))
              {
                cairo_move_to (cr, cx, py (&p, 100 * (acc[j] - ci[j])));
                cairo_line_to (cr, cx, py (&p, 100 * (acc[j] + ci[j])));
                cairo_stroke (cr);
              }
            cairo_arc (cr, cx, py (&p, 100 * acc[j]), radius, 0, 2 * G_PI);
            cairo_fill (cr);
          }
    }
  cairo_restore (cr);
}

/* The last episode ------------------------------------------------------------ */

static gboolean
has_episode (LatentSnapshot *snapshot)
{
  const LatentClassifierPart *part = &snapshot->classifier;

  return part->n_episodes > 0 && part->n_ways > 0 && part->episode_classes != NULL
         && part->test_dataset != NULL && (part->n_shots == 0 || part->support_rows != NULL)
         && (part->n_queries == 0 || (part->query_rows != NULL && part->query_predictions != NULL));
}

/* The true class of query @q, −1 unknown. */
static gint32
query_label (LatentSnapshot *snapshot,
             guint           q)
{
  LatentDataset *test = snapshot->classifier.test_dataset;
  gint32 row = snapshot->classifier.query_rows[q];

  if (!latent_dataset_has_labels (test) || row < 0 || (guint) row >= latent_dataset_get_n_rows (test))
    return -1;
  return latent_dataset_get_labels (test)[row];
}

/* "Episode 40: 85 % right" over the mean so far; returns the y under it. */
static double
episode_heading (cairo_t                 *cr,
                 LatentSnapshot          *snapshot,
                 const LatentFigureStyle *style,
                 double                   top,
                 int                      width)
{
  const LatentClassifierPart *part = &snapshot->classifier;
  const double f = MAX (style->font_size, 1.0);
  double last = part->episode_accuracy != NULL ? part->episode_accuracy[part->n_episodes - 1] : NAN;
  g_autofree char *title = NULL;
  g_autofree char *mean = NULL;
  guint right = 0;

  for (guint q = 0; q < part->n_queries; q++)
    right += part->query_predictions[q] == query_label (snapshot, q);
  if (!isfinite (last) && part->n_queries > 0)
    last = (double) right / part->n_queries;
  /* Translators: the number of the episode, then the share of its queries
   * classified right. */
  title = g_strdup_printf (_("Episode %u: %.0f %% right"), part->n_episodes, 100.0 * last);
  if (isfinite (part->episode_mean_accuracy))
    mean = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "mean over %u episode: %.1f %% ± %.1f (95 %% interval)",
                                         "mean over %u episodes: %.1f %% ± %.1f (95 %% interval)",
                                         part->n_episodes),
                            part->n_episodes, 100.0 * part->episode_mean_accuracy,
                            100.0 * part->episode_ci95);
  cairo_save (cr);
  _latent_figure_set_font (cr, style, 1.1, TRUE);
  _latent_figure_set_color_mix (cr, style, 1.0);
  cairo_move_to (cr, f, top + f * 1.2);
  _latent_figure_show_text (cr, title);
  if (mean != NULL)
    {
      double x = f + _latent_figure_text_width (cr, title) + f;

      _latent_figure_set_font (cr, style, 0.9, FALSE);
      _latent_figure_set_color_mix (cr, style, 0.75);
      /* Beside the title where it fits, under it otherwise. */
      if (x + _latent_figure_text_width (cr, mean) <= width - f)
        cairo_move_to (cr, x, top + f * 1.2);
      else
        {
          top += f * 1.3;
          cairo_move_to (cr, f, top + f * 1.2);
        }
      _latent_figure_show_text (cr, mean);
    }
  cairo_restore (cr);
  return top + f * 2.0;
}

/* A frame in the verdict's colour around a query's image; a wrong one
 * also gets a cross in its corner, for readers who cannot tell the two
 * colours apart. */
static void
verdict_frame (cairo_t *cr,
               double   x,
               double   y,
               double   w,
               double   h,
               double   line,
               gboolean right)
{
  double r, g, b;

  latent_palette_verdict (right, &r, &g, &b);
  cairo_save (cr);
  cairo_set_source_rgb (cr, r, g, b);
  cairo_set_line_width (cr, line);
  cairo_rectangle (cr, x - line / 2.0, y - line / 2.0, w + line, h + line);
  cairo_stroke (cr);
  if (!right)
    {
      double s = MAX (6.0, MIN (w, h) * 0.3);

      cairo_rectangle (cr, x + w - s, y, s, s);
      cairo_fill (cr);
      cairo_set_source_rgb (cr, 1, 1, 1);
      _latent_figure_cross (cr, x + w - s / 2.0, y + s / 2.0, s * 0.55, MAX (1.2, s * 0.14));
    }
  cairo_restore (cr);
}

static void
draw_episode_images (cairo_t                 *cr,
                     LatentSnapshot          *snapshot,
                     const LatentFigureStyle *style,
                     double                   top,
                     int                      width,
                     int                      height)
{
  const LatentClassifierPart *part = &snapshot->classifier;
  const double f = MAX (style->font_size, 1.0);
  const guint ways = part->n_ways, shots = part->n_shots;
  const gboolean with_prototype = part->episode_prototypes != NULL;
  LatentDataset *test = part->test_dataset;
  g_autoptr(GPtrArray) by_way = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g_autoptr(GPtrArray) images = g_ptr_array_new ();
  guint img_w, img_h, channels, max_q = 0, shown_q, cols;
  gboolean single;
  double label_w = 0.0, gap, sep, tile, row_h, caption, avail_w, avail_h, lo, hi, x0, y0, line;
  const char *legend[2] = { _("right"), _("wrong") };

  latent_dataset_get_image_shape (test, &img_w, &img_h, &channels, &single);
  /* The queries of each way, by their true class. */
  for (guint w = 0; w < ways; w++)
    {
      GArray *queries = g_array_new (FALSE, FALSE, sizeof (guint));

      for (guint q = 0; q < part->n_queries; q++)
        if (query_label (snapshot, q) == part->episode_classes[w])
          g_array_append_val (queries, q);
      max_q = MAX (max_q, queries->len);
      g_ptr_array_add (by_way, queries);
    }

  cairo_save (cr);
  _latent_figure_set_font (cr, style, 0.9, FALSE);
  for (guint w = 0; w < ways; w++)
    {
      g_autofree char *name = latent_figure_dup_class_name (snapshot, part->episode_classes[w]);

      label_w = MAX (label_w, _latent_figure_text_width (cr, name));
    }
  cairo_restore (cr);
  /* The class's mark, then its name. */
  label_w = MIN (label_w, width * 0.2) + f * 1.2;

  gap = MAX (4.0, round (f * 0.5));   /* room for the queries' frames */
  sep = round (f * 1.2);              /* between the support, the prototype and the queries */
  caption = f * 1.5;                  /* a wrong query's predicted class under it */
  avail_w = width - 2.0 * f - label_w - sep * (with_prototype ? 2 : 1);
  avail_h = height - top - f * 1.6 /* column titles */ - f * 2.2 /* legend */ - f;
  /* Fewer queries a way rather than tiles too small to read. */
  shown_q = max_q;
  for (;;)
    {
      cols = shots + (with_prototype ? 1 : 0) + shown_q;
      tile = MIN (avail_w / MAX (cols, 1u) - gap, avail_h / ways - gap - caption);
      if (tile >= MIN_EPISODE_TILE || shown_q <= 1)
        break;
      shown_q--;
    }
  if (tile < f * 2.5)
    caption = 0.0, tile = MIN (avail_w / MAX (cols, 1u) - gap, avail_h / ways - gap);
  if (!(tile >= 4.0))
    {
      _latent_figure_message (cr, style, width, height, _("Too small to show the episode"));
      return;
    }
  tile = floor (MIN (tile, f * 12.0));
  line = CLAMP (round (tile * 0.06), 2.0, MAX (2.0, round (f * 0.25)));
  row_h = tile + gap + caption;

  /* One range for every image, so they compare. */
  for (guint w = 0; w < ways; w++)
    {
      GArray *queries = g_ptr_array_index (by_way, w);

      for (guint s = 0; s < shots; s++)
        g_ptr_array_add (images, (gpointer) latent_dataset_get_row (test, part->support_rows[w * shots + s]));
      for (guint i = 0; i < MIN (queries->len, shown_q); i++)
        g_ptr_array_add (images,
                         (gpointer) latent_dataset_get_row (test, part->query_rows[g_array_index (queries, guint, i)]));
    }
  _latent_figure_image_range ((const float * const *) images->pdata, images->len, (gsize) img_w * img_h * channels,
                              &lo, &hi);

  x0 = round (f + label_w);
  y0 = round (top + f * 1.6);
  /* Column titles. */
  cairo_save (cr);
  _latent_figure_set_font (cr, style, 0.9, TRUE);
  _latent_figure_set_color_mix (cr, style, 0.8);
  if (shots > 0)
    {
      cairo_move_to (cr, x0, y0 - f * 0.5);
      _latent_figure_show_text (cr, _("Support"));
    }
  if (with_prototype)
    {
      double xp = x0 + shots * (tile + gap) + sep;
      const char *text = _("Mean");

      /* Over its one column, where it fits. */
      if (_latent_figure_text_width (cr, text) <= tile + sep)
        {
          cairo_move_to (cr, xp, y0 - f * 0.5);
          _latent_figure_show_text (cr, text);
        }
    }
  if (shown_q > 0)
    {
      cairo_move_to (cr, x0 + shots * (tile + gap) + sep * (with_prototype ? 2 : 1) + (with_prototype ? tile + gap : 0),
                     y0 - f * 0.5);
      if (shown_q < max_q)
        {
          g_autofree char *text = g_strdup_printf (_("Queries (the first %u of each way)"), shown_q);

          _latent_figure_show_text (cr, text);
        }
      else
        _latent_figure_show_text (cr, _("Queries"));
    }
  cairo_restore (cr);

  for (guint w = 0; w < ways; w++)
    {
      GArray *queries = g_ptr_array_index (by_way, w);
      g_autofree char *name = latent_figure_dup_class_name (snapshot, part->episode_classes[w]);
      double y = y0 + w * row_h, x = x0, cr_, cg, cb;

      /* The way's name in its class's colour mark. */
      cairo_save (cr);
      latent_palette_color (part->episode_classes[w], &cr_, &cg, &cb);
      cairo_set_source_rgb (cr, cr_, cg, cb);
      cairo_rectangle (cr, f, y + tile / 2.0 - f * 0.45, f * 0.3, f * 0.9);
      cairo_fill (cr);
      _latent_figure_set_font (cr, style, 0.9, FALSE);
      _latent_figure_set_color_mix (cr, style, 0.9);
      cairo_rectangle (cr, f * 1.5, y, label_w - f * 0.6, tile);
      cairo_clip (cr);
      cairo_move_to (cr, f * 1.5, y + tile / 2.0 + f * 0.3);
      _latent_figure_show_text (cr, name);
      cairo_restore (cr);

      for (guint s = 0; s < shots; s++, x += tile + gap)
        {
          cairo_surface_t *image = _latent_figure_grey_tile (latent_dataset_get_row (test, part->support_rows[w * shots + s]),
                                                             img_w, img_h, channels, lo, hi);

          _latent_figure_set_color_mix (cr, style, 0.35);
          _latent_figure_draw_tile (cr, image, x, y, tile, tile * img_h / img_w, 1.0);
          cairo_surface_destroy (image);
        }
      x += sep - gap;
      if (with_prototype)
        {
          const float *mean = part->episode_prototypes + (gsize) w * img_w * img_h * channels;
          cairo_surface_t *image = _latent_figure_grey_tile (mean, img_w, img_h, channels, lo, hi);

          latent_palette_color (part->episode_classes[w], &cr_, &cg, &cb);
          cairo_set_source_rgb (cr, cr_, cg, cb);
          _latent_figure_draw_tile (cr, image, x, y, tile, tile * img_h / img_w, 2.0);
          cairo_surface_destroy (image);
          x += tile + sep;
        }
      for (guint i = 0; i < MIN (queries->len, shown_q); i++, x += tile + gap)
        {
          guint q = g_array_index (queries, guint, i);
          gboolean right = part->query_predictions[q] == part->episode_classes[w];
          cairo_surface_t *image = _latent_figure_grey_tile (latent_dataset_get_row (test, part->query_rows[q]),
                                                             img_w, img_h, channels, lo, hi);

          _latent_figure_draw_tile (cr, image, x, y, tile, tile * img_h / img_w, 0.0);
          cairo_surface_destroy (image);
          verdict_frame (cr, x, y, tile, tile * img_h / img_w, line, right);
          if (!right && caption > 0.0)
            {
              g_autofree char *as = latent_figure_dup_class_name (snapshot, part->query_predictions[q]);

              cairo_save (cr);
              cairo_rectangle (cr, x - line, y + tile + line, tile + 2 * line, caption);
              cairo_clip (cr);
              _latent_figure_set_font (cr, style, 0.8, FALSE);
              _latent_figure_set_color_mix (cr, style, 0.8);
              cairo_move_to (cr, x, y + tile + line + f * 0.85);
              _latent_figure_show_text (cr, as);
              cairo_restore (cr);
            }
        }
    }

  /* What the frames mean. */
  {
    double lx = f, ly = MIN (y0 + ways * row_h + f * 0.9, height - f * 1.2), s = f * 0.9;

    cairo_save (cr);
    _latent_figure_set_font (cr, style, 0.9, FALSE);
    for (guint i = 0; i < 2; i++)
      {
        verdict_frame (cr, lx, ly, s, s, 2.0, i == 0);
        _latent_figure_set_color_mix (cr, style, 0.85);
        cairo_move_to (cr, lx + s + f * 0.5, ly + s * 0.85);
        _latent_figure_show_text (cr, legend[i]);
        lx += s + f * 0.5 + _latent_figure_text_width (cr, legend[i]) + f * 1.5;
      }
    if (part->n_queries > 0)
      {
        const char *note = _("query images framed by the verdict; under a wrong one, the class it was given");

        if (lx + _latent_figure_text_width (cr, note) <= width - f)
          {
            _latent_figure_set_color_mix (cr, style, 0.65);
            cairo_move_to (cr, lx, ly + s * 0.85);
            _latent_figure_show_text (cr, note);
          }
      }
    cairo_restore (cr);
  }
}

/* Data that are not images: the episode on the test set's 2-D projection. */
static void
draw_episode_points (cairo_t                 *cr,
                     LatentSnapshot          *snapshot,
                     const LatentFigureStyle *style,
                     double                   top,
                     int                      width,
                     int                      height)
{
  const LatentClassifierPart *part = &snapshot->classifier;
  const double f = MAX (style->font_size, 1.0), rad = CLAMP (f * 0.35, 3.0, 6.0);
  LatentDataset *test = part->test_dataset;
  const guint ways = part->n_ways, shots = part->n_shots;
  const guint n_points = ways * shots + part->n_queries + (part->episode_prototypes ? ways : 0);
  g_autoptr(LatentProjection) projection = latent_projection_get_for_axes (test, style->axis_columns);
  g_autofree float *xy = g_new (float, (gsize) MAX (n_points, 1u) * 2);
  double lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY }, fr, fg, fb, label_w, x;
  const char *marks[4] = { _("support row"), _("class mean"), _("query"), _("wrong") };
  Panel p = { 0 };
  guint k = 0;

  if (projection == NULL)
    {
      _latent_figure_message (cr, style, width, height, _("The test rows could not be projected"));
      return;
    }
  for (guint i = 0; i < ways * shots; i++)
    latent_projection_apply (projection, latent_dataset_get_row (test, part->support_rows[i]), xy + 2 * k++);
  for (guint i = 0; part->episode_prototypes != NULL && i < ways; i++)
    latent_projection_apply (projection, part->episode_prototypes + (gsize) i * latent_dataset_get_n_cols (test),
                             xy + 2 * k++);
  for (guint q = 0; q < part->n_queries; q++)
    latent_projection_apply (projection, latent_dataset_get_row (test, part->query_rows[q]), xy + 2 * k++);
  for (guint i = 0; i < k; i++)
    for (guint a = 0; a < 2; a++)
      if (isfinite (xy[2 * i + a]))
        lo[a] = MIN (lo[a], xy[2 * i + a]), hi[a] = MAX (hi[a], xy[2 * i + a]);
  for (guint a = 0; a < 2; a++)
    {
      if (!isfinite (lo[a]))
        lo[a] = 0.0, hi[a] = 1.0;
      if (!(hi[a] > lo[a]))
        lo[a] -= 0.5, hi[a] += 0.5;
      lo[a] -= (hi[a] - lo[a]) * 0.08;
      hi[a] += (hi[a] - lo[a]) * 0.08;
    }
  p.xmin = lo[0], p.xmax = hi[0], p.ymin = lo[1], p.ymax = hi[1];
  p.y = round (top + f * 2.8);
  /* Under the plot: its ticks and axis title, then the marks' legend. */
  p.h = floor (height - p.y - f * 3.2 - f * 2.6);
  if (p.h < MIN_PLOT_SIZE)
    {
      _latent_figure_message (cr, style, width, height, _("Too small to show the episode"));
      return;
    }
  _latent_figure_nice_ticks (p.ymin, p.ymax, CLAMP (p.h / (f * 3.5), 2.0, 10.0), &p.yt);
  label_w = ticks_width (style, &p.yt, FALSE);
  p.x = round (f + f * 1.2 + f * 0.5 + label_w + f * 0.7);
  p.w = floor (width - 2.0 * f - p.x);
  if (p.w < MIN_PLOT_SIZE)
    {
      _latent_figure_message (cr, style, width, height, _("Too small to show the episode"));
      return;
    }
  _latent_figure_nice_ticks (p.xmin, p.xmax, CLAMP (p.w / (f * 6.0), 2.0, 10.0), &p.xt);
  {
    g_auto(GStrv) xl = _latent_figure_tick_labels (&p.xt, NULL);
    g_auto(GStrv) yl = _latent_figure_tick_labels (&p.yt, NULL);
    double xa[_LATENT_FIGURE_MAX_TICKS], ya[_LATENT_FIGURE_MAX_TICKS];
    LatentFigureAxes axes;

    for (guint i = 0; i < p.xt.n; i++)
      xa[i] = px (&p, p.xt.values[i]);
    for (guint i = 0; i < p.yt.n; i++)
      ya[i] = py (&p, p.yt.values[i]);
    _latent_figure_axes_init (&axes, style, p.x, p.y, p.w, p.h);
    axes.bottom = (LatentFigureAxis) { p.xt.n, xa, (const char * const *) xl, TRUE,
                                       latent_projection_get_axis_label (projection, 0) };
    axes.left = (LatentFigureAxis) { p.yt.n, ya, (const char * const *) yl, TRUE,
                                     latent_projection_get_axis_label (projection, 1) };
    _latent_figure_draw_grid (cr, style, &axes);
    _latent_figure_draw_axes (cr, style, &axes);
  }

  latent_figure_style_get_foreground (style, &fr, &fg, &fb);
  cairo_save (cr);
  cairo_rectangle (cr, p.x, p.y, p.w, p.h);
  cairo_clip (cr);
  k = 0;
  for (guint i = 0; i < ways * shots; i++, k++)
    {
      double r, g, b;

      latent_palette_color (part->episode_classes[i / MAX (shots, 1u)], &r, &g, &b);
      cairo_set_source_rgb (cr, r, g, b);
      cairo_arc (cr, px (&p, xy[2 * k]), py (&p, xy[2 * k + 1]), rad, 0, 2 * G_PI);
      cairo_fill (cr);
    }
  for (guint i = 0; part->episode_prototypes != NULL && i < ways; i++, k++)
    {
      double r, g, b, x0 = px (&p, xy[2 * k]), y0 = py (&p, xy[2 * k + 1]), s = rad * 1.8;

      /* A square, larger, outlined: the class mean the queries are judged by. */
      latent_palette_color (part->episode_classes[i], &r, &g, &b);
      cairo_rectangle (cr, x0 - s, y0 - s, 2 * s, 2 * s);
      cairo_set_source_rgb (cr, r, g, b);
      cairo_fill_preserve (cr);
      cairo_set_source_rgb (cr, fr, fg, fb);
      cairo_set_line_width (cr, 1.5);
      cairo_stroke (cr);
    }
  for (guint q = 0; q < part->n_queries; q++, k++)
    {
      gint32 truth = query_label (snapshot, q);
      double r, g, b, x0 = px (&p, xy[2 * k]), y0 = py (&p, xy[2 * k + 1]);

      /* A ring in the true class's colour; crossed when wrong. */
      latent_palette_color (MAX (truth, 0), &r, &g, &b);
      cairo_set_source_rgb (cr, r, g, b);
      cairo_set_line_width (cr, 2.0);
      cairo_arc (cr, x0, y0, rad * 1.1, 0, 2 * G_PI);
      cairo_stroke (cr);
      if (part->query_predictions[q] != truth)
        {
          latent_palette_verdict (FALSE, &r, &g, &b);
          cairo_set_source_rgb (cr, r, g, b);
          _latent_figure_cross (cr, x0, y0, rad * 2.8, 2.0);
        }
    }
  cairo_restore (cr);

  /* The ways' colours above the plot, the marks under it. */
  x = p.x;
  for (guint w = 0; w < ways; w++)
    {
      g_autofree char *name = latent_figure_dup_class_name (snapshot, part->episode_classes[w]);
      double r, g, b, next;

      latent_palette_color (part->episode_classes[w], &r, &g, &b);
      next = _latent_figure_legend_entry (cr, style, x, p.y - f * 0.6, width - f, r, g, b, name);
      if (next == x)
        break;
      x = next;
    }
  x = p.x;
  cairo_save (cr);
  _latent_figure_set_font (cr, style, 0.9, FALSE);
  for (guint i = 0; i < 4; i++)
    {
      double cx = x + rad * 1.5, cy = height - f * 1.2, w = rad * 3.0 + f * 0.4 + _latent_figure_text_width (cr, marks[i]);
      double r, g, b;

      if ((i == 1 && part->episode_prototypes == NULL) || x + w > width - f)
        continue;
      _latent_figure_set_color_mix (cr, style, 0.6);
      cairo_new_path (cr);
      if (i == 0)
        {
          cairo_arc (cr, cx, cy, rad, 0, 2 * G_PI);
          cairo_fill (cr);
        }
      else if (i == 1)
        {
          cairo_rectangle (cr, cx - rad, cy - rad, 2 * rad, 2 * rad);
          cairo_fill (cr);
        }
      else if (i == 2)
        {
          cairo_set_line_width (cr, 2.0);
          cairo_arc (cr, cx, cy, rad, 0, 2 * G_PI);
          cairo_stroke (cr);
        }
      else
        {
          latent_palette_verdict (FALSE, &r, &g, &b);
          cairo_set_source_rgb (cr, r, g, b);
          _latent_figure_cross (cr, cx, cy, rad * 2.2, 2.0);
        }
      _latent_figure_set_color_mix (cr, style, 0.85);
      cairo_move_to (cr, x + rad * 3.0 + f * 0.4, cy + f * 0.3);
      _latent_figure_show_text (cr, marks[i]);
      x += w + f * 1.2;
    }
  cairo_restore (cr);
}

/* An episode of images (or none yet) plots no rows. */
static gboolean
episode_plots_rows (LatentSnapshot *snapshot)
{
  return has_episode (snapshot) && !_latent_figure_dataset_has_image_rows (snapshot->classifier.test_dataset);
}

static void
_latent_figure_episode_draw (LatentSnapshot          *snapshot,
                             const LatentFigureStyle *style,
                             cairo_t                 *cr,
                             double                   top,
                             int                      width,
                             int                      height)
{
  cairo_save (cr);
  if (!has_episode (snapshot))
    _latent_figure_message (cr, style, width, height, _("No episode yet"));
  else
    {
      top = episode_heading (cr, snapshot, style, top, width);
      if (_latent_figure_dataset_has_image_rows (snapshot->classifier.test_dataset))
        draw_episode_images (cr, snapshot, style, top, width, height);
      else
        draw_episode_points (cr, snapshot, style, top, width, height);
    }
  cairo_restore (cr);
}

const LatentFigureKindRow _latent_figure_episode_kinds[] = {
  { .kind = LATENT_FIGURE_CURVES,
    .title = N_("Training curves"),
    .draw = _latent_figure_classifier_curves_draw,
    .only_some = TRUE,
    .per_family = TRUE, .family = LATENT_FAMILY_CLASSIFIER },
  { .kind = LATENT_FIGURE_SHOTS,
    .title = N_("Shots curve"),
    .draw = _latent_figure_shots_draw,
    .only_some = TRUE },
  { .kind = LATENT_FIGURE_EPISODE,
    .title = N_("Episode"),
    .draw = _latent_figure_episode_draw,
    .uses_axes = episode_plots_rows,
    .applies = _latent_figure_applies_with_data,
    .only_some = TRUE },
  { .kind = LATENT_FIGURE_AUTO }
};
