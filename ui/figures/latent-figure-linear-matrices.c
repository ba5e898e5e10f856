/* latent-figure-linear-matrices.c — PCA, PPCA and FA as matrices: the
 * loadings (components × columns) and the cosines between components, as
 * annotated heat maps on the diverging colour map; the heat map itself is
 * shared with an autoencoder's weights
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-figure-linear-matrices"

#include "latent-figure-private.h"
#include "latent-palette.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* A heat map narrower or shorter than this is not drawn. */
#define MIN_MATRIX_SIZE 20.0
/* Values are printed in the cosine matrix up to this many components. */
#define MAX_ANNOTATED_DOTS 12

static void
heatmap_clear (LatentFigureHeatmap *hm)
{
  g_strfreev (hm->row_labels);
  g_strfreev (hm->col_labels);
  g_free (hm->bar_low);
  g_free (hm->bar_high);
}

static double
widest_label (cairo_t     *cr,
              char       **labels,
              guint        n)
{
  double widest = 0.0;

  for (guint i = 0; i < n; i++)
    widest = MAX (widest, _latent_figure_text_width (cr, labels[i]));
  return widest;
}

/* |value| at the ends of the colour map in row @i. */
static double
row_scale (const LatentFigureHeatmap *hm,
           guint                      i)
{
  return hm->row_scales != NULL ? hm->row_scales[i] : hm->scale;
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

/* Cairo's images are at most 32767 pixels wide. */
#define DENSE_MAX_COLS 32767

/* More columns than pixels: one pixel a cell in an image as tall as the
 * map, squeezed to its width with a filter that averages, so a run of
 * columns shows as its mean colour rather than as whichever one a pixel
 * happens to land on. */
static void
draw_dense (cairo_t                   *cr,
            const LatentFigureStyle   *style,
            const LatentFigureHeatmap *hm,
            double                     x0,
            double                     y0,
            double                     mw,
            double                     cell_h)
{
  const int h = (int) round (cell_h * hm->rows);
  cairo_surface_t *image = cairo_image_surface_create (CAIRO_FORMAT_RGB24, (int) hm->cols, MAX (h, 1));
  const int stride = cairo_image_surface_get_stride (image);
  unsigned char *data = cairo_image_surface_get_data (image);

  if (cairo_surface_status (image) != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (image);
      return;
    }
  for (guint i = 0; i < hm->rows; i++)
    {
      int y_start = (int) round (i * cell_h), y_end = (int) round ((i + 1) * cell_h);
      guint32 *row = (guint32 *) (data + (gsize) y_start * stride);

      for (guint j = 0; j < hm->cols; j++)
        row[j] = latent_palette_diverging_argb (hm->values[(gsize) i * hm->cols + j] / row_scale (hm, i),
                                                style->dark);
      for (int y = y_start + 1; y < y_end; y++)
        memcpy (data + (gsize) y * stride, row, hm->cols * sizeof (guint32));
    }
  cairo_surface_mark_dirty (image);
  _latent_figure_draw_tile (cr, image, x0, y0, mw, h, 0.0);
  cairo_surface_destroy (image);
}

gboolean
_latent_figure_heatmap_draw (cairo_t                   *cr,
                             const LatentFigureStyle   *style,
                             const LatentFigureHeatmap *hm,
                             double                     top,
                             int                        width,
                             int                        height,
                             double                    *cells)
{
  const double f = MAX (style->font_size, 1.0);
  const double bar_w = round (f * 0.9);
  double row_w, col_w, label_h, bar_space, note_h, avail_w, avail_h, cell_w, cell_h;
  double x0, y0, mw, mh, bar_h;
  gboolean rotated = FALSE, measured;
  guint row_every = 1, col_every = 1;
  char buf[64];

  /* Without a target, only the layout: text is measured on a scratch one. */
  measured = cr == NULL;
  if (measured)
    cr = _latent_figure_measure_context (style);
  _latent_figure_set_font (cr, style, 0.9, FALSE);
  row_w = widest_label (cr, hm->row_labels, hm->rows) + f * 0.6;
  col_w = widest_label (cr, hm->col_labels, hm->cols);
  bar_space = f * 1.5 + bar_w + f * 0.4
              + MAX (_latent_figure_text_width (cr, hm->bar_low), _latent_figure_text_width (cr, hm->bar_high))
              + f;
  note_h = hm->note ? f * 2.0 : 0.0;
  label_h = f * 1.6;
  avail_w = width - f - row_w - bar_space;
  avail_h = height - top - f - label_h - note_h;
  cell_w = avail_w / hm->cols;
  /* Column names that do not fit across their column stand upright. */
  if (col_w + f * 0.4 > cell_w)
    {
      rotated = TRUE;
      label_h = MIN (col_w, (height - top) * 0.3) + f * 0.6;
      avail_h = height - top - f - label_h - note_h;
    }
  cell_h = avail_h / hm->rows;
  if (measured)
    {
      cairo_destroy (cr);
      if (cells != NULL)
        {
          cells[0] = f + row_w;
          cells[1] = top + label_h;
          cells[2] = cell_w;
          cells[3] = cell_h;
        }
      return avail_w >= MIN_MATRIX_SIZE && avail_h >= MIN_MATRIX_SIZE;
    }
  /* Cells narrower than a pixel are averaged down through an image. */
  if (!(cell_w > 0.0) || !(cell_h >= 1.0) || avail_w < MIN_MATRIX_SIZE || avail_h < MIN_MATRIX_SIZE ||
      (cell_w < 1.0 && hm->cols > DENSE_MAX_COLS))
    return FALSE;
  /* Square cells read as a matrix; only a very wide one gets flat cells,
   * and many rows as wide as the caller asks. */
  if (MIN (cell_w, cell_h) >= 4.0)
    {
      double side = floor (MIN (cell_w, cell_h));

      cell_w = MIN (floor (cell_w), MAX (side, hm->min_cell_width));
      cell_h = side;
    }
  mw = cell_w * hm->cols;
  mh = cell_h * hm->rows;
  x0 = round (f + row_w + (avail_w - mw) / 2.0);
  y0 = round (top + label_h + (avail_h - mh) / 2.0);
  if (cells != NULL)
    {
      cells[0] = x0;
      cells[1] = y0;
      cells[2] = cell_w;
      cells[3] = cell_h;
    }
  if (cell_h < f * 1.1)
    row_every = (guint) ceil (f * 1.1 / cell_h);
  if (!rotated && cell_w < col_w + f * 0.4)
    col_every = (guint) ceil ((col_w + f * 0.4) / cell_w);
  if (rotated && cell_w < f * 1.1)
    col_every = (guint) ceil (f * 1.1 / cell_w);

  cairo_save (cr);
  if (cell_w < 1.0)
    draw_dense (cr, style, hm, x0, y0, mw, cell_h);
  else
    for (guint i = 0; i < hm->rows; i++)
      for (guint j = 0; j < hm->cols; j++)
        {
          double v = hm->values[(gsize) i * hm->cols + j];
          double x = round (x0 + j * cell_w), y = round (y0 + i * cell_h);
          double r, g, b;

          latent_palette_diverging (v / row_scale (hm, i), style->dark, &r, &g, &b);
          cairo_set_source_rgb (cr, r, g, b);
          cairo_rectangle (cr, x, y, round (x0 + (j + 1) * cell_w) - x, round (y0 + (i + 1) * cell_h) - y);
          cairo_fill (cr);
        }
  _latent_figure_set_color_mix (cr, style, 0.45);
  cairo_set_line_width (cr, 1.0);
  cairo_rectangle (cr, x0 - 0.5, y0 - 0.5, round (mw) + 1.0, round (mh) + 1.0);
  cairo_stroke (cr);

  /* The values, where they fit. */
  if (hm->decimals >= 0)
    {
      _latent_figure_set_font (cr, style, MIN (1.0, cell_h / (f * 1.6)), FALSE);
      for (guint i = 0; i < hm->rows; i++)
        for (guint j = 0; j < hm->cols; j++)
          {
            double v = hm->values[(gsize) i * hm->cols + j];
            cairo_text_extents_t ext;

            if (!isfinite (v))
              continue;
            _latent_figure_format_tick (v, hm->decimals, buf, sizeof buf);
            cairo_text_extents (cr, buf, &ext);
            if (ext.x_advance + f * 0.3 > cell_w || cell_h < f * 1.1)
              continue;
            set_cell_text_color (cr, v / row_scale (hm, i), style->dark);
            cairo_move_to (cr, x0 + (j + 0.5) * cell_w - ext.x_advance / 2.0,
                           y0 + (i + 0.5) * cell_h - ext.y_bearing - ext.height / 2.0);
            _latent_figure_show_text (cr, buf);
          }
    }

  _latent_figure_set_font (cr, style, 0.9, FALSE);
  _latent_figure_set_color_mix (cr, style, 0.85);
  for (guint i = 0; i < hm->rows; i += row_every)
    {
      double w = _latent_figure_text_width (cr, hm->row_labels[i]);

      cairo_move_to (cr, x0 - f * 0.4 - w, y0 + (i + 0.5) * cell_h + f * 0.3);
      _latent_figure_show_text (cr, hm->row_labels[i]);
    }
  for (guint j = 0; j < hm->cols; j += col_every)
    {
      double w = _latent_figure_text_width (cr, hm->col_labels[j]);

      if (!rotated)
        {
          cairo_move_to (cr, x0 + (j + 0.5) * cell_w - w / 2.0, y0 - f * 0.5);
          _latent_figure_show_text (cr, hm->col_labels[j]);
          continue;
        }
      cairo_save (cr);
      cairo_move_to (cr, x0 + (j + 0.5) * cell_w + f * 0.3, y0 - f * 0.3);
      cairo_rotate (cr, -G_PI / 2.0);
      _latent_figure_show_text (cr, hm->col_labels[j]);
      cairo_restore (cr);
    }

  bar_h = CLAMP (mh, f * 4.0, f * 14.0);
  _latent_figure_colorbar (cr, style, x0 + mw + f * 1.5, y0 + MAX (0.0, (mh - bar_h) / 2.0), bar_w, bar_h,
                           hm->bar_low, "0", hm->bar_high);
  if (hm->note)
    {
      _latent_figure_set_font (cr, style, 0.9, FALSE);
      _latent_figure_set_color_mix (cr, style, 0.7);
      cairo_move_to (cr, x0, y0 + mh + f * 1.5);
      _latent_figure_show_text (cr, hm->note);
    }
  cairo_restore (cr);
  return TRUE;
}

static char **
component_names (LatentSnapshot *snapshot,
                 gboolean        with_ratio)
{
  char **names = g_new0 (char *, snapshot->linear.n_components + 1);

  for (guint i = 0; i < snapshot->linear.n_components; i++)
    names[i] = with_ratio ? _latent_figure_linear_component_caption (snapshot, i)
                          : _latent_figure_linear_component_name (snapshot, i);
  return names;
}

static char *
scale_label (double value)
{
  char buf[64];

  _latent_figure_format_tick (value, value >= 10.0 ? 1 : value >= 1.0 ? 2 : 3, buf, sizeof buf);
  return g_strdup (buf);
}

static void
draw_loadings (cairo_t                 *cr,
               LatentSnapshot          *snapshot,
               const LatentFigureStyle *style,
               double                   top,
               int                      width,
               int                      height)
{
  const guint m = snapshot->linear.n_components, d = latent_dataset_get_n_cols (snapshot->dataset);
  g_autofree double *values = g_new (double, (gsize) m * d);
  LatentFigureHeatmap hm = { .rows = m, .cols = d, .values = values, .decimals = 2 };
  double scale = 0.0;

  for (gsize i = 0; i < (gsize) m * d; i++)
    {
      values[i] = snapshot->linear.components[i];
      if (isfinite (values[i]))
        scale = MAX (scale, fabs (values[i]));
    }
  if (!(scale > 0.0))
    scale = 1.0;
  hm.scale = scale;
  hm.row_labels = component_names (snapshot, TRUE);
  hm.col_labels = g_new0 (char *, d + 1);
  for (guint j = 0; j < d; j++)
    hm.col_labels[j] = latent_dataset_dup_column_label (snapshot->dataset, j);
  hm.bar_low = scale_label (-scale);
  hm.bar_high = scale_label (scale);
  hm.note = _latent_figure_linear_is_fa (snapshot) ? _("Loadings: how strongly each factor moves each column")
                             : _("Loadings: each column's weight in each component");
  _latent_figure_heatmap_draw (cr, style, &hm, top, width, height, NULL);
  heatmap_clear (&hm);
}

void
_latent_figure_loadings_draw (LatentSnapshot          *snapshot,
                              const LatentFigureStyle *style,
                              cairo_t                 *cr,
                              double                   top,
                              int                      width,
                              int                      height)
{
  draw_loadings (cr, snapshot, style, top, width, height);
}

/* Cosines between components ------------------------------------------------ */

static void
_latent_figure_dots_draw (LatentSnapshot          *snapshot,
                          const LatentFigureStyle *style,
                          cairo_t                 *cr,
                          double                   top,
                          int                      width,
                          int                      height)
{
  g_autofree double *cosines = NULL;
  g_autofree double *norms = NULL;
  g_autofree char *note = NULL;
  LatentFigureHeatmap hm = { 0 };
  double worst = 0.0;
  guint m, d;

  cairo_save (cr);
  if (!_latent_figure_linear_has_components (snapshot))
    {
      _latent_figure_message (cr, style, width, height, _("No components in this snapshot yet"));
      goto out;
    }

  m = snapshot->linear.n_components;
  d = latent_dataset_get_n_cols (snapshot->dataset);
  cosines = g_new (double, (gsize) m * m);
  norms = g_new (double, m);
  for (guint i = 0; i < m; i++)
    {
      double s = 0.0;

      for (guint k = 0; k < d; k++)
        s += (double) snapshot->linear.components[(gsize) i * d + k] * snapshot->linear.components[(gsize) i * d + k];
      norms[i] = sqrt (s);
    }
  for (guint i = 0; i < m; i++)
    for (guint j = i; j < m; j++)
      {
        double s = 0.0, c;

        for (guint k = 0; k < d; k++)
          s += (double) snapshot->linear.components[(gsize) i * d + k] * snapshot->linear.components[(gsize) j * d + k];
        /* A zero component has no direction: NaN paints as neutral. */
        c = norms[i] > 0.0 && norms[j] > 0.0 ? s / (norms[i] * norms[j]) : NAN;
        cosines[(gsize) i * m + j] = cosines[(gsize) j * m + i] = c;
        if (i != j && isfinite (c))
          worst = MAX (worst, fabs (c));
      }

  hm.rows = hm.cols = m;
  hm.values = cosines;
  hm.scale = 1.0;
  hm.row_labels = component_names (snapshot, FALSE);
  hm.col_labels = component_names (snapshot, FALSE);
  hm.decimals = m <= MAX_ANNOTATED_DOTS ? 2 : -1;
  hm.bar_low = g_strdup ("−1");
  hm.bar_high = g_strdup ("1");
  if (m > 1)
    note = g_strdup_printf (_("Cosines between components · largest off the diagonal: %.3f"), worst);
  hm.note = note;
  _latent_figure_heatmap_draw (cr, style, &hm, top, width, height, NULL);
  heatmap_clear (&hm);

out:
  cairo_restore (cr);
}

const LatentFigureKindRow _latent_figure_linear_matrices_kinds[] = {
  { .kind = LATENT_FIGURE_DOTS,
    .title = N_("Component dot products"),
    .draw = _latent_figure_dots_draw,
    .applies = _latent_figure_applies_with_data,
    .only_some = TRUE },
  { .kind = LATENT_FIGURE_AUTO }
};
