/* latent-figure-draw.c — what every figure draws the same way: styles,
 * text, what a snapshot is and how a person names it (the run's title, a
 * filter and its method, a linear model's components), headers, messages
 * and axes
 *
 * The lowest of the figure files: it calls no other.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-figure-draw"

#include "latent-figure-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#define FONT_FAMILY "sans-serif"

void
latent_figure_style_init (LatentFigureStyle *style)
{
  g_return_if_fail (style != NULL);

  /* Every field not named is 0, FALSE or NULL: the defaults. */
  *style = (LatentFigureStyle) { .font_size = 13.0, .voronoi = TRUE, .split = -1.0 };
}

void
latent_figure_style_get_background (const LatentFigureStyle *style,
                                    double                  *r,
                                    double                  *g,
                                    double                  *b)
{
  gboolean dark = style != NULL && style->dark;

  *r = dark ? 0x1e / 255.0 : 1.0;
  *g = dark ? 0x1e / 255.0 : 1.0;
  *b = dark ? 0x20 / 255.0 : 1.0;
}

void
latent_figure_style_get_foreground (const LatentFigureStyle *style,
                                    double                  *r,
                                    double                  *g,
                                    double                  *b)
{
  gboolean dark = style != NULL && style->dark;

  *r = dark ? 0.92 : 0.14;
  *g = dark ? 0.92 : 0.14;
  *b = dark ? 0.92 : 0.16;
}

cairo_t *
_latent_figure_measure_context (const LatentFigureStyle *style)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cairo_t *cr = cairo_create (surface);

  cairo_surface_destroy (surface);
  _latent_figure_set_font (cr, style, 1.0, FALSE);
  return cr;
}

void
_latent_figure_set_font (cairo_t                 *cr,
                         const LatentFigureStyle *style,
                         double                   scale,
                         gboolean                 bold)
{
  cairo_select_font_face (cr, FONT_FAMILY, CAIRO_FONT_SLANT_NORMAL,
                          bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, MAX (style->font_size, 1.0) * scale);
}

void
_latent_figure_paint_background (cairo_t                 *cr,
                                 const LatentFigureStyle *style,
                                 int                      width,
                                 int                      height)
{
  double r, g, b;

  latent_figure_style_get_background (style, &r, &g, &b);
  cairo_save (cr);
  cairo_set_source_rgb (cr, r, g, b);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);
  cairo_restore (cr);
}

void
_latent_figure_set_color_mix (cairo_t                 *cr,
                              const LatentFigureStyle *style,
                              double                   strength)
{
  double fr, fg, fb, br, bg, bb;

  latent_figure_style_get_foreground (style, &fr, &fg, &fb);
  latent_figure_style_get_background (style, &br, &bg, &bb);
  cairo_set_source_rgb (cr, br + (fr - br) * strength, bg + (fg - bg) * strength,
                        bb + (fb - bb) * strength);
}

void
_latent_figure_nice_ticks (double             lo,
                           double             hi,
                           double             target,
                           LatentFigureTicks *ticks)
{
  double raw = (hi - lo) / MAX (target, 1.0);
  double magnitude = pow (10.0, floor (log10 (raw)));
  double step, first;
  static const double steps[] = { 1.0, 2.0, 2.5, 5.0, 10.0 };

  ticks->n = 0;
  ticks->decimals = 0;
  if (!(raw > 0.0) || !isfinite (raw) || !isfinite (lo))
    return;

  /* The first nice step at least RAW that leaves no more marks than fit:
   * a dense target would otherwise lose the marks nearest HI. */
  step = magnitude * 10.0;
  for (guint i = 0; i < 3 * G_N_ELEMENTS (steps); i++)
    {
      double s = magnitude * steps[i % G_N_ELEMENTS (steps)] * pow (10.0, i / G_N_ELEMENTS (steps));

      if (s >= raw && floor (hi / s + 1e-9) - ceil (lo / s - 1e-9) < _LATENT_FIGURE_MAX_TICKS)
        {
          step = s;
          break;
        }
    }

  ticks->decimals = MAX (0, (int) -floor (log10 (step) + 1e-9));
  /* 0.25 and 2.5 need one more decimal; 25 and 2500 none. */
  magnitude = pow (10.0, floor (log10 (step) + 1e-9));
  if (fabs (step / magnitude - 2.5) < 1e-9 && magnitude < 1.5)
    ticks->decimals++;
  if (!(step > 0.0) || !isfinite (step))
    return;
  first = ceil (lo / step - 1e-9);
  for (guint i = 0; i < _LATENT_FIGURE_MAX_TICKS; i++)
    {
      double v = (first + i) * step;
      if (v > hi + step * 1e-9)
        break;
      /* Avoid "-0" from rounding noise. */
      ticks->values[ticks->n++] = fabs (v) < step * 1e-9 ? 0.0 : v;
    }
}

void
_latent_figure_format_tick (double  value,
                            int     decimals,
                            char   *buf,
                            gsize   size)
{
  char tmp[G_ASCII_DTOSTR_BUF_SIZE];

  /* In the locale's digits, as the figure's other numbers ("2,5" in
   * German): a figure is read, not parsed. */
  if (fabs (value) >= 1e6)
    g_snprintf (tmp, sizeof tmp, "%.3g", value);
  else
    g_snprintf (tmp, sizeof tmp, "%.*f", decimals, value);
  /* A typographic minus lines up with the digits. */
  if (tmp[0] == '-')
    g_snprintf (buf, size, "−%s", tmp + 1);
  else
    g_strlcpy (buf, tmp, size);
}

double
_latent_figure_text_width (cairo_t    *cr,
                           const char *text)
{
  cairo_text_extents_t ext;

  cairo_text_extents (cr, text, &ext);
  return ext.x_advance;
}

void
_latent_figure_halo_text (cairo_t                 *cr,
                          const LatentFigureStyle *style,
                          double                   x,
                          double                   y,
                          const char              *text)
{
  double br, bg, bb;

  latent_figure_style_get_background (style, &br, &bg, &bb);
  cairo_move_to (cr, x, y);
  _latent_figure_show_halo_text (cr, text, br, bg, bb, 0.85, 3.0);
}

/* What a snapshot is, and its names as a person says them -------------------- */

gboolean
latent_figure_is_filter (LatentSnapshot *snapshot)
{
  g_return_val_if_fail (snapshot != NULL, FALSE);
  return snapshot->filter.image != NULL || latent_snapshot_get_family (snapshot) == LATENT_FAMILY_FILTER;
}

gboolean
_latent_figure_is_linear (LatentSnapshot *snapshot)
{
  return latent_snapshot_get_family (snapshot) == LATENT_FAMILY_LINEAR;
}

gboolean
_latent_figure_dataset_has_image_rows (LatentDataset *dataset)
{
  guint w, h, c;
  gboolean single;

  if (dataset == NULL || !latent_dataset_get_image_shape (dataset, &w, &h, &c, &single))
    return FALSE;
  return !single && (guint64) w * h * c == latent_dataset_get_n_cols (dataset);
}

/* Classifiers' names and marks --------------------------------------------- */

char *
latent_figure_dup_class_name (LatentSnapshot *snapshot,
                              guint           klass)
{
  LatentDataset *sets[2];

  g_return_val_if_fail (snapshot != NULL, NULL);

  /* The test set matches the training set's classes by name, so either
   * names them. */
  sets[0] = snapshot->dataset;
  sets[1] = snapshot->classifier.test_dataset;
  for (guint i = 0; i < G_N_ELEMENTS (sets); i++)
    if (sets[i] != NULL && klass < latent_dataset_get_n_classes (sets[i]))
      {
        const char *name = latent_dataset_get_class_name (sets[i], klass);

        if (name != NULL && *name != '\0')
          return g_strdup (name);
      }
  return g_strdup_printf ("%u", klass);
}

gboolean
_latent_figure_classifier_has_model (LatentSnapshot *snapshot)
{
  return latent_snapshot_get_family (snapshot) == LATENT_FAMILY_CLASSIFIER && snapshot->classifier.n_classes > 0
         && (_latent_figure_linear_has_components (snapshot) ||
             (snapshot->classifier.n_layers > 0 && snapshot->classifier.network != NULL));
}

gint32
_latent_figure_test_label (LatentSnapshot *snapshot,
                           guint           i)
{
  const LatentClassifierPart *part = &snapshot->classifier;
  LatentDataset *test = part->test_dataset;
  gint32 row;

  if (test == NULL || part->test_rows == NULL || i >= part->n_test || !latent_dataset_has_labels (test))
    return -1;
  row = part->test_rows[i];
  if (row < 0 || (guint) row >= latent_dataset_get_n_rows (test))
    return -1;
  return latent_dataset_get_labels (test)[row];
}

double
_latent_figure_legend_entry (cairo_t                 *cr,
                             const LatentFigureStyle *style,
                             double                   x,
                             double                   baseline,
                             double                   right,
                             double                   r,
                             double                   g,
                             double                   b,
                             const char              *name)
{
  const double f = MAX (style->font_size, 1.0), swatch = round (f * 0.8);
  double w;

  cairo_save (cr);
  _latent_figure_set_font (cr, style, 0.9, FALSE);
  w = swatch + f * 0.4 + _latent_figure_text_width (cr, name);
  /* What does not fit is left out, not cut. */
  if (x + w > right)
    {
      cairo_restore (cr);
      return x;
    }
  cairo_set_source_rgb (cr, r, g, b);
  cairo_rectangle (cr, x, baseline - swatch, swatch, swatch);
  cairo_fill (cr);
  _latent_figure_set_color_mix (cr, style, 0.85);
  cairo_move_to (cr, x + swatch + f * 0.4, baseline);
  _latent_figure_show_text (cr, name);
  cairo_restore (cr);
  return x + w + f * 1.2;
}

void
_latent_figure_cross (cairo_t *cr,
                      double   x,
                      double   y,
                      double   size,
                      double   line)
{
  double h = size / 2.0;

  cairo_save (cr);
  cairo_set_line_width (cr, line);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  cairo_move_to (cr, x - h, y - h);
  cairo_line_to (cr, x + h, y + h);
  cairo_move_to (cr, x + h, y - h);
  cairo_line_to (cr, x - h, y + h);
  cairo_stroke (cr);
  cairo_restore (cr);
}

char *
latent_figure_dup_title (LatentSnapshot *snapshot)
{
  const LatentClassifierPart *part = &snapshot->classifier;
  GString *s;

  g_return_val_if_fail (snapshot != NULL, NULL);

  s = g_string_new (_(snapshot->algorithm->short_title));
  if (latent_figure_is_filter (snapshot))
    {
      g_autofree char *filter = latent_filters_describe (snapshot);
      guint passes = latent_filters_passes (snapshot);

      if (filter)
        g_string_append_printf (s, " · %s", filter);
      /* Every pass is an iteration; "converged" would say nothing more. */
      if (passes > 0)
        g_string_append_printf (s, _(" · pass %u of %u"), snapshot->iteration, passes);
      else
        g_string_append_printf (s, _(" · pass %u"), snapshot->iteration);
      return g_string_free (s, FALSE);
    }
  if (latent_snapshot_get_family (snapshot) == LATENT_FAMILY_AUTOENCODER)
    {
      /* Training counts mini-batches; an epoch is the one a step is in. */
      const LatentEpochs *epochs = &snapshot->autoencoder.epochs;
      guint steps = epochs->step_loss != NULL ? epochs->n_steps : snapshot->iteration;
      guint epoch = epochs->n_epochs;

      if (epochs->steps_per_epoch > 0)
        epoch = MAX (epoch, (steps + epochs->steps_per_epoch - 1) / epochs->steps_per_epoch);
      if (snapshot->autoencoder.n_units > 0)
        g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, " · %u unit", " · %u units",
                                                snapshot->autoencoder.n_units),
                                snapshot->autoencoder.n_units);
      if (epoch > 0)
        g_string_append_printf (s, _(" · epoch %u"), epoch);
      g_string_append_printf (s, _(" · step %u"), steps);
      return g_string_free (s, FALSE);
    }
  if (latent_snapshot_get_family (snapshot) == LATENT_FAMILY_CLASSIFIER)
    {
      /* A classifier counts what it learns in: epochs, or episodes. */
      if (part->n_episodes > 0)
        g_string_append_printf (s, _(" · episode %u"), part->n_episodes);
      else if (part->epochs.n_epochs > 0)
        g_string_append_printf (s, _(" · epoch %u"), part->epochs.n_epochs);
      else
        g_string_append_printf (s, _(" · iteration %u"), snapshot->iteration);
      if (snapshot->converged)
        g_string_append (s, _(" · converged"));
      return g_string_free (s, FALSE);
    }
  if (snapshot->clusters.k > 0)
    g_string_append_printf (s, " · K = %u", snapshot->clusters.k);
  else if (snapshot->linear.components != NULL && snapshot->linear.n_components > 0
           && latent_algorithm_has_flag (snapshot->algorithm, LATENT_ALGORITHM_FACTORS))
    g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, " · %u factor", " · %u factors",
                                            snapshot->linear.n_components),
                            snapshot->linear.n_components);
  else if (snapshot->linear.components != NULL && snapshot->linear.n_components > 0)
    g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, " · %u component", " · %u components",
                                            snapshot->linear.n_components),
                            snapshot->linear.n_components);
  g_string_append_printf (s, _(" · iteration %u"), snapshot->iteration);
  if (snapshot->converged)
    g_string_append (s, _(" · converged"));
  /* The end without convergence: the iteration limit stopped it. */
  else if (snapshot->final)
    g_string_append (s, _(" · stopped at the limit"));
  return g_string_free (s, FALSE);
}

/* Linear models' names (PCA, PPCA, FA) ----------------------------------------- */

gboolean
_latent_figure_linear_is_fa (LatentSnapshot *snapshot)
{
  return latent_algorithm_has_flag (snapshot->algorithm, LATENT_ALGORITHM_FACTORS);
}

gboolean
_latent_figure_linear_whitened (LatentSnapshot *snapshot)
{
  return snapshot->linear.whitened;
}

double
_latent_figure_linear_ratio (LatentSnapshot *snapshot,
       guint           index)
{
  if (snapshot->linear.explained_variance_ratio == NULL || index >= snapshot->linear.n_components)
    return NAN;
  return snapshot->linear.explained_variance_ratio[index];
}

char *
_latent_figure_linear_axis_label (LatentSnapshot *snapshot,
                                  guint           axis,
                                  gboolean        own)
{
  double r = 100.0 * _latent_figure_linear_ratio (snapshot, axis);
  gboolean fa = _latent_figure_linear_is_fa (snapshot);

  /* Whole sentences, so each language orders them its own way. */
  if (own && _latent_figure_linear_whitened (snapshot))
    return isfinite (r) ? g_strdup_printf (_("Component %u (%.1f %%, whitened)"), axis + 1, r)
                        : g_strdup_printf (_("Component %u (whitened)"), axis + 1);
  if (fa)
    return isfinite (r) ? g_strdup_printf (_("Factor %u (%.1f %%)"), axis + 1, r)
                        : g_strdup_printf (_("Factor %u"), axis + 1);
  return isfinite (r) ? g_strdup_printf (_("Component %u (%.1f %%)"), axis + 1, r)
                      : g_strdup_printf (_("Component %u"), axis + 1);
}

char *
_latent_figure_linear_component_name (LatentSnapshot *snapshot,
                                      guint           index)
{
  const char *name = snapshot->algorithm->component_name;

  /* The algorithm names its components ("PC %u"), from its own catalogue
   * entry; a model without a name for them gets PCA's. */
  if (name == NULL)
    return g_strdup_printf (_("PC %u"), index + 1);
  return g_strdup_printf (_(name), index + 1);
}

char *
_latent_figure_linear_component_caption (LatentSnapshot *snapshot,
                                         guint           index)
{
  g_autofree char *name = _latent_figure_linear_component_name (snapshot, index);
  double r = _latent_figure_linear_ratio (snapshot, index);

  if (!isfinite (r))
    return g_steal_pointer (&name);
  return g_strdup_printf ("%s · %.1f %%", name, 100.0 * r);
}

gboolean
_latent_figure_linear_has_components (LatentSnapshot *snapshot)
{
  guint n;

  /* Whichever rows the family calls components: a linear model's, an
   * autoencoder's weights, a classifier's rows per class. */
  return latent_family_components (snapshot, &n) != NULL && n > 0 && snapshot->dataset != NULL
         && (snapshot->n_cols == 0 || snapshot->n_cols == latent_dataset_get_n_cols (snapshot->dataset));
}

/* Headers ------------------------------------------------------------------ */

static char *
dataset_line (LatentSnapshot *snapshot)
{
  LatentDataset *dataset = snapshot->dataset;
  GString *s = g_string_new (latent_dataset_get_name (dataset));
  guint width, height, channels;
  gboolean single = FALSE;

  /* A photograph is a size, not a count of points. */
  if (latent_dataset_get_image_shape (dataset, &width, &height, &channels, &single) && single)
    g_string_append_printf (s, " · %u × %u", width, height);
  else
    g_string_append_printf (s, _(" · %u points × %u dimensions"),
                            latent_dataset_get_n_rows (dataset),
                            latent_dataset_get_n_cols (dataset));
  latent_family_describe_header (snapshot, s);
  return g_string_free (s, FALSE);
}

/* @text cut to @room with an ellipsis, so a narrow figure shows how its
 * lines begin rather than losing their ends off the edge unannounced. */
static char *
fit_text (cairo_t    *cr,
          const char *text,
          double      room)
{
  cairo_text_extents_t ext;
  glong n = g_utf8_strlen (text, -1);

  cairo_text_extents (cr, text, &ext);
  if (ext.x_advance <= room)
    return g_strdup (text);
  while (n-- > 1)
    {
      g_autofree char *head = g_utf8_substring (text, 0, n);
      g_autofree char *cut = g_strconcat (g_strchomp (head), "…", NULL);

      cairo_text_extents (cr, cut, &ext);
      if (ext.x_advance <= room)
        return g_steal_pointer (&cut);
    }
  return g_strdup ("…");
}

/* One line under the title, when there is something to say; the new y. */
static double
subtitle_line (cairo_t                 *cr,
               const LatentFigureStyle *style,
               double                   font,
               int                      width,
               double                   y,
               const char              *text,
               double                   strength)
{
  if (text == NULL)
    return y;
  y += font;
  if (cr != NULL)
    {
      g_autofree char *fitted = NULL;

      _latent_figure_set_font (cr, style, 1.0, FALSE);
      _latent_figure_set_color_mix (cr, style, strength);
      fitted = fit_text (cr, text, width - 2.0 * font);
      cairo_move_to (cr, font, y);
      _latent_figure_show_text (cr, fitted);
    }
  return y + font * 0.4;
}

double
_latent_figure_heading (cairo_t                 *cr,
                        const LatentFigureStyle *style,
                        int                      width,
                        const char              *title,
                        const char              *line,
                        const char              *second_line)
{
  const double font = MAX (style->font_size, 1.0);
  double y = font;

  if (cr != NULL)
    cairo_save (cr);

  /* Baselines sit one ascent below each line's top. */
  y += font * 1.3;
  if (cr != NULL)
    {
      g_autofree char *fitted = NULL;

      _latent_figure_set_font (cr, style, 1.3, TRUE);
      _latent_figure_set_color_mix (cr, style, 1.0);
      fitted = fit_text (cr, title, width - 2.0 * font);
      cairo_move_to (cr, font, y);
      _latent_figure_show_text (cr, fitted);
    }
  y += font * 0.45;

  y = subtitle_line (cr, style, font, width, y, line, 0.7);
  y = subtitle_line (cr, style, font, width, y, second_line, 0.85);

  if (cr != NULL)
    cairo_restore (cr);
  return y + font * 0.6;
}

double
_latent_figure_header (cairo_t                 *cr,
                       LatentSnapshot          *snapshot,
                       const LatentFigureStyle *style,
                       int                      width,
                       const char              *figure)
{
  g_autofree char *run_title = latent_figure_dup_title (snapshot);
  g_autofree char *title = figure ? g_strdup_printf ("%s · %s", figure, run_title) : g_strdup (run_title);
  g_autofree char *data_line = NULL;
  g_autofree char *metrics_line = NULL;

  if (snapshot->dataset != NULL)
    data_line = dataset_line (snapshot);
  if (snapshot->has_label_metrics)
    metrics_line = g_strdup_printf (_("accuracy %.2f · ARI %.2f · NMI %.2f"),
                                    snapshot->metrics.accuracy, snapshot->metrics.ari,
                                    snapshot->metrics.nmi);
  return _latent_figure_heading (cr, style, width, title, data_line, metrics_line);
}

static GPtrArray *
wrap_words (cairo_t    *cr,
            const char *text,
            double      room)
{
  g_auto(GStrv) words = g_strsplit (text, " ", -1);
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) line = g_string_new (NULL);

  for (guint i = 0; words[i] != NULL; i++)
    {
      g_autofree char *longer = line->len ? g_strconcat (line->str, " ", words[i], NULL) : g_strdup (words[i]);
      cairo_text_extents_t ext;

      cairo_text_extents (cr, longer, &ext);
      if (ext.x_advance > room && line->len > 0)
        {
          g_ptr_array_add (lines, g_strdup (line->str));
          g_string_assign (line, words[i]);
        }
      else
        g_string_assign (line, longer);
    }
  if (line->len > 0)
    g_ptr_array_add (lines, g_strdup (line->str));
  return lines;
}
void
_latent_figure_message (cairo_t                 *cr,
                        const LatentFigureStyle *style,
                        int                      width,
                        int                      height,
                        const char              *message)
{
  const double f = MAX (style->font_size, 1.0), line = f * 1.4;
  g_autoptr(GPtrArray) lines = NULL;
  double y;

  cairo_save (cr);
  _latent_figure_set_font (cr, style, 1.0, FALSE);
  _latent_figure_set_color_mix (cr, style, 0.6);
  /* Centred as a block, wrapped to the figure's width. */
  lines = wrap_words (cr, message, width - 2.0 * f);
  y = (height - line * lines->len) / 2.0 + f;
  for (guint i = 0; i < lines->len; i++, y += line)
    {
      const char *text = g_ptr_array_index (lines, i);
      cairo_text_extents_t ext;

      cairo_text_extents (cr, text, &ext);
      cairo_move_to (cr, (width - ext.x_advance) / 2.0, y);
      _latent_figure_show_text (cr, text);
    }
  cairo_restore (cr);
}

/* Axes ------------------------------------------------------------------- */

GStrv
_latent_figure_tick_labels (const LatentFigureTicks *ticks,
                            LatentFigureTickFormat   format)
{
  GStrv labels = g_new0 (char *, ticks->n + 1);
  char buf[64];

  if (format == NULL)
    format = _latent_figure_format_tick;
  for (guint i = 0; i < ticks->n; i++)
    {
      format (ticks->values[i], ticks->decimals, buf, sizeof buf);
      labels[i] = g_strdup (buf);
    }
  return labels;
}

void
_latent_figure_axes_init (LatentFigureAxes        *axes,
                          const LatentFigureStyle *style,
                          double                   x,
                          double                   y,
                          double                   width,
                          double                   height)
{
  const double f = MAX (style->font_size, 1.0);

  memset (axes, 0, sizeof *axes);
  axes->x = x;
  axes->y = y;
  axes->width = width;
  axes->height = height;
  axes->tick = f * 0.4;
  axes->label_scale = 0.9;
  axes->label_rise = 0.35;
}

/* Lines sit on pixel centres, so one unit wide they stay sharp. */
static inline double
crisp (double at)
{
  return floor (at) + 0.5;
}

void
_latent_figure_draw_grid (cairo_t                 *cr,
                          const LatentFigureStyle *style,
                          const LatentFigureAxes  *axes)
{
  const LatentFigureAxis *bottom = &axes->bottom, *left = &axes->left, *right = &axes->right;

  cairo_save (cr);
  cairo_set_line_width (cr, 1.0);
  _latent_figure_set_color_mix (cr, style, 0.08);
  for (guint i = 0; bottom->grid && i < bottom->n; i++)
    {
      cairo_move_to (cr, crisp (bottom->at[i]), axes->y);
      cairo_line_to (cr, crisp (bottom->at[i]), axes->y + axes->height);
    }
  for (guint i = 0; left->grid && i < left->n; i++)
    {
      cairo_move_to (cr, axes->x, crisp (left->at[i]));
      cairo_line_to (cr, axes->x + axes->width, crisp (left->at[i]));
    }
  for (guint i = 0; right->grid && i < right->n; i++)
    {
      cairo_move_to (cr, axes->x, crisp (right->at[i]));
      cairo_line_to (cr, axes->x + axes->width, crisp (right->at[i]));
    }
  cairo_stroke (cr);
  cairo_restore (cr);
}

void
_latent_figure_draw_axes (cairo_t                 *cr,
                          const LatentFigureStyle *style,
                          const LatentFigureAxes  *axes)
{
  const double f = MAX (style->font_size, 1.0), tick = axes->tick;
  const double right = axes->x + axes->width, bottom = axes->y + axes->height;
  const LatentFigureAxis *l = &axes->left, *r = &axes->right, *b = &axes->bottom;
  cairo_text_extents_t ext;

  cairo_save (cr);
  cairo_set_line_width (cr, 1.0);
  _latent_figure_set_color_mix (cr, style, 0.45);
  cairo_rectangle (cr, axes->x - 0.5, axes->y - 0.5, axes->width + 1.0, axes->height + 1.0);
  for (guint i = 0; tick > 0.0 && i < b->n; i++)
    {
      cairo_move_to (cr, crisp (b->at[i]), bottom + 0.5);
      cairo_rel_line_to (cr, 0, tick);
    }
  for (guint i = 0; tick > 0.0 && i < l->n; i++)
    {
      cairo_move_to (cr, axes->x - 0.5, crisp (l->at[i]));
      cairo_rel_line_to (cr, -tick, 0);
    }
  for (guint i = 0; tick > 0.0 && i < r->n; i++)
    {
      cairo_move_to (cr, right + 0.5, crisp (r->at[i]));
      cairo_rel_line_to (cr, tick, 0);
    }
  cairo_stroke (cr);

  _latent_figure_set_font (cr, style, axes->label_scale, FALSE);
  _latent_figure_set_color_mix (cr, style, 0.75);
  for (guint i = 0; l->labels && i < l->n; i++)
    {
      if (l->labels[i] == NULL)
        continue;
      cairo_text_extents (cr, l->labels[i], &ext);
      cairo_move_to (cr, axes->x - tick - f * 0.3 - ext.x_advance, l->at[i] + f * axes->label_rise);
      _latent_figure_show_text (cr, l->labels[i]);
    }
  for (guint i = 0; r->labels && i < r->n; i++)
    {
      if (r->labels[i] == NULL)
        continue;
      cairo_move_to (cr, right + tick + f * 0.3, r->at[i] + f * axes->label_rise);
      _latent_figure_show_text (cr, r->labels[i]);
    }
  for (guint i = 0; b->labels && i < b->n; i++)
    {
      if (b->labels[i] == NULL)
        continue;
      cairo_text_extents (cr, b->labels[i], &ext);
      cairo_move_to (cr, b->at[i] - ext.x_advance / 2.0, bottom + tick + f * 1.2);
      _latent_figure_show_text (cr, b->labels[i]);
    }

  _latent_figure_set_font (cr, style, 1.0, FALSE);
  _latent_figure_set_color_mix (cr, style, 0.9);
  if (b->title != NULL)
    {
      cairo_text_extents (cr, b->title, &ext);
      cairo_move_to (cr, axes->x + (axes->width - ext.x_advance) / 2.0, bottom + tick + f * 1.2 + f * 1.6);
      _latent_figure_show_text (cr, b->title);
    }
  if (l->title != NULL)
    {
      cairo_save (cr);
      cairo_text_extents (cr, l->title, &ext);
      cairo_move_to (cr, f * 1.9, axes->y + (axes->height + ext.x_advance) / 2.0);
      cairo_rotate (cr, -G_PI / 2.0);
      _latent_figure_show_text (cr, l->title);
      cairo_restore (cr);
    }
  if (r->title != NULL)
    {
      /* Turned the other way, reading down the right side. */
      cairo_text_extents (cr, r->title, &ext);
      cairo_move_to (cr, right + tick + f * 0.3 + r->room + f * 0.5, axes->y + (axes->height - ext.x_advance) / 2.0);
      cairo_rotate (cr, G_PI / 2.0);
      _latent_figure_show_text (cr, r->title);
    }
  cairo_restore (cr);
}
