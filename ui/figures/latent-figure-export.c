/* latent-figure-export.c — figure entry points: style, header, dispatch and
 * export to PNG (libpng, with metadata), SVG and PDF
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-figure-export"

#include "latent-figure.h"
#include "latent-figure-linear-private.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

G_DEFINE_QUARK (latent-figure-error-quark, latent_figure_error)

#define FONT_FAMILY "sans-serif"

void
latent_figure_style_init (LatentFigureStyle *style)
{
  g_return_if_fail (style != NULL);

  style->font_size = 13.0;
  style->point_size = 0.0;
  style->dark = FALSE;
  style->trail_length = 0;
  style->pixel_scale = 0.0;
  style->has_view = FALSE;
  style->voronoi = TRUE;
  style->trail = NULL;
  style->n_trail = 0;
  style->split = -1.0;
  style->before = NULL;
  style->after = NULL;
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

gboolean
_latent_figure_dataset_has_image_rows (LatentDataset *dataset)
{
  guint w, h, c;
  gboolean single;

  if (dataset == NULL || !latent_dataset_get_image_shape (dataset, &w, &h, &c, &single))
    return FALSE;
  return !single && (guint64) w * h * c == latent_dataset_get_n_cols (dataset);
}

char *
latent_figure_dup_title (LatentSnapshot *snapshot)
{
  GString *s;

  g_return_val_if_fail (snapshot != NULL, NULL);

  s = g_string_new (_(snapshot->algorithm->short_title));
  if (latent_figure_is_filter (snapshot))
    {
      g_autofree char *filter = _latent_figure_filter_describe (snapshot);
      guint passes = _latent_figure_filter_passes (snapshot);

      if (filter)
        g_string_append_printf (s, " · %s", filter);
      /* Every pass is an iteration; "converged" would say nothing more. */
      if (passes > 0)
        g_string_append_printf (s, _(" · pass %u of %u"), snapshot->iteration, passes);
      else
        g_string_append_printf (s, _(" · pass %u"), snapshot->iteration);
      return g_string_free (s, FALSE);
    }
  if (snapshot->k > 0)
    g_string_append_printf (s, " · K = %u", snapshot->k);
  else if (snapshot->components != NULL && snapshot->n_components > 0 && _latent_figure_linear_is_fa (snapshot))
    g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, " · %u factor", " · %u factors",
                                            snapshot->n_components),
                            snapshot->n_components);
  else if (snapshot->components != NULL && snapshot->n_components > 0)
    g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, " · %u component", " · %u components",
                                            snapshot->n_components),
                            snapshot->n_components);
  if (snapshot->algorithm != NULL)
    g_string_append_printf (s, _(" · iteration %u"), snapshot->iteration);
  if (snapshot->converged)
    g_string_append (s, _(" · converged"));
  return g_string_free (s, FALSE);
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

  step = magnitude * 10.0;
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    if (magnitude * steps[i] >= raw)
      {
        step = magnitude * steps[i];
        break;
      }

  ticks->decimals = MAX (0, (int) -floor (log10 (step) + 1e-9));
  if (fabs (step / magnitude - 2.5) < 1e-9)
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

  if (fabs (value) >= 1e6)
    g_ascii_formatd (tmp, sizeof tmp, "%.3g", value);
  else
    {
      g_autofree char *fmt = g_strdup_printf ("%%.%df", decimals);
      g_ascii_formatd (tmp, sizeof tmp, fmt, value);
    }
  /* A typographic minus lines up with the digits. */
  if (tmp[0] == '-')
    g_snprintf (buf, size, "−%s", tmp + 1);
  else
    g_strlcpy (buf, tmp, size);
}

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
  if (latent_figure_is_filter (snapshot))
    {
      if (snapshot->method != NULL)
        g_string_append_printf (s, " · %s", _latent_figure_filter_method_label (snapshot, snapshot->method));
      if (snapshot->iteration > 0 && isfinite (snapshot->objective))
        g_string_append_printf (s, _(" · RMS change of the last pass %.4g"), snapshot->objective);
    }
  else if (snapshot->components != NULL)
    {
      double explained = 0.0;

      for (guint i = 0; snapshot->explained_variance_ratio && i < snapshot->n_components; i++)
        explained += snapshot->explained_variance_ratio[i];
      if (snapshot->explained_variance_ratio && isfinite (explained))
        g_string_append_printf (s, _(" · %.1f %% of the variance"), 100.0 * explained);
      if (isfinite (snapshot->reconstruction_error))
        g_string_append_printf (s, _(" · reconstruction error %.4g"), snapshot->reconstruction_error);
      if (isfinite (snapshot->log_likelihood))
        g_string_append_printf (s, _(" · log-likelihood %.5g"), snapshot->log_likelihood);
    }
  else if (snapshot->weights && isfinite (snapshot->log_likelihood))
    g_string_append_printf (s, _(" · log-likelihood %.5g · BIC %.6g"), snapshot->log_likelihood, snapshot->bic);
  else if (isfinite (snapshot->objective))
    g_string_append_printf (s, " · %s %.6g",
                            _(snapshot->algorithm->objective_name),
                            snapshot->objective);
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
      cairo_show_text (cr, fitted);
    }
  return y + font * 0.4;
}

double
_latent_figure_header (cairo_t                 *cr,
                       LatentSnapshot          *snapshot,
                       const LatentFigureStyle *style,
                       int                      width)
{
  return _latent_figure_header_named (cr, snapshot, style, width, NULL);
}

double
_latent_figure_header_named (cairo_t                 *cr,
                             LatentSnapshot          *snapshot,
                             const LatentFigureStyle *style,
                             int                      width,
                             const char              *figure)
{
  const double font = MAX (style->font_size, 1.0);
  g_autofree char *run_title = latent_figure_dup_title (snapshot);
  g_autofree char *title = figure ? g_strdup_printf ("%s · %s", figure, run_title) : g_strdup (run_title);
  g_autofree char *data_line = NULL;
  g_autofree char *metrics_line = NULL;
  double y = font;

  if (snapshot->dataset != NULL)
    data_line = dataset_line (snapshot);
  if (snapshot->has_label_metrics)
    metrics_line = g_strdup_printf (_("accuracy %.2f · ARI %.2f · NMI %.2f"),
                                    snapshot->metrics.accuracy, snapshot->metrics.ari,
                                    snapshot->metrics.nmi);

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
      cairo_show_text (cr, fitted);
    }
  y += font * 0.45;

  y = subtitle_line (cr, style, font, width, y, data_line, 0.7);
  y = subtitle_line (cr, style, font, width, y, metrics_line, 0.85);

  if (cr != NULL)
    cairo_restore (cr);
  return y + font * 0.6;
}

/* Words to lines no wider than @room (a word wider than that gets a line
 * of its own). */
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

double
_latent_figure_begin (cairo_t                 *cr,
                             LatentSnapshot          *snapshot,
                             const LatentFigureStyle *style,
                             int                      width,
                             int                      height,
                             LatentFigureKind         kind)
{
  g_autoptr(GError) error = NULL;
  double top;

  _latent_figure_paint_background (cr, style, width, height);
  top = _latent_figure_header_named (cr, snapshot, style, width, latent_figure_kind_get_title (kind, snapshot));
  if (!latent_figure_kind_applies (snapshot, kind, &error))
    {
      _latent_figure_message (cr, style, width, height, error->message);
      return -1.0;
    }
  return top;
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
      cairo_show_text (cr, text);
    }
  cairo_restore (cr);
}

void
latent_figure_render (LatentSnapshot          *snapshot,
                      LatentFigureKind         kind,
                      const LatentFigureStyle *style,
                      cairo_t                 *cr,
                      int                      width,
                      int                      height)
{
  g_return_if_fail (snapshot != NULL);
  g_return_if_fail (style != NULL);
  g_return_if_fail (cr != NULL);

  kind = latent_figure_resolve_kind (snapshot, kind);
  /* The rows of a filtered image are its pixels: millions of them, and no
   * scatter to see in them. */
  if (latent_figure_is_filter (snapshot) && kind != LATENT_FIGURE_FILTER && kind != LATENT_FIGURE_KERNEL)
    {
      g_autoptr(GError) error = NULL;

      _latent_figure_paint_background (cr, style, width, height);
      _latent_figure_header_named (cr, snapshot, style, width, latent_figure_kind_get_title (kind, snapshot));
      if (!latent_figure_kind_applies (snapshot, kind, &error))
        _latent_figure_message (cr, style, width, height, error->message);
      return;
    }
  switch (kind)
    {
    case LATENT_FIGURE_FILTER:
      latent_figure_filter_render (snapshot, style, cr, width, height);
      break;
    case LATENT_FIGURE_KERNEL:
      latent_figure_kernel_render (snapshot, style, cr, width, height);
      break;
    case LATENT_FIGURE_IMAGES:
      latent_figure_images_render (snapshot, style, cr, width, height);
      break;
    case LATENT_FIGURE_SCREE:
      latent_figure_scree_render (snapshot, style, cr, width, height);
      break;
    case LATENT_FIGURE_COMPONENTS:
      latent_figure_components_render (snapshot, style, cr, width, height);
      break;
    case LATENT_FIGURE_BIPLOT:
      latent_figure_biplot_render (snapshot, style, cr, width, height);
      break;
    case LATENT_FIGURE_RECONSTRUCTIONS:
      latent_figure_reconstructions_render (snapshot, style, cr, width, height);
      break;
    case LATENT_FIGURE_SAMPLES:
      latent_figure_samples_render (snapshot, style, cr, width, height);
      break;
    case LATENT_FIGURE_DOTS:
      latent_figure_dots_render (snapshot, style, cr, width, height);
      break;
    case LATENT_FIGURE_AUTO:
    case LATENT_FIGURE_SCATTER:
    case LATENT_FIGURE_N_KINDS:
    default:
      latent_figure_scatter_render (snapshot, style, cr, width, height);
      break;
    }
}

/* Export ------------------------------------------------------------------ */

typedef enum { FORMAT_PNG, FORMAT_SVG, FORMAT_PDF } Format;

/* What an export draws: a snapshot in one of its kinds, or a sweep. */
typedef struct {
  LatentSnapshot    *snapshot;
  LatentFigureKind   kind;
  const LatentSweep *sweep;
} Figure;

static void
figure_render (const Figure            *figure,
               const LatentFigureStyle *style,
               cairo_t                 *cr,
               int                      width,
               int                      height)
{
  if (figure->sweep != NULL)
    latent_figure_sweep_render (figure->sweep, style, cr, width, height);
  else
    latent_figure_render (figure->snapshot, figure->kind, style, cr, width, height);
}

/* As the figure's header says it: PCA, PPCA and FA have several figures,
 * so theirs are named. */
static char *
snapshot_dup_title (LatentSnapshot   *snapshot,
                    LatentFigureKind  kind)
{
  g_autofree char *title = latent_figure_dup_title (snapshot);

  if (!_latent_figure_is_linear (snapshot) && !latent_figure_is_filter (snapshot))
    return g_steal_pointer (&title);
  return g_strdup_printf ("%s · %s",
                          latent_figure_kind_get_title (latent_figure_resolve_kind (snapshot, kind), snapshot),
                          title);
}

static char *
figure_dup_title (const Figure *figure)
{
  if (figure->sweep != NULL)
    return g_strdup (_latent_figure_sweep_title ());
  return snapshot_dup_title (figure->snapshot, figure->kind);
}

typedef struct {
  FILE *fp;
  int   saved_errno;   /* first write failure, 0 when none */
} Sink;

static gboolean
format_from_path (const char  *path,
                  Format      *format,
                  GError     **error)
{
  const char *dot = strrchr (path, '.');
  const char *slash = strrchr (path, G_DIR_SEPARATOR);

  if (dot != NULL && (slash == NULL || dot > slash))
    {
      if (g_ascii_strcasecmp (dot, ".png") == 0)
        return (*format = FORMAT_PNG), TRUE;
      if (g_ascii_strcasecmp (dot, ".svg") == 0)
        return (*format = FORMAT_SVG), TRUE;
      if (g_ascii_strcasecmp (dot, ".pdf") == 0)
        return (*format = FORMAT_PDF), TRUE;
    }
  g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_FORMAT,
               _("Cannot export “%s”: the name must end in .png, .svg or .pdf"), path);
  return FALSE;
}

static void
set_errno_error (GError     **error,
                 int          saved_errno,
                 const char  *path)
{
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
               _("Could not write “%s”: %s"), path, g_strerror (saved_errno));
}

/* A new file beside @path, so the final rename stays on one file system. */
static FILE *
open_temporary (const char  *path,
                char       **tmp_path,
                GError     **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *name = g_strdup_printf (".%s.XXXXXX", base);
  g_autofree char *tmpl = g_build_filename (dir, name, NULL);
  FILE *fp;
  int fd;

  fd = g_mkstemp_full (tmpl, O_WRONLY | O_CREAT | O_EXCL, 0666);
  if (fd < 0)
    {
      set_errno_error (error, errno, path);
      return NULL;
    }
  fp = fdopen (fd, "wb");
  if (fp == NULL)
    {
      int saved = errno;
      close (fd);
      g_unlink (tmpl);
      set_errno_error (error, saved, path);
      return NULL;
    }
  *tmp_path = g_steal_pointer (&tmpl);
  return fp;
}

static cairo_status_t
sink_write (void                *closure,
            const unsigned char *data,
            unsigned int         length)
{
  Sink *sink = closure;

  if (sink->saved_errno != 0)
    return CAIRO_STATUS_WRITE_ERROR;
  if (length > 0 && fwrite (data, 1, length, sink->fp) != length)
    {
      sink->saved_errno = errno != 0 ? errno : EIO;
      return CAIRO_STATUS_WRITE_ERROR;
    }
  return CAIRO_STATUS_SUCCESS;
}

static gboolean
check_cairo (cairo_status_t   status,
             const Sink      *sink,
             const char      *path,
             GError         **error)
{
  if (sink->saved_errno != 0)
    {
      set_errno_error (error, sink->saved_errno, path);
      return FALSE;
    }
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_RENDER,
                   _("Could not draw “%s”: %s"), path, cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}

static gboolean
write_vector (const Figure            *figure,
              const LatentFigureStyle *style,
              Format                   format,
              Sink                    *sink,
              const char              *path,
              int                      width,
              int                      height,
              GError                 **error)
{
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;

  if (format == FORMAT_SVG)
    {
      surface = cairo_svg_surface_create_for_stream (sink_write, sink, width, height);
      if (cairo_surface_status (surface) == CAIRO_STATUS_SUCCESS)
        cairo_svg_surface_set_document_unit (surface, CAIRO_SVG_UNIT_PX);
    }
  else
    {
      surface = cairo_pdf_surface_create_for_stream (sink_write, sink, width, height);
      if (cairo_surface_status (surface) == CAIRO_STATUS_SUCCESS)
        {
          g_autofree char *title = figure_dup_title (figure);
          cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_TITLE, title);
          cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, "Latent");
        }
    }

  cr = cairo_create (surface);
  figure_render (figure, style, cr, width, height);
  status = cairo_status (cr);
  cairo_destroy (cr);
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);

  return check_cairo (status, sink, path, error);
}

typedef struct {
  char *message;
} PngFailure;

static void
png_on_error (png_structp      png,
              png_const_charp  message)
{
  PngFailure *failure = png_get_error_ptr (png);

  if (failure->message == NULL)
    failure->message = g_strdup (message);
  png_longjmp (png, 1);
}

static void
png_on_warning (png_structp      png,
                png_const_charp  message)
{
  g_debug ("libpng: %s", message);
}

static void
png_on_write (png_structp png,
              png_bytep   data,
              size_t      length)
{
  Sink *sink = png_get_io_ptr (png);

  if (sink_write (sink, data, length) != CAIRO_STATUS_SUCCESS)
    png_error (png, g_strerror (sink->saved_errno));
}

static void
png_on_flush (png_structp png)
{
}

static gboolean
is_ascii (const char *s)
{
  for (; *s; s++)
    if ((guchar) *s >= 0x80)
      return FALSE;
  return TRUE;
}

static void
add_text (GArray     *texts,
          GPtrArray  *strings,
          const char *key,
          const char *value)
{
  png_text text = { 0 };
  char *k = g_strdup (key);
  char *v = g_strdup (value ? value : "");

  g_ptr_array_add (strings, k);
  g_ptr_array_add (strings, v);
  /* tEXt is Latin-1 only; names from the person go in iTXt (UTF-8) instead. */
  text.compression = is_ascii (v) ? PNG_TEXT_COMPRESSION_NONE : PNG_ITXT_COMPRESSION_NONE;
  text.key = k;
  text.text = v;
  text.text_length = strlen (v);
  g_array_append_val (texts, text);
}

static void
collect_sweep_texts (const LatentSweep *sweep,
                     GArray            *texts,
                     GPtrArray         *strings)
{
  g_autofree char *range = NULL;
  g_autofree char *best_bic = NULL;
  g_autofree char *best_aic = NULL;
  const LatentSweepPoint *points = (const LatentSweepPoint *) sweep->points->data;
  guint n = sweep->points->len;

  add_text (texts, strings, "Software", "Latent");
  add_text (texts, strings, "Title", _latent_figure_sweep_title ());
  add_text (texts, strings, "latent:figure", "sweep");
  if (n == 0)
    return;
  range = g_strdup_printf ("k=%u..%u", points[0].k, points[n - 1].k);
  add_text (texts, strings, "latent:sweep", range);
  if (sweep->best_bic < n)
    {
      best_bic = g_strdup_printf ("%u", points[sweep->best_bic].k);
      add_text (texts, strings, "latent:best-bic", best_bic);
    }
  if (sweep->best_aic < n)
    {
      best_aic = g_strdup_printf ("%u", points[sweep->best_aic].k);
      add_text (texts, strings, "latent:best-aic", best_aic);
    }
}

static void
collect_snapshot_texts (LatentSnapshot   *snapshot,
                        LatentFigureKind  kind,
                        GArray           *texts,
                        GPtrArray        *strings)
{
  g_autofree char *title = snapshot_dup_title (snapshot, kind);
  g_autofree char *params = snapshot->params ? latent_params_to_string (snapshot->params) : NULL;
  g_autofree char *seed = g_strdup_printf ("%" G_GUINT64_FORMAT, snapshot->seed);
  g_autofree char *iteration = g_strdup_printf ("%u", snapshot->iteration);
  LatentFigureKind shown = latent_figure_resolve_kind (snapshot, kind);

  add_text (texts, strings, "Software", "Latent");
  add_text (texts, strings, "Title", title);
  add_text (texts, strings, "latent:figure", latent_figure_kind_to_string (shown));
  add_text (texts, strings, "latent:algorithm", snapshot->algorithm->id);
  add_text (texts, strings, "latent:params", params);
  add_text (texts, strings, "latent:seed", seed);
  add_text (texts, strings, "latent:iteration", iteration);
  if (snapshot->dataset != NULL)
    {
      add_text (texts, strings, "latent:dataset", latent_dataset_get_name (snapshot->dataset));
      add_text (texts, strings, "latent:dataset-hash", latent_dataset_get_hash (snapshot->dataset));
    }
}

static void
collect_texts (const Figure *figure,
               GArray       *texts,
               GPtrArray    *strings)
{
  if (figure->sweep != NULL)
    collect_sweep_texts (figure->sweep, texts, strings);
  else
    collect_snapshot_texts (figure->snapshot, figure->kind, texts, strings);
}

/* Cairo keeps premultiplied native-endian ARGB; PNG wants straight RGBA bytes. */
static void
unpremultiply_row (const guint32 *src,
                   guint8        *dst,
                   int            width)
{
  for (int x = 0; x < width; x++)
    {
      guint32 p = src[x];
      guint a = p >> 24;

      if (a == 0)
        {
          dst[4 * x] = dst[4 * x + 1] = dst[4 * x + 2] = dst[4 * x + 3] = 0;
          continue;
        }
      dst[4 * x] = (((p >> 16) & 0xff) * 255 + a / 2) / a;
      dst[4 * x + 1] = (((p >> 8) & 0xff) * 255 + a / 2) / a;
      dst[4 * x + 2] = ((p & 0xff) * 255 + a / 2) / a;
      dst[4 * x + 3] = a;
    }
}

/* Kept apart from everything with cleanup attributes: after the longjmp only
 * what was set up before setjmp is safe to use. */
static gboolean
encode_png (Sink            *sink,
            cairo_surface_t *surface,
            png_text        *texts,
            int              n_texts,
            guint8          *row,
            PngFailure      *failure)
{
  png_structp png;
  png_infop info;
  const guint8 *data = cairo_image_surface_get_data (surface);
  int stride = cairo_image_surface_get_stride (surface);
  int width = cairo_image_surface_get_width (surface);
  int height = cairo_image_surface_get_height (surface);

  png = png_create_write_struct (PNG_LIBPNG_VER_STRING, failure, png_on_error, png_on_warning);
  if (png == NULL)
    return FALSE;
  info = png_create_info_struct (png);
  if (info == NULL)
    {
      png_destroy_write_struct (&png, NULL);
      return FALSE;
    }

  if (setjmp (png_jmpbuf (png)))
    {
      png_destroy_write_struct (&png, &info);
      return FALSE;
    }

  png_set_write_fn (png, sink, png_on_write, png_on_flush);
  png_set_IHDR (png, info, width, height, 8, PNG_COLOR_TYPE_RGB_ALPHA,
                PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_text (png, info, texts, n_texts);
  png_write_info (png, info);
  for (int y = 0; y < height; y++)
    {
      unpremultiply_row ((const guint32 *) (data + (gsize) y * stride), row, width);
      png_write_row (png, row);
    }
  png_write_end (png, info);
  png_destroy_write_struct (&png, &info);
  return TRUE;
}

static gboolean
write_png (const Figure            *figure,
           const LatentFigureStyle *style,
           Sink                    *sink,
           const char              *path,
           int                      width,
           int                      height,
           GError                 **error)
{
  g_autoptr(GArray) texts = g_array_new (FALSE, TRUE, sizeof (png_text));
  g_autoptr(GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);
  g_autofree guint8 *row = NULL;
  PngFailure failure = { NULL };
  cairo_surface_t *surface;
  cairo_status_t status;
  gboolean ok;
  cairo_t *cr;

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cr = cairo_create (surface);
  figure_render (figure, style, cr, width, height);
  status = cairo_status (cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  if (!check_cairo (status, sink, path, error))
    {
      cairo_surface_destroy (surface);
      return FALSE;
    }

  collect_texts (figure, texts, strings);
  row = g_try_malloc ((gsize) width * 4);
  ok = row != NULL
       && encode_png (sink, surface, (png_text *) texts->data, texts->len, row, &failure);
  cairo_surface_destroy (surface);

  if (!ok)
    {
      if (sink->saved_errno != 0)
        set_errno_error (error, sink->saved_errno, path);
      else
        g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_RENDER,
                     _("Could not write “%s”: %s"), path,
                     failure.message ? failure.message : _("out of memory"));
      g_free (failure.message);
      return FALSE;
    }
  return TRUE;
}

static gboolean
export_figure (const Figure            *figure,
               const LatentFigureStyle *style,
               const char              *path,
               int                      width,
               int                      height,
               GError                 **error)
{
  g_autofree char *tmp_path = NULL;
  Sink sink = { NULL, 0 };
  Format format;
  gboolean ok;

  if (!format_from_path (path, &format, error))
    return FALSE;
  if (width < LATENT_FIGURE_MIN_SIZE || width > LATENT_FIGURE_MAX_SIZE
      || height < LATENT_FIGURE_MIN_SIZE || height > LATENT_FIGURE_MAX_SIZE)
    {
      g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_SIZE,
                   _("Cannot export “%s” at %d × %d: width and height must be between %d and %d"),
                   path, width, height, LATENT_FIGURE_MIN_SIZE, LATENT_FIGURE_MAX_SIZE);
      return FALSE;
    }

  sink.fp = open_temporary (path, &tmp_path, error);
  if (sink.fp == NULL)
    return FALSE;

  if (format == FORMAT_PNG)
    ok = write_png (figure, style, &sink, path, width, height, error);
  else
    ok = write_vector (figure, style, format, &sink, path, width, height, error);

  /* fclose flushes: a full disk may only show here. */
  if (fclose (sink.fp) != 0 && ok)
    {
      set_errno_error (error, errno, path);
      ok = FALSE;
    }
  if (ok && g_rename (tmp_path, path) != 0)
    {
      set_errno_error (error, errno, path);
      ok = FALSE;
    }
  if (!ok)
    g_unlink (tmp_path);
  return ok;
}

gboolean
latent_figure_export (LatentSnapshot          *snapshot,
                      LatentFigureKind         kind,
                      const LatentFigureStyle *style,
                      const char              *path,
                      int                      width,
                      int                      height,
                      GError                 **error)
{
  Figure figure = { .snapshot = snapshot, .kind = kind };

  g_return_val_if_fail (snapshot != NULL, FALSE);
  g_return_val_if_fail (style != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return export_figure (&figure, style, path, width, height, error);
}

gboolean
latent_figure_sweep_export (const LatentSweep       *sweep,
                            const LatentFigureStyle *style,
                            const char              *path,
                            int                      width,
                            int                      height,
                            GError                 **error)
{
  Figure figure = { .sweep = sweep };

  g_return_val_if_fail (sweep != NULL && sweep->points != NULL, FALSE);
  g_return_val_if_fail (style != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return export_figure (&figure, style, path, width, height, error);
}
