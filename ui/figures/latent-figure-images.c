/* latent-figure-images.c — the K means of image data, drawn as images
 *
 * Before the first iteration (no means yet) the figure shows the first rows
 * of the dataset instead, so a freshly loaded image dataset is recognisable.
 * A mixture's means are captioned with their weights, not cluster sizes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-figure-images"

#include "latent-figure.h"
#include "latent-palette.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#define MAX_SAMPLES 16

typedef struct {
  guint    img_w, img_h, channels;
  guint    n_tiles;
  gboolean means;         /* tiles are the snapshot's means, not dataset rows */
  guint    cols, rows;
  double   tile_w, tile_h; /* the image inside its frame */
  double   frame;          /* frame line width */
  double   caption;        /* height under each tile, 0 when there is no room */
  double   x0, y0;         /* top-left of the first image */
  double   pitch_x, pitch_y;
} Layout;

static const float *
tile_values (LatentSnapshot *snapshot,
             const Layout   *layout,
             guint           index)
{
  if (layout->means)
    return snapshot->means + (gsize) index * snapshot->n_cols;
  return latent_dataset_get_row (snapshot->dataset, index);
}

static gboolean
compute_layout (LatentSnapshot          *snapshot,
                const LatentFigureStyle *style,
                int                      width,
                int                      height,
                Layout                  *layout)
{
  const double f = MAX (style->font_size, 1.0);
  const double gap = round (f * 0.8);
  double top, avail_w, avail_h, best = 0.0, aspect, scale;
  gboolean single;

  memset (layout, 0, sizeof *layout);
  if (!_latent_figure_dataset_has_image_rows (snapshot->dataset))
    return FALSE;
  latent_dataset_get_image_shape (snapshot->dataset, &layout->img_w, &layout->img_h,
                                  &layout->channels, &single);

  layout->means = snapshot->means != NULL && snapshot->k > 0
                  && snapshot->n_cols == latent_dataset_get_n_cols (snapshot->dataset);
  layout->n_tiles = layout->means ? snapshot->k
                                  : MIN (latent_dataset_get_n_rows (snapshot->dataset), MAX_SAMPLES);
  layout->frame = MAX (2.0, round (f * 0.2));
  aspect = (double) layout->img_w / layout->img_h;

  top = _latent_figure_header (NULL, snapshot, style, width);
  avail_w = width - 2.0 * f;
  avail_h = height - top - f;

  /* Try every column count and keep the one with the largest tiles; when even
   * those are too small for a caption line, lay out again without captions. */
  for (int pass = 0; pass < 2; pass++)
    {
      layout->caption = pass == 0 ? round (f * 1.5) : 0.0;
      best = 0.0;
      for (guint cols = 1; cols <= layout->n_tiles; cols++)
        {
          guint rows = (layout->n_tiles + cols - 1) / cols;
          double cell_w = (avail_w - (cols - 1) * gap) / cols - 2 * layout->frame;
          double cell_h = (avail_h - (rows - 1) * gap) / rows - 2 * layout->frame - layout->caption;
          double w = MIN (cell_w, cell_h * aspect);

          if (w > best)
            {
              best = w;
              layout->cols = cols;
              layout->rows = rows;
            }
        }
      if (best / aspect >= f * 2.5)
        break;
    }
  if (best <= 1.0)
    return FALSE;

  /* Whole multiples of the image size keep every source pixel the same size,
   * unless rounding down would waste much of the room. */
  scale = best / layout->img_w;
  if (scale >= 1.0 && floor (scale) / scale >= 0.8)
    scale = floor (scale);
  layout->tile_w = layout->img_w * scale;
  layout->tile_h = layout->img_h * scale;
  layout->pitch_x = layout->tile_w + 2 * layout->frame + gap;
  layout->pitch_y = layout->tile_h + 2 * layout->frame + layout->caption + gap;
  layout->x0 = round (f + (avail_w - (layout->cols * layout->pitch_x - gap)) / 2.0 + layout->frame);
  layout->y0 = round (top + (avail_h - (layout->rows * layout->pitch_y - gap)) / 2.0 + layout->frame);
  layout->pitch_x = round (layout->pitch_x);
  layout->pitch_y = round (layout->pitch_y);
  return TRUE;
}

/* One range for every tile, so tiles compare; chosen from the data's usual
 * scales (0–1, 0–255) so it does not jump between iterations. */
static void
value_range (LatentSnapshot *snapshot,
             const Layout   *layout,
             double         *lo,
             double         *hi)
{
  const gsize n = (gsize) layout->img_w * layout->img_h * layout->channels;
  double mn = INFINITY, mx = -INFINITY;

  for (guint t = 0; t < layout->n_tiles; t++)
    {
      const float *v = tile_values (snapshot, layout, t);
      for (gsize i = 0; i < n; i++)
        if (isfinite (v[i]))
          {
            mn = MIN (mn, v[i]);
            mx = MAX (mx, v[i]);
          }
    }

  if (!(mx >= mn))
    *lo = 0.0, *hi = 1.0;
  else if (mn >= 0.0 && mx <= 1.0)
    *lo = 0.0, *hi = 1.0;
  else if (mn >= 0.0 && mx <= 255.0)
    *lo = 0.0, *hi = 255.0;
  else
    *lo = mn, *hi = mx > mn ? mx : mn + 1.0;
}

static cairo_surface_t *
tile_surface (const float  *values,
              const Layout *layout,
              double        lo,
              double        hi)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, layout->img_w, layout->img_h);
  const guint c = layout->channels;
  double k = 255.0 / (hi - lo);
  guint32 *row;
  int stride;

  if (cairo_surface_status (surface) != CAIRO_STATUS_SUCCESS)
    return surface;
  cairo_surface_flush (surface);
  stride = cairo_image_surface_get_stride (surface);

  for (guint y = 0; y < layout->img_h; y++)
    {
      row = (guint32 *) (cairo_image_surface_get_data (surface) + (gsize) y * stride);
      for (guint x = 0; x < layout->img_w; x++)
        {
          const float *p = values + ((gsize) y * layout->img_w + x) * c;
          guint32 rgb[3];

          for (guint i = 0; i < 3; i++)
            {
              /* Grey for one or two channels (the second being alpha). */
              double v = p[c >= 3 ? i : 0];
              v = isfinite (v) ? CLAMP ((v - lo) * k, 0.0, 255.0) : 0.0;
              rgb[i] = (guint32) lround (v);
            }
          row[x] = 0xff000000u | (rgb[0] << 16) | (rgb[1] << 8) | rgb[2];
        }
    }
  cairo_surface_mark_dirty (surface);
  return surface;
}

static char *
caption_text (LatentSnapshot *snapshot,
              const Layout   *layout,
              guint           index,
              gboolean        long_form)
{
  const gint32 *labels;
  const char *name;

  if (layout->means && snapshot->weights != NULL)
    {
      double w = snapshot->weights[index];

      /* A broken weight is left out rather than printed as "nan". */
      if (!isfinite (w))
        return long_form ? g_strdup_printf (_("component %u"), index + 1)
                         : g_strdup_printf ("%u", index + 1);
      return long_form ? g_strdup_printf (_("component %u · w = %.2f"), index + 1, w)
                       : g_strdup_printf ("w = %.2f", w);
    }
  if (layout->means)
    {
      guint n = snapshot->cluster_sizes ? snapshot->cluster_sizes[index] : 0;

      if (snapshot->cluster_sizes == NULL && snapshot->labels != NULL)
        for (guint i = 0; i < snapshot->n_rows; i++)
          n += snapshot->labels[i] == (gint32) index;
      return long_form ? g_strdup_printf (_("cluster %u · n = %u"), index + 1, n)
                       : g_strdup_printf ("n = %u", n);
    }

  labels = latent_dataset_get_labels (snapshot->dataset);
  if (labels == NULL)
    return g_strdup_printf (_("row %u"), index + 1);
  name = latent_dataset_get_class_name (snapshot->dataset, labels[index]);
  return name ? g_strdup (name) : g_strdup_printf (_("class %d"), labels[index] + 1);
}

static void
frame_color (cairo_t                 *cr,
             LatentSnapshot          *snapshot,
             const LatentFigureStyle *style,
             const Layout            *layout,
             guint                    index)
{
  const gint32 *labels = latent_dataset_get_labels (snapshot->dataset);
  double r, g, b;

  if (layout->means)
    latent_palette_color (index, &r, &g, &b);
  else if (labels != NULL)
    latent_palette_color (labels[index], &r, &g, &b);
  else
    {
      _latent_figure_set_color_mix (cr, style, 0.4);
      return;
    }
  cairo_set_source_rgb (cr, r, g, b);
}

static void
draw_tile (cairo_t                 *cr,
           LatentSnapshot          *snapshot,
           const LatentFigureStyle *style,
           const Layout            *layout,
           guint                    index,
           double                   lo,
           double                   hi)
{
  double x = layout->x0 + (index % layout->cols) * layout->pitch_x;
  double y = layout->y0 + (index / layout->cols) * layout->pitch_y;
  double fw = layout->frame;
  cairo_surface_t *image;

  cairo_save (cr);
  frame_color (cr, snapshot, style, layout, index);
  cairo_set_line_width (cr, fw);
  cairo_rectangle (cr, x - fw / 2.0, y - fw / 2.0, layout->tile_w + fw, layout->tile_h + fw);
  cairo_stroke (cr);

  image = tile_surface (tile_values (snapshot, layout, index), layout, lo, hi);
  if (cairo_surface_status (image) == CAIRO_STATUS_SUCCESS)
    {
      cairo_save (cr);
      cairo_translate (cr, x, y);
      cairo_scale (cr, layout->tile_w / layout->img_w, layout->tile_h / layout->img_h);
      cairo_set_source_surface (cr, image, 0, 0);
      cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
      cairo_rectangle (cr, 0, 0, layout->img_w, layout->img_h);
      cairo_fill (cr);
      cairo_restore (cr);
    }
  cairo_surface_destroy (image);

  if (layout->caption > 0)
    {
      g_autofree char *text = caption_text (snapshot, layout, index, TRUE);
      cairo_text_extents_t ext;

      _latent_figure_set_font (cr, style, 0.9, FALSE);
      cairo_text_extents (cr, text, &ext);
      if (ext.x_advance > layout->tile_w + 2 * fw && layout->means)
        {
          g_free (text);
          text = caption_text (snapshot, layout, index, FALSE);
          cairo_text_extents (cr, text, &ext);
        }
      _latent_figure_set_color_mix (cr, style, 0.85);
      cairo_move_to (cr, x + (layout->tile_w - ext.x_advance) / 2.0,
                     y + layout->tile_h + fw + layout->caption * 0.75);
      cairo_show_text (cr, text);
    }
  cairo_restore (cr);
}

void
latent_figure_images_render (LatentSnapshot          *snapshot,
                             const LatentFigureStyle *style,
                             cairo_t                 *cr,
                             int                      width,
                             int                      height)
{
  Layout layout;
  double lo, hi;

  g_return_if_fail (snapshot != NULL);
  g_return_if_fail (style != NULL);
  g_return_if_fail (cr != NULL);

  cairo_save (cr);
  _latent_figure_paint_background (cr, style, width, height);
  _latent_figure_header (cr, snapshot, style, width);

  if (!_latent_figure_dataset_has_image_rows (snapshot->dataset))
    _latent_figure_message (cr, style, width, height, _("The rows of this dataset are not images"));
  else if (compute_layout (snapshot, style, width, height, &layout))
    {
      value_range (snapshot, &layout, &lo, &hi);
      for (guint i = 0; i < layout.n_tiles; i++)
        draw_tile (cr, snapshot, style, &layout, i, lo, hi);
    }
  cairo_restore (cr);
}

gboolean
latent_figure_images_locate (LatentSnapshot          *snapshot,
                             const LatentFigureStyle *style,
                             int                      width,
                             int                      height,
                             guint                    index,
                             double                  *x,
                             double                  *y,
                             double                  *tile_width,
                             double                  *tile_height)
{
  Layout layout;

  g_return_val_if_fail (snapshot != NULL, FALSE);
  g_return_val_if_fail (style != NULL, FALSE);

  if (!compute_layout (snapshot, style, width, height, &layout) || index >= layout.n_tiles)
    return FALSE;
  if (x) *x = layout.x0 + (index % layout.cols) * layout.pitch_x;
  if (y) *y = layout.y0 + (index / layout.cols) * layout.pitch_y;
  if (tile_width) *tile_width = layout.tile_w;
  if (tile_height) *tile_height = layout.tile_h;
  return TRUE;
}
