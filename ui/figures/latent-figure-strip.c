/* latent-figure-strip.c — the strip under the window's figure: the
 * objective of every iteration as a small plot
 *
 * The value the initialisation left comes first when the view has it. A
 * long run is drawn on a logarithmic axis of iterations, where its first
 * steps (most of the change) get room; large or tiny values are labelled
 * in units of a power of ten, named after the curve's name.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-figure-strip"

#include "latent-figure-private.h"
#include "latent-palette.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* From this many iterations on, the iteration axis is logarithmic. */
#define LOG_FROM 50
#define MIN_PLOT_WIDTH 40.0
#define MIN_PLOT_HEIGHT 16.0

typedef struct {
  double   f;
  double   plot_x, plot_y, plot_w, plot_h;
  guint    first, last;           /* iterations at the ends of the axis */
  gboolean log_x;
  double   lo, hi;                /* the value axis */
  int      exponent;              /* labels are values / 10^exponent */
  LatentFigureTicks y_ticks;      /* in those units */
  guint    x_ticks[_LATENT_FIGURE_MAX_TICKS];
  guint    n_x_ticks;
} Strip;

static double
strip_x (const Strip *l,
         double       iteration)
{
  double t;

  if (l->last <= l->first)
    return l->plot_x + l->plot_w / 2.0;
  if (l->log_x)
    t = (log1p (iteration) - log1p (l->first)) / (log1p (l->last) - log1p (l->first));
  else
    t = (iteration - l->first) / (double) (l->last - l->first);
  return l->plot_x + t * l->plot_w;
}

static double
strip_y (const Strip *l,
         double       value)
{
  return l->plot_y + (l->hi - value) / (l->hi - l->lo) * l->plot_h;
}

static void
format_iteration (guint  iteration,
                  char  *buf,
                  gsize  size)
{
  g_snprintf (buf, size, "%u", iteration);
}

/* "× 10⁶", "× 10⁻³". */
static char *
power_of_ten (int exponent)
{
  static const char * const digits[] = { "⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹" };
  GString *s = g_string_new ("× 10");
  char number[16];

  g_snprintf (number, sizeof number, "%d", ABS (exponent));
  if (exponent < 0)
    g_string_append (s, "⁻");
  for (const char *c = number; *c; c++)
    g_string_append (s, digits[*c - '0']);
  return g_string_free (s, FALSE);
}

/* A value as the readout writes it: seven digits, a typographic minus. */
static void
format_value (double  value,
              char   *buf,
              gsize   size)
{
  char tmp[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (value))
    {
      g_strlcpy (buf, "—", size);
      return;
    }
  g_snprintf (tmp, sizeof tmp, "%.7g", value);
  if (tmp[0] == '-')
    g_snprintf (buf, size, "−%s", tmp + 1);
  else
    g_strlcpy (buf, tmp, size);
}

/* Marks along the iteration axis: round numbers as many as fit, at least
 * the first and the last iterations' neighbourhood. On a logarithmic axis
 * powers of ten first, then their halves and fifths where there is room. */
static void
x_ticks (Strip   *l,
         cairo_t *cr)
{
  guint candidates[3 * 12 + 1], n = 0;
  char buf[32];
  double gap;

  format_iteration (l->last, buf, sizeof buf);
  gap = _latent_figure_text_width (cr, buf) + l->f * 1.2;
  l->n_x_ticks = 0;

  if (l->log_x)
    {
      /* By priority: the first iteration and the powers of ten, then 5s, then 2s. */
      candidates[n++] = l->first;
      for (guint mul = 0; mul < 3; mul++)
        for (guint64 p = 1; p <= l->last && n < G_N_ELEMENTS (candidates); p *= 10)
          {
            guint64 v = p * (mul == 0 ? 1 : mul == 1 ? 5 : 2);

            if (v > l->first && v <= l->last)
              candidates[n++] = (guint) v;
          }
    }
  else
    {
      LatentFigureTicks ticks;

      _latent_figure_nice_ticks (l->first, l->last, MAX (2.0, l->plot_w / (gap * 1.5)), &ticks);
      for (guint i = 0; i < ticks.n && n < G_N_ELEMENTS (candidates); i++)
        if (fabs (ticks.values[i] - round (ticks.values[i])) < 1e-9 && ticks.values[i] >= l->first)
          candidates[n++] = (guint) round (ticks.values[i]);
    }

  for (guint i = 0; i < n && l->n_x_ticks < _LATENT_FIGURE_MAX_TICKS; i++)
    {
      double x = strip_x (l, candidates[i]);
      gboolean clear = TRUE;

      for (guint k = 0; k < l->n_x_ticks && clear; k++)
        clear = fabs (strip_x (l, l->x_ticks[k]) - x) >= gap;
      if (clear)
        l->x_ticks[l->n_x_ticks++] = candidates[i];
    }
  /* In order, for the axis. */
  for (guint i = 1; i < l->n_x_ticks; i++)
    for (guint k = i; k > 0 && l->x_ticks[k] < l->x_ticks[k - 1]; k--)
      {
        guint t = l->x_ticks[k];

        l->x_ticks[k] = l->x_ticks[k - 1];
        l->x_ticks[k - 1] = t;
      }
}

static gboolean
strip_layout (const LatentFigureStrip *strip,
              const LatentFigureStyle *style,
              int                      width,
              int                      height,
              Strip                   *l)
{
  const double f = MAX (style->font_size, 1.0);
  double lo = INFINITY, hi = -INFINITY, largest, scale, left_w = 0.0, pad;
  guint finite = 0;
  cairo_t *cr;
  char buf[64];

  memset (l, 0, sizeof *l);
  l->f = f;
  if (strip == NULL || strip->values == NULL)
    return FALSE;
  for (guint i = 0; i < strip->n; i++)
    if (isfinite (strip->values[i]))
      {
        lo = MIN (lo, strip->values[i]);
        hi = MAX (hi, strip->values[i]);
        finite++;
      }
  /* One value is no curve: a one-shot method, or a single step. */
  if (finite < 2)
    return FALSE;

  l->first = strip->first;
  l->last = strip->first + strip->n - 1;
  /* The figure may show the initialisation, which left no value: the axis
   * still reaches it, so that the mark has a place. */
  if (strip->marker >= 0 && strip->marker < l->first)
    l->first = (guint) strip->marker;
  l->log_x = l->last >= LOG_FROM;

  /* A flat curve still needs a range; a little room above and below. */
  if (!(hi > lo))
    {
      pad = MAX (fabs (hi) * 0.01, 1e-9);
      lo -= pad;
      hi += pad;
    }
  pad = (hi - lo) * 0.06;
  l->lo = lo - pad;
  l->hi = hi + pad;
  largest = MAX (fabs (l->lo), fabs (l->hi));
  if (largest >= 1e5 || (largest > 0.0 && largest < 1e-3))
    l->exponent = 3 * (int) floor (log10 (largest) / 3.0);
  scale = pow (10.0, -l->exponent);

  l->plot_y = round (f * 1.6);
  l->plot_h = floor (height - l->plot_y - (f * 0.4 + f * 1.2 + f * 1.6 + f * 0.5));
  if (l->plot_h < MIN_PLOT_HEIGHT)
    return FALSE;
  /* Two marks at least, while their labels stay apart. */
  for (double target = CLAMP (l->plot_h / (f * 1.8), 2.0, 6.0);; target += 1.0)
    {
      _latent_figure_nice_ticks (l->lo * scale, l->hi * scale, target, &l->y_ticks);
      if (l->y_ticks.n >= 2 || target + 1.0 > l->plot_h / (f * 1.1))
        break;
    }

  cr = _latent_figure_measure_context (style);
  _latent_figure_set_font (cr, style, 0.9, FALSE);
  for (guint i = 0; i < l->y_ticks.n; i++)
    {
      _latent_figure_format_tick (l->y_ticks.values[i], l->y_ticks.decimals, buf, sizeof buf);
      left_w = MAX (left_w, _latent_figure_text_width (cr, buf));
    }
  format_iteration (l->last, buf, sizeof buf);
  l->plot_x = round (f * 0.5 + left_w + f * 0.3 + f * 0.4);
  /* Room for half the last label past the right end. */
  l->plot_w = floor (width - l->plot_x - MAX (f, _latent_figure_text_width (cr, buf) / 2.0 + f * 0.3));
  if (l->plot_w < MIN_PLOT_WIDTH)
    {
      cairo_destroy (cr);
      return FALSE;
    }
  x_ticks (l, cr);
  cairo_destroy (cr);
  return TRUE;
}

/* The index of the value the readout gives: the one under the pointer,
 * else the iteration the figure shows, else the last finite one; −1 when
 * the iteration shown has no value (the initialisation of some models). */
static gint64
readout_index (const LatentFigureStrip *strip)
{
  gint64 index;

  if (strip->hover >= 0 && strip->hover < strip->n)
    return strip->hover;
  if (strip->marker >= 0)
    {
      index = strip->marker - (gint64) strip->first;
      return index >= 0 && index < strip->n ? index : -1;
    }
  for (index = strip->n - 1; index > 0 && !isfinite (strip->values[index]); index--)
    ;
  return index;
}

char *
latent_figure_strip_dup_readout (const LatentFigureStrip *strip)
{
  gint64 index;
  char value[64];

  g_return_val_if_fail (strip != NULL, NULL);

  if (strip->n == 0 || strip->values == NULL)
    return NULL;
  index = readout_index (strip);
  if (index < 0)
    {
      /* Translators: the strip's readout of an iteration without a value */
      return g_strdup_printf (_("iteration %u: —"), (guint) MAX (strip->marker, 0));
    }
  format_value (strip->values[index], value, sizeof value);
  return g_strdup_printf (_("iteration %u: %s"), (guint) (strip->first + index), value);
}

/* The name, in units of a power of ten where the labels are, at the left;
 * the value under the pointer, or the shown iteration's, at the right. */
static void
draw_title (cairo_t                 *cr,
            const LatentFigureStrip *strip,
            const LatentFigureStyle *style,
            const Strip             *l,
            int                      width)
{
  const double f = l->f, baseline = f * 1.1;
  g_autofree char *power = l->exponent != 0 ? power_of_ten (l->exponent) : NULL;
  g_autofree char *title = NULL;
  g_autofree char *readout = latent_figure_strip_dup_readout (strip);
  double title_w, readout_w;

  if (power != NULL)
    title = g_strdup_printf ("%s (%s)", strip->name ? strip->name : "", power);
  else
    title = g_strdup (strip->name ? strip->name : "");

  cairo_save (cr);
  _latent_figure_set_font (cr, style, 0.95, TRUE);
  _latent_figure_set_color_mix (cr, style, 0.9);
  title_w = _latent_figure_text_width (cr, title);
  cairo_move_to (cr, l->plot_x, baseline);
  _latent_figure_show_text (cr, title);
  _latent_figure_set_font (cr, style, 0.95, FALSE);
  _latent_figure_set_color_mix (cr, style, strip->hover >= 0 ? 1.0 : 0.75);
  readout_w = _latent_figure_text_width (cr, readout);
  if (l->plot_x + title_w + f < width - f * 0.5 - readout_w)
    {
      cairo_move_to (cr, width - f * 0.5 - readout_w, baseline);
      _latent_figure_show_text (cr, readout);
    }
  cairo_restore (cr);
}

gboolean
latent_figure_strip_draw (const LatentFigureStrip *strip,
                          const LatentFigureStyle *style,
                          cairo_t                 *cr,
                          int                      width,
                          int                      height)
{
  g_autofree double *left_at = NULL;
  g_autofree double *bottom_at = NULL;
  g_auto(GStrv) left_labels = NULL;
  g_auto(GStrv) bottom_labels = NULL;
  LatentFigureAxes axes;
  gboolean drawing = FALSE;
  double scale, r, g, b, dot;
  gint64 first_finite = -1, last_finite = -1;
  Strip l;

  g_return_val_if_fail (style != NULL, FALSE);
  g_return_val_if_fail (cr != NULL, FALSE);

  _latent_figure_paint_background (cr, style, width, height);
  if (!strip_layout (strip, style, width, height, &l))
    return FALSE;

  cairo_save (cr);
  draw_title (cr, strip, style, &l, width);

  scale = pow (10.0, l.exponent);
  left_at = g_new (double, MAX (l.y_ticks.n, 1u));
  for (guint i = 0; i < l.y_ticks.n; i++)
    left_at[i] = strip_y (&l, l.y_ticks.values[i] * scale);
  left_labels = _latent_figure_tick_labels (&l.y_ticks, NULL);
  bottom_at = g_new (double, MAX (l.n_x_ticks, 1u));
  bottom_labels = g_new0 (char *, l.n_x_ticks + 1);
  for (guint i = 0; i < l.n_x_ticks; i++)
    {
      bottom_at[i] = strip_x (&l, l.x_ticks[i]);
      bottom_labels[i] = g_strdup_printf ("%u", l.x_ticks[i]);
    }
  _latent_figure_axes_init (&axes, style, l.plot_x, l.plot_y, l.plot_w, l.plot_h);
  axes.left = (LatentFigureAxis) { l.y_ticks.n, left_at, (const char * const *) left_labels, TRUE };
  axes.bottom = (LatentFigureAxis) { l.n_x_ticks, bottom_at, (const char * const *) bottom_labels, TRUE,
                                     l.log_x ? _("iteration (log scale)") : _("iteration") };
  _latent_figure_draw_grid (cr, style, &axes);
  _latent_figure_draw_axes (cr, style, &axes);

  /* The iteration the figure shows: a line across the plot (its value, a
   * ring on the curve, comes after the curve). */
  if (strip->marker >= l.first && strip->marker <= l.last)
    {
      double x = floor (strip_x (&l, strip->marker)) + 0.5;

      _latent_figure_set_color_mix (cr, style, 0.55);
      cairo_set_line_width (cr, 1.5);
      cairo_move_to (cr, x, l.plot_y);
      cairo_line_to (cr, x, l.plot_y + l.plot_h);
      cairo_stroke (cr);
    }

  /* The curve, broken where a value is missing. */
  latent_palette_color (0, &r, &g, &b);
  cairo_set_source_rgb (cr, r, g, b);
  cairo_set_line_width (cr, 1.6);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  cairo_new_path (cr);
  for (guint i = 0; i < strip->n; i++)
    {
      double v = strip->values[i];

      if (!isfinite (v))
        {
          drawing = FALSE;
          continue;
        }
      if (first_finite < 0)
        first_finite = i;
      last_finite = i;
      if (drawing)
        cairo_line_to (cr, strip_x (&l, (double) strip->first + i), strip_y (&l, v));
      else
        cairo_move_to (cr, strip_x (&l, (double) strip->first + i), strip_y (&l, v));
      drawing = TRUE;
    }
  cairo_stroke (cr);
  /* Its ends as dots: where it starts (the initialisation, when there is
   * one) and where it is now. */
  dot = MAX (2.0, l.f * 0.22);
  cairo_new_sub_path (cr);
  cairo_arc (cr, strip_x (&l, (double) strip->first + first_finite), strip_y (&l, strip->values[first_finite]), dot, 0, 2 * G_PI);
  cairo_new_sub_path (cr);
  cairo_arc (cr, strip_x (&l, (double) strip->first + last_finite), strip_y (&l, strip->values[last_finite]), dot, 0, 2 * G_PI);
  cairo_fill (cr);

  /* The shown iteration's value, ringed. */
  if (strip->marker >= (gint64) strip->first && strip->marker - (gint64) strip->first < strip->n
      && isfinite (strip->values[strip->marker - strip->first]))
    {
      double x = strip_x (&l, strip->marker), y = strip_y (&l, strip->values[strip->marker - strip->first]);

      /* In the curve's colour: grey that dark reads as text. */
      cairo_set_source_rgb (cr, r, g, b);
      cairo_set_line_width (cr, 1.5);
      cairo_new_sub_path (cr);
      cairo_arc (cr, x, y, dot + 2.5, 0, 2 * G_PI);
      cairo_stroke (cr);
    }

  /* The value under the pointer. */
  if (strip->hover >= 0 && strip->hover < strip->n && isfinite (strip->values[strip->hover]))
    {
      double x = strip_x (&l, (double) strip->first + strip->hover), y = strip_y (&l, strip->values[strip->hover]);
      double br, bg, bb;

      _latent_figure_set_color_mix (cr, style, 0.3);
      cairo_set_line_width (cr, 1.0);
      cairo_move_to (cr, floor (x) + 0.5, l.plot_y);
      cairo_line_to (cr, floor (x) + 0.5, l.plot_y + l.plot_h);
      cairo_stroke (cr);
      latent_figure_style_get_background (style, &br, &bg, &bb);
      cairo_set_source_rgb (cr, br, bg, bb);
      cairo_arc (cr, x, y, dot + 2.0, 0, 2 * G_PI);
      cairo_fill (cr);
      cairo_set_source_rgb (cr, r, g, b);
      cairo_arc (cr, x, y, dot + 1.0, 0, 2 * G_PI);
      cairo_fill (cr);
    }
  cairo_restore (cr);
  return TRUE;
}

gint64
latent_figure_strip_pick (const LatentFigureStrip *strip,
                          const LatentFigureStyle *style,
                          int                      width,
                          int                      height,
                          double                   x,
                          double                   y)
{
  double t, iteration;
  Strip l;

  g_return_val_if_fail (style != NULL, -1);

  if (!strip_layout (strip, style, width, height, &l))
    return -1;
  if (x < l.plot_x - l.f * 0.5 || x > l.plot_x + l.plot_w + l.f * 0.5 || y < l.plot_y - l.f * 0.5
      || y > l.plot_y + l.plot_h + l.f * 0.5)
    return -1;
  t = CLAMP ((x - l.plot_x) / l.plot_w, 0.0, 1.0);
  if (l.log_x)
    iteration = expm1 (log1p (l.first) + t * (log1p (l.last) - log1p (l.first)));
  else
    iteration = l.first + t * (l.last - l.first);
  return CLAMP ((gint64) round (iteration) - (gint64) strip->first, 0, (gint64) strip->n - 1);
}
