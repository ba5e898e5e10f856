/* latent-figure-filter.c — convolution: the image before and after its
 * filter, side by side or split, beside a small kernel and the time per pass
 *
 * An image becomes a surface once (latent_figure_filter_surface ()), and a
 * view keeps it between draws. A result with values either side of 0 (a
 * difference, a relief) is shown grey-centred, not clipped to 0–1. Shrunk images are drawn from halved copies
 * kept on that surface, so a 4K photograph costs a frame no more than a
 * small one; enlarged ones are drawn without smoothing, pixel by pixel.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-figure-filter"

#include "latent-figure-filter-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* Kernels up to this size print their weights in the small heat map. */
#define INSET_ANNOTATED_SIZE 7
/* Values this far outside 0–1 (under half an 8-bit step) are not "clipped". */
#define CLIP_SLACK (1.0f / 512.0f)

/* Signed results: the share of |values| under the scale that black and
 * white stand for; the rest is shown clipped. */
#define SIGNED_QUANTILE 0.995
/* …but the scale is at least this part of the largest |value|. */
#define SIGNED_MIN_SCALE 0.05
/* A result of values 0 and up whose 99.5 % lie below this is stretched. */
#define DARK_RESULT 0.25
/* Values read to find that scale, at most. */
#define SIGNED_SAMPLES (1u << 20)

/* How a surface shows its values, for the footer. */
typedef struct {
  double   clipped;     /* the share of values the picture cannot show */
  gboolean is_signed;   /* grey is 0, black −scale, white +scale */
  double   scale;       /* unsigned: white is scale (below 1 for a dark
                         * result, such as a gradient magnitude), or 0 */
} SurfaceInfo;

static const cairo_user_data_key_t info_key;
static const cairo_user_data_key_t half_key;

/* The dataset is one image whose rows are its pixels. */
static gboolean
dataset_shape (LatentDataset *dataset,
               guint         *width,
               guint         *height,
               guint         *channels)
{
  gboolean single = FALSE;
  guint w = 0, h = 0, c = 0;

  if (dataset == NULL || !latent_dataset_get_image_shape (dataset, &w, &h, &c, &single) || !single
      || w == 0 || h == 0 || c == 0 || c > 4
      || (guint64) w * h != latent_dataset_get_n_rows (dataset) || latent_dataset_get_n_cols (dataset) != c)
    return FALSE;
  *width = w;
  *height = h;
  *channels = c;
  return TRUE;
}

/* ... and the snapshot's result has as many channels. */
static gboolean
image_shape (LatentSnapshot *snapshot,
             guint          *width,
             guint          *height,
             guint          *channels)
{
  return dataset_shape (snapshot->dataset, width, height, channels)
         && !(snapshot->filter.image != NULL && snapshot->n_cols != 0 && snapshot->n_cols != *channels);
}

/* Surfaces ------------------------------------------------------------------ */

static inline guint32
to_byte (float  v,
         gsize *clipped)
{
  if (v >= 0.0f && v <= 1.0f)
    return (guint32) (v * 255.0f + 0.5f);
  /* NaN, too, is out of range; it shows as black. */
  if (!(v >= -CLIP_SLACK && v <= 1.0f + CLIP_SLACK))
    (*clipped)++;
  return v > 1.0f ? 255u : 0u;
}

static inline guint32
premultiply (guint32 value,
             guint32 alpha)
{
  return (value * alpha + 127u) / 255u;
}

/* A kernel that keeps an image an image: its weights add up to more than
 * nothing and it looks the same turned half round (blurs, sharpening).
 * Differences (Sobel, Laplacian: weights adding up to 0) and reliefs
 * (emboss: one side against the other) give values either side of 0. */
static gboolean
keeps_image (LatentSnapshot *snapshot)
{
  const LatentFilterPart *part = &snapshot->filter;
  const guint n = part->kernel_size * part->kernel_size;
  const float *w = part->kernel;
  double sum = 0.0, magnitude = 0.0;

  if (w == NULL || n == 0)
    return TRUE;
  for (guint i = 0; i < n; i++)
    {
      sum += w[i];
      magnitude += fabs (w[i]);
    }
  if (fabs (sum) <= 1e-6 * magnitude)
    return FALSE;
  for (guint i = 0; i < n / 2; i++)
    if (fabs ((double) w[i] - w[n - 1 - i]) > 1e-6 * magnitude)
      return FALSE;
  return TRUE;
}

/* How a result that is not an image is shown: a signed one (values below
 * 0) with black at −scale and white at +scale; a dark one of values 0 and
 * up (a gradient magnitude, whose edges came out near black) with white
 * at scale. Both scales hold 99.5 % of the values. 0 when it is shown as it
 * is: its kernel keeps images images, or its values fill 0 to 1. Alpha
 * does not count. */
static double
result_scale (LatentSnapshot *snapshot,
              const float    *values,
              gsize           n_pixels,
              guint           channels,
              gboolean       *is_signed)
{
  const guint colours = channels == 2 || channels == 4 ? channels - 1 : channels;
  const gsize stride = MAX ((gsize) 1, n_pixels / SIGNED_SAMPLES);
  g_autofree guint *counts = NULL;
  double largest = 0.0, quantile;
  gboolean negative = FALSE;
  gsize total = 0, seen = 0;
  guint bins = 1024, b;

  *is_signed = FALSE;
  if (keeps_image (snapshot))
    return 0.0;
  for (gsize i = 0; i < n_pixels; i++)
    for (guint c = 0; c < colours; c++)
      {
        float v = values[i * channels + c];

        if (!isfinite (v))
          continue;
        negative = negative || v < -CLIP_SLACK;
        largest = MAX (largest, fabs (v));
      }
  if (!(largest > 0.0))
    return 0.0;

  /* A quantile of |value| from a histogram of an even sample. */
  counts = g_new0 (guint, bins);
  for (gsize i = 0; i < n_pixels; i += stride)
    for (guint c = 0; c < colours; c++)
      {
        float v = values[i * channels + c];

        if (!isfinite (v))
          continue;
        counts[MIN ((guint) (fabs (v) / largest * bins), bins - 1)]++;
        total++;
      }
  for (b = 0; b < bins && seen < SIGNED_QUANTILE * total; b++)
    seen += counts[b];
  quantile = MAX (largest * b / bins, SIGNED_MIN_SCALE * largest);
  *is_signed = negative;
  /* Brightened only where it is dark: a quarter of the range or less. */
  if (!negative && quantile > DARK_RESULT)
    return 0.0;
  return quantile;
}

static inline guint32
to_signed_byte (float   v,
                double  half_over_scale,
                gsize  *clipped)
{
  double t = 0.5 + v * half_over_scale;

  if (t >= 0.0 && t <= 1.0)
    return (guint32) (t * 255.0 + 0.5);
  if (!(t >= -CLIP_SLACK && t <= 1.0 + CLIP_SLACK))
    (*clipped)++;
  return t > 1.0 ? 255u : 0u;
}

/* A signed result: each colour channel grey-centred, opaque (a difference
 * of alpha says nothing about how opaque a pixel is). */
static void
fill_signed (cairo_surface_t *surface,
             const float     *values,
             guint            width,
             guint            height,
             guint            channels,
             double           scale,
             gsize           *clipped)
{
  guint8 *data = cairo_image_surface_get_data (surface);
  const int stride = cairo_image_surface_get_stride (surface);
  const double k = 0.5 / scale;

  for (guint y = 0; y < height; y++)
    {
      guint32 *row = (guint32 *) (data + (gsize) y * stride);
      const float *p = values + (gsize) y * width * channels;

      for (guint x = 0; x < width; x++, p += channels)
        if (channels <= 2)
          {
            guint32 v = to_signed_byte (p[0], k, clipped);

            row[x] = 0xff000000u | (v << 16) | (v << 8) | v;
          }
        else
          row[x] = 0xff000000u | (to_signed_byte (p[0], k, clipped) << 16)
                   | (to_signed_byte (p[1], k, clipped) << 8) | to_signed_byte (p[2], k, clipped);
    }
}

/* Values in [0, 1], as an image's: grey, grey and alpha, RGB or RGBA;
 * the colours times @gain (alpha as it is). */
static void
fill_unsigned (cairo_surface_t *surface,
               const float     *values,
               guint            width,
               guint            height,
               guint            channels,
               float            gain,
               gsize           *clipped)
{
  guint8 *data = cairo_image_surface_get_data (surface);
  const int stride = cairo_image_surface_get_stride (surface);

  /* One loop per layout: this runs over millions of pixels per snapshot. */
  for (guint y = 0; y < height; y++)
    {
      guint32 *row = (guint32 *) (data + (gsize) y * stride);
      const float *p = values + (gsize) y * width * channels;

      switch (channels)
        {
        case 1:
          for (guint x = 0; x < width; x++, p++)
            {
              guint32 v = to_byte (p[0] * gain, clipped);
              row[x] = 0xff000000u | (v << 16) | (v << 8) | v;
            }
          break;
        case 2:
          for (guint x = 0; x < width; x++, p += 2)
            {
              guint32 a = to_byte (p[1], clipped);
              guint32 v = premultiply (to_byte (p[0] * gain, clipped), a);
              row[x] = (a << 24) | (v << 16) | (v << 8) | v;
            }
          break;
        case 3:
          for (guint x = 0; x < width; x++, p += 3)
            row[x] = 0xff000000u | (to_byte (p[0] * gain, clipped) << 16) | (to_byte (p[1] * gain, clipped) << 8)
                     | to_byte (p[2] * gain, clipped);
          break;
        default:
          for (guint x = 0; x < width; x++, p += 4)
            {
              guint32 a = to_byte (p[3], clipped);
              row[x] = (a << 24) | (premultiply (to_byte (p[0] * gain, clipped), a) << 16)
                       | (premultiply (to_byte (p[1] * gain, clipped), a) << 8)
                       | premultiply (to_byte (p[2] * gain, clipped), a);
            }
          break;
        }
    }
}

cairo_surface_t *
_latent_figure_values_surface (const float *values,
                               guint        width,
                               guint        height,
                               guint        channels)
{
  cairo_surface_t *surface;
  gsize clipped = 0;

  g_return_val_if_fail (values != NULL && channels >= 1 && channels <= 4, NULL);

  if (width == 0 || height == 0 || width > 32767 || height > 32767)
    return NULL;
  surface = cairo_image_surface_create (channels == 2 || channels == 4 ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24,
                                        width, height);
  if (cairo_surface_status (surface) != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (surface);
      return NULL;
    }
  cairo_surface_flush (surface);
  fill_unsigned (surface, values, width, height, channels, 1.0f, &clipped);
  cairo_surface_mark_dirty (surface);
  return surface;
}

cairo_surface_t *
latent_figure_filter_surface (LatentSnapshot *snapshot,
                              gboolean        filtered)
{
  const float *values;
  cairo_surface_t *surface;
  guint width, height, channels;
  gboolean alpha;
  gsize clipped = 0;
  SurfaceInfo *info;
  gboolean is_signed = FALSE;
  double scale;

  g_return_val_if_fail (snapshot != NULL, NULL);

  if (!image_shape (snapshot, &width, &height, &channels))
    return NULL;
  values = filtered ? snapshot->filter.image : latent_dataset_get_data (snapshot->dataset);
  if (values == NULL || width > 32767 || height > 32767)
    return NULL;

  scale = filtered ? result_scale (snapshot, values, (gsize) width * height, channels, &is_signed) : 0.0;
  alpha = !is_signed && (channels == 2 || channels == 4);
  surface = cairo_image_surface_create (alpha ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24, width, height);
  if (cairo_surface_status (surface) != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (surface);
      return NULL;
    }
  cairo_surface_flush (surface);
  if (is_signed)
    fill_signed (surface, values, width, height, channels, scale, &clipped);
  else
    fill_unsigned (surface, values, width, height, channels, scale > 0.0 ? (float) (1.0 / scale) : 1.0f, &clipped);
  cairo_surface_mark_dirty (surface);

  /* The figure says how it shows the result, and how much of it the
   * picture cannot show. */
  info = g_new0 (SurfaceInfo, 1);
  info->is_signed = is_signed;
  info->scale = scale;
  info->clipped = (double) clipped / ((gsize) width * height
                                      * (info->is_signed && (channels == 2 || channels == 4) ? channels - 1 : channels));
  cairo_surface_set_user_data (surface, &info_key, info, g_free);
  return surface;
}

cairo_surface_t *
latent_figure_dataset_image (LatentDataset *dataset)
{
  guint w, h, c;

  g_return_val_if_fail (dataset != NULL, NULL);

  if (!dataset_shape (dataset, &w, &h, &c) || latent_dataset_get_data (dataset) == NULL)
    return NULL;
  return _latent_figure_values_surface (latent_dataset_get_data (dataset), w, h, c);
}

static const SurfaceInfo *
surface_info (cairo_surface_t *surface)
{
  return surface ? cairo_surface_get_user_data (surface, &info_key) : NULL;
}

/* Half the size, each pixel the mean of four (premultiplied, so alpha
 * averages right); kept on @surface for the next draw. */
static cairo_surface_t *
half_of (cairo_surface_t *surface)
{
  cairo_surface_t *half = cairo_surface_get_user_data (surface, &half_key);
  const int w = cairo_image_surface_get_width (surface), h = cairo_image_surface_get_height (surface);
  const int hw = (w + 1) / 2, hh = (h + 1) / 2;
  const cairo_format_t format = cairo_image_surface_get_format (surface);
  const guint8 *src;
  guint8 *dst;
  int src_stride, dst_stride;

  if (half != NULL)
    return half;
  half = cairo_image_surface_create (format, hw, hh);
  if (cairo_surface_status (half) != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (half);
      return NULL;
    }
  cairo_surface_flush (surface);
  cairo_surface_flush (half);
  src = cairo_image_surface_get_data (surface);
  dst = cairo_image_surface_get_data (half);
  src_stride = cairo_image_surface_get_stride (surface);
  dst_stride = cairo_image_surface_get_stride (half);
  for (int y = 0; y < hh; y++)
    {
      const guint32 *r0 = (const guint32 *) (src + (gsize) (2 * y) * src_stride);
      const guint32 *r1 = (const guint32 *) (src + (gsize) MIN (2 * y + 1, h - 1) * src_stride);
      guint32 *out = (guint32 *) (dst + (gsize) y * dst_stride);

      for (int x = 0; x < hw; x++)
        {
          const int x0 = 2 * x, x1 = MIN (2 * x + 1, w - 1);
          guint32 p = 0;

          for (int shift = 0; shift < 32; shift += 8)
            {
              guint32 sum = ((r0[x0] >> shift) & 0xff) + ((r0[x1] >> shift) & 0xff)
                            + ((r1[x0] >> shift) & 0xff) + ((r1[x1] >> shift) & 0xff);
              p |= ((sum + 2) >> 2) << shift;
            }
          out[x] = format == CAIRO_FORMAT_RGB24 ? p | 0xff000000u : p;
        }
    }
  cairo_surface_mark_dirty (half);
  cairo_surface_set_user_data (surface, &half_key, half, (cairo_destroy_func_t) cairo_surface_destroy);
  return half;
}

static gboolean
is_vector_target (cairo_t *cr)
{
  switch (cairo_surface_get_type (cairo_get_target (cr)))
    {
    case CAIRO_SURFACE_TYPE_PDF:
    case CAIRO_SURFACE_TYPE_PS:
    case CAIRO_SURFACE_TYPE_SVG:
    case CAIRO_SURFACE_TYPE_SCRIPT:
      return TRUE;
    default:
      return FALSE;
    }
}

/* Device pixels per figure unit, as the scatter reads them. */
static double
device_scale (cairo_t                 *cr,
              const LatentFigureStyle *style)
{
  double dx = 1.0, dy = 0.0;

  cairo_user_to_device_distance (cr, &dx, &dy);
  return hypot (dx, dy) * (style->pixel_scale > 0.0 ? CLAMP (style->pixel_scale, 0.25, 8.0) : 1.0);
}

/* @surface's window @view (image pixels) into the rectangle @rect. */
static void
draw_image (cairo_t                 *cr,
            const LatentFigureStyle *style,
            cairo_surface_t         *surface,
            const double            *rect,
            const double            *view)
{
  const double sx = rect[2] / (view[1] - view[0]), sy = rect[3] / (view[3] - view[2]);
  const int w = cairo_image_surface_get_width (surface), h = cairo_image_surface_get_height (surface);
  double pixels = MIN (sx, sy) * device_scale (cr, style);
  cairo_surface_t *level = surface;
  cairo_filter_t filter;

  /* Files keep every pixel; screens and PNGs take the halved copy that is
   * still at least as fine as the device. */
  if (!is_vector_target (cr))
    while (pixels < 0.5 && cairo_image_surface_get_width (level) > 1 && cairo_image_surface_get_height (level) > 1)
      {
        cairo_surface_t *half = half_of (level);

        if (half == NULL)
          break;
        level = half;
        pixels *= 2.0;
      }
  if (pixels >= 1.0 - 1e-6)
    filter = CAIRO_FILTER_NEAREST;   /* zoomed in: the pixels themselves */
  else if (level != surface || !is_vector_target (cr))
    filter = CAIRO_FILTER_BILINEAR;  /* at most halving, from a halved copy */
  else
    filter = CAIRO_FILTER_GOOD;

  cairo_save (cr);
  cairo_rectangle (cr, rect[0], rect[1], rect[2], rect[3]);
  cairo_clip (cr);
  cairo_translate (cr, rect[0], rect[1]);
  cairo_scale (cr, sx, sy);
  cairo_translate (cr, -view[0], -view[2]);
  /* A halved copy's pixel covers the original's, odd edges included. */
  cairo_scale (cr, (double) w / cairo_image_surface_get_width (level),
               (double) h / cairo_image_surface_get_height (level));
  cairo_set_source_surface (cr, level, 0, 0);
  cairo_pattern_set_filter (cairo_get_source (cr), filter);
  cairo_pattern_set_extend (cairo_get_source (cr), CAIRO_EXTEND_PAD);
  cairo_paint (cr);
  cairo_restore (cr);
}

/* Transparent images over the usual grey checks. */
static void
draw_checks (cairo_t      *cr,
             const double *rect)
{
  cairo_surface_t *tile = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 16, 16);
  cairo_t *tc = cairo_create (tile);
  cairo_pattern_t *pattern;

  cairo_set_source_rgb (tc, 0.8, 0.8, 0.8);
  cairo_paint (tc);
  cairo_set_source_rgb (tc, 0.6, 0.6, 0.6);
  cairo_rectangle (tc, 0, 0, 8, 8);
  cairo_rectangle (tc, 8, 8, 8, 8);
  cairo_fill (tc);
  cairo_destroy (tc);

  cairo_save (cr);
  pattern = cairo_pattern_create_for_surface (tile);
  cairo_pattern_set_extend (pattern, CAIRO_EXTEND_REPEAT);
  cairo_pattern_set_filter (pattern, CAIRO_FILTER_NEAREST);
  cairo_set_source (cr, pattern);
  cairo_rectangle (cr, rect[0], rect[1], rect[2], rect[3]);
  cairo_fill (cr);
  cairo_pattern_destroy (pattern);
  cairo_surface_destroy (tile);
  cairo_restore (cr);
}

/* Layout ----------------------------------------------------------------------- */

typedef struct {
  double   f;
  double   top;                /* below the header */
  gboolean side;               /* the kernel and the timings at the right */
  double   side_x, side_w;
  double   bottom;             /* the lowest baseline */
  double   footer;             /* the footer's baseline, under the images */
  double   caption;            /* a caption line above each panel */
  gboolean has_images;
  LatentFigureFilterLayout images;
} Layout;

static gboolean
valid_view (const LatentFigureStyle *style)
{
  const double *v = style->view;

  return style->has_view && isfinite (v[0]) && isfinite (v[1]) && isfinite (v[2]) && isfinite (v[3])
         && v[1] - v[0] > 1e-3 && v[3] - v[2] > 1e-3;
}

static void
layout_compute (LatentSnapshot          *snapshot,
                const LatentFigureStyle *style,
                int                      width,
                int                      height,
                Layout                  *l)
{
  const double f = MAX (style->font_size, 1.0);
  const double gap = round (f);
  double area_x, area_y, area_w, area_h, vw, vh;
  guint iw, ih, ic;

  memset (l, 0, sizeof *l);
  l->f = f;
  l->top = _latent_figure_header (NULL, snapshot, style, width, NULL);
  l->caption = round (f * 1.6);
  l->bottom = height - f * 0.7;

  /* The kernel and the timings have a column of their own when there is room. */
  l->side = width >= f * 36.0 && (snapshot->filter.kernel != NULL || snapshot->filter.method_names != NULL);
  if (l->side)
    {
      l->side_w = round (CLAMP (width * 0.24, f * 11.0, f * 20.0));
      l->side_x = round (width - f - l->side_w);
    }
  if (!image_shape (snapshot, &iw, &ih, &ic))
    return;

  area_x = f;
  area_w = (l->side ? l->side_x - f * 1.5 : width - f) - area_x;
  area_y = l->top;
  area_h = l->bottom - f * 1.4 - area_y;

  l->images.image_width = iw;
  l->images.image_height = ih;
  if (valid_view (style))
    memcpy (l->images.view, style->view, sizeof l->images.view);
  else
    {
      l->images.view[0] = 0.0;
      l->images.view[1] = iw;
      l->images.view[2] = 0.0;
      l->images.view[3] = ih;
    }
  vw = l->images.view[1] - l->images.view[0];
  vh = l->images.view[3] - l->images.view[2];

  if (style->split >= 0.0)
    {
      double pw = area_w, ph = area_h - l->caption, scale = MIN (pw / vw, ph / vh);

      /* Whole multiples of the image's pixels stay crisp. */
      if (!valid_view (style) && scale >= 1.0 && floor (scale) / scale >= 0.8)
        scale = floor (scale);
      pw = round (vw * scale);
      ph = round (vh * scale);
      if (pw < 2.0 || ph < 2.0)
        return;
      l->images.n_panels = 1;
      l->images.panels[0][0] = round (area_x + (area_w - pw) / 2.0);
      l->images.panels[0][1] = round (area_y + l->caption);
      l->images.panels[0][2] = pw;
      l->images.panels[0][3] = ph;
      memcpy (l->images.panels[1], l->images.panels[0], sizeof l->images.panels[0]);
    }
  else
    {
      /* Beside each other, or one above the other when that shows more. */
      double across = MIN ((area_w - gap) / 2.0 / vw, (area_h - l->caption) / vh);
      double down = MIN (area_w / vw, (area_h - 2.0 * l->caption - gap) / 2.0 / vh);
      gboolean stacked = down > across;
      double scale = MAX (across, down), pw, ph, group_w, x0, y0;

      if (!valid_view (style) && scale >= 1.0 && floor (scale) / scale >= 0.8)
        scale = floor (scale);
      pw = round (vw * scale);
      ph = round (vh * scale);
      if (pw < 2.0 || ph < 2.0)
        return;
      group_w = stacked ? pw : 2.0 * pw + gap;
      x0 = round (area_x + (area_w - group_w) / 2.0);
      y0 = round (area_y);
      l->images.n_panels = 2;
      for (guint i = 0; i < 2; i++)
        {
          l->images.panels[i][0] = stacked ? x0 : x0 + i * (pw + gap);
          l->images.panels[i][1] = (stacked ? y0 + i * (ph + l->caption + gap) : y0) + l->caption;
          l->images.panels[i][2] = pw;
          l->images.panels[i][3] = ph;
        }
    }
  l->has_images = TRUE;
  /* The footer reads with the pictures, not at the foot of the figure. */
  l->footer = l->images.panels[l->images.n_panels - 1][1] + l->images.panels[0][3] + f * 1.5;
}

gboolean
latent_figure_filter_layout (LatentSnapshot           *snapshot,
                             const LatentFigureStyle  *style,
                             int                       width,
                             int                       height,
                             LatentFigureFilterLayout *layout)
{
  Layout l;

  g_return_val_if_fail (snapshot != NULL, FALSE);
  g_return_val_if_fail (style != NULL, FALSE);

  layout_compute (snapshot, style, width, height, &l);
  if (layout)
    *layout = l.images;
  return l.has_images;
}

/* The side column of the filter figure: a small kernel, then the timings. */
static void
draw_side (cairo_t                 *cr,
           const LatentFigureStyle *style,
           LatentSnapshot          *snapshot,
           const Layout            *l)
{
  const LatentFilterPart *part = &snapshot->filter;
  const double f = l->f;
  double y = l->top, room = l->bottom - y, side;

  if (part->kernel != NULL && part->kernel_size > 0)
    {
      g_autofree char *heading = _latent_figure_kernel_heading (snapshot);
      g_autofree char *low = NULL, *high = NULL;
      const guint size = part->kernel_size;
      const double scale = _latent_figure_kernel_scale (part->kernel, size);
      double cell, kx;

      /* Room for the timings under it comes first; a long heading may
       * take two lines. */
      side = MIN (l->side_w, room - f * 2.9 - f * 3.0 - _latent_figure_filter_timings_height (snapshot, style) - f);
      cell = floor (side / size);
      if (cell >= 1.0)
        {
          y += f * 1.7 + f * 1.2 * (_latent_figure_filter_heading (cr, style, l->side_x, y + f, l->side_w, heading) - 1);
          kx = round (l->side_x + (l->side_w - cell * size) / 2.0);
          _latent_figure_kernel_cells (cr, style, part->kernel, size, kx, y, cell, size <= INSET_ANNOTATED_SIZE);
          y += cell * size + f * 0.8;
          low = _latent_figure_kernel_weight_label (-scale);
          high = _latent_figure_kernel_weight_label (scale);
          /* Inset, so the end labels centred on its ends stay in the column. */
          _latent_figure_colorbar (cr, style, kx + f * 1.5, y, MAX (f, cell * size - f * 3.0), round (f * 0.6),
                                   low, "0", high);
          y += f * 0.6 + f * 2.4;
        }
    }
  _latent_figure_filter_timings (cr, style, snapshot, l->side_x, y, l->side_w, l->bottom - y);
}

/* Captions and the split ------------------------------------------------------- */

static char *
result_caption (LatentSnapshot *snapshot)
{
  if (snapshot->iteration == 0)
    return g_strdup (_("Before the first pass"));
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "After %u pass", "After %u passes", snapshot->iteration),
                          snapshot->iteration);
}

static void
draw_caption (cairo_t                 *cr,
              const LatentFigureStyle *style,
              const double            *panel,
              const char              *text,
              gboolean                 right)
{
  const double f = MAX (style->font_size, 1.0);
  double w;

  cairo_save (cr);
  _latent_figure_set_font (cr, style, 0.95, FALSE);
  _latent_figure_set_color_mix (cr, style, 0.85);
  w = _latent_figure_text_width (cr, text);
  cairo_move_to (cr, right ? panel[0] + panel[2] - w : panel[0], panel[1] - f * 0.5);
  _latent_figure_show_text (cr, text);
  cairo_restore (cr);
}

static void
frame_panel (cairo_t                 *cr,
             const LatentFigureStyle *style,
             const double            *panel)
{
  cairo_save (cr);
  _latent_figure_set_color_mix (cr, style, 0.35);
  cairo_set_line_width (cr, 1.0);
  cairo_rectangle (cr, panel[0] - 0.5, panel[1] - 0.5, panel[2] + 1.0, panel[3] + 1.0);
  cairo_stroke (cr);
  cairo_restore (cr);
}

/* The line between before and after, with a handle to say it moves. */
static void
draw_split_line (cairo_t      *cr,
                 const double *panel,
                 double        at,
                 double        f)
{
  const double cy = panel[1] + panel[3] / 2.0;
  const double r = MIN (f * 1.1, panel[3] / 4.0);

  cairo_save (cr);
  cairo_rectangle (cr, panel[0], panel[1], panel[2], panel[3]);
  cairo_clip (cr);
  /* White over a dark edge reads on any picture. */
  cairo_set_source_rgba (cr, 0, 0, 0, 0.45);
  cairo_rectangle (cr, round (at) - 2.0, panel[1], 4.0, panel[3]);
  cairo_fill (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_rectangle (cr, round (at) - 1.0, panel[1], 2.0, panel[3]);
  cairo_fill (cr);
  if (r >= 4.0)
    {
      cairo_arc (cr, round (at), cy, r, 0, 2 * G_PI);
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_fill_preserve (cr);
      cairo_set_source_rgba (cr, 0, 0, 0, 0.45);
      cairo_set_line_width (cr, 1.5);
      cairo_stroke (cr);
      /* ◀ ▶ */
      cairo_set_source_rgb (cr, 0.2, 0.2, 0.22);
      for (int side = -1; side <= 1; side += 2)
        {
          cairo_move_to (cr, round (at) + side * r * 0.2, cy - r * 0.38);
          cairo_line_to (cr, round (at) + side * r * 0.62, cy);
          cairo_line_to (cr, round (at) + side * r * 0.2, cy + r * 0.38);
          cairo_close_path (cr);
        }
      cairo_fill (cr);
    }
  cairo_restore (cr);
}

/* The footer: the image's size, how large it is shown, what was clipped. */
static void
draw_footer (cairo_t                 *cr,
             const LatentFigureStyle *style,
             const Layout            *l,
             cairo_surface_t         *after,
             guint                    channels,
             int                      width)
{
  static const char * const layouts[] = { NULL, N_("grey"), N_("grey and alpha"), N_("RGB"), N_("RGBA") };
  const double *view = l->images.view;
  const double zoom = 100.0 * l->images.panels[0][2] / (view[1] - view[0]);
  const SurfaceInfo *info = surface_info (after);
  double clipped = info ? info->clipped : 0.0;
  g_autoptr(GString) s = g_string_new (NULL);
  char number[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append_printf (s, "%u × %u · %s", l->images.image_width, l->images.image_height,
                          _(layouts[CLAMP (channels, 1u, 4u)]));
  g_snprintf (number, sizeof number, zoom >= 10.0 ? "%.0f" : "%.1f", zoom);
  /* Translators: how large the image is drawn, "shown at 250 %". */
  g_string_append_printf (s, _(" · shown at %s %%"), number);
  if (view[1] - view[0] < l->images.image_width - 1e-6)
    /* Translators: the part of the image shown when zoomed: "x 120–380, y 40–235". */
    g_string_append_printf (s, _(" · x %.0f–%.0f, y %.0f–%.0f"), floor (view[0]), ceil (view[1]) - 1,
                            floor (view[2]), ceil (view[3]) - 1);
  if (info != NULL && info->is_signed)
    {
      char scale[64];

      _latent_figure_format_tick (info->scale, info->scale >= 10.0 ? 1 : info->scale >= 1.0 ? 2 : 3, scale,
                                  sizeof scale);
      /* Translators: a result with values either side of 0, drawn on a
       * grey scale: "signed: grey is 0, black −0.85, white +0.85". */
      g_string_append_printf (s, _(" · signed: grey is 0, black −%s, white +%s"), scale, scale);
      if (clipped >= 1e-4)
        {
          g_snprintf (number, sizeof number, clipped >= 0.1 ? "%.0f" : "%.1f", 100.0 * clipped);
          g_string_append_printf (s, _(" · %s %% beyond, shown clipped"), number);
        }
    }
  else if (info != NULL && info->scale > 0.0)
    {
      char scale[64];

      _latent_figure_format_tick (info->scale, info->scale >= 0.1 ? 2 : 3, scale, sizeof scale);
      g_snprintf (number, sizeof number, "%.1f", 1.0 / info->scale);
      /* Translators: a dark result (values 0 to 0.24, as a gradient
       * magnitude's) drawn brighter: "brightened ×4.2: white is 0.24". */
      g_string_append_printf (s, _(" · brightened ×%s: white is %s"), number, scale);
    }
  else if (clipped >= 1e-4)
    {
      g_snprintf (number, sizeof number, clipped >= 0.1 ? "%.0f" : "%.1f", 100.0 * clipped);
      g_string_append_printf (s, _(" · %s %% of the result outside 0–1, shown clipped"), number);
    }

  cairo_save (cr);
  _latent_figure_set_font (cr, style, 0.9, FALSE);
  _latent_figure_set_color_mix (cr, style, 0.65);
  cairo_move_to (cr, l->images.panels[0][0], l->footer);
  if (_latent_figure_text_width (cr, s->str) <= width - l->images.panels[0][0] - l->f)
    _latent_figure_show_text (cr, s->str);
  cairo_restore (cr);
}

static void
_latent_figure_filter_draw (LatentSnapshot          *snapshot,
                            const LatentFigureStyle *style,
                            cairo_t                 *cr,
                            double                   top,
                            int                      width,
                            int                      height)
{
  cairo_surface_t *before = NULL, *after = NULL;
  g_autofree char *caption = NULL;
  guint iw, ih, channels = 0;
  Layout l;

  cairo_save (cr);
  if (!image_shape (snapshot, &iw, &ih, &channels) || snapshot->filter.image == NULL)
    {
      _latent_figure_message (cr, style, width, height, _("No filtered image in this snapshot yet"));
      goto out;
    }
  layout_compute (snapshot, style, width, height, &l);
  if (l.side)
    draw_side (cr, style, snapshot, &l);
  if (!l.has_images)
    goto out;

  before = style->before ? cairo_surface_reference (style->before) : latent_figure_filter_surface (snapshot, FALSE);
  after = style->after ? cairo_surface_reference (style->after) : latent_figure_filter_surface (snapshot, TRUE);
  if (before == NULL || after == NULL)
    {
      _latent_figure_message (cr, style, width, height, _("Not enough memory to draw this image"));
      goto out;
    }

  caption = result_caption (snapshot);
  if (l.images.n_panels == 2)
    for (guint i = 0; i < 2; i++)
      {
        if (channels == 2 || channels == 4)
          draw_checks (cr, l.images.panels[i]);
        draw_image (cr, style, i == 0 ? before : after, l.images.panels[i], l.images.view);
        frame_panel (cr, style, l.images.panels[i]);
        draw_caption (cr, style, l.images.panels[i], i == 0 ? _("Original") : caption, FALSE);
      }
  else
    {
      const double *panel = l.images.panels[0];
      const double at = round (panel[0] + CLAMP (style->split, 0.0, 1.0) * panel[2]);
      double left[4] = { panel[0], panel[1], at - panel[0], panel[3] };
      double right[4] = { at, panel[1], panel[0] + panel[2] - at, panel[3] };
      g_autofree char *before_label = g_strdup_printf ("◀ %s", _("Original"));
      g_autofree char *after_label = g_strdup_printf ("%s ▶", caption);

      if (channels == 2 || channels == 4)
        draw_checks (cr, panel);
      /* Each half clipped from the whole picture, so they meet exactly. */
      cairo_save (cr);
      cairo_rectangle (cr, left[0], left[1], left[2], left[3]);
      cairo_clip (cr);
      draw_image (cr, style, before, panel, l.images.view);
      cairo_restore (cr);
      cairo_save (cr);
      cairo_rectangle (cr, right[0], right[1], right[2], right[3]);
      cairo_clip (cr);
      draw_image (cr, style, after, panel, l.images.view);
      cairo_restore (cr);
      frame_panel (cr, style, panel);
      draw_split_line (cr, panel, at, l.f);
      draw_caption (cr, style, panel, before_label, FALSE);
      draw_caption (cr, style, panel, after_label, TRUE);
    }
  draw_footer (cr, style, &l, after, channels, width);

out:
  if (before)
    cairo_surface_destroy (before);
  if (after)
    cairo_surface_destroy (after);
  cairo_restore (cr);
}

const LatentFigureKindRow _latent_figure_filter_kinds[] = {
  { .kind = LATENT_FIGURE_FILTER,
    .title = N_("Filter"),
    .draw = _latent_figure_filter_draw,
    .only_some = TRUE },
  { .kind = LATENT_FIGURE_AUTO }
};
