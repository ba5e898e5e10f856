/* latent-figure-segments.c — clusters of an image's pixels, seen as the image
 *
 * k-means or a mixture run on one image clusters its pixels by colour. This
 * figure paints every pixel in its cluster's mean beside the original, so
 * the K colours the run settles on, and where each of them goes, show as
 * they change.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-figure-segments"

#include "latent-figure-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>

gboolean
_latent_figure_has_segments (LatentSnapshot *snapshot)
{
  const LatentClustersPart *part = &snapshot->clusters;
  guint width = 0, height = 0, channels = 0;
  gboolean single = FALSE;

  return snapshot->dataset != NULL && part->labels != NULL && part->means != NULL && part->k > 0
         && latent_dataset_get_image_shape (snapshot->dataset, &width, &height, &channels, &single) && single
         && channels >= 1 && channels <= 4 && snapshot->n_cols == channels
         && (guint64) width * height == snapshot->n_rows
         && snapshot->n_rows == latent_dataset_get_n_rows (snapshot->dataset);
}

/* Every @step-th pixel across and down (a large image drawn small need not
 * be read whole at each frame): its own values, or with @clustered its
 * cluster's mean (black while it has none). */
static cairo_surface_t *
sampled_surface (LatentSnapshot *snapshot,
                 guint           width,
                 guint           height,
                 guint           channels,
                 guint           step,
                 gboolean        clustered)
{
  const LatentClustersPart *part = &snapshot->clusters;
  const guint sw = (width + step - 1) / step, sh = (height + step - 1) / step;
  const float *x = latent_dataset_get_data (snapshot->dataset);
  g_autofree float *values = g_try_new (float, (gsize) sw * sh * channels);

  if (values == NULL)
    return NULL;
  for (guint y = 0; y < sh; y++)
    for (guint u = 0; u < sw; u++)
      {
        const gsize i = (gsize) y * step * width + (gsize) u * step;
        const float *from = x + i * channels;
        float *to = values + ((gsize) y * sw + u) * channels;

        if (clustered)
          {
            gint32 c = part->labels[i];

            from = c >= 0 && (guint) c < part->k ? part->means + (gsize) c * channels : NULL;
          }
        for (guint j = 0; j < channels; j++)
          to[j] = from ? from[j] : (j == 3 || (channels == 2 && j == 1));
      }
  return _latent_figure_values_surface (values, sw, sh, channels);
}

/* @image as large as fits the box at (x, y) of @w × @h, its aspect kept,
 * with @caption (@short_caption where that is too wide) under it. */
static void
draw_panel (cairo_t                 *cr,
            const LatentFigureStyle *style,
            cairo_surface_t         *image,
            const char              *caption,
            const char              *short_caption,
            double                   x,
            double                   y,
            double                   w,
            double                   h)
{
  const double f = MAX (style->font_size, 1.0);
  const int iw = cairo_image_surface_get_width (image), ih = cairo_image_surface_get_height (image);
  const double scale = MIN (w / iw, (h - f * 1.6) / ih);
  const double tw = round (iw * scale), th = round (ih * scale);

  if (!(scale > 0))
    return;
  _latent_figure_draw_tile (cr, image, round (x + (w - tw) / 2.0), round (y), tw, th, 0.0);
  _latent_figure_tile_caption (cr, style, x, round (y) + th + f * 1.2, w, caption, short_caption);
}

static void
_latent_figure_segments_draw (LatentSnapshot          *snapshot,
                              const LatentFigureStyle *style,
                              cairo_t                 *cr,
                              double                   top,
                              int                      width,
                              int                      height)
{
  const LatentClustersPart *part = &snapshot->clusters;
  const double f = MAX (style->font_size, 1.0), gap = f * 1.5;
  guint iw = 0, ih = 0, channels = 0;
  cairo_surface_t *original = NULL, *segments = NULL;
  g_autofree char *caption = NULL;
  g_autofree char *short_caption = NULL;
  double box_w, box_h, across, down;
  guint step;

  if (!_latent_figure_has_segments (snapshot)
      || !latent_dataset_get_image_shape (snapshot->dataset, &iw, &ih, &channels, NULL))
    {
      _latent_figure_message (cr, style, width, height, _("No clusters of an image's pixels"));
      return;
    }
  /* Side by side or one above the other, whichever shows them larger. */
  box_w = width - 2 * f;
  box_h = height - top - f;
  across = MIN ((box_w - gap) / 2.0 / iw, (box_h - f * 1.6) / ih);
  down = MIN (box_w / iw, ((box_h - gap) / 2.0 - f * 1.6) / ih);
  /* No more pixels read than drawn, give or take a factor of two. */
  step = MAX (MAX (across, down) > 0 ? (guint) floor (1.0 / MAX (across, down)) : 1u, 1u);
  original = sampled_surface (snapshot, iw, ih, channels, step, FALSE);
  segments = sampled_surface (snapshot, iw, ih, channels, step, TRUE);
  if (original == NULL || segments == NULL)
    {
      _latent_figure_message (cr, style, width, height, _("The image is too large to draw"));
      g_clear_pointer (&original, cairo_surface_destroy);
      g_clear_pointer (&segments, cairo_surface_destroy);
      return;
    }
  /* Translators: the caption of an image's pixels painted in the means of
   * their clusters; %u is how many clusters. */
  caption = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Each pixel in its cluster's colour (%u cluster)",
                                          "Each pixel in its cluster's colour (%u clusters)", part->k),
                             part->k);
  short_caption = g_strdup_printf ("K = %u", part->k);
  /* The panels in the middle of the height they leave (a wide photo side
   * by side leaves much of it), each in a box its own size. */
  if (across >= down)
    {
      const double panel_h = round (ih * across) + f * 1.6;

      top += floor ((box_h - panel_h) / 2.0);
      draw_panel (cr, style, original, _("Original"), NULL, f, top, (box_w - gap) / 2.0, panel_h);
      draw_panel (cr, style, segments, caption, short_caption, f + (box_w + gap) / 2.0, top, (box_w - gap) / 2.0,
                  panel_h);
    }
  else
    {
      const double panel_h = round (ih * down) + f * 1.6;

      top += floor ((box_h - 2 * panel_h - gap) / 2.0);
      draw_panel (cr, style, original, _("Original"), NULL, f, top, box_w, panel_h);
      draw_panel (cr, style, segments, caption, short_caption, f, top + panel_h + gap, box_w, panel_h);
    }
  cairo_surface_destroy (original);
  cairo_surface_destroy (segments);
}

static gboolean
applies_segments (LatentSnapshot  *snapshot,
                  GError         **error)
{
  if (_latent_figure_has_segments (snapshot))
    return TRUE;
  g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_KIND,
               _("Segments: need clusters of one image's pixels (open a PNG)"));
  return FALSE;
}

const LatentFigureKindRow _latent_figure_segments_kinds[] = {
  { .kind = LATENT_FIGURE_SEGMENTS,
    .title = N_("Segments"),
    .draw = _latent_figure_segments_draw,
    .applies = applies_segments,
    .only_some = TRUE },
  { .kind = LATENT_FIGURE_AUTO }
};
