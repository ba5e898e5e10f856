/* latent-figure-images.c — the K means of image data, drawn as images
 *
 * Before the first iteration (no means yet) the figure shows the first rows
 * of the dataset instead, so a freshly loaded image dataset is recognisable.
 * A mixture's means are captioned with their weights, not cluster sizes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-figure-images"

#include "latent-figure-private.h"
#include "latent-palette.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#define MAX_SAMPLES 16

typedef struct {
  guint    img_w, img_h, channels;
  guint    n_tiles;
  gboolean means;         /* tiles are the snapshot's means, not dataset rows */
  LatentFigureTileGrid grid;
} Layout;

static const float *
tile_values (LatentSnapshot *snapshot,
             const Layout   *layout,
             guint           index)
{
  if (layout->means)
    return snapshot->clusters.means + (gsize) index * snapshot->n_cols;
  return latent_dataset_get_row (snapshot->dataset, index);
}

static gboolean
compute_layout (LatentSnapshot          *snapshot,
                const LatentFigureStyle *style,
                double                   top,
                int                      width,
                int                      height,
                Layout                  *layout)
{
  const LatentClustersPart *part = &snapshot->clusters;
  const double f = MAX (style->font_size, 1.0);
  gboolean single;

  memset (layout, 0, sizeof *layout);
  if (!_latent_figure_dataset_has_image_rows (snapshot->dataset))
    return FALSE;
  latent_dataset_get_image_shape (snapshot->dataset, &layout->img_w, &layout->img_h,
                                  &layout->channels, &single);

  layout->means = part->means != NULL && part->k > 0
                  && snapshot->n_cols == latent_dataset_get_n_cols (snapshot->dataset);
  layout->n_tiles = layout->means ? part->k
                                  : MIN (latent_dataset_get_n_rows (snapshot->dataset), MAX_SAMPLES);
  return _latent_figure_tile_grid (style, layout->img_w, layout->img_h, layout->n_tiles, 1,
                                   f, top, width - 2.0 * f, height - top - f, &layout->grid);
}

/* One range for every tile, so tiles compare. */
static void
value_range (LatentSnapshot *snapshot,
             const Layout   *layout,
             double         *lo,
             double         *hi)
{
  g_autofree const float **tiles = g_new (const float *, MAX (layout->n_tiles, 1u));

  for (guint t = 0; t < layout->n_tiles; t++)
    tiles[t] = tile_values (snapshot, layout, t);
  _latent_figure_image_range (tiles, layout->n_tiles,
                              (gsize) layout->img_w * layout->img_h * layout->channels, lo, hi);
}

/* The forms of a mean's caption, widest first; a figure uses one for all. */
typedef enum {
  CAPTION_LONG,     /* "cluster 3 · n = 13288" */
  CAPTION_SHORT,    /* "3 · n = 13288" */
  CAPTION_NUMBER,   /* "3" */
  CAPTION_NONE,
} CaptionForm;

static char *
caption_text (LatentSnapshot *snapshot,
              const Layout   *layout,
              guint           index,
              CaptionForm     form)
{
  const LatentClustersPart *part = &snapshot->clusters;
  const gint32 *labels;
  const char *name;

  if (layout->means && form == CAPTION_NUMBER)
    return g_strdup_printf ("%u", index + 1);
  if (layout->means && snapshot->mixture.weights != NULL)
    {
      double w = snapshot->mixture.weights[index];

      /* A broken weight is left out rather than printed as "nan". */
      if (!isfinite (w))
        return form == CAPTION_LONG ? g_strdup_printf (_("component %u"), index + 1)
                                    : g_strdup_printf ("%u", index + 1);
      return form == CAPTION_LONG ? g_strdup_printf (_("component %u · w = %.2f"), index + 1, w)
                                  : g_strdup_printf ("%u · w = %.2f", index + 1, w);
    }
  if (layout->means)
    {
      guint n = part->cluster_sizes ? part->cluster_sizes[index] : 0;

      if (part->cluster_sizes == NULL && part->labels != NULL)
        for (guint i = 0; i < snapshot->n_rows; i++)
          n += part->labels[i] == (gint32) index;
      return form == CAPTION_LONG ? g_strdup_printf (_("cluster %u · n = %u"), index + 1, n)
                                  : g_strdup_printf ("%u · n = %u", index + 1, n);
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

/* The widest form in which every mean's caption fits under its tile, so
 * tiles are captioned alike and never over their neighbours' captions. */
static CaptionForm
caption_form (cairo_t                 *cr,
              LatentSnapshot          *snapshot,
              const LatentFigureStyle *style,
              const Layout            *layout)
{
  const LatentFigureTileGrid *g = &layout->grid;
  CaptionForm form = CAPTION_LONG;

  if (g->caption <= 0)
    return CAPTION_NONE;
  if (!layout->means)
    return CAPTION_LONG;
  cairo_save (cr);
  _latent_figure_set_font (cr, style, 0.9, FALSE);
  for (guint i = 0; i < layout->n_tiles && form != CAPTION_NONE; i++)
    for (;;)
      {
        g_autofree char *text = caption_text (snapshot, layout, i, form);
        cairo_text_extents_t ext;

        cairo_text_extents (cr, text, &ext);
        if (ext.x_advance <= g->tile_w + 2 * g->frame || ++form == CAPTION_NONE)
          break;
      }
  cairo_restore (cr);
  return form;
}

static void
draw_tile (cairo_t                 *cr,
           LatentSnapshot          *snapshot,
           const LatentFigureStyle *style,
           const Layout            *layout,
           guint                    index,
           CaptionForm              form,
           double                   lo,
           double                   hi)
{
  const LatentFigureTileGrid *g = &layout->grid;
  cairo_surface_t *image;
  double x, y;

  _latent_figure_tile_origin (g, index, 0, &x, &y);
  cairo_save (cr);
  frame_color (cr, snapshot, style, layout, index);
  image = _latent_figure_grey_tile (tile_values (snapshot, layout, index), layout->img_w,
                                    layout->img_h, layout->channels, lo, hi);
  _latent_figure_draw_tile (cr, image, x, y, g->tile_w, g->tile_h, g->frame);
  cairo_surface_destroy (image);

  if (form != CAPTION_NONE)
    {
      g_autofree char *text = caption_text (snapshot, layout, index, form);

      _latent_figure_tile_caption (cr, style, x - g->frame, y + g->tile_h + g->frame + g->caption * 0.75,
                                   g->tile_w + 2 * g->frame, text, NULL);
    }
  cairo_restore (cr);
}

static void
_latent_figure_images_draw (LatentSnapshot          *snapshot,
                            const LatentFigureStyle *style,
                            cairo_t                 *cr,
                            double                   top,
                            int                      width,
                            int                      height)
{
  Layout layout;
  double lo, hi;

  /* The layout places the tiles itself, so views can find them. */
  if (compute_layout (snapshot, style, top, width, height, &layout))
    {
      const CaptionForm form = caption_form (cr, snapshot, style, &layout);

      value_range (snapshot, &layout, &lo, &hi);
      for (guint i = 0; i < layout.n_tiles; i++)
        draw_tile (cr, snapshot, style, &layout, i, form, lo, hi);
    }
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
  double tx, ty;

  g_return_val_if_fail (snapshot != NULL, FALSE);
  g_return_val_if_fail (style != NULL, FALSE);

  if (!compute_layout (snapshot, style, _latent_figure_header (NULL, snapshot, style, width, NULL), width, height,
                       &layout)
      || index >= layout.n_tiles)
    return FALSE;
  _latent_figure_tile_origin (&layout.grid, index, 0, &tx, &ty);
  if (x) *x = tx;
  if (y) *y = ty;
  if (tile_width) *tile_width = layout.grid.tile_w;
  if (tile_height) *tile_height = layout.grid.tile_h;
  return TRUE;
}

static gint64
pick_image (LatentSnapshot          *snapshot,
            LatentFigureKind         kind,
            const LatentFigureStyle *style,
            double                   top,
            int                      width,
            int                      height,
            double                   x,
            double                   y,
            int                      size,
            char                   **text,
            cairo_surface_t        **image)
{
  Layout layout;
  gint64 index;
  double lo, hi;

  if (!compute_layout (snapshot, style, top, width, height, &layout))
    return -1;
  index = _latent_figure_tile_at (&layout.grid, layout.n_tiles, x, y);
  if (index < 0)
    return -1;
  if (text != NULL)
    *text = caption_text (snapshot, &layout, (guint) index, CAPTION_LONG);
  if (image != NULL)
    {
      value_range (snapshot, &layout, &lo, &hi);
      *image = _latent_figure_enlarge_tile (_latent_figure_grey_tile (tile_values (snapshot, &layout, (guint) index),
                                                                      layout.img_w, layout.img_h, layout.channels,
                                                                      lo, hi),
                                            size);
    }
  return index;
}

static gboolean
applies_images (LatentSnapshot  *snapshot,
                GError         **error)
{
  if (!_latent_figure_applies_with_data (snapshot, error))
    return FALSE;
  if (_latent_figure_dataset_has_image_rows (snapshot->dataset))
    return TRUE;
  g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_KIND,
               _("The rows of this dataset are not images"));
  return FALSE;
}

const LatentFigureKindRow _latent_figure_images_kinds[] = {
  { .kind = LATENT_FIGURE_IMAGES,
    .title = N_("Images"),
    .draw = _latent_figure_images_draw,
    .applies = applies_images,
    .pick = pick_image },
  { .kind = LATENT_FIGURE_AUTO }
};
