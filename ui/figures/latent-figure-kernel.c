/* latent-figure-kernel.c — convolution: the kernel as an annotated heat
 * map and the time per pass of each implementation raced at the start
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-figure-kernel"

#include "latent-figure-filter-private.h"
#include "latent-palette.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

static char *
format_ms (double ms)
{
  char number[G_ASCII_DTOSTR_BUF_SIZE];

  g_snprintf (number, sizeof number, ms < 10.0 ? "%.2f" : ms < 100.0 ? "%.1f" : "%.0f", ms);
  /* Translators: milliseconds, "2.14 ms". */
  return g_strdup_printf (_("%s ms"), number);
}

/* The kernel as a heat map ------------------------------------------------------ */

double
_latent_figure_kernel_scale (const float *weights,
                             guint        size)
{
  double scale = 0.0;

  for (guint i = 0; i < size * size; i++)
    if (isfinite (weights[i]))
      scale = MAX (scale, fabs (weights[i]));
  return scale > 0.0 ? scale : 1.0;
}

static gboolean
all_integers (const float *weights,
              guint        size)
{
  for (guint i = 0; i < size * size; i++)
    if (!isfinite (weights[i]) || weights[i] != floorf (weights[i]))
      return FALSE;
  return TRUE;
}

/* Dark text on light cells, light text on strong ones. */
static void
set_cell_text_color (cairo_t  *cr,
                     double    t,
                     gboolean  dark)
{
  double r, g, b;

  latent_palette_diverging (t, dark, &r, &g, &b);
  if (0.2126 * r + 0.7152 * g + 0.0722 * b > 0.55)
    cairo_set_source_rgb (cr, 0.12, 0.12, 0.13);
  else
    cairo_set_source_rgb (cr, 0.97, 0.97, 0.97);
}

/* Cells of side @cell from (x, y); the weights printed when @annotate and
 * they fit. */
void
_latent_figure_kernel_cells (cairo_t                 *cr,
                             const LatentFigureStyle *style,
                             const float             *weights,
                             guint                    size,
                             double                   x,
                             double                   y,
                             double                   cell,
                             gboolean                 annotate)
{
  const double f = MAX (style->font_size, 1.0);
  const double scale = _latent_figure_kernel_scale (weights, size);
  const double side = cell * size;
  const gboolean integers = all_integers (weights, size);
  /* Enough decimals for two digits of the largest weight; fewer would
   * print rows of zeros. */
  const int fewest = integers ? 0 : MAX (0, 1 - (int) floor (log10 (scale)));
  int decimals = integers ? 0 : MAX (3, fewest);
  char buf[64];

  cairo_save (cr);
  for (guint j = 0; j < size; j++)
    for (guint i = 0; i < size; i++)
      {
        double r, g, b, x0 = round (x + i * cell), y0 = round (y + j * cell);

        latent_palette_diverging (weights[j * size + i] / scale, style->dark, &r, &g, &b);
        cairo_set_source_rgb (cr, r, g, b);
        cairo_rectangle (cr, x0, y0, round (x + (i + 1) * cell) - x0, round (y + (j + 1) * cell) - y0);
        cairo_fill (cr);
      }
  /* Thin lines between cells while the cells are big enough to count. */
  if (cell >= 10.0)
    {
      _latent_figure_set_color_mix (cr, style, 0.12);
      cairo_set_line_width (cr, 1.0);
      for (guint k = 1; k < size; k++)
        {
          cairo_move_to (cr, round (x + k * cell) + 0.5, round (y));
          cairo_line_to (cr, round (x + k * cell) + 0.5, round (y + side));
          cairo_move_to (cr, round (x), round (y + k * cell) + 0.5);
          cairo_line_to (cr, round (x + side), round (y + k * cell) + 0.5);
        }
      cairo_stroke (cr);
    }
  _latent_figure_set_color_mix (cr, style, 0.45);
  cairo_set_line_width (cr, 1.0);
  cairo_rectangle (cr, round (x) - 0.5, round (y) - 0.5, round (x + side) - round (x) + 1.0,
                   round (y + side) - round (y) + 1.0);
  cairo_stroke (cr);

  if (annotate && cell >= f * 1.1)
    {
      double font = 0.0;

      /* Three decimals at a smaller size before fewer at a larger one; the
       * size never below what is still read without effort. */
      for (; decimals >= fewest && font == 0.0; decimals--)
        for (double try = MIN (1.4, cell / (f * 2.2)); try >= 0.7 && font == 0.0; try -= 0.1)
          {
            double widest = 0.0;

            _latent_figure_set_font (cr, style, try, FALSE);
            for (guint k = 0; k < size * size; k++)
              {
                _latent_figure_format_tick (weights[k], decimals, buf, sizeof buf);
                widest = MAX (widest, _latent_figure_text_width (cr, buf));
              }
            if (widest + f * 0.6 <= cell && f * try * 1.2 <= cell)
              font = try;
          }
      decimals++;
      if (font > 0.0)
        _latent_figure_set_font (cr, style, font, FALSE);
      if (font > 0.0)
        for (guint j = 0; j < size; j++)
          for (guint i = 0; i < size; i++)
            {
              double v = weights[j * size + i];
              cairo_text_extents_t ext;

              if (!isfinite (v))
                continue;
              _latent_figure_format_tick (v, decimals, buf, sizeof buf);
              cairo_text_extents (cr, buf, &ext);
              set_cell_text_color (cr, v / scale, style->dark);
              cairo_move_to (cr, x + (i + 0.5) * cell - ext.x_advance / 2.0,
                             y + (j + 0.5) * cell - ext.y_bearing - ext.height / 2.0);
              _latent_figure_show_text (cr, buf);
            }
    }
  cairo_restore (cr);
}

char *
_latent_figure_kernel_weight_label (double value)
{
  char buf[64];
  int decimals = value == floor (value) ? 0 : fabs (value) >= 10.0 ? 1 : fabs (value) >= 1.0 ? 2 : 3;

  _latent_figure_format_tick (value, decimals, buf, sizeof buf);
  return g_strdup (buf);
}

/* "13 × 13 kernel", and what the snapshot leaves out of it. */
char *
_latent_figure_kernel_heading (LatentSnapshot *snapshot)
{
  const LatentFilterPart *part = &snapshot->filter;

  if (g_strcmp0 (latent_filters_value (snapshot), "gradient") == 0)
    /* Translators: the gradient magnitude combines two kernels; the figure
     * shows the one across (x), the one up (y) is it transposed. Short:
     * it heads a narrow inset. */
    return g_strdup_printf (_("Kernel %u × %u (x; y transposed)"), part->kernel_size,
                            part->kernel_size);
  return g_strdup_printf (_("Kernel %u × %u"), part->kernel_size, part->kernel_size);
}

/* @text cut with an ellipsis rather than run past @room. */
static void
show_fitted (cairo_t    *cr,
             double      x,
             double      y,
             double      room,
             const char *text)
{
  g_autofree char *fitted = g_strdup (text);
  glong n = g_utf8_strlen (text, -1);

  while (n > 1 && _latent_figure_text_width (cr, fitted) > room)
    {
      g_autofree char *head = g_utf8_substring (text, 0, --n);
      g_free (fitted);
      fitted = g_strconcat (g_strchomp (head), "…", NULL);
    }
  cairo_move_to (cr, x, y);
  _latent_figure_show_text (cr, fitted);
}

guint
_latent_figure_filter_heading (cairo_t                 *cr,
                               const LatentFigureStyle *style,
                               double                   x,
                               double                   y,
                               double                   room,
                               const char              *text)
{
  const char *bracket = strstr (text, " (");
  guint lines = 1;

  cairo_save (cr);
  _latent_figure_set_font (cr, style, 0.95, TRUE);
  _latent_figure_set_color_mix (cr, style, 0.9);
  if (bracket != NULL && _latent_figure_text_width (cr, text) > room)
    {
      g_autofree char *head = g_strndup (text, bracket - text);

      show_fitted (cr, x, y, room, head);
      _latent_figure_set_font (cr, style, 0.9, FALSE);
      show_fitted (cr, x, y + MAX (style->font_size, 1.0) * 1.2, room, bracket + 1);
      lines = 2;
    }
  else
    show_fitted (cr, x, y, room, text);
  cairo_restore (cr);
  return lines;
}

/* Time per pass ------------------------------------------------------------------- */

static guint
n_methods (LatentSnapshot *snapshot)
{
  const LatentFilterPart *part = &snapshot->filter;

  return part->method_names && part->method_ms ? g_strv_length (part->method_names) : 0;
}

double
_latent_figure_filter_timings_height (LatentSnapshot          *snapshot,
                                      const LatentFigureStyle *style)
{
  const double f = MAX (style->font_size, 1.0);
  guint n = n_methods (snapshot);

  return f * 1.7 + MAX (n, 1u) * f * 1.55;
}

/* One bar per method raced at the start, the one that ran in colour; the
 * reference path races nothing and says its own time. Returns the height. */
double
_latent_figure_filter_timings (cairo_t                 *cr,
                               const LatentFigureStyle *style,
                               LatentSnapshot          *snapshot,
                               double                   x,
                               double                   y,
                               double                   width,
                               double                   room)
{
  const LatentFilterPart *part = &snapshot->filter;
  const double f = MAX (style->font_size, 1.0), row = f * 1.55;
  const guint n = n_methods (snapshot);
  double widest_name = 0.0, widest_value = 0.0, longest = 0.0, bar_x, bar_w, used;
  double pr, pg, pb;

  if (room < f * 1.7 + row)
    return 0.0;
  _latent_figure_filter_heading (cr, style, x, y + f, width, _("Time per pass"));
  used = f * 1.7;
  cairo_save (cr);
  _latent_figure_set_font (cr, style, 0.9, FALSE);
  if (n == 0)
    {
      /* The reference path: its own time, once it has made a pass. */
      const char *method = latent_filters_method_label (snapshot, part->method ? part->method
                                                                                         : "reference");
      g_autofree char *ms = format_ms (snapshot->step_ms);
      g_autofree char *text = snapshot->iteration > 0 && snapshot->step_ms > 0
                              ? g_strdup_printf ("%s · %s", method, ms) : g_strdup (method);

      _latent_figure_set_color_mix (cr, style, 0.8);
      cairo_move_to (cr, x, y + used + f);
      _latent_figure_show_text (cr, text);
      cairo_restore (cr);
      return used + row;
    }

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *value = format_ms (part->method_ms[i]);

      /* The one that ran is in bold: measured so. */
      _latent_figure_set_font (cr, style, 0.9, TRUE);
      widest_name = MAX (widest_name,
                         _latent_figure_text_width (cr, latent_filters_method_label (snapshot,
                                                                                            part->method_names[i])));
      _latent_figure_set_font (cr, style, 0.9, FALSE);
      widest_value = MAX (widest_value, _latent_figure_text_width (cr, value));
      if (isfinite (part->method_ms[i]))
        longest = MAX (longest, part->method_ms[i]);
    }
  bar_x = round (x + widest_name + f * 0.6);
  bar_w = width - (bar_x - x) - widest_value - f * 0.5;
  latent_palette_color (0, &pr, &pg, &pb);
  for (guint i = 0; i < n && used + row <= room; i++, used += row)
    {
      const gboolean ran = g_strcmp0 (part->method_names[i], part->method) == 0;
      const double ms = part->method_ms[i];
      const double baseline = y + used + row * 0.5 + f * 0.35;
      g_autofree char *value = format_ms (ms);
      double w = longest > 0.0 && isfinite (ms) ? MAX (1.0, round (bar_w * ms / longest)) : 0.0;

      _latent_figure_set_font (cr, style, 0.9, ran);
      _latent_figure_set_color_mix (cr, style, ran ? 1.0 : 0.7);
      cairo_move_to (cr, x, baseline);
      _latent_figure_show_text (cr, latent_filters_method_label (snapshot, part->method_names[i]));
      if (bar_w >= f && w > 0.0)
        {
          if (ran)
            cairo_set_source_rgb (cr, pr, pg, pb);
          else
            _latent_figure_set_color_mix (cr, style, 0.28);
          cairo_rectangle (cr, bar_x, round (y + used + row * 0.18), MIN (w, bar_w), round (row * 0.64));
          cairo_fill (cr);
        }
      _latent_figure_set_color_mix (cr, style, ran ? 1.0 : 0.7);
      cairo_move_to (cr, bar_x + (bar_w >= f ? MIN (w, bar_w) : 0.0) + f * 0.35, baseline);
      _latent_figure_show_text (cr, value);
    }
  cairo_restore (cr);
  return used;
}

/* The kernel figure ---------------------------------------------------------- */

/* Whether the kernel is a column times a row, by the singular values of the
 * same LAPACK call the engine makes, so figure and engine agree. */
/* "sum 1 · separable (rank 1)": what a person asks of a kernel. */
static char *
kernel_facts (LatentSnapshot *snapshot)
{
  const LatentFilterPart *part = &snapshot->filter;
  const guint size = part->kernel_size;
  g_autofree char *sum_text = NULL;
  gboolean finite = TRUE;
  double sum = 0.0;

  for (guint i = 0; i < size * size; i++)
    {
      sum += part->kernel[i];
      finite = finite && isfinite (part->kernel[i]);
    }
  sum_text = _latent_figure_kernel_weight_label (sum);
  if (!finite)
    return g_strdup_printf (_("sum of the weights %s"), sum_text);
  if (size > 1 && part->kernel_separable)
    /* Translators: a kernel that is a column times a row, e.g. "a 13-tap column times a 13-tap row". */
    return g_strdup_printf (_("sum of the weights %s · separable: a %u-tap column times a %u-tap row"),
                            sum_text, size, size);
  if (size > 1)
    return g_strdup_printf (_("sum of the weights %s · not separable"), sum_text);
  return g_strdup_printf (_("sum of the weights %s"), sum_text);
}

static void
_latent_figure_kernel_draw (LatentSnapshot          *snapshot,
                            const LatentFigureStyle *style,
                            cairo_t                 *cr,
                            double                   top,
                            int                      width,
                            int                      height)
{
  const LatentFilterPart *part = &snapshot->filter;
  const double f = MAX (style->font_size, 1.0);
  g_autofree char *heading = NULL, *facts = NULL, *low = NULL, *high = NULL;
  double avail_w, avail_h, side, cell, x0, y0, bar_w, bar_h, right_w, label_w, scale;
  gboolean beside;
  guint size, every = 1;
  char buf[32];

  cairo_save (cr);
  if (part->kernel == NULL || part->kernel_size == 0)
    {
      _latent_figure_message (cr, style, width, height, _("No kernel in this snapshot yet"));
      goto out;
    }
  size = part->kernel_size;
  scale = _latent_figure_kernel_scale (part->kernel, size);
  heading = _latent_figure_kernel_heading (snapshot);
  facts = kernel_facts (snapshot);
  low = _latent_figure_kernel_weight_label (-scale);
  high = _latent_figure_kernel_weight_label (scale);

  /* The timings beside the kernel on a wide figure, under it on a tall one. */
  _latent_figure_set_font (cr, style, 0.85, FALSE);
  g_snprintf (buf, sizeof buf, "−%u", size / 2);
  label_w = _latent_figure_text_width (cr, buf) + f * 0.5;
  bar_w = round (f * 0.9);
  right_w = round (CLAMP (width * 0.3, f * 13.0, f * 22.0));
  beside = width - right_w > (height - top) * 1.05;
  avail_w = (beside ? width - right_w - f * 2.0 : width - 2.0 * f) - label_w - bar_w - f * 4.5;
  /* Under the cells: their offsets, then a line of facts. */
  avail_h = height - (top + f * 2.0) - f * 4.2
            - (beside ? 0.0 : _latent_figure_filter_timings_height (snapshot, style) + f);
  side = MIN (avail_w, avail_h);
  /* A 3 × 3 kernel as nine plates would look like something else. */
  cell = MIN (floor (side / size), round (f * 9.0));
  if (cell < 1.0)
    {
      _latent_figure_message (cr, style, width, height, _("Too small to draw the kernel"));
      goto out;
    }
  side = cell * size;
  x0 = round (f + label_w + (avail_w - side) / 2.0);
  y0 = round (top + f * 2.0);

  /* The large figure has the width for one line. */
  _latent_figure_filter_heading (cr, style, f, top + f * 0.8, width - 2.0 * f, heading);
  _latent_figure_kernel_cells (cr, style, part->kernel, size, x0, y0, cell, TRUE);

  /* Offsets from the centre along both axes, as many as fit. */
  _latent_figure_set_font (cr, style, 0.85, FALSE);
  _latent_figure_set_color_mix (cr, style, 0.7);
  while (every * cell < f * 1.3)
    every++;
  for (guint k = 0; k < size; k++)
    {
      int offset = (int) k - (int) (size / 2);
      double w;

      if (offset % (int) every != 0)
        continue;
      if (offset < 0)
        g_snprintf (buf, sizeof buf, "−%d", -offset);
      else
        g_snprintf (buf, sizeof buf, "%d", offset);
      w = _latent_figure_text_width (cr, buf);
      cairo_move_to (cr, x0 - f * 0.4 - w, y0 + (k + 0.5) * cell + f * 0.3);
      _latent_figure_show_text (cr, buf);
      cairo_move_to (cr, x0 + (k + 0.5) * cell - w / 2.0, y0 + side + f * 1.2);
      _latent_figure_show_text (cr, buf);
    }
  bar_h = CLAMP (side, f * 4.0, f * 14.0);
  _latent_figure_colorbar (cr, style, x0 + side + f * 1.2, y0 + MAX (0.0, (side - bar_h) / 2.0), bar_w, bar_h,
                           low, "0", high);

  cairo_save (cr);
  _latent_figure_set_font (cr, style, 0.9, FALSE);
  _latent_figure_set_color_mix (cr, style, 0.7);
  cairo_move_to (cr, f, y0 + side + f * 3.0);
  if (_latent_figure_text_width (cr, facts) <= width - 2.0 * f)
    _latent_figure_show_text (cr, facts);
  cairo_restore (cr);

  if (beside)
    _latent_figure_filter_timings (cr, style, snapshot, width - right_w - f, y0, right_w, height - y0 - f);
  else
    _latent_figure_filter_timings (cr, style, snapshot, f, y0 + side + f * 4.2, MIN (width - 2.0 * f, f * 28.0),
                                   height - (y0 + side + f * 4.2) - f * 0.5);

out:
  cairo_restore (cr);
}

const LatentFigureKindRow _latent_figure_kernel_kinds[] = {
  { .kind = LATENT_FIGURE_KERNEL,
    .title = N_("Kernel"),
    .draw = _latent_figure_kernel_draw,
    .only_some = TRUE },
  { .kind = LATENT_FIGURE_AUTO }
};
