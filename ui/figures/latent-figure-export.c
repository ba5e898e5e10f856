/* latent-figure-export.c — figures to files: PNG (libpng, with metadata),
 * SVG and PDF
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-figure-export"

#include "latent-figure-private.h"

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

typedef enum { FORMAT_PNG, FORMAT_SVG, FORMAT_PDF } Format;

/* What an export draws: a snapshot in one of its kinds, or a sweep. */
typedef struct {
  LatentSnapshot    *snapshot;
  LatentFigureKind   kind;
  const LatentSweep *sweep;
  double             scale;     /* file units per figure unit; 0 means 1 */
} Figure;

static void
figure_render (const Figure            *figure,
               const LatentFigureStyle *style,
               cairo_t                 *cr,
               int                      width,
               int                      height)
{
  double scale = figure->scale > 0.0 ? figure->scale : 1.0;

  /* Laid out at the view's size and magnified, so text, lines, markers and
   * margins all grow together, in every format: a transformation, not a
   * larger font, which the renderers' fixed line widths and margins would
   * not follow. Rounded up so the figure paints the whole file. */
  if (scale != 1.0)
    {
      cairo_save (cr);
      cairo_scale (cr, scale, scale);
      width = MAX (1, (int) ceil (width / scale - 1e-6));
      height = MAX (1, (int) ceil (height / scale - 1e-6));
    }
  if (figure->sweep != NULL)
    latent_figure_sweep_render (figure->sweep, style, cr, width, height);
  else
    latent_figure_render (figure->snapshot, figure->kind, style, cr, width, height);
  if (scale != 1.0)
    cairo_restore (cr);
}

/* As the figure's header says it: an algorithm with several figures has
 * them named. */
static char *
snapshot_dup_title (LatentSnapshot   *snapshot,
                    LatentFigureKind  kind)
{
  g_autofree char *title = latent_figure_dup_title (snapshot);

  if (!_latent_figure_names_kind (snapshot))
    return g_steal_pointer (&title);
  return g_strdup_printf ("%s · %s",
                          latent_figure_kind_get_title (latent_figure_resolve_kind (snapshot, kind), snapshot),
                          title);
}

/* The header's title, and for a scatter drawn as a density the note its
 * plot shows, so a file says how its points were drawn without being
 * looked at. @width and @height are the file's. */
static char *
figure_dup_title (const Figure            *figure,
                  const LatentFigureStyle *style,
                  int                      width,
                  int                      height)
{
  double scale = figure->scale > 0.0 ? figure->scale : 1.0;
  LatentFigureKind shown;
  g_autofree char *title = NULL;
  g_autofree char *note = NULL;

  if (figure->sweep != NULL)
    return g_strdup (_latent_figure_sweep_title ());
  title = snapshot_dup_title (figure->snapshot, figure->kind);
  shown = latent_figure_resolve_kind (figure->snapshot, figure->kind);
  if (shown != LATENT_FIGURE_SCATTER
      || !latent_figure_scatter_uses_density (figure->snapshot, style,
                                              MAX (1, (int) ceil (width / scale - 1e-6)),
                                              MAX (1, (int) ceil (height / scale - 1e-6))))
    return g_steal_pointer (&title);
  note = _latent_figure_density_note (latent_dataset_get_n_rows (figure->snapshot->dataset));
  return g_strdup_printf ("%s · %s", title, note);
}

typedef struct {
  FILE *fp;
  int   saved_errno;   /* first write failure, 0 when none */
} Sink;

int
_latent_figure_extension_index (const char         *path,
                                const char * const *extensions)
{
  const char *dot = strrchr (path, '.');
  const char *slash = strrchr (path, G_DIR_SEPARATOR);

  for (int i = 0; dot != NULL && (slash == NULL || dot > slash) && extensions[i] != NULL; i++)
    if (g_ascii_strcasecmp (dot, extensions[i]) == 0)
      return i;
  return -1;
}

static gboolean
format_from_path (const char  *path,
                  Format      *format,
                  GError     **error)
{
  /* In the order of Format. */
  static const char * const extensions[] = { ".png", ".svg", ".pdf", NULL };
  const int index = _latent_figure_extension_index (path, extensions);

  if (index >= 0)
    return (*format = index), TRUE;
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

/* @path NULL: a figure drawn for no file. */
static gboolean
check_size (const char  *path,
            int          width,
            int          height,
            GError     **error)
{
  if (width >= LATENT_FIGURE_MIN_SIZE && width <= LATENT_FIGURE_MAX_SIZE
      && height >= LATENT_FIGURE_MIN_SIZE && height <= LATENT_FIGURE_MAX_SIZE)
    return TRUE;
  if (path != NULL)
    g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_SIZE,
                 _("Cannot export “%s” at %d × %d: width and height must be between %d and %d"),
                 path, width, height, LATENT_FIGURE_MIN_SIZE, LATENT_FIGURE_MAX_SIZE);
  else
    g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_SIZE,
                 _("Cannot draw a figure of %d × %d: width and height must be between %d and %d"),
                 width, height, LATENT_FIGURE_MIN_SIZE, LATENT_FIGURE_MAX_SIZE);
  return FALSE;
}

/* Closes @sink's file and, when all went well, renames it to @path;
 * otherwise removes it. */
static gboolean
close_temporary (Sink        *sink,
                 const char  *tmp_path,
                 const char  *path,
                 gboolean     ok,
                 GError     **error)
{
  /* fclose flushes: a full disk may only show here. */
  if (fclose (sink->fp) != 0 && ok)
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

static cairo_status_t
memory_write (void                *closure,
              const unsigned char *data,
              unsigned int         length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

/* SVG is drawn in memory, its text kept as <text> (latent-figure-text.c)
 * and added before it goes to @sink. */
static gboolean
write_svg (const Figure            *figure,
           const LatentFigureStyle *style,
           Sink                    *sink,
           const char              *path,
           int                      width,
           int                      height,
           GError                 **error)
{
  g_autoptr(GByteArray) svg = g_byte_array_new ();
  g_autoptr(GString) text = g_string_new (NULL);
  cairo_surface_t *surface = cairo_svg_surface_create_for_stream (memory_write, svg, width, height);
  cairo_status_t status = cairo_surface_status (surface);
  cairo_t *cr;

  if (status == CAIRO_STATUS_SUCCESS)
    {
      cairo_svg_surface_set_document_unit (surface, CAIRO_SVG_UNIT_PX);
      _latent_figure_keep_text (surface, text);
    }
  cr = cairo_create (surface);
  figure_render (figure, style, cr, width, height);
  status = cairo_status (cr);
  cairo_destroy (cr);
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  if (status == CAIRO_STATUS_SUCCESS && !_latent_figure_insert_text (svg, text))
    status = CAIRO_STATUS_WRITE_ERROR;
  if (status == CAIRO_STATUS_SUCCESS)
    status = sink_write (sink, svg->data, svg->len);
  return check_cairo (status, sink, path, error);
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
    return write_svg (figure, style, sink, path, width, height, error);
  surface = cairo_pdf_surface_create_for_stream (sink_write, sink, width, height);
  if (cairo_surface_status (surface) == CAIRO_STATUS_SUCCESS)
    {
      g_autofree char *title = figure_dup_title (figure, style, width, height);
      cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_TITLE, title);
      cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, "Latent");
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
collect_snapshot_texts (const Figure     *figure,
                        const char       *title,
                        GArray           *texts,
                        GPtrArray        *strings)
{
  LatentSnapshot *snapshot = figure->snapshot;
  LatentFigureKind kind = figure->kind;
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
collect_texts (const Figure            *figure,
               const LatentFigureStyle *style,
               int                      width,
               int                      height,
               GArray                  *texts,
               GPtrArray               *strings)
{
  g_autofree char *title = NULL;

  if (figure->sweep != NULL)
    {
      collect_sweep_texts (figure->sweep, texts, strings);
      return;
    }
  title = figure_dup_title (figure, style, width, height);
  collect_snapshot_texts (figure, title, texts, strings);
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

/* The one place a figure becomes pixels, so that a still PNG and an
 * animation's frame of the same snapshot are the same image. */
static cairo_surface_t *
render_image (const Figure            *figure,
              const LatentFigureStyle *style,
              int                      width,
              int                      height,
              cairo_status_t          *status)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cairo_t *cr = cairo_create (surface);

  figure_render (figure, style, cr, width, height);
  *status = cairo_status (cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  if (*status == CAIRO_STATUS_SUCCESS)
    *status = cairo_surface_status (surface);
  return surface;
}

static gboolean
encode_surface (cairo_surface_t  *surface,
                GArray           *texts,
                Sink             *sink,
                const char       *path,
                GError          **error)
{
  g_autofree guint8 *row = g_try_malloc ((gsize) cairo_image_surface_get_width (surface) * 4);
  PngFailure failure = { NULL };

  if (row != NULL && encode_png (sink, surface, (png_text *) texts->data, texts->len, row, &failure))
    return TRUE;
  if (sink->saved_errno != 0)
    set_errno_error (error, sink->saved_errno, path);
  else
    g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_RENDER,
                 _("Could not write “%s”: %s"), path,
                 failure.message ? failure.message : _("out of memory"));
  g_free (failure.message);
  return FALSE;
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
  cairo_surface_t *surface;
  cairo_status_t status;
  gboolean ok;

  surface = render_image (figure, style, width, height, &status);
  if (!check_cairo (status, sink, path, error))
    {
      cairo_surface_destroy (surface);
      return FALSE;
    }

  collect_texts (figure, style, width, height, texts, strings);
  ok = encode_surface (surface, texts, sink, path, error);
  cairo_surface_destroy (surface);
  return ok;
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

  if (!format_from_path (path, &format, error) || !check_size (path, width, height, error))
    return FALSE;

  sink.fp = open_temporary (path, &tmp_path, error);
  if (sink.fp == NULL)
    return FALSE;

  if (format == FORMAT_PNG)
    ok = write_png (figure, style, &sink, path, width, height, error);
  else
    ok = write_vector (figure, style, format, &sink, path, width, height, error);
  return close_temporary (&sink, tmp_path, path, ok, error);
}

cairo_surface_t *
latent_figure_render_image (LatentSnapshot          *snapshot,
                            LatentFigureKind         kind,
                            const LatentFigureStyle *style,
                            int                      width,
                            int                      height,
                            double                   scale,
                            GError                 **error)
{
  Figure figure = { .snapshot = snapshot, .kind = kind, .scale = scale };
  cairo_surface_t *surface;
  cairo_status_t status;

  g_return_val_if_fail (snapshot != NULL, NULL);
  g_return_val_if_fail (style != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_size (NULL, width, height, error))
    return NULL;
  surface = render_image (&figure, style, width, height, &status);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_RENDER,
                   _("Could not draw the figure: %s"), cairo_status_to_string (status));
      cairo_surface_destroy (surface);
      return NULL;
    }
  return surface;
}

gboolean
_latent_figure_save_png_image (cairo_surface_t  *surface,
                               const char       *path,
                               GError          **error)
{
  g_autoptr(GArray) texts = g_array_new (FALSE, TRUE, sizeof (png_text));
  g_autoptr(GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *tmp_path = NULL;
  Sink sink = { NULL, 0 };
  gboolean ok;

  sink.fp = open_temporary (path, &tmp_path, error);
  if (sink.fp == NULL)
    return FALSE;
  add_text (texts, strings, "Software", "Latent");
  ok = encode_surface (surface, texts, &sink, path, error);
  return close_temporary (&sink, tmp_path, path, ok, error);
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
latent_figure_export_scaled (LatentSnapshot          *snapshot,
                             LatentFigureKind         kind,
                             const LatentFigureStyle *style,
                             const char              *path,
                             int                      width,
                             int                      height,
                             double                   scale,
                             GError                 **error)
{
  Figure figure = { .snapshot = snapshot, .kind = kind, .scale = scale };

  g_return_val_if_fail (snapshot != NULL, FALSE);
  g_return_val_if_fail (style != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (scale > 0.0 && isfinite (scale), FALSE);
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
