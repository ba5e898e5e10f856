/* latent-figure-tiles.c — grids of small images, their colours and captions
 *
 * Shared by the means of k-means and mixtures, the components, the
 * reconstructions and the samples of PCA, PPCA and FA. Each tile is a
 * one-pixel-per-value image surface scaled up without smoothing, so a 28 × 28
 * image stays 28 × 28 crisp squares at any size.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-figure-tiles"

#include "latent-figure-private.h"
#include "latent-palette.h"

#include <math.h>
#include <string.h>

/* Cells too small for a caption under them are laid out again without. */
#define MIN_CAPTIONED_HEIGHT 2.5

static double
best_tile_width (const LatentFigureTileGrid *g,
                 guint                       cols,
                 guint                       n_cells,
                 double                      gap,
                 double                      avail_w,
                 double                      avail_h,
                 double                      aspect)
{
  guint rows = (n_cells + cols - 1) / cols;
  double images = (double) cols * g->per_cell;
  double cell_w = (avail_w - (cols - 1) * gap - cols * (g->per_cell - 1) * g->inner) / images
                  - 2 * g->frame;
  double cell_h = (avail_h - (rows - 1) * gap) / rows - 2 * g->frame - g->caption;

  return MIN (cell_w, cell_h * aspect);
}

gboolean
_latent_figure_tile_grid (const LatentFigureStyle *style,
                          guint                    img_w,
                          guint                    img_h,
                          guint                    n_cells,
                          guint                    per_cell,
                          double                   x,
                          double                   y,
                          double                   width,
                          double                   height,
                          LatentFigureTileGrid    *grid)
{
  const double f = MAX (style->font_size, 1.0);
  const double gap = round (f * 0.8);
  double best = 0.0, aspect, scale, cell_w;

  memset (grid, 0, sizeof *grid);
  if (img_w == 0 || img_h == 0 || n_cells == 0 || per_cell == 0)
    return FALSE;
  grid->per_cell = per_cell;
  grid->frame = MAX (2.0, round (f * 0.2));
  grid->inner = per_cell > 1 ? round (f * 0.25) : 0.0;
  aspect = (double) img_w / img_h;

  /* Try every column count and keep the one with the largest tiles; when even
   * those are too small for a caption line, lay out again without captions. */
  for (int pass = 0; pass < 2; pass++)
    {
      grid->caption = pass == 0 ? round (f * 1.5) : 0.0;
      best = 0.0;
      for (guint cols = 1; cols <= n_cells; cols++)
        {
          double w = best_tile_width (grid, cols, n_cells, gap, width, height, aspect);

          if (w > best)
            {
              best = w;
              grid->cols = cols;
              grid->rows = (n_cells + cols - 1) / cols;
            }
        }
      if (best / aspect >= f * MIN_CAPTIONED_HEIGHT)
        break;
    }
  if (!(best > 1.0))
    return FALSE;

  /* Whole multiples of the image size keep every source pixel the same size,
   * unless rounding down would waste much of the room. */
  scale = best / img_w;
  if (scale >= 1.0 && floor (scale) / scale >= 0.8)
    scale = floor (scale);
  grid->tile_w = img_w * scale;
  grid->tile_h = img_h * scale;
  cell_w = per_cell * (grid->tile_w + 2 * grid->frame) + (per_cell - 1) * grid->inner;
  /* Whole pixels from cell to cell; rounded up, many columns would run past
   * the room, so then down. */
  grid->pitch_x = round (cell_w + gap);
  if (grid->cols * grid->pitch_x - gap > width)
    grid->pitch_x = floor (cell_w + gap);
  grid->pitch_y = round (grid->tile_h + 2 * grid->frame + grid->caption + gap);
  if (grid->rows * grid->pitch_y - gap > height)
    grid->pitch_y = floor (grid->tile_h + 2 * grid->frame + grid->caption + gap);
  grid->x0 = round (x + (width - (grid->cols * grid->pitch_x - gap)) / 2.0 + grid->frame);
  grid->y0 = round (y + (height - (grid->rows * grid->pitch_y - gap)) / 2.0 + grid->frame);
  return TRUE;
}

void
_latent_figure_tile_origin (const LatentFigureTileGrid *grid,
                            guint                       cell,
                            guint                       image,
                            double                     *x,
                            double                     *y)
{
  double step = round (grid->tile_w + 2 * grid->frame + grid->inner);

  *x = grid->x0 + (cell % grid->cols) * grid->pitch_x + image * step;
  *y = grid->y0 + (cell / grid->cols) * grid->pitch_y;
}

gint64
_latent_figure_tile_at (const LatentFigureTileGrid *grid,
                        guint                       n_cells,
                        double                      x,
                        double                      y)
{
  for (guint cell = 0; cell < n_cells; cell++)
    {
      double tx, ty;

      _latent_figure_tile_origin (grid, cell, 0, &tx, &ty);
      if (x >= tx && y >= ty && x < tx + grid->tile_w && y < ty + grid->tile_h)
        return cell;
    }
  return -1;
}

cairo_surface_t *
_latent_figure_enlarge_tile (cairo_surface_t *tile,
                             int              size)
{
  const int w = cairo_image_surface_get_width (tile), h = cairo_image_surface_get_height (tile);
  const double scale = (double) size / MAX (MAX (w, h), 1);
  cairo_surface_t *large = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) ceil (w * scale),
                                                       (int) ceil (h * scale));
  cairo_t *cr = cairo_create (large);

  cairo_scale (cr, scale, scale);
  cairo_set_source_surface (cr, tile, 0, 0);
  cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
  cairo_paint (cr);
  cairo_destroy (cr);
  cairo_surface_destroy (tile);
  return large;
}

void
_latent_figure_image_range (const float * const *images,
                            guint                n_images,
                            gsize                n_values,
                            double              *lo,
                            double              *hi)
{
  double mn = INFINITY, mx = -INFINITY;

  for (guint t = 0; t < n_images; t++)
    for (gsize i = 0; i < n_values; i++)
      if (isfinite (images[t][i]))
        {
          mn = MIN (mn, images[t][i]);
          mx = MAX (mx, images[t][i]);
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

cairo_surface_t *
_latent_figure_grey_tile (const float *values,
                          guint        width,
                          guint        height,
                          guint        channels,
                          double       lo,
                          double       hi)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, width, height);
  const guint c = MAX (channels, 1u);
  double k = 255.0 / (hi - lo);
  guint8 *data;
  int stride;

  if (cairo_surface_status (surface) != CAIRO_STATUS_SUCCESS)
    return surface;
  cairo_surface_flush (surface);
  data = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);

  for (guint y = 0; y < height; y++)
    {
      guint32 *row = (guint32 *) (data + (gsize) y * stride);

      for (guint x = 0; x < width; x++)
        {
          const float *p = values + ((gsize) y * width + x) * c;
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

cairo_surface_t *
_latent_figure_diverging_tile (const float *values,
                               guint        width,
                               guint        height,
                               guint        channels,
                               double       scale,
                               gboolean     dark)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, width, height);
  const guint c = MAX (channels, 1u);
  /* A flat zero component stays neutral instead of dividing by zero. */
  const double inv = scale > 0.0 && isfinite (scale) ? 1.0 / scale : 0.0;
  guint8 *data;
  int stride;

  if (cairo_surface_status (surface) != CAIRO_STATUS_SUCCESS)
    return surface;
  cairo_surface_flush (surface);
  data = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);

  for (guint y = 0; y < height; y++)
    {
      guint32 *row = (guint32 *) (data + (gsize) y * stride);

      for (guint x = 0; x < width; x++)
        {
          const float *p = values + ((gsize) y * width + x) * c;
          double v = 0.0;

          for (guint i = 0; i < c; i++)
            v += p[i];
          row[x] = latent_palette_diverging_argb (v / c * inv, dark);
        }
    }
  cairo_surface_mark_dirty (surface);
  return surface;
}

void
_latent_figure_draw_tile (cairo_t         *cr,
                          cairo_surface_t *image,
                          double           x,
                          double           y,
                          double           width,
                          double           height,
                          double           frame)
{
  cairo_save (cr);
  if (frame > 0.0)
    {
      cairo_set_line_width (cr, frame);
      cairo_rectangle (cr, x - frame / 2.0, y - frame / 2.0, width + frame, height + frame);
      cairo_stroke (cr);
    }

  if (cairo_surface_status (image) == CAIRO_STATUS_SUCCESS)
    {
      double sx = width / cairo_image_surface_get_width (image);

      cairo_translate (cr, x, y);
      cairo_scale (cr, sx, height / cairo_image_surface_get_height (image));
      cairo_set_source_surface (cr, image, 0, 0);
      /* Shrunk (hundreds of units in a grid), every source pixel should
       * count; enlarged, each stays a crisp square. */
      cairo_pattern_set_filter (cairo_get_source (cr), sx < 1.0 ? CAIRO_FILTER_GOOD : CAIRO_FILTER_NEAREST);
      cairo_rectangle (cr, 0, 0, cairo_image_surface_get_width (image),
                       cairo_image_surface_get_height (image));
      cairo_fill (cr);
    }
  cairo_restore (cr);
}

void
_latent_figure_tile_caption (cairo_t                 *cr,
                             const LatentFigureStyle *style,
                             double                   x,
                             double                   baseline,
                             double                   width,
                             const char              *text,
                             const char              *short_text)
{
  g_autofree char *cut = NULL;
  cairo_text_extents_t ext;

  cairo_save (cr);
  _latent_figure_set_font (cr, style, 0.9, FALSE);
  cairo_text_extents (cr, text, &ext);
  if (ext.x_advance > width && short_text != NULL)
    {
      text = short_text;
      cairo_text_extents (cr, text, &ext);
    }
  /* Still too wide: shorten it with an ellipsis, so it never runs under
   * the next tile's caption; with no room even for that, leave it out. */
  for (glong chars = g_utf8_strlen (text, -1) - 1; ext.x_advance > width; chars--)
    {
      g_autofree char *head = NULL;

      if (chars <= 0)
        {
          cairo_restore (cr);
          return;
        }
      head = g_utf8_substring (text, 0, chars);
      g_free (cut);
      cut = g_strconcat (head, "…", NULL);
      cairo_text_extents (cr, cut, &ext);
    }
  if (cut != NULL)
    text = cut;
  _latent_figure_set_color_mix (cr, style, 0.85);
  cairo_move_to (cr, x + (width - ext.x_advance) / 2.0, baseline);
  _latent_figure_show_text (cr, text);
  cairo_restore (cr);
}

void
_latent_figure_colorbar (cairo_t                 *cr,
                         const LatentFigureStyle *style,
                         double                   x,
                         double                   y,
                         double                   width,
                         double                   height,
                         const char              *low,
                         const char              *middle,
                         const char              *high)
{
  const double f = MAX (style->font_size, 1.0);
  const gboolean vertical = height > width;
  const double length = vertical ? height : width;
  const char *labels[3] = { low, middle, high };
  cairo_pattern_t *ramp;

  if (!(width > 0.0) || !(height > 0.0))
    return;

  cairo_save (cr);
  ramp = vertical ? cairo_pattern_create_linear (0, y + height, 0, y)
                  : cairo_pattern_create_linear (x, 0, x + width, 0);
  for (int i = 0; i <= 16; i++)
    {
      double t = i / 8.0 - 1.0, r, g, b;

      latent_palette_diverging (t, style->dark, &r, &g, &b);
      cairo_pattern_add_color_stop_rgb (ramp, i / 16.0, r, g, b);
    }
  cairo_rectangle (cr, x, y, width, height);
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
      cairo_text_extents_t ext;
      double at = length * i / 2.0;

      if (labels[i] == NULL)
        continue;
      cairo_text_extents (cr, labels[i], &ext);
      if (vertical)
        cairo_move_to (cr, x + width + f * 0.4, y + height - at + f * 0.35);
      else
        cairo_move_to (cr, CLAMP (x + at - ext.x_advance / 2.0, x - f, x + width + f - ext.x_advance),
                       y + height + f * 1.2);
      _latent_figure_show_text (cr, labels[i]);
    }
  cairo_restore (cr);
}

cairo_surface_t *
latent_figure_row_image (LatentDataset *dataset,
                         guint          row,
                         int            size)
{
  guint img_w, img_h, channels;
  gboolean single;
  const float *values;
  double lo, hi, scale;
  cairo_surface_t *image, *surface;
  cairo_t *cr;

  /* Features of images are shown as the images they were made from. */
  while (dataset && !_latent_figure_dataset_has_image_rows (dataset) && latent_dataset_get_origin (dataset))
    dataset = latent_dataset_get_origin (dataset);
  if (dataset == NULL || size < 1 || row >= latent_dataset_get_n_rows (dataset)
      || !_latent_figure_dataset_has_image_rows (dataset)
      || !latent_dataset_get_image_shape (dataset, &img_w, &img_h, &channels, &single))
    return NULL;
  values = latent_dataset_get_row (dataset, row);
  _latent_figure_image_range (&values, 1, (gsize) img_w * img_h * channels, &lo, &hi);
  image = _latent_figure_grey_tile (values, img_w, img_h, channels, lo, hi);
  scale = (double) size / img_h;
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) ceil (img_w * scale), size);
  cr = cairo_create (surface);
  _latent_figure_draw_tile (cr, image, 0, 0, img_w * scale, size, 0.0);
  cairo_destroy (cr);
  cairo_surface_destroy (image);
  cairo_surface_flush (surface);
  return surface;
}
