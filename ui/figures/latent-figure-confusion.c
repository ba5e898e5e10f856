/* latent-figure-confusion.c — a classifier's confusion matrix: the test rows
 * counted by true class (rows) and predicted class (columns)
 *
 * Cells are shaded by their share of the true class's rows, so a rare class
 * reads as well as a common one: the diagonal is what each class gets
 * right. Counts are written in the cells while they fit; with many classes
 * (fifty and more) the shading alone stays, and the class names thin out
 * to every second or fifth. The layout is one function, shared by the
 * drawing and the window's hit test, so a pointer always finds the cell
 * drawn under it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-figure-confusion"

#include "latent-figure-private.h"
#include "latent-palette.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* Below this many pixels a side, the matrix is not drawn. */
#define MIN_MATRIX 24.0
/* Class names are at most this share of the figure's width (or height,
 * standing upright); longer ones are cut. */
#define MAX_LABEL_SHARE 0.25

typedef struct {
  guint    n;
  double   x0, y0;          /* the first cell's top left */
  double   cell;            /* a cell's side */
  double   label_room;      /* for the row names, left of the cells */
  double   col_room;        /* for the column names, under the cells */
  gboolean upright;         /* column names read upwards */
  guint    row_every;       /* a name every that many rows */
  guint    col_every;
  double   count_scale;     /* the counts' font, × the style's; 0: none */
  double   bar_x;           /* the colour bar's left */
} Layout;

static gboolean
has_confusion (LatentSnapshot *snapshot)
{
  return latent_snapshot_get_family (snapshot) == LATENT_FAMILY_CLASSIFIER && snapshot->classifier.n_classes > 0
         && snapshot->classifier.confusion != NULL;
}

static guint
row_total (LatentSnapshot *snapshot,
           guint           t)
{
  const LatentClassifierPart *part = &snapshot->classifier;
  guint total = 0;

  for (guint p = 0; p < part->n_classes; p++)
    total += part->confusion[(gsize) t * part->n_classes + p];
  return total;
}

static double
cell_share (LatentSnapshot *snapshot,
            guint           t,
            guint           p)
{
  guint total = row_total (snapshot, t);

  return total > 0 ? (double) snapshot->classifier.confusion[(gsize) t * snapshot->classifier.n_classes + p] / total : 0.0;
}

/* One hue from the background to strong blue: the share, 0 to 1. */
static void
share_color (double    share,
             gboolean  dark,
             double   *r,
             double   *g,
             double   *b)
{
  latent_palette_diverging (-CLAMP (share, 0.0, 1.0), dark, r, g, b);
}

static char **
class_names (LatentSnapshot *snapshot)
{
  char **names = g_new0 (char *, snapshot->classifier.n_classes + 1);

  for (guint c = 0; c < snapshot->classifier.n_classes; c++)
    names[c] = latent_figure_dup_class_name (snapshot, c);
  return names;
}

/* @text cut with an ellipsis to @room. */
static char *
cut_text (cairo_t    *cr,
          const char *text,
          double      room)
{
  glong n = g_utf8_strlen (text, -1);

  if (_latent_figure_text_width (cr, text) <= room)
    return g_strdup (text);
  while (n-- > 1)
    {
      g_autofree char *head = g_utf8_substring (text, 0, n);
      g_autofree char *cut = g_strconcat (head, "…", NULL);

      if (_latent_figure_text_width (cr, cut) <= room)
        return g_steal_pointer (&cut);
    }
  return g_strdup ("…");
}

static double
widest (cairo_t     *cr,
        char       **names,
        guint        n)
{
  double w = 0.0;

  for (guint i = 0; i < n; i++)
    w = MAX (w, _latent_figure_text_width (cr, names[i]));
  return w;
}

/* Every name or every 2nd, 5th, 10th…: round steps read as positions. */
static guint
round_step (guint every)
{
  if (every <= 2)
    return every;
  if (every <= 5)
    return 5;
  return (every + 9) / 10 * 10;
}

static gboolean
compute_layout (LatentSnapshot          *snapshot,
                const LatentFigureStyle *style,
                double                   top,
                int                      width,
                int                      height,
                Layout                  *layout)
{
  const double f = MAX (style->font_size, 1.0);
  const double axis_title = f * 1.6;   /* "True class", "Predicted class" */
  g_auto(GStrv) names = NULL;
  cairo_t *cr;
  double names_w, bar_space, avail_w, avail_h, y_top, count_w;
  guint largest = 0;
  char buf[32];

  memset (layout, 0, sizeof *layout);
  if (!has_confusion (snapshot))
    return FALSE;
  layout->n = snapshot->classifier.n_classes;
  names = class_names (snapshot);

  cr = _latent_figure_measure_context (style);
  _latent_figure_set_font (cr, style, 0.9, FALSE);
  names_w = widest (cr, names, layout->n);
  layout->label_room = MIN (names_w, width * MAX_LABEL_SHARE) + f * 0.5;
  _latent_figure_set_font (cr, style, 0.85, FALSE);
  bar_space = f * 1.5 + f * 0.9 + f * 0.4 + _latent_figure_text_width (cr, "100 %") + f;

  y_top = round (top + f * 0.6);
  avail_w = width - f - axis_title - layout->label_room - bar_space;
  /* Names across their columns while they fit, upright otherwise. */
  layout->col_room = f * 1.4;
  avail_h = height - y_top - f - layout->col_room - axis_title;
  layout->cell = MIN (avail_w, avail_h) / layout->n;
  if (names_w + f * 0.4 > layout->cell)
    {
      layout->upright = TRUE;
      layout->col_room = MIN (names_w, height * MAX_LABEL_SHARE) + f * 0.6;
      avail_h = height - y_top - f - layout->col_room - axis_title;
      layout->cell = MIN (avail_w, avail_h) / layout->n;
    }
  if (!(layout->cell * layout->n >= MIN_MATRIX) || layout->cell < 1.0)
    {
      cairo_destroy (cr);
      return FALSE;
    }
  /* Whole pixels a cell, so the cells line up with the pixels. */
  if (layout->cell >= 4.0)
    layout->cell = floor (layout->cell);
  layout->x0 = round (f + axis_title + layout->label_room + (avail_w - layout->cell * layout->n) / 2.0);
  layout->y0 = y_top + round ((avail_h - layout->cell * layout->n) / 2.0);
  layout->bar_x = layout->x0 + layout->cell * layout->n + f * 1.5;

  layout->row_every = layout->cell < f * 1.1 ? (guint) ceil (f * 1.1 / layout->cell) : 1;
  if (layout->upright)
    layout->col_every = layout->row_every;
  else
    layout->col_every = 1;
  layout->row_every = round_step (layout->row_every);
  layout->col_every = round_step (layout->col_every);

  /* The counts, in a font small enough for the largest, down to 0.6 of
   * the style's; past that the shading says it alone. */
  for (guint i = 0; i < layout->n * layout->n; i++)
    largest = MAX (largest, snapshot->classifier.confusion[i]);
  g_snprintf (buf, sizeof buf, "%u", largest);
  _latent_figure_set_font (cr, style, 1.0, FALSE);
  count_w = _latent_figure_text_width (cr, buf);
  layout->count_scale = MIN (1.0, MIN ((layout->cell - f * 0.3) / MAX (count_w, 1.0), layout->cell / (f * 1.5)));
  if (layout->count_scale < 0.6)
    layout->count_scale = 0.0;
  cairo_destroy (cr);
  return TRUE;
}

gboolean
latent_figure_confusion_cell_at (LatentSnapshot          *snapshot,
                                 const LatentFigureStyle *style,
                                 int                      width,
                                 int                      height,
                                 double                   x,
                                 double                   y,
                                 guint                   *true_class,
                                 guint                   *predicted)
{
  LatentFigureStyle fallback;
  Layout layout;
  double top, col, row;

  g_return_val_if_fail (snapshot != NULL, FALSE);

  if (style == NULL)
    {
      latent_figure_style_init (&fallback);
      style = &fallback;
    }
  /* Only a classifier's snapshot draws the matrix (has_confusion says so
   * below), and only on data. */
  if (snapshot->dataset == NULL)
    return FALSE;
  /* The header's height does not depend on the figure's name. */
  top = _latent_figure_header (NULL, snapshot, style, width, NULL);
  if (!compute_layout (snapshot, style, top, width, height, &layout))
    return FALSE;
  col = floor ((x - layout.x0) / layout.cell);
  row = floor ((y - layout.y0) / layout.cell);
  if (!(col >= 0.0 && col < layout.n && row >= 0.0 && row < layout.n))
    return FALSE;
  if (true_class)
    *true_class = (guint) row;
  if (predicted)
    *predicted = (guint) col;
  return TRUE;
}

/* Dark text on light cells, light text on strong ones. */
static void
set_count_color (cairo_t  *cr,
                 double    share,
                 gboolean  dark)
{
  double r, g, b;

  share_color (share, dark, &r, &g, &b);
  if (0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5)
    cairo_set_source_rgb (cr, 0.12, 0.12, 0.13);
  else
    cairo_set_source_rgb (cr, 0.97, 0.97, 0.97);
}

static void
draw_cells (cairo_t                 *cr,
            LatentSnapshot          *snapshot,
            const LatentFigureStyle *style,
            const Layout            *layout)
{
  const double side = layout->cell * layout->n;
  double r, g, b;
  char buf[32];

  cairo_save (cr);
  for (guint t = 0; t < layout->n; t++)
    for (guint p = 0; p < layout->n; p++)
      {
        double x = round (layout->x0 + p * layout->cell), y = round (layout->y0 + t * layout->cell);

        share_color (cell_share (snapshot, t, p), style->dark, &r, &g, &b);
        cairo_set_source_rgb (cr, r, g, b);
        cairo_rectangle (cr, x, y, round (layout->x0 + (p + 1) * layout->cell) - x,
                         round (layout->y0 + (t + 1) * layout->cell) - y);
        cairo_fill (cr);
      }
  /* Faint lines between cells while they are large enough to need them. */
  if (layout->cell >= 8.0)
    {
      double br, bg, bb;

      latent_figure_style_get_background (style, &br, &bg, &bb);
      cairo_set_source_rgba (cr, br, bg, bb, 0.6);
      cairo_set_line_width (cr, 1.0);
      for (guint i = 1; i < layout->n; i++)
        {
          double at = round (layout->x0 + i * layout->cell) + 0.5;

          cairo_move_to (cr, at, layout->y0);
          cairo_line_to (cr, at, layout->y0 + side);
          at = round (layout->y0 + i * layout->cell) + 0.5;
          cairo_move_to (cr, layout->x0, at);
          cairo_line_to (cr, layout->x0 + side, at);
        }
      cairo_stroke (cr);
    }
  _latent_figure_set_color_mix (cr, style, 0.45);
  cairo_set_line_width (cr, 1.0);
  cairo_rectangle (cr, layout->x0 - 0.5, layout->y0 - 0.5, round (side) + 1.0, round (side) + 1.0);
  cairo_stroke (cr);

  if (layout->count_scale > 0.0)
    {
      _latent_figure_set_font (cr, style, layout->count_scale, FALSE);
      for (guint t = 0; t < layout->n; t++)
        for (guint p = 0; p < layout->n; p++)
          {
            guint count = snapshot->classifier.confusion[(gsize) t * layout->n + p];
            cairo_text_extents_t ext;

            /* Empty cells off the diagonal are the background: a zero in
             * each would only crowd the few errors. */
            if (count == 0 && t != p)
              continue;
            g_snprintf (buf, sizeof buf, "%u", count);
            cairo_text_extents (cr, buf, &ext);
            set_count_color (cr, cell_share (snapshot, t, p), style->dark);
            cairo_move_to (cr, layout->x0 + (p + 0.5) * layout->cell - ext.x_advance / 2.0,
                           layout->y0 + (t + 0.5) * layout->cell - ext.y_bearing - ext.height / 2.0);
            _latent_figure_show_text (cr, buf);
          }
    }
  cairo_restore (cr);
}

static void
draw_names (cairo_t                 *cr,
            LatentSnapshot          *snapshot,
            const LatentFigureStyle *style,
            const Layout            *layout)
{
  const double f = MAX (style->font_size, 1.0), side = layout->cell * layout->n;
  g_auto(GStrv) names = class_names (snapshot);
  const char *true_title = _("True class"), *predicted_title = _("Predicted class");
  double w;

  cairo_save (cr);
  _latent_figure_set_font (cr, style, 0.9, FALSE);
  _latent_figure_set_color_mix (cr, style, 0.85);
  for (guint t = 0; t < layout->n; t += layout->row_every)
    {
      g_autofree char *name = cut_text (cr, names[t], layout->label_room - f * 0.5 + 1.0);

      w = _latent_figure_text_width (cr, name);
      cairo_move_to (cr, layout->x0 - f * 0.4 - w, layout->y0 + (t + 0.5) * layout->cell + f * 0.3);
      _latent_figure_show_text (cr, name);
    }
  for (guint p = 0; p < layout->n; p += layout->col_every)
    {
      /* A pixel of slack: the widest name measured the room. */
      g_autofree char *name = cut_text (cr, names[p], layout->upright ? layout->col_room - f * 0.6 + 1.0
                                                                      : layout->cell * layout->col_every);

      w = _latent_figure_text_width (cr, name);
      if (!layout->upright)
        {
          cairo_move_to (cr, layout->x0 + (p + 0.5) * layout->cell - w / 2.0, layout->y0 + side + f * 1.1);
          _latent_figure_show_text (cr, name);
          continue;
        }
      /* Upright, reading upwards, its end at the matrix. */
      cairo_save (cr);
      cairo_move_to (cr, layout->x0 + (p + 0.5) * layout->cell + f * 0.3, layout->y0 + side + f * 0.4 + w);
      cairo_rotate (cr, -G_PI / 2.0);
      _latent_figure_show_text (cr, name);
      cairo_restore (cr);
    }

  /* What the rows and columns are. */
  _latent_figure_set_font (cr, style, 1.0, TRUE);
  _latent_figure_set_color_mix (cr, style, 0.9);
  w = _latent_figure_text_width (cr, predicted_title);
  cairo_move_to (cr, layout->x0 + side / 2.0 - w / 2.0, layout->y0 + side + layout->col_room + f * 1.2);
  _latent_figure_show_text (cr, predicted_title);
  w = _latent_figure_text_width (cr, true_title);
  cairo_save (cr);
  cairo_move_to (cr, f * 1.9, layout->y0 + side / 2.0 + w / 2.0);
  cairo_rotate (cr, -G_PI / 2.0);
  _latent_figure_show_text (cr, true_title);
  cairo_restore (cr);
  cairo_restore (cr);
}

/* A bar from 0 % (the background) to 100 % of the true class's rows. */
static void
draw_bar (cairo_t                 *cr,
          const LatentFigureStyle *style,
          const Layout            *layout)
{
  const double f = MAX (style->font_size, 1.0), side = layout->cell * layout->n;
  const double bar_w = round (f * 0.9), bar_h = CLAMP (side, f * 4.0, f * 14.0);
  const double y = layout->y0 + MAX (0.0, (side - bar_h) / 2.0);
  const char *labels[3] = { "0 %", "50 %", "100 %" };
  cairo_pattern_t *ramp = cairo_pattern_create_linear (0, y + bar_h, 0, y);

  cairo_save (cr);
  for (int i = 0; i <= 8; i++)
    {
      double r, g, b;

      share_color (i / 8.0, style->dark, &r, &g, &b);
      cairo_pattern_add_color_stop_rgb (ramp, i / 8.0, r, g, b);
    }
  cairo_rectangle (cr, layout->bar_x, y, bar_w, bar_h);
  cairo_set_source (cr, ramp);
  cairo_fill_preserve (cr);
  cairo_pattern_destroy (ramp);
  _latent_figure_set_color_mix (cr, style, 0.45);
  cairo_set_line_width (cr, 1.0);
  cairo_stroke (cr);
  _latent_figure_set_font (cr, style, 0.85, FALSE);
  _latent_figure_set_color_mix (cr, style, 0.75);
  for (int i = 0; i < 3; i++)
    {
      cairo_move_to (cr, layout->bar_x + bar_w + f * 0.4, y + bar_h - bar_h * i / 2.0 + f * 0.3);
      _latent_figure_show_text (cr, labels[i]);
    }
  cairo_restore (cr);
}

static void
_latent_figure_confusion_draw (LatentSnapshot          *snapshot,
                               const LatentFigureStyle *style,
                               cairo_t                 *cr,
                               double                   top,
                               int                      width,
                               int                      height)
{
  const double f = MAX (style->font_size, 1.0);
  Layout layout;

  cairo_save (cr);
  if (!has_confusion (snapshot))
    _latent_figure_message (cr, style, width, height, _("No test predictions yet"));
  else if (compute_layout (snapshot, style, top, width, height, &layout))
    {
      draw_cells (cr, snapshot, style, &layout);
      draw_names (cr, snapshot, style, &layout);
      draw_bar (cr, style, &layout);
      /* What the shading is, under the bar's labels where there is room. */
      if (layout.count_scale == 0.0 && layout.cell * layout.n > f * 8.0)
        {
          _latent_figure_set_font (cr, style, 0.85, FALSE);
          _latent_figure_set_color_mix (cr, style, 0.7);
          cairo_move_to (cr, layout.x0, layout.y0 - f * 0.3);
          _latent_figure_show_text (cr, _("Shading: share of the true class's test rows"));
        }
    }
  cairo_restore (cr);
}

cairo_surface_t *
latent_figure_confusion_examples (LatentSnapshot          *snapshot,
                                  const LatentFigureStyle *style,
                                  guint                    true_class,
                                  guint                    predicted,
                                  guint                    max_images,
                                  int                      tile,
                                  guint                   *n_shown)
{
  const LatentClassifierPart *part = &snapshot->classifier;
  LatentDataset *test;
  g_autoptr(GArray) rows = NULL;
  const float **images;
  cairo_surface_t *surface;
  guint img_w, img_h, channels;
  gboolean single;
  double lo, hi, br, bg, bb, scale;
  cairo_t *cr;

  g_return_val_if_fail (snapshot != NULL, NULL);

  if (n_shown)
    *n_shown = 0;
  /* Features of images are shown as the images they were made from. */
  test = part->test_dataset;
  while (test && !_latent_figure_dataset_has_image_rows (test) && latent_dataset_get_origin (test))
    test = latent_dataset_get_origin (test);
  if (test == NULL || part->test_predictions == NULL || max_images == 0 || tile < 1
      || !_latent_figure_dataset_has_image_rows (test)
      || !latent_dataset_get_image_shape (test, &img_w, &img_h, &channels, &single))
    return NULL;
  rows = g_array_new (FALSE, FALSE, sizeof (gint32));
  for (guint i = 0; i < part->n_test && rows->len < max_images; i++)
    if (_latent_figure_test_label (snapshot, i) == (gint32) true_class
        && part->test_predictions[i] == (gint32) predicted)
      g_array_append_val (rows, part->test_rows[i]);
  if (rows->len == 0)
    return NULL;

  images = g_new (const float *, rows->len);
  for (guint i = 0; i < rows->len; i++)
    images[i] = latent_dataset_get_row (test, g_array_index (rows, gint32, i));
  _latent_figure_image_range (images, rows->len, (gsize) img_w * img_h * channels, &lo, &hi);

  scale = (double) tile / img_h;
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32,
                                        (int) ceil (rows->len * (img_w * scale + 1.0)) - 1, tile);
  cr = cairo_create (surface);
  latent_figure_style_get_background (style, &br, &bg, &bb);
  cairo_set_source_rgb (cr, br, bg, bb);
  cairo_paint (cr);
  for (guint i = 0; i < rows->len; i++)
    {
      cairo_surface_t *image = _latent_figure_grey_tile (images[i], img_w, img_h, channels, lo, hi);

      _latent_figure_draw_tile (cr, image, round (i * (img_w * scale + 1.0)), 0, img_w * scale, tile, 0.0);
      cairo_surface_destroy (image);
    }
  cairo_destroy (cr);
  g_free (images);
  cairo_surface_flush (surface);
  if (n_shown)
    *n_shown = rows->len;
  return surface;
}

const LatentFigureKindRow _latent_figure_confusion_kinds[] = {
  { .kind = LATENT_FIGURE_CONFUSION,
    .title = N_("Confusion matrix"),
    .draw = _latent_figure_confusion_draw,
    .applies = _latent_figure_applies_with_data,
    .only_some = TRUE },
  { .kind = LATENT_FIGURE_AUTO }
};
